"""The statistical game detection (ingest/detect.py): its terms, its table, and how it judges
pages it did not learn from (each training source left out in turn)."""

from __future__ import annotations

from pathlib import Path

import pytest
from detect_training import evaluation, learned, leave_one_out

from ingest.detect import TABLE, model, needed_margin, terms
from ingest.detect_train import table
from ingest.detect_world import clear_world, parse_settings, setting_words
from ingest.game_names import game_names
from ingest.text_identity import describe_evidence, detect_system


@pytest.mark.parametrize(("text", "expected"), [
    ("Боевые единицы", {"боевой", "единица", "боевой единица"}),
    ("нападение (charge)", {"нападение", "charg"}),  # no pair across a bracket
    ("CHARGING, charges", {"charg"}),  # a crude English stem
    ("Warhammer 40,000", {"warhammer", "warhammer 40"}),  # a number only after a Latin word
    ("на 2D6 и 3d6", {"#d#"}),  # dice; prepositions and conjunctions are no terms
    ("Проверка на боевой дух", {"проверка", "боевой", "дух", "боевой дух"}),
])
def test_terms(text: str, expected: set[str]) -> None:
    assert terms(text) == expected


def test_the_committed_table_is_what_the_training_pages_give() -> None:
    from importlib import resources

    committed = resources.files("ingest").joinpath(TABLE).read_text(encoding="utf-8")
    assert committed == table(learned()), (
        "ingest/data/system_terms.tsv is stale: run .venv/bin/python tests/detect_training.py")


def test_the_model_reads_back_what_it_wrote() -> None:
    assert model().counts == learned().counts


def test_pages_it_did_not_learn_from() -> None:
    """Each training source judged by a model learned without it, as a build judges it (its
    words without its site's furniture, the names of games with it): once 25 of the 32 pages
    of the three games were named right and 2 wrongly, 26 of the 29 pages of other games
    unclear (tests/detect_training.py --check
    prints them). (The fourth pass of issue 10 added 13 pages of other games, which cost one
    page of ours its margin: 25 → 24; the fifth judged pages without their furniture, which
    made one more page of another game unclear, and added a WHFB rules page; the sixth reads
    the names of games a page holds: 24 → 25 right, 25 → 27 unclear; then a row of navigation
    links became furniture, which left a fantasy wargame's leader ability of 312 characters
    with "отряд", "тест на мораль" and "2К6" alone, and it is taken for 40k: 27 → 26. The
    seventh added 35 pages, 8 of WHFB, 8 of 40k, 19 of other games: 39 of the 48 pages of ours
    right, 3 wrongly — an 8th-edition Orks codex review taken for WHFB is the third —, 41 of
    the 48 of other games unclear; on the pages never learned from, 24 → 25 of 31. The tenth
    learns from the 178 pages of the sets read before it, each class's shares drawn towards
    the classes' mean share, not the pages': 162 of the 193 pages of ours right, 15 wrongly,
    61 of the 81 of other games unclear. On the 96 sources of before, 81 → 77 right: three
    more pages of other games set in Games Workshop's worlds are taken for one of ours and one
    WHFB page more is left unclear; on the pages it never learned from, 25 → 26 of 31, and the
    read `fresh13` 2 → 6 of its 7 pages of ours with its 3 of other games as before. The
    eleventh learns from the 38 pages of `fresh13` … `fresh16` too: 187 of the 221 pages of
    ours right, 17 wrongly, 71 of the 91 of other games unclear; on the 274 sources of before,
    224 → 227 right (nine more, six lost), one page of ours fewer named wrongly and two pages
    of other games fewer taken for ours; on the pages it never learned from, 26 of 31 as
    before. Then the margin between games went from 3 to 6 (log-odds) for a page's worth of
    text, less for a shorter one: 189 of the 221 pages of ours right, 13 wrongly, 74 of the 91
    of other games unclear, every page that moved moving from a wrong game to the right one or
    to unclear. The twelfth learns from the 27 pages of `fresh17` … `fresh19` too (197 of the
    242 pages of ours right, 19 wrongly, 73 of the 97 of other games unclear), and then: a
    name of ours inside another game's name is none ("The Ninth Age: Fantasy Battles"); a text
    whose words are close between the games of its world goes to the one it names (Kill Team
    pages on a 40k army's models: +2, and an older 40k "Kill Team" scenario lost); a text
    whose words lead clearly for a game whose world its clear world is, with a word of the
    world's own, is of that game even when it looks like another game's page (a campaign's
    missions, map and events: +3); a game's words must hold one of its own (a 40k page fewer
    taken for Kill Team); Kill Team leading by words of neither's own in a text holding 40k's
    own is 40k (a 7th-edition rulebook page on the fight sub-phase). 202 of 242 right, 17
    wrongly, 74 of 97 unclear; on the pages it never learned from, 26 → 27 of 31. The
    thirteenth learns from the 20 pages of `fresh20` … `fresh22` too (208 of 256 right, 20
    wrongly, 74 of 103 unclear; on the 339 sources of before, 276 → 270 right), then draws each
    class's shares harder towards the mean (SHRINK 4 → 10): 209 of 256 right, 10 wrongly, 78 of
    103 unclear, five Kill Team 2018 pages taken for 40k named right; on the pages it never
    learned from, 27 → 28 of 31. Then each source is judged with the names of games its site's
    furniture holds, as a build judges it (they were left out here, not in a build): 219 of
    256 right, 9 wrongly, 78 of 103 unclear. The fourteenth learns from the 19 pages of
    `fresh23` … `fresh25` too (228 of 269 right, 13 wrongly, 84 of 109 unclear), then needs a
    lead of 7 between games for a page's worth (MARGIN 6 → 7) and a page of the game likelier
    than one of another game by 4 rather than 3 (GAME_MARGIN, log-likelihood): 229 right, 10
    wrongly, 86 unclear; on the pages it never learned from, 28 of 31 as before. Then it
    learns from the 23 pages of `fresh26` … `fresh28` too: 243 of 286 right, 13 wrongly, 91
    of 115 unclear; on the pages it never learned from, 28 → 29 of 31. MARGIN 6 and
    GAME_MARGIN 3 would name 16 wrongly, 7 and 3 15, 6 and 4 14. Then from the 18 pages of
    `fresh29` … `fresh31` too: 252 of 298 right, 14 wrongly, 94 of 121 unclear (6 and 3: 253,
    16, 93); 29 of 31 of the pages never learned from. The fifteenth learns from the 19 pages
    of `fresh32` … `fresh35` too: 255 of 305 right, 15 wrongly, 100 of 129 unclear (a lead of
    8: 255, 13, 100); then from the 10 of `fresh36` and `fresh37`: 260 of 311 right, 13
    wrongly, 101 of 133 unclear (8: 258, 14, 101); 29 of 31 of the pages never learned
    from. The sixteenth learns from the 16 pages of `fresh38` … `fresh40` too: 267 of 322
    right, 14 wrongly, 102 of 138 unclear; with the English names of the worlds' things in
    the settings table ("power fist", "Space Marines", "Skaven"), 270, 13 and 102 (GAME_MARGIN
    5: 269, 13, 104); 29 of 31 of the pages never learned from. Then only the words that tell
    the games apart weigh for which game (TELLING 0.6), with a lead of 6 (MARGIN), and a
    campaign's page whose words lead only the other game of its world is of its world's
    game: 281, 9 and 102; 30 of 31 of the pages never learned from. The fortieth judges a text
    its words leave unclear by the letters of its words too (ingest/detect_chars.py): 282 → 286
    right, 9 wrongly, 102 unclear; the pages never learned from as before.)"""
    rows = leave_one_out()
    ours = [(name, cls, got) for name, cls, got, _ in rows if cls != "other"]
    others = [(name, got) for name, cls, got, _ in rows if cls == "other"]
    right = sum(got == cls for _, cls, got in ours)
    wrong = [(name, cls, got) for name, cls, got in ours if got not in (None, cls)]
    unclear = sum(got is None for _, got in others)
    assert right >= 286 and len(wrong) <= 9 and unclear >= 102, (right, wrong, others)


def _cases() -> list[object]:
    import yaml

    folder = Path(__file__).parent / "data" / "detect" / "cases"
    expected = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))
    out: list[object] = []
    for name, row in expected.items():
        marks = ([pytest.mark.xfail(reason=row["known_miss"], strict=True)]
                 if "known_miss" in row else [])
        out.append(pytest.param((folder / name).read_text(encoding="utf-8"), row["system"],
                                id=name, marks=marks))
    return out


def test_pages_it_never_learned_from() -> None:
    """The pages of tests/data/detect/eval/ (articles, forums, reviews and other editions of
    the three games, other games' pages), judged by the committed table: today 35 of 38 right
    (21 of the 22 pages of ours named right, none wrongly — the four 6th/7th-edition rulebook
    pages added in issue 10's twenty-sixth pass all right; 14 of the 16 of other games
    unclear: two whole chapters of a Necromunda ruleset, added in issue 10's twenty-first pass,
    are taken for Kill Team, whose 2021/2024 pages share their words of play); 29
    before the sixteenth pass weighed only the words that tell the games apart; 14
    before the names of games were read, 23 before the setting was, 24 before the seventh
    pass's 35 training pages. A floor, so a change that loses one shows."""
    rows = evaluation()
    ours = [(name, cls, got) for name, cls, got, _ in rows if cls != "other"]
    others = [(name, got) for name, cls, got, _ in rows if cls == "other"]
    right = sum(got == cls for _, cls, got in ours)
    wrong = [(name, got) for name, cls, got in ours if got not in (None, cls)]
    unclear = sum(got is None for _, got in others)
    assert len(rows) == 38 and right >= 21 and not wrong and unclear >= 14, (ours, others)


@pytest.mark.parametrize(("text", "expected"), _cases())
def test_short_texts_of_each_kind(text: str, expected: str | None) -> None:
    """Short pages (half a web page) of the three games' rules, a forum post, articles that name
    their game (or another game's setting), other games' rules; and the kinds known to fail
    today (another edition's 40k rules, an Age of Sigmar rules page), marked with why."""
    assert detect_system(text) == expected, describe_evidence(text)


def test_a_text_that_names_other_games_more_says_so() -> None:
    text = (Path(__file__).parent / "data" / "detect" / "cases"
            / "other_aos_article_names.txt").read_text(encoding="utf-8")
    # (since the seventh pass's training pages its words lead by too little to decide even
    # before its names are read, and since the tenth's it looks like another game's page as
    # much: the message says why, and the names it holds)
    assert detect_system(text) is None
    message = describe_evidence(text)
    assert any(why in message for why in (
        "отрыв от следующей игры", "текст чаще называет другие игры",
        "на страницу другой игры текст похож не меньше"))
    assert "названия игр: whfb8 ×1, другие игры ×2" in message


@pytest.mark.parametrize(("text", "future", "fantasy", "own", "world"), [
    ("Космодесантники стреляют из болтеров, псайкер творит психосилу", 4, 0, 4, "future"),
    ("Некроны, некронов, некронами: одно слово", 1, 0, 1, None),  # a stem, however inflected
    ("Броня техники и скользящее попадание", 3, 0, 0, "future"),  # pairs and their words
    ("Скавены и гномы Бретонии, арбалетчики и маг", 0, 5, 2, "fantasy"),
    ("Орки, гоблины, демоны Хаоса и рыцари", 0, 0, 0, None),  # the worlds' shared words
    ("Эльдары против эльфов, маг и дракон", 1, 3, 1, "fantasy"),
    ("Эльдары и некроны против эльфов и гномов", 2, 2, 2, None),  # neither more than twice
    ("В 41-м тысячелетии армии ведут в бой кавалерию", 1, 0, 0, None),  # the far future's
    # dating, a world's word (one only: no clear world, a lean)
])
def test_setting_words(text: str, future: int, fantasy: int, own: int, world: str | None
                       ) -> None:
    found = setting_words(terms(text))
    assert (found["future"], found["fantasy"], found["future!"] + found["fantasy!"]) == (
        future, fantasy, own)
    assert clear_world(found) == world


def test_a_settings_table_line_without_a_word_is_an_error() -> None:
    with pytest.raises(ValueError, match="line 2"):
        parse_settings("# a comment\nfuture\n")


def test_a_text_left_unclear_shows_the_words_of_its_world() -> None:
    text = (Path(__file__).parent / "data" / "detect" / "cases"
            / "other_dark_heresy_rules.txt").read_text(encoding="utf-8")
    assert ("слова мира: далёкое будущее ×2 (свои миру ×2), правила ролевой игры ×5"
            in describe_evidence(text))


def test_the_names_of_games_count_in_the_page_as_found() -> None:
    """A document site's furniture names the book a page is of ("Файл:" and the book's file
    name): the words are judged without it, its names of games count."""
    from ingest.detect import model
    from ingest.text_identity import detection_text

    page = ("Добавил:\nUpload Опубликованный материал нарушает ваши авторские права? Сообщите "
            "нам.\nВуз: Предмет: Файл:\n\nWarhammer 40k - 6th edition - Книга правил 1\n\n"
            ".0.pdf\nСкачиваний:\n274\nДобавлен:\n01.06.2015\nРазмер:\n46.65 Мб\nСкачать\n\n"
            "Поле битвы\n\nИгроки по очереди ставят на стол холмы, леса и руины.\n")
    words = detection_text(page)
    assert "Warhammer" not in words and "Игроки по очереди" in words
    assert model().judge(words).names["wh40k6"] == 0
    assert model().judge(words, page).names["wh40k6"] == 1


@pytest.mark.parametrize(("text", "names"), [
    ("Каждая модель в игре Warhammer имеет свой профиль.", {"whfb8": 1}),
    ("армии Вархаммера: Защищающие", {"whfb8": 1}),
    ("Файл: Warhammer_40k_-_7th_edition_-_Kniga_pravil_1_0.pdf", {"wh40k6": 1}),
    ("будет в новом вархаммере 40000", {"wh40k6": 1}),
    ("Warhammer: Age of Sigmar и вселенная Warhammer", {"other": 1}),
    ("клуб Warhammer World в Ноттингеме", {}),
    ("Warhammer Fantasy Battles, или просто Warhammer", {"whfb8": 1}),
    ("Правила Warhammer FB турнира, армии ВФБ", {"whfb8": 2}),
    # a role-playing game named after 40k is another game, as WHFB's is
    ("(Статья) Warhammer 40000 Roleplay для новичков", {"other": 1}),
    ("ролевая Вархаммер 40к РПГ и Warhammer 40k", {"wh40k6": 1, "other": 1}),
    # another game's full name holding one of ours names that game only
    ("Download The Ninth Age: Fantasy Battles, 2nd Edition now!", {"other": 1}),
    ("The Ninth Age: Fantasy Battles, а раньше Warhammer Fantasy Battles",
     {"whfb8": 1, "other": 1}),
])
def test_the_names_of_games_a_text_holds(text: str, names: dict[str, int]) -> None:
    """"Warhammer" alone is the fantasy battle game's name only in a text that names no game in
    full; a file name's "Warhammer_40k" names 40k."""
    assert {c: n for c, n in game_names(text).items() if n} == names


@pytest.mark.parametrize(("size", "needed"), [(0, 3.0), (500, 4.5), (1_000, 6.0), (20_000, 6.0)])
def test_the_lead_a_text_needs_grows_with_its_length_to_a_page(size: int, needed: float) -> None:
    """A line's few terms are nearly independent evidence; a page's many are not, and their
    sum overstates the odds: the lead needed grows from 3 to 6 over the first page's worth."""
    assert needed_margin(size) == pytest.approx(needed)


def test_a_short_rules_text_is_judged_with_the_short_text_s_margin() -> None:
    """Two lines of WHFB's rules lead by less than a page needs, but by enough for two lines."""
    text = "Паника\n\nПодразделение, понёсшее потери, проходит тест на Панику и Разгром.\n"
    judged = model().judge(text)
    assert judged.system == "whfb8" and judged.needed < judged.margin < 7.0

