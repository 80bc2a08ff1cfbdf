"""Where the tests find PostgreSQL, and a URL for a schema of one test's own."""

from __future__ import annotations

import os
from urllib.parse import urlencode, urlsplit, urlunsplit

from tests import servers

# set by tests/conftest.py for the session (the one named, or one started for it)
POSTGRES_URL = os.environ.get(servers.POSTGRES_VAR) or servers.postgres_url()


def with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode({"schema": schema})) if q)
    return urlunsplit(parts._replace(query=query))
