"""Never a copy: keys of known puzzles, and a check that a puzzle is new.

A generated puzzle is *new* when no puzzle it must avoid is isomorphic to it
(the same up to relabelling digits, permuting bands, rows in a band, stacks,
columns in a stack, and transposing). Two puzzles are isomorphic exactly when
their canonical forms (the least image under those maps,
:mod:`csp_sudoku._kernels.canonical`) are equal, so "new" is a set lookup of
a 64-bit hash of the puzzle's canonical form.

The canonical form costs about 0.15 ms a puzzle, more than a random minimal
puzzle takes to make. So every lookup first asks a cheap **invariant** of the
isomorphism class (:func:`invariants`: the sorted clue counts of the rows and
columns, an unordered pair since a transposition swaps them; the sorted clue
counts of the boxes; the sorted counts of the digits). A puzzle whose
invariant no avoided puzzle shares is new without its canonical form; only a
shared invariant pays for the full form.

What is avoided by default: the published collections (17-clue puzzles,
top1465, the forum's hardest lists) and the pseudo-generator's seed bank
(:data:`csp_sudoku.generators.hsolve_gen.SEED_BANK`), whose invariants and
canonical hashes ship inside the package (:data:`KEYS_FILE`, built by
``scripts/build_reference_keys.py`` from the lists in tests/data/reference),
and whatever the caller adds (``avoid=`` of
:func:`csp_sudoku.generators.generate`, ``--avoid`` of the CLI). The shipped
keys are read once a process; an ``avoid`` file's canonical forms are cached
in the user cache folder (``$XDG_CACHE_HOME/csp_sudoku/canon``) under the
SHA-256 of the file's bytes.

This module sits in the generators layer and uses the kernel-level canonical
form, not :mod:`csp_sudoku.tools.canonical` (tools are a layer above).
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_file

__all__ = [
    "KEYS_FILE",
    "KeySet",
    "Keys",
    "avoided",
    "canonical_bytes",
    "canonical_hashes",
    "default_keys",
    "invariants",
    "keys_of_file",
    "keys_of_lines",
    "published_keys",
    "relabelled_bytes",
    "run_keys",
]

#: The package's keys of the published collections and the seed bank (arrays
#: ``invariants`` and ``hashes``, sorted uint64, and ``digest``, the SHA-256 of
#: the two arrays' bytes, which is checked on loading).
KEYS_FILE = Path(__file__).resolve().parents[1] / "data" / "reference_keys.npz"

_LOCK = threading.Lock()
_NINE = Geometry.standard(9)


def _canon_many(cells: NDArray[np.int8]) -> NDArray[np.int8]:
    from csp_sudoku._kernels import canonical as k

    out: NDArray[np.int8] = k.canonical_batch(np.ascontiguousarray(cells, dtype=np.int8))
    return out


def canonical_bytes(cells: NDArray[np.integer]) -> bytes:
    """The canonical form of one 81-cell puzzle, as 81 bytes (a set key)."""
    key: bytes = _canon_many(np.asarray(cells, dtype=np.int8).reshape(1, 81))[0].tobytes()
    return key


def _hash(form: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(form, digest_size=8).digest(), "little")


def canonical_hashes(cells: NDArray[np.integer]) -> NDArray[np.uint64]:
    """64-bit hashes (BLAKE2b) of the canonical forms of ``(n, 81)`` puzzles."""
    forms = _canon_many(np.asarray(cells, dtype=np.int8).reshape(-1, 81))
    return np.array([_hash(f.tobytes()) for f in forms], dtype=np.uint64)


def invariants(cells: NDArray[np.integer]) -> NDArray[np.uint64]:
    """A 64-bit isomorphism invariant of each of ``(n, 81)`` puzzles.

    Isomorphic puzzles get the same value: it mixes the sorted clue counts of
    the rows and of the columns (as an unordered pair), of the boxes, and the
    sorted counts of the nine digits, none of which a relabelling, a band,
    row, stack or column permutation or a transposition changes. Different
    values prove two puzzles are not isomorphic; equal values prove nothing.
    About a microsecond a puzzle (:func:`csp_sudoku._kernels.canonical.invariant_many`).
    """
    from csp_sudoku._kernels import canonical as k

    arr = np.ascontiguousarray(np.asarray(cells, dtype=np.int8).reshape(-1, 81))
    out: NDArray[np.uint64] = k.invariant_many(arr, k.MIX)
    return out


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


@dataclass(frozen=True)
class Keys:
    """A frozen set of 9x9 isomorphism classes: their invariants and the hashes
    of their canonical forms (shared, never copied)."""

    invariants: frozenset[int]
    hashes: frozenset[int]

    @classmethod
    def of(cls, cells: NDArray[np.integer]) -> Keys:
        """The keys of ``(n, 81)`` puzzles."""
        arr = np.asarray(cells).reshape(-1, 81)
        if not arr.size:
            return cls(frozenset(), frozenset())
        return cls(frozenset(invariants(arr).tolist()), frozenset(canonical_hashes(arr).tolist()))

    def __or__(self, other: Keys) -> Keys:
        return Keys(self.invariants | other.invariants, self.hashes | other.hashes)

    def __len__(self) -> int:
        return len(self.hashes)


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


def keys_of_lines(lines: Iterable[str]) -> Keys:
    """The keys of the 9x9 puzzles in ``lines`` (one a line, first field)."""
    return Keys.of(_parse_lines(lines))


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "csp_sudoku" / "canon"


@lru_cache(maxsize=32)
def keys_of_file(path: str | Path) -> Keys:
    """The keys of the puzzles in a text file (plain, gzip, bzip2 or xz); their
    canonical forms are cached by the file's SHA-256.

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
    forms: NDArray[np.int8] | None = None
    if cached.is_file():
        try:
            forms = np.load(cached)
        except (OSError, ValueError):
            forms = None  # a broken cache file: compute again
    if forms is None:
        forms = _canon_many(_parse_lines(data.decode("utf-8", errors="replace").splitlines()))
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, forms)
            os.replace(tmp, cached)
        except OSError:
            pass  # no cache folder: the keys are still right, only slower next time
    if not forms.size:
        return Keys(frozenset(), frozenset())
    hashes = frozenset(_hash(f.tobytes()) for f in forms)
    return Keys(frozenset(invariants(forms).tolist()), hashes)


def keys_digest(inv: NDArray[np.uint64], hashes: NDArray[np.uint64]) -> NDArray[np.uint8]:
    """The SHA-256 that :data:`KEYS_FILE` stores of its two arrays (checked on loading)."""
    h = hashlib.sha256(np.ascontiguousarray(inv, dtype="<u8").tobytes())
    h.update(np.ascontiguousarray(hashes, dtype="<u8").tobytes())
    return np.frombuffer(h.digest(), dtype=np.uint8).copy()


def published_keys() -> Keys:
    """The shipped keys of the published collections and the seed bank
    (:data:`KEYS_FILE`), read once a process.

    Raises:
        GenerationError: the file is missing or damaged (named in the message);
            novelty is never checked against less than it should be.
    """
    return _load_keys(KEYS_FILE)


@lru_cache(maxsize=2)
def _load_keys(path: Path) -> Keys:
    try:
        with np.load(io.BytesIO(path.read_bytes())) as data:
            inv = np.asarray(data["invariants"], dtype=np.uint64)
            hashes = np.asarray(data["hashes"], dtype=np.uint64)
            digest = np.asarray(data["digest"], dtype=np.uint8)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise GenerationError(
            f"the package's keys of the published puzzles, {path}, cannot be read ({exc}); "
            "reinstall csp_sudoku or rebuild them with scripts/build_reference_keys.py"
        ) from None
    if not np.array_equal(digest, keys_digest(inv, hashes)):
        raise GenerationError(
            f"the package's keys of the published puzzles, {path}, are damaged (their "
            "checksum does not match); reinstall csp_sudoku or rebuild them with "
            "scripts/build_reference_keys.py"
        )
    return Keys(frozenset(inv.tolist()), frozenset(hashes.tolist()))


@lru_cache(maxsize=8)
def _default(keys_file: Path, extra: tuple[str, ...]) -> Keys:
    keys = _load_keys(keys_file)
    for f in extra:
        keys = keys | keys_of_file(f)
    return keys


class KeySet:
    """Puzzles a generator must not produce: a shared frozen :class:`Keys` base
    (the published collections, the seed bank, ``avoid`` files) plus the run's
    own outputs.

    On the standard 9x9 an output is recorded by its invariant alone; its
    canonical form is computed only when a later puzzle meets that invariant,
    so a run of random puzzles pays for almost no canonical forms. Other
    shapes are keyed by :func:`relabelled_bytes`.
    """

    def __init__(self, geometry: Geometry = _NINE, base: Keys | None = None) -> None:
        self.geometry = geometry
        self.nine = geometry == _NINE
        #: What a puzzle is keyed by when one key is needed (the vicinity
        #: search's own sets): :func:`canonical_bytes` on 9x9, else
        #: :func:`relabelled_bytes`.
        self.key: Callable[[NDArray[np.integer]], bytes] = (
            canonical_bytes if self.nine else relabelled_bytes
        )
        self.base = base if base is not None else Keys(frozenset(), frozenset())
        self._hashes: set[int] = set()  # canonical hashes of the run's outputs
        self._waiting: dict[int, list[bytes]] = {}  # invariant -> outputs not yet hashed
        self._other: set[bytes] = set()  # keys of outputs on other shapes
        self._last: tuple[bytes, int] = (b"", 0)  # the last puzzle's invariant

    def __len__(self) -> int:
        return (
            len(self.base)
            + len(self._hashes)
            + len(self._other)
            + sum(len(v) for v in self._waiting.values())
        )

    def is_new(self, cells: NDArray[np.integer]) -> bool:
        """True when no avoided puzzle is isomorphic to ``cells`` (9x9), or is
        ``cells`` up to a relabelling (other shapes)."""
        if not self.nine:
            return relabelled_bytes(cells) not in self._other
        inv = self._invariant(cells)
        if inv not in self.base.invariants and inv not in self._waiting:
            return True
        h = int(canonical_hashes(cells)[0])
        if h in self.base.hashes:
            return False
        waiting = self._waiting.get(inv)
        if waiting:  # earlier outputs of this invariant: hashed now, once
            self._hashes.update(
                canonical_hashes(np.frombuffer(b"".join(waiting), np.int8)).tolist()
            )
            self._waiting[inv] = []
        return h not in self._hashes

    def add(self, cells: NDArray[np.integer]) -> None:
        """Record ``cells`` as produced, so that it is never produced twice."""
        if not self.nine:
            self._other.add(relabelled_bytes(cells))
            return
        arr = np.asarray(cells, dtype=np.int8).reshape(81)
        self._waiting.setdefault(self._invariant(arr), []).append(arr.tobytes())

    def _invariant(self, cells: NDArray[np.integer]) -> int:
        """The invariant of ``cells``, remembered for the next call (``is_new``
        then ``add`` of one puzzle computes it once)."""
        raw = np.asarray(cells, dtype=np.int8).tobytes()
        if raw != self._last[0]:
            self._last = (raw, int(invariants(cells)[0]))
        return self._last[1]


def run_keys(geometry: Geometry, lines: Iterable[str] = (), base: Keys | None = None) -> KeySet:
    """A :class:`KeySet` over ``base`` holding a run's own outputs ``lines``
    (written earlier, one puzzle a line)."""
    seen = KeySet(geometry, base)
    if geometry == _NINE:
        for row in _parse_lines(lines):
            seen.add(row)
        return seen
    from csp_sudoku.core.io import parse

    for x in lines:
        seen.add(parse(x, geometry).cells)
    return seen


def avoided(avoid_files: Iterable[str] = ()) -> Keys:
    """The frozen keys of the published collections, the seed bank and
    ``avoid_files`` (each read once a process and shared, never copied)."""
    with _LOCK:
        return _default(KEYS_FILE, tuple(str(f) for f in avoid_files))


def default_keys(avoid_files: Iterable[str] = ()) -> KeySet:
    """A fresh :class:`KeySet` over :func:`avoided` ``(avoid_files)``."""
    return KeySet(_NINE, avoided(avoid_files))
