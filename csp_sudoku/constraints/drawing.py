"""The drawing primitives the constraint kinds draw themselves with (a :class:`Pen`).

Each kind draws itself in its ``draw(pen)`` method by calling the primitives
of a :class:`Pen`: :meth:`~Pen.line` through cell centres, a dashed killer
:meth:`~Pen.cage`, a Kropki :meth:`~Pen.dot` or a :meth:`~Pen.letter` on the
edge between two cells, a :meth:`~Pen.circle` over cells, a
:meth:`~Pen.square`, a shaded cell (:meth:`~Pen.shade`), a clue
:meth:`~Pen.outside` the grid (with a little killer's arrow), and a
:meth:`~Pen.note` of a global rule under the grid. The primitives hold the
conventional looks (the sizes, the cage outline's geometry); a backend gives
four low-level calls (:meth:`~Pen.draw_path`, :meth:`~Pen.draw_disc`,
:meth:`~Pen.draw_text`, :meth:`~Pen.draw_note`), the first three each given
one mark as a value (:class:`PathMark`, :class:`DiscMark`, :class:`TextMark`:
what to draw is written down once, there). The matplotlib backend is in
:mod:`csp_sudoku.tools.render`; :class:`Bounds` here records only how far
a drawing reaches (the renderer sizes its frame from it before drawing).

Coordinates are in cells: a point is ``(x, y)`` with ``x`` the column and
``y`` the row, ``(0, 0)`` the grid's top-left corner, so the centre of cell
``(row, column)`` is ``(column + 0.5, row + 0.5)``. Widths, radii and text
heights are in cells too, so a drawing scales with the grid.

Every mark is named ``GROUP-ROLE-K`` (``ROLE`` the primitive: ``line``,
``cage``, ``dot`` ...; ``K`` counts the marks of the group): the renderer
opens one group per constraint, and the SVG keeps the names as element ids.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum

Cell = tuple[int, int]
Point = tuple[float, float]


class Layer(IntEnum):
    """Where a mark goes in the stack (the grid's lines lie between LINES and OUTLINE)."""

    #: shaded cells, odd circles and even squares: under everything
    UNDER = 0
    #: thermometers, arrows, coloured lines: under the grid's lines
    LINES = 1
    #: cage outlines: over the grid's lines, under the digits
    OUTLINE = 2
    #: dots, letters, clues and cage sums: over everything
    MARKS = 3


#: The grey of thermometers, arrows, palindromes, odd and even cells (f-puzzles' look).
GREY = "#c0c0c0"
#: The ink of cage outlines, dots and clues.
INK = "#000000"
#: The fill of shaded cells (extra regions).
SHADE = "#d6d6d6"


@dataclass(frozen=True)
class LineStyle:
    """How a line through cell centres looks: its colour and its width (in cells)."""

    colour: str
    width: float
    layer: Layer = Layer.LINES


@dataclass(frozen=True)
class PathMark:
    """A polyline (``closed``: a polygon) with round joins and caps: what ``draw_path`` draws.

    ``stroke`` and ``width`` (in cells) are its line, ``None``: no line;
    ``fill`` its inside, ``None``: none; ``dashes`` the lengths of a dash and
    of a gap, in cells (``None``: a solid line).
    """

    points: Sequence[Point]
    ident: str
    layer: Layer
    stroke: str | None = None
    width: float = 0.0
    fill: str | None = None
    dashes: tuple[float, float] | None = None
    closed: bool = False


@dataclass(frozen=True)
class DiscMark:
    """A circle of ``radius`` around ``at`` (outline and fill as in :class:`PathMark`)."""

    at: Point
    radius: float
    ident: str
    layer: Layer
    stroke: str | None = None
    width: float = 0.0
    fill: str | None = None


@dataclass(frozen=True)
class TextMark:
    """``text`` written at ``at``, ``height`` cells tall.

    ``align`` is left/center/right, ``valign`` top/center/bottom; ``backdrop``
    the colour of a box behind the text (hiding what is under it).
    """

    at: Point
    text: str
    ident: str
    layer: Layer
    height: float
    colour: str = INK
    align: str = "center"
    valign: str = "center"
    bold: bool = False
    backdrop: str | None = None


def centre(cell: Cell) -> Point:
    """The centre of ``cell`` (``(row, column)``) as a point ``(x, y)``."""
    return (cell[1] + 0.5, cell[0] + 0.5)


def midpoint(a: Cell, b: Cell) -> Point:
    """The point halfway between the centres of two cells (on their shared edge when adjacent)."""
    (xa, ya), (xb, yb) = centre(a), centre(b)
    return ((xa + xb) / 2, (ya + yb) / 2)


# the four sides of a cell, clockwise on the page (y grows downwards): the
# direction the outline runs along the side, and the side's outward normal
_SIDES = (((1, 0), (0, -1)), ((0, 1), (1, 0)), ((-1, 0), (0, 1)), ((0, -1), (-1, 0)))


def cage_outline(cells: Sequence[Cell], inset: float) -> list[list[Point]]:
    """The closed loops of a cage's outline, ``inset`` cells inside its border.

    Each loop is a list of corner points (the first not repeated at the end),
    running clockwise around the cage (counter-clockwise around a hole). The
    outline runs ``inset`` inside every side of a cage cell that does not
    border another cage cell, and turns at the corners so that it keeps
    ``inset`` from the border all the way round.
    """
    inside = set(cells)
    e = inset
    starts: dict[tuple[float, float], tuple[Point, Point, Point]] = {}
    for r, c in cells:
        cx, cy = c + 0.5, r + 0.5
        for (tx, ty), (nx, ny) in _SIDES:
            if (r + ny, c + nx) in inside:
                continue  # a side shared with the cage: no outline
            ends = []
            for sign in (-1, 1):
                beside = (r + sign * ty, c + sign * tx)
                corner = (r + sign * ty + ny, c + sign * tx + nx)
                along = 0.5 - e if beside not in inside else 0.5 + e if corner in inside else 0.5
                ends.append(
                    (
                        cx + (0.5 - e) * nx + sign * along * tx,
                        cy + (0.5 - e) * ny + sign * along * ty,
                    )
                )
            start, end = ends
            starts[_key(start)] = (start, end, (float(tx), float(ty)))
    loops: list[list[Point]] = []
    while starts:
        key = next(iter(starts))
        loop: list[Point] = []
        heading: tuple[float, float] | None = None
        while key in starts:
            start, end, direction = starts.pop(key)
            if direction != heading:
                loop.append(start)  # a turn (collinear runs keep only their first point)
            heading = direction
            key = _key(end)
        loops.append(loop)
    return loops


def _key(p: Point) -> tuple[float, float]:
    return (round(p[0], 6), round(p[1], 6))


def _disc_outline(centre_: Point, radius: float, start: float, steps: int = 12) -> list[Point]:
    """``steps + 1`` points of a half circle from angle ``start`` (radians), turning clockwise."""
    x, y = centre_
    return [
        (x + radius * math.cos(start + math.pi * k / steps),
         y + radius * math.sin(start + math.pi * k / steps))
        for k in range(steps + 1)
    ]  # fmt: skip


class Pen:
    """Draws the marks of constraints on a ``size x size`` grid (a base class: see the module).

    A backend subclasses it and gives the four ``draw_*`` calls; the kinds
    call only the primitives.
    """

    #: The cage outline's distance inside the cage's border, in cells.
    CAGE_INSET = 0.09
    #: The height of a cage's sum, in cells.
    CAGE_LABEL = 0.24
    #: A Kropki dot's radius, in cells.
    DOT_RADIUS = 0.12
    #: The height of an XV letter and of a clue outside the grid, in cells.
    LETTER = 0.3
    CLUE = 0.4

    def __init__(self, size: int) -> None:
        self.size = size
        self._group = "mark"
        self._count = 0

    @contextmanager
    def group(self, name: str) -> Iterator[None]:
        """Name the marks drawn inside the block ``name-ROLE-K`` (one constraint's group)."""
        saved = self._group, self._count
        self._group, self._count = name, 0
        try:
            yield
        finally:
            self._group, self._count = saved

    def ident(self, role: str) -> str:
        """The name of the next mark of the current group (``GROUP-ROLE-K``)."""
        name = f"{self._group}-{role}-{self._count}"
        self._count += 1
        return name

    # ---------------------------------------------------------------- backend
    def draw_path(self, mark: PathMark) -> None:
        """Draw a polyline or polygon (:class:`PathMark`)."""
        raise NotImplementedError

    def draw_disc(self, mark: DiscMark) -> None:
        """Draw a circle (:class:`DiscMark`)."""
        raise NotImplementedError

    def draw_text(self, mark: TextMark) -> None:
        """Write a text (:class:`TextMark`)."""
        raise NotImplementedError

    def draw_note(self, text: str, *, ident: str) -> None:
        """Add a line of text under the grid (the notes are stacked in order)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- primitives
    def line(
        self,
        cells: Sequence[Cell],
        style: LineStyle,
        *,
        trim: float = 0.0,
        head: bool = False,
        start: Cell | None = None,
    ) -> None:
        """A line through the centres of ``cells``, in order.

        Args:
            start: a cell whose centre the line starts from, before the first
                of ``cells`` (an arrow's circle).
            trim: how much of the first segment to leave out, in cells (to start
                at a circle's edge).
            head: end in an arrowhead (two strokes back from the last point).
        """
        points = [centre(c) for c in ([start] if start is not None else []) + list(cells)]
        if trim and len(points) > 1:
            (x0, y0), (x1, y1) = points[0], points[1]
            d = math.hypot(x1 - x0, y1 - y0)
            k = min(trim / d, 1.0) if d else 0.0
            points[0] = (x0 + (x1 - x0) * k, y0 + (y1 - y0) * k)
        self._stroke(points, "line", style)
        if head and len(points) > 1:
            self._head(points[-2], points[-1], 0.28, style)

    def segment(self, start: Point, end: Point, style: LineStyle) -> None:
        """A straight line between two points (a diagonal, from corner to corner)."""
        self._stroke([start, end], "line", style)

    def _stroke(self, points: Sequence[Point], role: str, style: LineStyle) -> None:
        self.draw_path(PathMark(
            points, ident=self.ident(role), layer=style.layer, stroke=style.colour,
            width=style.width,
        ))  # fmt: skip

    def _head(self, tail: Point, tip: Point, size: float, style: LineStyle) -> None:
        """An arrowhead at ``tip`` of a line coming from ``tail``: two strokes ``size`` long."""
        angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
        wings = [
            (tip[0] - size * math.cos(angle + s), tip[1] - size * math.sin(angle + s))
            for s in (0.6, -0.6)
        ]
        self._stroke([wings[0], tip, wings[1]], "head", style)

    def cage(self, cells: Sequence[Cell], label: str = "") -> None:
        """A killer cage: a dashed outline just inside its border, ``label`` in its top-left corner.

        The label goes in the cage's first cell in reading order (top row,
        then leftmost), on a white box that breaks the dashes.
        """
        for loop in cage_outline(cells, self.CAGE_INSET):
            self.draw_path(PathMark(
                loop, ident=self.ident("cage"), layer=Layer.OUTLINE, stroke=INK, width=0.025,
                dashes=(0.07, 0.05), closed=True,
            ))  # fmt: skip
        if label:
            r, c = min(cells)
            self.draw_text(TextMark(
                (c + 0.04, r + 0.03), label, ident=self.ident("text"), layer=Layer.MARKS,
                height=self.CAGE_LABEL, align="left", valign="top", backdrop="#ffffff",
            ))  # fmt: skip

    def dot(self, a: Cell, b: Cell, *, filled: bool, label: str = "") -> None:
        """A Kropki dot on the edge between ``a`` and ``b``: white, or black when ``filled``.

        ``label``: a value written in the dot (a dot whose value is not the usual one).
        """
        at = midpoint(a, b)
        self.draw_disc(DiscMark(
            at, self.DOT_RADIUS, ident=self.ident("dot"), layer=Layer.MARKS, stroke=INK,
            width=0.025, fill=INK if filled else "#ffffff",
        ))  # fmt: skip
        if label:
            self.draw_text(TextMark(
                at, label, ident=self.ident("text"), layer=Layer.MARKS, height=0.15,
                colour="#ffffff" if filled else INK,
            ))  # fmt: skip

    def letter(self, a: Cell, b: Cell, text: str) -> None:
        """A letter (XV's X or V) on the edge between ``a`` and ``b``, on a white box."""
        self.draw_text(TextMark(
            midpoint(a, b), text, ident=self.ident("letter"), layer=Layer.MARKS,
            height=self.LETTER, bold=True, backdrop="#ffffff",
        ))  # fmt: skip

    def circle(
        self,
        cells: Sequence[Cell],
        *,
        radius: float = 0.4,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 0.0,
        layer: Layer = Layer.LINES,
    ) -> None:
        """A circle in a cell; over cells in one row or column, a rounded bar joining them."""
        rows = {r for r, _ in cells}
        cols = {c for _, c in cells}
        straight = len(rows) == 1 or len(cols) == 1
        if len(cells) == 1 or not straight or len(rows) * len(cols) != len(cells):
            for cell in cells:
                self.draw_disc(DiscMark(
                    centre(cell), radius, ident=self.ident("circle"), layer=layer,
                    stroke=stroke, width=width, fill=fill,
                ))  # fmt: skip
            return
        # a bar: the half circle beyond the last cell, then the one beyond the first
        first, last = centre(min(cells)), centre(max(cells))
        turn = -math.pi / 2 if len(rows) == 1 else 0.0  # where the last cell's half circle starts
        outline = _disc_outline(last, radius, turn) + _disc_outline(first, radius, turn + math.pi)
        self.draw_path(PathMark(
            outline, ident=self.ident("circle"), layer=layer, stroke=stroke, width=width,
            fill=fill, closed=True,
        ))  # fmt: skip

    def square(self, cell: Cell, *, side: float, fill: str, layer: Layer = Layer.UNDER) -> None:
        """A filled square of ``side`` cells centred in ``cell`` (an even cell)."""
        x, y = centre(cell)
        h = side / 2
        corners = [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
        self.draw_path(
            PathMark(corners, ident=self.ident("square"), layer=layer, fill=fill, closed=True)
        )

    def shade(self, cell: Cell, colour: str = SHADE) -> None:
        """Fill the whole of ``cell`` with ``colour`` (under the grid's lines and digits)."""
        r, c = cell
        corners = [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
        self.draw_path(PathMark(
            [(float(x), float(y)) for x, y in corners], ident=self.ident("shade"),
            layer=Layer.UNDER, fill=colour, closed=True,
        ))  # fmt: skip

    def outside(self, cell: Cell, text: str, *, towards: tuple[int, int] | None = None) -> None:
        """A clue in ``cell``, a place outside the grid (row or column -1 or ``size``).

        ``towards``: a ``(row, column)`` step; a small arrow in the clue's cell
        points that way into the grid (a little killer's diagonal), and the
        text moves back from it.
        """
        x, y = centre(cell)
        if towards is None:
            self.draw_text(
                TextMark(
                    (x, y), text, ident=self.ident("clue"), layer=Layer.MARKS, height=self.CLUE
                )
            )
            return
        dy, dx = towards
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        self.draw_text(TextMark(
            (x - 0.12 * ux, y - 0.12 * uy), text, ident=self.ident("clue"), layer=Layer.MARKS,
            height=self.CLUE * 0.8,
        ))  # fmt: skip
        tail = (x + 0.22 * ux, y + 0.22 * uy)
        tip = (x + 0.5 * ux, y + 0.5 * uy)
        style = LineStyle(INK, 0.025, Layer.MARKS)
        self._stroke([tail, tip], "line", style)
        self._head(tail, tip, 0.1, style)

    def note(self, text: str) -> None:
        """A line of text under the grid: a global rule (anti-knight ...)."""
        self.draw_note(text, ident=self.ident("note"))


class Bounds(Pen):
    """A pen that draws nothing: it records how far the marks reach and how many notes there are.

    The renderer draws every constraint with it first, to size the frame
    around the grid (a margin where clues lie outside, room for the notes).
    """

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.x0 = self.y0 = 0.0
        self.x1 = self.y1 = float(size)
        self.notes = 0

    def _reach(self, points: Sequence[Point], pad: float) -> None:
        for x, y in points:
            self.x0, self.x1 = min(self.x0, x - pad), max(self.x1, x + pad)
            self.y0, self.y1 = min(self.y0, y - pad), max(self.y1, y + pad)

    def draw_path(self, mark: PathMark) -> None:
        self._reach(mark.points, mark.width / 2)

    def draw_disc(self, mark: DiscMark) -> None:
        self._reach([mark.at], mark.radius + mark.width / 2)

    def draw_text(self, mark: TextMark) -> None:
        self._reach([mark.at], mark.height)

    def draw_note(self, text: str, *, ident: str) -> None:
        self.notes += 1


__all__ = [
    "GREY",
    "INK",
    "SHADE",
    "Bounds",
    "DiscMark",
    "Layer",
    "LineStyle",
    "PathMark",
    "Pen",
    "TextMark",
    "cage_outline",
    "centre",
    "midpoint",
]
