"""The readers' limits tested below, at and above their value: the size of a list file and of
the roster inside a ``.rosz``, the length of a log's line and header, the length of a value a
message quotes, and where a message places a control character or the deepest bracket.

A limit "N bytes" lets through N bytes and refuses N + 1 (a line's end is not part of the
line). Each limit is the reader's parameter, set small here.
"""

from __future__ import annotations

import io
import json
import os
import stat
import zipfile
from pathlib import Path

import pytest

from validator.inputs.gamelog import GameLogError, read_log
from validator.inputs.lists import ListInputError, got, parse_list, read_bytes, read_list
from validator.inputs.models import InputError

DATA = Path(__file__).parent / "data"
LIST = DATA / "lists" / "ok" / "wh40k6.yaml"
ROSTER = DATA / "rosters" / "ulthwe.ros"
QUOTED = 40
"""The longest value a message quotes whole (longer ones end in «…»)."""


def _refused(call: object) -> list[InputError]:
    assert callable(call)
    with pytest.raises((ListInputError, GameLogError)) as caught:
        call()
    return list(caught.value.errors)


# --- files ----------------------------------------------------------------------------------


def test_a_list_file_of_the_limits_size(tmp_path: Path) -> None:
    size = LIST.stat().st_size
    assert read_list(LIST, max_bytes=size).units
    assert read_list(LIST, max_bytes=size + 1).units
    (error,) = _refused(lambda: read_list(LIST, max_bytes=size - 1))
    assert error.kind == "too_large"
    assert f"слишком велик: {size} байт, предел {size - 1} байт" in error.message, error


class _Growing(type(Path())):  # type: ignore[misc]
    """A file that grows after its size is taken: ``stat`` tells the size it had before."""

    def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
        real = list(super().stat(follow_symlinks=follow_symlinks))
        real[stat.ST_SIZE] = 1
        return os.stat_result(real)


def test_a_list_file_that_grows_past_the_limit_while_read(tmp_path: Path) -> None:
    """What was read decides, not the size the file had before: the limit's bytes are read,
    one more is refused."""
    data = LIST.read_bytes()
    growing = _Growing(tmp_path / "growing.yaml")
    growing.write_bytes(data)
    assert read_bytes(growing, max_bytes=len(data)) == data
    (error,) = _refused(lambda: read_bytes(growing, max_bytes=len(data) - 1))
    assert error.kind == "too_large"
    assert f"больше {len(data) - 1} байт" in error.message, error


def test_a_roster_in_a_rosz_of_the_limits_size(tmp_path: Path) -> None:
    """The ``.ros`` inside the archive counts, not the archive."""
    rosz = tmp_path / "ulthwe.rosz"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(ROSTER, "ulthwe.ros")
    rosz.write_bytes(buffer.getvalue())
    size = ROSTER.stat().st_size
    assert rosz.stat().st_size < size - 1  # the archive itself is within every limit here
    assert read_list(rosz, max_bytes=size).units
    (error,) = _refused(lambda: read_list(rosz, max_bytes=size - 1))
    assert error.kind == "too_large"


# --- a log's lines --------------------------------------------------------------------------

HEADER = {"type": "game", "system": "wh40k6", "armies": {}}


def _padded(data: dict[str, object], length: int) -> str:
    """``data`` as one JSON line of exactly ``length`` characters (ASCII), padded inside."""
    text = json.dumps(data)
    assert len(text) < length
    return text[:-1] + " " * (length - len(text)) + "}"


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_a_log_line_of_the_limits_length(end: str, tmp_path: Path) -> None:
    limit = 200
    log = tmp_path / "lines.jsonl"
    event = {"turn": 1, "phase": "movement", "action": "move", "distance": 1}
    log.write_text(json.dumps(HEADER) + end + "".join(
        _padded(event, limit + over) + end for over in (-1, 0, 1)), encoding="utf-8",
        newline="")
    items = list(read_log(log, max_line_bytes=limit).events())
    assert [(line, type(item).__name__) for line, item in items] == [
        (2, "MoveEvent"), (3, "MoveEvent"), (4, "InputError")]
    assert isinstance(items[2][1], InputError) and items[2][1].kind == "too_large"


@pytest.mark.parametrize(("over", "refused"), [(-1, False), (0, False), (1, True)])
def test_a_log_header_of_the_limits_length(over: int, refused: bool, tmp_path: Path) -> None:
    limit = 100
    log = tmp_path / "header.jsonl"
    log.write_text(_padded(HEADER, limit + over) + "\n", encoding="utf-8")
    if refused:
        (error,) = _refused(lambda: read_log(log, max_header_bytes=limit))
        assert (error.kind, error.line) == ("too_large", 1)
    else:
        assert read_log(log, max_header_bytes=limit).system == "wh40k6"


# --- what messages quote and where they point -----------------------------------------------


@pytest.mark.parametrize("length", [QUOTED - 1, QUOTED, QUOTED + 1])
def test_a_quoted_value_is_cut_past_the_limit(length: int) -> None:
    value = "я" * length
    whole = length <= QUOTED
    assert got(value) == f"получено «{value if whole else value[:QUOTED - 1] + '…'}»"
    yaml = f"system: wh40k6\nunits:\n  - {{id: a, name: b, type: c, models: !!int {value}}}\n"
    (error,) = _refused(lambda: parse_list(yaml, file="cut.yaml"))
    assert (f"«{value}»" in error.message) is whole, error.message


def test_a_control_character_at_the_very_start(tmp_path: Path) -> None:
    (error,) = _refused(lambda: parse_list("\x01system: wh40k6\n", file="start.yaml"))
    assert (error.line, error.column) == (1, 1), error


def test_too_deep_nesting_points_at_the_first_bracket_that_goes_deepest() -> None:
    """Two nestings equally deep: the parser gives up in the first, and so does the message."""
    deep = "[" * 3000 + "]" * 3000
    (error,) = _refused(lambda: parse_list(f"[{deep},\n{deep}]", file="deep.json", fmt="json"))
    assert (error.line, error.column) == (1, 3001), error


# --- small bounds of the readers ------------------------------------------------------------


@pytest.mark.parametrize(("name", "key"), [
    ("Gas", "gas"),  # three letters: a word's own s, kept
    ("Guns", "gun"),  # four: a plural s, dropped
    ("Fangs", "fang"),
])
def test_an_alias_key_drops_a_plural_s_from_four_letters_on(name: str, key: str) -> None:
    from validator.inputs.aliases import name_key

    assert name_key(name) == key


@pytest.mark.parametrize(("parts", "models"), [
    ("[{role: gun, count: 1}, {role: crew, count: 3}]", 4),  # a count of 1 counts
    ("[{role: gun}, {role: crew, count: 2}]", 3),  # 1 when left out
    ("[{role: crew, count: 1}]", 1),
])
def test_models_follow_from_parts_of_count_one(parts: str, models: int) -> None:
    army = parse_list(f"system: whfb8\nunits:\n  - {{id: u, name: Пушка, type: Боевые машины, "
                      f"parts: {parts}}}\n", file="parts.yaml")
    assert army.units[0].models == models


@pytest.mark.parametrize(("size", "text"), [
    (1024 * 1024 - 1, "1048575 байт"),
    (1024 * 1024, "1,0 МБ"),
    (10 * 1024 * 1024, "10,0 МБ"),
])
def test_a_size_in_a_message_is_in_megabytes_from_one_on(size: int, text: str) -> None:
    from validator.inputs.files import size_text

    assert size_text(size) == text


def test_cp1251_is_judged_by_its_letters_beyond_ascii() -> None:
    """ASCII (up to 0x7f, a control character included) is no evidence against cp1251; the
    first byte past it must read as Russian."""
    from validator.inputs.files import decode

    text = "system: whfb8\nname: Гномы\x7f\n"
    assert decode(text.encode("cp1251"), "list.yaml") == text
    with pytest.raises(ListInputError) as caught:
        decode(b"name: \x80\xc3\xed\xee\xec\xfb\n", "list.yaml")  # 0x80 is «Ђ», no Russian
    assert "не русский текст в cp1251" in str(caught.value)
