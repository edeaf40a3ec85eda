"""An independent solution checker for the tests.

It shares no code with csp_sudoku: it derives rows, columns, boxes, diagonals and
jigsaw regions from first principles, so a bug in the library's geometry or
backends cannot hide itself.
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


def count_solutions_9x9(clues: Sequence[int] | np.ndarray, limit: int = 2) -> int:
    """Solutions of a plain 9x9 puzzle, up to ``limit``, by a plain Python search.

    Shares nothing with csp_sudoku: candidates are recomputed from the grid at
    every node, the search fills the empty cell with the fewest candidates, and
    clues that clash count as no solution. Slow (tens of milliseconds to a few
    seconds a puzzle), so tests give it small samples.
    """
    grid = [int(v) for v in np.asarray(clues).reshape(-1)]
    if len(grid) != 81:
        raise ValueError("a 9x9 puzzle has 81 cells")
    peers = []
    for i in range(81):
        r, c = divmod(i, 9)
        b0 = (r // 3) * 27 + (c // 3) * 3
        ps = {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
        ps |= {b0 + dr * 9 + dc for dr in range(3) for dc in range(3)}
        ps.discard(i)
        peers.append(tuple(ps))
    for i, v in enumerate(grid):
        if v and any(grid[p] == v for p in peers[i]):
            return 0

    def search(found: int) -> int:
        best, best_opts = -1, None
        for i in range(81):
            if grid[i] == 0:
                opts = set(range(1, 10)) - {grid[p] for p in peers[i]}
                if best_opts is None or len(opts) < len(best_opts):
                    best, best_opts = i, opts
                    if len(opts) <= 1:
                        break
        if best_opts is None:
            return found + 1
        for v in sorted(best_opts):
            grid[best] = v
            found = search(found)
            grid[best] = 0
            if found >= limit:
                break
        return found

    return search(0)
