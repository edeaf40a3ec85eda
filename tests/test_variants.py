"""Variant puzzles drawn from random grids: SAT and CP-SAT agree, solutions pass an independent check.

The cases come from :mod:`csp_sudoku.variants.random` (through
``tests/variant_maker.py``): each an f-puzzles object drawn to fit a full
grid, with givens added until unique, and from it one with several solutions
(givens removed) and a broken one (a constraint or given the grid breaks).
On every puzzle the two backends must give the same count and verdict, and
every solution must pass :func:`tests.independent_variants.broken_rules`,
which shares no code with the package.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku import variants
from csp_sudoku.constraints import KINDS, from_fpuzzles, to_fpuzzles
from csp_sudoku.constraints.puzzle import VariantPuzzle
from tests.independent_variants import broken_rules
from tests.variant_maker import N, make_cases

CASES = make_cases(2024)


def test_every_kind_is_made() -> None:
    kinds = set()
    for _, data in CASES:
        p = from_fpuzzles(data)
        kinds.update(c.kind for c in p.constraints)
    assert kinds == set(KINDS)


@pytest.mark.parametrize(("label", "data"), CASES, ids=[label for label, _ in CASES])
def test_sat_and_cpsat_agree(label: str, data: dict[str, Any]) -> None:
    puzzle = from_fpuzzles(data)
    sat = variants.solutions(puzzle, 3, backend="sat")
    cp = variants.solutions(puzzle, 3, backend="cpsat")
    assert len(sat) == len(cp), label
    assert variants.check(puzzle) == variants.check(puzzle, backend="cpsat")
    for sol in sat + cp:
        rows = sol.cells.reshape(N, N).tolist()
        assert broken_rules(data, rows) == [], label
        assert puzzle.keeps(sol.cells)
    if label.endswith(":unique"):
        assert len(sat) == 1
    if label.endswith(":multiple"):
        assert len(sat) >= 2


def test_the_verdicts_cover_every_case() -> None:
    seen = Counter(variants.check(from_fpuzzles(d)) for _, d in CASES)
    assert seen["unique"] and seen["multiple"] and seen["none"], seen


@pytest.mark.parametrize(("label", "data"), CASES[::5], ids=[label for label, _ in CASES[::5]])
def test_true_candidates_agree(label: str, data: dict[str, Any]) -> None:
    puzzle = from_fpuzzles(data)
    sat = variants.candidates(puzzle)
    assert (sat == variants.candidates(puzzle, backend="cpsat")).all()
    sols = variants.solutions(puzzle, 300)
    if len(sols) < 300:  # every solution seen: the union is the true candidates
        union = np.zeros_like(sat)
        for s in sols:
            union[np.arange(N * N), s.cells.astype(int) - 1] = True
        assert (union == sat).all()


def test_round_trip_on_every_case() -> None:
    for _, data in CASES:
        p = from_fpuzzles(data)
        assert from_fpuzzles(to_fpuzzles(p)) == p


def test_a_puzzle_with_a_constraint_the_grid_breaks_is_refused_by_its_check() -> None:
    data = next(d for label, d in CASES if label == "killercage:unique")
    p = from_fpuzzles(data)
    sol = variants.solve(p)
    assert sol is not None and p.keeps(sol.cells)
    cells = sol.cells.copy()
    cells[[0, 1]] = cells[[1, 0]]
    assert not p.keeps(cells)
    # the solvers' own Puzzle, and its line, are read as grids too (the one raised
    # TypeError; the line was read as one cell and answered False)
    assert p.keeps(sol) and p.keeps(sol.to_line())
    assert not p.keeps(cs.Puzzle(cells, sol.geometry)) and not p.keeps("".join(map(str, cells)))


def test_the_candidates_cap_is_honoured() -> None:
    p = VariantPuzzle(cs.Puzzle(np.zeros(81, dtype=np.int8)))
    with pytest.raises(cs.SudokuError):
        variants.candidates(p, cap=3)


def test_a_plain_puzzle_is_a_variant_with_no_constraint() -> None:
    """``check_variant(cs.parse(P))`` and the other variant functions raised
    AttributeError ("no attribute 'constraints'") on a plain Puzzle or line;
    ``count_variant(V, np.int64(3))`` refused a numpy integer."""
    from csp_sudoku.core.errors import ArgumentError

    plain = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    solution = cs.solve(plain)
    assert cs.check_variant(cs.parse(plain)) == "unique" and cs.count_variant(plain) == 1
    assert cs.solve_variant(plain) == solution
    assert cs.variant_solutions(cs.parse(plain), 3) == [solution]
    truth = cs.variant_candidates(plain)
    assert truth.sum() == 81 and all(truth[c, d - 1] for c, d in enumerate(solution.cells))
    assert cs.count_variant(plain, np.int64(3)) == 1
    with pytest.raises(ArgumentError, match="a variant puzzle is a VariantPuzzle"):
        cs.check_variant(5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="cap must be a whole number"):
        cs.variant_candidates(plain, "3")  # type: ignore[arg-type]
