"""The exact-cover backend: Knuth's Algorithm X (*Dancing Links*, 2000).

Columns are the constraints of :mod:`csp_sudoku.encodings.exact_cover`; rows are
candidates. The links are Python dicts of sets (column -> candidates still
covering it), which plays the part of the dancing links: *select* removes every
row that clashes with the chosen one and *deselect* puts them back in reverse
order. Branching is on the column with fewest rows (Knuth's S heuristic).

Pure Python, so it is the slowest backend; it exists as an independent check
that shares no code with the SAT and CP-SAT models beyond the matrix. Under a
deadline (:mod:`csp_sudoku.core.deadline`) every node looks at the clock.
"""

from __future__ import annotations

import numpy as np

from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.core.deadline import check as check_deadline
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.exact_cover import exact_cover


class DlxBackend(Backend):
    """Count and enumerate solutions with Algorithm X over the exact-cover matrix."""

    name = "dlx"

    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        if limit <= 0:
            return []
        cover = exact_cover(geometry)
        n = geometry.size
        columns: dict[int, set[int]] = {
            col: set(cands) for col, cands in enumerate(cover.column_candidates.tolist())
        }
        rows: list[list[int]] = [
            [c for c in cols if c >= 0] for cols in cover.candidate_columns.tolist()
        ]
        chosen: list[int] = []
        for cell in np.flatnonzero(cells).tolist():
            row = cell * n + int(cells[cell]) - 1
            if any(col not in columns or row not in columns[col] for col in rows[row]):
                return []  # the clue clashes with an earlier one
            _select(columns, rows, row)
            chosen.append(row)
        found: list[Cells] = []
        _search(columns, rows, chosen, limit, found, n, geometry.ncells)
        return found


def _select(columns: dict[int, set[int]], rows: list[list[int]], row: int) -> list[set[int]]:
    removed: list[set[int]] = []
    for col in rows[row]:
        for other in columns[col]:
            for col2 in rows[other]:
                if col2 != col:
                    columns[col2].discard(other)
        removed.append(columns.pop(col))
    return removed


def _deselect(
    columns: dict[int, set[int]], rows: list[list[int]], row: int, removed: list[set[int]]
) -> None:
    for col in reversed(rows[row]):
        columns[col] = removed.pop()
        for other in columns[col]:
            for col2 in rows[other]:
                if col2 != col:
                    columns[col2].add(other)


def _search(
    columns: dict[int, set[int]],
    rows: list[list[int]],
    chosen: list[int],
    limit: int,
    found: list[Cells],
    n: int,
    ncells: int,
) -> None:
    check_deadline()
    if not columns:
        sol = np.zeros(ncells, dtype=np.int8)
        for row in chosen:
            sol[row // n] = row % n + 1
        found.append(sol)
        return
    col = min(columns, key=lambda k: len(columns[k]))
    for row in sorted(columns[col]):
        removed = _select(columns, rows, row)
        chosen.append(row)
        _search(columns, rows, chosen, limit, found, n, ncells)
        chosen.pop()
        _deselect(columns, rows, row, removed)
        if len(found) >= limit:
            return
