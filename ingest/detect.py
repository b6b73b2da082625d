"""Which game a text is about, judged statistically from the words of each game.

Every text is reduced to its *terms*: the lemmas of its words (``kb.lemmas``), crude stems of
its Latin words (the English glosses of Kill Team's Russian pages: "нападение (charge)"), and
pairs of adjacent terms ("боевой единица", "kill team", "warhammer 40"). The table
``ingest/data/system_terms.tsv`` holds, for every term, how many training sources of each class
hold it — pages and chapters of the three known games, and pages of other games (``other``).
Each source is cut into pieces of about a page (:data:`PIECE`) and counts the share of its
pieces that hold the term, so a long chapter weighs as much as a short page; a line that stands
in two sources (a site's header) is left out, so a site is no game's word.
``tests/detect_training.py`` builds the table from the corpus, the held-out sets already read
(development sets) and ``tests/data/detect/``; a test checks the committed table is what that
gives.

A text is judged in two steps, piece by piece:

* *which game*: a naive-Bayes log-likelihood over the terms it holds, each game against the
  others (a term peculiar to one game — "боевой единица", "подразделение", "kill team",
  "чардж" — weighs for it; a word every game's pages hold about alike weighs nothing,
  :data:`TELLING`); the best game must
  lead the next by :data:`MARGIN` (natural-log odds, about 400 to 1, for a page's worth of
  text; a shorter text needs less, down to :data:`SHORT_MARGIN` for a line: the terms of a
  page are not independent, so their sum overstates the odds the more, the more it holds),
  and one of the words weighing for it must be the game's own (:data:`OWN_SHARE`); a game
  built on another's rules (:data:`BUILT_ON`) that leads by words of neither's own, in a
  text holding words of the other's own, gives way to the other (a 40k rulebook page's
  "вражеский модель" and "бросок D6" are Kill Team's words as much, "боевой единица" 40k's
  own);
* *a game of ours at all*: a Bernoulli naive-Bayes likelihood (the terms present and absent) of
  a page of that game against a page of another game must favour the game by
  :data:`GAME_MARGIN`.

Then the *names* of games the text holds (:mod:`ingest.game_names`: "Warhammer 40,000", "Kill Team",
"Warhammer Fantasy", and the names of other games — "Age of Sigmar", "Некромунда", "Blood Bowl",
a role-playing game's): a page that talks about a game rather than states its rules (an
article, a review, a forum post) holds few of its rules' words but names it. A text naming
one game of ours more often than any other (Kill Team before 40k on a tie: a Kill Team page
names the game it is a skirmish of) and other games less often is of that game when its
words leave it unclear, or when they point to a game built on the named game's rules
(:data:`BUILT_ON`) that the text never names, or when it names its game again and again
(:data:`NAMED_OVER_WORDS` times, once a page at least), never the game its words lean to, and
holds no world's things that say otherwise (a club's tournament post, "Правила Warhammer FB
турнира", whose words are those of clubs and tournaments); otherwise a text whose words
describe a game's rules is of that game whatever else it mentions. A text whose words point to
a game of ours but which names other games more often than any of ours is unclear. "Warhammer"
alone names the fantasy battle game in a text that names no game in full,
and a name never outweighs a clear setting of the other world ("пришедшему в вархаммер" on a
page of space marines is the hobby, not WHFB).

Then the *setting*, the world the text's things belong to (:func:`settings`, the table
``ingest/data/settings.tsv``): 40k and Kill Team are set in the far future (космодесантники,
болтеры, техника, псайкеры, некроны), WHFB in a fantasy world (гномы, скавены, Бретонния,
арбалеты, боевые машины); the words both worlds share (орки, Хаос, демоны) are in neither. The
rules words of other editions are not those of the editions learned (40k's older editions
said "отряд" and "тест на Мораль", as WHFB does), but a 40k page of any edition, an article or
a forum post speaks of its world. A setting is *clear* when the text holds :data:`SETTING_MIN`
distinct words of it and more than :data:`SETTING_RATIO` times as many as of the other
world. A clear
setting

* turns a text whose words chose a game of the other world into the first game of its own
  (:data:`WORLDS`: a 5th-edition 40k page whose rules words are WHFB's);
* names the first game of its world for a text left unclear, when :data:`SETTING_MIN` of its
  words are the world's own (a coinage or a proper name of Games Workshop's world: «болтер»,
  «скавены», not «маг» or «планета», which any fantasy or science-fiction game has), the
  text names no other game and states no role-playing rules (an article or a forum post on
  40k that names no game).

A text whose rules words lead by less than it needs (:func:`needed_margin`) between games of
the two worlds goes to the game of the world :data:`SETTING_LEAN` of its words belong to that
it names, or else to the best of that world (a Kill Team page on a 40k army's models, whose
words are 40k's too, names Kill Team); one whose rules words lead clearly but look like
another game's page too (a lead short of :data:`GAME_MARGIN`: a campaign's map, events and
missions, the Wood Elves' treemen of Athel Loren; not by :data:`WORLD_GAME` or more) is of
that game when its clear world is the game's and holds a word of the world's own; so is one
whose rules words lead only the other game of the same world (40k against Kill Team: their
words are much alike), the game it names going first, else the world's first game.

A text that holds :data:`ROLEPLAY_MIN` words of a role-playing game's rules (a game master,
player characters, careers, experience points) is of a role-playing game set in the same world
(Dark Heresy, Warhammer Fantasy Roleplay), and one whose words of Age of Sigmar's Mortal
Realms outnumber those of WHFB's world is of Age of Sigmar: both are unclear, whatever their
rules words say.

A text with no Russian word is of the game of ours it names, or else unclear: the words of
English pages stand in the training only as what Russian pages quote of the original books.

A text whose words leave it unclear, with nothing saying it is another game's (role-playing
rules, Age of Sigmar's world, other games named more often than ours), is judged by the letters
of its words too (:mod:`ingest.detect_chars`: a linear model over runs of characters, which a
short page or one whose rules words two games share holds plenty of). Otherwise the system is
unclear, and the caller says so. A text that names two games is judged
by all its words, so the game whose rules it describes wins.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from ingest.detect_chars import MARGIN as LETTERS_MARGIN
from ingest.detect_chars import CharModel, letters_opinion
from ingest.detect_terms import terms
from ingest.detect_world import (
    KIND_TITLES,
    ROLEPLAY_MIN,
    SETTING_KINDS,
    SETTING_LEAN,
    SETTING_MIN,
    WORLDS,
    clear_world,
    setting_words,
)
from ingest.game_names import OTHER, SYSTEMS, game_names, named_game

CLASSES: tuple[str, ...] = (*SYSTEMS, OTHER)
TABLE = "data/system_terms.tsv"

PIECE = 2_000
"""Training texts are cut into pieces of about this many characters (a web page's worth)."""
PAGE = 1_000
"""Characters of text expected to show a page's worth of a game's words: a shorter text's
absent terms count for its share of that (a line lacks most of a game's words)."""
SHRINK = 10.0
"""Pages' worth of the share of all pages holding a term that each class's share is drawn
towards (an m-estimate): a term seen on few pages weighs little whatever class they are of.
(4.0 until issue 10's thirteenth pass: with its 359 training sources, each judged without
itself, 6, 8, 10, 12 and 16 name 14, 11, 10, 10 and 12 pages wrongly against 4.0's 20, with as
many pages of ours right (207 to 209 of 256, 205 at 16) and more pages of other games
unclear (74 → 76 to 80 of 103); 24 leaves 31 pages of ours more unclear. Kill Team 2018's
pages, taken for 40k by the words the two games share, are the most of what it moves.)"""
MARGIN = 6.0
"""How far (log-odds) the best game must lead the runner-up to be named, in a text of a page's
worth (:data:`PAGE`) or more. The terms of a page are not independent, so their summed weights
overstate the odds, the more the more terms a text holds: a shorter text needs a lead between
:data:`SHORT_MARGIN` and this, in proportion to its length (:func:`needed_margin`). (3.0 for
every text until issue 10's eleventh pass: over the 312 training sources judged each without
itself, 6.0 named 2 more pages of ours right, 4 fewer wrongly and left 3 more pages of other
games unclear; a lead between the two goes to the world's and the names' evidence, as a close
one always did. 7.0 since the fourteenth pass, with :data:`GAME_MARGIN` 4.0: over its 378
sources, 229 of 269 pages of ours right against 228, 10 wrong against 13, 86 of 109 pages of
other games unclear against 84; 8.0 leaves 3 pages of ours more unclear. In the fifteenth
pass, over 434 sources, 8.0 named 13 pages wrongly against 7.0's 15, as many right and
unclear; over its final 440, 7.0 names 260 of 311 pages of ours right, 13 wrongly, 101 of
133 pages of other games unclear, against 8.0's 258, 14 and 101 and 7.5's 259, 14 and 101
(6.5 as 7.0): 7.0 stays. 6.0 since the sixteenth pass, once only the words that tell the games
apart weigh (:data:`TELLING`), their sums smaller: over its 460 sources 6.0 names 280 of 322
right, 9 wrongly, 5.5 279 and 10, 6.5 278 and 10, 7.0 277 and 10, all with 102 of 138 other
games unclear; with a campaign's page of one world decided between that world's games (see
:meth:`Model.judge`), 6.0 gives 281 and 9, 5.5 280 and 10, 7.0 278 and 10.)"""
SHORT_MARGIN = 3.0
"""The lead a text of a line or two needs (see :data:`MARGIN`)."""
GAME_MARGIN = 4.0
"""How far (log-likelihood) a page of the best game must be likelier than one of another (3.0
until issue 10's fourteenth pass; see :data:`MARGIN`)."""
WORLD_GAME = -40.0
"""How much likelier a page of another game may be (log-likelihood) for a text whose rules
words lead clearly and whose world's own things agree to be of the game all the same: a
campaign's map, events and missions look like another game's page by 20 to 25, the rules of
other games set in Games Workshop's worlds (Mordheim, Battlefleet Gothic) by 58 and more.
(Any value between 30 and 50 judges the training sources alike, each without itself.)"""
MIN_WORDS = 5
"""Known words (not pairs) weighing for the best game a text must hold to be judged: a line or
two of generic words is no evidence, however they lean."""
OWN_SHARE = 0.8
"""Of the words weighing for the best game, one at least must be the game's own: a term whose
share of the pages holding it (each game's share of its own pages, against the three games'
sum) is this game's by this much ("боевой дух" of 40k at 0.94, "книга армия" of WHFB at 0.95,
"паника" at 0.83, "kill team" at 0.89). Common words that lean to a game by chance (those of
Kill Team's few and chatty pages: "немного" at 0.79) do not name it alone. (Over the 339
training sources judged each without itself, a 40k page taken for Kill Team is left unclear
instead; 0.9 also leaves a WHFB line of "паника" and "генерал" (0.88) unclear.)"""
TELLING = 0.6
"""How far (log) a term's share of one game's pages must stand from the games' mean share to
weigh at all for which game: a word the games hold about alike ("точно", "отдать", "оружие
иметь": shares within e^0.6, about 1.8 times, of their mean) says nothing of the game, but a
page holds many such words, and their sum, the terms being far from independent, outweighed
the few that tell ("боевой единица", "проникновение" against "уникальный правило" and
"воля" on a 40k page). Such a word still counts among the words a text holds for a game
(:data:`MIN_WORDS`) and shows in what a build reports. (Issue 10's sixteenth pass: over its
460 training sources judged each without itself, with :data:`MARGIN` 7, 0.4, 0.5, 0.6 and 0.7
name 274, 277, 277 and 277 pages of ours right of 322, 12, 10, 10 and 11 wrongly, against 270
and 13 with every term weighing; 102 of 138 pages of other games unclear, 101 with 0.7.)"""
MIN_PAGES = 2
"""A term is kept in the table when this many training sources hold it."""

NAMED_OVER_WORDS = 3
"""Times a text names its game (and never the game its words lean to), once a page at least, for
its names to outweigh its words (a long text's words are those of many pages, its names few)."""
BUILT_ON: dict[str, str] = {"killteam2018": "wh40k6"}
"""A game built on another's rules and words: Kill Team on 40k's (8th edition on), so a
page of 40k's later editions reads like Kill Team; a Kill Team page names Kill Team."""


def needed_margin(size: int) -> float:
    """The lead the best game needs in a text of ``size`` characters: :data:`SHORT_MARGIN`
    for a line, growing to :data:`MARGIN` at a page's worth (:data:`PAGE`)."""
    return SHORT_MARGIN + (MARGIN - SHORT_MARGIN) * min(1.0, size / PAGE)


@dataclass(frozen=True)
class Judgement:
    """What the words of a text say of its game.

    Attributes:
        system: the game named, or None when unclear (or the text is of another game).
        which: each known game's log-likelihood from the terms present, against the games'
            mean.
        best: the known game that scores best.
        margin: how far ``best`` leads the next game.
        game: how much likelier the text is a page of ``best`` than of another game.
        evidence: per known game, the terms found that weigh for it (term, weight), the most
            telling first.
        names: per class, how often the text names its games (:mod:`ingest.game_names`).
        setting: per kind of :func:`settings` (a world, or role-playing rules), how many
            distinct words of it the text holds.
        needed: the lead ``best`` needed, for the text's length (:func:`needed_margin`).
        russian: whether the text holds Russian words at all (a text with none is of the
            game it names, whatever game its words lean to).
        letters: the game the letters of its words name (:mod:`ingest.detect_chars`), when
            they decided it: its words left it unclear.
        lean: the class the letters leaned to and by how much, when they were asked.
    """

    system: str | None
    which: dict[str, float]
    best: str
    margin: float
    game: float
    evidence: dict[str, list[tuple[str, float]]]
    names: dict[str, int] = field(default_factory=dict)
    setting: dict[str, int] = field(default_factory=dict)
    needed: float = MARGIN
    russian: bool = True
    letters: str | None = None
    lean: tuple[str, float] | None = None

    def describe(self, shown: int = 4) -> str:
        """The words found and why they do not decide, in Russian, for a message that the
        system stays unclear: "whfb8 — «паника», «ужас»; wh40k6 — ничего; …; ближе всего
        whfb8, но отрыв от следующей игры 1.2 (нужно 3.0)"."""
        parts = []
        for system in sorted(SYSTEMS, key=lambda s: (-self.which[s], SYSTEMS.index(s))):
            found = ", ".join(f"«{t}»" for t, _ in self.evidence[system][:shown])
            parts.append(f"{system} — {found or 'ничего'}")
        if not self.russian:
            why = "в тексте нет русских слов, а игру он не называет"
        elif self.margin < self.needed:
            why = f"отрыв от следующей игры {self.margin:.1f} (нужно {self.needed:.1f})"
        elif self.game < GAME_MARGIN:
            why = (f"на страницу другой игры текст похож не меньше (перевес {self.game:.1f}, "
                   f"нужно {GAME_MARGIN:.1f})")
        elif not _own(self.evidence[self.best]):
            why = "ни одно слово текста не свойственно только этой игре"
        elif (words := sum(1 for t, _ in self.evidence[self.best] if " " not in t)) < MIN_WORDS:
            why = f"слов этой игры {words} (нужно {MIN_WORDS})"
        elif self.setting.get("roleplay", 0) >= ROLEPLAY_MIN:
            why = "текст излагает правила ролевой игры"
        elif self.setting.get("realms", 0) > self.setting.get("fantasy", 0):
            why = "мир текста — Владения Смертных (Age of Sigmar)"
        else:
            why = "текст чаще называет другие игры"
        if self.lean is not None:
            leaning, lead = self.lean
            why += ("; по буквосочетаниям слов — страница другой игры" if leaning == OTHER
                    else f"; по буквосочетаниям слов ближе всего {leaning}, но отрыв {lead:.2f} "
                         f"(нужно {LETTERS_MARGIN:.2f})")
        named = ", ".join(f"{'другие игры' if c == OTHER else c} ×{n}"
                          for c, n in self.names.items() if n)
        if named:
            why += f"; названия игр: {named}"
        worlds = ", ".join(
            f"{KIND_TITLES[k]} ×{n}" + (f" (свои миру ×{own})" if (own := self.setting.get(
                f"{k}!", 0)) else "") for k in SETTING_KINDS if (n := self.setting.get(k, 0)))
        if worlds:
            why += f"; слова мира: {worlds}"
        return "; ".join(parts) + f"; ближе всего {self.best}, но {why}"


@dataclass(frozen=True)
class Model:
    """The per-class page counts of every term, and the weights they give."""

    pages: dict[str, int]
    counts: dict[str, tuple[float, ...]]  # term → sources of each class holding it (a
    # source holding it in a share of its pieces counts that share)

    @property
    def weights(self) -> dict[str, tuple[float, ...]]:
        """Term → for each class, the log-odds of a page of it holding the term."""
        return _weights(self)

    def judge(self, text: str, page: str | None = None, *, by_letters: bool = True,
              chars: CharModel | None = None) -> Judgement:
        """Judge the game of ``text`` (see the module's docstring).

        Args:
            text: The words judged (a page without its site's furniture).
            page: The page as found, whose names of games count (:func:`game_names`): a
                site's furniture names the book a page is of ("Файл: Warhammer 40k - 6th
                edition - Книга правил.pdf", a forum's "Warhammer Fantasy") though its words
                are no game's; ``text`` when not given.
            by_letters: Whether a text its words leave unclear is judged by the letters of
                its words too (:mod:`ingest.detect_chars`).
            chars: The letters' model (the committed table's when not given).
        """
        weights, base, positive = self.weights, _base(self), _positive(self)
        telling_weights = _telling(self)
        absent = _absent(self)
        which = {c: 0.0 for c in SYSTEMS}  # the terms present, each game against the three
        likelihoods = []  # per piece, each class's Bernoulli log-likelihood
        telling: dict[str, dict[str, float]] = {c: {} for c in SYSTEMS}
        seen: set[str] = set()
        for piece in pieces(text):
            held = terms(piece)
            seen |= held
            found = [t for t in held if t in weights]
            # a page's worth of text misses the terms it lacks; a line of text is expected to
            # miss most of them, so what it lacks counts for its share of a page only
            share = min(1.0, len(piece) / PAGE)
            likelihoods.append([share * b + held_weight + (1 - share) * lacked for b, held_weight,
                                lacked in zip(base, _sums(weights, found), _sums(absent, found),
                                              strict=True)])
            for c, weight in zip(SYSTEMS, _sums(telling_weights, found), strict=True):
                which[c] += weight
            for t in found:
                for i, weight in positive[t]:
                    telling[SYSTEMS[i]][t] = weight
        evidence = {c: sorted(telling[c].items(), key=lambda item: (-item[1], item[0]))
                    for c in SYSTEMS}
        ranked = sorted(SYSTEMS, key=lambda c: (-which[c], SYSTEMS.index(c)))
        if (base_game := BUILT_ON.get(ranked[0])) is not None \
                and not _own(evidence[ranked[0]]) and _own(evidence[base_game]):
            # a game built on another's rules leads by the words they share, none its own,
            # and the other's own words stand in the text: the other's page (a 40k rulebook
            # page's "вражеский модель", "бросок D6", "боевой единица")
            # (its lead is over the games of other rules: the built game is set aside)
            ranked = [base_game, *(c for c in ranked if c not in (base_game, ranked[0])),
                      ranked[0]]
        best, second = ranked[0], ranked[1]
        margin = which[best] - which[second]
        # whether it is this game rather than another: the pieces that look like a page of the
        # game decide (a site's furniture or a preamble around the rules does not outvote them)
        leads = [p[CLASSES.index(best)] - p[CLASSES.index(OTHER)] for p in likelihoods]
        game = sum(lead for lead in leads if lead > 0) or max(leads, default=0.0)
        # the words for the game count when one of them is the game's own
        words = (sum(1 for t, _ in evidence[best] if " " not in t)
                 if _own(evidence[best]) else 0)
        needed = needed_margin(len(text))
        system = best if (margin >= needed and game >= GAME_MARGIN
                          and words >= MIN_WORDS) else None
        setting = setting_words(seen)
        world = clear_world(setting)
        named_in = text if page is None else page
        named = game_names(named_in)
        named_ours = named_game(named)  # the game of ours it names, if one
        if system is not None and world is not None and system not in WORLDS[world]:
            system = WORLDS[world][0]  # another edition's rules words (40k's older ones: WHFB's)
        elif (system is None and margin < needed and game >= GAME_MARGIN and words >= MIN_WORDS
              and (leaning := clear_world(setting, SETTING_LEAN)) is not None
              and {best, second} & set(WORLDS[leaning])):
            # close rules words, its world's things: the world's game it names, or else the
            # one its words lean to (a Kill Team page on a 40k army's models names Kill Team)
            system = (named_ours if named_ours in WORLDS[leaning]
                      else _best_of(WORLDS[leaning], which))
        elif (system is None and words >= MIN_WORDS and game > WORLD_GAME
              and world is not None and best in WORLDS[world] and setting[f"{world}!"] >= 1
              and (margin >= needed or second in WORLDS[world])):
            # its rules words lead clearly, or lead the other game of the same world, and its
            # world's own things agree: a page of that world's game whose words look like
            # another game's page too (a campaign's); between the games of one world, the one
            # it names, or else the world's first (a Kill Team page names Kill Team)
            system = best if margin >= needed else (
                named_ours if named_ours in WORLDS[world] else WORLDS[world][0])
        by_name = named_ours
        if by_name is not None and world is not None and by_name not in WORLDS[world]:
            by_name = None  # "пришедшему в вархаммер" of a page on space marines: the hobby
        if by_name is not None and (system is None or (
                BUILT_ON.get(system) == by_name and not named[system]) or (
                system != by_name and not named[system] and named[by_name] >= NAMED_OVER_WORDS
                and named[by_name] * PAGE >= len(named_in) and world is None
                and BUILT_ON.get(by_name) != system)):
            # its words leave it unclear, or are shared, and its names not; or it names its
            # game again and again, never the game its words lean to, and no world's things
            # say otherwise ("Правила Warhammer FB турнира" of a club's forum, whose words are
            # those of tournaments and clubs); an older 40k's "Kill Team" is 40k's words' game
            system = by_name
        elif system is not None and named[OTHER] > max(named[c] for c in SYSTEMS):
            system = None  # its words are of a game of ours, but it names other games more
        elif (system is None and world is not None and setting[f"{world}!"] >= SETTING_MIN
              and not named[OTHER]):
            system = WORLDS[world][0]  # speaks of its world's own things, names no game
        if setting["roleplay"] >= ROLEPLAY_MIN or (
                system == "whfb8" and setting["realms"] > setting["fantasy"]):
            system = None  # a role-playing game's rules; Age of Sigmar's world
        russian = _CYRILLIC.search(text) is not None
        letters = lean = None
        if (system is None and russian and by_letters and setting["roleplay"] < ROLEPLAY_MIN
                and setting["realms"] <= setting["fantasy"]
                and named[OTHER] <= max(named[c] for c in SYSTEMS)):
            # the words leave it unclear, and nothing says it is another game's: the letters'
            # opinion (:mod:`ingest.detect_chars`; a short page, shared rules words)
            lean = letters_opinion(text, chars)
            if lean[0] != OTHER and lean[1] >= LETTERS_MARGIN:
                system = letters = lean[0]
        if not russian:
            # no Russian word: an English page's words ("Roll a dice, move the model …") stand
            # in the training only as what Russian pages quote, so only the game it names
            # tells (a quotation of 40k's rulebook: "In Warhammer 40,000, we represent …")
            system = named_ours
        return Judgement(system, which, best, margin, game, evidence, named, setting, needed,
                         russian, letters, lean)


_CYRILLIC = re.compile("[А-Яа-яЁё]")


def _own(evidence: list[tuple[str, float]]) -> bool:
    """Whether a game's evidence holds a term of its own (:data:`OWN_SHARE`)."""
    return any(weight >= _OWN_WEIGHT for _, weight in evidence)


_OWN_WEIGHT = math.log(len(SYSTEMS) * OWN_SHARE)
""":data:`OWN_SHARE` as a relative weight: the log of the game's share against the mean."""


def _best_of(games: tuple[str, ...], which: dict[str, float]) -> str:
    return max(games, key=lambda c: (which[c], -SYSTEMS.index(c)))


def __hash__(self: Model) -> int:  # a frozen dataclass with dict fields: hash by identity
    return id(self)


Model.__hash__ = __hash__  # type: ignore[method-assign,assignment]


def _shares(model: Model) -> dict[str, tuple[float, ...]]:
    """Term → the share of each class's pages holding it, drawn towards the classes' mean
    share (each class weighs alike, however many of its pages were learned: Kill Team's are a
    quarter of 40k's, and our games' pages outnumber the other games' two to one)."""
    out: dict[str, tuple[float, ...]] = {}
    for term, counts in model.counts.items():
        everywhere = sum((n + 0.5 / len(CLASSES)) / (model.pages[c] + 1)
                         for c, n in zip(CLASSES, counts, strict=True)) / len(CLASSES)
        out[term] = tuple((n + SHRINK * everywhere) / (model.pages[c] + SHRINK)
                          for c, n in zip(CLASSES, counts, strict=True))
    return out


@cache
def _weights(model: Model) -> dict[str, tuple[float, ...]]:
    """Term → for each class, the log-odds of a page of it holding the term."""
    return {t: tuple(math.log(p / (1 - p)) for p in shares)
            for t, shares in _shares(model).items()}


@cache
def _relative(model: Model) -> dict[str, tuple[float, ...]]:
    """Term → for each known game, the log of its share against the games' mean share (the
    games' presence-only naive-Bayes weights: differences between two games are their
    log-likelihood ratio)."""
    out = {}
    for t, shares in _shares(model).items():
        games = shares[: len(SYSTEMS)]
        mean = sum(games) / len(games)
        out[t] = tuple(math.log(p / mean) for p in games)
    return out


@cache
def _positive(model: Model) -> dict[str, tuple[tuple[int, float], ...]]:
    """Term → (game's index, weight) of the games whose :func:`_relative` weight of it is
    positive: the games it is evidence for."""
    return {t: tuple((i, w) for i, w in enumerate(weights) if w > 0)
            for t, weights in _relative(model).items()}


def _sums(table: dict[str, tuple[float, ...]], found: list[str]) -> list[float]:
    """The sum over the terms ``found`` of their rows of ``table``, for each class (a column's
    sum taken at once: the terms of a piece are hundreds)."""
    if not found:
        return [0.0] * len(next(iter(table.values())))
    return [sum(column) for column in zip(*[table[t] for t in found], strict=True)]


@cache
def _telling(model: Model) -> dict[str, tuple[float, ...]]:
    """:func:`_relative`'s weights of the terms that tell the games apart, zero for a term no
    game's share stands :data:`TELLING` from the mean (a word every game's pages hold alike
    weighs nothing for which game, though it still shows the text is about one)."""
    nothing = (0.0,) * len(SYSTEMS)
    return {t: w if max(abs(x) for x in w) >= TELLING else nothing
            for t, w in _relative(model).items()}


@cache
def _absent(model: Model) -> dict[str, tuple[float, ...]]:
    """Term → for each class, the log-likelihood of a page of it not holding the term."""
    return {t: tuple(math.log(1 - p) for p in shares) for t, shares in _shares(model).items()}


@cache
def _base(model: Model) -> tuple[float, ...]:
    """For each class, the log-likelihood of a page of it holding none of the known terms."""
    shares = list(_shares(model).values())
    return tuple(sum(math.log(1 - s[i]) for s in shares) for i in range(len(CLASSES)))


@cache
def model() -> Model:
    """The model of ``ingest/data/system_terms.tsv``."""
    text = resources.files("ingest").joinpath(TABLE).read_text(encoding="utf-8")
    return parse_table(text)


def parse_table(text: str) -> Model:
    """Read a table written by :func:`ingest.detect_train.table` (a header of page counts,
    then one term a line)."""
    lines = text.splitlines()
    header = lines[0].removeprefix("#").split()
    pages = {c: int(n) for c, n in (cell.split("=") for cell in header)}
    counts: dict[str, tuple[float, ...]] = {}
    for line in lines[1:]:
        if not line or line.startswith("# "):  # a comment (a term has no space first)
            continue
        term, *cells = line.split("\t")
        counts[term] = tuple(float(n) for n in cells)
    return Model(pages, counts)


def pieces(text: str, size: int = PIECE) -> list[str]:
    """``text`` cut into pieces of about ``size`` characters, at line or word breaks."""
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind("\n", start + size // 2, end)
            if cut < 0:
                cut = text.rfind(" ", start + size // 2, end)
            end = cut if cut > start else end
        out.append(text[start:end])
        start = end
    return [p for p in out if p.strip()]
