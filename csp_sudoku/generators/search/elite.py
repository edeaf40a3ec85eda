"""The elite pool: the hardest states a search met, best first.

The forum's vicinity searches keep a pool of hard puzzles to expand; here the
pool only ever holds the search's own states. A restart may start from one of
them (``reuse``), the vicinity moves before the first hit start from the harder
of two of them, and the whole-vicinity search starts from all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from csp_sudoku.core.puzzle import Grid

__all__ = ["PROMISE_SLOPE", "Elite", "EliteState"]

#: How a state's chance of an output by a vicinity move grows with its objective,
#: per unit (:meth:`Elite.by_index`).
PROMISE_SLOPE = 1.7


class EliteState(NamedTuple):
    """One state of the pool."""

    h: float  # its objective
    key: bytes  # its clue bytes
    clues: Grid
    solution: Grid
    score: float  # its metric score


class Elite:
    """The ``size`` hardest states met, best first (no clue set twice).

    ``admit``, when given, is asked of a state that would join the pool
    (``admit(clues, solution)``); one it refuses stays out (a search keeps
    out the states that can lead to no output, see :meth:`purge`).
    """

    def __init__(self, size: int, admit: Callable[[Grid, Grid], bool] | None = None) -> None:
        self.size = size
        self.admit = admit
        self.states: list[EliteState] = []
        self._misses: dict[bytes, int] = {}  # vicinity moves from a state that gave nothing

    def __len__(self) -> int:
        return len(self.states)

    @property
    def full(self) -> bool:
        """True when the pool holds ``size`` states."""
        return len(self.states) >= self.size

    @property
    def best(self) -> float:
        """The best state's objective (the pool must not be empty)."""
        return self.states[0].h

    @property
    def weakest_score(self) -> float:
        """The weakest state's score (the pool must not be empty)."""
        return self.states[-1].score

    def remember(self, h: float, clues: Grid, sol: Grid, score: float) -> None:
        """Keep a state met, if it is among the ``size`` best and not there already."""
        if self.full and h <= self.states[-1].h:
            return  # it would be the first to go
        key = clues.tobytes()
        if any(e.key == key for e in self.states):
            return
        if self.admit is not None and not self.admit(clues, sol):
            return
        self.states.append(EliteState(h, key, clues, sol, score))
        self.states.sort(key=lambda e: -e.h)
        del self.states[self.size :]

    def drop(self, grid: bytes) -> None:
        """Forget the states whose solution grid is ``grid`` (a retired grid)."""
        self.states[:] = [e for e in self.states if e.solution.tobytes() != grid]

    def misses(self, clues: Grid) -> int:
        """How many vicinity moves from the state ``clues`` gave no output so far."""
        return self._misses.get(clues.tobytes(), 0)

    def missed(self, clues: Grid) -> None:
        """A vicinity move from the state ``clues`` gave no output (counted while the
        state is in the pool: counts of states gone are dropped now and then)."""
        key = clues.tobytes()
        self._misses[key] = self._misses.get(key, 0) + 1
        if len(self._misses) > 4 * self.size:
            kept = {e.key for e in self.states}
            self._misses = {k: n for k, n in self._misses.items() if k in kept}

    def purge(self) -> None:
        """Forget the states that ``admit`` refuses now (what it refuses grew)."""
        if self.admit is not None:
            admit = self.admit
            self.states[:] = [e for e in self.states if admit(e.clues, e.solution)]

    def clear(self) -> None:
        """Empty the pool (the search starts over)."""
        self.states.clear()

    def any_state(self, rng: np.random.Generator) -> tuple[Grid, Grid]:
        """A state drawn at random: ``(clues, solution)``."""
        e = self.states[int(rng.integers(len(self.states)))]
        return e.clues, e.solution

    def harder_of_two(self, rng: np.random.Generator) -> tuple[Grid, Grid]:
        """The harder of two states drawn at random (the first on a tie)."""
        a = self.states[int(rng.integers(len(self.states)))]
        b = self.states[int(rng.integers(len(self.states)))]
        e = a if a.h >= b.h else b
        return e.clues, e.solution

    def by_index(self, rng: np.random.Generator, trials: int) -> tuple[Grid, Grid]:
        """The state whose vicinity moves promise most: the highest index
        ``exp(PROMISE_SLOPE * (h - best)) * trials / (trials + misses)``, ties drawn
        at random.

        The first factor is a state's chance of an output a move against the
        best state's: at SE extreme a state rated 9.0 gives an output once in
        about 500 moves and one rated 7.2 once in 9,000-13,000
        (benchmarks/results/generate_expand_within.md), about ``e`` to the
        power 1.7 a unit of ER. The second lowers it as the state's moves miss,
        as if ``trials`` moves had been tried at that chance before: a state
        that gives an output mostly does so within its first 200 moves, and
        one that did not is often barren (generate_screened.md).
        """
        h = np.fromiter((e.h for e in self.states), dtype=np.float64, count=len(self.states))
        misses = np.fromiter(
            (self._misses.get(e.key, 0) for e in self.states), dtype=np.float64, count=h.size
        )
        index = np.exp(PROMISE_SLOPE * (h - h.max())) * trials / (trials + misses)
        top = np.flatnonzero(index >= index.max())
        e = self.states[int(top[int(rng.integers(top.size))]) if top.size > 1 else int(top[0])]
        return e.clues, e.solution

    def starts(self) -> list[tuple[float, Grid]]:
        """``(objective, clues)`` of every state, best first: a whole-vicinity pass's starts."""
        return [(e.h, e.clues) for e in self.states]
