"""``se``: an estimate of Sudoku Explainer's rating (ER, EP, ED) from the human model's path.

Sudoku Explainer (SE) rates a puzzle by the hardest step of its solve, where
each step is the easiest technique that applies (ER); EP and ED are the same
figure up to the first placement and for the first step. The human model
(:func:`csp_sudoku.human.path.solve_path` with singles, the subset rule and
graded refutation) takes its steps in a similar order, cheapest first, so the
estimate gives every step a difficulty on SE's scale and takes the maximum:

* singles and named subset-rule moves take SE's published values (hidden
  single 1.2 in a box, 1.5 in a line; naked single 2.3; pointing 2.6; claiming
  2.8; naked pair 3.0; X-Wing 3.2; hidden pair 3.4; naked triple 3.6;
  Swordfish 3.8; hidden triple 4.0; naked quad 5.0; Jellyfish 5.2; hidden quad
  5.4); unnamed subset-rule moves take the value of a hidden subset of their size;
* a chain step of level ``L`` and form ``f`` (contradiction, or cell/region
  forcing) with chain length ``n`` takes ``base[L][f] + slope[L] * log2(1 + n)``:
  SE too adds to a chain's base rating as the chain grows, by steps that
  double in length.

The chain parameters are fitted to SE's ratings (``benchmarks/fit_se.py``,
fitted on two thirds of ``se_calibration.tsv`` and ``se_calibration_top1465.tsv``;
the figures on the held-out third are in docs/validation.md) and ship in
``csp_sudoku/data/se_model.json``.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from csp_sudoku.human.path import SolvePath, Step
from csp_sudoku.puzzle import Puzzle

#: SE's values of the techniques the subset rule and singles cover.
SE_VALUES: dict[str, float] = {
    "hidden single": 1.5,
    "hidden single (box)": 1.2,
    "naked single": 2.3,
    "pointing": 2.6,
    "claiming": 2.8,
    "naked pair": 3.0,
    "X-Wing": 3.2,
    "hidden pair": 3.4,
    "naked triple": 3.6,
    "Swordfish": 3.8,
    "hidden triple": 4.0,
    "naked quad": 5.0,
    "Jellyfish": 5.2,
    "hidden quad": 5.4,
}

#: Unnamed subset-rule moves, by size.
SUBSET_BY_SIZE: dict[int, float] = {1: 2.8, 2: 3.4, 3: 4.0, 4: 5.4}

#: Level names of the ``se`` metric, easiest first, with the upper ER bound of each.
SE_LEVELS: tuple[tuple[str, float], ...] = (
    ("easy", 2.0),
    ("medium", 3.0),
    ("hard", 5.0),
    ("fiendish", 7.0),
    ("diabolical", 9.0),
    ("extreme", math.inf),
)


@dataclass(frozen=True)
class SeModel:
    """The chain part of the estimate (see the module doc).

    Attributes:
        base: ``base[level][form]`` for level 0, 1, 2 and forms
            ``contradiction``, ``verity`` (cell and region forcing chains).
        slope: ``slope[level]``, added per doubling of the chain length.
        cap: the largest value a step can take (SE's scale ends near 12).
        fitted_on: where the parameters come from.
    """

    base: tuple[tuple[float, float], ...] = ((6.6, 7.6), (8.2, 8.6), (9.3, 9.6))
    slope: tuple[float, ...] = (0.3, 0.25, 0.2)
    cap: float = 12.0
    fitted_on: str = "defaults (not fitted)"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SeModel:
        """Inverse of :meth:`to_dict`."""
        return cls(
            tuple(tuple(float(v) for v in row) for row in d["base"]),  # type: ignore[misc]
            tuple(float(v) for v in d["slope"]),
            float(d.get("cap", 12.0)),
            str(d.get("fitted_on", "")),
            dict(d.get("extra", {})),
        )

    def chain_value(self, level: int, form: str, length: int) -> float:
        """The difficulty of a chain step."""
        lv = min(max(level, 0), len(self.base) - 1)
        base = self.base[lv][0 if form == "contradiction" else 1]
        return min(self.cap, base + self.slope[lv] * math.log2(1 + max(length, 0)))


@lru_cache(maxsize=1)
def shipped_model() -> SeModel:
    """The fitted model shipped with the package (defaults if the file is missing)."""
    try:
        text = resources.files("csp_sudoku").joinpath("data/se_model.json").read_text()
    except (FileNotFoundError, OSError):
        return SeModel()
    return SeModel.from_dict(json.loads(text))


def step_difficulty(step: Step, puzzle: Puzzle, model: SeModel | None = None) -> float:
    """The difficulty of one step on SE's scale."""
    m = model if model is not None else shipped_model()
    if step.kind == "single":
        if step.technique == "hidden single":
            kinds = puzzle.geometry.unit_kinds
            if 0 <= step.unit < len(kinds) and kinds[step.unit] in ("box", "region"):
                return SE_VALUES["hidden single (box)"]
            return SE_VALUES["hidden single"]
        return SE_VALUES["naked single"]
    if step.kind == "subset":
        return SE_VALUES.get(step.technique, SUBSET_BY_SIZE.get(step.size, 5.4))
    if step.kind == "chain":
        return m.chain_value(step.level, step.form, step.length)
    # refutation and oracle steps are outside SE's techniques: rate them as the
    # hardest chain level, so a path that needed them is never rated easy
    return m.chain_value(len(m.base) - 1, "contradiction", 64)


@dataclass(frozen=True)
class SeEstimate:
    """ER, EP and ED estimates and the per-step difficulties they come from."""

    er: float
    ep: float
    ed: float
    difficulties: tuple[float, ...]
    hardest: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form (difficulties rounded to 0.01)."""
        return {
            "er": round(self.er, 2),
            "ep": round(self.ep, 2),
            "ed": round(self.ed, 2),
            "hardest": self.hardest,
            "difficulties": [round(d, 2) for d in self.difficulties],
        }


def estimate(path: SolvePath, model: SeModel | None = None) -> SeEstimate:
    """ER (the hardest step), EP (the hardest up to the first placement) and ED
    (the first step) of a solved path."""
    diffs = tuple(step_difficulty(s, path.puzzle, model) for s in path.steps)
    if not diffs:
        return SeEstimate(0.0, 0.0, 0.0, (), "")
    first_place = next((i for i, s in enumerate(path.steps) if s.placements), len(diffs) - 1)
    top = max(range(len(diffs)), key=lambda i: diffs[i])
    return SeEstimate(
        max(diffs), max(diffs[: first_place + 1]), diffs[0], diffs, path.steps[top].technique
    )


def level_of(er: float) -> tuple[str, int]:
    """The ``se`` level name and rank of an ER estimate."""
    for rank, (name, upper) in enumerate(SE_LEVELS):
        if er <= upper:
            return name, rank
    return SE_LEVELS[-1][0], len(SE_LEVELS) - 1


def se_rating(puzzle: Puzzle) -> tuple[float, str, int, dict[str, Any], dict[str, Any]]:
    """``(score, level, rank, details, parameters)`` of the ``se`` metric.

    Raises:
        MetricError: when the human model stops before solving (a search
            budget ran out), so no rating can be given.
    """
    from csp_sudoku.human.path import solve_path
    from csp_sudoku.metrics.base import MetricError

    path = solve_path(puzzle)
    if not path.solved:
        why = path.stopped or ("contradiction" if path.contradiction else "stuck")
        raise MetricError(f"the human model did not solve the puzzle ({why})")
    est = estimate(path)
    level, rank = level_of(est.er)
    details = {
        **est.to_dict(),
        "steps": len(path.steps),
        "max_level": path.max_level,
        "technique_counts": path.technique_counts(),
    }
    return est.er, level, rank, details, {"model": shipped_model().fitted_on}
