"""Outgoing notifications: e-mail, web push and club webhooks, through an outbox.

Every event of a tournament's feed (``core.audit.record_event``) that matters to someone
becomes outbox rows in the same transaction (``services.outbox.fan_out``, connected to
``core.audit.event_recorded``): one row per recipient and channel, unique by its key, so
an event is never lost with a rolled-back change and never queued twice. A Celery task
delivers the rows after the commit (``services.delivery``), claiming them with ``SKIP
LOCKED`` so workers never send one row at once, retrying with backoff; a beat sweeper
(and, without a worker, the embedded clock, in a thread of its own) delivers whatever is
due. A slow or failing endpoint holds only its own row: no pairing or result ever waits for it.

The app sits beside ``gameplay`` above ``tournaments``: ``notifications -> tournaments ->
core``; nothing below it imports it (the events reach it through core's signal).
"""
