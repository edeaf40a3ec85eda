"""The ``se`` metric: an estimate of Sudoku Explainer's rating from the human model's path."""

from __future__ import annotations

import csv
import hashlib

import numpy as np
import pytest
from scipy.stats import spearmanr

import csp_sudoku as cs
from csp_sudoku.human.path import solve_path
from csp_sudoku.metrics import rate
from csp_sudoku.metrics.se import SeModel, difficulties, estimate, level_of, shipped_model
from tests.conftest import SHARED_DATA


def _calibration(name: str) -> list[tuple[str, str, float]]:
    path = SHARED_DATA / name
    if not path.exists():
        pytest.fail(f"reference data {path} is missing")
    with path.open() as fh:
        return [
            (r["source"], r["puzzle"], float(r["ER"])) for r in csv.DictReader(fh, delimiter="\t")
        ]


def _held_out(puzzle: str) -> bool:
    # the same split as benchmarks/fit_se.py: this third never took part in the fit
    return int(hashlib.sha1(puzzle.encode()).hexdigest(), 16) % 3 == 0


def test_singles_only_puzzles_get_se_single_values_exactly() -> None:
    """Where SE needs singles only (ER 1.2, 1.5, 2.3) and so does the model,
    the greedy replay of SE's order gives SE's figure, not the model's first single's."""
    rows = [r for r in _calibration("se_calibration.tsv") if r[2] in (1.2, 1.5, 2.3)][:25]
    assert len(rows) >= 10
    for _src, puzzle, er in rows:
        path = solve_path(cs.parse(puzzle))
        if any(s.kind != "single" for s in path.steps):
            continue
        assert estimate(path).er == pytest.approx(er), puzzle


def test_held_out_agreement_with_sudoku_explainer() -> None:
    """On held-out puzzles across the whole scale the estimate orders like SE."""
    rows = [r for r in _calibration("se_calibration.tsv") if _held_out(r[1])]
    rows = rows[::3][:30]
    ers = np.array([r[2] for r in rows])
    assert np.ptp(ers) >= 4
    est = np.array([rate(r[1], "se").score for r in rows])
    rho = spearmanr(ers, est).statistic
    assert rho >= 0.85, rho
    assert float(np.mean(np.abs(est - ers))) <= 1.0


def test_rating_is_deterministic_and_detailed() -> None:
    line = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
    a = rate(line, "se")
    b = rate(line, "se", seed=5)
    assert a.score == b.score and a.seed is None and a.runs is None
    d = a.details
    assert d["er"] == pytest.approx(a.score, abs=0.01)
    assert d["ed"] <= d["ep"] <= d["er"]
    assert len(d["difficulties"]) == d["steps"]
    assert max(d["difficulties"]) == pytest.approx(d["er"], abs=0.01)
    assert a.level == level_of(a.score)[0]
    # a hard chain puzzle rates far above a singles puzzle
    easy = _calibration("se_calibration.tsv")[0][1]
    assert rate(easy, "se").score + 3 < a.score


def test_chain_values_grow_with_level_and_length() -> None:
    m = shipped_model()
    assert m.chain_value(0, "contradiction", 4) < m.chain_value(0, "contradiction", 40)
    assert m.chain_value(0, "contradiction", 10) <= m.chain_value(2, "contradiction", 10)
    assert m.chain_value(2, "contradiction", 10**6) <= m.cap
    assert SeModel.from_dict(m.to_dict()) == m


def test_difficulties_follow_the_path() -> None:
    p = cs.parse(
        "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6....."
    )
    path = solve_path(p)
    diffs = difficulties(path)
    assert len(diffs) == len(path.steps)
    # a pointing step is 2.6, or 1.7 when it made the single that follows it
    for i, s in enumerate(path.steps):
        if s.technique == "pointing":
            nxt = path.steps[i + 1].kind if i + 1 < len(path.steps) else ""
            assert diffs[i] == (1.7 if nxt == "single" else 2.6)


def test_generate_with_an_se_target() -> None:
    from csp_sudoku.generators import generate

    for g in generate(count=2, metric="se", score_range=(1.0, 2.3), seed=11):
        r = g.ratings["se"]
        assert 1.0 <= r.score <= 2.3


def test_oracle_steps_rate_as_the_hardest_chains() -> None:
    """A path that needed the oracle is never rated easy."""
    p = cs.parse(
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
    )
    path = solve_path(p, ("singles", "oracle"))
    assert path.solved and any(s.kind == "oracle" for s in path.steps)
    assert estimate(path).er >= shipped_model().chain_value(2, "contradiction", 64) - 1e-9
