"""TEMPLATE: copy this file to add a solving backend (it is not registered itself).

To add a backend called ``mine``:

1. Copy this file to ``csp_sudoku/backends/mine.py`` and rename the class.
2. Implement :meth:`solutions` (the one abstract method). Override ``count``,
   ``other_solution``, ``removable_clues`` or ``count_many`` only when your
   engine does them faster than the defaults in
   :class:`~csp_sudoku.backends.base.Backend`; override :meth:`supports` when it
   handles only some geometries; free native solvers in ``close``.
3. Import your solver library inside the methods (or at the top of your module:
   the module itself is imported only when the backend is first used).
4. Register it: one line in ``_FACTORIES`` in ``csp_sudoku/backends/__init__.py``:
   ``"mine": ("csp_sudoku.backends.mine", "MineBackend")``.
5. Add ``"mine"`` to the backend lists of tests/test_backends.py and
   tests/test_samples.py: every backend must agree with every other on the
   reference sets (tests/test_template_backend.py shows the check on this file).

Rules: work on the flat ``int8`` cell arrays (0 = empty) and the geometry you are
given; read units from :class:`~csp_sudoku.core.geometry.Geometry`, never assume 9x9;
raise only errors from :mod:`csp_sudoku.core.errors` (``BackendError`` for "cannot
do this geometry"); never print.

The engine below is the smallest correct one: depth-first search on the cell
with the fewest candidates, in plain Python (slow; fine for tests and 4x4).
"""

from __future__ import annotations

import numpy as np

from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.core.geometry import Geometry


class TemplateBackend(Backend):
    """Plain depth-first search over candidate sets (an example, not registered)."""

    name = "template"

    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        """Up to ``limit`` distinct solutions of the clues ``cells``, as flat arrays."""
        peers = [set(p.tolist()) for p in geometry.peers]
        work = [int(v) for v in cells]
        n = geometry.size
        if any(v and any(work[q] == v for q in peers[c]) for c, v in enumerate(work)):
            return []  # clashing clues: no solution
        found: list[Cells] = []

        def search() -> None:
            best: tuple[int, list[int]] | None = None
            for c, v in enumerate(work):
                if v:
                    continue
                taken = {work[q] for q in peers[c]}
                free = [d for d in range(1, n + 1) if d not in taken]
                if best is None or len(free) < len(best[1]):
                    best = (c, free)
                    if len(free) <= 1:
                        break
            if best is None:
                found.append(np.asarray(work, dtype=np.int8))
                return
            cell, free = best
            for d in free:
                work[cell] = d
                search()
                work[cell] = 0
                if len(found) >= limit:
                    return

        search()
        return found
