"""The fast backend: agreement with the SAT backend, independent checks, edge cases.

The default run cross-checks a spread sample of every shared data set (a few
thousand puzzles); ``-m slow`` runs every puzzle of every set against what is
known about it.
"""

from __future__ import annotations

import numpy as np
import pytest

import csp_sudoku
from csp_sudoku.backends import backend_for, get_backend
from csp_sudoku.backends import fast as fast_module
from csp_sudoku.backends.base import Backend
from csp_sudoku.core.errors import ParseError, SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import fast_cells
from tests.conftest import load_lines
from tests.independent import check_solution

G9 = Geometry.standard(9)

#: (file, step, expected count with limit 2: 1 unique, 2 several)
SAMPLES = [
    ("17_clue.txt", 49, 1),
    ("top1465.txt", 3, 1),
    ("forum_hardest_1106.txt", 2, 1),
    ("forum_hardest_11plus.txt", 40, 1),
    ("multi_solution_serg.txt", 5, 2),
]


@pytest.fixture(scope="module")
def fast() -> Backend:
    return get_backend("fast")


@pytest.fixture(scope="module")
def sat() -> Backend:
    return get_backend("sat")


def _cells(line: str) -> np.ndarray:
    found = fast_cells(line)
    assert found is not None, line
    return found[0]


def _batch(lines: list[str]) -> np.ndarray:
    return np.stack([_cells(s) for s in lines])


def _solved_grid(fast: Backend, geometry: Geometry) -> np.ndarray:
    sol = fast.solve(np.zeros(geometry.ncells, dtype=np.int8), geometry)
    assert sol is not None
    return sol


def _puzzle_from(grid: np.ndarray, keep: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    mask = rng.random(grid.size) < keep
    return np.where(mask, grid, 0).astype(np.int8)


# ----------------------------------------------------------------------- shared data sets
@pytest.mark.parametrize(("name", "step", "expected"), SAMPLES)
def test_agrees_with_sat_on_shared_sets(
    fast: Backend, sat: Backend, name: str, step: int, expected: int
) -> None:
    lines = load_lines(name, step=step)
    batch = _batch(lines)
    counts = fast.count_many(batch, G9, 2)
    assert counts.tolist() == [expected] * len(lines)
    for row, count in zip(batch, counts.tolist(), strict=True):
        assert sat.count(row, G9, 2) == count


@pytest.mark.parametrize(("name", "step", "expected"), SAMPLES)
def test_solutions_pass_the_independent_checker(
    fast: Backend, name: str, step: int, expected: int
) -> None:
    for line in load_lines(name, step=step * 4):
        cells = _cells(line)
        sols = fast.solutions(cells, G9, 3)
        assert len(sols) >= expected
        if expected == 1:
            assert len(sols) == 1
        assert len({s.tobytes() for s in sols}) == len(sols)
        for s in sols:
            assert check_solution(s, cells)


def test_single_calls_agree_with_the_batch(fast: Backend) -> None:
    lines = load_lines("top1465.txt", step=50) + load_lines("multi_solution_serg.txt", step=500)
    batch = _batch(lines)
    counts = fast.count_many(batch, G9, 2)
    for line, row, count in zip(lines, batch, counts.tolist(), strict=True):
        assert fast.count(row, G9, 2) == count
        assert csp_sudoku.is_unique(line) == (count == 1)


def test_auto_picks_fast_for_standard_grids() -> None:
    assert backend_for(G9).name == "fast"
    assert backend_for(Geometry.standard(16)).name == "fast"
    assert backend_for(Geometry.x_sudoku(9)).name == "fast"


# ----------------------------------------------------------------------- counts and limits
def test_empty_4x4_has_288_solutions(fast: Backend) -> None:
    g = Geometry.standard(4)
    empty = np.zeros(16, dtype=np.int8)
    assert fast.count(empty, g, 1000) == 288
    sols = fast.solutions(empty, g, 1000)
    assert len({s.tobytes() for s in sols}) == 288
    assert all(check_solution(s) for s in sols)


def test_solutions_beyond_the_buffer(fast: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_module, "_SOLUTION_CHUNK", 10)
    g = Geometry.standard(4)
    sols = fast.solutions(np.zeros(16, dtype=np.int8), g, 100)
    assert len({s.tobytes() for s in sols}) == 100
    assert all(check_solution(s) for s in sols)


def test_limits_on_near_empty_grids(fast: Backend) -> None:
    empty = np.zeros(81, dtype=np.int8)
    assert fast.count(empty, G9, 500) == 500
    assert fast.count(empty, G9, 1) == 1
    assert fast.count(empty, G9, 0) == 0
    assert fast.solutions(empty, G9, 0) == []
    one = empty.copy()
    one[40] = 5
    assert fast.count_many(np.stack([empty, one]), G9, 7).tolist() == [7, 7]
    assert fast.count_many(np.stack([empty, one]), G9, 0).tolist() == [0, 0]


@pytest.mark.parametrize(
    "geometry",
    [
        Geometry.standard(4),
        Geometry.standard(6),
        Geometry.x_sudoku(4),
        Geometry.x_sudoku(9),
        Geometry.windoku(),
        Geometry.jigsaw([0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]),
    ],
    ids=lambda g: g.name,
)
def test_counts_agree_with_sat_on_variants(fast: Backend, sat: Backend, geometry: Geometry) -> None:
    grid = _solved_grid(fast, geometry)
    diag = geometry.name.startswith("x-")
    windows = geometry.name == "windoku"
    shape = {
        "regions": geometry.regions,
        "diagonals": diag,
        "windows": windows,
        "box_rows": geometry.box_rows or None,
        "box_cols": geometry.box_cols or None,
    }
    assert check_solution(grid, **shape)  # type: ignore[arg-type]
    for seed in range(8):
        for keep in (0.1, 0.3, 0.5):
            cells = _puzzle_from(grid, keep, seed)
            want = len(sat.solutions(cells, geometry, 40))
            assert fast.count(cells, geometry, 40) == want
            for s in fast.solutions(cells, geometry, 3):
                assert check_solution(s, cells, **shape)  # type: ignore[arg-type]


def test_jigsaw_solution_obeys_its_regions(fast: Backend) -> None:
    labels = [0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]
    g = Geometry.jigsaw(labels)
    sol = _solved_grid(fast, g)
    assert check_solution(sol, regions=labels)


# ----------------------------------------------------------------------- clashes and bad input
@pytest.mark.parametrize(("a", "b"), [(0, 8), (0, 72), (0, 20), (30, 50)])
def test_clashing_clues_give_no_solution(fast: Backend, a: int, b: int) -> None:
    cells = np.zeros(81, dtype=np.int8)
    cells[a] = cells[b] = 4
    clash = G9.peer_matrix[a, b]
    want = 0 if clash else 2
    assert fast.count(cells, G9, 2) == want
    assert fast.count_many(cells[None, :], G9, 2).tolist() == [want]
    assert (fast.solve(cells, G9) is None) == bool(clash)


def test_clash_on_an_extra_unit(fast: Backend) -> None:
    g = Geometry.x_sudoku(9)
    cells = np.zeros(81, dtype=np.int8)
    cells[0] = cells[80] = 7  # both on the main diagonal, no row/column/box shared
    assert fast.count(cells, g, 2) == 0
    assert fast.count(cells, G9, 2) == 2


def test_clash_inside_a_real_puzzle(fast: Backend) -> None:
    cells = _cells(load_lines("top1465.txt", limit=1)[0]).copy()
    sol = fast.solve(cells, G9)
    assert sol is not None
    empty = int(np.flatnonzero(cells == 0)[0])
    wrong = int(sol[empty] % 9 + 1)
    cells[empty] = wrong
    assert fast.count(cells, G9, 2) == (0 if wrong != sol[empty] else 1)


def test_bad_values_raise_sudoku_errors(fast: Backend) -> None:
    cells = np.zeros(81, dtype=np.int8)
    cells[3] = 12
    with pytest.raises(SudokuError):
        fast.count(cells, G9, 2)
    with pytest.raises(ParseError):
        fast.count_many(np.stack([np.zeros(81, dtype=np.int8), cells]), G9, 2)
    with pytest.raises(ParseError):
        fast.count(np.zeros(80, dtype=np.int8), G9, 2)
    with pytest.raises(ParseError):
        fast.count_many(np.zeros((2, 80), dtype=np.int8), G9, 2)


# ----------------------------------------------------------------------- 16x16 and 25x25
def test_16x16_puzzles_agree_with_sat(fast: Backend, sat: Backend) -> None:
    g = Geometry.standard(16)
    grid = _solved_grid(fast, g)
    assert check_solution(grid)
    rows = [_puzzle_from(grid, keep, seed) for seed in range(6) for keep in (0.45, 0.6, 0.75)]
    counts = fast.count_many(np.stack(rows), g, 2)
    for cells, count in zip(rows, counts.tolist(), strict=True):
        assert sat.count(cells, g, 2) == count
        sol = fast.solve(cells, g)
        assert sol is not None and check_solution(sol, cells)
    assert set(counts.tolist()) <= {1, 2}


def test_25x25_is_solved(fast: Backend) -> None:
    g = Geometry.standard(25)
    assert backend_for(g).name == "fast"
    grid = _solved_grid(fast, g)
    assert check_solution(grid)
    cells = _puzzle_from(grid, 0.7, 3)
    assert fast.count(cells, g, 2) >= 1


# ----------------------------------------------------------------------- node budget
def test_searches_over_budget_go_to_sat(sat: Backend) -> None:
    tight = fast_module.FastBackend(work_budget=81 * 3)  # 3 branch nodes on 9x9
    lines = load_lines("forum_hardest_1106.txt", step=40) + load_lines(
        "multi_solution_serg.txt", step=1000
    )
    batch = _batch(lines)
    want = [sat.count(row, G9, 2) for row in batch]
    assert tight.count_many(batch, G9, 2).tolist() == want
    assert tight.fallbacks > 0
    before = tight.fallbacks
    for row, count in zip(batch, want, strict=True):
        assert tight.count(row, G9, 2) == count
        sol = tight.solve(row, G9)
        assert sol is not None and check_solution(sol, row)
        sols = tight.solutions(row, G9, 2)
        assert len(sols) == count
        if count == 1:
            assert tight.other_solution(row, G9, sol) is None
            assert tight.removable_clues(row, G9, sol).tolist() == sorted(
                sat.removable_clues(row, G9, sol).tolist()
            )
    assert tight.fallbacks > before


def test_no_budget_means_no_fallback() -> None:
    unbounded = fast_module.FastBackend(work_budget=0)
    batch = _batch(load_lines("forum_hardest_1106.txt", step=25))
    assert unbounded.count_many(batch, G9, 2).tolist() == [1] * len(batch)
    assert unbounded.fallbacks == 0


# ----------------------------------------------------------------------- generator queries
def test_removable_clues_agree_with_sat(fast: Backend, sat: Backend) -> None:
    minimal = load_lines("17_clue.txt", step=4000)
    puzzles = minimal + load_lines("top1465.txt", step=150)
    for k, line in enumerate(puzzles):
        cells = _cells(line).copy()
        sol = fast.solve(cells, G9)
        assert sol is not None
        # add a few clues from the solution so some become removable
        empty = np.flatnonzero(cells == 0)
        extra = np.random.default_rng(k).choice(empty, size=k % 4, replace=False)
        cells[extra] = sol[extra]
        got = fast.removable_clues(cells, G9, sol)
        want = sat.removable_clues(cells, G9, sol)
        assert sorted(got.tolist()) == sorted(want.tolist())
        if k % 4 == 0 and k < len(minimal):
            assert got.size == 0  # a 17-clue puzzle is minimal


def test_other_solution_agrees_with_sat(fast: Backend, sat: Backend) -> None:
    for line in load_lines("17_clue.txt", step=5000):
        cells = _cells(line)
        sol = fast.solve(cells, G9)
        assert sol is not None
        assert fast.other_solution(cells, G9, sol) is None
        for c in np.flatnonzero(cells)[:6].tolist():
            fewer = cells.copy()
            fewer[c] = 0
            other = fast.other_solution(fewer, G9, sol)
            assert (other is None) == (sat.other_solution(fewer, G9, sol) is None)
            if other is not None:
                assert not np.array_equal(other, sol)
                assert check_solution(other, fewer)


def test_checker_uses_the_fast_path() -> None:
    line = load_lines("17_clue.txt", limit=1)[0]
    chk = csp_sudoku.Checker(G9)
    assert chk.backend.name == "fast"
    assert chk.is_minimal(line)


# ----------------------------------------------------------------------- every puzzle
@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("17_clue.txt", 1),
        ("top1465.txt", 1),
        ("forum_hardest_1106.txt", 1),
        ("forum_hardest_11plus.txt", 1),
        ("multi_solution_serg.txt", 2),
    ],
)
def test_every_shared_puzzle(
    fast: Backend, name: str, expected: int, request: pytest.FixtureRequest
) -> None:
    if "slow" not in str(request.config.getoption("markexpr", "")):
        pytest.skip("whole data sets: run with -m slow")
    lines = load_lines(name)
    assert isinstance(fast, fast_module.FastBackend)
    before = fast.fallbacks
    counts = fast.count_many(_batch(lines), G9, 2)
    assert fast.fallbacks == before  # the node budget is never reached on 9x9 sets
    bad = [lines[i] for i in np.flatnonzero(counts != expected).tolist()]
    assert not bad, f"{len(bad)} puzzles of {name} do not have count {expected}: {bad[:3]}"
