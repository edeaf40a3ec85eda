"""What a technique costs a person, on Sudoku Explainer's scale (one table).

Sudoku Explainer (SE) rates each technique by a fixed value and solves by
always applying the easiest one available; its rating of a puzzle (ER) is the
hardest step taken. These are SE's published values for the techniques the
human model's singles and subset rule cover, and the base values of SE's chain
families. The model uses them to choose between subset-rule applications of
the same size (the easiest first, as SE does), and the ``se`` metric
(:mod:`csp_sudoku.metrics.se`, :mod:`csp_sudoku.human.se_order`) to rate steps.
"""

from __future__ import annotations

#: SE's value of each named technique of the singles and the subset rule.
SE_VALUES: dict[str, float] = {
    "hidden single (box)": 1.2,
    "hidden single": 1.5,
    "naked single": 2.3,
    "pointing": 2.6,
    "claiming": 2.8,
    "naked pair": 3.0,
    "X-Wing": 3.2,
    "hidden pair": 3.4,
    "naked triple": 3.6,
    "Swordfish": 3.8,
    "hidden triple": 4.0,
    "naked quad": 5.0,
    "Jellyfish": 5.2,
    "hidden quad": 5.4,
}

#: SE's "direct" variants: the technique at once yields a single (no other
#: single being available before it), which SE rates easier than the technique.
SE_DIRECT: dict[str, float] = {
    "pointing": 1.7,
    "claiming": 1.9,
    "hidden pair": 2.0,
    "hidden triple": 2.5,
}

#: Subset-rule applications without a classic name, by size (a hidden subset's value).
SE_UNNAMED_SUBSET: dict[int, float] = {1: 2.8, 2: 3.4, 3: 4.0, 4: 5.4}


def subset_value(name: str | None, size: int) -> float:
    """SE's value of a subset-rule application (named or not)."""
    if name is not None and name in SE_VALUES:
        return SE_VALUES[name]
    return SE_UNNAMED_SUBSET.get(size, 5.4 + 0.2 * (size - 4))


#: SE's chain families and their base values (SE adds a bonus for the chain's
#: complexity, :func:`csp_sudoku.human.se_order.length_bonus`): bidirectional
#: X- and Y-cycles (one digit, or bivalue cells only; a cycle of both kinds of
#: link is worth a forcing chain), forcing X-chains (one digit, static),
#: forcing chains (static), Nishio chains (one digit, dynamic), cell and region
#: ("multiple") forcing chains (static), dynamic forcing chains, dynamic forcing
#: chains with pointing, claiming, pairs and X-Wing inside ("+"), and the
#: nesting levels above them: forcing chains inside ("+ Forcing Chains", level
#: 2), multiple forcing chains inside (level 3), dynamic forcing chains inside
#: (level 4); SE's level ``n`` is worth 8.5 + 0.5 n.
SE_CHAIN_BASE: dict[str, float] = {
    "X- or Y-cycle": 6.5,
    "forcing X-chain": 6.6,
    "forcing chain": 7.0,
    "Nishio": 7.5,
    "multiple": 8.0,
    "dynamic": 8.5,
    "dynamic (+)": 9.0,
    "nested": 9.5,
    "nested (multiple)": 10.0,
    "nested (dynamic)": 10.5,
}
