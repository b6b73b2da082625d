"""Audit checks of wh40k6 (Warhammer 40,000, 6th edition): the unit types' rules.

The checks live in one module per family and register themselves on import:

- :mod:`~validator.audit.wh40k6_bikes`: turbo-boost (limit by type, instead of shooting,
  nothing deliberate after it), no running, no going to ground, one weapon per rider;
- :mod:`~validator.audit.wh40k6_moves`: fall-back dice by type, beasts' and cavalry's 12",
  jump packs (once a turn, 12" in the movement phase), the jet-pack thrust move, the Eldar
  jetbikes' assault-phase move;
- :mod:`~validator.audit.wh40k6_artillery`: no firing after moving, no snap shots, no charge
  while it has guns, a crewman per gun to move;
- :mod:`~validator.audit.wh40k6_monsters`: two weapons at one target for monstrous creatures;
  flight modes, swoop moves and runs, no charge, no templates and hard to hit for flying
  monstrous creatures.

Every number comes from the KB (``validator.rulebook.Rulebook``); shared helpers are in
:mod:`~validator.audit.wh40k6_common`.
"""

from __future__ import annotations

from validator.audit import (  # noqa: F401  (registration)
    wh40k6_artillery,
    wh40k6_bikes,
    wh40k6_monsters,
    wh40k6_moves,
)
