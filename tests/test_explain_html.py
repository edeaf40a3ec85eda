"""``explain --html`` / ``--svg``: the pages and images of a solve path.

The pencil marks the page shows before step k are checked against a replay of
steps 1..k-1 written here in plain Python from the path's JSON (no package
code). The browser test drives the page in headless Chromium (Debian's
``chromium`` package; ``.ci/run`` installs it) and skips where none is found.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from csp_sudoku.cli import main
from csp_sudoku.core.io import parse_line
from csp_sudoku.human.path import SolvePath, solve_path

#: top1465 puzzle with singles, subsets, contradiction chains at levels 0 and 1
#: and a region forcing chain (113 steps).
HARD = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
#: a puzzle that singles and subsets solve (steps without chains).
SUBSETS = "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6....."


@pytest.fixture(scope="module")
def hard_path() -> SolvePath:
    return solve_path(parse_line(HARD))


@pytest.fixture(scope="module")
def hard_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html") / "hard.html"
    svg_dir = out.parent / "svg"
    args = ["explain", HARD, "--order", "subsets", "--html", str(out), "--svg", str(svg_dir)]
    assert main([*args, "--json"]) == 0
    return out


def page_data(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S)
    assert m is not None
    data: dict[str, Any] = json.loads(m.group(1))
    return data


# ---- an independent replay of the pencil marks (9x9 only, plain Python) ----


def _peers9() -> list[set[int]]:
    peers: list[set[int]] = []
    for cell in range(81):
        r, c = divmod(cell, 9)
        br, bc = 3 * (r // 3), 3 * (c // 3)
        s = {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
        s |= {(br + i) * 9 + bc + j for i in range(3) for j in range(3)}
        s.discard(cell)
        peers.append(s)
    return peers


def replay_marks(path_json: dict[str, Any]) -> list[list[set[int]]]:
    """The candidates of every cell before each step, from the JSON alone
    (a step of the se path removes, then places, as Sudoku Explainer applies it)."""
    peers = _peers9()
    values = [0 if ch == "." else int(ch) for ch in path_json["puzzle"]]
    cands = [
        set() if values[c] else set(range(1, 10)) - {values[p] for p in peers[c]} for c in range(81)
    ]
    before: list[list[set[int]]] = []
    for step in path_json["steps"]:
        before.append([set(s) for s in cands])
        if path_json.get("order") == "se":
            for cell, d in step["eliminations"]:
                assert d in cands[cell], "an elimination of a candidate already gone"
                cands[cell].discard(d)
        for cell, d in step["placements"]:
            assert d in cands[cell], "a placement of a candidate already gone"
            values[cell] = d
            cands[cell] = set()
            for p in peers[cell]:
                cands[p].discard(d)
        for cell, d in [] if path_json.get("order") == "se" else step["eliminations"]:
            assert d in cands[cell], "an elimination of a candidate already gone"
            cands[cell].discard(d)
    return before


def parse_marks(marks: str) -> list[set[int]]:
    return [{int(ch) for ch in cell} for cell in marks.split(",")]


# ---- the page ----


def test_page_written_and_self_contained(hard_page: Path) -> None:
    text = hard_page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"<script[^>]*\bsrc\s*=", text, re.I)
    assert not re.search(r"<link\b", text, re.I)
    assert not re.search(r"<img\b", text, re.I)
    assert text.count("<script") == 2  # the data and the viewer


def test_page_has_one_entry_per_step(hard_page: Path, hard_path: SolvePath) -> None:
    data = page_data(hard_page)
    n = len(hard_path.steps)
    assert n > 60
    assert len(data["steps"]) == n == len(data["path"]["steps"])
    assert [s["number"] for s in data["steps"]] == list(range(1, n + 1))
    assert data["path"] == json.loads(json.dumps(hard_path.to_dict()))
    for s, step in zip(data["steps"], hard_path.steps, strict=True):
        assert s["title"].split(". ", 1)[1].startswith(step.technique)
    # chain steps carry their chain's text lines (Chain.describe)
    chains = [s for s in data["steps"] if "chain" in s["title"]]
    assert chains and all("[0] assume" in s["text"] for s in chains)
    assert any("forcing chain" in s["title"] for s in chains)


def test_page_marks_agree_with_an_independent_replay(hard_page: Path) -> None:
    data = page_data(hard_page)
    before = replay_marks(data["path"])
    assert len(before) == len(data["steps"])
    for k, (s, want) in enumerate(zip(data["steps"], before, strict=True), start=1):
        assert parse_marks(s["marks"]) == want, f"pencil marks before step {k}"
        # the layer draws exactly those candidates as small digits
        drawn = "".join(re.findall(r"<text class='c'[^>]*>([^<]*)</text>", s["layer"]))
        assert len(drawn) == sum(len(c) for c in want)


def test_page_marks_the_step(hard_page: Path, hard_path: SolvePath) -> None:
    data = page_data(hard_page)
    for s, step in zip(data["steps"], hard_path.steps, strict=True):
        layer = s["layer"]
        assert layer.count("class='pl'") == len(step.placements)
        assert layer.count("class='el'") == len(step.eliminations)
        assert layer.count("class='st'") == len(step.eliminations)
        if step.kind == "subset":
            assert "class='sa'" in layer  # A's candidates
        if step.kind == "chain":
            assumptions = layer.count("class='ra'")
            assert assumptions == len(step.chains)
            parents = sum(
                1
                for ch in step.chains
                for link in ch.links
                if link.cell >= 0
                for p in link.parents
                if ch.links[p].cell >= 0
            )
            arrows = len(re.findall(r"<path d='M[^']*Q", layer))
            assert 0 < arrows <= parents


def test_page_size_under_a_megabyte(hard_page: Path, hard_path: SolvePath) -> None:
    size = hard_page.stat().st_size
    print(f"\nexplain --html: {len(hard_path.steps)} steps, {size:,} bytes")
    assert size < 1_000_000


def test_subset_page(tmp_path: Path) -> None:
    out = tmp_path / "p.html"
    assert main(["explain", SUBSETS, "--order", "subsets", "--html", str(out)]) == 0
    data = page_data(out)
    assert replay_marks(data["path"]) == [parse_marks(s["marks"]) for s in data["steps"]]
    assert any("covered by" in s["text"] for s in data["steps"])


def test_other_shapes(tmp_path: Path) -> None:
    """A 6x6 puzzle: 2x3 boxes, candidates in a 3x3 block per cell."""
    six = "....5..2......1......23...6....4.1.3"
    out, svg_dir = tmp_path / "six.html", tmp_path / "six"
    assert (
        main(["explain", six, "--order", "subsets", "--html", str(out), "--svg", str(svg_dir)]) == 0
    )
    data = page_data(out)
    assert data["geometry"] == "6x6"
    files = sorted(svg_dir.glob("*.svg"))
    assert len(files) == len(data["steps"]) > 0
    for f in files:
        ET.fromstring(f.read_text(encoding="utf-8"))
    first = parse_marks(data["steps"][0]["marks"])
    assert len(first) == 36 and max(max(c, default=0) for c in first) <= 6


# ---- the images ----


def test_svg_files(hard_page: Path, hard_path: SolvePath) -> None:
    svg_dir = hard_page.parent / "svg"
    files = sorted(svg_dir.glob("*.svg"))
    assert len(files) == len(hard_path.steps)
    assert files[0].name == "step-001.svg"
    data = page_data(hard_page)
    ns = "{http://www.w3.org/2000/svg}"
    for f, s in zip(files, data["steps"], strict=True):
        text = f.read_text(encoding="utf-8")
        root = ET.fromstring(text)
        assert root.tag == f"{ns}svg"
        assert s["layer"] in text  # the same drawing as the page's


def test_html_and_svg_take_one_puzzle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "two.txt"
    src.write_text(f"{SUBSETS}\n{SUBSETS}\n")
    assert main(["explain", str(src), "--html", str(tmp_path / "x.html")]) == 2
    assert "--html takes one puzzle" in capsys.readouterr().err


def test_indented_json_takes_one_puzzle_and_needs_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Indented objects one after another are neither JSON nor JSON Lines."""
    src = tmp_path / "two.txt"
    src.write_text(f"{SUBSETS}\n{SUBSETS}\n")
    assert main(["explain", str(src), "--json", "--indent", "2"]) == 2
    captured = capsys.readouterr()
    assert "--indent takes one puzzle" in captured.err and captured.out == ""
    assert main(["explain", SUBSETS, "--indent", "2"]) == 2  # was ignored without --json
    captured = capsys.readouterr()
    assert "add --json" in captured.err and captured.out == ""
    assert main(["explain", SUBSETS, "--json", "--indent", "2"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["steps"] and out.startswith("{\n  ")
    assert main(["explain", str(src), "--json"]) == 0  # JSON Lines: one object a line
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["steps"] for line in lines)


def test_unwritable_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "x.html"
    assert main(["explain", SUBSETS, "--html", str(target)]) == 2
    assert f"{target}: {target.parent} does not exist" in capsys.readouterr().err
    # a folder where the file should go: refused before any work
    (tmp_path / "dir.html").mkdir()
    assert main(["explain", SUBSETS, "--html", str(tmp_path / "dir.html")]) == 2
    assert "dir.html is a folder: name a file to write" in capsys.readouterr().err


def test_svg_into_a_file_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "steps"
    target.write_text("keep me")
    assert main(["explain", SUBSETS, "--svg", str(target)]) == 2
    captured = capsys.readouterr()
    assert f"--svg {target}: is a file" in captured.err
    assert captured.out == ""  # no path was printed: refused before explaining
    assert target.read_text() == "keep me"


# ---- a real browser ----


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _browser(args: list[str], url: str) -> tuple[str, float]:
    exe = _chromium()
    if exe is None:
        pytest.skip(
            "no chromium binary found (install Debian's chromium package: "
            "apt-get install chromium; .ci/run does it when run as root)"
        )
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-extensions", *args, url]  # fmt: skip
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    elapsed = time.perf_counter() - t0
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, elapsed


def _state(dom: str) -> tuple[int, str]:
    m = re.search(r'<body[^>]*data-step="(\d+)"', dom)
    assert m is not None, dom[:500]
    c = re.search(r'<span id="counter">([^<]*)</span>', dom)
    assert c is not None
    return int(m.group(1)), c.group(1)


def test_browser_renders_and_navigates(hard_page: Path, hard_path: SolvePath) -> None:
    n = len(hard_path.steps)
    url = hard_page.as_uri()
    dom, elapsed = _browser(["--dump-dom"], url)
    step, counter = _state(dom)
    assert (step, counter) == (1, f"Step 1 / {n}")
    load = re.search(r'data-load-ms="(\d+)"', dom)
    assert load is not None
    # the first step's layer is in the live SVG (drawn by the script)
    assert re.search(r'<g id="layer"><rect class="h"', dom)
    print(
        f"\nchromium: page of {n} steps loaded in {int(load.group(1))} ms "
        f"(performance.now at the end of the script); whole headless run {elapsed:.2f} s"
    )
    # the URL hash picks a step
    dom, _ = _browser(["--dump-dom"], url + "#step=14")
    assert _state(dom) == (14, f"Step 14 / {n}")
    assert "contradiction chain" in dom
    # pressing Next twice (ArrowRight, then the button), then ArrowLeft, End, Home
    dom, _ = _browser(["--dump-dom"], url + "?keys=RN#step=3")
    assert _state(dom) == (5, f"Step 5 / {n}")
    dom, _ = _browser(["--dump-dom"], url + "?keys=RRL")
    assert _state(dom)[0] == 2
    dom, _ = _browser(["--dump-dom"], url + "?keys=E")
    assert _state(dom)[0] == n
    dom, _ = _browser(["--dump-dom"], url + "?keys=EHP")
    assert _state(dom)[0] == 1


def test_browser_screenshot(hard_page: Path) -> None:
    shot = hard_page.parent / "shot.png"
    _browser([f"--screenshot={shot}", "--window-size=1100,800"], hard_page.as_uri() + "#step=14")
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG")
    assert len(data) > 20_000  # a drawn grid, not a blank page


def test_browser_test_skips_without_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pytest.skip.Exception, match="no chromium binary found"):
        _browser(["--dump-dom"], "file:///nowhere.html")


def test_legend_lists_exactly_the_colours_the_drawing_uses(hard_path: SolvePath) -> None:
    """The page's legend and the step drawing come from one table (MARKS): the
    legend shows exactly MARKS' colours, each the colour of its class's style,
    and every coloured mark class the steps draw (subsets and chains) is in the
    legend (no swatch for a mark never drawn, no drawn mark without a swatch)."""
    from csp_sudoku.tools import explain_view as ev

    page = ev.html_page(solve_path(parse_line(SUBSETS), ("singles", "subsets")))
    key = re.search(r'<div class="key">(.*?)</div>', page)
    assert key is not None
    legend = re.findall(r"(?:background:|solid )(#[0-9a-fA-F]{3,6})", key.group(1))
    assert sorted(legend) == sorted(m.colour for m in ev.MARKS)
    assert "#fde0e6" not in page  # the pink of a shading the drawing never made
    rules = dict(re.findall(r"\.([a-z]+)\{([^}]*)\}", ev._STYLE))
    for m in ev.MARKS:
        assert m.colour in rules[m.cls]
    drawn: set[str] = set()
    for p in (solve_path(parse_line(SUBSETS), ("singles", "subsets")), hard_path):
        drawn |= set(re.findall(r"class=(?:'|\\u0027)(\w+)", ev.html_page(p)))
    text_and_lines = {"c", "g", "v", "lb", "n", "tn", "tk", "st"}
    coloured = {c for c in drawn if c in rules} - text_and_lines
    assert coloured == {m.cls for m in ev.MARKS}


# ---- the se path (explain's default order) ----

#: top1465: locking, sets, X-Wing, Turbot Fish, wings, forcing and region
#: forcing chains (106 steps).
WIDE = "...........5.9.17..3...2..84..........94..3...7.86...4..7..8...2.......1..19...56"


@pytest.fixture(scope="module")
def se_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("se") / "se.html"
    svg = str(out.parent / "svg")
    assert main(["explain", WIDE, "--html", str(out), "--svg", svg, "--json"]) == 0
    return out


def test_se_page_draws_the_se_path(se_page: Path) -> None:
    """The default page is the se path: one entry per step with its technique
    and difficulty in the list, the pencil marks before each step as an
    independent replay has them, patterns and links drawn, a legend of the
    se marks, and the solved grid last."""
    from csp_sudoku.human.se_figures import MAX_LINKS
    from csp_sudoku.tools import explain_view as ev

    data = page_data(se_page)
    path = data["path"]
    assert path["order"] == "se" and path["solved"]
    n = len(path["steps"])
    assert len(data["steps"]) == n
    before = replay_marks(path)
    text = se_page.read_text(encoding="utf-8")
    listing = re.findall(r'<li><a href="#step=(\d+)">([^<]*)</a></li>', text)
    assert [int(k) for k, _ in listing] == list(range(1, n + 2))
    for k, (s, step, want) in enumerate(zip(data["steps"], path["steps"], before, strict=True)):
        assert parse_marks(s["marks"]) == want, k
        assert s["title"].startswith(f"{step['technique']} ({step['difficulty']:.1f})")
        assert listing[k][1] == html.escape(s["title"], quote=False)
        arrows = s["layer"].count("<path") - s["layer"].count("class='st'")
        assert arrows <= MAX_LINKS
        if step["figure"]["links"]:
            assert arrows == len(step["figure"]["links"])
    layers = "".join(s["layer"] for s in data["steps"])
    for cls in ("h", "un", "pv", "pl", "el", "ls", "lw", "ra"):
        assert f"class='{cls}'" in layers, cls
    assert listing[-1][1] == "Solved grid" and data["final"]["title"] == "Solved grid"
    assert "." not in data["final"]["values"]
    key = re.search(r'<div class="key">(.*?)</div>', text)
    assert key is not None
    legend = re.findall(r"(?:background:|solid )(#[0-9a-fA-F]{3,6})", key.group(1))
    assert sorted(legend) == sorted(m.colour for m in ev.SE_MARKS)
    assert len(list((se_page.parent / "svg").glob("step-*.svg"))) == n


def test_browser_se_page_list_filter_and_final_grid(se_page: Path) -> None:
    data = page_data(se_page)
    n = len(data["steps"])
    url = se_page.as_uri()
    dom, _ = _browser(["--dump-dom"], url + "?digit=2#step=4")
    assert _state(dom) == (4, f"Step 4 / {n}")
    assert '<li class="cur"><a href="#step=4">Turbot Fish (4.1)' in dom
    marks = parse_marks(data["steps"][3]["marks"])
    values = data["steps"][3]["values"]
    rings = sum(2 in m for m in marks) + values.count("2")
    drawn = re.search(r'<g id="filter">(.*?)</g>', dom)
    assert drawn is not None
    assert drawn.group(1).count('class="fd"') == rings > 0
    dom, _ = _browser(["--dump-dom"], url + f"#step={n + 1}")
    assert _state(dom) == (n + 1, "Solved grid")


def test_a_long_chain_is_drawn_folded_and_says_so() -> None:
    """A chain of more than MAX_LINKS links is drawn as its assumption and its
    last links (no arrow to a link left out), and the step's text says so."""
    from csp_sudoku.human.chains import Chain, Link
    from csp_sudoku.human.se_figures import MAX_LINKS
    from csp_sudoku.tools import explain_view as ev

    links = [Link(0, 1, True, "assume")]
    links += [Link(k % 81, 1 + k % 9, k % 2 == 0, "elim", 81, (k - 1,)) for k in range(1, 150)]
    chain = Chain((0, 1), tuple(links), 0, len(links))
    lay = ev._layout(parse_line(HARD).geometry)
    parts: list[str] = []
    rings: list[str] = []
    ev._chain_layer(lay, chain, parts, rings)
    assert len(rings) == MAX_LINKS
    arrows = sum(p.startswith("<path") for p in parts)
    assert 0 < arrows <= MAX_LINKS - 2  # the first kept link's parent was left out
    assert ev._fold_note([chain]) == [
        f"(drawn: branch 1's assumption and its last {MAX_LINKS - 1} of 150 links)"
    ]
