"""TEMPLATE: copy this file to add a technique to the path solver (it is not registered).

To add a technique called ``mine``:

1. Copy this file to ``csp_sudoku/human/mine.py``.
2. Write :func:`steps`: look at ``ctx.state`` (the candidates), apply what the
   technique finds to it, and return the :class:`~csp_sudoku.human.path.Step`
   values that say what was seen and done (an empty list: nothing found now).
   Set ``ctx.path.contradiction`` if it meets one, ``ctx.path.stopped`` if it runs
   past a budget. Draw randomness only from ``ctx.rng`` (None: take the first).
3. Register it: one line in ``TECHNIQUE_STEPS`` in ``csp_sudoku/human/path.py``
   (``"mine": mine.steps``, imported there) and its name in ``TechniqueName``
   (``csp_sudoku/core/names.py``).
4. ``solve_path(p, ["singles", "mine", ...])`` and ``csp-sudoku explain --order
   subsets --techniques singles,mine`` then use it; every step is checked against the
   solution in tests (``tests/test_technique_template.py`` shows the check).

The technique below is the smallest correct one: a naked single (a cell with one
candidate left gets it), one at a time.
"""

from __future__ import annotations

from csp_sudoku.human.path import Step, TechniqueContext


def steps(ctx: TechniqueContext) -> list[Step]:
    """Place one naked single, the first in cell order."""
    state = ctx.state
    for cell in range(state.geometry.ncells):
        if state.values[cell] == 0:
            digits = state.candidates(cell)
            if len(digits) == 1:
                state.place(cell, digits[0])
                return [Step("naked single", "single", 0, ((cell, digits[0]),), (), 1)]
    return []
