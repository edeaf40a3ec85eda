"""The names an option takes, as ``Literal`` types, so a type checker catches a typo.

``rate(p, "orcale")`` type-checks as an error with these; at run time the
same names are the tuples :data:`csp_sudoku.metrics.METRICS`,
:data:`csp_sudoku.generators.METHODS`, :data:`csp_sudoku.generators.SYMMETRIES`
and :data:`csp_sudoku.human.path.TECHNIQUES` (a test keeps both in step).
"""

from __future__ import annotations

from typing import Literal

#: A difficulty metric of :func:`csp_sudoku.rate`.
MetricName = Literal[
    "hsolve", "rounds", "mdrt", "oracle", "refutation", "dependency", "se", "combined"
]
#: A generator method of :func:`csp_sudoku.generators.generate`.
MethodName = Literal[
    "auto", "climb", "anneal", "random", "rg1", "ddg", "oracle", "hsolve", "pseudo"
]
#: A clue-pattern symmetry of the generators and the minimiser.
SymmetryName = Literal["none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal"]
#: A technique of the human model's solve path (``explain --techniques``).
TechniqueName = Literal["singles", "subsets", "chains", "refutation", "oracle"]

__all__ = ["MethodName", "MetricName", "SymmetryName", "TechniqueName"]
