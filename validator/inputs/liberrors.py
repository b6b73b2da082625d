"""The errors of the libraries that read inputs, said in Russian: PyYAML, expat (XML), zipfile.

PyYAML explains a problem in English (``problem``, with a ``context``) and, for a value its
constructor cannot build (a timestamp with month 13, ``!!int abc``), raises a bare
``ValueError`` with no position. :class:`Loader` turns the latter into a
``ConstructorError`` at the value's mark, and :func:`describe` gives the Russian text of
any of them: a pattern per message PyYAML has (scanner, parser, composer, constructor,
reader; libyaml's wording too), and for one it does not know, the English wrapped as
PyYAML's own words (:func:`kb.xml_problems.xml_problem` does the same for expat's messages,
shared with the readers of rule texts; :func:`kb.damage.damage` says what is wrong with a
damaged ``.rosz``).

Example::

    try:
        yaml.load(text, Loader)
    except yaml.YAMLError as exc:
        message, where = describe(exc)      # "табуляция в отступе …", (3, 1)
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import ConstructorError

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Loader(_Base):  # type: ignore[misc]
    """The safe loader (C-accelerated when available); a value that cannot be constructed is
    a :class:`yaml.constructor.ConstructorError` at that value, never a bare ``ValueError``."""

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except Exception as exc:
            # PyYAML's scalar constructors fail with whatever Python raises on a bad value
            # (ValueError, IndexError on an empty «!!int», OverflowError …)
            if isinstance(exc, yaml.YAMLError | RecursionError):
                raise
            if "digits" in str(exc):  # Python's limit on the length of an int's text
                raise ConstructorError(None, None, "number too long", node.start_mark) from None
            value = node.value if isinstance(node.value, str) else ""
            value = value if len(value) <= 40 else value[:39] + "…"
            raise ConstructorError(None, None, f"bad value {node.tag} «{value}»",
                                   node.start_mark) from None


def _tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


_KIND_NAMES = {
    "!!int": "целое число", "!!float": "число", "!!bool": "логическое значение",
    "!!timestamp": "дата", "!!binary": "двоичные данные base64", "!!null": "пустое значение",
}

# (pattern over PyYAML's problem text, Russian: {1}, {2} … are the pattern's groups, {tag}
# the first group as a short tag, {kind} what that tag stands for)
_PROBLEMS: tuple[tuple[str, str], ...] = (
    (r"bad value (\S+) (.*)", "значение {2} не читается как {kind}"),
    (r"number too long", "слишком длинное число (больше 4300 цифр)"),
    (r"exceeded maximum nesting depth", "слишком глубокая вложенность"),
    (r"could not determine a constructor for the tag ['\"](.*)['\"]$",
     "тег «{tag}» не поддерживается: в списке допустимы только обычные значения YAML "
     "(строки, числа, списки, словари)"),
    (r"could not find expected ':'", "не найдено ожидаемое «:»"),
    (r"mapping values are not allowed", "здесь не может стоять «:» (неверный отступ или "
     "значение с двоеточием без кавычек)"),
    (r"mapping keys are not allowed (?:here|in this context)",
     "здесь не может стоять ключ словаря (неверный отступ?)"),
    (r"sequence entries are not allowed (?:here|in this context)",
     "здесь не может стоять элемент списка «-» (неверный отступ?)"),
    (r"found character '\\t' that cannot start any token", "табуляция вместо пробелов"),
    (r"found a tab character (?:that violates indentation|where an indentation space is "
     r"expected)", "табуляция в отступе (отступы — только пробелами)"),
    (r"found character (.*) that cannot start any token", "символ {1}, с которого не может "
     "начинаться значение (возьмите значение в кавычки)"),
    (r"found character that cannot start any token", "символ, с которого не может "
     "начинаться значение"),
    (r"did not find expected key", "не найден ожидаемый ключ (неверный отступ?)"),
    (r"did not find expected '-' indicator", "не найден ожидаемый «-» (неверный отступ в "
     "списке?)"),
    (r"did not find expected ',' or '\]'|expected ',' or '\]'", "не найдено ожидаемое «,» "
     "или «]»"),
    (r"did not find expected ',' or '\}'|expected ',' or '\}'", "не найдено ожидаемое «,» "
     "или «}»"),
    (r"did not find expected node content|expected the node content", "не найдено ожидаемое "
     "значение"),
    (r"did not find expected comment or line break|expected a comment or a line break",
     "после значения ожидался конец строки или комментарий"),
    (r"found unexpected end of stream", "файл оборвался посреди значения"),
    (r"found unexpected ':'", "неожиданное «:»"),
    (r"expected <block end>", "неверный отступ"),
    (r"expected <document start>", "лишнее после конца документа (неверный отступ?)"),
    (r"found undefined alias", "ссылка на неопределённый якорь"),
    (r"found duplicate anchor|second occurrence", "якорь объявлен дважды"),
    (r"found unhashable key", "ключом словаря может быть только строка"),
    (r"found unconstructable recursive node", "значение ссылается само на себя (рекурсивный "
     "якорь)"),
    (r"but found another document|expected a single document", "в файле больше одного "
     "документа YAML"),
    (r"found unexpected document (?:separator|indicator)", "разделитель документов внутри строки в "
     "кавычках"),
    (r"found unknown escape character", "недопустимая escape-последовательность (в двойных "
     "кавычках обратная косая черта пишется как \\\\)"),
    (r"found invalid Unicode character escape code", "недопустимый код символа в escape-"
     "последовательности (половина суррогатной пары UTF-16 или код больше U+10FFFF)"),
    (r"expected escape sequence of \d+ hexadecimal numbers|did not find expected hexdecimal "
     r"number", "недопустимая escape-"
     "последовательность: ожидались шестнадцатеричные цифры"),
    (r"expected alphabetic or numeric character", "после «&» или «*» ожидалось имя якоря "
     "из букв и цифр"),
    (r"expected chomping or indentation indicators|expected indentation indicator|found an "
     r"indentation indicator equal to 0",
     "после «|» или «>» допустимы только «+», «-» и цифра отступа от 1 до 9"),
    (r"expected a mapping or list of mappings for merging|expected a mapping for merging",
     "после «<<» ожидался словарь или список словарей"),
    (r"expected a (mapping|sequence|scalar) node|expected a (?:mapping|sequence)",
     "значение не того вида для этого тега"),
    (r"found undefined tag handle|expected '!'|expected '>'|expected URI|expected non-empty "
     r"name appended to the tag|found non-specific tag|did not find URI escaped octet|"
     r"did not find expected tag URI", "неверный тег"),
    (r"did not find expected whitespace or line break", "после тега ожидался пробел или "
     "конец строки"),
    (r"found duplicate (?:YAML directive|tag handle|%YAML directive|%TAG directive)|found "
     r"incompatible YAML document|expected a digit|expected ' '|expected a digit or|"
     r"could not find expected directive name|found unexpected non-alphabetical character|"
     r"found unknown directive name", "неверная директива YAML «%…»"),
    (r"failed to (?:decode|convert) base64", "двоичные данные base64 не читаются"),
    (r"invalid indentation or unclosed '\[' or '\{'", "неверный отступ или не закрыта «[» "
     "или «{»"),
)


def _russian(problem: str) -> str | None:
    for pattern, russian in _PROBLEMS:
        match = re.search(pattern, problem)
        if match is None:
            continue
        groups = [g or "" for g in match.groups()]
        tag = _tag(groups[0]) if groups else ""
        out = russian.replace("{kind}", _KIND_NAMES.get(tag, f"значение с тегом «{tag}»"))
        out = out.replace("{tag}", tag)
        for index, group in enumerate(groups, 1):
            out = out.replace(f"{{{index}}}", group)
        return out
    return None


def describe(exc: yaml.YAMLError, text: str | None = None,
             ) -> tuple[str, tuple[int, int] | None]:
    """The Russian text of a YAML error and its 1-based (line, column), when known (a
    reader's error gives an offset into ``text``).

    >>> describe(yaml.YAMLError("something new"))[0]
    'сообщение PyYAML: something new'
    """
    if isinstance(exc, yaml.reader.ReaderError):
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        where = None
        position = exc.position
        if text is not None and _Base is not yaml.SafeLoader:  # libyaml counts UTF-8 bytes
            position = len(text.encode("utf-8", "surrogatepass")[:position].decode(
                "utf-8", "ignore"))
        if text is not None and 0 <= position <= len(text):
            line = text.count("\n", 0, position) + 1
            where = (line, position - (text.rfind("\n", 0, position) + 1) + 1)
        return (f"недопустимый символ U+{code:04X} (управляющие символы в YAML запрещены)",
                where)
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else None
        for text in (exc.problem or "", exc.context or ""):
            russian = _russian(text)
            if russian is not None:
                return russian, where
        english = " ".join(t for t in (exc.context, exc.problem) if t)
        return f"сообщение PyYAML: {english}", where
    return f"сообщение PyYAML: {' '.join(str(exc).split())}", None


# --- tomllib --------------------------------------------------------------------------------

_TOML_PROBLEMS: tuple[tuple[str, str], ...] = (
    (r"Cannot declare (.*) twice", "{1} объявлено дважды"),
    (r"Cannot mutate immutable namespace (.*)", "таблицу {1} нельзя дополнять"),
    (r"Cannot overwrite a value", "значение нельзя переопределить"),
    (r"Cannot redefine namespace (.*)", "таблицу {1} нельзя объявить заново"),
    (r"Duplicate inline table key (.*)", "ключ {1} повторяется"),
    (r"Escaped character is not a Unicode scalar value", "недопустимый код символа"),
    (r"Expected '=' after a key", "после ключа ожидалось «=»"),
    (r"Expected '\]' at the end of a table declaration", "ожидалась «]» в конце имени таблицы"),
    (r"Expected '\]\]' at the end of an array declaration", "ожидалось «]]» в конце имени"),
    (r"Expected (.*)", "ожидалось {1}"),
    (r"Found invalid character (.*)", "недопустимый символ {1}"),
    (r"Illegal character (.*)", "недопустимый символ {1}"),
    (r"Invalid date or datetime", "неверная дата"),
    (r"Invalid hex value", "неверное шестнадцатеричное значение"),
    (r"Invalid initial character for a key part", "недопустимый первый символ ключа"),
    (r"Invalid statement", "неверная строка (ожидалось «ключ = значение» или «[таблица]»)"),
    (r"Invalid value", "неверное значение (строку берите в кавычки)"),
    (r"Unclosed array", "не закрыт список «[»"),
    (r"Unclosed inline table", "не закрыта таблица «{»"),
    (r"Unescaped '\\\\' in a string", "обратная косая черта в строке не экранирована"),
    (r"Unterminated string", "незакрытая строка"),
)


def toml_problem(exc: ValueError) -> tuple[str, tuple[int, int] | None]:
    """The Russian of a :class:`tomllib.TOMLDecodeError` and its (line, column).

    >>> toml_problem(ValueError("Invalid value (at line 1, column 5)"))
    ('неверное значение (строку берите в кавычки)', (1, 5))
    """
    text = str(exc)
    where = None
    found = re.search(r" \(at line (\d+), column (\d+)\)$", text)
    if found is not None:
        where = (int(found.group(1)), int(found.group(2)))
        text = text[:found.start()]
    elif text.endswith(" (at end of document)"):
        text = text.removesuffix(" (at end of document)")
    for pattern, russian in _TOML_PROBLEMS:
        match = re.fullmatch(pattern, text)
        if match is not None:
            out = russian
            for index, group in enumerate(match.groups(), 1):
                out = out.replace(f"{{{index}}}", f"«{group.strip(chr(39))}»")
            return out, where
    return f"сообщение tomllib: {text}", where
