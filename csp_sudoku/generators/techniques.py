"""Technique filters of generation: ``require_technique`` / ``exclude_technique``.

They use the ``se`` metric's replay of Sudoku Explainer's solving order: its
rating exposes ``details["technique_counts"]`` (every technique the SE path
applies, with how often), so a filter is about the **whole SE path**, not only
its hardest step. A name matches a technique of the path when it equals it or
is contained in it, case-insensitively ("Forcing Chains" matches every forcing
chains family, "Dynamic Region Forcing Chains" only that one).

Valid names are checked (before any search) against :data:`SE_TECHNIQUES`,
the technique catalogue's names (:mod:`csp_sudoku.human.catalogue`: the names
the SE replay gives its steps), with the same containment rule; and so are
filters that no puzzle can pass (:func:`check_filters`), which would
otherwise search until the budget ran out, or for ever.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.human.catalogue import TECHNIQUES, canonical_name, technique_names

if TYPE_CHECKING:
    from csp_sudoku.generators.targeting import Target

__all__ = ["SE_TECHNIQUES", "check_filters", "check_names", "path_uses"]

#: The technique names of the SE replay's steps (for checking user input): the one
#: technique catalogue's (:mod:`csp_sudoku.human.catalogue`).
SE_TECHNIQUES: tuple[str, ...] = technique_names()

#: The technique every SE path uses: its last step places the last empty cell's
#: digit, which is a hidden single (the only place left for that digit in the cell's
#: row), and the replay looks for hidden singles before any other technique.
EVERY_PATH = "Hidden Single"


def _matches(name: str, technique: str) -> bool:
    n = name.strip().lower()
    return bool(n) and n in technique.lower()


def check_names(names: str | Iterable[str]) -> tuple[str, ...]:
    """The names, read as the catalogue's (SE's spellings such as ``Skyscraper 011`` or
    ``Hidden Triplet`` included, :func:`~csp_sudoku.human.catalogue.canonical_name`) and
    checked against :data:`SE_TECHNIQUES`. A lone string is one name, not a sequence
    of one-letter names (each of which would match part of some technique).

    Raises:
        GenerationError: a name matches no technique; the message lists them.
    """
    out = tuple(canonical_name(n) for n in ((names,) if isinstance(names, str) else names))
    bad = [n for n in out if not any(_matches(n, t) for t in SE_TECHNIQUES)]
    if bad:
        raise GenerationError(
            f"unknown technique(s) {', '.join(map(repr, bad))}; "
            f"choose from (or part of) {', '.join(SE_TECHNIQUES)}"
        )
    return out


def check_filters(
    require: str | Iterable[str], exclude: str | Iterable[str], target: Target
) -> None:
    """Refuse, before any search, technique filters that no puzzle can pass.

    A puzzle's SE rating (ER) is the greatest value of its path's steps, and each
    technique's values are bounded (:attr:`Technique.values
    <csp_sudoku.human.catalogue.Technique.values>`). So no puzzle passes when a
    required name names only techniques an excluded name also names; when the
    target is of the ``se`` metric and a required name names only techniques
    SE values above the target's greatest score; or when every technique SE
    can value at the target's least score or more is excluded. Nor when an
    excluded name names :data:`EVERY_PATH`, which every path uses (``Single``
    does). Names are read as :func:`check_names` reads them (a lone string is
    one name).

    Raises:
        GenerationError: saying which filter no puzzle can pass, and why.
    """
    require, exclude = check_names(require), check_names(exclude)
    low, high = target.bounds() if target.metric == "se" else (0.0, math.inf)

    def excluded(name: str) -> str | None:
        return next((e for e in exclude if _matches(e, name)), None)

    every = excluded(EVERY_PATH)
    if every is not None:
        raise GenerationError(
            f"excluded technique {every!r} names {EVERY_PATH}, which every puzzle's SE path "
            "uses (its last step places the last digit by one): no puzzle can pass"
        )

    for r in require:
        named = [t for t in TECHNIQUES if _matches(r, t.name)]
        left = [t for t in named if excluded(t.name) is None]
        if not left:
            by = sorted({str(excluded(t.name)) for t in named})
            raise GenerationError(
                f"required technique {r!r} is excluded too (by {', '.join(map(repr, by))}): "
                "no puzzle can pass both filters"
            )
        least = min(t.values[0] for t in left)
        if least > high:
            raise GenerationError(
                f"required technique {r!r}: SE values it at {least:.1f} or more, above the "
                f"target's greatest se score, {high:.1f} (a puzzle's se score is the value "
                "of its hardest step)"
            )
    if low > 0 and not any(t.values[1] >= low and excluded(t.name) is None for t in TECHNIQUES):
        raise GenerationError(
            f"every technique SE values at {low:.1f} or more is excluded, but a puzzle of "
            "the target's se scores needs one (a puzzle's se score is the value of its "
            "hardest step)"
        )


def path_uses(counts: Mapping[str, int], name: str) -> bool:
    """True when the SE path (``technique_counts``) applies a technique ``name`` matches."""
    return any(_matches(name, t) and n > 0 for t, n in counts.items())
