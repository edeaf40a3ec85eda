"""``rate`` keeps what it reads and writes all it computed: repeated ``--metric``,
the fields of input records (clashing names as ``input_NAME``), and a rating's
details as CSV columns."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main
from csp_sudoku.cli.rate import kept_fields
from tests.conftest import load_lines

LINES = load_lines("17_clue.txt", limit=3)
#: The names a rating row uses itself.
OWN = {"file", "line", "puzzle", "metric", "score", "level", "level_rank", "details",
       "parameters", "runs", "seed", "version"}  # fmt: skip


def _rate(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    """``csp-sudoku rate ARGS`` in this process: exit code and standard output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["rate", *args, "-q"])
    return code, out.getvalue()


def _file(tmp: Path, lines: list[str]) -> str:
    path = tmp / "in.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_repeated_metric_accumulates(tmp_path: Path) -> None:
    src = _file(tmp_path, LINES[:2])
    want = ["se", "rounds", "hsolve"] * 2
    for args in (["-m", "se", "-m", "rounds", "-m", "hsolve"], ["-m", "se,rounds", "-m", "hsolve"],
                 ["-m", "se,rounds,hsolve"], ["-m", "se", "-m", "rounds,hsolve,se"]):  # fmt: skip
        code, out = _rate([src, *args, "--format", "jsonl", "--seed", "1"])
        assert code == 0, args
        assert [json.loads(x)["metric"] for x in out.splitlines()] == want, args


def test_csv_carries_the_details(tmp_path: Path) -> None:
    src = _file(tmp_path, LINES)
    code, out = _rate([src, "-m", "se", "-m", "rounds", "--format", "csv", "--seed", "1"])
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    header = next(csv.reader(io.StringIO(out)))
    for col in ("se.er", "se.ep", "se.ed", "se.hardest", "rounds.rounds", "version", "parameters"):
        assert col in header, col
    assert header.index("se.er") < header.index("rounds.rounds")  # the metrics' order
    _, jl = _rate([src, "-m", "se", "-m", "rounds", "--format", "jsonl", "--seed", "1"])
    for row, record in zip(rows, map(json.loads, jl.splitlines()), strict=True):
        assert row["metric"] == record["metric"]
        for key, value in record["details"].items():
            cell = row[f"{record['metric']}.{key}"]
            if isinstance(value, (dict, list)):
                assert json.loads(cell) == value
            else:
                assert cell == str(value)
        other = "rounds" if record["metric"] == "se" else "se"
        assert all(v == "" for k, v in row.items() if k.startswith(other + "."))
    # the same metrics give the same columns whatever the puzzles
    _, again = _rate([_file(tmp_path, LINES[::-1]), "-m", "se,rounds", "--format", "csv"])
    assert next(csv.reader(io.StringIO(again))) == header


def test_generator_fields_survive_rate(tmp_path: Path) -> None:
    rec = {"puzzle": LINES[0], "seed": 5, "method": "rg1", "derived_from": LINES[1],
           "version": "gen-1", "minimal": True, "symmetry": "none",
           "ratings": {"oracle": {"score": 0.5, "level": "x"}}}  # fmt: skip
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    code, out = _rate([str(path), "-m", "rounds", "--format", "jsonl", "--seed", "3"])
    assert code == 0
    row = json.loads(out)
    assert row["input_seed"] == 5 and row["input_version"] == "gen-1"
    assert row["version"] != "gen-1" and row["metric"] == "rounds"
    for key in ("method", "derived_from", "minimal", "symmetry", "ratings"):
        assert row[key] == rec[key], key
    # rated again: the generator's seed is still the input_seed (the oldest is kept)
    path.write_text(out, encoding="utf-8")
    code, out = _rate([str(path), "-m", "se", "--format", "jsonl"])
    again = json.loads(out)
    assert again["input_seed"] == 5 and again["input_metric"] == "rounds"


_names = st.text(
    st.characters(codec="ascii", categories=("L", "N")), min_size=1, max_size=8
).filter(
    lambda k: k not in ("geometry", "regions")  # read: they name the puzzle's shape
)
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_names, inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extra=st.dictionaries(_names | st.sampled_from(sorted(OWN)), _values, max_size=6))
def test_rate_keeps_arbitrary_fields(extra: dict[str, Any]) -> None:
    record = {**extra, "puzzle": LINES[0]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "in.jsonl"
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        code, out = _rate([str(path), "-m", "rounds", "--format", "jsonl", "--seed", "1"])
    assert code == 0
    row = json.loads(out)
    for key, value in extra.items():
        if key in ("file", "line", "puzzle"):
            continue  # where the row's own input is, and its own puzzle
        if key in OWN:
            if f"input_{key}" not in extra:
                assert row[f"input_{key}"] == value, key
        else:
            assert row[key] == value, key
    assert kept_fields(record, OWN | {"puzzle"}) == {k: v for k, v in row.items() if k not in OWN}


@pytest.mark.parametrize("name", ["sse", "all,sse"])
def test_unknown_metric_is_exit_2(name: str) -> None:
    code, out = _rate([LINES[0], "-m", "rounds", "-m", name])
    assert code == 2 and out == ""
