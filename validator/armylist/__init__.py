"""Army-list checks: the walker (:mod:`.walker`), the names it resolves (:mod:`.context`) and
the registered checks (``checks_*.py``, rule parameters in :mod:`.parameters`).

Three verbs::

    report = check_list(read_list("eldar.yaml"), graph)
    reports = check_lists(["tournament/"], graph)       # one report per list file
    code = write_lists(["tournament/"], graph, sys.stdout, "text")   # streams, with a table
"""

from validator.armylist.walker import check_list, check_lists, write_lists

__all__ = ["check_list", "check_lists", "write_lists"]
