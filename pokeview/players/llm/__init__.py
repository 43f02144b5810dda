"""Language-model players: PokéBench's prompt (version 3), an OpenAI-compatible streaming client,
answer parsing with re-asks, and the players file."""
