"""The games' rules as pure Python: no Django, no I/O, deterministic given a seed.

Source texts and this project's reading of their gaps: ``../shared/rules/`` (README.md).
Modules: ``cards`` (suits, ranks, decks, seeded shuffles), ``outcome`` (shared result
types and the best-of-N match outcome), one module per game (``gesoseka``,
``vanilla_gwent``, ``kontsina``, ``generic``), ``games`` (the registry by game code),
``draft`` (Gosu draft) and ``turn_limit`` (the turn limit after a pass).
"""
