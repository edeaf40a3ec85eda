"""``csp-sudoku check|count|solve|candidates|export`` on f-puzzles JSON, JSON Lines and links.

The puzzles come from :mod:`tests.variant_maker` (unique, multiple and
broken ones around several kinds). Every solution a command prints is held
against :mod:`tests.independent_variants`; verdicts and counts against the
CP-SAT backend (an encoding of its own), since the CLI runs the SAT one; a
certificate against the independent DRAT checker of :mod:`tests.drup_check`.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from csp_sudoku import variants
from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles, link
from csp_sudoku.tools.certify import drat_trim
from tests.drup_check import check_drat
from tests.independent_variants import broken_rules
from tests.variant_maker import make_cases

CASES = make_cases(11, kinds=("killercage", "thermometer", "arrow", "difference", "antiknight"))
UNIQUE = [d for label, d in CASES if label.endswith(":unique")]
MULTIPLE = [d for label, d in CASES if label.endswith(":multiple")]
#: Every case with its verdict by the CP-SAT backend.
VERDICTS = [variants.check(from_fpuzzles(d), backend="cpsat") for _, d in CASES]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def rows_of(data: dict[str, Any], line: str) -> list[list[int]]:
    n = data["size"]
    return [[int(ch) for ch in line[r * n : r * n + n]] for r in range(n)]


def json_file(path: Path, data: dict[str, Any]) -> Path:
    """``path`` holding the f-puzzles object ``data`` (a ``.json`` puzzle file)."""
    path.write_text(json.dumps(data))
    return path


def run_multiple(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], index: int, command: str, *args: str
) -> tuple[dict[str, Any], int, str]:
    """``command -q`` on ``MULTIPLE[index]`` written to a file: the puzzle, exit code, stdout."""
    data = MULTIPLE[index]
    code, out, _ = run(capsys, command, str(json_file(tmp_path / "m.json", data)), *args, "-q")
    return data, code, out


def jsonl(path: Path, items: list[Any]) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in items))
    return path


def test_the_cases_have_every_verdict() -> None:
    assert {"unique", "multiple", "none"} <= set(VERDICTS)


def test_check_a_json_file_and_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = json_file(tmp_path / "p.json", UNIQUE[0])
    code, out, _ = run(capsys, "check", str(path), link(from_fpuzzles(UNIQUE[1])))
    assert code == 0
    assert out.splitlines() == [f"{path}:1\tunique", "<argument>:1\tunique"]


def test_check_rows_in_every_format_agree_with_cpsat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = jsonl(tmp_path / "p.jsonl", [d for _, d in CASES])
    code, text, _ = run(capsys, "check", str(path), "-q")
    assert code == 1
    assert [row.split("\t")[1] for row in text.splitlines()] == VERDICTS
    _, out, _ = run(capsys, "check", str(path), "-q", "--format", "jsonl")
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["status"] for r in rows] == VERDICTS
    assert [r["line"] for r in rows] == list(range(1, len(CASES) + 1))
    assert set(rows[0]) == {"file", "line", "puzzle", "status", "count", "fpuzzles"}
    for r, (_, d) in zip(rows, CASES, strict=True):
        givens = [cell.get("value", 0) for row in d["grid"] for cell in row]
        assert r["puzzle"] == "".join(str(v) if v else "." for v in givens)
        assert from_fpuzzles(r["fpuzzles"]) == from_fpuzzles(d)  # the row holds its puzzle
    _, out, _ = run(capsys, "check", str(path), "-q", "--format", "csv", "--limit", "5")
    table = list(csv.DictReader(io.StringIO(out)))
    assert list(table[0]) == ["file", "line", "puzzle", "status", "count", "reason", "fpuzzles"]
    counts = [variants.count(from_fpuzzles(d), 5, backend="cpsat") for _, d in CASES]
    assert [int(r["count"]) for r in table] == counts


def test_jobs_and_output_give_the_same_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = jsonl(tmp_path / "p.jsonl", [d for _, d in CASES])
    _, one, _ = run(capsys, "count", str(path), "-q", "--limit", "4")
    out = tmp_path / "rows.txt"
    code, printed, err = run(
        capsys, "count", str(path), "--limit", "4", "--jobs", "2", "-o", str(out)
    )
    assert code == 0 and printed == ""
    assert out.read_text() == one
    assert f"{len(CASES)} variant puzzles" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "p.jsonl",
        "rows.txt",
    ]  # no partial, no lock


def test_resume_goes_on_from_a_cut_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = jsonl(tmp_path / "p.jsonl", [d for _, d in CASES])
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    args = ["solve", str(path), "--format", "jsonl", "-q"]
    run(capsys, *args, "-o", str(full))
    data = full.read_bytes()
    part.write_bytes(data[: len(data) // 2])  # cut inside a row
    run(capsys, *args, "-o", str(part), "--resume")
    assert part.read_bytes() == data


def test_bad_entries_are_named_and_the_others_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = {**UNIQUE[0], "thermometer": [{"lines": [["R1C1", "R10C1"]]}]}
    unknown = {**UNIQUE[1], "junk": 1}
    path = jsonl(tmp_path / "p.jsonl", [UNIQUE[0], '{"size": 9, oops', outside, unknown, UNIQUE[1]])
    code, out, err = run(capsys, "check", str(path))
    assert code == 2
    rows = [row.split("\t") for row in out.splitlines()]
    assert [r[1] for r in rows] == [
        "unique",
        "invalid  # malformed JSON: Expecting property name enclosed in double quotes",
        "invalid  # thermometer[0]: cell R10C1 is outside the 9x9 grid",
        "invalid  # unknown field 'junk': this engine cannot solve it",
        "unique",
    ]
    assert re.search(rf"{re.escape(str(path))}:2:\d+: malformed JSON", err)
    assert f"{path}:3: thermometer[0]: cell R10C1 is outside the 9x9 grid" in err
    assert f"{path}:4: unknown field 'junk'" in err
    code, out, _ = run(capsys, "solve", str(path), "--skip-invalid", "-q")
    assert code == 0 and [r.split("\t")[0] for r in out.splitlines()] == [f"{path}:1", f"{path}:5"]
    code, out, _ = run(capsys, "candidates", str(path), "--format", "jsonl", "-q")
    assert code == 2 and [json.loads(r)["line"] for r in out.splitlines()] == [1, 5]


def test_quiet_and_the_progress_bar(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = jsonl(tmp_path / "p.jsonl", UNIQUE)
    assert run(capsys, "check", str(path), "-q")[2] == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, _, err = run(capsys, "check", str(path))
    assert re.search(r"\[\d\d:\d\d", err)  # tqdm's elapsed time
    assert f"{len(UNIQUE)} variant puzzles: {len(UNIQUE)} unique" in err


def test_solve_count_and_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = UNIQUE[2]
    path = json_file(tmp_path / "p.json", data)
    code, out, _ = run(capsys, "solve", str(path), "--backend", "cpsat")
    _, status, line = out.strip().split("\t")
    assert code == 0 and status == "unique"
    assert broken_rules(data, rows_of(data, line)) == []
    assert run(capsys, "count", str(path))[1].strip().endswith("\t1")
    code, out, _ = run(capsys, "candidates", str(path))
    assert code == 0 and out.strip().split("\t")[1] == " ".join(line)


def test_solve_all_shows_distinct_solutions_of_a_multiple_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, code, out = run_multiple(tmp_path, capsys, 0, "solve", "--all", "3", "--format", "jsonl")
    rows = [json.loads(r) for r in out.splitlines()]
    assert code == 1 and len(rows) >= 2
    assert len({r["solution"] for r in rows}) == len(rows)
    assert all(r["status"] == "multiple" for r in rows)
    for r in rows:
        assert broken_rules(data, rows_of(data, r["solution"])) == []


def test_candidates_are_the_union_of_the_solutions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, code, out = run_multiple(
        tmp_path, capsys, 1, "candidates", "--format", "jsonl", "--jobs", "2"
    )
    cands = json.loads(out)["candidates"]
    sols = variants.solutions(from_fpuzzles(data), 500, backend="cpsat")
    assert code == 0 and len(sols) < 500
    union = ["".join(sorted({str(s.cells[c]) for s in sols})) for c in range(81)]
    assert cands == union
    assert run_multiple(tmp_path, capsys, 1, "candidates", "--cap", "1")[1] == 1


def test_a_wrong_backend_or_a_resume_without_output_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = json_file(tmp_path / "p.json", UNIQUE[0])
    assert run(capsys, "check", str(path), "--backend", "dlx")[0] == 2
    assert run(capsys, "check", str(path), "--resume")[0] == 2


# ---------------------------------------------------------------- check --certify
def test_certify_proves_the_unique_puzzles_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = jsonl(tmp_path / "p.jsonl", [d for _, d in CASES])
    certs = tmp_path / "certs"
    run(capsys, "check", str(path), "--certify", str(certs), "-q")
    unique_lines = {k + 1 for k, v in enumerate(VERDICTS) if v == "unique"}
    proofs = sorted(certs.glob("*.drat"))
    assert {int(p.stem.split("-")[1]) for p in proofs} == unique_lines
    for proof in proofs:
        formula = proof.with_suffix(".cnf")
        assert check_drat(formula, proof)
        verdict = drat_trim(formula, proof)
        if verdict is not None:  # drat-trim installed: it must agree
            assert verdict


def test_a_certificate_of_a_multiple_puzzle_is_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    certs = tmp_path / "certs"
    _, code, out = run_multiple(tmp_path, capsys, 0, "check", "--certify", str(certs))
    assert code == 1 and out.split("\t")[1].strip() == "multiple"
    assert not certs.exists() or not list(certs.iterdir())


def test_the_certified_formula_says_what_the_puzzle_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without its last clause (the one blocking the solution), the certificate's formula
    has exactly the puzzle's solution: it is the puzzle, not a stronger formula."""
    data = UNIQUE[3]
    path = json_file(tmp_path / "u.json", data)
    run(capsys, "check", str(path), "--certify", str(tmp_path), "-q")
    clauses = _dimacs((tmp_path / "u-1.cnf").read_text())
    grids = _grids(clauses[:-1], 2)
    assert len(grids) == 1 and broken_rules(data, grids[0]) == []
    assert _grids(clauses, 1) == []


def _dimacs(text: str) -> list[list[int]]:
    """The clauses of DIMACS text (read here, not by the package)."""
    nums = [
        int(t) for line in text.splitlines() if line and line[0] not in "cp" for t in line.split()
    ]
    clauses, cur = [], []
    for x in nums:
        if x == 0:
            clauses.append(cur)
            cur = []
        else:
            cur.append(x)
    return clauses


def _grids(clauses: list[list[int]], limit: int, n: int = 9) -> list[list[list[int]]]:
    """Up to ``limit`` grids of the formula's models, distinct on the candidates."""
    out = []
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        while len(out) < limit and s.solve():
            model = s.get_model()
            true = [v for v in model[: n * n * n] if v > 0]
            cells = {(v - 1) // n: (v - 1) % n + 1 for v in true}
            out.append([[cells[r * n + c] for c in range(n)] for r in range(n)])
            s.add_clause([-v for v in true])
    return out


# ---------------------------------------------------------------- export
def test_export_cnf_of_a_variant_has_its_solutions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for data in (UNIQUE[0], MULTIPLE[0]):
        path = json_file(tmp_path / "p.json", data)
        code, out, _ = run(capsys, "export", "cnf", str(path))
        assert code == 0 and "c constraints: " in out
        grids = _grids(_dimacs(out), 3)
        want = variants.count(from_fpuzzles(data), 3, backend="cpsat")
        assert len(grids) == want
        assert all(broken_rules(data, g) == [] for g in grids)


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
def test_export_minizinc_of_a_variant_solves_to_its_solutions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for data in (UNIQUE[1], MULTIPLE[1]):
        path = json_file(tmp_path / "p.json", data)
        model = tmp_path / "p.mzn"
        assert run(capsys, "export", "minizinc", str(path), "-o", str(model))[0] == 0
        done = subprocess.run(
            ["minizinc", "--solver", "gecode", "-n", "3", str(model)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        grids = [
            [[int(x) for x in row.split()] for row in block.strip().splitlines()]
            for block in done.stdout.split("----------")[:-1]
        ]
        assert len(grids) == variants.count(from_fpuzzles(data), 3, backend="cpsat")
        assert all(broken_rules(data, g) == [] for g in grids)


def test_export_exact_cover_and_grid_options_refuse_a_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = json_file(tmp_path / "p.json", UNIQUE[0])
    code, _, err = run(capsys, "export", "exact-cover", str(path))
    assert code == 2 and "exact-cover" not in err.split(":")[0] and "no exact-cover" in err
    assert run(capsys, "export", "fpuzzles", str(path), "--size", "9")[0] == 2
    assert run(capsys, "export", "cnf", "--link")[0] == 2


LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_export_fpuzzles_of_plain_puzzles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "export", "fpuzzles", LINE)
    data = json.loads(out)
    assert code == 0 and data["size"] == 9
    assert "".join(str(c.get("value", ".")) for row in data["grid"] for c in row) == LINE
    plain = run(capsys, "solve", LINE, "-q")[1].strip()  # a plain solve row is the solution
    (tmp_path / "p.json").write_text(out)
    assert run(capsys, "solve", str(tmp_path / "p.json"), "-q")[1].split("\t")[2].strip() == plain
    code, out, _ = run(capsys, "export", "fpuzzles", "--variant", "x", "--size", "4")
    assert (
        code == 0 and json.loads(out)["diagonal+"] is True and json.loads(out)["diagonal-"] is True
    )
    code, out, _ = run(capsys, "export", "fpuzzles", "--variant", "windoku")
    assert code == 0 and len(json.loads(out)["extraregion"]) == 4
    src = tmp_path / "many.txt"
    src.write_text(f"{LINE}\nnot a puzzle\n{LINE}\n")
    code, out, err = run(capsys, "export", "fpuzzles", str(src), "--link")
    assert code == 2 and len(out.splitlines()) == 2 and f"{src}:2" in err
    assert all(u.startswith("https://www.f-puzzles.com/?load=") for u in out.splitlines())


def test_export_fpuzzles_writes_the_good_entries_of_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = jsonl(tmp_path / "p.jsonl", [UNIQUE[0], "{oops", UNIQUE[1]])
    code, out, err = run(capsys, "export", "fpuzzles", str(path))
    assert code == 2 and f"{path}:2:" in err
    assert [from_fpuzzles(json.loads(x)) for x in out.splitlines()] == [
        from_fpuzzles(UNIQUE[0]),
        from_fpuzzles(UNIQUE[1]),
    ]


# ---------------------------------------------------------------- never a traceback
@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(CASES),
    st.sampled_from(["size", "grid", "killercage", "arrow", "negative", "odd", "junk"]),
    st.none() | st.integers(-3, 30) | st.text(max_size=5) | st.lists(st.text(max_size=6)),
)
def test_the_cli_never_fails_with_a_traceback(
    case: tuple[str, dict[str, Any]], key: str, value: Any
) -> None:
    """Any one field replaced: an answer (0 or 1) or exit 2 with a message, never 70."""
    import contextlib
    import tempfile

    data = {**case[1], key: value}
    with tempfile.TemporaryDirectory() as folder:
        path = json_file(Path(folder) / "p.json", data)
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["check", str(path)])
    assert code in (0, 1, 2)
    if code == 2:
        assert "p.json:1" in err.getvalue()


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(range(len(UNIQUE))).map(lambda i: json.dumps(UNIQUE[i]))
        | st.text(alphabet='{}[]":,0123456789 abcRCsizegrd', max_size=30).filter(
            # a line of digits and dots alone is a plain puzzle line (a 4x4 one may
            # be good): see test_a_jsonl_file_mixes_plain_lines_and_variant_entries;
            # one of colons and spaces alone is a grid's separator line, skipped as
            # layout (as '---+---' is) by every reader
            lambda t: (
                t.strip() != ""
                and re.fullmatch(r"[0-9.]+", t.strip()) is None
                and re.fullmatch(r"[: ]+", t.strip()) is None
            )
        ),
        min_size=1,
        max_size=6,
    )
)
def test_a_jsonl_of_good_and_garbage_lines_answers_every_good_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str]
) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text("".join(x.replace("\n", " ") + "\n" for x in lines))
    code, out, err = run(capsys, "check", str(path), "-q", "--format", "jsonl")
    rows = [json.loads(r) for r in out.splitlines()]
    assert [r["line"] for r in rows] == list(range(1, len(lines) + 1))
    good = {k + 1 for k, x in enumerate(lines) if x.startswith('{"size"')}
    assert {r["line"] for r in rows if r["status"] == "unique"} == good
    assert code == (0 if len(good) == len(lines) else 2)
    for r in rows:
        if r["status"] == "invalid":
            assert re.search(rf"{re.escape(str(path))}:{r['line']}[:\s]", err)


PLAIN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_a_jsonl_file_mixes_plain_lines_and_variant_entries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``.jsonl`` file took every line that was no JSON record for f-puzzles text: a
    plain puzzle line after a variant entry was refused as "not f-puzzles data"
    (the same file named ``.txt`` was read). And a bad record's row said its
    error at line 1 (each line is read alone) while stderr said the right line."""
    path = jsonl(
        tmp_path / "m.jsonl", [UNIQUE[0], PLAIN, "123", {"puzzle": PLAIN}, {"puzzle": "12x"}]
    )
    code, out, err = run(capsys, "check", str(path), "--format", "jsonl", "-q")
    rows = {r["line"]: r for r in map(json.loads, out.splitlines())}
    assert code == 2 and sorted(rows) == [1, 2, 3, 4, 5]
    assert [rows[k]["status"] for k in (1, 2, 4)] == ["unique"] * 3
    assert rows[2]["puzzle"] == PLAIN
    assert rows[3]["reason"].startswith(f"{path}:3:4: line has 3 cells")
    assert rows[5]["reason"].startswith(f"{path}:5:16: line has 3 cells")
    assert f"{path}:3:4:" in err and f"{path}:5:16:" in err and "f-puzzles" not in err


@pytest.mark.parametrize("command", ["check", "count", "solve", "rate", "explain"])
def test_a_url_that_is_no_fpuzzles_link_is_refused_by_name(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "https://example.com/puzzle?id=3"
    assert main([command, url]) == 2
    err = capsys.readouterr().err
    assert f"{url}: not an f-puzzles link" in err and "Traceback" not in err
