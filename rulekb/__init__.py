"""rulekb: a knowledge graph of Russian wargame rule texts, its checks and its reference site."""
