"""The error of reading rule texts (:mod:`ingest.load` and the corpus description it reads,
:mod:`ingest.corpus_config`)."""

from __future__ import annotations


class LoadError(Exception):
    """A file or folder that cannot be read as rule texts; the message says why (Russian).

    The message is ``"PATH: why"``, the path first, as every message of this module starts.
    """

    def where_and_why(self) -> tuple[str, str]:
        """The path and the reason, apart."""
        where, _, why = str(self).partition(": ")
        return where, why
