"""Rendering: well-formed PNG, SVG and PDF for every geometry."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from csp_sudoku.cli import main
from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.render import (
    RenderError,
    region_labels,
    render_book,
    render_puzzle,
)

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
#: A staircase jigsaw: each band's three regions shift one column per row.
JIGSAW = [(r // 3) * 3 + ((c + r % 3) // 3) % 3 for r in range(9) for c in range(9)]


def _some(geometry: Geometry) -> Puzzle:
    n = geometry.size
    cells = np.zeros(geometry.ncells, np.int8)
    cells[[i * n + i for i in range(n)]] = np.arange(1, n + 1)
    return Puzzle(cells, geometry)


CASES = {
    "9x9": parse_line(EASY),
    "16x16": _some(Geometry.standard(16)),
    "jigsaw": _some(Geometry.jigsaw(JIGSAW)),
    "x": _some(Geometry.x_sudoku(9)),
    "windoku": _some(Geometry.windoku()),
}


def _png_ok(path: Path) -> np.ndarray:
    from matplotlib.image import imread

    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = imread(path)
    assert img.ndim == 3 and img.shape[0] > 300 and img.shape[1] > 300
    return img


def _pdf_pages(path: Path) -> int:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    return data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") + data.count(b"/Type /Page>")


@pytest.mark.parametrize("name", list(CASES))
def test_each_geometry_in_each_format(tmp_path: Path, name: str) -> None:
    puzzle = CASES[name]
    img = _png_ok(render_puzzle(puzzle, tmp_path / f"{name}.png", title=name))
    dark = (img[..., :3].mean(axis=2) < 0.3).mean()
    assert 0.01 < dark < 0.5  # lines and digits, not a blank or black page
    svg = render_puzzle(puzzle, tmp_path / f"{name}.svg")
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert _pdf_pages(render_puzzle(puzzle, tmp_path / f"{name}.pdf")) == 1


def test_thick_borders_follow_the_jigsaw_regions(tmp_path: Path) -> None:
    g = Geometry.jigsaw(JIGSAW)
    labels = region_labels(g).reshape(9, 9)
    assert labels[0, 2] != labels[0, 3] and labels[1, 1] != labels[1, 2]
    img = _png_ok(render_puzzle(Puzzle(np.zeros(81, np.int8), g), tmp_path / "j.png", size=4.5))
    gray = img[..., :3].mean(axis=2)
    # the grid spans the middle of the square page; sample the border between
    # columns 2|3 (thick in row 0) and 1|2 (thin in row 0, thick in row 1)
    dark_rows = np.flatnonzero((gray < 0.2).mean(axis=1) > 0.5)
    top, bottom = dark_rows.min(), dark_rows.max()
    dark_cols = np.flatnonzero((gray < 0.2).mean(axis=0) > 0.5)
    left, right = dark_cols.min(), dark_cols.max()
    cell = (right - left) / 9

    def darkness(col_boundary: int, row: int) -> int:
        x = round(left + col_boundary * cell)
        y = round(top + (row + 0.5) * (bottom - top) / 9)
        return int((gray[y, x - 4 : x + 5] < 0.35).sum())

    assert darkness(3, 0) > darkness(2, 0)
    assert darkness(2, 1) > darkness(2, 0)


def test_book_with_solution_pages(tmp_path: Path) -> None:
    puzzles = [parse_line(EASY)] * 7
    (pdf,) = render_book(puzzles, tmp_path / "book.pdf", solutions=True, title="Book")
    assert _pdf_pages(pdf) == 4  # 2 pages of puzzles, 2 of solutions (6 a page)
    svgs = render_book(puzzles[:2], tmp_path / "sheet.svg", solutions=True)
    assert [p.name for p in svgs] == ["sheet-1.svg", "sheet-2.svg"]
    for p in svgs:
        ET.parse(p)
    with pytest.raises(RenderError):
        render_book([], tmp_path / "none.pdf")
    with pytest.raises(SudokuError):
        render_puzzle(puzzles[0], tmp_path / "x.bmp")


def test_cli_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text(EASY + "\n" + EASY + "\n")
    out = tmp_path / "out.pdf"
    assert main(["render", str(src), "-o", str(out), "--solutions", "--per-page", "2"]) == 0
    assert _pdf_pages(out) == 2
    assert str(out) in capsys.readouterr().out
