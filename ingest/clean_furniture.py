"""The cleaning step that removes what a website put around the rules text: site furniture
(the running headers and page footers of a book are :mod:`ingest.clean_pages`'s).

It is a step of :data:`ingest.clean.STEPS` (``text -> list[Edit]``) that removes whole blocks
with the whitespace around them (:func:`ingest.clean_edits.block_edit`), so the text on both
sides stays apart.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from ingest.clean_blog import BLOG_LINE, BLOG_REASON, MARKED_WORDS, MARKING_NOTE, MARKING_REASON
from ingest.clean_edits import (
    HSPACE,
    LETTERS,
    block_edit,
    edits_outside,
    first_fit,
    merge_blocks,
)
from ingest.clean_filler import template_filler
from ingest.clean_forum import (
    POST_HEADER_REASON,
    QUOTE_LABEL_ANCHORS,
    QUOTE_LABEL_RE,
    QUOTE_REASON,
    SPOILER_ANCHORS,
    SPOILER_RE,
    SPOILER_REASON,
    WIKI_EDIT_INLINE_RE,
    WIKI_NAV_REASON,
    WIKI_SOURCE_REASON,
    forum_furniture,
)
from ingest.clean_menus import category_menus, header_menu, menu_labels
from ingest.clean_pages import FOOTER_RE
from ingest.clean_titles import (
    _LOFI_LABEL_RE,
    lofi_title_label,
    page_title,
    site_name,
    topic_over_post_title,
    topic_title_mark,
)
from ingest.models import Edit
from kb.lemmas import is_known, pos

_NAV_LINK = (r"(?i:(?:На |Вернуться на )?[Гг]лавн(?:ая|ую)(?: страница| страницу)?"
             r"|Заглавная страница|Случайная (?:страница|статья)|Избранные статьи"
             r"|Познавательные статьи|Новые добавления|Обратная связь|Контакты|О нас|О сайте"
             r"|Написать работу|Личный кабинет"
             r"|Перейти к (?:навигации|содержанию)|Skip to (?:main )?content|Разделы сайта"
             r"|Карта сайта|О проекте"
             r"|(?:Открыть|Закрыть) (?:главное )?меню|Главное меню|Мой профиль"
             r"|Найти тему|Создать (?:новую )?тему|Новая тема|Ответить(?: в теме?)?"
             r"(?: Перейти к поиску)?|Скачать(?: как)? (?:pdf|docx?|txt)(?: или (?:pdf|txt))?)")
"""A site's navigation link as its label reads ("Главная страница", "Разделы сайта")."""
_LOGIN_LINK = r"(?:Регистрация|Выход|Вход|Войти|RSS)"
NAV_REASON = "навигация сайта"
_NAV_SEP = rf"(?:{HSPACE}*\|{HSPACE}*|{HSPACE}+)"  # between a row's links: spaces or a bar
# a link of a row after its first ("FAQ" alone on its line may head a text: in a row, a link)
_ROW_LINK = rf"(?:{_NAV_LINK}|{_LOGIN_LINK}|FAQ|ЧаВо)"


def _line(body: str) -> re.Pattern[str]:
    """A whole line that consists of ``body`` (group 1)."""
    return re.compile(rf"^{HSPACE}*+({body}){HSPACE}*$", re.MULTILINE)


# what every link of :data:`_NAV_LINK` holds, in lower case (the cheap test of a text first)
_NAV_ANCHORS = ("главн", "случайн", "обратная связь", "контакты", "о нас", "о сайте",
                "о проекте", "избранные статьи", "новые добавления", "написать работу",
                "личный кабинет", "карта сайта", "разделы сайта", "skip to", "перейти к",
                "меню", "мой профиль", "тем", "ответить", "скачать", "познавательные")

_ADVERT = r"Мы поможем в написании ваш\w* работ\w*!?"
# the other adverts of the sites that host students' papers (where many rulebooks' pages are
# found): help offered with a paper ("Поможем в ✍️ написании учебной работы", "Поможем с
# курсовой, контрольной, дипломной …"), a slogan of good marks ("Сделай Сам Свою Работу на 5")
_STUDY_ADVERT = (r"(?i:(?:мы\s+)?поможем\b[^\n]{0,80}?(?:написани\w+|курсов\w+|диплом\w+"
                 r"|реферат\w*|контрольн\w+|учебн\w+ работ\w*)[^\n]{0,300}"
                 r"|сделай сам свою работу на 5)")
# such a site's tagline: the kinds of papers it holds, three or more in a row ("Lektsia -
# бесплатные рефераты, доклады, курсовые работы, контрольные и дипломы для студентов")
_PAPER_WORDS = ("реферат", "доклад", "курсов", "контрольн", "диплом", "шпаргалк", "лекци")
_PAPER = rf"(?:{'|'.join(_PAPER_WORDS)})\w*(?:\s+работ\w*)?"
# (the papers' first letters looked ahead for first at each place of the line, in both cases:
# most places hold none, and the words are tried only where one stands)
_PAPER_FIRST = "(?=[рдкшлРДКШЛ])"
_STUDY_TAGLINE = (rf"[^\n]{{0,80}}?{_PAPER_FIRST}(?i:{_PAPER}(?:(?:\s*,\s*|\s+и\s+){_PAPER}){{2,}})"
                  rf"[^\n]{{0,160}}")
# Whole lines the website adds; each is removed with the blank lines around it. With each, what
# every line it fits holds, in lower case, one at least (none: no such word): a pattern that
# costs more a line is tried only in a text holding one (:func:`_furniture_lines_re`)
_FURNITURE_LINES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = (
    (
        # (a file catalogue's button too, its size in brackets and its upload's date after it:
        # "[ Скачать с сервера (59.5 Kb) ] 23.09.2009, 11:06")
        _line(rf"\[?{HSPACE}*Скачать(?:{HSPACE}+с{HSPACE}+сервера)?{HSPACE}+\(?\d+(?:[.,]\d+)?"
              rf"{HSPACE}*(?:[KkMmGgКкМмГг][BbБб]|байт\w*|bytes?)\)?\.?{HSPACE}*(?:\]"
              rf"(?:{HSPACE}*\d{{1,2}}\.\d{{1,2}}\.\d{{2,4}}(?:,?{HSPACE}*\d{{1,2}}:\d{{2}})?)?)?"),
        "баннер «Скачать» сайта",
        (),
    ),
    (
        _line(
            r"(?:⇐|<-|←)[^\n]{0,300}?(?:⇒|->|→)"
            # a book's pager, its links run together ("предыдущая главасодержаниеследующая глава")
            r"|(?i:предыдущая)\s*(?:глава|страница)\s*(?:содержание|оглавление)?\s*"
            r"(?i:следующая)\s*(?:глава|страница)"
            # a slide show's pager alone ("1 из 10") and its slides' marks ("Слайд 3", "1 слайд")
            rf"|\d{{1,4}}{HSPACE}+из{HSPACE}+\d{{1,4}}|•?{HSPACE}*(?i:слайд){HSPACE}*#?{HSPACE}*\d{{1,3}}"
            r"|(?i:презентация по слайдам):"
            rf"|\d{{1,3}}{HSPACE}+слайд"
            rf"|Предыдущая(?:{HSPACE}*Стр\.?)?[\d \t\xa0]*(?:из{HSPACE}*\d+)?{HSPACE}*Следующая"
        ),
        "навигация по страницам сайта",
        (),
    ),
    (_line(r"Дата (?:добавления|публикации):[^\n]*|Работа добавлена на сайт[^\n]{0,80}"
           # KiberPedia's date and views under an article's title: "2017-08-07 217", and the
           # count of its discussions after them ("2015-12-07 741 Обсуждений (0)")
           rf"|\d{{4}}-\d{{2}}-\d{{2}}(?:{HSPACE}+\d{{1,2}}:\d{{2}})?{HSPACE}+\d{{1,7}}"
           rf"(?:{HSPACE}+(?i:обсуждений|комментариев|отзывов){HSPACE}*\(\d+\))?"
           # a library's card of the paper: who published it where, and when
           r"|(?:Опубликовано в библиотеке|Размещено на|Публикатор|Автор\(ы\)"
           r"|Автор работы|Вложенные файлы|Текст добавлен|Автор книги|Авторство):[^\n]{0,120}"
           r"|Размещено на https?://[^\s]+|(?i:сообщить о нарушении)"),
     "подпись сайта (дата добавления, просмотры)", ()),
    (_line(_ADVERT), "реклама сайта «Мы поможем в написании…»", ()),
    (_line(_STUDY_ADVERT), "реклама сайта студенческих работ («Поможем с курсовой…»)", ()),
    (_line(_STUDY_TAGLINE), "подзаголовок сайта студенческих работ («рефераты, доклады, …»)",
     _PAPER_WORDS),
    (
        _line(
            r"(?:Читайте также|Поделиться|Поиск по сайту|Нарушение авторск\w+ прав\w*)"
            r"[^\n]{0,120}"
            # a document viewer's buttons
            r"|PDF просмотр|Просмотр содержимого документа|Смотреть онлайн"
            # a document site's box of trivia, its heading alone ("ЗНАЕТЕ ЛИ ВЫ?")
            r"|(?i:знаете ли вы)\?"
        ),
        "служебная строка сайта",
        (),
    ),
    # a social network's post: its buttons with their counts ("Нравится 12", "Показать
    # полностью…"), its hashtags on a line of their own ("#warhammer #правила"), its time
    # ("5 мар 2021 в 18:45", "вчера в 9:02")
    (_line(r"(?:Мне нравится|Нравится|Комментировать|Ответить|Репостнуть|Поделиться"
           r"|Показать полностью|Показать ещё|Показать еще)(?:…|\.{3})?(?:[ \t]+\d[\d  ]*)?"),
     "кнопки поста соцсети", ("нравится", "комментировать", "ответить", "репост", "показать",
                              "поделиться")),
    (_line(r"#[^\W\d_][\w-]*(?:[ \t]+#[^\W\d_][\w-]*)*"), "хэштеги поста", ("#",)),
    (_line(r"(?:[Сс]егодня|[Вв]чера|\d{1,2}[ \t]+(?:янв|фев|мар|апр|мая|июн|июл|авг|сен|окт|ноя"
           r"|дек)[а-я]*\.?(?:[ \t]+\d{4})?)[ \t]+в[ \t]+\d{1,2}:\d{2}"),
     "время публикации поста", ("сегодня в", "вчера в", " в 0", " в 1", " в 2")),
    (
        # a site's search box ("Найти в Дзене", "Найти на сайте"), or its label alone over a
        # heading (the page's title, "Поиск" / "Движение"), where a rule so named has its text
        _line(r"Найти (?:в|на) (?:сайте|[A-ZА-ЯЁ][\w-]*)"
              r"|(?:Полнотекстовый|Пользовательский|Расширенный) поиск"
              rf"|(?:Поиск|поиск|Search|Найти|Искать)(?=(?:{HSPACE}*\n)+{HSPACE}*[^\s.!?:;,]"
              r"[^\n.!?:;]{0,80}\.?[ \t]*(?:\n|$))"),
        "поле поиска сайта",
        (),
    ),
    (
        # a contents box the page shows folded: its label alone, a paragraph of the text right
        # under it ("Оглавление" / "На первый взгляд, пистолеты - вполне заурядное оружие …"),
        # where a contents list would hold short entries, or long ones with dot leaders or a
        # page number at the end ("ВВЕДЕНИЕ ........ 4")
        _line(r"(?i:оглавление|содержание(?: статьи)?|table of contents|contents)"
              r"(?=[ \t]*(?:\n[ \t]*)+[A-ZА-ЯЁ«\"]"
              r"(?![^\n]*(?:\.{3}|…|\t|\s\d{1,3}[ \t]*(?:\n|$)))[^\n]{60,})"),
        "свёрнутое оглавление сайта: метка без пунктов над текстом",
        (),
    ),
    (_line(r"\|"), "строка-разделитель «|» сайта", ()),
    (_line(r"[^\n]{1,80}[ \t]×"), "баннер сайта с кнопкой «×» (закрыть)", ("×",)),
    (
        _line(rf"(?i:(?:вы находитесь на странице|страница|стр\.?|page){HSPACE}*:?{HSPACE}*)"
              rf"\d+{HSPACE}*(?i:из|of|/){HSPACE}*\d+"
              # "28 страница из 33", "Текущая страница: 16 (всего у книги 19 страниц)"
              rf"|\d+{HSPACE}+(?i:страница){HSPACE}+(?i:из){HSPACE}+\d+"
              rf"|(?i:текущая страница):{HSPACE}*\d+[^\n]{{0,40}}"
              # a pager of numbers that skips some ("1   2   3 … 20")
              rf"|1(?:{HSPACE}+\d{{1,4}})+{HSPACE}+(?:\.\.\.|…)(?:{HSPACE}+\d{{1,4}})+"),
        "счётчик страниц сайта («страница N из M»)",
        (),
    ),
    (
        # (or "·", in brackets: "[ Новые сообщения · Участники · Правила форума · Поиск ]")
        _line(r"[^|.!?\n]{1,40}(?:\|[^|.!?\n]{1,40}){2,}\|?"
              rf"|\[{HSPACE}*[^·|.!?\n\[\]]{{1,40}}(?:·[^·|.!?\n\[\]]{{1,40}}){{2,}}\]"),
        "навигация сайта: пункты через «|»",
        ("|", "·"),
    ),
    (
        # one link or a row of them ("Главная страница Случайная страница"), spaced or
        # between bars; (after a link, the guest's: "Главная Мой профиль Регистрация Выход
        # Вход"); a row of two links or more may follow the site's name ("Студопедия.Орг
        # Главная | Случайная страница | Контакты") and end in its advert, or in its menu of
        # categories ("… Обратная связь КАТЕГОРИИ: АрхеологияБиология Генетика …")
        # (rows after the site's name: :data:`_ANCHORED_LINES`)
        _line(rf"{_NAV_LINK}(?:{_NAV_SEP}(?:{_NAV_LINK}|{_LOGIN_LINK}))*"),
        NAV_REASON,
        _NAV_ANCHORS,
    ),
    (
        # (the words' first letters looked ahead for first at each place of the line)
        _line(r"[^\n]{0,80}(?=[нНоОrRзЗ\d])"
              r"(?i:нарушает ваши авторские права|оцените (?:эту )?работу"
              r"|rate this (?:work|document)|заказать работу|\d+[.,]\d+ из \d+[.,]\d+ \d+ оцен\w*)"
              r"[^\n]{0,80}"),
        "служебная строка сайта (авторские права, оценка, заказ)",
        ("нарушает ваши авторские права", "оцен", "rate this", "заказать работу"),
    ),
    (_line(BLOG_LINE), BLOG_REASON, ()),
    (_line(MARKING_NOTE), MARKING_REASON, MARKED_WORDS),
    (
        _line(r"(?i:изображение пользователя|аватар(?: пользователя)?)[ \t]+\S{1,40}"
              r"|[\w.-]{1,80}\.(?i:png|jpe?g|gif|webp|svg|bmp)"
              r"|(?:\S{1,40}[ \t]+)?(?:Профиль|Публикации|Комментарии|Подписки|Подписчики"
              r"|Избранное|Закладки)(?:[ \t]+(?:Профиль|Публикации|Комментарии|Подписки"
              r"|Подписчики|Избранное|Закладки)){2,}"
              r"|Поддержать проект"),
        "служебная строка сайта (аватар, имя файла картинки, меню профиля, «Поддержать проект»)",
        ("изображение пользователя", "аватар", ".png", ".jp", ".gif", ".webp", ".svg", ".bmp",
         "профиль", "публикации", "комментарии", "подписки", "подписчики", "избранное",
         "закладки", "поддержать проект"),
    ),
    (
        # a site's counters, its banner switch and teaser buttons, its login form
        _line(r"(?:Яндекс\.Метрика|LiveInternet|Рейтинг@Mail\.ru)"
              r"|i?[ \t]*(?i:надоели баннеры)\?[^\n]{0,80}"
              r"|(?i:нажмите,? чтобы узнать подробности|продолжить чтение)"
              r"|(?i:забыли пароль)\??[^\n]{0,40}|(?i:войти)[ \t]*/[ \t]*(?i:зарегистрироваться)"
              r"|(?i:зарегистрироваться|регистрация нового пользователя|логин пароль)"
              r"|(?i:логин|пароль)[ \t]*\*?[ \t]*:"
              # an error-reporting widget ("Ошибка в тексте, битая ссылка?" / "Система Orphus")
              r"|Система Orphus|(?i:ошибка в тексте)(?:,[^\n?]{0,40})?\?"
              r"|(?i:выделите е[её] мышкой)[^\n]{0,40}"
              # a button closing a box
              r"|\[(?i:закрыть|close)\]"
              # a paper site's labels around the paper it sells or shows
              r"|(?i:описание работы|аннотация к работе|детальная информация о работе"
              r"|выдержка из работы|фрагмент работы для ознакомления|узнать стоимость)"
              r"|(?i:работа содержит \d+ файл\w*)"
              r"|(?i:ваша оценка)(?: \w+)?|(?i:оценка)[ \t]+\d(?:[.,]\d)?"
              r"|\d+(?:[.,]\d+)?[ \t]+(?i:оцен(?:ка|ки|ок))"),
        "служебная строка сайта (счётчик, баннер, вход, оценка)",
        (),
    ),
    (
        # a web address alone on its line: a copy's source, a site's name ("WWW.NEW.PDFM.RU")
        _line(r"(?i:(?:https?://|www\.)[^\s]{2,200}"
              r"|[a-z0-9-]{1,60}(?:\.[a-z0-9-]{1,60})*\.(?:ru|com|net|org|info|su|ua|by|рф)"
              r"(?:/[^\s]{0,200})?)"),
        "адрес сайта отдельной строкой",
        (),
    ),
)


_ANCHORED_LINES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = (
    # a link to the site's other pages ("Вся электронная библиотека >>>")
    (_line(r"[^\n]{1,80}>>>"), "ссылка сайта на другие страницы («… >>>»)", (">>>",)),
    (
        # a row of two links or more after the site's name ("Студопедия.Орг Главная |
        # Случайная страница | Контакты"), ending in its advert or not, or in its menu of
        # categories ("… Обратная связь КАТЕГОРИИ: АрхеологияБиология Генетика …")
        _line(rf"[^\s|]{{1,30}}{HSPACE}+{_NAV_LINK}(?:{_NAV_SEP}{_ROW_LINK})+"
              rf"(?:{_NAV_SEP}(?:{_ADVERT}|(?i:категории|рубрики|разделы):[^\n]*))?"
              rf"|{_NAV_LINK}(?:{_NAV_SEP}{_ROW_LINK})+"
              rf"{_NAV_SEP}(?:{_ADVERT}|(?i:категории|рубрики|разделы):[^\n]*)"),
        NAV_REASON,
        _NAV_ANCHORS,
    ),
    (
        # a document's file name alone ("Лекция 3. Патология дыхания.pptx"), its size and
        # download link ("— 75.00 Кб (Скачать файл)"), the count of slides
        # (no sentence's stop before it, a number's aside: "Лекция 3. …")
        _line(r"(?:[^\n.!?]|(?<=\d)\.(?=\s)){1,120}\.(?i:pdf|docx?|pptx?|rtf|djvu|xlsx?|odt|fb2"
              rf"|epub|zip|rar)(?:{HSPACE}*\d+(?:[.,]\d+)?{HSPACE}*(?i:кб|мб|kb|mb))?"
              rf"|[—–-]?{HSPACE}*\d+(?:[.,]\d+)?{HSPACE}*(?i:кб|мб|kb|mb){HSPACE}*"
              r"\((?i:скачать(?: файл)?)\)|[-–—]?[ \t]*(?i:количество слайдов):[ \t]*\d+"
              # a file's format and size on a download page ("Формат: PDF Размер файла: 7.82 MB")
              rf"|(?i:формат):{HSPACE}*\w{{2,5}}{HSPACE}+(?i:размер файла):[^\n]{{1,30}}"
              # a download button of a book or a paper ("Скачать книгу", "Скачать учебник")
              r"|(?i:скачать)(?: \w+)? (?i:книгу|учебник|презентацию|документ|работу|реферат)"),
        "имя файла документа на сайте (его размер, число слайдов)",
        # (a size alone is no anchor: its line holds "Скачать" too; "мб" of "бомба" is none)
        (".pdf", ".doc", ".ppt", ".rtf", ".djvu", ".xls", ".odt", ".fb2", ".epub", ".zip",
         ".rar", "слайдов", "размер файла", "скачать"),
    ),
)
"""Lines of :data:`_FURNITURE_LINES`' kind whose patterns cost more a line: each looked for
only in a text holding one of its anchors (in lower case)."""


@lru_cache(maxsize=64)
def _furniture_lines_re(kept: tuple[int, ...] | None = None) -> re.Pattern[str]:
    """All of :data:`_FURNITURE_LINES` (or those at the places ``kept``) in one pattern, so the
    text is scanned once: a whole line that is one of their bodies, the first that fits (group
    ``l<k>``, k its place)."""
    bodies = "|".join(
        f"(?P<l{k}>{pattern.pattern.removeprefix(f'^{HSPACE}*+(').removesuffix(f'){HSPACE}*$')})"
        for k, (pattern, _, _) in enumerate(_FURNITURE_LINES) if kept is None or k in kept)
    return re.compile(rf"^{HSPACE}*+(?:{bodies}){HSPACE}*$", re.MULTILINE)


def _lines_for(low: str, holds: Callable[[str], bool] | None = None) -> tuple[int, ...]:
    """The places of the :data:`_FURNITURE_LINES` that may fit a line of a text (``low``, in
    lower case): those without words to hold, and those whose words it holds one of (a pattern
    whose words a text lacks fits none of its lines, and leaving it out changes which of the
    others fits first nowhere). ``holds`` tells whether ``low`` holds a word, when given
    (:func:`_holder`)."""
    holds = holds or low.__contains__
    return tuple(k for k, (_, _, anchors) in enumerate(_FURNITURE_LINES)
                 if not anchors or any(holds(a) for a in anchors))


def _holder(text: str) -> Callable[[str], bool]:
    """Whether ``text`` holds a word, each word looked for once (the anchors of the patterns
    share words: a word a text lacks costs a scan of the whole text)."""
    held: dict[str, bool] = {}

    def holds(word: str) -> bool:
        found = held.get(word)
        if found is None:
            found = held[word] = word in text
        return found

    return holds


_BAR_INLINE = re.compile(rf"(?<!{HSPACE}){HSPACE}*+(?<!\S)\|(?!\S)")
# (from the first space before the bar only: tried from each space of a run that ends in no
# bar, the pattern cost the square of the run)
# a table's row or cell with its column bar kept ("Расстановка |", "WFB 6/8 | 28 мм | …|")
_BAR_ROW = re.compile(rf"^[^\n]*\|{HSPACE}*$", re.MULTILINE)
_MIN_BAR_ROWS = 3


def _bar_tables(text: str) -> list[tuple[int, int]]:
    """The spans of tables a copy kept with their column bars: runs of lines each ending in a
    bar ("|" / "Расстановка |" / "Миссия |" / "1 |" / "Combat Drop |"; a markdown table's
    rows), three or more with words before the bar. Their bars are the table's, not a site's
    separators, and stay."""
    spans: list[tuple[int, int]] = []
    start = end = -1
    worded = 0
    for m in _BAR_ROW.finditer(text):
        if start >= 0 and text[end:m.start()].strip() == "":
            end = m.end()  # (the next line, or after blank lines only: the run goes on)
        else:
            if start >= 0 and worded >= _MIN_BAR_ROWS:
                spans.append((start, end))
            start, end, worded = m.start(), m.end(), 0
        worded += any(c.isalnum() for c in m.group())
    if start >= 0 and worded >= _MIN_BAR_ROWS:
        spans.append((start, end))
    return spans


def _in_spans(at: int, spans: list[tuple[int, int]]) -> bool:
    """Whether ``at`` falls in one of ``spans`` (sorted, apart; found by bisection: a text of
    many tables and many bars would cost their product otherwise)."""
    k = bisect_right(spans, at, key=lambda span: span[0]) - 1
    return k >= 0 and at < spans[k][1]


# The same inside a line: removed with the spaces before them.
_FURNITURE_INLINE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"{HSPACE}*{_ADVERT}"), "реклама сайта «Мы поможем в написании…»"),
    (_BAR_INLINE, "разделитель «|» сайта"),
    (WIKI_EDIT_INLINE_RE, WIKI_NAV_REASON),
    (SPOILER_RE, SPOILER_REASON),
    (QUOTE_LABEL_RE, QUOTE_REASON),
)
# what each of them holds, looked for first (most texts hold none of them)
_INLINE_ANCHORS: tuple[tuple[str, ...], ...] = (("Мы поможем",), ("|",), ("[",), SPOILER_ANCHORS,
                                                QUOTE_LABEL_ANCHORS)
TITLE_LINE_REASON = "строка-заголовок сайта: название книги повторено"
_MAX_TITLE_LINE = 300


# Lines of a site's upload/download block ("Добавил:", "Скачиваний:", "274", "01.06.2015",
# "46.65 Mб" (its "M" Latin, its "б" Cyrillic, as sites write it), "Правила.pdf", "Скачать"),
# told by their shape: labels that end with a colon,
# values that are numbers, dates, sizes or file names.
_LABEL_LINE = re.compile(rf"^{HSPACE}*+(?:[A-ZА-ЯЁ][\w-]*:{HSPACE}*)+$")
_VALUE_LINE = re.compile(
    rf"^{HSPACE}*+(?:\d+(?:[.,:/-]\d+)*{HSPACE}*(?:[KkMmGgКкМмГг][BbБб]|байт\w*|bytes?)?\.?"
    rf"|\S*\.(?:pdf|docx?|rtf|djvu|txt|xlsx?|pptx?|zip|rar)|Скачать|Upload|Download){HSPACE}*$",
    re.IGNORECASE,
)
_VALUE_WORDS = frozenset({"скачать", "upload", "download"})
_DOWNLOAD_WORDS = frozenset({"скачать", "download"})  # the button that ends such a block
# A label glued to its value, the site's markup lost ("Формат файлаpdf", "Дата12.04.2023",
# "ТипКнига", "Имя файлаRuleBook.pdf"): a capitalised word or two, then without a space a
# value in another script, case or kind (digits).
_GLUED_LABEL_LINE = re.compile(
    rf"^{HSPACE}*+[А-ЯЁ][а-яё]+(?: [а-яё]+)?(?=[A-ZА-ЯЁ0-9a-z#])(?![а-яё])")
# An id ("#1056278"), a page counter ("страница4 из 5") or a row of page numbers
# ("1   2   3   4   5") inside such a block.
_BLOCK_VALUE_LINE = re.compile(
    rf"^{HSPACE}*+(?:#\d+|\d{{1,3}}(?:{HSPACE}+\d{{1,3}})+"
    rf"|(?i:страница|стр\.?|page){HSPACE}*\d+{HSPACE}*(?i:из|of|/){HSPACE}*\d+){HSPACE}*$")
_MIN_BLOCK_LINES = 3
_SENTENCE_VALUE = re.compile(rf"{HSPACE}*+(?:[^\s]++{HSPACE}++){{5}}[^\n]*[.!?…]{HSPACE}*$")
"""A line of six words or more that ends a sentence: text, never a field's value. (Five words
and the rest of the line: "{5,}" gave back a word at a time to look for the stop again, the
words times the line's length when it has none.)"""
_FORM_VALUE = 40  # characters of a form's value in words at most ("Элитные войска")
_MAX_FURNITURE_LINE = 400
# A word glued of several ("АвтомобилиАстрономияБиология"): a site's list of categories.
_GLUED_RE = re.compile(r"\S*[a-zа-яё]{2,}[A-ZА-ЯЁ][a-zа-яё]{2,}\S*")
# The seam of two glued words, searched first: the pattern above backtracks on every word.
_GLUED_SEAM_RE = re.compile(r"[a-zа-яё]{2}[A-ZА-ЯЁ][a-zа-яё]{2}")
_SEAM_RE = re.compile(r"([a-zа-яё])([A-ZА-ЯЁ])")
# A Latin name written in camel case, not words glued by a lost markup: a program's
# identifier ("textdoc.text.addElement(h)", "chart.StockGainMarker:", "getElementById": its
# punctuation inside, or a small letter first).
_CODE_NAME_RE = re.compile(r"[a-z][.(_=\[]|^[^\w]*[a-z]")
_MASTHEAD_WORDS = 3
_NEXT_LINE_RE = re.compile(r"\s*([^\n]*)")
_MAX_TITLE_UNDER_BRAND = 60
_MAX_MASTHEAD = 120
UPLOAD_REASON = "блок сайта «загружено/скачать» (метки и значения)"
GLUED_REASON = "навигация сайта: склеенный список рубрик"
MASTHEAD_REASON = "название сайта над его навигацией"


def _glued_chars(line: str) -> int:
    """Characters of ``line`` in words glued of several by a lost markup ("ГлавнаяФорум",
    "АвтомобилиАстрономияБиология", "HomeNewsForum"); a Latin name in camel case is none: an
    identifier (:data:`_CODE_NAME_RE`), or a brand of two words among other words ("About
    OpenDocument", "О программе BattleScribe": one seam, between Latin letters).

    >>> _glued_chars("АрхитектураБиология"), _glued_chars("About OpenDocument")
    (19, 0)
    >>> _glued_chars("textdoc.text.addElement(h)"), _glued_chars("HomeNewsForum")
    (0, 13)
    """
    total = 0
    for m in _GLUED_RE.finditer(line):
        word = m.group()
        seams = _SEAM_RE.findall(word)
        if all(a.isascii() and b.isascii() for a, b in seams) and (
                _CODE_NAME_RE.search(word) or (len(seams) == 1 and word != line.strip())):
            continue  # an identifier, or a brand among other words (a site's brand alone on
            # its line, "WarhammerBox", is its masthead)
        total += len(word)
    return total


def _furniture_lines(text: str) -> list[Edit]:
    """Blocks of lines that are furniture by their shape: upload/download blocks (labels and
    values, or labels glued to their values: "Формат файлаpdf"), and lines made of glued words
    (a category list)."""
    edits: list[Edit] = []
    lines: list[tuple[int, int]] = []
    kinds = []
    pos = 0
    for line in text.split("\n"):
        start, pos = pos, pos + len(line) + 1
        bare = line.strip()
        if not bare:
            continue
        lines.append((start, start + len(line)))
        if len(line) > _MAX_FURNITURE_LINE:
            kinds.append("")  # a paragraph of text, never a line of furniture
            continue
        glued = _glued_chars(line) if _GLUED_SEAM_RE.search(line) else 0
        if glued and glued * 2 >= len(bare):
            kinds.append("glued")
        elif bare.endswith(":") and _LABEL_LINE.match(line):
            kinds.append("label")
        elif bare[0].isupper() and _GLUED_LABEL_LINE.match(line):
            kinds.append("label")  # its value glued to it on the same line
        elif (bare[0] in "#сСpP" or bare[0].isdigit()) and _BLOCK_VALUE_LINE.match(line):
            kinds.append("value")
        elif (bare[0].isdigit() or "." in bare or bare.lower() in _VALUE_WORDS) \
                and _VALUE_LINE.match(line):
            kinds.append("value")  # (the cheap tests first: what every value line has)
        else:
            kinds.append("")
    members = ("label", "value", "glued")
    k = 0
    while k < len(lines):
        if kinds[k] not in members:
            k += 1
            continue
        j, count, worded, prose, closed = k, 0, 0, 0, False
        while j < len(lines):
            if closed and kinds[j] != "value":
                break  # after the download button, its values alone (a page's number)
            if kinds[j] in members:  # a line of labels counts each ("Вуз: Предмет: Файл:")
                count += max(1, text.count(":", *lines[j]) if kinds[j] == "label" else 1)
            elif not (kinds[j - 1] == "label" and j + 1 < len(lines)
                      and kinds[j + 1] in members) or j == k:
                break  # a line of text that is no label's value ends the block
            elif _SENTENCE_VALUE.match(text, *lines[j]):
                prose += 1  # a sentence under a label: a banner's, or a rule's text under
                # its name ("Паника:" / "Подразделение, потерявшее 25% моделей, …")
            elif lines[j][1] - lines[j][0] <= _FORM_VALUE:
                worded += 1  # a short line of words: a field's value
            closed = closed or (kinds[j] == "value" and text[slice(*lines[j])].strip().lower()
                                in _DOWNLOAD_WORDS)
            j += 1
        values = kinds[k:j].count("value")
        # a form whose values are mostly words ("Название:" / "Ликтор" / "Тип:" / "Пехота" /
        # "Очки:" / "50") is the page's own datasheet, not a site's block of numbers, dates,
        # sizes and file names; nor are names over sentences with no number, date or
        # category list among them (rules, each under its name and colon)
        if count >= _MIN_BLOCK_LINES and "label" in kinds[k:j] and worded <= values \
                and prose <= values + kinds[k:j].count("glued"):
            edits.append(block_edit(text, lines[k][0], lines[j - 1][1], "site_furniture",
                                    UPLOAD_REASON))
        else:  # no block: a line of glued words alone is a category list, with its label
            # right above it ("Категории:")
            edits.extend(block_edit(
                text, lines[g - 1 if g > k and kinds[g - 1] == "label" else g][0], lines[g][1],
                "site_furniture", GLUED_REASON) for g in range(k, j) if kinds[g] == "glued")
        k = max(j, k + 1)
    return edits


# A list of links to a site's other pages under its label ("Полезное:", "Читайте также:",
# "Похожие статьи") — titles of articles, one a line, none a sentence of the page.
_LINKS_LABEL = re.compile(
    rf"^{HSPACE}*+(?i:полезное|читайте также|смотрите также|см\. также|похожие (?:статьи|записи"
    rf"|материалы|публикации|темы)|популярное|популярные (?:статьи|записи)|рекомендуем"
    rf"|ещё по теме|еще по теме|другие (?:статьи|записи|материалы)|последние (?:статьи|записи)"
    rf"|интересное|вам (?:также )?может быть интересно|подобный материал|прочитайте"
    rf"|навигация по странице){HSPACE}*:?{HSPACE}*$",
    re.MULTILINE)
_MAX_LINK_LINE = 100
_MAX_NUMBERED_LINK = 200
_MIN_LINKS = 2
LINKS_REASON = "список ссылок сайта на другие страницы («Полезное:», «Читайте также:»)"


# a serial's page in its list of pages: its title with its number of all glued to it
# ("Бессонница194/351", "Смотрите на небо!198/351")
_SERIAL_PAGE = re.compile(
    rf"^{HSPACE}*+(?P<title>[^\n]{{0,80}}?[^\W\d_][!?.…»\"]?)(?P<n>\d{{1,4}})/(?P<of>\d{{1,4}})"
    rf"{HSPACE}*$", re.MULTILINE)
SERIAL_REASON = "навигация по страницам сайта: название и номер страницы («Название194/351»)"


def _serial_pages(text: str) -> list[Edit]:
    """A serial's list of pages (a webcomic's): each title with its page's number of all glued
    to it, its number no greater than the count. (The title the site repeats on the line after
    it stays: taking it too made the serial's name above the list the heading of the page.)"""
    edits = []
    for m in _SERIAL_PAGE.finditer(text):
        if int(m.group("n")) > int(m.group("of")):
            continue
        edits.append(block_edit(text, m.start(), m.end(), "site_furniture", SERIAL_REASON))
    return edits


# a row of a site's links spaced wide ("НОВОСТИ    КНИГИ    ЭНЦИКЛОПЕДИЯ    О САЙТЕ"): items of
# a few words apart by two spaces or a tab, one of them a link of :data:`_NAV_LINK`
_SPACED_ROW = re.compile(rf"^{HSPACE}*+(\S[^\n]*?(?:\S(?: {{2,}}|\t){HSPACE}*)[^\n]*\S){HSPACE}*$",
                         re.MULTILINE)
_SPACED_ITEMS = re.compile(r" {2,}|\t")
_MIN_SPACED_ITEMS = 4
_MAX_PATH_WORDS = 6
_STOPS_RE = re.compile(r"[.!?]")
_PATH_SEP_RE = re.compile(r" [-–—»/>] ")  # between a path's parts ("Рефераты - История")
_MAX_ITEM_WORDS = 3


def _spaced_rows(text: str) -> list[Edit]:
    """Each :data:`_SPACED_ROW` line of :data:`_MIN_SPACED_ITEMS` items or more, none a
    sentence's, one of them a site's link; or of two, the first a site's link and the second
    the site's path to the page ("Главная              Рефераты - История")."""
    edits = []
    for m in _SPACED_ROW.finditer(text):
        items = [i.strip() for i in _SPACED_ITEMS.split(m.group(1)) if i.strip()]
        if len(items) == 2 and _NAV_LINK_RE.fullmatch(items[0]) \
                and len(items[1].split()) <= _MAX_PATH_WORDS and not _STOPS_RE.search(items[1]) \
                and _PATH_SEP_RE.search(items[1]):
            edits.append(block_edit(text, m.start(1), m.end(1), "site_furniture", NAV_REASON))
        elif len(items) >= _MIN_SPACED_ITEMS and all(
                len(i.split()) <= _MAX_ITEM_WORDS and not re.search(r"[.!?,;:\d]", i)
                for i in items) and any(_NAV_LINK_RE.fullmatch(i) for i in items):
            edits.append(block_edit(text, m.start(1), m.end(1), "site_furniture", NAV_REASON))
    return edits


_NAV_LINK_RE = re.compile(_NAV_LINK)
_WORD_ROW = re.compile(rf"^{HSPACE}*+((?:[\w-]+{HSPACE}+){{3,11}}[\w-]+){HSPACE}*$", re.MULTILINE)
_MIN_ROW_LINKS = 2


def _word_rows(text: str) -> list[Edit]:
    """A row of links run on one line, each word capitalised ("Новости Библиотека Учёные
    Ссылки Карта сайта О проекте"), of which two or more are a site's links
    (:data:`_NAV_LINK`)."""
    edits = []
    for m in _WORD_ROW.finditer(text):
        row = m.group(1)
        found = list(_NAV_LINK_RE.finditer(row))
        # the other words each a link's, capitalised (a link of two words has its second in
        # lower case: "Карта сайта", "О проекте")
        rest = _NAV_LINK_RE.sub(" ", row).split()
        if len(found) >= _MIN_ROW_LINKS and all(w[:1].isupper() for w in rest):
            edits.append(block_edit(text, m.start(1), m.end(1), "site_furniture", NAV_REASON))
    return edits


def _link_lists(text: str) -> list[Edit]:
    """Each :data:`_LINKS_LABEL` with the link lines right under it (no blank line between,
    short, two words or more, ending in no period or colon), two or more of them."""
    edits = []
    for m in _LINKS_LABEL.finditer(text):
        pos, last, count = m.end() + 1, None, 0
        while pos < len(text):
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            line = text[pos:end].strip()
            # a numbered or bulleted list of links ("1. I.4. Источники римского права", "2. …",
            # "• Потенциальные группы …"): its titles may end as they will
            numbered = line.startswith((f"{count + 1}. ", "• "))
            if not line or len(line) > (_MAX_NUMBERED_LINK if numbered else _MAX_LINK_LINE) \
                    or (line.endswith((".", ":", ";")) and not numbered) \
                    or len(_LETTER_RE.findall(line)) < 2 or " " not in line:
                break  # (a link's title is words, not one word nor a "|" that stands for one)
            last, count, pos = end, count + 1, end + 1
        if last is not None and count >= _MIN_LINKS:
            edits.append(block_edit(text, m.start(), last, "site_furniture", LINKS_REASON))
    return edits


# a line's opening words in capitals before a capitalised word of its text ("ГЛОССАРИЙ Эта
# секция …", "СТРЕЛЬБА ПО ТЕХНИКЕ Технику намного …", a number among them: "БРОНЯ 41-ОГО
# ТЫСЯЧЕЛЕТИЯ Большинство …")
_CAPS_TITLE_OPENING = re.compile(
    r"([А-ЯЁ][А-ЯЁ-]{2,}(?:[ ,]+(?:[А-ЯЁ][А-ЯЁ-]*|\d+(?:-[А-ЯЁ]{1,3})?(?= [А-ЯЁ]{2})))*)"
    r"(?= [А-ЯЁ][а-яё])")
# the English name of a title in brackets on the line under it ("ХАРАКТЕРЫ" / "(Characters)")
_BRACKETED_START = re.compile(r"^\([A-Za-z][A-Za-z ',&-]{0,60}\)\s*")


def _masthead(text: str, blocks: list[Edit]) -> Edit | None:
    """The site's name on the first line, right above furniture removed from the second: a
    brand (Latin letters, or one word that is no word of the language), not a page title."""
    newline = text.find("\n")
    if newline < 0:
        return None
    first = text[:newline].strip()
    if not first or len(first.split()) > _MASTHEAD_WORDS or re.search(r"[.!?:;,]", first):
        return None
    # a brand, not the page's title: Latin letters, or one word no dictionary knows
    latin = re.fullmatch(r"[A-Za-z0-9 .&-]+", first) is not None
    brand = latin or (len(first.split()) == 1 and not is_known(first))
    if not brand:
        return None
    following = min(blocks, key=lambda e: e.start) if blocks else None
    if following is not None and not text[newline:following.start].strip():
        return block_edit(text, 0, newline, "site_furniture", MASTHEAD_REASON)
    # or a Latin name right above the page's Russian title ("RED ELF" / "КАВАЛЕРИЯ"): an
    # English heading has its Russian text under it, not another heading
    nxt = _NEXT_LINE_RE.match(text, newline)
    end = newline
    while latin and nxt and nxt.end() > end \
            and re.fullmatch(r"[A-Za-z0-9 .&-]+", nxt.group(1).strip() or "-") \
            and len(nxt.group(1).split()) <= _MASTHEAD_WORDS and end < _MAX_MASTHEAD:
        # (at the text's end the next line is empty and ends where it starts: no line more)
        end = nxt.end()  # the site's section under its name ("WARHAMMER 6 EDITION")
        nxt = _NEXT_LINE_RE.match(text, end)
    title = nxt.group(1).strip() if nxt else ""
    if latin and nxt and len(title) > _MAX_TITLE_UNDER_BRAND:
        # a copy that ran the page into one line opens it with its title in capitals ("RED
        # ELF" / "ГЛОССАРИЙ Эта секция содержит …"): the title is those capitals
        opening = _CAPS_TITLE_OPENING.match(title)
        title = opening.group(1) if opening else title
    if latin and title and len(title) <= _MAX_TITLE_UNDER_BRAND \
            and re.search("[А-Яа-яЁё]", title) and not title.endswith(tuple(".!?:;,")) \
            and not re.search(r"[A-Za-z]", title):
        at = nxt.start(1) + len(title) if nxt and title != nxt.group(1).strip() else (
            nxt.end() if nxt else 0)
        body = text[at:at + 200].lstrip() if nxt else ""
        body = _BRACKETED_START.sub("", body)  # its English name in brackets under it
        if body[:1].isupper():  # the title heads text
            return block_edit(text, 0, end, "site_furniture", MASTHEAD_REASON)
    return None


_MAX_REPEATED_LINE = 120
_LETTER_RE = re.compile(LETTERS)
_ENDS_SENTENCE = tuple(".!?…;»\")")
_STOPS = tuple(".!?…;")
REPEATED_REASON = ("строка сайта, повторённая среди служебных строк (заголовок страницы, "
                   "«хлебные крошки»)")
RUNNING_LINE_REASON = "колонтитул: строка повторяется и разрывает предложение"
BREADCRUMB_REASON = "«хлебные крошки» сайта: путь по разделам"
# "Главная » Warhammer » Книга правил", "Статьи->Axis & Allies->Правила": short items joined by
# one kind of path separator, three or more
# (the last item, the page's own title, may hold a period: "Форум » Вархаммер ФБ » Основные
# правила ФБ » Блуд в Плохих Землях. (Дополнение к осадам.)")
_BREADCRUMB_RE = re.compile(
    rf"^{HSPACE}*+([^\n.!?»›>→]{{1,40}}?{HSPACE}*(»|›|->|→|>){HSPACE}*[^\n.!?»›>→]{{1,60}}?"
    rf"(?:{HSPACE}*\2{HSPACE}*[^\n.!?»›>→]{{1,60}}?)*"
    rf"{HSPACE}*\2{HSPACE}*[^\n!?»›>→]{{1,100}}?){HSPACE}*$",
    re.MULTILINE,
)

# "Kill Team | Статьи", "Warhammer » Форум": the page's first line of two short items joined
# by a path separator (a section of the site and the site), a breadcrumb two items long
# (or, joined by a path's separator, the line under the page's title: "Турнир ФБ - Рижские поля
# сражений 2010" / "Wargames » Турниры и кампании"; not by ">", which compares there: "Сила >
# Стойкость")
_TITLE_BAR_RE = re.compile(
    rf"\A\s*+(?:([^\W\d_][^\n\d.!?:|»›>→]{{0,40}}?{HSPACE}+(?:\||»|›|->|→|>)"
    rf"{HSPACE}+[^\W\d_][^\n\d.!?:|»›>→]{{0,40}}?){HSPACE}*$"
    rf"|[^\n]{{1,120}}\n^{HSPACE}*+([^\W\d_][^\n\d.!?:|»›>→\[\]]{{0,40}}?{HSPACE}+(?:»|›|->|→)"
    rf"{HSPACE}+[^\W\d_][^\n\d.!?:|»›>→\[\]]{{0,40}}?){HSPACE}*$)",
    re.MULTILINE,
)
_MAX_BAR_WORDS = 4
# "- Главная / - Warhammer 40k / - Психическая фаза …": a breadcrumb set as a list at the
# page's top, from the site's home page to the page itself
_LISTED_BREADCRUMB_RE = re.compile(
    rf"\A\s*+([-•*·]{HSPACE}*(?i:главная|на главную|home)(?: страница)?{HSPACE}*"
    rf"(?:\n{HSPACE}*[-•*·]{HSPACE}*[^\n]{{1,120}}){{1,5}})$",
    re.MULTILINE,
)


def _title_bar(text: str) -> Edit | None:
    """The page's first line when it is a breadcrumb of two short items (:data:`_TITLE_BAR_RE`),
    or its first lines when they list the path from the site's home page
    (:data:`_LISTED_BREADCRUMB_RE`)."""
    listed = _LISTED_BREADCRUMB_RE.match(text)
    if listed is not None:
        return block_edit(text, listed.start(1), listed.end(1), "site_furniture",
                          BREADCRUMB_REASON)
    m = _TITLE_BAR_RE.match(text)
    group = 1 if m is not None and m.group(1) is not None else 2
    if m is None or any(len(part.split()) > _MAX_BAR_WORDS
                        for part in re.split(r"\||»|›|->|→|>", m.group(group))):
        return None
    return block_edit(text, m.start(group), m.end(group), "site_furniture", BREADCRUMB_REASON)


SITE_NAME_OVER_PATH_REASON = ("название сайта (и его часы) в шапке страницы, над «хлебными "
                              "крошками»")
# the site's clock under its name: "Пятница, 26.04.2024, 16:36", "Пятница, 2024 Гвирит 26, 21:31"
_CLOCK_LINE = re.compile(rf"{HSPACE}*[^\n]{{0,40}}?\d{{1,2}}:\d{{2}}(?::\d{{2}})?{HSPACE}*")
_MAX_SITE_NAME_WORDS = 6


def _name_over_path(text: str, blocks: list[Edit]) -> list[Edit]:
    """The site's name in the page's header: the one line left between furniture at the
    page's top and the site's path to the page (its breadcrumb), the site's clock under it or
    not ("Приветствую Вас Гость | RSS" / "Империя Рэя" / "Пятница, 26.04.2024, 16:36" /
    "Главная » Файлы » Мои файлы"). A page's title stands under the path, or in it: a line the
    path names is the page's, and stays, as does a forum topic's title under its label
    ("Полная версия: Правила на SPEARHEAD")."""
    left = _free_lines(text, blocks)
    if not left:
        return []
    # (the first path below a line that no furniture holds: a title bar, "Приветствую Вас
    # Гость | RSS", may be read as one too)
    crumb = min((b for b in blocks if b.reason == BREADCRUMB_REASON and b.start > left[0][0]),
                key=lambda b: b.start, default=None)
    if crumb is None:
        return []
    left = [(a, b) for a, b in left if b <= crumb.start]
    if not 1 <= len(left) <= 2:
        return []
    name = text[left[0][0]:left[0][1]].strip()
    path = text[crumb.start:crumb.end].lower()
    if len(name.split()) > _MAX_SITE_NAME_WORDS or name.endswith(_STOPS) \
            or not _LETTER_RE.search(name) or name.lower() in path \
            or _LOFI_LABEL_RE.match(name) \
            or (len(left) == 2 and not _CLOCK_LINE.fullmatch(text[left[1][0]:left[1][1]])):
        return []
    return [block_edit(text, a, b, "site_furniture", SITE_NAME_OVER_PATH_REASON)
            for a, b in left]


def _free_lines(text: str, blocks: list[Edit]) -> list[tuple[int, int]]:
    """The page's first three lines with words that no block holds (the page's header is
    short: a fourth says it is over), read from its top."""
    spans: list[tuple[int, int]] = []  # the blocks' spans, overlapping ones merged
    for a, b in sorted((b.start, b.end) for b in blocks):
        if spans and a <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], b))
        else:
            spans.append((a, b))
    starts = [a for a, _ in spans]
    left: list[tuple[int, int]] = []
    pos = 0
    while pos < len(text) and len(left) < 3:
        stop = text.find("\n", pos)
        stop = len(text) if stop < 0 else stop
        k = bisect_right(starts, pos) - 1
        if text[pos:stop].strip() and not (k >= 0 and stop <= spans[k][1]):
            left.append((pos, stop))
        pos = stop + 1
    return left


def _repeated_lines(text: str, blocks: list[Edit]) -> list[Edit]:
    """Lines the site repeats: a short line that is no sentence and stands twice or more, each
    time beside furniture (a removed block, a page mark, the text's edge) or cutting a sentence
    in two (the line above it goes on below it in lower case) — a page title repeated on every
    page, a running header on a line of its own. A heading repeated over different sections has
    the sections' text beside it, and a rule sentence ends as one: neither is touched."""
    lines: list[tuple[int, int, str]] = []
    pos = 0
    for raw in text.split("\n"):
        line = raw.strip()
        if line:
            lines.append((pos, pos + len(raw), line))
        pos += len(raw) + 1
    # (a title may end in its quoted name: only a sentence's own stop rules a line out here)
    counts = Counter(line for _, _, line in lines
                     if len(line) <= _MAX_REPEATED_LINE and not line.endswith(_STOPS)
                     and _LETTER_RE.search(line))
    repeated = {line for line, n in counts.items() if n >= 2}
    if not repeated:
        return []
    taken = sorted((e.start, e.end) for e in blocks)
    starts = [a for a, _ in taken]

    def furniture(k: int) -> bool:
        """Whether line ``k`` is furniture already: inside a removed block, or a page mark."""
        if k < 0 or k >= len(lines):
            return True  # the text's edge
        start, end, line = lines[k]
        i = bisect_left(starts, end) - 1
        return (i >= 0 and taken[i][0] <= start and end <= taken[i][1]) \
            or FOOTER_RE.fullmatch(line) is not None

    occurrences: dict[str, list[int]] = {}
    for k, (_, _, line) in enumerate(lines):
        if line in repeated:
            occurrences.setdefault(line, []).append(k)
    edits = []
    for line, ks in occurrences.items():
        sentence_like = line.endswith(_ENDS_SENTENCE)
        beside = not sentence_like and all((furniture(k - 1) and lines[k - 1][2] != line)
                     or (furniture(k + 1) and (k + 1 >= len(lines) or lines[k + 1][2] != line))
                     for k in ks)
        cuts = not sentence_like and not _ends_in_function_word(line) and all(
            0 < k < len(lines) - 1 and not lines[k - 1][2].endswith(_ENDS_SENTENCE + (":",))
            and lines[k + 1][2][:1].islower() for k in ks)
        # furniture stands among different text each time; a text repeated whole (a page
        # saved twice) repeats its lines with their neighbours, and they stay
        contexts = {(lines[k - 1][2] if k else "", lines[k + 1][2] if k + 1 < len(lines) else "")
                    for k in ks}
        if all(furniture(k - 1) and furniture(k + 1) for k in ks[:-1]) \
                and not (furniture(ks[-1] - 1) and furniture(ks[-1] + 1)) \
                and (not furniture(ks[-1] + 1) or not beside):
            # a forum topic's title between its breadcrumb and pager, or a page's title above
            # the site's banners, then the text's own heading of the same words over its text
            # ("ЗНАЕТЕ ЛИ ВЫ?" / "Lords of War Газгулл Тракка …" / "Тип отряда: …"): the
            # copies above go, the heading stays
            edits += [block_edit(text, lines[k][0], lines[k][1], "site_furniture",
                                 REPEATED_REASON) for k in ks[:-1]]
        elif (beside or cuts) and 2 * len(contexts) >= len(ks) and len(contexts) >= 2:
            reason = REPEATED_REASON if beside else RUNNING_LINE_REASON
            edits += [block_edit(text, lines[k][0], lines[k][1], "site_furniture", reason)
                      for k in ks]
    return edits


_LAST_WORD_RE = re.compile(r"(\w+)\W*$")
_FUNCTION_POS = frozenset({"PREP", "CONJ", "PRCL"})


def _ends_in_function_word(line: str) -> bool:
    """Whether a line ends in a preposition, conjunction or particle ("Боевая единица,
    содержащая хотя" / "бы одну модель…"): a sentence wrapped on its way to the next line, as
    a rule's first line repeats in a list of rules, not a running header (a title ends in its
    noun)."""
    m = _LAST_WORD_RE.search(line)
    return m is not None and pos(m.group(1).lower()) in _FUNCTION_POS


def site_furniture(text: str) -> list[Edit]:
    """Find what the website put around the rules text.

    Download banners ("Скачать 44.49 Mb."), page navigation ("⇐ ПредыдущаяСтр 17 из
    35Следующая ⇒"), the site's signature ("Дата добавления: …; просмотров: …"), its
    advertising ("Мы поможем в написании ваших работ!"), ``|`` separators, and a first line
    that repeats the book's title ("Warhammer 40k - 6th edition - Книга правил 1.0. Warhammer
    40k - 6th edition - …"). A whole line goes with the blank lines around it.
    """
    tables = _bar_tables(text) if "|" in text else []
    low = text.lower()
    holds = _holder(low)  # (whether the text holds a word, in lower case)
    blocks = [
        block_edit(text, m.start(m.lastgroup or 0), m.end(m.lastgroup or 0), "site_furniture",
                   _FURNITURE_LINES[int((m.lastgroup or "l0")[1:])][1])
        for m in _furniture_lines_re(_lines_for(low, holds)).finditer(text)
        if not (tables and "|" in m.group() and _in_spans(m.start(), tables))
    ]
    blocks.extend(block_edit(text, m.start(1), m.end(1), "site_furniture", reason)
                  for pattern, reason, anchors in _ANCHORED_LINES
                  if any(holds(a) for a in anchors) for m in pattern.finditer(text))
    title_end = _repeated_title_line(text)
    if title_end is not None:
        blocks.append(block_edit(text, 0, title_end, "site_furniture", TITLE_LINE_REASON))
    # forum and wiki engines' lines (ingest.clean_forum), before the upload blocks: a post
    # header's labels and counts look like one, and the first reason of a span is kept
    blocks.extend(forum_furniture(text))
    blocks.extend(_furniture_lines(text))
    blocks.extend(template_filler(text))
    blocks.extend(_link_lists(text))
    if any(holds(a) for a in _NAV_ANCHORS):  # (the cheap test first: rows hold a link)
        if "  " in text or "\t" in text:
            blocks.extend(_spaced_rows(text))
        blocks.extend(_word_rows(text))
    if "/" in text:  # (the cheap test first)
        blocks.extend(_serial_pages(text))
    blocks.extend(category_menus(text))
    blocks.extend(menu_labels(text))
    blocks.extend(header_menu(text))
    blocks.extend(page_title(text))
    blocks.extend(site_name(text))
    if "ообщени" in text:  # (the cheap test first)
        blocks.extend(topic_over_post_title(text))
    blocks.extend(block_edit(text, m.start(1), m.end(1), "site_furniture", BREADCRUMB_REASON)
                  for m in _BREADCRUMB_RE.finditer(text)
                  if "«" not in m.group(1) and "<" not in m.group(1))  # quotes, not a path
    bar = _title_bar(text)
    if bar is not None:
        blocks.append(bar)
    blocks.extend(_name_over_path(text, blocks))
    # a wiki's "Материал из …" stands under the article's title, not under the site's name
    masthead = _masthead(text, [b for b in blocks if b.reason != WIKI_SOURCE_REASON])
    if masthead is not None:
        blocks.append(masthead)
    blocks.extend(_repeated_lines(text, blocks))
    blocks = merge_blocks(text, blocks)
    inline = [
        Edit(m.start(), m.end(), "", "site_furniture", reason)
        for (pattern, reason), anchor in zip(_FURNITURE_INLINE, _INLINE_ANCHORS, strict=True)
        if any(a in text for a in anchor)  # the cheap test first: a scan of the text is not
        for m in pattern.finditer(text)
        if not (tables and pattern is _BAR_INLINE and _in_spans(m.start(), tables))
    ]
    inline += topic_title_mark(text, [b for b in blocks if b.reason == POST_HEADER_REASON])
    inline += lofi_title_label(text)
    return blocks + edits_outside(first_fit(inline), blocks)


def _repeated_title_line(text: str) -> int | None:
    """End of a first line that repeats its own opening words (a site's title), if any."""
    newline = text.find("\n")
    if newline < 0:
        return None
    line = text[:newline]
    words = line.split()
    if len(words) < 8 or len(line) > _MAX_TITLE_LINE:
        return None
    opening = " ".join(words[:4])
    first = line.find(opening)
    if line.find(opening, first + len(opening)) < 0:
        return None
    return newline
