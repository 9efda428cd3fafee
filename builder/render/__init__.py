"""Rendering: counters (counter_*.py, nato.py), maps (map_*.py) and shared helpers (fonts.py, colors.py)."""
