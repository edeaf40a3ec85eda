"""Variant generation in worker processes: the same puzzles for every ``jobs``, and it stops when asked.

``jobs`` changes where the attempts run, never what comes out: puzzle ``i`` is
its first attempt on target (seeded ``attempt_seed(item_seed(seed, i), j)``)
whatever the number of workers, so every run below is held against the same
run in one process, puzzle by puzzle, seed by seed, and a budget that runs out
says the same. The puzzles themselves are checked by the tests of the
generators (tests/test_variant_generate*.py); here, that a parallel run makes
those puzzles, and that a Ctrl-C, a SIGTERM or a killed parent ends every
process of the run within a few seconds.
"""

from __future__ import annotations

import json
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles
from csp_sudoku.core.errors import BudgetExhaustedError, GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.variants.generate import (
    VariantGenerated,
    generate_drawn,
    generate_givens,
    generate_killers,
)
from tests.test_stop_when_asked import WITHIN, _alive, _exit, _stop_time
from tests.test_variant_generate import TEMPLATES, cp_count

SIX = Geometry.standard(6)


def made(run: Iterator[VariantGenerated]) -> tuple[list[tuple[int, Any, float | None]], str]:
    """What a run gives: (seed, puzzle, score) of each puzzle, and its budget's message."""
    out: list[tuple[int, Any, float | None]] = []
    try:
        for g in run:
            out.append((g.seed, g.puzzle, None if g.rating is None else g.rating.score))
    except BudgetExhaustedError as err:
        return out, str(err)
    return out, ""


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), level=st.sampled_from(["medium", "hard"]))
def test_killers_for_a_level_are_the_same_for_every_jobs(seed: int, level: str) -> None:
    def run(jobs: int) -> Any:
        return made(generate_killers(3, seed=seed, geometry=SIX, level=level, jobs=jobs))

    one = run(1)
    assert len(one[0]) == 3
    assert run(2) == one


def test_a_budget_of_attempts_runs_out_alike() -> None:
    """Every attempt misses (6x6 killers do not reach expert): the message, the
    puzzles found before and the nearest puzzle met are the same."""

    def run(jobs: int) -> Any:
        return made(
            generate_killers(3, seed=11, geometry=SIX, level="expert", attempts=6, jobs=jobs)
        )

    one = run(1)
    assert "attempts per puzzle ran out" in one[1]
    assert run(2) == one


def test_a_score_range_some_puzzles_miss() -> None:
    def run(jobs: int) -> Any:
        return made(
            generate_killers(5, seed=2, geometry=SIX, score_range=(1.0, 2.0), attempts=3, jobs=jobs)
        )

    assert run(2) == run(1)


def test_givens_and_drawn_are_the_same_for_every_jobs() -> None:
    template = from_fpuzzles(TEMPLATES[0])
    one = made(generate_givens(template, 3, seed=5, jobs=1))
    assert made(generate_givens(template, 3, seed=5, jobs=2)) == one
    assert made(generate_givens(template, 3, seed=5, jobs=0)) == one  # every core
    drawn = made(generate_drawn(4, ["difference", "ratio"], seed=3, geometry=SIX, jobs=1))
    assert made(generate_drawn(4, ["difference", "ratio"], seed=3, geometry=SIX, jobs=2)) == drawn


def test_a_time_budget_of_nothing() -> None:
    with pytest.raises(BudgetExhaustedError, match=r"generated 0 of 2 .* time budget of 0 s"):
        list(generate_killers(2, seed=1, geometry=SIX, level="hard", budget_seconds=0, jobs=2))


@pytest.mark.parametrize("jobs", [-1, 1.5, "2"])
def test_bad_jobs(jobs: Any) -> None:
    with pytest.raises(GenerationError, match="jobs must be a whole number"):
        list(generate_killers(1, seed=1, geometry=SIX, jobs=jobs))


# ---------------------------------------------------------------------- command line
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_cli_jobs_give_the_same_rows(seed: int) -> None:
    import tempfile

    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in ("1", "2"):
            path = Path(tmp) / f"k{jobs}.jsonl"
            args = ["generate", "--killer", "--size", "6", "-n", "3", "--level", "hard"]
            args += [
                "--seed",
                str(seed),
                "--jobs",
                jobs,
                "--format",
                "jsonl",
                "-q",
                "-o",
                str(path),
            ]
            assert main(args) == 0
            rows[jobs] = [json.loads(x) for x in path.read_text().splitlines()]
    assert rows["2"] == rows["1"]
    assert [r["rating"]["level"] for r in rows["1"]] == ["hard"] * 3
    assert all(cp_count(r["fpuzzles"]) == 1 for r in rows["1"])


def test_cli_jobs_and_a_spent_budget(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for jobs in ("1", "2"):
        args = ["generate", "--killer", "--size", "6", "-n", "2", "--level", "expert"]
        code = main([*args, "--attempts", "4", "--seed", "3", "--jobs", jobs])
        out, err = capsys.readouterr()
        assert code == 1
        outs.append((out, err.split(" in ")[0]))  # the run's seconds differ
    assert outs[0] == outs[1]
    assert "budget spent: generated 0 of 2" in outs[0][1]


# ---------------------------------------------------------------------- stopping
def killers(tmp: Path, *more: str) -> list[str]:
    """A run of 9x9 killers at a level most miss: minutes of attempts."""
    return [
        "generate",
        "--killer",
        "-n",
        "50",
        "--level",
        "expert",
        "-q",
        "-o",
        str(tmp / "k"),
        *more,
    ]


@pytest.mark.parametrize(
    ("sig", "group"), [(signal.SIGTERM, False), (signal.SIGINT, True)], ids=["SIGTERM", "ctrl-c"]
)
def test_a_run_with_workers_stops(
    started: list[subprocess.Popen[str]], tmp_path: Path, sig: signal.Signals, group: bool
) -> None:
    argv = killers(tmp_path, "--jobs", "2", "--seed", "1")
    took, proc, tree = _stop_time(started, argv, sig, processes=3, group=group)
    assert took < WITHIN, [p.pid for p in _alive(tree)]
    code, err = _exit(proc)
    assert code == 128 + sig and "Traceback" not in err, err


def test_workers_of_a_killed_parent_stop(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    argv = killers(tmp_path, "--jobs", "2", "--seed", "2")
    took, _, tree = _stop_time(started, argv, signal.SIGKILL, processes=3)
    assert took < WITHIN, [p.pid for p in _alive(tree)]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_ctrl_c_in_one_process_is_an_interruption(
    started: list[subprocess.Popen[str]], tmp_path: Path, seed: int
) -> None:
    """python-sat's own SIGINT handler, jumping out of CaDiCaL, hung the process or
    corrupted its heap (3 runs of 4); now Python takes the signal."""
    argv = killers(tmp_path, "--seed", str(seed))
    took, proc, _ = _stop_time(started, argv, signal.SIGINT, group=True)
    assert took < WITHIN
    code, err = _exit(proc)
    assert code == 130 and err.strip().endswith("csp-sudoku: interrupted"), err
