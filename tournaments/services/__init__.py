"""Every write (docs/architecture.md, "Layers"), one module per subject:

- ``people``: accounts and player profiles;
- ``clubs``: clubs, members and roles, invitations;
- ``lifecycle``: creating, editing, publishing, starting and ending a tournament;
- ``entrants``: registration, check-in, drops, re-adds, late entrants;
- ``teams``: teams of two, their teammates and names;
- ``guests``: players added by name without an account, bulk entry, claiming a guest;
- ``seating``: fixed tables (accessibility);
- ``stages``: a stage begins, its rounds complete, it completes, the tournament finishes;
- ``swiss``: Swiss pairing, re-pairing and swaps, the Swiss settings;
- ``brackets``: elimination stages (a whole-event bracket or a cut), adding and advancing
  every stage played from a fixed schedule;
- ``round_robins``: round-robin stages and group stages;
- ``pods``: pod stages and their seating (their results: ``results``, by the pods' names);
- ``round_clock``: the round clock of every format (start, extend, the warning, time);
- ``results``: the one path of every match's result, whatever its number of seats:
  reports per game round, confirmation, disputes, judges, corrections;
- ``seat_rules``: the game's rules a match's seats play (two sides, or a pod's game);
- ``outcomes``: a match's outcome, per seat and in its two-sided columns;
- ``judge_calls``: calling a judge to a table;
- ``projector``: the projector's announcement;
- ``locks``: the row locks the services take, in ``core.locks``' order;
- ``_entries`` (private): what ``entrants`` and ``teams`` share.

Public functions are the only way to write. Each is one ``transaction.atomic(durable=True)``
block with keyword-only arguments; private helpers (and the helpers of ``stages``) assume
the caller's transaction. Background work is queued on commit by task name
(``core.queue``), so a service never imports a task module.
"""
