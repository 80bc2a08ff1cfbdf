"""``python -m service.cli``: the ``dealstream`` command."""

from service.cli import main

raise SystemExit(main())
