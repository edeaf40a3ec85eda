"""Simulated annealing over unique (minimal) clue sets: a generator that invents.

Random minimal puzzles almost never reach the hard end of a metric (of random
minimal 9x9 puzzles, few rate above SE 7.5 and practically none above 9).
Published hard puzzles were found by *vicinity search*: take a hard puzzle,
remove ``k`` clues and add ``k`` others ({-1+1}, {-2+2}), keep what is unique
and harder (the forum's "hardest" lists were built that way). This module does
that search from scratch, never from a known puzzle:

* **start**: a fresh random minimal puzzle (RG2: random grid, random-order
  removal; Hunt, Pong, Tucker), never a bundled or published one;
* **move** (one vicinity step, solution grid kept): remove ``k`` random clue
  orbits and add ``k`` random empty ones from the solution (``k`` = 1 or 2);
  while another solution exists, add the solution's digit at a cell where
  that other solution differs (so the puzzle is unique again, one
  ``other_solution`` call each); then make it minimal again when asked
  (:func:`~csp_sudoku.generators.minimal.reduce_clues`);
* **value**: the target metric's score (SE's ER by default for the hard
  levels), each clue set rated once (a cache keyed by the clue bytes);
* **accept** (Metropolis): a harder neighbour always, an easier one with
  probability ``exp(-drop / T)``;
* **restart** when the best score of the chain has not improved for
  ``patience`` steps: from a new random minimal puzzle, or (with chance
  ``reuse``) from one of the hardest states this search itself met (an elite
  pool, as the forum's vicinity searches keep a pool of hard puzzles to
  expand; here the pool only ever holds the search's own puzzles);
* **vicinity search** at the hard end (targets open above, e.g. SE
  ``extreme``): up to a share ``expand`` of the steps is a {-1+1} move from
  a source state rather than a step of the chain. Before the first hit the
  source is the harder of two random elite states; after it, a bandit:
  every on-target state met so far is an arm, and so is the chain itself,
  and Thompson sampling of each arm's own hit rate picks the step (a state
  whose moves led to new on-target puzzles is expanded more, fresh ones are
  tried, barren ones give their steps back to the chain). Measured
  around SE 9.1-9.2 puzzles, about 1 {-1+1} move in 70-100 lands on another
  ER > 9 puzzle; a Metropolis chain on the diabolical plateau (ER 7-9), where
  it otherwise drifts back to, met about 1 in 700 (4 in 2,900 steps).

* **quick test** (metrics that have one, e.g. SE's
  :func:`~csp_sudoku.human.se_order.solved_within`): once the elite pool is
  full, a vicinity move that the metric's cheap one-sided test shows rated at
  most the target's floor and the weakest elite state is not rated: it could
  be no output, no elite state and no new best, so the search takes the same
  steps as with its rating. Most moves from a hit fall to ER 6-9, whose full
  replay was most of the search's time (``benchmarks/bench_quick_test.py``:
  the 7,344 candidates of two 60 s searches took 115.8 s to rate in full,
  28.3 s with the test).

* **whole-vicinity search** (``deepen``, at the hard end, before the first
  hit): when the elite pool's best has stalled for ``renew`` steps, the
  vicinity of the elite states is searched exhaustively, best first and over
  every digit (:mod:`csp_sudoku.generators.vicinity`), before the search
  starts over. The chain's moves keep the solution grid; these change any
  clue to any digit, which is how the search first went past SE 9.9. Its
  neighbours get the metric's thorough quick test (SE: with the dynamic cell
  and region forcing chains), and one it clears at the frontier's floor is
  rated only if the search reaches it (docs/generators.md, "Neighbours left
  for later"); one whose bound from that test lies a tenth or more below the
  best score met is never rated: it joins the frontier at its bound ("Plateau
  states bounded, not rated"). Ordering its frontier by fewer clues too
  (``lean``) was measured and is off by default ("Fewer clues first").

Every on-target puzzle met on the way is a candidate output; it is kept only
when it is *new* (:mod:`~csp_sudoku.generators.novelty`: not isomorphic to the
bundled collections, the seed bank, the caller's ``avoid`` set, or an earlier
output of the run).

Cost. SE's rating is cheap for easy puzzles (about 10-20 ms for a random
minimal puzzle, most of which is the move itself) and seconds at SE 10-11
(SE's nested forcing chains, replayed: 3-27 s each for the 15 SE-rated
puzzles at 10.4-11.6), so the hard end dominates: the cache pays there,
since annealing revisits clue sets.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from csp_sudoku.core.errors import ArgumentError, MetricError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.generators.minimal import reduce_clues
from csp_sudoku.generators.novelty import KeySet
from csp_sudoku.generators.symmetry import orbit_index, orbits
from csp_sudoku.generators.targeting import Target, level_order, lower_is_harder
from csp_sudoku.generators.targeting import rate_with_solution as _rate
from csp_sudoku.generators.vicinity import Bounded, Later

if TYPE_CHECKING:
    from csp_sudoku.api import Checker
    from csp_sudoku.metrics.base import Rating

#: How much a clue fewer raises a state in the whole-vicinity search's order, in
#: the objective's units a clue: none, since 0.05 ER met SE 10 on as many new
#: seeds as none did (docs/generators.md, "Fewer clues first").
LEAN = 0.0

#: The prior hit rate of a state's vicinity (Thompson sampling of the sources).
_PRIOR = 0.02

#: How many clue sets the quick test's verdicts are remembered for before they are
#: forgotten (the whole-vicinity search tests about 500 neighbours a second; each
#: entry takes about 180 bytes: 90 MB in all).
_CLEARED_MAX = 500_000

#: How many clue sets' ratings are cached before the cache is emptied (it pays at
#: the hard end, where the search comes back to clue sets it rated; emptying it
#: bounds a long search's memory, and a set met again is rated again).
_RATED_MAX = 200_000

__all__ = ["AnnealStats", "Found", "anneal", "objective", "open_above"]


@dataclass(frozen=True)
class Found:
    """One new on-target puzzle of the search."""

    clues: Grid
    solution: Grid
    rating: Rating
    steps: int
    vicinity: bool = False  # found by a move from an earlier on-target state
    #: the caller's start (``starts``) whose vicinity it was found in, if any
    derived_from: Grid | None = None


@dataclass
class AnnealStats:
    """What the search did so far (read by progress reports)."""

    steps: int = 0
    rated: int = 0
    restarts: int = 0
    copies: int = 0
    vicinity: int = 0  # steps that were vicinity moves (see ``expand``)
    cleared: int = 0  # candidates the metric's quick test showed too easy (not rated)
    renewals: int = 0  # times the search started over (see ``renew``)
    families: int = 0  # families the outputs came from (see ``per_grid``)
    expanded: int = 0  # states whose whole vicinity was searched (see ``deepen``)
    best: float = -math.inf
    best_rating: Rating | None = None
    best_clues: Grid | None = None  # the puzzle of ``best_rating``


def open_above(target: Target) -> bool:
    """True when every puzzle harder than an on-target one is on target too.

    That is the hard end (e.g. SE ``extreme``, or a score range with no upper
    bound on hardness): there the search climbs hardness itself.
    """
    order = level_order(target.metric)
    if target.levels and (not order or order[-1] not in target.levels):
        return False
    if target.score_range is not None:
        lo, hi = target.score_range
        bound = lo if lower_is_harder(target.metric) else hi
        if math.isfinite(bound) and abs(bound) < 1e6:
            return False
    return True


def objective(target: Target, rating: Rating) -> float:
    """The value the search climbs.

    At the hard end (:func:`open_above`) it is the hardness (the score, with
    its sign turned when lower is harder), so that the search keeps climbing
    past the threshold; a metric whose scores come in steps may break their
    ties with a ``fine_score`` in its details, a value in ``[score, next
    step)`` (SE's: how long the hardest step's chain is within its tenth,
    :func:`csp_sudoku.human.se_order.length_progress`), so that the search
    also climbs within a step, towards its next; otherwise 0 on target and minus the distance to it
    off target (:meth:`Target.distance` is a (level gap, score gap) pair
    compared as a tuple; one level weighs 10 score units, which keeps the order).
    """
    if open_above(target):
        if lower_is_harder(target.metric):
            return -rating.score
        return float(rating.details.get("fine_score", rating.score))
    gap, rest = target.distance(rating)
    return -(10.0 * gap + rest)


def _within(
    metric: str, thorough: bool = False
) -> Callable[[Puzzle, float, Puzzle | None], bool] | None:
    """The metric's quick test that a score is at most a limit (None: it has none);
    ``thorough``: its tighter, costlier form where it has one."""
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY.get(metric)
    if spec is None:
        return None
    return (spec.within_thorough or spec.within) if thorough else spec.within


def _bound(metric: str) -> Callable[[Puzzle, float, float, Puzzle | None], float | None] | None:
    """The metric's bound from its quick test (None: it has none)."""
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY.get(metric)
    return None if spec is None else spec.bound


def anneal(
    geometry: Geometry,
    target: Target,
    rng: np.random.Generator,
    checker: Checker,
    avoid: KeySet,
    *,
    symmetry: str = "none",
    minimal: bool = True,
    rating_seed: int = 0,
    deadline: float | None = None,
    temperature: float = 1.0,
    patience: int = 100,
    reuse: float = 0.7,
    elite_size: int = 16,
    expand: float = 0.95,
    stats: AnnealStats | None = None,
    accept: Callable[[Grid, Grid, Rating], bool] | None = None,
    on_step: Callable[[], None] | None = None,
    max_chains: int | None = None,
    per_grid: int | None = None,
    renew: int | None = 2_500,
    deepen: int | None = 300,
    deepen_ratings: int | None = None,
    windows: Sequence[float] = (0.1, 0.2, 0.4),
    starts: Sequence[Grid] = (),
    lean: float | None = None,
    bounded: float | None = 0.05,
    bound_top: bool = True,
    bound_floor: bool = False,
) -> Iterator[Found]:
    """New on-target puzzles found by simulated annealing, endlessly (until the deadline).

    Args:
        geometry: the shape.
        target: what an output must satisfy; the search climbs the target
            metric's hardness.
        rng: the randomness (advanced; a run is reproduced by its seed).
        checker: the uniqueness checker.
        avoid: canonical keys not to produce; every output is added to it.
        symmetry: the clue-pattern symmetry kept by every move.
        minimal: keep every state minimal (among ``symmetry``-patterned puzzles).
        rating_seed: the seed of randomised metrics (SE is deterministic).
        deadline: a ``time.time()`` after which the iterator ends.
        temperature: Metropolis temperature, in units of the metric's score
            (see :func:`objective`).
        patience: restart after this many steps without a better chain best.
        reuse: the chance that a restart starts from a state of the elite pool
            (the hardest states this search met) rather than a fresh puzzle.
        elite_size: how many states the elite pool keeps.
        expand: at the hard end (:func:`open_above`), the share of steps
            that may be vicinity moves: before the first hit they are moves
            from the elite pool; after it, each such step goes to the arm
            (one hit, or the chain itself) that Thompson sampling picks. The
            rest, ``1 - expand``, are always steps of the chain.
        stats: filled in as the search goes (progress reports).
        accept: a further test an output must pass (e.g. technique filters).
        on_step: called after every step (progress reports).
        max_chains: end after this many chains (restarts + 1); None: no limit.
            With it the search never enters the whole-vicinity search of
            ``deepen`` (a stall starts over at once): that search is no chain,
            and its passes can take minutes, which a budget of chains could
            not bound.
        per_grid: at most this many outputs per *family* (None: no limit).
            Two puzzles are of one family when they have one solution grid, or
            share at least half of the clues of the one with fewer (same cell,
            same digit): a find's neighbours. A vicinity search keeps its grid,
            so its outputs otherwise share few families; once a family has
            given ``per_grid``, its grids' hits and elite states are dropped
            and the search goes on from other grids. Grids are compared as
            they are, not up to isomorphism: the search never transforms a
            grid, and two climbs reaching isomorphic grids by chance is not
            looked for.
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
            ``max_chains``.
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
            widening windows"). At least one.
        starts: unique puzzles of the caller's to search from first: at the
            hard end the search begins with one pass (the first of
            ``windows``) of the whole-vicinity search of ``deepen`` from them
            (300 expansions without a new best when ``deepen`` is None), and
            its outputs name the start they came
            from (:attr:`Found.derived_from`); then it goes on as usual.
            Ignored, like ``deepen``, with a symmetry or non-minimal puzzles.
        lean: the whole-vicinity search's preference for fewer clues
            (:func:`~csp_sudoku.generators.vicinity.best_first`'s ``lean``):
            a state with a clue fewer goes before one ``lean`` harder (of
            the neighbours its searches rated, those with 23 clues or fewer
            reached ER 9.7 some ten times as often as those with more, yet
            0.05 met SE 10 on no more new seeds than 0). None:
            :data:`LEAN`, read at each call.
        bounded: in the whole-vicinity search, a neighbour that the metric's
            bound (:attr:`~csp_sudoku.metrics.MetricSpec.bound`) puts a tenth
            or more below the target's floor (``bound_top``, the default) or
            below the best score its pass met (the pass's starts and the
            neighbours it rated; after a fresh start, not an earlier climb's
            best) is not rated: it joins the
            frontier at its bound plus ``bounded`` and is expanded unrated
            when the search reaches it (its full rating, of SE's fine score,
            was most of the time spent on such plateau states). None: every
            neighbour the quick test does not clear is rated, as before
            (docs/generators.md, "Plateau states bounded, not rated").
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

    Yields:
        :class:`Found` puzzles, each new (and recorded in ``avoid``).
    """
    if not windows:
        raise ArgumentError("windows: the whole-vicinity search needs at least one window")
    st = stats if stats is not None else AnnealStats()
    lean = LEAN if lean is None else lean
    metric = target.metric
    orbs = orbits(geometry.size, symmetry)
    oidx = orbit_index(geometry.size, symmetry)
    cache: dict[bytes, Rating | None] = {}
    # until the first output, states are rated with the metric's search parameters
    # (SE: a replay that stops once the quick test shows the rest worth less than
    # the hardest step so far: the same score, faster), and a partial rating that
    # makes an output is rated again in full; once outputs come (at the extreme
    # level within seconds) the full rating is cheaper than rating them twice
    # (docs/generators.md, "Replays that stop early")
    made = False  # an output came
    # the metric's quick test, for the vicinity moves: a candidate it shows rated at
    # most the target's floor and the weakest elite state can change nothing (no
    # output, no elite state, no new best), so its full rating (most of a search's
    # time) is skipped, and the search takes the same steps as without the test
    floor = target.floor()
    within = _within(metric) if floor is not None else None
    thorough = _within(metric, thorough=True) if floor is not None else None
    bound = _bound(metric) if floor is not None else None
    cleared: dict[bytes, float] = {}  # clue bytes -> the limit they were cleared at

    def clear(clues: Grid, sol: Grid, limit: float, deep: bool = False) -> bool:
        """The quick test (``deep``: its thorough form) of ``clues`` with the solution
        ``sol``: True when the metric's score is at most ``limit`` almost surely
        (remembered per clue set)."""
        key = clues.tobytes()
        if cleared.get(key, math.inf) <= limit:
            return True
        test = thorough if deep else within
        if test is None or not test(
            Puzzle.trusted(clues, geometry), limit, Puzzle.trusted(sol, geometry)
        ):
            return False
        st.cleared += 1
        if len(cleared) > _CLEARED_MAX:
            cleared.clear()  # a long search meets millions: the test gives the same answer again
        cleared[key] = limit
        return True

    def value(
        clues: Grid, sol: Grid, limit: float | None = None, deep: bool = False
    ) -> Rating | None:
        key = clues.tobytes()
        if key in cache:
            return cache[key]
        if limit is not None and clear(clues, sol, limit, deep):
            return None
        try:
            r: Rating | None = _rate(
                Puzzle(clues, geometry),
                Puzzle(sol, geometry),
                metric,
                rating_seed,
                search=not made,
            )
        except MetricError:
            r = None  # the rater gave up (a chain budget): treat as a dead end
        st.rated += 1
        if len(cache) > _RATED_MAX:
            cache.clear()
        cache[key] = r
        return r

    def fresh() -> tuple[Grid, Grid]:
        from csp_sudoku.generators.grids import _grid_cells

        sol = _grid_cells(geometry, rng)
        clues = sol.copy()
        if minimal or symmetry != "none":
            clues = reduce_clues(clues, sol, geometry, rng, symmetry=symmetry, checker=checker)
        return clues, sol

    def move(clues: Grid, sol: Grid, k: int = 0) -> Grid:
        has = np.zeros(len(orbs), dtype=np.bool_)
        has[oidx[clues != 0]] = True
        filled = np.flatnonzero(has)  # both in increasing order, as the draws need
        empty = np.flatnonzero(~has)
        k = k or 1 + int(rng.integers(2))
        k = min(k, filled.size, empty.size)
        work = clues.copy()
        for o in rng.choice(filled, size=k, replace=False).tolist():
            work[orbs[o]] = 0
        for o in rng.choice(empty, size=k, replace=False).tolist():
            work[orbs[o]] = sol[orbs[o]]
        while True:
            other = checker.backend.other_solution(work, geometry, sol)
            if other is None:
                break
            differ = np.flatnonzero((np.asarray(other) != sol) & (work == 0))
            c = int(differ[int(rng.integers(differ.size))])
            o = int(oidx[c])
            work[orbs[o]] = sol[orbs[o]]
        if minimal:
            work = reduce_clues(work, sol, geometry, rng, symmetry=symmetry, checker=checker)
        return work

    def offer(clues: Grid, sol: Grid, r: Rating, vicinity: bool = False) -> Found | None:
        nonlocal made
        if not target.matches(r) or sol.tobytes() in retired:
            return None
        fam = family(clues, sol)
        if per_grid is not None and outputs.get(fam, 0) >= per_grid:
            return None  # a neighbour of a family that gave its share
        if not avoid.is_new(clues):
            st.copies += 1
            return None
        if r.details.get("partial"):  # an output's rating is the full one (its details)
            try:
                r = _rate(Puzzle(clues, geometry), Puzzle(sol, geometry), metric, rating_seed)
            except MetricError:
                return None
            if not target.matches(r):
                return None
        if accept is not None and not accept(clues, sol, r):
            return None
        avoid.add(clues)
        roots[sol.tobytes()] = fam
        made_clues.append(clues)
        made_roots.append(fam)
        outputs[fam] = outputs.get(fam, 0) + 1
        st.families = len(outputs)
        if per_grid is not None and outputs[fam] >= per_grid:
            for grid in [g for g, root in roots.items() if root == fam]:
                retire(grid)
        made = True
        return Found(clues=clues, solution=sol, rating=r, steps=st.steps, vicinity=vicinity)

    # the hardest states met, best first: (objective, clue bytes, clues, solution, score)
    elite: list[tuple[float, bytes, Grid, Grid, float]] = []
    outputs: dict[bytes, int] = {}  # outputs per family
    retired: set[bytes] = set()  # grids of families that gave ``per_grid``: searched no more
    roots: dict[bytes, bytes] = {}  # an output's solution grid -> its family
    made_clues: list[Grid] = []  # the outputs, and their families
    made_roots: list[bytes] = []

    def family(clues: Grid, sol: Grid) -> bytes:
        """The family of a puzzle: that of an output with its grid, or with at
        least half of the clues of the one with fewer; else a new one (its grid)."""
        grid = sol.tobytes()
        if grid in roots:
            return roots[grid]
        if made_clues:
            made_arr = np.stack(made_clues)
            shared = np.count_nonzero((made_arr == clues) & (clues != 0), axis=1)
            fewer = np.minimum(np.count_nonzero(made_arr, axis=1), np.count_nonzero(clues))
            near = np.flatnonzero(2 * shared >= fewer)
            if near.size:
                return made_roots[int(near[0])]
        return grid

    def retire(grid: bytes) -> None:
        """No more outputs from ``grid``: its hits stop being sources, its elite states
        go, and a chain on it restarts elsewhere."""
        retired.add(grid)
        elite[:] = [e for e in elite if e[3].tobytes() != grid]
        for i, (_, _, sol) in enumerate(hits):
            if sol.tobytes() == grid:
                live[i] = False

    def remember(h: float, clues: Grid, sol: Grid, score: float) -> None:
        key = clues.tobytes()
        if any(e[1] == key for e in elite):
            return
        elite.append((h, key, clues, sol, score))
        elite.sort(key=lambda e: -e[0])
        del elite[elite_size:]

    # the on-target states met (own outputs only): at the hard end, the vicinity
    # search expands them; their neighbours are on target far more often than a
    # chain's (about 1 in 100 against 1 in 1,000 of a diabolical plateau's).
    # How often varies much from one state to the next, so the source is picked
    # by Thompson sampling of its own hit rate (a Beta prior of ``prior`` hits in
    # ``1 / prior`` moves): productive states are expanded more, fresh ones tried.
    hits: list[tuple[float, Grid, Grid]] = []
    tries: list[int] = []
    wins: list[int] = []
    live: list[bool] = []  # False: the hit's grid is retired (``per_grid``)
    climbing = open_above(target)

    def hit(h: float, clues: Grid, sol: Grid) -> None:
        if climbing:
            hits.append((h, clues, sol))
            tries.append(0)
            wins.append(0)
            live.append(sol.tobytes() not in retired)

    chain_rec = [0, 0]  # the chain's own moves and hits since the first hit

    def pick() -> int:
        """The next step's arm: -1 an elite state (no hit yet), ``len(hits)``
        a step of the chain (an arm like the others, so that barren sources
        give their steps back to it), otherwise that hit."""
        if not any(live):
            return -1
        w = np.asarray([*wins, chain_rec[1]], dtype=np.float64)
        t = np.asarray([*tries, chain_rec[0]], dtype=np.float64)
        draw = rng.beta(1.0 + w, 1.0 / _PRIOR + t - w)
        draw[:-1][~np.asarray(live)] = -1.0  # retired grids' hits: never again
        return int(np.argmax(draw))

    def quick_limit() -> float | None:
        """The limit of the quick test for a vicinity move: the target's floor, or the
        weakest elite state's score when lower (the move's rating feeds the elite
        pool); None (no test) while the pool is not full. A move of the weakest
        state's own score is not rated either, though its ``fine_score`` might
        rank it above that state: the test clears as many moves as before the
        fine score (whether rating those would pay was not measured)."""
        if floor is None or len(elite) < elite_size:
            return None
        return min(floor, elite[-1][4])

    def vicinity_step(i: int) -> Found | None:
        if i < 0:
            # before the first hit: the harder of two random elite states
            a = elite[int(rng.integers(len(elite)))]
            b = elite[int(rng.integers(len(elite)))]
            base, sol = (a if a[0] >= b[0] else b)[2:4]
        else:
            _, base, sol = hits[i]
        st.vicinity += 1
        cand = move(base, sol, 1)
        r = value(cand, sol, quick_limit())
        if i >= 0:
            tries[i] += 1
        if r is None:
            return None
        got = take(objective(target, r), cand, sol, r)
        if got is not None and i >= 0:
            wins[i] += 1
        return got

    def take(h: float, clues: Grid, sol: Grid, r: Rating) -> Found | None:
        """A rated vicinity move (of either vicinity search): the best so far, the
        elite pool, and an output (then a hit) when it is one."""
        if h > st.best:
            st.best, st.best_rating, st.best_clues = h, r, clues
        remember(h, clues, sol, r.score)
        got = offer(clues, sol, r, vicinity=True)
        if got is not None:
            hit(h, clues, sol)
        return got

    def deep(
        pool: list[tuple[float, Grid]], window: float, own: bool = True, until: float = math.inf
    ) -> Iterator[Found]:
        """The best-first vicinity search from ``pool`` (the elite pool, or the
        caller's ``starts`` when not ``own``) with ``window``, until ``st.rated``
        reaches ``until``."""
        from csp_sudoku.generators.vicinity import best_first

        # the best this pass met (its starts and the neighbours it rated): the
        # bound's ceiling. Not the run's best: after a fresh start, a later
        # climb's passes lie below an earlier climb's best, and a neighbour above
        # the pass's own best must be rated, to be a new best of the pass and
        # join the elite pool the next pass starts from
        pass_best = [max((h for h, _c in pool), default=-math.inf)]

        def rated(
            clues: Grid, sol: Grid, low: float, later: bool
        ) -> tuple[float, Rating] | Later | Bounded | None:
            # the quick test (its thorough form: most neighbours the plain one
            # cannot clear at ER 9.0-9.3 need SE's dynamic cell or region forcing
            # chains) clears what can join neither the frontier (a score a tenth
            # below its floor ``low`` has an objective below it: SE's fine score
            # stays within its tenth) nor the outputs (the target's floor)
            limit = None if floor is None or lower_is_harder(metric) else min(low - 0.1, floor)
            if limit is None or floor is None or clues.tobytes() in cache:
                r = value(clues, sol, limit, deep=True)
                return None if r is None else (objective(target, r), r)
            if later and round(low * 10) <= round(floor * 10):  # the test's limits count in tenths
                # one that it clears at ``low`` (then its score is at most the
                # target's floor: no output) joins the frontier's bottom unrated,
                # with those it would clear a tenth lower: one test, not two
                if clear(clues, sol, low, deep=True):
                    return Later()
                above = low  # tested: its score is above ``low``
            elif clear(clues, sol, limit, deep=True):
                return None
            else:
                above = limit
            got = bounded_state(clues, sol, above)
            if got is not None:
                return got
            r = value(clues, sol, None, deep=True)
            return None if r is None else (objective(target, r), r)

        def bounded_state(clues: Grid, sol: Grid, above: float) -> Bounded | None:
            """A neighbour whose score the metric's bound puts a tenth or more below
            the target's floor (``bound_top``) or the tenth of the pass's best (and
            above ``above``): not rated, it joins
            the frontier at the tenth of its bound (docs/generators.md, "Plateau
            states bounded, not rated"); None: rate it."""
            if bound is None or bounded is None or floor is None or not math.isfinite(pass_best[0]):
                return None
            # a tenth below the greatest score too easy, or below the pass's best tenth
            ceiling = floor if bound_top and bound_floor else floor - 0.1
            top = ceiling if bound_top else math.floor(pass_best[0] * 10 + 1e-6) / 10 - 0.1
            if not above + 0.05 < top < ceiling + 0.05:
                return None
            b = bound(
                Puzzle.trusted(clues, geometry),
                round(above + 0.1, 1),
                round(top, 1),
                Puzzle.trusted(sol, geometry),
            )
            if b is None:
                return None
            st.cleared += 1
            if bound_top:
                remember(b + bounded, clues, sol, b)
            return Bounded(b + bounded)

        def expanded() -> None:
            st.expanded += 1

        for clues, sol, r, h, root in best_first(
            pool,
            geometry,
            checker,
            rng,
            rated,
            avoid.key,
            window=window,
            patience=300 if deepen is None else deepen,
            deadline=deadline,
            on_expand=expanded,
            lean=lean,
        ):
            st.steps += 1
            if on_step is not None:
                on_step()
            pass_best[0] = max(pass_best[0], h)
            got = take(h, clues, sol, r)
            if got is not None:
                yield got if own else replace(got, derived_from=pool[root][1])
            if st.rated >= until and not hits:
                return

    # the whole-vicinity search changes single clues: minimal puzzles, no symmetry
    whole = climbing and minimal and symmetry == "none"
    if starts and whole:
        pool = []
        for clues in starts:
            sols = checker.backend.solutions(clues, geometry, 2)
            r = value(clues, np.asarray(sols[0], dtype=clues.dtype)) if len(sols) == 1 else None
            if r is not None:
                pool.append((objective(target, r), clues))
        yield from deep(pool, windows[0], own=False)

    # the elite pool's best and the step it came at (``renew``)
    epoch = [-math.inf, 0]
    while deadline is None or time.time() < deadline:
        if max_chains is not None and st.restarts >= max_chains:
            return
        if elite and rng.random() < reuse:
            clues, sol = elite[int(rng.integers(len(elite)))][2:4]
        else:
            clues, sol = fresh()
        r0 = value(clues, sol)
        if r0 is None:
            continue
        cur = objective(target, r0)
        if cur > st.best:
            st.best, st.best_rating, st.best_clues = cur, r0, clues
        chain_best = cur
        stale = 0
        got = offer(clues, sol, r0)
        if got is not None:
            hit(cur, clues, sol)
            yield got
        while stale < patience:
            if deadline is not None and time.time() >= deadline:
                return
            if sol.tobytes() in retired:
                break  # this grid gave its share: restart on another
            st.steps += 1
            if on_step is not None:
                on_step()
            if elite and elite[0][0] > epoch[0]:
                epoch[:] = [elite[0][0], st.steps]
            if climbing and renew is not None and not hits and st.steps - epoch[1] >= renew:
                if deepen is not None and whole and elite and max_chains is None:
                    until = math.inf if deepen_ratings is None else st.rated + deepen_ratings
                    for window in windows:
                        yield from deep([(e[0], e[2]) for e in elite], window, until=until)
                        ended = bool(hits) or (deadline is not None and time.time() >= deadline)
                        if ended or st.rated >= until:
                            break  # on target, or its ratings spent with no hit: start over
                    epoch[:] = [elite[0][0], st.steps]
                    if ended:
                        break  # on target now: go on from the hits (or the time is up)
                elite.clear()  # start over: the next chain starts from a fresh puzzle
                epoch[:] = [-math.inf, st.steps]
                st.renewals += 1
                break
            arm = pick() if climbing and elite and rng.random() < expand else len(hits)
            if arm < len(hits):
                got = vicinity_step(arm)
                if got is not None:
                    yield got
                continue
            in_record = bool(hits)
            cand = move(clues, sol)
            r = value(cand, sol)
            if r is None:
                stale += 1
                continue
            h = objective(target, r)
            if h > st.best:
                st.best, st.best_rating, st.best_clues = h, r, cand
            if h > chain_best:
                chain_best, stale = h, 0
                remember(h, cand, sol, r.score)
            else:
                stale += 1
            if h >= cur or rng.random() < math.exp((h - cur) / temperature):
                clues, cur = cand, h
            got = offer(cand, sol, r)
            if in_record:
                chain_rec[0] += 1
                chain_rec[1] += got is not None
            if got is not None:
                stale = 0  # a productive region: stay
                hit(h, cand, sol)
                yield got
        st.restarts += 1
