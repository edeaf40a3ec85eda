"""Every example in examples/ runs (small) and finishes cleanly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

#: Arguments that keep each example small enough for the test run.
ARGS: dict[str, list[str]] = {
    "check_file.py": [str(ROOT / "examples" / "data" / "mixed.txt"), "--quick"],
    "anneal_hard_minimal.py": ["--steps", "40", "--seed", "1", "--runs", "2"],
    "make_book.py": ["--quick"],
}


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path, tmp_path: Path) -> None:
    args = ARGS.get(script.name, ["--quick"])
    proc = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert proc.stdout.strip(), "an example should show its result"
