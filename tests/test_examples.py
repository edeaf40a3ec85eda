"""Every example in examples/ runs (small) and finishes cleanly; every benchmark script
reads its options (a ``%`` in a help text once made ``bench_generate.py --help`` a
ValueError from argparse's formatting)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
#: The benchmark scripts that read options (metric_data.py and _common.py are modules
#: the others import; a script may build its parser with a sibling's help).
BENCHMARKS = sorted(
    p for p in (ROOT / "benchmarks").glob("*.py") if "parse_args(" in p.read_text(encoding="utf-8")
)

#: Arguments that keep each example small enough for the test run.
ARGS: dict[str, list[str]] = {
    "check_file.py": [str(ROOT / "examples" / "data" / "mixed.txt"), "--quick"],
    "anneal_hard_minimal.py": ["--steps", "40", "--seed", "1", "--runs", "2"],
    "make_book.py": ["--quick"],
}


def _run(script: Path, args: list[str], cwd: Path) -> str:
    """``script ARGS`` run in ``cwd``: its standard output, once it ended cleanly."""
    proc = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return proc.stdout


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path, tmp_path: Path) -> None:
    out = _run(script, ARGS.get(script.name, ["--quick"]), tmp_path)
    assert out.strip(), "an example should show its result"


def test_the_hard_example_prints_what_rate_prints(tmp_path: Path) -> None:
    """One truth per number: the SE rating the example prints is the one
    ``csp-sudoku rate --metric se`` prints for the same puzzle."""
    out = _run(ROOT / "examples" / "explain_hard.py", [], tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "rate", "--metric", "se", "--format", "jsonl",
         "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    import json

    rated = json.loads(proc.stdout.splitlines()[0])
    score = rated["score"]
    assert f"Sudoku Explainer's rating (as `rate --metric se`): ER {score:.1f}," in out
    assert "the human model's estimate for its own path above (not SE's rating)" in out


@pytest.mark.parametrize("script", BENCHMARKS, ids=[p.name for p in BENCHMARKS])
def test_benchmark_answers_help(script: Path) -> None:
    assert _run(script, ["--help"], ROOT).startswith("usage:")
