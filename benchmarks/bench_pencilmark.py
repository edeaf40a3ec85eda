"""Variant Sudoku against pencilmark: the same puzzles' verdicts and times, and generated puzzles.

pencilmark (a Python package on a C++ core) is installed by this script into
an environment of its own, ``benchmarks/.venv-pencilmark`` (``python -m venv``,
then ``pip install "pencilmark[verify]"``; the extra is OR-tools, which its
generator uses), and driven as a process through ``pencilmark_driver.py``:
it is never imported here.

**Uniqueness checks.** ``--count`` random 9x9 variant puzzles from
:func:`csp_sudoku.variants.random.random_variants` (every kind of the
registry in turn, all of which pencilmark reads; unique, multiple and broken
in turn: the puzzles of ``bench_variants_agree.py`` for the same seed). For
each, in turn: our verdict and CPU time from every backend of
:data:`csp_sudoku.variants.BACKENDS` on the read puzzle, then pencilmark's
(``pencilmark.solve`` on its loaded puzzle). Printed: wrong verdicts (the
target is 0), then the median and mean CPU time per check of each, and the
ratio of pencilmark's to ours (the target is 10 or more at the median). The
times of reading the f-puzzles object are printed apart (ours:
``from_fpuzzles``; pencilmark: its f-puzzles reader and ``load``).

**Generators.** For each kind pencilmark's generator takes, up to
``--gen-count`` puzzles (seeds 1, 2, ...) within ``--budget`` seconds of
CPU a kind and side, and the CPU time per puzzle made: pencilmark's
``gen.generate`` (its default settings; each call in a process killed when
it has used the budget left) and ours
(:mod:`csp_sudoku.variants.generate`: ``make_killer`` for cages,
``make_drawn`` for thermometers, Kropki dots and XV, and for the line kinds
and parity a constraint drawn on a random grid with ``make_givens``).

Usage::

    .venv/bin/python benchmarks/bench_pencilmark.py [--count 2000] [--seed 64]
        [--budget 120] [--gen-count 3] [--skip-check] [--skip-generate]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's csp_sudoku, whichever is installed
HERE = ROOT / "benchmarks"
VENV = HERE / ".venv-pencilmark"
DRIVER = HERE / "pencilmark_driver.py"
#: pencilmark's generator kinds, each with the spec it gets and what of ours it meets.
GENERATOR_KINDS: dict[str, dict[str, Any]] = {
    "cage": {"elements": {"cage": "partition"}},
    "thermo": {"elements": {"thermo": 1}},
    "kropki": {"elements": {"kropki": "min"}},
    "xv": {"elements": {"xv": 1}},
    "whisper": {"elements": {"whisper": 1}},
    "renban": {"elements": {"renban": 1}},
    "between": {"elements": {"between": 1}},
    "arrow": {"elements": {"arrow": 1}},
    "parity": {"elements": {"parity": 1}},
}
#: Our kinds for pencilmark's line and parity kinds (drawn, then minimal givens).
OUR_LINE_KINDS = {
    "whisper": ("whispers",),
    "renban": ("renban",),
    "between": ("betweenline",),
    "arrow": ("arrow",),
    "parity": ("odd", "even"),
}


def python_of_venv() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_pencilmark(spec: str) -> str:
    """pencilmark's environment, made when missing; returns its pencilmark version."""
    py = python_of_venv()
    if not py.exists():
        print(f"making {VENV} and installing {spec} (once)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", spec], check=True)
    got = subprocess.run(
        [str(py), "-c", "import importlib.metadata as m; print(m.version('pencilmark'))"],
        capture_output=True,
        text=True,
    )
    if got.returncode != 0:
        subprocess.run([str(py), "-m", "pip", "install", "-q", spec], check=True)
        return ensure_pencilmark(spec)
    return got.stdout.strip()


def stats(xs: list[float]) -> tuple[float, float]:
    """(median, mean) in milliseconds."""
    return 1000 * statistics.median(xs), 1000 * statistics.mean(xs)


def bench_checks(args: argparse.Namespace) -> None:
    """Our verdicts and times against pencilmark's on the same random puzzles."""
    from csp_sudoku import variants
    from csp_sudoku.constraints import from_fpuzzles
    from csp_sudoku.variants.random import random_variant, random_variants

    backends = tuple(variants.BACKENDS)
    warm = random_variant(0, ("killercage",))
    for name in backends:  # the compiled search compiles on first use
        variants.check(warm.puzzle, backend=name)
    proc = subprocess.Popen(
        [str(python_of_venv()), str(DRIVER), "check"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None
    hello = json.loads(proc.stdout.readline())
    assert hello.get("ready"), hello
    ours: dict[str, list[float]] = defaultdict(list)
    theirs: dict[str, list[float]] = defaultdict(list)
    reading: list[float] = []
    verdicts: Counter[tuple[str, str]] = Counter()
    per_kind: dict[str, Counter[str]] = defaultdict(Counter)
    wrong: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i, v in enumerate(random_variants(args.count, args.seed)):
        t = time.process_time()
        from_fpuzzles(v.data)
        reading.append(time.process_time() - t)
        got = {}
        for name in backends:
            t = time.process_time()
            got[name] = variants.check(v.puzzle, backend=name)
            ours[name].append(time.process_time() - t)
        proc.stdin.write(json.dumps({"id": i, "data": v.data}) + "\n")
        answer = json.loads(proc.stdout.readline())
        mine = got[backends[0]]
        theirs_v = answer["verdict"]
        verdicts[(mine, theirs_v)] += 1
        per_kind[v.kinds[0]][theirs_v] += 1
        if theirs_v in ("unique", "multiple", "none"):
            theirs["solve"].append(answer["solve_cpu"])
            theirs["read"].append(answer["translate_cpu"] + answer["load_cpu"])
            for name in backends:
                ours[f"paired:{name}"].append(ours[name][-1])
            if theirs_v != mine or len(set(got.values())) > 1:
                wrong.append({"index": i, "seed": v.seed, "kinds": v.kinds, "made": v.made,
                              "ours": got, "pencilmark": theirs_v})  # fmt: skip
        else:
            other.append({"index": i, "kinds": v.kinds, "verdict": theirs_v, "why": answer["why"]})
        if (i + 1) % 200 == 0:
            print(f"  {i + 1} puzzles, {len(wrong)} wrong, {time.perf_counter() - started:.0f} s",
                  flush=True)  # fmt: skip
    proc.stdin.close()
    proc.wait()

    compared = sum(n for (_, w), n in verdicts.items() if w in ("unique", "multiple", "none"))
    print(f"\n{args.count} puzzles, {compared} with a verdict from both; "
          f"wrong verdicts (ours against pencilmark's, or our backends apart): {len(wrong)}")  # fmt: skip
    print("(ours, pencilmark) -> puzzles: "
          + ", ".join(f"{a}/{b} {n}" for (a, b), n in sorted(verdicts.items())))  # fmt: skip
    for w in wrong[:20]:
        print(f"  WRONG #{w['index']} seed {w['seed']} {w['kinds']} {w['made']}: "
              f"ours {w['ours']}, pencilmark {w['pencilmark']}")  # fmt: skip
    for o in other[:10]:
        print(f"  no verdict from pencilmark #{o['index']} {o['kinds']}: {o['verdict']} {o['why']}")
    print("\n| kind built around | puzzles | pencilmark: unique | multiple | none | no verdict |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind, c in per_kind.items():
        rest = sum(n for k, n in c.items() if k not in ("unique", "multiple", "none"))
        print(f"| `{kind}` | {sum(c.values())} | {c['unique']} | {c['multiple']} | {c['none']} "
              f"| {rest} |")  # fmt: skip
    pm_med, pm_mean = stats(theirs["solve"])
    print(f"\nCPU time per uniqueness check, the {compared} puzzles with both verdicts:")
    print("| solver | median ms | mean ms | pencilmark's median / this median | mean ratio |")
    print("|---|---:|---:|---:|---:|")
    print(f"| pencilmark `solve` | {pm_med:.2f} | {pm_mean:.2f} | 1.0 | 1.0 |")
    for name in backends:
        med, mean = stats(ours[f"paired:{name}"])
        print(f"| csp_sudoku `{name}` | {med:.3f} | {mean:.3f} | {pm_med / med:.1f} | "
              f"{pm_mean / mean:.1f} |")  # fmt: skip
    r_med, r_mean = stats(reading)
    t_med, t_mean = stats(theirs["read"])
    print(f"reading the f-puzzles object: ours median {r_med:.2f} ms (mean {r_mean:.2f}); "
          f"pencilmark (reader and load) median {t_med:.2f} ms (mean {t_mean:.2f})")  # fmt: skip
    print(f"uniqueness part: {time.perf_counter() - started:.0f} s wall", flush=True)


def _pencilmark_generate(spec: dict[str, Any], budget: float) -> dict[str, Any]:
    """One generation in a process killed when it has used ``budget`` seconds of CPU.

    CPU, not wall time: the machine is shared, and a wall budget would give
    pencilmark less work the busier it is. (Its own ``time_limit`` is passed
    too, but its C++ search does not always look at it.)
    """
    import psutil

    cmd = [str(python_of_venv()), str(DRIVER), "generate", json.dumps(spec)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watch = psutil.Process(proc.pid)
    cpu = 0.0
    while proc.poll() is None:
        try:
            times = watch.cpu_times()
            cpu = times.user + times.system + times.children_user + times.children_system
        except psutil.Error:
            break
        if cpu > budget:
            proc.kill()
            proc.communicate()
            return {"ok": False, "why": "killed at the budget", "cpu": cpu}
        time.sleep(0.2)
    out_text, err_text = proc.communicate()
    if proc.returncode != 0 or not out_text.strip():
        return {"ok": False, "why": err_text[-300:], "cpu": cpu}
    out: dict[str, Any] = json.loads(out_text.splitlines()[-1])
    return out


def _ours_generate(kind: str, seed: int) -> int:
    """One puzzle of our generators for pencilmark's ``kind``; returns its givens."""
    import numpy as np

    from csp_sudoku.constraints import from_fpuzzles
    from csp_sudoku.variants import generate as gen
    from csp_sudoku.variants.random import draw, random_full_grid

    if kind == "cage":
        made = gen.make_killer(seed)
    elif kind in ("thermo", "kropki", "xv"):
        kinds = {"thermo": ("thermometer",), "kropki": ("difference", "ratio"), "xv": ("xv",)}
        made = gen.make_drawn(seed, kinds[kind])
    else:
        rng = np.random.default_rng(seed)
        grid = random_full_grid(rng)
        data: dict[str, Any] = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)]}
        for k in OUR_LINE_KINDS[kind]:
            draw(k, rng, grid, data)
        made = gen.make_givens(from_fpuzzles(data), seed)
    return int(np.count_nonzero(made.puzzle.puzzle.cells))


def bench_generators(args: argparse.Namespace) -> None:
    """Time per generated puzzle of each kind, pencilmark's generator against ours."""
    try:
        import csp_sudoku.variants.generate  # noqa: F401
    except ImportError:
        print("\ncsp_sudoku.variants.generate is missing: our generators are not timed")
        have_ours = False
    else:
        have_ours = True
    print(f"\nGenerated 9x9 puzzles: up to {args.gen_count} a kind and side, within "
          f"{args.budget:.0f} s of CPU a kind and side")  # fmt: skip
    print("| kind | pencilmark spec | pencilmark made | CPU s a puzzle | ours made "
          "| CPU s a puzzle | givens (ours) | ratio |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for kind in args.gen_kinds.split(","):
        elements = GENERATOR_KINDS[kind]
        made_pm, spent_pm, why = 0, 0.0, ""
        for seed in range(1, args.gen_count + 1):
            left = args.budget - spent_pm
            if left <= 1:
                break
            spec = {"size": 9, "seed": seed, "time_limit": left, **elements}
            out = _pencilmark_generate(spec, left)
            spent_pm += float(out.get("cpu", left))
            if not out.get("ok"):
                why = str(out.get("why", ""))[:60]
                break
            made_pm += 1
        made_ours, spent_ours, givens = 0, 0.0, []
        while have_ours and made_ours < args.gen_count and spent_ours < args.budget:
            t = time.process_time()
            givens.append(_ours_generate(kind, made_ours + 1))
            spent_ours += time.process_time() - t
            made_ours += 1
        pm = f"{spent_pm / made_pm:.1f}" if made_pm else f"none in {spent_pm:.0f} s ({why})"
        us = f"{spent_ours / made_ours:.2f}" if made_ours else "-"
        ratio = (
            f"{(spent_pm / made_pm) / (spent_ours / made_ours):.0f}x"
            if made_pm and made_ours
            else "-"
        )
        print(f"| {kind} | `{json.dumps(elements['elements'])}` | {made_pm} | {pm} | {made_ours} "
              f"| {us} | {','.join(map(str, givens))} | {ratio} |", flush=True)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--count", type=int, default=2000, help="puzzles checked (default 2000)")
    ap.add_argument("--seed", type=int, default=64, help="the puzzles' seed (default 64)")
    ap.add_argument(
        "--budget", type=float, default=120.0, help="CPU seconds a generator kind and side"
    )
    ap.add_argument(
        "--gen-kinds", default=",".join(GENERATOR_KINDS), help="pencilmark's kinds to generate"
    )
    ap.add_argument("--gen-count", type=int, default=3, help="puzzles a generator kind and side")
    ap.add_argument("--skip-check", action="store_true", help="no uniqueness checks")
    ap.add_argument("--skip-generate", action="store_true", help="no generators")
    ap.add_argument("--pencilmark", default="pencilmark[verify]", help="what pip installs")
    args = ap.parse_args()
    unknown = set(args.gen_kinds.split(",")) - set(GENERATOR_KINDS)
    if unknown:
        ap.error(f"--gen-kinds: {', '.join(sorted(unknown))}: one of {', '.join(GENERATOR_KINDS)}")
    version = ensure_pencilmark(args.pencilmark)
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(f"pencilmark {version}; csp_sudoku at commit {commit or '(not a git checkout)'}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    if not args.skip_check:
        bench_checks(args)
    if not args.skip_generate:
        bench_generators(args)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
