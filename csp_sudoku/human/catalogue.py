"""The technique catalogue: one table naming every technique the se path produces.

Why: the ``se`` rating names its hardest step with Sudoku Explainer's (SE)
names, and everything that shows or validates a technique name (the rating's
``details['hardest']``, ``explain``, the docs, a generator's
``--require-technique``) must read the same names from one place so they cannot
drift. Each entry gives SE's name exactly as :class:`SeStep.technique
<csp_sudoku.human.se_order.SeStep>` spells it, SE's difficulty (the base value;
chains add SE's length bonus to it), HoDoKu's name and library code for the
nearest HoDoKu solution type (``""`` where HoDoKu has none), and a one-line
description. HoDoKu's names and codes are those of its ``SolutionType`` table;
where the se technique is broader or narrower than the HoDoKu type the mapping
is marked approximate in the description. The table itself is
``csp_sudoku/data/techniques.tsv`` (one row a technique, tab-separated), read
into :data:`TECHNIQUES` at import.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from importlib import resources

from csp_sudoku.core.errors import ArgumentError


@dataclass(frozen=True)
class Technique:
    """One technique of the se path.

    Attributes:
        name: SE's name, exactly as the se replay's steps spell it.
        difficulty: SE's value as text: one value, a range, or ``base+``
            for chains (base plus SE's length bonus).
        hodoku_name: HoDoKu's name of the nearest solution type, or "".
        hodoku_code: HoDoKu's library code (four digits), or "".
        description: what the technique does, in one line.
    """

    name: str
    difficulty: str
    hodoku_name: str
    hodoku_code: str
    description: str

    @property
    def values(self) -> tuple[float, float]:
        """The least and the greatest value SE gives a step of this technique, read
        from :attr:`difficulty` (``3.2``, ``4.5-4.8``, ``8.5+``): the greatest is
        infinite for a chain (``base+``), whose length bonus has no bound.

        A puzzle's SE rating (ER) is the greatest value of its path's steps, so a
        path using this technique is rated at least the least value; the
        generator's technique filters refuse, before any search, a target that
        this makes impossible (:func:`csp_sudoku.generators.techniques.check_filters`).
        ``tests/test_catalogue.py`` checks every step of the se path of
        calibration puzzles against these bounds.
        """
        low, sep, high = self.difficulty.partition("-")
        if low.endswith("+"):
            return float(low[:-1]), math.inf
        return float(low), float(high) if sep else float(low)


def _read_table() -> tuple[Technique, ...]:
    """The rows of ``csp_sudoku/data/techniques.tsv``: one technique a line, its five
    fields tab-separated in :class:`Technique`'s order, under a header line.

    A table of data, not code: one row a technique, read once at import.
    """
    text = resources.files("csp_sudoku").joinpath("data/techniques.tsv").read_text("utf-8")
    rows = text.splitlines()[1:]
    return tuple(Technique(*row.split("\t")) for row in rows if row)


#: Every technique the se replay can name, in SE's order (easiest first).
TECHNIQUES: tuple[Technique, ...] = _read_table()

_BY_NAME: dict[str, Technique] = {t.name.casefold(): t for t in TECHNIQUES}


def technique_names() -> tuple[str, ...]:
    """Every technique name, in catalogue order (for validating user input)."""
    return tuple(t.name for t in TECHNIQUES)


#: SE's spellings of catalogue techniques, SE's word -> the catalogue's name.
#: SukakuExplainer names the variants of one technique by their shape (a
#: strong-linked fish of two links is a ``Skyscraper``, a ``2-String Kite`` or a
#: ``Turbot Fish``; ``Grouped`` when a link joins a group of cells) and appends a
#: code of the units used (``WXYZ-Wing 137``); Sudoku Explainer 1.2.1 says
#: ``Triplet`` where the catalogue says ``Triple``. Same technique, same value.
ALIASES: dict[str, str] = {
    "hidden triplet": "Hidden Triple",
    "naked triplet": "Naked Triple",
    "direct hidden triplet": "Direct Hidden Triple",
    "skyscraper": "Turbot Fish",
    "2-string kite": "Turbot Fish",
    "2 strong links": "Turbot Fish",
    "dynamic forcing chains (+)": "Dynamic Contradiction Forcing Chains (+)",
}

# a strong-linked fish of N links spelt the SukakuExplainer way: "N Strong links",
# "N-String Kite", "N Skyscrapers", "(N Strong Links) X-Loop"
_STRONG_LINKS = re.compile(
    r"^\(?(\d)(?: strong links\) x-loop| strong links|-string kite| skyscrapers)$"
)


def canonical_name(name: str) -> str:
    """The catalogue's name of ``name``, read as SE spells it, or ``name`` unchanged.

    Why: ratings from Sudoku Explainer (the calibration files, a user's
    ``--require-technique``) spell techniques as SE's hints do; comparing them
    with the se path's names needs one mapping, this one. Case, a trailing
    code of digits (``WXYZ-Wing 137``), ``Grouped``, a ``type N`` suffix and
    the spellings of :data:`ALIASES` are read; a name that is none of these
    comes back as given (stripped), so that partial names still work where
    containment is asked.
    """
    key = " ".join(name.split()).casefold()
    key = re.sub(r" type \d+$", "", key)  # Unique Rectangle type 2
    key = re.sub(r"(?<=[a-z)]) \d+$", "", key)  # the code of the units used
    key = key.replace("grouped ", "")
    match = _STRONG_LINKS.match(key)
    if match:
        n = int(match.group(1))
        key = "turbot fish" if n == 2 else f"{n} strong links"
    key = ALIASES.get(key, key).casefold()
    found = _BY_NAME.get(key)
    return found.name if found is not None else name.strip()


def lookup(name: str) -> Technique:
    """The technique called ``name`` (case-insensitive; SE's spellings read by
    :func:`canonical_name`).

    Raises:
        ArgumentError: no technique has that name; the message lists them all.
    """
    found = _BY_NAME.get(canonical_name(name).casefold())
    if found is None:
        raise ArgumentError(
            f"unknown technique {name!r}; choose from {', '.join(technique_names())}"
        )
    return found


def markdown_table() -> str:
    """The catalogue as a Markdown table (docs/techniques.md embeds it verbatim)."""
    lines = [
        "| SE name | SE difficulty | HoDoKu name | HoDoKu code | What it does |",
        "|---|---|---|---|---|",
    ]
    for t in TECHNIQUES:
        lines.append(
            f"| {t.name} | {t.difficulty} | {t.hodoku_name or '-'} | "
            f"{t.hodoku_code or '-'} | {t.description} |"
        )
    return "\n".join(lines) + "\n"


__all__ = [
    "ALIASES",
    "TECHNIQUES",
    "Technique",
    "canonical_name",
    "lookup",
    "markdown_table",
    "technique_names",
]
