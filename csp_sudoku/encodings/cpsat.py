"""Sudoku as an OR-tools CP-SAT model.

The model has one Boolean per candidate (``x[cell, digit-1]``) and one
``add_exactly_one`` per exact-cover column, the same model as the CNF. A
:class:`SudokuModel` is what users extend: add constraints or an objective to
``model`` over ``x`` (or over the integer view ``value(cell)``), then solve with
:meth:`SudokuModel.solve` or :meth:`SudokuModel.solutions`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from ortools.sat.python import cp_model

from csp_sudoku.core.errors import DeadlinePassed
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.exact_cover import exact_cover


@lru_cache(maxsize=32)
def _rules_model(geometry: Geometry) -> cp_model.CpModel:
    """The cached rules model; never handed out, only cloned."""
    model = cp_model.CpModel()
    n = geometry.size
    xs = [model.new_bool_var(f"x{c // n}_{c % n + 1}") for c in range(geometry.ncandidates)]
    for cands in exact_cover(geometry).column_candidates.tolist():
        model.add_exactly_one([xs[c] for c in cands])
    return model


class SudokuModel:
    """A CP-SAT model of one puzzle that the user may extend.

    Args:
        puzzle: the clues (fixed as ``x == 1``).

    Attributes:
        model: the ``cp_model.CpModel``; add your own constraints to it.
        x: ``(ncells, N)`` object array of Boolean variables, ``x[cell, digit-1]``.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        g = puzzle.geometry
        self.puzzle = puzzle
        self.model: cp_model.CpModel = _rules_model(g).clone()
        n = g.size
        flat = [self.model.get_bool_var_from_proto_index(i) for i in range(g.ncandidates)]
        self.x: NDArray[np.object_] = np.array(flat, dtype=object).reshape(g.ncells, n)
        cells = puzzle.cells
        for c in puzzle.clue_cells().tolist():
            self.model.add(self.x[c, int(cells[c]) - 1] == 1)
        self._values: dict[int, cp_model.IntVar] = {}

    def value(self, cell: int) -> cp_model.IntVar:
        """An integer variable equal to the digit of ``cell`` (made on first use)."""
        if cell not in self._values:
            n = self.puzzle.geometry.size
            v = self.model.new_int_var(1, n, f"v{cell}")
            self.model.add(v == sum((d + 1) * self.x[cell, d] for d in range(n)))
            self._values[cell] = v
        return self._values[cell]

    def _solver(self, workers: int, time_limit: float | None) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = time_limit
        return solver

    def _grid(
        self, read: cp_model.CpSolverSolutionCallback | cp_model.CpSolver
    ) -> NDArray[np.int8]:
        n = self.puzzle.geometry.size
        vals = np.array([read.boolean_value(v) for v in self.x.reshape(-1)], dtype=bool)
        grid: NDArray[np.int8] = (vals.reshape(-1, n).argmax(axis=1) + 1).astype(np.int8)
        return grid

    def solve(
        self, *, workers: int = 1, time_limit: float | None = None
    ) -> NDArray[np.int8] | None:
        """One solution (honouring any added objective), or None when there is none."""
        solver = self._solver(workers, time_limit)
        status = solver.solve(self.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self._grid(solver)
        return None

    def solutions(
        self,
        limit: int,
        *,
        time_limit: float | None = None,
        found: list[NDArray[np.int8]] | None = None,
    ) -> Iterator[NDArray[np.int8]]:
        """Enumerate up to ``limit`` distinct solutions (single worker, complete search).

        Any objective added to the model is ignored during enumeration (which
        runs on a copy of the model without it): the model is left as it was found.
        Each solution is also appended to ``found`` as the solver reports it, so a
        caller cut off by ``time_limit`` keeps those found before (a lower bound).

        Raises:
            DeadlinePassed: ``time_limit`` seconds ran out before the search ended
                (fewer than ``limit`` solutions found and the search not complete).
        """
        out: list[NDArray[np.int8]] = [] if found is None else found
        start = len(out)
        owner = self

        class _Collect(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                out.append(owner._grid(self))
                if len(out) - start >= limit:
                    self.stop_search()

        if limit <= 0:
            return iter(())
        if time_limit is not None and time_limit <= 0:
            raise DeadlinePassed("the time budget ran out before a CP-SAT call")
        solver = self._solver(1, time_limit)
        solver.parameters.enumerate_all_solutions = True
        model = self.model
        if model.has_objective():  # enumerate on a copy without it; the caller's stays
            model = model.clone()
            model.clear_objective()  # type: ignore[no-untyped-call]
        status = solver.solve(model, _Collect())
        if len(out) - start < limit and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise DeadlinePassed("the time budget ran out during a CP-SAT call")
        return iter(out[start:])
