"""What to draw for a step of the se path: the pattern behind its conclusion.

The se replay (:mod:`csp_sudoku.human.se_order`) records what a step
concludes (placements, eliminations) and, for chains, the chain's literals or
the premises of its branches; its kernels find a pattern without returning its
cells. For an explanation the pattern is wanted too: the fish's base and cover
lines, the wing's pivot and pincers, the rectangle's four cells, the strong
and weak links of a strong-linked fish. :func:`figure` reads them back from
the pencil marks before the step, by searching for a pattern of the step's
technique that makes exactly the step's eliminations possible. It is for
display only: the step (and so the rating) is the replay's, whatever is found
here; where no pattern is found (a shape this search does not know) the
figure is empty and the step is drawn from its conclusion alone.

Chains are drawn link by link: a forcing (X-)chain's literals alternate weak
(``A on => B off``) and strong (``A off => B on``) links. The branches of a
forcing chains step (Nishio, cell, region, double, contradiction; static and
dynamic) are drawn link by link too, as the kernels' net rules reach the
conclusion from each premise (:func:`csp_sudoku.human.se_branches.branch_nets`):
every link among the ancestors of the branch's end, each link tagged with its
branch. A figure never holds more than :data:`MAX_LINKS` links; a longer
chain keeps its assumption and its last links, longer branches keep their
chains by first parents (then those chains' last links), and the figure says
how many links it folded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import combinations, pairwise
from math import comb
from typing import Any

from csp_sudoku.human.se_branches import BranchNet, branch_nets
from csp_sudoku.human.se_order import SeStep
from csp_sudoku.human.state import CandidateState

Literal = tuple[int, int, bool]

#: The most links a step is drawn with; longer chains are folded.
MAX_LINKS = 100

#: Cell combinations a wing search may try before it gives up (display only).
_WING_BUDGET = 20000


@dataclass(frozen=True)
class Figure:
    """The pattern of one step, to draw and to list.

    Attributes:
        digit: the digit of a one-digit pattern (fish, locking, strong links), else 0.
        roles: ``(role, cells)`` pairs: ``unit`` (the unit a locking or subset
            lives in), ``pattern`` (the locked cells, the subset's cells, the
            BUG's cell), ``base`` and ``cover`` (a fish's lines: the cells of
            the digit in the base lines, and the cover lines' other cells),
            ``wing``, ``pivot`` and ``pincers`` (a wing's cells, the one
            seeing most of the others, those holding the removed digit),
            ``rectangle`` (a unique
            rectangle's cells).
        links: ``(from, to, strong)`` between literals ``(cell, digit, on)``:
            strong (``from`` off forces ``to`` on) or weak (``from`` on
            forces ``to`` off); in a figure with ``branched`` set, the links
            of every branch, branch after branch, parents before children.
        assumption: the literal a chain starts from, or None.
        folded: how many links were left out (a chain longer than :data:`MAX_LINKS`).
        branched: True for the branches of a forcing chains step.
        branch_of: in a branched figure, the branch (index into the step's
            ``branches``) of each link.
        ends: in a branched figure, where each branch ends: ``(conclusion,)``,
            or ``(x on, x off)`` for the literal a contradiction reaches both ways.
        inner: in a branched figure of SE's nested chains, ``(branch, literal,
            technique, complexity, chains)`` for each chain nested inside a
            branch: drawn folded, as a strong link into the literal it made
            false, and here in full (its chains premise first; a cell or
            region chain has one per candidate).
    """

    digit: int = 0
    roles: tuple[tuple[str, tuple[int, ...]], ...] = ()
    links: tuple[tuple[Literal, Literal, bool], ...] = ()
    assumption: Literal | None = None
    folded: int = 0
    branched: bool = False
    branch_of: tuple[int, ...] = ()
    ends: tuple[tuple[Literal, ...], ...] = ()
    inner: tuple[tuple[int, Literal, str, int, tuple[tuple[Literal, ...], ...]], ...] = ()

    def cells(self, role: str) -> tuple[int, ...]:
        """The cells of ``role`` (empty when the figure has none)."""
        return next((c for r, c in self.roles if r == role), ())

    def to_dict(self) -> dict[str, Any]:
        """JSON form (docs/explain_schema.md, "The se path")."""
        out: dict[str, Any] = {"digit": self.digit}
        out.update({role: list(cells) for role, cells in self.roles})
        kind = {True: "strong", False: "weak"}
        out["links"] = [
            {"from": list(a), "to": list(b), "kind": kind[strong]} for a, b, strong in self.links
        ]
        if self.branched:
            for link, i in zip(out["links"], self.branch_of, strict=True):
                link["branch"] = i
            out["ends"] = [[list(e) for e in ends] for ends in self.ends]
            if self.inner:
                out["inner"] = [
                    {
                        "branch": i,
                        "literal": list(lit),
                        "technique": name,
                        "complexity": comp,
                        "chains": [[list(x) for x in chain] for chain in chains],
                    }
                    for i, lit, name, comp, chains in self.inner
                ]
        out["assumption"] = list(self.assumption) if self.assumption is not None else None
        out["folded"] = self.folded
        return out

    def main_chains(self, branch: int) -> list[tuple[Literal, ...]]:
        """The chains of ``branch`` by first parents, one per end, premise first:
        each literal's first drawn link into it is its first parent's (a folded
        branch's chain starts where its drawn links start)."""
        first: dict[Literal, Literal] = {}
        for (a, b, _strong), i in zip(self.links, self.branch_of, strict=True):
            if i == branch:
                first.setdefault(b, a)
        out = []
        for end in self.ends[branch] if branch < len(self.ends) else ():
            chain = [end]
            while chain[-1] in first and len(chain) <= len(first):
                chain.append(first[chain[-1]])
            out.append(tuple(reversed(chain)))
        return out


class _Marks:
    """The pencil marks before a step, as sets (the searches here are small)."""

    def __init__(self, state: CandidateState) -> None:
        g = state.geometry
        self.geometry = g
        self.size = g.size
        self.empty = [not int(v) for v in state.values.tolist()]
        self.cands = [
            {d + 1 for d in range(g.size) if int(m) >> d & 1} if e else set()
            for m, e in zip(state.masks.tolist(), self.empty, strict=True)
        ]
        self.units = [[int(c) for c in u if c >= 0] for u in g.units.tolist()]
        self.kinds = list(g.unit_kinds)
        self.peers = [set(p.tolist()) for p in g.peers]

    def places(self, unit: int, digit: int) -> list[int]:
        return [c for c in self.units[unit] if digit in self.cands[c]]

    def lines(self, kind: str) -> list[int]:
        return [u for u, k in enumerate(self.kinds) if k == kind]

    def sees(self, a: int, b: int) -> bool:
        return b in self.peers[a]


def _locking(m: _Marks, step: SeStep) -> Figure:
    """Pointing and claiming: the digit's places in one unit (a box for
    pointing, a line for claiming) lie in its intersection with another, whose
    other cells lose the digit. The same removals can have both shapes; the
    one the step is named for is drawn."""
    digits = {d for _c, d in step.eliminations}
    if len(digits) != 1:
        return Figure()
    d = digits.pop()
    gone = {c for c, _d in step.eliminations}
    from_box = "Pointing" in step.technique
    for u1 in range(len(m.units)):
        if (m.kinds[u1] in ("box", "region")) != from_box:
            continue
        inside = m.places(u1, d)
        if len(inside) < 2:
            continue
        for u2 in range(len(m.units)):
            if u2 == u1 or not set(inside) <= set(m.units[u2]):
                continue
            if gone <= set(m.units[u2]) - set(m.units[u1]):
                return Figure(d, (("unit", tuple(m.units[u1])), ("pattern", tuple(inside))))
    return Figure()


def _naked(m: _Marks, step: SeStep, n: int) -> Figure:
    """A naked set: n cells of a unit holding n digits, which the unit's other cells lose."""
    gone = {c for c, _d in step.eliminations}
    digits = {d for _c, d in step.eliminations}
    for cells in m.units:
        if not gone <= set(cells):
            continue
        pool = [c for c in cells if m.empty[c] and c not in gone and len(m.cands[c]) <= n]
        for combo in combinations(pool, n):
            union = set().union(*(m.cands[c] for c in combo))
            if len(union) == n and digits <= union:
                return Figure(0, (("unit", tuple(cells)), ("pattern", combo)))
    return Figure()


def _hidden(m: _Marks, step: SeStep, n: int) -> Figure:
    """A hidden set: n digits with n places in a unit, whose other digits go."""
    gone = {c for c, _d in step.eliminations}
    digits = {d for _c, d in step.eliminations}
    for u, cells in enumerate(m.units):
        if not gone <= set(cells):
            continue
        present = sorted({d for c in cells for d in m.cands[c]} - digits)
        for combo in combinations(present, n):
            where = {c for d in combo for c in m.places(u, d)}
            if len(where) == n and gone <= where:
                return Figure(0, (("unit", tuple(cells)), ("pattern", tuple(sorted(where)))))
    return Figure()


def _fish(m: _Marks, step: SeStep, n: int) -> Figure:
    """A basic fish: the digit's places in n base lines lie in n cover lines,
    whose other cells lose it."""
    digits = {d for _c, d in step.eliminations}
    if len(digits) != 1:
        return Figure()
    d = digits.pop()
    gone = {c for c, _d in step.eliminations}
    for base_kind, cover_kind in (("row", "col"), ("col", "row")):
        covers = m.lines(cover_kind)
        line_of = {c: u for u in covers for c in m.units[u]}
        bases = [u for u in m.lines(base_kind) if 2 <= len(m.places(u, d)) <= n]
        for combo in combinations(bases, n):
            cells = [c for u in combo for c in m.places(u, d)]
            cover = {line_of[c] for c in cells if c in line_of}
            if len(cover) != n:
                continue
            cover_cells = {c for u in cover for c in m.units[u]} - set(cells)
            if gone <= cover_cells:
                return Figure(
                    d, (("base", tuple(sorted(cells))), ("cover", tuple(sorted(cover_cells))))
                )
    return Figure()


def _wings(m: _Marks, step: SeStep, cells_n: int) -> Figure:
    """The wing(s) of a wing step: one per digit removed (a step may remove
    the digits of several wings of one value), their cells joined."""
    found = [
        _wing(m, {c for c, d in step.eliminations if d == z}, z, cells_n)
        for z in sorted({d for _c, d in step.eliminations})
    ]
    if not found or not all(f.roles for f in found):
        return Figure()
    if len(found) == 1:
        return found[0]
    roles = tuple(
        (role, tuple(sorted({c for f in found for c in f.cells(role)})))
        for role in ("wing", "pivot", "pincers")
    )
    return Figure(0, roles)


def _wing(m: _Marks, gone: set[int], z: int, cells_n: int) -> Figure:
    """A wing of ``cells_n`` cells holding ``cells_n`` digits: every digit but
    ``z`` is restricted (its cells in the wing see each other), and every cell
    of the wing holding ``z`` sees the cells ``gone`` loses it from."""
    others = [d for d in range(1, m.size + 1) if d != z]
    tried = 0
    for extra in combinations(others, cells_n - 1):
        allowed = {z, *extra}
        pool = [
            c
            for c in range(len(m.cands))
            if m.empty[c]
            and c not in gone
            and 2 <= len(m.cands[c]) <= cells_n
            and m.cands[c] <= allowed
            and (z not in m.cands[c] or all(m.sees(c, g) for g in gone))
        ]
        if len(pool) < cells_n:
            continue
        tried += comb(len(pool), cells_n)
        if tried > _WING_BUDGET:
            return Figure()
        for combo in combinations(pool, cells_n):
            if set().union(*(m.cands[c] for c in combo)) != allowed:
                continue
            if not any(z in m.cands[c] for c in combo):
                continue
            if all(_restricted(m, combo, d) for d in extra):
                pivot = max(combo, key=lambda c: sum(m.sees(c, o) for o in combo if o != c))
                pincers = tuple(c for c in combo if c != pivot and z in m.cands[c])
                return Figure(z, (("wing", combo), ("pivot", (pivot,)), ("pincers", pincers)))
    return Figure()


def _restricted(m: _Marks, combo: tuple[int, ...], digit: int) -> bool:
    holders = [c for c in combo if digit in m.cands[c]]
    return all(m.sees(a, b) for a, b in combinations(holders, 2))


def _rectangle(m: _Marks, step: SeStep) -> Figure:
    """A unique rectangle: four cells in two rows, two columns and two boxes
    sharing two candidates, whose pattern the step's removals break up."""
    gone = {c for c, _d in step.eliminations}
    rows, cols = m.lines("row"), m.lines("col")
    box_of = {c: u for u, k in enumerate(m.kinds) if k in ("box", "region") for c in m.units[u]}
    for r1, r2 in combinations(rows, 2):
        for c1, c2 in combinations(cols, 2):
            rect = [
                next(iter(set(m.units[r]) & set(m.units[c])), -1)
                for r in (r1, r2)
                for c in (c1, c2)
            ]
            if -1 in rect or not all(m.empty[c] for c in rect):
                continue
            if len({box_of.get(c, -1) for c in rect}) != 2:
                continue
            common = set.intersection(*(m.cands[c] for c in rect))
            if len(common) < 2 or sum(len(m.cands[c]) == 2 for c in rect) < 2:
                continue
            if all(c in rect or sum(m.sees(c, x) for x in rect) >= 2 for c in gone):
                return Figure(0, (("rectangle", tuple(sorted(rect))),))
    return Figure()


Node = tuple[int, ...]

#: Steps a strong-links search may take before it gives up (display only).
_LINK_BUDGET = 200000


def _node_ok(m: _Marks, cells: Node) -> bool:
    """One cell, or a group: cells of one box inside one row or one column."""
    if len(cells) == 1:
        return True
    lines = [u for u in range(len(m.units)) if set(cells) <= set(m.units[u])]
    kinds = {m.kinds[u] for u in lines}
    return bool(kinds & {"box", "region"}) and bool(kinds & {"row", "col"})


def _strong_link_chains(m: _Marks, d: int, n: int) -> Iterator[list[tuple[Node, Node]]]:
    """Chains of ``n`` strong links on digit ``d``, as SE's strong-linked fishes
    have them: a unit's places of the digit split into two nodes (a cell or a
    group), one of which holds it; each link's far node sees all of the next
    link's near node, in another unit, no cell used twice."""
    links: list[tuple[Node, Node, int]] = []
    for u in range(len(m.units)):
        places = m.places(u, d)
        if not 2 <= len(places) <= 6:
            continue
        for mask in range(1, (1 << len(places)) - 1):
            a = tuple(c for i, c in enumerate(places) if mask >> i & 1)
            b = tuple(c for i, c in enumerate(places) if not mask >> i & 1)
            if _node_ok(m, a) and _node_ok(m, b):
                links.append((a, b, u))
    steps = [0]

    def extend(chain: list[tuple[Node, Node, int]]) -> Iterator[list[tuple[Node, Node]]]:
        steps[0] += 1
        if steps[0] > _LINK_BUDGET:
            return
        if len(chain) == n:
            yield [(a, b) for a, b, _u in chain]
            return
        used = {c for a, b, _u in chain for c in a + b}
        far, unit = chain[-1][1], chain[-1][2]
        for a, b, u in links:
            if u == unit or used & set(a + b):
                continue
            if all(m.sees(x, y) for x in far for y in a):
                yield from extend([*chain, (a, b, u)])

    for first in links:
        yield from extend([first])


def _strong_links(m: _Marks, step: SeStep, n: int) -> Figure:
    """A strong-linked fish (Turbot Fish, N Strong Links): its links, drawn (a
    group's links from its first cell)."""
    digits = {d for _c, d in step.eliminations}
    if len(digits) != 1:
        return Figure()
    d = digits.pop()
    gone = {c for c, _d in step.eliminations}
    for chain in _strong_link_chains(m, d, n):
        start, end = chain[0][0], chain[-1][1]
        if all(all(m.sees(g, c) for c in start + end) for g in gone):
            links: list[tuple[Literal, Literal, bool]] = []
            for i, (a, b) in enumerate(chain):
                if i:
                    links.append(((chain[i - 1][1][0], d, True), (a[0], d, False), False))
                links.append(((a[0], d, False), (b[0], d, True), True))
            cells = tuple(c for a, b in chain for c in a + b)
            return Figure(d, (("pattern", cells),), tuple(links))
    return Figure()


def _literal_chain(chain: tuple[Literal, ...]) -> Figure:
    """A forcing (X-)chain or a bidirectional cycle's loop: each literal follows
    from the one before; on -> off is a weak link, off -> on a strong one."""
    links = [(a, b, not a[2]) for a, b in pairwise(chain)]
    folded = max(0, len(links) - MAX_LINKS)
    return Figure(
        chain[0][1] if chain else 0,
        (),
        tuple(links[folded:]),
        chain[0] if chain else None,
        folded,
    )


def _branches(state: CandidateState, step: SeStep) -> Figure:
    """A forcing chains step: the links of each branch, from its premise to the
    conclusion (or the contradiction), folded as :func:`_fold_branches` says."""
    nets = branch_nets(state, step)
    index = {p: i for i, p in enumerate(step.branches)}
    drawn = _fold_branches(nets)
    links = tuple(link for _i, link in drawn)
    branch_of = tuple(index[nets[i].premise] for i, _link in drawn)
    ends: list[tuple[Literal, ...]] = [() for _p in step.branches]
    for net in nets:
        ends[index[net.premise]] = net.ends
    one = step.branches[0] if len(step.branches) == 1 else None
    cells = tuple(sorted({p[0] for p in step.branches}))
    folded = sum(len(net.links) for net in nets) - len(links)
    inner = tuple((index[net.premise], *chain) for net in nets for chain in net.inner)
    return Figure(0, (("pattern", cells),), links, one, folded, True, branch_of, tuple(ends), inner)


def _fold_branches(nets: tuple[BranchNet, ...]) -> list[tuple[int, tuple[Literal, Literal, bool]]]:
    """``(branch, link)``: every link of every branch when they are at most
    :data:`MAX_LINKS`; else each branch's chains by first parents (its side
    links, a dynamic strong link's extra parents and their ancestors, left
    out); else the last links of those chains, an equal share for each."""
    whole = [(i, link) for i, net in enumerate(nets) for link in net.links]
    if len(whole) <= MAX_LINKS:
        return whole
    chains = [[list(pairwise(path)) for path in net.paths] for net in nets]
    share = max(1, MAX_LINKS // max(1, len(nets)))
    total = sum(len({p for c in cs for p in c}) for cs in chains)
    out: list[tuple[int, tuple[Literal, Literal, bool]]] = []
    for i, cs in enumerate(chains):
        kept: list[tuple[Literal, Literal]] = []
        for c in cs:
            tail = c if total <= MAX_LINKS else c[-max(1, share // len(cs)) :]
            kept.extend(pair for pair in tail if pair not in kept)
        out.extend((i, (a, b, not a[2])) for a, b in kept)
    return out[-MAX_LINKS:]


def figure(state: CandidateState, step: SeStep) -> Figure:
    """The pattern of ``step`` in ``state``, the pencil marks before it (see the module doc).

    Returns an empty :class:`Figure` for a technique with nothing to draw
    beyond its conclusion (singles, the BUG's placement) or when no pattern is
    found. A bidirectional cycle is drawn as its loop, the replay's ``chain``.
    """
    m = _Marks(state)
    if step.shown:  # a direct hint's pattern is what its shown eliminations need
        step = replace(step, eliminations=step.shown)
    name = step.technique
    word = name.split()[-1]
    sizes = {"Pair": 2, "Triple": 3, "Quad": 4}
    if name in ("Pointing", "Claiming", "Direct Pointing", "Direct Claiming"):
        return _locking(m, step)
    if name.startswith(("Naked", "Hidden", "Direct Hidden")) and word in sizes:
        if "Hidden" in name:
            return _hidden(m, step, sizes[word])
        return _naked(m, step, sizes[word])
    fish = {"X-Wing": 2, "Swordfish": 3, "Jellyfish": 4}
    if name in fish:
        return _fish(m, step, fish[name])
    if name.endswith("-Wing"):
        letters = name.split("-")[0]
        return _wings(m, step, 3 if letters in ("XY", "XYZ") else len(letters))
    if name == "Unique Rectangle":
        return _rectangle(m, step)
    if name == "Turbot Fish":
        return _strong_links(m, step, 2)
    if name.endswith("Strong Links"):
        return _strong_links(m, step, int(name.split()[0]))
    if name == "BUG type 1":
        return Figure(0, (("pattern", tuple(c for c, _d in step.placements)),))
    if step.chain:
        return _literal_chain(step.chain)
    if step.branches:
        return _branches(state, step)
    return Figure()


__all__ = ["MAX_LINKS", "Figure", "figure"]
