"""Wrong input to the tools' API and to ``render``/``bank query`` is a project error that
says what was wrong, never a raw exception; what the rest of the API takes is taken.

* ``certify``, ``certify_to``, ``render_puzzle`` and ``render_book`` take a puzzle
  line (any :data:`csp_sudoku.api.PuzzleLike`) as ``solve`` does; anything else is
  an ``ArgumentError`` naming the argument (it was an ``AttributeError``).
* ``write_puzzles(None, path)`` and a bank's ``add_ratings([(1, None)])`` are
  ``ArgumentError`` s (they were ``TypeError`` and ``AttributeError``).
* ``render_book(per_page=0)`` is refused (it meant the default), as are other
  values outside 1..12 and non-integers (``2.5`` was a ``TypeError``).
* A ``--caption`` field is a name (with ``[key]`` into a mapping field): attribute
  access reached into the values (``{n.__class__}`` printed ``<class 'int'>``).
* ``bank query --metric M --level L`` for a metric without levels says so and
  points to the score range (it said ``known:`` and nothing after it).
"""

from __future__ import annotations

import math
import string
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from csp_sudoku.cli import main
from csp_sudoku.core.errors import ArgumentError, BankError, RenderError
from csp_sudoku.core.io import parse_line, write_puzzles
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.bank import BankQuery, PuzzleBank
from csp_sudoku.tools.certify import certify, certify_to
from tests.conftest import load_lines

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

#: What is no puzzle, as a puzzle argument: each was an AttributeError or TypeError.
NOT_PUZZLES: list[Any] = [None, 5, 2.5, object(), {"puzzle": EASY}, b"53..7"]


def _solution() -> Puzzle:
    from csp_sudoku.api import solve

    found = solve(EASY)
    assert found is not None
    return found


# --- certify: a puzzle line is a puzzle; what is none is an ArgumentError ---------------


def test_certify_takes_a_puzzle_line_as_the_rest_of_the_api(tmp_path: Path) -> None:
    _cnf, proof, solution = certify(EASY)
    assert proof[-1] == "0" and solution == _solution()
    _cnf, _proof, again = certify(parse_line(EASY), solution.to_line())  # a solution line too
    assert again == solution
    cert = certify_to(EASY, tmp_path / "p.drat", solution=solution.cells)
    assert cert.solution == solution and cert.cnf_path.read_text().startswith("c csp_sudoku")


@pytest.mark.parametrize("bad", NOT_PUZZLES, ids=lambda b: type(b).__name__)
def test_certify_refuses_what_is_no_puzzle(tmp_path: Path, bad: Any) -> None:
    with pytest.raises(ArgumentError, match="puzzle"):
        certify(bad)
    with pytest.raises(ArgumentError, match="puzzle"):
        certify_to(bad, tmp_path / "p.drat")
    if bad is not None:  # no solution: it is found
        with pytest.raises(ArgumentError, match=r"^solution"):
            certify(EASY, bad)
    assert not list(tmp_path.iterdir())


def test_certify_names_text_that_is_no_puzzle() -> None:
    with pytest.raises(ArgumentError, match=r"puzzle is not a puzzle: .*81"):
        certify("53..7")


# --- render_puzzle, render_book: the same puzzles, the same refusals ------------------


def test_render_takes_puzzle_lines(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from csp_sudoku.tools.render import render_book, render_puzzle

    one = render_puzzle(EASY, tmp_path / "one.svg", solution=_solution().to_line())
    assert one.read_text().lstrip().startswith("<?xml")
    (book,) = render_book([EASY, parse_line(EASY).cells], tmp_path / "book.pdf")
    assert book.read_bytes().startswith(b"%PDF-")
    (answers,) = render_book([EASY], tmp_path / "answers.pdf", solutions=[_solution().to_line()])
    assert answers.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("bad", NOT_PUZZLES, ids=lambda b: type(b).__name__)
def test_render_refuses_what_is_no_puzzle(tmp_path: Path, bad: Any) -> None:
    pytest.importorskip("matplotlib")
    from csp_sudoku.tools.render import render_book, render_puzzle

    with pytest.raises(ArgumentError, match=r"^puzzle must be"):
        render_puzzle(bad, tmp_path / "one.svg")
    if bad is not None:  # no solution: the puzzle alone is drawn
        with pytest.raises(ArgumentError, match=r"^solution"):
            render_puzzle(EASY, tmp_path / "one.svg", solution=bad)
    with pytest.raises(ArgumentError, match=r"^puzzles\[1\]"):
        render_book([EASY, bad], tmp_path / "book.pdf")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("puzzles", "says"),
    [
        (EASY, "for one puzzle, pass"),  # it was read letter by letter
        (parse_line(EASY), "for one puzzle, pass"),
        (None, "got NoneType"),
        (5, "got int"),
    ],
)
def test_render_book_wants_a_sequence_of_puzzles(tmp_path: Path, puzzles: Any, says: str) -> None:
    pytest.importorskip("matplotlib")
    from csp_sudoku.tools.render import render_book

    with pytest.raises(ArgumentError, match=f"^puzzles must be a sequence of puzzles.*{says}"):
        render_book(puzzles, tmp_path / "book.pdf")
    assert not (tmp_path / "book.pdf").exists()


def test_render_book_solutions_are_one_per_puzzle(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from csp_sudoku.tools.render import render_book

    out = tmp_path / "book.pdf"
    with pytest.raises(RenderError, match="1 solution for 2 puzzles"):  # was an IndexError
        render_book([EASY, EASY], out, solutions=[_solution()])
    with pytest.raises(ArgumentError, match=r"^solutions"):  # was a TypeError
        render_book([EASY], out, solutions=1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"^solutions\[0\]"):
        render_book([EASY], out, solutions=[None])  # type: ignore[list-item]
    assert not out.exists()


def test_an_object_holding_a_puzzle_is_named_with_a_hint(tmp_path: Path) -> None:
    """A generated puzzle's record is not the puzzle: the message says to pass its .puzzle."""
    pytest.importorskip("matplotlib")
    from csp_sudoku.tools.render import render_book

    record = SimpleNamespace(puzzle=parse_line(EASY))
    with pytest.raises(ArgumentError, match=r"got SimpleNamespace \(pass its \.puzzle\)"):
        render_book([record], tmp_path / "book.pdf")  # type: ignore[list-item]


# --- write_puzzles -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("puzzles", "says"),
    [(None, "got NoneType"), (5, "got int"), (EASY, "for one puzzle"), (parse_line(EASY), "pass")],
)
def test_write_puzzles_wants_an_iterable_of_puzzles(
    tmp_path: Path, puzzles: Any, says: str
) -> None:
    out = tmp_path / "out.txt"
    with pytest.raises(ArgumentError, match=f"^puzzles must be a sequence of puzzles.*{says}"):
        write_puzzles(puzzles, out)
    assert not out.exists()
    assert write_puzzles(iter([EASY]), out) == 1  # any iterable of puzzles still is one


# --- PuzzleBank.add_ratings ----------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "says"),
    [
        ([(1, None)], r"the rating of ratings\[1\] must be a Rating"),
        ([(1, {"metric": "se", "score": 1.0})], "must be a Rating"),
        ([(1, SimpleNamespace(metric=None, score=1.0))], "must be a Rating"),  # stored "None"
        ([(1, SimpleNamespace(metric="se", score=None))], "score None of se is not a finite"),
        ([(1, SimpleNamespace(metric="se", score="x"))], "score 'x' of se"),
        # NaN was refused by SQLite, reported as "a rating of no banked puzzle"
        ([(1, SimpleNamespace(metric="se", score=math.nan))], "score nan of se"),
        ([(None, SimpleNamespace(metric="se", score=1.0))], "a puzzle id is a whole number"),
        ([("a", SimpleNamespace(metric="se", score=1.0))], "a puzzle id is a whole number"),
        ([(1.5, SimpleNamespace(metric="se", score=1.0))], "a puzzle id"),  # stored as 1
        ([5], r"ratings\[1\] must be a \(puzzle id, rating\) pair"),
        ([(1, SimpleNamespace(metric="se", score=1.0), 2)], "pair"),
        (None, "ratings must be an iterable of"),
    ],
)
def test_add_ratings_refuses_what_is_no_rating(pairs: Any, says: str) -> None:
    ok = SimpleNamespace(metric="se", score=2.0, level="hard")
    with PuzzleBank(":memory:") as bank:
        pid = bank.add(EASY).id
        assert pid == 1
        with pytest.raises(ArgumentError, match=says):
            bank.add_ratings([(pid, ok), *pairs] if isinstance(pairs, list) else pairs)
        assert not bank.has_rating(pid, "se")  # nothing is stored
        assert bank.add_ratings([(np.int64(pid), ok)]) == 1  # type: ignore[list-item]  # numpy id
        with pytest.raises(ArgumentError, match="must be a Rating"):
            bank.add_rating(pid, None)


# --- render_book per_page ------------------------------------------------------------


@pytest.mark.parametrize("per_page", [0, -1, 13, 2.5, True, "3"])
def test_render_book_refuses_a_per_page_out_of_range(tmp_path: Path, per_page: Any) -> None:
    pytest.importorskip("matplotlib")
    from csp_sudoku.tools.render import render_book

    out = tmp_path / "book.svg"
    with pytest.raises(RenderError, match=r"per_page must be an integer from 1 to 12, got"):
        render_book([EASY], out, per_page=per_page)
    assert not out.exists()
    assert render_book([EASY], out, per_page=np.int64(4)) == [out]  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["0", "-1", "2.5", "x", "13"])
def test_cli_per_page_out_of_range_names_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "book.svg"
    assert main(["render", EASY, "-o", str(out), f"--per-page={value}"]) == 2
    err = capsys.readouterr().err
    assert "--per-page" in err and "from 1 to 12" in err and "Traceback" not in err
    assert not out.exists()


# --- --caption: names only -----------------------------------------------------------

RECORD = {
    "puzzle": EASY,
    "seed": 7,
    "ratings": {"se": {"score": 8.3, "level": "hard", "details": {"hardest": "X-Wing"}}},
}


@pytest.mark.parametrize(
    ("fmt", "says"),
    [
        ("{n.__class__}", "{n.__class__} is refused"),  # printed "<class 'int'>"
        ("{n.__class__.__init__.__globals__}", "is refused"),
        ("{ratings.__class__}", "is refused"),
        ("{ratings[se].__class__}", "is refused"),
        ("{puzzle[0]}", "looks into {puzzle}, which is no mapping"),  # picked a character
        ("{seed[0]}", "which is no mapping"),
        ("{0}", "{0} is refused"),
        ("{}", "{} is refused"),
        ("{n!x}", "a conversion is !s, !r or !a"),
        ("{score:{n}}", "has a field in its format spec"),
    ],
)
def test_caption_fields_are_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str, says: str
) -> None:
    pytest.importorskip("matplotlib")
    import json

    from csp_sudoku.tools.render import check_caption_format

    with pytest.raises(RenderError, match=r"\{n\}, \{metric\}, \{score\}|conversion|format spec"):
        check_caption_format(fmt)
    src = tmp_path / "r.jsonl"
    src.write_text(json.dumps(RECORD) + "\n")
    out = tmp_path / "book.pdf"
    assert main(["render", str(src), "-o", str(out), "--caption", fmt]) == 2
    err = capsys.readouterr().err
    assert says in err and "bad --caption format" in err and "Traceback" not in err
    assert "<class" not in err and not out.exists()


def test_caption_is_refused_before_any_input_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    missing = tmp_path / "missing.txt"
    args = ["render", str(missing), "-o", str(tmp_path / "b.pdf"), "--caption", "{n.real}"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "{n.real} is refused" in err and "missing.txt" not in err


def test_documented_captions_still_work() -> None:
    from csp_sudoku.tools.render import caption_fields, format_caption

    values = caption_fields(RECORD, 4)
    assert format_caption("{n}. {level} ({score:.1f})", values) == "4. hard (8.3)"
    assert format_caption("{ratings[se][score]:.2f} {seed} {n!r:>3}", values) == "8.30 7   4"
    assert format_caption("{ratings[se][details][hardest]}", values) == "X-Wing"
    with pytest.raises(RenderError, match=r"no key 'xx' in ratings \(keys: se\)"):
        format_caption("{ratings[xx]}", values)


def test_random_caption_formats_never_reach_into_values() -> None:
    """Any template built of field names, attribute and item steps, conversions and
    specs either formats without showing an object's insides, or is a RenderError
    (never another exception); a template with an attribute step is always refused."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from csp_sudoku.tools.render import caption_fields, format_caption

    values = caption_fields(RECORD, 4)
    names = st.sampled_from(["n", "score", "level", "puzzle", "ratings", "seed", "nope", "0", ""])
    steps = st.sampled_from(
        [".__class__", ".__init__", ".__globals__", ".real", ".upper", "[se]", "[score]", "[0]"]
    )
    fields = st.builds(
        lambda name, path, conv, spec: "{" + name + "".join(path) + conv + spec + "}",
        names,
        st.lists(steps, max_size=4),
        st.sampled_from(["", "!r", "!s", "!a", "!x"]),
        st.sampled_from(["", ":.1f", ":>3", ":{n}", ":x"]),
    )
    junk = st.sampled_from(["{", "}", "[", "]", ".", "!", ":", " ", "No. ", "{{", "}}"])
    templates = st.lists(st.one_of(fields, junk), max_size=6).map("".join)

    @settings(max_examples=400, deadline=None)
    @given(templates)
    def prop(fmt: str) -> None:
        try:
            text = format_caption(fmt, values)
        except RenderError:
            return
        assert "<" not in text and "'int'" not in text  # no repr of a class or function
        fields = [f for _, f, _, _ in string.Formatter().parse(fmt) if f is not None]
        assert not any("." in f for f in fields)

    prop()


# --- bank query --level of a metric without levels -----------------------------------


@pytest.fixture
def custom_bank(tmp_path: Path) -> str:
    """A bank whose puzzles are rated with a metric the library does not know, no levels."""
    db = str(tmp_path / "b.db")
    with PuzzleBank(db) as bank:
        ids = [r.id for r in bank.add_many([EASY, *load_lines("17_clue.txt", limit=2)])]
        bank.add_ratings(
            (pid, SimpleNamespace(metric="custom", score=1.5 + k)) for k, pid in enumerate(ids)
        )
    return db


def test_a_level_of_a_metric_without_levels_points_to_scores(custom_bank: str) -> None:
    with PuzzleBank(custom_bank) as bank:
        with pytest.raises(BankError, match="metric custom has no levels") as err:
            bank.query(BankQuery(metric="custom", level="x"))
        assert "known: " not in str(err.value) and "min_score/max_score" in str(err.value)
        assert len(bank.query(BankQuery(metric="custom", min_score=2.0))) == 2
        with pytest.raises(BankError, match="unknown level 'x' of rounds; known: Easy"):
            bank.query(BankQuery(metric="rounds", level="x"))  # a metric with levels


@pytest.mark.parametrize("action", ["query", "export"])
def test_cli_level_of_a_metric_without_levels(
    custom_bank: str, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    assert main(["bank", action, custom_bank, "--metric", "custom", "--level", "x"]) == 2
    err = capsys.readouterr().err
    assert "metric custom has no levels" in err and "--score-min/--score-max" in err
    assert "known: \n" not in err and not err.rstrip().endswith("known:")
    assert "Traceback" not in err
    capsys.readouterr()
    assert main(["bank", "query", custom_bank, "--metric", "custom", "--score-min", "2"]) == 0
    assert len(capsys.readouterr().out.split()) == 2
