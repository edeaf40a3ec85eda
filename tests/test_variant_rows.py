"""Rows of variant puzzles read back as the same puzzles: files, standard input, pipes.

Every JSON or CSV row that ``check``, ``count``, ``solve``, ``candidates`` and
``rate`` write for a variant puzzle carries its f-puzzles object in
``fpuzzles``, and every reader of rows reads such a row as that variant
puzzle, never as the givens' line in its ``puzzle`` field. Also here: a run
that mixes plain and variant inputs, ``count --budget-seconds`` of variant
puzzles, and bad ``fpuzzles`` fields.

Verdicts are held against an independent count: every 4x4 grid (all 288,
enumerated here) judged by :func:`tests.independent_variants.broken_rules`,
which shares no code with the package; solutions against the same checker.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from csp_sudoku import variants
from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles, link
from csp_sudoku.core.errors import ArgumentError, CountBudgetExceeded, GenerationError
from csp_sudoku.core.io import read_puzzles
from csp_sudoku.variants.random import MADE, random_variant
from tests.independent_variants import broken_rules
from tests.test_cli_pipes import pipeline

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY = "." * 81


def _grids4() -> list[list[list[int]]]:
    """Every 4x4 Sudoku grid (rows, columns and 2x2 boxes each 1-4), by brute force."""
    rows = list(itertools.permutations(range(1, 5)))
    out = []
    for a, b, c, d in itertools.product(rows, repeat=4):
        grid = [list(a), list(b), list(c), list(d)]
        cols_ok = all(len({grid[r][k] for r in range(4)}) == 4 for k in range(4))
        boxes_ok = all(
            len({grid[r][k] for r in (br, br + 1) for k in (bc, bc + 1)}) == 4
            for br in (0, 2)
            for bc in (0, 2)
        )
        if cols_ok and boxes_ok:
            out.append(grid)
    return out


GRIDS4 = _grids4()


def independent_verdict(data: dict[str, Any]) -> str:
    """unique / multiple / none of a 4x4 f-puzzles object, from every grid."""
    n = sum(1 for g in GRIDS4 if not broken_rules(data, g))
    return "unique" if n == 1 else "none" if n == 0 else "multiple"


def cli(*args: str, stdin: bytes | str | None = None) -> tuple[int, str, str]:
    """``csp-sudoku ARGS`` in this process: exit code, stdout, stderr; ``stdin`` as its input."""
    out, err = io.StringIO(), io.StringIO()
    before = sys.stdin
    if stdin is not None:
        raw = stdin.encode() if isinstance(stdin, str) else stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = before
    return code, out.getvalue(), err.getvalue()


def rows_of(text: str, fmt: str) -> list[dict[str, Any]]:
    """The rows of ``--format fmt`` output, each ``fpuzzles`` as an object."""
    if fmt == "jsonl":
        return [json.loads(x) for x in text.splitlines()]
    rows: list[dict[str, Any]] = list(csv.DictReader(io.StringIO(text)))
    for r in rows:
        if r.get("fpuzzles"):
            r["fpuzzles"] = json.loads(r["fpuzzles"])
    return rows


def grid_of(line: str, n: int) -> list[list[int]]:
    return [[int(ch) for ch in line[r * n : r * n + n]] for r in range(n)]


def four(seed: int, made: str) -> dict[str, Any]:
    """A random 4x4 variant puzzle's f-puzzles object (no such puzzle for some seeds)."""
    try:
        data = random_variant(seed, made=made, size=4).data  # type: ignore[arg-type]
    except GenerationError:
        assume(False)
        raise
    return data


def sample(made: str, seed: int = 0) -> dict[str, Any]:
    """The first such puzzle from ``seed`` on (for the tests that are not properties)."""
    for k in itertools.count(seed):
        with contextlib.suppress(GenerationError):
            return random_variant(k, made=made, size=4).data  # type: ignore[arg-type]
    raise AssertionError("unreachable")


# ---------------------------------------------------------------- the round trip
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(MADE), st.sampled_from(["jsonl", "csv"]))
def test_a_row_reads_back_as_its_puzzle_with_its_verdict(seed: int, made: str, fmt: str) -> None:
    data = four(seed, made)
    verdict = independent_verdict(data)
    code, out, _ = cli("check", "-", "--format", fmt, "-q", stdin=json.dumps(data))
    (row,) = rows_of(out, fmt)
    assert row["status"] == verdict and code == (0 if verdict == "unique" else 1)
    assert from_fpuzzles(row["fpuzzles"]) == from_fpuzzles(data)
    # the row read back, by every command that reads rows, answers the same puzzle
    code, again, _ = cli("check", "-", "--format", "jsonl", "-q", stdin=out)
    (second,) = rows_of(again, "jsonl")
    assert second["status"] == verdict and second["fpuzzles"] == row["fpuzzles"]
    assert second["puzzle"] == row["puzzle"]
    code, solved, _ = cli("solve", "-", "--all", "2", "--format", "jsonl", "-q", stdin=out)
    sols = rows_of(solved, "jsonl")
    assert {r["status"] for r in sols} == {verdict}
    for r in sols:
        if r["solution"] is not None:
            assert broken_rules(data, grid_of(r["solution"], 4)) == []
    assert len({r["solution"] for r in sols}) == {"unique": 1, "multiple": 2, "none": 1}[verdict]
    code, counted_, _ = cli("count", "-", "--limit", "300", "--format", "csv", "-q", stdin=out)
    (count_row,) = rows_of(counted_, "csv")
    assert int(count_row["count"]) == sum(1 for g in GRIDS4 if not broken_rules(data, g))


def test_rows_of_every_command_carry_their_puzzle(tmp_path: Path) -> None:
    data = sample("unique", 3)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    want = from_fpuzzles(data)
    for command, fmt in itertools.product(
        ("check", "count", "solve", "candidates"), ("jsonl", "csv")
    ):
        _, out, _ = cli(command, str(path), "--format", fmt, "-q")
        (row,) = rows_of(out, fmt)
        assert from_fpuzzles(row["fpuzzles"]) == want, command
    for fmt in ("jsonl", "csv"):
        code, out, _ = cli("rate", str(path), "--format", fmt, "-q")
        (row,) = rows_of(out, fmt)
        assert code == 0 and from_fpuzzles(row["fpuzzles"]) == want
        code, again, _ = cli("rate", "-", "--format", "jsonl", "-q", stdin=out)
        assert code == 0 and json.loads(again)["score"] == float(row["score"])


def test_generated_rows_are_read_as_their_puzzles(tmp_path: Path) -> None:
    """``generate --killer -o`` rows hold ``fpuzzles`` and no ``puzzle``: a file of them
    (JSON Lines or CSV) is a variant input."""
    for fmt in ("jsonl", "csv"):
        gen = tmp_path / f"gen.{fmt}"
        args = ("--killer", "--size", "4", "-n", "2", "--seed", "5", "--format", fmt)
        assert cli("generate", *args, "-o", str(gen), "-q")[0] == 0
        code, out, _ = cli("check", str(gen), "--format", "jsonl", "-q")
        rows = rows_of(out, "jsonl")
        assert code == 0 and [r["status"] for r in rows] == ["unique", "unique"]
        for r in rows:
            assert independent_verdict(r["fpuzzles"]) == "unique"
            assert r["seed"] is not None  # the generator's fields pass through


def test_the_plain_reader_refuses_an_fpuzzles_row() -> None:
    """Where plain puzzles are read, a variant row is an error, never its givens."""
    row = json.dumps({"puzzle": "." * 16, "fpuzzles": sample("unique", 3)})
    (entry,) = read_puzzles([row])
    assert entry.puzzle is None and entry.error is not None
    assert "fpuzzles" in entry.error.reason
    (plain,) = read_puzzles([json.dumps({"puzzle": "." * 16, "fpuzzles": ""})])
    assert plain.puzzle is not None  # an empty field: a plain puzzle's row of a mixed run


# ---------------------------------------------------------------- standard input
def test_standard_input_of_every_variant_form(tmp_path: Path) -> None:
    data = sample("unique", 11)
    assert independent_verdict(data) == "unique"
    whole = json.dumps(data, indent=2)  # one object over many lines, as a .json file holds it
    assert cli("check", "-", stdin=whole)[1] == "<stdin>:1\tunique\n"
    code, out, _ = cli("check", "-", "--format", "jsonl", "-q", stdin=gzip.compress(whole.encode()))
    assert code == 0 and rows_of(out, "jsonl")[0]["status"] == "unique"
    code, out, _ = cli("check", "-", "-q", stdin=f"# a comment\n\n{link(from_fpuzzles(data))}\n")
    assert code == 0 and out == "<stdin>:3\tunique\n"
    code, out, _ = cli("check", stdin=json.dumps(data) + "\n")  # no input named: stdin
    assert code == 0 and out == "<stdin>:1\tunique\n"
    code, out, err = cli("check", "-", stdin=LINE + "\n")  # plain input: the plain path
    assert code == 0 and out.startswith("<stdin>:1\tunique\t") and "/s)" in err


def test_pipes_between_processes(tmp_path: Path) -> None:
    """generate | check - | solve -, | rate -, | render -: each the variant puzzles."""
    gen = ["generate", "--killer", "--size", "4", "-n", "3", "--seed", "2", "--format", "jsonl"]
    check = ["check", "-", "--format", "jsonl", "-q"]
    *codes, (_, out) = pipeline(gen, check, ["solve", "-", "--format", "jsonl"], cwd=tmp_path)
    assert [c for c, _ in codes] == [0, 0, 0]
    rows = rows_of(out, "jsonl")
    assert [r["status"] for r in rows] == ["unique"] * 3 and [r["line"] for r in rows] == [1, 2, 3]
    for r in rows:
        assert broken_rules(r["fpuzzles"], grid_of(r["solution"], 4)) == []
    *codes, (_, out) = pipeline(gen, check, ["rate", "-"], cwd=tmp_path)
    assert [c for c, _ in codes] == [0, 0, 0]
    assert [x.split("\t")[1] for x in out.splitlines()] == ["variant"] * 3
    *codes, _ = pipeline(gen, check, ["render", "-", "-o", "book.svg"], cwd=tmp_path)
    assert [c for c, _ in codes] == [0, 0, 0]
    assert (tmp_path / "book.svg").read_text().count("<svg") >= 1


# ---------------------------------------------------------------- mixed runs
def test_a_mixed_run_answers_each_input_by_its_own_path(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text(f"{LINE}\n{EMPTY}\nnot a puzzle\n")
    data = sample("unique", 11)
    killer = tmp_path / "k.json"
    killer.write_text(json.dumps(data))
    code, out, err = cli("check", str(plain), str(killer), LINE, "--skip-invalid")
    lines = out.splitlines()
    alone = cli("check", str(plain), "--skip-invalid")[1].splitlines()
    assert lines[:3] == alone  # the plain rows, as the plain path writes them
    assert lines[3] == f"{killer}:1\tunique" and lines[4].startswith("<argument>:1\tunique\t")
    assert code == 1 and "5 puzzles (1 variant): 3 unique, 1 not unique, 1 bad" in err
    assert f"{plain}:3" in err
    _, out, _ = cli("check", str(plain), str(killer), "--format", "jsonl", "-q")
    rows = rows_of(out, "jsonl")
    plain_rows = rows_of(cli("check", str(plain), "--format", "jsonl", "-q")[1], "jsonl")
    assert [r["status"] for r in rows] == [r["status"] for r in plain_rows] + ["unique"]
    assert "fpuzzles" not in rows[0] and from_fpuzzles(rows[-1]["fpuzzles"]) == from_fpuzzles(data)
    # that output read back: each row by its own path again
    again = tmp_path / "rows.jsonl"
    again.write_text(out)
    code, back, _ = cli("check", str(again), "--format", "jsonl", "-q")
    assert [r["status"] for r in rows_of(back, "jsonl")] == [r["status"] for r in rows]
    code, out, _ = cli("count", str(killer), str(plain), "--limit", "3", "--skip-invalid", "-q")
    assert out.splitlines()[:3] == [
        f"{killer}:1\t1",
        f"{plain}:1\t1\t{LINE}",
        f"{plain}:2\t3+\t{EMPTY}",
    ]
    code, out, _ = cli("solve", str(killer), LINE, "-q")
    first, second = out.splitlines()
    assert broken_rules(data, grid_of(first.split("\t")[2], 4)) == []
    assert second == cli("solve", LINE, "-q")[1].strip()


def test_a_file_mixing_plain_and_variant_rows_is_read_row_by_row(tmp_path: Path) -> None:
    data = sample("unique", 11)
    path = tmp_path / "mixed.jsonl"
    rows = [{"puzzle": LINE, "seed": 1}, {"puzzle": "." * 16, "fpuzzles": data}, {"puzzle": EMPTY}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, _ = cli("check", str(path), "-q")
    assert [x.split("\t")[1] for x in out.splitlines()] == ["unique", "unique", "multiple"]
    assert code == 1


def test_rate_refuses_a_mixed_run_before_any_work(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text(LINE + "\n")
    killer = tmp_path / "k.json"
    killer.write_text(json.dumps(sample("unique", 11)))
    code, out, err = cli("rate", str(killer), str(plain))
    assert code == 2 and out == "" and f"{plain} holds plain puzzles" in err


# ---------------------------------------------------------------- count budgets
ANTIKING = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], "antiking": True}


#: A budget for each backend in which it finds some of the anti-king grid's solutions
#: (CP-SAT's first solution comes after its presolve and, in a fresh process, its start;
#: SAT's after the clauses are built, about 70 ms alone, but once more than 0.3 s in a
#: full test run on two busy cores).
BUDGETS = {"fast": 0.3, "sat": 1.0, "cpsat": 2.0}


@pytest.mark.parametrize("backend", ["fast", "sat", "cpsat"])
def test_a_count_budget_gives_a_lower_bound(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "ak.json"
    path.write_text(json.dumps(ANTIKING))
    budget = str(BUDGETS[backend])
    args = ("--limit", "1000000000", "--budget-seconds", budget, "--backend", backend)
    code, out, _ = cli("count", str(path), *args, "--format", "jsonl", "-q")
    (row,) = rows_of(out, "jsonl")
    assert code == 1 and row["capped"] is True and row["budget"] is True
    assert 1 <= row["count"] < 10**9
    code, out, _ = cli("count", str(path), *args, "-q")
    assert re.fullmatch(rf"{re.escape(str(path))}:1\t\d+\+ \(budget\)\n", out)


def test_a_count_within_its_budget_is_exact_and_no_grid_is_none(tmp_path: Path) -> None:
    several = sample("multiple", 7)
    none = {
        **sample("unique", 7),
        "thermometer": [{"lines": [["R1C1", "R1C2"]]}, {"lines": [["R1C2", "R1C1"]]}],
    }
    assert independent_verdict(none) == "none"
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(several) + "\n" + json.dumps(none) + "\n")
    code, out, _ = cli("count", str(path), "--limit", "300", "--budget-seconds", "60", "-q")
    want = sum(1 for g in GRIDS4 if not broken_rules(several, g))
    assert code == 0 and out.splitlines() == [f"{path}:1\t{want}", f"{path}:2\t0"]
    code, out, _ = cli("check", str(path), "-q")
    assert code == 1 and out.splitlines()[1] == f"{path}:2\tnone"


def test_the_library_count_keeps_a_budget() -> None:
    puzzle = from_fpuzzles(ANTIKING)
    for backend in ("fast", "sat", "cpsat"):
        with pytest.raises(CountBudgetExceeded) as got:
            variants.count(puzzle, 10**9, backend=backend, budget_seconds=BUDGETS[backend])
        assert 1 <= got.value.at_least < 10**9, backend
        # a true lower bound: counted to it, the puzzle has that many
        found = got.value.at_least
        assert variants.count(puzzle, found, backend=backend, budget_seconds=60) == found
    for bad in (0, -1.0, float("nan"), True, "1"):
        with pytest.raises(ArgumentError):
            variants.count(puzzle, 2, budget_seconds=bad)  # type: ignore[arg-type]
    assert variants.count(puzzle, 2, budget_seconds=60) == 2


# ---------------------------------------------------------------- bad fpuzzles fields
def test_a_bad_fpuzzles_field_is_named_and_the_other_rows_answered(tmp_path: Path) -> None:
    good = sample("unique", 11)
    rows = [
        {"puzzle": "", "fpuzzles": good},
        {"puzzle": "", "fpuzzles": "not json, no link"},
        {"puzzle": "", "fpuzzles": {**good, "junk": 1}},
        {"puzzle": "", "fpuzzles": 5},
        {"puzzle": "", "fpuzzles": good},
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    table = tmp_path / "rows.csv"
    with table.open("w", newline="") as fh:
        w = csv.DictWriter(fh, ["puzzle", "fpuzzles"])
        w.writeheader()
        for r in rows:
            fp = r["fpuzzles"]
            w.writerow({"puzzle": "", "fpuzzles": fp if isinstance(fp, str) else json.dumps(fp)})
    for src, first in ((path, 1), (table, 2)):
        code, out, err = cli("check", str(src))
        assert code == 2
        got = [x.split("\t", 1) for x in out.splitlines()]
        assert got[0][1] == "unique" and got[-1][1] == "unique"
        assert [w.split("  #")[0] for _, w in got[1:4]] == ["invalid"] * 3
        assert f"{src}:{first + 1}: fpuzzles: not f-puzzles data" in err
        assert f"{src}:{first + 2}: fpuzzles: unknown field 'junk'" in err
        assert re.search(rf"{re.escape(str(src))}:{first + 3}: fpuzzles: (an f-puzzles|.*)", err)
        assert "Traceback" not in err


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-5, 20) | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=6,
    )
)
def test_any_fpuzzles_value_is_an_answer_or_a_message(value: Any) -> None:
    row = json.dumps({"puzzle": "", "fpuzzles": value, "seed": 1})
    code, _, err = cli("check", "-", "--format", "jsonl", stdin=row + "\n" + row + "\n")
    assert code in (0, 1, 2) and "internal error" not in err and "Traceback" not in err
    if code == 2:
        assert re.search(r"<stdin>:1(:\d+)?: ", err)


@pytest.mark.parametrize("bad", ["9" * 5000, "[" * 100_000])
def test_json_python_cannot_hold_is_a_bad_line_not_an_internal_error(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An integer past Python's digit limit, or nesting past its recursion limit, is
    reported like any malformed JSON (found by the CLI fuzz test)."""
    src = tmp_path / "big.json"
    src.write_text('{"size": 9, "a": ' + bad + "}\n")
    assert main(["check", str(src)]) == 2
    err = capsys.readouterr().err
    assert f"{src}:1: malformed JSON" in err
    assert "internal error" not in err
