"""The optimisation-loop API: one-pass minimiser, neighbour move, solve vs solve_cells."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku import Checker, Geometry
from csp_sudoku.core.errors import GenerationError
from csp_sudoku.generators import minimal_puzzle
from tests.independent import check_solution, count_solutions

SOLUTION = cs.random_grid(seed=3)
START = cs.minimize(SOLUTION, seed=4)


def _is_minimal_independently(p: cs.Puzzle) -> bool:
    """Unique, and every single clue removed opens a second solution (plain counter)."""
    cells = np.asarray(p.cells)
    if count_solutions(cells, 2) != 1:
        return False
    for c in np.flatnonzero(cells):
        work = cells.copy()
        work[c] = 0
        if count_solutions(work, 2) == 1:
            return False
    return True


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_neighbour_is_a_minimal_puzzle_with_the_same_solution(seed: int) -> None:
    nxt = cs.neighbour(START, SOLUTION, seed=seed)
    assert _is_minimal_independently(nxt)
    sol = cs.solve(nxt)
    assert sol is not None and np.array_equal(sol.cells, SOLUTION.cells)
    assert check_solution(SOLUTION.cells, nxt.cells)
    # same seed, same neighbour
    assert cs.neighbour(START, SOLUTION, seed=seed) == nxt


def test_a_generator_seed_is_advanced_between_moves() -> None:
    rng = np.random.default_rng(9)
    moves = {cs.neighbour(START, SOLUTION, seed=rng).to_line() for _ in range(6)}
    assert len(moves) >= 2


def test_minimize_is_one_pass_and_minimal() -> None:
    p = cs.minimize(SOLUTION, seed=11)
    assert _is_minimal_independently(p)
    assert cs.minimize(SOLUTION, seed=11) == p


def test_checker_solve_returns_a_puzzle_and_solve_cells_an_array() -> None:
    chk = Checker(Geometry.standard(9))
    sol = chk.solve(START)
    assert isinstance(sol, cs.Puzzle) and sol == cs.solve(START)
    cells = chk.solve_cells(START.cells)
    assert isinstance(cells, np.ndarray) and np.array_equal(cells, sol.cells)
    assert chk.solve(cs.parse("11" + "." * 79)) is None


def _bad_solutions() -> dict[str, np.ndarray]:
    """A partial grid, a full grid that breaks its units, and a valid grid that
    contradicts START's clues."""
    other = cs.solve("." * 81)
    assert other is not None and not np.array_equal(other.cells, SOLUTION.cells)
    invalid = SOLUTION.cells.copy()
    invalid[[0, 1]] = invalid[[1, 0]]  # two digits swapped inside row 1
    return {"partial": START.cells, "invalid": invalid, "other grid": other.cells}


def test_a_solution_that_is_no_valid_grid_of_the_clues_is_refused() -> None:
    # Before, a partial solution made neighbour loop for ever, and a wrong grid
    # made it (and minimal_puzzle) return a puzzle with no solution.
    for name, bad in _bad_solutions().items():
        try:
            cs.neighbour(START, bad, seed=1)
        except GenerationError as e:
            assert "solution" in str(e), name
        else:
            raise AssertionError(f"neighbour took the {name} solution")
    for name in ("partial", "invalid"):
        try:
            minimal_puzzle(solution=_bad_solutions()[name], seed=1)
        except GenerationError:
            pass
        else:
            raise AssertionError(f"minimal_puzzle took the {name} solution")


def test_removable_clues_refuses_a_solution_that_is_not_the_puzzles() -> None:
    """With a wrong or partial solution, the puzzle looked minimal (no clue
    removable); the given solution is now checked first."""
    chk = Checker(Geometry.standard(9))
    for name, bad in _bad_solutions().items():
        try:
            chk.removable_clues(START, bad)
        except cs.SudokuError as e:
            assert "solution" in str(e), name
        else:
            raise AssertionError(f"removable_clues took the {name} solution")
    assert chk.removable_clues(START, SOLUTION).size == 0


def test_is_solution_reads_puzzle_text() -> None:
    assert cs.is_solution(SOLUTION.to_line(), START.to_line())
    assert not cs.is_solution(START.to_line(), START.to_line())
    other = cs.solve("." * 81)
    assert other is not None
    assert not cs.is_solution(other.to_line(), START)


def test_a_puzzle_with_several_solutions_has_no_neighbour() -> None:
    """``neighbour("." * 81, grid)`` gave the empty grid back, a "minimal puzzle with
    the same solution" that has billions."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import NotUniqueError

    grid = cs.random_grid(seed=1)
    for puzzle in ("." * 81, grid.to_line()[:40] + "." * 41):
        with pytest.raises(NotUniqueError, match="one solution"):
            cs.neighbour(puzzle, grid, seed=5)
