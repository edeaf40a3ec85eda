"""Check, count, solve and true candidates of variant puzzles: compiled search, SAT or CP-SAT.

A :class:`~csp_sudoku.constraints.VariantPuzzle` goes to one of three
backends, and all must give the same answers (the tests compare them):

* ``"fast"`` (the default, ``"auto"``): a compiled propagation search
  (:mod:`csp_sudoku.variants.fast`): each kind lowered to a few generic
  primitives over candidate masks, propagated to a fixpoint, depth first; a
  search that runs past its node budget is handed to ``"sat"``.
* ``"sat"``: python-sat with the rules' CNF
  (:func:`csp_sudoku.encodings.cnf.rules_cnf`) and every constraint's
  clauses, the givens as assumptions; one solver per call, a further
  solution asked for after a clause that blocks the last one.
* ``"cpsat"``: OR-tools CP-SAT on a
  :class:`~csp_sudoku.encodings.cpsat.SudokuModel` with every constraint's
  CP-SAT form (written over the cells' integer values: a second encoding).

Every backend keeps the deadline in force
(:func:`csp_sudoku.core.deadline.deadline`): ``fast`` looks at it between
slices of its search, ``sat`` interrupts its solver (an interruptible one,
as the plain SAT backend does), ``cpsat`` gets the time left as its limit;
past it they raise :class:`~csp_sudoku.core.errors.DeadlinePassed`.
``count(..., budget_seconds=S)`` opens such a deadline and turns its passing
into :class:`~csp_sudoku.core.errors.CountBudgetExceeded` with the solutions
found so far (a lower bound), as the plain ``count_solutions`` does.

DRAT certificates of uniqueness are :func:`csp_sudoku.tools.certify.certify`
of :func:`variant_cnf`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from pysat.formula import CNF

from csp_sudoku.backends.sat import INTERRUPTIBLE, SolverSession
from csp_sudoku.constraints import Cnf, VariantPuzzle
from csp_sudoku.core import deadline
from csp_sudoku.core.errors import ArgumentError, CountBudgetExceeded, DeadlinePassed
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.cnf import HeldSolver, clue_literals, puzzle_cnf, rules_cnf
from csp_sudoku.encodings.cpsat import SudokuModel

VariantBackend = Literal["fast", "sat", "cpsat"]
Verdict = Literal["unique", "multiple", "none"]
BACKENDS: tuple[str, ...] = ("fast", "sat", "cpsat")
#: The backend of ``"auto"`` (and of a call that names none).
DEFAULT_BACKEND = "fast"
#: The python-sat solver of the SAT backend.
SAT_SOLVER = "cadical153"


def _backend(backend: str) -> str:
    if backend == "auto":
        return DEFAULT_BACKEND
    if backend not in BACKENDS:
        raise ArgumentError(f"backend {backend!r}: variant puzzles use 'fast', 'sat' or 'cpsat'")
    return backend


def variant_clauses(puzzle: VariantPuzzle) -> tuple[list[list[int]], int]:
    """The CNF of ``puzzle`` without its givens: the rules and every constraint's clauses.

    Returns ``(clauses, top)``, ``top`` the highest variable used. Candidate
    ``(cell, digit)`` is :func:`csp_sudoku.encodings.cnf.variable`.
    """
    g = puzzle.geometry
    rules = rules_cnf(g)
    clauses, top = _constraint_clauses(puzzle)
    return [*rules.clauses, *clauses], top


def variant_cnf(puzzle: VariantPuzzle, extra: Iterable[list[int]] = ()) -> CNF:
    """A stand-alone CNF of ``puzzle``: the rules, a unit clause per given, the constraints, ``extra``.

    What ``csp-sudoku export cnf`` writes for a variant puzzle, and (with the
    clause blocking the solution as ``extra``) the formula of its uniqueness
    certificate. Built under the library's formula lock (see
    :func:`csp_sudoku.encodings.cnf.puzzle_cnf`).
    """
    return puzzle_cnf(puzzle.puzzle, [*_constraint_clauses(puzzle)[0], *extra])


def _constraint_clauses(puzzle: VariantPuzzle) -> tuple[list[list[int]], int]:
    """The clauses of the constraints alone, and the highest variable used."""
    g = puzzle.geometry
    enc = Cnf(g)
    clauses: list[list[int]] = []
    for c in puzzle.constraints:
        clauses.extend(c.clauses(enc))
    return clauses, max(enc.top, g.ncandidates, rules_cnf(g).nv)


def _sat(puzzle: VariantPuzzle) -> HeldSolver:
    solver = HeldSolver(name=SAT_SOLVER, bootstrap_with=rules_cnf(puzzle.geometry).clauses)
    solver.append_formula(_constraint_clauses(puzzle)[0])
    return solver


def _read(model: list[int], puzzle: VariantPuzzle) -> NDArray[np.int8]:
    """The grid of a SAT model: the true candidate of every cell."""
    g = puzzle.geometry
    n = g.size
    truth = np.array(model[: g.ncandidates], dtype=np.int64) > 0
    grid: NDArray[np.int8] = (truth.reshape(g.ncells, n).argmax(axis=1) + 1).astype(np.int8)
    return grid


def _sat_solutions(
    puzzle: VariantPuzzle, limit: int, found: list[NDArray[np.int8]] | None = None
) -> list[NDArray[np.int8]]:
    """Up to ``limit`` solutions by SAT, appended to ``found`` as they come (so a
    caller cut off by the deadline keeps those found before)."""
    n = puzzle.geometry.size
    givens = clue_literals(puzzle.puzzle)
    empty = np.flatnonzero(puzzle.puzzle.cells == 0).tolist()
    found = [] if found is None else found
    # under a deadline, a solver that can be interrupted (the plain SAT backend's session)
    session = SolverSession(
        puzzle.geometry, SAT_SOLVER if deadline.remaining() is None else INTERRUPTIBLE
    )
    try:
        session.solver.append_formula(_constraint_clauses(puzzle)[0])
        while len(found) < limit and session.solve(givens):
            grid = _read(session.solver.get_model(), puzzle)
            found.append(grid)
            if not empty:
                break
            session.solver.add_clause([-(c * n + int(grid[c])) for c in empty])
    finally:
        session.close()
    return found


def _cpsat_model(puzzle: VariantPuzzle) -> SudokuModel:
    model = SudokuModel(puzzle.puzzle)
    for c in puzzle.constraints:
        c.add_to(model)
    return model


def _variant(puzzle: object) -> VariantPuzzle:
    """``puzzle`` as a :class:`VariantPuzzle`: a plain :class:`Puzzle` or puzzle line is
    one with no constraint (every function here raised AttributeError on one)."""
    if isinstance(puzzle, VariantPuzzle):
        return puzzle
    if isinstance(puzzle, (Puzzle, str)):
        from csp_sudoku.api import as_puzzle

        return VariantPuzzle(as_puzzle(puzzle), ())
    raise ArgumentError(
        "a variant puzzle is a VariantPuzzle (parse_fpuzzles, from_fpuzzles), or a plain "
        f"Puzzle or puzzle line; got {type(puzzle).__name__} {puzzle!r:.40}"
    )


#: The most solutions :func:`solutions` hands back (a list of grids held at once).
MAX_SOLUTIONS = 10_000_000


def _check_limit(limit: object) -> None:
    if not is_whole(limit) or limit < 1:
        raise ArgumentError(f"limit must be a whole number of at least 1, not {limit!r}")


def solutions(puzzle: VariantPuzzle, limit: int = 2, *, backend: str = "auto") -> list[Puzzle]:
    """Up to ``limit`` distinct solutions of ``puzzle``, each a full :class:`Puzzle`.

    Raises:
        ArgumentError: a ``limit`` that is no whole number from 1, or above
            :data:`MAX_SOLUTIONS` (room for that many grids was asked at once:
            ``limit=2**63`` failed inside numpy; :func:`count` counts any number).
    """
    puzzle = _variant(puzzle)
    _check_limit(limit)
    if limit > MAX_SOLUTIONS:
        raise ArgumentError(
            f"solutions holds at most {MAX_SOLUTIONS:,} grids, not {limit:,}: count them "
            "with count(puzzle, limit)"
        )
    g = puzzle.geometry
    name = _backend(backend)
    if name == "fast":
        from csp_sudoku.variants import fast

        quick = fast.solutions(puzzle, limit)
        grids = _sat_solutions(puzzle, limit) if quick is None else quick
    elif name == "sat":
        grids = _sat_solutions(puzzle, limit)
    else:
        grids = list(_cpsat_model(puzzle).solutions(limit, time_limit=deadline.remaining()))
    return [Puzzle(grid, g) for grid in grids]


def count(
    puzzle: VariantPuzzle,
    limit: int = 2,
    *,
    backend: str = "auto",
    budget_seconds: float | None = None,
) -> int:
    """The number of solutions, exact below ``limit``; ``limit`` means "at least that many".

    Args:
        puzzle: the variant puzzle.
        limit: the most solutions counted.
        backend: ``"auto"``, ``"fast"``, ``"sat"`` or ``"cpsat"``.
        budget_seconds: give up after about this long (None: no limit).

    Raises:
        CountBudgetExceeded: the budget ran out first; its ``at_least`` is the
            solutions found by then (every backend keeps them as they come).
    """
    puzzle = _variant(puzzle)
    _check_limit(limit)
    name = _backend(backend)
    budget_seconds = deadline.check_budget(budget_seconds)
    if budget_seconds is None:
        return _count(puzzle, limit, name, [0])
    so_far = [0]
    with deadline.deadline(time.time() + budget_seconds):
        try:
            return _count(puzzle, limit, name, so_far)
        except DeadlinePassed:
            raise CountBudgetExceeded(so_far[0], budget_seconds) from None


def _count(puzzle: VariantPuzzle, limit: int, backend: str, so_far: list[int]) -> int:
    """:func:`count` by ``backend``; ``so_far[0]`` holds the solutions found when a
    deadline cuts the search (a lower bound for the caller)."""
    if backend == "fast":
        from csp_sudoku.variants import fast

        got = fast.count_within(puzzle, limit)
        if got is not None:
            n, done = got
            so_far[0] = n
            if not done:
                raise DeadlinePassed("the time budget ran out during a variant search")
            return n
        backend = "sat"  # the search gave up at its node budget: SAT learns
    found: list[NDArray[np.int8]] = []  # the solutions as they come, kept past a deadline
    try:
        if backend == "sat":
            return len(_sat_solutions(puzzle, limit, found))
        model = _cpsat_model(puzzle)
        return len(list(model.solutions(limit, time_limit=deadline.remaining(), found=found)))
    finally:
        so_far[0] = max(so_far[0], len(found))


def solve(puzzle: VariantPuzzle, *, backend: str = "auto") -> Puzzle | None:
    """One solution of ``puzzle``, or None when it has none (see :func:`check` for uniqueness)."""
    found = solutions(puzzle, 1, backend=backend)
    return found[0] if found else None


def check(puzzle: VariantPuzzle, *, backend: str = "auto") -> Verdict:
    """``"unique"``, ``"multiple"`` or ``"none"``: how many solutions ``puzzle`` has."""
    n = count(puzzle, 2, backend=backend)
    return "unique" if n == 1 else "multiple" if n > 1 else "none"


def candidates(
    puzzle: VariantPuzzle, cap: int | None = None, *, backend: str = "auto"
) -> NDArray[np.bool_]:
    """The true candidates: ``out[cell, digit - 1]`` is True when some solution puts ``digit`` there.

    Each solver call asks for a solution with at least one candidate not yet
    seen in a solution, and marks every candidate of the one it finds; the
    first call that finds none ends the search. So a unique puzzle costs two
    calls, and a puzzle costs one call more than the solutions it reads.
    All False when the puzzle has no solution.

    Args:
        puzzle: the variant puzzle.
        cap: the most solver calls to make (None: as many as needed; at most one
            per candidate and one more). The ``"fast"`` backend's calls are
            searches for a first solution: one from the givens, then one for
            each candidate left by propagation and not yet seen in a solution.
        backend: ``"fast"``, ``"sat"`` or ``"cpsat"``.

    Raises:
        DeadlinePassed: ``cap`` calls were made before every candidate was settled.
        ArgumentError: a ``cap`` that is no whole number from 1.
    """
    puzzle = _variant(puzzle)
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, (int, np.integer))):
        raise ArgumentError(f"cap must be a whole number of solver calls, not {cap!r}")
    if cap is not None and cap < 1:
        raise ArgumentError(f"cap must be at least 1, not {cap}")
    g = puzzle.geometry
    n = g.size
    if _backend(backend) == "fast":
        from csp_sudoku.variants import fast

        quick = fast.candidates(puzzle, cap)
        if quick is not None:
            return quick
        backend = "sat"
    seen = np.zeros((g.ncells, n), dtype=bool)
    calls = 0

    def spend() -> None:
        nonlocal calls
        if cap is not None and calls >= cap:
            raise DeadlinePassed(f"true candidates: the cap of {cap} solver calls was reached")
        calls += 1

    if _backend(backend) == "sat":
        givens = clue_literals(puzzle.puzzle)
        _clauses, top = _constraint_clauses(puzzle)
        with _sat(puzzle) as solver:
            while True:
                spend()
                top += 1  # a selector: "some unseen candidate is true", for this call only
                solver.add_clause([-top, *(int(i) + 1 for i in np.flatnonzero(~seen))])
                if not solver.solve(assumptions=[*givens, top]):
                    return seen
                seen[np.arange(g.ncells), _read(solver.get_model(), puzzle) - 1] = True
                solver.add_clause([-top])
    from ortools.sat.python import cp_model

    model = _cpsat_model(puzzle)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    xs = model.x.reshape(-1)
    while True:
        spend()
        select = model.model.new_bool_var("")
        model.model.add_bool_or([xs[i] for i in np.flatnonzero(~seen)]).only_enforce_if(select)
        model.model.clear_assumptions()
        model.model.add_assumptions([select])
        if solver.solve(model.model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return seen
        vals = np.array([solver.boolean_value(v) for v in xs], dtype=bool)
        seen[vals.reshape(g.ncells, n)] = True


__all__ = [
    "BACKENDS",
    "VariantBackend",
    "Verdict",
    "candidates",
    "check",
    "count",
    "solutions",
    "solve",
    "variant_clauses",
    "variant_cnf",
]
