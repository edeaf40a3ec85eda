"""The 9x9 kernel against tdoku, in one process: mean microseconds per count-to-2.

tdoku (../shared/reference/tdoku, or ``--tdoku DIR``) is compiled from its
source at run time with ``g++ -O3 -march=native`` into a temporary directory
as a shared library and called through ctypes; nothing of it is copied into
this repository. Without a compiler (or without the source) its column is
skipped with a message and the rest still runs.

For each set, over the same puzzles, the mean time per count-to-2 of:

* *tdoku*: ``TdokuSolverDpllTriadSimd(puzzle, 2, ...)``, one call per puzzle
  (text prepared beforehand, outside the timing);
* *count_many*: :func:`csp_sudoku.count_many` on the ``(n, 81)`` array, one call;
* *is_unique(str)*: :func:`csp_sudoku.is_unique` on each 81-character line
  (parsing included, as a caller in a loop pays it);
* *generic*: the generic bitset kernel (:mod:`csp_sudoku._kernels.bitset`),
  the fast backend's route for 9x9 before this kernel, as one batch call;
* *built*: the same 9x9 kernel built ahead of time (``csp-sudoku compile``,
  :mod:`csp_sudoku._kernels.ahead`, what ``check`` counts with), one batch
  call; skipped with a message when it is not built.

It also prints the mean search size: tdoku's ``num_guesses`` (binary branch
points) and our branch nodes (alternatives tried: a two-way branch is two).

Each figure is the best of ``--rounds`` rounds of the mean over the whole
set, in CPU time of this process (``time.process_time``: the machine is
shared, and wall time then counts the time other jobs hold the core); ratios
divide mean by mean. A round times every contender once, one after the other,
so that a busy spell of the machine falls on all of them alike.

Usage (one core):
    .venv/bin/python benchmarks/bench_native.py            # the sets as in docs (~1 min)
    .venv/bin/python benchmarks/bench_native.py --quick    # smaller samples
"""

from __future__ import annotations

import argparse
import ctypes
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import reference

import csp_sudoku
from csp_sudoku._kernels import ahead, bitset, sudoku9
from csp_sudoku.backends.fast import FastBackend
from csp_sudoku.core.geometry import Geometry

TDOKU = reference.ROOT.parent / "shared" / "reference" / "tdoku"

#: (file, sample size or None for the whole set)
SETS: list[tuple[str, int | None]] = [
    ("17_clue.txt", 20_000),
    ("top1465.txt", None),
    ("forum_hardest_1106.txt", None),
    ("forum_hardest_11plus.txt", 2_000),
    ("multi_solution_serg.txt", 2_000),
]


def load(name: str, sample: int | None) -> list[str]:
    """A reference set's puzzle lines (81 characters, ``.`` for empty); an evenly spread sample."""
    lines = [s[:81].replace("0", ".") for s in reference.puzzles(name)]
    if sample is not None and sample < len(lines):
        step = len(lines) / sample
        lines = [lines[int(i * step)] for i in range(sample)]
    return lines


def build_tdoku(src: Path, into: Path) -> ctypes.CDLL | None:
    """Compile tdoku's solver from ``src`` into ``into`` as a shared library; None (and why) if not."""
    cxx = shutil.which("g++")
    files = [src / "src" / "solver_dpll_triad_simd.cc", src / "src" / "util.cc"]
    if cxx is None:
        print("tdoku: skipped (no g++ on this machine)")
        return None
    if not all(f.exists() for f in files):
        print(f"tdoku: skipped (no source under {src})")
        return None
    lib = into / "libtdoku.so"
    cmd = [cxx, "-O3", "-march=native", "-std=c++17", "-shared", "-fPIC"]
    cmd += ["-I", str(src / "include"), *map(str, files), "-o", str(lib)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"tdoku: skipped (build failed: {done.stderr.strip()[:300]})")
        return None
    dll = ctypes.CDLL(str(lib))
    fn = dll.TdokuSolverDpllTriadSimd
    fn.argtypes = [
        ctypes.c_char_p,
        ctypes.c_size_t,
        ctypes.c_uint32,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_size_t),
    ]
    fn.restype = ctypes.c_size_t
    return dll


def best_means(runs: dict[str, Callable[[], object]], n: int, rounds: int) -> dict[str, float]:
    """The best over ``rounds`` of the mean CPU microseconds per puzzle of each run (all ``n``).

    The runs take turns within a round (see the module notes).
    """
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            t = time.process_time()
            run()
            best[name] = min(best[name], (time.process_time() - t) / n * 1e6)
    return best


def bench_set(
    name: str, lines: list[str], dll: ctypes.CDLL | None, rounds: int
) -> dict[str, float]:
    """Mean us per count-to-2 of each contender on ``lines``; checks that they agree."""
    geo = Geometry.standard(9)
    arr = np.array([[0 if ch == "." else int(ch) for ch in s] for s in lines], dtype=np.int8)
    n = len(lines)
    res: dict[str, float] = {}
    runs: dict[str, Callable[[], object]] = {}
    ours = csp_sudoku.count_many(arr, 2)
    fb = FastBackend()
    t = fb.tables(geo)
    generic = bitset.count_batch(arr, 2, t.packed, fb.locked, fb._budget(t, 2), 0.0)
    if not np.array_equal(ours, generic):
        raise SystemExit(f"{name}: the new and the generic kernel disagree")
    if dll is not None:
        fn = dll.TdokuSolverDpllTriadSimd
        raw = [s.encode() for s in lines]
        sol = ctypes.create_string_buffer(82)
        guesses = ctypes.c_size_t(0)
        ref = ctypes.byref(guesses)
        theirs = np.empty(n, dtype=np.int64)
        total_guesses = 0
        for k, p in enumerate(raw):
            theirs[k] = min(fn(p, 2, 0, sol, ref), 2)
            total_guesses += guesses.value
        res["tdoku guesses"] = total_guesses / n
        if not np.array_equal(theirs, np.minimum(ours, 2)):
            raise SystemExit(f"{name}: tdoku and count_many disagree")

        def run_tdoku() -> None:
            for p in raw:
                fn(p, 2, 0, sol, ref)

        runs["tdoku"] = run_tdoku
    res["nodes"] = float(sudoku9.nodes_batch(arr, 2).mean())
    runs["count_many"] = lambda: csp_sudoku.count_many(arr, 2)

    def run_unique() -> None:
        is_unique = csp_sudoku.is_unique
        for s in lines:
            is_unique(s)

    runs["is_unique"] = run_unique
    runs["generic"] = lambda: bitset.count_batch(arr, 2, t.packed, fb.locked, fb._budget(t, 2), 0.0)
    built = ahead.module()
    if built is not None:
        if not np.array_equal(built.count_batch(arr, 2, 20_000), ours):
            raise SystemExit(f"{name}: the kernel built ahead of time disagrees")
        runs["built"] = lambda: built.count_batch(arr, 2, 20_000)
    res.update(best_means(runs, n, rounds))
    return res


def main() -> None:
    """Run every set and print one table (markdown) with ratios against tdoku."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of each sample")
    ap.add_argument("--rounds", type=int, default=7, help="rounds per figure (best is kept)")
    ap.add_argument("--tdoku", type=Path, default=TDOKU, help="tdoku's source tree")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dll = build_tdoku(args.tdoku, Path(tmp))
        # warm up (compilation or the on-disk cache) outside the timings
        csp_sudoku.count_many(np.zeros((1, 81), np.int8), 2)
        csp_sudoku.is_unique("." * 81)
        if ahead.module() is None:
            print("no kernel built ahead of time (run `csp-sudoku compile`): its column is skipped")
        print(
            "| set | puzzles | tdoku | count_many | is_unique(str) | generic kernel "
            "| count_many / tdoku | is_unique / tdoku | is_unique / count_many | generic / tdoku "
            "| built ahead / count_many | tdoku guesses | our nodes |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for name, sample in SETS:
            if args.quick and sample is not None:
                sample //= 10
            lines = load(name, sample)
            r = bench_set(name, lines, dll, args.rounds)
            td = r.get("tdoku", float("nan"))
            print(
                f"| {name.removesuffix('.txt')} | {len(lines):,} | {td:.1f} | "
                f"{r['count_many']:.1f} | {r['is_unique']:.1f} | {r['generic']:.1f} | "
                f"{r['count_many'] / td:.2f}x | {r['is_unique'] / td:.2f}x | "
                f"{r['is_unique'] / r['count_many']:.2f}x | {r['generic'] / td:.2f}x | "
                f"{r.get('built', float('nan')) / r['count_many']:.2f}x | "
                f"{r.get('tdoku guesses', float('nan')):.1f} | {r['nodes']:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
