"""Checks every system shares: none yet beyond the walker's own (unknown units, order)."""
