"""Shared fixtures: the reference puzzle sets in ../shared/data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: ../shared/data beside the repository (CI clones the repo with shared/ beside it).
SHARED_DATA = Path(
    os.environ.get(
        "CSP_SUDOKU_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"
    )
)
TEST_DATA = Path(__file__).resolve().parent / "data"


def load_lines(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Puzzle lines of a shared data file (comments and blanks skipped).

    ``step`` takes every step-th puzzle, to spread a sample over the whole file.
    Skips the calling test when the shared data is not there.
    """
    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"shared data {path} not found")
    out: list[str] = []
    with path.open(encoding="utf-8") as fh:
        k = 0
        for line in fh:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if k % step == 0:
                out.append(s.split()[0])
                if limit is not None and len(out) >= limit:
                    break
            k += 1
    return out


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of the reference puzzle sets."""
    if not SHARED_DATA.exists():
        pytest.skip(f"shared data {SHARED_DATA} not found")
    return SHARED_DATA
