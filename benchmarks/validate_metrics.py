"""Validate the difficulty metrics against Sudoku Explainer's ratings (docs/validation.md).

On se_calibration.tsv (tests/data/reference; 265 puzzles with SE's ER):

1. every metric's Spearman and Pearson correlation with ER (scipy.stats);
2. the Goodman-Kruskal gamma on levels, as the hsolve paper reports it (its
   section 3.3.1: gamma 0.82 between 8 equal-count groups of its metric and 8
   graded source levels): (a) the metric's own levels against SE bands of ER,
   (b) 8 equal-count groups of the metric against 8 of ER;
3. combined least-squares models fitted on one half (seeded split) and tested on
   the other, both ways; the model of all six metrics plus ``se`` fitted on
   half A is shipped as
   csp_sudoku/data/combined_se.json;
4. the dependency window k = 20..30 and the refutation sum's ``inf_score``;
5. spread over seeds (sigma/mu) per metric at several run counts;
6. figures in docs/figures/: histograms over the 1,000 reference puzzles
   (benchmarks/make_reference.py) and scatter plots against ER.

Usage: .venv/bin/python benchmarks/validate_metrics.py [--skip-stability]
Results: benchmarks/results/validation.json (and printed as markdown).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from metric_data import FIGURES, RESULTS, ROOT, details, read_calibration, sample, scores
from scipy import stats

BASE = ("hsolve", "oracle", "refutation", "dependency", "rounds", "mdrt")
SEED = 1
#: Sudoku Explainer ER bands (singles; + intersections; subsets; fish/wings;
#: chains; nested chains), the usual reading of SE's scale.
ER_BANDS = (1.5, 2.5, 4.0, 6.5, 9.0)


def gk_gamma(x: np.ndarray, y: np.ndarray) -> float:
    """Goodman-Kruskal gamma of two ordinal variables: (C - D) / (C + D) over pairs."""
    dx = np.sign(x[:, None] - x[None, :])
    dy = np.sign(y[:, None] - y[None, :])
    prod = dx * dy
    c = float((prod > 0).sum())
    d = float((prod < 0).sum())
    return (c - d) / (c + d) if c + d else 0.0


def equal_groups(x: np.ndarray, m: int = 8) -> np.ndarray:
    """Ranks cut into ``m`` equal-count groups (ties broken by order, as the paper's 8 x 100)."""
    order = np.argsort(x, kind="stable")
    g = np.empty(x.size, dtype=int)
    g[order] = np.arange(x.size) * m // x.size
    return g


def corr(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    return {
        "spearman": float(stats.spearmanr(x, y).statistic),
        "pearson": float(stats.pearsonr(x, y).statistic),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--skip-stability", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument(
        "--reuse", action="store_true", help="reuse the k sweep and stability of the last run"
    )
    args = ap.parse_args()
    last = RESULTS / "validation.json"
    previous = json.loads(last.read_text()) if args.reuse and last.exists() else {}
    t0 = time.perf_counter()
    rows = read_calibration()
    puzzles = [r["puzzle"] for r in rows]
    er = np.array([float(r["ER"]) for r in rows])
    clues = np.array([float(r["clues"]) for r in rows])
    table = scores(
        puzzles, (*BASE, "se"), cache="calibration_scores.tsv", seed=SEED, jobs=args.jobs
    )
    x = {m: np.array([table[m][p][0] for p in puzzles]) for m in (*BASE, "se")}
    ranks = {m: np.array([table[m][p][1] for p in puzzles]) for m in BASE}
    from csp_sudoku.metrics import rate
    from csp_sudoku.metrics.base import quantile_level

    for m in ("hsolve", "refutation", "dependency"):  # levels from the shipped reference
        ranks[m] = np.array(
            [quantile_level(m, v, higher_is_harder=(m != "dependency"))[1] for v in x[m]]
        )
    secs = {m: np.array([table[m][p][2] for p in puzzles]) for m in BASE}
    out: dict[str, Any] = {"n": len(rows), "er_range": [float(er.min()), float(er.max())]}

    # 1-2: correlations and gammas
    er_band = np.searchsorted(np.array(ER_BANDS), er, side="left")
    single: dict[str, Any] = {}
    for m in BASE:
        c = corr(x[m], er)
        c["gamma_levels_vs_se_bands"] = gk_gamma(ranks[m], er_band)
        c["gamma_8x8"] = gk_gamma(equal_groups(x[m]), equal_groups(er))
        c["median_seconds"] = float(np.median(secs[m]))
        single[m] = c
    neg = np.array(
        [
            rate(p, "oracle", seed=SEED + i, alpha=-0.1, beta=-0.5).score
            for i, p in enumerate(puzzles)
        ]
    )
    single["oracle, alpha=-0.1 beta=-0.5"] = {
        **corr(neg, er),
        "gamma_8x8": gk_gamma(equal_groups(neg), equal_groups(er)),
    }
    single["clues (baseline)"] = {
        **corr(-clues, er),
        "gamma_8x8": gk_gamma(equal_groups(-clues), equal_groups(er)),
    }
    out["single"] = single
    by_source: dict[str, Any] = {}
    sources = np.array([r["source"] for r in rows])
    for src in ("17clue", "top1465", "generated"):
        sel = sources == src
        by_source[src] = {m: corr(x[m][sel], er[sel])["spearman"] for m in BASE}
    out["by_source_spearman"] = by_source

    # 3: combined models, fitted on one half and tested on the other
    from csp_sudoku.metrics.combined import fit_features

    perm = np.random.default_rng(2026).permutation(len(rows))
    half_a, half_b = np.sort(perm[: len(rows) // 2]), np.sort(perm[len(rows) // 2 :])
    feature_sets = {
        "RD (refutation, dependency)": ["refutation", "dependency"],
        "hsolve + oracle": ["hsolve", "oracle"],
        "all six": list(BASE),
        "all six + se": [*BASE, "se"],
    }
    combined: dict[str, Any] = {}
    shipped = None
    for name, feats in feature_sets.items():
        f = np.column_stack([x[m] for m in feats])
        res = {}
        for tag, tr, te in (("A->B", half_a, half_b), ("B->A", half_b, half_a)):
            model = fit_features(f[tr], er[tr], feats)
            pred = model.predict(f[te])
            res[tag] = corr(pred, er[te])
            if name == "all six + se" and tag == "A->B":
                shipped = model
                held = pred
        combined[name] = res
    out["combined"] = combined
    assert shipped is not None
    shipped_info = {
        "target": "Sudoku Explainer ER",
        "trained_on": "half A of se_calibration.tsv (numpy default_rng(2026) permutation, first 132)",
        "held_out": combined["all six + se"]["A->B"],
        "seed_of_features": SEED,
    }
    from csp_sudoku.metrics.combined import CombinedRater

    final = CombinedRater(
        metrics=shipped.metrics,
        coefficients=shipped.coefficients,
        intercept=shipped.intercept,
        transform=shipped.transform,
        runs={},
        level_bounds=shipped.level_bounds,
        info={**shipped.info, **shipped_info},
    )
    final.to_json(ROOT / "csp_sudoku" / "data" / "combined_se.json")

    # 4: dependency k and refutation inf_score
    ksweep = previous.get("dependency_k", {})
    for k in (20, 25, 30) if not ksweep else ():
        vals = []
        for i, p in enumerate(puzzles):
            vals.append(
                rate(p, "dependency", runs=None, seed=SEED + i, k=k).score
                if k != 25
                else x["dependency"][i]
            )
        ksweep[k] = corr(np.array(vals), er)
    out["dependency_k"] = ksweep
    unref = np.array(
        [
            float(details(p, "refutation", None, SEED + i).get("unrefutable", 0.0))
            for i, p in enumerate(puzzles)
        ]
    )
    finite = x["refutation"] - 200.0 * unref
    out["refutation_inf_score"] = {
        str(s): corr(finite + s * unref, er) for s in (0.0, 20.0, 50.0, 100.0, 200.0, 500.0)
    }
    out["refutation_share_unrefutable"] = float((unref > 0).mean())

    # 5: stability over seeds
    if "stability" in previous:
        out["stability"] = previous["stability"]
    elif not args.skip_stability:
        out["stability"] = stability()

    # 6: figures
    figures(puzzles, er, x, held, half_b)
    out["seconds"] = time.perf_counter() - t0
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "validation.json").write_text(json.dumps(out, indent=1) + "\n")
    report(out)


def stability() -> dict[str, Any]:
    """sigma/mu over 8 seeds, for 6 17_clue and 6 top1465 puzzles, at several run counts."""
    from csp_sudoku.metrics import rate

    puzzles = sample("17_clue.txt", 6, 7) + sample("top1465.txt", 6, 7)
    plan = {
        "hsolve": (5, 20, 50),
        "oracle": (25, 100, 400),
        "refutation": (10, 30),
        "dependency": (10, 30),
    }
    res: dict[str, Any] = {}
    for m, run_list in plan.items():
        res[m] = {}
        for runs in run_list:
            cvs = []
            for p in puzzles:
                vals = np.array([rate(p, m, runs, s).score for s in range(8)])
                if abs(vals.mean()) > 1e-12:
                    cvs.append(vals.std(ddof=1) / abs(vals.mean()))
            res[m][str(runs)] = {
                "mean_cv": float(np.mean(cvs)),
                "max_cv": float(np.max(cvs)),
                "n": len(cvs),
            }
    return res


def figures(
    puzzles: list[str],
    er: np.ndarray,
    x: dict[str, np.ndarray],
    held: np.ndarray,
    half_b: np.ndarray,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from make_reference import reference_puzzles

    FIGURES.mkdir(parents=True, exist_ok=True)
    ref = reference_puzzles()
    hist_metrics = ("hsolve", "oracle", "refutation", "dependency", "rounds", "mdrt")
    table = scores(ref, hist_metrics, cache="reference_scores.tsv")
    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    for ax, m in zip(axes.flat, hist_metrics, strict=True):
        v = np.array([table[m][p][0] for p in ref])
        src = np.array([0] * 800 + [1] * 200)
        bins = 40 if m not in ("mdrt",) else np.arange(-0.5, 6.5, 1)
        if m == "rounds":
            v = v % 1000  # rounds within the level
            ax.set_xlabel("rounds (within level)")
        ax.hist(
            [v[src == 0], v[src == 1]],
            bins=bins,
            stacked=True,
            label=["17_clue (800)", "top1465 (200)"],
        )
        ax.set_title(m)
        ax.legend(fontsize=7)
    fig.suptitle(
        "Metric distributions over the 1,000 reference puzzles (compare hsolve's Figure 1)"
    )
    fig.tight_layout()
    fig.savefig(FIGURES / "metric_histograms.png", dpi=90)
    plt.close(fig)

    fig, axes = plt.subplots(2, 4, figsize=(16, 7.5))
    for ax, m in zip(axes.flat, (*BASE, "combined"), strict=False):
        if m == "combined":
            ax.scatter(er[half_b], held, s=8, alpha=0.6)
            ax.set_title("combined (all six + se), held-out half")
        else:
            y = x[m]
            ax.scatter(er, y, s=8, alpha=0.6)
            if m in ("hsolve", "refutation"):
                ax.set_yscale("symlog")
            ax.set_title(f"{m} (Spearman {stats.spearmanr(y, er).statistic:.2f})")
        ax.set_xlabel("Sudoku Explainer ER")
    axes.flat[-1].axis("off")
    fig.tight_layout()
    fig.savefig(FIGURES / "metric_vs_se.png", dpi=90)
    plt.close(fig)


def report(out: dict[str, Any]) -> None:
    print(
        "\n| metric | Spearman | Pearson | gamma (levels vs SE bands) | gamma (8x8 groups) | median s |"
    )
    print("|---|---|---|---|---|---|")
    for m, c in out["single"].items():
        print(
            f"| {m} | {c['spearman']:.3f} | {c['pearson']:.3f} | "
            f"{c.get('gamma_levels_vs_se_bands', float('nan')):.3f} | {c['gamma_8x8']:.3f} | "
            f"{c.get('median_seconds', float('nan')):.4f} |"
        )
    print("\nby source (Spearman):", json.dumps(out["by_source_spearman"], indent=1))
    print("\n| combined model | held out A->B Spearman / Pearson | B->A Spearman / Pearson |")
    print("|---|---|---|")
    for name, r in out["combined"].items():
        print(
            f"| {name} | {r['A->B']['spearman']:.3f} / {r['A->B']['pearson']:.3f} | "
            f"{r['B->A']['spearman']:.3f} / {r['B->A']['pearson']:.3f} |"
        )
    print("\ndependency k:", json.dumps(out["dependency_k"]))
    print("refutation inf_score:", json.dumps(out["refutation_inf_score"]))
    print("share with unrefutable stuck moments:", out["refutation_share_unrefutable"])
    if "stability" in out:
        print("stability:", json.dumps(out["stability"], indent=1))
    print(f"total {out['seconds']:.0f} s")


if __name__ == "__main__":
    main()
