"""When solver calls stop: a wall-clock deadline, a stop request, a parent gone.

A generator's ``budget_seconds`` must hold inside every solver call it makes, also
deep inside clue reduction, where no budget argument reaches. The caller opens
``with deadline(at):`` around its work; backends read :func:`remaining` before and
during a search (the SAT backend interrupts python-sat's solver when it passes) and
raise :class:`DeadlinePassed`, which the caller catches where it keeps what it found.
The deadline is a context variable: threads and asynchronous tasks each see their own.

A compiled search sees no signal: Python runs its handlers (a Ctrl-C, the command
line's SIGTERM) only between two of its own steps, and a thread waiting for the
interpreter while a kernel holds it waits for the kernel's end. So a search that
may be long (a count to a big limit) is taken in slices of a few milliseconds
(:func:`in_slices`), and between two slices :func:`checkpoint` looks at what
may end it besides the deadline (which the kernels and backends read as
before): a stop request of the block it runs in (:func:`stop_when`, how a pool
of threads ends its tasks when its caller stops reading), and, in a worker
process, whether the parent is still there (:func:`watch_parent`). The return
to Python between two slices runs the signal handlers too.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar

from csp_sudoku.core.errors import ArgumentError, DeadlinePassed, Stopped, SudokuError

__all__ = [
    "DeadlinePassed",
    "Stopped",
    "check_budget",
    "checkpoint",
    "deadline",
    "in_slices",
    "remaining",
    "stop_when",
    "watch_parent",
]

_AT: ContextVar[float | None] = ContextVar("csp_sudoku_deadline", default=None)
_STOP: ContextVar[threading.Event | None] = ContextVar("csp_sudoku_stop", default=None)
#: The process that must stay this one's parent (a worker's starter; 0: none watched).
_PARENT = [0]


def check_budget(
    budget_seconds: object, error: type[SudokuError] = ArgumentError, *, zero: bool = False
) -> float | None:
    """``budget_seconds`` as the functions that take one read it: None (no budget), or
    a number above 0 (an infinity: no budget either; with ``zero``, 0 too: a count
    in parts then stops after its first part); else ``error`` naming it.

    A NaN made a deadline that no clock passes (a count to a big limit ran on for
    ever), a string a TypeError deep inside, and a budget below 0 ran out before
    any work.
    """
    if budget_seconds is None:
        return None
    if isinstance(budget_seconds, bool) or not isinstance(budget_seconds, (int, float)):
        raise error(f"budget_seconds must be a number of seconds, not {budget_seconds!r}")
    if not (budget_seconds >= 0 if zero else budget_seconds > 0):  # NaN too
        least = "at least 0" if zero else "above 0"
        raise error(f"budget_seconds must be {least}, not {budget_seconds!r}")
    return float(budget_seconds)


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


@contextlib.contextmanager
def stop_when(event: threading.Event) -> Iterator[None]:
    """Solver calls inside the block raise :class:`Stopped` at their next look once
    ``event`` is set.

    A pool of threads runs each task so, and sets the event when its caller
    stops reading: a thread that runs a long search would otherwise keep the
    pool's shutdown, and the process's exit, waiting for the search's end.
    """
    token = _STOP.set(event)
    try:
        yield
    finally:
        _STOP.reset(token)


def watch_parent(pid: int) -> None:
    """Make :func:`checkpoint` end this process at once when its parent is no longer ``pid``.

    For a worker process, whose parent killed with ``kill -9`` cannot end it:
    its thread that watches the parent (see
    :func:`csp_sudoku.core.parallel.exit_with_parent`) waits for the interpreter,
    which a compiled search holds to the end of its slice; this look comes then.
    """
    _PARENT[0] = pid


def checkpoint() -> None:
    """The look between two slices of a long search: end it if it must end.

    The deadline is not looked at here: a search under one is cut where its
    backend cuts it (a count in parts keeps each part whole).

    Raises:
        Stopped: the stop request of the :func:`stop_when` block is set.
    """
    stop = _STOP.get()
    if stop is not None and stop.is_set():
        raise Stopped("the run this search worked for was stopped")
    if _PARENT[0] and os.getppid() != _PARENT[0]:
        os._exit(1)  # as the parent's watcher does: nobody is left to read a result


def in_slices(step: Callable[[], int], more: Callable[[int], bool]) -> int:
    """``step()`` until ``more`` of its result is false, with a :func:`checkpoint` between two.

    ``step`` runs one slice of a compiled search (a few milliseconds) whose
    place is kept between calls (:func:`csp_sudoku._kernels.sudoku9.count_part`).
    Returns the last result.
    """
    done = step()
    while more(done):
        checkpoint()
        done = step()
    return done
