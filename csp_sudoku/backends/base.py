"""The interface every solving backend implements.

Backends work on raw cell arrays (flat ``int8``, 0 = empty) plus a geometry, so
hot loops pay no object overhead; :mod:`csp_sudoku.api` wraps them for puzzles
and text. Every backend must agree with every other on every puzzle: the tests
cross-check them on the shared data sets.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.closing import Closing
from csp_sudoku.core.geometry import Geometry

Cells = NDArray[np.int8]


class Backend(Closing, ABC):
    """A solution counter for Sudoku geometries.

    Subclasses implement :meth:`solutions`; the rest has working defaults that
    faster backends override. Backends holding native solvers are context
    managers (``with get_backend("sat") as b: ...``) and free them on ``close``.
    """

    #: The registry name (``"sat"``, ``"cpsat"``, ``"dlx"``, ``"fast"``).
    name: str = ""

    def supports(self, geometry: Geometry) -> bool:
        """True when this backend can solve puzzles of ``geometry``."""
        return True

    @classmethod
    def sub_solvers(cls) -> tuple[str, ...]:
        """Names accepted after a colon (``sat:glucose4``); none by default."""
        return ()

    @abstractmethod
    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        """Up to ``limit`` distinct solutions of the clues ``cells``, as flat arrays."""

    def count(self, cells: Cells, geometry: Geometry, limit: int = 2) -> int:
        """The number of solutions, exact below ``limit`` (``limit`` means "that many or more")."""
        return len(self.solutions(cells, geometry, limit))

    def solve(self, cells: Cells, geometry: Geometry) -> Cells | None:
        """One solution, or None when there is none."""
        found = self.solutions(cells, geometry, 1)
        return found[0] if found else None

    def other_solution(self, cells: Cells, geometry: Geometry, known: Cells) -> Cells | None:
        """A solution of ``cells`` different from ``known`` (a solution of them), or None.

        This is the generator's question: after removing a clue from a unique
        puzzle whose solution is ``known``, is the puzzle still unique?
        """
        for sol in self.solutions(cells, geometry, 2):
            if not np.array_equal(sol, known):
                return sol
        return None

    def removable_clues(self, cells: Cells, geometry: Geometry, known: Cells) -> NDArray[np.intp]:
        """The clues that can each be removed alone keeping ``known`` the only solution."""
        work = cells.copy()
        out: list[int] = []
        for c in np.flatnonzero(cells).tolist():
            work[c] = 0
            if self.other_solution(work, geometry, known) is None:
                out.append(c)
            work[c] = cells[c]
        return np.asarray(out, dtype=np.intp)

    def count_many(
        self, cells: NDArray[np.integer], geometry: Geometry, limit: int = 2
    ) -> NDArray[np.int64]:
        """Counts (capped at ``limit``) for an ``(n, ncells)`` array of puzzles."""
        arr = np.ascontiguousarray(cells, dtype=np.int8)
        return np.fromiter(
            (self.count(row, geometry, limit) for row in arr), dtype=np.int64, count=arr.shape[0]
        )

    def close(self) -> None:
        """Free native resources (no-op by default)."""
