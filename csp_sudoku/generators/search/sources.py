"""The hit sources of the vicinity search, picked by Thompson sampling.

The on-target states a search met (its own outputs only) are sources: at the
hard end the vicinity search expands them, and their neighbours are on target
far more often than a chain's (about 1 in 100 against 1 in 1,000 of a
diabolical plateau's). How often varies much from one state to the next, so
the source of each vicinity step is picked by Thompson sampling of its own hit
rate (a Beta prior of ``_PRIOR`` hits in ``1 / _PRIOR`` moves): productive
states are expanded more, fresh ones tried. The chain itself is an arm like the
others, so that barren sources give their steps back to it.
"""

from __future__ import annotations

import numpy as np

from csp_sudoku.core.puzzle import Grid

__all__ = ["Sources"]

#: The prior hit rate of a state's vicinity (Thompson sampling of the sources).
_PRIOR = 0.02


class Sources:
    """The hits met so far, each an arm with its moves and hits, and the chain's arm.

    Attributes:
        hits: ``(objective, clues, solution)`` of every on-target state met.
        tries: the moves made from each hit.
        wins: the moves from each hit that were new outputs.
        live: False for a hit whose grid is retired (``per_grid``).
        chain_moves: the chain's own moves since the first hit.
        chain_hits: those that were new outputs.
    """

    def __init__(self) -> None:
        self.hits: list[tuple[float, Grid, Grid]] = []
        self.tries: list[int] = []
        self.wins: list[int] = []
        self.live: list[bool] = []
        self.chain_moves = 0
        self.chain_hits = 0

    def __len__(self) -> int:
        return len(self.hits)

    def add(self, h: float, clues: Grid, sol: Grid, live: bool) -> None:
        """A new hit (``live`` False: its grid is retired already)."""
        self.hits.append((h, clues, sol))
        self.tries.append(0)
        self.wins.append(0)
        self.live.append(live)

    def retire(self, grid: bytes) -> None:
        """The hits on ``grid`` are sources no more."""
        for i, (_, _, sol) in enumerate(self.hits):
            if sol.tobytes() == grid:
                self.live[i] = False

    def chain_moved(self, hit: bool) -> None:
        """A move of the chain, and whether it was a new output."""
        self.chain_moves += 1
        self.chain_hits += hit

    def pick(self, rng: np.random.Generator) -> int:
        """The next step's arm: -1 an elite state (no live hit), ``len(self)``
        a step of the chain, otherwise that hit."""
        if not any(self.live):
            return -1
        w = np.asarray([*self.wins, self.chain_hits], dtype=np.float64)
        t = np.asarray([*self.tries, self.chain_moves], dtype=np.float64)
        draw = rng.beta(1.0 + w, 1.0 / _PRIOR + t - w)
        draw[:-1][~np.asarray(self.live)] = -1.0  # retired grids' hits: never again
        return int(np.argmax(draw))
