"""The watch wing: spectators at live tables, and replays of recorded hands."""
