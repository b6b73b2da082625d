"""Segmentation on small texts of both layouts: each .txt beside its .expected
("title | parent title" per section, "-" for none)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from ingest.build import account, prepare
from ingest.models import PageMark, SourceText
from ingest.segment import is_heading_line, segment, title_and_aliases
from ingest.segment_flat import caps_runs, fused_headings

DATA = Path(__file__).parent / "data" / "segment"
SYSTEMS = {"whfb_page": "whfb8", "killteam_lines": "killteam2018",
           "killteam_charge": "killteam2018", "flat_40k": "wh40k6"}


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_sections_and_parents(name: str) -> None:
    text = (DATA / f"{name}.txt").read_text(encoding="utf-8")
    result = segment(text, SYSTEMS[name])
    got = [
        f"{s.title} | {result.sections[s.parent].title if s.parent is not None else '-'}"
        for s in result.sections
    ]
    expected = (DATA / f"{name}.expected").read_text(encoding="utf-8").splitlines()
    assert got == expected


def test_flat_layout_marks_caption_and_quote() -> None:
    text = (DATA / "flat_40k.txt").read_text(encoding="utf-8")
    result = segment(text, "wh40k6")
    assert [(f.kind, f.text) for f in result.flavour] == [
        ("caption", "Князь демонов"),
        ("quote", "Надежда – первый шаг на пути к разочарованию."),
    ]
    assert result.layout == "flat"
    types = [s.title for s in result.sections if s.is_unit_type]
    assert types == ["Звери", "Кавалерия"]


def test_page_footer_puts_sections_on_its_page() -> None:
    text = (DATA / "whfb_page.txt").read_text(encoding="utf-8")
    at = len(text)  # cleaning leaves the footer's place at the end of the page
    result = segment(text, "whfb8", [PageMark(first=75, last=75, at=at, source_span=(0, 0))])
    assert {s.title: s.pages for s in result.sections}["Регенерация"] == (75,)


@pytest.mark.parametrize(
    ("line", "next_line", "expected"),
    [
        ("Ядовитые атаки и Боевые Машины.", "Если по боевой машине", True),
        ("Именно подобные ситуации отображает правило Паники.", "Паника и", False),
        ("Отступило через", "Если дружественное", True),
        ("Фазы следующие:", "1. Инициативная фаза", False),
        # a term and its definition after a dash, ending in a period
        ("Тест на лидерство – аналогично 7.", "Поле зрения – если видит", False),
        # a term in capitals over its definition in lower case; a sentence's start is none
        ("INITIATIVE (I)/инициатива", "отражает быстроту реакции модели", True),
        ("ЛИДЕРСТВО", "отражает храбрость модели", True),
        ("Модель с высоким", "лидерством не бежит", False),
        ("Модель, которая отступает также не может стрелять, если она не", "может летать.", False),
        ("Overwatch - это особый тип стрельбы", "Цель может", False),
        # a numbered line may be a heading: whether it is one of a list, the page decides
        ("1. Инициативная фаза", "Игроки кидают", True),
        # a name with its notes in brackets: the notes' verb makes no sentence of it
        ("Призыв Нехека (Колдуется на 6+) (Сигнатурное заклинание)", "Чародей поёт", True),
        ("Модели стреляют по очереди в любой фазе (см. стр. 12)", "Затем", False),
        ("- Скаут Сержант", "Рафаен", False),
        ("58", "Добавлен:", False),
        ("Удержаться или преследовать?", "Победившее подразделение", True),
        # a PDF column's line: cut at a preposition, or going on from a quotation above
        ("Шестигранный кубик со значениями на гранях от 1 до", "6 везде в игре", False),
        ("Модификатор к результату боя. За каждую шеренгу из", "4 и более моделей", False),
        ("Лидерство» боевые машины автоматически", "ПРОИГРЫВАЮТ.", False),
        ("Миссия «Рассвет войны»", "Игроки бросают кубик", True),
        ("Правила турнира \"Сражения под елкой»", "Общая часть", True),
        # a field and its value: credits, a datasheet's entry
        ("Источник: Games Workshop", "Кавалерия в бою", False),
        ("Редактура: Иван, Пётр, Анна", "Глава первая", False),
        ("Состав отряда:3 Разведчика", "Снаряжение", False),
        ("Перевод: Иванов (www.example.ru)", "Часть первая", False),
        ("Шаг 1: Подготовка к игре", "На этом шаге", True),
        ("Kill Team: Rogue Trader", "Эта книга", True),
        ("Магия: общие правила", "Маги творят", True),
        # a count before a name is a line of a unit's composition
        ("1 Сержант-ветеран", "Оружие", False),
        ("0-2 Тяжёлых отделения (Heavy Support)", "Специалисты", False),
        ("2 ОСНОВНЫЕ ПРАВИЛА", "Эти правила", True),
        # numbering before a word in lower case: a forum's item, not a heading
        ("1.1. кидает тест", "Потом", False),
        ("2) бежит на 2д6", "Если", False),
        ("1.2. Бег и марш", "Модель бежит", True),
        # a line that stops mid-sentence: a conjunction at its end, or a clause cut off
        ("Стрельба и", "Снайп", False),
        ("Модели стреляют по очереди, и некоторые", "", False),
        ("Автоматический огонь всегда ведется с", "Оружие", False),
        ("Отступило через", "Если дружественное", True),
        ("Оружие для всех", "Каждая модель", True),
        # a heading over lettered points ("а) …"): the letter goes on from nothing
        ("Бестиарий", "а) Спецправило \"Нас Много!\" стоит дороже.", True),
        ("Бестиарий", "а также крысы", False),
        ("Модель может выбрать", "а) стрелять по ближайшей цели;", False),
        # a greeting opens a post: no heading
        ("Привет всем любителям Warhammer 40 000!", "Сегодня", False),
        ("Всем привет!", "Сегодня", False),
        ("Доброго времени суток, уважаемые игроки", "Сегодня", False),
        ("Приветствие Императору", "Гвардейцы", True),
        ("Добрые дела", "Иногда", True),
        # the readers addressed, a postal address: no headings
        ("Комрады", "Предлагаю провести турнир.", False),
        ("Уважаемые игроки!", "Турнир переносится.", False),
        ("Магазин по адресу г.Новосибирск, ул. Красный проспект, 50", "Дата", False),
        ("Клуб на Невском проспекте", "Игры идут", True),
        ("Турнир «Лорды войны» - клуб «Бизон» г. Королев (МО)", "Турнир пройдёт в субботу.",
         True),  # a city alone is an event's place, no address
        ("Игры идут по адресу г. Липецк, ДК Строителей", "Дата", False),
        ("Друзья и враги", "Правила союзов", True),
        ("Игроки", "В игре участвуют двое.", True),
        # "this is …" states something of the thing above; a diagram's arrow heads nothing
        ("Это Лёгкое укрытие.", "Тяжёлые обломки", False),
        ("Это важно", "Каждый игрок", True),
        ("Все отряды отступили? —> КОНЕЦ БОЯ", "Бой заканчивается.", False),
        ("Фаза движения → Фаза стрельбы", "Затем", False),
        # a line opening with a conjunction goes on from the sentence before it, but a short
        # name ending in a word over a sentence of its own is one ("And They Shall Know No Fear")
        ("И не познают они страха", "Модели с этим правилом проходят тесты на страх.", True),
        ("Но это не история о тех, кто победил в той войне", "Это история", False),
        ("И не познают они страха.", "Модели с этим правилом проходят тесты.", False),
        ("А. Руины мануфакторума", "На схеме", False),
    ],
)
def test_heading_lines(line: str, next_line: str, expected: bool) -> None:
    assert is_heading_line(line, next_line) is expected


@pytest.mark.parametrize(
    ("heading", "title", "aliases"),
    [
        ("ADVANCING (продвижение)", "Продвижение", ["Advancing", "Advance"]),
        ("REINFORCEMENTS (ПОПОЛНЕНИЕ, подкрепление)", "Пополнение",
         ["Подкрепление", "Reinforcements"]),
        ("Retreat (отход)", "Отход", ["Retreat"]),
        # a label's colon before the English name in brackets is no part of the name
        ("4. Правила оружия: (Weapon rules)", "Правила оружия", ["Weapon Rules"]),
        # a second name between slashes, and the English after it
        ("ЛЁГКАЯ ПЕХОТА /СВОБОДНЫЙ СТРОЙ/ (LIGHT INFANTRY)", "Лёгкая пехота",
         ["Свободный строй", "LIGHT INFANTRY"]),
        ("Атака 1/2", "Атака 1/2", []),
        ("СТРЕЛЬБА ПО АРТИЛЛЕРИИ", "Стрельба по артиллерии", []),
        ("ЭЛЬДАРСКИЕ ( И ТЁМНОЭЛЬДАРСКИЕ ) ГРАВИЦИКЛЫ",
         "Эльдарские (и тёмноэльдарские) гравициклы", []),
        ("Ядовитые атаки и Боевые Машины.", "Ядовитые атаки и Боевые Машины", []),
        # a term's English name or its abbreviation in brackets is an alias, Latin or Cyrillic
        # alike
        ("Отряд (Team)", "Отряд", ["Team"]),
        ("Истребительная команда (kill team)", "Истребительная команда", ["Kill Team"]),
        ("Умение Драться (WS)", "Умение Драться", ["WS"]),
        ("Ведущий (ЛД)", "Ведущий", ["ЛД"]),
        ("Движение (М)", "Движение", ["М"]),
        ("Сопротивление магии (1-3)", "Сопротивление магии (1-3)", []),
        # an outline's number is no part of the name; a number the name holds is
        ("1.1 Dwarf Lord", "Dwarf Lord", []),
        ("2.3. Магия", "Магия", []),
        ("5 вещей, которые нужно знать", "5 вещей, которые нужно знать", []),
        # nor is a table's roll before its result; a range the name holds is
        ("1-2: Combat Drop", "Combat Drop", []),
        ("5–6. Засада", "Засада", []),
        ("2-3 игрока", "2-3 игрока", []),
        # a second name after "они же", "aka"
        ("Редкие отряды, они же Rare choice.", "Редкие отряды", ["Rare choice"]),
        ("Орки (они же зеленокожие)", "Орки", ["Зеленокожие"]),
        ("Скавены aka Skaven", "Скавены", ["Skaven"]),
        # a footnote's mark is no part of a name; an English name may hold a value or "&"
        ("Ядовитые атаки 3+ (Poison 3+) *", "Ядовитые атаки 3+", ["Poison 3+"]),
        ("*Рвущий (Rending)", "Рвущий", ["Rending"]),
        ("Удар и отход (Hit & Run)", "Удар и отход", ["Hit & Run"]),
        ("Смертоносное x+ (Lethal x+)", "Смертоносное x+", ["Lethal X+"]),
        ("Зона боя: Волкус (Killzone: Volkus)", "Зона боя: Волкус", ["Killzone: Volkus"]),
        # an action's cost after its name is no part of it; an army book's price neither
        ("Атака (Charge) — 1 ОД", "Атака", ["Charge"]),
        ("Рывок - 1AP", "Рывок", []),
        ("Стрельба: 1 очко действия", "Стрельба", []),
        ("Фаза-1AP", "Фаза-1AP", []),
        # a pictogram a post sets before its heading is no part of it; a bullet stays
        ("⚔️ Паника", "Паника", []),
        ("🎮 Как играть (How to play)", "Как играть", ["How To Play"]),
        # a Roman number is a heading's number too; a Roman letter that opens a word is not
        ("II. Паника", "Паника", []),
        ("XIV) Ужас", "Ужас", []),
        ("Civil. War", "Civil. War", []),
        ("Vendetta", "Vendetta", []),
    ],
)
def test_titles(heading: str, title: str, aliases: list[str]) -> None:
    assert title_and_aliases(heading) == (title, aliases)


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        # numbered items of a list are no headings; a numbered heading alone is one
        ("Фазы:\n1. Инициативная фаза\nИгроки кидают кубы.\n2. Фаза движения\nИгроки двигают.",
         ["Фазы:"][:0]),
        ("4. Отступление и преследование\nЕсли подразделение бежит.\nУдержаться или "
         "преследовать?\nПобедитель решает.", ["Отступление и преследование",
                                                "Удержаться или преследовать?"]),
        # a page that ends in the middle of a word makes no section of its last words
        ("Стрельба\nМодели стреляют.\nНекоторые т", ["Стрельба"]),
        # a bracket left open: the next line goes on with it
        ("Поле боя\nИспользуйте правила (с.\n\n133).\nАрмии\nНаберите армии.",
         ["Поле боя", "Армии"]),
        # an epigraph and its attribution are flavour, not sections
        ("Правила\n‘В битве не будет\nпомощи.’\n- Скаут Сержант\nРафаен, при битве за\n\n"
         "Базовые правила\nМодели сражаются.", ["Правила", "Базовые правила"]),
    ],
)
def test_web_page_headings(text: str, titles: list[str]) -> None:
    from ingest.segment import segment

    assert [s.title for s in segment(text, "whfb8").sections] == titles


def _cases(table: str) -> list[dict[str, object]]:
    """The ``[[case]]`` rows of ``tests/data/segment/<table>.toml``."""
    import tomllib

    data = tomllib.loads((DATA / f"{table}.toml").read_text(encoding="utf-8"))
    cases: list[dict[str, object]] = data["case"]
    return cases


@pytest.mark.parametrize("case", _cases("english_names"), ids=lambda c: str(c["name"]))
def test_english_headings_get_the_russian_name_of_their_text(case: dict[str, object]) -> None:
    result = segment(str(case["text"]), str(case["system"]))
    got = [f"{s.title} | {', '.join(s.aliases)}" for s in result.sections]
    assert got == case["expected"]


def test_an_english_original_s_text_stays_with_its_russian_twin() -> None:
    """The English original of a bilingual FAQ's item is no section, but its text is its
    Russian twin's, kept as extra text (nothing of it is lost), and the parents stay right."""
    (case,) = [c for c in _cases("english_names") if "Russian twin" in str(c["name"])]
    text = str(case["text"])
    result = segment(text, str(case["system"]))
    twin = result.sections[-1]
    assert [text[a:b] for a, b in twin.extra_spans] == [
        "CHARGING\nQ. Can a unit charge an enemy it cannot see? A. No, the charging unit must "
        "see its target."]
    assert all(sec.parent is None or sec.parent < k for k, sec in enumerate(result.sections))


def test_an_english_original_gone_renumbers_the_parents() -> None:
    """Sections after an English original that goes keep their parents, one index down."""
    from ingest.sections import Section
    from ingest.segment_names import english_twins

    text = ("FAQ\nВопросы.\nMOVING\n"
            "Q. May a unit march in the turn after it rallied from fleeing? A. No, it may not.\n"
            "ДВИЖЕНИЕ\nВ. Может ли подразделение маршировать? О. Нет.\nМарш\nНельзя.\n")

    def sec(title: str, parent: int | None) -> Section:
        start = text.index(title)
        end = text.index("\n", start)
        body_end = text.find("\n", end + 1)
        return Section(title, title, (start, end), (end + 1, body_end), parent=parent)

    sections = [sec("FAQ", None), sec("MOVING", 0), sec("ДВИЖЕНИЕ", 0), sec("Марш", 2)]
    kept = english_twins(text, sections)
    assert [(s.title, s.parent, s.aliases) for s in kept] == [
        ("FAQ", None, []), ("ДВИЖЕНИЕ", 0, ["MOVING"]), ("Марш", 1, [])]


@pytest.mark.parametrize("case", _cases("line_headings"), ids=lambda c: str(c["name"]))
def test_headings_of_web_pages(case: dict[str, object]) -> None:
    result = segment(str(case["text"]), str(case["system"]))
    got = [f"{s.title} | {result.sections[s.parent].title if s.parent is not None else '-'}"
           for s in result.sections if not s.is_passage]  # (the rules above them: below)
    assert got == case["expected"]


@pytest.mark.parametrize("case", _cases("built_headings"), ids=lambda c: str(c["name"]))
def test_headings_of_built_pages(case: dict[str, object]) -> None:
    src = SourceText(name="page.txt", path="page.txt", encoding="utf-8",
                     system=str(case["system"]), system_from="option", text=str(case["text"]))
    _, result = prepare(src)
    got = [f"{s.title} | {result.sections[s.parent].title if s.parent is not None else '-'}"
           for s in result.sections if not s.is_passage]  # (the rules above them: below)
    assert got == case["expected"]


@pytest.mark.parametrize("case", _cases("flavour"), ids=lambda c: str(c["name"]))
def test_flavour_of_web_pages(case: dict[str, object]) -> None:
    result = segment(str(case["text"]), str(case["system"]))
    assert [s.title for s in result.sections] == case["sections"]
    assert [f"{f.kind} | {f.text}" for f in result.flavour] == case["flavour"]


@pytest.mark.parametrize("table_head", ["D6 Результат", "2D6  Результат"])
def test_a_dice_table_s_head_among_rules_in_mixed_case_opens_no_chapter(table_head: str) -> None:
    """A list of rules in mixed case (a chapter of special rules) with a dice table's head
    among them: the head's "D6" is no word in capitals, so the first rule does not become a
    chapter's title over the others."""
    text = ("Обостренные чувства\n\nЕсли боевая единица прибывает со случайного края стола, "
            "она может перебросить кубик.\n\nГубитель брони\n\nМодель с этим правилом кидает "
            "дополнительный D6 на пробитие брони.\n\nЭлектромагнитное\n\nКогда оружие с этим "
            f"правилом попадает по технике, бросьте D6:\n\n{table_head}\n1 Никакого "
            "воздействия.\n2-6 Техника получает скользящее попадание.\n\nУдарил-отступил\n\n"
            "Боевая единица с этим правилом может выйти из боя в конце фазы наступления.\n")
    src = SourceText(name="page.txt", path="page.txt", encoding="utf-8", system="wh40k6",
                     system_from="option", text=text)
    _, result = prepare(src)
    rules = {"Обостренные чувства", "Губитель брони", "Электромагнитное", "Ударил-отступил"}
    got = {s.title: s.parent for s in result.sections if s.title in rules}
    assert got == dict.fromkeys(rules)


def _flat_cases() -> list[dict[str, object]]:
    with (DATA / "flat_pages.toml").open("rb") as f:
        return list(tomllib.load(f)["case"])


@pytest.mark.parametrize("case", _flat_cases(), ids=lambda c: str(c["name"]))
def test_flattened_pages(case: dict[str, object]) -> None:
    """A page run into one line: its headings in capitals, its flavour, its rules text kept."""
    text = str(case["text"])
    result = segment(text, str(case["system"]))
    assert result.layout == "flat"
    got = [
        f"{s.title} | {result.sections[s.parent].title if s.parent is not None else '-'}"
        for s in result.sections
    ]
    assert got == case["sections"]
    assert [f"{f.kind} | {f.text}" for f in result.flavour] == case["flavour"]
    bodies = " ".join(text[a:b] for s in result.sections
                      for a, b in [s.body_span, *s.extra_spans])
    for words in case["kept"]:  # type: ignore[attr-defined]
        assert words in bodies


@pytest.mark.parametrize("case", _flat_cases(), ids=lambda c: str(c["name"]))
def test_flattened_pages_lose_no_text(case: dict[str, object]) -> None:
    """Every word of a page run into one line is in a section or accounted for as removed
    (words before its first heading, a caption, a quote), with its reason."""
    text = "Глава о движении войск, как её даёт книга. " + str(case["text"])
    src = SourceText(name="page.txt", path="page.txt", text=text, encoding="utf-8",
                     system=str(case["system"]))
    cleaned, seg = prepare(src)
    assert seg.layout == "flat"
    removed = account(src, cleaned, seg)
    assert all(r.reason for r in removed)
    in_sections = [cleaned.to_source_span(*span) for sec in seg.sections
                   for span in (sec.heading_span, sec.body_span, *sec.extra_spans)]
    held = in_sections + [r.span for r in removed]
    for m in re.finditer(r"\w+", text):
        assert any(a <= m.start() and m.end() <= b for a, b in held), m.group()
    # (the words before the first heading are a unit type's, in the PDF's order, or removed)
    if not any(a <= 0 < b for a, b in in_sections):
        assert any(r.reason == "текст до первого заголовка" and r.text.startswith("Глава о")
                   for r in removed)


# a run of capitals that holds two headings (a title right over its first part) → the second
# one's words; None: one heading
FUSED = [
    ("ПРАВИЛА ТУРНИРА ОБЩИЕ И СПЕЦИАЛЬНЫЕ ПРАВИЛА", "ОБЩИЕ И СПЕЦИАЛЬНЫЕ ПРАВИЛА"),
    ("СПОСОБНОСТИ ВАМПИРА ПРИЗРАЧНОЕ СОСТОЯНИЕ (50 ОЧКОВ)", "ПРИЗРАЧНОЕ СОСТОЯНИЕ (50 ОЧКОВ)"),
    ("КАРТЫ РАССТАНОВКИ КАРТА РАССТАНОВКИ: РАССВЕТ ВОЙНЫ", "КАРТА РАССТАНОВКИ: РАССВЕТ ВОЙНЫ"),
    ("СХЕМА ОРГАНИЗАЦИИ ВОЙСКА ОСНОВНЫЕ ПОДРАЗДЕЛЕНИЯ", "ОСНОВНЫЕ ПОДРАЗДЕЛЕНИЯ"),
    ("КАРТА РАССТАНОВКИ: АВАНГАРДНЫЙ УДАР", None),
    ("РУКОПАШНОЕ ОРУЖИЕ 41-ГО ТЫСЯЧЕЛЕТИЯ", None),
    ("СТРЕЛЬБА ПО БОЕВОЙ МАШИНЕ", None),
    ("ОРУЖИЕ БЛИЖНЕГО БОЯ ХАОСА", None),
    ("БОЕВОЙ ДУХ И ОТСТУПАТЕЛЬНЫЕ МАНЁВРЫ", None),
    ("ЛЕТАЮЩИЕ МОНСТРУОЗНЫЕ СОЗДАНИЯ", None),
    ("ЭЛЬДАРСКИЕ (И ТЁМНОЭЛЬДАРСКИЕ) ГРАВИЦИКЛЫ", None),
    ("ТЕСТ НА ЛИДЕРСТВО", None),
]


@pytest.mark.parametrize(("run", "second"), FUSED)
def test_a_run_of_capitals_holding_two_headings(run: str, second: str | None) -> None:
    cut = fused_headings(run)
    assert (run[cut:] if cut is not None else None) == second


# a run of capitals with what a heading holds around it in a page run into one line
CAPS_RUNS = [
    ("… носителю. ОБСИДИАНОВЫЙ МАГНИТ - 45 ОЧКОВ Даёт", "ОБСИДИАНОВЫЙ МАГНИТ - 45 ОЧКОВ"),
    ("… носителю. ТАЛИСМАН ЗАЩИТЫ - 10 очков Даёт", "ТАЛИСМАН ЗАЩИТЫ - 10 очков"),
    ("… тумана. ИЗ РОДА УПЫРЕЙ (25 ОЧКОВ) Вампир", "ИЗ РОДА УПЫРЕЙ (25 ОЧКОВ)"),
    ("… тесты. 2. ДВИЖЕНИЕ Подразделения", "2. ДВИЖЕНИЕ"),
    ("… в главе «Боевой дух» на с. 56. НАШЕ ОРУЖИЕ БЕСПОЛЕЗНО Если", "НАШЕ ОРУЖИЕ БЕСПОЛЕЗНО"),
    ("… см. стр. 5. ДВИЖЕНИЕ Подразделения", "ДВИЖЕНИЕ"),
    ("… время. УРОВЕНЬ 1: ЗЕЛЁНЫЙ НОВИЧОК Для", "УРОВЕНЬ 1: ЗЕЛЁНЫЙ НОВИЧОК"),
    ("… силой. АТРИБУТ ШКОЛЫ – ПРОКЛЯТИЕ БЕССМЕРТИЯ Когда", "АТРИБУТ ШКОЛЫ – ПРОКЛЯТИЕ БЕССМЕРТИЯ"),
    ("ЗНАМЯ АРМИИ ГРАФСТВ ВАМПИРОВ — КИБЕРПЕДИЯ Таксономические", "ЗНАМЯ АРМИИ ГРАФСТВ ВАМПИРОВ"),
]


@pytest.mark.parametrize(("text", "run"), CAPS_RUNS)
def test_a_heading_in_a_line_holds_its_number_and_price(text: str, run: str) -> None:
    assert [text[s:e] for s, e in caps_runs(text)][0] == run


# a page run into one line below lines of its site or a preamble (a text of lines): its
# headings inside the long line are headings still; a word stressed in capitals is not
_LONG = (" Модели этого типа следуют всем обычным правилам своего отряда, но получают"
         " особые преимущества, описанные ниже, и теряют их, когда покидают отряд.")
# (as long as the line below it: the text stays a text of lines, not a page in one line)
_PREAMBLE = ("Глава из книги правил, как её дал сайт документов, с его строками над ней.\n"
             "Текст ниже скопирован со страницы книги и идёт одной строкой до конца.\n"
             "Её заголовки набраны заглавными буквами внутри этой строки.\n"
             "Сайт хранит тысячи документов по всем предметам и разделам знаний.\n"
             "Каждый документ можно прочитать онлайн или скачать в удобном формате.\n"
             "Материалы публикуются пользователями сайта и проверяются модераторами.\n"
             "Если материал нарушает ваши права, напишите администрации сайта.\n"
             "Ниже приведён текст документа в том виде, в каком его загрузил автор.\n")
INLINE_HEADINGS = [
    (_PREAMBLE + "КОМАНДИР Командир всегда имеет чуть"
     " лучший профиль, чем рядовые модели." + _LONG + " ВООРУЖЕНИЕ И ДОСПЕХИ Модель командира"
     " часто имеет оружие получше." + _LONG + "\n", ["Командир", "Вооружение и доспехи"]),
    (_PREAMBLE + "АЛЬЯНСЫ Игра Warhammer – это обычно столкновение двух армий." + _LONG
     + _LONG + "\n", ["Альянсы"]),
    (_PREAMBLE + "БОЕВОЙ ДУХ «Полностью посвящай себя долгу и службе своим.»" + _LONG
     + _LONG + "\n", ["Боевой дух"]),
    (_PREAMBLE + "ОЧЕНЬ важно помнить, что правила меняются от редакции к редакции." + _LONG
     + _LONG + "\n", []),
    (_PREAMBLE + "Помните: модели этого отряда ВСЕГДА проходят тест на панику." + _LONG
     + _LONG + "\n", []),
    (_PREAMBLE + "УСИЛЕННЫЕ ВОРОТА. Самая слабая точка обороны любого замка – его ворота." + _LONG
     + _LONG + "\n", ["Усиленные ворота"]),
]


@pytest.mark.parametrize(("text", "titles"), INLINE_HEADINGS)
def test_headings_inside_a_long_line_under_lines(text: str, titles: list[str]) -> None:
    result = segment(text, "whfb8")
    assert result.layout == "lines"
    assert [s.title for s in result.sections if not s.is_passage] == titles


@pytest.mark.parametrize("case", _cases("lead_passages"), ids=lambda c: str(c["name"]))
def test_rules_above_the_first_heading(case: dict[str, object]) -> None:
    src = SourceText(name="page.txt", path="page.txt", encoding="utf-8",
                     system=str(case["system"]), system_from="option", text=str(case["text"]))
    cleaned, result = prepare(src)
    leads = [s for s in result.sections if s.is_passage]
    assert [cleaned.text[slice(*s.body_span)] for s in leads] == (
        [case["passage"]] if case["passage"] else [])
    assert [s.title for s in result.sections if not s.is_passage] == case["headings"]
    if leads:  # the first section, heading no other
        assert result.sections[0] is leads[0]
        assert all(s.parent != 0 for s in result.sections)
