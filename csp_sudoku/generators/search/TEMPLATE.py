"""TEMPLATE: copy this file to add a hard-end search strategy (it is not registered itself).

To add a strategy called ``mine``:

1. Copy this file to ``csp_sudoku/generators/mine.py``.
2. Write :func:`search`: from the ``request``
   (:class:`~csp_sudoku.generators.search.base.SearchRequest`: the shape, the
   target, the random generator, the uniqueness checker, the keys to avoid,
   ...), yield new on-target puzzles (:class:`Found`), endlessly, until
   ``request.deadline`` or ``request.max_chains`` chains (the caller stops
   reading when it has enough). Draw randomness only from ``request.rng``.
   Rate with a :class:`~csp_sudoku.generators.search.rating.Rater` (each clue
   set once, behind the metric's quick test) and hand every rated state to
   :meth:`~csp_sudoku.generators.search.outputs.Outputs.offer`, which keeps
   only new, accepted outputs, at most ``per_grid`` a family, and records them
   in ``request.avoid``. Read the ``settings`` your search uses (for a new one,
   add a field to :class:`~csp_sudoku.generators.search.settings.SearchSettings`,
   with its range in ``__post_init__``); count in ``request.stats`` and call
   ``request.on_step`` after every step (progress reports, and how the caller
   stops a run). The elite pool and the hit sources of
   :mod:`csp_sudoku.generators.search` are there to reuse.
3. Register it: one line in ``STRATEGIES`` in ``csp_sudoku/generators/registry.py``:
   ``"mine": "csp_sudoku.generators.mine:search"``, and its name in
   ``MethodName`` (``csp_sudoku/core/names.py``).
4. ``generate(method="mine", search=SearchSettings(...))`` and ``csp-sudoku
   generate --method mine`` then run it in chains (one per job, seeded by the
   run's seed), rate each output with the other metrics asked, label it and
   stream it; ``tests/test_search_template.py`` shows the check on this file.

The strategy below is the smallest correct one: generate and test. Each chain is
one fresh random minimal puzzle (RG2), rated, and output when it is on target
and new. It has nothing to tune and searches no vicinity, so it reads neither
``settings`` nor ``request.starts``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from csp_sudoku.generators.grids import _grid_cells
from csp_sudoku.generators.minimal import dug
from csp_sudoku.generators.search.base import Found, SearchRequest, objective
from csp_sudoku.generators.search.outputs import Outputs
from csp_sudoku.generators.search.rating import Rater
from csp_sudoku.generators.search.settings import DEFAULTS, SearchSettings


def search(request: SearchRequest, settings: SearchSettings = DEFAULTS) -> Iterator[Found]:
    """New on-target puzzles by generate and test: one fresh random puzzle a chain."""
    geometry, target, rng, st = request.geometry, request.target, request.rng, request.stats
    rater = Rater(geometry, target, request.rating_seed, st)
    outputs = Outputs(
        target, request.avoid, rater, st, per_grid=request.per_grid, accept=request.accept
    )
    while request.deadline is None or time.time() < request.deadline:
        if request.max_chains is not None and st.restarts >= request.max_chains:
            return
        sol = _grid_cells(geometry, rng)
        symmetry, checker = request.symmetry, request.checker
        clues = dug(sol.copy(), sol, geometry, rng, minimal=request.minimal, symmetry=symmetry,
                    checker=checker)  # fmt: skip
        st.steps += 1
        if request.on_step is not None:
            request.on_step()
        r = rater.value(clues, sol)
        if r is not None:
            st.note(objective(target, r), r, clues)  # what a run short of its target reports
            found = outputs.offer(clues, sol, r)
            if found is not None:
                yield found
        st.restarts += 1
