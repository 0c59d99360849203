"""The hall: pure platform logic (rooms, matchmaking, tables, settlement), no I/O."""
