"""Drafts, seats, packs, picks, live tables and turn events (later issues)."""
