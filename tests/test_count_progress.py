"""A count's part progress redraws a few times a second.

``count --budget-seconds`` on a terminal redrew its part progress at every part,
hundreds of times a second; now it is a bar of the command line
(:func:`csp_sudoku.cli._common.progress`), redrawn a few times a second, which
always draws its last state. ``-s`` prints the figures.
"""

from __future__ import annotations

import io
import sys
import time
from typing import Any

import pytest

import csp_sudoku as cs
from csp_sudoku.core.puzzle import Puzzle


class _Terminal(io.StringIO):
    """Standard error as a terminal: a stream that says it is one, and keeps what it got."""

    def isatty(self) -> bool:
        return True


def _count_shown(
    monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, budget: float
) -> tuple[str, dict[str, Any], int, float]:
    """``count_one`` of ``puzzle`` on a terminal with a budget: what the terminal got,
    the row, how many times the count called its progress back, and the seconds."""
    from csp_sudoku.cli import _plain

    calls = [0]
    real = _plain.count_solutions

    def counting(*args: Any, progress: Any = None, **kwargs: Any) -> int:
        def note(*a: int) -> None:
            calls[0] += 1
            progress(*a)

        return real(*args, progress=note if progress is not None else None, **kwargs)

    terminal = _Terminal()
    monkeypatch.setattr(_plain, "count_solutions", counting)
    monkeypatch.setattr(sys, "stderr", terminal)
    options = {"limit": 10**12, "backend": "auto", "budget": budget, "show": True}
    start = time.monotonic()
    _, rows, _ = _plain.count_one(puzzle, options)
    took = time.monotonic() - start
    monkeypatch.undo()
    return terminal.getvalue(), rows[0][0], calls[0], took


def test_a_counts_part_progress_redraws_a_few_times_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A count of an empty grid for a second: its progress came back after every part
    (hundreds of times a second) and each was a redraw of the line; now at most ten
    a second are, and the last one shows what the count found when its budget ended."""
    empty = cs.parse("." * 81)
    cs.count_solutions(empty, limit=30_000, progress=lambda *a: None)  # its kernels loaded
    text, row, calls, took = _count_shown(monkeypatch, empty, 1.0)
    redraws = text.count("\r")
    print(f"\n{calls} progress calls, {redraws} redraws in {took:.2f} s")
    assert row["budget"]
    assert redraws <= 10 * took + 5, redraws
    last = text.rstrip("\n").rsplit("\r", 1)[-1]
    assert f"{row['count']} solutions so far" in last, last


def test_a_finished_counts_last_state_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A count that ends within its budget, however soon: its last state (every part
    done, the whole count) is drawn, whatever the redraws left out before it."""
    text, row, calls, _ = _count_shown(monkeypatch, cs.parse("." * 16), 60.0)
    assert (row["count"], row["capped"], calls > 0) == (288, False, True)
    last = text.rstrip("\n").rsplit("\r", 1)[-1]
    assert "288 solutions so far" in last, last
