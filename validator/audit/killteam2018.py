"""Audit checks of killteam2018 (filled in by the system's checks)."""
