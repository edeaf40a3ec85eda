"""The full rounds of the variant kernel's propagation: pointing across relations, locked
candidates.

Each rule is shown on a puzzle where it must fire (the candidates it removes
are gone after propagation from the givens alone, and the SAT backend finds
no solution with any of them), and the propagation is checked to be sound on
the random maker's puzzles: what it leaves holds every true candidate the SAT
backend finds, and it finds a contradiction only where SAT finds no solution.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku import variants
from csp_sudoku._kernels import variants as kernel
from csp_sudoku.constraints import VariantPuzzle, from_fpuzzles
from csp_sudoku.constraints.nonconsecutive import NonConsecutive
from csp_sudoku.variants import fast
from tests.variant_maker import make_cases


def root(puzzle: VariantPuzzle) -> tuple[bool, np.ndarray]:
    """Propagation from the givens alone: (no contradiction, ``out[cell, digit - 1]``)."""
    low = fast.lower(puzzle)
    start = fast.start_masks(puzzle)
    ok = bool(kernel.root(low.arrays, start, kernel.workspace(low.ncells, low.ncons)))
    n = puzzle.geometry.size
    bits = (start[:, None] >> np.arange(n)[None, :]) & 1
    return ok, bits.astype(bool)


def grid(givens: dict[tuple[int, int], int]) -> cs.Puzzle:
    cells = np.zeros(81, dtype=np.int8)
    for (r, c), d in givens.items():
        cells[r * 9 + c] = d
    return cs.Puzzle(cells)


def impossible(puzzle: VariantPuzzle, cell: tuple[int, int], digit: int) -> bool:
    """The SAT backend finds no solution with ``digit`` in ``cell``."""
    cells = puzzle.puzzle.cells.copy()
    cells[cell[0] * 9 + cell[1]] = digit
    return (
        variants.count(VariantPuzzle(cs.Puzzle(cells), puzzle.constraints), 1, backend="sat") == 0
    )


def test_pointing_across_a_relation() -> None:
    """Non-consecutive: row 1's 5 can only be in R1C1 or R1C2 (box 2 and box 3 hold theirs
    in other rows, column 3 holds one), side by side, so neither holds a 4 or a 6."""
    p = VariantPuzzle(grid({(1, 4): 5, (2, 7): 5, (4, 2): 5}), (NonConsecutive(),))
    ok, cand = root(p)
    assert ok
    row1 = [c for c in range(9) if cand[c, 4]]
    assert row1 == [0, 1]
    for c in (0, 1):
        for d in (4, 6):
            assert not cand[c, d - 1], (c, d)
            assert impossible(p, (0, c), d)


def test_locked_candidates() -> None:
    """Box 1's rows 2 and 3 are full, so its 1 is in row 1, and the rest of row 1 has none
    (no other 1 is given: no peer removes it)."""
    givens = {(1, 0): 2, (1, 1): 3, (1, 2): 4, (2, 0): 5, (2, 1): 6, (2, 2): 7}
    p = VariantPuzzle(grid(givens), ())
    ok, cand = root(p)
    assert ok
    for c in range(3, 9):
        assert not cand[c, 0], c
    assert impossible(p, (0, 5), 1)


CASES = make_cases(77)


@pytest.mark.parametrize(("label", "data"), CASES, ids=[label for label, _ in CASES])
def test_propagation_keeps_every_true_candidate(label: str, data: dict[str, Any]) -> None:
    puzzle = from_fpuzzles(data)
    ok, cand = root(puzzle)
    true = variants.candidates(puzzle, backend="sat")
    if not ok:
        assert not true.any(), label
    assert not (true & ~cand).any(), label
