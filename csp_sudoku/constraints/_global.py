"""The shared shape of the rules that forbid a relation between cells a move apart.

Anti-knight, anti-king and non-consecutive: for every two cells a given move
apart (a knight's, a king's, a rook's single step), the digits must not keep
a relation (equal, or consecutive).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class MoveRule(base.GlobalRule):
    """No two cells one of :attr:`steps` apart hold digits that differ by :attr:`gap`."""

    steps: ClassVar[tuple[tuple[int, int], ...]]
    #: 0: the digits must differ; 1: they must not be consecutive.
    gap: ClassVar[int]

    def pairs(self, size: int) -> list[tuple[base.Cell, base.Cell]]:
        """The pairs of cells the rule binds on a ``size`` grid."""
        return base.neighbours(size, self.steps)

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        out: base.Clauses = []
        for a, b in self.pairs(cnf.size):
            out.extend(base.forbid_pairs(cnf, a, b, lambda x, y: abs(x - y) != self.gap))
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        n = model.puzzle.geometry.size
        m, x = model.model, model.x
        for pa, pb in self.pairs(n):
            if self.gap == 0:
                va, vb = base.cp_values(model, (pa, pb))
                m.add(va != vb)
                continue
            a, b = pa[0] * n + pa[1], pb[0] * n + pb[1]
            # a gap on the cell-digit Booleans, one clause a forbidden pair of digits (as
            # the CNF has them), not |x - y| != gap on the integers: CP-SAT propagates
            # the clauses further (7x faster on non-consecutive puzzles; the differences
            # stay on the integers, 0.8x as clauses: benchmarks/bench_cpsat_rules.py)
            for d in range(n):
                for e in (d - self.gap, d + self.gap):
                    if 0 <= e < n:
                        m.add_bool_or([x[a, d].Not(), x[b, e].Not()])

    def lower(self, low: base.Lowering) -> None:
        if self.gap == 0:
            low.differ(self.pairs(low.size))
        else:
            low.relation(self.pairs(low.size), lambda x, y: abs(x - y) != self.gap, self.kind)

    def check(self, grid: base.Grid) -> bool:
        return all(
            abs(base.at(grid, a) - base.at(grid, b)) != self.gap for a, b in self.pairs(len(grid))
        )
