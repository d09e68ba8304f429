"""The tournaments app's live pages, on ``core.live``: ``consumers`` (a bracket's or round
robin's page, a tournament's projector screen and the pages that follow its feed),
``broadcast`` (the services' changes, after commit, to those pages), ``routing`` (their
websocket URLs, collected in ``config/routing.py``)."""
