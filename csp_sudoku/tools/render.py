"""Printable puzzles: SVG, PDF and PNG of one puzzle or a sheet/book of puzzles.

One drawing routine (:func:`draw_puzzle`) serves every format through
matplotlib, which writes SVG, PDF and PNG from the same figure; multi-page
books go to one PDF, or to numbered SVG/PNG files (``book-1.svg``, ...).
A book with a title opens with a cover page; every page of a book of more
than one page carries its page number; solution pages hold smaller grids than
the puzzle pages (one more column and one more row). Fonts are embedded as
TrueType (never Type 3, which some printers and text extractors mishandle);
PNG resolution is chosen with ``dpi``.
Each puzzle's caption comes from :func:`caption_fields` and
:func:`default_caption` or :func:`format_caption` when the puzzles come from
records (JSON Lines or CSV rows with ratings).
Any geometry is drawn from its units: thin lines between cells, thick lines
wherever two neighbouring cells are in different boxes or jigsaw regions,
the two diagonals of X-Sudoku as dashed lines, and the cells of other extra
units (Windoku's windows) shaded. Digits above 9 use the letters of
:mod:`csp_sudoku.core.io` (A = 10).
A variant puzzle (:class:`~csp_sudoku.constraints.VariantPuzzle`) is drawn
the same way, and each of its constraints draws itself on top
(``Constraint.draw``) through the primitives of
:class:`~csp_sudoku.constraints.drawing.Pen`, which :func:`draw_puzzle`
gives backed by matplotlib: cages, thermometers, arrows, dots, letters,
lines, shaded cells, clues outside the grid (the frame grows a margin for
them) and notes of global rules under the grid. In SVG every mark keeps its
name as the id of its group (``p0-v3-cage-0``: the page's first grid,
constraint 3, its first cage outline), and each grid's frame is ``p0-frame``.

matplotlib is an optional dependency (``pip install csp_sudoku[plot]``);
importing this module without it raises :class:`RenderError` on first use.

Example::

    render_puzzle(puzzle, "one.pdf")
    render_book(puzzles, "book.pdf", per_page=6, solutions=True, title="Book 1")
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from csp_sudoku.core.errors import RenderError as RenderError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import access_error, counted, staged, symbol, written_as_is
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools._inputs import items_arg, plain_or_variant, puzzle_arg

if TYPE_CHECKING:  # importing the constraints loads OR-tools: only when a variant is drawn
    from csp_sudoku.api import PuzzleLike
    from csp_sudoku.constraints import VariantPuzzle
    from csp_sudoku.constraints.drawing import Bounds

#: Page size in inches (A4 portrait).
A4 = (8.27, 11.69)
FORMATS = ("svg", "pdf", "png")
#: PNG resolution: default and the accepted range (dots per inch).
DEFAULT_DPI = 150
DPI_RANGE = (50, 1200)
#: Puzzles per page: the accepted range (a 4 x 3 layout at most).
PER_PAGE_RANGE = (1, 12)
#: Separator between the parts of a default caption.
CAPTION_SEP = " \u00b7 "


@contextlib.contextmanager
def _truetype_fonts() -> Iterator[None]:
    """matplotlib settings for embedding TrueType fonts, for this block only.

    Set with ``rc_context`` so that a program drawing its own figures keeps its
    own settings.
    """
    _figure_class()  # matplotlib is installed, or a RenderError says how to get it
    import matplotlib

    # 42: TrueType (Type 42) fonts rather than Type 3, in PDF and PostScript
    with matplotlib.rc_context({"pdf.fonttype": 42, "ps.fonttype": 42}):
        yield


def _check_dpi(dpi: int) -> int:
    lo, hi = DPI_RANGE
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not lo <= dpi <= hi:
        raise RenderError(f"dpi must be an integer from {lo} to {hi}, got {dpi!r}")
    return dpi


def _number(value: Any) -> Any:
    """A number from a CSV cell (text), or the value unchanged when it is not one."""
    if isinstance(value, str):
        try:
            return float(value) if any(ch in value for ch in ".eEn") else int(value)
        except ValueError:
            return value
    return value


def caption_fields(fields: Mapping[str, Any], n: int) -> dict[str, Any]:
    """The names a caption can use for puzzle number ``n`` read from a record.

    Every field of the record (``file``, ``line``, ``seed``, ``clues``,
    ``ratings``, ...) plus:

    * ``n``: the puzzle's number in the book (1-based);
    * ``metric``, ``score``, ``level``: the record's rating: the flat columns
      that ``csp-sudoku rate`` writes, else the first metric of ``ratings``
      (``{metric: {score, level, details}}``), else top-level ``score`` and
      ``level``; empty strings when the record has none;
    * ``hardest``: the hardest technique of that rating's ``details``
      (``hardest``, or ``hardest_techniques`` joined with ``/``), else ``""``.

    CSV cells are text: numeric ``score`` and ``clues`` become numbers, and a
    ``ratings`` or ``details`` cell holding JSON is decoded, so that formats
    such as ``{score:.1f}`` work on both record kinds.
    """
    out: dict[str, Any] = dict(fields)
    for key in ("ratings", "details"):
        raw = out.get(key)
        if isinstance(raw, str) and raw.strip().startswith("{"):
            with contextlib.suppress(ValueError):
                out[key] = json.loads(raw)
    metric: Any = out.get("metric", "")
    score: Any = out.get("score", "")
    level: Any = out.get("level", "")
    details: Any = out.get("details")
    ratings = out.get("ratings")
    if not metric and isinstance(ratings, Mapping) and ratings:
        metric, first = next(iter(ratings.items()))
        if isinstance(first, Mapping):
            score = first.get("score", "")
            level = first.get("level", "")
            details = first.get("details", details)
    hardest: Any = ""
    if isinstance(details, Mapping):
        if details.get("hardest"):
            hardest = details["hardest"]
        elif isinstance(details.get("hardest_techniques"), list):
            hardest = "/".join(str(t) for t in details["hardest_techniques"])
    out.update(
        n=n,
        metric="" if metric is None else metric,
        score="" if score is None else _number(score),
        level="" if level is None else level,
        hardest=hardest,
    )
    if "clues" in out:
        out["clues"] = _number(out["clues"])
    return out


def variant_caption_fields(puzzle: VariantPuzzle, n: int) -> dict[str, Any]:
    """The names a caption can use for variant puzzle number ``n``.

    ``n``; the f-puzzles ``title`` and ``author`` (empty strings when it has
    none); ``clues`` (the givens); ``kinds``, the f-puzzles fields of its
    constraints joined with ``, ``; and empty ``metric``, ``score``,
    ``level`` and ``hardest`` (a variant has no rating), so that the
    formats of plain records do not fail.
    """
    return {
        "n": n,
        "title": puzzle.title,
        "author": puzzle.author,
        "clues": puzzle.puzzle.clue_count,
        "kinds": ", ".join(puzzle.kinds()),
        "metric": "",
        "score": "",
        "level": "",
        "hardest": "",
    }


def default_caption(values: Mapping[str, Any]) -> str:
    """``"12 · hard · se 8.3 · X-Wing"``: number, level, metric and score, hardest technique.

    Parts the record lacks are left out, so a plain puzzle line gets its number
    only; a record with a ``title`` (a variant puzzle's) has it after the number.
    """
    parts = [str(values["n"])]
    if values.get("title"):
        parts.append(str(values["title"]))
    if values.get("level") not in (None, ""):
        parts.append(str(values["level"]))
    score = values.get("score")
    if score not in (None, ""):
        shown = f"{score:.3g}" if isinstance(score, float) else str(score)
        metric = values.get("metric") or ""
        parts.append(f"{metric} {shown}".strip())
    if values.get("hardest"):
        parts.append(str(values["hardest"]))
    return CAPTION_SEP.join(parts)


#: The most characters a caption may have: a line under a grid holds far fewer,
#: and a format asking for millions (``{n:>100000000}``) made matplotlib lay out
#: gigabytes of text for minutes, deaf to signals.
CAPTION_MAX = 1000

#: The fields every caption has (:func:`caption_fields`); a record's other fields
#: (``seed``, ``file``, ``line``, ``ratings`` ...) and a variant's (``title``,
#: ``author``, ``kinds``: :func:`variant_caption_fields`) come on top.
CAPTION_FIELDS = ("n", "metric", "score", "level", "hardest", "clues", "puzzle")
#: Fields that hold a number or a text, never a mapping: a ``[key]`` after one is
#: refused before any record is read (``{puzzle[0]}`` picked a character).
_SCALAR_FIELDS = frozenset(CAPTION_FIELDS) | {"title", "author", "kinds", "file", "line", "seed"}

#: A caption field: a name, then ``[key]`` look-ups into a mapping
#: (``ratings[se][score]``); no attribute (``.``), no empty key.
_FIELD = re.compile(r"(?P<name>[^.\[\]]+)(?P<keys>(?:\[[^\[\]]+\])*)")


def _allowed_fields() -> str:
    """What a caption field may be, for the messages that refuse one."""
    names = ", ".join(f"{{{name}}}" for name in CAPTION_FIELDS)
    return (
        f"a field is one of {names} or another field of the record by name ({{seed}}, "
        "{file}, {line}, {title} ...), with [key] only to look into a mapping field "
        "({ratings[se][score]})"
    )


def _caption_field(field: str) -> tuple[str, list[str]] | None:
    """``field``'s name and keys (``ratings[se][score]`` -> ``ratings``, ``[se, score]``),
    or None when it is not a name followed by keys."""
    match = _FIELD.fullmatch(field)
    if match is None or match["name"].isdigit():
        return None
    return match["name"], re.findall(r"\[([^\[\]]+)\]", match["keys"])


def check_caption_format(fmt: str) -> None:
    """Refuse a caption format that is not a valid format string, has a field that is
    not a plain name (with ``[key]`` look-ups into a mapping), or asks for a width or
    precision beyond :data:`CAPTION_MAX` (before any record is read).

    A caption format is text from the command line, and Python's format strings
    reach into the values they format: ``{n.__class__}`` printed the class of the
    number and ``{n.__class__.__init__.__globals__}`` walked towards a module's
    globals. So a field here is a name and nothing more: attribute access,
    positional fields (``{}``, ``{0}``), a conversion other than ``!s``, ``!r``
    and ``!a``, and a field inside a format spec (``{score:{w}}``, which escaped
    the width limit) are refused; a ``[key]`` is looked up in mapping fields
    only (:func:`format_caption`).

    Raises:
        RenderError: saying what is wrong with ``fmt`` (and what a field may be).
    """
    try:
        parts = list(string.Formatter().parse(fmt))
    except ValueError as err:
        raise RenderError(f"bad --caption format {fmt!r}: {err}") from None
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        whole = f"{{{field}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
        parsed = _caption_field(field)
        if parsed is None:
            raise RenderError(
                f"bad --caption format {fmt!r}: {whole} is refused; {_allowed_fields()}"
            )
        if parsed[1] and parsed[0] in _SCALAR_FIELDS:
            raise RenderError(
                f"bad --caption format {fmt!r}: {whole} looks into {{{parsed[0]}}}, which "
                f"is no mapping; {_allowed_fields()}"
            )
        if conversion not in (None, "s", "r", "a"):
            raise RenderError(
                f"bad --caption format {fmt!r}: {whole} has the conversion !{conversion}; "
                "a conversion is !s, !r or !a"
            )
        if spec and ("{" in spec or "}" in spec):
            raise RenderError(
                f"bad --caption format {fmt!r}: {whole} has a field in its format spec; "
                "a format spec is fixed text, such as :.1f or :>3"
            )
        sizes = [int(d) for d in re.findall(r"\d+", spec or "")]
        if sizes and max(sizes) > CAPTION_MAX:
            raise RenderError(
                f"bad --caption format {fmt!r}: {{{field}:{spec}}} asks for {max(sizes)} "
                f"characters; a caption has at most {CAPTION_MAX}"
            )


class _CaptionFormatter(string.Formatter):
    """A :class:`string.Formatter` whose fields are names of the values and ``[key]``
    look-ups into mapping values, and nothing else (see :func:`check_caption_format`)."""

    def get_field(self, field_name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        """The value of ``name[key]...``: a missing name is a ``KeyError`` (the caller
        names the fields there are); a key of a value that is no mapping, or one the
        mapping lacks, is a :class:`RenderError`."""
        parsed = _caption_field(field_name)
        if parsed is None:  # check_caption_format refused it already
            raise RenderError(f"{{{field_name}}} is refused; {_allowed_fields()}")
        name, keys = parsed
        value = kwargs[name]
        reached = name
        for key in keys:
            if not isinstance(value, Mapping):
                raise RenderError(
                    f"{{{field_name}}}: {reached} is {type(value).__name__}, not a mapping; "
                    "[key] looks into a mapping field only"
                )
            if key not in value:
                known = ", ".join(sorted(str(k) for k in value))
                raise RenderError(f"{{{field_name}}}: no key {key!r} in {reached} (keys: {known})")
            value = value[key]
            reached = f"{reached}[{key}]"
        return value, name


def format_caption(fmt: str, values: Mapping[str, Any]) -> str:
    """``fmt`` formatted over ``values``, its fields read as :func:`check_caption_format`
    allows (names, and ``[key]`` look-ups into mapping values), every failure a
    :class:`RenderError`.

    Raises:
        RenderError: a field that is not a plain name, an unknown field (naming the
            fields there are), a key that is not there, a bad format spec for a
            value, a malformed format string, or a caption longer than
            :data:`CAPTION_MAX`.
    """
    check_caption_format(fmt)
    try:
        text = _CaptionFormatter().vformat(fmt, (), values)
    except KeyError as err:
        names = ", ".join(sorted(values))
        raise RenderError(
            f"bad --caption format {fmt!r}: no field {err.args[0]!r} in puzzle "
            f"{values.get('n')} (fields: {names})"
        ) from None
    except (RenderError, ValueError, TypeError, IndexError, AttributeError) as err:
        raise RenderError(
            f"bad --caption format {fmt!r} for puzzle {values.get('n')}: {err}"
        ) from None
    if len(text) > CAPTION_MAX:
        raise RenderError(
            f"bad --caption format {fmt!r}: the caption of puzzle {values.get('n')} has "
            f"{len(text)} characters; a caption has at most {CAPTION_MAX}"
        )
    return text


def _figure_class() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - depends on the environment
        raise RenderError("rendering needs matplotlib: pip install 'csp_sudoku[plot]'") from None
    return Figure


def output_format(target: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The format a drawing written to ``target`` has: ``fmt``, else the suffix's.

    A ``fmt`` that the suffix contradicts (``x.svg`` as PNG) is refused: the
    file held one format under another's name (and a book's pages, ``x-1.svg``,
    too). A suffix that names no format (``book``, ``/dev/stdout``) takes any
    ``fmt``. Asked before the work (``csp-sudoku render`` asks it before any
    puzzle is read) as well as by :func:`render_book` and :func:`render_puzzle`.

    Raises:
        RenderError: an unknown format, or one that contradicts the suffix.
    """
    path = Path(target)
    suffix = path.suffix.lstrip(".").lower()
    f = (fmt or suffix).lower()
    if f not in FORMATS:
        raise RenderError(f"unknown format {f!r} for {path}; use one of {', '.join(FORMATS)}")
    if suffix in FORMATS and suffix != f:
        raise RenderError(
            f"format {f} contradicts the name {path}, whose suffix says {suffix}: name a "
            f".{f} file, or leave the format out (the suffix gives it)"
        )
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


#: The frame's margin around a grid, in cells (more where a variant draws outside it).
_PAD = 0.05


def draw_puzzle(
    ax: Any,
    puzzle: Puzzle | VariantPuzzle,
    *,
    solution: Puzzle | None = None,
    title: str | None = None,
    ident: str = "p0",
) -> None:
    """Draw one grid on a matplotlib ``Axes`` (unit square per cell, origin top left).

    Args:
        ax: the axes to draw on.
        puzzle: the clues (drawn bold); a variant puzzle's constraints are drawn too.
        solution: when given, the other digits are drawn too, lighter.
        title: a caption above the grid.
        ident: the prefix of the SVG ids of this grid's marks (one per grid of a page).
    """
    variant = None if isinstance(puzzle, Puzzle) else puzzle
    grid = puzzle if isinstance(puzzle, Puzzle) else puzzle.puzzle
    g = grid.geometry
    n = g.size
    bounds = _measure(variant) if variant is not None else None
    x0, x1, y0, y1 = _frame(bounds, n)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y1, y0)
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
    border = LineCollection(
        frame, colors="black", linewidths=thick * 1.2, zorder=4, capstyle="projecting"
    )
    border.set_gid(f"{ident}-frame")
    ax.add_collection(border)
    # font sizes and line widths in points from the axes' size on the page
    fig = ax.get_figure()
    width_in = ax.get_position().width * fig.get_figwidth()
    per_cell = 72.0 * width_in / (x1 - x0)  # points per cell
    size_pt = 0.62 * per_cell * (n + 2 * _PAD) / n  # a plain grid's frame is n + 2 * _PAD wide
    if variant is not None:
        assert bounds is not None
        pen = _pen_class()(ax, n, per_cell, _notes_top(bounds, n))
        for i, constraint in enumerate(variant.constraints):
            with pen.group(f"{ident}-v{i}"):
                constraint.draw(pen)
    clues = grid.cells
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


def _measure(variant: VariantPuzzle) -> Bounds:
    """How far the drawing of ``variant``'s constraints reaches (a pen that only measures)."""
    from csp_sudoku.constraints.drawing import Bounds

    bounds = Bounds(variant.geometry.size)
    for constraint in variant.constraints:
        constraint.draw(bounds)
    return bounds


def _note_height(size: int) -> float:
    """The height of a note's letters, in cells: the same share of the grid's width at every size."""
    return 0.26 * size / 9


def _notes_top(bounds: Bounds, n: int) -> float:
    """Where the first note under the grid goes: below the grid and any clue under it."""
    return max(n + _PAD, bounds.y1) + 0.1


def _frame(bounds: Bounds | None, n: int) -> tuple[float, float, float, float]:
    """The square ``(x0, x1, y0, y1)`` the axes show: the grid, the marks outside it, the notes."""
    if bounds is None:
        return -_PAD, n + _PAD, -_PAD, n + _PAD
    x0, x1 = min(-_PAD, bounds.x0 - 0.1), max(n + _PAD, bounds.x1 + 0.1)
    y0, y1 = min(-_PAD, bounds.y0 - 0.1), max(n + _PAD, bounds.y1 + 0.1)
    if bounds.notes:
        y1 = max(y1, _notes_top(bounds, n) + 1.5 * _note_height(n) * bounds.notes)
    side = max(x1 - x0, y1 - y0)
    cx = (x0 + x1) / 2
    return cx - side / 2, cx + side / 2, y0, y0 + side


@functools.cache
def _pen_class() -> Any:
    """The matplotlib-backed :class:`~csp_sudoku.constraints.drawing.Pen` (made when first needed).

    The class is made here, not at the module's top, because importing the
    constraints package loads OR-tools, which plain puzzles never need.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Polygon

    from csp_sudoku.constraints.drawing import INK, DiscMark, Layer, PathMark, Pen, TextMark

    zorders = {Layer.UNDER: 0.5, Layer.LINES: 1.5, Layer.OUTLINE: 4.5, Layer.MARKS: 6.0}

    class MatplotlibPen(Pen):
        """Draws marks on a matplotlib ``Axes`` whose data units are cells.

        Args:
            ax: the axes.
            size: the grid's size.
            per_cell: points per cell (line widths and font sizes are in cells).
            notes_top: where the first note under the grid goes (in cells).
        """

        def __init__(self, ax: Any, size: int, per_cell: float, notes_top: float) -> None:
            super().__init__(size)
            self.ax = ax
            self.per_cell = per_cell
            self.notes_top = notes_top
            self.notes = 0

        def _add(self, artist: Any, ident: str, layer: Layer) -> None:
            artist.set_gid(ident)
            artist.set_zorder(zorders[layer])
            artist.set_clip_on(False)
            if isinstance(artist, Line2D):
                self.ax.add_line(artist)
            else:
                self.ax.add_patch(artist)

        def draw_path(self, mark: PathMark) -> None:
            lw = mark.width * self.per_cell
            if mark.fill is not None:
                patch = Polygon(
                    list(mark.points), closed=mark.closed, facecolor=mark.fill,
                    edgecolor=mark.stroke or "none", linewidth=lw if mark.stroke else 0.0,
                    joinstyle="round",
                )  # fmt: skip
                self._add(patch, mark.ident, mark.layer)
                return
            points = mark.points
            pts = [*points, points[0]] if mark.closed else list(points)
            line = Line2D(
                [p[0] for p in pts], [p[1] for p in pts], color=mark.stroke or INK, linewidth=lw,
                solid_capstyle="round", solid_joinstyle="round",
                dash_capstyle="butt", dash_joinstyle="round",
            )  # fmt: skip
            if mark.dashes is not None:
                import matplotlib

                # matplotlib scales dash lengths by the line width (unless told not to)
                unit = lw if matplotlib.rcParams["lines.scale_dashes"] else 1.0
                on, off = (d * self.per_cell / unit for d in mark.dashes)
                line.set_linestyle((0, (on, off)))
            self._add(line, mark.ident, mark.layer)

        def draw_disc(self, mark: DiscMark) -> None:
            disc = Circle(
                mark.at, mark.radius, facecolor=mark.fill or "none",
                edgecolor=mark.stroke or "none",
                linewidth=mark.width * self.per_cell if mark.stroke else 0.0,
            )  # fmt: skip
            self._add(disc, mark.ident, mark.layer)

        def draw_text(self, mark: TextMark) -> None:
            box = None
            if mark.backdrop is not None:
                box = {
                    "boxstyle": "square,pad=0.1", "facecolor": mark.backdrop, "edgecolor": "none"
                }  # fmt: skip
            self.ax.text(
                mark.at[0], mark.at[1], mark.text, ha=mark.align, va=mark.valign,
                fontsize=mark.height * self.per_cell,
                fontweight="bold" if mark.bold else "normal", color=mark.colour,
                family="DejaVu Sans", zorder=zorders[mark.layer], clip_on=False, gid=mark.ident,
                bbox=box,
            )  # fmt: skip

        def draw_note(self, text: str, *, ident: str) -> None:
            h = _note_height(self.size)
            self.ax.text(
                self.size / 2, self.notes_top + 1.5 * h * self.notes, text, ha="center",
                va="top", fontsize=h * self.per_cell, color="0.2", family="DejaVu Sans",
                zorder=zorders[Layer.MARKS], clip_on=False, gid=ident,
            )  # fmt: skip
            self.notes += 1

    return MatplotlibPen


def _rect(x: float, y: float, color: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x, y), 1, 1, facecolor=color, edgecolor="none", zorder=0)


def _layout(per_page: int) -> tuple[int, int]:
    """Columns and rows of grids on a page of ``per_page`` puzzles."""
    cols = 1 if per_page == 1 else 2 if per_page <= 8 else 3
    return cols, math.ceil(per_page / cols)


def _page(
    puzzles: Sequence[Puzzle | VariantPuzzle],
    titles: Sequence[str | None],
    solutions: Sequence[Puzzle | None] | None,
    layout: tuple[int, int],
    heading: str | None,
    page_size: tuple[float, float],
    footer: str | None = None,
) -> Any:
    figure_cls = _figure_class()
    fig = figure_cls(figsize=page_size)
    cols, rows = layout
    top = 0.92 if heading else 0.96
    if heading:
        fig.suptitle(heading, fontsize=16, y=0.975)
    if footer:
        fig.text(0.5, 0.015, footer, ha="center", va="bottom", fontsize=9, color="0.3")
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
            ax,
            p,
            solution=solutions[i] if solutions is not None else None,
            title=titles[i],
            ident=f"p{i}",
        )
    return fig


def _cover(title: str, count: int, page_size: tuple[float, float], footer: str | None) -> Any:
    """The cover page of a titled book: the title and how many puzzles follow."""
    fig = _figure_class()(figsize=page_size)
    fig.text(0.5, 0.62, title, ha="center", va="center", fontsize=30, wrap=True)
    fig.text(0.5, 0.54, f"{count} puzzle{'s' if count != 1 else ''}", ha="center", fontsize=14)
    if footer:
        fig.text(0.5, 0.015, footer, ha="center", va="bottom", fontsize=9, color="0.3")
    return fig


def _write_page(fig: Any, target: str, fmt: str, dpi: int = DEFAULT_DPI) -> None:
    """Write ``fig`` to ``target`` as it is: the caller stages it (:func:`staged`)."""
    metadata: dict[str, Any] = {"Creator": "csp_sudoku"}
    if fmt == "svg":
        metadata = {"Creator": "csp_sudoku", "Date": None}
    elif fmt == "pdf":
        metadata = {"Creator": "csp_sudoku", "CreationDate": None}
    with _truetype_fonts():
        fig.savefig(target, format=fmt, dpi=dpi if fmt == "png" else 72, metadata=metadata)


def _save(fig: Any, path: Path, fmt: str, dpi: int = DEFAULT_DPI) -> None:
    """Write ``fig`` to ``path``, staged and renamed into place."""
    with staged(path) as tmp:
        _write_page(fig, tmp, fmt, dpi)


def render_puzzle(
    puzzle: Puzzle | VariantPuzzle | PuzzleLike,
    target: str | os.PathLike[str],
    *,
    solution: PuzzleLike | None = None,
    title: str | None = None,
    fmt: str | None = None,
    size: float = 6.0,
    dpi: int = DEFAULT_DPI,
) -> Path:
    """Draw one puzzle (or its solution, when given) on a square page of ``size`` inches.

    ``puzzle`` is a :class:`Puzzle`, a variant puzzle, or what
    :data:`csp_sudoku.api.PuzzleLike` names (a puzzle line, cell values), as
    the other functions of the API take it; so is ``solution``.
    ``dpi`` is the PNG resolution (:data:`DPI_RANGE`); SVG and PDF are vector.

    Raises:
        RenderError: for an unknown format (or one the suffix contradicts), a dpi out of
            range, or missing matplotlib.
        ArgumentError: a ``puzzle`` or ``solution`` that is no puzzle.
    """
    path = Path(target)
    f = output_format(path, fmt)
    _check_dpi(dpi)
    drawn = plain_or_variant(puzzle, "puzzle")
    answer = None if solution is None else puzzle_arg(solution, "solution", drawn.geometry)
    fig = _page([drawn], [title], None if answer is None else [answer], (1, 1), None, (size, size))
    _save(fig, path, f, dpi)
    return path


def _check_per_page(per_page: object) -> int:
    """``per_page`` when it is an integer in :data:`PER_PAGE_RANGE`.

    ``per_page=0`` once meant the default (it was read as ``per_page or ...``)
    and ``2.5`` failed deep in the layout with a ``TypeError``: both are refused.

    Raises:
        RenderError: naming the range and the value given.
    """
    lo, hi = PER_PAGE_RANGE
    if not is_whole(per_page) or not lo <= per_page <= hi:
        raise RenderError(f"per_page must be an integer from {lo} to {hi}, got {per_page!r}")
    return int(per_page)


def _given_solutions(solutions: object, puzzles: Sequence[Puzzle | VariantPuzzle]) -> list[Puzzle]:
    """The solutions given to :func:`render_book`, one per puzzle, as puzzles of its shape.

    Raises:
        ArgumentError: ``solutions`` that is neither a bool nor a sequence of
            puzzles, or an item that is no puzzle.
        RenderError: not one solution per puzzle (a solution page beside the
            wrong puzzle, or an ``IndexError`` when there were fewer).
    """
    given = items_arg(solutions, "solutions (True, False or the solutions)")
    if len(given) != len(puzzles):
        raise RenderError(
            f"{counted(len(given), 'solution')} for {counted(len(puzzles), 'puzzle')}: "
            "give one solution per puzzle, or solutions=True to solve them"
        )
    return [
        puzzle_arg(s, f"solutions[{i}]", p.geometry)
        for i, (s, p) in enumerate(zip(given, puzzles, strict=True))
    ]


def default_per_page(geometry: Geometry) -> int:
    """Puzzles per A4 page: 6 up to 9x9, 2 up to 16x16, else 1."""
    return 6 if geometry.size <= 9 else 2 if geometry.size <= 16 else 1


def _plan(count: int, per_page: int, solutions: bool, cover: bool) -> list[tuple[str, int, int]]:
    """``(kind, start, chunk size)`` of every page of a book of ``count`` puzzles: the
    cover, the puzzle pages, the solution pages (one more column and one more row
    than the puzzle pages), known before any is drawn (the footers say the total)."""
    cols, rows = _layout(per_page)
    sol_per = (cols + 1) * (rows + 1)
    plan = [("cover", 0, 0)] if cover else []
    plan += [("puzzles", start, per_page) for start in range(0, count, per_page)]
    if solutions:
        plan += [("solutions", start, sol_per) for start in range(0, count, sol_per)]
    return plan


def page_count(
    count: int,
    geometry: Geometry,
    *,
    per_page: int | None = None,
    solutions: bool = False,
    title: str | None = None,
) -> int:
    """How many pages :func:`render_book` makes of ``count`` puzzles of ``geometry``
    with these options, without drawing any: so that an output that takes one page
    only (standard output) is refused before the drawing work.

    Raises:
        RenderError: a ``per_page`` out of :data:`PER_PAGE_RANGE`.
    """
    per = default_per_page(geometry) if per_page is None else _check_per_page(per_page)
    return len(_plan(count, per, solutions, bool(title)))


def _check_pages_target(path: Path, fmt: str, total: int) -> None:
    """Refuse a pipe or a device (``/dev/null``, a FIFO, a link to one: what
    :func:`~csp_sudoku.core.io.written_as_is` names) as the output of a book of
    several SVG or PNG pages, before any page is drawn.

    Such a book is one file a page, named after the output (``book-1.svg``, ...);
    the pages of a book to ``/dev/null`` went to ``/dev/null-1.svg``, ... beside
    it, and the run said it had written them. A PDF holds every page in one file,
    which a device or a pipe can take; so can a book of one page.

    Raises:
        RenderError: saying why, and what to write instead.
    """
    if fmt == "pdf" or total <= 1 or not written_as_is(path):
        return
    first, second = (_page_path(path, fmt, k).name for k in (1, 2))
    raise RenderError(
        f"{path} is not a regular file (a pipe, a device or a stream): a book of {total} "
        f"{fmt.upper()} pages is written one file a page ({first}, {second}, ...) beside "
        "its name, and no pipe or device holds them; name a regular file (or one in a "
        "folder) for the pages, or make the book one PDF file, which holds every page "
        "(--format pdf; fmt='pdf' from Python)"
    )


def render_book(
    puzzles: Iterable[Puzzle | VariantPuzzle | PuzzleLike],
    target: str | os.PathLike[str],
    *,
    per_page: int | None = None,
    solutions: bool | Sequence[PuzzleLike] = False,
    titles: Sequence[str] | None = None,
    title: str | None = None,
    fmt: str | None = None,
    page_size: tuple[float, float] = A4,
    dpi: int = DEFAULT_DPI,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """A sheet or book of puzzles, optionally followed by solution pages.

    PDF output is one file with every page. SVG and PNG hold one page each:
    with more than one page the files are numbered (``book-1.svg``, ...), named
    after ``target``, which must then be a regular file's name (not a pipe or a
    device such as ``/dev/null``), and they appear together: each is staged and
    all are moved into place once the last is written, so a run interrupted on
    the way leaves an earlier book of the name as it was.
    With ``title`` the book opens with a cover page holding it (the title is
    not repeated on the other pages). When there is more than one page, every
    page says ``page k of N`` at its foot. Solution pages use one more column
    and one more row than the puzzle pages, so answer grids are smaller and
    more fit on a page. Fonts are embedded as TrueType.

    Args:
        puzzles: the puzzles, in order (plain or variant ones; a plain one may be
            anything :data:`csp_sudoku.api.PuzzleLike` names, such as a puzzle line).
        target: the output path; its suffix gives the format unless ``fmt`` does.
        per_page: puzzles per page, an integer in :data:`PER_PAGE_RANGE` (default
            :func:`default_per_page`).
        solutions: True to solve the puzzles (variant ones with
            :func:`csp_sudoku.variants.solutions`) and add solution pages, or
            the solutions themselves, one per puzzle.
        titles: a caption per puzzle (default ``"1"``, ``"2"``, ...).
        title: the book's title, on a cover page.
        fmt: ``svg``, ``pdf`` or ``png`` (refused where ``target``'s suffix names another).
        page_size: inches (default A4 portrait).
        dpi: PNG resolution, within :data:`DPI_RANGE`.
        progress: called as ``progress(done, total)`` after each page is written.

    Each page is drawn, written and let go before the next, so a book of any
    length needs the memory of one page (kept all at once, 600 puzzles took
    467 MB).

    Returns:
        The files written.

    Raises:
        RenderError: for an unknown format (or one the suffix of ``target``
            contradicts: :func:`output_format`), no puzzles, a dpi or ``per_page`` out
            of range, mismatched titles or solutions, a pipe or a device as the
            target of several SVG or PNG pages (before any page is drawn), or
            (with ``solutions=True``) a puzzle with no solution or several.
        ArgumentError: ``puzzles`` that are no sequence of puzzles (a puzzle line
            alone, ``None``), or an item of them or of ``solutions`` that is no puzzle.
    """
    path = Path(target)
    f = output_format(path, fmt)
    _check_dpi(dpi)
    drawn = [
        plain_or_variant(p, f"puzzles[{i}]") for i, p in enumerate(items_arg(puzzles, "puzzles"))
    ]
    if not drawn:
        raise RenderError("nothing to render: no puzzles")
    per = default_per_page(drawn[0].geometry) if per_page is None else _check_per_page(per_page)
    if titles is not None and len(titles) != len(drawn):
        raise RenderError(f"{counted(len(titles), 'title')} for {counted(len(drawn), 'puzzle')}")
    caps: list[str | None] = (
        list(titles) if titles is not None else [str(i + 1) for i in range(len(drawn))]
    )
    # every page, before any is drawn: the total is in the footers, and an output that
    # cannot take the pages is refused before the solving and drawing work
    plan = _plan(len(drawn), per, solutions is not False, bool(title))
    total = len(plan)
    _check_pages_target(path, f, total)
    sols: list[Puzzle] = []
    if solutions is True:
        from csp_sudoku.api import solutions as solve_up_to

        for i, p in enumerate(drawn):
            if isinstance(p, Puzzle):
                found = solve_up_to(p, 2, backend="sat")
            else:
                from csp_sudoku.variants import solutions as variant_solutions

                found = variant_solutions(p, 2, backend="sat")
            if len(found) != 1:
                # a solution page shows the one solution: it must be the only one
                how = "no solution" if not found else "more than one solution"
                raise RenderError(f"puzzle {caps[i]} has {how}: no solution page can show it")
            sols.append(found[0])
    elif solutions is not False:
        sols = _given_solutions(solutions, drawn)
    cols, rows = _layout(per)
    sol_layout = (cols + 1, rows + 1)

    def pages() -> Iterator[Any]:
        """Each page's figure in turn, drawn when asked for."""
        for number, (kind, start, size) in enumerate(plan, start=1):
            footer = f"page {number} of {total}" if total > 1 else None
            end = start + size
            if kind == "cover":
                assert title is not None
                yield _cover(title, len(drawn), page_size, footer)
            elif kind == "puzzles":
                yield _page(drawn[start:end], caps[start:end], None, (cols, rows), None,
                            page_size, footer)  # fmt: skip
            else:
                yield _page(drawn[start:end], caps[start:end], sols[start:end], sol_layout,
                            "Solutions", page_size, footer)  # fmt: skip
            if progress is not None:
                progress(number, total)

    with _truetype_fonts():
        if f == "pdf":
            from matplotlib.backends.backend_pdf import PdfPages

            meta = {"Creator": "csp_sudoku", "CreationDate": None}
            with staged(path) as tmp, _opened_for_writing(tmp, path) as fh:
                # the file is opened here, not by matplotlib: a pipe then gets the
                # book (matplotlib gathers it in memory where the file cannot tell
                # its place) instead of "Illegal seek", and a book that fails half
                # way is not finished (see below)
                pdf: Any = PdfPages(fh, metadata=meta)  # untyped: its methods too
                for fig in pages():
                    pdf.savefig(fig)
                # finished only when every page is in: after a failed write (a full
                # disk, /dev/full) its compressed stream is broken, and finishing it
                # raised zlib's "Error -2 while flushing" in place of the OSError
                pdf.close()
            return [path]
        if total == 1:
            for fig in pages():
                _save(fig, path, f, dpi)
            _drop_old_pages(path, f, 1)
            return [path]
        out: list[Path] = []
        # every page staged (.book-3.PID.partial.svg) and all of them moved into place
        # when the last is written: a run interrupted or failing on the way removes
        # the staged pages and leaves an earlier book of this name whole (pages moved
        # one by one made a book of new pages and old ones)
        with contextlib.ExitStack() as pending:
            for i, fig in enumerate(pages(), start=1):
                page_path = _page_path(path, f, i)
                _write_page(fig, pending.enter_context(staged(page_path)), f, dpi)
                out.append(page_path)
        _drop_old_pages(path, f, total + 1)
        if path.is_file():  # an earlier one-page book of this name: these pages replace it
            path.unlink()
        return out


@contextlib.contextmanager
def _opened_for_writing(tmp: str, target: Path) -> Iterator[Any]:
    """``tmp`` (what :func:`staged` gave for ``target``) opened for writing bytes,
    a failure to open it said of ``target`` (the staged sibling is the package's own)."""
    try:
        fh = open(tmp, "wb")  # noqa: SIM115 - closed below
    except OSError as err:
        raise access_error(os.fspath(target), err, "writing") from err
    with fh:
        yield fh


def _page_path(path: Path, fmt: str, number: int) -> Path:
    """Page ``number`` of a book of SVG or PNG files: ``book-3.svg``."""
    return path.with_name(f"{path.stem}-{number}{path.suffix or '.' + fmt}")


def _drop_old_pages(path: Path, fmt: str, first: int) -> None:
    """Remove the pages from ``first`` on of an earlier book of this name, as
    ``explain --svg`` removes its old steps: a book of 3 pages written over one of
    8 left pages 4 to 8 of the old book beside it (a glob of ``book-*.svg`` mixed
    the two). Only the unbroken run of numbers is taken (and a numbered book
    replaces a one-page book of the name): nothing else is touched."""
    number = first
    while (old := _page_path(path, fmt, number)).is_file():
        old.unlink()
        number += 1
