"""Every write at the table, one module per subject:

- ``drafts``: live Gosu drafts: seating pods and the organiser's controls;
- ``picks``: a player's picks, highlights and the pick timer;
- ``tables``: live tables: opening one, taps, undo, who starts, the scores of each game
  round into the match's result, the table settings (every audit entry of a table);
- ``_pods`` (private): what ``drafts`` and ``picks`` share (the pod's lock, its engine
  state, deadlines);
- ``_tables`` (private): what the table services share (the table under its lock, who
  acts for which seat, the scores' input, the after-commit announcement). The table's
  engine adapter (rows to the engine and back) is ``gameplay.table_engine``, below these
  services and the selectors alike.

Public functions are one ``transaction.atomic(durable=True)`` block each; changes are
announced after commit through ``drafts.pod_changed`` and ``tables.table_changed``
(``gameplay.realtime`` sends them to the pages), and timers are queued by task name
(``core.queue``).
"""
