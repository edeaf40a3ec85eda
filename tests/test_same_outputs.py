"""Same outputs for the same seeds: generate / rate / explain against recorded values.

The expected values in tests/data/same_outputs.json were recorded by
scripts/record_same_outputs.py before the layering and seed refactor
and must not change unless a change of output is intended and recorded anew.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = ROOT / "tests" / "data" / "same_outputs.json"


def _recorder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "record_same_outputs", ROOT / "scripts" / "record_same_outputs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def outputs() -> tuple[dict[str, Any], dict[str, Any]]:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    got = json.loads(json.dumps(_recorder().compute(), sort_keys=True))
    return expected, got


@pytest.mark.parametrize("section", ["rate", "rate_many", "explain", "generate", "grids"])
def test_same_outputs_as_recorded(
    outputs: tuple[dict[str, Any], dict[str, Any]], section: str
) -> None:
    expected, got = outputs
    assert len(got[section]) == len(expected[section])
    for want, have in zip(expected[section], got[section], strict=True):
        assert have == want
