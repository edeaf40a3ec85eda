"""Fit the ``se`` metric to Sudoku Explainer's ratings, and validate.

Reads se_calibration.tsv and se_calibration_top1465.tsv (tests/data/reference) and
replays SE's solving order on every puzzle (:func:`csp_sudoku.metrics.se.replay`)
as the default rater (SukakuExplainer) and, for the puzzles of
se_calibration.tsv, which Sudoku Explainer 1.2.1 rated, as the ``classic``
rater too. Each replay's features are cached in
benchmarks/results/se_features.jsonl: the hardest of SE's own steps and the
(level, form, length) of every graded-refutation step beyond SE's dynamic
forcing chains. A third of the puzzles, chosen by a hash of the puzzle text,
is held out; the level-2 parameters of :class:`csp_sudoku.metrics.se.SeModel`
are fitted on the rest by minimising the mean absolute error of ER (each
puzzle replayed as the rater that rated it), then judged on the held-out third:
Spearman and MAE overall, within each source and within each file, for the
default rater and for the matched one.

    .venv/bin/python benchmarks/fit_se.py            # fit, write the model, print figures
    .venv/bin/python benchmarks/fit_se.py --no-write # figures only
    .venv/bin/python benchmarks/fit_se.py --recompute --jobs 2
    .venv/bin/python benchmarks/fit_se.py --no-write --train-only  # while developing
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import reference
from scipy.stats import spearmanr

import csp_sudoku as cs
from csp_sudoku.human.costs import SE_CHAIN_BASE
from csp_sudoku.human.se_order import se_solve
from csp_sudoku.metrics.se import DEFAULT_RATER, SeModel

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "benchmarks" / "results" / "se_features.jsonl"
MODEL = ROOT / "csp_sudoku" / "data" / "se_model.json"
#: Each reference file and the rater that produced it (its ER values show it:
#: se_calibration.tsv has none of SukakuExplainer's 4.0-4.3, 5.5-5.7 or 6.3).
FILES = {"se_calibration.tsv": "classic", "se_calibration_top1465.tsv": "sukaku"}


def load() -> list[dict[str, Any]]:
    """Every calibration row (file, rater, source, puzzle, ER, EP, ED), puzzles once."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name, rater in FILES.items():
        for r in reference.rows(name):
            if r["puzzle"] in seen:
                continue
            seen.add(r["puzzle"])
            rows.append(
                {
                    "file": name,
                    "rater": rater,
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


def features(job: tuple[str, str]) -> dict[str, Any]:
    """The hardest of SE's own steps and the graded-refutation steps of one replay."""
    puzzle, rater = job
    # the value of the graded-refutation steps does not change the replay's path
    run = se_solve(cs.parse(puzzle), SeModel().chain_value, profile=rater)
    fixed = max((s.difficulty for s in run.steps if s.level < 0), default=0.0)
    chains = [(s.level, s.form, s.complexity) for s in run.steps if s.level >= 0]
    return {
        "puzzle": puzzle,
        "rater": rater,
        "solved": run.solved,
        "fixed": fixed,
        "chains": chains,
    }


def gather(
    rows: list[dict[str, Any]], jobs: int, recompute: bool
) -> dict[tuple[str, str], dict[str, Any]]:
    cache: dict[tuple[str, str], dict[str, Any]] = {}
    if CACHE.exists() and not recompute:
        for line in CACHE.read_text().splitlines():
            d = json.loads(line)
            if "rater" in d:
                cache[(d["puzzle"], d["rater"])] = d
    wanted = {(r["puzzle"], DEFAULT_RATER) for r in rows} | {
        (r["puzzle"], r["rater"]) for r in rows
    }
    todo = sorted(wanted - cache.keys())
    if todo:
        print(f"replaying {len(todo)} puzzles ({jobs} jobs)", file=sys.stderr)
        with ProcessPoolExecutor(jobs) as ex:
            for i, d in enumerate(ex.map(features, todo, chunksize=2)):
                cache[(d["puzzle"], d["rater"])] = d
                if (i + 1) % 50 == 0:
                    print(f"  {i + 1}/{len(todo)}", file=sys.stderr)
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        CACHE.write_text("".join(json.dumps(cache[k]) + "\n" for k in sorted(cache)))
    return cache


def predict(model: SeModel, f: dict[str, Any]) -> float:
    vals = [f["fixed"]] + [model.chain_value(lv, form, n) for lv, form, n in f["chains"]]
    return max(vals)


def to_model(x: np.ndarray, fitted_on: str) -> SeModel:
    """Parameters: the level-2 base and the length scale.

    Level-1 steps never decide a calibration puzzle's ER (each puzzle that
    needs one needs a harder level-2 step too), so their base stays SE's 9.0.
    The others are kept inside plausible ranges: SE's nested chains start at
    9.5 and few puzzles decide them.
    """
    return SeModel(
        SE_CHAIN_BASE["dynamic (+)"],
        float(np.clip(x[0], 9.0, 11.5)),
        float(np.clip(x[1], 0.05, 20.0)),
        12.0,
        fitted_on,
    )


def figures(
    model: SeModel,
    rows: list[dict[str, Any]],
    feats: dict[tuple[str, str], dict[str, Any]],
    matched: bool,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    groups: dict[str, list[dict[str, Any]]] = {"all": rows}
    for r in rows:
        groups.setdefault(r["source"], []).append(r)
        groups.setdefault(r["file"], []).append(r)
    for name, rs in groups.items():
        y = np.array([r["er"] for r in rs])
        yhat = np.array(
            [
                predict(model, feats[(r["puzzle"], r["rater"] if matched else DEFAULT_RATER)])
                for r in rs
            ]
        )
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
    ap.add_argument(
        "--train-only",
        action="store_true",
        help="leave the held-out figures out (while developing)",
    )
    args = ap.parse_args(argv)
    rows = load()
    feats = gather(rows, args.jobs, args.recompute)
    unsolved = sorted({k[0] for k, f in feats.items() if not f["solved"]})
    train = [r for r in rows if not held_out(r["puzzle"])]
    test = [r for r in rows if held_out(r["puzzle"])]
    train_f = [feats[(r["puzzle"], r["rater"])] for r in train]
    train_y = np.array([r["er"] for r in train])

    def loss(x: np.ndarray) -> float:
        m = to_model(x, "")
        return float(np.mean(np.abs(np.array([predict(m, f) for f in train_f]) - train_y)))

    # the loss is a step function of the parameters (SE's bonus moves in tenths):
    # a grid, ties going to the values nearest SE's own (9.5, scale 1)
    grid = [
        (abs(b - SE_CHAIN_BASE["nested"]) + abs(math.log2(sc)), b, sc)
        for b in np.round(np.arange(9.0, 11.01, 0.05), 2)
        for sc in 2.0 ** np.arange(-3.0, 3.01, 0.25)
    ]
    scored = [(round(loss(np.array([b, sc])), 6), dist, b, sc) for dist, b, sc in grid]
    _l, _d, b, sc = min(scored)
    x = np.array([b, sc])
    model = to_model(x, f"fitted on {len(train)} SE-rated puzzles (benchmarks/fit_se.py)")
    report: dict[str, Any] = {
        "unsolved": len(unsolved),
        "train": figures(model, train, feats, matched=False),
        "train_matched_rater": figures(model, train, feats, matched=True),
    }
    if not args.train_only:
        report["held_out"] = figures(model, test, feats, matched=False)
        report["held_out_matched_rater"] = figures(model, test, feats, matched=True)
    report["parameters"] = model.to_dict()
    print(json.dumps(report, indent=2))
    if not args.no_write:
        MODEL.write_text(json.dumps(model.to_dict(), indent=2) + "\n")
        print(f"wrote {MODEL.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
