"""Furniture of forum and wiki software, told by its shape: a part of the ``site_furniture``
cleaning step (:func:`ingest.clean_furniture.site_furniture`).

Forum engines (Invision/IPB, phpBB, vBulletin, SMF, MyBB, the hosted ones) and wiki engines
(MediaWiki, Fandom) put the same kinds of lines around a post or an article whatever the site:
a greeting to the guest with links to log in, a post's header (its author, date, number, the
author's group, post count, registration date, reputation), the buttons under a post, a quote's
header, a pager; a wiki's "Материал из …", "Перейти к навигации", "[править]", its contents box
and categories. The words are the engines' own, so they are the same on every site; a line of
the post's author (a user name, a rank) is only taken inside a post's header, between the
engine's lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

from ingest.clean_edits import HSPACE, block_edit
from ingest.models import Edit

_S = HSPACE
GUEST_REASON = "приветствие форума гостю (вход, регистрация)"
POST_HEADER_REASON = ("шапка сообщения форума (автор, дата, номер сообщения, группа, число "
                      "сообщений, регистрация, репутация)")
POST_BUTTONS_REASON = "кнопки сообщения форума (ответить, цитата, профиль, наверх)"
TOPIC_BUTTONS_REASON = "кнопки темы форума (ответить, новая тема)"
PAGER_REASON = "навигация по страницам форума"
FORUM_NAV_REASON = "навигация форума (помощь, поиск, пользователи, календарь)"
QUOTE_REASON = "заголовок цитаты на форуме («… написал(а):»)"
FORUM_INFO_REASON = "служебная строка форума (время, часовой пояс, заголовок таблицы)"
WIKI_SOURCE_REASON = "подпись вики «Материал из …»"
WIKI_NAV_REASON = "навигация вики («Перейти к навигации», «[править]»)"
WIKI_TOC_REASON = "оглавление вики («Содержание» с номерами разделов)"
WIKI_CATEGORIES_REASON = "категории вики"
ANNOUNCEMENT_REASON = "объявление форума над приветствием гостю"
SPOILER_REASON = "метка спойлера форума («Раскрывающийся текст», «Нажмите, для отображения текста»)"


def _line(body: str) -> str:
    return rf"^{_S}*+(?:{body}){_S}*$"  # (the spaces before it taken once: a line of
    # thousands of spaces was tried again from each, a minute for 10,000)


# A date and a time as forum engines print a post's: "17.02.2011, 09:50", "May 24 2008, 19:36",
# "6 Июл 2021 в 10:26", "01 Июл, 2015 05:26", "Сегодня, 12:03", "2011-02-17 09:50".
_MONTH = r"[A-Za-zА-Яа-яЁё]{3,9}\.?"
_DATE = (rf"(?:\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}"
         rf"|\d{{1,2}}{_S}+{_MONTH},?{_S}+\d{{4}}|{_MONTH}{_S}+\d{{1,2}},?{_S}+\d{{4}}"
         rf"|(?i:сегодня|вчера|today|yesterday))")
_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?"
_DATE_TIME = rf"{_DATE}(?:,?{_S}*(?:(?i:в|at){_S}*)?{_TIME})?|{_TIME}"
_POST_DATE = (rf"(?i:(?:(?:сообщение{_S}*)?(?:добавлено|отправлено|опубликовано|написано)"
              rf"|сообщение|posted)"
              rf"{_S}*:?{_S}*)?(?:(?i:от|on){_S}+)?{_DATE},?{_S}*(?:(?i:в|at){_S}*)?{_TIME}")
# "#" as the engines write it; "сообщение №2" is how a text numbers its own messages
_POST_NUMBER = rf"(?i:(?:сообщение|пост|post|message){_S}*)?#{_S}*\d{{1,7}}"
_WEEKDAY = (r"(?i:понедельник|вторник|среда|четверг|пятница|суббота|воскресенье|monday|tuesday"
            r"|wednesday|thursday|friday|saturday|sunday)")
# uCoz's "TinkiДата: Пятница, 11.07.2014, 13:04 | Сообщение # 1": the author's name glued to
# the label of the post's date, the weekday in it, its number after a bar
_LABELLED_DATE = (rf"[^\n]{{0,32}}?(?i:дата|date){_S}*:{_S}*(?:{_WEEKDAY},?{_S}*)?{_DATE},?{_S}*"
                  rf"(?:(?i:в|at){_S}*)?{_TIME}(?:{_S}*\|{_S}*{_POST_NUMBER})?")
# The engine's labels of the author's profile, each with the value it has there: a count, a
# date, a number — so that "Регистрация: 10:00" of a tournament's schedule is no such line.
_COUNT = r"[-+]?\d[\d \xa0,.]*(?:\s*\[\+/-\])?"
_MEMBER_FIELD = (
    rf"(?i:сообщений|сообщения|постов|posts|messages){_S}*:{_S}*(?:{_COUNT})?"
    rf"|(?i:регистрация|зарегистрирован\w*|на форуме с|joined|registered){_S}*:{_S}*"
    rf"(?:{_DATE}(?:,?{_S}*{_TIME})?)?"
    rf"|(?i:репутация|reputation|рейтинг|благодарност\w*|спасибо сказали){_S}*:{_S}*"
    rf"(?:{_COUNT})?"
    rf"|(?i:пользователь|member){_S}*(?:№|no\.?|#){_S}*:?{_S}*(?:{_COUNT})?"
    # (a rank or status of a role-playing game's character sheet, "Статус: Серебро 1", is none)
    rf"|(?i:группа|group){_S}*:{_S}*[^\n]{{1,40}}"
    rf"|(?i:награды|awards){_S}*:{_S}*(?:{_COUNT})?"
    rf"|(?i:статус|status){_S}*:{_S}*(?i:offline|online|в сети|не в сети)"
)
_ANCHOR_RE = re.compile(_line(rf"{_POST_DATE}|{_LABELLED_DATE}|{_POST_NUMBER}|{_MEMBER_FIELD}"),
                        re.MULTILINE)
_POST_NUMBER_RE = re.compile(_line(rf"(?i:сообщение|post){_S}*#{_S}*\d{{1,7}}"), re.MULTILINE)
# Lines that stand in a post's header without naming the engine: a number, a date, stars of a
# rank, an avatar, the author being on line.
_HEADER_VALUE_RE = re.compile(_line(
    rf"{_COUNT}|{_DATE}|\*+|@|(?i:не в сети|в сети|offline|online|аватар\w*(?: [^\n]{{1,40}})?"
    rf"|сейчас на форуме|автор|author)"))
_LONE_VALUE_RE = re.compile(rf"^{_S}*+(?:\d+|{_DATE}){_S}*$", re.MULTILINE)
_SHORT_LINE_RE = re.compile(rf"^{_S}*+[^\n]{{1,40}}?(?<![.!?;,])(?:\.\.\.|…)?{_S}*$")
_MAX_SHORT_WORDS = 5
_MAX_HEADER_GAP = 6  # lines of a header between the engine's lines ("Herald of Naggaroth")
_LATIN_RE = re.compile(r"[A-Za-z0-9_]")
# a user name, cut short by the engine or not ("kapitandobrokoto...")
_NAME_RE = re.compile(rf"^{_S}*+\S[^\n]{{0,31}}?(?:(?<![.!?:;,])|\.\.\.|…){_S}*$")

_BUTTON = (r"(?:Ответить|Цитата|Цитировать|Профиль|ЛС|Личное сообщение|ПМ|PM|E-?mail|WWW|Сайт"
           r"|Наверх|Quote|Reply|Report|Profile|Пожаловаться|Жалоба|Спасибо|Нравится"
           r"|Like|Изменить|Редактировать|Edit|Удалить|Delete|Мультицитата|Поделиться"
           # Invision's row under a post: "Пользователь в офлайнеКарточка пользователя…"
           r"|Пользователь в офлайне|Пользователь в онлайне|Карточка пользователя"
           r"|Отправить личное сообщение)")
_TOPIC_BUTTON = (r"(?:Ответить(?: на тему| в (?:эту |данную )?тему)?|(?:Начать|Запустить|Создать)"
                 r" новую тему|Открыть новую тему|Новая тема|Быстрый ответ|Опции темы|Поиск в теме"
                 r"|Версия для печати|Тема закрыта|Закрытая тема|Topic locked|Closed Topic"
                 r"|Подписаться на тему|Post Reply|New Topic|Start new topic|Add reply)")
# the links of a forum's header, Invision's text-only version's among them ("Помощь - Поиск -
# Пользователи - Календарь")
_FORUM_LINK = (r"(?:Помощь|Поиск|Пользователи|Участники|Календарь|Правила(?: форума)?|FAQ|ЧаВо"
               r"|Главная|Форум|Форумы|Галерея|Чат|Блоги|Активные темы|Новые сообщения"
               r"|Help|Search|Members|Calendar|Forums?|Gallery|Blogs)")
_PAGE_LIST = r"(?:\d+|\[\d+\]|\.\.\.|…|[<>«»]|След\.?|Пред\.?|Next|Prev|Вперёд|Назад)"
_LINE_SHAPES: tuple[tuple[str, str], ...] = (
    (rf"(?i:здравствуйте|добро пожаловать|привет(?:ствуем|ствую)?(?:{_S}+вас)?|welcome),?{_S}+"
     rf"(?i:гость|guest)"
     rf"\b[^\n]{{0,120}}", GUEST_REASON),
    (rf"[(\[]?{_S}*(?i:вход|войти|авторизация|регистрация|зарегистрироваться|login|log in"
     rf"|register|sign in|sign up)(?:{_S}*[|/•·]?{_S}*(?i:вход|войти|авторизация|регистрация"
     rf"|зарегистрироваться|login|log in|register|sign in|sign up))+{_S}*[)\]]?",
     GUEST_REASON),
    # a row of two or more buttons, spaced or glued ("ПрофильЛСЦитата", "Ответить | Цитата")
    (rf"\+?{_BUTTON}(?:{_S}*[|•·]?{_S}*\+?{_BUTTON})+", POST_BUTTONS_REASON),
    (r"(?i:наверх|перейти в начало страницы|вернуться в начало страницы|вернуться к началу"
     r"|back to top|вставить ник|\+?ответить с цитированием(?: данного сообщения)?"
     r"|\+?цитировать(?: сообщение)?|мультицитата|цитата:?|quote|сообщить модератору"
     r"|пожаловаться(?: на сообщение)?)(?: ?[↑▲^])?", POST_BUTTONS_REASON),
    (rf"{_TOPIC_BUTTON}(?:{_S}*[|•·]?{_S}*{_TOPIC_BUTTON})*"
     rf"(?:{_S}*\[?{_S}*(?i:сообщений){_S}*:{_S}*\d+{_S}*\]?)?"
     rf"(?:{_S}*(?i:на страницу|страница|страницы|pages?){_S}*:?(?:{_S}*,?{_S}*{_PAGE_LIST})+)?",
     TOPIC_BUTTONS_REASON),
    (rf"(?i:на страницу|страницы|pages?){_S}*:?{_S}*\d+(?:{_S}*,?{_S}*{_PAGE_LIST})+"
     rf"|(?i:на страницу|страницы|страница|pages?){_S}*:{_S}*\d+"
     rf"|(?i:сообщений){_S}+\d+{_S}+(?i:страница){_S}+\d+{_S}+(?i:из){_S}+\d+"
     rf"|\d+{_S}+(?i:V|▼){_S}+\d+(?:{_S}+\d+)+(?:{_S}*[>»])*"
     rf"|•{_S}*(?i:страница{_S}+\d+{_S}+из{_S}+\d+|\d{{1,4}})",
     PAGER_REASON),
    (rf"(?i:цитата|quote){_S}*\([^)\n]{{1,80}}\){_S}*:?"
     rf"|(?i:цитата|quote){_S}*:?{_S}*[^\n@]{{1,40}}?{_S}*@{_S}*(?:{_DATE_TIME})\)?:?"
     rf"|[^\n]{{1,40}}?{_S}+(?i:написал\(а\)|wrote){_S}*:?(?:,?{_S}*{_DATE_TIME})?"
     rf"|(?i:originally posted by){_S}+[^\n]{{1,40}}",
     QUOTE_REASON),
    # a site's clock: the weekday over the date over the time, each on a line of its own (a
    # weekday over a date alone may be a tournament's day in its schedule)
    (rf"{_WEEKDAY}{_S}*\n{_S}*{_DATE}{_S}*\n{_S}*{_TIME}", FORUM_INFO_REASON),
    (rf"{_FORUM_LINK}(?:{_S}+[-–—|·•]{_S}+{_FORUM_LINK}){{2,}}", FORUM_NAV_REASON),
    (rf"(?i:текущее время|часовой пояс|сейчас этот форум просматривают){_S}*:[^\n]{{0,80}}"
     rf"|(?i:автор{_S}+сообщение|рекомендуемые сообщения|что в чате|информация о пользователе"
     rf"|просмотр сообщений)"
     # a member's page: "Весь контент Lord Velard" (Invision), "Темы - Makc" and its lead-in
     # (SMF)
     rf"|(?i:весь контент){_S}+[^\n]{{1,40}}|(?i:темы|сообщения){_S}+-{_S}+[^\s.!?]{{1,30}}"
     rf"|(?i:в этом разделе можно просмотреть все)[^\n]{{0,80}}"
     # a topic's print version (Invision): "Версия для печати темы", "Нажмите сюда для
     # просмотра этой темы в оригинальном формате"
     rf"|(?i:версия для печати(?: темы)?|нажмите сюда для просмотра этой темы"
     rf"(?: в оригинальном формате)?|click here to view this topic in its original format)"
     # the hosting's credit: "Форумы работают на сервере …", "Форум работает на движке …",
     # "Powered by Invision Power Board"
     rf"|(?i:(?:форумы?|сайт|портал){_S}+работа(?:ет|ют){_S}+на{_S}+(?:сервер|хостинг|движк|платформ))"
     rf"\w*(?:{_S}+[^\n,;:!?]{{1,60}})?|(?i:powered by){_S}+[^\n,;:!?]{{1,60}}",
     FORUM_INFO_REASON),
    (rf"(?i:материал из){_S}+[A-ZА-ЯЁ][^\s!?]*(?:{_S}+[^\s!?]+){{0,5}}", WIKI_SOURCE_REASON),
    (rf"\((?i:перенаправлено){_S}+(?i:с|со страницы|from){_S}*«[^»\n]{{1,80}}»\)"
     rf"|(?:(?i:перейти к|jump to){_S}*:?{_S}*(?i:навигаци[ия]|поиск[уа]?|navigation|search)"
     rf"(?:{_S}*,{_S}*(?i:поиск|search))?{_S}*){{1,2}}"
     # an old revision's banner: "Версия от 20:26, 31 марта 2022; X (обсуждение | вклад) …"
     # and its links "(разн.) ← Предыдущая | Текущая версия (разн.) | Следующая → (разн.)"
     rf"|(?i:версия от){_S}+{_TIME},{_S}*[^;\n]{{1,40}};[^\n]{{0,80}}?"
     rf"\((?i:обсуждение|обс\.|talk){_S}*\|{_S}*(?i:вклад|contribs)\)[^\n]{{0,600}}"
     rf"|\((?i:разн\.|diff)\){_S}*←[^\n]{{0,120}}"
     rf"|\[{_S}*(?i:править|править код|edit|edit source)"
     rf"(?:{_S}*\|{_S}*(?i:править код|edit source))?{_S}*\]",
     WIKI_NAV_REASON),
)
# one pattern for all, so that the text is scanned once; the group that matched tells the reason
_LINES_RE = re.compile(
    _line("|".join(f"(?P<g{k}>{body})" for k, (body, _) in enumerate(_LINE_SHAPES))), re.MULTILINE)
_LINE_REASONS = {f"g{k}": reason for k, (_, reason) in enumerate(_LINE_SHAPES)}
# A name written "X написал:" or "X пишет:" is a quote's header only on a forum page.
_QUOTED_BY_RE = re.compile(
    _line(rf"\S{{1,30}}(?:{_S}+\S{{1,30}})?{_S}+(?i:написал|написала|пишет)"
          rf"{_S}*:(?:{_S}*{_DATE}(?:,?{_S}*{_TIME})?)?"), re.MULTILINE)
# The label of a forum's spoiler, a block the reader opens, as the engines print it: set in
# quotation marks or guillemets before the spoiler's title ("\"Раскрывающийся текст\"Бестиарий",
# "» Нажмите, для отображения текста « Общие вопросы"), or alone on its line ("Спойлер"). The
# label goes, the title stays to head the block.
_SPOILER_LABEL = (r"(?i:раскрывающийся текст|скрытый текст|спойлер|spoiler|скрытое содержание"
                  r"|показать скрытый текст|показать скрытое содержание|развернуть спойлер"
                  r"|нажмите,? (?:для отображения текста|чтобы (?:увидеть|прочитать|показать"
                  r"|открыть|развернуть)(?: текст| содержимое)?))")
SPOILER_RE = re.compile(
    rf"^{_S}*+(?:[\"«»“”„]{_S}*{_SPOILER_LABEL}{_S}*[\"«»“”]{_S}*(?=\S)"
    rf"|{_SPOILER_LABEL}{_S}*:?{_S}*$)", re.MULTILINE)
SPOILER_ANCHORS = ("текст", "пойлер", "ПОЙЛЕР", "poiler", "POILER", "одержимо", "одержание")
"""What a spoiler's label holds, looked for first (most texts hold none)."""

# A quotation's label as a forum engine prints it in plain text: "Цитата" in quotation marks,
# glued to the quoted words or alone on its line ("\"Цитата\"After moving the first model …").
# The label goes, the quoted words stay.
QUOTE_LABEL_RE = re.compile(
    rf"^{_S}*+[\"«»“”„]{_S}*(?i:цитата|quote){_S}*[\"«»“”]{_S}*(?:(?=\S)|$)", re.MULTILINE)
QUOTE_LABEL_ANCHORS = ("итата", "ИТАТА", "uote", "UOTE")
"""What a quotation's label holds, looked for first (most texts hold none)."""

# "Правила[править]", "Фазы [править | править код]" inside a heading line
WIKI_EDIT = "[править"
WIKI_EDIT_INLINE_RE = re.compile(
    rf"{_S}*\[{_S}*(?i:править|править код|edit|edit source)"
    rf"(?:{_S}*\|{_S}*(?i:править код|edit source))?{_S}*\]")
_TOC_RE = re.compile(
    rf"^{_S}*+((?i:содержание|оглавление|contents){_S}*(?:\[{_S}*(?i:скрыть|показать|hide|show)"
    rf"{_S}*\])?(?:{_S}*\n)+(?:{_S}*\d+(?:\.\d+)*\.?{_S}+[^\n]{{1,80}}?(?<!\d){_S}*"
    rf"(?:\n|$)(?:{_S}*\n)*){{2,}})",
    re.MULTILINE,
)
_CATEGORIES_RE = re.compile(
    _line(rf"(?i:категори[яи]|categories|category){_S}*:{_S}*[^\n]{{1,300}}"), re.MULTILINE)


# a site's sign-in box, one label a line ("Вход" / "Забыли?" / "вход по аккаунту"): two or
# more such lines together, one of them the box's own (a forgotten password, an account, a
# password field), never a word of a rules text alone
_SIGN_IN = (rf"(?i:вход|войти|авторизация|регистрация|логин|пароль|забыли(?:{_S}+пароль)?\??"
            rf"|(?:вход|войти){_S}+(?:по|через){_S}+[^\n]{{1,30}}|запомнить{_S}+меня"
            rf"|восстановить{_S}+пароль|личный{_S}+кабинет)")
_SIGN_IN_OWN = re.compile(rf"(?i:забыли|пароль|аккаунт|запомнить{_S}+меня|личный{_S}+кабинет)")
_SIGN_IN_WORDS = ("забыли", "пароль", "аккаунт", "запомнить", "кабинет")
_SIGN_IN_RE = re.compile(
    rf"^{_S}*+{_SIGN_IN}{_S}*$(?:\n(?:{_S}*\n)*{_S}*{_SIGN_IN}{_S}*$)+", re.MULTILINE)


# a member's card on the engine's page (Invision): labels without a colon, each a bulleted
# line, their values under them ("Пользователь" / "• Постов" / "7 957" / "• Зарегистрирован")
_CARD_LABEL = (rf"(?:[•*·]{_S}*)?(?i:постов|сообщений|зарегистрирован\w*|посещение"
               r"|последнее посещение|репутация|день рождения)")
# (a value a flattened copy ends with the dash that stood between the card's columns, "1 126 -",
# or the dash alone where the value is empty, "-")
_CARD_LINE = rf"(?:{_CARD_LABEL}|(?:{_COUNT}|{_DATE}(?:,?{_S}*{_TIME})?)(?:{_S}+-)?|-)"
_CARD_RE = re.compile(
    rf"^(?:{_S}*(?i:пользователь|участник|модератор|администратор|новичок|member){_S}*\n"
    rf"(?:{_S}*\n)*)?{_S}*{_CARD_LABEL}{_S}*$"
    rf"(?:\n(?:{_S}*\n)*{_S}*{_CARD_LINE}{_S}*$)+", re.MULTILINE)
_DASH_LINE = re.compile(rf"{_S}*+-{_S}*+\n")
"""A line of a dash alone, as a flattened copy leaves above a card (taken with it)."""
# MyBB's announcement box over the guest's greeting: "Объявление" and the announcement (a line
# or a few: "ФОРУМ ПЕРЕЕХАЛ …"), right above "Информация о пользователе"
_ANNOUNCEMENT_RE = re.compile(
    rf"^{_S}*+(?i:объявление){_S}*$(?:\n[^\n]{{0,200}}){{0,6}}?(?=\n{_S}*"
    rf"(?i:информация о пользователе){_S}*$)", re.MULTILINE)
# the filter of a member's activity (Invision): "Тип контента" over the kinds of content, one a
# line ("Профили", "Форумы", "События"), down to "Весь контент <member>"
_CONTENT_FILTER_RE = re.compile(
    rf"^{_S}*+(?i:тип контента|content type){_S}*$(?:\n{_S}*[A-ZА-ЯЁ][^\s.!?:;,]*"
    rf"(?:{_S}[^\s.!?:;,]+){{0,2}}{_S}*$){{1,12}}\n{_S}*(?i:весь контент|all content)"
    rf"{_S}+[^\n]{{1,40}}$", re.MULTILINE)


def _member_cards(text: str) -> list[Edit]:
    """A member's card (:data:`_CARD_RE`) of two labels or more, and the member's name right
    above it when it is written as a user name is (Latin letters or digits: "Lord Velard")."""
    edits: list[Edit] = []
    if not any(w in text for w in _CARD_WORDS):
        return edits  # the cheap test first: no card's label in the text
    after = -1  # (where the card before ended: the dashes above a card are below it)
    for m in _CARD_RE.finditer(text):
        start = _dashes_above(text, m.start(), after)
        after = m.end()
        if len(re.findall(_CARD_LABEL, m.group(0))) < 2:
            continue
        # the nearest line above, past blank lines, when it is a user name
        end = start
        while end > 0 and text[end - 1].isspace():
            end -= 1
        line_start = text.rfind("\n", 0, end) + 1
        if end and _is_user_name(text[line_start:end]):
            start = line_start
        edits.append(block_edit(text, start, m.end(), "site_furniture", POST_HEADER_REASON))
    return edits


def _dashes_above(text: str, start: int, after: int) -> int:
    """The start of the lines of a dash alone (:data:`_DASH_LINE`) right above ``start``, a
    line's start, that begin after ``after``; ``start`` if there are none. (Read back from the
    card, each line once: a pattern taking them before the card was tried again from each of
    them, the square of their number.)"""
    while start > 0:
        above = text.rfind("\n", 0, start - 1) + 1
        if above <= after or not _DASH_LINE.fullmatch(text, above, start):
            break
        start = above
    return start


_CARD_WORDS = ("остов", "ообщени", "арегистрирован", "осещени", "епутаци", "ень рожден")


def _is_user_name(line: str) -> bool:
    """Whether a line is written as a forum's user name: short, no sentence, with Latin
    letters, digits or "_" in it ("Herald_77", "Lord Velard", "kapitandobrokoto...")."""
    return bool(_LATIN_RE.search(line)) and _NAME_RE.match(line) is not None \
        and len(line.split()) <= _MAX_NAME_WORDS


_MAX_NAME_WORDS = 3


def _sign_in_boxes(text: str) -> list[Edit]:
    """A site's sign-in box (:data:`_SIGN_IN_RE`), its labels one a line."""
    low = text.lower()
    if not any(w in low for w in _SIGN_IN_WORDS):
        return []  # the cheap test first: no box's own label in the text
    return [block_edit(text, m.start(), m.end(), "site_furniture", GUEST_REASON)
            for m in _SIGN_IN_RE.finditer(text) if _SIGN_IN_OWN.search(m.group(0))]


def forum_furniture(text: str) -> list[Edit]:
    """Whole lines and blocks of forum and wiki furniture in ``text`` (see the module's
    docstring), each a block edit of the ``site_furniture`` step with its reason."""
    edits = [block_edit(text, m.start(), m.end(), "site_furniture",
                        _LINE_REASONS[m.lastgroup or ""]) for m in _LINES_RE.finditer(text)]
    edits.extend(_post_headers(text))
    edits.extend(_sign_in_boxes(text))
    edits.extend(_member_cards(text))
    if "нформация о пользователе" in text:
        edits.extend(block_edit(text, m.start(), m.end(), "site_furniture", ANNOUNCEMENT_REASON)
                     for m in _ANNOUNCEMENT_RE.finditer(text))
    if "онтент" in text or "ontent" in text:
        edits.extend(block_edit(text, m.start(), m.end(), "site_furniture", FORUM_INFO_REASON)
                     for m in _CONTENT_FILTER_RE.finditer(text))
    wiki_reasons = (WIKI_SOURCE_REASON, WIKI_NAV_REASON)
    if any(e.reason not in wiki_reasons for e in edits):  # a forum's page: "Вася написал:"
        edits.extend(block_edit(text, m.start(), m.end(), "site_furniture", QUOTE_REASON)
                     for m in _QUOTED_BY_RE.finditer(text))
    wiki = any(e.reason in wiki_reasons for e in edits) \
        or (WIKI_EDIT in text and WIKI_EDIT_INLINE_RE.search(text) is not None)
    if wiki:  # a wiki's page ("Материал из …", "[править]"): its contents and categories
        edits.extend(block_edit(text, m.start(1), m.end(1), "site_furniture", WIKI_TOC_REASON)
                     for m in _TOC_RE.finditer(text))
        edits.extend(block_edit(text, m.start(), m.end(), "site_furniture",
                                WIKI_CATEGORIES_REASON) for m in _CATEGORIES_RE.finditer(text))
    return edits


def _post_headers(text: str) -> list[Edit]:
    """Post headers: lines of the engine (a post's date and time, its number, the author's
    profile fields) two or more together, with the short lines between them (the author's
    name, rank, stars) and the values right under them; a post number ("Сообщение #1") alone.
    The line right above the first, short, no sentence, with Latin letters or digits in it, is
    the author's name ("Herald_77", "kapitandobrokoto..."), and so is a name in words right
    above the post's date ("Черный Лис" / "сообщение 14.1.2011, 14:27")."""
    anchors = [m.start() for m in _ANCHOR_RE.finditer(text)]
    if not anchors:
        return []  # the cheap test first: most texts hold no line of a forum engine
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    lines = list(zip(starts, [s - 1 for s in starts[1:]] + [len(text)], strict=True))
    marks = sorted({bisect_right(starts, a) - 1 for a in anchors})

    def kind(k: int) -> str:
        start, end = lines[k]
        line = text[start:end]
        if not line.strip():
            return "blank"
        if _HEADER_VALUE_RE.match(line):
            return "value"
        if len(line.split()) <= _MAX_SHORT_WORDS and _SHORT_LINE_RE.match(line):
            return "short"
        return "text"

    edits: list[Edit] = []
    i = 0
    while i < len(marks):
        first = last = marks[i]
        count = 1
        i += 1
        while i < len(marks):
            between = [kind(k) for k in range(last + 1, marks[i])]
            if "text" in between or sum(b != "blank" for b in between) > _MAX_HEADER_GAP:
                break
            last = marks[i]
            count += 1
            i += 1
        if count < 2 and not _POST_NUMBER_RE.match(text, *lines[first]):
            continue
        last = _header_end(text, lines, last, kind)
        above = text[slice(*lines[first - 1])] if first > 0 else ""
        if _is_user_name(above) or (_POST_DATE_LINE_RE.match(text, *lines[first])
                                    and _is_name_line(above)):
            first -= 1  # the author's name right above: Latin letters, digits, "_" in it,
            # or, over the post's date, a name in words ("Черный Лис" / "сообщение 14.1.2011")
        edits.append(block_edit(text, lines[first][0], lines[last][1], "site_furniture",
                                POST_HEADER_REASON))
    return edits


# a post header's first line: the post's date ("сообщение 14.1.2011, 14:27")
_POST_DATE_LINE_RE = re.compile(rf"{_S}*(?i:сообщение|posted|отправлено|добавлено){_S}+\d")
# a name in words: two or three capitalised words, no mark of a sentence or a quote (one word
# over a post's date may be the heading the post answers: "Чардж")
_NAME_WORDS_RE = re.compile(r"(?:[A-ZА-ЯЁ][\w'-]*)(?:[ \t]+[A-ZА-ЯЁ][\w'-]*){1,2}[ \t]*")


def _is_name_line(line: str) -> bool:
    """Whether a line is a name in words (a forum member's: "Черный Лис", "Геометр Теней")."""
    return _NAME_WORDS_RE.fullmatch(line.strip()) is not None


def _header_end(text: str, lines: list[tuple[int, int]], last: int,
                kind: Callable[[int], str]) -> int:
    """The last line of a post header whose engine's lines end at line ``last``: the values
    right under it ("Сообщений:" with its count on the next line), and further down, past short
    lines, a lone count or date (the author's group, post count, registration date without
    their labels: "Пользователи", "355", "3.8.2005")."""
    end = k = last
    passed = 0  # lines passed since the last line of the header
    while k + 1 < len(lines) and passed < _MAX_HEADER_GAP:
        k += 1
        line_kind = kind(k)
        if line_kind == "value" and (k == end + 1 or _LONE_VALUE_RE.match(text, *lines[k])):
            end, passed = k, 0
        elif line_kind == "text":
            break
        else:
            passed += line_kind != "blank"
    return end
