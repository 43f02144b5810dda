"""Bradley–Terry ratings on the Elo scale, bootstrap intervals, Wilson intervals, summaries."""
