"""The settings of the hard-end search: one frozen value, checked when it is made.

A run passes one :class:`SearchSettings` from :func:`csp_sudoku.generate`
(``search=``) to the strategy that searches (:func:`~csp_sudoku.generators.anneal.anneal`
by default); a benchmark compares variants by passing another value::

    from dataclasses import replace
    from csp_sudoku.generators.search import SearchSettings

    plain = replace(SearchSettings(), bound_top=False)
    cs.generate(3, metric="se", score_range=(10, math.inf), search=plain)

The settings say *how* the search goes (its temperature, its patience, when it
hands over to the whole-vicinity search ...); what it searches for (the shape,
the target, the seed, the deadline, the caller's starts, how many outputs a
family may give) are the run's inputs, passed beside them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.numbers import is_whole

__all__ = ["DEFAULTS", "SearchSettings"]


@dataclass(frozen=True)
class SearchSettings:
    """How the hard-end search goes; every default is the search as it ships.

    Attributes:
        temperature: Metropolis temperature, in units of the metric's score
            (see :func:`~csp_sudoku.generators.search.base.objective`).
        patience: restart after this many steps without a better chain best.
        reuse: the chance that a restart starts from a state of the elite pool
            (the hardest states this search met) rather than a fresh puzzle.
        elite_size: how many states the elite pool keeps.
        expand: at the hard end (:func:`~csp_sudoku.generators.search.base.open_above`),
            the share of steps that may be vicinity moves: before the first
            hit they are moves from the elite pool; after it, each such step
            goes to the arm (one hit, or the chain itself) that Thompson
            sampling picks. The rest, ``1 - expand``, are always steps of the
            chain.
        renew: at the hard end, before the first hit: after this many steps
            in which the elite pool's best did not improve, the search starts
            over (the pool emptied, a fresh puzzle): a climb's best comes
            early and then mostly stays (SE: ER 9.3-9.5 within seconds), so
            several fresh starts climb higher than one long plateau, and
            2,500 steps hand over early to ``deepen``, which is what goes
            past 9.9; 1,000 met SE 10 no more often (docs/generators.md,
            "Passes of widening windows", "Plateau states bounded, not
            rated" and "The hand-over after 1,000 stale steps"). None:
            never.
        deepen: at that point, first search the elite pool's vicinity
            exhaustively, best first and over every digit
            (:func:`csp_sudoku.generators.vicinity.best_first`), until
            ``deepen`` states in a row were expanded without a new best (or
            its frontier is spent); then the next pass of ``windows``, and
            after the last, start over. None: never. Only for minimal puzzles
            with no symmetry (its moves change single clues), and only without
            an attempt budget (``max_chains``): that search is no chain, and
            its passes can take minutes, which a budget of chains could not
            bound.
        deepen_ratings: while no output has been found, the passes of one such
            search end after this many full ratings among them, and the search
            starts over: a cap counted in ratings, not seconds, so that a seed
            gives the same puzzles on any machine (at ER 9.9 a rating takes some
            0.17 s). None (the default): no cap (docs/generators.md, "A cap on
            the whole-vicinity search").
        windows: the ``window`` of each pass of that search
            (:func:`~csp_sudoku.generators.vicinity.best_first`: how far below
            the best start a state may be and still be expanded). A narrow
            window spends a short search on the top of the frontier, but its
            frontier may run dry within seconds: then the next pass, from the
            elite pool as it stands, takes the next window, and only after the
            last does the search start over (docs/generators.md, "Passes of
            widening windows"). At least one; any sequence is kept as a tuple.
        lean: the whole-vicinity search's preference for fewer clues
            (:func:`~csp_sudoku.generators.vicinity.best_first`'s ``lean``): a
            state with a clue fewer goes before one ``lean`` harder, in the
            objective's units a clue. 0 by default: of the neighbours its
            searches rated, those with 23 clues or fewer reached ER 9.7 some
            ten times as often as those with more, yet 0.05 met SE 10 on no
            more new seeds than 0 did (docs/generators.md, "Fewer clues
            first").
        bounded: in the whole-vicinity search, a neighbour that the metric's
            bound (:attr:`~csp_sudoku.metrics.MetricSpec.bound`) puts a tenth
            or more below the target's floor (``bound_top``, the default) or
            below the best score its pass met (the pass's starts and the
            neighbours it rated; after a fresh start, not an earlier climb's
            best) is not rated: it joins the frontier at its bound plus
            ``bounded`` and is expanded unrated when the search reaches it
            (its full rating, of SE's fine score, was most of the time spent
            on such plateau states). None: every neighbour the quick test
            does not clear is rated (docs/generators.md, "Plateau states
            bounded, not rated").
        bound_top: with ``bounded``, bound a neighbour up to a tenth below the
            target's floor (the greatest score too easy: SE 10+, bounds up to
            9.8), the pass's best tenth included: such a neighbour goes
            unrated, placed at its bound plus ``bounded``, and joins the elite
            pool at it (so that later passes can start from it); only those
            that may be within a tenth of an output are rated. False: only
            those a tenth below the pass's best (measured on 50 fresh seeds,
            the default met SE 10 within 120 s on 39 against 37, sooner on 26
            of the 35 both met: docs/generators.md, "Plateau states bounded,
            not rated").
        bound_floor: with ``bound_top``, bound a neighbour up to the target's
            floor itself: one the bound clears at the floor (SE 10+: at 9.9)
            cannot be an output, and goes unrated too, placed at its bound plus
            ``bounded``; only those the bound cannot clear at the floor are
            rated (docs/generators.md, "Plateau states bounded, not rated").
            Without ``bound_top`` it changes nothing.
        screen_at_floor: test every {-1+1} vicinity move with the metric's quick
            test at the target's floor itself, from the first step, and rate only
            the moves it cannot clear (the default). False (as the search first
            shipped): at the lesser of the floor and the elite pool's weakest
            score, and only once the pool is full; for SE that limit lies below
            8.6 through most of a climb, where the test clears no puzzle needing
            a chain, so most moves are rated in full to learn they are no output.
            On SE extreme (one output a family, 120 CPU-s a seed, eight seeds)
            the default finds about twice the families of False
            (benchmarks/results/generate_screened.md); it first had a tail (one
            seed in eight climbed to ER 10.6 and met 3 families), which
            ``skip_spent_below`` removed.
        skip_spent_below: with one output a family or a few (``per_grid``), a
            state whose family already gave its share (it can be no output,
            whatever its score) is neither rated nor kept when the target's
            floor (the greatest score too easy: SE extreme 9.0, SE 10+ 9.9) is
            below this score: the whole-vicinity search drops such a
            neighbour, a vicinity move or chain step that lands on one is not
            rated, the elite pool refuses it and loses the states of a family
            as soon as it gives its share, and a chain standing on one starts
            over. At SE extreme (floor 9.0) a fresh climb costs about a
            CPU-second, while a pass that went on through a found family's
            vicinity climbed to ER 9.9 and rated its spent neighbours at 0.17 s
            each (one seed in eight met 3 families instead of 47), and spent
            states left in the elite pool took half a run's vicinity moves,
            each rated in full at ER 9.1-9.2 (two development seeds in four met
            2-3 families in 60 CPU-s;
            benchmarks/results/generate_screened.md). At SE 10 and above a
            fresh climb costs minutes, and a pass's outputs are linked by
            walks through spent families, so there they are still rated and
            kept. None: always rated and kept.
        wider_after: before the first hit, once this many {-1+1} vicinity moves
            from an elite state gave no output, its further moves are {-2+2}
            (None, the default: always {-1+1}). At SE extreme a state rated
            9.0 that gives an output mostly does so within its first 200
            moves, and after that its {-1+1} moves gave none in tens of
            thousands of tries (two development seeds); yet 200 found 1.08x
            the families on sixteen development seeds and 1.02x on the eight
            benchmark seeds, within a run's spread, so it is off
            (benchmarks/results/generate_screened.md, "Wider moves from a
            barren state").

        pick_trials: before the first hit, the elite state of each vicinity move is
            the one of the highest index (:meth:`~csp_sudoku.generators.search.elite.Elite.by_index`:
            its objective's promise, lowered as its moves miss, as if this many
            moves had been tried before); None (the default): the harder of two
            states drawn at random. At SE extreme 300 found 1.22x the families on
            eight development seeds, most of it on one seed (1.06x without it),
            within a run's spread as ``wider_after`` was, so it is off
            (benchmarks/results/generate_pick_by_index.md).

    Raises:
        GenerationError: a setting out of its range (named in the message).
    """

    temperature: float = 1.0
    patience: int = 100
    reuse: float = 0.7
    elite_size: int = 16
    expand: float = 0.95
    renew: int | None = 2_500
    deepen: int | None = 300
    deepen_ratings: int | None = None
    windows: tuple[float, ...] = (0.1, 0.2, 0.4)
    lean: float = 0.0
    bounded: float | None = 0.05
    bound_top: bool = True
    bound_floor: bool = False
    screen_at_floor: bool = True
    skip_spent_below: float | None = 9.5
    wider_after: int | None = None
    pick_trials: int | None = None

    def __post_init__(self) -> None:
        """Check every setting's range; keep ``windows`` as a tuple (a frozen value)."""
        object.__setattr__(self, "windows", tuple(self.windows))
        if not self.windows:
            raise GenerationError("windows: the whole-vicinity search needs at least one window")
        if not all(w >= 0 for w in self.windows):  # NaN too
            raise GenerationError(f"windows must be non-negative, got {self.windows}")
        if not self.temperature > 0:
            raise GenerationError(f"temperature must be positive, got {self.temperature}")
        for name in ("reuse", "expand"):
            share = getattr(self, name)
            if not 0 <= share <= 1:
                raise GenerationError(f"{name} must be between 0 and 1, got {share}")
        for name in ("patience", "elite_size"):
            _at_least_one(name, getattr(self, name))
        for name in ("renew", "deepen", "deepen_ratings", "wider_after", "pick_trials"):
            if getattr(self, name) is not None:
                _at_least_one(name, getattr(self, name))
        for name in ("lean", "bounded", "skip_spent_below"):
            value = getattr(self, name)
            if value is not None and not (value >= 0 and math.isfinite(value)):
                raise GenerationError(f"{name} must be a finite non-negative number, got {value}")


def _at_least_one(name: str, value: object) -> None:
    """A count setting: a whole number (:func:`~csp_sudoku.core.numbers.is_whole`), at least 1."""
    if not is_whole(value) or value < 1:
        raise GenerationError(f"{name} must be a whole number, at least 1, got {value!r}")


#: The settings as the search ships (every default): what a run uses unless told.
DEFAULTS: Final = SearchSettings()
