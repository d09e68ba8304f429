"""The gameplay app's live pages, on ``core.live``: ``consumers`` (the draft pod and the live
table), ``broadcast`` (the services' snapshots, after commit, to the pages), ``routing``
(their websocket URLs, collected in ``config/routing.py``)."""
