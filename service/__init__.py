"""All I/O: the Redis event store, the HTTP API, the bot runner, the CLI and the web client."""

# The one version of the product: the package's metadata (pyproject.toml reads it from here),
# `dealstream --version`, /health, /openapi.json's info.version and the metric
# dealstream_build_info all show this string.
__version__ = "0.1.0"
