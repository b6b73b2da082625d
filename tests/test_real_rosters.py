"""Real BattleScribe rosters, read exactly as found, and rosters built from real catalogues.

``tests/data/rosters/real/SOURCES.toml`` says where each roster comes from and what a check
must give: read (exit < 2), every model counted, the roster's own points, no violation and no
warning on these legal lists, and one ``not_covered`` per distinct name per unit. No public
40k 6th/7th or WHFB 8th roster exists in the index, so those systems are measured on rosters
built from the real BSData catalogues (:mod:`bsdata_rosters`), every unit entry of each.
"""

from __future__ import annotations

import io
import re
import tomllib
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from bsdata_rosters import BSDATA, catalogues, roster_xml

from kb.graph import Graph
from validator.armylist import check_list, write_lists
from validator.inputs.models import ListInputError
from validator.inputs.roster import parse_roster, read_roster
from validator.verdicts import Report

REAL = Path(__file__).parent / "data" / "rosters" / "real"
SOURCES = tomllib.loads((REAL / "SOURCES.toml").read_text(encoding="utf-8"))
# what a weapon's «Type» looks like: never a unit's type
WEAPON_TYPE = re.compile(r"^(?:Assault|Heavy|Rapid Fire|Pistol|Grenade|Melee|Salvo|Ordnance)\b")
needs_bsdata = pytest.mark.skipif(not BSDATA.is_dir(), reason="../shared/bsdata is not here")


def _roster_cost(path: Path) -> int:
    root = ET.parse(path).getroot()
    costs = [c for c in root if c.tag.endswith("costs")]
    return round(sum(float(c.get("value", "0")) for box in costs for c in box
                     if c.get("name") == "pts"))


def _one_per_name(report: Report) -> None:
    """No unit has two ``not_covered`` verdicts of a check about the same name."""
    seen = Counter((v.unit, v.check, v.why.split(":")[0]) for v in report.verdicts
                   if v.verdict == "not_covered")
    assert [key for key, count in seen.items() if count > 1] == []


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_real_roster_reads_and_checks_clean(name: str, corpus_graph: Graph) -> None:
    expected = SOURCES[name]
    path = REAL / name
    army = read_roster(path)
    assert army.system == expected["system"]
    assert len(army.units) == expected["units"]
    assert sum(u.models for u in army.units) == expected["models"]
    points = sum(u.points or 0 for u in army.units)
    assert points == expected["points"] == _roster_cost(path)
    assert army.points_limit == expected.get("points_limit")
    report = check_list(army, corpus_graph)
    summary = report.summary
    assert (summary.violation, summary.warning, summary.not_covered) == (
        expected["violations"], expected["warnings"], expected["not_covered"])
    _one_per_name(report)
    out = io.StringIO()
    assert write_lists([path], corpus_graph, out, "text") == expected["exit"]


def test_every_real_roster_is_listed_with_its_source() -> None:
    assert sorted(SOURCES) == sorted(p.name for p in REAL.glob("*.ros"))
    for entry in SOURCES.values():
        assert set(entry) >= {"repository", "path", "commit", "split", "system", "exit"}
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"])
    assert {e["split"] for e in SOURCES.values()} == {"tune", "heldout"}


def test_kill_team_models_keep_custom_names_keywords_and_abilities() -> None:
    army = read_roster(REAL / "huans-asuryani.ros")
    exarch = army.units[0]
    assert (exarch.name, exarch.custom_name, exarch.id) == (
        "Dire Avenger Exarch", "Eldos the Unyielding Fire", "eldos-the-unyielding-fire")
    assert exarch.type is None  # a Kill Team model has keywords, not a type …
    assert exarch.keywords == ("Aeldari", "Asuryani", "Infantry", "Aspect Warrior",
                               "Dire Avenger", "Ulthwe")  # … and never «Assault 2»
    assert exarch.rules == ("Battle Fortune", "Ancient Doom", "Battle Focus", "Defence Tactics",
                            "Resourceful")  # abilities profiles, and the specialism's
    assert army.rules == ("Foresight of the Damned (Ulthwe)",)  # the force's rule
    assert army.locations["units[0]"] == "Kill Team List › Dire Avenger Exarch «Eldos the " \
                                         "Unyielding Fire»"


def test_a_roster_verdict_points_at_its_selection(corpus_graph: Graph) -> None:
    report = check_list(read_roster(REAL / "deathwatch-commander.ros"), corpus_graph)
    verdict = next(v for v in report.verdicts if v.unit == "vanguard-veteran")
    assert verdict.path == "Kill Team List › Vanguard Veteran"
    assert verdict.line is None  # a roster has no useful lines
    assert report.units is not None and report.units[1].keywords[-2:] == ("Fly", "Jump Pack")


# --- rosters built from the real catalogues ---------------------------------------------------


@needs_bsdata
@pytest.mark.parametrize("catalogue", catalogues(), ids=lambda p: p.stem)
def test_catalogue_roster_checks_without_false_violations(catalogue: Path,
                                                          corpus_graph: Graph) -> None:
    """Every unit entry of a real catalogue, in a roster as BattleScribe writes it: read, its
    type from its own profile (never a weapon's), and not one violation."""
    army = parse_roster(roster_xml(catalogue), file=catalogue.name)
    assert army.units
    assert all(u.models >= 1 for u in army.units)
    assert not [u.type for u in army.units if u.type and WEAPON_TYPE.match(u.type)]
    report = check_list(army, corpus_graph)
    assert [v.why for v in report.verdicts if v.verdict == "violation"] == []
    _one_per_name(report)


@needs_bsdata
def test_lizardmen_rosters_of_the_issue_are_clean(corpus_graph: Graph) -> None:
    """The issue's legal Lizardmen list got 23 violations («Cold-blooded», «Terror»…); none is
    real: what the corpus lacks is not covered, «Impact Hits (D6+1) (FAQ'ed)» is the rule
    with a value it cannot check and a note."""
    catalogue = BSDATA / "whfb8" / "Lizardmen - 8thBRB_8thAB.cat"
    army = parse_roster(roster_xml(catalogue), file=catalogue.name)
    report = check_list(army, corpus_graph)
    assert report.summary.violation == 0
    whys = {v.why for v in report.verdicts}
    assert any("«Cold-Blooded»" in why and "нет: оно не проверено" in why for why in whys)
    impact = [v for v in report.verdicts if "Impact Hits (D6+1)" in v.why]
    assert impact and {v.verdict for v in impact} == {"not_covered"}
    stegadon = next(u for u in army.units if u.name == "Stegadon")
    assert stegadon.type == "Monster" and stegadon.models == 1 + 5  # the beast and its crew


def test_a_roster_reads_the_same_through_either_xml_parser() -> None:
    """A roster without a document type declaration (no entities possible) is read by the C
    tree builder, one that declares one by defusedxml: the same roster either way, and an
    entity is still refused."""
    data = (REAL / "ghd-kroot-125.ros").read_bytes()
    head, _, rest = data.partition(b"?>")
    declared = head + b"?>\n<!DOCTYPE roster>" + rest
    fast, safe = parse_roster(data, file="a.ros"), parse_roster(declared, file="a.ros")
    assert fast.units == safe.units and fast.rules == safe.rules
    bomb = head + b'?>\n<!DOCTYPE roster [<!ENTITY a "x">]>' + rest.replace(
        b'name="Kroot 125"', b'name="&a;"', 1)
    with pytest.raises(ListInputError, match="сущност"):
        parse_roster(bomb, file="b.ros")
