"""Minimal puzzles by top-down clue removal (RG2).

RG2 of Hunt, Pong and Tucker (*Difficulty-Driven Sudoku Puzzle Generation*,
section "Building the Generator"), also the design of the oracle paper's
generator (Fletcher, Johnson, Morrison, *Taking the Mystery Out of Sudoku
Difficulty*, section "Generation Algorithm"): start from a solved grid, take
clues out in random order, and put a clue back when the puzzle stops being
unique. Each removal costs one solver call through
:meth:`csp_sudoku.api.Checker.has_other_solution` against the known solution
grid (no "not this grid" bookkeeping here: the checker holds it).

Every clue is tried exactly once: if removing a clue leaves two solutions, it
leaves two solutions after any later removal too, so one pass in random order
ends at a **minimal** puzzle (no clue can be removed).

*Shortcut.* Before calling the solver, a compiled check asks whether every
removed cell is a naked or hidden single of the clues that remain; if so the
removal certainly keeps the puzzle unique (the cell is implied) and the solver
call is skipped. The decision is the same as the solver's, so the output is
identical with or without the shortcut; it only saves time (about half the
calls on 9x9).

*Symmetry.* With a symmetry (see :mod:`csp_sudoku.generators.symmetry`) whole
orbits are removed together, so the result is minimal **among puzzles with
that symmetric pattern**: no orbit can go, though a single clue of an orbit
sometimes could.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.api import Checker, PuzzleLike, as_puzzle
from csp_sudoku.core.errors import BudgetExhaustedError, GenerationError, NotUniqueError
from csp_sudoku.core.geometry import Geometry, check_geometry
from csp_sudoku.core.io import counted
from csp_sudoku.core.names import SymmetryName
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.core.seeds import SeedLike, as_generator, kernel_seeds
from csp_sudoku.core.verify import solution_fault
from csp_sudoku.generators.grids import _grid_cells, check_count
from csp_sudoku.generators.symmetry import check_name, orbit_index, orbits, symmetric_mask

if TYPE_CHECKING:
    from csp_sudoku._kernels.grids import UnitTables

__all__ = [
    "RemovalStats",
    "checker_for",
    "dug",
    "minimal_puzzle",
    "minimal_puzzles",
    "minimize",
    "reduce_clues",
]


@dataclass
class RemovalStats:
    """Counters of one or more reductions (for benchmarks and tests)."""

    tried: int = 0
    removed: int = 0
    solver_calls: int = 0
    shortcuts: int = 0


@cache
def _unit_tables(geometry: Geometry) -> UnitTables:
    """``(peers, units, cell_units)`` of ``geometry`` for the singles shortcut."""
    units = np.ascontiguousarray(geometry.units, dtype=np.int32)
    cell_units = np.ascontiguousarray(geometry.cell_units, dtype=np.int32)
    return geometry.peer_table, units, cell_units


def checker_for(geometry: Geometry, backend: str = "auto") -> Checker:
    """A cached :class:`~csp_sudoku.api.Checker` for ``geometry`` and ``backend``."""
    return _checker(geometry, backend)


@cache
def _checker(geometry: Geometry, backend: str) -> Checker:
    return Checker(geometry, backend)


def solution_grid(solution: PuzzleLike, geometry: Geometry, clues: Grid | None = None) -> Grid:
    """The cells of ``solution``, checked to be a full valid grid of ``geometry``
    that keeps every clue of ``clues`` (:func:`~csp_sudoku.core.verify.solution_fault`).

    The removal and the local-search move take the solution as given (one
    solver call per clue against it); a partial or wrong grid there would make
    them loop for ever or return a puzzle with no solution, so it is refused.

    Raises:
        GenerationError: when it is not such a grid.
    """
    cells = as_puzzle(solution, geometry).cells
    fault = solution_fault(cells, geometry, clues)
    if fault is not None:
        raise GenerationError(fault)
    return cells


def entry_setup(
    geometry: Geometry | None, seed: SeedLike, backend: str = "auto"
) -> tuple[Geometry, np.random.Generator, Checker]:
    """What a puzzle generator's entry point works with: the geometry (9x9 when
    None), the random generator of ``seed`` and the cached checker for ``backend``."""
    geo = check_geometry(geometry) or Geometry.standard(9)
    return geo, as_generator(seed), checker_for(geo, backend)


def reduce_clues(
    clues: Grid,
    solution: Grid,
    geometry: Geometry,
    rng: np.random.Generator,
    *,
    symmetry: str = "none",
    checker: Checker | None = None,
    shortcut: bool = True,
    stats: RemovalStats | None = None,
    until: int | None = None,
) -> Grid:
    """Remove clues (whole orbits) in random order while ``solution`` stays the only one.

    The core of RG2. ``clues`` must be a unique puzzle whose solution is
    ``solution``; the result is minimal (among ``symmetry``-patterned puzzles),
    unless ``until`` is given.
    Both are taken on trust (this runs in the generators' inner loops): the
    entry points check a solution given to them
    (:func:`solution_grid`), and so should a caller of this one.

    Args:
        clues: flat int8 cells of a unique puzzle (not modified).
        solution: its full solution grid.
        geometry: the shape.
        rng: the random generator deciding the order.
        symmetry: a name from :data:`~csp_sudoku.generators.symmetry.SYMMETRIES`.
        checker: the uniqueness checker (default: the cached ``auto`` one).
        shortcut: skip the solver when the removed cells are singles (same result).
        stats: counters to update.
        until: None removes every orbit it can (a minimal result). A number
            digs as RG2 is stated in its paper (Hunt, Pong and Tucker,
            *Difficulty-Driven Sudoku Puzzle Generation*, "RG2"): the first removal
            that leaves another solution is undone and ends the digging, once
            at most ``until`` clues remain (the cells' count: no limit). The
            result is unique and usually not minimal: what ``minimal=False``
            makes of a full grid.

    Returns:
        The reduced clues as a new flat int8 array.
    """
    from csp_sudoku._kernels import grids as _kernels

    chk = checker or _checker(geometry, "auto")
    work = np.array(clues, dtype=np.int8, copy=True)
    sol = np.ascontiguousarray(solution, dtype=np.int8)
    orbs = orbits(geometry.size, check_name(symmetry))
    order = rng.permutation(len(orbs))
    if (
        until is None
        and chk.backend.name == "fast"
        and geometry == Geometry.standard(9)
        and work.shape == (81,)
    ):
        # the standard grid: the whole loop in one call of the 9x9 kernel; same
        # order, same decisions, so the same puzzle as the loop below
        done = _reduce9(work, sol, symmetry, order, stats)
        if done is not None:
            return done
    unit_tables = _unit_tables(geometry)
    for k in order.tolist():
        group = orbs[k][work[orbs[k]] != 0]
        if group.size == 0:
            continue
        saved = work[group].copy()
        work[group] = 0
        if stats is not None:
            stats.tried += 1
        if shortcut and _kernels.implied(work, sol, group, unit_tables):
            if stats is not None:
                stats.shortcuts += 1
                stats.removed += 1
            continue
        if stats is not None:
            stats.solver_calls += 1
        if chk.has_other_solution(work, sol):
            work[group] = saved
            if until is not None and np.count_nonzero(work) <= until:
                break
        elif stats is not None:
            stats.removed += 1
    return work


def dug(
    clues: Grid,
    solution: Grid,
    geometry: Geometry,
    rng: np.random.Generator,
    *,
    minimal: bool,
    symmetry: str = "none",
    checker: Checker | None = None,
    max_clues: int | None = None,
) -> Grid:
    """A base puzzle made into what a run asked for: :func:`reduce_clues` to a minimal
    puzzle, or, with ``minimal`` False, a full grid dug as RG2's paper digs (``until``)
    down to ``max_clues`` (a full grid is no puzzle to give a user or climb from);
    another non-minimal puzzle is kept as it is.
    """
    if minimal:
        return reduce_clues(clues, solution, geometry, rng, symmetry=symmetry, checker=checker)
    if np.count_nonzero(clues) < clues.size:
        return clues
    until = clues.size if max_clues is None else max_clues
    return reduce_clues(
        clues, solution, geometry, rng, symmetry=symmetry, checker=checker, until=until
    )


#: Branch nodes per removal test in :func:`_reduce9` (the fast backend's default).
_BUDGET9 = 10_000


@cache
def _orbit_table(size: int, symmetry: str) -> NDArray[np.int64]:
    """The orbits of ``symmetry`` as an ``(norbits, 4)`` table padded with -1 (9x9 kernel)."""
    orbs = orbits(size, check_name(symmetry))
    table = np.full((len(orbs), 4), -1, dtype=np.int64)
    for k, orb in enumerate(orbs):
        table[k, : len(orb)] = orb
    return table


def _reduce9(
    clues: Grid,
    sol: Grid,
    symmetry: str,
    order: NDArray[np.intp],
    stats: RemovalStats | None,
) -> Grid | None:
    """:func:`reduce_clues` on the standard 9x9 grid in one compiled call; None if it gave up.

    A removal that propagation alone answers counts as a shortcut (a broader
    test than the singles shortcut of the general loop, with the same result).
    On None (a search over its node budget, never seen on 9x9) the caller
    runs the general loop over the same order.
    """
    from csp_sudoku._kernels import sudoku9

    work = clues.copy()  # the loop below needs the clues if the kernel gives up
    counts = np.zeros(4, dtype=np.int64)
    ok = sudoku9.reduce(
        work,
        sol,
        _orbit_table(9, symmetry),
        np.ascontiguousarray(order, dtype=np.int64),
        _BUDGET9,
        counts,
    )
    if ok != 0:
        return None
    if stats is not None:
        stats.tried += int(counts[0])
        stats.shortcuts += int(counts[1])
        stats.solver_calls += int(counts[2])
        stats.removed += int(counts[3])
    return work


def move9(
    clues: Grid,
    sol: Grid,
    rng: np.random.Generator,
    *,
    k: int = 0,
    symmetry: str = "none",
    minimal: bool = True,
) -> Grid | None:
    """A {-k+k} move of a unique standard 9x9 puzzle in one compiled call; None if it gave up.

    The move of the searches at the hard end
    (:func:`csp_sudoku._kernels.moves.move9` says what it does): ``k``
    clue orbits out, ``k`` empty orbits in from ``sol`` (``k`` 0: 1 or 2 at
    random), clues added back at random where another solution differs
    until ``sol`` is the only solution, and with ``minimal`` reduced again.
    ``clues`` must be a unique puzzle whose solution is ``sol`` (taken on
    trust, as :func:`reduce_clues` takes it). One seed is drawn from
    ``rng`` (:func:`~csp_sudoku.core.seeds.kernel_seeds`); the rest of the
    move's draws are the kernel's. On None (a search over its node budget,
    never seen on 9x9) the caller makes the move its own way.
    """
    from csp_sudoku._kernels import moves

    name = check_name(symmetry)
    work = np.empty(81, dtype=np.int8)
    got = moves.move9(
        np.ascontiguousarray(clues, dtype=np.int8),
        np.ascontiguousarray(sol, dtype=np.int8),
        _orbit_table(9, name),
        _orbit_index9(name),
        np.int64(k),
        kernel_seeds(rng, 1),
        minimal,
        _BUDGET9,
        work,
    )
    return work if got == 0 else None


@cache
def _orbit_index9(symmetry: str) -> NDArray[np.int64]:
    """Each cell's orbit of ``symmetry`` on the 9x9 grid, as the move kernel reads it."""
    return np.ascontiguousarray(orbit_index(9, symmetry), dtype=np.int64)


def minimal_puzzle(
    geometry: Geometry | None = None,
    seed: SeedLike = None,
    *,
    symmetry: str = "none",
    max_clues: int | None = None,
    mask: NDArray[np.bool_] | None = None,
    exact_mask: bool = False,
    solution: PuzzleLike | None = None,
    backend: str = "auto",
    attempts: int = 1000,
    stats: RemovalStats | None = None,
) -> Puzzle:
    """A random minimal puzzle (RG2: random grid, random-order removal).

    Args:
        geometry: the shape (default 9x9).
        seed: an int, a numpy Generator or None; the same int gives the same puzzle.
        symmetry: the clue-pattern symmetry (``none``, ``rot180``, ``rot90``,
            ``mirror``, ``flip``, ``diagonal``, ``antidiagonal``).
        max_clues: keep drawing grids until the minimal puzzle has at most this many clues.
        mask: ``(ncells,)`` booleans: clues may only sit where True (the
            "patterns game"). With a symmetry, only orbits wholly inside the
            mask are used.
        exact_mask: with ``mask``, ask for a puzzle whose clues are *exactly*
            the mask cells (unique, not reduced further); grids are drawn
            until one makes the pattern unique.
        solution: use this full grid instead of a random one (then only the
            removal order is random; with ``max_clues``/``mask`` a failure
            raises instead of retrying).
        backend: the checker backend (``auto`` = fastest available).
        attempts: how many grids to try for ``max_clues`` / ``mask``.
        stats: counters to update.

    Raises:
        BudgetExhaustedError: no grid met ``max_clues`` / ``mask`` within ``attempts``.
        GenerationError: a bad mask or solution, ``attempts`` below 1, or
            ``max_clues`` below the fewest clues of the shape (:func:`check_max_clues`).
    """
    geo = check_geometry(geometry) or (
        as_puzzle(solution).geometry if solution is not None else None
    )
    geo = geo or Geometry.standard(9)
    if not is_whole(attempts) or attempts < 1:
        raise GenerationError(f"attempts must be a whole number of at least 1, got {attempts!r}")
    check_max_clues(max_clues, geo)
    rng = as_generator(seed)
    sym = check_name(symmetry)
    allowed = _allowed_cells(geo, sym, mask)
    fixed: Grid | None = None
    if solution is not None:
        fixed = solution_grid(solution, geo)
        attempts = 1
    chk = _checker(geo, backend)
    for _ in range(attempts):
        sol = fixed if fixed is not None else _grid_cells(geo, rng)
        out = _one(geo, sol, rng, sym, allowed, exact_mask, chk, stats)
        if out is None:
            continue
        if max_clues is not None and int(np.count_nonzero(out)) > max_clues:
            continue
        return Puzzle.trusted(out, geo)  # clues of a valid grid: nothing to check
    what = []
    if max_clues is not None:
        what.append(f"at most {max_clues} clues")
    if allowed is not None:
        what.append("exactly the mask" if exact_mask else "clues inside the mask")
    raise BudgetExhaustedError(
        f"no unique minimal puzzle with {' and '.join(what) or 'these options'} "
        f"in {counted(attempts, 'grid')}; raise attempts or relax the options",
        found=0,
        wanted=1,
    )


def _allowed_cells(
    geo: Geometry, sym: str, mask: NDArray[np.bool_] | None
) -> NDArray[np.bool_] | None:
    if mask is None:
        return None
    m = np.asarray(mask)
    if m.size != geo.ncells:
        raise GenerationError(f"mask needs {geo.ncells} cells, got {m.size}")
    allowed = symmetric_mask(m.reshape(-1) != 0, geo.size, sym)
    if not allowed.any():
        raise GenerationError(f"the mask holds no whole {sym} orbit")
    return allowed


def _one(
    geo: Geometry,
    sol: Grid,
    rng: np.random.Generator,
    sym: str,
    allowed: NDArray[np.bool_] | None,
    exact_mask: bool,
    chk: Checker,
    stats: RemovalStats | None,
) -> Grid | None:
    """Reduce one grid; None when the masked start is not unique."""
    start = sol.copy()
    if allowed is not None:
        start[~allowed] = 0
        if stats is not None:
            stats.solver_calls += 1
        if chk.has_other_solution(start, sol):
            return None
        if exact_mask:
            return start
    return reduce_clues(start, sol, geo, rng, symmetry=sym, checker=chk, stats=stats)


def check_max_clues(max_clues: int | None, geometry: Geometry) -> None:
    """Refuse a clue bound no puzzle of ``geometry`` can meet, before any search.

    Raises:
        GenerationError: ``max_clues`` below :attr:`Geometry.fewest_clues` (17 for
            9x9, a proved bound; ``size - 1`` where no exact value is known), where
            every attempt would fail.
    """
    fewest = geometry.fewest_clues
    if max_clues is None or max_clues >= fewest:
        return
    if fewest > geometry.size - 1:  # the exact fewest, proved (the standard 4x4, 9x9)
        why = f"the fewest clues a {geometry.name} puzzle with one solution can have"
        why += " (a proved bound)"
    else:
        why = (
            f"a {geometry.name} puzzle with one solution shows at least {fewest} different "
            "digits (two digits that no clue shows could be swapped in its solution), so "
            "it has at least as many clues"
        )
    raise GenerationError(f"max_clues {max_clues} is below {fewest}: {why}: no puzzle can pass")


def minimal_puzzles(
    count: int,
    geometry: Geometry | None = None,
    seed: SeedLike = None,
    *,
    symmetry: str = "none",
    backend: str = "auto",
    stats: RemovalStats | None = None,
) -> Iterator[Puzzle]:
    """``count`` random minimal puzzles from one generator stream (see :func:`minimal_puzzle`)."""
    count = check_count(count)
    rng = as_generator(seed)
    for _ in range(count):
        yield minimal_puzzle(geometry, rng, symmetry=symmetry, backend=backend, stats=stats)


def minimize(
    puzzle: PuzzleLike,
    *,
    seed: SeedLike = None,
    symmetry: SymmetryName = "none",
    backend: str = "auto",
) -> Puzzle:
    """Make a unique puzzle minimal by removing clues in random order (RG2 step (a)-(b)).

    The result keeps only clues of ``puzzle`` and has the same solution. With
    a symmetry, the clues of an orbit are removed together (orbits that are
    only partly filled are removed as whole too), so a symmetric input stays
    symmetric.

    Raises:
        NotUniqueError: when ``puzzle`` has no solution or several.
    """
    p = as_puzzle(puzzle)
    chk = _checker(p.geometry, backend)
    sols = chk.backend.solutions(p.cells, p.geometry, 2)
    if len(sols) != 1:
        raise NotUniqueError(
            f"only a unique puzzle can be minimised; this one has "
            f"{'no solution' if not sols else 'several solutions'}"
        )
    out = reduce_clues(
        p.cells, sols[0], p.geometry, as_generator(seed), symmetry=symmetry, checker=chk
    )
    return Puzzle(out, p.geometry)


def neighbour(
    puzzle: PuzzleLike,
    solution: PuzzleLike,
    *,
    seed: SeedLike = None,
    backend: str = "auto",
) -> Puzzle:
    """A random minimal neighbour of a minimal puzzle, with the same solution.

    The move of a local search over minimal puzzles (simulated annealing,
    hill climbing): remove one random clue; while the puzzle has a solution
    other than ``solution``, add ``solution``'s digit at a random cell where
    that other solution differs (never the removed cell); then make the result
    minimal again in one pass (:func:`reduce_clues`, random order). Each call
    is a handful of compiled solver calls.

    Args:
        puzzle: a unique puzzle whose solution is ``solution``.
        solution: its full solution grid.
        seed: the randomness (int, Generator, SeedSequence or None; see
            :mod:`csp_sudoku.core.seeds`): a Generator is advanced, so a loop can
            pass one generator to every call.
        backend: the uniqueness backend.

    Returns:
        A minimal puzzle with the same solution; it may equal ``puzzle`` when
        the move found nothing new.

    Raises:
        GenerationError: ``solution`` is not a full valid grid that keeps the
            puzzle's clues.
        NotUniqueError: ``puzzle`` has another solution (its neighbour would be
            no puzzle of ``solution``: the empty grid came back as it was).
    """
    p = as_puzzle(puzzle)
    sol = solution_grid(solution, p.geometry, p.cells)
    rng = as_generator(seed)
    chk = _checker(p.geometry, backend)
    if chk.backend.other_solution(p.cells, p.geometry, sol) is not None:
        raise NotUniqueError("neighbour needs a puzzle with one solution; this one has more")
    clues = np.flatnonzero(p.cells)
    if clues.size == 0:
        return p
    out_cell = int(rng.choice(clues))
    work = p.cells.copy()
    work[out_cell] = 0
    everywhere = np.arange(p.geometry.ncells) != out_cell
    while True:
        other = chk.backend.other_solution(work, p.geometry, sol)
        if other is None:
            break
        differ = np.flatnonzero((np.asarray(other) != sol) & everywhere & (work == 0))
        if differ.size == 0:  # cannot happen: the other solution differs at an empty cell
            work[out_cell] = sol[out_cell]
            continue
        c = int(rng.choice(differ))
        work[c] = sol[c]
    return Puzzle(reduce_clues(work, sol, p.geometry, rng, checker=chk), p.geometry)
