"""Every benchmark script reads its options: ``--help`` answers (a ``%`` in a help text
once made ``bench_generate.py --help`` a ValueError from argparse's formatting)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The scripts that take options (metric_data.py is a module the others import).
SCRIPTS = sorted(
    p for p in (ROOT / "benchmarks").glob("*.py") if "argparse" in p.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_benchmark_answers_help(script: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(script), "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("usage:")
