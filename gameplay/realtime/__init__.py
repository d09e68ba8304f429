"""Live pages over websockets: ``consumers`` (one per page), ``broadcast`` (services'
changes, after commit, to the pages), ``routing`` (the websocket URLs)."""
