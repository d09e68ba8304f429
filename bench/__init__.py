"""Benchmarks run by hand; each prints its figures (``python -m bench.swiss``)."""
