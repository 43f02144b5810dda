"""Errors a person can cause or fix. The CLI prints them as one line, never a traceback."""


class PokeviewError(Exception):
    """A problem with a clear one-line explanation for the person at the keyboard."""


class NodeMissing(PokeviewError):
    pass


class BridgeDied(PokeviewError):
    """The Node process hosting the battles ended; every battle in it is lost."""


class BattleRefused(PokeviewError):
    """Showdown would not start or continue one battle (bad format, bad team, a crash inside)."""


class UnknownGame(PokeviewError):
    pass


class PlayerFailed(PokeviewError):
    """A player raised or answered outside its legal actions; the game is kept as an error."""
