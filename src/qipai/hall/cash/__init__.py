"""The cash wing: the rooms with stakes, their matchmaking and their head counts."""
