"""Solve paths you can look at: one SVG per step, and a self-contained HTML page.

Each step is drawn as the pencil-mark grid *before* the step: the clues in
bold, digits placed by earlier steps in blue, the candidates of every empty
cell as small digits. On top of it the step is marked:

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
shows (``explain --html FILE``).
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import symbol, write_text
from csp_sudoku.encodings.exact_cover import exact_cover
from csp_sudoku.human.chains import Chain
from csp_sudoku.human.path import SolvePath, Step, describe_step
from csp_sudoku.tools.render import _is_diagonal, region_labels

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

_STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,sans-serif;text-anchor:middle}"
    ".c{font-size:10px;fill:#555}.g{font-weight:bold;fill:#000}.v{fill:#1f5fa8}"
    ".lb{font-size:10px;fill:#888}.n{font-size:7px;font-weight:bold}"
    ".tn{stroke:#999;stroke-width:.6}.tk{stroke:#000;stroke-width:2}"
    ".st{stroke:#c00;stroke-width:1.2}"
    + "".join(m.css() for m in MARKS)
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


def frame_svg(g: Geometry) -> str:
    """The grid lines and row/column labels of a geometry (no digits)."""
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
    for i, link in enumerate(links):
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
            if par.cell < 0:
                continue
            px, py = lay.centre(par.cell, par.digit)
            dx, dy = cx - px, cy - py
            dist = math.hypot(dx, dy)
            if dist < 1:
                continue
            ux, uy = dx / dist, dy / dist
            # bend the arrow a little so that arrows along one row stay apart
            mx, my = (px + cx) / 2 - uy * dist * 0.12, (py + cy) / 2 + ux * dist * 0.12
            sx, sy = px + ux * 6, py + uy * 6
            ex, ey = cx - ux * 7, cy - uy * 7
            parts.append(f"<path d='M{sx:.0f} {sy:.0f}Q{mx:.0f} {my:.0f} {ex:.0f} {ey:.0f}'/>")


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
    cs = lay.cell
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
    for cell, cls in sorted(cell_class.items()):
        x, y = lay.corner(cell)
        out.append(f"<rect class='{cls}' x='{x}' y='{y}' width='{cs}' height='{cs}'/>")
    for cell, d in step.placements:
        disc[(cell, d)] = "pl"
    for cell, d in step.eliminations:
        disc[(cell, d)] = "el"
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
    for cell, d in step.eliminations:
        if d in cands[cell]:
            cx, cy = lay.centre(cell, d)
            out.append(f"<path class='st' d='M{cx - 5} {cy + 5}l10 -10'/>")
    if step.kind == "chain":
        groups: list[str] = []
        rings: list[str] = []
        for i, chain in enumerate(step.chains):
            parts: list[str] = []
            _chain_layer(lay, chain, parts, rings)
            groups.append(f"<g class='k{i % len(BRANCH_COLOURS)}'>{''.join(parts)}</g>")
        out.extend(rings)
        out.extend(groups)
    return "".join(out)


def _svg_open(g: Geometry, extra: str = "", *, standalone: bool = True) -> str:
    side = _layout(g).side
    # inside HTML the parser puts <svg> in the SVG namespace: no xmlns (no URL) needed
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    return f'<svg{ns} viewBox="0 0 {side} {side}" width="{side}" height="{side}"{extra}>'


def step_svg(g: Geometry, frame: str, layer: str) -> str:
    """A standalone SVG image: the style, the frame and one step's layer."""
    return f"{_svg_open(g)}<style>{_STYLE}</style>{frame}<g>{layer}</g></svg>\n"


@dataclass(frozen=True)
class StepView:
    """What the page shows for one step."""

    number: int
    title: str
    text: str
    marks: str  # the candidates before the step, one entry per cell, ``,``-separated
    values: str  # the grid before the step as one line (``.`` for empty)
    layer: str  # the step's SVG layer


def step_views(path: SolvePath) -> list[StepView]:
    """The view of every step of a path, in order."""
    g = path.puzzle.geometry
    ec = exact_cover(g)
    givens = [int(v) for v in path.puzzle.cells.tolist()]
    states = pencil_marks(path)
    views: list[StepView] = []
    for i, step in enumerate(path.steps):
        values, cands = states[i]
        text = describe_step(path.puzzle, step, i + 1)
        views.append(
            StepView(
                number=i + 1,
                title=text.split("\n", 1)[0],
                text=text,
                marks=",".join("".join(symbol(d) for d in sorted(s)) for s in cands),
                values="".join(symbol(v) if v else "." for v in values),
                layer=step_layer(g, step, values, cands, givens, ec),
            )
        )
    return views


def write_svgs(path: SolvePath, directory: str | os.PathLike[str]) -> list[Path]:
    """One SVG per step, ``step-001.svg``, ... in ``directory`` (created); the files written.

    Every page is drawn before the first is written, and each is written whole
    (:func:`~csp_sudoku.core.io.write_text`); then the step files of an earlier run
    in ``directory`` (``step-*.svg``) that this path does not have are removed, so
    the folder holds this path's steps and nothing else of that name.
    """
    out_dir = Path(directory)
    g = path.puzzle.geometry
    frame = frame_svg(g)
    width = max(3, len(str(len(path.steps))))
    pages = {
        out_dir / f"step-{view.number:0{width}d}.svg": step_svg(g, frame, view.layer)
        for view in step_views(path)
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for f, text in pages.items():
        write_text(f, text)
    for stale in out_dir.glob("step-*.svg"):
        if stale not in pages:
            stale.unlink()
    return list(pages)


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
)

_PAGE_JS = r"""
(function(){
var D=JSON.parse(document.getElementById('data').textContent);
var S=D.steps,N=S.length,cur=0;
var layer=document.getElementById('layer'),counter=document.getElementById('counter');
var title=document.getElementById('title'),text=document.getElementById('text');
function show(k){
  if(!N)return;
  cur=Math.max(0,Math.min(N-1,k));
  var s=S[cur];
  layer.innerHTML=s.layer;
  counter.textContent='Step '+(cur+1)+' / '+N;
  title.textContent=s.title;
  var body=s.text.split('\n').slice(1).join('\n');
  text.textContent=body;text.style.display=body?'':'none';
  document.body.setAttribute('data-step',String(cur+1));
  document.getElementById('prev').disabled=cur===0;
  document.getElementById('next').disabled=cur===N-1;
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
document.addEventListener('keydown',function(e){
  if(e.key==='ArrowRight'){show(cur+1);e.preventDefault();}
  else if(e.key==='ArrowLeft'){show(cur-1);e.preventDefault();}
  else if(e.key==='Home'){show(0);e.preventDefault();}
  else if(e.key==='End'){show(N-1);e.preventDefault();}
});
window.addEventListener('hashchange',function(){var k=fromHash();if(k!==cur)show(k);});
show(fromHash());
// ?keys=RRLN on load presses ArrowRight/ArrowLeft/Home/End (R/L/H/E) or clicks
// Next/Previous (N/P), in order: how a headless browser test drives the page
var q=/[?&]keys=([RLHENP]+)/.exec(location.search);
if(q){var names={R:'ArrowRight',L:'ArrowLeft',H:'Home',E:'End'};
  q[1].split('').forEach(function(c){
    if(c==='N'||c==='P'){document.getElementById(c==='N'?'next':'prev').click();return;}
    document.dispatchEvent(new KeyboardEvent('keydown',{key:names[c],bubbles:true}));});}
document.body.setAttribute('data-load-ms',String(Math.round(performance.now())));
})();
"""


def _json_for_script(obj: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` or ``<!--``)."""
    return json.dumps(obj, separators=(",", ":")).replace("<", "\\u003c")


def html_page(path: SolvePath, *, include_path: bool = True) -> str:
    """The self-contained HTML page of a path (inline CSS, SVG, JSON and script)."""
    g = path.puzzle.geometry
    views = step_views(path)
    data: dict[str, Any] = {
        "puzzle": path.puzzle.to_line(),
        "geometry": g.name,
        "steps": [
            {
                "number": v.number,
                "title": v.title,
                "text": v.text,
                "marks": v.marks,
                "values": v.values,
                "layer": v.layer,
            }
            for v in views
        ],
    }
    if include_path:
        data["path"] = path.to_dict()
    if path.solved:
        summary = f"solved in {len(path.steps)} steps"
    else:
        summary = f"not solved: {len(path.steps)} steps"
        if path.stopped:
            summary += f" (stopped: {path.stopped})"
    counts = ", ".join(f"{k} {v}" for k, v in path.technique_counts().items())
    key = "".join(f'<span style="{m.swatch_css()}"></span>{html.escape(m.label)} ' for m in MARKS)
    side = _layout(g).side
    svg = (
        _svg_open(g, ' id="grid"', standalone=False)
        + f'<style>{_STYLE}</style>{frame_svg(g)}<g id="layer"></g></svg>'
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
        '<span id="counter"></span></div>'
        f'<div id="wrap"><div style="width:{min(round(side * 1.6), 760)}px;max-width:95vw">{svg}</div>'
        '<div id="side"><div id="title"></div><pre id="text"></pre>'
        f'<div class="key"><small>{key}</small></div>'
        "<p><small>Keys: &larr; / &rarr; previous / next, Home / End first / last. "
        "The grid shows the pencil marks before the step.</small></p></div></div>"
        f'<script type="application/json" id="data">{_json_for_script(data)}</script>'
        f"<script>{_PAGE_JS}</script></body></html>\n"
    )


def write_html(path: SolvePath, target: str | os.PathLike[str]) -> Path:
    """Write :func:`html_page` to ``target``; the path written."""
    out = Path(target)
    write_text(out, html_page(path))
    return out
