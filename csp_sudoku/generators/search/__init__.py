"""The hard-end search: its settings, its strategies' shared parts, and a template.

A *strategy* makes new puzzles at the hard end of a metric, where random
minimal puzzles almost never reach (:func:`~csp_sudoku.generators.anneal.anneal`
is the one that ships). :func:`csp_sudoku.generate` runs the strategy named by
its ``method`` (registered in :data:`csp_sudoku.generators.registry.STRATEGIES`)
with one :class:`SearchSettings` (``search=``).

=============  ===================================================================
module         what
=============  ===================================================================
``settings``   :class:`SearchSettings`: how the search goes (frozen, checked)
``base``       :class:`SearchRequest` (what a strategy is given), :data:`Strategy`,
               :class:`Found`, :class:`SearchStats`, :func:`objective` (the
               value climbed), :func:`open_above` (the hard end)
``rating``     :class:`~csp_sudoku.generators.search.rating.Rater`: each clue set
               rated once, behind the metric's quick test
``outputs``    :class:`~csp_sudoku.generators.search.outputs.Outputs`: new,
               accepted outputs, at most ``per_grid`` a family
``elite``      :class:`~csp_sudoku.generators.search.elite.Elite`: the hardest
               states met
``sources``    :class:`~csp_sudoku.generators.search.sources.Sources`: the hits,
               picked by Thompson sampling for vicinity steps
``TEMPLATE``   a complete, small, unregistered strategy to copy
=============  ===================================================================
"""

from csp_sudoku.generators.search.base import (
    Found,
    SearchRequest,
    SearchStats,
    Strategy,
    objective,
    open_above,
)
from csp_sudoku.generators.search.settings import DEFAULTS, SearchSettings

__all__ = [
    "DEFAULTS",
    "Found",
    "SearchRequest",
    "SearchSettings",
    "SearchStats",
    "Strategy",
    "objective",
    "open_above",
]
