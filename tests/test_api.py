"""The public API: inputs of every kind, the checker object, removable clues."""

from __future__ import annotations

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku import Checker, Geometry, NotUniqueError, ParseError
from csp_sudoku.core.errors import ArgumentError
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
    with pytest.raises(ArgumentError, match="puzzles"):
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
    bigger = p.with_cells({empty: int(sol.cells[empty])})
    removable = set(chk.removable_clues(bigger).tolist())
    assert empty in removable
    for c in bigger.clue_cells().tolist():
        assert (c in removable) == cs.is_unique(bigger.without([c]), backend="sat")
    with pytest.raises(NotUniqueError):
        chk.removable_clues(np.zeros(81, dtype=np.int8))


def test_module_level_minimality() -> None:
    assert cs.is_minimal(LINE)
    assert list(cs.removable_clues(LINE)) == []


# ---------------------------------------------------------------- API traps (issue 13)
def test_option_name_literals_match_the_runtime_names() -> None:
    from typing import get_args

    from csp_sudoku.generators import METHODS, SYMMETRIES
    from csp_sudoku.human.path import TECHNIQUES
    from csp_sudoku.metrics import METRICS

    assert get_args(cs.MetricName) == METRICS
    assert get_args(cs.MethodName) == METHODS
    assert get_args(cs.SymmetryName) == SYMMETRIES
    assert get_args(cs.TechniqueName) == TECHNIQUES


def test_rate_takes_runs_and_seed_by_keyword_only() -> None:
    from csp_sudoku.generators import minimize

    with pytest.raises(TypeError):
        minimize(LINE, 1)  # type: ignore[misc]
    assert minimize(LINE, seed=1).clue_count <= cs.parse(LINE).clue_count
    with pytest.raises(TypeError):
        cs.rate(LINE, "hsolve", 2, 1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        cs.rate_many([LINE], "hsolve", 2, 1)  # type: ignore[misc]
    assert cs.rate(LINE, "hsolve", runs=2, seed=1) == cs.rate(LINE, "hsolve", runs=2, seed=1)


def test_model_solutions_leave_the_objective_as_found() -> None:
    from csp_sudoku.encodings.cpsat import SudokuModel

    m = SudokuModel(cs.parse("." * 16))
    m.model.maximize(m.value(0))
    before = str(m.model.proto.objective)
    assert len(list(m.solutions(5))) == 5
    assert m.model.has_objective() and str(m.model.proto.objective) == before
    best = m.solve()
    assert best is not None and int(np.asarray(best)[0]) == 4  # still maximised


@pytest.mark.parametrize(
    "method", ["solutions", "count", "solve", "other_solution", "removable_clues", "count_many"]
)
def test_auto_backend_delegates_every_method(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    auto = cs.get_backend("auto")
    geo = Geometry.standard(9)
    resolved = auto.pick(geo)  # type: ignore[attr-defined]
    assert resolved.name != "auto"
    calls: list[str] = []
    real = getattr(resolved, method)

    def spy(*args: object, **kwargs: object) -> object:
        calls.append(method)
        return real(*args, **kwargs)

    p = cs.parse(LINE)
    sol = cs.solve(LINE)
    assert sol is not None
    monkeypatch.setattr(resolved, method, spy)
    args: dict[str, tuple[object, ...]] = {
        "solutions": (p.cells, geo, 2),
        "count": (p.cells, geo, 2),
        "solve": (p.cells, geo),
        "other_solution": (p.cells, geo, sol.cells),
        "removable_clues": (p.cells, geo, sol.cells),
        "count_many": (p.cells[None, :], geo, 2),
    }
    getattr(auto, method)(*args[method])
    assert calls == [method]


@pytest.mark.parametrize("backend", ["auto", "sat", "dlx", "cpsat"])
def test_a_checker_refuses_puzzles_of_another_shape(backend: str) -> None:
    """A raw array of the wrong length, or a puzzle of another shape, once got an
    answer about some other puzzle (sat and dlx: an 80-cell array was "unique")."""
    p = cs.parse(load_lines("top1465.txt", limit=1)[0])
    with Checker(Geometry.standard(9), backend=backend) as chk:
        assert chk.is_unique(p.cells)
        with pytest.raises(ParseError, match="81 cells, got an array of 80"):
            chk.is_unique(p.cells[:80])
        with pytest.raises(ArgumentError, match="checks 9x9 puzzles, got a 4x4 one"):
            chk.is_unique(cs.parse("." * 16))
        with pytest.raises(ArgumentError, match="got a x-9x9 one"):
            chk.count(cs.parse("." * 81, Geometry.x_sudoku(9)))


def test_a_puzzle_with_another_geometry_given_is_refused() -> None:
    """``solve(p, geometry=X)`` with a plain 9x9 Puzzle once answered in 9x9: a grid
    whose diagonals repeat digits, as if it were an X-Sudoku solution."""
    p = cs.parse("." * 81)
    x = Geometry.x_sudoku(9)
    for call in (cs.solve, cs.is_unique, cs.count_solutions, cs.as_puzzle):
        with pytest.raises(ArgumentError, match="geometry=x-9x9 was given with a 9x9 puzzle"):
            call(p, geometry=x)  # type: ignore[operator]
    same = cs.solve(cs.parse("." * 81, x), geometry=x)  # its own shape: fine
    assert same is not None and check_solution(same.cells, diagonals=True)
