"""Live streams: one reader per process over the deals' Redis streams (``hub``) and the per-viewer
parts of each batch it sends (``streams``)."""
