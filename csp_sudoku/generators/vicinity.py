"""Exhaustive {-1+1} vicinity search, best first, over every digit.

The annealer's moves (:mod:`csp_sudoku.generators.anneal`) keep the solution
grid: a clue goes, another cell of the same grid comes in. Near the top of a
metric that is a small neighbourhood: a state's solution-keeping {-1+1} moves
number a few hundred, and its hardest neighbours may lie on other grids. The
forum's vicinity searches, which built the published lists of the hardest
puzzles, change a clue to *any* digit at *any* cell ({-1+1} in the sense of
the Sudoku Players' Forum's "hardest" threads) and expand the hardest puzzles
met first. This module does that search over a pool of states that the
caller's own search met (never a published puzzle):

* **neighbours** (:func:`neighbours`): every puzzle made from a state by
  removing one clue and placing one digit at an empty cell or at the removed
  cell (a changed digit), whatever the solution grid; those with exactly one
  solution are made minimal again (RG2 removal in random order); about 5,600
  candidates for a 21-25 clue 9x9 state, of which a few hundred are unique,
  counted off the solutions of the state less each clue (one search a clue);
* **best first** (:func:`best_first`): a frontier of states ordered by the
  caller's objective, each expanded once; every rated neighbour within
  ``window`` of the best start joins it; a neighbour already met (up to
  isomorphism) is skipped; the search ends at the deadline, when the frontier
  is spent, or after ``patience`` expansions that raised nothing above the
  best so far; a neighbour the caller's quick test shows within a tenth of
  the floor joins the frontier's bottom unrated (:class:`Later`) and is
  rated only if the search gets there (most never are); one the caller
  bounds below the best met (:class:`Bounded`) is never rated, only placed
  and expanded; with ``lean``, a state with fewer clues goes before one of
  the same objective with more.

Measured (docs/generators.md): started from two SE 9.8 puzzles that the
annealer had made, this search met SE 9.9 at its first expansion and SE 10.0
(SukakuExplainer's serate.jar agrees) after 298 expansions, 828 s on one core.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid
from csp_sudoku.generators.minimal import reduce_clues

if TYPE_CHECKING:
    from csp_sudoku.api import Checker
    from csp_sudoku.metrics.base import Rating

__all__ = ["Bounded", "Later", "best_first", "moves", "neighbours"]


@dataclass(frozen=True)
class Later:
    """A neighbour's value left for later (:func:`best_first`): a quick test showed
    its objective within a tenth of the frontier's floor, so it joins the
    frontier's bottom unrated and is rated only if the search gets there."""


@dataclass(frozen=True)
class Bounded:
    """A neighbour never rated (:func:`best_first`): a quick test showed its objective
    at most about ``bound`` (the caller's rank for it, below the best met), so it
    joins the frontier at ``bound`` and is expanded unrated when the search gets
    there: neither an output nor a new best, it needs no rating, only a place."""

    bound: float


def moves(clues: Grid, geometry: Geometry) -> NDArray[np.intp]:
    """Every {-1+1} move of ``clues``, as the rows ``(removed cell, placed cell, digit)``.

    The placed cell is an empty cell or the removed one (then with another
    digit); the digit is one that no remaining clue among the cell's peers
    holds (any other would leave no solution). The order: by removed cell,
    then placed cell (the empty cells in order, the removed cell last), then
    digit.
    """
    n = geometry.size
    near = geometry.peer_matrix.astype(np.intp)
    filled = np.flatnonzero(clues)
    empty = np.flatnonzero(clues == 0)
    held = np.zeros((geometry.ncells, n), dtype=np.intp)  # held[c, d - 1]: clue c is d
    held[filled, clues[filled].astype(np.intp) - 1] = 1
    seen = near @ held  # seen[e, d - 1]: how many peers of e hold d
    rows = [np.empty((0, 3), dtype=np.intp)]
    for c in filled.tolist():
        cells = np.append(empty, c)
        free = (seen[cells] - near[cells, c][:, None] * held[c]) == 0
        free[-1, int(clues[c]) - 1] = False  # the clue itself: no move
        at, digit = np.nonzero(free)
        rows.append(np.stack([np.full(at.size, c), cells[at], digit + 1], axis=1))
    return np.concatenate(rows)


#: How many solutions of a state less one clue :func:`neighbours` enumerates at
#: most; above that, the moves that remove that clue are counted one by one.
ENUMERATE = 4096


def neighbours(
    clues: Grid, geometry: Geometry, checker: Checker, rng: np.random.Generator
) -> Iterator[tuple[Grid, Grid]]:
    """The unique {-1+1} neighbours of ``clues`` (:func:`moves`), made minimal, in random
    order, as ``(clues, solution)`` pairs.

    A move that removes clue ``c`` and places ``d`` at ``e`` has as many
    solutions as the state without ``c`` has with ``d`` at ``e``. So the
    solutions of the state less each clue are enumerated once (a minimal
    21-25 clue 9x9 state less one clue has a median of about 130), and every
    move's count, and the solution of each unique one, is read off them: one
    search per clue instead of one per move (about 5,600 moves). Where the
    state less a clue has more than :data:`ENUMERATE` solutions, its moves
    are counted in one batch (``count_many``) and solved one by one.
    """
    cand = moves(clues, geometry)
    if not cand.size:
        return
    c, e, d = cand.T
    counts = np.zeros(len(cand), dtype=np.int64)
    known: dict[int, Grid] = {}  # each unique move's solution, read off the enumeration
    rest: list[NDArray[np.intp]] = []  # the moves of a clue with too many solutions without it
    bounds = np.flatnonzero(np.diff(c)) + 1
    for lo, hi in zip([0, *bounds.tolist()], [*bounds.tolist(), len(cand)], strict=True):
        work = clues.copy()
        work[c[lo]] = 0
        found = checker.backend.solutions(work, geometry, ENUMERATE + 1)
        if len(found) > ENUMERATE:
            rest.append(np.arange(lo, hi))
            continue
        every = np.asarray(found, dtype=clues.dtype).reshape(len(found), geometry.ncells)
        agree = every[:, e[lo:hi]] == d[lo:hi]  # (solution, move): the move's digit is there
        counts[lo:hi] = agree.sum(axis=0)
        for j in np.flatnonzero(counts[lo:hi] == 1).tolist():
            known[lo + j] = every[int(agree[:, j].argmax())]
    if rest:
        some = np.concatenate(rest)
        counts[some] = checker.backend.count_many(_applied(clues, cand[some]), geometry, 2)
    for i in rng.permutation(len(cand)).tolist():
        if counts[i] != 1:
            continue
        work = _applied(clues, cand[i : i + 1])[0]
        if i in known:
            sol = known[i].copy()
        else:
            sol = np.asarray(checker.backend.solutions(work, geometry, 1)[0], dtype=clues.dtype)
        yield reduce_clues(work, sol, geometry, rng, checker=checker), sol


def _applied(clues: Grid, rows: NDArray[np.intp]) -> Grid:
    """``clues`` with each of the moves ``rows`` (:func:`moves`) made, one puzzle a row."""
    out = np.repeat(clues[None, :], len(rows), axis=0)
    at = np.arange(len(rows))
    out[at, rows[:, 0]] = 0
    out[at, rows[:, 1]] = rows[:, 2]
    return out


def best_first(
    starts: Iterable[tuple[float, Grid]],
    geometry: Geometry,
    checker: Checker,
    rng: np.random.Generator,
    value: Callable[[Grid, Grid, float, bool], tuple[float, Rating] | Later | Bounded | None],
    key: Callable[[Grid], bytes],
    *,
    window: float = 0.1,
    patience: int = 300,
    deadline: float | None = None,
    on_expand: Callable[[], None] | None = None,
    lean: float = 0.0,
) -> Iterator[tuple[Grid, Grid, Rating, float, int]]:
    """Every neighbour rated by a best-first vicinity search from ``starts``.

    Args:
        starts: ``(objective, clues)`` of the states to start from (the
            caller's own hardest states).
        geometry, checker, rng: the shape, the uniqueness checker, the randomness.
        value: rates a neighbour: ``value(clues, solution, floor, later)`` is
            its ``(objective, rating)``, or None when it was not rated (a
            quick test showed its objective below ``floor``, or the rater gave
            up), or :class:`Bounded` (not rated, its objective bounded below
            the best: it joins the frontier at its bound, is expanded unrated
            and is never yielded); when ``later`` is True it may also answer :class:`Later` (not
            rated, its objective close to ``floor``): such a neighbour joins
            the bottom of the frontier unrated, after every rated state, and
            is rated (``later`` False) when the search pops it, then expanded
            if it is within the window. Most neighbours a search rates in
            full lie in the tenth just below the floor, and only the top of
            the frontier is ever expanded: a search of seed 30 rated 636 in
            120 s, of which 235 were ever expanded (docs/generators.md).
        key: a puzzle's canonical key (states met twice, up to isomorphism,
            are expanded once).
        window: how far below the best start a state may be and still be
            expanded (objective units; SE's are ER, so 0.1 is a tenth).
            A neighbour within it is rated in full (most of an expansion's
            time), but in a search of minutes only the top of the frontier
            is ever expanded: a narrow window spends that time on more
            expansions instead (docs/generators.md, "An earlier, narrower
            whole-vicinity search").
        patience: end after this many expansions without a new best.
        deadline: a ``time.time()`` after which the search ends.
        on_expand: called after each expansion (progress reports).
        lean: how much a clue fewer raises a state in the frontier's order
            (objective units a clue; the window, the best and the yields
            stay on the objective itself); 0 by default: measured on the
            SE 10+ search, it did not pay (docs/generators.md, "Fewer clues
            first").

    Yields:
        ``(clues, solution, rating, objective, root)`` of every rated
        neighbour; ``root`` is the index in ``starts`` of the state whose
        vicinity (or whose neighbours' vicinity, ...) it was found in.
    """
    # (minus objective, order, root, clues, solution when not rated yet)
    frontier: list[tuple[float, int, int, Grid, Grid | None]] = []
    seen: set[bytes] = set()  # canonical keys of the states rated
    met: set[bytes] = set()  # clue bytes of every neighbour met
    order = 0  # ties of the objective: the state met first goes first

    def rank(h: float, clues: Grid) -> float:
        """A state's place in the frontier (smallest first)."""
        return -h + lean * int(np.count_nonzero(clues))

    best = -math.inf
    for root, (h, clues) in enumerate(starts):
        k = key(clues)
        if k not in seen:
            seen.add(k)
            order += 1
            best = max(best, h)
            heapq.heappush(frontier, (rank(h, clues), order, root, clues, None))
    if not frontier:
        return
    floor = best - window
    bottom = -floor + lean * geometry.ncells  # below every rated state within the window
    idle = 0
    while frontier and idle < patience:
        _, _, root, base, unrated = heapq.heappop(frontier)
        if unrated is not None:  # left for later: rated now, expanded if within the window
            if deadline is not None and time.time() >= deadline:
                return
            k = key(base)
            if k in seen:
                continue
            seen.add(k)
            got = value(base, unrated, floor, False)
            if got is None or isinstance(got, Later):
                continue
            if isinstance(got, Bounded):  # bounded now: expanded unrated (within the window)
                h = got.bound
                if h < floor:
                    continue
            else:
                h, rating = got
                yield base, unrated, rating, h, root
                if h < floor:
                    continue
                if h > best:
                    best, idle = h, 0
            if frontier and frontier[0][0] < rank(h, base):  # a state above it goes first
                order += 1
                heapq.heappush(frontier, (rank(h, base), order, root, base, None))
                continue
        idle += 1
        for clues, sol in neighbours(base, geometry, checker, rng):
            if deadline is not None and time.time() >= deadline:
                return
            b = clues.tobytes()
            if b in met:
                continue
            met.add(b)
            # the quick test (inside ``value``) clears most neighbours: a canonical
            # key is computed only for those it rates (an isomorphic copy of a state
            # met is then rated once more, rarely, and skipped)
            got = value(clues, sol, floor, True)
            if got is None:
                continue
            if isinstance(got, Later):  # keyed when it is rated, if ever
                order += 1
                heapq.heappush(frontier, (bottom, order, root, clues, sol))
                continue
            k = key(clues)
            if k in seen:
                continue
            seen.add(k)
            order += 1
            if isinstance(got, Bounded):  # never rated: expanded when the search gets there
                if got.bound >= floor:
                    heapq.heappush(frontier, (rank(got.bound, clues), order, root, clues, None))
                if got.bound > best:  # a caller may bound above the best: a new best
                    best, idle = got.bound, 0
                continue
            h, rating = got
            if h >= floor:
                heapq.heappush(frontier, (rank(h, clues), order, root, clues, None))
            if h > best:
                best, idle = h, 0
            yield clues, sol, rating, h, root
        if on_expand is not None:
            on_expand()
