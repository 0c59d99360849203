"""The hall's economy 福利: 每日签到 (a daily check-in grant growing with the streak),
破产补助 (relief for a broke player, a few times a day) and 每日任务 (daily tasks counted
from settled hands).  Pure rules: :mod:`.settings` reads the rooms file's ``[economy]``
section, :mod:`.rules` says what a day pays and draws; the store pays through the ledger
(:mod:`qipai.store.economy`) and the edge reads the clock (``docs/hall.md``, "The
economy")."""
