"""Build csp_sudoku/data/metric_reference.json: the reference distribution of the metrics.

Chang, Fan, Sun (*hsolve*, section 4.3.2) define levels as equal-count bins of
the metric over "the set of all Sudoku puzzles that are distributed for people
to solve", approximated by a sample of 1,000 puzzles. Ours: a seeded sample
(numpy default_rng(2026)) of 800 puzzles from 17_clue.txt (minimal, mostly easy
to medium, like published puzzles) and 200 from top1465.txt (the hard tail),
rated with each metric's default runs and seeds 1..1000. The file stores the
0..100 percent quantiles of each metric; the scores are kept in
benchmarks/results/reference_scores.tsv for the histograms of docs/validation.md.

Usage: .venv/bin/python benchmarks/make_reference.py [--jobs N] [--metrics a,b]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from metric_data import ROOT, sample, scores

METRICS = ("hsolve", "oracle", "refutation", "dependency", "rounds", "mdrt")


def reference_puzzles() -> list[str]:
    """The 1,000 reference puzzles (800 17_clue + 200 top1465, seed 2026)."""
    return sample("17_clue.txt", 800, 2026) + sample("top1465.txt", 200, 2026)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--metrics", default=",".join(METRICS))
    args = ap.parse_args()
    metrics = [m for m in args.metrics.split(",") if m]
    puzzles = reference_puzzles()
    t = time.perf_counter()
    table = scores(puzzles, metrics, cache="reference_scores.tsv", jobs=args.jobs)
    print(
        f"rated {len(puzzles)} puzzles x {len(metrics)} metrics in {time.perf_counter() - t:.1f} s"
    )
    path = ROOT / "csp_sudoku" / "data" / "metric_reference.json"
    data = json.loads(path.read_text()) if path.exists() else {"metrics": {}}
    data["source"] = (
        "1,000 puzzles: 800 from 17_clue.txt and 200 from top1465.txt, chosen with "
        "numpy.random.default_rng(2026); each metric with its default runs; "
        "made by benchmarks/make_reference.py"
    )
    data["geometry"] = "9x9"
    for m in metrics:
        vals = np.array([table[m][p][0] for p in puzzles], dtype=float)
        vals = vals[np.isfinite(vals)]
        q = np.percentile(vals, np.arange(101))
        data["metrics"][m] = {
            "n": int(vals.size),
            "percentiles": [round(float(x), 6) for x in q],
            "mean": float(vals.mean()),
            "median": float(np.median(vals)),
        }
        print(
            f"{m:12s} median {np.median(vals):10.3f}  quartiles {np.percentile(vals, [25, 50, 75]).round(3)}"
        )
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
