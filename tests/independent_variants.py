"""An independent checker of variant Sudoku solutions, written from the rules alone.

It shares no code with csp_sudoku: it reads the f-puzzles object (a dict) as
the test generator wrote it, and a solution as rows of digits, and lists
every rule the solution breaks. The tests hold every solution the package
returns against it.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4)}


def _cell(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"R(\d+)C(\d+)", text)
    assert m, text
    return int(m.group(1)) - 1, int(m.group(2)) - 1


def _circle(digits: list[int], n: int) -> int:
    """What an arrow's circle holding ``digits`` (top row first, then left to right) reads.

    One cell: its digit, whatever the size (a 12 is 12). Several cells (a pill):
    their digits written one after another as a decimal number, which only
    makes sense while every digit is one decimal digit (grids up to 9x9).
    """
    if len(digits) == 1:
        return digits[0]
    assert n <= 9, "a pill on a grid with digits past 9 has no reading"
    return int("".join(str(d) for d in digits))


def _whisper_gap(n: int, entry: dict[str, Any]) -> int:
    """The least difference of neighbours on a whispers line: the entry's ``value`` when
    it gives one, else half the size rounded up (5 on 9x9, 3 on 6x6, 8 on 16x16)."""
    value = entry.get("value")
    if value not in (None, ""):
        return int(value)
    return math.ceil(n / 2)


def broken_rules(data: dict[str, Any], sol: list[list[int]]) -> list[str]:
    """The rules of the f-puzzles puzzle ``data`` that the full grid ``sol`` breaks."""
    n = data["size"]
    bad: list[str] = []

    def v(name: str) -> int:
        r, c = _cell(name)
        return sol[r][c]

    # the Sudoku: rows, columns, regions, givens
    br, bc = BOXES[n]
    regions: dict[int, list[int]] = {}
    for r in range(n):
        for c in range(n):
            cell = data["grid"][r][c]
            label = cell.get("region", (r // br) * (n // bc) + c // bc)
            regions.setdefault(label, []).append(sol[r][c])
            if "value" in cell and cell["value"] != sol[r][c]:
                bad.append(f"given R{r + 1}C{c + 1}")
    groups = [list(row) for row in sol] + [[sol[r][c] for r in range(n)] for c in range(n)]
    groups += list(regions.values())
    if any(sorted(g) != list(range(1, n + 1)) for g in groups):
        bad.append("sudoku")

    def distinct(names: list[str]) -> bool:
        ds = [v(x) for x in names]
        return len(set(ds)) == len(ds)

    for i, e in enumerate(data.get("killercage", [])):
        if not distinct(e["cells"]) or (
            "value" in e and sum(map(v, e["cells"])) != int(e["value"])
        ):
            bad.append(f"killercage[{i}]")
    for i, e in enumerate(data.get("littlekillersum", [])):
        if sum(map(v, e["cells"])) != int(e["value"]):
            bad.append(f"littlekillersum[{i}]")
    for i, e in enumerate(data.get("sandwichsum", [])):
        r, c = _cell(e["cell"])
        line = [sol[k][c] for k in range(n)] if r in (-1, n) else list(sol[r])
        a, b = sorted((line.index(1), line.index(n)))
        if sum(line[a + 1 : b]) != int(e["value"]):
            bad.append(f"sandwichsum[{i}]")
    for kind, ok in (
        ("thermometer", lambda a, b, e: a < b),
        ("slowthermometer", lambda a, b, e: a <= b),
        ("whispers", lambda a, b, e: abs(a - b) >= _whisper_gap(n, e)),
    ):
        for i, e in enumerate(data.get(kind, [])):
            for line in e["lines"]:
                ds = [v(x) for x in line]
                if not all(ok(a, b, e) for a, b in itertools.pairwise(ds)):
                    bad.append(f"{kind}[{i}]")
    for i, e in enumerate(data.get("arrow", [])):
        circle = [v(x) for x in sorted(e["cells"], key=_cell)]  # a pill reads in reading order
        shaft = {x for line in e["lines"] for x in line if x not in e["cells"]}
        if sum(v(x) for x in shaft) != _circle(circle, n):
            bad.append(f"arrow[{i}]")
    for i, e in enumerate(data.get("palindrome", [])):
        for line in e["lines"]:
            ds = [v(x) for x in line]
            if ds != ds[::-1]:
                bad.append(f"palindrome[{i}]")
    for i, e in enumerate(data.get("renban", [])):
        for line in e["lines"]:
            ds = sorted(v(x) for x in line)
            if ds != list(range(ds[0], ds[0] + len(ds))):
                bad.append(f"renban[{i}]")
    for i, e in enumerate(data.get("betweenline", [])):
        for line in e["lines"]:
            lo, hi = sorted((v(line[0]), v(line[-1])))
            if not all(lo < v(x) < hi for x in line[1:-1]):
                bad.append(f"betweenline[{i}]")
    for i, e in enumerate(data.get("regionsumline", [])):
        for line in e["lines"]:
            sums: list[int] = []
            last = None
            for x in line:
                r, c = _cell(x)
                cell = data["grid"][r][c]
                label = cell.get("region", (r // br) * (n // bc) + c // bc)
                if label != last:
                    sums.append(0)
                last = label
                sums[-1] += sol[r][c]
            if len(set(sums)) > 1:
                bad.append(f"regionsumline[{i}]")
    for i, e in enumerate(data.get("extraregion", [])):
        if not distinct(e["cells"]):
            bad.append(f"extraregion[{i}]")
    for kind, want in (("odd", 1), ("even", 0)):
        for i, e in enumerate(data.get(kind, [])):
            if v(e["cell"]) % 2 != want:
                bad.append(f"{kind}[{i}]")

    # dots and their negatives
    def rel(kind: str, a: int, b: int, value: Any) -> bool:
        if kind == "difference":
            return abs(a - b) == int(value or 1)
        if kind == "ratio":
            k = int(value or 2)
            return a == k * b or b == k * a
        return a + b == (10 if value == "X" else 5)

    negative = data.get("negative", [])
    # a pair with a Kropki dot of either colour is exempt from both Kropki negatives
    # (a 1-2 pair may show either dot); an XV pair only from the XV negative
    kropki = {
        frozenset((_cell(e["cells"][0]), _cell(e["cells"][1])))
        for kind in ("difference", "ratio")
        for e in data.get(kind, [])
    }
    for kind in ("difference", "ratio", "xv"):
        marked = set(kropki) if kind != "xv" else set()
        for i, e in enumerate(data.get(kind, [])):
            a, b = e["cells"]
            marked.add(frozenset((_cell(a), _cell(b))))
            if not rel(kind, v(a), v(b), e.get("value")):
                bad.append(f"{kind}[{i}]")
        if kind in negative:
            values = ["X", "V"] if kind == "xv" else [None]
            for r in range(n):
                for c in range(n):
                    for rr, cc in ((r, c + 1), (r + 1, c)):
                        if (
                            rr < n
                            and cc < n
                            and frozenset(((r, c), (rr, cc))) not in marked
                            and any(rel(kind, sol[r][c], sol[rr][cc], x) for x in values)
                        ):
                            bad.append(f"negative {kind} R{r + 1}C{c + 1}")

    # global rules
    def apart(steps: list[tuple[int, int]], same: bool) -> bool:
        for r in range(n):
            for c in range(n):
                for dr, dc in steps:
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < n and 0 <= cc < n:
                        d = abs(sol[r][c] - sol[rr][cc])
                        if (same and d == 0) or (not same and d == 1):
                            return False
        return True

    knight = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
    king = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
    if data.get("antiknight") and not apart(knight, True):
        bad.append("antiknight")
    if data.get("antiking") and not apart(king, True):
        bad.append("antiking")
    if data.get("nonconsecutive") and not apart([(0, 1), (1, 0), (0, -1), (-1, 0)], False):
        bad.append("nonconsecutive")
    if data.get("diagonal-") and len({sol[i][i] for i in range(n)}) != n:
        bad.append("diagonal-")
    if data.get("diagonal+") and len({sol[n - 1 - i][i] for i in range(n)}) != n:
        bad.append("diagonal+")
    if data.get("disjointgroups"):
        for i in range(br):
            for j in range(bc):
                ds = [sol[r + i][c + j] for r in range(0, n, br) for c in range(0, n, bc)]
                if len(set(ds)) != n:
                    bad.append("disjointgroups")
    return bad
