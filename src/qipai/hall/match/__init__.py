"""The match wing: tournaments (config, runs, desk, Swiss pairing, standings, prizes)."""
