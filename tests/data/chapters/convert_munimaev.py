"""Turn ``js/WH_SpecialRules.class.js`` of munimaev/Warhammer40K-builder into a rules text.

``python3 convert_munimaev.py WH_SpecialRules.class.js > OUT.txt`` writes each rule that has
both a Russian name (``nameRus``) and a Russian text (``textRus``), in the file's order: the
name on a line of its own, a blank line, the text as the file holds it (its ``\\n`` escapes
as line breaks, its letters as they are, decomposed ones included). Rules with only an
English text, or none, are left out.
"""

from __future__ import annotations

import re
import sys

FIELD = re.compile(r"(\w+)\s*:\s*'((?:[^'\\]|\\.)*)'", re.S)
ESCAPES = {"n": "\n", "t": "\t"}


def unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), value, flags=re.S)


def main() -> None:
    source = open(sys.argv[1], encoding="utf-8").read()
    # the rules are the argument of a call "WH_SpecialRuleFabric([ … ])" (the main file also
    # defines the function first)
    defined = source.find("var WH_SpecialRuleFabric")
    start = source.index("WH_SpecialRuleFabric([", defined + 30 if defined >= 0 else 0)
    rules = []
    for block in re.split(r"\n\}\s*,\s*\{", source[start:]):
        fields = {k: unescape(v) for k, v in FIELD.findall(block)}
        name, text = fields.get("nameRus", "").strip(), fields.get("textRus", "").strip()
        if name and text:
            rules.append(f"{name}\n\n{text}\n")
    sys.stdout.write("\n".join(rules))


if __name__ == "__main__":
    main()
