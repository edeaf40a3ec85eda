"""Time per symmetric variant puzzle (killers, or constraints drawn from a grid), against the
plain maker of the same seeds in the same run.

One process, one puzzle after another (run it under ``taskset -c 0`` for one
core: the SAT solver is single-threaded). For every seed ``item_seed(seed, i)``
it makes the plain puzzle (the baseline) and the puzzle of every symmetry asked
for, and prints per symmetry the median, mean and worst CPU seconds (the
process's CPU time, which other sessions' load does not inflate as much as the
wall clock; the median wall-clock seconds beside), the ratio of its median to
the plain median, the SAT calls, the size of the puzzles, how many of them are
also minimal in the plain sense, and that every puzzle is unique (the compiled
search) with a pattern that keeps its symmetry.

Killers (the default): no givens, the cage pattern keeps the symmetry. With
``--drawn KINDS`` (repeatable, one table each): thermometers, dots or XV drawn
from a random grid; the symmetric pattern is that of the thermometer steps, the
marks and the givens.

    taskset -c 0 .venv/bin/python benchmarks/bench_variant_generate_symmetry.py --count 20
    taskset -c 0 .venv/bin/python benchmarks/bench_variant_generate_symmetry.py --count 20 \\
        --drawn thermometer --drawn difference,ratio,xv

The machine's load average is printed before and after.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import time
from collections.abc import Callable

from _common import commit, processor  # a sibling script (its folder is on sys.path)

from csp_sudoku import variants
from csp_sudoku.constraints.thermometer import Thermometer
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.seeds import item_seed
from csp_sudoku.generators.symmetry import SYMMETRIES
from csp_sudoku.generators.symmetry import permutation as cell_map
from csp_sudoku.variants.generate import VariantGenerated, make_drawn, make_killer

Maker = Callable[[int, Geometry, "list[int] | None"], VariantGenerated]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    where = f"{len(cores)} of {os.cpu_count()} cores" if cores else f"{os.cpu_count()} cores"
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}; this process on {where}"


def pattern(got: VariantGenerated, n: int) -> list[frozenset[frozenset[int]]]:
    """The shapes whose images must be shapes of the same family: cages; or thermometer
    steps, marks (dots, X, V) and givens, each as a set of cell sets."""
    cages, steps, marks = set(), set(), set()
    for k in got.puzzle.constraints:
        cells = [r * n + c for r, c in k.footprint()]
        if isinstance(k, Thermometer):
            steps |= {frozenset(p) for p in itertools.pairwise(cells)}
        elif k.kind == "killercage":
            cages.add(frozenset(cells))
        else:
            marks.add(frozenset(cells))
    givens = {frozenset([int(c)]) for c in got.puzzle.puzzle.cells.nonzero()[0]}
    return [frozenset(x) for x in (cages, steps, marks, givens)]


def keeps(got: VariantGenerated, perm: list[int] | None, n: int) -> bool:
    """Whether the image under ``perm`` of every shape is a shape of its family."""
    if perm is None:
        return True
    return all(
        {frozenset(perm[x] for x in shape) for shape in family} == family
        for family in pattern(got, n)
    )


def table(label: str, make: Maker, g: Geometry, seeds: list[int], names: list[str]) -> None:
    """Make every seed's puzzle plain and under every symmetry; print the table."""
    n = g.size
    cpu: dict[str, list[float]] = {name: [] for name in names}
    wall: dict[str, list[float]] = {name: [] for name in names}
    made: dict[str, list[VariantGenerated]] = {name: [] for name in names}
    perms = {name: None if name == "none" else cell_map(n, name).tolist() for name in names}
    for s in seeds:  # the symmetries side by side, seed by seed: the load hits all alike
        for name in names:
            w, t = time.perf_counter(), time.process_time()
            got = make(s, g, perms[name])
            cpu[name].append(time.process_time() - t)
            wall[name].append(time.perf_counter() - w)
            made[name].append(got)
    base = statistics.median(cpu["none"])
    print(f"\n{g.name} {label}, {len(seeds)} seeds item_seed(seed, 0..)")
    print(
        f"{'symmetry':<13}{'median s':>9}{'mean s':>8}{'worst s':>8}{'/ plain':>8}{'wall s':>8}"
        f"{'calls':>7}{'constraints':>12}{'givens':>8}  plain-minimal  unique+symmetric"
    )
    for name in names:
        ts, kept = cpu[name], made[name]
        calls = statistics.median(x.calls for x in kept)
        sizes = [len(x.puzzle.constraints) for x in kept]
        givens = [int((x.puzzle.puzzle.cells > 0).sum()) for x in kept]
        ok = all(variants.check(x.puzzle) == "unique" and keeps(x, perms[name], n) for x in kept)
        print(
            f"{name:<13}{statistics.median(ts):9.3f}{statistics.fmean(ts):8.3f}{max(ts):8.3f}"
            f"{statistics.median(ts) / base:7.2f}x{statistics.median(wall[name]):8.3f}"
            f"{calls:7.0f}{f'{min(sizes)}-{max(sizes)}':>12}{f'{min(givens)}-{max(givens)}':>8}"
            f"  {sum(x.minimal for x in kept):>4} of {len(kept):<6}  {'yes' if ok else 'NO'}"
        )
    sym = [t for name in names if name != "none" for t in cpu[name]]
    if sym:
        print(
            f"all symmetric: {len(sym)}, median {statistics.median(sym):.3f} s, "
            f"mean {statistics.fmean(sym):.3f} s, worst {max(sym):.3f} s; "
            f"plain median {base:.3f} s (CPU)"
        )


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
    ap.add_argument(
        "--drawn",
        action="append",
        metavar="KIND[,KIND]",
        help="drawn puzzles of these kinds instead of killers (repeatable: a table each)",
    )
    args = ap.parse_args()
    print(f"commit {commit()}, {processor()}, {load()}")
    g = Geometry.standard(args.size)
    seeds = [item_seed(args.seed, i) for i in range(args.count)]
    names = ["none", *(x.strip() for x in args.symmetries.split(",") if x.strip() != "none")]
    if not args.drawn:
        table(
            "killers, no givens",
            lambda s, geo, perm: make_killer(s, geometry=geo, symmetry=perm),
            g,
            seeds,
            names,
        )
    for text in args.drawn or ():
        kinds = tuple(k.strip() for k in text.split(",") if k.strip())
        table(
            f"drawn {', '.join(kinds)}",
            lambda s, geo, perm, kinds=kinds: make_drawn(s, kinds, geometry=geo, symmetry=perm),
            g,
            seeds,
            names,
        )
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
