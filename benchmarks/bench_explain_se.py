"""The se path against Sudoku Explainer on held-out SE-rated puzzles.

Usage::

    .venv/bin/python benchmarks/bench_explain_se.py [--sample N] [--max-er E] [--serate N [--repeat R]]

On the held-out third of se_calibration_top1465.tsv (SukakuExplainer, replayed with rater ``sukaku``) and
of se_calibration.tsv (Sudoku Explainer 1.2.1, rater ``classic``) (the split of benchmarks/fit_se.py: sha1 of the puzzle
mod 3 == 0; every K-th row so that N rows of each file are taken, ER <= E):

* the share whose se path's hardest step has SE's ER (within 0.05);
* the share whose hardest technique has SE's name (top1465 only: the file
  that records it), SE's spelling read through the catalogue's aliases
  (:func:`csp_sudoku.human.catalogue.canonical_name`: ``Skyscraper 011`` is
  ``Turbot Fish``), and, for comparison, the share spelt exactly alike;
* the time to build the path (``metrics.se.replay``), median and p95, one core;
* the chain lengths the path shows (SE's complexity of chain steps), max and p95.

E defaults to 9.4 (the rows below SE's nested forcing chains; those are
replayed up to SE's nesting level 3, but rate in seconds each).
``--sample 1000 --max-er 20`` takes every held-out row; the rows of SE's ER 9.5
and above are then counted apart as well.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import sys
import time
from pathlib import Path

import reference
from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
from csp_sudoku.human.catalogue import canonical_name
from csp_sudoku.metrics.se import replay

#: SukakuExplainer's batch rater, kept beside the repository (not in it): ``--serate`` needs it.
JAR = reference.ROOT.parent / "shared" / "reference" / "sukakuexplainer" / "serate.jar"
#: A top1465 puzzle reaching the dynamic chains: compiles the kernels before timing.
WARM = "...........5.9.17..3...2..84..........94..3...7.86...4..7..8...2.......1..19...56"


def _held_out(puzzle: str) -> bool:
    return int(hashlib.sha1(puzzle.encode()).hexdigest(), 16) % 3 == 0


def _p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))] if s else 0.0


def _against_serate(n: int, repeat: int) -> None:
    """Wall time of ``java -jar serate.jar`` (one thread) and of ``rate(p, "se")``
    on the same n held-out top1465 puzzles, one after the other in this run,
    ``repeat`` times in turn: the ratio of the medians (the JVM's time on a
    shared core varied from 31 s to 53 s between runs of one day).

    ``rate`` is timed as a caller that rates many puzzles meets it: after one
    untimed pass over the puzzles and a collection of the start's garbage.
    That pass loads what a process loads once (the uniqueness backend, which
    short runs put off, :class:`csp_sudoku.backends._AutoBackend`), and the
    collection clears the objects the kernels' loading left, whose first full
    collection (36 ms, measured) otherwise falls into one of the timed
    passes. serate.jar is timed as a batch run, its JVM's start included (0.5
    s of its 25-40 s)."""
    import gc
    import subprocess
    import tempfile

    rows = reference.rows("se_calibration_top1465.tsv")
    puzzles = [r["puzzle"] for r in rows if _held_out(r["puzzle"])][:n]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tmp:
        tmp.write("\n".join(puzzles) + "\n")
    for p in puzzles:
        cs.rate(p, "se")
    gc.collect()
    javas: list[float] = []
    ours: list[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(
            ["java", "-jar", str(JAR), "--format=%r/%p/%d %g", f"--input={tmp.name}"],
            check=True,
            capture_output=True,
        )
        javas.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for p in puzzles:
            cs.rate(p, "se")
        ours.append(time.perf_counter() - t0)
        sys.stdout.write(
            f"  serate.jar {javas[-1]:.1f}s, rate --metric se {ours[-1]:.2f}s: "
            f"ratio {javas[-1] / ours[-1]:.1f}\n"
        )
    Path(tmp.name).unlink()
    java, mine = statistics.median(javas), statistics.median(ours)
    sys.stdout.write(
        f"serate.jar {java:.1f}s, rate --metric se {mine:.2f}s on {len(puzzles)} top1465 puzzles "
        f"(medians of {repeat}): ratio {java / mine:.1f}\n"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--max-er", type=float, default=9.4)
    ap.add_argument(
        "--serate",
        type=int,
        default=0,
        metavar="N",
        help="also time SukakuExplainer's serate.jar against the se metric on N top1465 puzzles",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="R",
        help="with --serate: time both R times in turn and compare the medians (default 3)",
    )
    args = ap.parse_args(argv)
    one_core()  # the figures are per core
    if args.serate and not (JAR.is_file() and shutil.which("java")):
        need = "java on the PATH" if JAR.is_file() else f"its serate.jar at {JAR} (missing)"
        sys.stderr.write(f"--serate skipped: the comparison with Sudoku Explainer needs {need}\n")
        args.serate = 0
    replay(cs.parse(WARM))  # compile the kernels outside the timings
    misnamed: dict[tuple[str, str], int] = {}
    # each file with the rater of the program that rated it (tests/data/reference/README.md)
    for name, rater in (
        ("se_calibration_top1465.tsv", "sukaku"),
        ("se_calibration.tsv", "classic"),
    ):
        rows = [
            r
            for r in reference.rows(name)
            if _held_out(r["puzzle"]) and float(r["ER"]) <= args.max_er
        ]
        rows = rows[:: max(1, len(rows) // args.sample)][: args.sample]
        er_ok = name_ok = exact = named = hi = hi_ok = 0
        times: list[float] = []
        chains: list[float] = []
        for r in rows:
            p = cs.parse(r["puzzle"])
            t0 = time.perf_counter()
            run = replay(p, rater)
            times.append(time.perf_counter() - t0)
            er_ok += abs(run.er - float(r["ER"])) <= 0.05
            if float(r["ER"]) >= 9.5:
                hi += 1
                hi_ok += abs(run.er - float(r["ER"])) <= 0.05
            hardest = next((s.technique for s in run.steps if s.difficulty == run.er), "")
            if "technique" in r:
                named += 1
                exact += hardest == r["technique"]
                name_ok += hardest == canonical_name(r["technique"])
                if hardest != canonical_name(r["technique"]):
                    key = (hardest, r["technique"])
                    misnamed[key] = misnamed.get(key, 0) + 1
            chains += [float(s.complexity) for s in run.steps if s.complexity]
        n = len(rows)
        sys.stdout.write(
            f"{name}: n={n} ER within 0.05: {er_ok}/{n} ({100 * er_ok / n:.1f}%)"
            + (
                f" hardest name: {name_ok}/{named} ({100 * name_ok / named:.1f}%)"
                f" (spelt exactly alike: {exact})"
                if named
                else ""
            )
            + (f" (of ER >= 9.5: {hi_ok}/{hi})" if hi else "")
            + f" time median {statistics.median(times):.3f}s p95 {_p95(times):.3f}s"
            + f" chain length max {max(chains, default=0):.0f} p95 {_p95(chains):.0f}\n"
        )
    if args.serate:
        _against_serate(args.serate, args.repeat)
    for (ours, theirs), k in sorted(misnamed.items(), key=lambda kv: -kv[1]):
        sys.stdout.write(f"  hardest named {ours!r} where SE has {theirs!r}: {k}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
