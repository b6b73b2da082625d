"""Stage 1, load: decoding, refusals, game system detection and corpus.toml overrides."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from ingest.build import build, no_system_reason
from ingest.clean import clean
from ingest.game_names import path_game
from ingest.load import BINARY, LoadError, load, load_file
from ingest.text_identity import DETECT_FIRST, describe_evidence, detect_system

DATA = Path(__file__).parent / "data" / "load"
CORPUS = Path("/work/shared/corpus")
EXPECTED = ("ожидался текст правил в кодировке UTF-8 (с BOM или без), cp1251, KOI8-R, CP866 "
            "или UTF-16/UTF-32 с BOM")


def detect_cases() -> list[Any]:
    table = tomllib.loads((DATA / "detect.toml").read_text(encoding="utf-8"))
    return [
        pytest.param(case["text"], case["system"] or None, id=case["name"])
        for case in table["case"]
    ]


@pytest.mark.parametrize(("text", "system"), detect_cases())
def test_detect_system(text: str, system: str | None) -> None:
    assert detect_system(text) == system


def path_cases() -> list[Any]:
    return [pytest.param(case["path"], case["game"] or None, id=case["path"])
            for name in ("path_names.toml", "path_names_real.toml")
            for case in tomllib.loads((DATA / name).read_text(encoding="utf-8"))["case"]]


@pytest.mark.parametrize(("path", "game"), path_cases())
def test_the_game_a_path_names(path: str, game: str | None) -> None:
    assert path_game(path) == game


UNCLEAR = "Движение\n\nМодель может двигаться на расстояние до 6 дюймов в свой ход.\n"
"""A text whose words fit every game alike (its system unclear by them)."""


def test_a_text_its_words_leave_unclear_takes_the_game_its_path_names(tmp_path: Path) -> None:
    for folder in ("Kill Team", "whfb8", "necromunda", "notes"):
        (tmp_path / "rules" / folder).mkdir(parents=True)
        (tmp_path / "rules" / folder / f"{folder}_move.txt").write_text(UNCLEAR, encoding="utf-8")
    assert detect_system(UNCLEAR) is None
    assert [(t.name, t.system, t.system_from) for t in load([tmp_path / "rules"])] == [
        ("Kill Team_move.txt", "killteam2018", "path"), ("necromunda_move.txt", None, None),
        ("notes_move.txt", None, None), ("whfb8_move.txt", "whfb8", "path")]
    # the folder given names the game too, and a file given alone is named with its folder
    assert [t.system for t in load([tmp_path / "rules" / "whfb8"])] == ["whfb8"]
    assert [t.system for t in load([tmp_path / "rules" / "notes" / "notes_move.txt"])] == [None]
    assert [t.system for t in load([tmp_path / "rules" / "whfb8" / "whfb8_move.txt"])] == ["whfb8"]
    # the measures of the detection go by the words alone
    assert {t.system for t in load([tmp_path / "rules"], by_path=False)} == {None}


def test_what_the_words_of_a_text_left_unclear_say_is_kept_for_its_messages(
        tmp_path: Path) -> None:
    """The detection's grounds of a text it leaves unclear go with the text (one judgement,
    shared by the processes that judged it), and the message that skips it is the one a
    second judgement would give."""
    for name, text in (("move.txt", UNCLEAR), ("long.txt", UNCLEAR * 400),
                       ("panic.txt", "Паника\n\nПодразделение проходит тест на Панику по "
                                     "Лидерству генерала; Книга Армий, маг творит заклинание.\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    texts = {t.name: t for t in load([tmp_path], jobs=2)}
    assert len(texts["long.txt"].text) > DETECT_FIRST  # (judged by its first part, then more)
    assert texts["panic.txt"].system == "whfb8" and texts["panic.txt"].undetected is None
    for name in ("move.txt", "long.txt"):
        text = texts[name]
        assert text.system is None and text.undetected == describe_evidence(text.text)
        assert no_system_reason(text.text, text.named_path, text.undetected) \
            == no_system_reason(text.text, text.named_path)
    skipped = dict(build(list(texts.values())).skipped)
    assert skipped["move.txt"] == no_system_reason(UNCLEAR, "move.txt")


def test_a_link_is_named_by_its_own_name(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "move.txt").write_text(UNCLEAR, encoding="utf-8")
    (tmp_path / "Kill Team").symlink_to(tmp_path / "pages", target_is_directory=True)
    assert [(t.system, t.system_from) for t in load([tmp_path / "Kill Team"])] == [
        ("killteam2018", "path")]
    assert [t.system for t in load([tmp_path / "pages"])] == [None]


def test_a_path_never_outweighs_the_words(tmp_path: Path) -> None:
    (tmp_path / "whfb").mkdir()
    words = tomllib.loads((DATA / "detect.toml").read_text(encoding="utf-8"))["case"][0]
    assert words["system"] == "wh40k6"
    (tmp_path / "whfb" / "page.txt").write_text(words["text"], encoding="utf-8")
    assert [(t.system, t.system_from) for t in load([tmp_path / "whfb"])] == [
        ("wh40k6", "detected")]


def test_a_long_text_is_read_past_its_first_pages_only_when_they_are_unclear() -> None:
    cases = {case["name"]: case["text"] for case in
             tomllib.loads((DATA / "detect.toml").read_text(encoding="utf-8"))["case"]}
    kill_team = cases["Kill Team by its words, with the English glosses of its terms"]
    whfb = cases["WHFB by its words: units, panic, spells"]
    filler = "Обычный текст без слов игры. " * 1_000  # 29,000 characters, no system's word
    assert detect_system(filler + kill_team) == "killteam2018"
    assert detect_system(whfb * 60 + kill_team * 20) == "whfb8"  # decided by the first pages


def test_corpus_folder_loads_with_detected_systems() -> None:
    texts = load([CORPUS])
    assert [(t.name, t.system, t.system_from, t.encoding) for t in texts] == [
        ("000_622e076ea61e0607.txt", "wh40k6", "detected", "utf-8"),
        ("001_ba20f991b5661e29.txt", "whfb8", "detected", "utf-8"),
        ("002_92d28caaab3bc019.txt", "whfb8", "detected", "utf-8"),
        ("003_0507bc63355ee559.txt", "killteam2018", "detected", "utf-8"),
        ("004_d2d0171a53cebe38.txt", "whfb8", "detected", "utf-8"),
    ]
    assert texts[1].path == str(CORPUS / "001_ba20f991b5661e29.txt")
    assert texts[1].text.startswith("Отработка таранных попаданий\n")
    assert len(texts[0].text) == 17330


def test_a_single_path_may_be_given_as_a_string() -> None:
    (text,) = load(str(CORPUS / "003_0507bc63355ee559.txt"))
    assert text.system == "killteam2018"


def test_utf8_bom_is_not_part_of_the_text() -> None:
    text = load_file(DATA / "bom.txt")
    assert text.encoding == "utf-8-sig"
    assert text.text == "Каждая миссия Kill Team разыгрывается в серии боевых раундов.\n"
    assert (text.system, text.system_from) == ("killteam2018", "detected")


_OLD_RUSSIAN = ("Паника\n\nПодразделение, потерявшее за фазу 25% моделей, проходит тест на "
                "Панику. Если тест провален, подразделение бежит от ближайшего врага.\n")


@pytest.mark.parametrize(("text", "encoding", "read_as"), [
    (_OLD_RUSSIAN, "cp1251", "cp1251"),
    (_OLD_RUSSIAN, "koi8-r", "koi8-r"),  # old Unix texts and mail
    (_OLD_RUSSIAN, "cp866", "cp866"),  # DOS
    (_OLD_RUSSIAN.upper(), "cp1251", "cp1251"),  # capitals alone: their letters tell too
    ("ПАНИКА\n", "cp1251", "cp1251"),  # a line too short to tell: cp1251, the likeliest
])
def test_one_byte_russian_encodings(tmp_path: Path, text: str, encoding: str,
                                    read_as: str) -> None:
    """A text in KOI8-R or CP866 reads as Russian; cp1251 read each as Cyrillic letters
    (KOI8-R's with their cases swapped), so the reading whose letters are Russian's most
    frequent is taken."""
    path = tmp_path / "rules.txt"
    path.write_bytes(text.encode(encoding))
    source = load_file(path)
    assert source.encoding == read_as
    assert source.text == text.encode(encoding).decode(read_as)
    if read_as == encoding:
        assert source.text == text


def test_cp1251_file(tmp_path: Path) -> None:
    body = "Подразделение Генерала проходит тест на Панику, магический спас бросок.\nСтраница 66\n"
    path = tmp_path / "whfb.txt"
    path.write_bytes(body.encode("cp1251"))
    text = load_file(path)
    assert (text.text, text.encoding, text.system) == (body, "cp1251", "whfb8")
    cleaned = clean(text)
    assert cleaned.text == "Подразделение Генерала проходит тест на Панику, магический спас бросок."
    assert [(p.first, p.last, p.at) for p in cleaned.pages] == [(66, 66, len(cleaned.text))]


def test_english_text_has_no_system(tmp_path: Path) -> None:
    path = tmp_path / "english.txt"
    path.write_text("Roll a dice, move the model and shoot the enemy.\n", encoding="utf-8")
    text = load_file(path)
    assert (text.system, text.system_from, text.encoding) == (None, None, "utf-8")


def test_english_text_is_of_the_game_it_names(tmp_path: Path) -> None:
    """A quotation of the original rulebook with no Russian word: its words decide nothing
    (English stands in the training only as what Russian pages quote), the game it names
    does."""
    path = tmp_path / "english.txt"
    path.write_text("Units\nWarriors band together to fight in squads. In Warhammer 40,000, we "
                    "represent this by grouping models together into units. Roll a dice, move "
                    "the model and shoot the enemy.\n", encoding="utf-8")
    assert load_file(path).system == "wh40k6"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"", "файл пуст", id="empty"),
        pytest.param(b" \n\t\r\n", "файл пуст", id="whitespace only"),
        pytest.param(b"\xef\xbb\xbf\n", "файл пуст", id="BOM only"),
        pytest.param(
            b"PK\x03\x04\x00\x00binary", "двоичный файл (есть нулевые байты), а не текст", id="NUL"
        ),
        pytest.param(
            bytes(range(1, 32)) * 20 + "немного текста".encode(),
            "двоичный файл (много управляющих символов), а не текст",
            id="control characters",
        ),
        pytest.param(
            "Téléchargez le fichier, écrit en français".encode("latin-1"),
            "кодировка не распознана: не UTF-8, а в cp1251 текст не русский "
            "(кириллица — 4 из 35 букв)",
            id="latin-1",
        ),
        pytest.param(
            b"\x98\x98 \xd2\xe5\xea\xf1\xf2",
            "кодировка не распознана (не UTF-8 и ни cp1251, ни KOI8-R, ни CP866)",
            id="neither encoding",
        ),
        pytest.param(b"\xff\xfe\x1f\x04\x1f", "файл начинается с метки UTF-16 (BOM), но байт 4 "
                     "не UTF-16", id="UTF-16 cut in a character"),
        pytest.param(b"\xfe\xff\xd8\x00\x00\x41", "файл начинается с метки UTF-16 (BOM), но "
                     "байт 2 не UTF-16", id="UTF-16 with a lone surrogate"),
        pytest.param(b"\xff\xfe\x00\x00\x00\x00\x11\x00", "файл начинается с метки UTF-32 "
                     "(BOM), но байт 4 не UTF-32", id="UTF-32 beyond Unicode"),
        pytest.param(b"\xff\xfe \x00\n\x00", "файл пуст", id="UTF-16 whitespace only"),
        pytest.param(("\ufeff" + "".join(map(chr, range(1, 32))) * 4).encode("utf-16-le"), BINARY,
                     id="UTF-16 control characters"),
    ],
)
def test_unreadable_files_are_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(LoadError) as error:
        load_file(path)
    assert str(error.value) == f"{path}: {message}; {EXPECTED}"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_with_a_byte_order_mark_are_read(tmp_path: Path, encoding: str) -> None:
    """Windows Notepad saves "Unicode" as UTF-16 with its byte order mark: read as such, the
    mark dropped, every offset counting characters as for any other text."""
    text = "Паника\n\nПодразделение проходит тест на Панику, «Лидерство» 7.\n"
    path = tmp_path / "rules.txt"
    path.write_bytes(("\ufeff" + text).encode(encoding))
    loaded = load_file(path)
    assert (loaded.text, loaded.encoding) == (text, encoding)


def test_empty_data_file_is_refused() -> None:
    with pytest.raises(LoadError, match="empty.txt: файл пуст"):
        load([DATA / "empty.txt"])


def test_folder_without_texts_is_refused(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("Описание", encoding="utf-8")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    with pytest.raises(LoadError) as error:
        load([tmp_path])
    assert str(error.value) == (
        f"{tmp_path}: в папке нет текстов правил (ожидались файлы *.txt, *.md, *.html, *.mht, "
        "*.pdf, *.docx, *.doc, *.rtf, *.odt, *.fb2 или *.epub)")


def test_missing_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as error:
        load([tmp_path / "nope.txt"])
    assert str(error.value) == f"{tmp_path / 'nope.txt'}: нет такого файла или папки"


def test_corpus_toml_states_the_systems() -> None:
    texts = load([DATA / "override"])
    assert [(t.name, t.system, t.system_from) for t in texts] == [
        ("a.txt", "wh40k6", "corpus.toml"),
        ("b.txt", "whfb8", "corpus.toml"),
    ]
    assert load_file(DATA / "override" / "b.txt").system == "whfb8"


def test_corpus_yaml_states_the_systems() -> None:
    (text,) = load([DATA / "yaml"])
    assert (text.name, text.system, text.system_from) == ("rules.md", "killteam2018", "corpus.yaml")


def test_corpus_toml_overrides_detection_in_a_copy_of_the_corpus(tmp_path: Path) -> None:
    for name in ("000_622e076ea61e0607.txt", "003_0507bc63355ee559.txt"):
        shutil.copy(CORPUS / name, tmp_path / name)
    (tmp_path / "corpus.toml").write_text(
        '[files."003_0507bc63355ee559.txt"]\nsystem = "WH40K6"\n', encoding="utf-8"
    )
    texts = load([tmp_path])
    assert [(t.system, t.system_from) for t in texts] == [
        ("wh40k6", "detected"),
        ("wh40k6", "corpus.toml"),
    ]


def test_unknown_system_in_corpus_toml_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Текст правил.", encoding="utf-8")
    (tmp_path / "corpus.toml").write_text(
        '[files."a.txt"]\nsystem = "wh40k9"\n', encoding="utf-8"
    )
    with pytest.raises(LoadError) as error:
        load([tmp_path])
    assert str(error.value) == (
        f"{tmp_path / 'corpus.toml'}: неизвестная игровая система «wh40k9» для файла «a.txt»; "
        "известны: wh40k6, whfb8, killteam2018"
    )


def test_broken_corpus_toml_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Текст правил.", encoding="utf-8")
    (tmp_path / "corpus.toml").write_text("system = ", encoding="utf-8")
    with pytest.raises(LoadError, match="не удалось прочитать описание корпуса"):
        load([tmp_path])


@pytest.mark.parametrize(("name", "content", "why"), [
    ("corpus.toml", 'system = "whfb8"\n[files\n',
     "ошибка синтаксиса TOML в строке 2, столбце 7 (Expected ']' at the end of a table "
     "declaration)"),
    ("corpus.toml", "system = ", "ошибка синтаксиса TOML в конце файла (Invalid value)"),
    ("corpus.yaml", "system: [whfb8\n",
     "ошибка синтаксиса YAML в строке 2, столбце 1 (expected ',' or ']', but got '<stream "
     "end>')"),
    # (what the parsers fail with outside their syntax errors: a fuzzing of the readers)
    ("corpus.toml", "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
     "значения вложены друг в друга на тысячи уровней (ожидались ключи system, title и files)"),
    ("corpus.yaml", "x: " + "[" * 100_000 + "]" * 100_000 + "\n",
     "значения вложены друг в друга на тысячи уровней (ожидались ключи system, title и files)"),
    ("corpus.toml", "x = " + "9" * 5000 + "\n", "слишком длинное число (больше 4300 цифр)"),
    ("corpus.toml", 'system = "whfb8"\na' + ".a" * 100_000 + " = 1\n",
     "в строке 2 ключ из более чем 64 частей через точку (ожидались ключи system, title и "
     "files)"),
])
def test_a_broken_corpus_description_is_reported_once_and_each_file_accounted_for(
        tmp_path: Path, name: str, content: str, why: str) -> None:
    """Where the description fails, in Russian, once; then each file of its folder, by its
    own path, skipped for it (the files of other folders are read)."""
    (tmp_path / "book").mkdir()
    for file in ("a.txt", "b.txt"):
        (tmp_path / "book" / file).write_text("Текст правил.", encoding="utf-8")
    (tmp_path / "book" / name).write_text(content, encoding="utf-8")
    shutil.copy(CORPUS / "004_d2d0171a53cebe38.txt", tmp_path)
    errors: list[LoadError] = []
    texts = load([tmp_path], on_error=errors.append)
    assert [t.name for t in texts] == ["004_d2d0171a53cebe38.txt"]
    description = tmp_path / "book" / name
    assert [str(e) for e in errors] == [
        f"{description}: не удалось прочитать описание корпуса: {why}",
        f"{tmp_path / 'book' / 'a.txt'}: не прочитан: описание корпуса {description} не читается",
        f"{tmp_path / 'book' / 'b.txt'}: не прочитан: описание корпуса {description} не читается",
    ]


def test_two_files_with_one_name_are_refused(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    shutil.copy(CORPUS / "004_d2d0171a53cebe38.txt", tmp_path / "x")
    with pytest.raises(LoadError, match="уже прочитан"):
        load([CORPUS, tmp_path / "x"])


def test_one_megabyte_single_line_loads_and_cleans(tmp_path: Path) -> None:
    paragraph = (
        "сТРЕЛьБА Мотоциклы и гравициклы передвигают- ся на 3D6\" при отступлении, а не на "
        "2D6\" как многие другие. При турбо-ускорении гравициклы передвигаются на 24\". "
    )
    path = tmp_path / "big.txt"
    path.write_text(paragraph * (1_000_000 // len(paragraph) + 1), encoding="utf-8")
    # its speed is benchmarks/ingest_shapes.py's «one huge line», never a timed test
    cleaned = clean(load_file(path))
    assert len(cleaned.text) > 900_000
    assert cleaned.text.startswith("СТРЕЛЬБА Мотоциклы и гравициклы передвигаются на 3D6\"")
    assert "передвигают-" not in cleaned.text


def test_a_folder_gives_the_texts_of_its_folders_too(tmp_path: Path) -> None:
    """A folder of sets ("40k/", "fb/"): its own texts first, then each folder's by name, each
    with its own corpus.toml; hidden folders are left out."""
    (tmp_path / "top.txt").write_text("Паника\nПодразделение проходит тест на панику.",
                                      encoding="utf-8")
    for name, system in (("b_fb", "whfb8"), ("a_40k", "wh40k6")):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.txt").write_text("Стрельба\nМодели стреляют.",
                                                     encoding="utf-8")
        (tmp_path / name / "corpus.toml").write_text(f'system = "{system}"\n', encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.txt").write_text("Стрельба\nМодели стреляют.", encoding="utf-8")
    texts = load([tmp_path], on_error=lambda error: None)
    assert [(t.name, t.system) for t in texts][1:] == [("a_40k.txt", "wh40k6"),
                                                       ("b_fb.txt", "whfb8")]
    assert texts[0].name == "top.txt"


def test_a_link_back_to_a_folder_above_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Паника\nПодразделение проходит тест на панику.",
                                    encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path, target_is_directory=True)
    assert [t.name for t in load([tmp_path], on_error=lambda error: None)] == ["a.txt"]


def test_an_unreadable_folder_is_refused_by_name(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.txt").write_text("Паника\nПодразделение проходит тест на панику.",
                                    encoding="utf-8")
    (tmp_path / "locked").mkdir()
    real_iterdir = Path.iterdir

    def iterdir(self: Path):  # type: ignore[no-untyped-def]
        if self.name == "locked":
            raise PermissionError(13, "Permission denied")
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    with pytest.raises(LoadError, match="locked: папку нельзя прочитать"):
        load([tmp_path])


def test_a_text_quoting_a_few_tags_is_text(tmp_path: Path) -> None:
    """A forum's copy with a leftover "<br>" or a "<b>" is text, not a web page."""
    path = tmp_path / "post.txt"
    path.write_text("Паника<br>\nПодразделение проходит <b>тест на Панику</b>, если потеряло "
                    "четверть моделей.\n" * 3, encoding="utf-8")
    assert "тест на Панику" in load_file(path).text


def test_a_corpus_description_naming_no_file_of_its_folder_is_reported(tmp_path: Path) -> None:
    """A name that stands in ``corpus.toml`` for no text of its folder (a typo: "a.tx") is
    reported, and the folder's texts are read; read alone, a file of the folder is no reason
    to report the others' names."""
    (tmp_path / "a.txt").write_text("Текст правил.", encoding="utf-8")
    (tmp_path / "rules.xlsx").write_bytes(b"PK\x03\x04")
    (tmp_path / "corpus.toml").write_text(
        '[files]\n"a.txt" = "whfb8"\n"a.tx" = "wh40k6"\n"rules.xlsx" = "wh40k6"\n',
        encoding="utf-8")
    errors: list[LoadError] = []
    texts = load([tmp_path], on_error=errors.append)
    assert [(t.name, t.system) for t in texts] == [("a.txt", "whfb8")]
    description = tmp_path / "corpus.toml"
    assert [str(e) for e in errors] == [
        f"{description}: файл «{name}» из описания корпуса не найден среди текстов папки "
        f"{tmp_path} (*.txt, *.md, *.html, *.mht, *.pdf, *.docx, *.doc, *.rtf, *.odt, *.fb2, "
        "*.epub); "
        "проверьте имя"
        for name in ("a.tx", "rules.xlsx")]
    errors.clear()
    load([tmp_path / "a.txt"], on_error=errors.append)
    assert errors == []


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(
            "<!DOCTYPE html>\n<html><head><title>Паника</title></head><body><h1>Паника</h1>"
            "<p>Подразделение проходит тест на Панику.</p></body></html>", id="an HTML page"),
        pytest.param("".join(f"<div class=\"post\"><p>Ответ {i}: <b>да</b></p></div>\n"
                             for i in range(30)), id="a fragment of HTML, dense with tags"),
    ],
)
def test_a_web_page_saved_as_html_is_read_as_it_stands(tmp_path: Path, content: str) -> None:
    """A web page's markup is read (the cleaning stage takes its text out of it,
    ``tests/test_html.py``), not refused: the source text is the file as it stands."""
    path = tmp_path / "page.html"
    path.write_text(content, encoding="utf-8")
    assert load_file(path).text == content


def test_a_folder_gives_its_html_pages(tmp_path: Path) -> None:
    """A folder's ``*.html`` and ``*.htm`` files are among its texts, beside ``*.txt``."""
    for name in ("a.txt", "b.html", "c.htm", "d.css"):
        (tmp_path / name).write_text("<p>Подразделение проходит тест на Панику.</p>\n",
                                     encoding="utf-8")
    assert [t.name for t in load([tmp_path], system="whfb8")] == ["a.txt", "b.html", "c.htm"]


def test_the_folder_a_browser_saves_beside_a_page_is_no_rule_text(tmp_path: Path) -> None:
    """"Save page as… → complete" writes "Паника.html" and "Паника_files/" (frames' pages,
    styles, pictures): the folder is the page's, not a set of texts; a folder of that name
    beside no page is read as any folder."""
    (tmp_path / "Паника.html").write_text("<html><body><p>Тест на Панику.</p></body></html>",
                                          encoding="utf-8")
    for folder in ("Паника_files", "Ужас_files"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "saved_resource.html").write_text(
            "<html><body><p>Реклама</p></body></html>", encoding="utf-8")
    texts = load([tmp_path], system="whfb8")
    assert [t.path for t in texts] == [str(tmp_path / "Паника.html"),
                                       str(tmp_path / "Ужас_files" / "saved_resource.html")]


@pytest.mark.parametrize(("name", "message"), [
    ("scan.DJV", "скан в DjVu не читается: распознайте текст (OCR)"),
    ("scan.djvu", "скан в DjVu не читается: распознайте текст (OCR)"),
])
def test_a_document_of_a_kind_not_read_is_reported_not_passed_over(
        tmp_path: Path, name: str, message: str) -> None:
    """A folder's document of a kind rulebooks come in that rulekb does not read is reported
    with what to do, and the folder's texts are read; given by name, the same."""
    (tmp_path / "a.txt").write_text("Подразделение проходит тест на Панику.", encoding="utf-8")
    (tmp_path / name).write_bytes(b"\xd0\xcf\x11\xe0 not read")
    (tmp_path / "picture.png").write_bytes(b"\x89PNG")  # (no document: passed over)
    errors: list[LoadError] = []
    texts = load([tmp_path], on_error=errors.append)
    assert [t.name for t in texts] == ["a.txt"]
    assert len(errors) == 1 and str(errors[0]).startswith(f"{tmp_path / name}: {message}")
    with pytest.raises(LoadError, match=re.escape(message)):
        load([tmp_path / name])
