"""Difficulty metrics behind one entry point: :func:`rate` and :func:`rate_many`.

====================  =============================================================
metric                what it is (paper)
====================  =============================================================
``hsolve``            expected checks of a strategy search, tiers 0-5 (Chang, Fan,
                      Sun, *hsolve*, section 3.2, Appendix A); 20 runs
``rounds``            rounds of the human model and its level (Hunt, Pong, Tucker,
                      *Difficulty-Driven Sudoku Puzzle Generation*)
``mdrt``              the most difficult required technique (Hunt, Pong, Tucker)
``oracle``            singles + oracle visits, equation (1) scaled by tanh
                      (Fletcher, Johnson, Morrison, *An Oracular Model*); 100 runs
``refutation``        SiSuS refutation sum (Pelanek, FLAIRS 2011); 30 runs
``dependency``        SiSuS mean options over the first k steps (Pelanek); 30 runs;
                      lower is harder
``se``                an estimate of Sudoku Explainer's ER (and EP, ED) from the
                      hardest step of the never-stuck human model (graded
                      refutation); fitted to SE ratings (docs/validation.md)
``combined``          a linear model of several metrics fitted to Sudoku Explainer
                      ratings (see :func:`fit_combined` and docs/validation.md)
====================  =============================================================

Every rating is a :class:`Rating` with its provenance; the same ``seed`` gives
the same rating. Example::

    from csp_sudoku.metrics import rate
    r = rate("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
             metric="oracle", seed=1)
    r.score, r.level, r.details["oracle_visits"]
"""

from __future__ import annotations

from csp_sudoku.metrics.base import MetricError, Rating
from csp_sudoku.metrics.combined import CombinedRater
from csp_sudoku.metrics.registry import (
    METRICS,
    REGISTRY,
    MetricSpec,
    derive_seed,
    fit_combined,
    metric_names,
    rate,
    rate_many,
)

__all__ = [
    "METRICS",
    "REGISTRY",
    "CombinedRater",
    "MetricError",
    "MetricSpec",
    "Rating",
    "derive_seed",
    "fit_combined",
    "metric_names",
    "rate",
    "rate_many",
]
