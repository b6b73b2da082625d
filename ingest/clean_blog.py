"""The lines a blog's or a site's engine puts around an article, and a copy's note on what its
colours mark: whole lines of furniture whatever the site (:data:`BLOG_LINE`,
:data:`MARKING_NOTE`), removed by the ``site_furniture`` step
(:func:`ingest.clean_furniture.site_furniture`).
"""

from __future__ import annotations

from ingest.clean_edits import HSPACE

BLOG_REASON = ("служебная строка блога или сайта (соседние записи, оценка, просмотры, комментарии, "
               "метки, дата публикации, авторские права)")
MARKING_REASON = "пометка о выделении в тексте («Красным выделены дополнения»)"

# The lines a blog's or a site's engine puts around an article, whatever the site: the links to
# the next and previous posts, the rating and vote count, views, comments, tags and rubrics, the
# date it was published or updated, a download button with its size, the copyright, "read
# more", related posts, subscribe and share buttons, error reporting.
_COUNT_VALUE = r"\d[\d \xa0.,]*"
_PUBLISHED_DATE = (r"\d{1,2}[./]\d{1,2}[./]\d{2,4}(?:,?\s*(?:в\s*)?\d{1,2}:\d{2})?"
                   r"|\d{1,2}\s+[а-яё]+\s+\d{4}")
BLOG_LINE = (
    r"(?i:(?:[←«‹<]\s*)?(?i:предыдущая|следующая|предыдущий|следующий)\s+(?i:статья|запись|пост"
    r"|материал|новость)(?:\s*:\s*[^\n]{1,80}?)?(?:\s*[→»›>])?"
    r"|(?i:оцените|оценить)\s+(?i:статью|материал|запись|пост|новость|презентацию|работу"
    r"|документ|книгу|страницу)\b[^\n]{0,60}"
    r"|(?i:рейтинг(?:\s+статьи)?|голосов|просмотров|просмотры|комментариев|ответов)\s*:\s*"
    rf"{_COUNT_VALUE}(?:\s*/\s*{_COUNT_VALUE})?(?:\s*\([^)\n]{{1,30}}\))?"
    r"|(?i:комментарии)\s*\(\d+\)|\d+\s+(?i:комментари[йяев]+|просмотр(?:ов|а)?)"
    r"|(?i:добавить|оставить|написать)\s+(?:(?i:свой|ваш)\s+)?(?i:комментарий|отзыв)"
    r"|(?i:нет комментариев)[^\n]{0,60}"
    r"|(?i:теги|метки|рубрик[аи])\s*:\s*[^\n.!?]{1,120}"
    rf"|\(?(?i:опубликовано|обновлено|последнее обновление|last updated on|posted on)\s*:?\s*"
    rf"(?:{_PUBLISHED_DATE})?\s*\)?"
    r"|(?i:скачать)(?:\s+(?:pdf|файл|doc|docx|djvu|архив))?\s*\(?\s*\d+(?:[.,]\d+)?\s*"
    r"(?:[кмг]б|kb|mb|gb)\)?"
    r"|(?i:размер файла)\s*:\s*\d+(?:[.,]\d+)?\s*(?i:[кмг]б|kb|mb|gb|байт\w*)"
    r"|(?i:copyright)?[^\S\n]*©[^\n]{0,80}|(?i:все права защищены|all rights reserved)\.?"
    r"|(?i:читать далее|читать полностью|подробнее)\s*(?:[→»>]|\.\.\.|…)?"
    r"|(?i:похожие|последние|свежие|популярные)\s+(?i:записи|статьи|материалы|новости|посты)"
    r"|(?i:вам также может понравиться|назад к списку|вернуться назад)"
    r"|(?i:нашли ошибку)\?[^\n]{0,80}|(?i:сообщить об ошибке)"
    r"|(?i:подписаться на рассылку|подпишитесь на (?:наш )?(?:канал|рассылку)[^\n]{0,40})"
    r"|(?i:понравилась статья)\?[^\n]{0,60}|(?i:поделитесь с друзьями)!?"
    r"|(?i:загрузка)(?:\.\.\.|…)|(?i:реклама)|(?i:показать (?:ещё|еще|полностью)))"
)

# the colour or type a copy marks its changes with, and the participle that says so
_MARKING = (r"(?:(?:красным|синим|зел[её]ным|ж[её]лтым|серым|оранжевым|фиолетовым|жирным"
            r"|полужирным|другим|цветным)(?:[ \t]+(?:цветом|шрифтом))?|курсивом|цветом"
            r"|подч[её]ркиванием)")
MARKED_WORDS = ("выделен", "отмечен", "помечен", "обозначен")
_MARKED = f"(?:{'|'.join(f'{w}[аоы]?' for w in MARKED_WORDS)})"
# what the copy's colours or type mean, a line of its own: "Красным выделены дополнения",
# "Изменения отмечены жирным шрифтом"
MARKING_NOTE = (rf"(?i:{_MARKING}{HSPACE}+{_MARKED}{HSPACE}+[^\n.!?,;:]{{1,60}}"
                rf"|[^\n.!?,;:]{{1,40}}?{HSPACE}+{_MARKED}{HSPACE}+{_MARKING})\.?")
