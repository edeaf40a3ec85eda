"""Shared helpers of the metric benchmarks: puzzle samples and cached metric scores.

Scores are cached in benchmarks/results/ as TSV (puzzle, metric, runs, seed,
score, level_rank, seconds) so that the reference distribution, the validation
report and the figures can be rebuilt without re-rating.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import reference

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
FIGURES = ROOT / "docs" / "figures"


#: details of every cached rating, by (puzzle, metric, runs, seed)
DETAILS: dict[tuple[str, str, str, int], dict[str, object]] = {}


def details(puzzle: str, metric: str, runs: int | None, seed: int) -> dict[str, object]:
    """The scalar details of a cached rating (empty when not cached)."""
    return DETAILS.get((puzzle, metric, str(runs), seed), {})


def read_set(name: str) -> list[str]:
    """Puzzle lines of a reference set (benchmarks/reference.py)."""
    return reference.puzzles(name)


def sample(name: str, n: int, seed: int) -> list[str]:
    """``n`` puzzles of a reference set, chosen with ``numpy.random.default_rng(seed)``."""
    lines = read_set(name)
    idx = np.random.default_rng(seed).choice(len(lines), size=min(n, len(lines)), replace=False)
    return [lines[i] for i in sorted(idx.tolist())]


def read_calibration() -> list[dict[str, str]]:
    """Rows of se_calibration.tsv."""
    return reference.rows("se_calibration.tsv")


def _rate_one(args: tuple[str, str, int | None, int]) -> tuple[str, str, float, int, float, str]:
    from csp_sudoku.metrics import rate

    puzzle, metric, runs, seed = args
    t = time.perf_counter()
    r = rate(puzzle, metric, runs=runs, seed=seed)
    keep = {k: v for k, v in r.to_dict()["details"].items() if not isinstance(v, (dict, list))}
    return puzzle, metric, r.score, r.level_rank, time.perf_counter() - t, json.dumps(keep)


def scores(
    puzzles: Sequence[str],
    metrics: Iterable[str],
    *,
    cache: str,
    runs: dict[str, int | None] | None = None,
    seed: int = 1,
    jobs: int = 1,
) -> dict[str, dict[str, tuple[float, int, float]]]:
    """``{metric: {puzzle: (score, level_rank, seconds)}}``, computed once and cached."""
    runs = runs or {}
    path = RESULTS / cache
    RESULTS.mkdir(parents=True, exist_ok=True)
    have: dict[tuple[str, str, str, int], tuple[float, int, float]] = {}
    if path.exists():
        with path.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                key = (row["puzzle"], row["metric"], row["runs"], int(row["seed"]))
                have[key] = (float(row["score"]), int(row["level_rank"]), float(row["seconds"]))
                if row.get("details"):
                    DETAILS[key] = json.loads(row["details"])
    todo = []
    for m in metrics:
        for i, p in enumerate(puzzles):
            key = (p, m, str(runs.get(m)), seed + i)
            if key not in have:
                todo.append((p, m, runs.get(m), seed + i))
    if todo:
        new = not path.exists()
        with path.open("a", encoding="utf-8") as fh:
            if new:
                fh.write("puzzle\tmetric\truns\tseed\tscore\tlevel_rank\tseconds\tdetails\n")
            if jobs > 1:
                with ProcessPoolExecutor(jobs) as ex:
                    results = ex.map(_rate_one, todo, chunksize=4)
                    for (p, m, r, s), res in zip(todo, results, strict=True):
                        _, _, sc, lr, sec, det = res
                        fh.write(f"{p}\t{m}\t{r}\t{s}\t{sc!r}\t{lr}\t{sec:.6f}\t{det}\n")
                        have[(p, m, str(r), s)] = (sc, lr, sec)
                        DETAILS[(p, m, str(r), s)] = json.loads(det)
            else:
                for p, m, r, s in todo:
                    _, _, sc, lr, sec, det = _rate_one((p, m, r, s))
                    fh.write(f"{p}\t{m}\t{r}\t{s}\t{sc!r}\t{lr}\t{sec:.6f}\t{det}\n")
                    fh.flush()
                    have[(p, m, str(r), s)] = (sc, lr, sec)
                    DETAILS[(p, m, str(r), s)] = json.loads(det)
    out: dict[str, dict[str, tuple[float, int, float]]] = {}
    for m in metrics:
        out[m] = {p: have[(p, m, str(runs.get(m)), seed + i)] for i, p in enumerate(puzzles)}
    return out
