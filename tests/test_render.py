"""Rendering: well-formed PNG, SVG and PDF for every geometry; books read back with pypdf."""

from __future__ import annotations

import contextlib
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
    PER_PAGE_RANGE,
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


def test_a_book_replaces_the_pages_of_an_earlier_one(tmp_path: Path) -> None:
    """A book of 3 pages written over one of 8 left pages 4 to 8 beside it, so
    book-*.svg mixed two books; files not of that run of numbers stay."""
    puzzles = [parse_line(EASY)] * 13
    other = tmp_path / "book-10.svg"  # not in the unbroken run: not the old book's
    other.write_text("mine")

    def pages() -> set[str]:
        return {p.name for p in tmp_path.glob("book*.svg")}

    render_book(puzzles * 3, tmp_path / "book.svg", per_page=6)  # 7 pages
    assert pages() == {*(f"book-{k}.svg" for k in range(1, 8)), "book-10.svg"}
    render_book(puzzles, tmp_path / "book.svg", per_page=6)  # 3 pages
    assert pages() == {"book-1.svg", "book-2.svg", "book-3.svg", "book-10.svg"}
    render_book(puzzles[:1], tmp_path / "book.svg")  # one page: book.svg itself
    assert pages() == {"book.svg", "book-10.svg"}
    render_book(puzzles, tmp_path / "book.svg", per_page=6)
    assert pages() == {"book-1.svg", "book-2.svg", "book-3.svg", "book-10.svg"}
    assert other.read_text() == "mine"


def test_cli_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text(EASY + "\n" + EASY + "\n")
    out = tmp_path / "out.pdf"
    assert main(["render", str(src), "-o", str(out), "--solutions", "--per-page", "2"]) == 0
    assert _pdf_pages(out) == 2
    assert str(out) in capsys.readouterr().out


def test_solution_pages_need_puzzles_with_one_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A solution page of a puzzle with several solutions would show one of them
    as *the* solution: refused, and nothing is written."""
    several = parse_line("." * 81)
    none = parse_line("11" + "." * 79)
    for bad, how in ((several, "more than one solution"), (none, "no solution")):
        with pytest.raises(RenderError, match=how):
            render_book([parse_line(EASY), bad], tmp_path / "book.pdf", solutions=True)
    assert not (tmp_path / "book.pdf").exists()
    # the command line names each such puzzle by its file and line, as it does a
    # bad line, and draws the book of the others (exit 2), whatever the captions
    src = tmp_path / "in.txt"
    src.write_text(EASY + "\n" + "." * 81 + "\n" + "11" + "." * 79 + "\n" + EASY + "\n")
    out = tmp_path / "out.pdf"
    args = ["render", str(src), "-o", str(out), "--solutions", "--caption", "{clues} clues"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{src}:2: the puzzle has more than one solution" in err
    assert f"{src}:3: the puzzle has no solution" in err
    assert "0 clues" not in err
    pypdf = pytest.importorskip("pypdf")
    pages = [p.extract_text() for p in pypdf.PdfReader(out).pages]
    assert sum(t.count("30 clues") for t in pages) == 4  # two puzzles, two solutions
    assert main(["render", str(src), "-o", str(tmp_path / "all.svg")]) == 0  # no solution page


def test_per_page_range_is_the_same_for_the_cli_and_the_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.txt"
    src.write_text(EASY + "\n")
    lo, hi = PER_PAGE_RANGE
    assert main(["render", str(src), "-o", str(tmp_path / "a.svg"), "--per-page", str(hi)]) == 0
    assert main(["render", str(src), "-o", str(tmp_path / "b.svg"), "--per-page", str(hi + 1)]) == 2
    assert f"from {lo} to {hi}" in capsys.readouterr().err
    with pytest.raises(RenderError, match="per_page"):
        render_book([parse_line(EASY)], tmp_path / "c.svg", per_page=hi + 1)


# --- books from records: captions, cover, page numbers, fonts, dpi ----------------------

#: A ``generate``-style record and a ``rate``-style flat row of the same puzzle.
RECORD = {
    "puzzle": EASY,
    "clues": 30,
    "seed": 7,
    "ratings": {"se": {"score": 8.3, "level": "hard", "details": {"hardest": "X-Wing"}}},
}
RATE_ROW = {"puzzle": EASY, "metric": "rounds", "score": 5.0, "level": "Easy"}


def _pdf(path: Path) -> list[str]:
    """The text of every page, read back with pypdf."""
    pypdf = pytest.importorskip("pypdf")
    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def _write_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    import json

    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_default_caption_from_a_record() -> None:
    from csp_sudoku.tools.render import caption_fields, default_caption

    assert (
        default_caption(caption_fields(RECORD, 12)) == "12 \u00b7 hard \u00b7 se 8.3 \u00b7 X-Wing"
    )
    assert default_caption(caption_fields(RATE_ROW, 3)) == "3 \u00b7 Easy \u00b7 rounds 5"
    # CSV cells are text: numbers and JSON cells are decoded
    csv_row = {"metric": "oracle", "score": "2.345", "level": "medium", "clues": "25"}
    values = caption_fields(csv_row, 1)
    assert values["score"] == 2.345 and values["clues"] == 25
    assert default_caption(values) == "1 \u00b7 medium \u00b7 oracle 2.35"
    mdrt = {"ratings": '{"mdrt": {"score": 2, "level": "pairs", '
            '"details": {"hardest_techniques": ["naked pair", "hidden pair"]}}}'}  # fmt: skip
    assert default_caption(caption_fields(mdrt, 2)) == (
        "2 \u00b7 pairs \u00b7 mdrt 2 \u00b7 naked pair/hidden pair"
    )
    assert default_caption(caption_fields({}, 5)) == "5"  # a plain puzzle line


def test_cli_book_from_records(tmp_path: Path) -> None:
    """Captions come from the records, the title is on a cover page only, every
    page is numbered, the answer grids are smaller, and fonts are TrueType."""
    import matplotlib

    src = _write_jsonl(tmp_path / "book.jsonl", [RECORD, RATE_ROW, {"puzzle": EASY}])
    plain = tmp_path / "plain.txt"
    plain.write_text(EASY + "\n")
    out = tmp_path / "book.pdf"
    args = ["render", str(src), str(plain), "-o", str(out), "--solutions", "--title", "My Book"]
    assert main(args) == 0
    pages = _pdf(out)
    assert len(pages) == 3  # cover, puzzles, solutions
    assert "My Book" in pages[0] and "4 puzzles" in pages[0]
    assert sum(text.count("My Book") for text in pages) == 1  # the title once
    for k, text in enumerate(pages, start=1):
        assert f"page {k} of 3" in text
    lines = pages[1].splitlines()
    assert "1 \u00b7 hard \u00b7 se 8.3 \u00b7 X-Wing" in lines
    assert "2 \u00b7 Easy \u00b7 rounds 5" in lines
    assert "3" in lines and "4" in lines  # no rating: the number alone
    assert "Solutions" in pages[2] and "1 \u00b7 hard \u00b7 se 8.3 \u00b7 X-Wing" in pages[2]
    assert matplotlib.rcParams["pdf.fonttype"] == 3  # set for the book only, not globally

    # fonts: TrueType (Type0 over CIDFontType2), never Type 3
    import pypdf

    reader = pypdf.PdfReader(out)
    kinds: set[str] = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            kinds.add(str(font["/Subtype"]))
            for sub in font.get("/DescendantFonts", []):
                kinds.add(str(sub.get_object()["/Subtype"]))
    assert kinds and "/Type3" not in kinds
    assert kinds <= {"/TrueType", "/Type0", "/CIDFontType2"}
    assert b"/Type3" not in out.read_bytes()

    # answer grids are smaller: the largest digit on a solution page is smaller
    def largest_digit(page: object) -> float:
        sizes = [0.0]

        def visit(text: str, cm: object, tm: object, font: object, size: float) -> None:
            if len(text.strip()) == 1 and text.strip().isdigit():
                sizes.append(size)

        page.extract_text(visitor_text=visit)  # type: ignore[attr-defined]
        return max(sizes)

    assert largest_digit(reader.pages[2]) < 0.8 * largest_digit(reader.pages[1])


def test_cli_caption_format(tmp_path: Path) -> None:
    src = _write_jsonl(tmp_path / "r.jsonl", [RECORD, RECORD])
    out = tmp_path / "c.pdf"
    fmt = "No. {n}: {level} ({ratings[se][score]:.2f}, {clues} clues, seed {seed})"
    assert main(["render", str(src), "-o", str(out), "--caption", fmt]) == 0
    (text,) = _pdf(out)
    assert "No. 1: hard (8.30, 30 clues, seed 7)" in text
    assert "No. 2: hard (8.30, 30 clues, seed 7)" in text
    assert "page" not in text  # one page: no page number


@pytest.mark.parametrize(
    ("fmt", "says"),
    [
        ("{n} {nope}", "no field 'nope'"),
        ("{n", "expected '}'"),
        ("{level:.2f}", "bad --caption format"),
        ("{ratings[xx]}", "bad --caption format"),
        ("{n.real.x}", "bad --caption format"),
        # a width or precision no caption can hold: refused before matplotlib lays
        # out gigabytes of text (it took 13 GB and minutes, deaf to SIGTERM)
        ("{n:>100000000}", "asks for 100000000 characters; a caption has at most 1000"),
        ("{level:.2000}", "asks for 2000 characters"),
        ("{level}" * 300, "the caption of puzzle 1 has 1200 characters"),
    ],
)
def test_cli_bad_caption_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str, says: str
) -> None:
    src = _write_jsonl(tmp_path / "r.jsonl", [RECORD])
    out = tmp_path / "bad.pdf"
    assert main(["render", str(src), "-o", str(out), "--caption", fmt]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
    assert not out.exists()


def test_png_dpi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from matplotlib.image import imread

    src = tmp_path / "in.txt"
    src.write_text(EASY + "\n")
    low, high = tmp_path / "low.png", tmp_path / "high.png"
    assert main(["render", str(src), "-o", str(low), "--dpi", "60"]) == 0
    assert main(["render", str(src), "-o", str(high), "--dpi", "120"]) == 0
    w_low, w_high = imread(low).shape[1], imread(high).shape[1]
    assert abs(w_low - round(8.27 * 60)) <= 1 and abs(w_high - round(8.27 * 120)) <= 1
    assert main(["render", str(src), "-o", str(tmp_path / "x.png"), "--dpi", "20"]) == 2
    assert "50 to 1200" in capsys.readouterr().err
    with pytest.raises(RenderError, match="dpi"):
        render_book([parse_line(EASY)], tmp_path / "y.png", dpi=5000)
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "y.png").exists()


def test_caption_formats_fail_only_with_render_error() -> None:
    """Any --caption text either formats or is a RenderError (never another
    exception), and text without braces comes out as it is."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from csp_sudoku.tools.render import caption_fields, format_caption

    values = caption_fields(RECORD, 4)

    @settings(max_examples=200, deadline=None)
    @given(st.text(alphabet=st.sampled_from("{}[]:.!0123456789nsrlevdaxf ,<>^-"), max_size=20))
    def prop(fmt: str) -> None:
        with contextlib.suppress(RenderError):
            assert isinstance(format_caption(fmt, values), str)

    @settings(max_examples=100, deadline=None)
    @given(st.text(max_size=30).filter(lambda t: "{" not in t and "}" not in t))
    def literal(text: str) -> None:
        assert format_caption(text + " {n}", values) == f"{text} 4"

    prop()
    literal()


@pytest.mark.parametrize(
    ("argv", "needs"),
    [
        (["render", "-o", "book.svg"], True),
        (["render", "-o", "book.pdf"], True),
        (["report", "-m", "rounds", "-o", "report.html"], True),
        (["explain", "--html", "steps.html"], False),
        (["explain", "--svg", "steps"], False),
        (["check"], False),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else str(v),
)
def test_without_matplotlib_drawing_says_how_to_get_it(
    tmp_path: Path, argv: list[str], needs: bool
) -> None:
    """matplotlib is optional (``csp_sudoku[plot]``): what needs it is refused with exit 2
    and the install line; the rest works. ``render`` once failed as an internal error."""
    import subprocess
    import sys

    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"  # as if not installed
        "from csp_sudoku.cli import main\n"
        f"sys.exit(main({[*argv, line]!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    if needs:
        assert done.returncode == 2, done.stderr
        assert "matplotlib: pip install 'csp_sudoku[plot]'" in done.stderr
        assert list(tmp_path.iterdir()) == []  # nothing half-written
    else:
        assert done.returncode == 0, done.stderr


def test_render_book_writes_page_by_page_and_says_so(tmp_path: Path) -> None:
    """Pages are drawn and written one at a time (kept all at once, 600 puzzles took
    467 MB); ``progress`` hears of each, and SVG pages are files of their own."""
    from csp_sudoku.tools.render import render_book
    from tests.conftest import load_lines

    puzzles = [parse_line(s) for s in load_lines("top1465.txt", limit=13)]
    calls: list[tuple[int, int]] = []
    out = render_book(
        puzzles,
        tmp_path / "b.svg",
        solutions=True,
        title="T",
        progress=lambda d, t: calls.append((d, t)),
    )
    total = 1 + 3 + 2  # cover, 13 puzzles at 6 a page, 13 solutions at 12 a page
    assert calls == [(k, total) for k in range(1, total + 1)]
    assert [p.name for p in out] == [f"b-{k}.svg" for k in range(1, total + 1)]
    assert all(p.stat().st_size > 0 for p in out)
