"""An independent replay of solve paths and their chains, for the tests.

It shares no code with csp_sudoku: rows, columns and boxes of a standard 9x9
grid and the exact-cover column layout (81 cell columns, then 27 units x 9
digits in the order rows, columns, boxes) are derived here from first
principles, and every step of a path (as its JSON dict) is replayed on plain
Python sets:

* every placement and elimination must agree with the solution;
* every chain link must follow from its *direct parents* and the pencil marks
  before the step: an elimination from a placed peer, a naked or hidden
  single, a subset-rule application, a nested refutation (checked
  recursively), a contradiction;
* a contradiction chain's assumption is what the step eliminates; each branch
  of a cell or region forcing chain reaches the step's conclusion, and the
  branches cover every candidate of the cell (or every place of the digit in
  the unit).
"""

from __future__ import annotations

from typing import Any

N = 9
CELLS = N * N
ROWS = [[r * N + c for c in range(N)] for r in range(N)]
COLS = [[r * N + c for r in range(N)] for c in range(N)]
BOXES = [
    [(r0 + r) * N + c0 + c for r in range(3) for c in range(3)]
    for r0 in (0, 3, 6)
    for c0 in (0, 3, 6)
]
UNITS = ROWS + COLS + BOXES
PEERS = [sorted({x for u in UNITS if c in u for x in u} - {c}) for c in range(CELLS)]


class ChainError(AssertionError):
    """A step or link the replay cannot justify."""


def column_candidates(column: int) -> list[tuple[int, int]]:
    """The ``(cell, digit)`` candidates of an exact-cover column."""
    if column < CELLS:
        return [(column, d) for d in range(1, N + 1)]
    unit, d0 = divmod(column - CELLS, N)
    return [(c, d0 + 1) for c in UNITS[unit]]


def initial_marks(puzzle: str) -> tuple[list[int], list[set[int]]]:
    """Values and candidate sets of a puzzle line ('.' or '0' empty)."""
    values = [0 if ch in ".0" else int(ch) for ch in puzzle]
    marks: list[set[int]] = []
    for c in range(CELLS):
        if values[c]:
            marks.append({values[c]})
        else:
            marks.append(set(range(1, N + 1)) - {values[p] for p in PEERS[c]})
    return values, marks


class Position:
    """Pencil marks: values and candidate sets, changed by literals."""

    def __init__(self, values: list[int], marks: list[set[int]]) -> None:
        self.values = list(values)
        self.marks = [set(m) for m in marks]

    def copy(self) -> Position:
        return Position(self.values, self.marks)

    def live(self, cell: int, digit: int) -> bool:
        return self.values[cell] == 0 and digit in self.marks[cell]

    def apply(self, cell: int, digit: int, on: bool) -> None:
        if on:
            self.values[cell] = digit
            self.marks[cell] = {digit}
            for p in PEERS[cell]:
                self.marks[p].discard(digit)
        else:
            self.marks[cell].discard(digit)


def _literal_true(pos: Position, cell: int, digit: int, on: bool) -> bool:
    if on:
        return pos.values[cell] == digit
    return digit not in pos.marks[cell] or (pos.values[cell] not in (0, digit))


def check_chain(chain: dict[str, Any], pos: Position) -> dict[tuple[int, int, bool], int]:
    """Replay one chain on ``pos`` (not changed); return its literals by link index.

    Raises:
        ChainError: a link that does not follow from its parents.
    """
    links = chain["links"]
    lits: list[tuple[int, int, bool]] = []
    first = links[0]
    if first["reason"] != "assume" or not first["on"]:
        raise ChainError("a chain starts with an assumption")
    if not pos.live(first["cell"], first["digit"]):
        raise ChainError("the assumption is not a candidate")
    for i, link in enumerate(links):
        parents = link["parents"]
        if any(p >= i or p < 0 for p in parents):
            raise ChainError(f"link {i}: parents must come before it")
        # the position plus the direct parents' literals
        sub = pos.copy()
        for p in parents:
            cell, digit, on = lits[p]
            sub.apply(cell, digit, on)
        reason = link["reason"]
        cell, digit, on = link["cell"], link["digit"], link["on"]
        if reason == "assume":
            if i != 0:
                raise ChainError("one assumption per chain")
        elif reason == "elim":
            if on or len(parents) != 1:
                raise ChainError(f"link {i}: an elimination has one placed parent")
            pc, pd, pon = lits[parents[0]]
            if not pon or not ((pc == cell and pd != digit) or (pd == digit and cell in PEERS[pc])):
                raise ChainError(
                    f"link {i}: r{cell // 9 + 1}c{cell % 9 + 1}<>{digit} "
                    "does not follow from its parent"
                )
        elif reason == "single":
            if not on:
                raise ChainError(f"link {i}: a single places")
            column = link["column"]
            places = [(c, d) for c, d in column_candidates(column) if sub.live(c, d)]
            if places != [(cell, digit)]:
                raise ChainError(f"link {i}: not a single in column {column}: {places}")
        elif reason == "subset":
            _check_subset(i, link, sub)
        elif reason == "nested":
            if on:
                raise ChainError(f"link {i}: a nested refutation eliminates")
            inner = link["inner"]
            if (inner["assumption"][0], inner["assumption"][1]) != (cell, digit):
                raise ChainError(f"link {i}: the inner chain refutes another candidate")
            check_chain(inner, sub)
            if inner["links"][-1]["reason"] != "contradiction":
                raise ChainError(f"link {i}: the inner chain ends without a contradiction")
        elif reason == "contradiction":
            column = link["column"]
            cands = column_candidates(column)
            ons = {lits[p][:2] for p in parents if lits[p][2]}
            placed = [(c, d) for c, d in cands if sub.values[c] == d or (c, d) in ons]
            live = [(c, d) for c, d in cands if sub.live(c, d)]
            if not (len(placed) >= 2 or (not placed and not live)):
                raise ChainError(f"link {i}: no contradiction in column {column}")
        else:
            raise ChainError(f"link {i}: unknown reason {reason!r}")
        lits.append((cell, digit, on))
    return {lit: i for i, lit in enumerate(lits)}


def _check_subset(i: int, link: dict[str, Any], sub: Position) -> None:
    a, b = link["a"], link["b"]
    if len(a) != len(b) or not a:
        raise ChainError(f"link {i}: a subset needs as many A as B columns")
    a_live = [[x for x in column_candidates(col) if sub.live(*x)] for col in a]
    union_a = [x for group in a_live for x in group]
    if len(union_a) != len(set(union_a)):
        raise ChainError(f"link {i}: the A columns share a candidate")
    b_cands = {x for col in b for x in column_candidates(col)}
    if not set(union_a) <= b_cands:
        raise ChainError(f"link {i}: A is not covered by B")
    target = (link["cell"], link["digit"])
    if link["on"] or target not in b_cands or target in set(union_a):
        raise ChainError(f"link {i}: the elimination is not in B outside A")


def check_step(step: dict[str, Any], pos: Position, solution: list[int]) -> None:
    """Check one path step (its JSON dict) on ``pos`` against ``solution``."""
    for cell, digit in step["placements"]:
        if solution[cell] != digit:
            raise ChainError(f"wrong placement r{cell // 9 + 1}c{cell % 9 + 1}={digit}")
    for cell, digit in step["eliminations"]:
        if solution[cell] == digit:
            raise ChainError(f"wrong elimination r{cell // 9 + 1}c{cell % 9 + 1}<>{digit}")
    if step["kind"] != "chain":
        return
    chains = step["chains"]
    concl = [(c, d, True) for c, d in step["placements"]] + [
        (c, d, False) for c, d in step["eliminations"]
    ]
    if step["form"] == "contradiction":
        if len(chains) != 1:
            raise ChainError("a contradiction step has one chain")
        ch = chains[0]
        check_chain(ch, pos)
        if ch["links"][-1]["reason"] != "contradiction":
            raise ChainError("a contradiction chain ends in a contradiction")
        if concl != [(ch["assumption"][0], ch["assumption"][1], False)]:
            raise ChainError("the step must eliminate the refuted assumption")
        return
    # verity: every branch reaches the first conclusion; the branches cover the column
    assumptions = sorted((ch["assumption"][0], ch["assumption"][1]) for ch in chains)
    column = step["column"]
    live = sorted(x for x in column_candidates(column) if pos.live(*x))
    if live != assumptions:
        raise ChainError(f"the branches {assumptions} do not cover column {column}: {live}")
    if len(concl) != 1:
        raise ChainError("a forcing-chain step draws one conclusion, the one its chains reach")
    for ch in chains:
        got = check_chain(ch, pos)
        last = ch["links"][-1]
        if (last["cell"], last["digit"], last["on"]) not in set(concl) or (
            last["cell"],
            last["digit"],
            last["on"],
        ) not in got:
            raise ChainError("a branch does not reach the step's conclusion")
        # the branch's conclusion must be the last link it kept
        if concl[0] != (last["cell"], last["digit"], last["on"]):
            raise ChainError("branches end at the first conclusion")


def check_path(path: dict[str, Any], solution: list[int]) -> int:
    """Replay a whole path (its JSON dict); return the number of chain links checked."""
    values, marks = initial_marks(path["puzzle"])
    pos = Position(values, marks)
    links = 0
    for step in path["steps"]:
        check_step(step, pos, solution)
        for ch in step.get("chains", []):
            links += len(ch["links"])
        for cell, digit in step["placements"]:
            pos.apply(cell, digit, True)
        for cell, digit in step["eliminations"]:
            pos.apply(cell, digit, False)
    return links
