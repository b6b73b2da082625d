"""The one exception the site build raises."""

from __future__ import annotations


class SiteBuildError(Exception):
    """The site could not be built; the message says why, in Russian, for the user."""
