"""``se``: an estimate of Sudoku Explainer's rating (ER, EP, ED) from the human model's path.

Sudoku Explainer (SE) rates a puzzle by the hardest step of its solve, where
each step is the easiest technique that applies (ER); EP and ED are the same
figure up to the first placement and for the first step. The human model
(:func:`csp_sudoku.human.path.solve_path` with singles, the subset rule and
graded refutation) takes its steps in a similar order, cheapest first, so the
estimate gives every step a difficulty on SE's scale and takes the maximum:

* singles and named subset-rule moves take SE's published values
  (:mod:`csp_sudoku.human.costs`: hidden single 1.2 in a box, 1.5 in a line;
  naked single 2.3; pointing 2.6; ... hidden quad 5.4); unnamed subset-rule
  moves take the value of a hidden subset of their size. Within a run of
  singles the easiest single is taken each time, as SE does; a subset move
  that at once makes a single takes SE's "direct" value (direct pointing 1.7,
  direct claiming 1.9, direct hidden pair 2.0, direct hidden triple 2.5);
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
from dataclasses import asdict, dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.human.costs import SE_DIRECT, SE_VALUES, subset_value
from csp_sudoku.human.path import SolvePath, Step
from csp_sudoku.human.state import CandidateState

#: Level names of the ``se`` metric, easiest first, with the upper ER bound of each.
SE_LEVELS: tuple[tuple[str, float], ...] = (
    ("easy", 2.0),
    ("medium", 3.0),
    ("hard", 5.0),
    ("fiendish", 7.0),
    ("diabolical", 9.0),
    ("extreme", math.inf),
)


#: Where the level-0 curve has its knots: log2(1 + chain length) = 2 .. 7
#: (lengths 3, 7, 15, 31, 63, 127).
KNOTS_X: tuple[float, ...] = (2.0, 3.0, 4.0, 5.0, 6.0, 7.0)


@dataclass(frozen=True)
class SeModel:
    """The chain part of the estimate (see the module doc).

    With ``x = log2(1 + n)`` for a chain of length ``n``:

    * level 0: a monotone piecewise-linear curve through ``knots`` at
      :data:`KNOTS_X` (flat beyond the ends): SE's chain ratings grow with the
      chain's length and level off near 9;
    * level 1: the level-0 curve plus ``level1``;
    * level 2: ``nested_base + nested_slope * x``;
    * cell and region forcing chains add ``verity``; nothing goes above ``cap``.

    Attributes:
        knots: the level-0 values at :data:`KNOTS_X`.
        level1: what the subset rule inside the assumption adds.
        nested_base: level 2 at ``x = 0``.
        nested_slope: level 2 per doubling of the length.
        verity: added for cell and region forcing chains.
        cap: the largest value a step can take (SE's scale ends near 12).
        fitted_on: where the parameters come from.
    """

    knots: tuple[float, ...] = (4.5, 6.6, 8.4, 9.0, 9.3, 9.5)
    level1: float = 0.5
    nested_base: float = 9.5
    nested_slope: float = 0.15
    verity: float = 0.3
    cap: float = 12.0
    fitted_on: str = "defaults (not fitted)"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SeModel:
        """Inverse of :meth:`to_dict`."""
        return cls(
            tuple(float(v) for v in d["knots"]),
            float(d["level1"]),
            float(d["nested_base"]),
            float(d["nested_slope"]),
            float(d["verity"]),
            float(d.get("cap", 12.0)),
            str(d.get("fitted_on", "")),
        )

    def chain_value(self, level: int, form: str, length: int) -> float:
        """The difficulty of a chain step."""
        x = math.log2(1 + max(length, 0))
        if level >= 2:
            value = self.nested_base + self.nested_slope * x
        else:
            value = float(np.interp(x, KNOTS_X, np.maximum.accumulate(self.knots)))
            if level == 1:
                value += self.level1
        if form != "contradiction":
            value += self.verity
        return min(self.cap, value)


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
        return _single_value(puzzle, step.unit)
    if step.kind == "subset":
        return subset_value(step.technique, step.size)
    if step.kind == "chain":
        return m.chain_value(step.level, step.form, step.length)
    # refutation and oracle steps are outside SE's techniques: rate them as the
    # hardest chain level, so a path that needed them is never rated easy
    return m.chain_value(2, "contradiction", 64)


def _single_value(puzzle: Puzzle, unit: int) -> float:
    """SE's value of a single: hidden in a box, hidden in a line, naked (``unit`` -1)."""
    if unit < 0:
        return SE_VALUES["naked single"]
    kinds = puzzle.geometry.unit_kinds
    if 0 <= unit < len(kinds) and kinds[unit] in ("box", "region"):
        return SE_VALUES["hidden single (box)"]
    return SE_VALUES["hidden single"]


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


def _greedy_singles(state: CandidateState, count: int, puzzle: Puzzle) -> list[float]:
    """SE's order within a run of singles: the easiest single each time.

    SE takes a hidden single in a box (1.2) before one in a line (1.5) before
    a naked single (2.3). Singles only ever add placements, so any order
    places the same cells; the order changes only how hard the run is. The
    model's path takes the first single it sees, so the run is replayed here
    on a copy, ``count`` placements long.
    """
    work = state.copy()
    out: list[float] = []
    for _ in range(count):
        best: dict[tuple[int, int], float] = {}
        for single in work.naked_singles():
            best[(single.cell, single.digit)] = SE_VALUES["naked single"]
        for single in work.hidden_singles():
            key = (single.cell, single.digit)
            best[key] = min(best.get(key, math.inf), _single_value(puzzle, single.unit))
        if not best:
            break
        (cell, digit), value = min(best.items(), key=lambda kv: (kv[1], kv[0]))
        out.append(value)
        work.place(cell, digit)
    return out


def difficulties(path: SolvePath, model: SeModel | None = None) -> list[float]:
    """The difficulty of every step of ``path`` on SE's scale.

    Singles are rated in SE's order within each run of singles (see
    :func:`_greedy_singles`); other steps by :func:`step_difficulty`.
    """
    puzzle = path.puzzle
    state = CandidateState.from_puzzle(puzzle)
    out: list[float] = []
    steps = path.steps
    i = 0
    while i < len(steps):
        if steps[i].kind == "single":
            j = i
            while j < len(steps) and steps[j].kind == "single":
                j += 1
            run = _greedy_singles(state, j - i, puzzle)
            run += [step_difficulty(s, puzzle, model) for s in steps[i + len(run) : j]]
            out.extend(run)
            for s in steps[i:j]:
                for c, d in s.placements:
                    state.place(c, d)
            i = j
            continue
        s = steps[i]
        value = step_difficulty(s, puzzle, model)
        if s.kind == "subset" and i + 1 < len(steps) and steps[i + 1].kind == "single":
            # no single was available before it, so it made the next one: SE's direct form
            value = min(value, SE_DIRECT.get(s.technique, value))
        out.append(value)
        for c, d in s.placements:
            state.place(c, d)
        for c, d in s.eliminations:
            state.eliminate(c, d)
        i += 1
    return out


def estimate(path: SolvePath, model: SeModel | None = None) -> SeEstimate:
    """ER (the hardest step), EP (the hardest up to the first placement) and ED
    (the first step) of a solved path."""
    diffs = tuple(difficulties(path, model))
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
