"""Audit checks of wh40k6 (filled in by the system's checks)."""
