"""Never a copy: canonical keys of known puzzles, and a check that a puzzle is new.

A generated puzzle is *new* when no puzzle it must avoid is isomorphic to it
(the same up to relabelling digits, permuting bands, rows in a band, stacks,
columns in a stack, and transposing). Two puzzles are isomorphic exactly when
their canonical forms (the least image under those maps,
:mod:`csp_sudoku._kernels.canonical`) are equal, so "new" is a set lookup of
the puzzle's canonical form.

What is avoided by default: the bundled reference collections (the
``*.txt`` puzzle files of the project's shared data folder: 17-clue puzzles,
top1465, the forum's hardest lists), the pseudo-generator's seed bank
(:data:`csp_sudoku.generators.hsolve_gen.SEED_BANK`) and whatever the caller
adds (``avoid=`` of :func:`csp_sudoku.generators.generate`, ``--avoid`` of the
CLI). Canonical forms cost about 0.3 ms a puzzle (75,000 bundled puzzles: 24 s
on one core), so the keys of each file are cached in the user cache folder
(``$XDG_CACHE_HOME/csp_sudoku/canon``), under the SHA-256 of the file's bytes:
a changed file is keyed anew, and loading a cached file costs milliseconds.

This module sits in the generators layer and uses the kernel-level canonical
form, not :mod:`csp_sudoku.tools.canonical` (tools are a layer above).
"""

from __future__ import annotations

import hashlib
import os
import threading
import warnings
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import GenerationError, ReferenceDataWarning
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_file

__all__ = [
    "DATA_ENV",
    "KeySet",
    "bundled_files",
    "canonical_bytes",
    "check_reference",
    "default_keys",
    "keys_of_file",
    "keys_of_lines",
    "relabelled_bytes",
    "run_keys",
]

#: Environment variable naming the folder of the bundled reference collections
#: (default: the ``shared/data`` folder next to the repository, when it exists).
DATA_ENV = "CSP_SUDOKU_REFERENCE_DATA"

_LOCK = threading.Lock()


def _canon_many(cells: NDArray[np.int8]) -> NDArray[np.int8]:
    from csp_sudoku._kernels import canonical as k

    out: NDArray[np.int8] = k.canonical_many(
        np.ascontiguousarray(cells, dtype=np.int8), k.LINE_MAPS, k.MASK_TABLE
    )
    return out


def canonical_bytes(cells: NDArray[np.integer]) -> bytes:
    """The canonical form of one 81-cell puzzle, as 81 bytes (a set key)."""
    key: bytes = _canon_many(np.asarray(cells, dtype=np.int8).reshape(1, 81))[0].tobytes()
    return key


def relabelled_bytes(cells: NDArray[np.integer]) -> bytes:
    """A puzzle of any shape with its digits renumbered in order of first
    appearance (a set key): two puzzles get the same key exactly when they are
    the same up to a relabelling of the digits.

    The run's own key for shapes other than the standard 9x9, whose full
    canonical form (:func:`canonical_bytes`) is 9x9 only: there a generator
    never repeats a puzzle, nor one of its relabellings.
    """
    flat = np.asarray(cells, dtype=np.int8).ravel()
    names: dict[int, int] = {}
    out = bytearray(flat.size)
    for i, v in enumerate(flat.tolist()):
        if v:
            out[i] = names.setdefault(v, len(names) + 1)
    return bytes(out)


def _parse_lines(lines: Iterable[str]) -> NDArray[np.int8]:
    """The 81-cell puzzles of text lines (first field of each; comments skipped)."""
    rows: list[list[int]] = []
    for line in lines:
        s = line.strip()
        if not s or s[0] == "#":
            continue
        for field in s.replace("\t", " ").split(" "):
            if len(field) == 81 and all(ch in ".0123456789" for ch in field):
                rows.append([0 if ch == "." else int(ch) for ch in field])
                break
    if not rows:
        return np.zeros((0, 81), dtype=np.int8)
    return np.asarray(rows, dtype=np.int8)


def keys_of_lines(lines: Iterable[str]) -> set[bytes]:
    """Canonical keys of the 9x9 puzzles in ``lines`` (one a line, first field)."""
    arr = _parse_lines(lines)
    return {row.tobytes() for row in _canon_many(arr)} if arr.size else set()


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "csp_sudoku" / "canon"


def keys_of_file(path: str | Path) -> set[bytes]:
    """Canonical keys of the puzzles in a text file, cached by the file's SHA-256.

    Raises:
        GenerationError: when the file cannot be read.
    """
    p = Path(path)
    try:
        with open_file(p) as fh:
            data = fh.read()  # decompressed, when gzip, bzip2 or xz
    except OSError as exc:
        raise GenerationError(f"cannot read puzzles to avoid from {str(p)!r}: {exc}") from None
    digest = hashlib.sha256(data).hexdigest()
    cached = _cache_dir() / f"{digest}.npy"
    if cached.is_file():
        try:
            arr = np.load(cached)
            return {row.tobytes() for row in arr}
        except (OSError, ValueError):
            pass  # a broken cache file: compute again
    forms = _canon_many(_parse_lines(data.decode("utf-8", errors="replace").splitlines()))
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, forms)
        os.replace(tmp, cached)
    except OSError:
        pass  # no cache folder: the keys are still right, only slower next time
    return {row.tobytes() for row in forms}


def _default_data() -> Path:
    """The reference sets' folder when :data:`DATA_ENV` is unset: ``shared/data``
    beside the repository."""
    return Path(__file__).resolve().parents[3] / "shared" / "data"


def bundled_files() -> list[Path]:
    """The bundled reference puzzle files present (``*.txt`` of the data folder).

    Files of puzzles that are *not* unique (``multi_solution*``) are left out:
    no generated puzzle can be isomorphic to them.

    Raises:
        GenerationError: :data:`DATA_ENV` is set but names no folder, or one
            without ``*.txt`` puzzle files (a typo would otherwise leave every
            output unchecked against the published lists).
    """
    named = os.environ.get(DATA_ENV)
    folder = Path(named) if named else _default_data()
    if not folder.is_dir():
        if named:
            raise GenerationError(f"{DATA_ENV}={named!r} names no folder of reference puzzles")
        return []
    files = sorted(f for f in folder.glob("*.txt") if not f.name.startswith("multi_solution"))
    if named and not files:
        raise GenerationError(f"{DATA_ENV}={named!r}: the folder holds no *.txt puzzle files")
    return files


def check_reference() -> None:
    """Say, before a 9x9 search, when the reference sets are missing.

    Warns (:class:`ReferenceDataWarning`) when no reference file is found, as in
    an installed copy without the repository's ``shared/data``: outputs are then
    checked against the seed bank, the ``avoid`` files and the run's own outputs
    only, and may be published puzzles.

    Raises:
        GenerationError: a bad :data:`DATA_ENV` (see :func:`bundled_files`).
    """
    if not bundled_files():
        warnings.warn(
            f"the reference puzzle sets were not found (looked in {_default_data()}): "
            "9x9 outputs are checked for novelty against the seed bank, the --avoid "
            "files and this run only, so one may be a published puzzle; set "
            f"{DATA_ENV} to the folder of the published lists",
            ReferenceDataWarning,
            stacklevel=3,
        )


class KeySet:
    """Canonical keys a generator must not produce, plus the run's own outputs.

    ``KeySet.default()`` holds the bundled collections and the seed bank;
    :meth:`add` records an output so that it is never produced twice.
    """

    def __init__(
        self,
        keys: set[bytes] | None = None,
        key: Callable[[NDArray[np.integer]], bytes] = canonical_bytes,
    ) -> None:
        self.keys: set[bytes] = set(keys or ())
        #: What a puzzle is keyed by: :func:`canonical_bytes` (9x9, up to
        #: isomorphism) or :func:`relabelled_bytes` (any shape).
        self.key = key

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def __len__(self) -> int:
        return len(self.keys)

    def is_new(self, cells: NDArray[np.integer]) -> bool:
        """True when no avoided puzzle has the key of ``cells``."""
        return self.key(cells) not in self.keys

    def add(self, cells: NDArray[np.integer]) -> bytes:
        """Record ``cells`` as produced; returns its key."""
        key = self.key(cells)
        self.keys.add(key)
        return key

    def copy(self) -> KeySet:
        """An independent copy (one per run, so runs do not see each other's outputs)."""
        return KeySet(set(self.keys), self.key)


@lru_cache(maxsize=8)
def _default(files: tuple[str, ...], extra: tuple[str, ...]) -> frozenset[bytes]:
    from csp_sudoku.generators.hsolve_gen import SEED_BANK

    keys = keys_of_lines(SEED_BANK)
    for f in files:
        keys |= keys_of_file(f)
    for f in extra:
        keys |= keys_of_file(f)
    return frozenset(keys)


def run_keys(geometry: Geometry, lines: Iterable[str] = ()) -> KeySet:
    """The keys of a run's own outputs ``lines`` (written earlier): canonical
    forms on the standard 9x9, digits relabelled on other shapes."""
    if geometry == Geometry.standard(9):
        return KeySet(keys_of_lines(lines))
    from csp_sudoku.core.io import parse

    return KeySet({relabelled_bytes(parse(x, geometry).cells) for x in lines}, relabelled_bytes)


def default_keys(avoid_files: Iterable[str] = ()) -> KeySet:
    """The bundled collections, the seed bank and ``avoid_files`` (loaded once a process)."""
    with _LOCK:
        keys = _default(tuple(str(f) for f in bundled_files()), tuple(str(f) for f in avoid_files))
    return KeySet(set(keys))
