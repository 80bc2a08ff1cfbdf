"""Benchmarks: ``python -m bench.NAME --json`` prints one JSON object of figures measured in one run."""
