"""Every batch command in every ``--format`` gives the same rows with the same fields:
JSON Lines and CSV carry the same columns (CSV flattens nested values as ``A.B``), text
has one row per JSON row. Nothing is dropped by a format.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from typing import Any

import pytest

from csp_sudoku.cli import main
from tests.conftest import load_lines

LINES = load_lines("top1465.txt", limit=3)
COMMANDS: dict[str, list[str]] = {
    "check": ["check", *LINES],
    "solve": ["solve", *LINES],
    "count": ["count", *LINES, "--limit", "5"],
    "rate": ["rate", *LINES, "-m", "se", "-m", "rounds", "--seed", "1"],
    "minimize": ["minimize", *LINES, "--seed", "1"],
    "generate": ["generate", "-n", "2", "--level", "hard", "--seed", "3"],
}


def _run(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*argv, "-q"])
    assert code in (0, 1), err.getvalue()
    return out.getvalue()


def _flat(record: dict[str, Any], prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for k, v in record.items():
        name = f"{prefix}{k}"
        keys.add(name)
        if isinstance(v, dict):
            keys |= _flat(v, f"{name}.")
    return keys


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_format_carries_the_same_rows_and_fields(name: str) -> None:
    argv = COMMANDS[name]
    rows = [json.loads(x) for x in _run([*argv, "--format", "jsonl"]).splitlines()]
    table = list(csv.DictReader(io.StringIO(_run([*argv, "--format", "csv"]))))
    text = _run([*argv, "--format", "text"]).splitlines()
    assert rows and len(table) == len(rows) == len(text)
    for rec, line in zip(rows, table, strict=True):
        columns = {k for k, v in line.items() if v not in ("", None)}
        if "metric" in rec:  # rate's CSV names a rating's details METRIC.KEY
            columns |= {f"details.{k.split('.', 1)[1]}" for k in columns if "." in k}
        leaves = {k for k in _flat(rec) if not isinstance(_lookup(rec, k), dict)}
        # every leaf of the JSON row is a CSV column, or inside a column holding its parent
        for key in leaves:
            if _lookup(rec, key) in (None, "", [], {}):
                continue
            parts = key.split(".")
            assert any(".".join(parts[:i]) in columns for i in range(1, len(parts) + 1)), key
        assert str(rec["puzzle"]) == line["puzzle"]


def _lookup(record: dict[str, Any], dotted: str) -> Any:
    value: Any = record
    for part in dotted.split("."):
        value = value[part]
    return value


def test_help_lists_every_registered_name() -> None:
    """``--help`` names every metric, every level of each, and every technique."""
    from csp_sudoku.generators.targeting import level_order
    from csp_sudoku.human.catalogue import technique_names
    from csp_sudoku.metrics import METRICS

    def help_of(command: str) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([command, "--help"])
        return " ".join(out.getvalue().split())

    generate, rate = help_of("generate"), help_of("rate")
    for metric in METRICS:
        assert metric in rate and metric in generate
        for level in level_order(metric):
            assert level in generate
    for name in technique_names():
        assert name in generate
