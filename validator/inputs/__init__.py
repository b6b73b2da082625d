"""The validator's input formats: army lists (YAML/JSON, :mod:`.lists`), BattleScribe rosters
(:mod:`.roster`), game logs (:mod:`.gamelog`), and their models (:mod:`.models` for lists and
input errors, :mod:`.events` for the events of a log)."""
