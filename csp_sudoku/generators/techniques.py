"""Technique filters of generation: ``require_technique`` / ``exclude_technique``.

They use the ``se`` metric's replay of Sudoku Explainer's solving order: its
rating exposes ``details["technique_counts"]`` (every technique the SE path
applies, with how often), so a filter is about the **whole SE path**, not only
its hardest step. A name matches a technique of the path when it equals it or
is contained in it, case-insensitively ("Forcing Chains" matches every forcing
chains family, "Dynamic Region Forcing Chains" only that one).

Valid names are checked (before any search) against :data:`SE_TECHNIQUES`,
the technique catalogue's names (:mod:`csp_sudoku.human.catalogue`: the names
the SE replay gives its steps), with the same containment rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.human.catalogue import canonical_name, technique_names

__all__ = ["SE_TECHNIQUES", "check_names", "path_uses"]

#: The technique names of the SE replay's steps (for checking user input): the one
#: technique catalogue's (:mod:`csp_sudoku.human.catalogue`).
SE_TECHNIQUES: tuple[str, ...] = technique_names()


def _matches(name: str, technique: str) -> bool:
    n = name.strip().lower()
    return bool(n) and n in technique.lower()


def check_names(names: Iterable[str]) -> tuple[str, ...]:
    """The names, read as the catalogue's (SE's spellings such as ``Skyscraper 011`` or
    ``Hidden Triplet`` included, :func:`~csp_sudoku.human.catalogue.canonical_name`) and
    checked against :data:`SE_TECHNIQUES`.

    Raises:
        GenerationError: a name matches no technique; the message lists them.
    """
    out = tuple(canonical_name(n) for n in names)
    bad = [n for n in out if not any(_matches(n, t) for t in SE_TECHNIQUES)]
    if bad:
        raise GenerationError(
            f"unknown technique(s) {', '.join(map(repr, bad))}; "
            f"choose from (or part of) {', '.join(SE_TECHNIQUES)}"
        )
    return out


def path_uses(counts: Mapping[str, int], name: str) -> bool:
    """True when the SE path (``technique_counts``) applies a technique ``name`` matches."""
    return any(_matches(name, t) and n > 0 for t, n in counts.items())
