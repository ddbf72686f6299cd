"""Benchmarks: ``python -m bench`` (``make bench``) runs them all and prints a table for each."""
