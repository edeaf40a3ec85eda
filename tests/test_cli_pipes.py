"""Commands read each other's output: real pipes between ``csp-sudoku`` processes.

Each test starts the commands as separate processes (``python -m csp_sudoku``,
no shell), the standard output of one feeding the standard input (``-``) of
the next, as a user's shell pipeline does.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from csp_sudoku.core.io import parse_line
from csp_sudoku.tools.bank import PuzzleBank
from tests.conftest import load_lines
from tests.helpers import run_module
from tests.independent import check_solution

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def pipeline(*commands: list[str], cwd: Path, stdin: bytes = b"") -> list[tuple[int, str]]:
    """Run ``csp-sudoku`` commands joined by pipes.

    Returns ``(exit code, stderr)`` of each command, then ``(0, stdout)`` of the
    last. Standard error goes to files, so no pipe fills up while another is read.
    """
    procs: list[subprocess.Popen[bytes]] = []
    errs = []
    prev: subprocess.Popen[bytes] | None = None
    for k, args in enumerate(commands):
        err = open(cwd / f"stderr-{k}.txt", "wb")  # noqa: SIM115 - closed below
        errs.append(err)
        p = subprocess.Popen(
            [sys.executable, "-m", "csp_sudoku", *args],
            stdin=prev.stdout if prev is not None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            cwd=cwd,
        )
        if prev is not None and prev.stdout is not None:
            prev.stdout.close()  # the next process owns the read end now
        procs.append(p)
        prev = p
    first = procs[0]
    assert first.stdin is not None
    first.stdin.write(stdin)
    first.stdin.close()
    out, _ = procs[-1].communicate(timeout=300)
    results = []
    for k, p in enumerate(procs):
        code = p.wait(timeout=300)
        errs[k].close()
        text = (cwd / f"stderr-{k}.txt").read_text(encoding="utf-8")
        assert "Traceback" not in text, text
        results.append((code, text))
    results.append((0, out.decode()))
    return results


def jsonl_rows(*commands: list[str], cwd: Path, count: int) -> list[dict[str, Any]]:
    """The ``count`` JSON rows that the last of ``commands`` (joined by pipes) writes.

    Every command must succeed.
    """
    *runs, (_, out) = pipeline(*commands, cwd=cwd)
    assert all(code == 0 for code, _ in runs), runs
    rows = [json.loads(x) for x in out.splitlines()]
    assert len(rows) == count, out
    return rows


def test_generate_rate_bank_add(tmp_path: Path) -> None:
    gen, rate, add, _ = pipeline(
        ["generate", "--count", "3", "--seed", "5", "--format", "jsonl"],
        ["rate", "-", "--format", "jsonl", "--seed", "2", "-m", "hsolve,rounds", "-q"],
        ["bank", "add", "bank.db", "-"],
        cwd=tmp_path,
    )
    assert gen[0] == 0 and rate[0] == 0 and add[0] == 0, (gen, rate, add)
    assert (
        "added 3, duplicates 3, skipped 0 (0 not unique, 0 bad)" in add[1]
    )  # 3 puzzles, 2 rows each
    with PuzzleBank(tmp_path / "bank.db") as bank:
        entries = bank.query()
    assert len(entries) == 3
    for e in entries:
        assert set(e.ratings) == {"hsolve", "rounds"}  # stored from the rate rows
        assert e.generator == "random"  # generate's 'method', passed through rate
        assert e.minimal is True


def test_generate_seed_reaches_the_bank_through_rate(tmp_path: Path) -> None:
    """The README pipeline: each puzzle's generator seed is stored, not the rating's."""
    gen, rate, add, _ = pipeline(
        ["generate", "--count", "3", "--seed", "5", "--format", "jsonl", "-q"],
        ["rate", "-", "--format", "jsonl", "--seed", "2", "-q"],
        ["bank", "add", "bank.db", "-"],
        cwd=tmp_path,
    )
    assert gen[0] == 0 and rate[0] == 0 and add[0] == 0, (gen, rate, add)
    out = run_module(
        ["generate", "--count", "3", "--seed", "5", "--format", "jsonl", "-q"],
        check=True,
        cwd=tmp_path,
    ).stdout
    made = {json.loads(x)["puzzle"]: json.loads(x) for x in out.splitlines()}
    with PuzzleBank(tmp_path / "bank.db") as bank:
        entries = bank.query()
    assert len(entries) == 3
    for e in entries:
        record = made[e.puzzle.to_line()]
        assert e.seed == record["seed"] and e.seed is not None
        assert e.method == record["method"]


def test_generate_rows_pass_through_rate(tmp_path: Path) -> None:
    rows = jsonl_rows(
        ["generate", "--count", "2", "--seed", "5", "--format", "jsonl"],
        ["rate", "-", "--format", "jsonl", "--seed", "2", "-q"],
        cwd=tmp_path,
        count=2,
    )
    for r in rows:
        assert r["metric"] == "hsolve" and r["file"] == "<stdin>"
        assert r["method"] == "random" and r["clues"] == parse_line(r["puzzle"]).clue_count
        assert "ratings" in r and "symmetry" in r


def _bank_with_one_puzzle(tmp_path: Path) -> None:
    """bank.db in ``tmp_path`` holding LINE, added through the command line."""
    (tmp_path / "p.txt").write_text(LINE + "\n", encoding="utf-8")
    run_module(["bank", "add", "bank.db", "p.txt"], cwd=tmp_path, check=True)


def test_bank_export_render(tmp_path: Path) -> None:
    _bank_with_one_puzzle(tmp_path)
    export, render, (_, out) = pipeline(
        ["bank", "export", "bank.db", "--batch", "b1"],
        ["render", "-", "-o", "book.svg"],
        cwd=tmp_path,
    )
    assert export[0] == 0 and render[0] == 0, (export, render)
    assert out.strip() == "book.svg"
    svg = (tmp_path / "book.svg").read_text(encoding="utf-8")
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    with PuzzleBank(tmp_path / "bank.db") as bank:
        assert bank.query() and bank.stats()["exported"] == 1


def test_bank_export_jsonl_render_pdf(tmp_path: Path) -> None:
    _bank_with_one_puzzle(tmp_path)
    export, render, _ = pipeline(
        ["bank", "export", "bank.db", "--format", "jsonl"],
        ["render", "-", "-o", "book.pdf"],
        cwd=tmp_path,
    )
    assert export[0] == 0 and render[0] == 0, (export, render)
    assert (tmp_path / "book.pdf").read_bytes().startswith(b"%PDF")


def test_check_csv_into_check(tmp_path: Path) -> None:
    bad = LINE[:40] + "?" + LINE[41:]
    first, second, (_, out) = pipeline(
        ["check", "--format", "csv", "-q", "-"],
        ["check", "-", "--format", "csv", "-q"],
        cwd=tmp_path,
        stdin=f"{LINE}\n{bad}\n{'.' * 81}\n".encode(),
    )
    assert first[0] == 2 and "<stdin>:2:41: unknown character '?'" in first[1]
    rows = list(csv.DictReader(io.StringIO(out)))
    # the good rows read again (line = the row's line in the CSV stream); the
    # 'invalid' row is reported again with its place in the CSV text
    assert [(r["line"], r["status"]) for r in rows] == [
        ("2", "unique"),
        ("3", "invalid"),
        ("4", "multiple"),
    ]
    assert second[0] == 2 and "<stdin>:3:" in second[1]


def test_text_rows_of_check_and_count_read_back(tmp_path: Path) -> None:
    _, _, solve, (_, out) = pipeline(
        ["check", "-", "-q"],
        ["count", "-", "-q"],
        ["solve", "-", "-q"],
        cwd=tmp_path,
        stdin=f"{LINE}\n".encode(),
    )
    assert solve[0] == 0
    assert check_solution(parse_line(out.strip()).cells, parse_line(LINE).cells)


def test_csv_rows_pass_through_minimize_and_solve(tmp_path: Path) -> None:
    _, _, _, (_, out) = pipeline(
        ["generate", "--count", "2", "--seed", "3", "--format", "csv", "--not-minimal"],
        ["minimize", "-", "--format", "csv", "--seed", "1", "-q"],
        ["solve", "-", "--format", "csv", "-q"],
        cwd=tmp_path,
    )
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 2
    for r in rows:
        assert r["size"] == "9" and int(r["removed"]) > 0 and r["minimal"] == "True"
        assert check_solution(parse_line(r["solution"]).cells, parse_line(r["puzzle"]).cells)
        # the generator's method and ratings were facts of the puzzle minimize changed
        assert not r.get("method") and not r.get("ratings")


def test_a_changed_puzzle_leaves_its_old_rating_behind(tmp_path: Path) -> None:
    """``rate | minimize`` kept the rating of the puzzle it changed on the new one, and
    ``| bank add`` stored it: rounds 1.0 Easy for a puzzle that rates Fiendish."""
    (tmp_path / "in.txt").write_text(
        ".17.69.2.632.5..4.95.72431.82543.1.97.15864323.6..2.582.9.43.7...3291684.6.875293\n"
        + LINE
        + "\n"  # minimal already: its record's facts still hold
    )
    *runs, _ = pipeline(
        ["rate", "in.txt", "-m", "rounds", "--format", "jsonl", "-q"],
        ["minimize", "-", "--format", "jsonl", "--seed", "1", "-q"],
        ["bank", "add", "bank.db", "-", "-q"],
        cwd=tmp_path,
    )
    assert all(code == 0 for code, _ in runs), runs
    with PuzzleBank(tmp_path / "bank.db") as bank:
        ratings = {e.puzzle.to_line(): e.ratings for e in bank.query()}
    assert len(ratings) == 2 and ratings[LINE]  # the unchanged puzzle keeps its rating
    changed = next(r for p, r in ratings.items() if p != LINE)
    assert changed == {}


def test_minimized_puzzles_go_down_the_pipe(tmp_path: Path) -> None:
    """``minimize --format jsonl | rate -`` rated, and ``| bank add`` kept, the puzzle
    it came from (the record's ``puzzle``); the minimal one was only in ``minimal``."""
    from tests.independent import count_solutions

    rows = jsonl_rows(
        ["generate", "--count", "2", "--seed", "3", "--format", "jsonl", "--not-minimal"],
        ["minimize", "-", "--format", "jsonl", "--seed", "1", "-q"],
        ["rate", "-", "-m", "rounds", "--format", "jsonl", "-q"],
        cwd=tmp_path,
        count=2,
    )
    for r in rows:
        made, came = parse_line(r["puzzle"]), parse_line(r["derived_from"])
        assert made.clue_count + r["removed"] == came.clue_count and r["minimal"] is True
        assert count_solutions(made.cells, limit=2) == 1
        assert all(came.cells[c] == v for c, v in enumerate(made.cells) if v)
        for c in map(int, made.cells.nonzero()[0]):  # no clue of it can go
            fewer = made.cells.copy()
            fewer[c] = 0
            assert count_solutions(fewer, limit=2) == 2


def test_a_run_that_loads_numba_ends_at_once_with_every_row_written(tmp_path: Path) -> None:
    """Where numba is loaded the process ends without the interpreter's teardown: all is flushed.

    Through a pipe (a buffer flushed at the end), with ``--jobs 2`` (worker
    processes ended first) and without; a reader that stops early is no error.
    """
    lines = [*load_lines("17_clue.txt", limit=50), "11" + "." * 79, "x" * 81] * 20
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    for jobs in ("1", "2"):
        args = ["check", str(src), "--jobs", jobs, "--chunk-size", "100"]
        done = run_module(args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert len(done.stdout.splitlines()) == len(lines)
        assert done.stdout.splitlines()[-1].endswith("9x9 grid)")
        assert done.stderr.count("unknown character 'x'") == 20 and "1040 puzzles" in done.stderr
    head = subprocess.run(
        f"{sys.executable} -m csp_sudoku check {src} --jobs 2 | head -3",
        shell=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert len(head.stdout.splitlines()) == 3 and "Traceback" not in head.stderr


def test_variant_puzzles_keep_their_shape_through_pipes(tmp_path: Path) -> None:
    """``generate --variant x`` rows name their geometry, so ``rate`` and ``bank
    add`` downstream read them as X-Sudoku with no option repeated, and the
    bank's own rows name it again: the X puzzles stay unique all the way (read
    as plain 9x9 they have several solutions), checked by the independent
    solver on the bank's solutions."""
    bank = tmp_path / "x.db"
    *codes, _ = pipeline(
        ["generate", "-n", "3", "--seed", "2", "--variant", "x", "--format", "jsonl", "-q"],
        ["rate", "-", "-m", "rounds", "--format", "jsonl"],
        ["bank", "add", str(bank), "-"],
        cwd=tmp_path,
    )
    assert [c for c, _ in codes] == [0, 0, 0], codes
    assert "added 3" in codes[2][1]
    *codes, (_, rows) = pipeline(
        ["bank", "query", str(bank), "--format", "jsonl"],
        ["check", "-", "--format", "jsonl"],
        cwd=tmp_path,
    )
    assert [c for c, _ in codes] == [0, 0], codes
    assert [json.loads(r)["status"] for r in rows.splitlines()] == ["unique"] * 3
    with PuzzleBank(str(bank)) as b:
        entries = b.query()
    assert len(entries) == 3
    for e in entries:
        assert e.puzzle.geometry.name == "x-9x9"
        assert check_solution(e.solution.cells, e.puzzle.cells, diagonals=True)


def test_every_commands_rows_name_a_shape_the_line_does_not_tell(tmp_path: Path) -> None:
    """Rows of check, count, solve, rate and minimize of an X-Sudoku read with
    --variant x did not name it, so the next command read a plain 9x9 with several
    solutions. Each row now names it, and the pipe ends with the puzzle unique, no
    option repeated."""
    from tests.independent import count_solutions

    x = "..4..1.79371..82.6...72.13563..9...77..13...84.2.756...2.6139.416..4.78..492..36."
    (tmp_path / "x.txt").write_text(x + "\n")
    first = ["minimize", "x.txt", "--variant", "x", "--seed", "1", "--format", "jsonl", "-q"]
    made = json.loads(run_module(first, cwd=tmp_path, check=True).stdout)
    assert count_solutions(parse_line(made["puzzle"]).cells, limit=2) == 2  # as a plain 9x9
    *runs, (_, out) = pipeline(
        first,
        ["check", "-", "--format", "jsonl", "-q"],
        ["rate", "-", "-m", "rounds", "--format", "jsonl", "-q"],
        ["solve", "-", "--format", "csv", "-q"],
        ["count", "-", "--format", "jsonl", "-q"],
        cwd=tmp_path,
    )
    assert all(code == 0 for code, _ in runs), runs
    (row,) = [json.loads(r) for r in out.splitlines()]
    assert row["count"] == 1 and row["geometry"] == "x-9x9"


def test_rows_of_a_binary_input_read_back_without_stopping(tmp_path: Path) -> None:
    """A binary file among the inputs gets one ``invalid`` row, its bytes escaped
    (``\\x00``): raw, they made the output itself binary, so ``check`` of that output
    stopped at the row and lost every row after it."""
    good = load_lines("top1465.txt", limit=6)
    (tmp_path / "a.txt").write_text("\n".join(good[:3]) + "\n", encoding="utf-8")
    (tmp_path / "b.bin").write_bytes(b"\x7fELF\x02\x01\x00\x00\tx\n" + bytes(range(256)))
    (tmp_path / "c.txt").write_text("\n".join(good[3:]) + "\n", encoding="utf-8")
    first = run_module(["check", "a.txt", "b.bin", "c.txt", "-q"], text=False, cwd=tmp_path)
    assert first.returncode == 2
    rows = first.stdout.decode("utf-8").splitlines()
    assert len(rows) == 7 and rows[3].startswith("b.bin:1\tinvalid\t\\x7fELF\\x02\\x01\\x00")
    assert all(ch == "\t" or ch.isprintable() for row in rows for ch in row)
    (tmp_path / "rows.txt").write_bytes(first.stdout)
    again = run_module(["check", "rows.txt", "-q", "--skip-invalid"], text=False, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    puzzles = [r.split("\t")[2] for r in again.stdout.decode().splitlines() if "\tunique\t" in r]
    assert puzzles == [x.split()[0] for x in good]


def test_check_from_a_terminal_says_so_and_answers_each_line_as_typed(tmp_path: Path) -> None:
    """``csp-sudoku check`` with no file sat silent on a terminal (it reads standard
    input), and answered only at Ctrl-D; now it says where it reads, and each row
    comes as its line is typed."""
    import os
    import pty
    import select

    controller, terminal = pty.openpty()
    err = open(tmp_path / "err.txt", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", "check"],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=err,
        cwd=tmp_path,
    )
    os.close(terminal)
    try:
        assert proc.stdout is not None
        os.write(controller, LINE.encode() + b"\n")
        ready, _, _ = select.select([proc.stdout], [], [], 60)  # before any Ctrl-D
        assert ready, "no row before the end of the input"
        row = proc.stdout.readline().decode()
        assert row.split("\t")[1:] == ["unique", LINE + "\n"]
        os.write(controller, b"\x04")  # Ctrl-D
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        if proc.stdout is not None:
            proc.stdout.close()
        proc.wait()
        err.close()
        os.close(controller)
    said = (tmp_path / "err.txt").read_text()
    assert "reading puzzles from the terminal" in said and "1 puzzle: 1 unique" in said


def test_quiet_reads_a_terminal_without_a_word(tmp_path: Path) -> None:
    import os
    import pty

    controller, terminal = pty.openpty()
    os.write(controller, LINE.encode() + b"\n\x04")
    try:
        done = run_module(["check", "-q"], text=False, stdin=terminal, cwd=tmp_path, timeout=60)
    finally:
        os.close(terminal)
        os.close(controller)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode().split("\t")[1:] == ["unique", LINE + "\n"]
