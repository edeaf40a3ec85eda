"""The search strategy TEMPLATE works as the registry says: registered under a name, it
makes new, unique, minimal puzzles on target through ``generate`` (checked by the
independent counter)."""

from __future__ import annotations

from typing import Any

import pytest

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.generators import anneal, registry, target
from csp_sudoku.generators.novelty import default_keys
from csp_sudoku.generators.target import generate
from csp_sudoku.metrics import rate
from tests.test_generator_template import _minimal

TEMPLATE_AT = "csp_sudoku.generators.search.TEMPLATE:search"


def _registered(monkeypatch: pytest.MonkeyPatch, name: str, where: str) -> None:
    monkeypatch.setitem(registry.STRATEGIES, name, where)
    monkeypatch.setattr(target, "METHODS", (*target.METHODS, name))


def test_the_template_is_not_registered() -> None:
    assert "template" not in registry.STRATEGIES and "template" not in target.METHODS


def test_the_template_registered_makes_new_unique_minimal_puzzles_on_target(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _registered(monkeypatch, "template", TEMPLATE_AT)

    def run() -> list[Any]:
        return list(generate(3, method="template", metric="se", score_range=(2.0, 4.0), seed=4))  # type: ignore[arg-type]

    made = run()
    assert len(made) == 3
    keys = default_keys()
    for g in made:
        cells = [int(v) for v in g.puzzle.cells]
        assert _minimal(cells) and g.minimal
        assert g.method == "template"
        assert 2.0 <= g.ratings["se"].score <= 4.0
        assert rate(g.puzzle, "se").score == g.ratings["se"].score
        assert keys.is_new(g.puzzle.cells)
    assert len({g.puzzle.to_line() for g in made}) == 3
    assert [g.puzzle.to_line() for g in run()] == [g.puzzle.to_line() for g in made]


def test_every_registered_strategy_is_a_method() -> None:
    assert registry.search_strategy("anneal") is anneal.search
    for name in registry.STRATEGIES:
        assert name in target.METHODS
        assert callable(registry.search_strategy(name))
    assert registry.AUTO_STRATEGY in registry.STRATEGIES
    with pytest.raises(GenerationError, match="unknown search strategy 'nope'"):
        registry.search_strategy("nope")
