"""The statuses compiled runs return, named once: runs of singles
(:class:`RunStatus`) and hypotheses of the graded refutation (:class:`HypothesisEnd`).

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
