"""The arena report shipped with the package (read by ``service.app.reads.catalog``)."""
