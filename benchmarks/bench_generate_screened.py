"""Families of new SE extreme puzzles: the search with its moves screened at the floor or not.

The screened search (``SearchSettings(screen_at_floor=True)``, the default
since commit 9aa5c53) is the annealing search with every vicinity move tested
by SE's quick test at the target's floor (9.0) rather than at the weakest
elite state's score, where the test clears nothing below 8.6. This runs, for
each seed, one after the other in one process: ``unscreened``
(``generate(10_000, level="extreme", metric="se")`` with
``screen_at_floor=False``; the records before 9aa5c53 call it ``shipped``),
``screened`` (the same with the setting on) and, with ``--plain``, the plain
annealer of ``bench_generate_new.py``, and with ``--random``,
``method="random"`` (random minimal puzzles, each tested by SE's quick test
at the floor and rated only when it cannot clear it). With ``--only``, also:
``python-moves``, the screened search with its moves made by the Python loop
that came before the compiled move (``_kernels/moves.py``);
``spent-in-passes``, the screened search as before a retired family's states
were dropped everywhere (only its whole-vicinity passes dropped them;
vicinity moves, chain steps and the elite pool kept and rated them);
``wider`` and ``one-clue``, the screened search with and without
``wider_after`` 200 (an elite state's moves {-2+2} once 200 of its {-1+1}
moves gave no output). The
searches get ``--seconds`` of CPU time each (a shared machine: what one core
gives in that time, measured however loaded it is); the plain annealer gets
``--seconds`` of the clock (its loop reads the clock), so compare its
per-CPU-minute rate. Each row counts new puzzles, their distinct solution
grids and their families (``bench_generate_new.families``: one grid up to
isomorphism, or half the clues shared); the totals give each generator's
families and per-CPU-minute rate as ratios of the first's.

    .venv/bin/python benchmarks/bench_generate_screened.py --seconds 120 --seed 4001 4002
    .venv/bin/python benchmarks/bench_generate_screened.py --seconds 120 --plain --seed 2001
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import bench_generate_new as bench
from _common import one_core, ratio

import csp_sudoku as cs
from csp_sudoku.generators import anneal
from csp_sudoku.generators.search.settings import DEFAULTS

#: The search's settings by generator name: vicinity moves screened at the floor or not.
SETTINGS = {
    "unscreened": replace(DEFAULTS, screen_at_floor=False),
    "screened": replace(DEFAULTS, screen_at_floor=True),
    # an elite state's moves {-2+2} after 200 of its {-1+1} moves gave no output
    "wider": replace(DEFAULTS, screen_at_floor=True, wider_after=200),
    "one-clue": replace(DEFAULTS, screen_at_floor=True, wider_after=None),
}


def run(name: str, seconds: float, seed: int) -> tuple[list[Any], float, float]:
    """(outputs, best ER met, CPU seconds) of one generator on one seed."""
    c0 = time.process_time()
    if name == "plain":
        got, best = bench.plain_annealer("extreme", seconds, seed)
    elif name == "random":
        got, best = bench.ours("extreme", seconds, seed, cpu=True, method="random")
    elif name == "python-moves":
        # the screened search with every move made by its Python loop (numpy calls
        # between compiled searches), as before the move was one compiled call
        with mock.patch.object(anneal, "move9", lambda *a, **k: None):
            got, best = bench.ours(
                "extreme", seconds, seed, settings=SETTINGS["screened"], cpu=True
            )
    elif name == "spent-in-passes":
        with _spent_in_passes_only():
            got, best = bench.ours(
                "extreme", seconds, seed, settings=SETTINGS["screened"], cpu=True
            )
    else:
        settings = SETTINGS[name]
        got, best = bench.ours("extreme", seconds, seed, settings=settings, cpu=True)
    return got, best, time.process_time() - c0


@contextmanager
def _spent_in_passes_only() -> Iterator[None]:
    """The search with a retired family's states dropped only by its whole-vicinity
    passes (``_Pass.value``), as at commit 6ddc393: the elite pool admits them,
    vicinity moves and chain steps rate them."""
    spent, value = anneal._Search._spent, anneal._Pass.value
    in_pass = [False]

    def pass_value(self: Any, *args: Any, **kwargs: Any) -> Any:
        in_pass[0] = True
        try:
            return value(self, *args, **kwargs)
        finally:
            in_pass[0] = False

    def only_in_passes(self: Any, clues: Any, sol: Any) -> bool:
        return in_pass[0] and spent(self, clues, sol)

    with (
        mock.patch.object(anneal._Pass, "value", pass_value),
        mock.patch.object(anneal._Search, "_spent", only_in_passes),
        mock.patch.object(anneal._Search, "_fresh_family", lambda self, clues, sol: True),
    ):
        yield


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=120.0, help="CPU seconds per generator")
    ap.add_argument("--seed", type=int, nargs="+", default=[4001])
    ap.add_argument("--plain", action="store_true", help="also run the plain annealer")
    ap.add_argument(
        "--random",
        action="store_true",
        help="also run method random (random minimal puzzles, each quick-tested at the floor)",
    )
    ap.add_argument(
        "--only",
        nargs="+",
        choices=[
            "unscreened",
            "screened",
            "plain",
            "random",
            "python-moves",
            "spent-in-passes",
            "wider",
            "one-clue",
        ],
        default=None,
        help="run only these generators (the first is the totals' baseline)",
    )
    ap.add_argument(
        "--save",
        type=Path,
        help="append every output as 'puzzle seed generator ER' (to spot-check with SE)",
    )
    args = ap.parse_args()
    one_core()  # the figures are per core
    bench.warm_up()
    names = args.only or [
        "unscreened",
        "screened",
        *(["plain"] if args.plain else []),
        *(["random"] if args.random else []),
    ]
    print(f"budget {args.seconds:g} s each, seeds {args.seed}, one process")
    print("seed  generator  new  grids  families  per CPU-minute  best ER  cpu s")
    totals = {n: [0, 0.0] for n in names}
    for seed in args.seed:
        for name in names:
            got, best, cpu = run(name, args.seconds, seed)
            scores = [
                g.ratings["se"].score if hasattr(g, "ratings") else cs.rate(g, "se").score
                for g in got
            ]
            grids, fams = bench.families(got) if got else (0, 0)
            totals[name][0] += fams
            totals[name][1] += cpu
            if args.save is not None:
                with args.save.open("a", encoding="utf-8") as out:
                    for g, sc in zip(got, scores, strict=True):
                        line = cs.format_line(g.puzzle if hasattr(g, "puzzle") else g)
                        out.write(f"{line} {seed} {name} {sc:.1f}\n")
            shown = f"{best:.1f}" if math.isfinite(best) else "-"
            print(
                f"{seed:>4}  {name:<9} {len(got):>4}  {grids:>5}  {fams:>8}  "
                f"{60.0 * fams / cpu if cpu else 0.0:>14.2f}  {shown:>7}  {cpu:>5.0f}",
                flush=True,
            )
    n0, c0 = totals[names[0]]
    for name, (n, c) in totals.items():
        per, per0 = 60.0 * n / c if c else 0.0, 60.0 * n0 / c0 if c0 else 0.0
        print(
            f"total {name}: {n} families ({ratio(n, n0)} {names[0]}'s); "
            f"per CPU-minute {per:.2f} ({ratio(per, per0)})",
            flush=True,
        )


if __name__ == "__main__":
    main()
