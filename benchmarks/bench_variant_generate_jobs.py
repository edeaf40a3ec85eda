"""Targeted variant generation with ``jobs`` worker processes: the speed-up of N workers over one.

For each workload it runs ``generate_killers`` with a difficulty target in this
process (``jobs=1``, the baseline) and with ``jobs=N``, in turns (one, N, one,
N ...: a change of the machine's load hits both alike), checks that every run
gives the same puzzles with the same seeds, and prints the wall-clock seconds
of each run, the CPU seconds it took (this process and its workers), the
attempts it handed out, the median per ``jobs`` and the ratio of the medians.
The load average is printed before and after each run: on a shared machine
the figure is only as good as the cores that were free (and where the kernel
shares the CPU by session, ``sched_autogroup_enabled``, which is printed, the
workers of one run share one session's part).

    .venv/bin/python benchmarks/bench_variant_generate_jobs.py --jobs 2 --repeat 3

Workloads (``--only`` picks some): ``six``: 6x6 killers at level hard (many
short attempts); ``nine``: 9x9 killers whose cages keep the 180-degree
rotation, at level fiendish (few long attempts: making a killer about 0.5 s,
rating it 1-30 s).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from _common import commit, processor  # a sibling script (its folder is on sys.path)

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators.symmetry import permutation as cell_map
from csp_sudoku.variants import generate as vg
from csp_sudoku.variants.generate import generate_killers
from csp_sudoku.variants.rating import rate_variant


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def autogroup() -> str:
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def cpu() -> float:
    """CPU seconds of this process and of its children that ended."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


#: Attempts handed out by the generators' scheduler (counted around its task stream).
HANDED = [0]


def count_attempts() -> None:
    tasks = vg._Attempts.tasks

    def counted(self: vg._Attempts) -> Iterator[Any]:
        for task in tasks(self):
            HANDED[0] += 1
            yield task

    vg._Attempts.tasks = counted  # type: ignore[method-assign]


def workloads(seed: int) -> dict[str, tuple[str, Callable[[int], list[Any]]]]:
    six, nine = Geometry.standard(6), Geometry.standard(9)
    rot = cell_map(9, "rot180").tolist()

    def small(jobs: int) -> list[Any]:
        run = generate_killers(30, seed=seed, geometry=six, level="hard", jobs=jobs)
        return [(g.seed, g.puzzle) for g in run]

    def large(jobs: int) -> list[Any]:
        run = generate_killers(
            4, seed=seed, geometry=nine, symmetry=rot, level="fiendish", jobs=jobs
        )
        return [(g.seed, g.puzzle) for g in run]

    return {
        "six": ("30 killers 6x6, level hard", small),
        "nine": ("4 killers 9x9, rot180 cages, level fiendish", large),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2, help="workers to compare with one (default 2)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per jobs value (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="the runs' seed (default 1)")
    ap.add_argument("--only", default="six,nine", help="comma-separated workloads")
    args = ap.parse_args()
    print(
        f"commit {commit()}, {processor()}, "
        f"{os.cpu_count()} cores, {load()}, sched_autogroup_enabled {autogroup()}"
    )
    count_attempts()
    # the rating's kernels compiled (or loaded) here first: the workers inherit them
    rate_variant(vg.make_killer(0, geometry=Geometry.standard(9)).puzzle)
    chosen = workloads(args.seed)
    for key in (k.strip() for k in args.only.split(",")):
        what, run = chosen[key]
        print(f"\n{key}: {what}, seed {args.seed}")
        seconds: dict[int, list[float]] = {1: [], args.jobs: []}
        cpus: dict[int, list[float]] = {1: [], args.jobs: []}
        first: list[Any] | None = None
        for k in range(args.repeat):
            for jobs in (1, args.jobs):
                before = load()
                HANDED[0] = 0
                c, t = cpu(), time.perf_counter()
                got = run(jobs)
                dt, dc = time.perf_counter() - t, cpu() - c
                seconds[jobs].append(dt)
                cpus[jobs].append(dc)
                same = first is None or got == first
                first = got if first is None else first
                print(
                    f"  run {k + 1} jobs {jobs}: {dt:7.2f} s, CPU {dc:6.2f} s, "
                    f"{HANDED[0]} attempts, {len(got)} puzzles, "
                    f"same puzzles: {'yes' if same else 'NO'} ({before} -> {load()})"
                )
        one, many = statistics.median(seconds[1]), statistics.median(seconds[args.jobs])
        c1, cn = statistics.median(cpus[1]), statistics.median(cpus[args.jobs])
        print(
            f"  median: jobs 1 {one:.2f} s, jobs {args.jobs} {many:.2f} s; "
            f"speed-up {one / many:.2f}x; CPU jobs 1 {c1:.2f} s, jobs {args.jobs} {cn:.2f} s "
            f"({cn / c1:.2f}x); the run's share of a core: jobs 1 {c1 / one:.2f}, "
            f"jobs {args.jobs} {cn / many:.2f}"
        )
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
