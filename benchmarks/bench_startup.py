"""Start-up of the command line: warm and first-run (empty numba cache) times, interleaved.

Each ROOT is a source tree of csp_sudoku (the repository, or another commit
exported with ``git archive REV | tar -x -C DIR``), run with this
interpreter's packages through ``PYTHONPATH=ROOT`` from a scratch folder (so
the current folder does not shadow it). The runs of the roots alternate, so
a change in the machine's load hits every root alike; the figures are the
median wall and CPU (user + system) seconds of the runs, with their range.

* ``warm check``: ``csp-sudoku check PUZZLE`` with the numba cache in place
  (one untimed run first fills it);
* ``first check`` and ``first rate``: the same after deleting ROOT's numba
  cache (``*.nbi``/``*.nbc``), as on a fresh machine: ``rate`` with every
  metric (``--metric hsolve,rounds,...,combined``);
* ``second se`` (``--warm-se N``): ``csp-sudoku rate --metric se HARD -q``
  with the numba cache in place (a second rating, after the first filled it)
  of one of the forum's hardest (ER 10.4), on every core of the machine and,
  alternating, on one (the process's affinity set to one core, as
  ``taskset -c 0`` does: what a one-core machine, or a worker, gets).
* ``second se, ER x`` (``--se-by-er N``): the same second rating of one puzzle
  of each half-point band of SE's ratings (the first of the band, in file
  order, from the SE calibration set in ``tests/data/reference``): what the
  wait is for puzzles of every difficulty, not just the hardest.

Usage:
    .venv/bin/python benchmarks/bench_startup.py [--warm 9] [--cold 3] [--warm-se 0] [--se-by-er 0] ROOT [ROOT ...]
"""

from __future__ import annotations

import argparse
import lzma
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: One of the forum's hardest (in examples/data/few.txt), ER 10.4.
HARD = "....5.7..4.7..9.3..8....1..2.8..7.....4..8....7..9...3......6...4...2.97..2.....1"
#: The README's puzzle.
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
METRICS = "hsolve,rounds,mdrt,oracle,refutation,dependency,se,combined"
#: What the ``csp-sudoku`` script runs: ``cli.entry`` (it ends the process with
#: ``os._exit`` once the output is flushed, skipping the interpreter's teardown, about
#: 0.2 s with numba loaded), or ``cli.main`` in a tree older than ``entry``.
RUN_CLI = (
    "import sys; from csp_sudoku import cli; "
    "sys.exit(cli.entry() if hasattr(cli, 'entry') else cli.main())"
)
COMMANDS = {
    "check": ["check", PUZZLE],
    "rate": ["rate", "--seed", "1", "--metric", METRICS, PUZZLE],
    "se": ["rate", "--metric", "se", "-q", HARD],
}


#: SukakuExplainer's ratings of the calibration puzzles (tab-separated, ``ER`` and ``puzzle``).
CALIBRATION = Path(__file__).resolve().parents[1] / "tests/data/reference/se_calibration.tsv.xz"


def _one_per_band() -> list[tuple[float, str]]:
    """The first calibration puzzle of each half-point band of ER, easiest band first."""
    with lzma.open(CALIBRATION, "rt") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        er, puzzle = header.index("ER"), header.index("puzzle")
        bands: dict[float, tuple[float, str]] = {}
        for line in fh:
            fields = line.rstrip("\n").split("\t")
            score = float(fields[er])
            bands.setdefault(int(score * 2) / 2, (score, fields[puzzle]))
    return [bands[b] for b in sorted(bands)]


def _clear_numba_cache(root: Path) -> None:
    for pattern in ("*.nbi", "*.nbc"):
        for f in (root / "csp_sudoku").rglob(pattern):
            f.unlink()


def _one_core() -> None:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _run(root: Path, args: list[str], scratch: str, one_core: bool = False) -> tuple[float, float]:
    """Wall and CPU seconds of one CLI run from ``root`` (``one_core``: on one core)."""
    # bytecode written and reused, as a user's Python does (a shell may turn it off)
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", RUN_CLI, *args],
        cwd=scratch,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
        preexec_fn=_one_core if one_core else None,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _report(label: str, root: Path, runs: list[tuple[float, float]]) -> None:
    walls = [w for w, _ in runs]
    cpus = [c for _, c in runs]
    print(
        f"{label:12s} {root}: wall median {statistics.median(walls):.2f} s "
        f"({min(walls):.2f}-{max(walls):.2f}), CPU median {statistics.median(cpus):.2f} s "
        f"({min(cpus):.2f}-{max(cpus):.2f}), {len(runs)} runs"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", type=Path, help="source trees of csp_sudoku")
    ap.add_argument("--warm", type=int, default=9, help="warm check runs per root")
    ap.add_argument("--cold", type=int, default=3, help="first runs per root and command")
    ap.add_argument("--warm-se", type=int, default=0, help="second se ratings per root and way")
    ap.add_argument(
        "--se-by-er",
        type=int,
        default=0,
        help="second se ratings per root of one puzzle an ER band",
    )
    args = ap.parse_args()
    roots = [r.resolve() for r in args.roots]
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as scratch:
        results: dict[tuple[str, Path], list[tuple[float, float]]] = {}
        for cmd in ("check", "rate"):
            for _ in range(args.cold):
                for root in roots:
                    _clear_numba_cache(root)
                    results.setdefault((f"first {cmd}", root), []).append(
                        _run(root, COMMANDS[cmd], scratch)
                    )
                    loads.append(os.getloadavg()[0])
        for root in roots:
            _run(root, COMMANDS["check"], scratch)  # the cache of check's kernels, if any
        for _ in range(args.warm):
            for root in roots:
                results.setdefault(("warm check", root), []).append(
                    _run(root, COMMANDS["check"], scratch)
                )
        for root in roots:
            _run(root, COMMANDS["se"], scratch)  # the first rating fills the cache
        for _ in range(args.warm_se):
            for root in roots:
                for one in (False, True):
                    label = "second se, 1 core" if one else "second se"
                    results.setdefault((label, root), []).append(
                        _run(root, COMMANDS["se"], scratch, one)
                    )
        bands = _one_per_band() if args.se_by_er else []
        for _ in range(args.se_by_er):
            for score, puzzle in bands:
                for root in roots:
                    results.setdefault((f"second se, ER {score:.1f}", root), []).append(
                        _run(root, ["rate", "--metric", "se", "-q", puzzle], scratch)
                    )
        loads.append(os.getloadavg()[0])
    for (label, root), runs in results.items():
        _report(label, root, runs)
    print(f"load average (1 min) during the runs: {min(loads):.1f}-{max(loads):.1f}")


if __name__ == "__main__":
    main()
