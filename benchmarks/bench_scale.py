"""Scale targets of ``csp-sudoku check``: jobs scaling, Dask vs process pool, peak memory.

Each run is the real CLI in a subprocess; the peak memory is the largest sum
of resident set sizes of the CLI and all its children (workers included),
sampled every 0.1 s with psutil. Usage::

    .venv/bin/python benchmarks/bench_scale.py jobs      # 11plus, --jobs 1 vs 2
    .venv/bin/python benchmarks/bench_scale.py dask      # --scheduler local:4 vs --jobs 4
    .venv/bin/python benchmarks/bench_scale.py memory    # 1,000,000 lines, --jobs 2
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import reference

CLI = [str(reference.ROOT / ".venv" / "bin" / "csp-sudoku"), "check", "-o", "/dev/null"]


def run(args: list[str]) -> tuple[float, float, int, int, int]:
    """(wall s, CLI puzzles/s, peak tree RSS, PSS and USS in bytes) of one run.

    RSS counts the pages of shared libraries (numba's LLVM) once per process,
    PSS shares them out among every process mapping them (other programs
    included), USS counts only pages private to each process.
    """
    t = time.perf_counter()
    proc = subprocess.Popen(
        CLI + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    ps = psutil.Process(proc.pid)
    peak = peak_pss = peak_uss = 0
    while proc.poll() is None:
        try:
            procs = [ps, *ps.children(recursive=True)]
            infos = [p.memory_full_info() for p in procs if p.is_running()]
            peak = max(peak, sum(i.rss for i in infos))
            peak_pss = max(peak_pss, sum(i.pss for i in infos))
            peak_uss = max(peak_uss, sum(i.uss for i in infos))
        except psutil.Error:
            pass
        time.sleep(0.1)
    wall = time.perf_counter() - t
    err = proc.stderr.read() if proc.stderr else ""
    m = re.search(r"\(([\d,]+)/s\)", err)
    if proc.returncode != 0 or m is None:
        sys.exit(f"check failed ({proc.returncode}): {err[-500:]}")
    return wall, float(m.group(1).replace(",", "")), peak, peak_pss, peak_uss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("what", choices=("jobs", "dask", "memory"))
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    hard = str(reference.xz_path("forum_hardest_11plus.txt"))  # the CLI reads xz as is
    if a.what == "jobs":
        for jobs in (1, 2):
            rates = [run([hard, "--jobs", str(jobs)])[1] for _ in range(a.repeats)]
            print(f"--jobs {jobs}: puzzles/s per run {rates}, best {max(rates):,.0f}")
    elif a.what == "dask":
        for label, extra in (
            ("--jobs 4", ["--jobs", "4"]),
            ("local:4", ["--scheduler", "local:4"]),
        ):
            res = [run([hard, *extra]) for _ in range(a.repeats)]
            rates = [r[1] for r in res]
            walls = [round(r[0], 1) for r in res]
            print(f"{label}: puzzles/s per run {rates} (wall s incl. start-up {walls})")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            big = Path(tmp) / "big.txt"
            lines = reference.puzzles("17_clue.txt")
            with big.open("w") as fh:
                for i in range(1_000_000):
                    fh.write(lines[i % len(lines)] + "\n")
            for jobs in (1, 2):
                wall, rate, rss, pss, uss = run([str(big), "--jobs", str(jobs)])
                print(f"1,000,000 lines --jobs {jobs}: {wall:.1f} s, {rate:,.0f}/s, peak sum over "
                      f"processes: RSS {rss / 2**20:.0f} MB, PSS {pss / 2**20:.0f} MB, "
                      f"USS {uss / 2**20:.0f} MB")  # fmt: skip


if __name__ == "__main__":
    main()
