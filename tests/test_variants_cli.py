"""``csp-sudoku check|count|solve|candidates`` on f-puzzles JSON, JSON Lines and ``?load=`` links."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles, link
from tests.independent_variants import broken_rules
from tests.test_variants import CASES

UNIQUE = [d for label, d in CASES if label.endswith(":unique")]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_a_json_file_and_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(UNIQUE[0]))
    code, out, _ = run(capsys, "check", str(path), link(from_fpuzzles(UNIQUE[1])))
    assert code == 0
    assert out.splitlines() == [f"{path}:1\tunique", "<argument>:1\tunique"]


def test_bad_lines_exit_2_and_the_others_are_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**UNIQUE[0], "thermometer": [{"lines": [["R1C1", "R10C1"]]}]}
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in (UNIQUE[0], bad, UNIQUE[1])) + "\n")
    code, out, err = run(capsys, "check", str(path))
    assert code == 2
    assert [row.split("\t")[1] for row in out.splitlines()] == ["unique", "unique"]
    assert f"{path}:2: thermometer[0]: cell R10C1 is outside the 9x9 grid" in err


def test_solve_count_and_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = UNIQUE[2]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "solve", str(path), "--backend", "cpsat")
    _, status, line = out.strip().split("\t")
    assert code == 0 and status == "unique"
    rows = [[int(ch) for ch in line[r * 9 : r * 9 + 9]] for r in range(9)]
    assert broken_rules(data, rows) == []
    assert run(capsys, "count", str(path))[1].strip().endswith("\t1")
    code, out, _ = run(capsys, "candidates", str(path))
    assert code == 0 and out.strip().split("\t")[1] == " ".join(line)


def test_a_wrong_backend_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(UNIQUE[0]))
    assert run(capsys, "check", str(path), "--backend", "dlx")[0] == 2


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
    import io
    import tempfile

    data = {**case[1], key: value}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.json"
        path.write_text(json.dumps(data))
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["check", str(path)])
    assert code in (0, 1, 2)
    if code == 2:
        assert "p.json:1: " in err.getvalue()
