"""TEMPLATE: copy this file to add a generator (it is not registered itself).

To add a generator called ``mine``:

1. Copy this file to ``csp_sudoku/generators/mine.py``.
2. Write :func:`base`: one unique puzzle and its solution from the request
   (flat ``int8`` arrays, 0 = empty), or None when this attempt failed (the
   caller tries again with the next attempt's seed). Draw randomness only from
   ``request.rng``; ask ``request.checker`` whether clues are unique.
3. Register it: one line in ``BASES`` in ``csp_sudoku/generators/registry.py``:
   ``"mine": "csp_sudoku.generators.mine:base"``, and its name in
   ``MethodName`` (``csp_sudoku/core/names.py``).
4. ``generate(method="mine")`` and ``csp-sudoku generate --method mine`` then
   make its puzzles symmetric and minimal when asked, rate them, keep those on
   target, check them against the published sets and label them truthfully;
   ``tests/test_generator_template.py`` shows the check on this file.

The generator below is the smallest correct one: a random full grid, whose clues
are all given (the caller's minimisation then removes what can go).
"""

from __future__ import annotations

from csp_sudoku.core.puzzle import Grid
from csp_sudoku.generators.grids import _grid_cells
from csp_sudoku.generators.registry import BaseRequest


def base(request: BaseRequest) -> tuple[Grid, Grid] | None:
    """A full random grid as clues, with itself as the solution."""
    solution = _grid_cells(request.geometry, request.rng)
    return solution.copy(), solution
