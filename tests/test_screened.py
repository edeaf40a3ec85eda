"""The screened strategy: the annealing search with every vicinity move tested at the
target's floor. Registered as the tests register a strategy, it makes new, unique,
minimal SE extreme puzzles of distinct families, and its vicinity moves ask the
quick test at the floor, never at a lower limit (where the test clears nothing)."""

from __future__ import annotations

from typing import Any

import pytest

from csp_sudoku.generators import anneal, registry, target
from csp_sudoku.generators.novelty import default_keys
from csp_sudoku.generators.search.rating import Rater
from csp_sudoku.generators.target import generate
from csp_sudoku.metrics import rate
from tests.test_generator_template import _minimal

SCREENED_AT = "csp_sudoku.generators.screened:search"


@pytest.fixture
def screened(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float | None, float | None]]:
    """``screened`` registered; the list fills with (limit, floor) of every quick-test
    limit a vicinity move of the search asked for."""
    monkeypatch.setitem(registry.STRATEGIES, "screened", SCREENED_AT)
    monkeypatch.setattr(target, "METHODS", (*target.METHODS, "screened"))
    asked: list[tuple[float | None, float | None]] = []
    value, step = Rater.value, anneal._Search._vicinity_step
    in_step = [False]

    def spy_value(self: Rater, clues: Any, sol: Any, limit: Any = None, deep: bool = False) -> Any:
        if in_step[0]:
            asked.append((limit, self.floor))
        return value(self, clues, sol, limit, deep)

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
    made = list(
        generate(2, method="screened", level="extreme", metric="se", seed=5, budget_seconds=300)  # type: ignore[arg-type]
    )
    assert len(made) == 2
    keys = default_keys()
    for g in made:
        assert _minimal([int(v) for v in g.puzzle.cells]) and g.minimal
        assert g.method == "screened"
        assert rate(g.puzzle, "se").score > 9.0
        assert keys.is_new(g.puzzle.cells)
    assert made[0].solution.to_line() != made[1].solution.to_line()
    # every vicinity move asked the quick test at the target's floor
    assert screened and all(limit == floor == 9.0 for limit, floor in screened)
