"""Reports of a puzzle set: HTML and PNG, with and without metrics."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from csp_sudoku.cli import main
from csp_sudoku.core.io import parse_line
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.report import ReportError, collect, write_report
from tests.conftest import load_lines


def _puzzles() -> list[Puzzle]:
    unique = [parse_line(s) for s in load_lines("top1465.txt", limit=12)]
    several = [parse_line(s) for s in load_lines("multi_solution_serg.txt", limit=3)]
    return [*unique, *several, Puzzle(np.zeros(81, np.int8))]


def test_counts_only_report(tmp_path: Path) -> None:
    data = collect(_puzzles(), backend="sat", title="mixed")
    assert data.counts.tolist().count(1) == 12 and (data.counts >= 2).sum() == 4
    assert any("clue and solution counts only" in n for n in data.notes)
    page = write_report(data, tmp_path / "r.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "</html>" in page
    assert "12 with one solution" in page
    m = re.search(r'src="data:image/png;base64,([^"]+)"', page)
    assert m is not None and base64.b64decode(m.group(1))[:4] == b"\x89PNG"
    png = write_report(data, tmp_path / "r.png")
    assert png.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ReportError):
        write_report(data, tmp_path / "r.doc")
    with pytest.raises(ReportError):
        collect([])


def test_report_with_metrics(tmp_path: Path) -> None:
    pytest.importorskip("csp_sudoku.metrics")
    data = collect(_puzzles(), ["oracle", "hsolve"], seed=3, runs=2, backend="sat")
    assert set(data.scores) == {"oracle", "hsolve"}
    rated = ~np.isnan(data.scores["oracle"])
    assert rated.sum() == 12 and not rated[-1]  # only unique puzzles are rated
    assert all(lv is not None for lv, r in zip(data.levels["oracle"], rated, strict=True) if r)
    page = write_report(data, tmp_path / "m.html").read_text()
    assert "oracle (min / median / max)" in page


def test_cli_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(p.to_line() for p in _puzzles()[:5]) + "\nnot a puzzle\n")
    out = tmp_path / "cli.png"
    assert main(["report", str(src), "-o", str(out), "--backend", "sat"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    captured = capsys.readouterr()
    assert str(out) in captured.out and "skipped" in captured.err


def test_cli_report_of_two_shapes_names_where_they_meet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "a report covers puzzles of one geometry" said neither which nor where."""
    src = tmp_path / "in.txt"
    src.write_text(_puzzles()[0].to_line() + "\n" + "1..." + "." * 12 + "\n")
    out = tmp_path / "r.html"
    assert main(["report", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"one shape: {src}:2 is 4x4, {src}:1 9x9" in err and not out.exists()


def test_cli_report_metrics_as_a_comma_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-m oracle,rounds`` as ``rate`` takes it (it was one unknown metric), and the
    notes count in words ("1 unique puzzle", "1 bad line")."""
    src = tmp_path / "in.txt"
    src.write_text(_puzzles()[0].to_line() + "\nnot a puzzle\n")
    out = tmp_path / "m.html"
    argv = ["report", str(src), "-o", str(out), "-m", "oracle,rounds", "--runs", "2"]
    assert main([*argv, "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert "oracle: 1 unique puzzle rated" in err and "rounds: 1 unique puzzle rated" in err
    assert "1 puzzle (9x9)" in err and "1 bad line skipped" in err
    assert "rounds (min / median / max)" in out.read_text()


def test_report_without_a_seed_draws_one_and_names_it() -> None:
    """No seed means a fresh one (the package's convention), named in the notes so
    that the same ratings can be had again with it."""
    import re

    puzzles = _puzzles()[:4]
    data = collect(puzzles, ["oracle"], runs=2, backend="sat")
    note = next(n for n in data.notes if n.startswith("oracle:"))
    found = re.search(r"seed (\d+)", note)
    assert found is not None, note
    again = collect(puzzles, ["oracle"], seed=int(found.group(1)), runs=2, backend="sat")
    assert np.array_equal(data.scores["oracle"], again.scores["oracle"], equal_nan=True)


def test_count_axes_have_whole_number_ticks() -> None:
    """Counts of puzzles (and clues) are whole numbers: with three puzzles matplotlib
    would otherwise tick 0.5, 1.5, ...; every count axis gets integer ticks."""
    from csp_sudoku.tools.report import ReportData, report_figure

    data = ReportData(
        title="few",
        clues=np.array([24, 25, 27], dtype=np.int64),
        counts=np.array([1, 1, 2], dtype=np.int64),
        scores={"oracle": np.array([1.2, 2.5, np.nan])},
        levels={"oracle": ["easy", "hard", None]},
        level_order={"oracle": ["easy", "medium", "hard"]},
    )
    fig = report_figure(data)
    count_axes = [ax for ax in fig.axes if ax.get_ylabel() == "puzzles"]
    assert len(count_axes) == 4  # clues, solutions, scores histogram, levels
    fig.canvas.draw()
    for ax in count_axes:
        ticks = ax.get_yticks()
        assert len(ticks) >= 2 and np.all(ticks == np.round(ticks)), (ax.get_title(), ticks)
    clues_ax = next(ax for ax in fig.axes if ax.get_xlabel() == "clues")
    assert np.all(clues_ax.get_xticks() == np.round(clues_ax.get_xticks()))


def test_collect_reports_each_rating_and_cli_quiet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[int, int]] = []
    data = collect(_puzzles(), ["rounds", "se"], seed=1, progress=lambda d, t: calls.append((d, t)))
    unique = int((data.counts == 1).sum())
    assert calls == [(k, 2 * unique) for k in range(1, 2 * unique + 1)]
    src = tmp_path / "p.txt"
    src.write_text("\n".join(p.to_line() for p in _puzzles()) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", str(src), "-m", "rounds", "-o", str(out), "-q"]) == 0
    assert capsys.readouterr() == (f"{out}\n", "")
    assert out.stat().st_size > 0


def test_a_metric_of_one_score_draws_no_correlation_and_no_warning(tmp_path: Path) -> None:
    """Every 4x4 puzzle rates se 1.2: scipy's "input array is constant" warning went to
    stderr from a report of them (an error under this suite's warning filter)."""
    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.generators import minimal_puzzles

    small = list(minimal_puzzles(6, Geometry.standard(4), seed=2))
    data = collect(small, ["se", "hsolve"], seed=1, runs=2)
    assert np.ptp(data.scores["se"]) == 0  # the case: one score for all
    assert write_report(data, tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
