"""Army lists and game logs checked against the KB; every verdict cites the rules it rests on.

Layout:

- :mod:`validator.inputs` — the input formats (lists, rosters, logs) and their models;
- :mod:`validator.armylist` — the army-list checks and the walker that runs them;
- :mod:`validator.audit` — the game audit: the replay engine, its state, each system's checks;
- shared by both: :mod:`validator.rulebook` (one system of the KB as checks ask it),
  :mod:`validator.registry` (checks registered by name), :mod:`validator.verdicts` (what is
  reported) and :mod:`validator.report` (how it is rendered).
"""
