"""``bank add``, this checkout against an earlier commit, same input, same run.

Times ``csp-sudoku bank add BANK FILE`` (the real command line, in a
subprocess, into a new bank) by the package of commit ``--baseline`` (from a
``git worktree`` of it) and by this checkout, on the same lines, in turns
(baseline, this, baseline, this, ... ``--repeats`` of each), so that both see
the same load of a shared machine; prints each run's wall and CPU time (user +
system, all threads), the machine's load average before it, and the ratios of
the best runs. Each side first adds a few hundred lines to a throwaway bank,
so that numba's cache is filled before the timed runs.

Two inputs:

* ``made`` (``--lines`` of them): the puzzles of ``bench_bank.py``, a sample
  puzzle with 4-9 more clues of its solution, randomly transformed: unique,
  never minimal (the minimality check stops at the first clue that can go);
* ``minimal``: the minimal puzzles of the reference sets (17-clue puzzles and
  the forum's hardest, up to ``--lines``), where the minimality check must
  search once for every clue.

``--kernel`` times the batch kernel of a puzzle's facts alone
(``csp_sudoku._kernels.bank.facts_rows``, one thread, minimality asked: the
best of three passes) on 20,000 made puzzles, 10,000 17-clue puzzles and
5,000 of the forum's hardest, by both packages in turns, each in a process of
its own, and checks that both give the same codes.

Usage::

    .venv/bin/python benchmarks/bench_bank_add.py [--lines 100000] [--baseline REV]
        [--inputs made,minimal] [--repeats 2] [--dir DIR] [--kernel]
"""

from __future__ import annotations

import argparse
import lzma
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from _common import summary_of
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
#: The command line of a checkout (run with its root first on PYTHONPATH, not whichever
#: csp_sudoku the venv was installed from).
CLI = [sys.executable, "-m", "csp_sudoku"]
REFERENCE = ROOT / "tests" / "data" / "reference"
#: The reference sets of minimal puzzles the ``minimal`` input reads, in this order.
MINIMAL_SETS = ("17_clue.txt.xz", "forum_hardest_11plus.txt.xz")
#: The commit before the key index of 64-bit hashes (schema 3) and the facts of a batch
#: computed while the one before is written (``737604e``: before the yes/no minimality
#: check of ``_kernels/bank.py``).
DEFAULT_BASELINE = "d8cb579"
#: Where the command lines' bytecode is cached, outside the checkouts: each package runs
#: from compiled bytecode as an installed one does, also where PYTHONDONTWRITEBYTECODE is
#: set (this machine sets it, and each run then compiled again every module whose cached
#: bytecode was stale: 0.05 s of CPU of a ``bank query``).
PYCACHE = Path(tempfile.gettempdir()) / "csp_sudoku_bench_pycache"


def child_env(root: Path) -> dict[str, str]:
    """The environment of a command of the package in ``root`` (see :data:`PYCACHE`)."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONPYCACHEPREFIX": str(PYCACHE)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed(
    args: list[str], root: Path = ROOT, prefix: Sequence[str] = ()
) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """The wall time and CPU time (user + system, its threads included) of a
    ``csp-sudoku`` command line of the package in ``root`` (run after ``prefix``,
    e.g. ``taskset -c 0``), and what it did."""
    env = child_env(root)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(
        [*prefix, *CLI, *args], capture_output=True, text=True, check=False, env=env, cwd=root
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes)."""
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def warm_up(lines: Path, folder: Path, root: Path) -> None:
    """Add the first 300 lines to a throwaway bank (fills numba's cache of ``root``'s
    kernels, and the bytecode cache of its modules)."""
    warm, bank = folder / "warm.txt", folder / "warm.db"
    with lines.open() as f:
        warm.write_text("".join(line for _, line in zip(range(300), f, strict=False)))
    bank.unlink(missing_ok=True)
    timed(["bank", "add", str(bank), str(warm), "-q"], root)
    bank.unlink(missing_ok=True)
    warm.unlink()


def add_once(
    label: str, lines: Path, folder: Path, root: Path = ROOT, prefix: Sequence[str] = ()
) -> tuple[float, float]:
    """Time ``bank add`` of ``lines`` into a new bank by the package in ``root``; print
    it and return ``(wall, cpu)``."""
    bank = folder / "rate.db"
    bank.unlink(missing_ok=True)
    before = load()
    wall, cpu, done = timed(["bank", "add", str(bank), str(lines)], root, prefix)
    if done.returncode not in (0, 1):
        sys.exit(f"{label}: bank add failed ({done.returncode}): {done.stderr.strip()}")
    n = sum(1 for _ in lines.open())
    print(
        f"  {label}: {wall:.1f} s, {n / wall:,.0f} puzzles a second; CPU {cpu:.1f} s, "
        f"{cpu / n * 1e6:.0f} us a puzzle (load before: {before})\n    {summary_of(done)}",
        flush=True,
    )
    bank.unlink(missing_ok=True)
    return wall, cpu


class Worktree:
    """A ``git worktree`` of a commit in ``folder``, removed on exit."""

    def __init__(self, rev: str, folder: Path) -> None:
        self.rev, self.path = rev, folder / "baseline"

    def _git(self, *args: str, check: bool = False) -> None:
        subprocess.run(["git", "-C", str(ROOT), *args], check=check, capture_output=True)

    def __enter__(self) -> Path:
        self._git("worktree", "remove", "--force", str(self.path))
        self._git("worktree", "add", "--detach", str(self.path), self.rev, check=True)
        return self.path

    def __exit__(self, *exc: object) -> None:
        self._git("worktree", "remove", "--force", str(self.path))


def compare(
    label: str, lines: Path, folder: Path, baseline: str, repeats: int, one_core: bool = False
) -> None:
    """``bank add`` of ``lines`` by ``baseline`` and by this checkout, in turns; the
    ratios of the best wall and CPU times (above 1: this checkout is faster)."""
    n = sum(1 for _ in lines.open())
    print(f"{label}: bank add of {n:,} lines; baseline {baseline}, this checkout in turns")
    with Worktree(baseline, folder) as tree:
        warm_up(lines, folder, tree)
        warm_up(lines, folder, ROOT)
        old, new = [], []
        for _ in range(repeats):
            old.append(add_once(f"baseline {baseline}", lines, folder, tree))
            new.append(add_once("this checkout", lines, folder))
        if one_core and shutil.which("taskset"):
            add_once(
                "this checkout, one core (taskset -c 0)",
                lines,
                folder,
                prefix=("taskset", "-c", "0"),
            )
    best_old = min(w for w, _ in old), min(c for _, c in old)
    best_new = min(w for w, _ in new), min(c for _, c in new)
    print(
        f"  ratio, best of each: wall {best_old[0] / best_new[0]:.2f}x, "
        f"CPU {best_old[1] / best_new[1]:.2f}x; this checkout {n / best_new[0]:,.0f} puzzles "
        f"a second, {best_new[1] / n * 1e6:.0f} us of CPU a puzzle",
        flush=True,
    )


#: The kernel timing run in each package's own process (``argv``: the folder of the sets).
KERNEL_TIMER = """
import sys, time, numpy as np
from csp_sudoku._kernels.bank import facts_rows
from csp_sudoku.backends.fast import FastBackend
b = FastBackend()
budgets = (b._budget9(2), b._budget9(1))
for name in sys.argv[2:]:
    rows = np.load(f"{sys.argv[1]}/{name}.npy")
    sols, codes = np.empty_like(rows), np.empty(len(rows), np.int8)
    facts_rows(rows[:10].copy(), True, *budgets, sols[:10], codes[:10])
    best = 1e9
    for _ in range(3):
        t = time.process_time()
        facts_rows(rows, True, *budgets, sols, codes)
        best = min(best, time.process_time() - t)
    np.save(f"{sys.argv[1]}/{name}.codes.npy", codes)
    print(name, best / len(rows) * 1e6)
"""


def kernel(folder: Path, baseline: str, seed: int) -> None:
    """Time ``facts_rows`` of ``baseline`` and of this checkout on the same sets."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_bank import make_puzzles

    from csp_sudoku.core.io import parse_line

    sets = {"made": make_puzzles(20_000, np.random.default_rng(seed))}
    for name, n in zip(MINIMAL_SETS, (10_000, 5_000), strict=True):
        with lzma.open(REFERENCE / name, "rt") as f:
            lines = [s.split()[0] for s in f if s.strip() and not s.startswith("#")][:n]
        sets[name.split(".")[0]] = np.array([parse_line(s).cells for s in lines], np.int8)
    for name, rows in sets.items():
        np.save(folder / f"{name}.npy", np.ascontiguousarray(rows))
    print(f"kernel: facts_rows, one thread, minimality asked; baseline {baseline}, this checkout")
    with Worktree(baseline, folder) as tree:
        times: dict[str, dict[str, float]] = {}
        codes: dict[str, dict[str, NDArray[np.int8]]] = {}
        for _ in range(2):  # in turns; the first pass of each also fills numba's cache
            for label, root in (("baseline", tree), ("this", ROOT)):
                done = subprocess.run(
                    [sys.executable, "-c", KERNEL_TIMER, str(folder), *sets],
                    capture_output=True,
                    text=True,
                    check=True,
                    env=child_env(root),
                    cwd=root,  # python -c puts its folder first on sys.path
                )
                for line in done.stdout.split("\n"):
                    if line:
                        name, us = line.split()
                        times.setdefault(label, {})[name] = float(us)
                        codes.setdefault(label, {})[name] = np.load(folder / f"{name}.codes.npy")
    for name in sets:
        old, new = times["baseline"][name], times["this"][name]
        same = np.array_equal(codes["baseline"][name], codes["this"][name])
        print(
            f"  {name}: baseline {old:.1f} us a puzzle, this checkout {new:.1f} us, "
            f"{old / new:.2f}x; same codes: {same}"
        )


def made_lines(n: int, seed: int, path: Path) -> None:
    """Write ``n`` of ``bench_bank.py``'s made puzzles to ``path``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_bank import make_puzzles

    from csp_sudoku.core.puzzle import format_lines

    cells = make_puzzles(n, np.random.default_rng(seed))
    path.write_text("\n".join(format_lines(cells)) + "\n")


def minimal_lines(n: int, path: Path) -> None:
    """Write up to ``n`` minimal puzzles of the reference sets to ``path``."""
    out: list[str] = []
    for name in MINIMAL_SETS:
        with lzma.open(REFERENCE / name, "rt") as f:
            out.extend(s.split()[0] for s in f if s.strip() and not s.startswith("#"))
    path.write_text("\n".join(out[:n]) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--lines", type=int, default=100_000, help="lines of each input")
    ap.add_argument("--baseline", default=DEFAULT_BASELINE, help="the commit to compare with")
    ap.add_argument("--inputs", default="made,minimal", help="made, minimal, both, or none")
    ap.add_argument("--repeats", type=int, default=2, help="timed runs of each side")
    ap.add_argument("--one-core", action="store_true", help="also this checkout on one core")
    ap.add_argument("--seed", type=int, default=1, help="seed of the made puzzles")
    ap.add_argument("--dir", help="where the inputs and banks go (default: a temporary folder)")
    ap.add_argument("--kernel", action="store_true", help="time the facts kernel alone first")
    args = ap.parse_args()
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench_bank_add_"))
    folder.mkdir(parents=True, exist_ok=True)
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(f"bench_bank_add: commit {head}; {os.cpu_count()} cores, load average {load()}")
    try:
        if args.kernel:
            kernel(folder, args.baseline, args.seed)
        for kind in filter(None, args.inputs.split(",")):
            path = folder / f"{kind}.txt"
            if kind == "made":
                made_lines(args.lines, args.seed, path)
            elif kind == "minimal":
                minimal_lines(args.lines, path)
            else:
                sys.exit(f"--inputs: unknown input {kind!r} (made, minimal)")
            compare(kind, path, folder, args.baseline, args.repeats, args.one_core)
            path.unlink()
        print(f"end: load average {load()}")
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
