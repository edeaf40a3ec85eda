"""The hard-end search's compiled move (``generators.minimal.move9``), checked by the
independent solver and symmetry maps of ``tests/independent.py``: every move keeps
the solution grid, is unique, minimal (among puzzles of its symmetry), and the same
seed gives the same move."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku.generators.minimal import minimal_puzzle, move9
from tests.independent import count_solutions, symmetry_image


def _orbit_cells(sym: str, i: int) -> set[int]:
    """The cells of cell ``i``'s orbit under ``sym`` (by repeated images)."""
    cells, r, c = set(), divmod(i, 9)[0], i % 9
    while (r * 9 + c) not in cells:
        cells.add(r * 9 + c)
        r, c = symmetry_image(9, sym, r, c)
    return cells


def _minimal_in(sym: str, cells: np.ndarray) -> bool:
    """No orbit of clues can be removed while the solution stays unique."""
    work = [int(v) for v in cells]
    for i in range(81):
        if work[i]:
            orbit = _orbit_cells(sym, i)
            saved = {j: work[j] for j in orbit}
            for j in orbit:
                work[j] = 0
            if count_solutions(work, limit=2) == 1:
                return False
            for j, v in saved.items():
                work[j] = v
    return True


@settings(max_examples=12, deadline=None)
@given(
    start=st.integers(0, 10_000),
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([0, 1, 2, 3]),
    sym=st.sampled_from(["none", "rot180", "diagonal"]),
)
def test_a_move_is_unique_minimal_on_the_same_grid(start: int, seed: int, k: int, sym: str) -> None:
    p = minimal_puzzle(seed=start, symmetry=sym)
    sol = cs.solve(p)
    assert sol is not None
    moved = move9(p.cells, sol.cells, np.random.default_rng(seed), k=k, symmetry=sym)
    assert moved is not None
    again = move9(p.cells, sol.cells, np.random.default_rng(seed), k=k, symmetry=sym)
    assert again is not None and np.array_equal(moved, again)
    assert np.all((moved == 0) | (moved == sol.cells))  # the same grid
    assert count_solutions([int(v) for v in moved], limit=2) == 1
    assert _minimal_in(sym, moved)
    for i in range(81):  # clues come in whole orbits
        assert all(bool(moved[j]) == bool(moved[i]) for j in _orbit_cells(sym, i))


def test_moves_without_reduction_keep_every_clue_they_placed() -> None:
    """``minimal=False``: only the k orbits taken out lose their clues; the puzzle
    stays unique, and some moves differ from the start."""
    p = minimal_puzzle(seed=3)
    sol = cs.solve(p)
    assert sol is not None
    rng = np.random.default_rng(7)
    changed = 0
    for _ in range(20):
        moved = move9(p.cells, sol.cells, rng, k=1, minimal=False)
        assert moved is not None
        assert count_solutions([int(v) for v in moved], limit=2) == 1
        removed = int(np.count_nonzero((p.cells != 0) & (moved == 0)))
        assert removed <= 1  # one clue out; any added back are the solution's
        changed += int(not np.array_equal(moved, p.cells))
    assert changed > 0
