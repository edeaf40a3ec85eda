"""What a technique of Sudoku Explainer's order is: its name, its place, its finder.

Sudoku Explainer (SE) keeps its techniques in one list, each a "hint producer"
with a name (its ``SolvingTechnique``: ``Hidden Single``, ``Pointing &
Claiming``, ``Forcing Chains & Cycles``, ...), and rates a puzzle by asking
them in that order, at every step, for a hint. The replay
(:mod:`csp_sudoku.human.se_order`) keeps the same list: each technique is a
:class:`SeTechnique` (SE's name, its place in SE's order, the raters that ask
for it, its finder, the names of the hints it gives), registered with one line
in ``se_order.py`` (:func:`~csp_sudoku.human.se_order.register`), and the
replay asks the registered techniques in order. A hint is a :class:`SeStep`.

SE's value of each hint is the technique catalogue's
(:mod:`csp_sudoku.human.catalogue`, ``csp_sudoku/data/techniques.tsv``: one
row a hint name, in SE's order, with its difficulty), which
:attr:`SeTechnique.difficulty` reads; the finder computes each hint's own
value (the values of :mod:`csp_sudoku.human.costs`, plus SE's length bonus for
a chain). ``csp_sudoku/human/SE_TEMPLATE.py`` is a technique to copy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from csp_sudoku.human.chains import Chain
from csp_sudoku.human.state import CandidateState

Pair = tuple[int, int]

#: The raters whose order can be replayed: SukakuExplainer's serate (with its
#: strong-linked fishes and larger wings) and Sudoku Explainer 1.2.1's.
PROFILES: tuple[str, ...] = ("sukaku", "classic")


@dataclass(frozen=True)
class SeStep:
    """One hint of the replay.

    Attributes:
        technique: SE's name of the technique (``Hidden Single``, ``Forcing
            Chain``, ``Dynamic Region Forcing Chains``, ...).
        difficulty: its value on SE's scale.
        placements: ``(cell, digit)`` placed.
        eliminations: ``(cell, digit)`` removed.
        complexity: a chain's complexity (SE's count of the literals it
            uses; for graded-refutation steps the human model's chain
            length), 0 for other techniques.
        level: the graded-refutation level of a step beyond SE's dynamic
            forcing chains (1 or 2), -1 for SE's own techniques.
        form: that step's form (``contradiction``, ``cell``, ``region``), or "".
        chain: the literals ``(cell, digit, on)`` of a forcing (X-)chain step,
            its premise first and the premise's negation last, or of a
            bidirectional cycle, its first literal repeated last (the loop
            closes); each follows from the one before by one of SE's static
            links.
        branches: the premises ``(cell, digit, on)`` of a Nishio, cell,
            region, double or contradiction forcing chains step, one per
            branch (the assumption of a one-branch step); every branch leads
            to the step's conclusion (or, for one branch, to a contradiction).
            The links inside the branches are not recorded here; the
            figure finds them again (:mod:`csp_sudoku.human.se_branches`).
        chains: the human model's chains of a step beyond SE's dynamic
            forcing chains (:class:`csp_sudoku.human.chains.Chain`, one per
            branch; nested refutations inside as ``inner`` chains).
        shown: the eliminations of a direct hint that SukakuExplainer shows
            but does not make: its direct pointing, claiming and hidden sets
            place the single their eliminations leave and keep those pencil
            marks (a later hint may remove them), where Sudoku Explainer 1.2.1
            removes them (they are then ``eliminations``). Drawn, never applied.
    """

    technique: str
    difficulty: float
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    complexity: int = 0
    level: int = -1
    form: str = ""
    chain: tuple[tuple[int, int, bool], ...] = ()
    branches: tuple[tuple[int, int, bool], ...] = ()
    chains: tuple[Chain, ...] = ()
    shown: tuple[Pair, ...] = ()


def commit(state: CandidateState, step: SeStep) -> SeStep:
    """Apply a hint as SE does (its removals, then its placement) and return it."""
    for c, d in step.eliminations:
        state.eliminate(c, d)
    for c, d in step.placements:
        state.place(c, d)
    return step


#: A technique's finder: on the pencil marks ``state``, the hint SE would take of
#: the technique, applied to ``state`` (:func:`commit`), or None (``state``
#: unchanged).
Finder = Callable[[CandidateState], SeStep | None]


@dataclass(frozen=True)
class SeTechnique:
    """One technique of SE's order (SE's hint producer).

    Attributes:
        name: SE's name of the technique, which the registry looks it up by:
            the name of its hints where it gives one kind, else SE's name of
            the producer (``Pointing & Claiming``, ``Forcing Chains & Cycles``).
        order: its place in SE's order: the replay asks every technique of a
            smaller order first. SE's own step by 10, so that a new one fits
            between two of them.
        find: the finder (:data:`Finder`).
        raters: the raters whose order has it (:data:`PROFILES`;
            SukakuExplainer's strong-linked fishes and wings of four cells and
            more are its own).
        hints: the names its hints carry (:attr:`SeStep.technique`), each a
            row of the technique catalogue; empty: ``name`` alone.
    """

    name: str
    order: int
    find: Finder
    raters: tuple[str, ...] = PROFILES
    hints: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The names its hints carry (:attr:`hints`, or ``name`` alone)."""
        return self.hints or (self.name,)

    @property
    def values(self) -> tuple[float, float]:
        """The least and the greatest value SE gives its hints, from the technique
        catalogue (infinite for a chain, whose length bonus has no bound).

        Raises:
            ArgumentError: a hint name the catalogue lacks (add its row to
                ``csp_sudoku/data/techniques.tsv``).
        """
        from csp_sudoku.human.catalogue import lookup

        spans = [lookup(name).values for name in self.names]
        return min(low for low, _ in spans), max(high for _, high in spans)

    @property
    def difficulty(self) -> str:
        """SE's value of its hints as the catalogue writes one: ``3.2``, a range
        ``4.5-4.8``, or ``6.5+`` for a chain (base plus SE's length bonus)."""
        low, high = self.values
        if math.isinf(high):
            return f"{low}+"
        return f"{low}" if low == high else f"{low}-{high}"


__all__ = ["PROFILES", "Finder", "Pair", "SeStep", "SeTechnique", "commit"]
