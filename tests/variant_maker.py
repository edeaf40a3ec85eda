"""A maker of random variant puzzles for the tests: constraints drawn to fit a full grid.

Each puzzle is built as an f-puzzles object straight from a full grid (cages
with the grid's sums, thermometers along increasing paths, dots where the
neighbours are consecutive or double ...), so the grid keeps every
constraint; :func:`with_givens` adds givens from the grid until the SAT
backend says unique, and :func:`make_cases` makes from each unique puzzle one
with several solutions (a given removed) and a broken one (a constraint
changed). Used by ``test_variants.py``, the variant CLI tests and the
f-puzzles round trip.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

import csp_sudoku as cs
from csp_sudoku import variants
from csp_sudoku.constraints import KINDS, from_fpuzzles

N = 9
KING = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
ORTH = [(0, 1), (1, 0), (0, -1), (-1, 0)]
GLOBALS = ("antiknight", "antiking", "nonconsecutive", "diagonal+", "diagonal-", "disjointgroups")


def nm(cell: tuple[int, int]) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def walk(rng: np.random.Generator, grid: Any, length: int, ok: Any, steps: Any = KING) -> list[Any]:
    """A random path of ``length`` cells whose every step keeps ``ok(path, next)``, or []."""
    for _ in range(200):
        path = [(int(rng.integers(N)), int(rng.integers(N)))]
        while len(path) < length:
            r, c = path[-1]
            nxt = [
                (r + a, c + b)
                for a, b in steps
                if 0 <= r + a < N and 0 <= c + b < N and (r + a, c + b) not in path
            ]
            nxt = [x for x in nxt if ok(path, x)]
            if not nxt:
                break
            path.append(nxt[int(rng.integers(len(nxt)))])
        if len(path) == length:
            return path
    return []


def draw(kind: str, rng: np.random.Generator, g: Any, data: dict[str, Any]) -> None:
    """Add to ``data`` some constraints of ``kind`` that the full grid ``g`` keeps."""
    v = lambda x: int(g[x[0]][x[1]])  # noqa: E731
    add = data.setdefault
    if kind == "killercage":
        for _ in range(3):
            cells = walk(rng, g, int(rng.integers(2, 5)), lambda p, x: v(x) not in map(v, p), ORTH)
            if cells:
                entry: dict[str, Any] = {"cells": [nm(x) for x in cells]}
                if rng.random() < 0.8:
                    entry["value"] = str(sum(map(v, cells)))
                add(kind, []).append(entry)
    elif kind in ("thermometer", "slowthermometer"):
        for _ in range(2):
            line = walk(rng, g, int(rng.integers(2, 5)), lambda p, x: v(x) > v(p[-1]))
            if line:
                add(kind, []).append({"lines": [[nm(x) for x in line]]})
    elif kind == "whispers":
        line = walk(rng, g, int(rng.integers(2, 5)), lambda p, x: abs(v(x) - v(p[-1])) >= 5)
        if line:
            add(kind, []).append({"lines": [[nm(x) for x in line]]})
    elif kind == "arrow":
        for _ in range(300):
            length = int(rng.integers(2, 5))
            line = walk(rng, g, length, lambda p, x: True)
            if not line:
                continue
            two = length >= 4 and rng.random() < 0.5
            circle, shaft = (line[:2], line[2:]) if two else (line[:1], line[1:])
            if sum(map(v, shaft)) == int("".join(str(v(x)) for x in circle)):
                lines = [[nm(circle[-1]), *(nm(x) for x in shaft)]]
                add(kind, []).append({"cells": [nm(x) for x in circle], "lines": lines})
                if len(data[kind]) >= 2:
                    break
    elif kind in ("difference", "ratio", "xv"):
        pairs = []
        for r in range(N):
            for c in range(N):
                for rr, cc in ((r, c + 1), (r + 1, c)):
                    if rr < N and cc < N:
                        a, b = v((r, c)), v((rr, cc))
                        if kind == "difference" and abs(a - b) == 1:
                            pairs.append({"cells": [nm((r, c)), nm((rr, cc))]})
                        if kind == "ratio" and (a == 2 * b or b == 2 * a):
                            pairs.append({"cells": [nm((r, c)), nm((rr, cc))]})
                        if kind == "xv" and a + b in (5, 10):
                            letter = "X" if a + b == 10 else "V"
                            pairs.append({"cells": [nm((r, c)), nm((rr, cc))], "value": letter})
        if rng.random() < 0.5:  # every dot of the kind, and the negative rule
            data[kind] = pairs
            add("negative", []).append(kind)
        else:
            data[kind] = [pairs[i] for i in rng.permutation(len(pairs))[: max(1, len(pairs) // 3)]]
    elif kind in ("odd", "even"):
        cells = [(r, c) for r in range(N) for c in range(N) if v((r, c)) % 2 == (kind == "odd")]
        data[kind] = [{"cell": nm(cells[i])} for i in rng.permutation(len(cells))[:6]]
    elif kind == "littlekillersum":
        for _ in range(2):
            r0, down = int(rng.integers(N - 2)), bool(rng.random() < 0.5)
            cells = [(r0 + k, k) if down else (N - 1 - r0 - k, k) for k in range(N - r0)]
            clue = (r0 - 1, -1) if down else (N - r0, -1)
            add(kind, []).append(
                {
                    "cells": [nm(x) for x in cells],
                    "value": str(sum(map(v, cells))),
                    "cell": nm(clue),
                    "direction": "DR" if down else "UR",
                }
            )
    elif kind == "sandwichsum":
        for _ in range(3):
            k = int(rng.integers(N))
            if rng.random() < 0.5:
                line, clue = [v((k, c)) for c in range(N)], (k, -1)
            else:
                line, clue = [v((r, k)) for r in range(N)], (-1, k)
            a, b = sorted((line.index(1), line.index(N)))
            add(kind, []).append({"cell": nm(clue), "value": str(sum(line[a + 1 : b]))})
    elif kind == "palindrome":
        for _ in range(2000):
            a = (int(rng.integers(N)), int(rng.integers(N)))
            b = (int(rng.integers(N)), int(rng.integers(N)))
            m = (int(rng.integers(N)), int(rng.integers(N)))
            if len({a, b, m}) == 3 and v(a) == v(b):
                add(kind, []).append({"lines": [[nm(a), nm(m), nm(b)]]})
                break
    elif kind == "renban":
        for _ in range(500):
            line = walk(rng, g, int(rng.integers(2, 5)), lambda p, x: v(x) not in map(v, p))
            ds = sorted(map(v, line))
            if line and ds[-1] - ds[0] == len(ds) - 1:
                add(kind, []).append({"lines": [[nm(x) for x in line]]})
                break
    elif kind == "betweenline":
        for _ in range(500):
            line = walk(rng, g, int(rng.integers(3, 5)), lambda p, x: True)
            lo, hi = sorted((v(line[0]), v(line[-1]))) if line else (0, 0)
            if line and all(lo < v(x) < hi for x in line[1:-1]):
                add(kind, []).append({"lines": [[nm(x) for x in line]]})
                break
    elif kind == "regionsumline":
        for _ in range(3000):
            line = walk(rng, g, int(rng.integers(2, 6)), lambda p, x: True)
            sums: list[int] = []
            last = None
            for x in line:
                box = (x[0] // 3, x[1] // 3)
                if box != last:
                    sums.append(0)
                last = box
                sums[-1] += v(x)
            if len(sums) >= 2 and len(set(sums)) == 1:
                add(kind, []).append({"lines": [[nm(x) for x in line]]})
                break
    elif kind == "extraregion":
        cells = walk(rng, g, 4, lambda p, x: v(x) not in map(v, p))
        if cells:
            add(kind, []).append({"cells": [nm(x) for x in cells]})
    elif kind in GLOBALS:
        data[kind] = True
    else:  # pragma: no cover - a kind the maker forgot
        raise AssertionError(kind)


def full_grid(rng: np.random.Generator, rules: list[str]) -> Any:
    """A random full grid keeping the global ``rules`` (solved from a random start)."""
    seed = int(rng.integers(2**31))
    if not rules:
        return cs.random_grid(seed=seed).cells.reshape(N, N).tolist()
    base: dict[str, Any] = {"size": N, "grid": [[{} for _ in range(N)] for _ in range(N)]}
    for rule in rules:
        base[rule] = True
    first = rng.permutation(N) + 1
    for c in range(N):
        base["grid"][0][c] = {"value": int(first[c]), "given": True}
    for data in (base, {**base, "grid": [[{} for _ in range(N)] for _ in range(N)]}):
        sol = variants.solve(from_fpuzzles(data))
        if sol is not None:
            return sol.cells.reshape(N, N).tolist()
    raise AssertionError(rules)


def with_givens(data: dict[str, Any], g: Any) -> dict[str, Any]:
    """``data`` with givens from ``g`` added until the SAT backend says unique."""
    data = copy.deepcopy(data)
    while True:
        sols = variants.solutions(from_fpuzzles(data), 2)
        assert sols, "the grid keeps every constraint, so there is a solution"
        if len(sols) == 1:
            return data
        a, b = (s.cells.reshape(N, N) for s in sols)
        for r, c in np.argwhere(a != b)[:2].tolist():  # two at a time: fewer solver builds
            data["grid"][r][c] = {"value": int(g[r][c]), "given": True}


#: The kinds a maker puzzle is built around, each at least once.
PRIMARY = [k for k in KINDS if not k.startswith("-")]


def make_cases(
    seed: int, rounds: int = 1, kinds: Sequence[str] = tuple(PRIMARY)
) -> list[tuple[str, dict[str, Any]]]:
    """(label, f-puzzles object): a unique puzzle per kind of ``kinds``, and its broken variants."""
    rng = np.random.default_rng(seed)
    out: list[tuple[str, dict[str, Any]]] = []
    for _ in range(rounds):
        for kind in kinds:
            rules = [kind] if kind in GLOBALS else []
            others = [k for k in PRIMARY if k not in GLOBALS and k != kind]
            extra = [others[i] for i in rng.permutation(len(others))[:2]]
            g = full_grid(rng, rules)
            data: dict[str, Any] = {"size": N, "grid": [[{} for _ in range(N)] for _ in range(N)]}
            for k in [kind, *extra]:
                draw(k, rng, g, data)
            unique = with_givens(data, g)
            out.append((f"{kind}:unique", unique))
            givens = [(r, c) for r in range(N) for c in range(N) if unique["grid"][r][c]]
            if givens:
                multi = copy.deepcopy(unique)
                r, c = givens[int(rng.integers(len(givens)))]
                multi["grid"][r][c] = {}
                out.append((f"{kind}:fewer", multi))
            out.append((f"{kind}:broken", broken(rng, unique, g)))
    return out


def broken(rng: np.random.Generator, data: dict[str, Any], g: Any) -> dict[str, Any]:
    """``data`` with one constraint changed so that the grid ``g`` breaks it (or a wrong given)."""
    data = copy.deepcopy(data)
    for kind in ("killercage", "littlekillersum", "sandwichsum"):
        for e in data.get(kind, []):
            if "value" in e and int(e["value"]) > 3:
                e["value"] = str(int(e["value"]) - 1)
                return data
    empty = [(r, c) for r in range(N) for c in range(N) if not data["grid"][r][c]]
    r, c = empty[int(rng.integers(len(empty)))]
    data["grid"][r][c] = {"value": int(g[r][c]) % N + 1, "given": True}
    return data
