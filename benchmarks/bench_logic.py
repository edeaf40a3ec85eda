"""Full logical solves: share solved with no oracle, time per solve, against a peer.

For each set, the same puzzles go through

* ours: ``solve_path(puzzle)``, the default human model (singles, the subset
  rule up to size 4, graded refutation up to level 2) with every chain built
  for its explanation; a puzzle counts as solved by logic when the path is
  solved with no oracle or refutation-by-solution step;
* the peer: larsdoku's ``solve(p, no_oracle=True)`` (a pip-installable solver
  that solves by logic), when it is installed in the benchmark's environment
  (``.venv/bin/pip install larsdoku``; it is not a dependency of csp_sudoku).

Times are wall seconds per puzzle, measured around the one call, on one core
per worker process (``--jobs`` processes share out the puzzles; both solvers
get the same split), and the process's CPU seconds over the same call (less
sensitive to other jobs on a shared machine). Medians and 95th percentiles of
the same puzzles are compared, ours against the peer's.

    .venv/bin/python benchmarks/bench_logic.py --sample 100 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import reference

SETS = ("17_clue.txt", "top1465.txt", "forum_hardest_1106.txt", "forum_hardest_11plus.txt")


def sample(name: str, n: int, seed: int = 0) -> list[str]:
    try:
        lines = reference.puzzles(name)
    except reference.ReferenceDataError as exc:  # a name not among the sets, a damaged file
        sys.exit(str(exc))
    if n >= len(lines):
        return lines
    idx = np.random.default_rng(seed).choice(len(lines), n, replace=False)
    return [lines[i] for i in sorted(idx)]


def ours(puzzle: str) -> tuple[bool, float, int, float]:
    import csp_sudoku as cs
    from csp_sudoku.human.path import solve_path

    p = cs.parse(puzzle)
    c, t = time.process_time(), time.perf_counter()
    path = solve_path(p)
    text = "\n".join(path.describe())  # the explanation, as `explain` prints it
    dt, dc = time.perf_counter() - t, time.process_time() - c
    logical = path.solved and not any(s.kind in ("oracle", "refutation") for s in path.steps)
    return logical and bool(text), dt, path.max_level, dc


def peer(puzzle: str) -> tuple[bool, float, int, float]:
    import io
    from contextlib import redirect_stdout

    from larsdoku import solve

    c, t = time.process_time(), time.perf_counter()
    with redirect_stdout(io.StringIO()):
        r = solve(puzzle, no_oracle=True)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    return bool(r.get("success")) and not r.get("stalled"), dt, -1, dc


def _warm(fn: Any) -> None:
    fn("7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........")


def run(fn: Any, puzzles: list[str], jobs: int) -> list[tuple[bool, float, int, float]]:
    if jobs <= 1:
        _warm(fn)
        return [fn(p) for p in puzzles]
    with ProcessPoolExecutor(jobs) as ex:
        list(ex.map(_warm, [fn] * jobs))
        return list(ex.map(fn, puzzles, chunksize=1))


def summary(res: list[tuple[bool, float, int, float]]) -> dict[str, Any]:
    t = np.array([r[1] for r in res]) * 1e3
    cpu = np.array([r[3] for r in res]) * 1e3
    levels: dict[int, int] = {}
    for r in res:
        levels[r[2]] = levels.get(r[2], 0) + 1
    return {
        "n": len(res),
        "solved_by_logic": sum(r[0] for r in res),
        "median_ms": round(float(np.median(t)), 2),
        "p95_ms": round(float(np.percentile(t, 95)), 2),
        "mean_ms": round(float(t.mean()), 2),
        "cpu_median_ms": round(float(np.median(cpu)), 2),
        "cpu_p95_ms": round(float(np.percentile(cpu, 95)), 2),
        "max_level": dict(sorted(levels.items())),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=100, help="puzzles per set (default 100)")
    ap.add_argument(
        "--sample-hard",
        type=int,
        default=None,
        help="puzzles of the two forum sets (default --sample)",
    )
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    try:
        import larsdoku  # noqa: F401

        have_peer = not args.no_peer
    except ImportError:
        have_peer = False
        print("peer not installed (pip install larsdoku): ours only", file=sys.stderr)
    report: dict[str, Any] = {}
    for name in args.sets.split(","):
        n = args.sample_hard if args.sample_hard and name.startswith("forum") else args.sample
        puzzles = sample(name, n)
        row = {"ours": summary(run(ours, puzzles, args.jobs))}
        if have_peer:
            row["peer"] = summary(run(peer, puzzles, args.jobs))
            row["peer_median_over_ours"] = round(
                row["peer"]["median_ms"] / max(row["ours"]["median_ms"], 1e-9), 2
            )
        report[name] = row
        print(json.dumps({name: row}), flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
