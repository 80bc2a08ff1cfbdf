"""Where the tests find PostgreSQL, and a URL for a schema of one test's own."""

from __future__ import annotations

import os
from urllib.parse import urlencode, urlsplit, urlunsplit

POSTGRES_URL = os.environ.get("DEALSTREAM_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode({"schema": schema})) if q)
    return urlunsplit(parts._replace(query=query))
