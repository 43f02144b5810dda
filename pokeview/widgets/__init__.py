"""Reusable widgets. Untrusted text goes in as rich Text (never markup strings)."""
