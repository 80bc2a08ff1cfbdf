"""All I/O: the Redis event store, the HTTP API, the bot runner, the CLI and the web client."""
