"""The generator TEMPLATE works as the registry says: registered under a name, it makes
unique minimal puzzles through ``generate`` (checked by the independent counter)."""

from __future__ import annotations

import pytest

from csp_sudoku.generators import registry, target
from csp_sudoku.generators.target import generate
from tests.independent import count_solutions


def _minimal(cells: list[int]) -> bool:
    return count_solutions(cells, 2) == 1 and all(
        count_solutions([0 if i == k else v for i, v in enumerate(cells)], 2) > 1
        for k, v in enumerate(cells)
        if v
    )


def test_the_template_registered_makes_unique_minimal_puzzles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(registry.BASES, "template", "csp_sudoku.generators.TEMPLATE:base")
    monkeypatch.setattr(target, "METHODS", (*target.METHODS, "template"))
    made = list(generate(3, method="template", seed=4))  # type: ignore[arg-type]
    assert len(made) == 3
    for g in made:
        cells = [int(v) for v in g.puzzle.cells]
        assert _minimal(cells) and g.minimal
        assert g.method == "template"
    again = [g.puzzle.to_line() for g in generate(3, method="template", seed=4)]  # type: ignore[arg-type]
    assert again == [g.puzzle.to_line() for g in made]


def test_every_registered_base_is_a_method() -> None:
    for name in registry.BASES:
        assert name in target.METHODS
        assert callable(registry.base_generator(name))
