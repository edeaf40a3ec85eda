"""backends/TEMPLATE.py, the file a contributor copies, is a correct backend."""

from __future__ import annotations

import numpy as np

import csp_sudoku as cs
from csp_sudoku import Geometry
from csp_sudoku.backends import backend_names, get_backend
from csp_sudoku.backends.TEMPLATE import TemplateBackend
from tests.conftest import sample_lines
from tests.independent import check_solution


def test_template_is_not_registered() -> None:
    assert "template" not in backend_names()


def test_template_agrees_with_the_fast_backend() -> None:
    mine = TemplateBackend()
    g = Geometry.standard(9)
    for name, want in (("17_clue.txt", 1), ("top1465.txt", 1), ("multi_solution_serg.txt", 2)):
        for line in sample_lines(name, 3):
            cells = cs.parse(line).cells
            got = mine.count(cells, g, 2)
            assert got == want == get_backend("fast").count(cells, g, 2), line
            sol = mine.solve(cells, g)
            assert sol is not None and check_solution(sol, cells)


def test_template_on_other_geometries() -> None:
    mine = TemplateBackend()
    g4 = Geometry.standard(4)
    assert len(mine.solutions(np.zeros(16, dtype=np.int8), g4, 1000)) == 288
    x = Geometry.x_sudoku(9)
    empty = np.zeros(81, dtype=np.int8)
    sol = mine.solve(empty, x)
    assert sol is not None and check_solution(sol, diagonals=True)
    bad = empty.copy()
    bad[0] = bad[1] = 5
    assert mine.solutions(bad, Geometry.standard(9), 2) == []
