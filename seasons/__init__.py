"""A club's life across events (issue 26): every player's history, ratings per club and
game, leagues and seasons. It consumes the ``result.confirmed`` event
(``core.audit.event_recorded``) and reads the tournaments' rows; nothing in
``tournaments`` knows it is here (``seasons -> tournaments -> core``).

- ``rating`` (pure): openskill's Plackett-Luce model over results in play order;
- ``models``: a club's ratings per game (``Rating``), each confirmed match's change to
  each player's rating (``RatingChange``), and the book that says what they were computed
  from (``RatingBook``);
- ``selectors``: the confirmed matches of a club and game in play order;
- ``services.ratings``: the recompute (idempotent: from the results, whatever ran before);
- ``tasks``: the recompute on Celery, after each confirmation.
"""
