"""Extra region: the digits of a given set of cells differ (a unit when it has N cells)."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints._groups import DistinctCells


@dataclass(frozen=True)
class ExtraRegion(DistinctCells):
    """The digits of ``cells`` differ."""

    kind = "extraregion"
    noun = "region"
