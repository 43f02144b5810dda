"""Runs: configs, the schedule of mirror pairs, and the resumable runner."""
