"""How often the SE 10+ search meets a new SE 10.0+ puzzle, seed by seed.

Whether one run of ``generate --metric se --score-min 10`` meets SE 10 within
its budget is a matter of chance: after a climb of about 12 s its first
SE 10+ output comes at a roughly steady rate (docs/generators.md, "What a
run's chance is made of"). So the search is measured over many seeds: for
each ``--seed``, this runs ``generate(10_000, score_range=(10, inf),
metric="se", seed=S, budget_seconds=--seconds)`` once per ``--lean`` value
(the whole-vicinity search's preference for fewer clues,
``anneal.LEAN``; the first value is the baseline, run in the same process
one after the other, after one warm-up) and prints when each run met its
first new SE 10+ puzzle, or the best score it met.

Then, per value: on how many seeds SE 10 came within each ``--at`` cut-off;
the steady rate of first hits that fits them (hits over the seconds searched
after ``--climb``, a run that missed counting its whole budget: the
maximum-likelihood rate of an exponential wait with censored runs); the
chance within 120 s that rate predicts beside the measured share; and the
ratio of each value's count to the first value's.

One process uses one core. Split the seeds over cores, one core each, each
appending its runs to a file (``--out``), then summarise them together
(``--merge``):

    taskset -c 0 .venv/bin/python benchmarks/bench_se10.py --seed 209 211 213 --out a.jsonl
    taskset -c 1 .venv/bin/python benchmarks/bench_se10.py --seed 210 212 214 --out b.jsonl
    .venv/bin/python benchmarks/bench_se10.py --merge a.jsonl b.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench_generate_new import warm_up  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
import csp_sudoku.generators.anneal as anneal_mod

#: The budget of the benchmark's target (a new SE 10 within 120 s on one core):
#: the default ``--seconds`` and the cut-off whose chance the summary predicts.
TARGET = 120.0


@dataclass(frozen=True)
class Run:
    """One run of the search (one line of ``--out``)."""

    seed: int
    lean: float
    seconds: float  # its budget
    first: float | None  # seconds to its first SE 10+ output (None: none)
    outputs: int
    best: float  # the best score it met
    cpu: float  # CPU seconds


def first_ten(seed: int, seconds: float, lean: float) -> Run:
    """One run of the SE 10+ search from ``seed`` with ``anneal.LEAN = lean``."""
    anneal_mod.LEAN = lean
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
        seed, lean, seconds, first, n, round(best[0], 2), round(time.process_time() - cpu, 1)
    )


def summary(runs: Sequence[Run], at: Sequence[float], climb: float) -> list[str]:
    """The summary lines of ``runs``, per ``lean`` value in order of first appearance:
    hits within each cut-off, the steady rate's fit and the chance within 120 s it
    predicts, and the ratio to the first value's count."""
    lines = []
    base: int | None = None
    for v in dict.fromkeys(r.lean for r in runs):
        mine = [r for r in runs if r.lean == v]
        budget = min(r.seconds for r in mine)  # every run is censored here
        firsts = [r.first for r in mine if r.first is not None and r.first <= budget]
        cuts = [a for a in at if a <= budget] or [budget]
        met = {a: sum(f <= a for f in firsts) for a in cuts}
        base = met[cuts[-1]] if base is None else base
        ratio = f"{met[cuts[-1]] / base:.2f}x the first value's" if base else "-"
        within = ", ".join(f"{met[a]} of {len(mine)} within {a:g} s" for a in cuts)
        lines.append(f"lean {v:g}: SE 10 on {within} ({ratio})")
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
    ap.add_argument("--lean", type=float, nargs="+", default=[anneal_mod.LEAN])
    ap.add_argument(
        "--at", type=float, nargs="+", default=[TARGET / 2, TARGET, 2 * TARGET], help="cut-offs (s)"
    )
    ap.add_argument("--climb", type=float, default=12.0, help="seconds before the steady rate")
    ap.add_argument("--out", type=Path, help="append one JSON line per run to this file")
    ap.add_argument("--merge", type=Path, nargs="+", help="only summarise these --out files")
    args = ap.parse_args()
    if args.merge:
        runs = [
            Run(**json.loads(line))
            for f in args.merge
            for line in f.read_text().splitlines()
            if line
        ]
        for line in summary(runs, args.at, args.climb):
            print(line)
        return
    warm_up()
    print(f"budget {args.seconds:g} s a run, one process; first SE 10+ output (s), or the best met")
    print("seed  " + "  ".join(f"lean {v:<6g}" for v in args.lean))
    runs = []
    saved = anneal_mod.LEAN
    try:
        for seed in args.seed:
            cells = []
            for v in args.lean:
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
    finally:
        anneal_mod.LEAN = saved
    for line in summary(runs, args.at, args.climb):
        print(line)


if __name__ == "__main__":
    main()
