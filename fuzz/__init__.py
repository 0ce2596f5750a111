"""Fuzzing harness for the extractors (used by tests/test_fuzz.py and fuzz/run_fuzz.py)."""
