"""``explain --svg DIR`` of a variant puzzle: one image a step, read back as XML.

Each image is parsed, and its layout (the grid's margin and cell size) is read
off its own frame, the grid's outline. Then:

* **the constraints**: every constraint has marks (``vI-ROLE-K``) on every
  image, the same on all, and they sit on the cells of the f-puzzles object
  (positions computed here from the cell names): every point of a mark inside
  its constraint's cells, a line through the centres of its cells in order, a
  dot on the edge between its two cells, a clue outside the grid, a global
  rule's note under it; the marks under the grid's lines come before them, the
  cages and dots after the step's layer;
* **the step**: the shaded cells, the green discs (placements) and the red
  discs (eliminations), each disc read as the cell it lies in and the candidate
  digit drawn on it, are exactly the step of the JSON path that the same run
  printed;
* **the grid before the step**: the digits drawn are the givens and the
  placements of the earlier steps, and no candidate drawn was eliminated
  before;
* **an independent check**: every placement is the digit of every solution,
  every elimination a digit of none, and every empty cell shows its solution's
  digit; the solutions come from this folder's own brute force over the 4x4
  grids, or from CP-SAT judged by ``tests/independent_variants.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles
from csp_sudoku.tools.explain_view import classic_view, write_svgs
from csp_sudoku.variants.explain import explain
from tests.test_variant_explain import (
    CASES,
    HAND_4X4,
    SEVERAL,
    brute_solutions,
    cpsat_solutions,
    random_4x4,
)
from tests.test_variant_explain_view import SVG, Page, cells, near, points, same_points, text_at

Candidate = tuple[int, int]


class Image(Page):
    """One step's image as XML, its layout read off the grid's outline."""

    def __init__(self, text: str, n: int) -> None:
        self.svg_text = text
        self.root = ET.fromstring(text)
        assert self.root.tag == f"{SVG}svg"
        (frame,) = [
            e
            for e in self.root
            if e.tag == f"{SVG}rect" and e.attrib.get("fill") == "none" and "stroke" in e.attrib
        ]
        self.n = n
        self.margin = float(frame.attrib["x"])
        self.cell = float(frame.attrib["width"]) / n
        assert float(frame.attrib["y"]) == self.margin
        x, y, w, h = (float(v) for v in self.root.attrib["viewBox"].split())
        self.view = (x, y, x + w, y + h)

    def cell_at(self, x: float, y: float) -> int:
        """The cell (row-major index) a point lies in."""
        c, r = int((x - self.margin) // self.cell), int((y - self.margin) // self.cell)
        assert 0 <= r < self.n and 0 <= c < self.n, (x, y)
        return int(r * self.n + c)

    def glyphs(self, cls: str) -> list[tuple[float, float, str]]:
        """Every glyph of the texts of class ``cls`` (a text puts glyph i at x[i])."""
        out: list[tuple[float, float, str]] = []
        for e in self.root.iter(f"{SVG}text"):
            if e.attrib.get("class") == cls:
                xs = [float(v) for v in e.attrib["x"].split()]
                assert len(xs) == len(e.text or "")
                out.extend(
                    (x, float(e.attrib["y"]), ch) for x, ch in zip(xs, e.text or "", strict=True)
                )
        return out

    def digits(self) -> dict[int, int]:
        """The digits drawn in the cells: the givens (bold) and the placed ones."""
        out: dict[int, int] = {}
        for cls in ("g", "v"):
            for x, y, ch in self.glyphs(cls):
                cell = self.cell_at(x, y)
                assert cell not in out
                out[cell] = int(ch)
        return out

    def candidates(self) -> set[Candidate]:
        return {(self.cell_at(x, y), int(ch)) for x, y, ch in self.glyphs("c")}

    def shaded(self) -> set[int]:
        """The step's cells: the layer's shaded squares (class ``h``)."""
        return {
            self.cell_at(float(e.attrib["x"]) + 1, float(e.attrib["y"]) + 1)
            for e in self.root.iter(f"{SVG}rect")
            if e.attrib.get("class") == "h"
        }

    def discs(self, cls: str) -> set[Candidate]:
        """The candidates on discs of class ``cls``: the disc's cell, and the digit of
        the candidate glyph drawn on it (the nearest of that cell, within the disc)."""
        glyphs = self.glyphs("c")
        out = set()
        for e in self.root.iter(f"{SVG}circle"):
            if e.attrib.get("class") != cls:
                continue
            cx, cy, r = (float(e.attrib[k]) for k in ("cx", "cy", "r"))
            cell = self.cell_at(cx, cy)
            mine = [
                (abs(x - cx) + abs(y - cy), ch) for x, y, ch in glyphs if self.cell_at(x, y) == cell
            ]
            dist, ch = min(mine)
            assert dist <= r, (cx, cy, ch)
            out.add((cell, int(ch)))
        return out

    def marks_xml(self, prefix: str) -> list[bytes]:
        return [ET.tostring(e) for e in self.marks(prefix)]


def images(folder: Path, n: int) -> list[Image]:
    files = sorted(folder.glob("*.svg"))
    assert [f.name for f in files] == [f"step-{k:03d}.svg" for k in range(1, len(files) + 1)]
    return [Image(f.read_text(encoding="utf-8"), n) for f in files]


def pairs(items: list[list[int]]) -> set[Candidate]:
    return {(int(c), int(d)) for c, d in items}


def check_images(
    data: dict[str, Any], got: dict[str, Any], pics: list[Image], sols: list[tuple[int, ...]]
) -> None:
    """Hold the images against the JSON path ``got`` and against the solutions ``sols``."""
    n = data["size"]
    steps = got["steps"]
    givens = {k: int(ch) for k, ch in enumerate(got["puzzle"]) if ch not in ".0"}
    extra = len(pics) - len(steps)
    assert extra in (0, 1)
    shown: list[dict[str, Any]] = []
    if extra:  # first, the givens' digits leave their constraints' peers
        removed = pics[0].discs("el")
        assert removed and givens and {d for _, d in removed} <= set(givens.values())
        shown.append({"placements": [], "eliminations": sorted(removed), "cells": []})
    placed = dict(givens)
    gone: set[Candidate] = set()
    for pic, step in zip(pics, shown + steps, strict=True):
        # the step, exactly as the JSON path gives it
        assert pic.discs("pl") == pairs(step["placements"])
        assert pic.discs("el") == pairs(step["eliminations"])
        assert pic.shaded() == set(step["cells"])
        # the grid before the step
        assert pic.digits() == placed
        drawn = pic.candidates()
        assert not drawn & gone
        assert all(c not in placed for c, _ in drawn)
        for s in sols:  # the solutions' digits are still there
            assert all(s[c] == v for c, v in placed.items())
            assert all((c, s[c]) in drawn for c in range(n * n) if c not in placed)
        # the step itself, against every solution
        for c, d in pairs(step["placements"]):
            assert all(s[c] == d for s in sols)
            placed[c] = d
        for c, d in pairs(step["eliminations"]):
            assert all(s[c] != d for s in sols)
            gone.add((c, d))
    # the constraints: on every image, the same (a path with no step has no image)
    for i in range(len(got["constraints"]) if pics else 0):
        first = pics[0].marks_xml(f"v{i}-")
        assert first, got["constraints"][i]
        assert all(p.marks_xml(f"v{i}-") == first for p in pics[1:])


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def explain_svg(folder: Path, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None, str]:
    """``explain FILE --json --svg DIR`` of one f-puzzles object: exit code, JSON, stderr."""
    f = folder / "p.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_cli("explain", str(f), "--json", "--svg", str(folder / "svg"))
    return code, (json.loads(out) if out.strip() else None), err


# ------------------------------------------------------------------ the steps
def empty(n: int) -> list[list[dict[str, Any]]]:
    return [[{} for _ in range(n)] for _ in range(n)]


def test_the_docs_4x4_through_the_cli(tmp_path: Path) -> None:
    data = {"size": 4, "grid": empty(4), **HAND_4X4["thermo, killer, xv"]}
    sols = brute_solutions(data)
    assert len(sols) == 1
    code, got, _ = explain_svg(tmp_path, data)
    assert code == 0 and got is not None and got["solved"]
    check_images(data, got, images(tmp_path / "svg", 4), sols)


@pytest.mark.parametrize("label", ["killercage:unique", "antiknight:unique", "diagonal+:unique"])
def test_the_makers_9x9_steps(tmp_path: Path, label: str) -> None:
    data = dict(CASES)[label]
    sols = cpsat_solutions(data)
    assert len(sols) == 1
    code, got, _ = explain_svg(tmp_path, data)
    assert code == 0 and got is not None
    pics = images(tmp_path / "svg", 9)
    check_images(data, got, pics, sols)


def test_a_refutation_and_a_subset_step_are_drawn(tmp_path: Path) -> None:
    """The anti-knight puzzle's path has both, and the first image the givens' removals."""
    data = dict(CASES)["antiknight:unique"]
    code, got, _ = explain_svg(tmp_path, data)
    assert code == 0 and got is not None
    kinds = {s["kind"] for s in got["steps"]}
    assert {"refutation", "subset"} <= kinds
    pics = images(tmp_path / "svg", 9)
    assert len(pics) == len(got["steps"]) + 1 and pics[0].discs("el")
    k = next(i for i, s in enumerate(got["steps"]) if s["kind"] == "refutation")
    assert pics[k + 1].discs("el") == pairs(got["steps"][k]["eliminations"])


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_4x4_through_the_cli(seed: int) -> None:
    """A unique puzzle is drawn step by step; one with several solutions draws nothing."""
    data = random_4x4(seed)
    sols = brute_solutions(data)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        code, got, err = explain_svg(folder, data)
        if len(sols) != 1:
            assert code == 1 and got is None and "more than one solution" in err
            assert not (folder / "svg").exists()
            return
        assert got is not None and code == (0 if got["solved"] else 1)
        check_images(data, got, images(folder / "svg", 4), sols)


def check_library(data: dict[str, Any]) -> None:
    """``write_svgs`` of any path (one that stops needing a guess too) against every solution."""
    sols = brute_solutions(data)
    puzzle = from_fpuzzles(data)
    path = explain(puzzle)
    with tempfile.TemporaryDirectory() as tmp:
        write_svgs(classic_view(path), tmp, constraints=puzzle.constraints)
        check_images(data, path.to_dict(), images(Path(tmp), 4), sols)


@pytest.mark.parametrize("name", sorted(HAND_4X4))
def test_hand_made_4x4_through_the_library(name: str) -> None:
    check_library({"size": 4, "grid": empty(4), **HAND_4X4[name]})


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_4x4_through_the_library(seed: int) -> None:
    check_library(random_4x4(seed))


# ------------------------------------------------------------------ the constraints
#: one constraint of every drawn shape, each kind once (a constraint's kind names its entry)
ONE_EACH: dict[str, Any] = {
    "size": 9,
    "grid": empty(9),
    "killercage": [{"cells": ["R1C4", "R1C5", "R2C5"], "value": "10"}],
    "thermometer": [{"lines": [["R4C1", "R4C2", "R5C2"]]}],
    "arrow": [{"cells": ["R6C8"], "lines": [["R6C8", "R7C8", "R8C7"]]}],
    "difference": [{"cells": ["R9C1", "R9C2"]}],
    "ratio": [{"cells": ["R8C4", "R9C4"]}],
    "xv": [{"cells": ["R2C8", "R2C9"], "value": "V"}],
    "renban": [{"lines": [["R5C5", "R5C6", "R6C6"]]}],
    "odd": [{"cell": "R3C3"}],
    "even": [{"cell": "R7C3"}],
    "littlekillersum": [
        {"cells": ["R9C2", "R8C1"], "value": "9", "cell": "R10C3", "direction": "UL"}
    ],
    "extraregion": [{"cells": ["R1C1", "R2C2"]}],
    "antiking": True,
}


def entry_cells(entry: Any) -> list[tuple[int, int]]:
    """The cells of an f-puzzles entry: a line's, in order, or the cell list."""
    if "lines" in entry:
        return cells(entry["lines"][0])
    return cells(entry["cells"] if "cells" in entry else [entry["cell"]])


def mark_points(e: ET.Element) -> list[tuple[float, float]]:
    if e.tag == f"{SVG}path":
        return points(e)
    if e.tag == f"{SVG}circle":
        return [(float(e.attrib["cx"]), float(e.attrib["cy"]))]
    return [text_at(e)]


def test_every_constraint_sits_on_its_cells(tmp_path: Path) -> None:
    puzzle = from_fpuzzles(ONE_EACH)
    kinds = [c.kind for c in puzzle.constraints]
    assert sorted(kinds) == sorted(k for k in ONE_EACH if k not in ("size", "grid"))
    path = explain(puzzle, max_steps=3)
    write_svgs(classic_view(path), tmp_path, constraints=puzzle.constraints)
    pics = images(tmp_path, 9)
    assert len(pics) == 3
    for pic in pics:
        x0, y0, x1, y1 = pic.view
        grid_end = pic.margin + 9 * pic.cell
        for i, kind in enumerate(kinds):
            marks = pic.marks(f"v{i}-")
            assert marks, kind
            for e in marks:  # every mark inside the picture
                assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in mark_points(e)), kind
            if kind == "antiking":
                (note,) = marks
                assert "king" in (note.text or "") and text_at(note)[1] > grid_end
                continue
            own = entry_cells(ONE_EACH[kind][0])
            if kind == "littlekillersum":
                (clue,) = pic.marks(f"v{i}-clue")
                assert clue.text == "9" and text_at(clue)[1] > grid_end
                continue
            for e in marks:  # on the constraint's cells
                for p in mark_points(e):
                    assert any(pic.inside(p, c) for c in own), (kind, e.attrib["id"], p)
            if kind in ("thermometer", "renban"):
                (line,) = pic.marks(f"v{i}-line")
                assert same_points(points(line), [pic.centre(c) for c in own])
            if kind in ("difference", "ratio"):
                (dot,) = pic.marks(f"v{i}-dot")
                (ax, ay), (bx, by) = (pic.centre(c) for c in own)
                at = (float(dot.attrib["cx"]), float(dot.attrib["cy"]))
                assert near(at, ((ax + bx) / 2, (ay + by) / 2))
            if kind == "odd":
                (ring,) = marks
                assert near(mark_points(ring)[0], pic.centre(own[0]))
        # the layers: under the grid's lines, or over the step's marks
        children = list(pic.root)
        lines = next(k for k, e in enumerate(children) if e.attrib.get("class") == "tn")
        *_, layer, over = children
        therm = kinds.index("thermometer")
        assert all(m in children[:lines] for m in pic.marks(f"v{therm}-"))
        cage = kinds.index("killercage")
        assert {ET.tostring(m) for m in over} >= set(pic.marks_xml(f"v{cage}-"))
        assert not any(e.attrib.get("id", "").startswith("v") for e in layer.iter())


def test_a_classic_svg_is_unchanged(tmp_path: Path) -> None:
    """A plain puzzle's images have no constraint marks (and the same frame as before)."""
    line = "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6....."
    code, _, _ = run_cli("explain", line, "--order", "subsets", "--svg", str(tmp_path))
    assert code == 0
    pics = images(tmp_path, 9)
    assert pics and not any('id="v' in p.svg_text for p in pics)
    assert all(p.view == (0, 0, 2 * p.margin + 9 * p.cell, 2 * p.margin + 9 * p.cell) for p in pics)


# ------------------------------------------------------------------ bad input
def test_svg_into_a_file_is_refused(tmp_path: Path) -> None:
    data = dict(CASES)["killercage:unique"]
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    target = tmp_path / "taken"
    target.write_text("a file", encoding="utf-8")
    code, out, err = run_cli("explain", str(f), "--svg", str(target))
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"--svg {target}: is a file" in err
    assert target.read_text(encoding="utf-8") == "a file"


def test_svg_takes_one_puzzle(tmp_path: Path) -> None:
    good = dict(CASES)["killercage:unique"]
    f = tmp_path / "p.jsonl"
    f.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    code, _, err = run_cli("explain", str(f), "--svg", str(tmp_path / "svg"))
    assert code == 2 and "--svg takes one puzzle" in err and "holds 2" in err
    assert not (tmp_path / "svg").exists()
    # an indented JSON object is one document: two would be neither JSON nor JSON Lines
    code, out, err = run_cli("explain", str(f), "--json", "--indent", "2")
    assert code == 2 and out == "" and "--indent takes one puzzle" in err


def test_several_solutions_draw_nothing(tmp_path: Path) -> None:
    code, got, err = explain_svg(tmp_path, SEVERAL["thermometer"])
    assert code == 1 and got is None and "more than one solution" in err
    assert not (tmp_path / "svg").exists()


def test_a_second_run_leaves_only_its_own_steps(tmp_path: Path) -> None:
    """Step files of an earlier, longer path in the folder are removed."""
    folder = tmp_path / "svg"
    folder.mkdir()
    for k in range(1, 400):
        (folder / f"step-{k:03d}.svg").write_text("old", encoding="utf-8")
    (folder / "notes.txt").write_text("kept", encoding="utf-8")
    data = {"size": 4, "grid": empty(4), **HAND_4X4["thermo, killer, xv"]}
    code, got, _ = explain_svg(tmp_path, data)
    assert code == 0 and got is not None
    assert len(images(folder, 4)) == len(got["steps"])
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "kept"
