"""Where a family's CPU goes in the SE extreme search: per grid, per stage, per kind of step.

The search (``generate(10_000, level="extreme", metric="se")``, one output a
family) keeps its solution grid in every move, so each family is one grid
climbed from a fresh random minimal puzzle to an output above ER 9.0. This
runs the search as it ships for ``--seconds`` of CPU per seed and accounts,
with wrappers around the search's own methods (nothing it does changes):

- **per grid**: the CPU spent while the search moved on it (its fresh
  puzzle, its chain steps and vicinity moves), whether it gave an output;
- **per stage** of a grid that gave one: the CPU and moves until its best
  rated state first reached ER 7.0, 8.0, 8.5, 9.0, and until the output;
- **per kind of step**: chain steps (each rated) against vicinity moves
  (most cleared by the quick test at 9.0), and the chain steps by how far
  their move dropped the chain's objective;
- **at each output**: the elite pool's states on the output's grid that
  share less than half of its clues (outside its family but for the grid:
  what a grid-changing move could carry to a new family), and how many of
  them are rated 8.5 or more.

    .venv/bin/python benchmarks/bench_family_cost.py --seconds 60 --seed 4027 4028
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import bench_generate_new as bench
import numpy as np
from _common import commit, one_core, seeds_parser

from csp_sudoku.generators import anneal
from csp_sudoku.generators.search import outputs as outputs_mod

#: The ER thresholds whose first reach is timed on each grid that gave an output.
STAGES = (7.0, 8.0, 8.5, 9.0)


class Ledger:
    """The accounts of one run."""

    def __init__(self) -> None:
        self.cpu: dict[bytes | None, float] = defaultdict(float)  # per grid
        self.moves: dict[bytes, int] = defaultdict(int)
        self.reach: dict[tuple[bytes, float], tuple[float, int]] = {}
        self.out_grids: list[bytes] = []
        self.kind: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])  # n, cpu
        self.far: list[tuple[int, int]] = []  # per output: states far, of them >= 8.5
        self._on: bytes | None = None
        self._t = time.process_time()

    def charge(self, grid: bytes | None) -> None:
        """The CPU since the last call goes to the grid the search was on."""
        t = time.process_time()
        self.cpu[self._on] += t - self._t
        self._on, self._t = grid, t


@contextmanager
def accounted(led: Ledger) -> Iterator[None]:
    """The search's methods wrapped to keep ``led``'s accounts."""
    move, fresh, chain_step = (
        anneal._Search._move,
        anneal._Search._fresh,
        anneal._Search._chain_step,
    )
    vicinity, retire, offer = (
        anneal._Search._vicinity_step,
        anneal._Search._retire,
        outputs_mod.Outputs.offer,
    )
    now: dict[str, Any] = {}

    def _move(self: Any, clues: Any, sol: Any, k: int = 0) -> Any:
        g = sol.tobytes()
        led.charge(g)
        led.moves[g] += 1
        return move(self, clues, sol, k)

    def _fresh(self: Any) -> Any:
        led.charge(None)
        clues, sol = fresh(self)
        led.charge(sol.tobytes())  # the fresh puzzle's cost went to no grid: move it
        led.cpu[sol.tobytes()] += led.cpu.pop(None, 0.0)
        return clues, sol

    def _timed(name: str, step: Any) -> Any:
        def run(self: Any, *a: Any) -> Any:
            t = time.process_time()
            now["cur"] = a[0].cur if name == "chain" else None
            now["h"] = None
            got = step(self, *a)
            key = name
            if name == "chain" and now["h"] is not None:
                drop = now["cur"] - now["h"]
                key = "chain, up" if drop <= 0 else f"chain, drop {'< 2' if drop < 2 else '>= 2'}"
            led.kind[key][0] += 1
            led.kind[key][1] += time.process_time() - t
            return got

        return run

    def _offer(self: Any, clues: Any, sol: Any, r: Any, vicinity: bool = False) -> Any:
        g = sol.tobytes()
        now["h"] = float(r.details.get("fine_score", r.score))
        led.charge(g)
        for th in STAGES:
            if r.score >= th and (g, th) not in led.reach:
                led.reach[(g, th)] = (led.cpu[g], led.moves[g])
        got = offer(self, clues, sol, r, vicinity=vicinity)
        if got is not None:
            led.out_grids.append(g)
            led.reach[(g, 99.0)] = (led.cpu[g], led.moves[g])
        return got

    def _retire(self: Any, grid: bytes) -> None:
        out = self.outputs._made_clues[-1]
        far = [
            e.score
            for e in self.elite.states
            if e.solution.tobytes() == grid
            and 2 * np.count_nonzero((e.clues == out) & (out != 0))
            < min(np.count_nonzero(out), np.count_nonzero(e.clues))
        ]
        led.far.append((len(far), sum(s >= 8.5 for s in far)))
        retire(self, grid)

    with (
        mock.patch.object(anneal._Search, "_move", _move),
        mock.patch.object(anneal._Search, "_fresh", _fresh),
        mock.patch.object(anneal._Search, "_chain_step", _timed("chain", chain_step)),
        mock.patch.object(anneal._Search, "_vicinity_step", _timed("vicinity", vicinity)),
        mock.patch.object(anneal._Search, "_retire", _retire),
        mock.patch.object(outputs_mod.Outputs, "offer", _offer),
    ):
        yield


def report(seed: int, got: list[Any], led: Ledger) -> None:
    """One seed's accounts."""
    led.charge(None)
    outs = set(led.out_grids)
    total = sum(led.cpu.values())
    on_out = sum(led.cpu[g] for g in outs)
    barren = [g for g in led.cpu if g is not None and g not in outs]
    print(
        f"seed {seed}: {len(got)} outputs on {len(outs)} grids; {len(barren)} grids without one;"
        f" CPU {total:.1f} s, {on_out:.1f} s of it on grids that gave an output"
    )
    line = []
    for th in (*STAGES, 99.0):
        got_th = [led.reach[(g, th)] for g in outs if (g, th) in led.reach]
        if got_th:
            cpu = sum(c for c, _ in got_th) / len(got_th)
            mv = sum(m for _, m in got_th) / len(got_th)
            line.append(f"{'output' if th == 99.0 else th}: {cpu:.2f} s, {mv:.0f} moves")
    print("  mean per grid until ER " + "; ".join(line))
    per = sorted(led.cpu[g] for g in outs)
    if per:
        print(
            f"  CPU per output grid: median {per[len(per) // 2]:.2f} s,"
            f" min {per[0]:.2f} s, max {per[-1]:.2f} s"
        )
    for k, (n, t) in sorted(led.kind.items()):
        print(f"  {k:18s} {int(n):7d} steps {t:6.1f} s ({1000 * t / max(1, n):.2f} ms each)")
    far = sum(f for f, _ in led.far)
    hard = sum(h for _, h in led.far)
    print(
        f"  at the outputs: {far} pool states on the grid outside the output's clues'"
        f" family ({far / max(1, len(led.far)):.1f} an output), {hard} of them at ER 8.5+"
    )


def main() -> None:
    args = seeds_parser(__doc__, "per seed", 4027).parse_args()
    one_core()  # the figures are per core
    print(f"commit {commit()}; {args.seconds:g} CPU-s a seed")
    for seed in args.seed:
        led = Ledger()
        with accounted(led):
            got, _best = bench.ours("extreme", args.seconds, seed, cpu=True)
        report(seed, got, led)


if __name__ == "__main__":
    main()
