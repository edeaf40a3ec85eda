"""The difficulty metrics: hand-checked formulas, levels, determinism, the entry point."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.core.errors import NotUniqueError, SudokuError
from csp_sudoku.metrics import METRICS, MetricError, derive_seed, fit_combined, rate, rate_many
from csp_sudoku.metrics.base import quantile_level
from csp_sudoku.metrics.combined import CombinedRater, fit_features, shipped_rater
from csp_sudoku.metrics.oracle import OracleParams, level_of, scaled_score, unscaled_score
from tests.conftest import load_lines, sample_lines

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def one_hole() -> cs.Puzzle:
    return cs.parse(SOLVED).without([0])


def two_holes() -> cs.Puzzle:
    return cs.parse(SOLVED).without([0, 4])  # row 1, different columns and boxes


# ------------------------------------------------------------------ hsolve
def test_hsolve_hand_checked() -> None:
    # one empty cell: tier 0 has p = 2 (naked + hidden single checks), v = 2: E = 3/3
    assert rate(one_hole(), "hsolve", seed=0).score == pytest.approx(1.0)
    # two empty cells of one row: p = 4, v = 4 (each is naked and hidden): E = 1, then 1
    r = rate(two_holes(), "hsolve", seed=0)
    assert r.score == pytest.approx(2.0)
    counts = r.details["technique_counts"]
    assert set(counts) <= {"naked single", "hidden single"}
    assert sum(counts.values()) == pytest.approx(2.0)
    assert r.details["max_tier_used"] == 0
    assert r.runs == 20 and r.seed == 0


def test_hsolve_runs_and_levels() -> None:
    r = rate(HARD, "hsolve", runs=5, seed=3)
    assert r.runs == 5
    assert r.score > 500
    easy = rate(EASY, "hsolve", runs=5, seed=3)
    assert easy.score < r.score and easy.level_rank <= r.level_rank
    # the level is the number of reference quantile bounds the score passes
    bounds = r.details["bounds"]
    assert len(bounds) == 3 and bounds == sorted(bounds)
    assert r.level_rank == sum(r.score > b for b in bounds)
    assert r.level == ("easy", "medium", "hard", "very hard")[r.level_rank]
    assert r.details["percentile"] is not None
    r8 = rate(HARD, "hsolve", runs=5, seed=3, levels=8)
    assert r8.score == r.score and r8.level.startswith("level ")
    stop = rate(HARD, "hsolve", runs=3, seed=3, max_tier=0, on_stuck="stop")
    # singles only, stopped when stuck: a few singles, far cheaper than the full solve
    counts = stop.details["technique_counts"]
    assert set(counts) <= {"naked single", "hidden single"} and sum(counts.values()) >= 1
    assert stop.details["max_tier_used"] == 0 and 0 < stop.score < r.score
    with pytest.raises(MetricError):
        rate(HARD, "hsolve", runs=3, max_tier=7)


# ------------------------------------------------------------------ oracle
def test_oracle_equation_hand_checked() -> None:
    p = OracleParams()
    assert unscaled_score(10, 2, 0.5, p) == pytest.approx(0.1 * 10 + 0.5 * 2)  # gamma = 0 below 1
    assert unscaled_score(0, 0, 3, p) == pytest.approx(15 * (1 - math.exp(-0.5 * 2)))
    assert unscaled_score(0, 0, 1, p) == pytest.approx(0.0)
    assert scaled_score(10, p) == pytest.approx(0.5)
    assert scaled_score(2, p) == pytest.approx((1 + math.tanh(0.25 * (2 - 10))) / 2)
    q = OracleParams(alpha=-0.1, beta=-0.5, gamma=20, B=5)
    assert unscaled_score(10, 2, 2, q) == pytest.approx(-1 - 1 + 20 * (1 - math.exp(-0.5)))


def test_oracle_levels() -> None:
    assert level_of(0.0) == ("Cinch", 0)
    assert level_of(0.179) == ("Cinch", 0)
    assert level_of(0.18) == ("Confusing", 1)
    assert level_of(0.6) == ("Challenging", 2)
    assert level_of(0.8) == ("Crazy", 3)
    assert level_of(1.0) == ("Crazy", 3)


def test_oracle_on_one_hole_and_hard() -> None:
    r = rate(one_hole(), "oracle", seed=1, runs=10)
    assert r.details["naked_per_iteration"] == 1.0
    assert r.details["oracle_visits"] == 0.0
    assert r.score == pytest.approx((1 + math.tanh(0.25 * (0.1 - 10))) / 2)
    assert r.level == "Cinch"
    h = rate(HARD, "oracle", seed=1)
    assert h.details["oracle_visits"] >= 1
    assert (h.level, h.level_rank) == level_of(h.score)
    assert rate(EASY, "oracle", seed=1).score < h.score
    assert h.parameters == OracleParams().as_dict()
    neg = rate(HARD, "oracle", seed=1, alpha=-0.1)
    assert neg.parameters["alpha"] == -0.1 and neg.score < h.score
    with pytest.raises(MetricError):
        rate(HARD, "oracle", seed=1, epsilon=1)


# ------------------------------------------------------------------ SiSuS
def test_sisus_metrics() -> None:
    easy = rate(EASY, "refutation", seed=2, runs=5)
    assert easy.score == 0.0  # singles solve it: no stuck moment
    dep_easy = rate(EASY, "dependency", seed=2, runs=5)
    dep_hard = rate(HARD, "dependency", seed=2, runs=5)
    assert dep_easy.score > dep_hard.score  # fewer options = harder
    assert dep_easy.parameters["k"] == 25
    hard = rate(HARD, "refutation", seed=2, runs=3)
    assert hard.score > easy.score and hard.details["stuck"] >= 1
    assert rate(HARD, "dependency", seed=2, runs=3, k=20).parameters["k"] == 20
    with pytest.raises(MetricError):
        rate(HARD, "dependency", runs=3, k=0)


def test_rounds() -> None:
    easy = rate(EASY, "rounds")
    assert easy.level == "Easy" and easy.score == easy.details["rounds"]
    hard = rate(HARD, "rounds")
    assert hard.level_rank >= 1 and hard.score == 1000 * hard.level_rank + hard.details["rounds"]


def test_mdrt() -> None:
    assert rate(EASY, "mdrt").level == "singles"
    r = rate(HARD, "mdrt")
    assert r.level_rank >= 1 and r.seed is None and r.runs is None


# ------------------------------------------------------------------ entry point
@pytest.mark.parametrize("metric", ["hsolve", "oracle", "refutation", "dependency"])
def test_same_seed_same_rating(metric: str) -> None:
    a = rate(HARD, metric, runs=3, seed=11)
    b = rate(HARD, metric, runs=3, seed=11)
    assert a == b
    assert a.version == cs.__version__ and a.metric == metric
    json.dumps(a.to_dict())


def test_fresh_seed_is_recorded_and_reproduces() -> None:
    a = rate(HARD, "oracle", runs=20)
    assert a.seed is not None
    assert rate(HARD, "oracle", runs=20, seed=a.seed) == a


def test_rate_many_matches_rate() -> None:
    lines = [EASY, HARD, SOLVED[:-1] + "."]
    many = rate_many(lines, "oracle", runs=10, seed=5)
    for i, (line, r) in enumerate(zip(lines, many, strict=True)):
        assert r.seed == derive_seed(5, i)
        assert rate(line, "oracle", runs=10, seed=r.seed) == r
    arr = np.stack([cs.parse(x).cells for x in lines])
    assert rate_many(arr, "oracle", runs=10, seed=5) == many
    with pytest.raises(MetricError):
        rate_many(arr[0], "oracle")


@pytest.mark.parametrize("jobs", [1, 2])
def test_rate_many_rates_each_puzzle_in_its_own_shape(jobs: int) -> None:
    """An X-Sudoku, a Windoku and a 9x9 puzzle in one call, here and in workers:
    each rated as ``rate`` rates it alone. (The X and Windoku puzzles have
    several solutions read as plain 9x9, so a rating in the wrong shape could
    not be given at all.)"""
    from csp_sudoku.generators import generate
    from tests.independent import count_solutions

    shaped = [
        next(iter(generate(1, seed=s, geometry=g))).puzzle
        for s, g in ((4, cs.Geometry.x_sudoku()), (5, cs.Geometry.windoku()))
    ]
    assert all(count_solutions(p.cells, limit=2) == 2 for p in shaped)
    puzzles = [*shaped, cs.parse(HARD)]
    many = rate_many(puzzles, "se", seed=3, jobs=jobs)
    assert [r.score for r in many] == [rate(p, "se").score for p in puzzles]


def test_errors_are_sudoku_errors() -> None:
    with pytest.raises(MetricError) as info:
        rate(HARD, "nope")
    assert isinstance(info.value, SudokuError)
    with pytest.raises(NotUniqueError):
        rate("." * 81, "oracle")
    with pytest.raises(MetricError):
        rate(HARD, "oracle", runs=0)
    with pytest.raises(MetricError):
        rate(HARD, "oracle", seed=-1)
    assert set(METRICS) >= {"hsolve", "rounds", "mdrt", "oracle", "refutation", "dependency"}


def test_quantile_levels_are_monotone() -> None:
    ranks = [quantile_level("hsolve", s)[1] for s in (0, 500, 1000, 2000, 5000, 1e9)]
    assert ranks == sorted(ranks) and ranks[0] == 0 and ranks[-1] == 3
    dep = [quantile_level("dependency", s, higher_is_harder=False)[1] for s in (0.5, 3, 10)]
    assert dep == sorted(dep, reverse=True)


def test_combined_fit_recovers_a_linear_model(tmp_path: object) -> None:
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 5, size=(40, 2))
    y = 1.5 + 2.0 * np.log1p(x[:, 0]) - 0.5 * np.log1p(x[:, 1])
    model = fit_features(x, y, ["refutation", "dependency"])
    assert model.intercept == pytest.approx(1.5)
    assert model.coefficients == pytest.approx((2.0, -0.5))
    assert model.predict(x) == pytest.approx(y)
    again = CombinedRater.from_dict(json.loads(json.dumps(model.describe())))
    assert again.predict(x) == pytest.approx(y)
    with pytest.raises(MetricError):
        fit_features(x[:2], y[:2], ["refutation", "dependency"])


def test_shipped_combined_model() -> None:
    r = rate(EASY, "combined", seed=1)
    assert set(r.details["features"]) == {
        "hsolve",
        "oracle",
        "refutation",
        "dependency",
        "rounds",
        "mdrt",
        "se",
    }
    assert 0.0 < r.score < 4.0  # an SE-like scale: this puzzle needs singles only
    model = shipped_rater()
    feats = [r.details["features"][m] for m in model.metrics]
    assert r.score == pytest.approx(model.predict([feats])[0])
    assert (r.level, r.level_rank) == model.level_of(r.score)
    assert r.score < rate(HARD, "combined", seed=1).score


def test_fit_combined_on_puzzles() -> None:
    lines = load_lines("top1465.txt", limit=4, step=101) + load_lines(
        "17_clue.txt", limit=4, step=997
    )
    targets = [5.0] * 4 + [2.0] * 4
    model = fit_combined(
        lines, targets, ["oracle", "hsolve"], runs={"oracle": 10, "hsolve": 3}, seed=1
    )
    assert model.runs == {"oracle": 10, "hsolve": 3}
    r = rate(lines[0], "combined", seed=4, rater=model)
    assert r.details["features"].keys() == {"oracle", "hsolve"}
    assert r.score == pytest.approx(model.predict([list(r.details["features"].values())])[0])


def test_combined_levels_only_on_the_shapes_the_model_was_fitted_on() -> None:
    """The levels are quantiles of the fitted puzzles' predictions: a puzzle of
    another shape gets the score and the level ``unrated`` (the shipped model
    was fitted on 9x9 puzzles; a 4x4 or X-Sudoku one was called 'very hard')."""
    from csp_sudoku.generators import minimal_puzzle

    four = [minimal_puzzle(cs.Geometry.standard(4), seed=s) for s in range(6)]
    x9 = minimal_puzzle(cs.Geometry.x_sudoku(9), seed=1)
    for p in (four[0], x9):
        r = rate(p, "combined", seed=1)
        assert (r.level, r.level_rank) == ("unrated", 0)
        feats = [r.details["features"][m] for m in shipped_rater().metrics]
        assert r.score == pytest.approx(shipped_rater().predict([feats])[0])
    assert rate(EASY, "combined", seed=1).level != "unrated"
    targets = [float(p.clue_count) for p in four]
    model = fit_combined(four, targets, ["rounds", "mdrt"], seed=1)
    assert model.geometries == ("4x4",)
    assert rate(four[0], "combined", seed=1, rater=model).level != "unrated"
    assert rate(EASY, "combined", seed=1, rater=model).level == "unrated"


def test_other_geometries() -> None:
    rng = np.random.default_rng(0)
    for geo, holes in ((cs.Geometry.standard(16), 60), (cs.Geometry.x_sudoku(9), 25)):
        full = cs.solve(cs.Puzzle(np.zeros(geo.ncells, dtype=np.int8), geo))
        assert full is not None
        p = full.without(rng.choice(geo.ncells, size=holes, replace=False).tolist())
        assert cs.is_unique(p)
        one = full.without([0])
        # hsolve: every placement costs at least one check; one hole costs exactly 1
        assert rate(p, "hsolve", runs=2, seed=1).score >= holes
        assert rate(one, "hsolve", runs=2, seed=1).score == pytest.approx(1.0)
        # oracle: all naked singles in one iteration, equation (1) by hand (alpha 0.1)
        o = rate(p, "oracle", runs=2, seed=1)
        if o.details["iterations"] == 1 and o.details["oracle_visits"] == 0:
            n1 = o.details["naked_per_iteration"]
            assert o.score == pytest.approx((1 + math.tanh(0.25 * (0.1 * n1 - 10))) / 2)
        assert rate(one, "oracle", runs=2, seed=1).score < o.score
        # dependency: one hole leaves one option at the one step
        assert rate(one, "dependency", runs=2, seed=1).score == pytest.approx(1.0)
        assert rate(p, "dependency", runs=2, seed=1).score > 1.0
        assert rate(p, "hsolve", runs=2, seed=1).level == "unrated"  # the reference is 9x9


def test_oracle_parameters_must_be_numbers() -> None:
    from csp_sudoku.metrics.base import MetricError
    from csp_sudoku.metrics.oracle import OracleParams

    assert OracleParams(alpha="-0.1").alpha == -0.1  # type: ignore[arg-type]
    with pytest.raises(MetricError, match="alpha must be a number"):
        OracleParams(alpha="x")  # type: ignore[arg-type]
    with pytest.raises(MetricError, match="must be finite"):
        OracleParams(beta=float("nan"))


def test_metric_parameters_from_text_are_typed_or_refused() -> None:
    from csp_sudoku.metrics.base import MetricError

    p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    as_text = cs.rate(p, "dependency", seed=1, k="20")
    assert as_text.score == cs.rate(p, "dependency", seed=1, k=20).score
    off = cs.rate(p, "refutation", seed=1, runs=3, count_assumption="false")
    assert off.score == cs.rate(p, "refutation", seed=1, runs=3, count_assumption=False).score
    for bad in ({"k": "x"}, {"k": "2.5"}, {"count_assumption": "maybe"}, {"inf_score": "high"}):
        metric = "dependency" if "k" in bad else "refutation"
        with pytest.raises(MetricError, match="parameter"):
            cs.rate(p, metric, seed=1, runs=3, **bad)


@pytest.mark.parametrize(
    ("metric", "runs", "lower_is_harder"),
    [
        ("hsolve", 3, False),
        ("rounds", None, False),
        ("mdrt", None, False),
        ("oracle", 10, False),
        ("refutation", 3, False),
        ("dependency", 3, True),
    ],
)
def test_metrics_order_easy_and_hard_sets(
    metric: str, runs: int | None, lower_is_harder: bool
) -> None:
    """Each metric ranks the first 17-clue puzzles (mostly singles) below the forum's hardest."""
    from tests.conftest import sample_lines

    easy = [
        rate(x, metric, runs=runs, seed=i).score
        for i, x in enumerate(sample_lines("17_clue.txt", 5))
    ]
    hard = [
        rate(x, metric, runs=runs, seed=i).score
        for i, x in enumerate(sample_lines("forum_hardest_1106.txt", 5))
    ]
    if lower_is_harder:
        easy, hard = [-x for x in easy], [-x for x in hard]
    assert np.mean(easy) < np.mean(hard)
    assert np.median(easy) < min(hard)


def test_registry_declares_every_metric_once() -> None:
    """One table holds each metric's facts; rate() and the targets read it."""
    from csp_sudoku.generators.targeting import level_order, lower_is_harder
    from csp_sudoku.metrics import METRICS, REGISTRY

    assert tuple(REGISTRY) == METRICS
    for name, spec in REGISTRY.items():
        assert spec.name == name
        levels = spec.levels()
        assert len(levels) >= 4 and len(set(levels)) == len(levels)
        assert level_order(name) == tuple(x.lower() for x in levels)
        assert lower_is_harder(name) == spec.lower_is_harder
    assert [n for n, s in REGISTRY.items() if s.lower_is_harder] == ["dependency"]
    assert {n for n, s in REGISTRY.items() if s.deterministic} == {"rounds", "mdrt", "se"}
    assert level_order("no-such-metric") == () and not lower_is_harder("no-such-metric")
    # a deterministic metric's rating records no seed and no runs; a randomised one both
    easy = sample_lines("17_clue.txt", 1)[0]
    r = rate(easy, "mdrt", seed=3)
    assert r.seed is None and r.runs is None
    r = rate(easy, "oracle", seed=3)
    assert r.seed == 3 and r.runs == REGISTRY["oracle"].runs


def test_a_full_grid_is_rated_as_nothing_to_do() -> None:
    """A full grid has no step. se crashed on it (no hardest step); Sudoku
    Explainer rates it 0.0/0.0/0.0. Dependency, a mean over the steps taken,
    said 0.0 and so 'very hard': now 'unrated'. No other metric calls it hard."""
    solved = cs.solve(EASY)
    assert solved is not None and solved.is_complete
    for m in METRICS:
        r = rate(solved, m, seed=1)
        if m == "dependency":
            assert r.level == "unrated"
        else:
            assert r.level_rank == 0, (m, r.level)
    se = rate(solved, "se")
    assert se.score == 0.0 and se.details["hardest"] is None and se.details["steps"] == 0
    from csp_sudoku.metrics.se import solve_path

    text = solve_path(solved, "se").describe()[-1]
    assert text.startswith("ER 0.0, EP 0.0, ED 0.0")


@pytest.mark.parametrize("metric", ["hsolve", "refutation", "se", "rounds"])
def test_a_wrong_solution_is_refused_not_rated(metric: str) -> None:
    """``solution=`` spares the search for it and is taken on trust by the
    metrics: a wrong one rated HARD as se 2.6, and a partial one crashed
    refutation (ValueError). Now both are refused."""
    other = cs.solve("." * 81)
    assert other is not None
    for bad in (other, cs.parse(HARD)):
        with pytest.raises(MetricError, match="solution"):
            rate(HARD, metric, solution=bad, seed=1, runs=1 if metric != "se" else None)
    right = cs.solve(HARD)
    assert rate(HARD, metric, solution=right, seed=1) == rate(HARD, metric, seed=1)


def test_rate_many_refuses_negative_jobs() -> None:
    lines = load_lines("top1465.txt", limit=2)
    with pytest.raises(MetricError, match="jobs must be a whole number from 0"):
        rate_many(lines, "rounds", jobs=-1)


@pytest.mark.parametrize("metric", ["oracle", "rounds", "hsolve", "refutation", "se"])
def test_an_unknown_parameter_is_named_alike_by_every_metric(metric: str) -> None:
    """oracle said "OracleParams.__init__() got an unexpected keyword argument"."""
    with pytest.raises(MetricError, match=f"unknown parameter\\(s\\) for metric '{metric}': bogus"):
        rate(HARD, metric, seed=1, bogus=1)  # type: ignore[arg-type]
