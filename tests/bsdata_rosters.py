"""Rosters built from real BattleScribe catalogues, the way BattleScribe writes them.

No real 40k 6th/7th or WHFB 8th roster is to be found in public repositories, but their
catalogues are (``../shared/bsdata``, BSData as published). This builds, from a catalogue and
its game system, a roster of every unit entry the catalogue offers, with what BattleScribe
puts in a roster it saves (format 2.03): the unit's profiles (with their profile type's name)
and rules — its own and those it links to — its categories, costs, and the models and
upgrades the entry makes mandatory (minimum counts; a group's default). Names, profiles and
rules are the catalogue's, never invented; only ids and the choice of options are ours.
Read from ``../shared/bsdata`` at test time, never copied into the project.

Both catalogue formats BSData has are read: 2.x (``selectionEntries``, ``infoLinks``,
constraints) and 1.x (``entries``, ``links``, ``minSelections``).

Example::

    xml = roster_xml(BSDATA / "whfb8" / "Lizardmen - 8thBRB_8thAB.cat", units=12)
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

BSDATA = Path(__file__).resolve().parents[2] / "shared" / "bsdata"
NS = "http://www.battlescribe.net/schema/rosterSchema"


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _kids(element: ET.Element, *names: str) -> list[ET.Element]:
    return [c for c in element if _local(c.tag) in names]


def _nested(element: ET.Element, boxes: tuple[str, ...], items: tuple[str, ...]
            ) -> list[ET.Element]:
    return [i for box in _kids(element, *boxes) for i in _kids(box, *items)]


@dataclass
class Catalogue:
    """A catalogue and its game system, indexed by id."""

    root: ET.Element
    system: ET.Element
    by_id: dict[str, ET.Element] = field(default_factory=dict)
    profile_types: dict[str, str] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> Catalogue:
        root = ET.parse(path).getroot()
        system_file = next(p for p in path.parent.glob("*.gst"))
        system = ET.parse(system_file).getroot()
        found = cls(root, system)
        for document in (system, root):
            for element in document.iter():
                ident = element.get("id")
                if ident and ident not in found.by_id:
                    found.by_id[ident] = element
                tag = _local(element.tag)
                if tag == "profileType":
                    found.profile_types[element.get("id", "")] = element.get("name", "")
                if tag in ("categoryEntry", "category") and element.get("name"):
                    found.categories[element.get("id", "")] = element.get("name", "")
        return found


def _minimum(entry: ET.Element) -> int:
    """The fewest of ``entry`` its parent must hold (2.x constraint or 1.x attribute)."""
    old = entry.get("minSelections")
    if old is not None:
        try:
            return max(int(float(old)), 0)
        except ValueError:
            return 0
    for constraint in _nested(entry, ("constraints",), ("constraint",)):
        if (constraint.get("type") == "min" and constraint.get("field") == "selections"
                and constraint.get("scope") == "parent"):
            try:
                return max(int(float(constraint.get("value", "0"))), 0)
            except ValueError:
                return 0
    return 0


def _resolve(cat: Catalogue, element: ET.Element) -> ET.Element | None:
    """An entry link's target (2.x ``entryLink``, 1.x ``link`` of an entry)."""
    target = element.get("targetId")
    return cat.by_id.get(target) if target else element


def _children(cat: Catalogue, entry: ET.Element) -> list[ET.Element]:
    """The entries below ``entry``: its own, its links', and each group's chosen one."""
    out: list[ET.Element] = []
    for child in _nested(entry, ("selectionEntries", "entries"), ("selectionEntry", "entry")):
        out.append(child)
    links = _nested(entry, ("entryLinks",), ("entryLink",)) + [
        link for link in _nested(entry, ("links",), ("link",))
        if link.get("linkType") in ("entry", "entry group")]
    groups = _nested(entry, ("selectionEntryGroups", "entryGroups"),
                     ("selectionEntryGroup", "entryGroup"))
    for link in links:
        target = _resolve(cat, link)
        if target is None:
            continue
        if _local(target.tag) in ("selectionEntryGroup", "entryGroup"):
            groups.append(target)
        elif _minimum(link) or _minimum(target):
            out.append(target)
    for group in groups:
        chosen = group.get("defaultSelectionEntryId") or group.get("defaultEntryId")
        members = _children(cat, group)
        pick = [m for m in members if m.get("id") == chosen] or (
            members[:1] if _minimum(group) else [])
        out.extend(pick)
    return out


def _offered(cat: Catalogue, entry: ET.Element) -> list[ET.Element]:
    """Every entry ``entry`` offers: its own, its links', every member of its groups."""
    out = list(_nested(entry, ("selectionEntries", "entries"), ("selectionEntry", "entry")))
    groups = list(_nested(entry, ("selectionEntryGroups", "entryGroups"),
                          ("selectionEntryGroup", "entryGroup")))
    for link in _nested(entry, ("entryLinks",), ("entryLink",)) + _nested(entry, ("links",),
                                                                            ("link",)):
        target = _resolve(cat, link) if link.get("linkType") in (None, "entry", "entry group") \
            else None
        if target is None:
            continue
        if _local(target.tag) in ("selectionEntryGroup", "entryGroup"):
            groups.append(target)
        elif _local(target.tag) in ("selectionEntry", "entry"):
            out.append(target)
    for group in groups:
        out.extend(_offered(cat, group))
    return out


def _links(cat: Catalogue, entry: ET.Element, kind: str) -> list[ET.Element]:
    """Rules or profiles an entry links to (2.x ``infoLink``, 1.x ``link``)."""
    found: list[ET.Element] = []
    for link in _nested(entry, ("infoLinks",), ("infoLink",)):
        if link.get("type") == kind and (target := cat.by_id.get(link.get("targetId", ""))):
            found.append(target)
    for link in _nested(entry, ("links",), ("link",)):
        if link.get("linkType") == kind and (target := cat.by_id.get(link.get("targetId", ""))):
            found.append(target)
    return found


class RosterBuilder:
    """Builds roster selections from catalogue entries, with ids stable per name."""

    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        self._ids = itertools.count(1)

    def _id(self) -> str:
        digest = hashlib.sha1(str(next(self._ids)).encode()).hexdigest()
        return f"{digest[:4]}-{digest[4:8]}-{digest[8:12]}-{digest[12:16]}"

    def selection(self, entry: ET.Element, number: int, depth: int = 0) -> ET.Element:
        cat = self.cat
        selection = ET.Element("selection", {
            "id": self._id(), "name": entry.get("name", ""), "entryId": entry.get("id", ""),
            "number": str(number), "type": entry.get("type", "upgrade")})
        rules = [*_nested(entry, ("rules",), ("rule",)), *_links(cat, entry, "rule")]
        if rules:
            box = ET.SubElement(selection, "rules")
            for rule in rules:
                ET.SubElement(box, "rule", {"id": self._id(), "name": rule.get("name", ""),
                                            "hidden": "false"})
        profiles = [*_nested(entry, ("profiles",), ("profile",)), *_links(cat, entry, "profile")]
        if profiles:
            box = ET.SubElement(selection, "profiles")
            for profile in profiles:
                box.append(self.profile(profile))
        if depth < 4:
            chosen = [(child, _minimum(child)) for child in _children(cat, entry)]
            if entry.get("type") == "unit" and not any(
                    c.get("type") == "model" and n for c, n in chosen):
                # a unit must have models: the first model entry it offers, once
                first = next((m for m in _offered(cat, entry) if m.get("type") == "model"), None)
                if first is not None:
                    chosen = [(c, n) for c, n in chosen if c is not first] + [(first, 1)]
            children = [self.selection(c, n, depth + 1) for c, n in chosen if n]
            if children:
                box = ET.SubElement(selection, "selections")
                box.extend(children)
        cost = self.cost(entry)
        costs = ET.SubElement(selection, "costs")
        ET.SubElement(costs, "cost", {"name": "pts", "typeId": "points",
                                      "value": f"{cost * number:.1f}"})
        categories = [(self.cat.categories.get(link.get("targetId", "")), link.get("primary"))
                      for link in _nested(entry, ("categoryLinks",), ("categoryLink",))]
        if entry.get("categoryId") in self.cat.categories:  # 1.x
            categories.append((self.cat.categories[entry.get("categoryId", "")], "true"))
        if categories:
            box = ET.SubElement(selection, "categories")
            for name, primary in categories:
                if name:
                    ET.SubElement(box, "category", {"id": self._id(), "name": name,
                                                    "primary": primary or "false"})
        return selection

    def profile(self, profile: ET.Element) -> ET.Element:
        kind = (profile.get("typeName")
                or self.cat.profile_types.get(profile.get("typeId") or "")
                or self.cat.profile_types.get(profile.get("profileTypeId") or "", ""))
        out = ET.Element("profile", {"id": self._id(), "name": profile.get("name", ""),
                                     "hidden": "false", "typeName": kind})
        box = ET.SubElement(out, "characteristics")
        for item in _nested(profile, ("characteristics",), ("characteristic",)):
            characteristic = ET.SubElement(box, "characteristic", {"name": item.get("name", "")})
            characteristic.text = (item.text or item.get("value") or "").strip()
        return out

    @staticmethod
    def cost(entry: ET.Element) -> float:
        for cost in _nested(entry, ("costs",), ("cost",)):
            if cost.get("name", "").strip() in ("pts", "points"):
                return float(cost.get("value", "0") or 0)
        return float(entry.get("points", "0") or 0)


def unit_entries(cat: Catalogue) -> list[ET.Element]:
    """The catalogue's top-level entries that are units or models, in catalogue order."""
    found: list[ET.Element] = []
    roots = _nested(cat.root, ("selectionEntries", "entries"), ("selectionEntry", "entry"))
    roots += [t for link in _nested(cat.root, ("entryLinks",), ("entryLink",))
              if (t := _resolve(cat, link)) is not None]
    for entry in roots:
        if entry.get("type") in ("unit", "model") and entry.get("hidden") != "true":
            found.append(entry)
    return found


def roster_xml(path: Path, *, units: int | None = None, offset: int = 0,
               name: str | None = None) -> bytes:
    """A roster (XML) of the catalogue's unit entries ``offset`` … ``offset + units``."""
    cat = Catalogue.load(path)
    builder = RosterBuilder(cat)
    entries = unit_entries(cat)
    chosen = entries[offset:offset + units] if units is not None else entries[offset:]
    ET.register_namespace("", NS)
    roster = ET.Element(f"{{{NS}}}roster", {
        "id": "gen-0001", "name": name or f"{cat.root.get('name')} ({offset + 1}…)",
        "battleScribeVersion": "2.03", "gameSystemId": cat.system.get("id", ""),
        "gameSystemName": cat.system.get("name", ""),
        "gameSystemRevision": cat.system.get("revision", "1")})
    forces = ET.SubElement(roster, "forces")
    force = ET.SubElement(forces, "force", {
        "id": "gen-force", "name": "Generated from the catalogue",
        "catalogueId": cat.root.get("id", ""), "catalogueName": cat.root.get("name", "")})
    box = ET.SubElement(force, "selections")
    for entry in chosen:
        box.append(builder.selection(entry, 1))
    for element in roster.iter():
        if not element.tag.startswith("{"):
            element.tag = f"{{{NS}}}{element.tag}"
    return ET.tostring(roster, encoding="utf-8", xml_declaration=True)


def catalogues() -> list[Path]:
    """The catalogues of the covered systems' game systems in ``../shared/bsdata``."""
    return sorted(p for folder in ("whfb8", "wh40k7", "killteam2018")
                  for p in (BSDATA / folder).glob("*.cat"))
