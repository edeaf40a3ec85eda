"""The public API against a matrix of input types: what ``PuzzleLike`` documents works,
anything else raises one of the project's errors (never a raw AttributeError/TypeError).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.core.errors import ArgumentError, GenerationError, SudokuError
from csp_sudoku.human import solve_path
from csp_sudoku.tools.canonical import canonical_form, canonical_key
from tests.conftest import load_lines
from tests.independent import count_solutions as independent_count

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
CELLS = [0 if ch == "." else int(ch) for ch in LINE]

GOOD: dict[str, Any] = {
    "str": LINE,
    "grid text": "\n".join(LINE[i : i + 9] for i in range(0, 81, 9)),
    "Puzzle": cs.parse(LINE),
    "int8 array": np.array(CELLS, dtype=np.int8),
    "9x9 int64 array": np.array(CELLS, dtype=np.int64).reshape(9, 9),
    "list": CELLS,
}
BAD: dict[str, Any] = {
    "short str": "....",
    "None": None,
    "float": 3.5,
    "dict": {"a": 1},
    "80 cells": CELLS[:80],
    "value 10": [*CELLS[:80], 10],
    "half": np.full(81, 0.5),
}

FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "is_unique": cs.is_unique,
    "count_solutions": cs.count_solutions,
    "solutions": lambda p: cs.solutions(p, limit=2),
    "solve": cs.solve,
    "is_minimal": cs.is_minimal,
    "removable_clues": cs.removable_clues,
    "as_puzzle": cs.as_puzzle,
    "rate": lambda p: cs.rate(p, "rounds"),
    "minimize": lambda p: cs.minimize(p, seed=1),
    "canonical_key": canonical_key,
    "canonical_form": canonical_form,
    "solve_path": lambda p: solve_path(p, max_steps=3),
    "Checker.is_unique": lambda p: cs.Checker().is_unique(p),
    "Checker.removable_clues": lambda p: cs.Checker().removable_clues(p),
    "count_many": lambda p: cs.count_many([p]),
    "rate_many": lambda p: list(cs.rate_many([p], metric="rounds")),
}


def _norm(value: Any) -> Any:
    """A plain value to compare answers of different calls by."""
    if isinstance(value, cs.Puzzle):
        return value.to_line()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    if hasattr(value, "score") and hasattr(value, "level"):  # a Rating
        return (value.metric, value.score, value.level)
    if hasattr(value, "describe"):  # a solve path
        return value.describe()
    return value


@pytest.mark.parametrize("kind", sorted(GOOD))
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_puzzle_like_is_accepted(name: str, kind: str) -> None:
    """Each documented input type is taken, and gives the answer the text line gives."""
    got = _norm(FUNCTIONS[name](GOOD[kind]))
    assert got == _norm(FUNCTIONS[name](LINE))
    assert got is not None


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_anything_else_is_a_project_error(name: str, kind: str) -> None:
    with pytest.raises(SudokuError):
        FUNCTIONS[name](BAD[kind])


def test_the_answers_do_not_depend_on_the_input_type() -> None:
    for value in GOOD.values():
        assert cs.is_unique(value)
        assert cs.count_solutions(value) == 1
        assert canonical_key(value) == canonical_key(LINE)
        assert cs.is_minimal(value) == cs.is_minimal(LINE)


def test_count_many_errors_name_the_argument() -> None:
    with pytest.raises(ArgumentError, match=r"puzzles\[1\]"):
        cs.count_many([LINE, "...."])
    with pytest.raises(ArgumentError, match="puzzles"):
        cs.count_many(np.zeros((2, 80), np.int8))
    with pytest.raises(ArgumentError, match="puzzles"):
        cs.count_many(LINE)  # type: ignore[arg-type]


def test_rate_many_takes_one_metric_and_says_so() -> None:
    with pytest.raises(SudokuError, match="one metric"):
        list(cs.rate_many([LINE], metric=["se", "hsolve"]))  # type: ignore[arg-type]


def test_geometry_keyword_is_the_same_across_calls() -> None:
    four = "1..." + "..2." + ".3.." + "...4"
    geo = cs.Geometry.standard(4)
    flat = [0 if ch == "." else int(ch) for ch in four]
    for fn in (cs.is_unique, cs.count_solutions, cs.solve, cs.is_minimal, cs.removable_clues):
        got = _norm(fn(flat, geometry=geo))  # type: ignore[operator]
        assert got == _norm(fn(four, geometry=geo))  # type: ignore[operator]
        assert got == _norm(fn(cs.parse(four, geo)))  # type: ignore[operator]
    assert cs.count_solutions(flat, geometry=geo) == independent_count(flat, limit=3)


@cache
def _thread_cases() -> tuple[list[str], list[int]]:
    lines = load_lines("17_clue.txt", limit=12) + load_lines("multi_solution_serg.txt", limit=8)
    truth = [min(independent_count([0 if c == "." else int(c) for c in x], 2), 2) for x in lines]
    return lines, truth


@pytest.mark.parametrize("backend", ["sat", "fast"])
def test_checkers_in_threads_share_nothing(backend: str) -> None:
    """Each thread its own checker (as the class documents), all answers right."""
    lines, truth = _thread_cases()
    found: dict[int, list[int]] = {}

    def work(k: int) -> None:
        with cs.Checker(backend=backend) as chk:
            found[k] = [chk.count(x, 2) for x in lines]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(found[k] == truth for k in range(4))


def test_a_checker_owns_its_backend() -> None:
    a, b = cs.Checker(backend="sat"), cs.Checker(backend="sat")
    assert a.backend is not b.backend
    with a:
        assert a.is_unique(LINE)
    assert b.is_unique(LINE)
    b.close()


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        (np.array([1, 2]), "map cells to digits"),
        ({81: 1}, "0 to 80, got 81"),
        ({-1: 1}, "0 to 80, got -1"),
        ({3: 10}, r"1 to 9 \(0 clears\), got 10"),
        ({"a": 1}, "a cell is a whole number"),
        ({3: 2.5}, "a digit is a whole number"),
    ],
)
def test_with_cells_refuses_what_is_not_a_cell_and_digit(changes: Any, why: str) -> None:
    p = cs.parse(LINE)
    with pytest.raises(cs.ParseError, match=why):
        p.with_cells(changes)
    assert str(p.with_cells({1: 9, 0: 0})) == "." + "9" + LINE[2:]  # a good change still works


def test_without_takes_indexes_or_a_mask_and_nothing_else() -> None:
    """A mask of bools was read as the indexes 0 and 1 (an all-False mask emptied
    cell 0), 1.7 emptied cell 1, and "12" cell 12."""
    p = cs.parse(LINE)
    cells = np.asarray(p.cells)
    fours = p.without(cells == 4)
    assert np.array_equal(np.asarray(fours.cells), np.where(cells == 4, 0, cells))
    assert fours.clue_count == p.clue_count - 3
    assert p.without(np.zeros(81, dtype=bool)) == p
    assert p.without(np.flatnonzero(cells == 4)) == fours  # the same as its indexes
    assert p.without([]) == p and p.without(0).clue_count == p.clue_count - 1
    for bad, why in (
        ([1.7], "cell indexes"),
        ("12", "cell indexes"),
        (None, "cell indexes"),
        (np.zeros(80, dtype=bool), "0 to 80"),
    ):
        with pytest.raises(cs.ParseError, match=why):
            p.without(bad)


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ({"budget": -5}, "budget must be a whole number from 1 up, got -5"),
        ({"budget": 0}, "budget must be"),
        ({"max_level": 5}, "max_level must be a whole number from 0 to 2"),
        ({"inner_level": 2}, "inner_level must be"),
        ({"max_subset": -1}, "max_subset must be"),
        ({"max_level": True}, "max_level must be"),
        ({"verity": "no"}, "verity must be True or False"),
    ],
)
def test_chain_settings_refuse_what_the_search_cannot_take(
    settings: dict[str, Any], why: str
) -> None:
    from csp_sudoku.human.chains import ChainSettings

    with pytest.raises(ArgumentError, match=why):
        ChainSettings(**settings)
    assert ChainSettings(max_level=1, budget=10).budget == 10


def test_variant_generators_name_a_bad_shape_or_symmetry_before_any_attempt() -> None:
    from csp_sudoku.generators.symmetry import permutation
    from csp_sudoku.variants.generate import generate_drawn, generate_killers, make_killer

    with pytest.raises(GenerationError, match=r"got the name 'rot180'.*permutation\(9, 'rot180'\)"):
        make_killer(1, symmetry="rot180")  # type: ignore[arg-type]
    with pytest.raises(GenerationError, match="permutation of the 81 cells"):
        next(generate_drawn(1, symmetry=[0, 1, 2], seed=1))
    with pytest.raises(cs.GeometryError, match=r"geometry must be a Geometry.*'6x6'"):
        next(generate_killers(1, geometry="6x6", seed=1))  # type: ignore[arg-type]
    with pytest.raises(cs.GeometryError, match="geometry must be a Geometry"):
        next(generate_drawn(1, geometry=9, seed=1))  # type: ignore[arg-type]
    # the name's permutation is what the message says to pass
    made = make_killer(1, symmetry=permutation(9, "rot180").tolist())
    assert made.puzzle is not None
