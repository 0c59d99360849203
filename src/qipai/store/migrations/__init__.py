"""Alembic's script directory for the store: ``env.py``, ``script.py.mako`` and ``versions/``.

:func:`qipai.store.database.migrate` runs it (script location ``qipai.store:migrations``);
how to add a revision is in ``docs/ledger.md``.
"""
