"""The public solving API: one call per question, any puzzle-like input.

Every function accepts a :class:`~csp_sudoku.core.puzzle.Puzzle`, a puzzle string in
any supported text form, or a numpy array / sequence of cells. Backends and
their loaded solvers are cached behind these calls, so ``is_unique(s)`` in a
loop is already fast; :class:`Checker` is the same thing as an object for hot
loops that also know a solution. These calls may come from several threads at
once: the SAT backend loads one solver per thread (:mod:`csp_sudoku.backends.sat`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.backends import backend_for, backend_per_call, new_backend
from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.core.bits import popcount
from csp_sudoku.core.deadline import check_budget, deadline
from csp_sudoku.core.errors import (
    ArgumentError,
    CountBudgetExceeded,
    DeadlinePassed,
    NotUniqueError,
    ParseError,
    SudokuError,
)
from csp_sudoku.core.geometry import Geometry, check_geometry
from csp_sudoku.core.io import fast_cells, parse
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.verify import solution_fault

PuzzleLike = Puzzle | str | NDArray[np.integer] | Sequence[int]


def _same_shape(puzzle: Puzzle, geometry: Geometry | None) -> None:
    if geometry is not None and geometry != puzzle.geometry:
        raise ArgumentError(
            f"geometry={geometry.name} was given with a {puzzle.geometry.name} puzzle: "
            "a Puzzle keeps its own shape (parse its text in the other shape instead)"
        )


def _limit(limit: int) -> int:
    """``limit`` checked: a whole number of at least 1 (a count capped at 0 would read
    "no solution", and one at 2.5 came back as 3)."""
    if not is_whole(limit):
        raise ArgumentError(f"limit must be a whole number, got {limit!r}")
    if limit < 1:
        raise ArgumentError(f"limit must be at least 1, got {limit}")
    return int(limit)


def as_puzzle(puzzle: PuzzleLike, geometry: Geometry | None = None) -> Puzzle:
    """Convert any supported input to a :class:`Puzzle` (text is parsed, arrays validated).

    Raises:
        ArgumentError: a :class:`Puzzle` with a ``geometry`` other than its own
            (it would be answered in its own shape, not the one asked for).
    """
    check_geometry(geometry)
    if isinstance(puzzle, Puzzle):
        _same_shape(puzzle, geometry)
        return puzzle
    if isinstance(puzzle, str):
        return parse(puzzle, geometry)
    if puzzle is None or isinstance(puzzle, (bytes, int, float)):
        raise ParseError(
            "a puzzle is a Puzzle, a puzzle line (a string) or a sequence or N x N grid "
            f"of cell values, got {type(puzzle).__name__} {puzzle!r:.40}"
        )
    return Puzzle(puzzle, geometry)


def _cells_and_geometry(puzzle: PuzzleLike, geometry: Geometry | None) -> tuple[Cells, Geometry]:
    """The cheapest route from input to a validated flat int8 array."""
    check_geometry(geometry)
    if isinstance(puzzle, Puzzle):
        _same_shape(puzzle, geometry)
        return puzzle.cells, puzzle.geometry
    if isinstance(puzzle, str):
        quick = fast_cells(puzzle, geometry)
        if quick is not None:
            return quick
    p = as_puzzle(puzzle, geometry)
    return p.cells, p.geometry


def solve(
    puzzle: PuzzleLike, *, backend: str = "auto", geometry: Geometry | None = None
) -> Puzzle | None:
    """One solution of ``puzzle`` as a full :class:`Puzzle`, or None when it has none.

    Args:
        puzzle: the clues, in any supported form.
        backend: ``auto``, ``fast``, ``sat`` (``sat:glucose4`` ...), ``cpsat`` or ``dlx``.
        geometry: the shape, when it cannot be inferred from the input.
    """
    cells, geo = _cells_and_geometry(puzzle, geometry)
    sol = backend_per_call(geo, backend).solve(cells, geo)
    return None if sol is None else Puzzle(sol, geo)


def count_solutions(
    puzzle: PuzzleLike,
    limit: int = 2,
    *,
    backend: str = "auto",
    geometry: Geometry | None = None,
    budget_seconds: float | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> int:
    """The number of solutions, exact when below ``limit``; ``limit`` means "at least that many".

    A count with a big limit can run for hours (an empty 9x9 grid has about
    6.7e21 solutions). With ``budget_seconds`` or ``progress`` the search is
    split into parts of at most 10,000 solutions (by the candidates of the
    most constrained empty cell), counted one after the other:
    ``progress(parts_done, parts_known, solutions_so_far)`` is called after
    each, and past the budget :class:`~csp_sudoku.core.errors.CountBudgetExceeded`
    is raised with the solutions found so far (a lower bound).
    """
    limit = _limit(limit)
    budget_seconds = check_budget(budget_seconds, zero=True)  # 0: the first part only
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a function or None, not {progress!r}")
    cells, geo = _cells_and_geometry(puzzle, geometry)
    be = backend_per_call(geo, backend)
    if budget_seconds is None and progress is None:
        return be.count(cells, geo, limit)
    return _count_in_parts(
        np.asarray(cells, dtype=np.int8), geo, be, limit, budget_seconds, progress
    )


#: Solutions one part of a split count may reach before it is split further.
_CHUNK = 10_000


def _children(part: Cells, geo: Geometry) -> list[Cells]:
    """One part per candidate of ``part``'s most constrained empty cell (none: a dead end)."""
    empty = np.flatnonzero(part == 0)
    values = np.append(part, 0).astype(np.int64)  # the extra 0 answers the -1 peer padding
    digit_bits = np.where(values > 0, np.left_shift(1, np.maximum(values - 1, 0)), 0)
    used = np.bitwise_or.reduce(digit_bits[geo.peer_table[empty]], axis=1)
    free = ((1 << geo.size) - 1) & ~used
    k = int(np.argmin(popcount(free)))
    out = []
    for d in range(geo.size):
        if int(free[k]) >> d & 1:
            child = part.copy()
            child[int(empty[k])] = d + 1
            out.append(child)
    return out


def _count_in_parts(
    cells: Cells,
    geo: Geometry,
    be: Backend,
    limit: int,
    budget_seconds: float | None,
    progress: Callable[[int, int, int], None] | None,
) -> int:
    """:func:`count_solutions` in parts of at most :data:`_CHUNK` solutions each.

    A part that reaches the chunk is split by the candidates of its most
    constrained empty cell (the parts always partition the solutions, so the
    sum is exact). The budget is a deadline inside every part's search too
    (:mod:`csp_sudoku.core.deadline`), so it holds within the time between two
    looks at the clock, also in one long search of a 25x25.
    """
    start = time.monotonic()
    at = None if budget_seconds is None else time.time() + budget_seconds
    stack: list[Cells] = [cells]
    total = 0
    done = 0
    while stack:
        part = stack.pop()
        want = min(limit - total, _CHUNK)
        try:
            with deadline(at):
                n = be.count(part, geo, want)
        except DeadlinePassed:
            raise CountBudgetExceeded(total, cast(float, budget_seconds)) from None
        if n >= want and want < limit - total and np.any(part == 0):
            stack.extend(reversed(_children(part, geo)))  # count it again, in smaller parts
        else:
            total += n
            done += 1
        if progress is not None:
            progress(done, done + len(stack), total)
        if total >= limit:
            return total
        if budget_seconds is not None and time.monotonic() - start > budget_seconds and stack:
            raise CountBudgetExceeded(total, budget_seconds)
    return total


def is_unique(
    puzzle: PuzzleLike, *, backend: str = "auto", geometry: Geometry | None = None
) -> bool:
    """True when ``puzzle`` has exactly one solution."""
    if (
        isinstance(puzzle, str)
        and backend == "auto"
        and (geometry is None or geometry == Geometry.standard(9))
    ):
        # a clean 81-symbol line goes straight to the 9x9 kernel, as
        # csp_sudoku.backends.fast.count_text9 does, inlined here: this is the
        # hot path of a caller's loop, where a Python call level is a tenth of
        # an easy puzzle's time
        count, budget = _TEXT9 or _text9_kernel()
        raw = puzzle.strip().encode("utf-8", "replace")
        if len(raw) == 81:
            n: int = count(raw, 2, budget)
            if n >= 0:
                return n == 1
    cells, geo = _cells_and_geometry(puzzle, geometry)
    return backend_per_call(geo, backend).count(cells, geo, 2) == 1


#: The 9x9 text counter and its node budget for a count to 2 (see :func:`_text9_kernel`).
_TEXT9: list[Any] = []


def _no_text9(raw: bytes, limit: int, budget: int) -> int:
    """The text counter when ``auto`` does not pick the fast backend for 9x9: always "no"."""
    return -1


def _text9_kernel() -> list[Any]:
    """:data:`_TEXT9` filled: ``[counter, budget]``.

    The counter is :func:`csp_sudoku.backends.fast.text9_counter`'s, looked up
    on first use, so importing the API does not import the compiled kernels;
    when ``auto`` does not resolve to the fast backend, one that always
    answers -1 (take the general path).
    """
    if not _TEXT9:
        if backend_for(Geometry.standard(9), "auto").name == "fast":
            from csp_sudoku.backends.fast import text9_counter

            _TEXT9.extend(text9_counter(2))
        else:
            _TEXT9.extend((_no_text9, 0))
    return _TEXT9


def solutions(
    puzzle: PuzzleLike, limit: int = 10, *, backend: str = "auto", geometry: Geometry | None = None
) -> list[Puzzle]:
    """Up to ``limit`` distinct solutions, as full puzzles."""
    limit = _limit(limit)
    cells, geo = _cells_and_geometry(puzzle, geometry)
    return [Puzzle(s, geo) for s in backend_per_call(geo, backend).solutions(cells, geo, limit)]


def count_many(
    puzzles: NDArray[np.integer] | Sequence[PuzzleLike],
    limit: int = 2,
    *,
    backend: str = "auto",
    geometry: Geometry | None = None,
) -> NDArray[np.int64]:
    """Solution counts (capped at ``limit``) for many puzzles of one geometry.

    Args:
        puzzles: an ``(n, ncells)`` integer array (0 = empty), or a sequence of puzzle-likes.
        limit: the cap on each count.
        backend: as for :func:`solve`.
        geometry: the shape; inferred from ``ncells`` when omitted.

    Returns:
        An ``(n,)`` int64 array of counts.

    Raises:
        ArgumentError: not an ``(n, cells)`` integer array or a sequence of puzzles of
            one geometry (the message names the argument, and the item at fault).
    """
    limit = _limit(limit)
    if isinstance(puzzles, np.ndarray):
        arr = puzzles
        if arr.ndim != 2 or not np.issubdtype(arr.dtype, np.integer):
            raise ArgumentError(
                f"puzzles: count_many needs an (n, cells) integer array, got shape "
                f"{arr.shape} of {arr.dtype}"
            )
        try:
            geo = geometry or Geometry.for_cells(arr.shape[1])
        except SudokuError as err:
            raise ArgumentError(f"puzzles: {err}") from None
        if arr.size and (arr.min() < 0 or arr.max() > geo.size):
            raise ArgumentError(f"puzzles: cell values must be in 0..{geo.size}")
        return backend_per_call(geo, backend).count_many(
            arr.astype(np.int8, copy=False), geo, limit
        )
    if isinstance(puzzles, (str, Puzzle)):
        raise ArgumentError("puzzles: count_many needs a sequence of puzzles, not one puzzle")
    if not isinstance(puzzles, Iterable):  # None, a number: not Python's TypeError
        raise ArgumentError(
            "puzzles: count_many needs an (n, cells) integer array or a sequence of puzzles, "
            f"got {type(puzzles).__name__}"
        )
    items = []
    for i, p in enumerate(puzzles):
        try:
            items.append(as_puzzle(p, geometry))
        except SudokuError as err:
            raise ArgumentError(f"puzzles[{i}]: {err}") from None
    if not items:
        return np.zeros(0, dtype=np.int64)
    geo = items[0].geometry
    if any(p.geometry != geo for p in items):
        raise ArgumentError("puzzles: count_many needs puzzles of one geometry")
    return backend_per_call(geo, backend).count_many(np.stack([p.cells for p in items]), geo, limit)


#: What :meth:`Checker.removable_clues` says of a puzzle without one solution ("no", "several").
_NOT_UNIQUE_FOR_REMOVAL = "removable clues need a unique puzzle; this one has {} solutions"


class Checker:
    """A uniqueness checker for hot loops: rules loaded once, clues as assumptions.

    Methods take raw flat cell arrays (``int8``, 0 = empty) as well as puzzles;
    raw arrays skip the validation of their values (what a generator's inner loop
    wants: a value out of range gives a wrong answer), but not of their length.
    A puzzle of another shape than the checker's is refused.

    A checker owns its backend (a loaded SAT solver, for ``sat``): it is made for
    this checker alone and freed by :meth:`close`, or at the end of a ``with``
    block. **Threads:** a checker serves one thread at a time; give each thread
    its own checker (checkers share no solver, so they run side by side safely).

    Args:
        geometry: the shape of every puzzle checked.
        backend: ``auto`` (the fastest that applies), or any backend name.

    Example:
        >>> with Checker(Geometry.standard(9)) as chk:    # doctest: +SKIP
        ...     chk.is_unique(puzzle)
        ...     chk.has_other_solution(clues, solution)   # one solver call
    """

    def __init__(self, geometry: Geometry | None = None, backend: str = "auto") -> None:
        self.geometry = check_geometry(geometry) or Geometry.standard(9)
        self.backend: Backend = new_backend(self.geometry, backend)

    def close(self) -> None:
        """Free the backend's native solvers; the checker is not used after this."""
        self.backend.close()

    def __enter__(self) -> Checker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _cells(self, puzzle: PuzzleLike | Cells) -> Cells:
        """The flat cells to check: a raw ``int8`` array as it is (its length checked,
        one comparison; its values not), anything else validated, in this shape."""
        if isinstance(puzzle, np.ndarray) and puzzle.dtype == np.int8 and puzzle.ndim == 1:
            if puzzle.size != self.geometry.ncells:  # the solvers would read another puzzle
                raise ParseError(
                    f"this checker's {self.geometry.name} puzzles have "
                    f"{self.geometry.ncells} cells, got an array of {puzzle.size}"
                )
            return cast(Cells, puzzle)
        if isinstance(puzzle, Puzzle) and puzzle.geometry != self.geometry:
            raise ArgumentError(
                f"this checker checks {self.geometry.name} puzzles, "
                f"got a {puzzle.geometry.name} one"
            )
        cells, _ = _cells_and_geometry(puzzle, self.geometry)  # read in this shape
        return np.asarray(cells, dtype=np.int8)

    def count(self, puzzle: PuzzleLike | Cells, limit: int = 2) -> int:
        """Solution count, capped at ``limit``."""
        if type(limit) is not int or limit < 1:  # the common case costs one test (hot loops)
            limit = _limit(limit)
        return self.backend.count(self._cells(puzzle), self.geometry, limit)

    def is_unique(self, puzzle: PuzzleLike | Cells) -> bool:
        """True when the puzzle has exactly one solution."""
        return self.backend.count(self._cells(puzzle), self.geometry, 2) == 1

    def solve(self, puzzle: PuzzleLike | Cells) -> Puzzle | None:
        """One solution as a :class:`Puzzle` (like :func:`solve`), or None."""
        cells = self.solve_cells(puzzle)
        return None if cells is None else Puzzle(cells, self.geometry)

    def solve_cells(self, puzzle: PuzzleLike | Cells) -> Cells | None:
        """One solution as a flat ``int8`` array (no object made: for hot loops), or None."""
        return self.backend.solve(self._cells(puzzle), self.geometry)

    def has_other_solution(self, clues: PuzzleLike | Cells, solution: PuzzleLike | Cells) -> bool:
        """True when ``clues`` admit a solution other than ``solution`` (one solver call)."""
        return (
            self.backend.other_solution(self._cells(clues), self.geometry, self._cells(solution))
            is not None
        )

    def removable_clues(
        self, puzzle: PuzzleLike | Cells, solution: PuzzleLike | Cells | None = None
    ) -> NDArray[np.intp]:
        """Cells whose clue can be removed alone while the puzzle stays unique.

        An empty result means the puzzle is *minimal*. A given ``solution``
        saves the search for it: it is checked (cheaply) to be a full valid
        grid keeping the clues, and the puzzle to have no other (one search,
        :meth:`has_other_solution`), since the backends' loop reads every clue
        of a puzzle with several solutions as needed (an empty grid looked
        minimal).

        Raises:
            NotUniqueError: when the puzzle does not have exactly one solution.
            ArgumentError: a ``solution`` that is not its solution grid.
        """
        cells = self._cells(puzzle)
        if solution is None:
            sols = self.backend.solutions(cells, self.geometry, 2)
            if len(sols) != 1:
                raise NotUniqueError(
                    _NOT_UNIQUE_FOR_REMOVAL.format("no" if not sols else "several")
                )
            known = sols[0]
        else:
            known = self._cells(solution)
            fault = solution_fault(known, self.geometry, cells)
            if fault is not None:  # a wrong one would make a puzzle look minimal
                raise ArgumentError(fault)
            if self.backend.other_solution(cells, self.geometry, known) is not None:
                raise NotUniqueError(_NOT_UNIQUE_FOR_REMOVAL.format("several"))
        return self.backend.removable_clues(cells, self.geometry, known)

    def is_minimal(self, puzzle: PuzzleLike | Cells) -> bool:
        """True when the puzzle is unique and no single clue can be removed."""
        return self.removable_clues(puzzle).size == 0


def removable_clues(
    puzzle: PuzzleLike, *, backend: str = "auto", geometry: Geometry | None = None
) -> NDArray[np.intp]:
    """Cells of a unique puzzle whose clue can be removed alone keeping it unique."""
    p = as_puzzle(puzzle, geometry)
    return _checker(p.geometry, backend).removable_clues(p.cells)


def is_minimal(
    puzzle: PuzzleLike, *, backend: str = "auto", geometry: Geometry | None = None
) -> bool:
    """True when ``puzzle`` is unique and no clue can be removed (see :func:`removable_clues`)."""
    p = as_puzzle(puzzle, geometry)
    return _checker(p.geometry, backend).is_minimal(p.cells)


_CHECKERS: dict[tuple[Geometry, str], Checker] = {}


def _checker(geometry: Geometry, backend: str) -> Checker:
    key = (geometry, backend)
    chk = _CHECKERS.get(key)
    if chk is None:
        chk = _CHECKERS[key] = Checker(geometry, backend)
    return chk
