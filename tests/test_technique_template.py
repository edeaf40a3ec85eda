"""The technique TEMPLATE works as the registry says: registered under a name, the path
solver uses it, and every step it takes is right (checked against the independent
counter's solution)."""

from __future__ import annotations

import pytest

from csp_sudoku import parse
from csp_sudoku.human import TEMPLATE, path
from tests.conftest import load_lines
from tests.independent import check_solution


def test_the_template_registered_solves_with_right_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[path.Step] = []

    def mine(ctx: path.TechniqueContext) -> list[path.Step]:
        steps = TEMPLATE.steps(ctx)
        taken.extend(steps)
        return steps

    monkeypatch.setitem(path.TECHNIQUE_STEPS, "mine", mine)
    for line in load_lines("17_clue.txt", limit=5):
        taken.clear()
        p = parse(line)
        got = path.solve_path(p, ["mine", "subsets", "chains", "singles"])
        assert got.solved
        final = [int(v) for v in got.final]
        assert check_solution(final, [int(v) for v in p.cells])
        assert taken, "the registered technique took no step"
        assert all(any(s is t for t in got.steps) for s in taken)
        for s in taken:
            for cell, digit in s.placements:
                assert final[cell] == digit


def test_an_unregistered_technique_is_refused_with_the_names() -> None:
    with pytest.raises(Exception, match="choose from singles, subsets"):
        path.solve_path(parse(load_lines("17_clue.txt", limit=1)[0]), ["mine"])


def test_the_registry_and_the_literal_agree() -> None:
    from typing import get_args

    from csp_sudoku.core.names import TechniqueName

    assert tuple(path.TECHNIQUE_STEPS) == path.TECHNIQUES == get_args(TechniqueName)
