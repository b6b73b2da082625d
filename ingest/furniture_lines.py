"""The line patterns of site furniture (:mod:`ingest.clean_furniture`'s table): whole lines a
website puts around a text (navigation rows, download banners, a site's signature, its
adverts, a document's file name), each with the reason it is removed and the words a text must
hold for the pattern to be tried (its anchors), scanned as one pattern; and the same inside a
line (a site's "|" separators, adverts, a wiki's edit links), with the tables whose column
bars are no site's.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache

from ingest.clean_blog import BLOG_LINE, BLOG_REASON, MARKED_WORDS, MARKING_NOTE, MARKING_REASON
from ingest.clean_edits import HSPACE
from ingest.clean_forum import (
    QUOTE_LABEL_ANCHORS,
    QUOTE_LABEL_RE,
    QUOTE_REASON,
    SPOILER_ANCHORS,
    SPOILER_RE,
    SPOILER_REASON,
    WIKI_EDIT_INLINE_RE,
    WIKI_NAV_REASON,
)

NAV_LINK = (r"(?i:(?:На |Вернуться на )?[Гг]лавн(?:ая|ую)(?: страница| страницу)?"
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
_ROW_LINK = rf"(?:{NAV_LINK}|{_LOGIN_LINK}|FAQ|ЧаВо)"


def _line(body: str) -> re.Pattern[str]:
    """A whole line that consists of ``body`` (group 1)."""
    return re.compile(rf"^{HSPACE}*+({body}){HSPACE}*$", re.MULTILINE)


# what every link of :data:`NAV_LINK` holds, in lower case (the cheap test of a text first)
NAV_ANCHORS = ("главн", "случайн", "обратная связь", "контакты", "о нас", "о сайте",
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
# costs more a line is tried only in a text holding one (:func:`furniture_lines_re`)
FURNITURE_LINES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = (
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
        # (rows after the site's name: :data:`ANCHORED_LINES`)
        _line(rf"{NAV_LINK}(?:{_NAV_SEP}(?:{NAV_LINK}|{_LOGIN_LINK}))*"),
        NAV_REASON,
        NAV_ANCHORS,
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


ANCHORED_LINES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = (
    # a link to the site's other pages ("Вся электронная библиотека >>>")
    (_line(r"[^\n]{1,80}>>>"), "ссылка сайта на другие страницы («… >>>»)", (">>>",)),
    (
        # a row of two links or more after the site's name ("Студопедия.Орг Главная |
        # Случайная страница | Контакты"), ending in its advert or not, or in its menu of
        # categories ("… Обратная связь КАТЕГОРИИ: АрхеологияБиология Генетика …")
        _line(rf"[^\s|]{{1,30}}{HSPACE}+{NAV_LINK}(?:{_NAV_SEP}{_ROW_LINK})+"
              rf"(?:{_NAV_SEP}(?:{_ADVERT}|(?i:категории|рубрики|разделы):[^\n]*))?"
              rf"|{NAV_LINK}(?:{_NAV_SEP}{_ROW_LINK})+"
              rf"{_NAV_SEP}(?:{_ADVERT}|(?i:категории|рубрики|разделы):[^\n]*)"),
        NAV_REASON,
        NAV_ANCHORS,
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
"""Lines of :data:`FURNITURE_LINES`' kind whose patterns cost more a line: each looked for
only in a text holding one of its anchors (in lower case)."""


@lru_cache(maxsize=64)
def furniture_lines_re(kept: tuple[int, ...] | None = None) -> re.Pattern[str]:
    """All of :data:`FURNITURE_LINES` (or those at the places ``kept``) in one pattern, so the
    text is scanned once: a whole line that is one of their bodies, the first that fits (group
    ``l<k>``, k its place)."""
    bodies = "|".join(
        f"(?P<l{k}>{pattern.pattern.removeprefix(f'^{HSPACE}*+(').removesuffix(f'){HSPACE}*$')})"
        for k, (pattern, _, _) in enumerate(FURNITURE_LINES) if kept is None or k in kept)
    return re.compile(rf"^{HSPACE}*+(?:{bodies}){HSPACE}*$", re.MULTILINE)


def lines_for(low: str, holds: Callable[[str], bool] | None = None) -> tuple[int, ...]:
    """The places of the :data:`FURNITURE_LINES` that may fit a line of a text (``low``, in
    lower case): those without words to hold, and those whose words it holds one of (a pattern
    whose words a text lacks fits none of its lines, and leaving it out changes which of the
    others fits first nowhere). ``holds`` tells whether ``low`` holds a word, when given
    (:func:`holder`)."""
    holds = holds or low.__contains__
    return tuple(k for k, (_, _, anchors) in enumerate(FURNITURE_LINES)
                 if not anchors or any(holds(a) for a in anchors))


def holder(text: str) -> Callable[[str], bool]:
    """Whether ``text`` holds a word, each word looked for once (the anchors of the patterns
    share words: a word a text lacks costs a scan of the whole text)."""
    held: dict[str, bool] = {}

    def holds(word: str) -> bool:
        found = held.get(word)
        if found is None:
            found = held[word] = word in text
        return found

    return holds


BAR_INLINE = re.compile(rf"(?<!{HSPACE}){HSPACE}*+(?<!\S)\|(?!\S)")
# (from the first space before the bar only: tried from each space of a run that ends in no
# bar, the pattern cost the square of the run)
# a table's row or cell with its column bar kept ("Расстановка |", "WFB 6/8 | 28 мм | …|")
_BAR_ROW = re.compile(rf"^[^\n]*\|{HSPACE}*$", re.MULTILINE)
_MIN_BAR_ROWS = 3


def bar_tables(text: str) -> list[tuple[int, int]]:
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


def in_spans(at: int, spans: list[tuple[int, int]]) -> bool:
    """Whether ``at`` falls in one of ``spans`` (sorted, apart; found by bisection: a text of
    many tables and many bars would cost their product otherwise)."""
    k = bisect_right(spans, at, key=lambda span: span[0]) - 1
    return k >= 0 and at < spans[k][1]


# The same inside a line: removed with the spaces before them.
FURNITURE_INLINE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"{HSPACE}*{_ADVERT}"), "реклама сайта «Мы поможем в написании…»"),
    (BAR_INLINE, "разделитель «|» сайта"),
    (WIKI_EDIT_INLINE_RE, WIKI_NAV_REASON),
    (SPOILER_RE, SPOILER_REASON),
    (QUOTE_LABEL_RE, QUOTE_REASON),
)
# what each of them holds, looked for first (most texts hold none of them)
INLINE_ANCHORS: tuple[tuple[str, ...], ...] = (("Мы поможем",), ("|",), ("[",), SPOILER_ANCHORS,
                                               QUOTE_LABEL_ANCHORS)
