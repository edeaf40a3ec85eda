"""The statuses compiled runs return, named once: runs of singles
(:class:`RunStatus`), hypotheses of the graded refutation (:class:`HypothesisEnd`)
the counting searches' failures (:class:`CountEnd`), their budget and their slices (the
workspace and control words of a search taken in slices), and the index a search
for an item returns when there is none (:data:`NOT_FOUND`).

Kernels return plain integers (numba compiles a module-level ``int`` as a
constant); the Python side reads them back as :class:`RunStatus`. The
integer constants below are derived from the enum, so each value is
written once.
"""

from __future__ import annotations

from enum import IntEnum


class RunStatus(IntEnum):
    """How a run of singles (or of any propagation to a fixpoint) ended."""

    #: a cell without candidates, a digit twice in a unit, or a digit with no place
    CONTRADICTION = -1
    #: no rule applies and cells are still empty
    STUCK = 0
    #: every cell is filled
    SOLVED = 1
    #: the step limit was reached first
    STEP_LIMIT = 2


CONTRADICTION = int(RunStatus.CONTRADICTION)
STUCK = int(RunStatus.STUCK)
SOLVED = int(RunStatus.SOLVED)
STEP_LIMIT = int(RunStatus.STEP_LIMIT)


class HypothesisEnd(IntEnum):
    """How a hypothesis of the graded refutation ended without a contradiction.

    A contradiction is reported by its record's index (0 or more); these
    negative values are the other two ends.
    """

    #: propagation reached a fixpoint: no contradiction
    FIXPOINT = -1
    #: a level-2 search ran past its budget of inner hypotheses
    OUT_OF_BUDGET = -2


FIXPOINT = int(HypothesisEnd.FIXPOINT)
OUT_OF_BUDGET = int(HypothesisEnd.OUT_OF_BUDGET)


class CountEnd(IntEnum):
    """Why a counting search returned no count (counts are ``>= 0``)."""

    #: a cell value outside ``0..N`` (the backend raises ParseError)
    BAD_VALUE = -1
    #: the search ran past its budget of branch nodes (the caller asks another backend)
    GAVE_UP = -2
    #: a byte of a text line that is no symbol (the caller takes the full parser)
    NOT_A_SYMBOL = -3
    #: the deadline in force passed during the search (the backend raises DeadlinePassed)
    PAST_DEADLINE = -4
    #: the search took the nodes of its slice and stopped, its state kept in its
    #: workspace: the caller looks whether to stop, then calls again to go on
    PAUSED = -5


BAD_VALUE = int(CountEnd.BAD_VALUE)
GAVE_UP = int(CountEnd.GAVE_UP)
NOT_A_SYMBOL = int(CountEnd.NOT_A_SYMBOL)
PAST_DEADLINE = int(CountEnd.PAST_DEADLINE)
PAUSED = int(CountEnd.PAUSED)

#: Branch nodes between two looks at the clock of a search under a deadline (a look
#: costs about a microsecond; this many nodes of a 25x25 take about 10 ms).
CLOCK_EVERY = 1024

#: Branch nodes a 9x9 counting search may take per solution asked before it
#: ends with ``GAVE_UP`` (the fast backend's default: four times the largest
#: tree met in the shared data sets, see :class:`~csp_sudoku.backends.fast.FastBackend`).
BUDGET9 = 10_000

#: Branch nodes of one slice of a long 9x9 search (:func:`csp_sudoku._kernels.sudoku9.count_part`,
#: :func:`~csp_sudoku._kernels.sudoku9.count_rows`): 0.15 to 1 us a node, so the Python
#: loop around the kernel gets control back every 2 to 16 ms (a Ctrl-C, a SIGTERM, a
#: stop request or a parent that died is seen then) at a cost of about 2 us a slice.
SLICE9 = 1 << 14

#: The same for the generic kernel, as branch nodes times cells (its nodes cost about
#: as many times more as the grid has cells): 2,592 nodes of a 16x16 grid.
SLICE_WORK = 81 * SLICE9 // 2

#: The ``int64`` words of a 9x9 search's workspace (:func:`csp_sudoku._kernels.sudoku9._views`):
#: the state (30 words), a saved state per level (82 x 30), the branch cell and the digits
#: left per level (82 each), and :data:`CONTROL` words that keep a paused search.
CONTROL = 5
#: The control words, by index: the branch nodes taken, the depth and the count of a
#: paused search, whether one is paused (1) or a search starts afresh (0), and the row
#: of a batch to take up.
AT_NODES, AT_DEPTH, AT_COUNT, AT_PAUSED, AT_ROW = range(CONTROL)
WORKSPACE9 = 30 + 82 * 30 + 82 + 82 + CONTROL


#: What a kernel that looks up an index (a record, a live candidate) returns
#: when there is none: indices are ``>= 0``, as with ``str.find``.
NOT_FOUND = -1
