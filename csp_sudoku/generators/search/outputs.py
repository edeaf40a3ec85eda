"""Which rated states a search outputs: on target, new, and within their family's share.

Every on-target puzzle a search meets is a candidate output; :class:`Outputs`
keeps it only when it is *new* (:mod:`~csp_sudoku.generators.novelty`: not
isomorphic to the bundled collections, the seed bank, the caller's ``avoid``
set, or an earlier output of the run), passes the caller's ``accept`` test, and
its *family* has not given ``per_grid`` outputs yet. Two puzzles are of one
family when they have one solution grid, or share at least half of the clues
of the one with fewer (same cell, same digit): a find's neighbours. A family
that gave its share is *retired*: its grids are searched no more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from csp_sudoku.core.errors import MetricError
from csp_sudoku.core.puzzle import Grid
from csp_sudoku.generators.novelty import KeySet
from csp_sudoku.generators.search.base import Found, SearchStats
from csp_sudoku.generators.search.rating import Rater
from csp_sudoku.generators.targeting import Target

if TYPE_CHECKING:
    from csp_sudoku.metrics.base import Rating

__all__ = ["Outputs"]


class Outputs:
    """A search's outputs so far, their families, and the grids retired.

    Args:
        target: what an output must satisfy.
        avoid: canonical keys not to produce; every output is added to it.
        rater: the search's rater (an output's partial rating is redone in full;
            once an output came it rates in full).
        stats: counts copies and families.
        per_grid: at most this many outputs per family (None: no limit).
        accept: a further test an output must pass.
        on_retire: called with a retired grid's bytes (the search drops its
            states from what it expands).
    """

    def __init__(
        self,
        target: Target,
        avoid: KeySet,
        rater: Rater,
        stats: SearchStats,
        *,
        per_grid: int | None = None,
        accept: Callable[[Grid, Grid, Rating], bool] | None = None,
        on_retire: Callable[[bytes], None] | None = None,
    ) -> None:
        self.target = target
        self.avoid = avoid
        self.rater = rater
        self.stats = stats
        self.per_grid = per_grid
        self.accept = accept
        self.on_retire = on_retire
        self.outputs: dict[bytes, int] = {}  # outputs per family
        #: grids of families that gave ``per_grid``: searched no more
        self.retired: set[bytes] = set()
        self._roots: dict[bytes, bytes] = {}  # an output's solution grid -> its family
        self._made_clues: list[Grid] = []  # the outputs, and their families
        self._made_roots: list[bytes] = []
        self._made_arr: Grid | None = None  # the outputs stacked (a cache)

    @property
    def made(self) -> int:
        """How many outputs so far."""
        return len(self._made_clues)

    def is_retired(self, sol: Grid) -> bool:
        """True when the grid ``sol`` gives no more outputs."""
        return sol.tobytes() in self.retired

    def spent(self, clues: Grid, sol: Grid) -> bool:
        """True when ``clues`` (solution ``sol``) can be no output whatever its rating:
        its grid is retired, or its family (:meth:`family`) gave its share. A
        search need not rate such a state to learn that."""
        if self.per_grid is None:
            return False
        if sol.tobytes() in self.retired:
            return True
        return self.outputs.get(self.family(clues, sol), 0) >= self.per_grid

    def offer(self, clues: Grid, sol: Grid, r: Rating, vicinity: bool = False) -> Found | None:
        """``clues`` (solution ``sol``, rated ``r``) as a new output, or None when it is
        not one (off target, a retired grid or family, a copy, refused by ``accept``)."""
        st = self.stats
        if not self.target.matches(r) or sol.tobytes() in self.retired:
            return None
        fam = self.family(clues, sol)
        if self.per_grid is not None and self.outputs.get(fam, 0) >= self.per_grid:
            return None  # a neighbour of a family that gave its share
        if not self.avoid.is_new(clues):
            st.copies += 1
            return None
        if r.details.get("partial"):  # an output's rating is the full one (its details)
            try:
                r = self.rater.in_full(clues, sol)
            except MetricError:
                return None
            if not self.target.matches(r):
                return None
        if self.accept is not None and not self.accept(clues, sol, r):
            return None
        self.avoid.add(clues)
        self._roots[sol.tobytes()] = fam
        self._made_clues.append(clues)
        self._made_roots.append(fam)
        self._made_arr = None
        self.outputs[fam] = self.outputs.get(fam, 0) + 1
        st.families = len(self.outputs)
        if self.per_grid is not None and self.outputs[fam] >= self.per_grid:
            for grid in [g for g, root in self._roots.items() if root == fam]:
                self._retire(grid)
        self.rater.outputs_came()
        return Found(clues=clues, solution=sol, rating=r, steps=st.steps, vicinity=vicinity)

    def family(self, clues: Grid, sol: Grid) -> bytes:
        """The family of a puzzle: that of an output with its grid, or with at
        least half of the clues of the one with fewer; else a new one (its grid)."""
        grid = sol.tobytes()
        if grid in self._roots:
            return self._roots[grid]
        if self._made_clues:
            if self._made_arr is None:
                self._made_arr = np.stack(self._made_clues)
            made_arr = self._made_arr
            shared = np.count_nonzero((made_arr == clues) & (clues != 0), axis=1)
            fewer = np.minimum(np.count_nonzero(made_arr, axis=1), np.count_nonzero(clues))
            near = np.flatnonzero(2 * shared >= fewer)
            if near.size:
                return self._made_roots[int(near[0])]
        return grid

    def _retire(self, grid: bytes) -> None:
        """No more outputs from ``grid``; the search is told (``on_retire``)."""
        self.retired.add(grid)
        if self.on_retire is not None:
            self.on_retire(grid)
