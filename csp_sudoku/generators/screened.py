"""The annealing search with every vicinity move screened at the target's floor.

A design for the climb on fresh grids (one output a family: every find needs
a climb of its own). In the annealing search as it ships
(:mod:`csp_sudoku.generators.anneal`), a vicinity move is screened by the
metric's quick test (SE's :func:`~csp_sudoku.human.se_order.solved_within`) at
the *lesser* of the target's floor and the weakest elite state's score, and
not at all while the elite pool is not full. For SE that limit lies below
8.6 through most of a climb (after each find the pool loses the found grid's
states and fills again from ER 7-8), and there the test can show nothing:
its contradictions are SE's dynamic chains, worth 8.5 and up, so below 8.6 it
clears no puzzle needing a chain (measured: none of 1,500 moves of a search
rated 3.0 or more, cleared at 8.5). Most vicinity moves, which land at ER
7-9, were thus rated in full (7-35 ms each) to learn that they were no output.

Here every vicinity move is tested at the target's floor (SE ``extreme``:
9.0, where the test clears every one of those moves rated below 9, at
0.3-1.7 ms), and only those it cannot clear are rated. The elite pool is then
fed by the chain's own steps (rated in full, as before) and by the moves the
test could not clear; a cleared move is no output and no elite state. Everything
else is the annealing search's.
"""

from __future__ import annotations

from collections.abc import Iterator

from csp_sudoku.generators.anneal import _Search
from csp_sudoku.generators.search.base import Found, SearchRequest
from csp_sudoku.generators.search.settings import DEFAULTS, SearchSettings

__all__ = ["search"]


def search(request: SearchRequest, settings: SearchSettings = DEFAULTS) -> Iterator[Found]:
    """The annealing search, vicinity moves screened at the target's floor
    (:data:`~csp_sudoku.generators.search.base.Strategy`).

    Yields:
        :class:`Found` puzzles, each new (and recorded in ``request.avoid``).
    """
    yield from _Screened(request, settings).run()


class _Screened(_Search):
    """The annealing search whose vicinity moves are tested at the target's floor."""

    def _quick_limit(self) -> float | None:
        """The target's floor, always (None: the target has none, no test)."""
        return self.rater.floor
