"""The variant rating: its level is what the explained path needs, and it is monotone in that.

Every path rated here is first held against an independent checker, as
``test_variant_explain.py`` does (every placement and elimination against
every solution: brute force over the 4x4 grids, or CP-SAT judged by
:mod:`tests.independent_variants` on larger grids). The rating is then held
to the path: the level is the latest step class the path used, in the
explainer's order written out here, and the scores order the puzzles as the
documented rule says, read off the path by this file's own code.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main
from csp_sudoku.constraints import VariantPuzzle, from_fpuzzles, to_fpuzzles
from csp_sudoku.core.errors import (
    ArgumentError,
    BudgetExhaustedError,
    GenerationError,
    NotUniqueError,
)
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.seeds import item_seed
from csp_sudoku.metrics.base import Rating
from csp_sudoku.variants import generate as vg
from csp_sudoku.variants.explain import VariantPath, explain
from csp_sudoku.variants.rating import (
    LEVELS,
    METRIC,
    STEP_CLASSES,
    VariantRating,
    level_rank,
    rate_path,
    rate_variant,
)
from tests.test_variant_explain import (
    BROKEN,
    HAND_4X4,
    HEAVY,
    SEVERAL,
    UNIQUE,
    brute_solutions,
    check_path,
    cpsat_solutions,
    random_4x4,
)

#: The explainer's step kinds from first tried to last (docs/variants.md), then the stop.
ORDER = ("single", "constraint", "45 rule", "subset", "refutation", "guess")

#: A 4x4 puzzle that naked and hidden singles solve, with no constraints.
SINGLES_4X4 = [["1", "", "", ""], ["", "", "1", ""], ["", "3", "", ""], ["", "", "", "2"]]


def empty_grid(n: int) -> list[list[dict[str, Any]]]:
    return [[{} for _ in range(n)] for _ in range(n)]


def singles_data() -> dict[str, Any]:
    grid = empty_grid(4)
    for r, row in enumerate(SINGLES_4X4):
        for c, v in enumerate(row):
            if v:
                grid[r][c] = {"value": int(v), "given": True}
    return {"size": 4, "grid": grid}


def needed(path: VariantPath) -> str:
    """The latest class the path used: the stop when it did not finish."""
    if not path.solved:
        return "guess"
    used = {s.kind for s in path.steps}
    return max(used, key=ORDER.index) if used else "single"


def effort(path: VariantPath) -> int:
    """The documented effort of the hardest class, computed here from the path's steps."""
    kind = needed(path)
    if kind == "guess":
        return sum(1 for v in path.values if not v)
    of_kind = [s for s in path.steps if s.kind == kind]
    if kind == "subset":
        return sum(s.size for s in of_kind)
    if kind == "refutation":
        return sum(1 + len(s.chain) for s in of_kind)
    return len(of_kind)


def solutions(data: dict[str, Any]) -> list[tuple[int, ...]]:
    return brute_solutions(data) if data["size"] == 4 else cpsat_solutions(data)


@cache
def pool() -> tuple[tuple[str, VariantPuzzle, VariantPath, VariantRating], ...]:
    """Unique puzzles of every level: hand-made 4x4 ones, the maker's light 9x9 ones,
    and 6x6 killers and drawn thermometers of the generator; each path checked, and
    each puzzle's rating."""
    datas: list[tuple[str, dict[str, Any]]] = [("singles 4x4", singles_data())]
    hand = HAND_4X4["thermo, killer, xv"]  # the unique one
    datas.append(("thermo, killer, xv", {"size": 4, "grid": empty_grid(4), **hand}))
    datas += [(label, d) for label, d in UNIQUE if label.split(":")[0] not in HEAVY]
    six = Geometry.standard(6)
    for seed in range(6):
        datas.append((f"killer 6x6 {seed}", to_fpuzzles(vg.make_killer(seed, geometry=six).puzzle)))
        drawn = vg.make_drawn(seed, ["thermometer"], geometry=six).puzzle
        datas.append((f"thermometers 6x6 {seed}", to_fpuzzles(drawn)))
    out = []
    for label, data in datas:
        sols = solutions(data)
        assert len(sols) == 1, label
        puzzle = from_fpuzzles(data)
        path = explain(puzzle)
        check_path(data, path, sols, complete=True)
        out.append((label, puzzle, path, rate_variant(puzzle)))
    return tuple(out)


def test_the_pool_has_every_level() -> None:
    assert {needed(path) for _, _, path, _ in pool()} == set(ORDER)


def test_the_level_is_what_the_path_needs() -> None:
    assert STEP_CLASSES == ORDER and len(LEVELS) == len(ORDER)
    for label, _, path, r in pool():
        rank = ORDER.index(needed(path))
        assert (r.level_rank, r.level, r.hardest) == (rank, LEVELS[rank], ORDER[rank]), label
        assert rank <= r.score < rank + 1, label
        assert r.effort == effort(path), label
        assert r.steps == len(path.steps) and r.stopped == path.stopped, label
        assert r.to_dict()["details"]["counts"] == {
            k: sum(s.kind == k for s in path.steps) for k in ORDER[:-1]
        }
        assert rate_path(path).score == r.score


def test_a_rating_row_is_a_classic_rating_row() -> None:
    # the variants layer lies below the metrics, so VariantRating.to_dict writes the
    # row of a classic Rating out itself: here the two are held to one shape
    for label, _, _, r in pool():
        row = r.to_dict()
        assert list(row) == [f.name for f in fields(Rating)], label
        assert row["metric"] == METRIC and Rating(**row).to_dict() == row, label


def test_levels_are_monotone_in_what_the_path_needs() -> None:
    rated = [(path, r.score) for _, _, path, r in pool()]
    sizes = {id(path): puzzle.geometry.size for _, puzzle, path, _ in pool()}
    singles = [s for p, s in rated if needed(p) == "single"]
    others = [s for p, s in rated if needed(p) != "single"]
    assert singles and others and max(singles) < min(others)
    refuting = [s for p, s in rated if p.solved and any(x.kind == "refutation" for x in p.steps)]
    not_refuting = [
        s for p, s in rated if p.solved and all(x.kind != "refutation" for x in p.steps)
    ]
    assert refuting and not_refuting and max(not_refuting) < min(refuting)
    guessing = [s for p, s in rated if not p.solved]
    solved = [s for p, s in rated if p.solved]
    assert guessing and max(solved) < min(guessing)
    # within each level and grid size, the score follows the effort
    for rank in range(len(ORDER)):
        for n in set(sizes.values()):
            level = sorted(
                (effort(p), s)
                for p, s in rated
                if ORDER.index(needed(p)) == rank and sizes[id(p)] == n
            )
            assert [s for _, s in level] == sorted(s for _, s in level)


def test_a_weaker_solver_never_rates_a_puzzle_easier() -> None:
    for label, puzzle, path, base in pool():
        for weaker in (rate_variant(puzzle, max_subset=0), rate_variant(puzzle, budget=1)):
            assert weaker.level_rank >= base.level_rank, label
            if needed(path) in ("single", "constraint", "45 rule"):
                assert weaker.score == base.score, label


@pytest.mark.parametrize("kind", ["killercage", "thermometer", "arrow"])
def test_a_puzzle_without_exactly_one_solution_is_not_rated(kind: str) -> None:
    for data in (SEVERAL[kind], BROKEN[kind]):
        with pytest.raises(NotUniqueError):
            rate_variant(from_fpuzzles(data))


def test_the_level_names() -> None:
    assert [level_rank(x.upper()) for x in LEVELS] == list(range(len(LEVELS)))
    with pytest.raises(ArgumentError, match="unknown variant level"):
        level_rank("diabolical")
    with pytest.raises(ArgumentError):
        rate_variant(pool()[0][1], budget=0)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_4x4_puzzles(seed: int) -> None:
    data = random_4x4(seed)
    sols = brute_solutions(data)
    puzzle = from_fpuzzles(data)
    if len(sols) != 1:
        with pytest.raises(NotUniqueError):
            rate_variant(puzzle)
        return
    path = explain(puzzle)
    check_path(data, path, sols, complete=True)
    r = rate_variant(puzzle)
    assert r.level == LEVELS[ORDER.index(needed(path))]
    assert r.score == r.level_rank + effort(path) / (effort(path) + 16)


# ------------------------------------------------------------------ the command line
def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def light(label: str) -> dict[str, Any]:
    return next(d for lb, d in UNIQUE if lb == label)


def test_cli_rates_variant_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = [light("killercage:unique"), light("slowthermometer:unique")]
    bad = {**good[0], "killercage": [{"cells": ["R1C1", "R1C1"], "value": "3"}]}
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(json.dumps(d) for d in (good[0], bad, SEVERAL["arrow"], good[1])) + "\n")
    want = [rate_variant(from_fpuzzles(d)).to_dict() for d in good]
    code, out, err = run_cli(capsys, "rate", str(f), "--format", "jsonl")
    assert code == 2 and "Traceback" not in err
    rows = [json.loads(x) for x in out.splitlines()]
    assert [(r["file"], r["line"]) for r in rows] == [(str(f), 1), (str(f), 4)]
    assert [{k: r[k] for k in want[0]} for r in rows] == want
    assert f"{f}:2: killercage[0]" in err and f"{f}:3: the puzzle has more than one solution" in err
    code, out, err = run_cli(capsys, "rate", str(f), "--skip-invalid", "-q")
    assert code == 1 and err.count("\n") == 2  # still said; the two solutions give 1
    lines = [x.split("\t") for x in out.splitlines()]
    assert [x[:4] for x in lines] == [
        [f"{f}:{k}", "variant", f"{w['score']:.4g}", w["level"]]
        for k, w in zip((1, 4), want, strict=True)
    ]
    code, out, _ = run_cli(capsys, "rate", str(f), "--format", "csv", "--skip-invalid")
    table = list(csv.DictReader(io.StringIO(out)))
    assert [float(r["score"]) for r in table] == [w["score"] for w in want]
    assert [json.loads(r["variant.counts"]) for r in table] == [
        w["details"]["counts"] for w in want
    ]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(good[0]))
    code, out, _ = run_cli(capsys, "rate", str(one), "--format", "jsonl", "--param", "max_subset=0")
    assert code == 0 and json.loads(out)["parameters"] == {"max_subset": 0, "budget": 5000}


@pytest.mark.parametrize(
    "extra",
    [
        ["--metric", "hsolve"],
        ["--runs", "3"],
        ["--param", "alpha=1"],
        ["--param", "budget=x"],
        ["--param", "budget=0"],
        ["--size", "9"],
        ["--resume"],
    ],
)
def test_cli_refuses_the_classic_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(light("killercage:unique")))
    code, out, err = run_cli(capsys, "rate", str(one), *extra)
    assert code == 2 and out == "" and "Traceback" not in err and err.strip()


def test_cli_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    datas = [light(x) for x in ("killercage:unique", "slowthermometer:unique", "odd:unique")]
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(json.dumps(d) for d in datas) + "\n")
    out = tmp_path / "rows.jsonl"
    assert run_cli(capsys, "rate", str(f), "--format", "jsonl", "-o", str(out))[0] == 0
    whole = out.read_text().splitlines()
    out.write_text("\n".join(whole[:2]) + "\n" + whole[2][:20])  # cut in the third row
    assert run_cli(capsys, "rate", str(f), "--format", "jsonl", "-o", str(out), "--resume")[0] == 0
    assert out.read_text().splitlines() == whole


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4))
def test_cli_rows_match_the_rating(seeds: list[int]) -> None:
    datas = [random_4x4(s) for s in seeds]
    unique = [len(brute_solutions(d)) == 1 for d in datas]
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "p.jsonl"
        f.write_text("\n".join(json.dumps(d) for d in datas) + "\n")
        out = Path(tmp) / "rows.jsonl"
        code = main(["rate", str(f), "--format", "jsonl", "-q", "-o", str(out)])
        rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert code == (0 if all(unique) else 1)
    assert [r["line"] for r in rows] == [k + 1 for k, u in enumerate(unique) if u]
    for r in rows:
        assert r["score"] == rate_variant(from_fpuzzles(datas[r["line"] - 1])).score


# ------------------------------------------------------------------ difficulty targets
def checked_rating(puzzle: VariantPuzzle) -> str:
    """The level of a generated puzzle from its path, the path first held against CP-SAT."""
    data = to_fpuzzles(puzzle)
    sols = cpsat_solutions(data)
    assert len(sols) == 1
    path = explain(puzzle)
    check_path(data, path, sols, complete=True)
    return LEVELS[ORDER.index(needed(path))]


SIX = Geometry.standard(6)


@pytest.mark.parametrize(
    ("what", "level"),
    [("killer", "hard"), ("killer", "expert"), ("drawn", "fiendish"), ("givens", "medium")],
)
def test_generators_meet_their_targets(what: str, level: str) -> None:
    template = from_fpuzzles(
        {"size": 6, "grid": empty_grid(6), "thermometer": [{"lines": [["R1C1", "R1C2", "R1C3"]]}]}
    )
    makers = {
        "killer": (lambda **kw: vg.generate_killers(2, geometry=SIX, **kw), make_killer_6),
        "drawn": (
            lambda **kw: vg.generate_drawn(2, ["thermometer"], geometry=SIX, **kw),
            make_drawn_6,
        ),
        "givens": (
            lambda **kw: vg.generate_givens(template, 2, **kw),
            lambda s: vg.make_givens(template, s),
        ),
    }
    generate, make = makers[what]
    got = list(generate(seed=11, level=level, attempts=60))
    assert len(got) == 2
    for g in got:
        assert g.rating is not None and g.rating.level == level
        assert checked_rating(g.puzzle) == level
        assert rate_variant(g.puzzle).score == g.rating.score
        assert make(g.seed).puzzle == g.puzzle  # the seed it carries makes it again
    assert got[0].seed != got[1].seed


def make_killer_6(seed: int) -> vg.VariantGenerated:
    return vg.make_killer(seed, geometry=SIX)


def make_drawn_6(seed: int) -> vg.VariantGenerated:
    return vg.make_drawn(seed, ["thermometer"], geometry=SIX)


def test_no_target_keeps_the_untargeted_puzzles() -> None:
    got = list(vg.generate_killers(3, seed=5, geometry=SIX))
    assert [g.seed for g in got] == [item_seed(5, i) for i in range(3)]
    assert all(g.rating is None for g in got)


def test_a_score_range_within_a_level() -> None:
    got = list(vg.generate_killers(2, seed=2, geometry=SIX, score_range=(2.0, 2.1), attempts=80))
    for g in got:
        assert g.rating is not None and 2.0 <= g.rating.score <= 2.1 and g.rating.level == "hard"
        assert checked_rating(g.puzzle) == "hard"


def test_the_budget_runs_out_with_the_nearest_puzzle_met() -> None:
    found = []
    with pytest.raises(BudgetExhaustedError) as info:
        for g in vg.generate_killers(3, seed=1, geometry=SIX, level="guess", attempts=3):
            found.append(g)
    err = info.value
    assert (err.found, err.wanted) == (len(found), 3)
    text = str(err)
    assert "level guess" in text and "3 attempts per puzzle" in text
    m = re.search(r"the (\w+) puzzle met rated ([\d.]+), level (\w+).*seed (\d+)\)", text)
    assert m is not None
    again = rate_variant(make_killer_6(int(m.group(4))).puzzle)
    assert f"{again.score:.4g}" == m.group(2) and again.level == m.group(3)
    assert m.group(1) == "hardest" and again.level_rank < LEVELS.index("guess")
    with pytest.raises(BudgetExhaustedError, match="time budget of 0 s"):
        next(vg.generate_killers(1, seed=1, geometry=SIX, level="hard", budget_seconds=0))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": "diabolical"}, "unknown variant level"),
        ({"level": "easy", "score_range": (3.0, 4.0)}, "no puzzle can rate"),
        ({"score_range": (2.0, 1.0)}, "the low end is above"),
        ({"level": "medium", "score_range": (2.0, 2.0)}, "no puzzle can rate"),
        ({"level": "hard", "attempts": 0}, "attempts must be"),
        ({"level": "hard", "budget_seconds": -1.0}, "budget_seconds must be"),
    ],
)
def test_bad_targets(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(GenerationError, match=message):
        next(vg.generate_killers(1, seed=1, geometry=SIX, **kwargs))


def test_unknown_target_option() -> None:
    """A keyword that no generator takes is refused, not silently dropped."""
    with pytest.raises(TypeError, match="'levels'"):
        next(vg.generate_killers(1, seed=1, geometry=SIX, levels="hard"))  # type: ignore[call-arg]


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["easy", "medium", "expert"]))
def test_targeted_4x4_givens(seed: int, level: str) -> None:
    template = from_fpuzzles({"size": 4, "grid": empty_grid(4), **HAND_4X4["thermo, killer, xv"]})
    template = VariantPuzzle(template.puzzle, template.constraints[:2])
    got: list[vg.VariantGenerated] = []
    try:
        for g in vg.generate_givens(template, 2, seed=seed, level=level, attempts=25):
            got.append(g)
    except BudgetExhaustedError as err:
        assert err.found == len(got)
    for g in got:
        data = to_fpuzzles(g.puzzle)
        sols = brute_solutions(data)
        assert len(sols) == 1
        path = explain(g.puzzle)
        check_path(data, path, sols, complete=True)
        assert LEVELS[ORDER.index(needed(path))] == level
        assert vg.make_givens(template, g.seed).puzzle == g.puzzle


def test_cli_generate_at_a_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "generate", "--killer", "--size", "6", "-n", "2", "--seed", "4",
        "--level", "hard,expert", "--attempts", "60", "--format", "jsonl",
    )  # fmt: skip
    assert code == 0, err
    rows = [json.loads(x) for x in out.splitlines()]
    assert len(rows) == 2
    for row in rows:
        level = checked_rating(from_fpuzzles(row["fpuzzles"]))
        assert row["rating"]["level"] == level and level in ("hard", "expert")
    code, out, err = run_cli(
        capsys, "generate", "--killer", "--size", "6", "-n", "2", "--seed", "4",
        "--level", "guess", "--attempts", "2",
    )  # fmt: skip
    assert code == 1 and "budget spent: generated" in err and "puzzle met rated" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--level", "hard=2"], "per-level quotas are for classic puzzles"),
        (["--level", "nope"], "unknown variant level"),
        (["--score-min", "4", "--score-max", "3"], "the low end is above"),
        (["--budget-seconds", "-1"], "--budget-seconds: must be a number of seconds above 0"),
        (["--budget-seconds", "0"], "--budget-seconds: must be a number of seconds above 0"),
    ],
)
def test_cli_generate_bad_targets(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    code, out, err = run_cli(capsys, "generate", "--killer", "--size", "6", *extra)
    assert code == 2 and out == "" and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--drawn", "", "--size", "4"], "--drawn '': choose kinds from"),
        (["--constraints", ""], "--constraints takes a file of variant puzzles"),
        (["--budget-seconds", "0"], "--budget-seconds: must be a number of seconds above 0"),
    ],
)
def test_cli_generate_empty_or_zero_values_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """An empty --drawn or --constraints made a classic puzzle in silence, and a
    budget of 0 seconds ran out before any work (exit 1) where count refuses it."""
    code, out, err = run_cli(capsys, "generate", "-n", "1", "--seed", "1", *args)
    assert code == 2 and out == "" and message in err and "Traceback" not in err


@pytest.mark.parametrize("content", ["", "   \n\n"])
def test_cli_generate_from_an_empty_template_file_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text(content, encoding="utf-8")
    code, out, err = run_cli(capsys, "generate", "--constraints", str(empty), "-n", "2")
    assert code == 2 and out == ""
    assert f"{empty}: no puzzles found in the input" in err
