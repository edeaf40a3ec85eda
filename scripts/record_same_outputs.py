"""Record the outputs of generate / rate / explain for fixed seeds into tests/data.

tests/test_same_outputs.py recomputes the same calls and compares: a refactor
that changes any output for the same seed fails it. Run this only when a change
of output is intended (and say so in the commit message)::

    .venv/bin/python scripts/record_same_outputs.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "same_outputs.json"

#: Puzzles rated and explained: two 17-clue puzzles (easy), two top1465 (hard).
PUZZLES: tuple[str, ...] = (
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ".................1..2..3.4......2.....4.5....16......7...7.4.....8...32..9.1.....",
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
)

#: One call per case: (name, kind, arguments). Kept small so the test stays quick.
RATE_CASES: tuple[tuple[str, int | None, int], ...] = (
    ("hsolve", 5, 11),
    ("rounds", None, 0),
    ("mdrt", None, 0),
    ("oracle", 10, 12),
    ("refutation", 3, 13),
    ("dependency", 3, 14),
)

GENERATE_CASES: tuple[dict[str, Any], ...] = (
    {"count": 2, "seed": 7, "method": "random"},
    {"count": 1, "seed": 8, "method": "random", "symmetry": "rot180"},
    {"count": 1, "seed": 9, "method": "rg1"},
    {"count": 1, "seed": 10, "method": "climb", "level": "hard", "metric": "rounds", "attempts": 2},
    {"count": 1, "seed": 11, "method": "ddg", "attempts": 2},
    {"count": 1, "seed": 12, "method": "oracle", "attempts": 2},
    {"count": 1, "seed": 13, "method": "hsolve", "attempts": 2},
    {"count": 1, "seed": 14, "method": "random", "geometry": 4},
    {"count": 2, "seed": 15, "method": "random", "rate_with": ["hsolve"]},
)


def _rating(r: Any) -> dict[str, Any]:
    return {
        "score": round(float(r.score), 9),
        "level": r.level,
        "level_rank": r.level_rank,
        "runs": r.runs,
        "seed": r.seed,
    }


def compute() -> dict[str, Any]:
    """Every recorded output, as JSON-ready values."""
    import numpy as np

    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.core.io import parse
    from csp_sudoku.generators import generate, minimal_puzzle, random_grid
    from csp_sudoku.human.path import solve_path
    from csp_sudoku.metrics import rate, rate_many

    out: dict[str, Any] = {"rate": [], "rate_many": [], "explain": [], "generate": [], "grids": []}
    for line in PUZZLES:
        for metric, runs, seed in RATE_CASES:
            r = rate(line, metric, runs=runs, seed=seed)
            out["rate"].append({"puzzle": line, "metric": metric, **_rating(r)})
    for metric, runs, _ in RATE_CASES[:3]:
        rs = rate_many(list(PUZZLES), metric, runs=runs, seed=21)
        out["rate_many"].append({"metric": metric, "ratings": [_rating(r) for r in rs]})
    for line in PUZZLES:
        p = parse(line)
        for name, kwargs in (
            ("default", {}),
            ("rng", {"rng": np.random.default_rng(5)}),
            (
                "refutation",
                {"techniques": ("singles", "refutation"), "rng": np.random.default_rng(0)},
            ),
            ("oracle", {"techniques": ("singles", "oracle"), "rng": np.random.default_rng(6)}),
        ):
            path = solve_path(p, **kwargs)
            out["explain"].append({"puzzle": line, "case": name, "path": path.to_dict()})
    for case in GENERATE_CASES:
        kw = dict(case)
        if "geometry" in kw:
            kw["geometry"] = Geometry.standard(int(kw["geometry"]))
        got = [
            {
                "puzzle": g.puzzle.to_line(),
                "seed": g.seed,
                "ratings": {k: _rating(v) for k, v in sorted(g.ratings.items())},
            }
            for g in generate(**kw)
        ]
        out["generate"].append({"case": case, "puzzles": got})
    for seed in (1, 2):
        out["grids"].append(
            {
                "seed": seed,
                "grid": random_grid(seed=seed).to_line(),
                "minimal": minimal_puzzle(seed=seed, symmetry="rot180").to_line(),
            }
        )
    return out


def main() -> int:
    sys.path.insert(0, str(ROOT))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {OUT}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
