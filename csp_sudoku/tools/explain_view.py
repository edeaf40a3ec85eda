"""Solve paths you can look at: one SVG per step, and a self-contained HTML page.

Both kinds of path are drawn: the se path (:class:`csp_sudoku.metrics.se.SePath`,
``explain``'s default, the path the se rating rates) and the human model's
(:class:`csp_sudoku.human.path.SolvePath`, ``explain --order subsets``).
Each step is drawn as the pencil-mark grid *before* the step: the clues in
bold, digits placed by earlier steps in blue, the candidates of every empty
cell as small digits. An se step is marked from its figure
(:func:`se_step_layer`, :data:`SE_MARKS`: the pattern's cells, unit or cover
lines, a wing's pivot, strong links solid and weak links dashed, the
assumption, each branch's premise and links in the branch's colour, the human
model's chains beyond SE's). A step of the human model's path is marked:

* the step's cells (``Step.cells``) shaded yellow;
* placements: the candidate on a green disc; eliminations: the candidate on a
  red disc, struck through;
* subset steps: A's live candidates on blue discs (the eliminations, B's
  candidates outside A, on red discs as above);
* chain steps: every link of every chain (branch) as a ring on its candidate
  (orange: the assumption; green: a placement inside the assumption; red: an
  elimination), with an arrow from each parent link to the link, numbered
  with the link's index; the contradiction's parents get a red cell outline.

The drawing is plain SVG text built here (no matplotlib: a matplotlib SVG of a
pencil-mark grid outlines every glyph and weighs ~100 kB). The grid lines,
thick where :func:`csp_sudoku.tools.render.region_labels` changes region, are drawn
once (:func:`frame_svg`); a step adds only its own layer
(:func:`step_layer`), so the HTML page holds the frame once and swaps layers
(a 60-step path with chains is a few hundred kB). :func:`step_svg` joins both
into one standalone image (``explain --svg DIR``), the same drawing the page
shows (``explain --html FILE``). The page adds a list of the steps (click to
jump), a digit filter and, last, the grid the path ends on (:func:`final_view`).
A variant puzzle's page and images also draw its constraints (:func:`constraint_marks`:
each kind's ``draw(pen)`` with an SVG pen in the page's pixels): shaded cells,
thermometers, arrows and lines over the grid's white and under its lines,
cages, dots, letters and clues over the step's marks, the global rules as
lines of text under the grid.
No step is drawn with more than :data:`~csp_sudoku.human.se_figures.MAX_LINKS`
links: a longer chain keeps its assumption and its last links, longer
branches their chains by first parents (:mod:`csp_sudoku.human.se_figures`).
"""

from __future__ import annotations

import functools
import html
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import counted, symbol, write_text
from csp_sudoku.encodings.exact_cover import exact_cover
from csp_sudoku.human.chains import Chain
from csp_sudoku.human.path import SolvePath, Step, describe_step
from csp_sudoku.human.se_figures import MAX_LINKS, Figure, figure
from csp_sudoku.human.se_order import SeStep
from csp_sudoku.human.state import CandidateState
from csp_sudoku.metrics.se import SePath
from csp_sudoku.tools.render import _is_diagonal, region_labels

if TYPE_CHECKING:
    from csp_sudoku.variants.explain import VariantPath

#: Margin (px) around the grid, room for the row and column labels.
MARGIN = 18
#: Colours of the arrows of successive chains (branches) of one step.
BRANCH_COLOURS = ("#7b3fa0", "#1f6fb4", "#b8641a", "#287a4a", "#a02f5c", "#4d4d4d")


@dataclass(frozen=True)
class Mark:
    """One kind of mark a step draws, and its legend entry.

    Attributes:
        cls: the SVG class the drawing gives the element.
        colour: its colour (fill, or stroke when ``stroke_width`` is set).
        label: what the page's legend says it means.
        stroke_width: None for a filled shape; else the ring or outline width.
    """

    cls: str
    colour: str
    label: str
    stroke_width: float | None = None

    def css(self) -> str:
        """The SVG style rule of this mark."""
        if self.stroke_width is None:
            return f".{self.cls}{{fill:{self.colour}}}"
        return f".{self.cls}{{fill:none;stroke:{self.colour};stroke-width:{self.stroke_width:g}}}"

    def swatch_css(self) -> str:
        """The legend swatch's inline style: a filled square, or a ring for a stroke."""
        if self.stroke_width is None:
            return f"background:{self.colour}"
        return f"border:2px solid {self.colour};border-radius:50%;box-sizing:border-box"


#: Every mark a step layer draws, in legend order: the one table both the SVG
#: style and the HTML legend are built from, so they cannot disagree.
MARKS = (
    Mark("h", "#fff3b0", "step's cells"),
    Mark("pl", "#7ed37e", "placed"),
    Mark("el", "#f28b82", "eliminated"),
    Mark("sa", "#9cc7f0", "subset A"),
    Mark("ra", "#f08c00", "assumption", 2.2),
    Mark("ron", "#2a9d2a", "placed under the assumption", 1.6),
    Mark("rof", "#d33", "eliminated under the assumption", 1.6),
    Mark("cx", "#d00", "contradiction", 2.5),
)

#: The se path's marks (``explain --order se``): the pattern's cells, the
#: conclusion, links (strong solid, weak dashed), the assumption and branch premises,
#: and the human model's marks for the chains beyond SE's (nested forcing chains).
SE_MARKS = (
    Mark("un", "#e8eef8", "unit / cover lines"),
    replace(MARKS[0], label="pattern cells"),
    Mark("pv", "#ffc870", "wing pivot"),
    *MARKS[1:3],  # placed, eliminated
    Mark("ls", "#1f6fb4", "strong link", 1.6),
    Mark("lw", "#7b3fa0", "weak link (dashed)", 1.3),
    replace(MARKS[4], label="assumption / branch premise"),
    *MARKS[5:],  # the human model's chains: placed, eliminated under it, contradiction
)

_STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,sans-serif;text-anchor:middle}"
    ".c{font-size:10px;fill:#555}.g{font-weight:bold;fill:#000}.v{fill:#1f5fa8}"
    ".lb{font-size:10px;fill:#888}.n{font-size:7px;font-weight:bold}"
    ".tn{stroke:#999;stroke-width:.6}.tk{stroke:#000;stroke-width:2}"
    ".st{stroke:#c00;stroke-width:1.2}"
    + "".join(m.css() for m in MARKS)
    + "".join(m.css() for m in SE_MARKS if m.cls not in {k.cls for k in MARKS})
    + ".ls{marker-end:url(#m1)}.lw{stroke-dasharray:4 3;marker-end:url(#m0)}"
    + "g[class^=k] path{fill:none;stroke-width:1.3;opacity:.85}"
    + "".join(
        f".k{i} path{{stroke:{c};marker-end:url(#m{i})}}.k{i} .n{{fill:{c}}}"
        for i, c in enumerate(BRANCH_COLOURS)
    )
)


@dataclass(frozen=True)
class _Layout:
    """Pixel positions of one geometry's grid."""

    n: int
    sub: int  # candidates per row inside a cell

    @property
    def cell(self) -> int:
        return 12 * self.sub

    @property
    def side(self) -> int:
        return self.n * self.cell + 2 * MARGIN

    def corner(self, cell: int) -> tuple[int, int]:
        r, c = divmod(cell, self.n)
        return MARGIN + c * self.cell, MARGIN + r * self.cell

    def centre(self, cell: int, digit: int) -> tuple[int, int]:
        """The centre of a candidate's small digit."""
        x, y = self.corner(cell)
        k = digit - 1
        return x + 12 * (k % self.sub) + 6, y + 12 * (k // self.sub) + 6


def _layout(g: Geometry) -> _Layout:
    return _Layout(g.size, math.isqrt(g.size - 1) + 1)


def frame_svg(g: Geometry, under: str = "") -> str:
    """The grid lines and row/column labels of a geometry (no digits); ``under``: marks
    drawn on the grid's white, under its lines (a variant's shaded cells and lines)."""
    lay = _layout(g)
    n, cs = lay.n, lay.cell
    labels = region_labels(g).reshape(n, n)
    thin: list[str] = []
    thick: list[str] = []
    for r in range(n):
        for c in range(n):
            x, y = MARGIN + c * cs, MARGIN + r * cs
            if c + 1 < n:
                seg = f"M{x + cs} {y}v{cs}"
                (thick if labels[r, c] != labels[r, c + 1] else thin).append(seg)
            if r + 1 < n:
                seg = f"M{x} {y + cs}h{cs}"
                (thick if labels[r, c] != labels[r + 1, c] else thin).append(seg)
    side = n * cs
    markers = "".join(
        f'<marker id="m{i}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" '
        f'markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="{colour}"/></marker>'
        for i, colour in enumerate(BRANCH_COLOURS)
    )
    out = [
        f"<defs>{markers}</defs>",
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{side}" height="{side}" fill="#fff"/>',
        under,
    ]
    # extra units: diagonals dashed, other extra units (windows) shaded
    for unit, kind in zip(g.units, g.unit_kinds, strict=True):
        if kind != "extra":
            continue
        if _is_diagonal(unit, n):
            first = min(int(c) for c in unit)
            x0, x1 = (MARGIN, MARGIN + side) if first == 0 else (MARGIN + side, MARGIN)
            out.append(
                f'<path d="M{x0} {MARGIN}L{x1} {MARGIN + side}" stroke="#aaa" '
                'stroke-dasharray="4 3" fill="none"/>'
            )
            continue
        for c in unit.tolist():
            x, y = lay.corner(int(c))
            out.append(f'<rect x="{x}" y="{y}" width="{cs}" height="{cs}" fill="#ececec"/>')
    out.append(f'<path class="tn" d="{"".join(thin)}"/>')
    out.append(f'<path class="tk" d="{"".join(thick)}"/>')
    out.append(
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{side}" height="{side}" fill="none" '
        'stroke="#000" stroke-width="2.6"/>'
    )
    for i in range(n):
        mid = MARGIN + i * cs + cs // 2
        out.append(f'<text class="lb" x="{mid}" y="{MARGIN - 6}">c{i + 1}</text>')
        out.append(f'<text class="lb" x="{MARGIN // 2}" y="{mid + 3}">r{i + 1}</text>')
    return "".join(out)


def pencil_marks(path: SolvePath) -> list[tuple[list[int], list[set[int]]]]:
    """The values and candidates before every step (and, last, after the final one).

    Candidates start as the digits no peer holds; a placement fills the cell
    and removes its digit from the cell's peers; an elimination removes one
    candidate, as the human model's pencil marks do.
    """
    g = path.puzzle.geometry
    peers = [p.tolist() for p in g.peers]
    values = [int(v) for v in path.puzzle.cells.tolist()]
    cands: list[set[int]] = []
    for cell, v in enumerate(values):
        if v:
            cands.append(set())
        else:
            used = {values[p] for p in peers[cell]}
            cands.append({d for d in range(1, g.size + 1) if d not in used})
    out = [(list(values), [set(s) for s in cands])]
    for step in path.steps:
        for cell, d in step.placements:
            values[cell] = d
            cands[cell] = set()
            for p in peers[cell]:
                cands[p].discard(d)
        for cell, d in step.eliminations:
            cands[cell].discard(d)
        out.append((list(values), [set(s) for s in cands]))
    return out


def _chain_layer(lay: _Layout, chain: Chain, parts: list[str], rings: list[str]) -> None:
    """Rings on every link's candidate (into ``rings``), link numbers and arrows
    from parents (into ``parts``, drawn in a group that gives the branch colour)."""
    links = chain.links
    # a chain longer than MAX_LINKS keeps its assumption and its last links
    keep = set(range(len(links))) if len(links) <= MAX_LINKS else {0}
    keep |= set(range(max(1, len(links) - MAX_LINKS + 1), len(links)))
    for i, link in enumerate(links):
        if i not in keep:
            continue
        if link.cell < 0:  # the contradiction: outline the cells of its parents
            for p in link.parents:
                pc = links[p].cell
                if pc >= 0:
                    x, y = lay.corner(pc)
                    rings.append(
                        f"<rect class='cx' x='{x + 1}' y='{y + 1}' "
                        f"width='{lay.cell - 2}' height='{lay.cell - 2}'/>"
                    )
            continue
        cx, cy = lay.centre(link.cell, link.digit)
        cls = "ra" if link.reason == "assume" else "ron" if link.on else "rof"
        rings.append(f"<circle class='{cls}' cx='{cx}' cy='{cy}' r='6'/>")
        parts.append(f"<text class='n' x='{cx + 6}' y='{cy - 4}'>{i}</text>")
        for p in link.parents:
            par = links[p]
            if par.cell < 0 or p not in keep:
                continue
            parts.append(_arrow(lay.centre(par.cell, par.digit), (cx, cy)))


def _arrow(start: tuple[int, int], end: tuple[int, int], cls: str = "") -> str:
    """A bent arrow between two candidates' centres (its head comes from the
    style of its group or ``cls``); "" when they coincide."""
    (px, py), (cx, cy) = start, end
    dx, dy = cx - px, cy - py
    dist = math.hypot(dx, dy)
    if dist < 1:
        return ""
    ux, uy = dx / dist, dy / dist
    # bend the arrow a little so that arrows along one row stay apart
    mx, my = (px + cx) / 2 - uy * dist * 0.12, (py + cy) / 2 + ux * dist * 0.12
    sx, sy = px + ux * 6, py + uy * 6
    ex, ey = cx - ux * 7, cy - uy * 7
    attr = f" class='{cls}'" if cls else ""
    return f"<path{attr} d='M{sx:.0f} {sy:.0f}Q{mx:.0f} {my:.0f} {ex:.0f} {ey:.0f}'/>"


def _glyph_row(cls: str, y: float, items: list[tuple[int, str]], extra: str = "") -> str:
    """One ``<text>`` for many glyphs on one line: SVG places glyph i at x[i]."""
    items = sorted(items)
    xs = " ".join(str(x) for x, _ in items)
    return f"<text class='{cls}' x='{xs}' y='{y:g}'{extra}>{''.join(t for _, t in items)}</text>"


def step_layer(
    g: Geometry,
    step: Step,
    values: Sequence[int],
    cands: Sequence[set[int]],
    givens: Sequence[int],
    ec: Any = None,
) -> str:
    """The SVG elements of one step over the frame: shading, digits, marks, chain."""
    lay = _layout(g)
    ec = ec if ec is not None else exact_cover(g)
    n = g.size
    out: list[str] = []
    cell_class: dict[int, str] = {}
    disc: dict[tuple[int, int], str] = {}
    if step.kind == "subset":
        a_cands = {int(k) for col in step.a for k in ec.column_candidates[col].tolist()}
        for k in a_cands:
            cell, d = divmod(k, n)
            if d + 1 in cands[cell]:
                disc[(cell, d + 1)] = "sa"
    for cell in step.cells:
        cell_class[cell] = "h"
    for cell, d in step.placements:
        disc[(cell, d)] = "pl"
    for cell, d in step.eliminations:
        disc[(cell, d)] = "el"
    out.append(_grid(lay, cell_class, disc, step.eliminations, values, cands, givens))
    if step.kind == "chain":
        out.append(_chains_layer(lay, step.chains))
    return "".join(out)


def _chains_layer(lay: _Layout, chains: Sequence[Chain]) -> str:
    """Every chain (branch) of a step: rings first, then each branch's arrows in its colour."""
    groups: list[str] = []
    rings: list[str] = []
    for i, chain in enumerate(chains):
        parts: list[str] = []
        _chain_layer(lay, chain, parts, rings)
        groups.append(f"<g class='k{i % len(BRANCH_COLOURS)}'>{''.join(parts)}</g>")
    return "".join(rings) + "".join(groups)


def _grid(
    lay: _Layout,
    cell_class: dict[int, str],
    disc: dict[tuple[int, int], str],
    struck: Sequence[tuple[int, int]],
    values: Sequence[int],
    cands: Sequence[set[int]],
    givens: Sequence[int],
) -> str:
    """Shaded cells, discs under candidates, the digits and candidates, and
    the strike-through of ``struck`` candidates: what every step layer has."""
    cs = lay.cell
    out: list[str] = []
    for cell, cls in sorted(cell_class.items()):
        x, y = lay.corner(cell)
        out.append(f"<rect class='{cls}' x='{x}' y='{y}' width='{cs}' height='{cs}'/>")
    for (cell, d), cls in sorted(disc.items()):
        if d in cands[cell]:
            cx, cy = lay.centre(cell, d)
            out.append(f"<circle class='{cls}' cx='{cx}' cy='{cy}' r='5.5'/>")
    big = cs * 0.62
    for cls in ("g", "v"):
        rows: dict[float, list[tuple[int, str]]] = {}
        for cell, v in enumerate(values):
            if v and (cls == "g") == bool(givens[cell]):
                x, y = lay.corner(cell)
                rows.setdefault(y + cs * 0.5 + big * 0.36, []).append((x + cs // 2, symbol(v)))
        out.extend(
            _glyph_row(cls, y, items, f" font-size='{big:.0f}'") for y, items in rows.items()
        )
    crow: dict[float, list[tuple[int, str]]] = {}
    for cell, ds in enumerate(cands):
        for d in ds:
            cx, cy = lay.centre(cell, d)
            crow.setdefault(cy + 3.5, []).append((cx, symbol(d)))
    out.extend(_glyph_row("c", y, items) for y, items in sorted(crow.items()))
    for cell, d in struck:
        if d in cands[cell]:
            cx, cy = lay.centre(cell, d)
            out.append(f"<path class='st' d='M{cx - 5} {cy + 5}l10 -10'/>")
    return "".join(out)


def se_step_layer(
    g: Geometry,
    step: SeStep,
    fig: Figure,
    values: Sequence[int],
    cands: Sequence[set[int]],
    givens: Sequence[int],
) -> str:
    """The SVG elements of one se step: its pattern's cells (unit and cover
    lines pale, pattern cells yellow, a wing's pivot orange), the conclusion,
    the links (strong solid, weak dashed), the assumption, each branch's
    premise and links (:func:`_branches_layer`), and the human model's chains of
    the steps beyond SE's (nested refutations folded into one link)."""
    lay = _layout(g)
    cell_class: dict[int, str] = {}
    for role in ("unit", "cover", "pattern", "base", "rectangle", "wing", "pincers", "pivot"):
        cls = {"unit": "un", "cover": "un", "pivot": "pv"}.get(role, "h")
        for cell in fig.cells(role):
            cell_class[cell] = cls
    disc: dict[tuple[int, int], str] = {}
    for cell, d in step.placements:
        disc[(cell, d)] = "pl"
    for cell, d in step.eliminations:
        disc[(cell, d)] = "el"
    out = [_grid(lay, cell_class, disc, step.eliminations, values, cands, givens)]
    rings: list[str] = []
    if fig.assumption is not None:
        rings.append(_ring(lay, fig.assumption[:2], "ra"))
    if step.branches:
        out.extend(rings)
        out.append(_branches_layer(lay, step, fig))
    else:
        out.extend(rings)
        out.extend(
            _arrow(lay.centre(*a[:2]), lay.centre(*b[:2]), "ls" if strong else "lw")
            for a, b, strong in fig.links
        )
    if step.chains:
        out.append(_chains_layer(lay, step.chains))
    return "".join(out)


def _branches_layer(lay: _Layout, step: SeStep, fig: Figure) -> str:
    """A forcing chains step's branches: a ring on each premise, each branch's
    links as arrows in the branch's colour (strong solid, weak dashed), and a
    red outline on the cell of a contradiction's literal."""
    rings = [_ring(lay, p[:2], "ra") for p in step.branches]
    for ends in fig.ends:
        if len(ends) == 2:  # x on and x off: the contradiction
            x, y = lay.corner(ends[0][0])
            rings.append(
                f"<rect class='cx' x='{x + 1}' y='{y + 1}' "
                f"width='{lay.cell - 2}' height='{lay.cell - 2}'/>"
            )
    groups: dict[int, list[str]] = {}
    for (a, b, strong), i in zip(fig.links, fig.branch_of, strict=True):
        arrow = _arrow(lay.centre(*a[:2]), lay.centre(*b[:2]), "ls" if strong else "lw")
        groups.setdefault(i, []).append(arrow)
    return "".join(rings) + "".join(
        f"<g class='k{i % len(BRANCH_COLOURS)}'>{''.join(parts)}</g>"
        for i, parts in sorted(groups.items())
    )


def _ring(lay: _Layout, candidate: tuple[int, int], cls: str) -> str:
    cx, cy = lay.centre(*candidate)
    return f"<circle class='{cls}' cx='{cx}' cy='{cy}' r='6'/>"


def _svg_open(
    g: Geometry,
    extra: str = "",
    *,
    standalone: bool = True,
    view: tuple[float, float, float, float] | None = None,
) -> str:
    """The ``<svg>`` tag of the grid's image; ``view``: its ``(x, y, width, height)``
    when marks reach beyond the grid and its labels."""
    side = _layout(g).side
    x, y, w, h = view or (0, 0, side, side)
    # inside HTML the parser puts <svg> in the SVG namespace: no xmlns (no URL) needed
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    return f'<svg{ns} viewBox="{x:g} {y:g} {w:g} {h:g}" width="{w:g}" height="{h:g}"{extra}>'


def step_svg(g: Geometry, frame: str, layer: str, marks: ConstraintMarks | None = None) -> str:
    """A standalone SVG image: the style, the frame and one step's layer; ``marks``: a
    variant puzzle's constraints (the frame drawn over ``marks.under``), their cages,
    dots and clues over the layer, in the picture ``marks.view`` that holds them all."""
    if marks is None:
        return f"{_svg_open(g)}<style>{_STYLE}</style>{frame}<g>{layer}</g></svg>\n"
    return (
        f"{_svg_open(g, view=marks.view)}<style>{_STYLE}{_VARIANT_STYLE}</style>{frame}"
        f"<g>{layer}</g><g>{marks.over}</g></svg>\n"
    )


@dataclass(frozen=True)
class StepView:
    """What the page shows for one step (or, last, for the grid the path ends on)."""

    number: int
    title: str
    text: str
    marks: str  # the candidates before the step, one entry per cell, ``,``-separated
    values: str  # the grid before the step as one line (``.`` for empty)
    layer: str  # the step's SVG layer
    html: str = ""  # the step's chains as nested <details> (nested refutations folded)

    def to_dict(self) -> dict[str, Any]:
        """The page's JSON entry of the view."""
        d: dict[str, Any] = {
            "number": self.number,
            "title": self.title,
            "text": self.text,
            "marks": self.marks,
            "values": self.values,
            "layer": self.layer,
        }
        if self.html:
            d["html"] = self.html
        return d


#: A path the views draw: the human model's or the se path.
AnyPath = SolvePath | SePath


def _marks_text(cands: Sequence[set[int]]) -> str:
    return ",".join("".join(symbol(d) for d in sorted(s)) for s in cands)


def _values_text(values: Sequence[int]) -> str:
    return "".join(symbol(v) if v else "." for v in values)


def step_views(path: AnyPath) -> list[StepView]:
    """The view of every step of a path, in order."""
    if isinstance(path, SePath):
        return se_step_views(path)
    g = path.puzzle.geometry
    ec = exact_cover(g)
    givens = [int(v) for v in path.puzzle.cells.tolist()]
    states = pencil_marks(path)
    views: list[StepView] = []
    for i, step in enumerate(path.steps):
        values, cands = states[i]
        text = "\n".join([describe_step(path.puzzle, step, i + 1), *_fold_note(step.chains)])
        views.append(
            StepView(
                number=i + 1,
                title=text.split("\n", 1)[0],
                text=text,
                marks=_marks_text(cands),
                values=_values_text(values),
                layer=step_layer(g, step, values, cands, givens, ec),
            )
        )
    return views


def _fold_note(chains: Sequence[Chain]) -> list[str]:
    """A line for each chain too long to draw whole (see :func:`_chain_layer`)."""
    return [
        f"(drawn: branch {k + 1}'s assumption and its last {MAX_LINKS - 1} of {len(c.links)} links)"
        for k, c in enumerate(chains)
        if len(c.links) > MAX_LINKS
    ]


def _state_sets(state: CandidateState) -> tuple[list[int], list[set[int]]]:
    """Values and the candidates of the empty cells, as the drawing takes them."""
    n = state.geometry.size
    values = [int(v) for v in state.values.tolist()]
    cands = [
        set() if v else {d + 1 for d in range(n) if int(m) >> d & 1}
        for v, m in zip(values, state.masks.tolist(), strict=True)
    ]
    return values, cands


def se_step_views(path: SePath) -> list[StepView]:
    """The view of every step of an se path: title ``technique (difficulty): what``."""
    g = path.puzzle.geometry
    givens = [int(v) for v in path.puzzle.cells.tolist()]
    views: list[StepView] = []
    for i, (state, step) in enumerate(zip(path.states(), path.steps, strict=False)):
        values, cands = _state_sets(state)
        fig = figure(state, step)
        lines = path.describe_step(i, fig, chains=False)  # the chains: ``html``
        title = lines[0].split(". ", 1)[1]
        views.append(
            StepView(
                number=i + 1,
                title=title,
                text="\n".join(
                    [title, *(ln.strip() for ln in lines[1:]), *_fold_note(step.chains)]
                ),
                marks=_marks_text(cands),
                values=_values_text(values),
                layer=se_step_layer(g, step, fig, values, cands, givens),
                html="".join(
                    _chain_html(c, g, k, len(step.chains)) for k, c in enumerate(step.chains)
                ),
            )
        )
    return views


def _chain_html(chain: Chain, g: Geometry, k: int, total: int) -> str:
    """A human-model chain as an HTML list, each nested refutation a
    ``<details>`` whose summary is its conclusion (closed: folded)."""
    from csp_sudoku.metrics.se import folded_chain_text

    lines = folded_chain_text(chain, g, "")
    items = []
    for link, line in zip(chain.links, lines, strict=False):
        text = html.escape(line.strip())
        if link.inner is not None:
            inner = _chain_html(link.inner, g, 0, 1)
            items.append(f"<li><details><summary>{text}</summary>{inner}</details></li>")
        else:
            items.append(f"<li>{text}</li>")
    label = f"branch {k + 1}" if total > 1 else "chain"
    return f"<div class='chain'><b>{label}</b><ul>{''.join(items)}</ul></div>"


def final_view(path: AnyPath) -> StepView:
    """The grid the path ends on: solved, or where it stopped (with its candidates)."""
    g = path.puzzle.geometry
    givens = [int(v) for v in path.puzzle.cells.tolist()]
    if isinstance(path, SePath):
        values, cands = _state_sets(path.states()[-1])
    else:
        values, cands = pencil_marks(path)[-1]
    title = "Solved grid" if path.solved else "Where the path stopped"
    return StepView(
        number=len(path.steps) + 1,
        title=title,
        text=title,
        marks=_marks_text(cands),
        values=_values_text(values),
        layer=_grid(_layout(g), {}, {}, (), values, cands, givens),
    )


def write_svgs(
    path: AnyPath, directory: str | os.PathLike[str], *, constraints: Sequence[Drawable] = ()
) -> list[Path]:
    """One SVG per step, ``step-001.svg``, ... in ``directory`` (created); the files written.
    ``constraints``: a variant puzzle's, drawn on every step as on the page
    (:func:`constraint_marks`).

    Every page is drawn before the first is written, and each is written whole
    (:func:`~csp_sudoku.core.io.write_text`); then the step files of an earlier run
    in ``directory`` (``step-*.svg``) that this path does not have are removed, so
    the folder holds this path's steps and nothing else of that name.
    """
    out_dir = Path(directory)
    g = path.puzzle.geometry
    marks = constraint_marks(g, constraints) if constraints else None
    frame = frame_svg(g, marks.under if marks else "")
    width = max(3, len(str(len(path.steps))))
    pages = {
        out_dir / f"step-{view.number:0{width}d}.svg": step_svg(g, frame, view.layer, marks)
        for view in step_views(path)
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for f, text in pages.items():
        write_text(f, text)
    for stale in out_dir.glob("step-*.svg"):
        if stale not in pages:
            stale.unlink()
    return list(pages)


# ---------------------------------------------------------------- variant constraints
class Drawable(Protocol):
    """What draws itself with the primitives of a pen (a variant constraint)."""

    def draw(self, pen: Any) -> None: ...


#: The height of a line of text under the grid (a global rule), px.
NOTE_HEIGHT = 13
#: A variant page's step highlight lets the constraints under it show through.
_VARIANT_STYLE = ".h{fill-opacity:.6}"


@dataclass(frozen=True)
class ConstraintMarks:
    """The drawing of a variant puzzle's constraints on the page's grid.

    Attributes:
        under: the shaded cells, odd and even marks, thermometers, arrows and
            lines: drawn on the grid's white, under its lines.
        over: cage outlines, dots, letters, clues, and the notes of the global
            rules: drawn over the step's marks.
        view: the image's ``(x, y, width, height)``: the grid with its labels,
            and the clues outside it and the notes under it.
    """

    under: str
    over: str
    view: tuple[float, float, float, float]


def constraint_marks(g: Geometry, constraints: Sequence[Drawable]) -> ConstraintMarks:
    """Every constraint drawn by its own ``draw(pen)`` in the page's pixels, each mark
    named ``vI-ROLE-K`` (constraint ``I`` of the sequence, as ``render`` names them)."""
    from csp_sudoku.constraints.drawing import Bounds

    lay = _layout(g)
    reach = Bounds(g.size)
    for c in constraints:
        c.draw(reach)
    bottom = MARGIN + max(float(g.size), reach.y1) * lay.cell
    pen = _svg_pen_class()(g.size, lay.cell, bottom + 2)
    for i, c in enumerate(constraints):
        with pen.group(f"v{i}"):
            c.draw(pen)
    under, over = pen.svg()
    pad = 2.0
    x0 = min(0.0, MARGIN + reach.x0 * lay.cell - pad)
    y0 = min(0.0, MARGIN + reach.y0 * lay.cell - pad)
    x1 = max(float(lay.side), MARGIN + reach.x1 * lay.cell + pad)
    y1 = max(float(lay.side), bottom + pad + NOTE_HEIGHT * pen.notes)
    return ConstraintMarks(under, over, (x0, y0, x1 - x0, y1 - y0))


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


@functools.cache
def _svg_pen_class() -> Any:
    """The SVG :class:`~csp_sudoku.constraints.drawing.Pen` of the page (made when first
    needed: importing the constraints loads OR-tools, which plain puzzles never need)."""
    from csp_sudoku.constraints.drawing import DiscMark, Layer, PathMark, Pen, TextMark

    class SvgPen(Pen):
        """Writes each mark as an SVG element in the page's pixels, by layer.

        Args:
            size: the grid's size.
            cell: pixels per cell.
            notes_top: where the first note under the grid goes, px.
        """

        def __init__(self, size: int, cell: int, notes_top: float) -> None:
            super().__init__(size)
            self.cell = cell
            self.notes_top = notes_top
            self.notes = 0
            self.marks: dict[Layer, list[str]] = {layer: [] for layer in Layer}

        def svg(self) -> tuple[str, str]:
            """The marks under the grid's lines, and those over the step's marks."""
            low = (Layer.UNDER, Layer.LINES)
            return (
                "".join("".join(self.marks[x]) for x in low),
                "".join("".join(self.marks[x]) for x in Layer if x not in low),
            )

        def _xy(self, p: tuple[float, float]) -> str:
            return f"{_num(MARGIN + p[0] * self.cell)} {_num(MARGIN + p[1] * self.cell)}"

        def _paint(
            self, fill: str | None, stroke: str | None, width: float, cap: str = "round"
        ) -> str:
            out = f' fill="{fill or "none"}"'
            if stroke:
                out += (
                    f' stroke="{stroke}" stroke-width="{_num(width * self.cell)}"'
                    f' stroke-linecap="{cap}" stroke-linejoin="round"'
                )
            return out

        def draw_path(self, mark: PathMark) -> None:
            d = "M" + "L".join(self._xy(p) for p in mark.points) + ("Z" if mark.closed else "")
            cap = "round" if mark.dashes is None else "butt"
            paint = self._paint(mark.fill, mark.stroke, mark.width, cap)
            if mark.dashes is not None:
                on, off = (_num(x * self.cell) for x in mark.dashes)
                paint += f' stroke-dasharray="{on} {off}"'
            self.marks[mark.layer].append(f'<path id="{mark.ident}" d="{d}"{paint}/>')

        def draw_disc(self, mark: DiscMark) -> None:
            x, y = self._xy(mark.at).split()
            paint = self._paint(mark.fill, mark.stroke, mark.width)
            r = _num(mark.radius * self.cell)
            self.marks[mark.layer].append(
                f'<circle id="{mark.ident}" cx="{x}" cy="{y}" r="{r}"{paint}/>'
            )

        def draw_text(self, mark: TextMark) -> None:
            size = mark.height * self.cell
            x = MARGIN + mark.at[0] * self.cell
            top = MARGIN + mark.at[1] * self.cell  # the text's top, centre or bottom
            # a digit's height is about 0.72 of the font size: the baseline from valign
            shift = {"top": 0.72, "center": 0.36, "bottom": 0.0}[mark.valign] * size
            anchor = {"left": "start", "center": "middle", "right": "end"}[mark.align]
            out = self.marks[mark.layer]
            if mark.backdrop is not None:
                w = 0.62 * size * len(mark.text) + 2
                left = {"start": x - 1, "middle": x - w / 2, "end": x - w + 1}[anchor]
                box_top = top + shift - 0.72 * size - 1
                out.append(
                    f'<rect x="{_num(left)}" y="{_num(box_top)}" width="{_num(w)}" '
                    f'height="{_num(0.72 * size + 2)}" fill="{mark.backdrop}" fill-opacity=".75"/>'
                )
            style = f"font-size:{_num(size)}px;text-anchor:{anchor};fill:{mark.colour}" + (
                ";font-weight:bold" if mark.bold else ""
            )
            out.append(
                f'<text id="{mark.ident}" x="{_num(x)}" y="{_num(top + shift)}" '
                f'style="{style}">{html.escape(mark.text)}</text>'
            )

        def draw_note(self, text: str, *, ident: str) -> None:
            self.notes += 1
            x = MARGIN + self.size * self.cell / 2
            y = self.notes_top + NOTE_HEIGHT * self.notes - 3
            self.marks[Layer.MARKS].append(
                f'<text id="{ident}" x="{_num(x)}" y="{_num(y)}" '
                f'style="font-size:11px;fill:#333">{html.escape(text)}</text>'
            )

    return SvgPen


_PAGE_CSS = (
    "body{font-family:system-ui,sans-serif;margin:1em;color:#222}"
    "#wrap{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}"
    "#grid{width:100%;height:auto}#side{flex:1;min-width:22em}"
    "#nav button{font-size:1em;padding:.3em .9em;margin-right:.4em}"
    "#counter{font-weight:bold;margin-left:.5em}#title{font-size:1.1em;margin:.6em 0}"
    "#text{background:#f6f6f6;padding:.6em;white-space:pre-wrap;font-size:.85em;"
    "max-height:60vh;overflow:auto}.key span{display:inline-block;width:.9em;height:.9em;"
    "border-radius:50%;vertical-align:middle;margin:0 .2em 0 .8em}"
    "small{color:#666}code{word-break:break-all}"
    "#list{max-height:40vh;overflow:auto;font-size:.85em;padding-left:2.5em}"
    "#list li.cur{font-weight:bold;background:#fff3b0}#list a{text-decoration:none}"
    "#digits button{min-width:2em;margin:0 .1em}#digits button.on{background:#1f6fb4;color:#fff}"
    "#detail ul{font-size:.85em;margin:.2em 0}#detail summary{cursor:pointer}"
    ".fd{fill:none;stroke:#0a9396;stroke-width:2;stroke-dasharray:3 2}"
)

_PAGE_JS = r"""
(function(){
var D=JSON.parse(document.getElementById('data').textContent);
var S=D.steps,N=S.length,cur=0,digit=0,L=D.layout;
var layer=document.getElementById('layer'),counter=document.getElementById('counter');
var title=document.getElementById('title'),text=document.getElementById('text');
var detail=document.getElementById('detail'),filter=document.getElementById('filter');
var items=document.querySelectorAll('#list li');
function view(k){return k<N?S[k]:D.final;}
function drawFilter(){
  var s=view(cur),out='';
  if(digit){
    var sym=D.symbols[digit-1],cells=s.marks.split(',');
    for(var c=0;c<cells.length;c++){
      var x=L.margin+(c%L.n)*L.cell,y=L.margin+Math.floor(c/L.n)*L.cell;
      if(s.values.charAt(c)===sym){
        out+='<rect class="fd" x="'+(x+2)+'" y="'+(y+2)+'" width="'+(L.cell-4)+'" height="'+(L.cell-4)+'"/>';
      }else if(cells[c].indexOf(sym)>=0){
        out+='<circle class="fd" cx="'+(x+12*((digit-1)%L.sub)+6)+'" cy="'+(y+12*Math.floor((digit-1)/L.sub)+6)+'" r="6.5"/>';
      }
    }
  }
  filter.innerHTML=out;
}
function show(k){
  if(!N&&!D.final)return;
  cur=Math.max(0,Math.min(N,k));
  var s=view(cur);
  layer.innerHTML=s.layer;
  counter.textContent=cur<N?'Step '+(cur+1)+' / '+N:s.title;
  title.textContent=s.title;
  var body=s.text.split('\n').slice(1).join('\n');
  text.textContent=body;text.style.display=body?'':'none';
  detail.innerHTML=s.html||'';
  for(var i=0;i<items.length;i++)items[i].className=i===cur?'cur':'';
  document.body.setAttribute('data-step',String(cur+1));
  document.getElementById('prev').disabled=cur===0;
  document.getElementById('next').disabled=cur===N;
  drawFilter();
  if(history.replaceState)history.replaceState(null,'',location.pathname+location.search+'#step='+(cur+1));
}
function fromHash(){
  var m=/step=(\d+)/.exec(location.hash);
  return m?parseInt(m[1],10)-1:0;
}
document.getElementById('prev').onclick=function(){show(cur-1);};
document.getElementById('next').onclick=function(){show(cur+1);};
document.getElementById('first').onclick=function(){show(0);};
document.getElementById('last').onclick=function(){show(N-1);};
document.getElementById('end').onclick=function(){show(N);};
var dbs=document.querySelectorAll('#digits button');
for(var b=0;b<dbs.length;b++)dbs[b].onclick=function(){
  digit=parseInt(this.getAttribute('data-d'),10);
  for(var j=0;j<dbs.length;j++)dbs[j].className=dbs[j]===this?'on':'';
  drawFilter();
};
document.addEventListener('keydown',function(e){
  if(e.key==='ArrowRight'){show(cur+1);e.preventDefault();}
  else if(e.key==='ArrowLeft'){show(cur-1);e.preventDefault();}
  else if(e.key==='Home'){show(0);e.preventDefault();}
  else if(e.key==='End'){show(N-1);e.preventDefault();}
});
window.addEventListener('hashchange',function(){var k=fromHash();if(k!==cur)show(k);});
show(fromHash());
// ?keys=RRLN on load presses ArrowRight/ArrowLeft/Home/End (R/L/H/E) or clicks
// Next/Previous (N/P), in order, and ?digit=D picks digit D in the filter: how a
// headless browser test drives the page
var q=/[?&]keys=([RLHENP]+)/.exec(location.search);
if(q){var names={R:'ArrowRight',L:'ArrowLeft',H:'Home',E:'End'};
  q[1].split('').forEach(function(c){
    if(c==='N'||c==='P'){document.getElementById(c==='N'?'next':'prev').click();return;}
    document.dispatchEvent(new KeyboardEvent('keydown',{key:names[c],bubbles:true}));});}
var qd=/[?&]digit=(\d+)/.exec(location.search);
if(qd)document.querySelector('#digits button[data-d="'+qd[1]+'"]').click();
document.body.setAttribute('data-load-ms',String(Math.round(performance.now())));
})();
"""


def _json_for_script(obj: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` or ``<!--``)."""
    return json.dumps(obj, separators=(",", ":")).replace("<", "\\u003c")


def _summary(path: AnyPath) -> str:
    """The page's one-line summary: solved or not, and for an se path ER, EP, ED."""
    if path.solved:
        out = f"solved in {counted(len(path.steps), 'step')}"
    else:
        out = f"not solved: {counted(len(path.steps), 'step')}"
        if path.stopped:
            out += f" (stopped: {path.stopped})"
    if isinstance(path, SePath) and path.steps:
        run = path.run
        out += f"; ER {run.er:.1f}, EP {run.ep:.1f}, ED {run.ed:.1f}"
    return out


def _counts(path: AnyPath) -> dict[str, int]:
    if isinstance(path, SePath):
        counts: dict[str, int] = {}
        for s in path.steps:
            counts[s.technique] = counts.get(s.technique, 0) + 1
        return counts
    return path.technique_counts()


def html_page(
    path: AnyPath, *, include_path: bool = True, constraints: Sequence[Drawable] = ()
) -> str:
    """The self-contained HTML page of a path (inline CSS, SVG, JSON and script):
    the grid with the step drawn, the step's text, a list of the steps (click
    to jump), a digit filter, and the grid the path ends on; ``constraints``: a
    variant puzzle's, drawn on the grid (:func:`constraint_marks`)."""
    g = path.puzzle.geometry
    views = step_views(path)
    final = final_view(path)
    lay = _layout(g)
    data: dict[str, Any] = {
        "puzzle": path.puzzle.to_line(),
        "geometry": g.name,
        "steps": [v.to_dict() for v in views],
        "final": final.to_dict(),
        "layout": {"margin": MARGIN, "cell": lay.cell, "sub": lay.sub, "n": lay.n},
        "symbols": [symbol(d) for d in range(1, g.size + 1)],
    }
    if include_path:
        data["path"] = path.to_dict()
    summary = _summary(path)
    counts = ", ".join(f"{k} {v}" for k, v in _counts(path).items())
    marks = SE_MARKS if isinstance(path, SePath) else MARKS
    key = "".join(f'<span style="{m.swatch_css()}"></span>{html.escape(m.label)} ' for m in marks)
    side = lay.side
    if constraints:
        cm = constraint_marks(g, constraints)
        svg = (
            _svg_open(g, ' id="grid"', standalone=False, view=cm.view)
            + f"<style>{_STYLE}{_VARIANT_STYLE}</style>{frame_svg(g, cm.under)}"
            + f'<g id="layer"></g><g id="marks">{cm.over}</g><g id="filter"></g></svg>'
        )
    else:
        svg = (
            _svg_open(g, ' id="grid"', standalone=False)
            + f'<style>{_STYLE}</style>{frame_svg(g)}<g id="layer"></g><g id="filter"></g></svg>'
        )
    listing = "".join(
        f'<li><a href="#step={v.number}">{html.escape(v.title)}</a></li>' for v in [*views, final]
    )
    digits = '<button data-d="0" class="on">all</button>' + "".join(
        f'<button data-d="{d}">{html.escape(symbol(d))}</button>' for d in range(1, g.size + 1)
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>csp-sudoku explain: {html.escape(path.puzzle.to_line())}</title>"
        f'<meta name="viewport" content="width=device-width"><style>{_PAGE_CSS}</style>'
        '</head><body data-step="0">'
        f"<div><b>Puzzle</b> <code>{html.escape(path.puzzle.to_line())}</code> "
        f"<small>({html.escape(g.name)}; {html.escape(summary)}"
        f"{': ' + html.escape(counts) if counts else ''})</small></div>"
        '<div id="nav" style="margin:.6em 0">'
        '<button id="first" title="Home">First</button>'
        '<button id="prev" title="ArrowLeft">&#x25C0; Previous</button>'
        '<button id="next" title="ArrowRight">Next &#x25B6;</button>'
        '<button id="last" title="End">Last</button>'
        f'<button id="end">{html.escape(final.title)}</button>'
        '<span id="counter"></span></div>'
        f'<div id="digits"><small>Candidates of digit:</small> {digits}</div>'
        f'<div id="wrap"><div style="width:{min(round(side * 1.6), 760)}px;max-width:95vw">{svg}</div>'
        '<div id="side"><div id="title"></div><pre id="text"></pre><div id="detail"></div>'
        f'<div class="key"><small>{key}</small></div>'
        "<p><small>Keys: &larr; / &rarr; previous / next, Home / End first / last step. "
        "The grid shows the pencil marks before the step.</small></p>"
        f'<ol id="list">{listing}</ol></div></div>'
        f'<script type="application/json" id="data">{_json_for_script(data)}</script>'
        f"<script>{_PAGE_JS}</script></body></html>\n"
    )


def write_html(
    path: AnyPath, target: str | os.PathLike[str], *, constraints: Sequence[Drawable] = ()
) -> Path:
    """Write :func:`html_page` to ``target`` (``constraints``: a variant puzzle's, drawn);
    the path written."""
    out = Path(target)
    write_text(out, html_page(path, constraints=constraints))
    return out


def classic_view(path: VariantPath) -> SolvePath:
    """The path as the classic explain page draws it (``explain_view.write_html``).

    Each step becomes a classic step whose technique line says what the
    variant step says; the page's pencil marks start from the geometry's
    peers, so the givens' digits removed from the constraints' peers come
    first as a step of their own (``constraint peers of the givens``).
    """
    from csp_sudoku.variants.explain import constraint_peers

    p = path.puzzle
    g = p.geometry
    values = [int(v) for v in p.puzzle.cells.tolist()]
    geo = [set(x.tolist()) for x in g.peers]
    start: list[tuple[int, int]] = []
    extra = constraint_peers(p)
    for cell, v in enumerate(values):
        if v:
            for q in sorted(extra[cell] - geo[cell]):
                if not values[q] and (q, v) not in start:
                    start.append((q, v))
    steps: list[Step] = []

    def step(technique: str, kind: str, placements: Any, elims: Any, cells: Any) -> Step:
        return Step(
            technique=technique,
            kind=kind,
            size=0,
            placements=tuple(tuple(x) for x in placements),
            eliminations=tuple(tuple(x) for x in elims),
            options=1,
            cells=tuple(cells),
        )

    if start:
        steps.append(step("constraint peers of the givens", "variant", (), sorted(start), ()))
    for s in path.steps:
        lines = s.describe(g)
        head = lines[0].split(": ", 1)
        title = f"{s.technique}: {head[1]}" if len(head) > 1 else s.technique
        if s.kind == "single":  # the page's line adds the placement itself
            title = f"{s.technique} ({s.why})"
        kind = "single" if s.kind == "single" else "variant"
        text = "\n".join([title, *(x.strip() for x in lines[1:])])
        steps.append(step(text, kind, s.placements, s.eliminations, s.cells))
    final = np.array(path.values, dtype=np.int8)
    return SolvePath(
        p.puzzle,
        steps,
        solved=path.solved,
        contradiction=path.contradiction,
        techniques=("variant",),
        final=final,
        stopped=path.stopped,
    )
