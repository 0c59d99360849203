"""The private wing: friends' tables (options, scores, saves, their state and flow)."""
