"""Bots: the 托管 policies that play for an absent player, and simple opponents.

A policy sees only a seat's :class:`~qipai.games.doudizhu.view.View` (never the state),
so a bot can no more cheat than a player can.
"""
