"""New puzzles per CPU-minute at the hard end: our generator vs a plain annealer.

For each level (SE ``diabolical``: 7 < ER <= 9, SE ``extreme``: ER > 9, and
``10+``: ER >= 10, the top of the extreme level), in one process on one core
with the same wall-clock budget each:

* **ours**: ``csp_sudoku.generate(n, level=L, metric="se")`` (``method="auto"``,
  which anneals for these targets);
* **plain**: a ~40-line annealer over the public API only: start from
  ``generate(1)``, move with ``csp_sudoku.neighbour``, rate with
  ``rate(p, "se")``, accept harder or (Metropolis) easier, restart on a fresh
  grid after 50 stale steps and after each find (so that its finds are
  different puzzles, as a puzzle maker wants them).

A user counts different puzzles, not a find's neighbours, so each run reports
its ``new`` puzzles, the distinct solution ``grids`` among them (up to
isomorphism) and their ``families``: two puzzles are of one family when they
have one solution grid up to isomorphism, or share at least half of the clues
of the one with fewer (same cell, same digit); families are the classes this
relation links. ``generate`` gives one puzzle per family by default
(``max_per_grid`` 1); ``--max-per-grid N`` passes a larger N to mine each find.
The totals compare families.

"New" is the same test for both: unique (every output of both has one
solution by construction; the independent solver of the tests rechecks
them), and not isomorphic to the bundled reference sets, the pseudo-generator's
seed bank, or an earlier output of the same generator (canonical keys,
:mod:`csp_sudoku.generators.novelty`). Kernels are compiled (and the key cache
filled) before the clocks start.

    .venv/bin/python benchmarks/bench_generate_new.py --seconds 120
    .venv/bin/python benchmarks/bench_generate_new.py --seconds 120 --levels extreme --seed 1 2 3 4

Counts of a few puzzles a run are noisy (the plain annealer finds 0 to 7 in 120
s), so compare totals over several seeds: with more than one ``--seed`` each
level ends with a total line (counts and per-CPU-minute rates, and their
ratios).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import numpy as np
from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
from csp_sudoku.generators.novelty import default_keys
from csp_sudoku.generators.search import DEFAULTS, SearchSettings
from csp_sudoku.metrics import rate
from csp_sudoku.tools.canonical import canonical_key

LEVELS = ("diabolical", "extreme", "10+")

#: The pseudo-level of puzzles SE rates 10 or more, and its least ER.
TOP, TOP_ER = "10+", 10.0


def _target(level: str) -> dict[str, Any]:
    """``generate``'s target arguments for ``level``."""
    return {"score_range": (TOP_ER, math.inf)} if level == TOP else {"level": level}


def _on_target(level: str, r: Any) -> bool:
    """Whether the rating ``r`` is on ``level`` (for the plain annealer)."""
    return bool(r.score >= TOP_ER) if level == TOP else bool(r.level.lower() == level)


def plain_annealer(level: str, seconds: float, seed: int) -> tuple[list[Any], float]:
    """The baseline: a plain annealer over the public API (no caching, no pruning)."""
    rng = np.random.default_rng(seed)
    deadline = time.time() + seconds
    keys = default_keys()
    found: list[Any] = []
    best = -math.inf
    while time.time() < deadline:
        g = next(iter(cs.generate(1, seed=int(rng.integers(2**62)))))
        cur, sol = g.puzzle, g.solution
        score = rate(cur, "se").score
        stale = 0
        while stale < 50 and time.time() < deadline:
            cand = cs.neighbour(cur, sol, seed=rng)
            r = rate(cand, "se")
            best = max(best, r.score)
            if _on_target(level, r) and keys.is_new(cand.cells):
                keys.add(cand.cells)
                found.append(cand)
                break  # a find: start again on a fresh grid
            if r.score > score or rng.random() < math.exp((r.score - score) / 0.4):
                stale = 0 if r.score > score else stale + 1
                cur, score = cand, r.score
            else:
                stale += 1
    return found, best


#: Settings of our search to compare (``--generators ours:NAME``; ``ours`` is
#: ``ours:shipped``, the library as it ships).
VARIANTS: dict[str, SearchSettings] = {
    "shipped": DEFAULTS,
    # a variant is ``replace(DEFAULTS, setting=value)``; the ones tried, and their
    # records: benchmarks/results/generate_transplants.md ("transplant": fresh
    # starts from an output's clue pattern on a fresh grid, since taken out),
    # generate_expand_within.md ("within01", "within02": vicinity steps only from
    # bases within 0.1 or 0.2 of the floor, since taken out), generate_pick_by_index.md
    # (the "pick" ones below: each vicinity move from the state of the best promise)
    "pick100": replace(DEFAULTS, pick_trials=100),
    "pick300": replace(DEFAULTS, pick_trials=300),
    "pick1000": replace(DEFAULTS, pick_trials=1000),
    "pick10000": replace(DEFAULTS, pick_trials=10_000),
}


def ours(
    level: str,
    seconds: float,
    seed: int,
    per_grid: int | None = None,
    settings: SearchSettings = DEFAULTS,
    cpu: bool = False,
    method: str = "auto",
    on_report: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[list[Any], float]:
    """Our generator, asked for far more than it can find in the budget; the best ER
    is that of the hardest puzzle it met (its progress reports, every 2 s), output
    or not, as the plain annealer's is. ``cpu``: the budget is ``seconds`` of this
    process's CPU time (checked at each progress report), not of the clock: what
    one core gives in that time on a quiet machine, measured on a loaded one.
    ``method``: ``generate``'s (a registered search strategy, to compare one).
    ``on_report``: called with each progress report (its counts of steps, ratings ...)."""
    found: list[Any] = []
    met = [-math.inf]
    c0 = time.process_time()

    def progress(report: dict[str, Any]) -> None:
        if on_report is not None:
            on_report(report)
        if report.get("best") is not None:
            met[0] = max(met[0], float(report["best"]))
        if cpu and time.process_time() - c0 >= seconds:
            raise _CpuSpent

    gen = cs.generate(
        10_000,
        **_target(level),
        metric="se",
        seed=seed,
        budget_seconds=seconds * (10 if cpu else 1),
        max_per_grid=per_grid,
        progress=progress,
        search=settings,
        method=cast("Any", method),
    )
    try:
        for g in gen:
            found.append(g)
            met[0] = max(met[0], g.ratings["se"].score)
    except (cs.generators.BudgetExhaustedError, _CpuSpent):
        pass
    return found, met[0]


class _CpuSpent(Exception):
    """``ours``'s CPU budget is spent (raised from its progress callback)."""


def _solution(g: Any) -> cs.Puzzle:
    """The solution grid of an output of either generator."""
    if hasattr(g, "solution"):
        return cast("cs.Puzzle", g.solution)
    solved = cs.solve(g)
    assert solved is not None
    return solved


def families(got: list[Any]) -> tuple[int, int]:
    """(grids, families) of a run's outputs: distinct solution grids up to
    isomorphism, and the classes linked by "one grid, or half the clues shared"."""
    keys: dict[bytes, str] = {}  # a literal grid's canonical key (about a second each)
    grid_of = []
    for g in got:
        sol = _solution(g)
        raw = np.asarray(sol.cells, dtype=np.int8).tobytes()
        if raw not in keys:
            keys[raw] = canonical_key(sol)
        grid_of.append(keys[raw])
    cells = np.array([np.asarray(g.cells if hasattr(g, "cells") else g.puzzle.cells) for g in got])
    root = list(range(len(got)))

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    for i in range(len(got)):
        shared = np.count_nonzero((cells[:i] == cells[i]) & (cells[i] != 0), axis=1)
        fewer = np.minimum(np.count_nonzero(cells[:i], axis=1), np.count_nonzero(cells[i]))
        for j in np.flatnonzero(2 * shared >= fewer).tolist():
            root[find(j)] = find(i)
        for j in range(i):
            if grid_of[j] == grid_of[i]:
                root[find(j)] = find(i)
    return len(set(grid_of)), len({find(i) for i in range(len(got))})


def warm_up() -> None:
    """Compile the kernels a search at the SE levels uses and fill the canonical-key
    cache of the puzzles to avoid, so that no timed run pays for them."""
    default_keys()
    for p in cs.generate(2, seed=0):
        rate(p.puzzle, "se")
    list(cs.generate(1, level="fiendish", metric="se", seed=0, budget_seconds=60))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=120.0, help="budget per level and generator")
    ap.add_argument(
        "--seed",
        type=int,
        nargs="+",
        default=[1],
        help="one or more seeds, run one after the other; with several, a total line per level",
    )
    ap.add_argument("--levels", nargs="*", default=list(LEVELS), choices=LEVELS)
    ap.add_argument(
        "--max-per-grid",
        type=int,
        default=None,
        help="ours: at most this many puzzles per family (generate's max_per_grid; default 1)",
    )
    ap.add_argument(
        "--generators",
        nargs="+",
        default=["ours", "plain"],
        choices=["ours", "plain", *(f"ours:{v}" for v in VARIANTS)],
        help="which generators to run (an absolute target, such as SE 10+ within 600 s, "
        "needs no baseline)",
    )
    ap.add_argument(
        "--save",
        type=Path,
        default=None,
        help="append every output as 'puzzle level seed generator ER' to this file "
        "(to spot-check with SukakuExplainer)",
    )
    ap.add_argument(
        "--cpu",
        action="store_true",
        help="ours: --seconds is a budget of CPU time, not of the clock (a loaded machine)",
    )
    args = ap.parse_args()
    one_core()  # the figures are per core
    warm_up()
    print(f"budget {args.seconds:g} s per level and generator, seeds {args.seed}, one process")
    print(
        "level       seed  generator  new  grids  families  families per CPU-minute  "
        "best ER  ER>=10  cpu s"
    )
    for level in args.levels:
        totals = {name: [0, 0.0] for name in args.generators}
        for seed in args.seed:
            for name in args.generators:
                c0 = time.process_time()
                if name.startswith("ours"):
                    variant = VARIANTS[name.partition(":")[2] or "shipped"]
                    got, best = ours(
                        level, args.seconds, seed, args.max_per_grid, variant, args.cpu
                    )
                else:
                    got, best = plain_annealer(level, args.seconds, seed)
                cpu = time.process_time() - c0
                scores = [
                    (g.ratings["se"].score if hasattr(g, "ratings") else rate(g, "se").score)
                    for g in got
                ]
                ten = sum(1 for s in scores if s >= 10.0)
                if args.save is not None:
                    with args.save.open("a", encoding="utf-8") as out:
                        for g, sc in zip(got, scores, strict=True):
                            line = cs.format_line(g.puzzle if hasattr(g, "puzzle") else g)
                            out.write(f"{line} {level} {seed} {name} {sc:.1f}\n")
                grids, fams = families(got) if got else (0, 0)
                rate_min = 60.0 * fams / cpu if cpu > 0 else 0.0
                totals[name][0] += fams
                totals[name][1] += cpu
                print(
                    f"{level:<11} {seed:>4}  {name:<9} {len(got):>4}  {grids:>5}  {fams:>8}  "
                    f"{rate_min:>23.2f}  {f'{best:.1f}' if math.isfinite(best) else '-':>7}  "
                    f"{ten:>6}  {cpu:>5.0f}",
                    flush=True,
                )
        if len(args.seed) > 1:
            first, (n0, c0) = args.generators[0], totals[args.generators[0]]
            for name, (n, c) in totals.items():
                per, per0 = (60.0 * n / c if c > 0 else 0.0), (60.0 * n0 / c0 if c0 > 0 else 0.0)
                ratio = f"{n / n0:.1f}x" if n0 else ("inf" if n else "-")
                per_ratio = f"{per / per0:.1f}x" if per0 else ("inf" if per else "-")
                print(
                    f"{level:<11} total: {name} {n} families ({ratio} {first}'s); "
                    f"per CPU-minute {per:.2f} ({per_ratio} {first}'s)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
