"""Build csp_sudoku/data/reference_keys.npz: the "never a copy" keys the package ships.

Reads the published collections in tests/data/reference (every ``*.txt.xz``
but the multi-solution list, whose puzzles no generator can produce) and the
pseudo-generator's seed bank, and writes for each isomorphism class its
invariant and the 64-bit hash of its canonical form
(:mod:`csp_sudoku.generators.novelty`), sorted and deduplicated, with a
checksum the package checks on loading. A test rebuilds the arrays from the
same sources and compares them, so the file cannot drift from its lists.

Usage: ``.venv/bin/python scripts/build_reference_keys.py`` (about 15 s).
"""

from __future__ import annotations

import lzma
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "data" / "reference"


def source_files() -> list[Path]:
    """The published puzzle lists whose keys the package ships."""
    return sorted(f for f in REFERENCE.glob("*.txt.xz") if not f.name.startswith("multi_solution"))


def build() -> tuple[NDArray[np.uint64], NDArray[np.uint64], list[str]]:
    """(invariants, hashes, sources): sorted unique keys and what they came from."""
    from csp_sudoku.generators.hsolve_gen import SEED_BANK
    from csp_sudoku.generators.novelty import _parse_lines, canonical_hashes, invariants

    parts = [(_parse_lines(SEED_BANK), "seed bank")]
    for f in source_files():
        parts.append((_parse_lines(lzma.decompress(f.read_bytes()).decode().splitlines()), f.name))
    cells = np.concatenate([p for p, _ in parts])
    sources = [f"{name}: {len(p)} puzzles" for p, name in parts]
    return np.unique(invariants(cells)), np.unique(canonical_hashes(cells)), sources


def main() -> int:
    from csp_sudoku.generators.novelty import KEYS_FILE, keys_digest

    inv, hashes, sources = build()
    np.savez_compressed(
        KEYS_FILE,
        invariants=inv,
        hashes=hashes,
        digest=keys_digest(inv, hashes),
        sources=np.array(sources),
    )
    print(f"{KEYS_FILE}: {len(hashes)} classes, {len(inv)} invariants from")
    for s in sources:
        print(f"  {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
