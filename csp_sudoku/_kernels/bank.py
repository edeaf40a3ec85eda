"""Numba kernel of ``bank add``: the facts of a batch of new 9x9 puzzles in one call.

A puzzle added to a bank is solved (is it unique, and what is its solution?)
and, unless asked not to, checked for minimality (can a clue go?). These are
the fast backend's two 9x9 searches (:func:`csp_sudoku._kernels.sudoku9.count_cells`
to two solutions, then :func:`~csp_sudoku._kernels.sudoku9.removable`), about
60 us a puzzle. Called one puzzle at a time from Python they cost as much
again in the interpreter, and they hold the GIL. :func:`facts_rows` runs them
for a whole batch in one compiled call that releases the GIL, so the threads
of :mod:`csp_sudoku.tools.bank` share a batch among the cores.

Each row gets one of the ``FACT_*`` codes; a row whose search ran out of its
budget (``FACT_GAVE_UP``) is taken again by the backend, which hands it to
another solver, exactly as a single check would.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target, sudoku9
from csp_sudoku._kernels.status import GAVE_UP

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
    fast backend's, so that a row gives up exactly where a single check would).
    """
    avoid = np.empty(0, np.int8)
    found = np.empty((2, 81), np.int8)
    for i in range(cells.shape[0]):
        n = sudoku9.count_cells(cells[i], 2, avoid, found, count_budget)
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
        res = sudoku9.removable(cells[i], solutions[i], removable_budget)
        if res.shape[0] == 1 and res[0] < 0:  # gave up (values were checked)
            facts[i] = FACT_GAVE_UP
        elif res.shape[0] == 0:
            facts[i] = FACT_MINIMAL
        else:
            facts[i] = FACT_NOT_MINIMAL
