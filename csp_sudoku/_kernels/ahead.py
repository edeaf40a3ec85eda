"""The 9x9 ``check`` kernels compiled ahead of time: a process that counts without numba.

Every process that counts with a numba kernel first imports numba (about
0.15 s), starts its CPU target (0.12 s) and loads the kernel from numba's disk
cache: about 0.35 s before the first count, on every run, and tens of seconds
of compiling on a machine's first run. That start is most of a short
``csp-sudoku check`` run, and on two cores it is why ``--jobs 2`` cannot be
twice ``--jobs 1``: nothing else can use the second core meanwhile.

:func:`build` compiles the kernels that ``check`` runs on standard 9x9
puzzles (:data:`EXPORTS`: the batch count of :mod:`~csp_sudoku._kernels.sudoku9`,
in slices,
and the byte readers and writers of :mod:`~csp_sudoku._kernels.rows`) from
the same Python sources, with numba's ahead-of-time compiler
(:mod:`numba.pycc`), into one extension module. Importing it takes about a
millisecond and needs numpy only. ``csp-sudoku compile`` (and
``scripts/setup.sh``) builds it; a C compiler is needed for that, not to use it.

:func:`module` loads it, when it was built from these very sources, by this
Python, against this numpy, for this CPU (all in its file name, :func:`key`);
otherwise (never built, sources edited since, another machine) it answers
None and the callers use numba's just-in-time kernels, which give the same
answers. Tests compare the two on every shared data set.

A built module is loaded only when its bytes are those :func:`build` wrote:
a SHA-256 digest of the file is written beside it (:func:`digest_path`)
after a build, and compared before the module is loaded. A damaged file (a
disk full while it was copied, a truncated backup, a foreign file under the
name) would otherwise crash the process that loads it (a bus error, exit
135) or fail inside numpy's C interface; it is left unloaded instead, with
one line on the ``csp_sudoku`` logger (printed on stderr when nothing else
handles it), and ``csp-sudoku compile`` builds it again. Hashing the file
costs about a millisecond at load.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import counted_in_slices
from csp_sudoku._kernels import frozen as frozen
from csp_sudoku.core.errors import ArgumentError, KernelBuildError

#: The kernels built ahead of time: exported name -> (kernel module, function). Their
#: argument types are those the callers pass (:func:`_signatures`).
EXPORTS: dict[str, tuple[str, str]] = {
    "count_rows": ("sudoku9", "count_rows"),
    "plain_cells": ("rows", "plain_cells"),
    "text_rows": ("rows", "text_rows"),
}

#: The environment variable that names the folder of the built module
#: (default: ``$XDG_CACHE_HOME/csp_sudoku``, else ``~/.cache/csp_sudoku``).
DIR_ENV = "CSP_SUDOKU_KERNEL_DIR"
#: Set to ``0`` to leave the built module unused (numba's kernels then count).
USE_ENV = "CSP_SUDOKU_AHEAD"

#: An integer argument of a kernel (numba types both as ``int64``).
_Int = int | np.int64

_HERE = Path(__file__).resolve().parent
_LOADED: list[Kernels9 | None] = []  # filled by module()
_LOADING = threading.Lock()


def directory() -> Path:
    """Where the built module is kept (see :data:`DIR_ENV`)."""
    named = os.environ.get(DIR_ENV)
    if named:
        return Path(named)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "csp_sudoku"


def _cpu() -> bytes:
    """What names this machine's processor: code built for one may not run on another."""
    try:
        with open("/proc/cpuinfo", "rb") as fh:
            lines = fh.read().splitlines()
    except OSError:  # not Linux
        return f"{platform.machine()} {platform.processor()}".encode()
    first: dict[bytes, bytes] = {}
    for line in lines:
        name, _, value = line.partition(b":")
        first.setdefault(name.strip(), value.strip())
        if b"flags" in first and b"model name" in first:
            break
    return b"%s %s %s" % (platform.machine().encode(), first.get(b"model name", b""),
                          first.get(b"flags", b""))  # fmt: skip


def key() -> str:
    """A digest of all that the built code depends on.

    The sources of every kernel module (the exported kernels and what they call,
    this file's signatures included), the Python version, numpy's version (the
    module is built against its C interface) and the processor (the code is
    built for the host's instruction set, like numba's own).
    """
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(f"{sys.version}\0{np.__version__}\0".encode())
    digest.update(_cpu())
    return digest.hexdigest()[:20]


def module_name() -> str:
    """The name of the module built from the current sources, on this machine."""
    return f"_csp_sudoku_9x9_{key()}"


def _file_name() -> str:
    """The file name of the module for the current sources, on this machine."""
    return f"{module_name()}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def built_path() -> Path:
    """Where the module for the current sources, on this machine, is (or would be) built."""
    return directory() / _file_name()


#: The suffix of the file beside a built module that holds its SHA-256 digest.
DIGEST_SUFFIX = ".sha256"


def digest_path(path: Path) -> Path:
    """The file beside the module at ``path`` that holds its digest (written by :func:`build`)."""
    return path.with_name(path.name + DIGEST_SUFFIX)


def _sha256(path: Path) -> str:
    """The SHA-256 digest of the file at ``path``, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _settle(path: Path) -> None:
    """Flush the file at ``path`` to disk, so a crash after it is renamed leaves it whole."""
    with open(path, "rb+") as fh:
        os.fsync(fh.fileno())


def damage(path: Path) -> str | None:
    """Why the module at ``path`` must not be loaded, or None when its bytes are those built.

    Loading an extension module runs its code: a truncated or foreign file
    may crash the process (a bus error) instead of raising. So the file's
    digest is compared with the one :func:`build` wrote beside it; a file
    with no digest beside it (built by an older version, copied alone) is
    not trusted either.
    """
    try:
        want = digest_path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return "it has no checksum beside it"
    try:
        got = _sha256(path)
    except OSError as err:
        return f"it cannot be read ({err.strerror or err})"
    if got != want:
        return "it does not match its checksum (damaged or replaced)"
    return None


class Kernels9:
    """The built module's kernels, each behind a check of its arguments' types.

    A kernel built ahead of time trusts its arguments (an array of another
    dtype or dimension is read as if it were right, and may crash the
    process), where numba's dispatcher compiles for whatever it is given.
    Each method here raises :class:`~csp_sudoku.core.errors.ArgumentError`
    instead; its answers are those of the numba kernel of the same name.
    """

    def __init__(self, built: ModuleType) -> None:
        self._built = built

    def count_batch(self, batch: NDArray[np.int8], limit: _Int, budget: _Int) -> NDArray[np.int64]:
        """:func:`csp_sudoku._kernels.sudoku9.count_batch`, by the built ``count_rows`` in
        slices (:func:`~csp_sudoku._kernels.counted_in_slices`: a long count stops when asked)."""
        _need(batch, np.int8, 2)
        if batch.shape[1] != 81:
            raise ArgumentError(f"count_batch needs (n, 81) cells, got {batch.shape}")
        return counted_in_slices(self._built.count_rows, batch, int(limit), int(budget))

    def plain_cells(
        self,
        rows: NDArray[np.uint8],
        ncells: _Int,
        crlf: _Int,
        size: _Int,
        values: NDArray[np.uint8],
    ) -> tuple[int, NDArray[np.int8]]:
        """:func:`csp_sudoku._kernels.rows.plain_cells`."""
        _need(rows, np.uint8, 2)
        _need(values, np.uint8, 1)
        if values.size != 256 or rows.shape[1] < ncells + 1 + crlf:
            raise ArgumentError(
                "plain_cells needs a 256-byte table and rows wider than their cells"
            )
        found: tuple[int, NDArray[np.int8]] = self._built.plain_cells(
            rows, ncells, crlf, size, values
        )
        return found

    def text_rows(self, *args: Any) -> NDArray[np.uint8]:
        """:func:`csp_sudoku._kernels.rows.text_rows` (the same arguments)."""
        prefix, _, cells, counts, words, word_ends, _, notes, note_ends = args
        for a, dtype, ndim in (
            (prefix, np.uint8, 1),
            (cells, np.int8, 2),
            (counts, np.int64, 1),
            (words, np.uint8, 1),
            (word_ends, np.int64, 1),
            (notes, np.uint8, 1),
            (note_ends, np.int64, 1),
        ):
            _need(a, dtype, ndim)
        if not (len(counts) == len(note_ends) == cells.shape[0] and word_ends.size == 3):
            raise ArgumentError("text_rows needs a count and a note end per row, and 3 word ends")
        text: NDArray[np.uint8] = self._built.text_rows(*args)
        return text


def _need(a: Any, dtype: type[np.generic], ndim: int) -> None:
    """Raise :class:`~csp_sudoku.core.errors.ArgumentError` unless ``a`` is a C-contiguous array of ``dtype`` with ``ndim``."""
    if not (
        isinstance(a, np.ndarray) and a.dtype == dtype and a.ndim == ndim and a.flags.c_contiguous
    ):
        raise ArgumentError(
            f"a kernel built ahead of time needs a C-contiguous {ndim}-d "
            f"{np.dtype(dtype).name} array, got {getattr(a, 'dtype', type(a))}"
        )


def module() -> Kernels9 | None:
    """The built kernels, loaded (once per process); None when none was built for these sources.

    None too when :data:`USE_ENV` is ``0``, or the file is damaged or does
    not load (it is then left alone, with one line on the ``csp_sudoku``
    logger for a damaged one: :func:`build` replaces it).
    """
    if _LOADED:
        return _LOADED[0]
    with _LOADING:  # threads of a --jobs run: one loads it
        if not _LOADED:
            _LOADED.append(_load())
    return _LOADED[0]


def _load() -> Kernels9 | None:
    """:func:`module`'s work: the built module for these sources, loaded, or None."""
    if os.environ.get(USE_ENV, "1") == "0":
        return None
    try:
        path = built_path()
        if not path.is_file():
            return None
        reason = damage(path)
        if reason is not None:
            _note_damaged(path, reason)
            return None
        return _exec(path)
    except (ImportError, OSError, RuntimeError):  # unreadable, no home folder: numba's kernels
        return None


def _note_damaged(path: Path, reason: str) -> None:
    """Say, in one line on the ``csp_sudoku`` logger, that the module at ``path`` is not used.

    With no logging set up (the command line), Python prints a warning of a
    logger on stderr as it is; an application that sets up logging gets it
    there. ``logging`` is imported here only: most runs never need it.
    """
    import logging

    logging.getLogger("csp_sudoku").warning(
        "csp-sudoku: note: the kernels built ahead of time at %s are not used: %s; "
        "numba's kernels count instead (`csp-sudoku compile` builds them again)",
        path,
        reason,
    )


def load(path: Path) -> Kernels9:
    """The module built at ``path`` (by :func:`build`), loaded, once its digest is checked.

    Raises:
        ImportError: it is damaged (see :func:`damage`) or does not load.
    """
    reason = damage(path)
    if reason is not None:
        raise ImportError(f"{path}: {reason}")
    return _exec(path)


def _exec(path: Path) -> Kernels9:
    """The module at ``path`` loaded (its digest checked by the caller)."""
    name = path.name.split(".", 1)[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is no extension module")
    built = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(built)
    return Kernels9(built)


def loaded() -> Kernels9 | None:
    """The built kernels if this process has loaded them already (loads nothing)."""
    return _LOADED[0] if _LOADED else None


class RowKernels(Protocol):
    """The row reader and writer of ``check``: :mod:`csp_sudoku._kernels.rows` or :class:`Kernels9`.

    ``plain_cells`` and ``text_rows`` take the arguments of the numba kernels
    of those names.
    """

    @property
    def plain_cells(self) -> Callable[..., tuple[int, NDArray[np.int8]]]: ...

    @property
    def text_rows(self) -> Callable[..., NDArray[np.uint8]]: ...


def row_kernels() -> RowKernels | None:
    """The compiled row readers and writers this process has loaded, or None.

    The built module's when it is loaded; else numba's, when numba is loaded
    (the process counts with numba's kernels); else None: for the few
    puzzles a process counts without either, numpy and Python cost less than
    starting numba.
    """
    built = loaded()
    if built is not None:
        return built
    if "numba" in sys.modules:
        from csp_sudoku._kernels import rows

        return rows
    return None


def _signatures() -> dict[str, Any]:
    """The signature of each of :data:`EXPORTS`: the types its callers pass.

    The readers and writers of rows are given read-only arrays
    (:func:`csp_sudoku._kernels.rows.frozen`); the batch count a writable one.
    """
    t: Any = importlib.import_module("numba.types")

    i8, u1 = t.int64, t.uint8

    def arr(dtype: Any, ndim: int, readonly: bool = True) -> Any:
        return t.Array(dtype, ndim, "C", readonly=readonly)

    # prefix, first line, cells, counts, words, word ends, show count, notes, note ends
    text_args = [arr(u1, 1), i8, arr(t.int8, 2), arr(i8, 1), arr(u1, 1), arr(i8, 1), i8]
    text_args += [arr(u1, 1), arr(i8, 1)]
    return {
        "count_rows": i8(arr(t.int8, 2, False), i8, i8, arr(i8, 1, False), arr(i8, 1, False), i8),
        "plain_cells": t.Tuple((i8, arr(t.int8, 2, False)))(arr(u1, 2), i8, i8, i8, arr(u1, 1)),
        "text_rows": arr(u1, 1, False)(*text_args),
    }


def _pycc() -> Any:
    """``numba.pycc``, imported without its one warning (it is "pending deprecation").

    Only that warning is silenced: any other one (from numba, setuptools,
    the C compiler's driver) is shown as usual.
    """
    from numba.core.errors import NumbaPendingDeprecationWarning

    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", ".*pycc.*pending deprecation", NumbaPendingDeprecationWarning
        )
        return importlib.import_module("numba.pycc")


def _pycc_flags() -> Any:
    """``numba.pycc.compiler.Flags``, checked: the class whose ``release_gil`` the build sets.

    Raises:
        KernelBuildError: the name is gone, or its class has no ``release_gil`` option.
    """
    compiler: Any = getattr(_pycc(), "compiler", None)
    flags = getattr(compiler, "Flags", None)
    if flags is None or "release_gil" not in getattr(flags, "options", {}):
        raise KernelBuildError(
            "numba.pycc.compiler.Flags (with a release_gil option) is gone from this numba"
        )
    return flags


@contextmanager
def _releasing_the_gil() -> Iterator[None]:
    """Make numba's ahead-of-time compiler build wrappers that release the GIL.

    As ``@njit(nogil=True)`` does for the kernels here: a thread of the
    process (the one that feeds ``--jobs`` workers their chunks) runs while
    another counts. ``numba.pycc`` has no option for it; its compiler takes
    the flags of every export from ``numba.pycc.compiler.Flags``, so that name
    is given a subclass that sets ``release_gil`` for the time of the build.

    That is numba's internal, so it is guarded both ways: before the build,
    the name and its ``release_gil`` option must be there (:func:`_pycc_flags`);
    after it, the compiler must have made its flags from the subclass. Else
    :class:`KernelBuildError` is raised and nothing is installed (``check``
    then counts with numba's kernels, which release the GIL), rather than a
    module whose kernels would silently hold it. The tests check both.
    """
    plain = _pycc_flags()
    compiler: Any = importlib.import_module("numba.pycc.compiler")
    made: list[int] = []

    class Releasing(plain):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True
            made.append(1)

    compiler.Flags = Releasing
    try:
        yield
    finally:
        compiler.Flags = plain
    if not made:
        raise KernelBuildError(
            "numba's ahead-of-time compiler no longer reads numba.pycc.compiler.Flags: "
            "its kernels would hold the GIL"
        )


def build(folder: Path | None = None) -> Path:
    """Compile :data:`EXPORTS` into the module :func:`module` loads; returns its path.

    It goes to :func:`directory` unless ``folder`` is given (then it is loaded
    with :func:`load`).
    Takes about 5-10 s and a C compiler (numba's ahead-of-time compiler links
    a small C part with the system's compiler). The file and its digest
    (:func:`digest_path`) are each written beside their final name and moved
    there, so a process that loads it meanwhile sees a whole file, old or new;
    between the two moves it sees the new module with the old digest, and
    leaves it unused for that run.

    Raises:
        OSError: the folder cannot be written.
        Exception: whatever numba's compiler raises (no C compiler, say).
    """
    pycc = _pycc()

    from csp_sudoku._kernels import rows, sudoku9

    kernels = {"rows": rows, "sudoku9": sudoku9}
    final = (folder or directory()) / _file_name()
    name = final.name.split(".", 1)[0]
    final.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=final.parent) as tmp:
        cc = pycc.CC(name)
        cc.output_dir = tmp
        cc.target_cpu = "host"
        cc.verbose = False
        signatures = _signatures()
        for export, (kernel_module, function) in EXPORTS.items():
            py_func = getattr(kernels[kernel_module], function).py_func
            cc.export(export, signatures[export])(py_func)
        with _releasing_the_gil():
            cc.compile()
        built = next(Path(tmp).glob(f"{name}*"))
        digest = Path(tmp) / ("digest" + DIGEST_SUFFIX)
        digest.write_text(_sha256(built) + "\n", encoding="ascii")
        _settle(built)
        _settle(digest)
        os.replace(built, final)
        os.replace(digest, digest_path(final))
    return final
