"""Numba kernel of ``bank add``: the facts of a batch of new 9x9 puzzles in one call.

A puzzle added to a bank is solved (is it unique, and what is its solution?)
and, unless asked not to, checked for minimality (can a clue go?). The bank
keeps only the yes/no of minimality, so :func:`facts_rows` asks exactly that,
with the fast backend's 9x9 search (:mod:`csp_sudoku._kernels.sudoku9`):

* the count to two solutions (:func:`~csp_sudoku._kernels.sudoku9.count_part`,
  one workspace for the whole batch: no allocation a puzzle);
* the cheap test first: a clue ``c`` that the other clues force by a naked or
  hidden single (:func:`~csp_sudoku._kernels.sudoku9._single`) can go, and the
  puzzle is not minimal (no propagation, no search);
* else one search a clue, stopping at the first clue that can go. Clue ``c``
  of a puzzle whose solution is ``S`` is needed exactly when the other clues
  have a solution ``T`` with ``T[c] != S[c]``: a search for *one* solution
  with ``S[c]`` barred at ``c``, not a count to two. Propagation alone often
  finds the contradiction at once when ``c`` can go; when it is needed the
  search finds ``T`` in a few nodes. Each test starts from the intersection of
  the propagated states of the clues before ``c`` (grown clue by clue) and of
  those after it (built once, from the end), as
  :func:`~csp_sudoku._kernels.sudoku9.removable` does, but over the clues only.

A non-minimal puzzle then costs a few microseconds (mostly the count); a
minimal one a search a clue, as before. Called one puzzle at a time from
Python the searches would cost as much again in the interpreter, and hold the
GIL; :func:`facts_rows` runs a whole batch in one compiled call that releases
the GIL, so the threads of :mod:`csp_sudoku.tools.bank` share a batch among
the cores.

Each row gets one of the ``FACT_*`` codes; a row whose search ran out of its
budget (``FACT_GAVE_UP``) is taken again by the backend, which hands it to
another solver, exactly as a single check would.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target, sudoku9
from csp_sudoku._kernels.status import GAVE_UP, WORKSPACE9

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

#: One solution, and no clue can go.
FACT_MINIMAL = 0
#: One solution, and some clue can go.
FACT_NOT_MINIMAL = 1
#: One solution; minimality not asked.
FACT_UNIQUE = 2
#: No solution.
FACT_NONE = 3
#: Two solutions or more.
FACT_SEVERAL = 4
#: A search ran out of its budget: the caller asks the backend.
FACT_GAVE_UP = 5

#: Words of a 9x9 search state (:mod:`csp_sudoku._kernels.sudoku9`'s layout).
_WORDS = sudoku9._WORDS


@nb.njit(cache=True)
def _a_single_can_go(cells, n, clue_cells, work, holds):  # type: ignore[no-untyped-def]
    """True when one of the ``n`` clues (cells ``clue_cells[:n]``) is forced by a
    naked or hidden single of the others, so that it can go.

    ``work`` (81 values) and ``holds`` (10 words) are scratch space: the clues,
    and the units holding a clue of each digit, kept up to date as each clue
    is taken out and put back.
    """
    bits = sudoku9._CELL_UNIT_BITS
    for d in range(10):
        holds[d] = 0
    for c in range(81):
        work[c] = cells[c]
        holds[cells[c]] |= bits[c]
    for k in range(n):
        c = clue_cells[k]
        v = cells[c]
        holds[v] &= ~bits[c]
        work[c] = 0
        forced = sudoku9._single(work, holds, c, v)
        work[c] = v
        holds[v] |= bits[c]
        if forced:
            return True
    return False


@nb.njit(cache=True)
def _minimal(cells, sol, budget, scratch):  # type: ignore[no-untyped-def]
    """``FACT_MINIMAL`` or ``FACT_NOT_MINIMAL`` for the unique puzzle ``cells``
    whose solution is ``sol`` (``FACT_GAVE_UP`` when a search gave up after
    ``budget`` nodes before any clue was found that can go).

    See the module notes: the singles test, then one search a clue with the
    clue's digit in ``sol`` barred, stopping at the first clue that can go.
    ``scratch`` is :func:`_scratch`'s tuple, reused from puzzle to puzzle.
    """
    st, ws, later, before, work, holds, clue_cells = scratch
    n = 0
    for c in range(81):
        if cells[c] != 0:
            clue_cells[n] = c
            n += 1
    if _a_single_can_go(cells, n, clue_cells, work, holds):
        return FACT_NOT_MINIMAL
    # later[k]: the propagated state of the clues k .. n-1 (those of a unique
    # puzzle: no propagation here meets a contradiction)
    sudoku9._open(later[n])
    for k in range(n - 1, -1, -1):
        sudoku9._clue_state(later[k], later[k + 1], clue_cells[k], cells[clue_cells[k]])
    sudoku9._open(before)  # the state of the clues 0 .. k-1
    avoid = np.empty(0, np.int8)
    out = np.empty((0, 81), np.int8)
    for k in range(n):
        c = clue_cells[k]
        dirty = sudoku9._meet(st, later[k + 1], before)
        dirty |= np.int64(1) << sudoku9._bar(st, c, sol[c])
        if not sudoku9._propagate(st, dirty):
            return FACT_NOT_MINIMAL  # the others force sol[c] at c
        found = sudoku9._search(st, 1, avoid, out, budget, ws, True)
        if found == GAVE_UP:
            return FACT_GAVE_UP
        if found == 0:
            return FACT_NOT_MINIMAL
        sudoku9._propagate(before, np.int64(1) << sudoku9._place_clue(before, c, cells[c]))
    return FACT_MINIMAL


@nb.njit(cache=True)
def _scratch(mem):  # type: ignore[no-untyped-def]
    """The work arrays of :func:`_minimal`: a search state and workspace (views
    of ``mem``, ``WORKSPACE9`` words), the states of the later clues and of the
    earlier ones, and the singles test's scratch space."""
    st, ws = sudoku9._views(mem)
    return (
        st,
        ws,
        np.empty((82, _WORDS), np.int64),
        np.empty(_WORDS, np.int64),
        np.empty(81, np.int8),
        np.zeros(10, np.int64),
        np.empty(81, np.int64),
    )


@nb.njit(cache=True, nogil=True)
def facts_rows(
    cells: NDArray[np.int8],
    check_minimal: bool,
    count_budget: int,
    removable_budget: int,
    solutions: NDArray[np.int8],
    facts: NDArray[np.int8],
) -> None:
    """For each row of an ``(n, 81)`` batch of clues (values 0..9): its ``FACT_*``
    code into ``facts[i]`` and, when it has one solution, the solution into
    ``solutions[i]``.

    ``count_budget`` and ``removable_budget`` are the branch-node budgets of the
    count to two solutions and of each search of the minimality check (the
    fast backend's, so that a row gives up where a single check would).
    """
    mem = np.zeros(WORKSPACE9, np.int64)  # never paused: its control words stay zero
    scratch = _scratch(mem)
    avoid = np.empty(0, np.int8)
    found = np.empty((2, 81), np.int8)
    for i in range(cells.shape[0]):
        n = sudoku9.count_part(cells[i], 2, avoid, found, count_budget, mem, 0)
        if n == GAVE_UP or n < 0:
            facts[i] = FACT_GAVE_UP
            continue
        if n == 0:
            facts[i] = FACT_NONE
            continue
        if n > 1:
            facts[i] = FACT_SEVERAL
            continue
        solutions[i, :] = found[0]
        if not check_minimal:
            facts[i] = FACT_UNIQUE
            continue
        facts[i] = _minimal(cells[i], solutions[i], removable_budget, scratch)


@nb.njit(cache=True, nogil=True)
def pattern_codes(cells: NDArray[np.int8], firsts: NDArray[np.intp]) -> NDArray[np.int64]:
    """The symmetries of the clue patterns of an ``(n, ncells)`` batch, as bits.

    ``firsts[k, c]`` is the first cell of the orbit of cell ``c`` under
    symmetry ``k``; a pattern has symmetry ``k`` (bit ``k`` of its code) when
    every cell is filled exactly when the first cell of its orbit is. One
    pass over the cells a symmetry, stopping at the first cell that differs.
    """
    n = cells.shape[0]
    codes = np.zeros(n, np.int64)
    for i in range(n):
        row = cells[i]
        code = 0
        for k in range(firsts.shape[0]):
            kept = True
            for c in range(row.shape[0]):
                if (row[c] != 0) != (row[firsts[k, c]] != 0):
                    kept = False
                    break
            if kept:
                code |= 1 << k
        codes[i] = code
    return codes
