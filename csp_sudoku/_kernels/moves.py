"""The search's {-k+k} move on a 9x9 puzzle, in one compiled call (numba).

A move of the annealing search (:mod:`csp_sudoku.generators.anneal`) takes
``k`` clue orbits out of a unique puzzle, puts ``k`` empty orbits in (their
digits from the solution grid), adds back a clue wherever another solution
appears until the solution is unique again, and (for minimal puzzles)
removes clues until the puzzle is minimal. The search makes tens of
thousands of moves a minute; written with numpy calls between the compiled
searches, a move cost 1.61 times the CPU time of this one (0.149 against
0.092 ms, ``benchmarks/bench_moves.py``). Here the whole move is one call:
the draws from
:mod:`csp_sudoku._kernels.rng`, the uniqueness searches of
:func:`csp_sudoku._kernels.sudoku9.count_cells` and the removal loop of
:func:`csp_sudoku._kernels.sudoku9.reduce`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels.rng import rng_below
from csp_sudoku._kernels.status import GAVE_UP
from csp_sudoku._kernels.sudoku9 import count_cells, reduce

_GAVE_UP = GAVE_UP  # a module constant numba reads as a literal


@njit(cache=True, inline="always")
def _set_orbit(work, orbits, orbit, sol, fill):  # type: ignore[no-untyped-def]
    """Fill the cells of ``orbit`` in ``work`` from ``sol`` (``fill``), or empty them."""
    for j in range(orbits.shape[1]):
        c = orbits[orbit, j]
        if c >= 0:
            work[c] = sol[c] if fill else 0


@njit(cache=True)
def move9(clues, sol, orbits, oidx, k, state, minimal, budget, work):  # type: ignore[no-untyped-def]
    """A {-k+k} move of the 81 clues ``clues`` (solution ``sol``) into ``work``.

    ``orbits`` is an ``(norbits, 4)`` table of cell groups padded with -1 and
    ``oidx`` each cell's orbit; ``k`` 0 draws 1 or 2. ``state`` is a
    splitmix64 state (:mod:`csp_sudoku._kernels.rng`), advanced in place.
    The move takes ``k`` orbits holding clues and ``k`` empty ones at random
    (each set without repeats), fills the latter from ``sol``, then, while the
    clues admit a solution other than ``sol``, fills one cell of the move's
    empty cells where that solution differs (its orbit, drawn at random).
    With ``minimal`` it ends with :func:`~csp_sudoku._kernels.sudoku9.reduce`
    in a random order. Returns 0, or ``GAVE_UP`` when a search passed
    ``budget`` branch nodes (``work`` is then not a move).
    """
    norbits = orbits.shape[0]
    has = np.zeros(norbits, np.bool_)
    for c in range(81):
        work[c] = clues[c]
        if clues[c] != 0:
            has[oidx[c]] = True
    filled = np.empty(norbits, np.int64)
    empty = np.empty(norbits, np.int64)
    nf = 0
    ne = 0
    for o in range(norbits):
        if has[o]:
            filled[nf] = o
            nf += 1
        else:
            empty[ne] = o
            ne += 1
    if k == 0:
        k = 1 + rng_below(state, 2)
    k = min(k, nf, ne)
    # k draws without repeats from each list: a partial Fisher-Yates shuffle
    for i in range(k):
        j = i + rng_below(state, nf - i)
        filled[i], filled[j] = filled[j], filled[i]
        _set_orbit(work, orbits, filled[i], sol, False)
    for i in range(k):
        j = i + rng_below(state, ne - i)
        empty[i], empty[j] = empty[j], empty[i]
        _set_orbit(work, orbits, empty[i], sol, True)
    other = np.empty((1, 81), np.int8)
    differ = np.empty(81, np.int64)
    while True:
        n = count_cells(work, 1, sol, other, budget)
        if n == _GAVE_UP:
            return _GAVE_UP
        if n == 0:
            break
        m = 0
        for c in range(81):
            if work[c] == 0 and other[0, c] != sol[c]:
                differ[m] = c
                m += 1
        _set_orbit(work, orbits, oidx[differ[rng_below(state, m)]], sol, True)
    if minimal:
        order = np.arange(norbits)
        for i in range(norbits - 1, 0, -1):
            j = rng_below(state, i + 1)
            order[i], order[j] = order[j], order[i]
        counts = np.zeros(4, np.int64)
        got = reduce(work, sol, orbits, order, budget, counts)
        if got != 0:
            return got
    return 0
