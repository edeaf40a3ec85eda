"""The puzzle bank at scale: ``bank add``, a top-n query and ``stats`` on a big bank.

Builds a bank of ``--size`` distinct puzzles (default 1,000,000) with two
metrics rated, and prints three figures, each the real command line in a
subprocess:

1. ``csp-sudoku bank add BANK FILE -q``: puzzles a second (canonical keys,
   uniqueness, minimality and symmetries computed for each, as for any input);
2. ``csp-sudoku bank query BANK --metric se --order -score -n 10``: seconds,
   the whole command (interpreter start included) and the query alone in
   this process;
3. ``csp-sudoku bank stats BANK``: seconds.

The puzzles are made fast, not generated: each is one of the unique puzzles
of ``examples/data/sample.txt`` with 4-9 more clues of its solution (so it is
still unique, though not minimal), put through a random
validity-preserving transformation (digits relabelled, rows within bands,
bands, columns within stacks and stacks permuted, transposed half the time),
so that the bank has a canonical form to compute for each. They differ as
texts by construction; the bank's deduplication decides which are isomorphs,
and enough are made for ``--size`` new ones. Rating a million puzzles would
take hours, so the two metrics' ratings (``se`` and ``rounds``) are
synthetic scores and levels stored through the bank's own rating API
(``PuzzleBank.add_ratings``); the output says so.

First, the baseline in the same run (``bench_bank_add.compare``): ``bank add``
of the first ``--baseline-size`` lines (default 100,000; 0: no baseline) into
a new bank by the package of commit ``--baseline`` (default: ``bench_bank_add.DEFAULT_BASELINE``, the commit
before the key index of 64-bit hashes; run from a ``git worktree`` of that
commit) and by this checkout on the same lines, in turns, twice each, then by
this checkout on one core (``taskset -c 0``, where there is ``taskset``). The
ratios are of the best wall and CPU times (user + system, all threads),
measured under the same load.

Every command line runs from compiled bytecode, as an installed package does
(``bench_bank_add.PYCACHE``), and the query and stats run once untimed first.

Usage::

    .venv/bin/python benchmarks/bench_bank.py [--size 1000000] [--seed 1] [--dir DIR] [--keep]
        [--baseline REV] [--baseline-size N]
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.api import Checker
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.core.puzzle import format_lines
from csp_sudoku.tools.bank import BankQuery, PuzzleBank

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import summary_of
from bench_bank_add import DEFAULT_BASELINE, compare, load, timed

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "data" / "sample.txt"
#: Synthetic ratings: (metric, its level names from easiest, the score range).
METRICS = (
    ("se", ("Easy", "Medium", "Hard", "Fiendish", "Diabolical"), (1.2, 11.9)),
    ("rounds", ("Cinch", "Easy", "Tough", "Fiendish"), (1.0, 12.0)),
)
_PERM3 = np.array(list(itertools.permutations(range(3))))


def _line_maps() -> NDArray[np.intp]:
    """The 1296 maps of a grid's 9 lines that keep bands (or stacks): ``out[k, new] = old``."""
    maps = []
    for outer in _PERM3:
        for inner in itertools.product(_PERM3, repeat=3):
            maps.append([3 * outer[g] + inner[g][w] for g in range(3) for w in range(3)])
    return np.array(maps, dtype=np.intp)


def base_puzzles() -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """The unique puzzles of the sample file and their solutions, as ``(n, 81)`` arrays."""
    lines = [s.split()[0] for s in SAMPLE.read_text().splitlines() if s and s[0] != "#"]
    puzzles, solutions = [], []
    with Checker(Geometry.standard(9)) as chk:
        for line in lines:
            p = parse_line(line)
            if chk.count(p) == 1:
                solved = chk.solve(p)
                assert solved is not None
                puzzles.append(p.cells)
                solutions.append(solved.cells)
    return np.array(puzzles, np.int8), np.array(solutions, np.int8)


def make_puzzles(n: int, rng: np.random.Generator) -> NDArray[np.int8]:
    """``n`` distinct unique puzzles (as texts), made as the module says."""
    base, solved = base_puzzles()
    maps = _line_maps()
    r, c = np.divmod(np.arange(81), 9)
    made: list[NDArray[np.int8]] = []
    seen = 0
    while seen < n:
        m = int((n - seen) * 1.02) + 1000
        pick = rng.integers(0, len(base), m)
        cells = base[pick].copy()
        keys = rng.random((m, 81))
        keys[cells != 0] = 2.0  # the empty cells first, in a random order
        extra = np.zeros((m, 81), bool)
        more = np.arange(81) < rng.integers(4, 10, m)[:, None]
        np.put_along_axis(extra, keys.argsort(axis=1), more, axis=1)
        cells[extra] = solved[pick][extra]
        digits = np.zeros((m, 10), np.int8)
        digits[:, 1:] = rng.random((m, 9)).argsort(axis=1) + 1
        cells = np.take_along_axis(digits, cells.astype(np.intp), axis=1)
        rows = maps[rng.integers(0, len(maps), m)]
        cols = maps[rng.integers(0, len(maps), m)]
        cell_map = rows[:, r] * 9 + cols[:, c]
        flip = rng.random(m) < 0.5
        cell_map[flip] = rows[flip][:, c] * 9 + cols[flip][:, r]  # transposed
        made.append(np.take_along_axis(cells, cell_map, axis=1))
        every = np.ascontiguousarray(np.concatenate(made))
        _, first = np.unique(every.view("V81").ravel(), return_index=True)
        made = [every[np.sort(first)]]
        seen = len(made[0])
    return made[0][:n]


def where() -> str:
    """The commit measured (and whether the package differs from it), the machine's load."""
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", "csp_sudoku"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"commit {head or '?'}{' (csp_sudoku/ has uncommitted changes)' if dirty else ''}; "
        f"{os.cpu_count()} cores, load average {load}; SQLite {sqlite3.sqlite_version}"
    )


def _rating(metric: str, score: float, levels: tuple[str, ...], rank: int) -> argparse.Namespace:
    """A synthetic rating with the fields the bank stores."""
    return argparse.Namespace(
        metric=metric,
        score=float(score),
        level=levels[rank],
        level_rank=int(rank),
        parameters={"synthetic": True},
    )


def synthetic_ratings(bank: PuzzleBank, rng: np.random.Generator) -> float:
    """Store a synthetic rating of each metric for every banked puzzle; the seconds taken."""
    ids = bank.ids()
    t = time.perf_counter()
    for metric, levels, (low, high) in METRICS:
        scores = np.round(rng.uniform(low, high, len(ids)), 1)
        ranks = np.minimum(
            ((scores - low) / (high - low) * len(levels)).astype(int), len(levels) - 1
        )
        for start in range(0, len(ids), 100_000):
            part = range(start, min(start + 100_000, len(ids)))
            bank.add_ratings((ids[i], _rating(metric, scores[i], levels, ranks[i])) for i in part)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--size", type=int, default=1_000_000, help="puzzles in the bank")
    ap.add_argument("--seed", type=int, default=1, help="seed of the puzzles and scores")
    ap.add_argument("--dir", help="where the bank and its input go (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the bank and its input")
    ap.add_argument(
        "--baseline", default=DEFAULT_BASELINE, help="the commit whose bank add is the baseline"
    )
    ap.add_argument(
        "--baseline-size", type=int, default=100_000, help="lines the baselines add (0: none)"
    )
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench_bank_"))
    folder.mkdir(parents=True, exist_ok=True)
    bank_path, source = folder / "bank.db", folder / "puzzles.txt"
    for stale in (bank_path, source):
        stale.unlink(missing_ok=True)
    print(f"bench_bank --size {args.size:,} --seed {args.seed}: {where()}")
    try:
        t = time.perf_counter()
        cells = make_puzzles(args.size + args.size // 50 + 100, rng)
        source.write_text("\n".join(format_lines(cells)) + "\n")
        clues = np.count_nonzero(cells, axis=1).mean()
        made_s = time.perf_counter() - t
        print(
            f"input: {len(cells):,} distinct puzzle lines ({clues:.1f} clues on average), {made_s:.1f} s"
        )

        if args.baseline_size:
            sample = folder / "sample.txt"
            with source.open() as f:
                sample.write_text("".join(itertools.islice(f, args.baseline_size)))
            compare("baseline", sample, folder, args.baseline, repeats=2, one_core=True)
            sample.unlink()
        add_s, add_cpu, done = timed(["bank", "add", str(bank_path), str(source)])
        print(f"$ csp-sudoku bank add BANK puzzles.txt\n  {summary_of(done)}")
        if done.returncode not in (0, 1):
            sys.exit(f"bank add failed ({done.returncode}): {done.stderr.strip()}")
        with PuzzleBank(bank_path) as bank:
            held = len(bank)
            rate = len(cells) / add_s
            print(
                f"  {add_s:.1f} s: {rate:,.0f} puzzles a second read and checked; {held:,} banked"
                f"\n  CPU {add_cpu:.1f} s, {add_cpu / len(cells) * 1e6:.0f} us a puzzle (all threads)"
            )
            rated_s = synthetic_ratings(bank, rng)
            print(
                f"ratings: {2 * held:,} SYNTHETIC ratings (se and rounds: random scores and "
                f"levels, not rated) stored with PuzzleBank.add_ratings in {rated_s:.1f} s"
            )
        print(f"bank file: {bank_path.stat().st_size / 2**20:,.0f} MiB")

        query = ["bank", "query", str(bank_path), "--metric", "se", "--order", "-score", "-n", "10"]
        for warm in (query, ["bank", "stats", str(bank_path)]):
            timed(warm)  # untimed: the bytecode of the modules add did not import
        print("$ csp-sudoku bank query BANK --metric se --order -score -n 10  (three runs)")
        query_s = []
        for _ in range(3):
            before = load()
            wall, cpu, done = timed(query)
            query_s.append(wall)
            lines = len(done.stdout.splitlines())
            print(
                f"  {wall:.2f} s (CPU {cpu:.2f} s), {lines} puzzles, exit {done.returncode} "
                f"(load before: {before})"
            )
        with PuzzleBank(bank_path, readonly=True) as bank:
            t = time.perf_counter()
            top = bank.query(BankQuery(limit=10, metric="se", order="-score"))
            inside = time.perf_counter() - t
        print(f"  {inside * 1000:.1f} ms of it the query (PuzzleBank.query in this process)")
        print(f"  {len(top)} entries, scores {[e.ratings['se'][0] for e in top]}")
        print("$ csp-sudoku bank stats BANK  (three runs)")
        stats_s = []
        for _ in range(3):
            before = load()
            wall, cpu, done = timed(["bank", "stats", str(bank_path)])
            stats_s.append(wall)
            print(
                f"  {wall:.2f} s (CPU {cpu:.2f} s), exit {done.returncode} (load before: {before})"
            )
        for line in done.stdout.splitlines():
            print(f"  | {line}")
        print(f"end: {where()}")
        print(
            f"\nsummary: bank add {len(cells) / add_s:,.0f} puzzles/s; "
            f"query -n 10 {min(query_s):.2f}-{max(query_s):.2f} s; "
            f"stats {min(stats_s):.2f}-{max(stats_s):.2f} s "
            f"({held:,} puzzles, 2 metrics, synthetic ratings)"
        )
    finally:
        if not args.keep:
            if args.dir:
                bank_path.unlink(missing_ok=True)
                source.unlink(missing_ok=True)
            else:
                shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
