"""Combined linear models over several metrics, fitted by least squares.

Pelanek, *Difficulty Rating of Sudoku Puzzles by a Computational Model* (FLAIRS
2011), section "Evaluation": linear models over several metrics, with
parameters fitted on one half of the puzzles and tested on the other (Table 1,
"Combined (RD)" and "(SFRD)"). :func:`fit_combined` fits such a model to any
targets (human solving times, Sudoku Explainer ratings, ...) and returns a
:class:`CombinedRater` that rates new puzzles and can be saved as JSON.

Features are the metrics' scores, by default passed through ``log1p`` (hsolve
and the refutation sum are heavy-tailed; ``transform="none"`` keeps them raw).
The package ships one model fitted to Sudoku Explainer's ER on half of the
calibration set (``csp_sudoku/data/combined_se.json``, made by
``benchmarks/validate_metrics.py``); it is the ``combined`` metric of
:func:`csp_sudoku.metrics.rate`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.io import counted, write_text
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.metrics.base import MetricError, Rating, level_names

#: The signature of :func:`csp_sudoku.metrics.rate` as the combined model calls it.
RateFn = Callable[..., Rating]

_TRANSFORMS = ("log1p", "none")


def _transform(x: NDArray[np.float64], how: str) -> NDArray[np.float64]:
    if how == "log1p":
        out: NDArray[np.float64] = np.log1p(np.maximum(x, 0.0))
        return out
    return x


@dataclass(frozen=True)
class CombinedRater:
    """A fitted linear model ``intercept + sum(coef_i * f(metric_i))``.

    Attributes:
        metrics: the metric names used as features.
        coefficients: one per metric.
        intercept: the constant term.
        transform: ``log1p`` or ``none``, applied to every metric score.
        runs: runs per metric when computing features (None: the metric's default).
        level_bounds: score bounds between levels (quantiles of the training predictions).
        info: free-form provenance (training set, fit statistics).
    """

    metrics: tuple[str, ...]
    coefficients: tuple[float, ...]
    intercept: float
    transform: str = "log1p"
    runs: dict[str, int | None] = field(default_factory=dict)
    level_bounds: tuple[float, ...] = ()
    info: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------ use
    def predict(
        self, features: NDArray[np.floating] | Sequence[Sequence[float]]
    ) -> NDArray[np.float64]:
        """Scores for an ``(n, len(metrics))`` matrix of raw metric scores."""
        x = np.asarray(features, dtype=float)
        if x.ndim == 1:
            x = x[None, :]
        if x.shape[1] != len(self.metrics):
            raise MetricError(f"expected {len(self.metrics)} features, got {x.shape[1]}")
        coef = np.asarray(self.coefficients, dtype=np.float64)
        out: NDArray[np.float64] = self.intercept + _transform(x, self.transform) @ coef
        return out

    def features(
        self,
        puzzle: Puzzle,
        rate: RateFn,
        *,
        solution: Puzzle | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[float]:
        """The raw scores of :attr:`metrics` for one puzzle.

        ``rate`` is :func:`csp_sudoku.metrics.rate` (passed in so that this
        module does not import the registry that lists the combined model).
        """
        gen = rng if rng is not None else np.random.default_rng()
        out = []
        for m in self.metrics:
            seed = int(gen.integers(0, 2**63 - 1))
            out.append(
                rate(
                    puzzle, cast(MetricName, m), runs=self.runs.get(m), seed=seed, solution=solution
                ).score
            )
        return out

    def score_with_features(
        self,
        puzzle: Puzzle,
        rate: RateFn,
        *,
        solution: Puzzle | None = None,
        rng: np.random.Generator | None = None,
    ) -> tuple[float, dict[str, float]]:
        """The model's score of ``puzzle`` and the metric scores it used (``rate`` as for :meth:`features`)."""
        f = self.features(puzzle, rate, solution=solution, rng=rng)
        return float(self.predict([f])[0]), dict(zip(self.metrics, f, strict=True))

    @property
    def geometries(self) -> tuple[str, ...]:
        """The shapes (geometry names) of the puzzles the model was fitted on:
        ``info["geometries"]``, classic 9x9 when the model does not say (the
        shipped model was fitted on 9x9 puzzles)."""
        return tuple(self.info.get("geometries", ("9x9",)))

    def level_of(self, score: float, geometry: str = "9x9") -> tuple[str, int]:
        """The level of a score: bins between :attr:`level_bounds`; ``unrated``
        (rank 0) for a puzzle of a shape the model was not fitted on, where its
        levels (quantiles of the fitted puzzles' predictions) say nothing."""
        if geometry not in self.geometries:
            return "unrated", 0
        names = level_names(len(self.level_bounds) + 1)
        rank = int(np.searchsorted(np.asarray(self.level_bounds), score, side="right"))
        return names[rank], rank

    def describe(self) -> dict[str, Any]:
        """The model as a plain dict (what :meth:`to_json` writes)."""
        return {
            "metrics": list(self.metrics),
            "coefficients": list(self.coefficients),
            "intercept": self.intercept,
            "transform": self.transform,
            "runs": dict(self.runs),
            "level_bounds": list(self.level_bounds),
            "info": self.info,
        }

    def to_json(self, path: str | Path) -> None:
        """Save the model."""
        write_text(path, json.dumps(self.describe(), indent=2) + "\n")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CombinedRater:
        """A rater from :meth:`describe`'s output."""
        try:
            return cls(
                metrics=tuple(d["metrics"]),
                coefficients=tuple(float(c) for c in d["coefficients"]),
                intercept=float(d["intercept"]),
                transform=str(d.get("transform", "log1p")),
                runs=dict(d.get("runs", {})),
                level_bounds=tuple(float(b) for b in d.get("level_bounds", ())),
                info=dict(d.get("info", {})),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise MetricError(f"not a combined model: {err}") from None

    @classmethod
    def from_json(cls, path: str | Path) -> CombinedRater:
        """Load a model saved by :meth:`to_json`."""
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def fit_features(
    features: NDArray[np.floating] | Sequence[Sequence[float]],
    targets: Sequence[float] | NDArray[np.floating],
    metrics: Sequence[str],
    *,
    transform: str = "log1p",
    runs: dict[str, int | None] | None = None,
    levels: int = 4,
    info: dict[str, Any] | None = None,
) -> CombinedRater:
    """Least-squares fit on precomputed metric scores (``(n, len(metrics))``).

    ``info`` is kept with the model; its ``geometries`` (the shapes of the
    puzzles, 9x9 when absent) are where the model's levels apply.
    """
    if transform not in _TRANSFORMS:
        raise MetricError(f"transform must be one of {_TRANSFORMS}, got {transform!r}")
    x = np.asarray(features, dtype=float)
    y = np.asarray(targets, dtype=float)
    if x.ndim != 2 or x.shape[1] != len(metrics) or x.shape[0] != y.size:
        raise MetricError(
            f"need an (n, {len(metrics)}) feature matrix and n targets, got {x.shape} and {y.size}"
        )
    if y.size <= len(metrics) + 1:
        raise MetricError(
            f"need more than {counted(len(metrics) + 1, 'puzzle')} to fit {counted(len(metrics), 'metric')}"
        )
    design = np.column_stack([np.ones(y.size), _transform(x, transform)])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    pred = design @ coef
    bounds = tuple(float(b) for b in np.quantile(pred, np.arange(1, levels) / levels))
    stats = {
        "n": int(y.size),
        "train_pearson": float(np.corrcoef(pred, y)[0, 1]) if y.std() > 0 else 0.0,
    }
    return CombinedRater(
        metrics=tuple(metrics),
        coefficients=tuple(float(c) for c in coef[1:]),
        intercept=float(coef[0]),
        transform=transform,
        runs=dict(runs or {}),
        level_bounds=bounds,
        info={**stats, **(info or {})},
    )


@cache
def shipped_rater() -> CombinedRater:
    """The combined model shipped with the package (fitted to SE's ER)."""
    from importlib import resources

    try:
        text = resources.files("csp_sudoku").joinpath("data/combined_se.json").read_text()
    except FileNotFoundError:
        raise MetricError("no combined model is shipped with this installation") from None
    return CombinedRater.from_dict(json.loads(text))
