"""Every write at the table: ``drafts`` (live Gosu drafts: seating pods and the organiser's
controls) and ``picks`` (a player's picks, highlights and the pick timer); ``_pods`` holds
what both share (the pod's lock, its engine state, deadlines), private to this package.

Public functions are one ``transaction.atomic(durable=True)`` block each; changes are
announced after commit through ``drafts.pod_changed`` (``gameplay.realtime`` sends them
to the pages), and timers are queued by task name (``core.queue``).
"""
