"""The links inside the branches of the se path's forcing chains steps: each
link holds in the pencil marks before its step by an independent check
(tests/branch_check.py), each branch runs from its premise to the step's
conclusion (or a contradiction), and the links found count what the rating's
kernels counted."""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from itertools import pairwise
from typing import Any

import pytest

import csp_sudoku as cs
from csp_sudoku.human.se_branches import BranchNet, branch_nets
from csp_sudoku.human.se_figures import MAX_LINKS, _fold_branches
from tests.branch_check import check_branch, check_branches
from tests.chain_check import ChainError
from tests.conftest import load_table
from tests.helpers import cand_sets


@lru_cache(maxsize=1)
def _steps() -> list[tuple[Any, Any, dict[str, Any], list[set[int]]]]:
    """``(state, step, step dict, marks)`` of every forcing chains step on the se
    paths of top1465 puzzles rated 7.5 to 9.0 by SE (spread over the file)."""
    rows = [
        r
        for r in load_table("se_calibration_top1465.tsv")
        if 7.5 <= float(r["ER"]) <= 9.0 and float(r["seconds"]) < 60
    ]
    out = []
    for r in rows[:: max(1, len(rows) // 24)][:24]:
        path = cs.solve_path(r["puzzle"])
        d = json.loads(json.dumps(path.to_dict()))
        for state, step, sd in zip(path.states(), path.steps, d["steps"], strict=False):
            if step.branches:
                out.append((state, step, sd, cand_sets(state)))
    return out


def test_every_branch_link_holds_and_reaches_the_conclusion() -> None:
    seen: Counter[str] = Counter()
    for state, step, sd, marks in _steps():
        assert check_branches(sd, marks) == len(step.branches), step
        nets = branch_nets(state, step)
        conclusion = (
            (*step.placements[0], True) if step.placements else (*step.eliminations[0], False)
        )
        for net in nets:  # the links before folding, too
            check_branch(
                net.premise, list(net.links), list(net.ends), marks, step.technique, conclusion
            )
        seen[step.technique] += 1
    kinds = {"Cell Forcing Chains", "Region Forcing Chains", "Dynamic Region Forcing Chains"}
    kinds |= {"Dynamic Cell Forcing Chains", "Dynamic Contradiction Forcing Chains"}
    kinds |= {"Nishio Forcing Chains", "Dynamic Double Forcing Chains"}
    assert kinds <= set(seen), seen
    assert sum(seen.values()) >= 100


def test_branches_count_what_the_kernels_counted() -> None:
    """Each branch's ancestors, added over the branches, are the step's complexity:
    the links are those of the nets the rating read."""
    for state, step, _sd, _marks in _steps():
        nets = branch_nets(state, step)
        assert len(nets) == len(step.branches)
        assert sum(net.complexity for net in nets) == step.complexity, step
        for net in nets:
            for path, end in zip(net.paths, net.ends, strict=True):
                assert path[0] == net.premise and path[-1] == end


def _mutants(sd: dict[str, Any]) -> list[dict[str, Any]]:
    """Wrong figures made from a right one: a link dropped, a kind flipped, a digit moved."""
    out = []
    links = sd["figure"]["links"]
    for i, link in enumerate(links):
        fig = dict(sd["figure"])
        if i == 0:
            fig["links"] = links[1:]
        elif i == 1:
            fig["links"] = [
                *links[:i],
                {**link, "kind": "weak" if link["kind"] == "strong" else "strong"},
                *links[i + 1 :],
            ]
        elif i == 2:
            to = [link["to"][0], link["to"][1] % 9 + 1, link["to"][2]]
            fig["links"] = [*links[:i], {**link, "to": to}, *links[i + 1 :]]
        else:
            break
        out.append({**sd, "figure": fig})
    return out


def test_the_checker_refuses_wrong_links() -> None:
    wrong = 0
    for _state, _step, sd, marks in _steps()[:40]:
        if sd["figure"]["folded"] or len(sd["figure"]["links"]) < 3:
            continue
        for bad in _mutants(sd):
            with pytest.raises(ChainError):
                check_branches(bad, marks)
            wrong += 1
        # a branch said to end elsewhere
        ends = [[[c, d % 9 + 1, on] for c, d, on in e] for e in sd["figure"]["ends"]]
        with pytest.raises(ChainError):
            check_branches({**sd, "figure": {**sd["figure"], "ends": ends}}, marks)
    assert wrong >= 30


def test_long_branches_are_folded() -> None:
    """Over MAX_LINKS links the branches keep their chains by first parents,
    then those chains' last links; never more than MAX_LINKS."""

    def chain(premise: int, n: int) -> tuple[tuple[int, int, bool], ...]:
        return tuple((premise + i, 1 + i % 9, i % 2 == 0) for i in range(n + 1))

    paths = [chain(1000 * b, 80) for b in range(3)]
    nets = tuple(
        BranchNet(
            p[0],
            (p[-1],),
            tuple((a, b, not a[2]) for a, b in pairwise(p))
            + tuple(((9, 9, True), (8, 8, False), False) for _ in range(5)),
            (p,),
            len(p),
        )
        for p in paths
    )
    drawn = _fold_branches(nets)
    assert len(drawn) <= MAX_LINKS
    assert {i for i, _link in drawn} == {0, 1, 2}
    for i, p in enumerate(paths):  # each branch keeps the end of its chain
        assert (i, (p[-2], p[-1], not p[-2][2])) in drawn
    short = tuple(
        BranchNet(n.premise, n.ends, n.links[:30] + n.links[-5:], (n.paths[0][:31],), 0)
        for n in nets
    )
    assert len(_fold_branches(short)) == 3 * 30  # side links dropped, chains whole
