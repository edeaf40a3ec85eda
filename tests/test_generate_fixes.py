"""``generate`` fixes: resume checks, reproducible ratings, targets no puzzle can
meet, options that did nothing, error lines, the help text.

Each test failed on the code before its fix (a run that searched for ever is
given a short --budget-seconds here, so that it ends with exit 1 there).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.core.errors import ArgumentError, GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators import generate, generate_quotas
from tests.helpers import run_cli

FOUR = Geometry.standard(4)


def _one_line_error(code: int, err: str, *parts: str) -> None:
    """Exit 2 and one ``csp-sudoku: error: ...`` line holding every one of ``parts``."""
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("csp-sudoku: error: "), err
    for part in parts:
        assert part in lines[0], err


# ----------------------------------------------------------------- 1. resume checks
def _cut(src: Path, dst: Path, rows: int, header: int = 0) -> None:
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    dst.write_text("".join(lines[: header + rows]), encoding="utf-8")


#: (first run's options, the resumed run's, what the refusal says), by name.
_OTHER_RUNS = {
    # another level (the seeds of puzzle 1's stream are the same for every target)
    "level": (["--level", "easy"], ["--level", "hard"], "is not on this run's target"),
    # no target, then one: the rows are unrated
    "target-added": ([], ["--metric", "rounds", "--level", "hard"], "it has no rounds rating"),
    # a target, then none: the rows are rated (random: auto's climbs are refused so)
    "target-dropped": (
        ["--method", "random", "--level", "easy"],
        ["--method", "random"],
        "rated with rounds",
    ),
    # --rate oracle, then not; then the other way round
    "rate-dropped": (["--rate", "oracle"], [], "it is rated with oracle"),
    "rate-added": ([], ["--rate", "oracle"], "it has no oracle rating"),
    # another method than the one --method auto runs for the target (a text row does
    # not say its method: JSON Lines and CSV only)
    "auto": (["--method", "rg1"], [], "the earlier run used method rg1, this one auto"),
}


@pytest.mark.parametrize(
    ("fmt", "first", "again", "why"),
    [
        pytest.param(fmt, *case, id=f"{name}-{fmt}")
        for name, case in _OTHER_RUNS.items()
        for fmt in ("text", "jsonl", "csv")
        if not (fmt == "text" and name == "auto")
    ],
)
def test_resume_refuses_rows_of_another_target_rating_or_method(
    tmp_path: Path, fmt: str, first: list[str], again: list[str], why: str
) -> None:
    out = tmp_path / f"out.{fmt}"
    base = ["generate", "-q", "--seed", "3", "--format", fmt, "-o", str(out)]
    code, _, err = run_cli([*base, "-n", "2", *first])
    assert code == 0, err
    header = 1 if fmt == "csv" else 0
    _cut(out, out, 1, header)
    kept = out.read_bytes()
    code, _, err = run_cli([*base, "-n", "3", *again, "--resume"])
    _one_line_error(code, err, f"{out}:{1 + header}: ", why)
    assert out.read_bytes() == kept


def test_resume_refuses_rows_above_max_clues(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    base = ["generate", "-q", "--seed", "3", "-o", str(out)]
    assert run_cli([*base, "-n", "1"])[0] == 0
    clues = int(out.read_text().split("\t")[1])
    code, _, err = run_cli([*base, "-n", "2", "--max-clues", str(clues - 1), "--resume"])
    _one_line_error(code, err, f"{out}:1: ", f"above --max-clues {clues - 1}")


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_resume_with_the_same_target_and_ratings_still_finishes_the_run(
    tmp_path: Path, fmt: str
) -> None:
    """The new checks take a run's own rows (a text row's score is in tenths)."""
    argv = ["generate", "-q", "--seed", "5", "-n", "3", "--format", fmt]
    argv += ["--metric", "se", "--score-min", "2", "--score-max", "4", "--rate", "rounds"]
    full, part = tmp_path / f"full.{fmt}", tmp_path / f"part.{fmt}"
    assert run_cli([*argv, "-o", str(full)])[0] == 0
    _cut(full, part, 1, 1 if fmt == "csv" else 0)
    code, _, err = run_cli([*argv, "-o", str(part), "--resume"])
    assert code == 0, err

    def puzzles(path: Path) -> list[str]:
        lines = path.read_text().splitlines()
        if fmt == "jsonl":
            return [json.loads(line)["puzzle"] for line in lines]
        return [line.split("\t" if fmt == "text" else ",")[0] for line in lines]

    assert len(puzzles(full)) == 3 + (fmt == "csv")
    assert puzzles(part) == puzzles(full)


# ----------------------------------------------------- 2. ratings that rate repeats
def test_a_row_says_the_seed_that_rate_reproduces_its_score_with(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    argv = ["generate", "-n", "1", "--seed", "3", "-q", "--format", "jsonl", "-o", str(out)]
    code, _, err = run_cli([*argv, "--rate", "oracle,hsolve,rounds"])
    assert code == 0, err
    row = json.loads(out.read_text())
    ratings = row["ratings"]
    assert "seed" not in ratings["rounds"]  # deterministic: no seed
    for metric in ("oracle", "hsolve"):
        r = ratings[metric]
        assert isinstance(r["seed"], int) and "runs" not in r  # the metric's default runs
        argv = ["rate", row["puzzle"], "--metric", metric, "--seed", str(r["seed"])]
        code, rated, err = run_cli([*argv, "--format", "jsonl"])
        assert code == 0, err
        assert json.loads(rated)["score"] == r["score"]


def test_a_rating_of_other_runs_says_them() -> None:
    import dataclasses

    g = next(iter(generate(1, seed=3, rate_with=("oracle",))))
    again = cs.rate(g.puzzle, "oracle", runs=7, seed=11)
    row = dataclasses.replace(g, ratings={"oracle": again}).to_dict()["ratings"]["oracle"]
    assert (row["seed"], row["runs"]) == (11, 7)
    assert cs.rate(g.puzzle, "oracle", runs=row["runs"], seed=row["seed"]).score == row["score"]


# ------------------------------------------------- 3. targets no puzzle can meet
@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--size", "4", "--level", "hard"], "none can be level hard"),
        (["--size", "4", "--level", "medium"], "none can be level medium"),
        (["--size", "4", "--level", "extreme", "--metric", "se"], "none can be level extreme"),
        (["--size", "4", "--level", "easy=1", "--level", "fiendish=1"], "level fiendish"),
        (["--level", "easy", "--score-min", "3000", "--metric", "rounds"], "easy [0, 810]"),
        (["--metric", "rounds", "--score-min", "5000"], "no rounds score"),
        (["--metric", "oracle", "--level", "cinch", "--score-min", "0.5"], "cinch"),
        (["--size", "6", "--max-clues", "0"], "below 5"),
        (["--variant", "x", "--max-clues", "7"], "below 8"),
    ],
    ids=["4x4-hard", "4x4-medium", "4x4-se", "4x4-quota", "band", "range", "oracle", "6x6", "x"],
)
def test_targets_no_puzzle_can_meet_are_refused_up_front(argv: list[str], why: str) -> None:
    code, out, err = run_cli(["generate", "--seed", "1", "-q", "--budget-seconds", "2", *argv])
    _one_line_error(code, err, why)
    assert out == ""


def test_a_jigsaw_max_clues_below_its_floor_is_refused(tmp_path: Path) -> None:
    labels = [(r // 3) * 3 + ((c + r % 3) % 9) // 3 for r in range(9) for c in range(9)]
    regions = tmp_path / "regions.txt"
    regions.write_text("\n".join("".join(map(str, labels[i : i + 9])) for i in range(0, 81, 9)))
    code, _, err = run_cli(
        ["generate", "--jigsaw", str(regions), "--max-clues", "5", "--budget-seconds", "2", "-q"]
    )
    _one_line_error(code, err, "below 8")


def test_the_clue_floor_is_one_less_than_the_size_on_every_shape() -> None:
    assert Geometry.standard(9).fewest_clues == 17 and FOUR.fewest_clues == 4  # proved
    assert Geometry.standard(6).fewest_clues == 5
    assert Geometry.standard(16).fewest_clues == 15
    assert Geometry.x_sudoku(9).fewest_clues == 8 and Geometry.windoku().fewest_clues == 8


def test_the_api_refuses_them_before_any_puzzle() -> None:
    with pytest.raises(GenerationError, match="none can be level hard"):
        next(generate(1, seed=1, geometry=FOUR, level="hard", budget_seconds=2))
    with pytest.raises(GenerationError, match="no rounds score"):
        next(generate(1, seed=1, level="easy", score_range=(3000, 4000), budget_seconds=2))
    quotas = generate_quotas({"easy": 1, "hard": 1}, seed=1, geometry=FOUR, budget_seconds=2)
    with pytest.raises(GenerationError, match="none can be level hard"):
        next(quotas)  # the easy puzzle came first, then the search for a hard one


def _four_by_four_grids() -> np.ndarray:
    grids = []
    for rows in itertools.product(itertools.permutations(range(1, 5)), repeat=4):
        a = np.array(rows)
        if all(len(set(a[:, c])) == 4 for c in range(4)) and all(
            len(set(a[r : r + 2, c : c + 2].ravel())) == 4 for r in (0, 2) for c in (0, 2)
        ):
            grids.append(a.ravel())
    return np.array(grids)


def test_every_minimal_4x4_puzzle_is_solved_by_singles() -> None:
    """What ``top_level`` claims (rounds Easy, MDRT singles, se medium at most, on the
    standard 4x4): every minimal unique puzzle of the grids with first row 1234
    (every grid, up to a relabelling of the digits) is solved by singles; more
    clues keep it so."""
    from csp_sudoku.metrics.mdrt import mdrt
    from csp_sudoku.metrics.rounds import rounds

    grids = _four_by_four_grids()
    assert len(grids) == 288
    bits = 1 << np.arange(16)
    masks = np.arange(1 << 16)
    minimal = 0
    for g in grids[(grids[:, :4] == [1, 2, 3, 4]).all(axis=1)]:
        unique = np.ones(1 << 16, bool)
        for h in grids:
            if (h != g).any():
                unique &= (masks & int((bits * (h != g)).sum())) != 0
        for m in np.flatnonzero(unique).tolist():
            if any(unique[m & ~(1 << i)] for i in range(16) if m >> i & 1):
                continue  # not minimal
            minimal += 1
            clues = np.where((bits & m) != 0, g, 0).astype(np.int8)
            puzzle = cs.Puzzle(clues, FOUR)
            assert rounds(puzzle).level == "Easy" and mdrt(puzzle)[0] == 0, clues
            assert cs.rate(puzzle, "se").score <= 2.3, clues  # singles: ER 1.2 to 2.3
    assert minimal == 3568


@pytest.mark.parametrize(
    "metric", ["rounds", "mdrt", "oracle", "se", "hsolve", "refutation", "dependency", "combined"]
)
def test_every_rating_is_in_its_levels_band(metric: str) -> None:
    from csp_sudoku.generators.targeting import level_band
    from tests.conftest import load_lines

    puzzles = load_lines("top1465.txt", limit=4, step=300)
    puzzles += [g.puzzle.to_line() for g in generate(4, seed=4)]
    for p in puzzles:
        r = cs.rate(p, metric, seed=1)  # type: ignore[arg-type]
        band = level_band(metric, r.level.lower(), Geometry.standard(9))
        assert band is not None and band[0] <= r.score <= band[1], (p, r.level, r.score, band)


# ------------------------------------------------ 4. options that did nothing
@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--report-removable"], "--report-removable"),
        (["--strict-minimal"], "--strict-minimal"),
    ],
)
def test_options_that_would_do_nothing_are_refused(argv: list[str], why: str) -> None:
    code, out, err = run_cli(["generate", "-n", "1", "--size", "4", "--seed", "1", "-q", *argv])
    _one_line_error(code, err, why)
    assert out == ""


def test_an_avoid_file_must_be_of_the_runs_shape(tmp_path: Path) -> None:
    base = ["generate", "-n", "1", "--seed", "1", "-q"]
    code, four, err = run_cli([*base, "--size", "4"])
    assert code == 0, err
    code, nine, err = run_cli(base)
    assert code == 0, err
    av4, av9 = tmp_path / "av4.txt", tmp_path / "av9.txt"
    av4.write_text(four)
    av9.write_text(nine)
    code, _, err = run_cli([*base, "--size", "4", "--avoid", str(av9)])
    _one_line_error(code, err, f"--avoid {av9}:1:", "4x4")
    code, _, err = run_cli([*base, "--avoid", str(av4)])
    _one_line_error(code, err, f"--avoid {av4}:1:", "only 9x9 puzzles")
    # a file of the run's shape is taken, and avoided
    code, other, err = run_cli([*base, "--size", "4", "--avoid", str(av4)])
    assert code == 0, err
    assert other.split("\t")[0] != four.split("\t")[0]


def test_the_api_avoids_a_file_of_another_shape_too(tmp_path: Path) -> None:
    (g,) = generate(1, seed=1, geometry=FOUR)
    f = tmp_path / "avoid.txt"
    f.write_text(g.puzzle.to_line() + "\n")
    (h,) = generate(1, seed=1, geometry=FOUR, avoid=[str(f)])
    assert h.puzzle.to_line() != g.puzzle.to_line()


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"max_clues": "20"}, "max_clues"),
        ({"max_clues": 20.5}, "max_clues"),
        ({"minimal": "no"}, "minimal"),
        ({"minimal": None}, "minimal"),
        ({"strict_minimal": "yes"}, "strict_minimal"),
        ({"progress": 5}, "progress"),
        ({"start": "1"}, "start"),
    ],
)
def test_generate_names_an_argument_of_the_wrong_kind(options: dict[str, Any], name: str) -> None:
    with pytest.raises(ArgumentError, match=name):
        next(generate(1, seed=1, geometry=FOUR, **options))


@pytest.mark.parametrize(
    ("quotas", "options", "name"),
    [
        ({"easy": 1}, {"start": 1}, "start"),
        ({"easy": 1}, {"level": "hard"}, "level"),
        ({"easy": 1}, {"count": 2}, "count"),
        ({"easy": 1}, {"colour": 2}, "colour"),
        ({"easy": "1"}, {}, "easy"),
        ({1: 1}, {}, "level"),
    ],
)
def test_generate_quotas_names_an_argument_it_cannot_take(
    quotas: Any, options: dict[str, Any], name: str
) -> None:
    with pytest.raises(ArgumentError, match=name):
        next(generate_quotas(quotas, seed=1, geometry=FOUR, **options))


# ------------------------------------------------------------- 5. error lines
@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--level", "hard=x"], "--level 'hard=x'"),
        (["-n", "2", "--level", "easy=1"], "--count 2 and per-level quotas"),
        (["--resume"], "--resume needs --output FILE"),
    ],
)
def test_generate_says_its_errors_as_every_command_does(argv: list[str], why: str) -> None:
    code, _, err = run_cli(["generate", "--seed", "1", "-q", *argv])
    _one_line_error(code, err, why)


# ------------------------------------------------------------- 6. the help text
def test_the_help_says_annealing_depends_on_jobs() -> None:
    code, out, _ = run_cli(["generate", "--help"])
    text = " ".join(out.split())
    assert code == 0
    assert "annealing runs one chain per job, so those puzzles depend on `--seed` and `--jobs`" in (
        text
    )
