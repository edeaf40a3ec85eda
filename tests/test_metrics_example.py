"""examples/anneal_hard_minimal.py runs small, deterministically under a seed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import csp_sudoku as cs

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "anneal_hard_minimal.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("anneal_hard_minimal", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_anneal_is_seeded_and_keeps_puzzles_minimal() -> None:
    mod = load()
    a = mod.anneal(steps=6, seed=3, runs=2)
    b = mod.anneal(steps=6, seed=3, runs=2)
    assert a.best == b.best and a.best_score == b.best_score
    assert a.best_score >= a.start_score
    assert cs.is_minimal(a.best)
    assert a.unique_calls == 6 and a.rate_calls >= 1


def test_anneal_main(capsys: pytest.CaptureFixture[str]) -> None:
    assert load().main(["--steps", "3", "--seed", "1", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert "3 steps" in out and "minimal: True" in out
