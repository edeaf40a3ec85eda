"""The setting ``screen_at_floor``: the annealing search with every vicinity move tested
at the target's floor. It makes new, unique, minimal SE extreme puzzles of distinct
families, and its vicinity moves ask the quick test at the floor, never at a lower
limit (where the test clears nothing); with the setting off it does not."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from csp_sudoku.generators import anneal
from csp_sudoku.generators.novelty import default_keys
from csp_sudoku.generators.search.rating import Rater
from csp_sudoku.generators.search.settings import DEFAULTS
from csp_sudoku.generators.target import generate
from csp_sudoku.metrics import rate
from tests.test_generator_template import _minimal


@pytest.fixture
def screened(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float | None, float | None]]:
    """The list fills with (limit, floor) of every quick-test limit a vicinity move of
    the search asked for."""
    asked: list[tuple[float | None, float | None]] = []
    value, step = Rater.value, anneal._Search._vicinity_step
    in_step = [False]

    def spy_value(
        self: Rater, clues: Any, sol: Any, limit: Any = None, deep: bool = False, **kw: Any
    ) -> Any:
        if in_step[0]:
            asked.append((limit, self.floor))
        return value(self, clues, sol, limit, deep, **kw)

    def spy_step(self: Any, arm: int) -> Any:
        in_step[0] = True
        try:
            return step(self, arm)
        finally:
            in_step[0] = False

    monkeypatch.setattr(Rater, "value", spy_value)
    monkeypatch.setattr(anneal._Search, "_vicinity_step", spy_step)
    return asked


def test_screened_makes_new_unique_minimal_extreme_puzzles_of_two_families(
    screened: list[tuple[float | None, float | None]],
) -> None:
    """The search as it ships (``screen_at_floor`` True)."""
    made = list(generate(2, level="extreme", metric="se", seed=5, budget_seconds=300))
    assert len(made) == 2
    keys = default_keys()
    for g in made:
        assert _minimal([int(v) for v in g.puzzle.cells]) and g.minimal
        assert rate(g.puzzle, "se").score > 9.0
        assert keys.is_new(g.puzzle.cells)
    assert made[0].solution.to_line() != made[1].solution.to_line()
    # every vicinity move asked the quick test at the target's floor
    assert screened and all(limit == floor == 9.0 for limit, floor in screened)


def test_unscreened_search_asks_below_the_floor_or_not_at_all(
    screened: list[tuple[float | None, float | None]],
) -> None:
    """``screen_at_floor`` False: no test while the elite pool fills, then the lesser of
    the floor and the weakest elite score: so the setting changes what it says it
    changes."""
    settings = replace(DEFAULTS, screen_at_floor=False)
    made = list(
        generate(1, level="extreme", metric="se", seed=5, budget_seconds=300, search=settings)
    )
    assert len(made) == 1
    assert any(limit is None for limit, _ in screened)
    assert all(limit is None or limit <= 9.0 for limit, _ in screened)
