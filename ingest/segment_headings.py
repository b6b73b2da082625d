"""What a line of a web page looks like when it is a heading (:mod:`ingest.segment_lines`
reads the page with these): a heading line, a heading a PDF broke over two lines, a heading in
capitals (one that shares its line with its text: :mod:`ingest.segment_run_in`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ingest.sections import (
    OPENING_QUOTES,
    PAGE_RE,
    PRICE,
    QUOTES,
    is_cyrillic,
    pages_after,
    unparen,
    without_pictograms,
)
from kb.lemmas import WORD_RE, lemma, morph, pos, words

_LIST_ITEM = re.compile(r"^\s*(\d+[.)]|[-•–—])\s")
BULLET = re.compile(r"^\s*[-•–—·]\s")
# a lettered point ("а) Спецправило …", "b) …"): its letter in lower case goes on from nothing
_LETTERED = re.compile(r"^\s*[а-яёa-z]\)\s")
_NUMBER = re.compile(r"^\s*(\d{1,2})[.)]\s")
_DATE = re.compile(
    r"\b\d{1,2}\s+(?:январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)"
    r"\w*\s+\d{4}|\b\d{1,2}\.\d{1,2}\.\d{4}\b")
# a heading holds at least two letters, and three letters or digits: a line of two ("WS",
# "Ld", "Sv", "ББ") is a profile table's cell, set a cell a line when a PDF's table was
# flattened ("6-ка" is a heading)
_TWO_LETTERS = re.compile(r"[^\W\d_].*?[^\W\d_]")
_THREE_CHARS = re.compile(r"[^\W_].*?[^\W_].*?[^\W_]")
_MAX_QUESTION_WORDS = 6
# "Источник: Games Workshop", "Перевод: Lordik, Millenium", "Состав боевой единицы:1 Страж":
# a field and its value (a credits line, a datasheet's entry), when the value is a number, a
# list, names in Latin script or a web address under a Russian label ("Шаг 1: Подготовка к
# игре" and "Kill Team: Rogue Trader" are headings)
_FIELD = re.compile(r"^([^\d:]{2,30}):\s*(\S.*)$")
_WEB_ADDRESS = re.compile(r"https?://|www\.|\b[\w-]+\.(?:ru|com|net|org|su|ua|info)\b")
# "1 Разведывательный Страж", "0-1 Элитных подразделений (Elites)": a count before a name in
# mixed case is a line of a unit's composition (a heading in capitals after a page number,
# "1 ОСНОВНЫЕ ПРАВИЛА", is still a heading)
_COUNT = re.compile(r"^\d+(?:-\d+)?\s+(?=[А-ЯЁA-Z])")
# "1AP", "2 CP": a number and a unit's abbreviation, an action's cost under its name
_VALUE = re.compile(r"^\d+\s?[A-Z]{1,3}$")
# "1.1. кидает", "2) бежит": numbering before a word in lower case is an item or a sentence;
# "0-2 основные войска", "1 лидер": a count before one, a line of a list's composition
_NUMBERED_LOWER = re.compile(r"^\d+(?:[.–-]\d+)*[.)]?\s+[а-яёa-z]")
# A profile table's rows: its header of characteristic abbreviations ("M WS BS S T W I A Ld",
# "Д ББ НС С В Р И А Лд"), four or more capitalised words of one to three letters; and a model's
# line ending in four or more values ("Воин 4 3 3 3 1 3 1 7", "Орудие – – – 7 2 – – – 3+")
_ABBREVIATION = r"[A-ZА-ЯЁ][A-Za-zА-Яа-яЁё]{0,2}"
_PROFILE_HEADER = re.compile(rf"^(?:{_ABBREVIATION}\s+){{3,}}{_ABBREVIATION}$")
_PROFILE_VALUES = re.compile(r"(?:\s+(?:\d+[+\"]?|[–—-]|\d*[DdДд]\d+(?:[+-]\d+)?)){4,}$")
# a spell's or weapon's profile written out: a range in inches ("Магическая стрела 24”, D6 S4
# hit"), a Strength ("2D6 S4"); no heading names a distance or a Strength
_PROFILE_TERMS = re.compile(r"\d\s*(?:[”″\"]|дюйм)|(?<![\w-])[SС]\d\b")
# a profile table's header in words ("Наименование Дальность Сила Специальные правила",
# "Оружие Дальность Сила БП Тип"): three or more names of its columns side by side, with no
# mark or conjunction between them, as no heading is written
_COLUMN_NAMES = frozenset({
    "наименование", "название", "оружие", "дальность", "сила", "бп", "тип", "специальный",
    "правило", "стоимость", "цена", "очко", "модель", "профиль", "характеристика",
    "стойкость", "рана", "инициатива", "атака", "лидерство", "движение", "спасбросок"})
_MIN_COLUMNS = 3
_COLUMN_STARTS = frozenset(w[:3] for w in _COLUMN_NAMES)
# a term, a spaced dash and its definition in lower case, ending in a period
_DEFINITION = re.compile(r"\S\s+[–—-]\s+[а-яё]")


# a time of day opening a line, or a span of time ("12:00", "12:20 - 13:50")
_TIME_OF_DAY = re.compile(r"\d{1,2}:\d{2}(?!\d)(?:\s*[-–—]\s*\d{1,2}:\d{2})?(?![\d:])")
# an English sentence of a quoted rulebook: a verb of being, having or a modal between its words
_ENGLISH_SENTENCE_WORDS = 4
_ENGLISH_PREDICATE = re.compile(
    r"\b(?:is|are|was|were|will|must|may|can|cannot|could|should|would|has|have|had|does|do"
    r"|did)\b", re.IGNORECASE)
_MAX_CHARS, _MAX_WORDS = 80, 9
# a name that opens with a conjunction ("И не познают они страха"), short, ending in a word,
# over a sentence of its own
_CONJUNCTION_NAME_WORDS = 6
# an arrow between a diagram's boxes ("Все ваши оперативники истощены, а у противника — нет?
# —> ПРОТИВОДЕЙСТВИЕ", "Фаза движения → Фаза стрельбы"): a flow's line, which heads nothing
_ARROW = re.compile(r"[-–—=]>|[→⇒⟶➔➜]")
# a page's title, alone on the text's first line, may be as long as a headline
_MAX_TITLE_CHARS, _MAX_TITLE_WORDS = 140, 16


def column_header(s: str) -> bool:
    """Whether a line is a profile table's header written in words (:data:`_COLUMN_NAMES`):
    the lines right under it are its rows, no headings either."""
    parts = s.split()
    # (the cheap test first: most lines open with no column's name)
    if len(parts) < _MIN_COLUMNS or parts[0][:3].lower() not in _COLUMN_STARTS \
            or not re.fullmatch(r"[\w ]+", s):
        return False
    lemmas = [lemma(w) for w in parts]
    return all(w in _COLUMN_NAMES for w in lemmas) and len(
        set(lemmas) - {"специальный"}) >= _MIN_COLUMNS


# the parts of speech of a conversation's reply: particles, conjunctions, pronouns,
# interjections, prepositions and predicatives ("Да ты что?", "Ну и что?", "Нет!")
_CHATTER_POS = frozenset({"PRCL", "CONJ", "NPRO", "INTJ", "PREP", "PRED"})


def _chatter(s: str) -> bool:
    """Whether a line's words are a reply's, none of them naming anything: no noun, verb,
    adjective, adverb or number, no English word."""
    found = words(s)
    return bool(found) and all(is_cyrillic(w[0]) and pos(w) in _CHATTER_POS for w in found)


def is_heading_line(line: str, next_line: str | None, title: bool = False) -> bool:
    """Whether a line of a web page is a heading (``title``: the page's first line, standing
    alone, which may be as long as a headline: "Инициатива, важнейшие стратегические уловки
    и поворотные точки в новом формате Kill Team!").

    A heading is short, starts with a capital (or a digit or "+"), holds words (not only a
    number, a date or a size), is not followed by a continuation line (one starting in lower
    case), and, when it ends like a sentence, holds no finite verb ("Ядовитые атаки и Боевые
    Машины." is a heading, "Именно подобные ситуации отображает правило Паники." is not). A
    short question ("Удержаться или преследовать?") is a heading; a numbered line
    ("4. Отступление и преследование") may be one (:func:`segment_lines` tells a numbered
    heading from a numbered list). A line that opens with a conjunction ("Но это не история
    о …") goes on from the sentence before it, unless it is a short name ending in a word over
    a sentence of its own ("И не познают они страха").
    """
    s = without_pictograms(line.strip())  # ("⚔️ Паника": a post's mark before its heading)
    if not s or BULLET.match(s):
        return False
    # an entry's price and who may take it ("- 60 очков (только Морской Шлем)") are no part of
    # its name's length (looked for only in a line too long without it)
    max_chars, max_words = (_MAX_TITLE_CHARS, _MAX_TITLE_WORDS) if title else (_MAX_CHARS,
                                                                             _MAX_WORDS)
    name = PRICE.sub("", s) if max_chars < len(s) <= 2 * _MAX_CHARS else s
    if len(name) > max_chars:
        return False
    if _TWO_LETTERS.search(s) is None or _THREE_CHARS.search(s) is None:
        return False
    if s[0] in OPENING_QUOTES:  # a name in quotes: "‘Take Aim!’ («Возьми …»)", judged as
        # the words it quotes ("«Модель может стрелять дважды.»" is a sentence)
        s = s.strip(QUOTES)
    if not s or not (s[0].isupper() or s[0].isdigit() or s[0] == "+"):
        return False
    if "»" in s and not any(q in s[:s.index("»")] for q in "«“„\""):
        return False  # "Лидерство» боевые машины автоматически": a quotation closed that the
        # line did not open goes on from the line above (a copy may open it with another
        # mark: 'Правила турнира "Сражения под Новогодней елкой»')
    if re.search(r"\s[-–—]\s?это\s", s) or _ARROW.search(s):
        return False
    if _GREETING.match(s) or _VOCATIVE.fullmatch(s):
        return False  # "Привет всем любителям Warhammer 40 000!", "Комрады": a post greets
        # its readers
    if s[-1:] in "?!" and _chatter(s):
        return False  # "Да ты что?", "Ну вот!": a reply in a conversation names nothing
    if (_DIGIT.search(s) or "г." in s) and _ADDRESS.search(s):
        return False  # "Магазин по адресу г.Новосибирск, ул. Красный проспект, 50": a place
        # (a house's number or a city's "г." first: the cheap test, as few lines hold either)
    if is_field(s) or _NUMBERED_LOWER.match(s) or _VALUE.match(s):
        return False
    if _QA_LABEL.match(s):
        return False  # "Вопрос: Считается ли колесница большой целью?": a FAQ's entry
    if s[0].isdigit() and _TIME_OF_DAY.match(s):
        return False  # "12:20 - 13:50 Первый раунд.", "19:30 End of first day": a schedule's row
    if _PROFILE_HEADER.match(s) or _PROFILE_VALUES.search(s) or _PROFILE_TERMS.search(s) \
            or column_header(s):
        return False  # a row of a profile table, a profile written out
    count = _COUNT.match(s)
    if count and not s[count.end():].isupper():
        return False
    nxt = (next_line or "").strip()
    if nxt and (BULLET.match(next_line or "") or _LETTERED.match(nxt)) and _states(s):
        return False  # "Трудный ландшафт включает" / "• Леса, …" (or "а) Леса"): a list's
        # lead-in
    if nxt and (nxt[0].islower() or (nxt[0] in "-–—,;)" and not BULLET.match(nxt))) \
            and not _caps_term(s) and not _LETTERED.match(nxt):
        return False  # the line goes on below it (a bulleted list's "- " is no going on; a
        # term in capitals over its definition in lower case, "WEAPON SKILL (WS)" /
        # "отражает умение модели …", goes on from no sentence)
    toks = words(s)
    if not toks or (len(toks) > max_words and len(words(PRICE.sub("", s))) > max_words):
        return False
    if len(toks) > 1 and is_cyrillic(toks[0][0]) and pos(toks[0]) == "CONJ" \
            and not _question_word(toks[0]) and not (
                s[-1:].isalpha() and len(toks) <= _CONJUNCTION_NAME_WORDS
                and s[len(toks[0]):len(toks[0]) + 1] == " " and nxt[:1].isupper()):
        return False  # "Но это не история о …", "А если …": a sentence goes on from the last
    if s.endswith((":", ";", ",")) or _cut_off(toks, s):
        return False
    if s.endswith(("…", "...")) and not s.isupper():
        return False  # "Ну помолясь…": a sentence trailing off names nothing (a heading in
        # capitals runs into its text so: "В НАЧАЛЕ ФАЗЫ…" / "Некоторые правила …")
    if s.endswith(".") and re.search(r":\s+[a-zа-яё]", s):
        return False  # "Leadership (ld): показатель морали модели." defines a term
    if _DATE.search(s):
        return False  # "Версия от 29 апреля 2008 года": a stamp, not a heading
    if _cites_page(s):
        return False  # "На основе сценариев из БРБ на 439-441 стр.": a heading cites no page
    if s.endswith("?"):
        return len(toks) <= _MAX_QUESTION_WORDS and not _LIST_ITEM.match(s)
    if len(toks) == 1 and s[-1] in ".!" and is_cyrillic(toks[0][0]) \
            and not _may_be_nominative(toks[0]):
        return False  # "Передышкам." / "Прощению.": a motto's fragment, no name
    if s.endswith(".") and len(toks) >= _ENGLISH_SENTENCE_WORDS \
            and not any(is_cyrillic(t[0]) for t in toks) and _ENGLISH_PREDICATE.search(s):
        return False  # "Hence one game turn will comprise two player turns.": a sentence
    if s.endswith(".") and len(toks) > 1 and toks[0].lower() == "это":
        return False  # "Это Тяжёлое укрытие.": "this is …", a statement about the thing above
    if s.endswith("."):  # a sentence has a predicate, a verb or not ("… должны смотреть …"),
        # or a quantified subject ("Все атаки – огненные.": a heading names, it says no "all")
        # or a term and its definition after a dash ("Тест на лидерство – аналогично 7.")
        return not _has_predicate(s) and not title and not (
            len(toks) > 1 and lemma(toks[0]) in _QUANTIFIERS) and not (
            _RESTRICTIVE & {t.lower() for t in toks}) and not _DEFINITION.search(s)
    if s.endswith("!"):  # an exclamation may be a heading's ("Основы завершены!")
        return not _has_finite_verb(s)
    if len(toks) > 6:
        # a long line with a verb is a sentence wrapped at its end, but the page's title alone
        # on its first line ends no sentence ("Защищающийся проигрывает бой в Здании или Ничья");
        # nor does a name with its notes in brackets after it ("Призыв Нехека (Колдуется на 6+)
        # (Сигнатурное заклинание)"): the name is the heading's words
        name = _TRAILING_NOTES.sub("", s)
        if name != s and 0 < len(words(name)) <= 6 and name[-1:].isalpha():
            return not _has_finite_verb(name)
        return title or not _has_finite_verb(s)
    return True


# a greeting that opens a post or an article ("Привет всем любителям Warhammer 40 000!", "Всем
# привет!", "Здравствуйте, друзья!", "Доброго времени суток, уважаемые игроки.")
_GREETING = re.compile(
    r"(?:всем\s+)?(?:привет(?:ствую|ствуем)?|здравствуй(?:те)?|салют|хай"
    r"|добр(?:ый|ое|ого)\s+(?:день|вечер|утро|дня|вечера|утра|времени)"
    r"|доброго\s+времени\s+суток)(?![\w-])", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# the readers addressed on a line of their own ("Комрады", "Друзья!", "Уважаемые игроки,")
# ("Игроки" or "Участники" alone may head a rule on the players: only "уважаемые" or
# "дорогие" before them makes an address)
_VOCATIVE = re.compile(
    r"(?:(?:(?:дорогие|уважаемые)\s+)?(?:друзья|коллеги|комрады|камрады|господа|товарищи"
    r"|ребята|форумчане)|(?:дорогие|уважаемые)\s+(?:игроки|участники|братья))\s*[!,.]?",
    re.IGNORECASE)
# a postal address: a street, an avenue or a house with its number, a city before the next
# part of the address ("ул. Красный проспект, 50", "г.Новосибирск, ул. …", "пр-т Мира, д. 5";
# a city alone names an event's place: "… клуб "Бизон" г. Королев (МО)")
_ADDRESS = re.compile(
    r"(?:\bул\.|\bулица\s|\bпр-т\b|\bпроспект\b|\bпер\.|\bпереулок\s|\bш\.|\bшоссе\s)"
    r"[^\n]{0,40}?\d|\bг\.\s?[А-ЯЁ][а-яё]+,|\bд\.\s?\d", re.IGNORECASE)
_TRAILING_NOTES = re.compile(r"(?:\s*\([^()\n]{1,60}\))+$")
# a question's or an answer's label before its words ("Вопрос: …", "Ответ. …", "В: …", "Q: …";
# a letter and a point alone may number a part, "В. Рукопашная")
_QA_LABEL = re.compile(r"(?:(?:[Вв]опрос|[Оо]твет|ВОПРОС|ОТВЕТ|Question|Answer)\s*[:.]"
                       r"|[ВОQA]\s*:)\s")


# the words a statement about every or some of its things opens with ("Все атаки – огненные.")
_QUANTIFIERS = frozenset({"все", "весь", "каждый", "любой", "некоторый"})

# the particles of a restriction, which a statement makes and a name does not ("Набор армии
# только из одного кодекса.")
_RESTRICTIVE = frozenset({"только", "лишь"})


# nouns a rule's name follows ("действует правило «Приближение шторма»"): a clause ending in
# one goes on with the name
_NAME_CUES = frozenset({"правило", "спецправило"})

# words that open what follows them, so a line ending in one stops mid-sentence
_OPENING_POS = frozenset({"PREP", "CONJ", "PRCL"})
_DETERMINERS = frozenset({"некоторый", "весь", "этот", "такой", "каждый", "любой", "другой",
                          "который", "свой"})


def announces_name(line: str) -> bool:
    """Whether a clause ends in a noun a rule's name follows ("На все Бои действует правило"):
    the next line, the name, goes on with it."""
    if not line.rstrip().lower().endswith("правило"):
        return False  # (the cheap test first: both cue nouns end so)
    toks = words(line)
    return len(toks) >= 2 and line.rstrip()[-1:].isalpha() \
        and lemma(toks[-1]) in _NAME_CUES and _has_finite_verb(line)


def _cites_page(line: str) -> bool:
    """Whether a line cites a page after its start ("… из БРБ на 439-441 стр."): a statement
    about where its rules come from, not a heading (an errata's entry opens with the page it
    amends, "Стр.58 – Курт Хельборг"; a heading may give its page in brackets, "Засадники (см.
    стр. 27)")."""
    if "стр" not in line.lower():
        return False  # (the cheap test first: every form but "с. 57" has it)
    unbracketed = unparen(line)
    m = PAGE_RE.search(unbracketed) or next(pages_after(unbracketed), None)
    return m is not None and m.start() > 0



def _cut_off(toks: list[str], line: str) -> bool:
    """Whether a line stops in the middle of a sentence (a page cut off, or a line wrapped):
    it ends in a conjunction ("Стрельба и"), or it is a clause (a verb and a comma) that ends
    in a preposition, a particle or a determiner ("Модели стреляют по очереди, и некоторые").
    A heading may end in a preposition ("Отступило через": "Fled through")."""
    if len(toks) < 2 or not line[-1].isalpha() or not is_cyrillic(toks[-1][0]):
        return False
    last = pos(toks[-1])
    if last == "CONJ":
        return True
    if announces_name(line):
        return True  # "На все бои действует правило" / "Приближение шторма": its name below
    if last == "PREP" and (len(toks) >= _CUT_PREP_WORDS or (
            len(toks) >= _CUT_CLAUSE_WORDS and _has_finite_verb(line))):
        return True  # "Автоматический огонь всегда ведется с": a clause stops at its
        # preposition; so does a long phrase with no verb ("Шестигранный кубик со значениями
        # на гранях от 1 до", a line a PDF's column wrapped)
    return "," in line and (last in _OPENING_POS or lemma(toks[-1]) in _DETERMINERS) \
        and _has_finite_verb(line)


_CUT_CLAUSE_WORDS = 4  # words of a clause cut at a preposition (a heading's "Отступило через"
# has two)
_CUT_PREP_WORDS = 6  # words of any line cut at a preposition


# the labels of an article's credits: a field whatever its value ("Автор: Павел Тарабрин")
_CREDIT_LABELS = frozenset({"автор", "авторы", "редактор", "редакторы", "перевод", "переводчик",
                            "переводчики", "источник", "составитель", "корректор", "верстка"})


def field_shaped(line: str) -> bool:
    """Whether a line is written as a label and its value ("Место проведения: подвал"),
    whatever the value: a field among fields, or a heading ("Магия: общие правила")."""
    m = _FIELD.match(line.strip())
    return m is not None and is_cyrillic(m.group(1).strip()[:1] or "a")


def is_field(line: str) -> bool:
    """Whether a line is a field and its value by its own words (see :data:`_FIELD`): a credit,
    or a value that is a number, a list, no Russian word or a web address."""
    m = _FIELD.match(line.strip())
    if m is None or not is_cyrillic(m.group(1).strip()[0]):
        return False
    if m.group(1).strip().lower().replace("ё", "е") in _CREDIT_LABELS:
        return True
    value = m.group(2)
    return (value[0].isdigit() or "," in value or re.search(r"[а-яёА-ЯЁ]", value) is None
            or _WEB_ADDRESS.search(value) is not None) and not _states(value)
    # (a value that states something is a sentence after a name with a colon, no field's:
    # "Зона Боя: Волкус содержит 2x укреплённые позиции, 2x большие руины …")


def _states(text: str) -> bool:
    """Whether ``text`` holds a verb in the indicative ("включает", "могут"): a statement, not
    a heading's imperative ("Выберите цель") or name."""
    return any(is_cyrillic(w[0]) and "indc" in morph().parse(w.lower())[0].tag
               and pos(w) == "VERB" for w in words(text))


def _has_finite_verb(text: str) -> bool:
    return any(is_cyrillic(w[0]) and pos(w) == "VERB" for w in words(text))


# what makes a clause a sentence besides a finite verb: an infinitive ("есть" is one first), a
# predicative ("нужно", "можно"), a short adjective or participle ("должны", "уничтожено")
_SENTENCE_PREDICATES = frozenset({"VERB", "INFN", "PRED", "ADJS", "PRTS"})


def _has_predicate(text: str) -> bool:
    """Whether ``text`` holds a predicate: a finite verb, or a predicative, short adjective or
    participle ("Все модели в подразделении должны смотреть в одну сторону.")."""
    return any(is_cyrillic(w[0]) and pos(w) in _SENTENCE_PREDICATES for w in words(text))


@lru_cache(maxsize=1_000)
def _question_word(word: str) -> bool:
    """Whether ``word`` may be a question adverb ("Как", "Когда", "Где"): a line it opens is
    a heading that asks ("Как много туда влезет"), not a sentence going on after a conjunction."""
    return any("Ques" in p.tag for p in morph().parse(word.lower()))


@lru_cache(maxsize=4_096)
def _may_be_nominative(word: str) -> bool:
    """Whether a word may stand in the nominative (or does not decline)."""
    parses = morph().parse(word.lower())
    return any("nomn" in p.tag or p.tag.case is None for p in parses)


_MIN_CLAUSE_WORDS = 4


def _is_clause(text: str) -> bool:
    """Whether text in mixed case is a clause, not the rest of a name: four words or more,
    with a comma or a verb."""
    return len(words(text)) >= _MIN_CLAUSE_WORDS and ("," in text or _has_finite_verb(text))


def _first_clause(text: str) -> str:
    m = re.search(r"[.!?;]", text)
    return text[:m.start()] if m else text


_MAX_BROKEN_WORDS = 2
_MAX_STACKED_WORDS = 5


def _broken_heading(line: str, following: str, after: str | None, adjacent: bool = False
                    ) -> bool:
    """A heading a PDF broke over two lines: a capitalised word or two, then a line of a word
    or two in lower case ("Специальные" / "правила"), or two lines in capitals ("КРАТКИЕ" /
    "ПРАВИЛА ИГРЫ"), with nothing running on after them. Two lines in capitals set one right
    under the other (``adjacent``: no blank line between) may be longer, a title set large
    over two lines ("СПЕЦИАЛЬНЫЕ ПРАВИЛА" / "ВОЙНЫ БОРОДЫ ДЛЯ ГНОМОВ")."""
    a, b = line.strip(), following.strip()
    if not a or not b or not a[0].isupper() or _THREE_CHARS.search(a) is None \
            or _THREE_CHARS.search(b) is None:
        return False  # ("WS" / "BS": a profile table's cells, one a line)
    caps = _is_caps(a) and _is_caps(b) and a.isupper() and b.isupper()
    if not (b[0].islower() or caps):
        return False
    if caps:
        b = re.sub(r"\s*[(\[][^()\[\]]*[)\]]$", "", b)  # its English in brackets may follow
    most = _MAX_STACKED_WORDS if caps and adjacent else _MAX_BROKEN_WORDS
    if len(words(a)) > most or len(words(b)) > most or re.search(r"[.,:;!?()«»\d]", a + b):
        return False
    nxt = (after or "").strip()
    return not nxt or not (nxt[0].islower() or nxt[0] in "-–—,;)")


@lru_cache(maxsize=20_000)
def _caps_term(line: str) -> bool:
    """Whether a line opens with its words in capitals up to a bracket, a slash or its end
    ("WEAPON SKILL(WS)/владение оружием", "ДВИЖЕНИЕ"), two words at least or one of five
    letters: a term's name, no sentence's start."""
    head = re.split(r"[(/\[]", line, maxsplit=1)[0]
    toks = words(head)
    return bool(toks) and all(t.isupper() for t in toks) and (
        len(toks) >= 2 or len(toks[0]) >= 5)


def _is_caps(heading: str) -> bool:
    """Whether a heading is set in capitals, by its first word ("D6 Результат", a dice
    table's head, is not: a dice expression's letter is no capitalised word)."""
    first = WORD_RE.search(heading)  # (its first word alone: a line may be a paragraph)
    return first is not None and first.group().isupper() and len(first.group()) > 1 \
        and not any(ch.isdigit() for ch in first.group())
