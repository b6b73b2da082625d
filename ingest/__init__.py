"""The ingest pipeline: load → clean → segment → extract → build.

>>> from ingest import load, build      # doctest: +SKIP
>>> kb = build(load(["../shared/corpus"])).kb   # doctest: +SKIP

* :func:`load` reads files or folders (UTF-8 with or without BOM, cp1251, UTF-16/32 with
  BOM; a web page saved as HTML or MHTML) and detects each text's game system;
* :func:`clean` removes site and page furniture, joins hyphenated words and repairs small
  caps, keeping a map back to the source offsets and an account of what it removed;
* :func:`segment` finds the sections and their hierarchy, pages, captions and quotes;
* :mod:`ingest.extract` and :mod:`ingest.facts` find references, citations, grants, limits and
  numbers in each section;
* :func:`build` resolves them into one graph per system.
"""

from ingest.build import Built, build
from ingest.clean import clean
from ingest.load import load, load_file
from ingest.load_error import LoadError
from ingest.segment import segment

__all__ = ["Built", "LoadError", "build", "clean", "load", "load_file", "segment"]
