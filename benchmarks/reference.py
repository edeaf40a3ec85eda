"""Where the benchmarks find the reference puzzle sets: tests/data/reference.

The public puzzle sets (``17_clue.txt``, ``top1465.txt``, ...) and the SE
calibration tables are kept in the repository, xz-compressed, with a README
and ``SHA256SUMS`` of the decompressed texts. Every helper takes a set's name
without ``.xz`` and checks the file against its sum before first use: a
missing or damaged file raises :class:`ReferenceDataError` naming it.
"""

from __future__ import annotations

import csv
import hashlib
import lzma
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The reference sets (``NAME.xz`` for each ``NAME`` the helpers take).
REFERENCE = ROOT / "tests" / "data" / "reference"


class ReferenceDataError(RuntimeError):
    """A reference file is missing, unreadable or not the one SHA256SUMS names."""


@cache
def text(name: str) -> str:
    """The decompressed text of set ``name`` (e.g. ``"top1465.txt"``), checked against SHA256SUMS."""
    path = REFERENCE / f"{name}.xz"
    try:
        data = lzma.decompress(path.read_bytes())
        sums = (REFERENCE / "SHA256SUMS").read_text(encoding="utf-8").split()
    except (OSError, lzma.LZMAError) as exc:
        raise ReferenceDataError(f"reference data {path} cannot be read: {exc}") from exc
    want = dict(zip(sums[1::2], sums[::2], strict=True)).get(name)
    if want is None or hashlib.sha256(data).hexdigest() != want:
        raise ReferenceDataError(
            f"reference data {path} is damaged: its SHA-256 is not the one in SHA256SUMS"
        )
    return data.decode("utf-8")


def puzzles(name: str) -> list[str]:
    """The puzzle lines of set ``name``: the first field of each line, comments and blanks skipped."""
    lines = (s.strip() for s in text(name).splitlines())
    return [s.split()[0] for s in lines if s and not s.startswith("#")]


def rows(name: str) -> list[dict[str, str]]:
    """The rows of a tab-separated set (the SE calibration tables) as dicts."""
    return list(csv.DictReader(text(name).splitlines(), delimiter="\t"))


def xz_path(name: str) -> Path:
    """The checked ``.xz`` file of set ``name``, for the CLI (``csp-sudoku check`` reads xz)."""
    text(name)
    return REFERENCE / f"{name}.xz"
