"""check --output/--resume: an interrupted run keeps its rows and finishes later."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from csp_sudoku.cli import EXIT_INTERRUPTED, main
from tests.conftest import load_lines


def _input(tmp_path: Path) -> Path:
    lines = load_lines("top1465.txt", limit=150) + load_lines("multi_solution_serg.txt", limit=50)
    src = tmp_path / "in.txt"
    src.write_text("# header\n" + "\n".join(lines) + "\n")
    return src


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_resume_after_a_cut_keeps_rows_and_matches_a_full_run(tmp_path: Path, fmt: str) -> None:
    src = _input(tmp_path)
    full = tmp_path / f"full.{fmt}"
    assert (
        main(["check", str(src), "-o", str(full), "--format", fmt, "-q", "--chunk-size", "20"]) == 1
    )
    data = full.read_bytes()
    part = tmp_path / f"part.{fmt}"
    part.write_bytes(data[: len(data) // 2 + 7])  # cut in the middle of a row
    args = ["check", str(src), "-o", str(part), "--format", fmt, "--resume", "-q"]
    assert main(args) == 1  # the summary covers the earlier rows too (multiple puzzles)
    assert part.read_bytes() == data
    assert main(args) == 1  # resuming a finished run changes nothing
    assert part.read_bytes() == data


def test_ctrl_c_keeps_written_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import csp_sudoku.cli.check as check_cli

    src = _input(tmp_path)
    full = tmp_path / "full.txt"
    main(["check", str(src), "-o", str(full), "-q"])
    real = check_cli.iter_chunks  # the main process reads the input in chunks of lines

    def interrupted(*a: Any, **k: Any) -> Iterator[Any]:
        for i, chunk in enumerate(real(*a, **k)):
            if i == 12:  # Ctrl-C while reading line 121
                raise KeyboardInterrupt
            yield chunk

    monkeypatch.setattr(check_cli, "iter_chunks", interrupted)
    out = tmp_path / "out.txt"
    assert main(["check", str(src), "-o", str(out), "-q", "--chunk-size", "10"]) == EXIT_INTERRUPTED
    kept = out.read_text().splitlines()
    assert 0 < len(kept) <= 120
    assert kept == full.read_text().splitlines()[: len(kept)]
    monkeypatch.setattr(check_cli, "iter_chunks", real)
    main(["check", str(src), "-o", str(out), "-q", "--resume"])
    assert out.read_text() == full.read_text()


def test_resume_refuses_another_input_and_needs_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _input(tmp_path)
    other = tmp_path / "other.txt"
    other.write_text("\n".join(load_lines("17_clue.txt", limit=300)) + "\n")
    out = tmp_path / "out.txt"
    main(["check", str(src), "-o", str(out), "-q"])
    assert main(["check", str(other), "-o", str(out), "--resume", "-q"]) == 2
    assert "not this input's output" in capsys.readouterr().err
    assert main(["check", str(src), "--resume"]) == 2


@pytest.mark.parametrize("fmt", ["text", "csv"])
def test_generate_anneal_resume_keeps_rows_and_refuses_another_seed(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An annealing run cut after two rows (the last cut short), resumed: the two rows
    stay, the rest come from new chains, no puzzle twice; another --seed is refused."""
    import csp_sudoku as cs
    from csp_sudoku.generators.novelty import canonical_bytes
    from tests.independent import count_solutions

    argv = ["generate", "-n", "4", "--method", "anneal", "--metric", "se", "--score-min", "3"]
    argv += ["--format", fmt, "-q"]
    full = tmp_path / f"full.{fmt}"
    assert main([*argv, "--seed", "5", "-o", str(full)]) == 0
    lines = full.read_text().splitlines(keepends=True)
    head = 1 if fmt == "csv" else 0
    part = tmp_path / f"part.{fmt}"
    part.write_text("".join(lines[: head + 2]) + lines[head + 2][:30])  # a row cut short
    assert main([*argv, "--seed", "6", "-o", str(part), "--resume"]) == 2
    assert "not the seed of an annealing chain" in capsys.readouterr().err
    assert main([*argv, "--seed", "5", "-o", str(part), "--resume"]) == 0
    got = part.read_text().splitlines(keepends=True)
    assert got[: head + 2] == lines[: head + 2] and len(got) == head + 4

    def puzzle(row: str) -> str:
        return row.split(",")[0] if fmt == "csv" else row.split("\t")[0]

    cells = [cs.parse(puzzle(r)).cells for r in got[head:]]
    assert len({canonical_bytes(c) for c in cells}) == 4
    for c in cells:
        assert count_solutions(c, limit=2) == 1


def test_generate_resume_refuses_quotas(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "q.txt"
    argv = ["generate", "--level", "easy=1", "--level", "hard=1", "--seed", "1", "-o", str(out)]
    assert main([*argv, "--resume", "-q"]) == 2
    assert "--resume does not take per-level quotas" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize(
    ("options", "symmetry", "minimal"),
    [
        (["--symmetry", "rot180"], "rot180", True),
        ([], "none", True),
        (["--not-minimal", "--method", "hsolve"], "none", False),
    ],
    ids=["rot180", "plain", "not-minimal"],
)
def test_every_generate_row_passes_the_resume_check(
    tmp_path: Path, fmt: str, options: list[str], symmetry: str, minimal: bool
) -> None:
    """The rows ``generate`` writes say what their puzzles are: with a symmetry a
    puzzle minimal among symmetric patterns is ``minimal`` false (a clue is removable
    alone). The resume check compared that with the ``--minimal`` option and refused
    every such row ("the earlier run used minimal False, this one True")."""
    import csv
    import json

    from csp_sudoku.cli._resume import generate_row_fault

    out = tmp_path / f"g.{fmt}"
    argv = ["generate", "-n", "4", "--seed", "12", *options, "--format", fmt, "-o", str(out)]
    assert main([*argv, "-q"]) == 0
    text = out.read_text(encoding="utf-8")
    rows = (
        list(csv.DictReader(text.splitlines()))
        if fmt == "csv"
        else [json.loads(line) for line in text.splitlines()]
    )
    assert len(rows) == 4
    for row in rows:
        assert generate_row_fault(row, symmetry=symmetry, minimal=minimal) is None
        other = "mirror" if symmetry != "mirror" else "rot180"
        assert "symmetry" in str(generate_row_fault(row, symmetry=other, minimal=minimal))
    plain = {"symmetry": "none", "minimal": False, "minimal_in_symmetry": None}
    assert "--not-minimal" in str(generate_row_fault(plain, symmetry="none", minimal=True))


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_generate_resumes_a_symmetric_run(tmp_path: Path, fmt: str) -> None:
    """``generate -n 5 --seed 12 --symmetry rot180``, its output cut to two rows, then
    ``--resume``: once refused with exit 2; it writes what the whole run writes."""
    argv = ["generate", "-n", "5", "--seed", "12", "--symmetry", "rot180", "--format", fmt, "-q"]
    full, cut = tmp_path / f"full.{fmt}", tmp_path / f"cut.{fmt}"
    assert main([*argv, "-o", str(full)]) == 0
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    cut.write_text("".join(lines[: 2 + (fmt == "csv")]), encoding="utf-8")
    assert main([*argv, "-o", str(cut), "--resume"]) == 0

    def puzzles(path: Path) -> list[str]:
        import csv
        import json

        text = path.read_text(encoding="utf-8").splitlines()
        rows = csv.DictReader(text) if fmt == "csv" else map(json.loads, text)
        return [row["puzzle"] for row in rows]

    assert puzzles(cut) == puzzles(full)


@pytest.mark.parametrize(
    ("first", "again", "why"),
    [
        (["--size", "4"], [], "its puzzle is no 9x9 puzzle"),
        ([], ["--symmetry", "rot180"], "its clues are not symmetric under rot180"),
        (
            ["--format", "jsonl"],
            ["--format", "jsonl", "--method", "rg1"],
            "the earlier run used method random, this one rg1",
        ),
        (
            ["--killer", "--size", "4", "--format", "jsonl"],
            ["--size", "4", "--format", "jsonl"],
            "not a row of 'generate --format jsonl'",
        ),
    ],
    ids=["size", "symmetry", "method", "variant-rows"],
)
def test_generate_resume_refuses_rows_made_with_other_options(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    first: list[str],
    again: list[str],
    why: str,
) -> None:
    """The seed check alone let a run take up a 4x4 run's rows (appending 9x9 ones), a
    plain run's under --symmetry rot180 or another --method, and a killer run's rows
    ended in an internal error (KeyError 'puzzle')."""
    out = tmp_path / "out"
    base = ["generate", "-q", "--seed", "3", "-o", str(out)]
    assert main([*base, "-n", "2", *first]) == 0
    kept = out.read_bytes()
    capsys.readouterr()
    assert main([*base, "-n", "4", *again, "--resume"]) == 2
    assert f"{out}:1: {why}" in capsys.readouterr().err
    assert out.read_bytes() == kept


@pytest.mark.parametrize(
    ("writer", "resumer", "fmt", "why"),
    [
        ("check", "count", "csv", "not the output of 'count --format csv'"),
        ("check", "solve", "jsonl", "not a row of 'solve --format jsonl' (it has no 'solution')"),
        ("count", "minimize", "csv", "not the output of 'minimize --format csv'"),
        ("solve", "count", "jsonl", "not a row of 'count --format jsonl' (it has no 'count')"),
        ("count", "count", "csv", None),  # its own output: resumed
    ],
)
def test_resume_refuses_another_commands_output(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    writer: str,
    resumer: str,
    fmt: str,
    why: str | None,
) -> None:
    """count --resume appended its rows under check's CSV header (the count in the
    status column): another command's output is refused, nothing appended."""
    src = _input(tmp_path)
    out = tmp_path / f"out.{fmt}"
    assert main([writer, str(src), "--format", fmt, "-o", str(out), "-q"]) in (0, 1)  # 1: multiple
    cut = out.read_bytes()[: len(out.read_bytes()) // 2]
    out.write_bytes(cut)
    capsys.readouterr()
    seed = ["--seed", "1"] if resumer == "minimize" else []  # its resume needs the seed
    code = main([resumer, str(src), "--format", fmt, "-o", str(out), "--resume", "-q", *seed])
    if why is None:
        assert code in (0, 1)
        return
    assert code == 2 and why in capsys.readouterr().err
    assert out.read_bytes() == cut


@pytest.mark.parametrize("command", ["count", "solve", "minimize"])
def test_a_resumed_run_says_the_bad_lines_of_the_part_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A resumed count ended with exit 0 and '0 bad' when the bad lines were in the
    part already done; check and rate said them again. Now all three do too."""
    lines = load_lines("top1465.txt", limit=6)
    src = tmp_path / "in.txt"
    src.write_text("\n".join([lines[0], "12x", *lines[1:]]) + "\n")
    out = tmp_path / "out.jsonl"
    argv = [command, str(src), "--format", "jsonl", "-o", str(out), "--seed", "1"]
    argv = argv if command == "minimize" else argv[:-2]
    assert main(argv) == 2
    full = out.read_bytes()
    capsys.readouterr()
    rows = full.splitlines(keepends=True)
    assert len(rows) == 6
    out.write_bytes(b"".join(rows[:4]))  # the bad line 2 in the part done
    assert main([*argv, "--resume"]) == 2
    err = capsys.readouterr().err
    assert f"{src}:2:" in err and "1 bad" in err
    assert out.read_bytes() == full


def test_an_interrupted_resume_leaves_its_rows_in_the_output(
    tmp_path: Path, started: list[Any]
) -> None:
    """A run over an earlier output is interrupted (its rows in OUT.partial), then its
    resume is interrupted too, having kept none of the rows (``count`` does its last
    entry again): the rows the resume made are in OUT, and nothing says OUT was left
    as it was (the resume had emptied it, and the rows were in OUT.partial)."""
    src = tmp_path / "in.txt"
    src.write_text(load_lines("top1465.txt", limit=1)[0] + "\n" + "." * 81 + "\n")  # then slow
    out = tmp_path / "out.txt"
    partial = tmp_path / "out.txt.partial"
    args = ["count", str(src), "--limit", "1000000000000", "-o", str(out), "-q"]

    def interrupted(args: list[str]) -> str:
        """Run ``csp-sudoku ARGS``, Ctrl-C once it has counted a while (3 CPU-seconds:
        its start and the first puzzle take well under that): its stderr."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "csp_sudoku", *args],
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        started.append(proc)
        limit = time.monotonic() + 120
        while sum(psutil.Process(proc.pid).cpu_times()[:2]) < 3:
            assert time.monotonic() < limit and proc.poll() is None, "the count ended"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == EXIT_INTERRUPTED
        assert proc.stderr is not None
        return proc.stderr.read()

    out.write_text("an earlier output\n")
    interrupted(args)
    assert out.read_text() == "an earlier output\n"  # left as it was: the rows are beside it
    row = partial.read_text()
    assert row.startswith(f"{src}:1\t1\t")
    err = interrupted([*args, "--resume"])
    assert out.read_text() == row and not partial.exists()
    assert "left as it was" not in err
