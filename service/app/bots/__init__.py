"""Bot seats: the runner that moves them and the worker processes searching bots think in."""
