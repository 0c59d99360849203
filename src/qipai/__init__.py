"""qipai 棋牌: a self-hostable online card-game hall.

The package is layered (see ``docs/architecture.md``): :mod:`qipai.cards` at the bottom,
then the pure game engines under :mod:`qipai.games`, then bots, the hall, the store and
the server.  Importing :mod:`qipai` imports no game: each is imported by name when used.
"""

__version__ = "0.1.0"
