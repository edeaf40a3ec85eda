"""The command line: verdicts, formats, exit codes and bad input without tracebacks."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import csp_sudoku as cs
from csp_sudoku.cli import main
from tests.conftest import load_lines
from tests.independent import check_solution

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "data"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_check_all_unique_exits_zero_with_jsonl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = load_lines("top1465.txt", limit=12, step=100)
    f = write(tmp_path, "p.txt", ["# header", *lines])
    code, out, err = run(["check", str(f), "--format", "jsonl"], capsys)
    assert code == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["line"] for r in rows] == list(range(2, 14))
    assert all(r["status"] == "unique" and r["count"] == 1 for r in rows)
    assert [r["puzzle"] for r in rows] == lines
    assert "12 puzzles: 12 unique" in err


def test_summaries_of_one_puzzle_say_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each command's stderr summary counts in words: "1 puzzle", not "1 puzzles"."""
    (line,) = load_lines("top1465.txt", limit=1)
    for argv, said in (
        (["check", line], "1 puzzle: 1 unique"),
        (["solve", line], "1 puzzle, 0 not"),
        (["rate", line, "-m", "rounds"], "1 puzzle rated"),
    ):
        code, _out, err = run(argv, capsys)
        assert code == 0 and said in err, err


def test_check_multiple_exits_one_and_counts_with_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(tmp_path, "m.txt", [LINE, *load_lines("multi_solution_serg.txt", limit=3)])
    code, out, _ = run(["check", str(f), "--limit", "5", "--format", "csv"], capsys)
    assert code == 1
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["status"] == "unique"
    assert all(r["status"] == "multiple" and int(r["count"]) >= 2 for r in rows[1:])


def test_bad_line_is_reported_with_location_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(tmp_path, "bad.txt", [LINE, LINE[:40] + "?" + LINE[41:], LINE])
    code, out, err = run(["check", str(f)], capsys)
    assert code == 2
    assert out.count("unique") == 2 and out.count("invalid") == 1
    assert f"{f}:2:41: unknown character '?'" in err


def test_skip_invalid_gives_every_good_line_its_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["check", str(EXAMPLES / "mixed.txt"), "--skip-invalid", "--format", "jsonl"], capsys
    )
    assert code == 1  # some are not unique; the bad lines do not count with --skip-invalid
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["status"] for r in rows] == [
        "unique",
        "multiple",
        "multiple",
        "none",
        "invalid",
        "invalid",
        "unique",
        "unique",
    ]
    assert rows[3]["reason"] == "r1c1 and r1c2 are both 5 (row 1)"
    assert "line has 80 cells" in rows[4]["reason"]
    assert "2 invalid" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "no puzzles found"),
        (b"# only a comment\n\n", "no puzzles found"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary data"),
        (b"\x00\x01\x02\x03" * 50, "binary data (NUL byte)"),
        (("\u00e9" * 81 + "\n").encode("latin-1"), "not UTF-8 text"),
        (("1" * 81 + "\n").encode(), None),  # parses; all 1s clash
        # a comment in Latin-1 is no fault: the puzzle under it is read
        ("# by J\u00f6rg\n".encode("latin-1") + ("1" * 81 + "\n").encode(), None),
        (b"12\n", "line has 2 cells"),
    ],
)
def test_malformed_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str | None
) -> None:
    f = tmp_path / "x.txt"
    f.write_bytes(content)
    code, out, err = run(["check", str(f)], capsys)
    if message is None:
        assert code == 1 and "none" in out and "are both 1" in out
    else:
        assert code == 2
        assert message in err


def test_missing_file_and_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", str(tmp_path / "nope.txt")], capsys)
    assert code == 2 and "no such file" in err
    for name in ("nope.txt.gz", "nope.jsonl", "NOPE.XZ"):  # no folder named: still a file name
        code, out, err = run(["check", name], capsys)
        assert (code, out) == (2, "") and f"{name}: no such file" in err
    code, _, err = run(["check", str(EXAMPLES / "sample.txt"), "--limit", "0"], capsys)
    assert code == 2 and "--limit" in err
    assert main(["check", "--format", "xml"]) == 2


def test_jobs_keep_input_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = load_lines("17_clue.txt", limit=300, step=101) + load_lines(
        "multi_solution_serg.txt", limit=50, step=77
    )
    f = write(tmp_path, "many.txt", lines)
    _, one, _ = run(["check", str(f), "--format", "jsonl", "--chunk-size", "40"], capsys)
    _, two, _ = run(
        ["check", str(f), "--format", "jsonl", "--jobs", "2", "--chunk-size", "40"], capsys
    )
    assert one == two
    assert len(one.splitlines()) == 350


def test_solve_count_and_inline_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", LINE], capsys)
    assert (
        code == 0
        and out.strip()
        == "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    )
    code, out, _ = run(["count", "." * 16, "--limit", "1000"], capsys)
    assert out.split("\t")[1] == "288"
    code, out, _ = run(["count", "." * 81, "--limit", "3"], capsys)
    assert out.split("\t")[1] == "3+"


def test_check_says_a_count_at_its_limit_is_at_least(capsys: pytest.CaptureFixture[str]) -> None:
    """``check --limit 3`` wrote "multiple 3" for the empty grid, as for a puzzle of
    exactly 3 solutions; ``count`` writes "3+". A puzzle of exactly two solutions
    (a full grid less a rectangle of two digits in two boxes) is "multiple 2"."""
    grid = cs.solve(LINE).cells.tolist()  # type: ignore[union-attr]
    two = None
    for r1, r2, c1, c2 in (
        (a, b, c, d)
        for a in range(9)
        for b in range(a + 1, 9)
        for c in range(9)
        for d in range(c + 1, 9)
    ):
        x, y = grid[r1 * 9 + c1], grid[r1 * 9 + c2]
        same_band, same_stack = r1 // 3 == r2 // 3, c1 // 3 == c2 // 3
        if (grid[r2 * 9 + c1], grid[r2 * 9 + c2]) == (y, x) and same_band != same_stack:
            cells = list(grid)
            for cell in (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2):
                cells[cell] = 0
            two = "".join(str(v) if v else "." for v in cells)
            break
    assert two is not None and cs.count_solutions(two, limit=5) == 2
    code, out, _ = run(["check", two, "." * 81, LINE, "--limit", "3", "-q"], capsys)
    assert code == 1
    assert [row.split("\t")[1] for row in out.splitlines()] == [
        "multiple 2",
        "multiple 3+",
        "unique 1",
    ]


def test_export_cnf_is_a_correct_dimacs_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "p.cnf"
    code, _, _ = run(["export", "cnf", LINE, "-o", str(out_file)], capsys)
    assert code == 0
    cnf = CNF(from_file=str(out_file))
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        assert s.solve()
        model = [v for v in s.get_model() if 0 < v <= 729]
        s.add_clause([-v for v in model])
        assert not s.solve()  # unique
    code, out, _ = run(["export", "exact-cover", "--size", "4"], capsys)
    lines = [x for x in out.splitlines() if not x.startswith("c")]
    assert lines[0] == "64 64"
    assert len(lines) == 65


def _exact_covers(text: str, limit: int) -> list[list[int]]:
    """Up to ``limit`` exact covers of a matrix file, found by a plain Algorithm X
    written here (columns as sets of rows): the reader a DLX tool would be."""
    lines = [x for x in text.splitlines() if not x.startswith("c")]
    ncols, nrows = map(int, lines[0].split())
    rows = [[int(c) for c in line.split()] for line in lines[1 : 1 + nrows]]
    assert len(rows) == nrows
    cols: dict[int, set[int]] = {c: set() for c in range(ncols)}
    for r, row in enumerate(rows):
        for c in row:
            cols[c].add(r)
    found: list[list[int]] = []

    def search(chosen: list[int]) -> None:
        if len(found) >= limit:
            return
        if not cols:
            found.append(sorted(chosen))
            return
        col = min(cols, key=lambda c: len(cols[c]))
        for r in sorted(cols[col]):
            taken = []
            for c in rows[r]:
                for other in cols[c]:
                    for c2 in rows[other]:
                        if c2 != c:
                            cols[c2].discard(other)
                taken.append((c, cols.pop(c)))
            search([*chosen, r])
            for c, held in reversed(taken):
                cols[c] = held
                for other in held:
                    for c2 in rows[other]:
                        if c2 != c:
                            cols[c2].add(other)

    search([])
    return found


def test_export_exact_cover_of_a_puzzle_holds_its_clues(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The covers of a puzzle's matrix are its solutions (the clues were once left
    out: the matrix was the empty grid's, whatever the puzzle)."""
    code, out, _ = run(["export", "exact-cover", LINE], capsys)
    assert code == 0
    (cover,) = _exact_covers(out, 2)  # exactly one, the solution
    grid = [0] * 81
    for cand in cover:
        cell, digit = divmod(cand, 9)
        grid[cell] = digit + 1
    assert check_solution(np.array(grid), cs.parse(LINE).cells)
    for line in ("1" + "." * 15, "12.." + "." * 12, "1.2." + "3" + "." * 11):
        code, out, _ = run(["export", "exact-cover", line], capsys)
        assert code == 0
        assert len(_exact_covers(out, 50)) == cs.count_solutions(line, limit=50)


def test_check_certify_writes_proofs_an_independent_checker_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.drup_check import check_drat

    f = write(tmp_path, "two.txt", [LINE, *load_lines("multi_solution_serg.txt", limit=1)])
    code, _, _ = run(["check", str(f), "--certify", str(tmp_path / "certs")], capsys)
    assert code == 1  # the second puzzle is not unique, so it gets no certificate
    proofs = sorted((tmp_path / "certs").glob("*.drat"))
    assert [p.name for p in proofs] == ["two-1.drat"]
    assert check_drat(proofs[0].with_suffix(".cnf"), proofs[0])


def test_certificates_of_one_name_do_not_overwrite_each_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two files named p.txt in two folders wrote one p-1.drat (the second's), and
    every puzzle given as an argument one '<argument>-1.drat'."""
    from tests.drup_check import check_drat

    lines = load_lines("top1465.txt", limit=4)
    for k in (1, 2):
        (tmp_path / f"d{k}").mkdir()
        write(tmp_path / f"d{k}", "p.txt", [lines[k - 1]])
    certs = tmp_path / "certs"
    argv = [str(tmp_path / "d1" / "p.txt"), str(tmp_path / "d2" / "p.txt"), *lines[2:]]
    assert run(["check", *argv, "--certify", str(certs)], capsys)[0] == 0
    names = ["argument-1", "argument-1~2", "p-1", "p-1~2"]
    assert sorted(p.stem for p in certs.glob("*.drat")) == names
    said = {p.stem: p.read_text().splitlines()[0].split()[-1] for p in certs.glob("*.cnf")}
    assert said == dict(zip(["p-1", "p-1~2", "argument-1", "argument-1~2"], lines, strict=True))
    assert check_drat(certs / "p-1~2.cnf", certs / "p-1~2.drat")


def test_export_minizinc(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["export", "minizinc", LINE], capsys)
    assert code == 0
    assert "alldifferent" in out or "all_different" in out


def test_console_script_runs_from_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "check", "-", "--format", "jsonl"],
        input=LINE + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "unique"


def test_jigsaw_option_reads_regions_and_reports_bad_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.independent import check_solution

    labels = [(r // 3) * 3 + ((c + r % 3) % 9) // 3 for r in range(9) for c in range(9)]
    good = write(
        tmp_path, "regions.txt", ["".join(map(str, labels[i : i + 9])) for i in range(0, 81, 9)]
    )
    code, out, err = run(["solve", "--jigsaw", str(good), "." * 81], capsys)
    assert code == 1 and "not unique" in err  # an empty grid has many solutions: one is shown
    assert check_solution([int(ch) for ch in out.strip()], regions=labels)
    bad = write(tmp_path, "bad.txt", ["000111222", "00.111222"])
    code, _, err = run(["check", "--jigsaw", str(bad), "." * 81], capsys)
    assert code == 2
    assert f"{bad}:2:3: a region label must be 0-9 or A-Z, got '.'" in err
    # shape options that contradict each other are refused, none of them dropped
    for argv, why in (
        (["--jigsaw", str(good), "--variant", "x"], "a jigsaw takes no variant"),
        (["--jigsaw", str(good), "--size", "16"], "the jigsaw is jigsaw-9x9"),
        (["--variant", "windoku", "--size", "16"], "windoku is 9x9 only"),
    ):
        code, out, err = run(["check", "." * 81, *argv], capsys)
        assert (code, out) == (2, "") and why in err
    assert run(["check", "." * 81, "--jigsaw", str(good), "--size", "9"], capsys)[0] == 1


def test_options_and_files_may_come_in_any_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As with Unix tools, an option between two files does not end the file list."""
    lines = load_lines("top1465.txt", limit=4)
    a, b = write(tmp_path, "a.txt", lines[:2]), write(tmp_path, "b.txt", lines[2:])
    orders = [
        ["check", str(a), str(b), "--format", "jsonl", "-q"],
        ["check", str(a), "--format", "jsonl", str(b), "-q"],
        ["check", "-q", str(a), "--format", "jsonl", str(b)],
    ]
    outs = [run(order, capsys) for order in orders]
    assert outs[0][0] == 0 and len(outs[0][1].splitlines()) == 4
    assert all(o == outs[0] for o in outs)
    # "--" still ends the options, so a file may start with "-"
    dash = write(tmp_path, "-dash.txt", lines[:1])
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["check", "-q", "--", dash.name], capsys)
    assert code == 0 and out.startswith("-dash.txt:1\tunique")
    # a command with an optional positional, and one below a command group
    assert run(["export", "cnf", "--size", "9", str(a)], capsys)[0] == 2  # two puzzles
    one = write(tmp_path, "one.txt", lines[:1])
    code, out, _ = run(["export", "cnf", "--size", "9", str(one)], capsys)
    assert code == 0 and out == run(["export", "cnf", str(one), "--size", "9"], capsys)[1]
    bank = tmp_path / "b.db"
    assert run(["bank", "add", str(bank), str(a), "--seed", "3", str(b)], capsys)[0] == 0
    code, out, _ = run(["bank", "query", "-n", "3", str(bank), "--order", "clues"], capsys)
    assert code == 0 and len(out.splitlines()) == 3


def test_solve_csv_says_when_a_count_is_capped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV row of a puzzle with many solutions said ``solutions`` 2 and no more
    (``capped`` was in JSON Lines only): it would read as exactly two."""
    multi = load_lines("multi_solution_serg.txt", limit=1)[0]
    f = write(tmp_path, "in.txt", [multi, LINE])
    code, out, _ = run(["solve", str(f), "--format", "csv"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 1 and [r["status"] for r in rows] == ["multiple", "unique"]
    assert [(r["solutions"], r["capped"]) for r in rows] == [("2", "True"), ("1", "False")]


def test_check_summary_rate_shows_slow_runs() -> None:
    """One puzzle typed in 3.3 s was "(0/s)"."""
    from csp_sudoku.cli.check import _per_second

    assert [_per_second(n, s) for n, s in ((1, 3.33), (9, 1.0), (1234, 1.0))] == [
        "0.3",
        "9.0",
        "1,234",
    ]
