"""pokeview: run, record, replay and play Pokémon Showdown games."""

__version__ = "0.1.0"
