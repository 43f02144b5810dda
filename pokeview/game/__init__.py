"""The game's vocabulary, declared once as msgspec structs: a side's state, a decision's detail
by kind, the bridge's commands and replies. Everything above reads these types; this package
imports nothing of pokeview, so any part may use it."""
