"""The 9x9 kernel (:mod:`csp_sudoku._kernels.sudoku9`) against the generic kernel and an
independent counter, on samples of every shared set, with 0, 1 and 2+ solutions and
clashing or out-of-range input."""

from __future__ import annotations

import numpy as np
import pytest

from csp_sudoku._kernels import bitset, sudoku9
from csp_sudoku.backends import fast as fast_module
from csp_sudoku.core.geometry import Geometry
from tests.conftest import load_lines
from tests.independent import check_solution, count_solutions

G9 = Geometry.standard(9)
NO_AVOID = np.empty(0, dtype=np.int8)
NO_OUT = np.empty((0, 81), dtype=np.int8)

#: (file, step): an evenly spread sample of every shared set
SETS = [
    ("17_clue.txt", 97),
    ("top1465.txt", 5),
    ("forum_hardest_1106.txt", 2),
    ("forum_hardest_11plus.txt", 97),
    ("multi_solution_serg.txt", 19),
]


def _batch(lines: list[str]) -> np.ndarray:
    return np.array([[0 if ch in ".0" else int(ch) for ch in s[:81]] for s in lines], dtype=np.int8)


def _generic(batch: np.ndarray, limit: int) -> np.ndarray:
    t = fast_module._build_tables(G9)
    return bitset.count_batch(batch, limit, t.packed, 1, 0, 0.0)


def _variants(batch: np.ndarray, seed: int) -> np.ndarray:
    """Each puzzle, plus: a wrong digit in an empty cell (no solution when the puzzle is
    unique), a clash (a clue repeated in its row), and five clues fewer (often 2+)."""
    rng = np.random.default_rng(seed)
    rows = []
    for p in batch:
        rows.append(p)
        sol = np.empty((1, 81), dtype=np.int8)
        n = sudoku9.count_cells(p, 1, NO_AVOID, sol, 0)
        empty = np.flatnonzero(p == 0)
        if n == 1:
            c = int(rng.choice(empty))
            wrong = p.copy()
            wrong[c] = 1 + (int(sol[0, c]) % 9)  # any digit but the solution's
            rows.append(wrong)
        clue = int(rng.choice(np.flatnonzero(p)))
        r = clue // 9
        free = [r * 9 + k for k in range(9) if p[r * 9 + k] == 0]
        clash = p.copy()
        clash[free[0]] = p[clue]
        rows.append(clash)
        fewer = p.copy()
        fewer[rng.choice(np.flatnonzero(p), 5, replace=False)] = 0
        rows.append(fewer)
    return np.array(rows, dtype=np.int8)


@pytest.mark.parametrize(("name", "step"), SETS)
def test_counts_match_the_generic_kernel(name: str, step: int) -> None:
    batch = _variants(_batch(load_lines(name, step=step)), seed=step)
    for limit in (1, 2, 3, 10):
        assert sudoku9.count_batch(batch, limit, 0).tolist() == _generic(batch, limit).tolist()
    counts = sudoku9.count_batch(batch, 3, 0)
    # the variants reach every case: none, one (but in the multi-solution set) and several
    assert 0 in counts and counts.max() >= 2
    assert 1 in counts or "multi" in name


@pytest.mark.parametrize(("name", "step"), SETS)
def test_counts_match_an_independent_counter(name: str, step: int) -> None:
    lines = load_lines(name, step=step)
    # the plain Python counter is slow on the hardest sets: take a few of each
    take = 6 if "hardest" in name else 12
    base = _batch(lines[:: max(1, len(lines) // take)][:take])
    if name.startswith("17"):
        # the plain counter needs seconds per 17-clue puzzle: give it 10 clues more
        rng = np.random.default_rng(step)
        for p in base:
            sol = np.empty((1, 81), dtype=np.int8)
            sudoku9.count_cells(p, 1, NO_AVOID, sol, 0)
            extra = rng.choice(np.flatnonzero(p == 0), 10, replace=False)
            p[extra] = sol[0, extra]
    batch = _variants(base, seed=step + 1)
    ours = sudoku9.count_batch(batch, 2, 0).tolist()
    assert ours == [count_solutions(p, 2) for p in batch]


def test_solutions_written_are_valid_and_distinct() -> None:
    batch = _batch(load_lines("multi_solution_serg.txt", step=250))
    for p in batch:
        out = np.zeros((5, 81), dtype=np.int8)
        n = sudoku9.count_cells(p, 5, NO_AVOID, out, 0)
        assert n >= 2
        sols = out[: min(n, 5)]
        assert all(check_solution(s, p) for s in sols)
        assert len({s.tobytes() for s in sols}) == len(sols)


def test_avoid_skips_the_known_solution() -> None:
    for p in _batch(load_lines("top1465.txt", step=150)):
        sol = np.empty((1, 81), dtype=np.int8)
        assert sudoku9.count_cells(p, 2, NO_AVOID, sol, 0) == 1
        assert sudoku9.count_cells(p, 1, sol[0], NO_OUT, 0) == 0


def test_removable_matches_the_generic_kernel() -> None:
    t = fast_module._build_tables(G9)
    lines = load_lines("top1465.txt", step=300) + load_lines("17_clue.txt", step=9000)
    for p in _batch(lines):
        sol = np.empty((1, 81), dtype=np.int8)
        assert sudoku9.count_cells(p, 2, NO_AVOID, sol, 0) == 1
        ours = sudoku9.removable(p, sol[0], 0).tolist()
        assert ours == bitset.removable(p, sol[0], t.packed, 1, 0, 0.0).tolist()


def test_bad_values_and_budget() -> None:
    p = _batch(load_lines("forum_hardest_1106.txt", limit=1))[0]
    bad = p.copy()
    bad[0] = 10
    assert sudoku9.count_cells(bad, 2, NO_AVOID, NO_OUT, 0) == -1
    bad[0] = -1
    assert sudoku9.count_batch(bad[None, :], 2, 0).tolist() == [-1]
    assert sudoku9.count_cells(p, 2, NO_AVOID, NO_OUT, 2) == -2  # 2 branch nodes: gives up


def test_the_empty_grid_and_a_full_grid() -> None:
    empty = np.zeros(81, dtype=np.int8)
    assert sudoku9.count_cells(empty, 1000, NO_AVOID, NO_OUT, 0) == 1000
    sol = np.empty((1, 81), dtype=np.int8)
    assert sudoku9.count_cells(empty, 1, NO_AVOID, sol, 0) == 1
    assert check_solution(sol[0])
    assert sudoku9.count_cells(sol[0], 2, NO_AVOID, NO_OUT, 0) == 1


def test_only_the_plain_grid_takes_the_9x9_kernel() -> None:
    assert fast_module._is_plain9(G9)
    assert not fast_module._is_plain9(Geometry.x_sudoku(9))
    assert not fast_module._is_plain9(Geometry.windoku())
    assert not fast_module._is_plain9(Geometry.standard(16))
    labels = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    labels[2], labels[3] = labels[3], labels[2]  # a jigsaw with two cells swapped
    labels[9 + 2], labels[9 + 3] = labels[9 + 3], labels[9 + 2]
    assert not fast_module._is_plain9(Geometry.jigsaw(labels))


def test_text_path_agrees_and_falls_back() -> None:
    import csp_sudoku
    from csp_sudoku.core.errors import ParseError

    lines = load_lines("top1465.txt", step=300) + load_lines("multi_solution_serg.txt", step=900)
    for s in lines:
        want = sudoku9.count_batch(_batch([s]), 2, 0)[0]
        assert fast_module.count_text9(s) == want
        assert fast_module.count_text9(" " + s.replace(".", "0") + "\n") == want
        assert csp_sudoku.is_unique(s) == (want == 1)
    assert fast_module.count_text9("1" * 81) == 0  # clashing clues: no solution
    assert fast_module.count_text9("é" + s[1:]) is None  # not ASCII: the full parser
    assert fast_module.count_text9("x" * 81) is None  # not a symbol: the full parser explains
    assert fast_module.count_text9("." * 80) is None
    with pytest.raises(ParseError):
        csp_sudoku.is_unique("x" * 81)


def test_the_kernels_text_table_is_the_parsers() -> None:
    from csp_sudoku.core.io import digit_of

    def value(byte: int) -> int:
        d = digit_of(chr(byte)) if byte < 128 else None
        return -1 if d is None or d > 9 else d

    assert sudoku9.TEXT_VALUES.tolist() == [value(b) for b in range(256)]


@pytest.mark.parametrize("symmetry", ["none", "rot180", "rot90"])
def test_reduce_in_the_kernel_gives_the_loops_puzzles(
    symmetry: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import csp_sudoku
    from csp_sudoku.generators import RemovalStats, minimal_puzzle
    from csp_sudoku.generators import minimal as minimal_module

    stats = RemovalStats()
    ours = [minimal_puzzle(G9, s, symmetry=symmetry, stats=stats) for s in range(12)]
    assert stats.solver_calls + stats.shortcuts == stats.tried and stats.shortcuts > 0
    monkeypatch.setattr(minimal_module, "_reduce9", lambda *args: None)
    loop = [minimal_puzzle(G9, s, symmetry=symmetry) for s in range(12)]
    assert [p.cells.tolist() for p in ours] == [p.cells.tolist() for p in loop]
    for p in ours[:4]:
        assert csp_sudoku.count_solutions(p, backend="sat") == 1
        if symmetry == "none":
            assert csp_sudoku.is_minimal(p, backend="sat")
