"""The board drawn as Rich text, with no Textual: what each side knows at one moment (its active
Pokémon, both teams in a row, the field, each side's conditions). Drawn once, shown twice: the
terminal's board widget (`widgets/board.py`) shows it, and the static site turns the same text
into HTML (`site/board.py`), so there is one drawing of a side's state, not two."""
