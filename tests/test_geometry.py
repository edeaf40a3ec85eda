"""Geometry: units, peers and the exact-cover matrix for every supported shape."""

from __future__ import annotations

import numpy as np
import pytest

from csp_sudoku import Geometry, GeometryError
from csp_sudoku.encodings.exact_cover import exact_cover


@pytest.mark.parametrize("size", [4, 6, 9, 12, 16, 25])
def test_standard_units_cover_each_cell_three_times(size: int) -> None:
    g = Geometry.standard(size)
    assert g.units.shape == (3 * size, size)
    counts = np.bincount(g.units.reshape(-1), minlength=g.ncells)
    assert np.all(counts == 3)
    for unit in g.units:
        assert len(set(unit.tolist())) == size


def test_nine_by_nine_peers() -> None:
    g = Geometry.standard(9)
    assert all(len(p) == 20 for p in g.peers)
    assert set(g.peers[0].tolist()) >= {1, 8, 9, 72, 10, 20}
    assert 30 not in g.peers[0]


def test_constructors_are_cached_and_hashable() -> None:
    assert Geometry.standard(9) is Geometry.standard(9)
    assert Geometry.x_sudoku() is Geometry.x_sudoku()
    assert Geometry.standard(9) != Geometry.x_sudoku()
    assert len({Geometry.standard(9), Geometry.standard(9), Geometry.windoku()}) == 2


def test_x_sudoku_and_windoku_extra_units() -> None:
    x = Geometry.x_sudoku()
    assert x.nunits == 29
    assert x.units[27].tolist() == [0, 10, 20, 30, 40, 50, 60, 70, 80]
    assert x.units[28].tolist() == [8, 16, 24, 32, 40, 48, 56, 64, 72]
    assert len(x.peers[40]) > 20  # the centre is on both diagonals
    w = Geometry.windoku()
    assert w.nunits == 31
    assert w.units[27].tolist() == [10, 11, 12, 19, 20, 21, 28, 29, 30]


def test_jigsaw_regions() -> None:
    labels = np.array([[0, 0, 1, 1], [0, 0, 1, 1], [2, 3, 3, 3], [2, 2, 2, 3]])
    g = Geometry.jigsaw(labels)
    assert g.size == 4
    assert sorted(map(sorted, g.units[8:].tolist())) == [
        [0, 1, 4, 5],
        [2, 3, 6, 7],
        [8, 12, 13, 14],
        [9, 10, 11, 15],
    ]
    with pytest.raises(GeometryError, match="exactly 4 cells"):
        Geometry.jigsaw([[0, 0, 0, 0], [0, 1, 1, 1], [1, 2, 2, 2], [2, 3, 3, 3]])
    with pytest.raises(GeometryError):
        Geometry.jigsaw([0, 1, 2])


@pytest.mark.parametrize(
    "geo",
    [
        Geometry.standard(4),
        Geometry.standard(6),
        Geometry.standard(9),
        Geometry.standard(16),
        Geometry.x_sudoku(9),
        Geometry.windoku(),
        Geometry.jigsaw(np.array([[0, 0, 1, 1], [0, 0, 1, 1], [2, 3, 3, 3], [2, 2, 2, 3]])),
    ],
)
def test_a_geometry_is_named_back_from_its_name(geo: Geometry) -> None:
    """``named`` reads back every shape from its name (a jigsaw's with its regions)."""
    assert Geometry.named(geo.name, geo.regions_text) == geo
    assert (geo.regions_text is None) == (geo.regions is None)


@pytest.mark.parametrize(
    ("name", "regions", "why"),
    [
        ("hexoku", None, "unknown geometry"),
        ("9x8", None, "unknown geometry"),
        ("7x7", None, "no standard box shape"),
        ("jigsaw-4x4", None, "needs its 16 region labels"),
        ("jigsaw-4x4", "0011001123332223!", "needs its 16 region labels"),
        ("jigsaw-4x4", "001100112333222!", "base-36"),
        ("jigsaw-4x4", "0000000000000000", "regions"),
        ("x-9x9", "0" * 81, "has no regions"),
        ("windoku", "0" * 81, "has no regions"),
    ],
)
def test_a_name_of_no_geometry_is_refused(name: str, regions: str | None, why: str) -> None:
    with pytest.raises(GeometryError, match=why):
        Geometry.named(name, regions)


def test_fewest_clues_are_the_proved_bounds_or_one_less_than_the_digits() -> None:
    """The exact fewest where it is proved (standard 4x4 and 9x9), else ``size - 1``: a
    unique puzzle shows all but at most one digit (two unseen digits could swap)."""
    assert Geometry.standard(9).fewest_clues == 17 and Geometry.standard(4).fewest_clues == 4
    assert Geometry.standard(16).fewest_clues == 15 and Geometry.standard(6).fewest_clues == 5
    assert Geometry.x_sudoku(9).fewest_clues == 8 and Geometry.windoku().fewest_clues == 8


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(GeometryError):
        Geometry.standard(9, 2, 4)
    with pytest.raises(GeometryError):
        Geometry.standard(7)
    with pytest.raises(GeometryError, match="not a known grid size"):
        Geometry.for_cells(80)


@pytest.mark.parametrize(
    "geo", [Geometry.standard(4), Geometry.standard(9), Geometry.x_sudoku(), Geometry.standard(16)]
)
def test_exact_cover_columns_have_n_candidates_each(geo: Geometry) -> None:
    ec = exact_cover(geo)
    n = geo.size
    assert ec.ncolumns == geo.ncells + geo.nunits * n
    dense = ec.to_dense()
    assert dense.shape == (geo.ncandidates, ec.ncolumns)
    assert np.all(dense.sum(axis=0) == n)
    # every candidate covers its cell column and one column per unit of its cell
    per_cell_units = (geo.cell_units >= 0).sum(axis=1)
    assert np.array_equal(dense.sum(axis=1), np.repeat(per_cell_units + 1, n))
    assert ec.to_sparse().shape == dense.shape  # type: ignore[attr-defined]


def test_exact_cover_nine_by_nine_is_729_by_324() -> None:
    ec = exact_cover(Geometry.standard(9))
    assert (ec.ncandidates, ec.ncolumns) == (729, 324)
    assert ec.column_name(0) == "r1c1"
    assert ec.column_name(81) == "1 in row 1"
    assert ec.column_name(81 + 9 * 9 + 4) == "5 in column 1"


@pytest.mark.parametrize("geo", [Geometry.standard(4), Geometry.x_sudoku(), Geometry.standard(16)])
def test_peer_table_is_the_padded_peer_lists(geo: Geometry) -> None:
    table, counts = geo.peer_table, geo.peer_counts
    assert table.shape == (geo.ncells, int(counts.max()))
    for cell, peers in enumerate(geo.peers):
        assert table[cell, : counts[cell]].tolist() == peers.tolist()
        assert np.all(table[cell, counts[cell] :] == -1)


def test_sizes_and_cell_arrays_that_are_no_shape_are_refused() -> None:
    """``Geometry.standard(4.0)`` made a shape named '4.0x4.0'; a (3, 3, 9) array
    was read as a 9x9 puzzle, and ragged rows were numpy's ValueError."""
    from csp_sudoku import ParseError, Puzzle

    for size in (4.0, "9", True):
        with pytest.raises(GeometryError, match="size must be a whole number"):
            Geometry.standard(size)  # type: ignore[arg-type]
    with pytest.raises(GeometryError, match="box_rows must be a whole number"):
        Geometry.standard(6, box_rows=2.0)  # type: ignore[arg-type]
    four = Geometry.standard(np.int64(4))  # a numpy int is a whole number, kept as an int
    assert four == Geometry.standard(4) and type(four.size) is int and four.name == "4x4"
    for cells in (np.zeros((3, 3, 9), int), np.zeros((27, 3), int), [[1, 2], [3]]):
        with pytest.raises(ParseError, match="a flat sequence or an N x N grid"):
            Puzzle(cells)
    for odd in (float("nan"), float("inf")):  # numpy's "invalid value" warning came first
        with pytest.raises(ParseError, match="must be integers"):
            Puzzle([odd] + [0] * 80)
    assert Puzzle(np.zeros((9, 9), int)) == Puzzle([0] * 81)


def test_a_shape_or_backend_given_as_something_else_is_named() -> None:
    """``geometry=9``, ``geometry="9x9"`` or ``backend=["sat"]`` reached an attribute
    of an int or a str deep inside (AttributeError: 'int' object has no attribute 'ncells')."""
    import csp_sudoku as cs
    from csp_sudoku import BackendError
    from csp_sudoku.core.errors import SymmetryError

    line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    calls = [
        lambda g: cs.solve(line, geometry=g),
        lambda g: cs.parse(line, g),
        lambda g: cs.Puzzle([0] * 81, g),
        lambda g: cs.random_grid(g),
        lambda g: list(cs.read_puzzles([line], g)),
        lambda g: list(cs.generate(1, geometry=g)),
        lambda g: cs.Checker(geometry=g),
    ]
    for call in calls:
        for not_a_shape in (9, "9x9"):
            with pytest.raises(GeometryError, match=r"geometry must be a Geometry .*named"):
                call(not_a_shape)
    with pytest.raises(BackendError, match="backend must be a name"):
        cs.count_solutions(line, backend=["sat"])  # type: ignore[arg-type]
    with pytest.raises(SymmetryError, match="symmetry must be a name"):
        list(cs.generate(1, symmetry=None))  # type: ignore[arg-type]
    # and what is one still is (a numpy array of cells, a solution given as cells)
    solution = cs.solve(line)
    assert solution is not None and cs.is_solution(solution.cells, cs.parse(line).cells)


def test_a_solution_is_held_to_the_puzzles_rules_not_its_own() -> None:
    """A plain grid given as a Puzzle passed as the solution of an X-Sudoku whose
    diagonals it breaks (its own geometry was used), and certify then certified an
    X-Sudoku with no solution at all."""
    import csp_sudoku as cs
    from csp_sudoku import Puzzle
    from csp_sudoku.core.errors import CertificateError
    from csp_sudoku.tools.certify import certify
    from tests.independent import count_solutions

    plain = cs.solve(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )
    assert plain is not None
    x = Geometry.x_sudoku()
    diagonal = [int(plain.cells[i * 10]) for i in range(9)]
    assert sorted(diagonal) != list(range(1, 10))  # the grid breaks the X rule
    xp = Puzzle(plain.cells, x).without(range(0, 81, 2))
    assert cs.count_solutions(xp) == 0
    for solution in (plain, plain.cells, plain.to_line()):
        assert not cs.is_solution(solution, xp)
    assert not cs.is_solution(plain, Puzzle(np.zeros(81, np.int8), x))
    assert not cs.is_solution(plain, "12..34......4..3")  # another size: no solution
    with pytest.raises(CertificateError, match="does not solve"):
        certify(xp, solution=plain)
    assert cs.is_solution(plain, plain.without(range(40)))  # the plain puzzle's own
    assert count_solutions(plain.without(range(40)).cells, limit=1) == 1
