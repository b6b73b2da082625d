"""Audit checks of whfb8 (filled in by the system's checks)."""
