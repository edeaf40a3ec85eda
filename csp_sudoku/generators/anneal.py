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

The search is :class:`_Search`, one object a run: the chain (:meth:`_Search._chain`,
annealing moves on one grid), the vicinity steps from the elite pool or a hit
(:meth:`_Search._vicinity_step`), the renewal policy (:meth:`_Search._renew`) and
the whole-vicinity search (:meth:`_Search._deep`, one :class:`_Pass` a window).
What other strategies could share lives in :mod:`csp_sudoku.generators.search`:
the settings (:class:`~csp_sudoku.generators.search.settings.SearchSettings`), the
rating cache and quick test (:class:`~csp_sudoku.generators.search.rating.Rater`),
the outputs and their families (:class:`~csp_sudoku.generators.search.outputs.Outputs`),
the elite pool (:class:`~csp_sudoku.generators.search.elite.Elite`) and the hit
sources with their Thompson sampling
(:class:`~csp_sudoku.generators.search.sources.Sources`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.generators.grids import _grid_cells
from csp_sudoku.generators.minimal import dug, move9, reduce_clues
from csp_sudoku.generators.novelty import KeySet
from csp_sudoku.generators.search.base import (
    Found,
    SearchRequest,
    SearchStats,
    objective,
    open_above,
)
from csp_sudoku.generators.search.elite import Elite
from csp_sudoku.generators.search.outputs import Outputs
from csp_sudoku.generators.search.rating import Rater
from csp_sudoku.generators.search.settings import DEFAULTS, SearchSettings
from csp_sudoku.generators.search.sources import Sources
from csp_sudoku.generators.symmetry import orbit_index, orbits
from csp_sudoku.generators.targeting import Target, lower_is_harder
from csp_sudoku.generators.vicinity import Bounded, Later

if TYPE_CHECKING:
    from csp_sudoku.api import Checker
    from csp_sudoku.metrics.base import Rating

__all__ = ["AnnealStats", "Found", "anneal", "objective", "open_above", "search"]

#: What the search did so far: :class:`~csp_sudoku.generators.search.base.SearchStats`,
#: under the name its callers know.
AnnealStats = SearchStats


def anneal(
    geometry: Geometry,
    target: Target,
    rng: np.random.Generator,
    checker: Checker,
    avoid: KeySet,
    *,
    settings: SearchSettings = DEFAULTS,
    symmetry: str = "none",
    minimal: bool = True,
    rating_seed: int = 0,
    deadline: float | None = None,
    stats: SearchStats | None = None,
    accept: Callable[[Grid, Grid, Rating], bool] | None = None,
    on_step: Callable[[], None] | None = None,
    max_chains: int | None = None,
    per_grid: int | None = None,
    starts: Sequence[Grid] = (),
) -> Iterator[Found]:
    """New on-target puzzles found by simulated annealing, endlessly (until the deadline).

    The keyword form of :func:`search`: every argument but ``settings`` is the
    field of that name of :class:`~csp_sudoku.generators.search.base.SearchRequest`,
    which says what it means (``stats`` None: a new one).

    Args:
        settings: how the search goes (temperature, patience, the elite pool,
            the vicinity search, the hand-over to the whole-vicinity search
            and its bounds): :class:`~csp_sudoku.generators.search.settings.SearchSettings`,
            which says what each does and why; the defaults are the search as
            it ships.

    Yields:
        :class:`Found` puzzles, each new (and recorded in ``avoid``).
    """
    request = SearchRequest(
        geometry,
        target,
        rng,
        checker,
        avoid,
        symmetry=symmetry,
        minimal=minimal,
        rating_seed=rating_seed,
        deadline=deadline,
        stats=SearchStats() if stats is None else stats,
        accept=accept,
        on_step=on_step,
        max_chains=max_chains,
        per_grid=per_grid,
        starts=starts,
    )
    yield from search(request, settings)


def search(request: SearchRequest, settings: SearchSettings = DEFAULTS) -> Iterator[Found]:
    """The annealing search as a strategy (:data:`~csp_sudoku.generators.search.base.Strategy`,
    registered as ``anneal``): new on-target puzzles for ``request``, endlessly.

    Yields:
        :class:`Found` puzzles, each new (and recorded in ``request.avoid``).
    """
    yield from _Search(request, settings).run()


@dataclass
class _Chain:
    """One chain of annealing moves on one solution grid."""

    clues: Grid  # its state
    sol: Grid
    cur: float  # the state's objective
    best: float  # the best objective the chain met
    stale: int = 0  # steps since the chain's best improved (or it met an output)


class _Search:
    """One run of the annealing search: its inputs and settings, its state, its steps."""

    def __init__(self, request: SearchRequest, settings: SearchSettings) -> None:
        self.request = request
        self.settings = settings
        # what every step reads, at hand
        self.geometry, self.target, self.rng = request.geometry, request.target, request.rng
        self.checker, self.deadline, self.st = request.checker, request.deadline, request.stats
        self.orbs = orbits(self.geometry.size, request.symmetry)
        self.oidx = orbit_index(self.geometry.size, request.symmetry)
        # the standard grid with the compiled checker: each move in one compiled call
        self.compiled_moves = (
            self.geometry == Geometry.standard(9) and self.checker.backend.name == "fast"
        )
        self.rater = Rater(self.geometry, self.target, request.rating_seed, self.st)
        # below ``skip_spent_below``, a state of a family that gave its share is
        # never rated, kept in the elite pool, or moved from (see _spent)
        floor, skip = self.rater.floor, settings.skip_spent_below
        self.skip_spent = skip is not None and floor is not None and floor < skip
        self.elite = Elite(
            settings.elite_size, admit=self._fresh_family if self.skip_spent else None
        )
        self.sources = Sources()
        self.outputs = Outputs(
            self.target,
            request.avoid,
            self.rater,
            self.st,
            per_grid=request.per_grid,
            accept=request.accept,
            on_retire=self._retire,
        )
        self.climbing = open_above(self.target)
        # the whole-vicinity search changes single clues: minimal puzzles, no symmetry
        self.whole = self.climbing and request.minimal and request.symmetry == "none"
        # the elite pool's best and the step it came at (``renew``)
        self.epoch = (-math.inf, 0)

    # ------------------------------------------------------------------ the run
    def run(self) -> Iterator[Found]:
        """The caller's starts' vicinity first (at the hard end), then chain after chain."""
        st, starts, max_chains = self.st, self.request.starts, self.request.max_chains
        if starts and self.whole:
            yield from self._from_starts(starts)
        while self.deadline is None or time.time() < self.deadline:
            if max_chains is not None and st.restarts >= max_chains:
                return
            if self.elite and self.rng.random() < self.settings.reuse:
                clues, sol = self.elite.any_state(self.rng)
            else:
                clues, sol = self._fresh()
            r0 = self.rater.value(clues, sol)
            if r0 is None:
                continue
            if (yield from self._chain(clues, sol, r0)):
                return
            st.restarts += 1

    def _from_starts(self, starts: Sequence[Grid]) -> Iterator[Found]:
        """One pass of the whole-vicinity search from the caller's unique ``starts``."""
        pool = []
        for clues in starts:
            sols = self.checker.backend.solutions(clues, self.geometry, 2)
            r = (
                self.rater.value(clues, np.asarray(sols[0], dtype=clues.dtype))
                if len(sols) == 1
                else None
            )
            if r is not None:
                pool.append((objective(self.target, r), clues))
        yield from self._deep(pool, self.settings.windows[0], own=False)

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.time() >= self.deadline

    def _stepped(self) -> None:
        """A step done: counted, and the caller told (``on_step``)."""
        self.st.steps += 1
        if self.request.on_step is not None:
            self.request.on_step()

    # ---------------------------------------------------------------- the chain
    def _chain(self, clues: Grid, sol: Grid, r0: Rating) -> Generator[Found, None, bool]:
        """One chain from ``clues`` (rated ``r0``): Metropolis steps on its grid, vicinity
        steps as ``expand`` shares them out, until ``patience`` steps went by without
        a better chain best (or the search renews). Returns True when the deadline
        passed (the run ends)."""
        st = self.st
        rng = self.rng
        cur = objective(self.target, r0)
        st.note(cur, r0, clues)
        chain = _Chain(clues, sol, cur=cur, best=cur)
        got = self.outputs.offer(clues, sol, r0)
        if got is not None:
            self._hit(chain.cur, clues, sol)
            yield got
        made = self.outputs.made  # the chain's state is checked again when outputs come
        while chain.stale < self.settings.patience:
            if self._past_deadline():
                return True
            if self.outputs.is_retired(sol):
                return False  # this grid gave its share: restart on another
            if self.outputs.made != made:
                made = self.outputs.made
                if self._spent(chain.clues, sol):
                    return False  # and so did the family the chain stands in
            self._stepped()
            if self.elite and self.elite.best > self.epoch[0]:
                self.epoch = (self.elite.best, st.steps)
            if self._stalled():
                yield from self._renew()
                return False
            if self.climbing and self.elite and rng.random() < self.settings.expand:
                arm = self.sources.pick(rng)
            else:
                arm = len(self.sources)
            # a vicinity step from the arm (-1: an elite state), or a step of the chain
            got = self._vicinity_step(arm) if arm < len(self.sources) else self._chain_step(chain)
            if got is not None:
                yield got
        return False

    def _chain_step(self, chain: _Chain) -> Found | None:
        """One Metropolis step of ``chain``: a move, rated; a harder neighbour is always
        taken, an easier one with probability ``exp(-drop / T)``."""
        in_record = bool(self.sources)
        cand = self._move(chain.clues, chain.sol)
        if self._spent(cand, chain.sol):
            chain.stale += 1
            return None
        r = self.rater.value(cand, chain.sol)
        if r is None:
            chain.stale += 1
            return None
        h = objective(self.target, r)
        self.st.note(h, r, cand)
        if h > chain.best:
            chain.best, chain.stale = h, 0
            self.elite.remember(h, cand, chain.sol, r.score)
        else:
            chain.stale += 1
        if h >= chain.cur or self.rng.random() < math.exp(
            (h - chain.cur) / self.settings.temperature
        ):
            chain.clues, chain.cur = cand, h
        got = self.outputs.offer(cand, chain.sol, r)
        if in_record:
            self.sources.chain_moved(got is not None)
        if got is not None:
            chain.stale = 0  # a productive region: stay
            self._hit(h, cand, chain.sol)
        return got

    def _fresh(self) -> tuple[Grid, Grid]:
        """A fresh random puzzle (RG2: minimal, or dug from the grid) and its grid."""
        sol = _grid_cells(self.geometry, self.rng)
        request = self.request
        clues = dug(
            sol.copy(), sol, self.geometry, self.rng, minimal=request.minimal,
            symmetry=request.symmetry, checker=self.checker,
        )  # fmt: skip
        return clues, sol

    def _move(self, clues: Grid, sol: Grid, k: int = 0) -> Grid:
        """A {-k+k} move keeping the grid (``k`` 0: 1 or 2 at random), unique and
        minimal again."""
        rng = self.rng
        if self.compiled_moves:
            moved = move9(
                clues, sol, rng, k=k, symmetry=self.request.symmetry, minimal=self.request.minimal
            )
            if moved is not None:
                return moved
        orbs, oidx = self.orbs, self.oidx
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
            other = self.checker.backend.other_solution(work, self.geometry, sol)
            if other is None:
                break
            differ = np.flatnonzero((np.asarray(other) != sol) & (work == 0))
            c = int(differ[int(rng.integers(differ.size))])
            o = int(oidx[c])
            work[orbs[o]] = sol[orbs[o]]
        if self.request.minimal:
            work = reduce_clues(
                work, sol, self.geometry, rng, symmetry=self.request.symmetry, checker=self.checker
            )
        return work

    # ----------------------------------------------------- hits, the vicinity steps
    def _hit(self, h: float, clues: Grid, sol: Grid) -> None:
        """An output met at the hard end: a source of vicinity steps from now on. The
        elite states of its family go (when a family gives one output, or its share
        is reached: ``skip_spent_below``)."""
        if self.climbing:
            self.sources.add(h, clues, sol, live=not self.outputs.is_retired(sol))
        if self.skip_spent:
            self.elite.purge()

    def _spent(self, clues: Grid, sol: Grid) -> bool:
        """True when ``clues`` (solution ``sol``) is of a family that gave its share
        and the target's floor lies below ``skip_spent_below``: then it can be no
        output whatever its score, and its {-1+1} moves keep all but a clue or two
        (still of that family), so it is not rated, kept or moved from. Above that
        floor (SE 10+) such states are rated: a pass reaches its later outputs
        through them (:attr:`SearchSettings.skip_spent_below`)."""
        return self.skip_spent and self.outputs.spent(clues, sol)

    def _fresh_family(self, clues: Grid, sol: Grid) -> bool:
        """The elite pool's test: not :meth:`_spent`."""
        return not self._spent(clues, sol)

    def _retire(self, grid: bytes) -> None:
        """No more outputs from ``grid``: its hits stop being sources, its elite states
        go, and a chain on it restarts elsewhere."""
        self.elite.drop(grid)
        self.sources.retire(grid)

    def _quick_limit(self) -> float | None:
        """The limit of the quick test for a vicinity move: the target's floor, or the
        weakest elite state's score when lower (the move's rating feeds the elite
        pool); None (no test) while the pool is not full. A move of the weakest
        state's own score is not rated either, though its ``fine_score`` might
        rank it above that state: the test clears as many moves as before the
        fine score (whether rating those would pay was not measured). With the
        setting ``screen_at_floor``: the floor, from the first step."""
        floor = self.rater.floor
        if floor is not None and self.settings.screen_at_floor:
            return floor
        if floor is None or not self.elite.full:
            return None
        return min(floor, self.elite.weakest_score)

    def _vicinity_step(self, arm: int) -> Found | None:
        """One {-1+1} move from the arm's state: before the first hit (``arm`` -1) the
        harder of two random elite states ({-2+2} once ``wider_after`` moves from it
        gave no output), otherwise hit ``arm``."""
        k = 1
        wider = self.settings.wider_after
        trials = self.settings.pick_trials
        keep_misses = wider is not None or trials is not None  # the elite counts them
        if arm < 0:
            if trials is None:
                base, sol = self.elite.harder_of_two(self.rng)
            else:
                base, sol = self.elite.by_index(self.rng, trials)
            if wider is not None and self.elite.misses(base) >= wider:
                k = 2  # its {-1+1} vicinity gave nothing so far: look further
        else:
            _, base, sol = self.sources.hits[arm]
        self.st.vicinity += 1
        cand = self._move(base, sol, k)
        r = self.rater.value(cand, sol, self._quick_limit(), unless=self._spent)
        got = None if r is None else self._take(objective(self.target, r), cand, sol, r)
        if arm < 0 and got is None and keep_misses:
            self.elite.missed(base)
        if arm >= 0:
            self.sources.tries[arm] += 1
            self.sources.wins[arm] += got is not None
        return got

    def _take(self, h: float, clues: Grid, sol: Grid, r: Rating) -> Found | None:
        """A rated vicinity move (of either vicinity search): the best so far, the
        elite pool, and an output (then a hit) when it is one."""
        self.st.note(h, r, clues)
        self.elite.remember(h, clues, sol, r.score)
        got = self.outputs.offer(clues, sol, r, vicinity=True)
        if got is not None:
            self._hit(h, clues, sol)
        return got

    # ------------------------------------------- renewal, the whole-vicinity search
    def _stalled(self) -> bool:
        """True at the hard end, before the first hit, when the elite pool's best has
        not improved for ``renew`` steps."""
        renew = self.settings.renew
        return (
            self.climbing
            and renew is not None
            and not self.sources
            and self.st.steps - self.epoch[1] >= renew
        )

    def _renew(self) -> Iterator[Found]:
        """A stalled search: the whole-vicinity passes from the elite pool (``deepen``,
        one per window), then, unless they met an output (or the time is up), a
        fresh start: the pool emptied, the next chain from a fresh puzzle."""
        s, st = self.settings, self.st
        if s.deepen is not None and self.whole and self.elite and self.request.max_chains is None:
            until = math.inf if s.deepen_ratings is None else st.rated + s.deepen_ratings
            ended = False
            for window in s.windows:
                yield from self._deep(self.elite.starts(), window, until=until)
                ended = bool(self.sources) or self._past_deadline()
                if ended or st.rated >= until:
                    break  # on target, or its ratings spent with no hit: start over
            # the pool may be empty: a pass's output takes its family's states with it
            self.epoch = (self.elite.best if self.elite else -math.inf, st.steps)
            if ended:
                return  # on target now: go on from the hits (or the time is up)
        self.elite.clear()  # start over: the next chain starts from a fresh puzzle
        self.epoch = (-math.inf, st.steps)
        st.renewals += 1

    def _deep(
        self,
        pool: list[tuple[float, Grid]],
        window: float,
        own: bool = True,
        until: float = math.inf,
    ) -> Iterator[Found]:
        """The best-first vicinity search from ``pool`` (the elite pool, or the
        caller's ``starts`` when not ``own``) with ``window``, until ``st.rated``
        reaches ``until``."""
        # looked up at each pass, not imported once: tests and benchmarks spy on it
        from csp_sudoku.generators.vicinity import best_first

        st = self.st
        deepen = self.settings.deepen
        one = _Pass(self, max((h for h, _c in pool), default=-math.inf))
        for clues, sol, r, h, root in best_first(
            pool,
            self.geometry,
            self.checker,
            self.rng,
            one.value,
            self.request.avoid.key,
            window=window,
            patience=300 if deepen is None else deepen,
            deadline=self.deadline,
            on_expand=self._expanded,
            lean=self.settings.lean,
        ):
            self._stepped()
            one.best = max(one.best, h)
            got = self._take(h, clues, sol, r)
            if got is not None:
                yield got if own else replace(got, derived_from=pool[root][1])
            if st.rated >= until and not self.sources:
                return

    def _expanded(self) -> None:
        self.st.expanded += 1


class _Pass:
    """One pass of the whole-vicinity search: how it values a neighbour.

    Attributes:
        best: the best this pass met (its starts and the neighbours it rated):
            the bound's ceiling. Not the run's best: after a fresh start, a
            later climb's passes lie below an earlier climb's best, and a
            neighbour above the pass's own best must be rated, to be a new best
            of the pass and join the elite pool the next pass starts from.
    """

    def __init__(self, search: _Search, best: float) -> None:
        self.search = search
        self.best = best

    def value(
        self, clues: Grid, sol: Grid, low: float, later: bool
    ) -> tuple[float, Rating] | Later | Bounded | None:
        """A neighbour's ``(objective, rating)``, or what :func:`best_first` does with
        it unrated (:class:`Later`, :class:`Bounded`, None: dropped)."""
        search = self.search
        rater, target = search.rater, search.target
        floor = rater.floor
        if search._spent(clues, sol):
            return None  # of a family that gave its share: no output, whatever its score
        # the quick test (its thorough form: most neighbours the plain one
        # cannot clear at ER 9.0-9.3 need SE's dynamic cell or region forcing
        # chains) clears what can join neither the frontier (a score a tenth
        # below its floor ``low`` has an objective below it: SE's fine score
        # stays within its tenth) nor the outputs (the target's floor)
        limit = None if floor is None or lower_is_harder(target.metric) else min(low - 0.1, floor)
        if limit is None or floor is None or clues.tobytes() in rater.cache:
            r = rater.value(clues, sol, limit, deep=True)
            return None if r is None else (objective(target, r), r)
        if later and round(low * 10) <= round(floor * 10):  # the test's limits count in tenths
            # one that it clears at ``low`` (then its score is at most the
            # target's floor: no output) joins the frontier's bottom unrated,
            # with those it would clear a tenth lower: one test, not two
            if rater.clear(clues, sol, low, deep=True):
                return Later()
            above = low  # tested: its score is above ``low``
        elif rater.clear(clues, sol, limit, deep=True):
            return None
        else:
            above = limit
        got = self.bounded(clues, sol, above)
        if got is not None:
            return got
        r = rater.value(clues, sol, None, deep=True)
        return None if r is None else (objective(target, r), r)

    def bounded(self, clues: Grid, sol: Grid, above: float) -> Bounded | None:
        """A neighbour whose score the metric's bound puts a tenth or more below
        the target's floor (``bound_top``) or the tenth of the pass's best (and
        above ``above``): not rated, it joins the frontier at the tenth of its
        bound (docs/generators.md, "Plateau states bounded, not rated"); None:
        rate it."""
        search = self.search
        s = search.settings
        bound, floor = search.rater.bound, search.rater.floor
        if bound is None or s.bounded is None or floor is None or not math.isfinite(self.best):
            return None
        # a tenth below the greatest score too easy, or below the pass's best tenth
        ceiling = floor if s.bound_top and s.bound_floor else floor - 0.1
        top = ceiling if s.bound_top else math.floor(self.best * 10 + 1e-6) / 10 - 0.1
        if not above + 0.05 < top < ceiling + 0.05:
            return None
        geometry = search.geometry
        b = bound(
            Puzzle.trusted(clues, geometry),
            round(above + 0.1, 1),
            round(top, 1),
            Puzzle.trusted(sol, geometry),
        )
        if b is None:
            return None
        search.st.cleared += 1
        if s.bound_top:
            search.elite.remember(b + s.bounded, clues, sol, b)
        return Bounded(b + s.bounded)
