"""The rules reference website: ``build_site(kb, out_dir)`` publishes a KB with Sphinx.

>>> from kb.store import load                                  # doctest: +SKIP
>>> build_site(load("kb.json"), Path("site"))                  # doctest: +SKIP
PosixPath('site/index.html')
"""

from rulekb.site.build import build_site
from rulekb.site.errors import SiteBuildError

__all__ = ["SiteBuildError", "build_site"]
