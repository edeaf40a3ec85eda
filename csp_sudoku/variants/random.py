"""Random variant puzzles for tests and benchmarks: constraints drawn to fit a random grid.

A maker of test material, not a generator of good puzzles (for minimal
puzzles see the variant generator): it draws a full grid (9x9 unless asked
for another size of standard boxes, and with random irregular regions when
asked for a jigsaw, :func:`random_regions`) that keeps the global rules
asked for, then constraints that this grid keeps (cages with
the grid's sums, thermometers along increasing paths, dots where the
neighbours are consecutive or double ...), then adds givens from the grid
until :func:`csp_sudoku.variants.count` says the puzzle is unique. From such
a puzzle it makes

* ``"multiple"``: givens removed (and, when there are none left, constraints)
  until the count says two or more;
* ``"broken"``: one constraint or given changed so that the grid breaks it
  (a sum one off, a thermometer reversed, an X turned into a V, a wrong
  given). Such a puzzle usually has no solution, but another grid may keep
  it: only a solver says which.

Each puzzle comes as its f-puzzles object (``data``, what the tests' own
checker reads), the :class:`~csp_sudoku.constraints.VariantPuzzle` read from
it, and the grid it was drawn from::

    from csp_sudoku.variants.random import random_variant, random_variants
    v = random_variant(7, kinds=("killercage", "thermometer"))
    v.made, v.puzzle.kinds()    # ('unique', ['killercage', 'thermometer'])
    for v in random_variants(30, seed=1):   # every kind, unique/multiple/broken in turn
        ...
    random_variant(7, ("xv",), size=16, jigsaw=True)   # a 16x16 jigsaw

Seeds follow :mod:`csp_sudoku.core.seeds`: the same int gives the same
puzzle, and puzzle ``i`` of :func:`random_variants` is
``random_variant(item_seed(seed, i), ...)``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.constraints import KINDS, VariantPuzzle, from_fpuzzles
from csp_sudoku.constraints.whispers import gap
from csp_sudoku.core.errors import ArgumentError, GenerationError
from csp_sudoku.core.geometry import STANDARD_BOXES
from csp_sudoku.core.seeds import SeedLike, as_generator, as_seed, derive, item_seed
from csp_sudoku.encodings.cnf import HeldSolver, variable
from csp_sudoku.variants import SAT_SOLVER, count, solutions, variant_clauses

__all__ = [
    "DRAWN",
    "GLOBAL_KINDS",
    "MADE",
    "Made",
    "RandomVariant",
    "broken_from",
    "draw",
    "multiple_from",
    "random_full_grid",
    "random_regions",
    "random_variant",
    "random_variants",
    "unique_variant",
    "with_givens",
]

#: The side of the grids made unless another is asked for (any size of
#: :data:`~csp_sudoku.core.geometry.STANDARD_BOXES`).
N = 9
Made = Literal["unique", "multiple", "broken"]
#: How a puzzle can be made, in the order :func:`random_variants` cycles through.
MADE: tuple[Made, ...] = ("unique", "multiple", "broken")
#: The rules over the whole grid: the full grid is drawn to keep them.
GLOBAL_KINDS = (
    "antiknight",
    "antiking",
    "nonconsecutive",
    "diagonal+",
    "diagonal-",
    "disjointgroups",
)
#: Every kind the maker draws: the registry's (a negative kind such as
#: ``"-xv"`` draws every dot of its kind where the grid has one, and the rule).
DRAWN: tuple[str, ...] = tuple(KINDS)

Rows = list[list[int]]
Cell = tuple[int, int]
_KING = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
_ORTH = [(0, 1), (1, 0), (0, -1), (-1, 0)]
_DOTS = ("difference", "ratio", "xv")


@dataclass(frozen=True)
class RandomVariant:
    """One random puzzle of the maker.

    Attributes:
        data: the f-puzzles object (``size``, ``grid``, one field a kind).
        puzzle: ``data`` read by :func:`csp_sudoku.constraints.from_fpuzzles`.
        grid: the full grid (rows) every constraint was drawn to fit;
            it keeps the puzzle unless ``made`` is ``"broken"``.
        made: ``"unique"`` (givens added until unique), ``"multiple"`` (then
            removed until not) or ``"broken"`` (then one thing the grid breaks).
        kinds: the kinds asked for.
        seed: the integer seed that makes this puzzle again (with the same
            ``kinds``, ``made``, ``size`` and ``jigsaw``).
        size: the grid's side.
        jigsaw: whether its regions are irregular (drawn from the seed).
    """

    data: dict[str, Any]
    puzzle: VariantPuzzle
    grid: Rows
    made: Made
    kinds: tuple[str, ...]
    seed: int
    size: int = N
    jigsaw: bool = False


def _name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def _empty(size: int = N, regions: Sequence[int] | None = None) -> dict[str, Any]:
    """An f-puzzles object with no givens; every cell names its region when ``regions`` (a jigsaw)."""
    if regions is None:
        return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)]}
    grid = [[{"region": int(regions[r * size + c])} for c in range(size)] for r in range(size)]
    return {"size": size, "grid": grid}


def _regions(data: dict[str, Any]) -> list[int] | None:
    """The region labels of ``data``'s cells (row-major) when it is a jigsaw, else None."""
    cells = [cell for row in data["grid"] for cell in row]
    if not any("region" in cell for cell in cells):
        return None
    return [int(cell["region"]) for cell in cells]


def _region_of(data: dict[str, Any]) -> Callable[[Cell], int]:
    """The region label of a cell of ``data``: its ``region``, else its standard box."""
    n = data["size"]
    regions = _regions(data)
    if regions is not None:
        return lambda x: regions[x[0] * n + x[1]]
    br, bc = STANDARD_BOXES[n]
    return lambda x: (x[0] // br) * (n // bc) + x[1] // bc


def _is_given(data: dict[str, Any], r: int, c: int) -> bool:
    return "value" in data["grid"][r][c]


def _give(data: dict[str, Any], r: int, c: int, value: int) -> None:
    """Make ``value`` the given of cell ``(r, c)`` (its region, if any, kept)."""
    data["grid"][r][c] = {**data["grid"][r][c], "value": int(value), "given": True}


def _take(data: dict[str, Any], r: int, c: int) -> None:
    """Remove the given of cell ``(r, c)`` (its region, if any, kept)."""
    cell = data["grid"][r][c]
    data["grid"][r][c] = {k: v for k, v in cell.items() if k not in ("value", "given")}


def _walk(
    rng: np.random.Generator,
    n: int,
    length: int,
    ok: Callable[[list[Cell], Cell], bool],
    steps: Sequence[Cell] = _KING,
) -> list[Cell]:
    """A random path of ``length`` cells of an ``n x n`` grid whose every step keeps
    ``ok(path, next)``, or []."""
    for _ in range(200):
        path = [(int(rng.integers(n)), int(rng.integers(n)))]
        while len(path) < length:
            r, c = path[-1]
            nxt = [
                (r + a, c + b)
                for a, b in steps
                if 0 <= r + a < n and 0 <= c + b < n and (r + a, c + b) not in path
            ]
            nxt = [x for x in nxt if ok(path, x)]
            if not nxt:
                break
            path.append(nxt[int(rng.integers(len(nxt)))])
        if len(path) == length:
            return path
    return []


def _check_kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    if isinstance(kinds, str):
        kinds = (kinds,)
    out = tuple(kinds)
    for k in out:
        if k not in KINDS:
            raise ArgumentError(f"kind {k!r}: one of {', '.join(KINDS)}")
    return out


def draw(kind: str, rng: np.random.Generator, grid: Rows, data: dict[str, Any]) -> None:
    """Add to the f-puzzles object ``data`` some constraints of ``kind`` that ``grid`` keeps.

    ``grid`` is a full grid as rows, of ``data``'s size and regions; a global
    kind (anti-knight ...) is only set, so ``grid`` must keep it already
    (:func:`random_full_grid`). A kind that finds no place in this grid (no
    renban run, say) adds nothing.
    """
    v: Callable[[Cell], int] = lambda x: int(grid[x[0]][x[1]])  # noqa: E731
    n = len(grid)
    add = data.setdefault
    if kind == "killercage":
        for _ in range(3):
            size = int(rng.integers(2, 5))
            cells = _walk(rng, n, size, lambda p, x: v(x) not in map(v, p), _ORTH)
            if cells:
                entry: dict[str, Any] = {"cells": [_name(x) for x in cells]}
                if rng.random() < 0.8:
                    entry["value"] = str(sum(map(v, cells)))
                add(kind, []).append(entry)
    elif kind in ("thermometer", "slowthermometer"):
        for _ in range(2):
            line = _walk(rng, n, int(rng.integers(2, 5)), lambda p, x: v(x) > v(p[-1]))
            if line:
                add(kind, []).append({"lines": [[_name(x) for x in line]]})
    elif kind == "whispers":
        line = _walk(rng, n, int(rng.integers(2, 5)), lambda p, x: abs(v(x) - v(p[-1])) >= gap(n))
        if line:
            add(kind, []).append({"lines": [[_name(x) for x in line]]})
    elif kind == "arrow":
        _draw_arrows(rng, n, v, data)
    elif kind.lstrip("-") in _DOTS:
        _draw_dots(kind, rng, n, v, data)
    elif kind in ("odd", "even"):
        cells = [(r, c) for r in range(n) for c in range(n) if v((r, c)) % 2 == (kind == "odd")]
        data[kind] = [{"cell": _name(cells[i])} for i in rng.permutation(len(cells))[:6]]
    elif kind == "littlekillersum":
        for _ in range(2):
            r0, down = int(rng.integers(n - 2)), bool(rng.random() < 0.5)
            cells = [(r0 + k, k) if down else (n - 1 - r0 - k, k) for k in range(n - r0)]
            clue = (r0 - 1, -1) if down else (n - r0, -1)
            add(kind, []).append(
                {
                    "cells": [_name(x) for x in cells],
                    "value": str(sum(map(v, cells))),
                    "cell": _name(clue),
                    "direction": "DR" if down else "UR",
                }
            )
    elif kind == "sandwichsum":
        for _ in range(3):
            k = int(rng.integers(n))
            if rng.random() < 0.5:
                digits, clue = [v((k, c)) for c in range(n)], (k, -1)
            else:
                digits, clue = [v((r, k)) for r in range(n)], (-1, k)
            i, j = sorted((digits.index(1), digits.index(n)))
            add(kind, []).append({"cell": _name(clue), "value": str(sum(digits[i + 1 : j]))})
    elif kind == "palindrome":
        for _ in range(2000):
            a, b, m = ((int(rng.integers(n)), int(rng.integers(n))) for _ in range(3))
            if len({a, b, m}) == 3 and v(a) == v(b):
                add(kind, []).append({"lines": [[_name(a), _name(m), _name(b)]]})
                break
    elif kind == "renban":
        for _ in range(500):
            line = _walk(rng, n, int(rng.integers(2, 5)), lambda p, x: v(x) not in map(v, p))
            ds = sorted(map(v, line))
            if line and ds[-1] - ds[0] == len(ds) - 1:
                add(kind, []).append({"lines": [[_name(x) for x in line]]})
                break
    elif kind == "betweenline":
        for _ in range(500):
            line = _walk(rng, n, int(rng.integers(3, 5)), lambda p, x: True)
            lo, hi = sorted((v(line[0]), v(line[-1]))) if line else (0, 0)
            if line and all(lo < v(x) < hi for x in line[1:-1]):
                add(kind, []).append({"lines": [[_name(x) for x in line]]})
                break
    elif kind == "regionsumline":
        _draw_region_sum(rng, n, v, data)
    elif kind == "extraregion":
        cells = _walk(rng, n, 4, lambda p, x: v(x) not in map(v, p))
        if cells:
            add(kind, []).append({"cells": [_name(x) for x in cells]})
    elif kind in GLOBAL_KINDS:
        data[kind] = True
    else:
        raise ArgumentError(f"kind {kind!r}: one of {', '.join(KINDS)}")


def _draw_arrows(
    rng: np.random.Generator, n: int, v: Callable[[Cell], int], data: dict[str, Any]
) -> None:
    """Up to two arrows whose shaft sums to the circle (a circle of two cells now and then,
    on grids of digits 1-9 only: past 9 a pill has no reading and is refused)."""
    for _ in range(300):
        length = int(rng.integers(2, 5))
        line = _walk(rng, n, length, lambda p, x: True)
        if not line:
            continue
        two = length >= 4 and rng.random() < 0.5 and n <= 9
        start = 1 if two else 0  # the circle's cell the line leaves from
        circle, shaft = (
            sorted(line[: start + 1]),
            line[start + 1 :],
        )  # a pill reads in reading order
        if sum(map(v, shaft)) == int("".join(str(v(x)) for x in circle)):
            lines = [[_name(line[start]), *(_name(x) for x in shaft)]]
            data.setdefault("arrow", []).append(
                {"cells": [_name(x) for x in circle], "lines": lines}
            )
            if len(data["arrow"]) >= 2:
                return


def _draw_dots(
    kind: str, rng: np.random.Generator, n: int, v: Callable[[Cell], int], data: dict[str, Any]
) -> None:
    """Dots where the grid's neighbours fit: a third of them, or all and the negative rule."""
    dot = kind.lstrip("-")
    pairs = []
    for r in range(n):
        for c in range(n):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr >= n or cc >= n:
                    continue
                a, b = v((r, c)), v((rr, cc))
                entry: dict[str, Any] = {"cells": [_name((r, c)), _name((rr, cc))]}
                if dot == "difference" and abs(a - b) == 1:
                    pairs.append(entry)
                if dot == "ratio" and (a == 2 * b or b == 2 * a):
                    pairs.append(entry)
                if dot == "xv" and a + b in (5, 10):
                    pairs.append({**entry, "value": "X" if a + b == 10 else "V"})
    if kind.startswith("-") or rng.random() < 0.5:
        data[dot] = pairs
        negative = data.setdefault("negative", [])
        if dot not in negative:
            negative.append(dot)
    elif dot not in data:
        data[dot] = [pairs[i] for i in rng.permutation(len(pairs))[: max(1, len(pairs) // 3)]]


def _draw_region_sum(
    rng: np.random.Generator, n: int, v: Callable[[Cell], int], data: dict[str, Any]
) -> None:
    """A line crossing regions whose stretch in each region has the same sum."""
    region = _region_of(data)
    for _ in range(3000):
        line = _walk(rng, n, int(rng.integers(2, 6)), lambda p, x: True)
        sums: list[int] = []
        last = None
        for x in line:
            box = region(x)
            if box != last:
                sums.append(0)
            last = box
            sums[-1] += v(x)
        if len(sums) >= 2 and len(set(sums)) == 1:
            data.setdefault("regionsumline", []).append({"lines": [[_name(x) for x in line]]})
            return


def _check_size(size: int) -> None:
    if size not in STANDARD_BOXES:
        raise ArgumentError(f"size {size!r}: one of {', '.join(map(str, STANDARD_BOXES))}")


def random_regions(rng: np.random.Generator, size: int = N) -> list[int]:
    """Random irregular regions of a ``size x size`` jigsaw: each cell's label, row-major.

    From the standard boxes, many random exchanges of two cells between two
    side-by-side regions (a cell of each on their border), each kept only
    when both regions stay connected: ``size`` regions of ``size`` connected
    cells, far from the boxes after ``8 * size * size`` tries.
    """
    _check_size(size)
    br, bc = STANDARD_BOXES[size]
    label = [(r // br) * (size // bc) + c // bc for r in range(size) for c in range(size)]

    def beside(k: int) -> list[int]:
        r, c = divmod(k, size)
        return [(r + a) * size + c + b for a, b in _ORTH if 0 <= r + a < size and 0 <= c + b < size]

    def connected(region: int) -> bool:
        cells = [k for k in range(size * size) if label[k] == region]
        seen = {cells[0]}
        todo = [cells[0]]
        while todo:
            for j in beside(todo.pop()):
                if label[j] == region and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return len(seen) == len(cells)

    for _ in range(8 * size * size):
        a = int(rng.integers(size * size))
        ra = label[a]
        into = [label[j] for j in beside(a) if label[j] != ra]
        if not into:
            continue
        rb = into[int(rng.integers(len(into)))]
        back = [
            k
            for k in range(size * size)
            if label[k] == rb and k != a and any(label[j] == ra for j in beside(k))
        ]
        if not back:
            continue
        b = back[int(rng.integers(len(back)))]
        label[a], label[b] = rb, ra
        if not (connected(ra) and connected(rb)):
            label[a], label[b] = ra, rb
    return label


def random_full_grid(
    rng: np.random.Generator,
    rules: Sequence[str] = (),
    *,
    size: int = N,
    regions: Sequence[int] | None = None,
) -> Rows:
    """A random full grid (rows) that keeps the global ``rules`` (names of :data:`GLOBAL_KINDS`).

    ``size`` is the side (9 by default); ``regions``, each cell's region
    label row-major, makes a jigsaw (:func:`random_regions`). Solved by the
    SAT backend from a random first row and a few random cells (fewer on
    each try that has no solution, at last the empty grid).

    Raises:
        GenerationError: no grid keeps ``rules`` together.
    """
    _check_size(size)
    n = size
    base = _empty(n, regions)
    for rule in rules:
        if rule not in GLOBAL_KINDS:
            raise ArgumentError(f"rule {rule!r}: one of {', '.join(GLOBAL_KINDS)}")
        base[rule] = True
    for extra in (12, 8, 4, 0, -1):
        data = copy.deepcopy(base)
        if extra >= 0:
            first = rng.permutation(n) + 1
            for c in range(n):
                _give(data, 0, c, int(first[c]))
            for i in rng.permutation(n * (n - 1))[:extra]:
                r, c = divmod(int(i) + n, n)
                _give(data, r, c, int(rng.integers(1, n + 1)))
        found = solutions(from_fpuzzles(data), 1, backend="sat")
        if found:
            rows: Rows = found[0].cells.reshape(n, n).tolist()
            return rows
    raise GenerationError(f"no full grid keeps {', '.join(rules)}")


class _Others:
    """One SAT solver over a puzzle's rules and constraints, asked for a solution other than ``grid``.

    Built once per puzzle: the givens go in as assumptions, so adding or
    removing one costs a solver call, not a new solver.
    """

    def __init__(self, data: dict[str, Any], grid: Rows) -> None:
        self.n = n = data["size"]
        empty = _empty(n, _regions(data))["grid"]
        clauses, _ = variant_clauses(from_fpuzzles({**data, "grid": empty}))
        self.solver = HeldSolver(name=SAT_SOLVER, bootstrap_with=clauses)
        self.solver.add_clause(
            [-variable(r * n + c, grid[r][c], n) for r in range(n) for c in range(n)]
        )

    def other(self, data: dict[str, Any]) -> NDArray[np.int8] | None:
        """A solution of ``data`` that is not the grid (``n x n``), or None when there is none."""
        n = self.n
        givens = [
            variable(r * n + c, int(cell["value"]), n)
            for r, row in enumerate(data["grid"])
            for c, cell in enumerate(row)
            if "value" in cell
        ]
        if not self.solver.solve(assumptions=givens):
            return None
        truth = np.array(self.solver.get_model()[: n * n * n]) > 0
        out: NDArray[np.int8] = (truth.reshape(n, n, n).argmax(axis=2) + 1).astype(np.int8)
        return out

    def __enter__(self) -> _Others:
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.delete()


def with_givens(data: dict[str, Any], grid: Rows) -> dict[str, Any]:
    """``data`` with givens of ``grid`` added until it is unique.

    ``grid`` must keep ``data``. Each round asks the SAT solver for another
    solution and gives the grid's digits in the first cells where it differs
    (two, or one in 40 of the cells on bigger grids); at the end
    :func:`~csp_sudoku.variants.count` confirms.

    Raises:
        GenerationError: the result is not unique by :func:`~csp_sudoku.variants.count`
            (``grid`` breaks a constraint of ``data``).
    """
    data = copy.deepcopy(data)
    per_round = max(2, len(grid) ** 2 // 40)
    with _Others(data, grid) as others:
        while (other := others.other(data)) is not None:
            for r, c in np.argwhere(other != np.array(grid))[:per_round].tolist():
                _give(data, r, c, grid[r][c])
    if count(from_fpuzzles(data), 2) != 1:
        raise GenerationError("the grid breaks a constraint: it cannot be made unique")
    return data


#: Jigsaws drawn before giving up: some irregular regions admit no Sudoku at all, and
#: with a global rule few may (anti-king on 6x6: 12 of 200 random jigsaws admit a grid,
#: so 20 tries failed about 3 times in 10; 200 fail about 4 times in a million).
JIGSAW_TRIES = 200


def _regions_and_grid(
    rng: np.random.Generator, rules: Sequence[str], size: int, jigsaw: bool
) -> tuple[list[int] | None, Rows]:
    """The regions (None: the boxes) and a random full grid that keeps them and ``rules``.

    A jigsaw is drawn again while no grid keeps it (up to :data:`JIGSAW_TRIES` times).
    """
    if not jigsaw:
        return None, random_full_grid(rng, rules, size=size)
    for _ in range(JIGSAW_TRIES):
        regions = random_regions(rng, size)
        try:
            return regions, random_full_grid(rng, rules, size=size, regions=regions)
        except GenerationError:
            continue
    raise GenerationError(f"no full grid of {JIGSAW_TRIES} random jigsaws keeps {', '.join(rules)}")


def unique_variant(
    rng: np.random.Generator,
    kinds: Sequence[str] | None = None,
    extra: int = 2,
    *,
    size: int = N,
    jigsaw: bool = False,
) -> tuple[dict[str, Any], Rows, tuple[str, ...]]:
    """A unique puzzle with constraints of ``kinds`` drawn to fit a random grid.

    Args:
        rng: the generator every draw comes from.
        kinds: the kinds to draw (names of :data:`DRAWN`, each drawn once);
            None: one kind at random and ``extra`` other kinds that are not global.
        extra: how many kinds join the random one when ``kinds`` is None.
        size: the grid's side, a size of standard boxes (9 by default).
        jigsaw: irregular regions drawn first (:func:`random_regions`), named
            by every cell's ``region``.

    Returns:
        ``(data, grid, kinds)``: the f-puzzles object, the grid it was drawn
        from, and the kinds drawn.
    """
    if kinds is None:
        first = DRAWN[int(rng.integers(len(DRAWN)))]
        chosen = (first, *_others(rng, first, DRAWN, extra))
    else:
        chosen = _check_kinds(kinds)
    rules = [k for k in chosen if k in GLOBAL_KINDS]
    regions, grid = _regions_and_grid(rng, rules, size, jigsaw)
    data = _empty(size, regions)
    for kind in chosen:
        draw(kind, rng, grid, data)
    return with_givens(data, grid), grid, chosen


def _others(rng: np.random.Generator, first: str, pool: Sequence[str], extra: int) -> list[str]:
    """``extra`` kinds of ``pool`` at random, neither global nor ``first``'s own dot."""
    others = [k for k in pool if k not in GLOBAL_KINDS and k.lstrip("-") != first.lstrip("-")]
    return [others[int(i)] for i in rng.permutation(len(others))[:extra]]


def multiple_from(data: dict[str, Any], grid: Rows, rng: np.random.Generator) -> dict[str, Any]:
    """``data`` (unique, kept by ``grid``) with givens removed at random until it has two solutions or more.

    When every given is gone and the puzzle is still unique, its constraint
    entries go, one at a time at random (a dot kind under its negative rule,
    or a global rule, goes whole: one dot less would forbid that pair).
    ``grid`` keeps the result.
    """
    data = copy.deepcopy(data)
    n = data["size"]
    givens = [(r, c) for r in range(n) for c in range(n) if _is_given(data, r, c)]
    with _Others(data, grid) as others:
        for i in rng.permutation(len(givens)):
            r, c = givens[int(i)]
            _take(data, r, c)
            if others.other(data) is not None:
                break
    while count(from_fpuzzles(data), 2) < 2:
        negative = data.get("negative", [])
        fields = [k for k in data if k not in ("size", "grid", "negative")]
        key = fields[int(rng.integers(len(fields)))]
        value = data[key]
        if isinstance(value, list) and len(value) > 1 and key not in negative:
            value.pop(int(rng.integers(len(value))))
            continue
        del data[key]
        if key in negative:
            negative.remove(key)
            if not negative:
                del data["negative"]
    return data


def _sum_bounds(kind: str, entry: dict[str, Any], n: int) -> tuple[int, int]:
    """The sums a clue of ``kind`` may take on an ``n x n`` grid (outside them the reader
    refuses it)."""
    if kind == "killercage":
        k = len(entry["cells"])
        return k * (k + 1) // 2, sum(range(n - k + 1, n + 1))
    if kind == "littlekillersum":
        return len(entry["cells"]), n * len(entry["cells"])
    return 0, n * (n - 1) // 2 - 1  # a sandwich: every digit but 1 and n


def broken_from(data: dict[str, Any], grid: Rows, rng: np.random.Generator) -> dict[str, Any]:
    """``data`` with one thing changed that ``grid`` breaks, picked at random among:

    a sum clue one off (cage, little killer, sandwich), a thermometer
    reversed, an X turned into a V or back, a wrong given in an empty cell.
    Another grid may keep the result: only a solver gives its verdict.
    """
    data = copy.deepcopy(data)
    n = data["size"]
    options: list[Callable[[], None]] = []

    def off_by_one(kind: str, entry: dict[str, Any]) -> Callable[[], None]:
        def change() -> None:
            lo, hi = _sum_bounds(kind, entry, n)
            total = int(entry["value"])
            steps = [d for d in (-1, 1) if lo <= total + d <= hi]
            entry["value"] = str(total + steps[int(rng.integers(len(steps)))])

        return change

    def reverse(entry: dict[str, Any]) -> Callable[[], None]:
        return lambda: entry["lines"][0].reverse()

    def flip(entry: dict[str, Any]) -> Callable[[], None]:
        return lambda: entry.update(value="V" if entry["value"] == "X" else "X")

    for kind in ("killercage", "littlekillersum", "sandwichsum"):
        for e in data.get(kind, []):
            lo, hi = _sum_bounds(kind, e, n)
            if "value" in e and lo < hi:
                options.append(off_by_one(kind, e))
    options.extend(reverse(e) for e in data.get("thermometer", []))
    options.extend(flip(e) for e in data.get("xv", []))
    empty = [(r, c) for r in range(n) for c in range(n) if not _is_given(data, r, c)]

    def wrong_given() -> None:
        r, c = empty[int(rng.integers(len(empty)))]
        _give(data, r, c, int(grid[r][c]) % n + 1)

    if empty:
        options.append(wrong_given)
    if not options:  # a full grid of givens and no clue to change
        raise GenerationError("nothing to break: every cell is given and no clue has a value")
    options[int(rng.integers(len(options)))]()
    return data


def random_variant(
    seed: SeedLike = None,
    kinds: Sequence[str] | None = None,
    *,
    made: Made = "unique",
    extra: int = 2,
    size: int = N,
    jigsaw: bool = False,
) -> RandomVariant:
    """A random variant puzzle of ``kinds``, unique, multiple or broken (9x9 by default).

    Args:
        seed: see :mod:`csp_sudoku.core.seeds`; the same int gives the same puzzle.
        kinds: the kinds to draw (names of :data:`DRAWN`, each drawn once);
            None: one at random with ``extra`` others that are not global.
        made: ``"unique"``, ``"multiple"`` (:func:`multiple_from`) or
            ``"broken"`` (:func:`broken_from`).
        extra: see ``kinds``.
        size: the grid's side, a size of standard boxes (``STANDARD_BOXES``).
        jigsaw: irregular regions (:func:`random_regions`) instead of the boxes.

    Raises:
        ArgumentError: an unknown kind, ``made`` or ``size``.
    """
    if made not in MADE:
        raise ArgumentError(f"made {made!r}: one of {', '.join(MADE)}")
    _check_size(size)
    seed = as_seed(seed)
    rng = as_generator(seed)
    data, grid, chosen = unique_variant(rng, kinds, extra, size=size, jigsaw=jigsaw)
    if made == "multiple":
        data = multiple_from(data, grid, rng)
    elif made == "broken":
        data = broken_from(data, grid, rng)
    return RandomVariant(data, from_fpuzzles(data), grid, made, chosen, seed, size, jigsaw)


def random_variants(
    count: int,
    seed: SeedLike = None,
    kinds: Sequence[str] | None = None,
    *,
    made: Sequence[Made] = MADE,
    extra: int = 2,
    size: int = N,
    jigsaw: bool = False,
) -> Iterator[RandomVariant]:
    """``count`` random puzzles: each kind of ``kinds`` first in turn, ``made`` in turn.

    Puzzle ``i`` is built around kind ``kinds[i % len(kinds)]`` (all of
    :data:`DRAWN` by default) with ``extra`` other kinds of ``kinds`` that
    are not global, and made ``made[i % len(made)]``, on ``size`` x ``size``
    grids (a new jigsaw each when ``jigsaw``); its seed is
    ``item_seed(seed, i)``, and ``random_variant(v.seed, v.kinds,
    made=v.made, size=v.size, jigsaw=v.jigsaw)`` makes it again.
    """
    seed = as_seed(seed)
    pool = _check_kinds(kinds) if kinds is not None else DRAWN
    for i in range(count):
        item = item_seed(seed, i)
        first = pool[i % len(pool)]
        chosen = (first, *_others(as_generator(derive(item, 0)), first, pool, extra))
        yield random_variant(item, chosen, made=made[i % len(made)], size=size, jigsaw=jigsaw)
