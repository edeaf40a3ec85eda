"""Helpers shared by the subcommands: geometry options, inputs, output formats."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import csv
import io
import json
import math
import os
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

from csp_sudoku.core.errors import ArgumentError, GeometryError, ParseError, SeedError
from csp_sudoku.core.geometry import STANDARD_BOXES, Geometry
from csp_sudoku.core.io import (
    Entry,
    TextChunk,
    access_error,
    compression,
    read_chunks,
    read_puzzles,
    written_as_is,
)
from csp_sudoku.core.io import counted as counted  # the summaries of every command

#: Seeds are non-negative integers below this (numpy's SeedSequence takes any such int).
MAX_SEED = 2**128
#: The largest count or limit an option takes: far beyond any run, and safe to pass to
#: compiled code that works with 64-bit integers (a limit is scaled there).
MAX_COUNT = 10**12


def int_in(low: int, high: int, what: str = "an integer") -> Callable[[str], int]:
    """An argparse ``type`` for integers in ``low..high``, with a message naming the range.

    Text of more digits than any value in range is refused before ``int`` reads it
    (``int`` refuses over 4300 digits with a ValueError that names no option).
    """

    def parse(text: str) -> int:
        t = text.strip()
        digits = t.lstrip("+-")
        if not digits.isdigit() or len(digits) > len(str(high)) + 1:
            raise argparse.ArgumentTypeError(f"must be {what} from {low} to {high}, got {text!r}")
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {what} from {low} to {high}, got {value}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def grid_size(text: str) -> int:
    """``--size``: the digits per row of a grid with standard boxes (any other was
    refused later as "no standard box shape; give box_rows and box_cols",
    options the command line does not have)."""
    sizes = ", ".join(map(str, STANDARD_BOXES))
    t = text.strip()
    if not t.isdigit() or len(t) > 3 or int(t) not in STANDARD_BOXES:
        raise argparse.ArgumentTypeError(
            f"must be a grid size with standard boxes ({sizes}; a jigsaw takes --jigsaw FILE), "
            f"got {text!r}"
        )
    return int(t)


#: ``--jobs``: worker processes, 0 for every core.
JOBS = int_in(0, 1024, "a number of worker processes")


def seed_arg(text: str) -> int:
    """An argparse ``type`` for ``--seed``: a non-negative integer."""
    t = text.strip()
    if t.startswith("-") and t[1:].isdigit() and len(t) <= len(str(MAX_SEED)) + 1:
        from csp_sudoku.core.seeds import check_seed  # here: it loads numpy.random (10 ms a start)

        try:
            check_seed(int(t))  # the one wording of a bad seed (csp_sudoku.core.seeds)
        except SeedError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
    if not t.isdigit() or len(t) > len(str(MAX_SEED)):
        raise argparse.ArgumentTypeError(f"seed must be a non-negative integer, got {text!r}")
    value = int(t)
    if value >= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is below 2**128, got {value}")
    return value


def finite_float(text: str) -> float:
    """An argparse ``type`` for a finite number (no ``nan`` or ``inf``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


def geometry_name(text: str) -> str:
    """``--geometry NAME`` of a query: a geometry's name as records and banks store it
    (``9x9``, ``x-9x9``, ``windoku``, ``jigsaw-9x9``), checked, so that a misspelt name
    is a usage error that lists the valid ones rather than a query that matches nothing."""
    if re.fullmatch(r"jigsaw-([1-9]\d*)x\1", text):  # any size: regions replace the boxes
        return text
    try:
        Geometry.named(text)
    except GeometryError:
        sizes = ", ".join(f"{n}x{n}" for n in STANDARD_BOXES)
        raise argparse.ArgumentTypeError(
            f"unknown geometry {text!r}: give one of {sizes}, one of those after x- "
            "(x-9x9), windoku, or jigsaw-NxN"
        ) from None
    return text


def seconds_arg(text: str) -> float:
    """An argparse ``type`` for a time budget: a finite number of seconds above 0."""
    value = finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text!r}")
    return value


def command_parser(sub: Any, name: str, help_text: str, doc: str | None) -> argparse.ArgumentParser:
    """The parser of command ``name``, its description the command module's docstring ``doc``.

    The docstring is shown as written (paragraphs kept), with reST's double
    backquotes made single.
    """
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=help_text,
        description=(doc or "").replace("``", "`"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_geometry_args(parser: argparse.ArgumentParser) -> None:
    """``--size``, ``--variant`` and ``--jigsaw``: the grid shape of the inputs."""
    g = parser.add_argument_group("grid shape (inferred from the line length when omitted)")
    g.add_argument(
        "--size",
        type=grid_size,
        metavar="N",
        help=f"digits per row: {', '.join(map(str, STANDARD_BOXES))}",
    )
    g.add_argument(
        "--variant",
        choices=("standard", "x", "windoku"),
        default="standard",
        help="extra units: x = both diagonals, windoku = four extra windows",
    )
    g.add_argument(
        "--jigsaw",
        metavar="FILE",
        help="a jigsaw: FILE holds the region of every cell (N rows of N labels 0-9/A-Z)",
    )


def geometry_from_args(args: argparse.Namespace) -> Geometry | None:
    """The geometry the options ask for, or None to infer it per puzzle.

    Options that contradict each other are refused, not one of them dropped
    (``--variant windoku --size 16`` once read 9x9 Windoku and then refused
    every 16x16 line as "a windoku puzzle line has 81").

    Raises:
        GeometryError: ``--variant`` with ``--jigsaw``, ``--variant windoku``
            with a ``--size`` other than 9, or a ``--size`` other than the jigsaw's.
    """
    variant = getattr(args, "variant", "standard")
    size = getattr(args, "size", None)
    if getattr(args, "jigsaw", None):
        if variant != "standard":
            raise GeometryError(f"--variant {variant} and --jigsaw: a jigsaw takes no variant")
        jigsaw = read_jigsaw(args.jigsaw)
        if size and size != jigsaw.size:
            raise GeometryError(
                f"--size {size} and --jigsaw {args.jigsaw}: the jigsaw is {jigsaw.name}"
            )
        return jigsaw
    if variant == "x":
        return Geometry.x_sudoku(size or 9)
    if variant == "windoku":
        if size and size != 9:
            raise GeometryError(f"--variant windoku is 9x9 only, not --size {size}")
        return Geometry.windoku()
    return Geometry.standard(size) if size else None


def read_jigsaw(path: str) -> Geometry:
    """A jigsaw geometry from a file of N rows of N region labels (``0-9``, ``A-Z``).

    Spaces and ``|``/``+``/``-`` separators are ignored; ``#`` lines are comments.

    Raises:
        ParseError: naming the line and column of a bad label.
        GeometryError: when the labels do not cut the grid into N regions of N cells.
    """
    labels: list[int] = []
    try:
        fh = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
    except OSError as err:  # a folder, a missing file: said by name, as the inputs are
        raise access_error(path, err, "reading") from err
    with fh:
        for lineno, line in enumerate(fh, start=1):
            if line.lstrip().startswith("#"):
                continue
            for col, ch in enumerate(line.rstrip("\r\n"), start=1):
                if ch.isspace() or ch in "|+-":
                    continue
                if not (ch.isascii() and ch.isalnum()):
                    raise ParseError(
                        f"a region label must be 0-9 or A-Z, got {ch!r}",
                        source=path,
                        line=lineno,
                        column=col,
                    )
                labels.append(int(ch, 36))
    if not labels:
        raise ParseError("no region labels in the jigsaw file", source=path)
    try:
        return Geometry.jigsaw(labels)
    except GeometryError as err:  # the file is what is wrong: name it
        raise GeometryError(f"{path}: {err}") from None


#: The batch flags: every command that reads or makes puzzles in a stream has all
#: of them, with the same meaning (a test walks the parsers and checks this table).
BATCH_FLAGS: tuple[str, ...] = (
    "--quiet",
    "--output",
    "--format",
    "--jobs",
    "--seed",
    "--skip-invalid",
    "--resume",
    "--scheduler",
)
#: The commands that take every one of :data:`BATCH_FLAGS`.
BATCH_COMMANDS: tuple[str, ...] = ("check", "solve", "count", "rate", "generate", "minimize")


def add_row_args(
    group: argparse._ActionsContainer,
    *,
    format_help: str = "rows as text, JSON Lines or CSV (default text)",
) -> None:
    """``--quiet``, ``--output`` and ``--format``: how a command that writes rows writes them.

    The first three of :data:`BATCH_FLAGS`, for :func:`add_batch_args` and for a
    command that takes only some of the batch flags (``candidates``).
    """
    group.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no summary")
    group.add_argument(
        "--output",
        "-o",
        type=output_file,
        help="write the rows to this file (default, or '-': stdout)",
    )
    group.add_argument(
        "--format", choices=("text", "jsonl", "csv"), default="text", help=format_help
    )


def output_file(text: str) -> str | None:
    """The argparse ``type`` of every command's ``--output``: the file, or None for
    standard output, which ``-`` names (``candidates -o -`` once wrote a file named
    ``-``). An empty name is refused by :func:`preflight`, with the other outputs'."""
    return None if text == "-" else text


def add_batch_args(
    parser: argparse.ArgumentParser,
    *,
    resume_help: str,
    seed_help: str,
    skip_invalid_help: str = "bad lines are still reported, but do not make the exit code 2",
) -> None:
    """The batch flags (:data:`BATCH_FLAGS`) of a command that streams puzzles to rows.

    ``-q`` hides the progress bar and summary; ``-o`` writes the rows to a file;
    ``--format`` text, jsonl or csv; ``--jobs`` worker processes (0 = every
    core); ``--seed`` a non-negative seed of the whole run; ``--skip-invalid``
    keeps bad lines out of the exit code (they are reported either way, and
    the good lines around them processed); ``--resume`` continues an
    interrupted ``-o`` run; ``--scheduler`` runs on a Dask cluster.
    """
    g = parser.add_argument_group("batch options (the same on every batch command)")
    add_row_args(
        g,
        format_help="rows as text, JSON Lines or CSV; the fields of JSON/CSV input records "
        "pass through (default text)",
    )
    g.add_argument(
        "--jobs",
        "-j",
        type=JOBS,
        default=1,
        help="worker processes (0 = all cores, never more than them; check of bare 9x9 "
        "lines: threads; generate: searches, as many as asked)",
    )
    g.add_argument("--seed", type=seed_arg, default=None, help=seed_help)
    g.add_argument("--skip-invalid", action="store_true", help=skip_invalid_help)
    g.add_argument("--resume", action="store_true", help=resume_help)
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster (tcp://host:8786, or local:N for N local workers); "
        "needs pip install 'csp_sudoku[dask]'",
    )


def add_rating_args(
    parser: argparse.ArgumentParser,
    *,
    seed_help: str,
    runs_help: str,
    jobs_help: str | None = None,
) -> None:
    """``--seed``, ``--runs`` and ``--jobs`` of a command that rates puzzles it does not
    stream (``report``, ``bank rate``): the same types everywhere, each its own help."""
    parser.add_argument("--seed", type=seed_arg, help=seed_help)
    parser.add_argument("--runs", type=int_in(1, 10**6), help=runs_help)
    parser.add_argument("--jobs", "-j", type=JOBS, default=1, help=jobs_help)


#: The suffix of the file a run writes its rows to before it is renamed into place.
PARTIAL = ".partial"
#: Outputs that ``--resume`` goes on with (:func:`preflight`): their rows are the
#: interrupted run's, so this run appends to them, even when it keeps none.
_RESUMED: set[str] = set()


@contextlib.contextmanager
def batch_session(
    output: str | None, *, appending: bool, scheduler: str | None
) -> Iterator[tuple[IO[str] | None, Any]]:
    """Open the output file (appended to when resuming) and the Dask client, if any.

    Yields ``(out, client)``; on the way out the file is closed, and the client
    with it the local cluster it started (``local:N``).

    A new output is written to ``OUTPUT.partial`` and renamed into place when the
    run ends, so a run that is interrupted never leaves a half-written file where a
    good one stood: when ``OUTPUT`` existed, it is left as it was and the rows of
    the interrupted run stay in ``OUTPUT.partial`` (which ``--resume`` takes up, see
    :func:`preflight`); when it did not, the rows are renamed into place at once.
    A resumed run appends to ``OUTPUT`` itself, even when it kept none of its
    rows (the interrupted run's own, truncated by the resume), so an interrupted
    resume leaves the rows it made there.
    """
    from csp_sudoku.tools.batch import dask_client

    out: IO[str] | None = None
    client: Any = None
    partial = f"{output}{PARTIAL}"
    existed = bool(output) and os.path.exists(output or "")
    appending = appending or (bool(output) and os.path.abspath(output or "") in _RESUMED)
    # a device, a pipe or /dev/stdout is written as it is: there is nothing to rename
    direct = appending or (bool(output) and written_as_is(output or ""))
    done = False
    try:
        if output:
            if direct:
                mode = "a" if appending else "w"
                out = open(output, mode, encoding="utf-8", newline="")  # noqa: SIM115
            else:
                out = open(partial, "w", encoding="utf-8", newline="")  # noqa: SIM115
        if scheduler:
            client = dask_client(scheduler)
        yield out, client
        done = True
    finally:
        if out is not None:
            out.close()
            if output and not direct:
                if done or not existed:
                    os.replace(partial, output)
                else:
                    print(
                        f"csp-sudoku: {output} is left as it was; the rows of this run so "
                        f"far are in {partial} (the same command with --resume goes on "
                        "from them)",
                        file=sys.stderr,
                    )
        if client is not None:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None and scheduler is not None and scheduler.startswith("local"):
                cluster.close()


#: Options (argparse ``dest``) whose value is a file a command writes.
OUTPUT_OPTIONS = ("output", "html")
#: Options whose value is a folder a command writes files into (``explain --svg``,
#: ``check --certify``): standard output cannot stand for one.
FOLDER_OPTIONS = ("svg", "certify")
#: Options whose value names a file (or files) a command reads.
INPUT_OPTIONS = ("inputs", "bank", "jigsaw", "avoid", "vicinity_of", "constraints", "input", "puzzle")
#: Input options that name a file even before it exists (a bank is made on first use).
_ALWAYS_PATHS = ("bank",)


def _named_files(name: str, value: Any) -> list[str]:
    items = value if isinstance(value, (list, tuple)) else [value]
    keep = name in _ALWAYS_PATHS
    return [v for v in items if isinstance(v, str) and v != "-" and (keep or os.path.isfile(v))]


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (links followed; by path when one does not exist)."""
    if os.path.exists(a) and os.path.exists(b):
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


#: The locks this process holds on the outputs it writes (:func:`_claim`): file
#: object and lock path, released by :func:`release_outputs`.
_CLAIMS: list[tuple[IO[bytes], str]] = []


def _claim(flag: str, target: str) -> None:
    """Hold an exclusive lock on ``target`` while this run writes it.

    Two runs writing one output (a script that starts the same command twice, a
    ``--resume`` while the first still runs) would truncate and interleave each
    other's rows in ``OUTPUT.partial``; the second is refused instead. The lock is
    an advisory ``flock`` on a hidden sibling, ``.NAME.lock``, removed at the end;
    the operating system frees it when a process dies, so a killed run never
    blocks the next. Devices and pipes (``/dev/stdout``) are not locked; where
    ``fcntl`` is missing (Windows) nothing is.

    Raises:
        ArgumentError: another process holds the lock.
    """
    if written_as_is(target):
        return
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return
    head, name = os.path.split(os.path.abspath(target))
    lock = os.path.join(head, f".{name}.lock")
    if any(path == lock for _, path in _CLAIMS):
        return
    for _ in range(100):  # the path may be removed by its holder between open and lock
        fh = open(lock, "ab")  # noqa: SIM115 - held until release_outputs
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise ArgumentError(
                f"{flag} {target}: another csp-sudoku run is writing it (it holds {lock}); "
                "wait for it to end, or choose another output"
            ) from None
        try:
            same = os.stat(lock).st_ino == os.fstat(fh.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            _CLAIMS.append((fh, lock))
            return
        fh.close()  # locked a file its holder had just removed: take the new one


def release_outputs() -> None:
    """Free the output locks of :func:`_claim` and remove their files, and forget the
    outputs resumed (end of a command)."""
    _RESUMED.clear()
    while _CLAIMS:
        fh, lock = _CLAIMS.pop()
        with contextlib.suppress(OSError):
            os.remove(lock)  # removed while held: a run that opened it retries (see _claim)
        fh.close()


def preflight(args: argparse.Namespace) -> None:
    """Checks made before a command opens anything for writing.

    * An output that names one of the command's inputs (the same file after
      following links, a bank included) is refused: writing it would destroy the
      input before it is read.
    * ``--resume`` takes up the rows of an interrupted run left in
      ``OUTPUT.partial`` (see :func:`batch_session`): they are newer than
      ``OUTPUT``, so they replace it, and the run goes on from them.

    * An output in a folder that does not exist, or that is itself a folder, is
      refused before any work (the error would otherwise come at the end).
    * An argument holding a NUL character is refused (no file name can hold
      one, and the operating system's calls reject it with a bare ValueError).
    * An empty output path is refused (it names no file: a run once wrote
      nothing, or to standard output, or said "unknown format ''"), and so is
      ``-`` for a folder (standard output holds no folder of files).
    * An output another run is writing is refused (:func:`_claim`); this run
      holds it until :func:`release_outputs`.

    Raises:
        ArgumentError: an output names an input, is a folder or lies in no
            folder, or another run writes it; an output is empty, or a folder
            ``-``; or an argument holds a NUL.
    """
    for name, value in vars(args).items():
        values = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, str) and "\0" in v for v in values):
            raise ArgumentError(
                f"the {name.replace('_', ' ')} argument holds a NUL character (\\0), "
                "which no file name, puzzle or option value can hold"
            )
    for name in (*OUTPUT_OPTIONS, *FOLDER_OPTIONS):
        target = getattr(args, name, None)
        flag = f"--{name.replace('_', '-')}"
        if target == "":
            what = "a folder" if name in FOLDER_OPTIONS else "a file, or '-' for standard output"
            raise ArgumentError(f"{flag}: empty path; name {what}")
        if target == "-" and name in FOLDER_OPTIONS:
            raise ArgumentError(
                f"{flag} -: standard output cannot hold a folder of files; name a folder"
            )
    read = getattr(args, "inputs", None)
    from_terminal = sys.stdin is not None and sys.stdin.isatty()
    quiet = getattr(args, "quiet", False)
    if read is not None and (not read or "-" in read) and from_terminal and not quiet:
        # else a run without a file looks like a hang: say where it reads
        print(
            "csp-sudoku: reading puzzles from the terminal, one per line "
            "(Ctrl-D ends; give a file or a puzzle to read that instead)",
            file=sys.stderr,
        )
    inputs = [f for name in INPUT_OPTIONS for f in _named_files(name, getattr(args, name, None))]
    for name in OUTPUT_OPTIONS:
        target = getattr(args, name, None)
        if not isinstance(target, str) or target == "-":
            continue
        flag = f"--{name.replace('_', '-')}"
        for source in inputs:
            if _same_file(target, source):
                raise ArgumentError(
                    f"{flag} {target} names the input {source}: writing it would destroy "
                    "the input before it is read; choose another output file"
                )
        if os.path.isdir(target):
            raise ArgumentError(f"{flag} {target} is a folder: name a file to write")
        folder = os.path.dirname(target) or "."
        if not os.path.isdir(folder):
            why = "is a file, not a folder" if os.path.exists(folder) else "does not exist"
            raise ArgumentError(f"{flag} {target}: {folder} {why}")
        _claim(flag, target)
    output = getattr(args, "output", None)
    if getattr(args, "resume", False) and isinstance(output, str) and output != "-":
        partial = f"{output}{PARTIAL}"
        if os.path.isfile(partial):
            os.replace(partial, output)
        if os.path.isfile(output):
            _RESUMED.add(os.path.abspath(output))


@contextlib.contextmanager
def noting_compiles(command: str, what: str, quiet: bool = False) -> Iterator[None]:
    """Say once on stderr that ``csp-sudoku COMMAND`` is compiling ``what`` when numba
    still compiles a second into the block (a first run on a machine: a minute or
    more with nothing else to see); nothing when the kernels load from the cache,
    or with ``quiet``."""
    from csp_sudoku._kernels import compiling_note, when_compiling

    def say() -> None:
        if not quiet:
            print(compiling_note(f"csp-sudoku {command}", what), file=sys.stderr)

    with when_compiling(1.0, say):
        yield


def add_input_args(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    """Positional inputs: files, ``-`` for standard input, or a puzzle written inline."""
    parser.add_argument(
        "inputs",
        nargs="*" if many else 1,
        metavar="FILE|PUZZLE",
        help="puzzle files, '-' for standard input, or a puzzle line itself (default: stdin)",
    )


def _inputs(inputs: Sequence[str]) -> Iterator[tuple[str, bool]]:
    """Each input with whether it is read as a file (``-`` included) or is a puzzle itself."""
    for item in inputs or ["-"]:
        if item == "-" or os.path.exists(item):
            if os.path.isdir(item):
                raise ParseError(f"{item} is a folder, not a puzzle file")
            yield item, True
        elif _looks_like_path(item):
            raise ParseError(f"{item}: no such file")
        else:
            yield item, False


def iter_entries(inputs: Sequence[str], geometry: Geometry | None) -> Iterator[Entry]:
    """Entries of every input in turn; an argument that is no file is read as a puzzle."""
    for item, is_file in _inputs(inputs):
        if is_file:
            yield from read_puzzles(item, geometry)
        else:
            yield from read_puzzles([item], geometry, source_name="<argument>")


def iter_chunks(inputs: Sequence[str], lines: int) -> Iterator[TextChunk]:
    """The inputs of :func:`iter_entries` as chunks of at most ``lines`` whole lines, in turn."""
    for item, is_file in _inputs(inputs):
        if is_file:
            yield from read_chunks(item, lines)
        else:
            raw = io.BytesIO(item.encode("utf-8", "surrogateescape"))
            yield from read_chunks(raw, lines, source_name="<argument>")


#: Endings that make an argument a file name (a missing one is "no such file", not
#: a bad puzzle): puzzle files, and the compressed forms :func:`open_input` reads.
_FILE_ENDINGS = (".txt", ".sdk", ".sdm", ".csv", ".tsv", ".jsonl", ".json", ".gz", ".bz2", ".xz")


def _looks_like_path(item: str) -> bool:
    return "/" in item or item.lower().endswith(_FILE_ENDINGS)


#: Input fields never passed through: where the input row came from, not the puzzle.
_LOCATION_FIELDS = frozenset({"file", "line"})


class RowWriter:
    """Writes result rows as text, JSON Lines or CSV, streamed.

    Rows are flushed at least every :attr:`flush_every` seconds, so a reader of
    the output (``tail -f``, a pipe) sees results as they come without paying a
    system call per row on fast runs.

    The fields of an input record (:attr:`csp_sudoku.core.io.Entry.fields`: a
    generator's ``seed``, ``ratings``, ``source``, ...) given to :meth:`write`
    pass through to JSON and CSV rows, after the command's own fields, which
    win on a clash; ``file`` and ``line`` of the input never pass through. A
    CSV header is written with the first row: the command's ``fields``, then
    the passed-through columns of that row (or ``names``, when the columns are
    fixed in advance); nested values are written as JSON in CSV cells.

    Rows formatted elsewhere (by a worker, with a writer of its own into a
    string) are written with :meth:`write_rows`.
    """

    flush_every = 0.2

    def __init__(
        self,
        fmt: str,
        fields: Sequence[str],
        out: IO[str] | None = None,
        *,
        header: bool = True,
        names: Sequence[str] | None = None,
    ) -> None:
        self.fmt = fmt
        self.fields = list(fields)
        self.out = out or sys.stdout
        #: The CSV columns, once the first row (or ``names``) has fixed them.
        self.names: list[str] | None = None if names is None else list(names)
        self._csv: Any = None
        self._header = header  # a resumed run appends to a file that has its header
        self._raw = _utf8_buffer(self.out)
        self._last_flush = time.monotonic()
        _WRITERS.add(self)

    def write(
        self, row: dict[str, Any], text: str, passthrough: Mapping[str, Any] | None = None
    ) -> None:
        """Write one row; ``text`` is the human-readable form, ``passthrough`` the input's fields."""
        extra: dict[str, Any] = {}
        if passthrough and self.fmt != "text":
            extra = {
                k: v for k, v in passthrough.items() if k not in row and k not in _LOCATION_FIELDS
            }
            row = {**row, **extra}
        if self.fmt == "jsonl":
            self.out.write(json.dumps(row) + "\n")
        elif self.fmt == "csv":
            if self._csv is None:
                self._start_csv(
                    self.names or self.fields + [k for k in extra if k not in self.fields]
                )
            self._csv.writerow(
                {k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in row.items()}
            )
        else:
            self.out.write(text + "\n")
        self._flush_now_and_then()

    def write_rows(self, text: str | bytes, names: Sequence[str] | None = None) -> None:
        """Write rows already formatted in this writer's format, with the CSV columns ``names``.

        The CSV header is written before the first rows, as :meth:`write` would.
        Rows given as UTF-8 bytes go straight to the stream's binary buffer when
        writing them as text would give the very same bytes (a UTF-8 stream that
        turns no ``\\n`` into anything else): no decoding, no encoding.
        """
        if self.fmt == "csv" and self._csv is None and names is not None:
            self._start_csv(names)
        if isinstance(text, str):
            self.out.write(text)
        elif self._raw is not None:
            self.out.flush()  # what was written as text goes first
            self._raw.write(text)
        else:
            self.out.write(text.decode())
        self._flush_now_and_then()

    def _start_csv(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self._csv = csv.DictWriter(self.out, fieldnames=self.names, extrasaction="ignore")
        if self._header:
            self._csv.writeheader()

    def _flush_now_and_then(self) -> None:
        now = time.monotonic()
        if now - self._last_flush >= self.flush_every:
            self.flush()

    def flush(self) -> None:
        """Send the rows written so far (an output closed meanwhile is left alone)."""
        with contextlib.suppress(ValueError, OSError):
            self.out.flush()
        self._last_flush = time.monotonic()


#: The row writers of this process, for :func:`flush_rows`.
_WRITERS: weakref.WeakSet[RowWriter] = weakref.WeakSet()


def flush_rows() -> None:
    """Send the rows every writer of this process holds: called when a read of the
    input would wait for its writer (a pipe gone quiet), so that the rows of the
    entries read so far are seen while it is silent, not when it speaks again."""
    for writer in list(_WRITERS):
        writer.flush()


def _utf8_buffer(out: IO[str]) -> IO[bytes] | None:
    """The binary buffer under a text stream that writes text as UTF-8, else None.

    For the streams the command opens (the output file, with ``newline=""``,
    and standard output, which turns ``\\n`` into the system's line end).
    """
    raw: IO[bytes] | None = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    if raw is None or encoding is None or os.linesep != "\n":
        return None
    return raw if codecs.lookup(encoding).name == "utf-8" else None


def progress(total: int | None, enabled: bool, unit: str = "puzzle") -> Any:
    """A tqdm bar on stderr, or a stand-in that does nothing.

    The bar is redrawn every second even while no item finishes, so one long
    item (a 25x25 puzzle being generated, a count with a big limit) shows its
    elapsed time instead of a frozen line.
    """
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    bar = tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True, mininterval=0.5)
    return _Ticking(bar)


class _Ticking:
    """A tqdm bar with a daemon thread that refreshes it every second until closed."""

    def __init__(self, bar: Any) -> None:
        self._bar = bar
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            with self._lock:
                self._bar.refresh()

    def update(self, n: int = 1) -> None:
        with self._lock:
            self._bar.update(n)

    def postfix(self, text: str) -> None:
        """Text shown after the bar (e.g. the counts of each level of a quota run)."""
        with self._lock:
            self._bar.set_postfix_str(text, refresh=False)

    def set_total(self, total: int) -> None:
        """The number of items, once known (the bar then shows the share done and an ETA)."""
        with self._lock:
            self._bar.total = total

    def tick(self, done: int, total: int) -> None:
        """A ``progress(done, total)`` callback of the library: the total, once, then one more."""
        if done == 1:
            self.set_total(total)
        self.update()

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            self._bar.close()


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def postfix(self, text: str) -> None:
        pass

    def set_total(self, total: int) -> None:
        pass

    def tick(self, done: int, total: int) -> None:
        pass

    def close(self) -> None:
        pass


def count_lines(inputs: Sequence[str]) -> int | None:
    """Non-comment line count of the input files (for the progress bar), None for stdin."""
    total = 0
    for item in inputs or ["-"]:
        if item == "-" or not os.path.isfile(item):
            return None
        with open(item, "rb") as fh:
            if compression(fh) is not None:  # not decompressed twice for a progress total
                return None
            total += sum(1 for line in fh if line.strip() and not line.startswith(b"#"))
    return total


def metric_refusal(names: list[str], known: Sequence[str], also: str = "all") -> str | None:
    """Why the metrics ``names`` (from :func:`metric_names`) are refused, or None: names
    not in ``known``, or none at all (``--metric ''``); the message lists the known
    ones and ``also`` (what else the option takes). One wording for every command
    that takes ``--metric``, said before any work."""
    unknown = [n for n in names if n not in known]
    if names and not unknown:
        return None
    what = f"unknown metric {', '.join(map(repr, unknown))}" if unknown else "no metric named"
    return f"{what}; known: {', '.join(known)} (or {also})"


def metric_names(given: list[str], known: list[str]) -> list[str]:
    """The metrics of every ``--metric`` (each may be a comma list), in order, once each;
    ``all`` stands for every known metric, beside other names too (``rounds,all``
    was refused as an unknown metric 'all')."""
    names: list[str] = []
    for item in given:
        for name in (m.strip() for m in item.split(",")):
            if name and name not in names:
                names.append(name)
    if "all" in names:
        rest = [n for n in names if n != "all" and n not in known]  # still said unknown
        return [*known, *rest]
    return names
