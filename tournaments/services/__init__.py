"""Every write (docs/architecture.md, "Layers"), one module per subject:

- ``people``: accounts and player profiles;
- ``clubs``: clubs, members and roles, invitations;
- ``lifecycle``: creating, editing, publishing, starting and ending a tournament;
- ``entrants``: registration, check-in, drops, re-adds, late entrants;
- ``stages``: a stage begins, its rounds complete, it completes, the tournament finishes;
- ``swiss``: Swiss pairing, re-pairing and swaps, the Swiss settings;
- ``round_clock``: the round clock of every format (start, extend, the warning, time);
- ``results``: result reports per game round, confirmation, disputes, judges;
- ``locks``: the row locks the services take, in ``core.locks``' order.

Public functions are the only way to write. Each is one ``transaction.atomic(durable=True)``
block with keyword-only arguments; private helpers (and the helpers of ``stages``) assume
the caller's transaction. Background work is queued on commit by task name
(``core.queue``), so a service never imports a task module.
"""
