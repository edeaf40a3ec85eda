"""A wall-clock deadline that solver calls honour, set once by whoever holds the budget.

A generator's ``budget_seconds`` must hold inside every solver call it makes, also
deep inside clue reduction, where no budget argument reaches. The caller opens
``with deadline(at):`` around its work; backends read :func:`remaining` before and
during a search (the SAT backend interrupts python-sat's solver when it passes) and
raise :class:`DeadlinePassed`, which the caller catches where it keeps what it found.
The deadline is a context variable: threads and asynchronous tasks each see their own.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar

from csp_sudoku.core.errors import DeadlinePassed

__all__ = ["DeadlinePassed", "deadline", "remaining"]

_AT: ContextVar[float | None] = ContextVar("csp_sudoku_deadline", default=None)


@contextlib.contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Solver calls inside the block end by ``at`` (``time.time()`` seconds; None: no limit).

    An outer deadline that is earlier stays in force.
    """
    outer = _AT.get()
    if at is None or (outer is not None and outer <= at):
        at = outer
    token = _AT.set(at)
    try:
        yield
    finally:
        _AT.reset(token)


def remaining() -> float | None:
    """Seconds left before the deadline in force (at most 0 once passed), or None."""
    at = _AT.get()
    return None if at is None else at - time.time()


def check() -> None:
    """Raise :class:`DeadlinePassed` when the deadline in force has passed."""
    left = remaining()
    if left is not None and left <= 0:
        raise DeadlinePassed("the time budget ran out during a solver call")
