"""The pure game engines: one sub-package per game, imported by name."""
