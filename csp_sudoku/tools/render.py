"""Printable puzzles: SVG, PDF and PNG of one puzzle or a sheet/book of puzzles.

One drawing routine (:func:`draw_puzzle`) serves every format through
matplotlib, which writes SVG, PDF and PNG from the same figure; multi-page
books go to one PDF, or to numbered SVG/PNG files (``book-1.svg``, ...).
Any geometry is drawn from its units: thin lines between cells, thick lines
wherever two neighbouring cells are in different boxes or jigsaw regions,
the two diagonals of X-Sudoku as dashed lines, and the cells of other extra
units (Windoku's windows) shaded. Digits above 9 use the letters of
:mod:`csp_sudoku.core.io` (A = 10).

matplotlib is an optional dependency (``pip install csp_sudoku[plot]``);
importing this module without it raises :class:`RenderError` on first use.

Example::

    render_puzzle(puzzle, "one.pdf")
    render_book(puzzles, "book.pdf", per_page=6, solutions=True, title="Book 1")
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from csp_sudoku.core.errors import RenderError as RenderError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import symbol
from csp_sudoku.core.puzzle import Puzzle

#: Page size in inches (A4 portrait).
A4 = (8.27, 11.69)
FORMATS = ("svg", "pdf", "png")


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - depends on the environment
        raise RenderError("rendering needs matplotlib: pip install 'csp_sudoku[plot]'") from None
    return Figure


def _format_of(path: Path, fmt: str | None) -> str:
    f = (fmt or path.suffix.lstrip(".")).lower()
    if f not in FORMATS:
        raise RenderError(f"unknown format {f!r} for {path}; use one of {', '.join(FORMATS)}")
    return f


def region_labels(geometry: Geometry) -> np.ndarray:
    """The box or jigsaw region of every cell (the units of kind ``box``/``region``)."""
    labels = np.full(geometry.ncells, -1, dtype=np.int64)
    k = 0
    for unit, kind in zip(geometry.units, geometry.unit_kinds, strict=True):
        if kind in ("box", "region"):
            labels[unit] = k
            k += 1
    return labels


def _is_diagonal(unit: np.ndarray, n: int) -> bool:
    cells = sorted(int(c) for c in unit)
    return cells == [i * n + i for i in range(n)] or cells == sorted(
        i * n + n - 1 - i for i in range(n)
    )


def draw_puzzle(
    ax: Any,
    puzzle: Puzzle,
    *,
    solution: Puzzle | None = None,
    title: str | None = None,
) -> None:
    """Draw one grid on a matplotlib ``Axes`` (unit square per cell, origin top left).

    Args:
        ax: the axes to draw on.
        puzzle: the clues (drawn bold).
        solution: when given, the other digits are drawn too, lighter.
        title: a caption above the grid.
    """
    g = puzzle.geometry
    n = g.size
    ax.set_xlim(-0.05, n + 0.05)
    ax.set_ylim(n + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    thin = 0.6 if n <= 9 else 0.4
    thick = 2.2 if n <= 9 else 1.6
    # shaded extra units (windows); diagonals as dashed lines
    for unit, kind in zip(g.units, g.unit_kinds, strict=True):
        if kind != "extra":
            continue
        if _is_diagonal(unit, n):
            first = min(int(c) for c in unit)
            xs = (0.0, float(n)) if first == 0 else (float(n), 0.0)
            ax.plot(xs, (0.0, float(n)), color="0.55", lw=thin * 1.5, ls=(0, (4, 3)), zorder=1)
            continue
        for c in unit.tolist():
            r, col = divmod(int(c), n)
            ax.add_patch(_rect(col, r, "0.88"))
    labels = region_labels(g).reshape(n, n)
    # thin lines everywhere, thick where the region changes
    segments_thin: list[tuple[tuple[float, float], tuple[float, float]]] = []
    segments_thick: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                seg = ((c + 1.0, float(r)), (c + 1.0, r + 1.0))
                (segments_thick if labels[r, c] != labels[r, c + 1] else segments_thin).append(seg)
            if r + 1 < n:
                seg = ((float(c), r + 1.0), (c + 1.0, r + 1.0))
                (segments_thick if labels[r, c] != labels[r + 1, c] else segments_thin).append(seg)
    from matplotlib.collections import LineCollection

    ax.add_collection(LineCollection(segments_thin, colors="0.35", linewidths=thin, zorder=2))
    ax.add_collection(
        LineCollection(
            segments_thick, colors="black", linewidths=thick, zorder=3, capstyle="projecting"
        )
    )
    frame = [((0.0, 0.0), (float(n), 0.0)), ((float(n), 0.0), (float(n), float(n))),
             ((float(n), float(n)), (0.0, float(n))), ((0.0, float(n)), (0.0, 0.0))]  # fmt: skip
    ax.add_collection(
        LineCollection(
            frame, colors="black", linewidths=thick * 1.2, zorder=4, capstyle="projecting"
        )
    )
    # digits: font size in points from the axes' size on the page
    fig = ax.get_figure()
    width_in = ax.get_position().width * fig.get_figwidth()
    size_pt = 0.62 * 72.0 * width_in / n
    clues = puzzle.cells
    shown = solution.cells if solution is not None else clues
    for cell, value in enumerate(shown.tolist()):
        if not value:
            continue
        r, c = divmod(cell, n)
        given = bool(clues[cell])
        ax.text(
            c + 0.5,
            r + 0.53,
            symbol(int(value)),
            ha="center",
            va="center",
            fontsize=size_pt if given else size_pt * 0.85,
            fontweight="bold" if given else "normal",
            color="black" if given else "#1f5fa8",
            family="DejaVu Sans",
            zorder=5,
        )
    if title:
        ax.set_title(title, fontsize=max(7.0, min(14.0, size_pt * 0.7)), pad=4)


def _rect(x: float, y: float, color: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), 1, 1, facecolor=color, edgecolor="none", zorder=0)


def _page(
    puzzles: Sequence[Puzzle],
    titles: Sequence[str | None],
    solutions: Sequence[Puzzle | None] | None,
    per_page: int,
    heading: str | None,
    page_size: tuple[float, float],
) -> Any:
    figure_cls = _figure_class()
    fig = figure_cls(figsize=page_size)
    cols = 1 if per_page == 1 else 2 if per_page <= 8 else 3
    rows = math.ceil(per_page / cols)
    top = 0.92 if heading else 0.96
    if heading:
        fig.suptitle(heading, fontsize=16, y=0.975)
    margin_x, bottom = 0.08, 0.04
    cell_w = (1 - 2 * margin_x) / cols
    cell_h = (top - bottom) / rows
    page_w, page_h = page_size
    side = min(cell_w * page_w, cell_h * page_h) * 0.86  # inches, square grids
    for i, p in enumerate(puzzles):
        r, c = divmod(i, cols)
        cx = margin_x + cell_w * (c + 0.5)
        cy = top - cell_h * (r + 0.5) - 0.01
        w, h = side / page_w, side / page_h
        ax = fig.add_axes((cx - w / 2, cy - h / 2, w, h))
        draw_puzzle(
            ax, p, solution=solutions[i] if solutions is not None else None, title=titles[i]
        )
    return fig


def _save(fig: Any, path: Path, fmt: str) -> None:
    metadata: dict[str, Any] = {"Creator": "csp_sudoku"}
    if fmt == "svg":
        metadata = {"Creator": "csp_sudoku", "Date": None}
    elif fmt == "pdf":
        metadata = {"Creator": "csp_sudoku", "CreationDate": None}
    fig.savefig(path, format=fmt, dpi=150 if fmt == "png" else 72, metadata=metadata)


def render_puzzle(
    puzzle: Puzzle,
    target: str | os.PathLike[str],
    *,
    solution: Puzzle | None = None,
    title: str | None = None,
    fmt: str | None = None,
    size: float = 6.0,
) -> Path:
    """Draw one puzzle (or its solution, when given) on a square page of ``size`` inches.

    Raises:
        RenderError: for an unknown format or missing matplotlib.
    """
    path = Path(target)
    f = _format_of(path, fmt)
    fig = _page([puzzle], [title], [solution] if solution else None, 1, None, (size, size))
    _save(fig, path, f)
    return path


def default_per_page(geometry: Geometry) -> int:
    """Puzzles per A4 page: 6 up to 9x9, 2 up to 16x16, else 1."""
    return 6 if geometry.size <= 9 else 2 if geometry.size <= 16 else 1


def render_book(
    puzzles: Sequence[Puzzle],
    target: str | os.PathLike[str],
    *,
    per_page: int | None = None,
    solutions: bool | Sequence[Puzzle] = False,
    titles: Sequence[str] | None = None,
    title: str | None = None,
    fmt: str | None = None,
    page_size: tuple[float, float] = A4,
) -> list[Path]:
    """A sheet or book of puzzles, optionally followed by solution pages.

    PDF output is one file with every page. SVG and PNG hold one page each:
    with more than one page the files are numbered (``book-1.svg``, ...).

    Args:
        puzzles: the puzzles, in order.
        target: the output path; its suffix gives the format unless ``fmt`` does.
        per_page: puzzles per page (default :func:`default_per_page`).
        solutions: True to solve the puzzles and add solution pages, or the
            solutions themselves.
        titles: a caption per puzzle (default ``"1"``, ``"2"``, ...).
        title: a heading on every page.
        fmt: ``svg``, ``pdf`` or ``png``.
        page_size: inches (default A4 portrait).

    Returns:
        The files written.

    Raises:
        RenderError: for an unknown format, no puzzles, or a puzzle with no solution.
    """
    path = Path(target)
    f = _format_of(path, fmt)
    if not puzzles:
        raise RenderError("nothing to render: no puzzles")
    per = per_page or default_per_page(puzzles[0].geometry)
    if per < 1 or per > 12:
        raise RenderError(f"per_page must be 1..12, got {per}")
    caps: list[str | None] = (
        list(titles) if titles is not None else [str(i + 1) for i in range(len(puzzles))]
    )
    sols: list[Puzzle] = []
    if solutions is True:
        from csp_sudoku.api import solve

        for i, p in enumerate(puzzles):
            s = solve(p, backend="sat")
            if s is None:
                raise RenderError(f"puzzle {caps[i]} has no solution")
            sols.append(s)
    elif solutions is not False:
        sols = list(solutions)
    pages: list[Any] = []
    for start in range(0, len(puzzles), per):
        pages.append(
            _page(
                puzzles[start : start + per], caps[start : start + per], None, per, title, page_size
            )
        )
    if sols:
        sol_per = max(per, 6) if puzzles[0].geometry.size <= 9 else per
        heading = f"{title}: solutions" if title else "Solutions"
        for start in range(0, len(sols), sol_per):
            chunk = puzzles[start : start + sol_per]
            pages.append(
                _page(
                    chunk,
                    caps[start : start + sol_per],
                    sols[start : start + sol_per],
                    sol_per,
                    heading,
                    page_size,
                )
            )
    if f == "pdf":
        from matplotlib.backends.backend_pdf import PdfPages

        with PdfPages(path, metadata={"Creator": "csp_sudoku", "CreationDate": None}) as pdf:
            for fig in pages:
                pdf.savefig(fig)
        return [path]
    if len(pages) == 1:
        _save(pages[0], path, f)
        return [path]
    out: list[Path] = []
    for i, fig in enumerate(pages, start=1):
        page_path = path.with_name(f"{path.stem}-{i}{path.suffix or '.' + f}")
        _save(fig, page_path, f)
        out.append(page_path)
    return out
