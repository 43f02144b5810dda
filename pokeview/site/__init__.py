"""`pokeview site`: a run's or a ladder's record as a directory of static pages.

An index (the report's findings), a page per player, a list of games and a page per game (its
battle log in Showdown's words, turn by turn, each decision's prompt, reasoning and answer). It
works from `file://` and any static host: nothing is fetched from elsewhere, and the only script
is pokeview's own (`pokeview/site_files/site.js`), which moves between turns, draws the board
and filters lists. Every untrusted text is escaped where the page is written, and what the
script draws from data it sets as text: it never builds markup.
"""
