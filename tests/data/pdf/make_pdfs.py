"""Writes the PDFs of this folder (run by hand; the tests read the files it wrote).

``.venv/bin/pip install fpdf2 && .venv/bin/python tests/data/pdf/make_pdfs.py`` (fpdf2 and
the DejaVu fonts of Debian's ``fonts-dejavu-core`` are needed here only, not by the tests).
Each book page is laid out as a rulebook's: a running header at the top, the page's number
at the bottom, headings in larger bold type, rule names in bold at the text's size, a word
hyphenated at a line's end. The texts are the project's own, in the words of the rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
FONTS = Path("/usr/share/fonts/truetype/dejavu")

PAGES = [
    (57, [
        ("h1", "ПСИХОЛОГИЯ"),
        ("cap", "В"),
        ("p", "оины на поле битвы не всегда ведут себя так, как того хочет их генерал. "
              "Правила этого раздела описывают, как подразделение отвечает на страх и "
              "панику. Тест проходят по Лидерству подразделения (см. стр. 58)."),
        ("h2", "Страх"),
        ("p", "Подразделение, которое нападает на врага, вызывающего Страх, должно пройти "
              "тест на Лидерство. Если тест провален, подразделение бьёт в первом раунде "
              "ближнего боя только на 6."),
        ("h2", "Ужас"),
        ("p", "Модели, вызывающие Ужас, также вызывают Страх, как описано в правиле "
              "«Страх». Подразделение, на которое нападает такой враг, проходит тест на "
              "Панику."),
        ("b", "Иммунитет к психологии"),
        ("p", "Подразделение с этим правилом автоматически проходит тесты на Панику, Страх "
              "и Ужас, но не может добровольно отступить."),
    ]),
    (58, [
        ("h2", "Паника"),
        ("p", "Подразделение проходит тест на Панику, когда рядом бежит дружественное "
              "подразделение или когда оно теряет четверть своих моделей от стрельбы."),
        ("h3", "Тесты на панику"),
        ("li", "Бросьте 2D6 и сравните результат с Лидерством подразделения."),
        ("li", "Если результат больше, подразделение бежит от ближайшего врага."),
        ("p", "Бегущее подразделение не может стрелять и нападать."),
        ("table", [("2D6", "Итог теста"), ("2–7", "Держится"), ("8–12", "Бежит")]),
    ]),
]


def _fpdf() -> Any:
    """A new A4 document (fpdf2 imported here: the test suite collects this module and has no
    fpdf2)."""
    from fpdf import FPDF

    return FPDF(format="A4")


def _book(path: Path, columns: int = 1, bookmarks: bool = False) -> None:
    """The book's pages; with ``bookmarks``, its headings set in the text's type (plain, at
    10 points: only the PDF's outline tells them) and an outline entry for each."""
    pdf = _fpdf()
    pdf.add_font("DejaVu", "", str(FONTS / "DejaVuSerif.ttf"))
    pdf.add_font("DejaVu", "B", str(FONTS / "DejaVuSerif-Bold.ttf"))
    pdf.set_auto_page_break(False)
    width = (190 - 10 * (columns - 1)) / columns
    for number, blocks in PAGES:
        pdf.add_page()
        pdf.set_font("DejaVu", "", 9)
        pdf.set_xy(10, 8)
        pdf.cell(190, 5, "Warhammer: Книга правил", align="C")
        column, y = 0, 25.0
        per_column = -(-len(blocks) // columns)
        indent = 0.0
        for k, (kind, text) in enumerate(blocks):
            if k and k % per_column == 0:
                column, y = column + 1, 25.0
            x = 10 + column * (width + 10) + indent
            size, style = {"h1": (18, "B"), "h2": (14, "B"), "h3": (12, "B"),
                           "b": (10, "B"), "cap": (30, "")}.get(kind, (10, ""))
            depth = {"h1": 0, "h2": 1, "h3": 2, "b": 2}.get(kind)
            if bookmarks and depth is not None:
                size, style = 10, ""
                pdf.set_xy(x, y)
                pdf.start_section(text, level=depth)
            pdf.set_font("DejaVu", style, size)
            pdf.set_xy(x, y)
            if kind == "table":  # a dice table: its cells apart, as a PDF sets them, its head
                # in bold
                for r, row in enumerate(text):
                    pdf.set_font("DejaVu", "B" if r == 0 else "", 10)
                    for k2, cell in enumerate(row):
                        pdf.set_xy(x + 25 * k2, y)
                        pdf.cell(22, 5, cell)
                    y += 6
                continue
            if kind == "cap":  # a drop capital beside its paragraph
                pdf.cell(10, 12, text)
                indent = 10.0
                continue
            text = ("• " + text) if kind == "li" else text
            pdf.multi_cell(width - indent, size * 0.5, text, align="L")
            indent = 0.0
            y = pdf.get_y() + (4 if kind == "p" or kind == "li" else 2)
        pdf.set_font("DejaVu", "", 9)
        pdf.set_xy(10, 285)
        pdf.cell(190, 5, str(number), align="C")
    pdf.output(str(path))


RUNNING = [
    (60, "Страх", "Подразделение, которое нападает на врага, вызывающего Страх, проходит тест "
                  "на Лидерство; провалив его, оно бьёт в первом раунде боя только на 6."),
    (61, "Ужас", "Модели, вызывающие Ужас, также вызывают Страх. Подразделение, на которое "
                 "нападает такой враг, проходит тест на Панику."),
    (62, "Паника", "Подразделение проходит тест на Панику, когда рядом бежит дружественное "
                   "подразделение или когда оно теряет четверть своих моделей."),
    (63, "Бегство", "Бегущее подразделение не может стрелять и нападать; в начале своего хода "
                    "оно пытается собраться."),
]


def _running(path: Path) -> None:
    """A chapter of four pages under a running head set in a heading's type below the top
    margin ("ПСИХОЛОГИЯ", 14 points bold, a tenth of the page down: no heading of a section a
    page), a line repeated in the bottom margin ("© Games Workshop Limited 2010"), and on
    three pages a label in bold at one height under each page's own heading ("Специальные
    правила": each page's heading, not a running head)."""
    pdf = _fpdf()
    pdf.add_font("DejaVu", "", str(FONTS / "DejaVuSerif.ttf"))
    pdf.add_font("DejaVu", "B", str(FONTS / "DejaVuSerif-Bold.ttf"))
    pdf.set_auto_page_break(False)
    for k, (number, title, text) in enumerate(RUNNING):
        pdf.add_page()
        pdf.set_font("DejaVu", "B", 14)
        pdf.set_xy(10, 30)
        pdf.cell(190, 7, "ПСИХОЛОГИЯ", align="C")
        pdf.set_font("DejaVu", "B", 18)
        pdf.set_xy(10, 45)
        pdf.cell(190, 9, title)
        pdf.set_font("DejaVu", "", 10)
        pdf.set_xy(10, 58)
        pdf.multi_cell(190, 5, text, align="L")
        if k < 3:
            pdf.set_font("DejaVu", "B", 10)
            pdf.set_xy(10, 75)
            pdf.cell(190, 5, "Специальные правила")
            pdf.set_font("DejaVu", "", 10)
            pdf.set_xy(10, 82)
            pdf.multi_cell(190, 5, f"Правила раздела «{title}» действуют на всё "
                                   "подразделение, пока в нём есть хотя бы одна модель.",
                           align="L")
        pdf.set_font("DejaVu", "", 8)
        pdf.set_xy(10, 280)
        pdf.cell(190, 4, "© Games Workshop Limited 2010", align="C")
        pdf.set_xy(10, 286)
        pdf.cell(190, 4, str(number), align="C")
    pdf.output(str(path))


def _spaced(path: Path) -> None:
    """Titles set in spaced letters (a title's tracking), each over its text, and an
    alphabet's row of single letters set as words."""
    pdf = _fpdf()
    pdf.add_font("DejaVu", "", str(FONTS / "DejaVuSerif.ttf"))
    pdf.add_font("DejaVu", "B", str(FONTS / "DejaVuSerif-Bold.ttf"))
    pdf.add_page()
    for title, text in (("ФАЗА ДВИЖЕНИЯ", "Подразделения двигаются по очереди, каждое на "
                         "свою дистанцию."),
                        ("СТРЕЛЬБА", "Модели стреляют по врагу в пределах дальности оружия.")):
        pdf.set_font("DejaVu", "B", 14)
        pdf.set_char_spacing(3)
        pdf.set_x(10)
        pdf.multi_cell(0, 8, title)
        pdf.set_char_spacing(0)
        pdf.set_font("DejaVu", "", 10)
        pdf.set_x(10)
        pdf.multi_cell(0, 5, text)
    pdf.set_x(10)
    pdf.multi_cell(0, 5, "Указатель: А Б В Г Д")
    pdf.set_x(10)
    pdf.multi_cell(0, 5, "А Б В Г Д")
    pdf.output(str(path))


def _scan(path: Path) -> None:
    """A page with no text layer: a picture of a page (a grey block), as a scan gives."""
    pdf = _fpdf()
    pdf.add_page()
    pdf.set_fill_color(200, 200, 200)
    pdf.rect(20, 20, 170, 250, style="F")
    pdf.output(str(path))


def _locked(path: Path) -> None:
    pdf = _fpdf()
    pdf.add_font("DejaVu", "", str(FONTS / "DejaVuSerif.ttf"))
    pdf.set_encryption(owner_password="owner", user_password="user")
    pdf.add_page()
    pdf.set_font("DejaVu", "", 10)
    pdf.cell(100, 10, "Паника")
    pdf.output(str(path))


if __name__ == "__main__":
    _book(HERE / "whfb_psychology.pdf")
    _book(HERE / "whfb_psychology_columns.pdf", columns=2)
    _book(HERE / "whfb_psychology_bookmarks.pdf", bookmarks=True)
    _running(HERE / "whfb_running_heads.pdf")
    _spaced(HERE / "spaced_titles.pdf")
    _scan(HERE / "scan.pdf")
    _locked(HERE / "locked.pdf")
    (HERE / "not_a_pdf.pdf").write_text("Паника\n\nЭто текст, сохранённый как .pdf.\n",
                                        encoding="utf-8")
