"""The SAT backend: python-sat, one incremental solver per geometry.

The rules (:func:`csp_sudoku.encodings.cnf.rules_cnf`) are loaded once per
geometry; clues are passed as assumptions. To look for a further solution the
backend adds the clause "some empty cell differs from the solution found",
guarded by a fresh *selector* literal that is assumed true for that query and
then retired with a unit clause. Selectors grow the solver, which slows every
later call (see DESIGN.md), so the solver is rebuilt after
:attr:`SatBackend.rebuild_after` selectors.

A call made under a deadline (:func:`csp_sudoku.core.deadline.deadline`, set by a
generator's time budget) is interrupted when the deadline passes and raises
:class:`~csp_sudoku.core.errors.DeadlinePassed`; since python-sat cannot interrupt
CaDiCaL, such calls use :data:`INTERRUPTIBLE` instead (the same answers).

A loaded solver is stateful (selector clauses are added and retired around every
query), so each thread has its own: the shared instance behind the module-level
API (:func:`csp_sudoku.backends.get_backend`) can be called from many threads at
once, as a Dask worker with several threads does, and every answer stays true.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np
from numpy.typing import NDArray
from pysat.solvers import SolverNames

from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.core.deadline import remaining
from csp_sudoku.core.errors import BackendError, DeadlinePassed
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cnf import HeldSolver, rules_cnf

#: The python-sat solver used when none is named. Chosen by measurement
#: (``benchmarks/bench_check.py --sat-solvers ...``; docs/benchmarks.md, "SAT solvers").
DEFAULT_SOLVER = "cadical153"


def _known_solver_names() -> set[str]:
    names: set[str] = set()
    for aliases in vars(SolverNames).values():
        if isinstance(aliases, (list, tuple)):
            names.update(str(a) for a in aliases)
    return names


#: The solver a call under a deadline uses when the chosen one cannot be interrupted
#: (CaDiCaL 1.5.3 in python-sat has no ``interrupt``): the answers are the same.
INTERRUPTIBLE = "glucose4"
#: Solvers python-sat cannot interrupt.
_UNINTERRUPTIBLE = frozenset({"cadical103", "cadical153", "cadical195"})


class SolverSession:
    """A loaded solver for one geometry's rules, with its selector bookkeeping.

    What :class:`SatBackend` keeps per thread and geometry, and what a caller
    with clauses of its own (the variant puzzles' SAT backend) loads them into:
    its :meth:`solve` keeps the deadline in force, and a Ctrl-C waits for the
    native search to return (:class:`~csp_sudoku.encodings.cnf.HeldSolver`), then
    raises ``KeyboardInterrupt``. Close it (:meth:`close`) when done.
    """

    def __init__(self, geometry: Geometry, solver_name: str) -> None:
        self.geometry = geometry
        self.solver_name = solver_name
        cnf = rules_cnf(geometry)
        self.base_top = max(cnf.nv, geometry.ncandidates)
        self.solver = HeldSolver(name=solver_name, bootstrap_with=cnf.clauses)
        self.top: int = self.base_top
        self.selectors = 0
        self.closed = False
        #: A call ended with an error inside the solver: its selectors are left as they
        #: are, and the backend loads a new one.
        self.broken = False

    def new_selector(self) -> int:
        self.top += 1
        self.selectors += 1
        return self.top

    def solve(self, assumptions: list[int]) -> bool:
        """``solver.solve``, cut off at the deadline in force (:mod:`csp_sudoku.core.deadline`).

        Raises:
            DeadlinePassed: the deadline passed before or during the search.
        """
        left = remaining()
        if left is None:
            try:
                return bool(self.solver.solve(assumptions=assumptions))
            except BaseException:
                self.broken = True  # its selectors are left as they are: it is rebuilt
                raise
        if left <= 0:
            raise DeadlinePassed("the time budget ran out before a solver call")
        timer = threading.Timer(left, self.solver.interrupt)
        timer.daemon = True
        timer.start()
        try:
            answer = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
        if answer is None:
            self.solver.clear_interrupt()
            raise DeadlinePassed("the time budget ran out during a solver call")
        return bool(answer)

    def retire(self, selectors: list[int]) -> None:
        """Turn the clauses guarded by ``selectors`` off for good (unless the solver is broken)."""
        if not self.broken:
            for sel in selectors:
                self.solver.add_clause([-sel])

    def close(self) -> None:
        self.closed = True
        self.solver.delete()


class SatBackend(Backend):
    """Count and enumerate solutions with a python-sat solver.

    Args:
        solver: a python-sat solver name (``"minisat22"``, ``"glucose4"``,
            ``"cadical153"``, ...); default :data:`DEFAULT_SOLVER`.
        rebuild_after: rebuild a geometry's solver after this many selector variables.
    """

    name = "sat"

    def __init__(self, solver: str | None = None, rebuild_after: int = 400) -> None:
        self.solver_name = solver or DEFAULT_SOLVER
        if self.solver_name not in _known_solver_names():
            raise BackendError(
                f"unknown python-sat solver {self.solver_name!r}; "
                f"known: {', '.join(sorted(_known_solver_names()))}"
            )
        self.rebuild_after = rebuild_after
        # one solver per thread and geometry: a thread's own sessions live in
        # ``_local`` (freed with the thread); ``_every`` lets :meth:`close` reach all
        self._local = threading.local()
        self._every: weakref.WeakSet[SolverSession] = weakref.WeakSet()

    @classmethod
    def sub_solvers(cls) -> tuple[str, ...]:
        """Every python-sat solver name (``sat:NAME``)."""
        return tuple(solver_names())

    def _session(self, geometry: Geometry) -> SolverSession:
        """The loaded solver for ``geometry``; under a deadline, one that can be interrupted."""
        name = self.solver_name
        if remaining() is not None and name in _UNINTERRUPTIBLE:
            name = INTERRUPTIBLE
        mine: dict[tuple[Geometry, str], SolverSession] | None = getattr(
            self._local, "sessions", None
        )
        if mine is None:
            mine = self._local.sessions = {}
        key = (geometry, name)
        s = mine.get(key)
        if s is None or s.closed or s.broken or s.selectors >= self.rebuild_after:
            if s is not None and not s.closed:
                s.close()
            s = SolverSession(geometry, name)
            mine[key] = s
            self._every.add(s)
        return s

    @staticmethod
    def _assumptions(cells: Cells, n: int) -> list[int]:
        idx = np.flatnonzero(cells)
        lits: list[int] = (idx * n + cells[idx].astype(np.int64)).tolist()
        return lits

    @staticmethod
    def _read(model: list[int], geometry: Geometry) -> Cells:
        n = geometry.size
        vals = np.asarray(model[: geometry.ncandidates]) > 0
        grid: Cells = (vals.reshape(-1, n).argmax(axis=1) + 1).astype(np.int8)
        return grid

    def _block(self, s: SolverSession, cells: Cells, sol: Cells) -> int | None:
        """Add "differ from ``sol`` in some empty cell" under a new selector."""
        empty = np.flatnonzero(cells == 0)
        if empty.size == 0:
            return None
        n = s.geometry.size
        sel = s.new_selector()
        clause = [-sel, *(-(empty * n + sol[empty].astype(np.int64))).tolist()]
        s.solver.add_clause(clause)
        return sel

    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        if limit <= 0:
            return []
        s = self._session(geometry)
        base = self._assumptions(cells, geometry.size)
        found: list[Cells] = []
        selectors: list[int] = []
        try:
            while s.solve(base + selectors):
                sol = self._read(s.solver.get_model(), geometry)
                found.append(sol)
                if len(found) >= limit:
                    break
                sel = self._block(s, cells, sol)
                if sel is None:
                    break
                selectors.append(sel)
        finally:
            s.retire(selectors)
        return found

    def other_solution(self, cells: Cells, geometry: Geometry, known: Cells) -> Cells | None:
        s = self._session(geometry)
        sel = self._block(s, cells, known)
        if sel is None:
            return None
        try:
            if s.solve([*self._assumptions(cells, geometry.size), sel]):
                return self._read(s.solver.get_model(), geometry)
            return None
        finally:
            s.retire([sel])

    def close(self) -> None:
        """Free every thread's solvers (a later call loads its thread's again)."""
        for s in list(self._every):
            if not s.closed:
                s.close()
        self._every = weakref.WeakSet()
        self._local = threading.local()

    def __del__(self) -> None:
        # At interpreter shutdown the module globals (contextlib itself) may be gone
        # already, so no name from this module is used here.
        try:  # noqa: SIM105 - contextlib.suppress is a module global, maybe gone
            self.close()
        except Exception:
            pass


def solver_names() -> list[str]:
    """Every solver name python-sat accepts."""
    return sorted(_known_solver_names())


def model_to_cells(model: NDArray[np.int64], geometry: Geometry) -> Cells:
    """Turn a SAT model over candidate variables into a flat solution array."""
    return SatBackend._read(list(model), geometry)
