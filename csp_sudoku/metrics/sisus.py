"""SiSuS (Pelanek): the refutation sum and dependency metrics.

Pelanek, *Difficulty Rating of Sudoku Puzzles by a Computational Model*
(FLAIRS 2011), sections "Evaluation of the Model" and "Difficulty Metrics": the
Simple Sudoku Solver fills a single (naked or hidden, equally easy) chosen at
random among all available; when none is available it computes the refutation
score of every empty cell (the sum, over the cell's wrong candidates, of the
number of random simple steps needed to reach a contradiction) and fills the
cell with the lowest score.

- **Refutation sum**: the sum, over the stuck moments of a run, of the lowest
  refutation score, averaged over runs (30 in the paper). Zero for puzzles that
  singles solve ("not applicable to simple problems" in Table 1).
- **Dependency**: the mean number of available singles over the first ``k``
  steps (a stuck step counts 0 options), averaged over runs. *Lower* means
  harder. The paper found k between 20 and 30 best and the results insensitive
  within that range; our default k = 25 is the middle. On the SE calibration
  set (docs/validation.md) Spearman's rho with SE's ER is -0.825 / -0.813 /
  -0.781 for k = 20 / 25 / 30: k = 20 is marginally better there, but the gap
  to 25 (0.012) is within the spread of a 265-puzzle sample.

The singles loop runs compiled (:func:`csp_sudoku._kernels.strategies.sisus_singles`);
refutation scores come from :mod:`csp_sudoku.human.refutation`.

Counting convention: :func:`csp_sudoku.human.refutation.refute` counts the
singles placed *after* the assumption, so a candidate whose assumption
contradicts at once costs 0, and on hard puzzles many stuck positions have a
cell whose every wrong candidate is refuted at once (a locked-candidates
pattern): the sum would be 0 there. We count the assumption as a step too
(``count_assumption=True``, the default): a cell's score is the sum over its
wrong candidates of (1 + singles placed). ``count_assumption=False`` gives the
raw sums.

When every cell of a stuck position has an infinite score (some wrong candidate
cannot be refuted by singles, which Pelanek never met but the hardest puzzles
do), the step adds ``inf_score`` (default 200) instead of infinity and a random
cell is filled; ``details["unrefutable"]`` counts these steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import strategies as _k
from csp_sudoku.core.bits import popcount
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import kernel_seeds
from csp_sudoku.human.state import CandidateState
from csp_sudoku.metrics.base import MetricError, check_runs

DEFAULT_RUNS = 30
DEFAULT_K = 25
DEFAULT_INF_SCORE = 200.0


@dataclass(frozen=True)
class SisusResult:
    """Per-run outcome of the SiSuS model.

    Attributes:
        refutation_sums: per run, the sum of the chosen (lowest) refutation scores.
        dependency: per run, the mean number of options over the first ``k`` steps.
        stuck: per run, how many times singles ran out.
        unrefutable: per run, stuck moments where every score was infinite.
        k: the dependency window used.
    """

    refutation_sums: NDArray[np.float64]
    dependency: NDArray[np.float64]
    stuck: NDArray[np.int64]
    unrefutable: NDArray[np.int64]
    k: int


def sisus_runs(
    puzzle: Puzzle,
    solution: Puzzle,
    *,
    runs: int = DEFAULT_RUNS,
    rng: np.random.Generator,
    k: int = DEFAULT_K,
    inf_score: float = DEFAULT_INF_SCORE,
    stop_after_k: bool = False,
    count_assumption: bool = True,
) -> SisusResult:
    """Run SiSuS ``runs`` times.

    Args:
        puzzle: the clues.
        solution: the (unique) solution.
        runs: the number of randomised runs.
        rng: the source of randomness (singles choices and refutation runs).
        k: the dependency window (steps).
        inf_score: what a stuck moment adds when no cell can be refuted by singles.
        stop_after_k: end each run once ``k`` steps are known (enough for the
            dependency metric; the refutation sums are then partial).
        count_assumption: count the assumption of each wrong candidate as one step.
    """
    from csp_sudoku.human.refutation import refutation_scores

    runs = check_runs(runs)
    if not is_whole(k) or k < 1:
        raise MetricError(f"k must be a positive integer, got {k!r}")
    g = puzzle.geometry
    t = _k.tables(g)
    start = CandidateState.from_puzzle(puzzle)
    sol_cells = solution.cells
    ref_sums = np.zeros(runs)
    dep = np.zeros(runs)
    stuck = np.zeros(runs, dtype=np.int64)
    unref = np.zeros(runs, dtype=np.int64)
    options = np.zeros(k, dtype=np.int64)
    for r in range(runs):
        st = kernel_seeds(rng, 1)
        state = start.copy()
        masks = np.ascontiguousarray(state.masks, dtype=np.int64)
        values = np.ascontiguousarray(state.values, dtype=np.int8)
        state = CandidateState(g, masks, values)
        options[:] = 0
        steps = 0
        total = 0.0
        while True:
            steps = _k.sisus_singles(
                masks, values, t.units, t.cell_units, t.peers, st, options, steps
            )
            if stop_after_k and steps >= k:
                break
            empty = np.flatnonzero(values == 0)
            if empty.size == 0:
                break
            if np.any(masks[empty] == 0):  # cannot happen on a unique puzzle: guard anyway
                break
            # a stuck step: no single available (0 options)
            if steps < k:
                options[steps] = 0
            steps += 1
            stuck[r] += 1
            scores = refutation_scores(state, sol_cells, rng)
            cells = np.fromiter(scores.keys(), dtype=np.int64, count=len(scores))
            vals = np.fromiter(scores.values(), dtype=float, count=len(scores))
            if cells.size == 0:
                break
            if count_assumption:
                vals = vals + (popcount(masks[cells]) - 1)
            best = float(vals.min())
            ties = cells[vals == best]
            cell = int(ties[int(rng.integers(ties.size))]) if ties.size > 1 else int(ties[0])
            if math.isinf(best):
                unref[r] += 1
                best = inf_score
            total += best
            state.place(cell, int(sol_cells[cell]))
        ref_sums[r] = total
        window = min(steps, k)
        dep[r] = float(options[:window].mean()) if window else 0.0
    return SisusResult(ref_sums, dep, stuck, unref, k)
