"""``generate`` on batch executors: ``--jobs``, ``--scheduler``, ``--output --resume``."""

from __future__ import annotations

import importlib.util
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import csp_sudoku as cs
from csp_sudoku.cli import main
from csp_sudoku.generators import BudgetExhaustedError, generate
from tests.test_generators import verify

# a target that some attempts miss, so streams take several attempts
_OPTS: dict[str, Any] = {"level": "hard", "method": "random", "metric": "rounds"}
_ARGS = ["generate", "--seed", "9", "--level", "hard", "--method", "random"]


def _key(g: Any) -> tuple[str, int, dict[str, Any]]:
    d = g.to_dict()
    return d["puzzle"], d["seed"], d["ratings"]


def _strip(text: str) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in json.loads(line).items() if k != "seconds"}
        for line in text.splitlines()
        if line.strip()
    ]


def test_jobs_executor_and_start_give_the_same_puzzles() -> None:
    one = [_key(g) for g in generate(5, seed=9, **_OPTS)]
    assert [_key(g) for g in generate(5, seed=9, jobs=2, **_OPTS)] == one
    with ProcessPoolExecutor(2) as pool:
        assert [_key(g) for g in generate(5, seed=9, executor=pool, **_OPTS)] == one
    # puzzle k depends on the seed and k alone: start=k is the tail of the full run
    assert [_key(g) for g in generate(5, seed=9, start=3, **_OPTS)] == one[3:]
    assert list(generate(5, seed=9, start=5, **_OPTS)) == []
    for p, _, ratings in one:
        verify(cs.parse(p))
        assert ratings["rounds"]["level"] == "Hard"


def test_budget_with_jobs_counts_the_skipped_puzzles() -> None:
    impossible: dict[str, Any] = {"score_range": (2.0, 3.0), "metric": "oracle"}
    with pytest.raises(BudgetExhaustedError, match="generated 1 of 3") as err:
        list(generate(3, seed=1, attempts=1, climb_steps=1, jobs=2, start=1, **impossible))
    assert err.value.found == 1 and err.value.wanted == 3


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs dask")
def test_scheduler_local_gives_the_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*_ARGS, "-n", "4", "--format", "jsonl"]
    assert main(args) == 0
    one = _strip(capsys.readouterr().out)
    assert main([*args, "--scheduler", "local:2"]) == 0
    assert _strip(capsys.readouterr().out) == one
    assert len(one) == 4


@pytest.mark.parametrize("fmt", ["jsonl", "text", "csv"])
def test_resume_after_a_cut_gives_the_full_file(tmp_path: Path, fmt: str) -> None:
    full, part = tmp_path / f"full.{fmt}", tmp_path / f"part.{fmt}"
    args = [*_ARGS, "-n", "5", "--format", fmt]
    assert main([*args, "-o", str(full)]) == 0
    lines = full.read_bytes().splitlines(keepends=True)
    assert len(lines) == 5 + (fmt == "csv")
    part.write_bytes(b"".join(lines[:3]) + lines[3][:40])
    assert main([*args, "-j", "2", "-o", str(part), "--resume"]) == 0
    if fmt == "jsonl":  # the timings differ, everything else is the same
        assert _strip(part.read_text()) == _strip(full.read_text())
    else:

        def rows(path: Path) -> list[dict[str, str]]:
            import csv

            with path.open(newline="", encoding="utf-8") as f:
                return [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(f)]

        assert rows(part) == rows(full)
    # nothing left to do: the file stays as it is
    before = part.read_bytes()
    assert main([*args, "-o", str(part), "--resume"]) == 0
    assert part.read_bytes() == before


def test_resume_refuses_another_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.txt"
    assert main(["generate", "-n", "2", "--seed", "4", "-o", str(out)]) == 0
    before = out.read_bytes()
    assert main(["generate", "-n", "4", "--seed", "5", "-o", str(out), "--resume"]) == 2
    assert "another --seed" in capsys.readouterr().err
    assert main(["generate", "-n", "4", "-o", str(out), "--resume"]) == 2
    assert "needs the --seed" in capsys.readouterr().err
    assert main(["generate", "-n", "1", "--seed", "4", "-o", str(out), "--resume"]) == 2
    assert "more than --count 1" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert main(["generate", "-n", "3", "--seed", "4", "-o", str(out), "--resume"]) == 0
    assert out.read_bytes().startswith(before)
    assert len(out.read_text().splitlines()) == 3


def test_no_two_attempts_of_a_run_share_a_seed() -> None:
    """Puzzle 0's later attempts must not replay other puzzles' first attempts."""
    from csp_sudoku.core.seeds import attempt_seed as derive
    from csp_sudoku.core.seeds import item_seed

    seeds = [derive(item_seed(9, i), j) for i in range(30) for j in range(30)]
    assert len(set(seeds)) == len(seeds)
    puzzles = [
        g.puzzle for g in cs.generate(5, level="Hard", metric="rounds", method="random", seed=9)
    ]
    assert len(set(puzzles)) == 5
