"""``python -m rulekb``: the same as the ``rulekb`` console script."""

from rulekb.cli import main

main()
