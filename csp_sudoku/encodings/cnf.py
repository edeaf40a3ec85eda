"""Sudoku as CNF for python-sat.

One Boolean per candidate, keyed ``(cell, digit)`` in a python-sat ``IDPool``
(so variable ``cell * N + digit`` for a fresh pool: candidate index + 1). Each
exact-cover column becomes an *exactly one* constraint built by python-sat's
``CardEnc`` (pairwise at-most-one, which is the fastest for these small
columns on 9x9; a sequential counter above 9 digits), so the rules are the
same model as :mod:`csp_sudoku.encodings.exact_cover`. Clues are not part of
the formula: they are passed as *assumptions*, so one loaded solver serves every
puzzle of a geometry.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from functools import lru_cache
from types import TracebackType
from typing import IO, Final

import pysat.card
import pysat.solvers
from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import staged
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.exact_cover import exact_cover


class _NotMainThread:
    """python-sat's test before it installs its SIGINT handler, answering no."""

    @staticmethod
    def check() -> bool:
        return False


#: The python-sat modules whose native calls ask ``MainThread.check()``.
_PYSAT_MODULES = tuple(m for m in (pysat.solvers, pysat.card) if hasattr(m, "MainThread"))


class _CtrlCHeld:
    """See :data:`ctrl_c_held`. Only the main thread changes anything (and its own
    stack of what it saved): other threads pass through, so none races with it."""

    __slots__ = ("_saved",)

    def __init__(self) -> None:
        self._saved: list[list[object]] = []

    def __enter__(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self._saved.append([m.MainThread for m in _PYSAT_MODULES])
            for m in _PYSAT_MODULES:
                m.MainThread = _NotMainThread

    def __exit__(
        self,
        kind: type[BaseException] | None,
        err: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if threading.current_thread() is threading.main_thread():
            for m, it in zip(_PYSAT_MODULES, self._saved.pop(), strict=True):
                m.MainThread = it


#: ``with ctrl_c_held: ...`` around every call into python-sat's native code
#: (the cardinality encodings; a solver's searches hold it through
#: :class:`HeldSolver`) keeps python-sat from catching a Ctrl-C (SIGINT) there.
#:
#: In the main thread, python-sat installs a SIGINT handler for the length of
#: such a call that jumps out of the C++ code wherever it is. Out of ``malloc``,
#: that left the allocator's lock taken (the next ``free`` hung the process for
#: good) or the heap corrupt: ``generate --killer`` and a Ctrl-C were hung, or
#: killed by ``malloc_consolidate(): invalid chunk size``, "stack smashing
#: detected", or a segmentation fault after the run had said it was
#: interrupted. python-sat asks ``MainThread.check()`` of its modules whether
#: to install the handler; within this context they are told no, so Python's
#: own handler takes the signal (it only sets a flag) and raises
#: KeyboardInterrupt once the call returns, with the solver whole. A call takes
#: milliseconds on the grids of this library; a Ctrl-C waits for it. Other
#: threads are never the main one: for them nothing changes. Reentrant.
ctrl_c_held: Final = _CtrlCHeld()


class HeldSolver(pysat.solvers.Solver):  # type: ignore[misc]
    """python-sat's ``Solver`` whose searches run inside :data:`ctrl_c_held`: what
    every solver of the library is, so that no call site has to remember it."""

    def solve(self, assumptions: Iterable[int] = ()) -> bool | None:
        with ctrl_c_held:
            return super().solve(assumptions=list(assumptions))  # type: ignore[no-any-return]

    def solve_limited(
        self, assumptions: Iterable[int] = (), expect_interrupt: bool = False
    ) -> bool | None:
        with ctrl_c_held:
            return super().solve_limited(  # type: ignore[no-any-return]
                assumptions=list(assumptions), expect_interrupt=expect_interrupt
            )


def variable(cell: int, digit: int, size: int) -> int:
    """The CNF variable of candidate ``(cell, digit)``: ``cell * size + digit``."""
    return cell * size + digit


#: python-sat's ``CNF`` records every clause it is given in one process-wide
#: variable pool (``Formula._vpool``), which is not thread-safe: two threads
#: building formulas at once corrupt it ("list modified during sort"). Every
#: formula of the library is built under this lock.
_FORMULA_LOCK = threading.RLock()


def rules_cnf(geometry: Geometry) -> CNF:
    """The (cached) CNF of the rules of ``geometry``, without clues; thread-safe.

    Do not mutate the returned formula; :func:`puzzle_cnf` gives an extended copy.
    """
    with _FORMULA_LOCK:
        return _rules_cnf(geometry)


@lru_cache(maxsize=64)
def _rules_cnf(geometry: Geometry) -> CNF:
    n = geometry.size
    # python-sat's IDPool has a shared mutable default for ``occupied``: two pools made
    # with the default at once in two threads sort one list together and fail
    pool = IDPool(occupied=[])
    for cell in range(geometry.ncells):
        for d in range(1, n + 1):
            pool.id((cell, d))  # reserve ids 1..N^3 in candidate order
    cover = exact_cover(geometry)
    enc = EncType.pairwise if n <= 9 else EncType.seqcounter
    cnf = CNF()
    with ctrl_c_held:
        for cands in cover.column_candidates.tolist():
            lits = [pool.id((c // n, c % n + 1)) for c in cands]
            cnf.extend(CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=enc).clauses)
    return cnf


def clue_literals(puzzle: Puzzle) -> list[int]:
    """The assumptions that fix the clues of ``puzzle``."""
    n = puzzle.geometry.size
    cells = puzzle.cells
    return [variable(int(c), int(cells[c]), n) for c in puzzle.clue_cells()]


def puzzle_cnf(puzzle: Puzzle, extra: Iterable[list[int]] = ()) -> CNF:
    """A stand-alone CNF for one puzzle: the rules, one unit clause per clue, then ``extra``.

    Built under the library's formula lock, so threads may call it at once.
    """
    with _FORMULA_LOCK:
        cnf = _rules_cnf(puzzle.geometry).copy()
        for lit in clue_literals(puzzle):
            cnf.append([lit])
        for clause in extra:
            cnf.append(clause)
        return cnf


def write_dimacs(
    puzzle_or_geometry: Puzzle | Geometry, target: str | os.PathLike[str] | IO[str]
) -> None:
    """Write DIMACS CNF: the rules, plus the clues as unit clauses for a puzzle.

    Variables ``1..N^3`` are the candidates: ``cell * N + digit`` (cell 0-based).
    """
    if isinstance(puzzle_or_geometry, Puzzle):
        cnf = puzzle_cnf(puzzle_or_geometry)
        g = puzzle_or_geometry.geometry
        title = f"puzzle {puzzle_or_geometry.to_line()}"
    else:
        g = puzzle_or_geometry
        cnf = rules_cnf(g)
        title = "rules only"
    comments = [
        f"c csp_sudoku {g.name} {title}",
        f"c variable cell*{g.size}+digit is true when the 0-based cell holds the digit",
    ]
    if isinstance(target, (str, os.PathLike)):
        with staged(target) as tmp:
            cnf.to_file(tmp, comments=comments)
    else:
        cnf.to_fp(target, comments=comments)
