"""One game: seeds, legal actions, per-side views and the game loop."""
