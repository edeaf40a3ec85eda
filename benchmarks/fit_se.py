"""Fit the ``se`` metric's chain parameters to Sudoku Explainer's ratings, and validate.

Reads ../shared/data/se_calibration.tsv and se_calibration_top1465.tsv, solves
every puzzle with the default (never-stuck) human model, and keeps each step's
features (cached in benchmarks/results/se_features.jsonl). A third of the
puzzles, chosen by a hash of the puzzle text, is held out; the chain
parameters of :class:`csp_sudoku.metrics.se.SeModel` are fitted on the rest
by minimising the mean absolute error of ER, then judged on the held-out
third: Spearman and MAE overall and within each source.

    .venv/bin/python benchmarks/fit_se.py            # fit, write the model, print figures
    .venv/bin/python benchmarks/fit_se.py --no-write # figures only
    .venv/bin/python benchmarks/fit_se.py --recompute --jobs 2
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.stats import spearmanr

import csp_sudoku as cs
from csp_sudoku.human.path import solve_path
from csp_sudoku.metrics.se import SeModel, difficulties

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
CACHE = ROOT / "benchmarks" / "results" / "se_features.jsonl"
MODEL = ROOT / "csp_sudoku" / "data" / "se_model.json"
FILES = ("se_calibration.tsv", "se_calibration_top1465.tsv")


def load() -> list[dict[str, Any]]:
    """Every calibration row (source, puzzle, ER, EP, ED), both files, puzzles once."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name in FILES:
        path = DATA / name
        if not path.exists():
            sys.exit(f"missing reference data: {path}")
        with path.open() as fh:
            for r in csv.DictReader(fh, delimiter="\t"):
                if r["puzzle"] in seen:
                    continue
                seen.add(r["puzzle"])
                rows.append(
                    {
                        "source": r["source"],
                        "puzzle": r["puzzle"],
                        "er": float(r["ER"]),
                        "ep": float(r["EP"]),
                        "ed": float(r["ED"]),
                    }
                )
    return rows


def held_out(puzzle: str) -> bool:
    """The fixed third kept away from the fit."""
    return int(hashlib.sha1(puzzle.encode()).hexdigest(), 16) % 3 == 0


def features(puzzle: str) -> dict[str, Any]:
    """Fixed-value maximum (singles, subsets) and the chain steps of one solve."""
    p = cs.parse(puzzle)
    path = solve_path(p)
    fixed = 0.0
    chains: list[tuple[int, str, int]] = []
    for s, d in zip(path.steps, difficulties(path), strict=True):
        if s.kind == "chain":
            chains.append((s.level, s.form, s.length))
        else:
            fixed = max(fixed, d)
    return {"puzzle": puzzle, "solved": path.solved, "fixed": fixed, "chains": chains}


def gather(rows: list[dict[str, Any]], jobs: int, recompute: bool) -> dict[str, dict[str, Any]]:
    cache: dict[str, dict[str, Any]] = {}
    if CACHE.exists() and not recompute:
        for line in CACHE.read_text().splitlines():
            d = json.loads(line)
            cache[d["puzzle"]] = d
    todo = [r["puzzle"] for r in rows if r["puzzle"] not in cache]
    if todo:
        print(f"solving {len(todo)} puzzles with the human model ({jobs} jobs)", file=sys.stderr)
        with ProcessPoolExecutor(jobs) as ex:
            for i, d in enumerate(ex.map(features, todo, chunksize=4)):
                cache[d["puzzle"]] = d
                if (i + 1) % 50 == 0:
                    print(f"  {i + 1}/{len(todo)}", file=sys.stderr)
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        CACHE.write_text("".join(json.dumps(cache[k]) + "\n" for k in sorted(cache)))
    return cache


def predict(model: SeModel, f: dict[str, Any]) -> float:
    vals = [f["fixed"]] + [model.chain_value(lv, form, n) for lv, form, n in f["chains"]]
    return max(vals)


def to_model(x: np.ndarray, fitted_on: str) -> SeModel:
    """Parameters: the six level-0 knots, level-1 offset, level-2 base and slope, verity."""
    # kept inside plausible ranges: SE's chains start near 4 (an XY-Wing is 4.2)
    # and the scale ends near 12; few puzzles decide the extremes
    knots = tuple(float(np.clip(v, 4.0, 11.0)) for v in x[:6])
    level1 = float(np.clip(x[6], 0.0, 2.0))
    verity = float(np.clip(x[9], 0.0, 1.5))
    return SeModel(knots, level1, float(x[7]), float(x[8]), verity, 12.0, fitted_on)


def figures(model: SeModel, rows: list[dict[str, Any]], feats: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    groups: dict[str, list[dict[str, Any]]] = {"all": rows}
    for r in rows:
        groups.setdefault(r["source"], []).append(r)
    for name, rs in groups.items():
        y = np.array([r["er"] for r in rs])
        yhat = np.array([predict(model, feats[r["puzzle"]]) for r in rs])
        rho = float(spearmanr(y, yhat).statistic) if len(rs) > 2 and np.ptp(y) > 0 else math.nan
        out[name] = {
            "n": len(rs),
            "spearman": round(rho, 3),
            "mae": round(float(np.mean(np.abs(y - yhat))), 3),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--recompute", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    rows = load()
    feats = gather(rows, args.jobs, args.recompute)
    unsolved = [r["puzzle"] for r in rows if not feats[r["puzzle"]]["solved"]]
    train = [r for r in rows if not held_out(r["puzzle"])]
    test = [r for r in rows if held_out(r["puzzle"])]

    def loss(x: np.ndarray, huber: float) -> float:
        m = to_model(x, "")
        r = np.array([predict(m, feats[row["puzzle"]]) - row["er"] for row in train])
        if huber <= 0:
            return float(np.mean(np.abs(r)))
        return float(np.mean(np.sqrt(huber**2 + r**2) - huber))

    # a smooth (pseudo-Huber) fit first, then the mean absolute error itself
    x = np.array([4.5, 6.6, 8.4, 9.0, 9.3, 9.5, 0.5, 9.5, 0.15, 0.3])
    for huber in (0.5, 0.1, 0.0):
        x = minimize(loss, x, args=(huber,), method="Powell", options={"xtol": 1e-3}).x
    best = type("Fit", (), {"x": x})
    model = to_model(best.x, f"fitted on {len(train)} SE-rated puzzles (benchmarks/fit_se.py)")
    report = {
        "unsolved": len(unsolved),
        "train": figures(model, train, feats),
        "held_out": figures(model, test, feats),
        "parameters": model.to_dict(),
    }
    print(json.dumps(report, indent=2))
    if not args.no_write:
        MODEL.write_text(json.dumps(model.to_dict(), indent=2) + "\n")
        print(f"wrote {MODEL.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
