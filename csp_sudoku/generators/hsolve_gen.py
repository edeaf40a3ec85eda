"""hsolve's two generators: the standard generator and the pseudo-generator.

Chang, Fan, Sun, *hsolve: A Difficulty Metric and Puzzle Generator for Sudoku*
(MCM 2008):

- **Standard generator** (section 4.1): start from an empty board; repeatedly
  fill a random empty cell with a random candidate and let the strategies
  make every deduction they can; abort on a contradiction. The puzzle is the
  cells filled by hand. It is unique *by construction* (section 4.1.1): every
  other cell was deduced by sound rules, so no solver call is needed.
- **Pseudo-generator** (section 4.2): from a hard *seed board*, find the
  *reserved cells* that strategies of tiers ``0..k`` cannot fill; then, from an
  empty board, reveal random unreserved cells of the seed's solution (with
  tier-``k`` deductions after each) until every unreserved cell is known. The
  reserved cells still need a strategy above tier ``k``, so the new puzzle
  keeps the seed's hard step. As the paper suggests (section 4.2.2), the seed is
  first disguised by a random validity-preserving transformation and drawn
  from a bank (:data:`SEED_BANK`, hard puzzles published on the forums).

The strategies are hsolve's own (:mod:`csp_sudoku.human.strategies`, tiers
0-5); tier 0 (naked and hidden singles) uses the candidate state directly.
Tier 5 (backtracking) is not used for deduction here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.core.seeds import SeedLike, as_generator
from csp_sudoku.human.state import CandidateState

__all__ = [
    "SEED_BANK",
    "deduce",
    "pseudo_from_bank",
    "pseudo_puzzle",
    "reserved_cells",
    "standard_clues",
    "standard_puzzle",
]

#: Hard 9x9 seed boards for the pseudo-generator: every 12th puzzle of the
#: forum's "hardest" list (HardestDatabase110626, forum.enjoysudoku.com); hsolve's
#: tiers 0-3 leave over 50 cells of each unsolved.
SEED_BANK: tuple[str, ...] = (
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    "..6.....1.8...7.5.9...5.8.......4....4..3..2....2.8.....3.7...9.7.....8.1.....6.3",
    "..1.......5...6..16.7...........1..3...4.5.8..9..2..5...5..3..7....8..4..3.5..2..",
    "........8..3.9.4..6....7.1....5.97...3.....2...74........7....6..4.5.3..81.......",
    "..8...3...7...9.4.1.......2.6...4......98.......7.6.5.2.......1.9.4...6...3...8..",
    "5.......7.8...9.3...4...2...1..36.......4.......1.8.6...2...4...9.3...1.7.......5",
    ".......93.8......5..3.6.8....5.9...67....2......4.......9.8..5..2.7..6..4.....1..",
    "9....4....3..6..7...5...8...2.1.6.......7...3...2...1...8...9...7..1..6.4.......5",
    "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.",
    "...4....9....8.2..6....3.1..1...7...7..6..5...3.....7.3....5.2...29..8......2...4",
    "1.......2.3.4...5...6...7...5.8.4.......73......9...8.7.....6...4...8.9...2.....1",
    "...4....9.5...9.3.......1.52..8.......6.4.....1...53....42...7.8...67....7......3",
    "1....6....5......6..9.7..1...4.1..7.3..8......8...53.......4.2.....2.9.7..27..1..",
    "1...5..8.......1...8...3..6..7..4.6.3...7...4.4....8..5.2....9....29.....6...7..8",
    "..3.5.7.....7......8...2..62.4.....1.1....86.8....12..5..39...........9..4...8..2",
    "1....6.8....7..1....9.....4.......5..18..5...5..36....6.5..8.3.8....3.1.....2...8",
    "1...5..8......9..6..92..5.......3..8.7.9.......4.2.3..6...4....7.......1..5..24..",
    "...4...8.4....9..2...23.....7...56..3..9....5.......1.5...9...4.6.5...7...1...8..",
    "1..4.......7.8...6.9....41..3............39....5.6...7..2..8....7..2..6.8....5..2",
    "1....6..9.5.7...2.......5...3......8.91..8...8..36........2.47...4......9....3..1",
    "..3......4...8..36..8...1...4..6..73...9..........2..5....7..686....4...7.....54.",
    "......7....71.9...68..7......1.9.6..8.......4.4.....2...8.6.1..5..3..........2.53",
    "1....6.8..5.1..2....9...1...9..3......45.....6....2..8.4.....6.7....18.....3...7.",
    "......7....71.9...68..7......8.6.1..5..3...2.........3..1.9.8.......2..4.4.....5.",
    "1....6.8..5.1....6..9.3.5...7.8.......5.2.9.......7...39....4......4......4....52",
    ".2.4...8.....8....7....2..6..49..1..6....7..3.9..1.....62.....55.....37......5...",
    ".2......9.5.1..2..6..7...5.....1......68.5.2.....2...3.6.2.8.7.7...6.4..8........",
    "1...5.7.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.",
    ".2.4...8...7.....3.8.237.1.2.1....9..9....8.4...9......1.8...4.5.8..........6....",
    ".2..5...9...7.....7.....5..2..........4..8....6..2..91.3.2..9..6...9..13..1.6..2.",
)


if TYPE_CHECKING:
    from csp_sudoku.generators.registry import BaseRequest


def _place_singles(state: CandidateState) -> bool:
    """Tier 0 to a fixpoint; False on a contradiction."""
    while True:
        if state.is_contradiction():
            return False
        found = state.singles()
        if not found:
            return True
        for s in found:
            if state.values[s.cell]:
                continue
            if not state.has(s.cell, s.digit):
                return False
            state.place(s.cell, s.digit)


def deduce(state: CandidateState, max_tier: int = 0) -> bool:
    """Apply hsolve's strategies of tiers ``0..max_tier`` until none applies.

    Higher tiers run only when the lower ones are stuck (the paper's order).

    Returns:
        False when the state reaches a contradiction.
    """
    if max_tier < 0 or max_tier > 4:
        raise GenerationError(f"max_tier must be 0..4 for deduction, got {max_tier}")
    while True:
        if not _place_singles(state):
            return False
        if state.is_solved() or max_tier == 0:
            return True
        from csp_sudoku.human.strategies import TIERS, apply, valid_applications

        progressed = False
        for tier in range(1, max_tier + 1):
            for name in TIERS[tier]:
                apps = valid_applications(state, name)
                if apps:
                    for app in apps:
                        apply(state, app)
                    progressed = True
                    break
            if progressed:
                break
        if not progressed:
            return not state.is_contradiction()


def standard_clues(
    geometry: Geometry, rng: np.random.Generator, *, max_tier: int = 0, tries: int = 50
) -> tuple[Grid, Grid] | None:
    """Section 4.1: the hand-filled cells and the completed board, or None after ``tries``."""
    n = geometry.size
    empty = Puzzle(np.zeros(geometry.ncells, dtype=np.int8), geometry)
    for _ in range(tries):
        state = CandidateState.from_puzzle(empty)
        clues = np.zeros(geometry.ncells, dtype=np.int8)
        ok = True
        while not state.is_solved():
            open_cells = state.empty_cells()
            c = int(open_cells[rng.integers(open_cells.size)])
            mask = int(state.masks[c])
            digits = [d + 1 for d in range(n) if mask >> d & 1]
            if not digits:
                ok = False
                break
            d = digits[int(rng.integers(len(digits)))]
            clues[c] = d
            state.place(c, d)
            if not deduce(state, max_tier):
                ok = False
                break
        if ok:
            return clues, state.values.copy()
    return None


def standard_puzzle(
    geometry: Geometry | None = None, seed: SeedLike = None, *, max_tier: int = 0
) -> Puzzle:
    """A puzzle from hsolve's standard generator (unique by construction, not minimal).

    Raises:
        GenerationError: when 50 restarts all ended in contradictions.
    """
    geo = geometry or Geometry.standard(9)
    made = standard_clues(geo, as_generator(seed), max_tier=max_tier)
    if made is None:
        raise GenerationError("the standard generator hit a contradiction 50 times in a row")
    return Puzzle(made[0], geo)


def reserved_cells(puzzle: Puzzle, k: int) -> NDArray[np.intp]:
    """Section 4.2 steps 1-3: the cells still empty after tiers ``0..k`` on the seed board."""
    state = CandidateState.from_puzzle(puzzle)
    deduce(state, k)
    return np.flatnonzero(state.values == 0)


def _transform_pair(
    clues: Grid, solution: Grid, geometry: Geometry, rng: np.random.Generator
) -> tuple[Grid, Grid]:
    """One random validity-preserving transformation applied to a puzzle and its solution."""
    from csp_sudoku.generators.grids import random_transform

    state = rng.bit_generator.state
    a = random_transform(clues, geometry, rng)
    rng.bit_generator.state = state
    b = random_transform(solution, geometry, rng)
    return a, b


def pseudo_puzzle(
    seed_board: Puzzle | str,
    seed: SeedLike = None,
    *,
    k: int = 1,
    disguise: bool = True,
) -> Puzzle:
    """Section 4.2: a new puzzle keeping the hard step of ``seed_board``.

    Args:
        seed_board: a unique puzzle that tiers ``0..k`` cannot finish.
        seed: an int, a numpy Generator or None.
        k: the highest tier the generator deduces with.
        disguise: first apply a random row/column/digit transformation.

    Raises:
        NotUniqueError: when the seed board is not unique.
    """
    from csp_sudoku.api import as_puzzle
    from csp_sudoku.metrics.base import unique_solution

    board = as_puzzle(seed_board)
    sol = unique_solution(board).cells
    clues, _ = _pseudo(board.cells, sol, board.geometry, as_generator(seed), k, disguise)
    return Puzzle(clues, board.geometry)


def _pseudo(
    seed_clues: Grid,
    sol: Grid,
    geometry: Geometry,
    rng: np.random.Generator,
    k: int,
    disguise: bool,
) -> tuple[Grid, Grid]:
    """The pseudo-generated clues and the (disguised) solution."""
    if disguise:
        seed_clues, sol = _transform_pair(seed_clues, sol, geometry, rng)
    reserved = np.zeros(geometry.ncells, dtype=bool)
    reserved[reserved_cells(Puzzle(seed_clues, geometry), k)] = True
    state = CandidateState.from_puzzle(Puzzle(np.zeros(geometry.ncells, dtype=np.int8), geometry))
    clues = np.zeros(geometry.ncells, dtype=np.int8)
    while True:
        todo = np.flatnonzero((state.values == 0) & ~reserved)
        if todo.size == 0:
            return clues, sol
        c = int(todo[rng.integers(todo.size)])
        clues[c] = sol[c]
        state.place(c, int(sol[c]))
        deduce(state, k)


def pseudo_from_bank(
    geometry: Geometry,
    rng: np.random.Generator,
    *,
    k: int = 1,
    origin: list[str] | None = None,
) -> tuple[Grid, Grid] | None:
    """A pseudo-generated puzzle from a random board of :data:`SEED_BANK` (9x9 only).

    ``origin``, when given, receives the seed board (the output shares its hard core).
    """
    if geometry != Geometry.standard(9):
        raise GenerationError("the pseudo-generator's seed bank holds 9x9 puzzles only")
    from csp_sudoku.api import as_puzzle
    from csp_sudoku.metrics.base import unique_solution

    line = SEED_BANK[int(rng.integers(len(SEED_BANK)))]
    if origin is not None:
        origin.append(line)
    board = as_puzzle(line)
    sol = unique_solution(board).cells
    return _pseudo(board.cells, sol, geometry, rng, k, True)


def base(request: BaseRequest) -> tuple[Grid, Grid] | None:
    """The ``hsolve`` base generator (hsolve's standard generator): :func:`standard_clues`."""
    return standard_clues(request.geometry, request.rng)


def pseudo_base(request: BaseRequest) -> tuple[Grid, Grid] | None:
    """The ``pseudo`` base generator (hsolve's pseudo-generator): :func:`pseudo_from_bank`."""
    return pseudo_from_bank(request.geometry, request.rng, origin=request.origin)
