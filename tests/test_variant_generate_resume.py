"""``generate --killer|--drawn|--constraints --output FILE --resume``: an interrupted
variant run goes on where it stopped, with the puzzles it would have made.

Each test makes a run's output whole, cuts it to its first rows (and half a
row, as a kill leaves it), resumes, and holds the result against the whole
output byte for byte: the puzzles kept, and those made after, are the
uninterrupted run's. A file that is not this run's output is refused (exit 2)
before anything is made.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main

TEMPLATE = {
    "size": 6,
    "grid": [[{} for _ in range(6)] for _ in range(6)],
    "thermometer": [{"lines": [["R1C1", "R1C2", "R1C3"]]}],
    "antiking": True,
}


def run(*args: str) -> tuple[int, str]:
    """``csp-sudoku ARGS`` in this process: exit code and stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(list(args))
    return code, err.getvalue()


def mode_args(mode: str, tmp_path: Path) -> list[str]:
    """The options of one kind of variant run (6x6, small and quick)."""
    if mode == "killer":
        return ["--killer", "--size", "6"]
    if mode == "killer-hard":
        return ["--killer", "--size", "6", "--level", "hard", "--symmetry", "rot180"]
    if mode == "drawn":
        return ["--drawn", "thermometer,xv", "--size", "6"]
    bad = {"size": 6, "grid": [], "nope": 1}  # a template that cannot be read, reported again
    (tmp_path / "t.jsonl").write_text(
        f"{json.dumps(TEMPLATE)}\n{json.dumps(bad)}\n{json.dumps(TEMPLATE)}\n"
    )
    return ["--constraints", str(tmp_path / "t.jsonl")]


def killer_run(count: int, seed: int) -> list[str]:
    """The arguments of a quiet JSON Lines run of ``count`` 6x6 killers under ``seed``."""
    return f"generate --killer --size 6 -n {count} --seed {seed} --format jsonl -q".split()


def cut(text: str, fmt: str, keep: int, half: bool) -> str:
    """The first ``keep`` rows of an output (and its CSV header), and half the next."""
    lines = text.splitlines(keepends=True)
    head = 1 if fmt == "csv" else 0
    out = "".join(lines[: head + keep])
    if half and head + keep < len(lines):
        out += lines[head + keep][: len(lines[head + keep]) // 2]
    return out


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("mode", ["killer", "killer-hard", "drawn", "constraints"])
def test_a_resumed_run_writes_what_the_whole_run_wrote(tmp_path: Path, mode: str, fmt: str) -> None:
    base = ["generate", *mode_args(mode, tmp_path), "-n", "3", "--seed", "5", "--format", fmt]
    whole = tmp_path / f"whole.{fmt}"
    code, err = run(*base, "-o", str(whole), "-q")
    assert code == 2 if mode == "constraints" else code == 0, err
    text = whole.read_text()
    rows = len(text.splitlines()) - (fmt == "csv")
    assert rows == (6 if mode == "constraints" else 3)
    part = tmp_path / f"part.{fmt}"
    part.write_text(cut(text, fmt, 2, half=True))
    code_again, err = run(*base, "-o", str(part), "--resume")
    assert code_again == code and "2 from the earlier run kept" in err
    assert part.read_text() == text
    if mode == "constraints":  # the bad template is reported by the resumed run too
        assert f"{tmp_path / 't.jsonl'}:2" in err


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, 4), st.booleans(), st.sampled_from([1, 2]))
def test_any_cut_of_a_killer_run_resumes_to_the_whole_run(
    tmp_path: Path, keep: int, half: bool, jobs: int
) -> None:
    base = killer_run(4, 8)
    whole = tmp_path / "whole.jsonl"
    if not whole.exists():
        assert run(*base, "-o", str(whole))[0] == 0
    part = tmp_path / "part.jsonl"
    part.write_text(cut(whole.read_text(), "jsonl", keep, half))
    assert run(*base, "-o", str(part), "--resume", "--jobs", str(jobs))[0] == 0
    assert part.read_text() == whole.read_text()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (["--seed", "6"], "is not a seed of puzzle 1 of killer under --seed 6"),
        (["--symmetry", "rot180"], "the earlier run used symmetry none, this one rot180"),
        (["--size", "4"], "a 6x6 puzzle, this run makes 4x4"),
        (["-n", "1"], "more than --count 1 puzzles of killer"),
        (["--level", "hard"], "not on this run's target"),
        (["--format", "text"], "--resume needs --format jsonl or csv"),
        (["--format", "csv"], "not the output of this version's 'generate --format csv'"),
    ],
)
def test_a_file_of_another_run_is_refused_and_left_as_it_was(
    tmp_path: Path, change: list[str], said: str
) -> None:
    base = killer_run(2, 5)
    out = tmp_path / "k.jsonl"
    assert run(*base, "-o", str(out))[0] == 0
    before = out.read_bytes()
    code, err = run(*base, *change, "-o", str(out), "--resume")
    assert code == 2 and said in err and "Traceback" not in err
    assert out.read_bytes() == before


def test_resume_needs_the_seed_and_an_output(tmp_path: Path) -> None:
    base = ["generate", "--killer", "--size", "6", "-n", "2", "--format", "jsonl"]
    code, err = run(*base, "-o", str(tmp_path / "k.jsonl"), "--resume")
    assert code == 2 and "--resume needs the --seed of the interrupted run" in err
    code, err = run(*base, "--seed", "1", "--resume")
    assert code == 2 and "--resume needs --output FILE" in err
