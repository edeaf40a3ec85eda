"""The public API: inputs of every kind, the checker object, removable clues."""

from __future__ import annotations

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku import Checker, Geometry, NotUniqueError, ParseError
from tests.conftest import load_lines
from tests.independent import check_solution

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_every_input_form_gives_the_same_answer() -> None:
    p = cs.parse(LINE)
    for form in (
        p,
        LINE,
        p.cells,
        p.cells.astype(np.int64),
        p.grid,
        list(p.cells.tolist()),
        p.to_grid_text(),
    ):
        assert cs.is_unique(form)  # type: ignore[arg-type]
        sol = cs.solve(form)  # type: ignore[arg-type]
        assert sol is not None and check_solution(sol.cells, p.cells)
    assert cs.count_solutions(LINE) == 1
    assert [s.cells.tolist() for s in cs.solutions(LINE)] == [cs.solve(LINE).cells.tolist()]  # type: ignore[union-attr]


def test_bad_inputs_raise_parse_errors() -> None:
    with pytest.raises(ParseError):
        cs.is_unique(LINE[:-1])
    with pytest.raises(ParseError):
        cs.is_unique(np.full(81, 12))
    with pytest.raises(ValueError):
        cs.count_solutions(LINE, limit=0)


def test_count_many_matches_single_calls() -> None:
    lines = load_lines("top1465.txt", limit=20, step=50) + load_lines(
        "multi_solution_serg.txt", limit=20, step=200
    )
    arr = np.stack([cs.parse(s).cells for s in lines])
    counts = cs.count_many(arr, limit=3)
    assert counts.shape == (40,)
    assert counts.tolist() == [cs.count_solutions(s, limit=3) for s in lines]
    assert np.all(counts[:20] == 1) and np.all(counts[20:] >= 2)
    assert cs.count_many(lines[:3]).tolist() == [1, 1, 1]
    with pytest.raises(ParseError):
        cs.count_many(arr[0])


@pytest.mark.parametrize("backend", ["auto", "sat"])
def test_checker_other_solution_and_removable_clues(backend: str) -> None:
    chk = Checker(Geometry.standard(9), backend)
    p = cs.parse(LINE)
    sol = chk.solve(p)
    assert sol is not None
    assert not chk.has_other_solution(p.cells, sol)
    # a 17-clue puzzle is minimal: removing any clue opens other solutions
    assert chk.removable_clues(p).size == 0
    assert chk.is_minimal(p)
    for c in p.clue_cells()[:5]:
        assert chk.has_other_solution(p.without([c]).cells, sol)
    # add a redundant clue: exactly the removable ones keep uniqueness
    empty = int(np.flatnonzero(p.cells == 0)[0])
    bigger = p.with_cells({empty: int(sol[empty])})
    removable = set(chk.removable_clues(bigger).tolist())
    assert empty in removable
    for c in bigger.clue_cells().tolist():
        assert (c in removable) == cs.is_unique(bigger.without([c]), backend="sat")
    with pytest.raises(NotUniqueError):
        chk.removable_clues(np.zeros(81, dtype=np.int8))


def test_module_level_minimality() -> None:
    assert cs.is_minimal(LINE)
    assert list(cs.removable_clues(LINE)) == []
