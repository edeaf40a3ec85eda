"""Where ``render`` writes a book, and what it refuses first: each test holds one defect fixed.

A book of several SVG or PNG pages is one file a page, named after the output
(``book-1.svg``, ...): a pipe or a device (a FIFO, ``/dev/null``, a link to it)
holds no such files, so it is refused before any page is drawn (the pages once
went beside it, even into ``/dev``, and the run said it had succeeded), and so
is ``-o -`` for a book of more than one page (once refused only after the whole
book was drawn). The pages of a book are staged and moved into place together,
so an interrupted run leaves an earlier book of the name whole (it once left
some pages new, the others old). A PDF that cannot be written (``/dev/full``)
is said as ``solve -o /dev/full`` says it, not as an internal error (a zlib
error of the flush hid the write's own). Runs go through
:func:`csp_sudoku.cli.main` in a temporary folder, or through ``python -m
csp_sudoku`` where the standard output must be a pipe of its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from csp_sudoku.core.errors import RenderError
from csp_sudoku.tools import render as render_module
from csp_sudoku.tools.render import render_book
from tests.helpers import run_cli, run_module

#: Two 4x4 puzzles (cheap pages), told apart in the files drawn of them.
FIRST4 = "..1..4........21"
OTHER4 = "1.......3....2.."
#: Two 9x9 puzzles: a PDF of them outgrows a write buffer before it is finished.
PLAIN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD = ".....9.8.8..3....2.675.......27..6...3..45.1.....1...5..1....9...5..71..49......."
#: The arguments that draw ``three.txt`` as a book of three pages.
THREE_PAGES = ["render", "three.txt", "--per-page", "1"]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary working folder holding ``three.txt`` (three 4x4 puzzles),
    ``one.txt`` (one) and ``nine.txt`` (six 9x9 puzzles)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "three.txt").write_text(f"{FIRST4}\n{FIRST4}\n{FIRST4}\n")
    (tmp_path / "one.txt").write_text(f"{FIRST4}\n")
    (tmp_path / "nine.txt").write_text(f"{PLAIN}\n{HARD}\n" * 3)
    return tmp_path


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages drawn in the test (each ``"page"`` or ``"cover"``), heard from the
    drawing routines themselves."""
    seen: list[str] = []
    page, cover = render_module._page, render_module._cover

    def counted_page(*args: Any, **kwargs: Any) -> Any:
        seen.append("page")
        return page(*args, **kwargs)

    def counted_cover(*args: Any, **kwargs: Any) -> Any:
        seen.append("cover")
        return cover(*args, **kwargs)

    monkeypatch.setattr(render_module, "_page", counted_page)
    monkeypatch.setattr(render_module, "_cover", counted_cover)
    return seen


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


# ---------------------------------------------------------------- 1. pipes and devices
@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_book_of_pages_to_a_fifo_is_refused_before_any_drawing(
    here: Path, drawn: list[str], fmt: str
) -> None:
    """``-o FIFO`` for a book of 3 pages wrote ``FIFO-1.svg`` ... beside it and exited 0."""
    os.mkfifo(here / "pipe")
    before = _files(here)
    code, out, err = run_cli([*THREE_PAGES, "--format", fmt, "-o", "pipe"])
    assert code == 2 and out == ""
    assert "pipe is not a regular file" in err and f"a book of 3 {fmt.upper()} pages" in err
    assert "--format pdf" in err and f"pipe-1.{fmt}" in err
    assert drawn == [] and _files(here) == before


def test_a_book_of_pages_to_a_link_to_dev_null_is_refused(here: Path, drawn: list[str]) -> None:
    """A link to ``/dev/null`` is a device too: its pages went beside the link."""
    os.symlink("/dev/null", here / "null.svg")
    before = _files(here)
    code, _, err = run_cli([*THREE_PAGES, "--title", "T", "-o", "null.svg"])
    assert code == 2 and "not a regular file" in err
    assert "a book of 4 SVG pages" in err  # the cover too
    assert drawn == [] and _files(here) == before


def test_render_book_refuses_a_device_for_pages_before_drawing(
    here: Path, drawn: list[str]
) -> None:
    os.mkfifo(here / "pipe")
    with pytest.raises(RenderError, match="pipe is not a regular file"):
        render_book([FIRST4] * 3, here / "pipe", per_page=1, fmt="svg")
    assert drawn == [] and not (here / "pipe-1.svg").exists()


def test_one_page_or_a_pdf_still_goes_to_a_device(here: Path) -> None:
    """What a device can take is not refused: one page, or a PDF of every page."""
    os.symlink("/dev/null", here / "null.svg")
    os.symlink("/dev/null", here / "null.pdf")
    before = _files(here)
    assert run_cli(["render", "one.txt", "-o", "null.svg"])[0] == 0
    assert run_cli([*THREE_PAGES, "-o", "null.pdf"])[0] == 0
    assert _files(here) == before


def test_a_pdf_book_goes_to_a_pipe(here: Path) -> None:
    """The refusal above says ``--format pdf``: a PDF to a pipe once failed with
    'Illegal seek' after writing its first line (and the path printed after it,
    on the same standard output, would spoil the PDF)."""
    done = run_module([*THREE_PAGES, "-o", "/dev/stdout", "--format", "pdf"], text=False, cwd=here)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"%PDF-") and done.stdout.rstrip().endswith(b"%%EOF")
    assert done.stdout.count(b"/Type /Page ") + done.stdout.count(b"/Type /Page\n") >= 3


# ---------------------------------------------------------------- 2. -o - before drawing
def test_standard_output_for_several_pages_is_refused_before_drawing(
    here: Path, drawn: list[str]
) -> None:
    code, out, err = run_cli([*THREE_PAGES, "--format", "svg", "-o", "-"])
    assert code == 2 and out == ""
    assert "the book has 3 pages" in err and "one SVG page" in err
    assert drawn == []
    code, out, _ = run_cli(["render", "one.txt", "--format", "svg", "-o", "-"])
    assert code == 0 and out.lstrip().startswith("<?xml") and drawn == ["page"]


# ---------------------------------------------------------------- 3. all pages or none
def _stop_at_page(number: int) -> Callable[[int, int], None]:
    """A ``progress`` callback that interrupts the run when page ``number`` is done."""

    def progress(done: int, total: int) -> None:
        if done == number:
            raise KeyboardInterrupt

    return progress


def test_an_interrupted_book_leaves_the_earlier_one_whole(here: Path) -> None:
    """Pages were moved into place one by one: stopped at page 2 of 3, pages 1 and 2
    were of the new book and page 3 of the old one."""
    old = render_book([FIRST4] * 3, here / "book.svg", per_page=1)
    before = {p.name: p.read_bytes() for p in old}
    with pytest.raises(KeyboardInterrupt):
        render_book([OTHER4] * 3, here / "book.svg", per_page=1, progress=_stop_at_page(2))
    assert {p.name: p.read_bytes() for p in old} == before
    assert not [name for name in _files(here) if ".partial" in name]  # staged pages removed
    new = render_book([OTHER4] * 3, here / "book.svg", per_page=1)  # not stopped: all new
    assert [p.name for p in new] == list(before)
    assert all(p.read_bytes() != before[p.name] for p in new)


def test_an_interrupted_cli_render_leaves_the_earlier_book_whole(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same through the command (a Ctrl-C while page 3 is drawn): exit 130."""
    assert run_cli([*THREE_PAGES, "-o", "book.svg"])[0] == 0
    before = {name: (here / name).read_bytes() for name in _files(here) if name.endswith(".svg")}
    assert sorted(before) == ["book-1.svg", "book-2.svg", "book-3.svg"]
    (here / "three.txt").write_text(f"{OTHER4}\n{OTHER4}\n{OTHER4}\n")
    page = render_module._page
    calls: list[int] = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return page(*args, **kwargs)

    monkeypatch.setattr(render_module, "_page", interrupted)
    code, _, err = run_cli([*THREE_PAGES, "-o", "book.svg"])
    assert code == 130 and "interrupted" in err
    after = {name: (here / name).read_bytes() for name in _files(here) if name.endswith(".svg")}
    assert after == before


# ---------------------------------------------------------------- 4. a PDF on a full disk
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("pages", [["--per-page", "1"], []], ids=["six-pages", "one-page"])
def test_a_pdf_to_a_full_device_is_a_write_error(here: Path, pages: list[str]) -> None:
    """``-o /dev/full`` made a PDF exit 70 with zlib's 'Error -2 while flushing'."""
    code, _, said = run_cli(["solve", "one.txt", "-o", "/dev/full"])
    assert code == 2 and "No space left on device" in said
    code, out, err = run_cli(["render", "nine.txt", *pages, "--format", "pdf", "-o", "/dev/full"])
    assert code == 2 and out == ""
    assert err == said  # the same words as any command that cannot write its output
