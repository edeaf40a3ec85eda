"""The CP-SAT backend: OR-tools, one model per query (complete enumeration).

Slower per call than the SAT backend (it builds a model each time) but an
independent engine: the tests use it to cross-check the others. A call under a
deadline (:mod:`csp_sudoku.core.deadline`) gets the time left as CP-SAT's
``max_time_in_seconds`` and raises ``DeadlinePassed`` when it runs out.
"""

from __future__ import annotations

from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.core.deadline import remaining
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.cpsat import SudokuModel


class CpSatBackend(Backend):
    """Enumerate solutions with OR-tools CP-SAT (one worker, so it is deterministic)."""

    name = "cpsat"

    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        model = SudokuModel(Puzzle(cells, geometry))
        return list(model.solutions(limit, time_limit=remaining()))
