"""TEMPLATE: copy this file to add a technique to Sudoku Explainer's order (it is not registered).

The ``se`` rating replays Sudoku Explainer's (SE) order: at every step it asks
SE's techniques, in order, for a hint and applies the first one found
(:mod:`csp_sudoku.human.se_order`). To add a technique called ``Mine``:

1. Copy this file to ``csp_sudoku/human/se_mine.py``.
2. Write :func:`find`: read ``state`` (the pencil marks); where the technique
   has a hint, return it as an :class:`SeStep` (SE's name of the hint, its
   value on SE's scale, what it places and removes) applied to ``state`` by
   :func:`commit`; where it has none, return None and leave ``state`` as it
   is. Where it has several, return the one SE takes (the least value, then
   the first in SE's own search). Take values from
   :mod:`csp_sudoku.human.costs` (add one there if it is new).
3. Give each name its hints carry a row of the technique catalogue,
   ``csp_sudoku/data/techniques.tsv``, at its place in SE's order: the rating
   names its hardest step from there, and :attr:`SeTechnique.difficulty`
   reads it.
4. Set :data:`TECHNIQUE`: SE's name of the technique, its place in SE's order
   (the replay asks every technique of a smaller order first; SE's own step
   by 10, ``csp_sudoku.human.se_order.techniques()`` lists them, and the
   hidden single, 10, stays first), the raters that have it, and the names of
   its hints where they are not its name alone.
5. Register it: one line with the others at the end of the finders in
   ``csp_sudoku/human/se_order.py``, ``register(se_mine.TECHNIQUE)`` (with
   ``from csp_sudoku.human import se_mine`` among its imports).
6. ``rate(p, "se")``, ``replay``, ``explain`` and the generators' SE targets
   then use it; ``tests/test_se_template.py`` shows how to check that it is
   asked and that its steps are sound, and ``unregister("Mine")`` takes it
   out again. ``explain`` draws it without a pattern unless
   :func:`csp_sudoku.human.se_figures.figure` learns its name.

Rules: read the units from ``state.geometry``, never assume 9x9; draw no
random numbers (SE's order is deterministic, and so are its ratings); raise
only errors from :mod:`csp_sudoku.core.errors`.

The technique below is the smallest correct one: a naked single (a cell with
one candidate left gets it), the first in cell order, worth SE's naked single.
At order 15 it comes right after SE's hidden single, so it takes naked singles
before SE's direct hints do (SE itself asks for them at 40): an example, not
SE's order.
"""

from __future__ import annotations

from csp_sudoku.human.costs import SE_VALUES
from csp_sudoku.human.se_techniques import SeStep, SeTechnique, commit
from csp_sudoku.human.state import CandidateState


def find(state: CandidateState) -> SeStep | None:
    """Place one naked single, the first in cell order."""
    for cell in range(state.geometry.ncells):
        if state.values[cell] == 0:
            digits = state.candidates(cell)
            if len(digits) == 1:
                step = SeStep("Naked Single", SE_VALUES["naked single"], ((cell, digits[0]),))
                return commit(state, step)
    return None


#: The technique as the registry takes it: its name, its place in SE's order,
#: its finder, and the names of its hints (a row of the catalogue each).
TECHNIQUE = SeTechnique("Template Naked Single", 15, find, hints=("Naked Single",))
