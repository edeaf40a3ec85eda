"""``csp-sudoku rate``: streamed ratings, formats, seeds, bad lines."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from csp_sudoku.cli import main
from csp_sudoku.metrics import derive_seed, rate

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


@pytest.fixture()
def puzzles(tmp_path: Path) -> Path:
    f = tmp_path / "p.txt"
    f.write_text(f"# two puzzles and a bad line\n{EASY}\n{HARD[:10]}x{HARD[11:]}\n\n{HARD}\n")
    return f


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_rate_jsonl(puzzles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        [
            "rate",
            str(puzzles),
            "-m",
            "oracle,hsolve",
            "--format",
            "jsonl",
            "--seed",
            "7",
            "--runs",
            "5",
            "--quiet",
        ],
        capsys,
    )
    assert code == 2  # the bad line
    assert f"{puzzles}:3:11:" in err and "x" in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["line"], r["metric"]) for r in rows] == [
        (2, "oracle"),
        (2, "hsolve"),
        (5, "oracle"),
        (5, "hsolve"),
    ]
    for r in rows:
        assert {"line", "puzzle", "metric", "score", "level", "seed", "runs", "version"} <= set(r)
    # puzzle i of the file gets derive_seed(seed, i): the CLI agrees with the API
    assert rows[2]["seed"] == derive_seed(7, 1)
    assert rows[2]["score"] == rate(HARD, "oracle", runs=5, seed=derive_seed(7, 1)).score


def test_rate_skip_invalid_csv_and_text(puzzles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        [
            "rate",
            str(puzzles),
            "-m",
            "oracle",
            "--format",
            "csv",
            "--seed",
            "1",
            "--runs",
            "3",
            "--skip-invalid",
            "--quiet",
        ],
        capsys,
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["line"] for r in rows] == ["2", "5"]
    assert ":3:" in err
    code, out, _ = run(["rate", EASY, "-m", "mdrt", "--quiet"], capsys)
    assert code == 0 and "singles" in out and out.count("\n") == 1


def test_rate_usage_errors(puzzles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["rate", str(puzzles), "-m", "nope", "--quiet"], capsys)
    assert code == 2 and "unknown metric" in err
    code, _, err = run(["rate", str(puzzles), "-m", "oracle", "--runs", "0", "--quiet"], capsys)
    assert code == 2
    code, _, err = run(
        ["rate", str(puzzles), "-m", "oracle", "--param", "alpha", "--quiet"], capsys
    )
    assert code == 2 and "KEY=VALUE" in err


@pytest.mark.parametrize(
    ("metric", "param", "why"),
    [
        ("oracle", "alpha=abc", "oracle parameter alpha must be a number"),
        ("oracle", "nope=1", "unknown parameter(s) for metric 'oracle': nope"),
        ("hsolve", "max_tier=-1", "max_tier must be 0..5"),
        ("hsolve", "levels=0", "levels must be at least 1"),
        ("se", "rater=x", "unknown rater 'x'"),
        ("se", "runs=2", "runs is not a metric parameter; use --runs"),
    ],
)
def test_a_bad_param_is_one_option_error_before_any_rating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], metric: str, param: str, why: str
) -> None:
    # the same values rate every puzzle: one message, exit 2, nothing rated, and
    # --skip-invalid (which forgives bad lines) does not hide it
    f = tmp_path / "p.txt"
    f.write_text((EASY + "\n") * 3)
    for extra in ([], ["--skip-invalid"]):
        code, out, err = run(["rate", str(f), "-m", metric, "--param", param, *extra], capsys)
        assert code == 2 and out == ""
        assert err.count("csp-sudoku") == 1 and f"--param: {why}" in err
    # good values of the same parameters rate
    code, out, _ = run(["rate", str(f), "-m", "hsolve", "--param", "levels=8", "-q"], capsys)
    assert code == 0 and len(out.splitlines()) == 3


def test_rate_not_unique_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "multi.txt"
    f.write_text("." * 81 + "\n" + EASY + "\n")
    code, out, err = run(["rate", str(f), "-m", "oracle", "--runs", "2", "--quiet"], capsys)
    # not unique is exit 1, as in every command; exit 2 is kept for bad lines
    assert code == 1 and f"{f}:1:" in err and "solution" in err
    assert len(out.splitlines()) == 1
    code, _, err = run(["rate", str(f), "-m", "oracle", "--runs", "2"], capsys)
    assert code == 1 and "1 puzzle rated, 1 not unique, 0 bad" in err
    f.write_text("." * 81 + "\n" + "x" * 81 + "\n" + EASY + "\n")
    code, _, err = run(["rate", str(f), "-m", "oracle", "--runs", "2"], capsys)
    assert code == 2 and "1 puzzle rated, 1 not unique, 1 bad" in err
    assert run(["rate", str(f), "-m", "oracle", "--runs", "2", "--skip-invalid"], capsys)[0] == 1


def test_rate_jobs_same_as_serial(puzzles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "rate",
        str(puzzles),
        "-m",
        "oracle",
        "--format",
        "jsonl",
        "--seed",
        "3",
        "--runs",
        "4",
        "--skip-invalid",
        "--quiet",
    ]
    _, serial, _ = run(args, capsys)
    _, parallel, _ = run([*args, "--jobs", "2"], capsys)
    assert serial == parallel
