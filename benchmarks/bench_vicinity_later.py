"""The whole-vicinity search with and without neighbours left for later.

The SE 10+ search (``generate(..., score_range=(10, inf))``) hands over to the
whole-vicinity search (:func:`csp_sudoku.generators.vicinity.best_first`) when
its climb stalls. A neighbour that the thorough quick test clears at the
frontier's floor joins the frontier's bottom unrated (``vicinity.Later``) and
is rated only when the search pops it (docs/generators.md, "Neighbours left
for later"). This measures what that is worth, in one process, per seed:

1. the search is run up to its first hand-over, twice (the same seed, so the
   same elite pool), and each time the whole-vicinity search's arguments
   (its starts and its rating callback, with its own caches) are kept;
2. the first copy searches for ``--seconds`` with every neighbour rated as it
   comes (``later`` always False), the second as the library does;
3. per copy: expansions, full ratings and their CPU seconds, and the best
   objective met; then the ratio of expansions per CPU second (later / all).

    taskset -c 0 .venv/bin/python benchmarks/bench_vicinity_later.py --seconds 60 --seed 30 7
    taskset -c 1 .venv/bin/python benchmarks/bench_vicinity_later.py --seconds 60 --seed 7 --window 0.2
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
import csp_sudoku.generators.search.rating as rating_mod
import csp_sudoku.generators.vicinity as vicinity
from csp_sudoku.generators.targeting import rate_with_solution

_RATE = "_rate"  # the search's name for rate_with_solution (its Rater's), timed here


class _HandOver(Exception):
    """Raised to stop the search at its first whole-vicinity search."""


def hand_over(seed: int) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments of the first whole-vicinity search of seed ``seed``'s SE 10+ search."""
    kept: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    real = vicinity.best_first

    def capture(*args: Any, **kwargs: Any) -> Any:
        kept.append(((list(args[0]), *args[1:]), kwargs))
        raise _HandOver

    vicinity.best_first = capture  # type: ignore[assignment]
    try:
        for _ in cs.generate(
            1, metric="se", score_range=(10.0, math.inf), seed=seed, budget_seconds=600
        ):
            break
    except _HandOver:
        pass
    finally:
        vicinity.best_first = real
    if not kept:
        raise SystemExit(f"seed {seed}: the search met SE 10 before its whole-vicinity search")
    return kept[0]


def search(
    call: tuple[tuple[Any, ...], dict[str, Any]], seconds: float, later: bool, window: float | None
) -> tuple[str, float]:
    """One whole-vicinity search from ``call`` for ``seconds`` (``window``: that of
    the search's first pass when None): a table row, and its expansions per CPU
    second."""
    args, kwargs = call
    starts, geometry, checker, rng, value, key = args
    clock = {"rated": 0, "rating_s": 0.0}

    def timed(*a: Any, **k: Any) -> Any:
        c0 = time.process_time()
        try:
            return rate_with_solution(*a, **k)
        finally:
            clock["rated"] += 1
            clock["rating_s"] += time.process_time() - c0

    expansions = [0]

    def expanded() -> None:
        expansions[0] += 1

    def rated(clues: Any, sol: Any, floor: float, may: bool) -> Any:
        return value(clues, sol, floor, may and later)

    setattr(rating_mod, _RATE, timed)
    best = -math.inf
    c0 = time.process_time()
    try:
        for _c, _s, _r, h, _root in vicinity.best_first(
            starts,
            geometry,
            checker,
            rng,
            rated,
            key,
            window=kwargs["window"] if window is None else window,
            patience=10**9,
            deadline=time.time() + seconds,
            on_expand=expanded,
        ):
            best = max(best, h)
    finally:
        setattr(rating_mod, _RATE, rate_with_solution)
    cpu = time.process_time() - c0
    name = "later" if later else "all rated"
    row = (
        f"{name:<10} {expansions[0]:>10} {clock['rated']:>8} {clock['rating_s']:>9.1f} "
        f"{cpu:>6.1f} {best:>8.4f}"
    )
    per_cpu = expansions[0] / cpu
    return row + f" {per_cpu:>8.2f}", per_cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="length of each search")
    ap.add_argument("--seed", type=int, nargs="+", default=[30])
    ap.add_argument(
        "--window",
        type=float,
        help="the window (default: the first pass's, 0.1); later passes widen it",
    )
    args = ap.parse_args()
    one_core()  # the figures are per core
    for seed in args.seed:
        rows = [
            search(hand_over(seed), args.seconds, later, args.window) for later in (False, True)
        ]
        window = "" if args.window is None else f", window {args.window:g}"
        print(f"seed {seed}, {args.seconds:g} s each, from the same elite pool{window}")
        print("mode       expansions  rated  rating s  cpu s     best  exp/cpu s")
        for row, _per in rows:
            print(row)
        ratio = rows[1][1] / rows[0][1]
        print(f"expansions per CPU second, later / all rated: {ratio:.2f}x", flush=True)


if __name__ == "__main__":
    main()
