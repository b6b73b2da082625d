"""The letters' opinion on a text's game (ingest/detect_chars.py): its runs of characters as
scikit-learn cuts them, its table, and when the judgement asks it (only where the words leave
the game unclear and nothing says the text is another game's)."""

from __future__ import annotations

from importlib import resources

import pytest
from detect_training import learned_letters

from ingest import detect_chars
from ingest.detect import model
from ingest.detect_chars import (
    MARGIN,
    NGRAMS,
    TABLE,
    CharModel,
    char_ngrams,
    char_table,
    parse_char_table,
)
from ingest.text_identity import detect_system, detection_grounds

CLASSES = ("killteam2018", "other", "wh40k6", "whfb8")
NEUTRAL = "Эта страница о миниатюрах и красках для них."  # no game's words, no game named


def _model(lead: float, best: str = "wh40k6") -> CharModel:
    """A model whose one run, "мин" (of "миниатюрах"), puts ``best`` ``lead`` ahead."""
    weights = tuple(lead if c == best else 0.0 for c in CLASSES)
    return CharModel(CLASSES, (0.0,) * len(CLASSES), {"мин": (1.0, weights)})


@pytest.mark.parametrize("text", [
    "Ко", "Боевая единица проходит проверку на боевой дух.", "  два   пробела\nи строка\t",
    "Ёж", "X", "нападение (charge) на 2D6", "",
])
def test_runs_are_cut_as_the_trainer_cuts_them(text: str) -> None:
    from collections import Counter

    from sklearn.feature_extraction.text import TfidfVectorizer

    analyzer = TfidfVectorizer(analyzer="char_wb", ngram_range=NGRAMS).build_analyzer()
    assert char_ngrams(text) == Counter(analyzer(text))


def test_the_committed_table_is_what_the_training_pages_give() -> None:
    """The same runs, and their numbers to the table's precision (the solver's last digits may
    differ between machines: ``.venv/bin/python tests/detect_training.py`` writes it anew)."""
    committed = parse_char_table(
        resources.files("ingest").joinpath(TABLE).read_text(encoding="utf-8"))
    trained = learned_letters()
    assert committed.classes == trained.classes
    assert committed.intercepts == pytest.approx(trained.intercepts, abs=1e-4)
    assert committed.runs.keys() == trained.runs.keys(), (
        "ingest/data/system_chars.tsv is stale: run .venv/bin/python tests/detect_training.py")
    for run, (idf, weights) in trained.runs.items():
        assert committed.runs[run][0] == pytest.approx(idf, abs=1e-4), run
        assert committed.runs[run][1] == pytest.approx(weights, abs=1e-4), run


def test_a_table_reads_back_what_it_wrote() -> None:
    written = CharModel(CLASSES, (-0.5, 0.25, 0.125, -1.0),
                        {" бо": (2.5, (0.1, -0.2, 0.3, 0.0)), "ой ": (1.0, (0.0, 0.0, 1.5, -2.0))})
    assert parse_char_table(char_table(written)) == written


def test_scores_are_the_linear_models_on_unit_length_runs() -> None:
    # "мин" once in the text: tf 1, idf 1, unit length → weight × 1 + intercept
    scores = _model(0.8).scores(NEUTRAL)
    assert scores == {"killteam2018": 0.0, "other": 0.0, "wh40k6": 0.8, "whfb8": 0.0}
    assert _model(0.8).opinion(NEUTRAL) == ("wh40k6", 0.8)


@pytest.mark.parametrize(("text", "chars", "expected"), [
    (NEUTRAL, _model(MARGIN + 0.1), "wh40k6"),  # unclear by words, the letters lead enough
    (NEUTRAL, _model(MARGIN - 0.1), None),  # they do not lead enough
    (NEUTRAL, _model(2.0, best="other"), None),  # they say another game's
    # role-playing rules, another game's world or names: unclear, whatever the letters say
    ("Мастер игры ведёт персонажей игроков; опыт персонажа растёт, карьера меняется. "
     "Эта страница о миниатюрах.", _model(2.0), None),
    ("Age of Sigmar и Necromunda: эта страница о миниатюрах.", _model(2.0), None),
])
def test_the_letters_judge_only_what_the_words_leave_unclear(
        text: str, chars: CharModel, expected: str | None) -> None:
    assert model().judge(text, by_letters=False).system is None
    judged = model().judge(text, chars=chars)
    assert (judged.system, judged.letters) == (expected, expected)


def test_a_text_its_words_decide_is_not_asked_of_the_letters() -> None:
    text = ("Подразделение проходит тест на Панику, маг творит заклинание: Книга Армий, "
            "Лидерство генерала.")
    judged = model().judge(text, chars=_model(5.0, best="killteam2018"))
    assert (judged.system, judged.letters) == ("whfb8", None)


def test_a_build_says_the_letters_decided(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(detect_chars, "char_model", lambda: _model(1.0))
    assert detect_system(NEUTRAL) == "wh40k6"
    assert "решают буквосочетания слов" in detection_grounds(NEUTRAL, "wh40k6")


def test_an_unclear_text_says_where_its_letters_lean() -> None:
    judged = model().judge(NEUTRAL, chars=_model(MARGIN - 0.1))
    assert judged.system is None
    assert ("по буквосочетаниям слов ближе всего wh40k6, но отрыв 0.40 (нужно 0.50)"
            in judged.describe())
    judged = model().judge(NEUTRAL, chars=_model(2.0, best="other"))
    assert "по буквосочетаниям слов — страница другой игры" in judged.describe()
    # not asked where the words say it is another game's: nothing to say of them
    assert model().judge("Age of Sigmar и Necromunda: эта страница о миниатюрах.",
                         chars=_model(2.0)).lean is None
