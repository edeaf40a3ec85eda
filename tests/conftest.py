"""Shared fixtures: the reference puzzle sets in ../shared/data, and their samples in tests/data.

The reference sets are public puzzle collections kept beside the repository
(../shared/data, or ``CSP_SUDOKU_SHARED_DATA``). tests/data/samples holds the
first 50 puzzles of each, so that a plain clone still tests every backend:
:func:`load_lines` serves a request from the sample whenever the sample gives
the very same lines (``step`` 1 and ``limit`` at most 50), and reads the shared
set otherwise. A missing shared set **fails** the tests that need it (a clone
without the data must not pass green with tests skipped); set
``CSP_SUDOKU_SKIP_SHARED_DATA=1`` to skip them instead on purpose (never in CI).
"""

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
# the generators check novelty against the same reference sets as the tests read
# (a clone elsewhere names them with CSP_SUDOKU_SHARED_DATA alone)
if SHARED_DATA.is_dir():
    os.environ.setdefault("CSP_SUDOKU_REFERENCE_DATA", str(SHARED_DATA))
TEST_DATA = Path(__file__).resolve().parent / "data"
SAMPLES = TEST_DATA / "samples"
#: Puzzles in each sample file: the first ones of its reference set.
SAMPLE_SIZE = 50


def _missing(what: Path) -> None:
    """Fail (or, when asked for explicitly outside CI, skip) a test whose data is missing."""
    message = (
        f"reference data {what} not found: clone the shared data beside the repository "
        "or set CSP_SUDOKU_SHARED_DATA"
    )
    in_ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    if os.environ.get("CSP_SUDOKU_SKIP_SHARED_DATA") == "1" and not in_ci:
        pytest.skip(message)
    pytest.fail(message)


def _read(path: Path, limit: int | None, step: int) -> list[str]:
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


def sample_lines(name: str, limit: int | None = None) -> list[str]:
    """The first puzzles of a reference set from its sample in tests/data (always there)."""
    return _read(SAMPLES / name, limit, 1)


def load_lines(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Puzzle lines of a reference set (comments and blanks skipped).

    ``step`` takes every step-th puzzle, to spread a sample over the whole file.
    Served from tests/data/samples when that gives the same lines; otherwise
    read from the shared data, and a missing file fails the calling test.
    """
    if step == 1 and limit is not None and limit <= SAMPLE_SIZE and (SAMPLES / name).exists():
        return sample_lines(name, limit)
    path = SHARED_DATA / name
    if not path.exists():
        _missing(path)
    return _read(path, limit, step)


def load_table(name: str) -> list[dict[str, str]]:
    """The rows of a tab-separated reference table (the SE calibration files) as dicts;
    a missing file fails the calling test, as in :func:`load_lines`."""
    import csv

    path = SHARED_DATA / name
    if not path.exists():
        _missing(path)
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of the reference puzzle sets."""
    if not SHARED_DATA.exists():
        _missing(SHARED_DATA)
    return SHARED_DATA


@pytest.fixture(scope="session")
def built_kernels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the 9x9 kernels built ahead of time from the current sources.

    The one ``scripts/setup.sh`` built when there is one; else built here (5-10 s).
    Building needs a C compiler: without one the tests that need it fail in CI
    and are skipped elsewhere, with the reason.
    """
    from csp_sudoku._kernels import ahead

    if ahead.built_path().is_file() and ahead.damage(ahead.built_path()) is None:
        return ahead.built_path().parent
    folder = tmp_path_factory.mktemp("ahead")
    try:
        ahead.build(folder)
    except Exception as err:  # no C compiler, a numba without pycc
        message = f"the kernels could not be built ahead of time: {type(err).__name__}: {err}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return folder
