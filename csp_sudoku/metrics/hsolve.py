"""hsolve: the expected number of checks of a human searching for strategies.

Chang, Fan, Sun, *hsolve: A Difficulty Metric and Puzzle Generator for Sudoku*
(MCM 2008), section 3.2: starting from d = 0, repeat until the board is solved:
search the tiers of Appendix A from the easiest; for a tier with ``p`` possible
and ``v`` valid applications add E(p, v) = (p+1)/(v+1) (Lemma 1) to d; when
``v > 0`` apply one valid application chosen uniformly at random and start
again at tier 0. The metric m(B) is the mean of d over runs (20 in the paper,
which gives sigma/mu of about 1/10).

Our one extension: the paper's tiers stop at limited backtracking, so some hard
puzzles get stuck. Then the searcher has paid for every tier (each with
``v = 0``: p + 1 checks) and we reveal one random cell of the solution (as the
oracle of Fletcher, Johnson, Morrison does) and continue; ``details["stuck"]``
says how often per run. With ``on_stuck="stop"`` the run ends there instead.

Levels: percentile bins of a reference distribution (section 4.3.2), see
:func:`csp_sudoku.metrics.base.quantile_level`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import strategies as _k
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import kernel_seeds
from csp_sudoku.human.state import CandidateState
from csp_sudoku.metrics.base import MetricError, check_runs

DEFAULT_RUNS = 20


@dataclass(frozen=True)
class HsolveResult:
    """Per-run outcome of hsolve.

    Attributes:
        scores: d of each run.
        stuck: how many cells each run had to reveal because no tier applied.
        counts: ``(runs, 13)`` applications of each strategy per run (ids as
            :data:`csp_sudoku.human.strategies.STRATEGIES`).
    """

    scores: NDArray[np.float64]
    stuck: NDArray[np.int64]
    counts: NDArray[np.int64]

    @property
    def mean(self) -> float:
        """m(B): the mean of d over the runs."""
        return float(self.scores.mean())


def hsolve_runs(
    puzzle: Puzzle,
    solution: Puzzle | None,
    *,
    runs: int = DEFAULT_RUNS,
    rng: np.random.Generator,
    max_tier: int = 5,
    on_stuck: str = "reveal",
) -> HsolveResult:
    """Run hsolve ``runs`` times on ``puzzle``.

    Args:
        puzzle: the clues.
        solution: its solution (needed when ``on_stuck="reveal"``).
        runs: how many runs.
        rng: the source of randomness.
        max_tier: the highest tier the searcher knows (0-5).
        on_stuck: ``"reveal"`` (reveal a random solution cell) or ``"stop"``.
    """
    runs = check_runs(runs)
    if not 0 <= max_tier <= 5:
        raise MetricError(f"max_tier must be 0..5, got {max_tier}")
    if on_stuck not in ("reveal", "stop"):
        raise MetricError(f"on_stuck must be 'reveal' or 'stop', got {on_stuck!r}")
    g = puzzle.geometry
    t = _k.tables(g)
    state = CandidateState.from_puzzle(puzzle)
    if on_stuck == "reveal":
        if solution is None:
            raise MetricError("hsolve with on_stuck='reveal' needs the solution")
        sol = np.ascontiguousarray(solution.cells, dtype=np.int8)
    else:
        sol = np.zeros(g.ncells, dtype=np.int8)
    scores = np.zeros(runs)
    stuck = np.zeros(runs, dtype=np.int64)
    counts = np.zeros((runs, _k.N_STRATEGIES), dtype=np.int64)
    _k.hsolve_runs(
        np.ascontiguousarray(state.masks, dtype=np.int64),
        np.ascontiguousarray(state.values, dtype=np.int8),
        sol,
        t.scan,
        t.size,
        max_tier,
        kernel_seeds(rng, runs),
        scores,
        stuck,
        counts,
    )
    return HsolveResult(scores, stuck, counts)
