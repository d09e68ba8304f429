"""Every non-trivial read of the seasons app (issue 26), one module per subject:
``ratings`` (what the ratings are computed from, leaderboards of ratings), ``players``
(a player's history across events), ``leagues`` (seasons and their standings)."""
