"""The statuses compiled runs return, named once: runs of singles
(:class:`RunStatus`), hypotheses of the graded refutation (:class:`HypothesisEnd`)
the counting searches' failures (:class:`CountEnd`) and their budget, and the index a search
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


BAD_VALUE = int(CountEnd.BAD_VALUE)
GAVE_UP = int(CountEnd.GAVE_UP)
NOT_A_SYMBOL = int(CountEnd.NOT_A_SYMBOL)
PAST_DEADLINE = int(CountEnd.PAST_DEADLINE)

#: Branch nodes between two looks at the clock of a search under a deadline (a look
#: costs about a microsecond; this many nodes of a 25x25 take about 10 ms).
CLOCK_EVERY = 1024

#: Branch nodes a 9x9 counting search may take per solution asked before it
#: ends with ``GAVE_UP`` (the fast backend's default: four times the largest
#: tree met in the shared data sets, see :class:`~csp_sudoku.backends.fast.FastBackend`).
BUDGET9 = 10_000


#: What a kernel that looks up an index (a record, a live candidate) returns
#: when there is none: indices are ``>= 0``, as with ``str.find``.
NOT_FOUND = -1
