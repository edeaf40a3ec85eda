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
is marked approximate in the description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


def _t(name: str, difficulty: str, hname: str, hcode: str, text: str) -> Technique:
    return Technique(name, difficulty, hname, hcode, text)


#: Every technique the se replay can name, in SE's order (easiest first).
TECHNIQUES: tuple[Technique, ...] = (
    _t(
        "Hidden Single",
        "1.0-1.5",
        "Hidden Single",
        "0002",
        "a digit has one place left in a unit (1.0 when it is the unit's last cell: HoDoKu's Full House 0000)",
    ),
    _t(
        "Direct Pointing",
        "1.7",
        "Locked Candidates Type 1 (Pointing)",
        "0100",
        "pointing whose eliminations at once leave a hidden single, which it places",
    ),
    _t(
        "Direct Claiming",
        "1.9",
        "Locked Candidates Type 2 (Claiming)",
        "0101",
        "claiming whose eliminations at once leave a hidden single, which it places",
    ),
    _t(
        "Direct Hidden Pair",
        "2.0",
        "Hidden Pair",
        "0210",
        "hidden pair whose eliminations at once leave a hidden single, which it places",
    ),
    _t("Naked Single", "2.3", "Naked Single", "0003", "a cell has one candidate left"),
    _t(
        "Direct Hidden Triple",
        "2.5",
        "Hidden Triple",
        "0211",
        "hidden triple whose eliminations at once leave a hidden single, which it places",
    ),
    _t(
        "Pointing",
        "2.6",
        "Locked Candidates Type 1 (Pointing)",
        "0100",
        "a digit of a box lies on one line: remove it from the rest of the line",
    ),
    _t(
        "Claiming",
        "2.8",
        "Locked Candidates Type 2 (Claiming)",
        "0101",
        "a digit of a line lies in one box: remove it from the rest of the box",
    ),
    _t(
        "Naked Pair",
        "3.0",
        "Naked Pair",
        "0200",
        "two cells of a unit hold the same two digits: remove them from the unit",
    ),
    _t("X-Wing", "3.2", "X-Wing", "0300", "a digit's places in two lines lie in two cross lines"),
    _t(
        "Hidden Pair",
        "3.4",
        "Hidden Pair",
        "0210",
        "two digits of a unit have the same two places: other digits leave them",
    ),
    _t("Naked Triple", "3.6", "Naked Triple", "0201", "three cells of a unit hold three digits"),
    _t(
        "Swordfish",
        "3.8",
        "Swordfish",
        "0301",
        "a digit's places in three lines lie in three cross lines",
    ),
    _t("Hidden Triple", "4.0", "Hidden Triple", "0211", "three digits of a unit have three places"),
    _t(
        "Turbot Fish",
        "4.0-4.3",
        "Turbot Fish",
        "0403",
        "two strong links on one digit joined by a weak one (HoDoKu also: Skyscraper 0400, 2-String Kite 0401); chains of strong links add 0.1-0.3 by the units used",
    ),
    _t("XY-Wing", "4.2", "XY-Wing", "0800", "a bivalue pivot and two bivalue pincers"),
    _t("XYZ-Wing", "4.4", "XYZ-Wing", "0801", "a trivalue pivot and two bivalue pincers"),
    _t(
        "Unique Rectangle",
        "4.5",
        "Uniqueness Test 1",
        "0600",
        "types 1, 2 and 4 of the deadly rectangle (HoDoKu 0600, 0601, 0603; approximate)",
    ),
    _t("Naked Quad", "5.0", "Naked Quadruple", "0202", "four cells of a unit hold four digits"),
    _t(
        "Jellyfish",
        "5.2",
        "Jellyfish",
        "0302",
        "a digit's places in four lines lie in four cross lines",
    ),
    _t("Hidden Quad", "5.4", "Hidden Quadruple", "0212", "four digits of a unit have four places"),
    _t("3 Strong Links", "5.4-5.7", "", "", "three strong links on one digit joined by weak ones"),
    _t(
        "WXYZ-Wing",
        "5.5-5.6",
        "",
        "",
        "an almost locked set of three cells and a bivalue cell",
    ),
    _t(
        "BUG type 1",
        "5.6",
        "Bivalue Universal Grave + 1",
        "0610",
        "every empty cell but one is bivalue: the odd cell's thrice-seen digit is placed",
    ),
    _t("4 Strong Links", "5.8-6.1", "", "", "four strong links on one digit joined by weak ones"),
    _t("VWXYZ-Wing", "6.2-6.4", "", "", "an almost locked set of four cells and a bivalue cell"),
    _t("5 Strong Links", "6.2-6.5", "", "", "five strong links on one digit joined by weak ones"),
    _t("UVWXYZ-Wing", "6.6", "", "", "an almost locked set of five cells and a bivalue cell"),
    _t("6 Strong Links", "6.6-6.9", "", "", "six strong links on one digit joined by weak ones"),
    _t(
        "Bidirectional X-Cycle",
        "6.5+",
        "Continuous Nice Loop",
        "0706",
        "a closed loop on one digit, alternating strong and weak links",
    ),
    _t(
        "Bidirectional Y-Cycle",
        "6.5+",
        "Continuous Nice Loop",
        "0706",
        "a closed loop through bivalue cells",
    ),
    _t(
        "Forcing X-Chain",
        "6.6+",
        "X-Chain",
        "0701",
        "a chain on one digit from a candidate back to its own negation",
    ),
    _t(
        "Bidirectional Cycle",
        "7.0+",
        "Continuous Nice Loop",
        "0706",
        "a closed loop mixing one-digit and bivalue links",
    ),
    _t(
        "Forcing Chain",
        "7.0+",
        "AIC",
        "0708",
        "a static chain from a candidate to its own negation (approximate: also Discontinuous Nice Loop 0707)",
    ),
    _t("TUVWXYZ-Wing", "7.5", "", "", "an almost locked set of six cells and a bivalue cell"),
    _t(
        "Nishio Forcing Chains",
        "7.5+",
        "Forcing Chain Contradiction",
        "1301",
        "assuming a candidate of one digit leads to a contradiction (approximate)",
    ),
    _t(
        "Double Forcing Chains",
        "8.0+",
        "Forcing Chain Verity",
        "1302",
        "both values of a candidate force the same conclusion (approximate)",
    ),
    _t(
        "Cell Forcing Chains",
        "8.0+",
        "Forcing Chain Verity",
        "1302",
        "every candidate of a cell forces the same conclusion",
    ),
    _t(
        "Region Forcing Chains",
        "8.0+",
        "Forcing Chain Verity",
        "1302",
        "every place of a digit in a unit forces the same conclusion",
    ),
    _t(
        "Contradiction Forcing Chains",
        "8.0+",
        "Forcing Chain Contradiction",
        "1301",
        "a candidate forces a contradiction",
    ),
    _t(
        "Dynamic Double Forcing Chains",
        "8.5+",
        "Forcing Net Verity",
        "1304",
        "dynamic chains: both values of a candidate force the same conclusion",
    ),
    _t(
        "Dynamic Cell Forcing Chains",
        "8.5+",
        "Forcing Net Verity",
        "1304",
        "dynamic chains from every candidate of a cell to one conclusion",
    ),
    _t(
        "Dynamic Region Forcing Chains",
        "8.5+",
        "Forcing Net Verity",
        "1304",
        "dynamic chains from every place of a digit in a unit to one conclusion",
    ),
    _t(
        "Dynamic Contradiction Forcing Chains",
        "8.5+",
        "Forcing Net Contradiction",
        "1303",
        "dynamic chains from a candidate to a contradiction",
    ),
    _t(
        "Dynamic Forcing Chains (+)",
        "9.0+",
        "Forcing Net Contradiction",
        "1303",
        "dynamic chains using pointing, claiming, pairs and X-Wing inside (the human model's level 1)",
    ),
    _t(
        "Nested Forcing Chains",
        "9.5+",
        "Forcing Net Contradiction",
        "1303",
        "chains using chains inside (the human model's level 2; not SE's own nested chains)",
    ),
)

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
