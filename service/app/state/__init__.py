"""What this process knows of each deal, shared by the command side, the read side and the live
streams: the fold cache, the seat tokens, the presence of live streams. ``service/bootstrap.py``
makes each once."""
