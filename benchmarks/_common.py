"""What several benchmark scripts work out and print alike: the commit and the
processor of a run's header, a quantile of times, a ratio, a Markdown table.

A sibling module of the scripts, like ``reference.py`` (the folder of the
script that runs is on ``sys.path``: ``import _common``). It measures nothing
itself; each script keeps its own options and output, and these helpers give
the same text the scripts wrote out by hand before.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def commit(rev: str = "HEAD") -> str:
    """The short hash of ``rev`` in this repository, for a run's header ("" where git
    cannot say, e.g. outside a checkout)."""
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()


def one_core() -> None:
    """Run this process, and the processes it starts, on one core of those it may use.

    For the benchmarks whose figures are per core: a step of the se rating
    shares its nets out to the spare cores of the process
    (:func:`csp_sudoku.core.parallel.on_spare_cores`), so a process on a machine
    of two cores would otherwise count up to two cores' work in its time.
    """
    import os

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def seeds_parser(doc: str, per: str, seed: int) -> argparse.ArgumentParser:
    """The options of the scripts that run the search for some CPU seconds on each of
    some seeds: ``--seconds`` (60 by default; ``per`` says per what, for the help)
    and ``--seed`` (one or more; ``seed`` by default). The description is the first
    paragraph of the script's ``doc``; a script adds its own options to the parser."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help=f"CPU seconds {per}")
    ap.add_argument("--seed", type=int, nargs="+", default=[seed])
    return ap


def processor() -> str:
    """The processor's name, or the machine's type where the platform gives no name."""
    return platform.processor() or platform.machine()


def quantile(xs: Iterable[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` by rank: the value at index ``int(q * n)`` of the
    ``n`` values sorted (the largest where that index is past the end)."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def ratio(x: float, base: float, digits: int = 2) -> str:
    """``x / base`` written ``1.23x`` (``digits`` decimals), or ``-`` where ``base`` is 0."""
    return f"{x / base:.{digits}f}x" if base else "-"


def table(header: Sequence[str], rows: Iterable[Sequence[object]], left: int = 1) -> str:
    """A Markdown table: the ``header`` row, its rule (the first ``left`` columns aligned
    left, the others right, as numbers are) and one row per item of ``rows``."""
    rule = "|" + "---|" * left + "---:|" * (len(header) - left)
    body = (f"| {' | '.join(str(x) for x in row)} |" for row in rows)
    return "\n".join([f"| {' | '.join(header)} |", rule, *body])


def summary_of(done: subprocess.CompletedProcess[str]) -> str:
    """The ``added ...`` or ``rated ...`` summary line of a ``csp-sudoku bank`` run (on
    stderr now, on stdout in older versions that a benchmark may run beside it)."""
    lines = (done.stderr + "\n" + done.stdout).splitlines()
    return next((x for x in lines if x.startswith(("added ", "rated "))), "")
