"""How often the SE 10+ search meets a new SE 10.0+ puzzle, seed by seed.

Whether one run of ``generate --metric se --score-min 10`` meets SE 10 within
its budget is a matter of chance: after a climb its first SE 10+ output comes
at a roughly steady rate (docs/generators.md, "What a run's chance is made
of"). So the search is measured over many seeds: for each ``--seed``, this
runs ``generate(10_000, score_range=(10, inf), metric="se", seed=S,
budget_seconds=--seconds, search=V)`` once per ``--variant`` (the search's
settings ``V``, :data:`VARIANTS`: ``shipped`` is the library as it stands,
``before`` the search before its plateau states were bounded and its hand-over
brought forward; the first named is the baseline, run in the same process one
after the other, after one warm-up) and prints when each run met its first new
SE 10+ puzzle, or the best score it met.

Then, per variant: on how many seeds SE 10 came within each ``--at``
cut-off; the steady rate of first hits that fits them (hits over the seconds
searched after ``--climb``, a run that missed counting its whole budget: the
maximum-likelihood rate of an exponential wait with censored runs); the
chance within 120 s that rate predicts beside the measured share; and the
ratio of each variant's share of seeds to the first's.

One process uses one core. Split the seeds over cores, one core each, each
appending its runs to a file (``--out``), then summarise them together
(``--merge``):

    taskset -c 0 .venv/bin/python benchmarks/bench_se10.py --seed 209 211 213 --out a.jsonl
    taskset -c 1 .venv/bin/python benchmarks/bench_se10.py --seed 210 212 214 --out b.jsonl
    .venv/bin/python benchmarks/bench_se10.py --merge a.jsonl b.jsonl
    taskset -c 0 .venv/bin/python benchmarks/bench_se10.py --variant shipped before --seed 401 403
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from _common import one_core  # a sibling script (its folder is on sys.path)
from bench_generate_new import warm_up  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
from csp_sudoku.generators.search import DEFAULTS, SearchSettings

#: The budget of the benchmark's target (a new SE 10 within 120 s on one core):
#: the default ``--seconds`` and the cut-off whose chance the summary predicts.
TARGET = 120.0


#: Settings of the search to compare, by name (each run passes its value to
#: ``generate(search=...)``).
VARIANTS: dict[str, SearchSettings] = {
    "shipped": DEFAULTS,
    # plateau states rated in full, the hand-over after 10,000 stale steps
    "before": replace(DEFAULTS, bounded=None, renew=10_000),
    "rated": replace(DEFAULTS, bounded=None),  # plateau states rated in full
    "renew10k": replace(DEFAULTS, renew=10_000),  # the hand-over after 10,000 stale steps
    # fewer clues first (docs/generators.md, "Fewer clues first")
    "lean": replace(DEFAULTS, lean=0.05),
    # bounded only a tenth below each pass's best (the default before 2026-12-02)
    "pass-best": replace(DEFAULTS, bound_top=False),
    # bounded up to the target's floor itself
    "bound-floor": replace(DEFAULTS, bound_floor=True),
    "renew1k": replace(DEFAULTS, renew=1_000),  # the hand-over after 1,000 stale steps
    # the whole-vicinity search ends after 250 ratings
    "cap250": replace(DEFAULTS, deepen_ratings=250),
}


@dataclass(frozen=True)
class Run:
    """One run of the search (one line of ``--out``)."""

    seed: int
    variant: str
    seconds: float  # its budget
    first: float | None  # seconds to its first SE 10+ output (None: none)
    outputs: int
    best: float  # the best score it met
    cpu: float  # CPU seconds


def first_ten(seed: int, seconds: float, variant: str) -> Run:
    """One run of the SE 10+ search from ``seed`` with the settings of ``variant``."""
    best = [-math.inf]

    def progress(report: dict[str, object]) -> None:
        if isinstance(report.get("best"), float | int):
            best[0] = max(best[0], float(report["best"]))  # type: ignore[arg-type]

    first: float | None = None
    n = 0
    start, cpu = time.time(), time.process_time()
    gen = cs.generate(
        10_000,
        score_range=(10.0, math.inf),
        metric="se",
        seed=seed,
        budget_seconds=seconds,
        progress=progress,
        search=VARIANTS[variant],
    )
    try:
        for g in gen:
            n += 1
            best[0] = max(best[0], g.ratings["se"].score)
            if first is None:
                first = round(time.time() - start, 1)
    except cs.generators.BudgetExhaustedError:
        pass
    return Run(
        seed, variant, seconds, first, n, round(best[0], 2), round(time.process_time() - cpu, 1)
    )


def _record(fields: dict[str, object]) -> Run:
    """A run of ``--out``; records made before the variants were named carry the
    whole-vicinity search's ``lean`` instead, and were made by the search as it
    was before its plateau states were bounded (``before``)."""
    if "lean" in fields:
        lean = float(fields.pop("lean"))  # type: ignore[arg-type]
        fields["variant"] = "before" if lean == 0 else f"before, lean {lean:g}"
    return Run(**fields)  # type: ignore[arg-type]


def summary(runs: Sequence[Run], at: Sequence[float], climb: float) -> list[str]:
    """The summary lines of ``runs``, per variant in order of first appearance:
    hits within each cut-off, the steady rate's fit and the chance within 120 s it
    predicts, and the ratio of its share of seeds to the first variant's."""
    lines = []
    base: float | None = None  # the first variant's share of seeds within the last cut-off
    for v in dict.fromkeys(r.variant for r in runs):
        mine = [r for r in runs if r.variant == v]
        budget = min(r.seconds for r in mine)  # every run is censored here
        firsts = [r.first for r in mine if r.first is not None and r.first <= budget]
        cuts = [a for a in at if a <= budget] or [budget]
        met = {a: sum(f <= a for f in firsts) for a in cuts}
        share = met[cuts[-1]] / len(mine)
        base = share if base is None else base
        ratio = f"{share / base:.2f}x the first variant's share" if base else "-"
        within = ", ".join(f"{met[a]} of {len(mine)} within {a:g} s" for a in cuts)
        lines.append(f"{v}: SE 10 on {within} ({ratio})")
        # the steady rate: first hits over the seconds searched after the climb
        exposure = sum(max(0.0, f - climb) for f in firsts)
        exposure += (len(mine) - len(firsts)) * max(0.0, budget - climb)
        if firsts and exposure > 0:
            per = exposure / len(firsts)
            pred = 1.0 - math.exp(-max(0.0, TARGET - climb) / per)
            told = f", measured {met[TARGET] / len(mine):.2f}" if TARGET in met else ""
            lines.append(
                f"  steady rate: one first hit per {per:.0f} s of search after a {climb:g} s"
                f" climb ({len(firsts)} hits over {exposure:.0f} s); chance within {TARGET:g} s"
                f" {pred:.2f}{told}"
            )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=TARGET, help="budget of each run")
    ap.add_argument("--seed", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument(
        "--variant", nargs="+", default=["shipped"], choices=sorted(VARIANTS), help="settings"
    )
    ap.add_argument(
        "--at", type=float, nargs="+", default=[TARGET / 2, TARGET, 2 * TARGET], help="cut-offs (s)"
    )
    ap.add_argument("--climb", type=float, default=12.0, help="seconds before the steady rate")
    ap.add_argument("--out", type=Path, help="append one JSON line per run to this file")
    ap.add_argument("--merge", type=Path, nargs="+", help="only summarise these --out files")
    args = ap.parse_args()
    one_core()  # the figures are per core
    if args.merge:
        runs = [
            _record(json.loads(line))
            for f in args.merge
            for line in f.read_text().splitlines()
            if line
        ]
        for line in summary(runs, args.at, args.climb):
            print(line)
        return
    warm_up()
    print(f"budget {args.seconds:g} s a run, one process; first SE 10+ output (s), or the best met")
    print("seed  " + "  ".join(f"{v:<11}" for v in args.variant))
    runs = []
    for seed in args.seed:
        cells = []
        for v in args.variant:
            run = first_ten(seed, args.seconds, v)
            runs.append(run)
            if args.out is not None:
                with args.out.open("a") as f:
                    f.write(json.dumps(asdict(run)) + "\n")
            first = run.first
            cells.append(
                f"{first:>6.1f} ({run.outputs})" if first is not None else f"  - {run.best:.2f}"
            )
        print(f"{seed:>4}  " + "  ".join(f"{c:<11}" for c in cells), flush=True)
    for line in summary(runs, args.at, args.climb):
        print(line)


if __name__ == "__main__":
    main()
