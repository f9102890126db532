"""Benchmarks: `make bench` (python -m benchmarks [NAME …]) runs every benchmarks/bench_*.py."""
