"""Every constraint kind by name (its f-puzzles field): one line a kind.

To add a kind, see ``TEMPLATE.py`` beside this file. The order of :data:`KINDS`
is the order a puzzle keeps its constraints in, and the order f-puzzles
fields are written in. The negative dot kinds (``-difference``, ``-ratio``,
``-xv``) are read from and written to the f-puzzles ``negative`` list.
"""

from __future__ import annotations

from csp_sudoku.constraints.antiking import AntiKing
from csp_sudoku.constraints.antiknight import AntiKnight
from csp_sudoku.constraints.arrow import Arrow
from csp_sudoku.constraints.base import Constraint
from csp_sudoku.constraints.between import BetweenLine
from csp_sudoku.constraints.diagonal_down import DiagonalDown
from csp_sudoku.constraints.diagonal_up import DiagonalUp
from csp_sudoku.constraints.difference import NoWhiteDot, WhiteDot
from csp_sudoku.constraints.disjoint import DisjointGroups
from csp_sudoku.constraints.even import EvenCell
from csp_sudoku.constraints.extra_region import ExtraRegion
from csp_sudoku.constraints.killer import KillerCage
from csp_sudoku.constraints.little_killer import LittleKiller
from csp_sudoku.constraints.nonconsecutive import NonConsecutive
from csp_sudoku.constraints.odd import OddCell
from csp_sudoku.constraints.palindrome import Palindrome
from csp_sudoku.constraints.ratio import BlackDot, NoBlackDot
from csp_sudoku.constraints.region_sum import RegionSumLine
from csp_sudoku.constraints.renban import Renban
from csp_sudoku.constraints.sandwich import Sandwich
from csp_sudoku.constraints.slow_thermometer import SlowThermometer
from csp_sudoku.constraints.thermometer import Thermometer
from csp_sudoku.constraints.whispers import Whispers
from csp_sudoku.constraints.xv import XV, NoXV

#: name -> kind, in the order puzzles keep their constraints.
KINDS: dict[str, type[Constraint]] = {
    "killercage": KillerCage,
    "thermometer": Thermometer,
    "slowthermometer": SlowThermometer,
    "arrow": Arrow,
    "difference": WhiteDot,
    "ratio": BlackDot,
    "xv": XV,
    "-difference": NoWhiteDot,
    "-ratio": NoBlackDot,
    "-xv": NoXV,
    "odd": OddCell,
    "even": EvenCell,
    "antiknight": AntiKnight,
    "antiking": AntiKing,
    "nonconsecutive": NonConsecutive,
    "diagonal+": DiagonalUp,
    "diagonal-": DiagonalDown,
    "littlekillersum": LittleKiller,
    "sandwichsum": Sandwich,
    "palindrome": Palindrome,
    "renban": Renban,
    "whispers": Whispers,
    "betweenline": BetweenLine,
    "regionsumline": RegionSumLine,
    "disjointgroups": DisjointGroups,
    "extraregion": ExtraRegion,
}


def order(kind: str) -> int:
    """The place of ``kind`` in :data:`KINDS` (puzzles sort their constraints by it)."""
    return list(KINDS).index(kind)
