"""Pairing and standings engines: pure Python, no Django (DESIGN.md, layer 4)."""
