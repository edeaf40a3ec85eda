"""The oracle metric of Fletcher, Johnson, Morrison.

*Taking the Mystery Out of Sudoku Difficulty: An Oracular Model* (UMAP Journal
2008), Algorithm 1: a player fills naked singles until none is left, then makes
one pass of hidden singles, and repeats; when nothing is found, an oracle reveals
the value of one (random) empty cell. Over many trials the counts are averaged
and scored by equation (1)::

    s = alpha * N + beta * H + gamma * (1 - exp(-delta * (O - sigma)))
    gamma = 0 if O < 1 else G
    ScaledScore = (1 + tanh(A * (s - B))) / 2

with N and H the naked and hidden singles found per iteration (averaged within
a trial, then over trials) and O the mean number of oracle visits per trial.
Table 2's values are the defaults: alpha 0.1, beta 0.5, G 15, delta 0.5,
sigma 1, A 0.25, B 10. Levels: Cinch (< 0.18), Confusing (< 0.6), Challenging
(< 0.8), Crazy.

Two notes on faithfulness:

- The sign of the exponent. The converted text of the paper prints
  ``exp(delta * (O - sigma))``, which is negative for every O >= 1 and would make
  more oracle visits *easier*; the paper describes the term as "an inverse
  exponential" that gives each further visit less weight, and its Table 1 (mean
  score rising with oracle visits) needs it increasing. We use
  ``1 - exp(-delta * (O - sigma))``.
- The paper's own caveat on alpha and beta: with positive alpha and beta, more
  singles per scan scores *harder*, "which is wrong and not what we intended.
  Parameters alpha and beta should probably be negative, or else we should change
  what N and H mean." We keep Table 2's positive values as defaults (that is the
  published metric) and let you pass negative ones.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import strategies as _k
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import kernel_seeds
from csp_sudoku.human.state import CandidateState
from csp_sudoku.metrics.base import MetricError, check_runs

DEFAULT_RUNS = 100
#: Level names and the upper bounds of the scaled score (the last level has none).
LEVELS: tuple[str, ...] = ("Cinch", "Confusing", "Challenging", "Crazy")
THRESHOLDS: tuple[float, ...] = (0.18, 0.6, 0.8)


@dataclass(frozen=True)
class OracleParams:
    """The parameters of equation (1) and of the tanh scaling (Table 2 defaults)."""

    alpha: float = 0.1
    beta: float = 0.5
    gamma: float = 15.0
    delta: float = 0.5
    sigma: float = 1.0
    A: float = 0.25
    B: float = 10.0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                try:
                    number = float(value)
                except (TypeError, ValueError):
                    raise MetricError(
                        f"oracle parameter {name} must be a number, got {value!r}"
                    ) from None
                object.__setattr__(self, name, number)
            if not math.isfinite(float(getattr(self, name))):
                raise MetricError(f"oracle parameter {name} must be finite, got {value!r}")

    def as_dict(self) -> dict[str, float]:
        """The parameters by name."""
        return asdict(self)


def unscaled_score(n: float, h: float, o: float, params: OracleParams) -> float:
    """Equation (1): ``alpha N + beta H + gamma(O) (1 - exp(-delta (O - sigma)))``.

    ``gamma(O)`` is 0 for ``O < 1`` and ``params.gamma`` otherwise.
    """
    g = 0.0 if o < 1 else params.gamma
    return (
        params.alpha * n
        + params.beta * h
        + g * (1.0 - math.exp(-params.delta * (o - params.sigma)))
    )


def scaled_score(s: float, params: OracleParams) -> float:
    """The shifted tanh: ``(1 + tanh(A (s - B))) / 2``, in ``[0, 1]``."""
    return (1.0 + math.tanh(params.A * (s - params.B))) / 2.0


def level_of(score: float) -> tuple[str, int]:
    """The paper's level of a scaled score: Cinch / Confusing / Challenging / Crazy."""
    for rank, bound in enumerate(THRESHOLDS):
        if score < bound:
            return LEVELS[rank], rank
    return LEVELS[-1], len(LEVELS) - 1


def oracle_trials(
    puzzle: Puzzle, solution: Puzzle, *, runs: int = DEFAULT_RUNS, rng: np.random.Generator
) -> NDArray[np.float64]:
    """``(runs, 4)`` counts per trial: naked singles, hidden singles, iterations, oracle visits."""
    runs = check_runs(runs)
    t = _k.tables(puzzle.geometry)
    state = CandidateState.from_puzzle(puzzle)
    out = np.zeros((runs, 4))
    _k.oracle_runs(
        np.ascontiguousarray(state.masks, dtype=np.int64),
        np.ascontiguousarray(state.values, dtype=np.int8),
        np.ascontiguousarray(solution.cells, dtype=np.int8),
        t.units,
        t.peers,
        kernel_seeds(rng, runs),
        out,
    )
    return out


def score_trials(
    trials: NDArray[np.float64], params: OracleParams
) -> tuple[float, float, float, float]:
    """``(scaled score, N, H, O)`` from the per-trial counts of :func:`oracle_trials`."""
    iters = np.maximum(trials[:, 2], 1.0)
    n = float(np.mean(trials[:, 0] / iters))
    h = float(np.mean(trials[:, 1] / iters))
    o = float(np.mean(trials[:, 3]))
    return scaled_score(unscaled_score(n, h, o, params), params), n, h, o
