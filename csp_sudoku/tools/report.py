"""Figures of a puzzle set: an HTML or PNG report.

The report shows the distribution of clue counts and solution counts (capped
at 2: none, one, several), and, for each difficulty metric asked for, the
distribution of its scores, the puzzles per level, and a scatter plot between
each pair of metrics with their Spearman rank correlation. Metrics come from
:func:`csp_sudoku.metrics.rate_many`; when that module is missing, or no
metric is asked for, the report holds clue and solution counts only and says
so. Only puzzles with exactly one solution are rated.

Example::

    data = collect(puzzles, metrics=["oracle", "hsolve"], seed=1)
    write_report(data, "report.html")
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import ReportError as ReportError
from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.io import counted, staged, write_text, written_as_is
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import fresh_seed


@dataclass
class ReportData:
    """What a report shows, computed once.

    Attributes:
        title: the report's heading.
        clues: the clue count of every puzzle.
        counts: the solution count of every puzzle, capped at 2.
        scores: per metric, the score of every puzzle (NaN when not rated).
        levels: per metric, the level of every puzzle (None when not rated).
        level_order: per metric, level names from easiest to hardest.
        notes: sentences the report prints (what was and was not computed).
    """

    title: str
    clues: NDArray[np.int64]
    counts: NDArray[np.int64]
    scores: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    levels: dict[str, list[str | None]] = field(default_factory=dict)
    level_order: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        """Number of puzzles."""
        return int(self.clues.size)


def collect(
    puzzles: Sequence[Puzzle],
    metrics: Sequence[str] | None = None,
    *,
    seed: int | None = None,
    runs: int | None = None,
    jobs: int = 1,
    backend: str = "auto",
    title: str = "Puzzle set",
    progress: Callable[[int, int], None] | None = None,
) -> ReportData:
    """Compute clue counts, solution counts and the ratings of ``metrics``.

    ``progress(done, total)`` is called after each rating (``total``: the unique
    puzzles times the metrics), for a long report's progress bar.

    Raises:
        ReportError: when there are no puzzles, or they are of several geometries.
    """
    if not puzzles:
        raise ReportError("a report needs at least one puzzle")
    geo = puzzles[0].geometry
    if any(p.geometry != geo for p in puzzles):
        raise ReportError("a report covers puzzles of one geometry")
    from csp_sudoku.api import count_many

    arr = np.stack([p.cells for p in puzzles])
    counts = np.asarray(count_many(arr, 2, backend=backend, geometry=geo), dtype=np.int64)
    data = ReportData(
        title=title,
        clues=np.count_nonzero(arr, axis=1).astype(np.int64),
        counts=counts,
    )
    data.notes.append(
        f"{counted(data.size, 'puzzle')} ({geo.name}): {int((counts == 1).sum())} with one solution, "
        f"{int((counts == 0).sum())} with none, {int((counts >= 2).sum())} with several."
    )
    if not metrics:
        data.notes.append("No difficulty metric was asked for: clue and solution counts only.")
        return data
    try:
        from csp_sudoku.metrics import rate_many
    except ImportError:
        data.notes.append("csp_sudoku.metrics is not available: clue and solution counts only.")
        return data
    unique = np.flatnonzero(counts == 1)
    seed = fresh_seed() if seed is None else seed
    done, total = 0, int(unique.size) * len(metrics)

    def tick(_: int, __: Any) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    for metric in metrics:
        scores = np.full(data.size, np.nan)
        levels: list[str | None] = [None] * data.size
        ranks: dict[str, int] = {}
        if unique.size:
            try:
                ratings = rate_many(
                    [puzzles[int(i)] for i in unique],
                    cast(MetricName, metric),
                    runs=runs,
                    seed=seed,
                    jobs=jobs,
                    on_rating=tick,
                )
            except SudokuError as err:
                raise ReportError(f"metric {metric!r}: {err}") from None
            for i, r in zip(unique.tolist(), ratings, strict=True):
                scores[i] = r.score
                levels[i] = r.level
                ranks[r.level] = r.level_rank
        data.scores[metric] = scores
        data.levels[metric] = levels
        data.level_order[metric] = sorted(ranks, key=lambda lv: ranks[lv])
        data.notes.append(
            f"{metric}: {counted(int(unique.size), 'unique puzzle')} rated (seed {seed}"
            f"{'' if runs is None else f', {runs} runs'})."
        )
    return data


def _spearman(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    ok = ~(np.isnan(a) | np.isnan(b))
    if ok.sum() < 3 or np.ptp(a[ok]) == 0 or np.ptp(b[ok]) == 0:
        # a metric that gives every puzzle one score (all 4x4 puzzles are se 1.2)
        # has no rank correlation: scipy said so on stderr, as a warning line
        return math.nan
    from scipy.stats import spearmanr

    rho = spearmanr(a[ok], b[ok]).statistic
    return float(rho)


def _integer_ticks(axis: Any) -> None:
    """Whole-number ticks on an axis of counts (puzzles, clues): a small set would
    otherwise get ticks such as 0.5 and 1.5, which no count can be."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _count_axis(ax: Any) -> None:
    """Label the y axis as a number of puzzles, with whole-number ticks."""
    ax.set_ylabel("puzzles")
    _integer_ticks(ax.yaxis)


def _panels(data: ReportData) -> list[tuple[str, Any]]:
    """(title, draw function) of every panel."""
    panels: list[tuple[str, Any]] = []

    def clues(ax: Any) -> None:
        values, freq = np.unique(data.clues, return_counts=True)
        ax.bar(values, freq, color="#4c72b0", width=0.8)
        ax.set_xlabel("clues")
        _integer_ticks(ax.xaxis)
        _count_axis(ax)

    def counts(ax: Any) -> None:
        names = ["none", "one", "several"]
        freq = [int((data.counts == 0).sum()), int((data.counts == 1).sum()),
                int((data.counts >= 2).sum())]  # fmt: skip
        ax.bar(names, freq, color=["#c44e52", "#55a868", "#dd8452"])
        _count_axis(ax)

    panels += [("Clue counts", clues), ("Solutions", counts)]
    for metric, scores in data.scores.items():
        finite = scores[~np.isnan(scores)]

        def hist(ax: Any, finite: NDArray[np.float64] = finite, metric: str = metric) -> None:
            if finite.size:
                ax.hist(finite, bins=min(40, max(5, int(math.sqrt(finite.size)))), color="#8172b2")
            ax.set_xlabel(f"{metric} score")
            _count_axis(ax)

        def levels(ax: Any, metric: str = metric) -> None:
            tally = Counter(lv for lv in data.levels[metric] if lv is not None)
            order = data.level_order[metric]
            ax.bar(range(len(order)), [tally[lv] for lv in order], color="#937860")
            ax.set_xticks(range(len(order)), order, rotation=30, ha="right", fontsize=8)
            _count_axis(ax)

        panels += [(f"{metric}: scores", hist), (f"{metric}: levels", levels)]
    for a, b in combinations(list(data.scores), 2):

        def scatter(ax: Any, a: str = a, b: str = b) -> None:
            x, y = data.scores[a], data.scores[b]
            ax.scatter(x, y, s=6, alpha=0.5, color="#4c72b0", edgecolors="none")
            ax.set_xlabel(a)
            ax.set_ylabel(b)
            rho = _spearman(x, y)
            if not math.isnan(rho):
                ax.text(0.02, 0.96, f"Spearman {rho:.2f}", transform=ax.transAxes, va="top",
                        fontsize=8)  # fmt: skip

        panels.append((f"{a} vs {b}", scatter))
    return panels


def report_figure(data: ReportData, columns: int = 3) -> Any:
    """A matplotlib ``Figure`` with every panel of the report."""
    try:
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover
        raise ReportError("reports need matplotlib: pip install 'csp_sudoku[plot]'") from None
    panels = _panels(data)
    cols = min(columns, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig = Figure(figsize=(4.2 * cols, 3.4 * rows + 0.8), layout="constrained")
    fig.suptitle(f"{data.title}: {counted(data.size, 'puzzle')}", fontsize=14)
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, (title, draw) in zip(axes.reshape(-1), panels, strict=False):
        draw(ax)
        ax.set_title(title, fontsize=10)
    for ax in axes.reshape(-1)[len(panels) :]:
        ax.axis("off")
    return fig


def _summary_rows(data: ReportData) -> list[tuple[str, str]]:
    rows = [
        ("puzzles", str(data.size)),
        ("clues (min / median / max)",
         f"{data.clues.min()} / {float(np.median(data.clues)):g} / {data.clues.max()}"),
    ]  # fmt: skip
    for metric, scores in data.scores.items():
        finite = scores[~np.isnan(scores)]
        if finite.size:
            rows.append(
                (f"{metric} (min / median / max)",
                 f"{finite.min():.3g} / {float(np.median(finite)):.3g} / {finite.max():.3g}")
            )  # fmt: skip
    return rows


def report_format(target: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The format a report written to ``target`` has: ``fmt``, else the suffix's
    (``htm`` is ``html``); asked before the work as well as by :func:`write_report`.

    A device or a pipe named without a suffix (``/dev/stdout``, ``/dev/fd/3``, a
    FIFO: :func:`~csp_sudoku.core.io.written_as_is`) gets HTML, as ``-`` does: it
    is written as it is, and its name cannot say a format (it was refused as the
    unknown format ``''``).

    Raises:
        ReportError: for an unknown format.
    """
    suffix = Path(target).suffix.lstrip(".")
    if fmt is None and not suffix and written_as_is(target):
        return "html"
    f = (fmt or suffix).lower()
    if f not in ("html", "png", "htm"):
        raise ReportError(f"unknown report format {f!r}; use html or png")
    return "html" if f == "htm" else f


def write_report(
    data: ReportData, target: str | os.PathLike[str], *, fmt: str | None = None
) -> Path:
    """Write the report as ``html`` (one self-contained file) or ``png``.

    Raises:
        ReportError: for an unknown format.
    """
    path = Path(target)
    if report_format(path, fmt) == "png":
        with staged(path) as tmp:
            report_figure(data).savefig(tmp, format="png", dpi=110)
        return path
    write_text(path, report_html(data))
    return path


def report_html(data: ReportData) -> str:
    """The report as one self-contained HTML page (the figure inline, as PNG)."""
    fig = report_figure(data)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    img = base64.b64encode(buf.getvalue()).decode("ascii")
    table = "\n".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
        for k, v in _summary_rows(data)
    )
    notes = "\n".join(f"<li>{html.escape(n)}</li>" for n in data.notes)
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(data.title)}</title>
<style>body{{font-family:sans-serif;max-width:1300px;margin:2em auto;}}
table{{border-collapse:collapse}} th,td{{border:1px solid #ccc;padding:4px 10px;text-align:left}}
img{{max-width:100%}}</style></head>
<body>
<h1>{html.escape(data.title)}</h1>
<ul>
{notes}
</ul>
<table>
{table}
</table>
<p><img alt="distributions of the puzzle set" src="data:image/png;base64,{img}"></p>
<p>Made by csp_sudoku.</p>
</body></html>
"""
    return page
