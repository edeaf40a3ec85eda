"""An independent solution checker and solution counter for the tests.

It shares no code with csp_sudoku (tests/test_samples.py checks that it imports
nothing from the package): it derives rows, columns, boxes, diagonals and jigsaw
regions from first principles, so a bug in the library's geometry or backends
cannot hide itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def check_solution(
    solution: Sequence[int] | np.ndarray,
    clues: Sequence[int] | np.ndarray | None = None,
    *,
    box_rows: int | None = None,
    box_cols: int | None = None,
    regions: Sequence[int] | np.ndarray | None = None,
    diagonals: bool = False,
    windows: bool = False,
) -> bool:
    """True when ``solution`` is a full grid obeying every unit and keeping ``clues``."""
    sol = [int(v) for v in np.asarray(solution).reshape(-1)]
    n = round(len(sol) ** 0.5)
    if n * n != len(sol):
        return False
    want = set(range(1, n + 1))
    groups: list[list[int]] = []
    groups += [[r * n + c for c in range(n)] for r in range(n)]
    groups += [[r * n + c for r in range(n)] for c in range(n)]
    if regions is not None:
        labels = [int(x) for x in np.asarray(regions).reshape(-1)]
        for lab in set(labels):
            groups.append([i for i, x in enumerate(labels) if x == lab])
    else:
        if box_rows is None or box_cols is None:
            box_rows, box_cols = {
                4: (2, 2),
                6: (2, 3),
                9: (3, 3),
                12: (3, 4),
                16: (4, 4),
                25: (5, 5),
            }[n]
        for r0 in range(0, n, box_rows):
            for c0 in range(0, n, box_cols):
                groups.append(
                    [(r0 + r) * n + c0 + c for r in range(box_rows) for c in range(box_cols)]
                )
    if diagonals:
        groups.append([i * n + i for i in range(n)])
        groups.append([i * n + n - 1 - i for i in range(n)])
    if windows:
        for r0 in (1, 5):
            for c0 in (1, 5):
                groups.append([(r0 + r) * 9 + c0 + c for r in range(3) for c in range(3)])
    for g in groups:
        if {sol[i] for i in g} != want:
            return False
    if clues is not None:
        cl = [int(v) for v in np.asarray(clues).reshape(-1)]
        if len(cl) != len(sol) or any(c and c != s for c, s in zip(cl, sol, strict=True)):
            return False
    return True


_BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4), 25: (5, 5)}


def solutions(clues: Sequence[int] | np.ndarray, limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` solutions of a standard N x N puzzle (0 = empty), as flat lists."""
    found: list[list[int]] = []
    count_solutions(clues, limit, into=found)
    return found


def count_solutions(
    clues: Sequence[int] | np.ndarray, limit: int = 2, into: list[list[int]] | None = None
) -> int:
    """Solutions of a standard N x N puzzle (0 = empty), counted up to ``limit``
    (each appended to ``into`` when given).

    Plain backtracking: fill the empty cell with the fewest candidates first.
    Clues that clash already give 0. Meant for 4x4 and 9x9 test puzzles.
    """
    grid = [int(v) for v in np.asarray(clues).reshape(-1)]
    n = round(len(grid) ** 0.5)
    br, bc = _BOXES[n]
    unit_of = [
        (c // n, n + c % n, 2 * n + (c // n // br) * (n // bc) + (c % n) // bc)
        for c in range(len(grid))
    ]
    used = [0] * (3 * n)
    for c, v in enumerate(grid):
        if v:
            bit = 1 << v
            if any(used[u] & bit for u in unit_of[c]):
                return 0
            for u in unit_of[c]:
                used[u] |= bit
    full = ((1 << n) - 1) << 1
    found = 0

    def search() -> None:
        nonlocal found
        best, best_free = -1, 0
        best_count = n + 1
        for c, v in enumerate(grid):
            if v:
                continue
            a, b, x = unit_of[c]
            free = full & ~(used[a] | used[b] | used[x])
            k = bin(free).count("1")
            if k < best_count:
                best, best_free, best_count = c, free, k
                if k <= 1:
                    break
        if best < 0:
            found += 1
            if into is not None:
                into.append(list(grid))
            return
        for d in range(1, n + 1):
            bit = 1 << d
            if not best_free & bit:
                continue
            grid[best] = d
            for u in unit_of[best]:
                used[u] |= bit
            search()
            for u in unit_of[best]:
                used[u] &= ~bit
            grid[best] = 0
            if found >= limit:
                return

    search()
    return min(found, limit)


def symmetry_image(n: int, sym: str, r: int, c: int) -> tuple[int, int]:
    """Where the symmetry ``sym`` of an ``n`` x ``n`` grid sends the cell (r, c), 0-based:
    written from the symmetries' definitions, not from the package's maps."""
    return {
        "none": (r, c),
        "rot180": (n - 1 - r, n - 1 - c),
        "rot90": (c, n - 1 - r),
        "mirror": (r, n - 1 - c),
        "flip": (n - 1 - r, c),
        "diagonal": (c, r),
        "antidiagonal": (n - 1 - c, n - 1 - r),
    }[sym]
