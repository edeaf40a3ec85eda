"""Time per symmetric killer (no givens, the cage pattern keeps a symmetry), against plain killers.

One process, one puzzle after another (run it under ``taskset -c 0`` for one
core: the SAT solver is single-threaded). For every seed ``item_seed(seed, i)``
it makes the plain killer (the baseline, the same seeds in the same run) and
the killer of every symmetry asked for, and prints per symmetry the median,
mean and worst seconds, the ratio of its median to the plain median, the SAT
calls, the cages, how many of the puzzles are also minimal in the plain sense
(no merge of two cages keeps them unique), and that every puzzle is unique
(the compiled search) with a cage pattern that keeps its symmetry.

    taskset -c 0 .venv/bin/python benchmarks/bench_variant_generate_symmetry.py --count 20

The machine's load average is printed before and after (the figures are
wall-clock times).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from _common import commit, processor  # a sibling script (its folder is on sys.path)

from csp_sudoku import variants
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.seeds import item_seed
from csp_sudoku.generators.symmetry import SYMMETRIES
from csp_sudoku.generators.symmetry import permutation as cell_map
from csp_sudoku.variants.generate import VariantGenerated, make_killer


def load() -> str:
    one, five, fifteen = os.getloadavg()
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    where = f"{len(cores)} of {os.cpu_count()} cores" if cores else f"{os.cpu_count()} cores"
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}; this process on {where}"


def keeps(got: VariantGenerated, perm: list[int] | None, n: int) -> bool:
    """Whether every cage's image under ``perm`` is a cage."""
    if perm is None:
        return True
    cages = {frozenset(r * n + c for r, c in k.footprint()) for k in got.puzzle.constraints}
    return all(frozenset(perm[x] for x in cage) in cages for cage in cages)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, default=20, help="seeds (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (item seeds from it)")
    ap.add_argument("--size", type=int, default=9, help="grid size (default 9)")
    ap.add_argument(
        "--symmetries",
        default=",".join(SYMMETRIES[1:]),
        help="comma-separated symmetry names (default: all but none)",
    )
    args = ap.parse_args()
    print(f"commit {commit()}, {processor()}, {load()}")
    g = Geometry.standard(args.size)
    n = g.size
    seeds = [item_seed(args.seed, i) for i in range(args.count)]
    names = ["none", *(x.strip() for x in args.symmetries.split(",") if x.strip() != "none")]
    times: dict[str, list[float]] = {name: [] for name in names}
    made: dict[str, list[VariantGenerated]] = {name: [] for name in names}
    perms = {name: None if name == "none" else cell_map(n, name).tolist() for name in names}
    for s in seeds:  # the symmetries side by side, seed by seed: the load hits all alike
        for name in names:
            t = time.perf_counter()
            got = make_killer(s, geometry=g, symmetry=perms[name])
            times[name].append(time.perf_counter() - t)
            made[name].append(got)
    base = statistics.median(times["none"])
    print(f"\n{g.name} killers, no givens, {len(seeds)} seeds item_seed({args.seed}, 0..)")
    print(
        f"{'symmetry':<13}{'median s':>9}{'mean s':>8}{'worst s':>8}{'/ plain':>8}"
        f"{'calls':>9}{'cages':>9}  plain-minimal  unique+symmetric"
    )
    for name in names:
        ts, kept = times[name], made[name]
        calls = statistics.median(x.calls for x in kept)
        cages = [len(x.puzzle.constraints) for x in kept]
        ok = all(variants.check(x.puzzle) == "unique" and keeps(x, perms[name], n) for x in kept)
        print(
            f"{name:<13}{statistics.median(ts):9.2f}{statistics.fmean(ts):8.2f}{max(ts):8.2f}"
            f"{statistics.median(ts) / base:7.2f}x{calls:9.0f}"
            f"{f'{min(cages)}-{max(cages)}':>9}  {sum(x.minimal for x in kept):>4} of {len(kept):<6}"
            f"  {'yes' if ok else 'NO'}"
        )
    sym = [t for name in names if name != "none" for t in times[name]]
    if sym:
        print(
            f"\nall symmetric killers: {len(sym)}, median {statistics.median(sym):.2f} s, "
            f"mean {statistics.fmean(sym):.2f} s, worst {max(sym):.2f} s; plain median {base:.2f} s"
        )
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
