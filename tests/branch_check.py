"""An independent check of the links drawn inside a forcing chains step's branches.

It shares no code with csp_sudoku (the 9x9 units come from tests/chain_check.py,
built there from first principles) and reads only a step's JSON dict (its
``technique``, ``branches``, conclusion and ``figure``) and the pencil marks
before the step as plain sets. For every branch:

* every link joins two live candidates; a weak link ``a on -> b off`` joins
  two candidates of one cell or of one digit in one unit; a strong link
  ``a off -> b on`` joins the two candidates of a cell or a unit-digit whose
  other live candidates are none (a static net) or are all made false earlier
  in the same branch (a dynamic net, which removes what it makes false);
  Nishio nets, on one digit, use unit-digits only;
* every link starts at the branch's premise or at a literal an earlier link
  of the branch reached, and every literal reached leads on, to the branch's
  end: the step's conclusion, or for a contradiction (Nishio and
  contradiction forcing chains, one branch) a literal reached both true and
  false, whose premise's negation is the step's conclusion.

A folded figure (links left out) is checked link by link only.
"""

from __future__ import annotations

from typing import Any

from tests.chain_check import CELLS, UNITS, ChainError

Lit = tuple[int, int, bool]


def _columns_of(cell: int, digit: int) -> list[list[tuple[int, int]]]:
    """The exact-cover columns holding candidate ``(cell, digit)``, as candidate lists."""
    cols = [[(cell, d) for d in range(1, 10)]]
    cols += [[(c, digit) for c in u] for u in UNITS if cell in u]
    return cols


def _rules(technique: str) -> tuple[bool, bool, bool]:
    """(dynamic, X links only, ends in a contradiction), from SE's technique name."""
    nishio = technique.startswith("Nishio")
    dynamic = nishio or technique.startswith("Dynamic")
    return dynamic, nishio, nishio or "Contradiction" in technique


def check_link(
    a: Lit,
    b: Lit,
    strong: bool,
    cands: list[set[int]],
    off: set[tuple[int, int]] | None,
    x_only: bool,
) -> None:
    """One link, against the marks ``cands``; ``off`` is what the branch made
    false before it (None: a static net, the marks stay)."""
    (ca, da, on_a), (cb, db, on_b) = a, b
    if not (0 <= ca < CELLS and 0 <= cb < CELLS) or da not in cands[ca] or db not in cands[cb]:
        raise ChainError(f"link {a} -> {b}: not two live candidates")
    if (ca, da) == (cb, db):
        raise ChainError(f"link {a} -> {b}: one candidate")
    shared = [col for col in _columns_of(ca, da) if (cb, db) in col]
    if x_only:
        shared = [col for col in shared if len({c for c, _d in col}) > 1]
    if not shared:
        raise ChainError(f"link {a} -> {b}: no cell or unit-digit in common")
    if not strong:
        if not (on_a and not on_b):
            raise ChainError(f"weak link {a} -> {b}: not on -> off")
        return
    if on_a or not on_b:
        raise ChainError(f"strong link {a} -> {b}: not off -> on")
    for col in shared:
        rest = {(c, d) for c, d in col if d in cands[c]} - {(ca, da), (cb, db)}
        if not rest or (off is not None and rest <= off):
            return
    raise ChainError(f"strong link {a} -> {b}: no column left with these two")


def check_branch(
    premise: Lit,
    links: list[tuple[Lit, Lit, bool]],
    ends: list[Lit],
    cands: list[set[int]],
    technique: str,
    conclusion: Lit,
    whole: bool = True,
) -> None:
    """One branch's links (in drawing order) from ``premise`` to ``ends``.

    Raises:
        ChainError: a link that does not hold, or a branch that does not run
            from its premise to its end (``whole`` False: links only).
    """
    dynamic, x_only, contradiction = _rules(technique)
    reached: list[Lit] = [premise]
    for a, b, strong in links:
        off = {(c, d) for c, d, on in reached if not on} if dynamic and whole else None
        if dynamic and not whole and strong:
            continue  # what was made false before it may be folded away
        check_link(a, b, strong, cands, off, x_only)
        if whole and a not in reached:
            raise ChainError(f"link {a} -> {b}: {a} is not reached from the premise {premise}")
        if b not in reached:
            reached.append(b)
    if not whole:
        return
    for end in ends:
        if end not in reached:
            raise ChainError(f"the branch of {premise} does not reach {end}")
    if contradiction:
        if len(ends) != 2 or ends[0][:2] != ends[1][:2] or ends[0][2] == ends[1][2]:
            raise ChainError(f"the branch of {premise} ends in no contradiction: {ends}")
        if conclusion != (premise[0], premise[1], not premise[2]):
            raise ChainError("a contradiction refutes its premise")
    elif ends != [conclusion]:
        raise ChainError(f"the branch of {premise} ends at {ends}, not the conclusion")
    leads = {a for a, _b, _s in links}
    idle = [lit for lit in reached if lit not in leads and lit not in ends]
    if idle:
        raise ChainError(f"the branch of {premise} draws literals that lead nowhere: {idle}")


def check_branches(step: dict[str, Any], cands: list[set[int]]) -> int:
    """Every branch of a forcing chains step's JSON dict (its ``figure``); returns
    how many branches were checked (each has at least one link)."""
    fig = step["figure"]
    if step["placements"]:
        conclusion: Lit = (*step["placements"][0], True)
    else:
        conclusion = (*step["eliminations"][0], False)
    whole = fig["folded"] == 0
    checked = 0
    for i, premise in enumerate(step["branches"]):
        links = [
            (tuple(lk["from"]), tuple(lk["to"]), lk["kind"] == "strong")
            for lk in fig["links"]
            if lk["branch"] == i
        ]
        if not links:
            raise ChainError(f"branch {i} has no link")
        if any(lk["kind"] not in ("strong", "weak") for lk in fig["links"]):
            raise ChainError("a branch link is strong or weak")
        ends = [tuple(e) for e in fig["ends"][i]]
        check_branch(tuple(premise), links, ends, cands, step["technique"], conclusion, whole)
        checked += 1
    return checked
