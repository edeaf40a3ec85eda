"""Reading and writing puzzles as text.

Formats read:

* **one puzzle per line**: ``N * N`` characters row by row, e.g. the 81
  characters of a 9x9. Empty cells are any of ``.``, ``0``, ``-``, ``*``, ``_``.
  Anything after the first run of white space is ignored (ratings, names), so
  ``"4.....8.5.3...  ED=11.9"`` reads.
* **multi-line grids**: N rows of N cells, with or without ``|`` between boxes,
  spaces between cells, and separator lines made of ``-``, ``+``, ``=``. Rows may
  also be N white-space separated numbers (``10 . 3 16 ...``) for big grids.
* files with ``#`` comment lines, blank lines, Windows line ends and a UTF-8 BOM.
* any of these **compressed** with gzip, bzip2 or xz (``.gz``, ``.bz2``, ``.xz``),
  known by their first bytes, from a file or standard input, or as the one
  file of a zip archive (:func:`open_input`).
* **JSON Lines**: a line starting with ``{`` is a JSON object whose ``puzzle``
  field is a puzzle line; its other fields are kept in :attr:`Entry.fields`.
* **CSV**: a line with commas that names a ``puzzle`` column is a header; the
  lines after it are rows (``csv`` quoting), the ``puzzle`` column is read and
  the other columns are kept in :attr:`Entry.fields`.
* **result rows of the commands**: ``file:line<TAB>...<TAB>PUZZLE`` (what
  ``check``, ``count`` and ``rate`` print as text) reads the puzzle of the last
  tab-separated field.

So every format a ``csp-sudoku`` command writes is read by every command.

**Symbols** (documented convention): digits 1-9 are ``1``-``9``; digits from 10
up are letters ``A``, ``B``, ... (``A`` = 10, ``G`` = 16, ``P`` = 25), upper or
lower case. So a 16x16 uses ``1-9A-G`` and a 25x25 ``1-9A-P``. Writing uses
the same convention with upper-case letters.

A 16-character line is read as a 4x4 puzzle; pass ``geometry=Geometry.standard(16)``
(or ``--size 16``) to read 16x16 grids written one row per line without ``|``.

Errors are :class:`~csp_sudoku.core.errors.ParseError` naming the line, the column
(1-based, in the original line) and the reason.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io as _io
import json
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Union, cast

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import ArgumentError, FileAccessError, GeometryError, ParseError
from csp_sudoku.core.geometry import STANDARD_BOXES, Geometry, check_geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.puzzle import format_grid as format_grid
from csp_sudoku.core.puzzle import format_line as format_line
from csp_sudoku.core.puzzle import symbol as symbol

BLANKS = frozenset(".0-*_")
_SEPARATOR_CHARS = frozenset("-+=|: \t")
#: Control characters that never occur in puzzle text: their presence means a binary file.
_BINARY = re.compile("[\x00-\x08\x0e-\x1f\x7f]")
_VALID_CELL_COUNTS = {n * n: n for n in STANDARD_BOXES}
#: What a puzzle line of no known length is told: "a puzzle line has " + this.
_LINE_LENGTHS = f"81 (or one of {', '.join(str(k) for k in sorted(_VALID_CELL_COUNTS))})"

PathOrLines = Union[str, "os.PathLike[str]", IO[str], IO[bytes], Iterable[str]]


def digit_of(ch: str) -> int | None:
    """The digit a character stands for, 0 for a blank, None if it is no symbol."""
    if ch in BLANKS:
        return 0
    if "1" <= ch <= "9":
        return ord(ch) - ord("0")
    up = ch.upper()
    if "A" <= up <= "Z" and ch.isascii():
        return ord(up) - ord("A") + 10
    return None


# ---------------------------------------------------------------------- reading one
def _cells_from_chars(chars: list[tuple[int, str]], size: int) -> list[int]:
    """Convert (column, character) pairs to digits, checking each symbol."""
    out: list[int] = []
    for col, ch in chars:
        d = digit_of(ch)
        if d is None:
            raise ParseError(f"unknown character {ch!r}", column=col)
        if d > size and ch.isalpha() and size < 10:
            raise ParseError(
                f"unknown character {ch!r} (letters stand for digits 10 and up, "
                f"not used in a {size}x{size} grid)",
                column=col,
            )
        if d > size:
            raise ParseError(
                f"digit {ch!r} ({d}) is out of range for a {size}x{size} grid (1..{size})",
                column=col,
            )
        out.append(d)
    return out


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 ("1 puzzle", "3 puzzles"; ``plural``
    when it is not the noun and an s): the summaries every command and report prints."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def parse_line(line: str, geometry: Geometry | None = None) -> Puzzle:
    """Parse a one-line puzzle (``N*N`` cell characters, then anything).

    Args:
        line: the text; leading white space and anything after the first
            white-space gap are ignored.
        geometry: the shape; inferred from the length (81 -> 9x9) when omitted.

    Raises:
        ParseError: naming the column and the reason.
    """
    text = line.rstrip("\r\n")
    start = len(text) - len(text.lstrip())
    body = text[start:]
    if "\x00" in body:
        raise ParseError(
            "binary data (NUL byte), not puzzle text", column=start + body.index("\x00") + 1
        )
    token = body.split(None, 1)[0] if body.strip() else ""
    quick = fast_cells(token, geometry)
    if quick is not None:
        return Puzzle.trusted(quick[0], quick[1])
    # the length is checked before the cells are listed: a 10 MB line costs no more
    if geometry is None:
        if len(token) not in _VALID_CELL_COUNTS:
            raise ParseError(
                f"line has {counted(len(token), 'cell')}; a puzzle line has {_LINE_LENGTHS}",
                column=start + len(token) + 1 if token else 1,
            )
        geometry = Geometry.for_cells(len(token))
    elif len(token) != geometry.ncells:
        raise ParseError(
            f"line has {len(token)} cells; a {geometry.name} puzzle line has {geometry.ncells}",
            column=start + len(token) + 1 if token else 1,
        )
    chars = [(start + i + 1, ch) for i, ch in enumerate(token)]
    return Puzzle(np.array(_cells_from_chars(chars, geometry.size), dtype=np.int8), geometry)


def _row_cells(line: str, size: int | None) -> list[tuple[int, str]] | list[tuple[int, int]]:
    """Cells of a grid row: characters, or whole numbers when separated by spaces.

    Numbers are tokens of one or two digits (a 16x16 or 25x25 grid's ``10 0 3 16``):
    a longer run of digits (``400000805``, ``400|000|805``) is a row of digit cells.
    """
    tokens: list[tuple[int, str]] = []
    i = 0
    n = len(line)
    while i < n:
        if line[i] in " \t|":
            i += 1
            continue
        j = i
        while j < n and line[j] not in " \t|":
            j += 1
        tokens.append((i + 1, line[i:j]))
        i = j
    numeric = any(len(t) > 1 for _, t in tokens) and all(
        (t.isascii() and t.isdigit() and len(t) <= 2) or (len(t) == 1 and t in BLANKS)
        for _, t in tokens
    )
    if numeric:
        return [(col, 0 if t in BLANKS else _number(t)) for col, t in tokens]
    chars: list[tuple[int, str]] = []
    for col, t in tokens:
        chars.extend((col + k, ch) for k, ch in enumerate(t))
    return chars


#: A number cell longer than this is out of range for any grid; it is not converted
#: (``int`` refuses strings of more than 4300 digits, and would be slow before that).
_MAX_NUMBER_DIGITS = 6
_TOO_BIG = 10**_MAX_NUMBER_DIGITS


def _number(token: str) -> int:
    """The value of a cell written as a number; huge ones all read as :data:`_TOO_BIG`."""
    return int(token) if len(token) <= _MAX_NUMBER_DIGITS else _TOO_BIG


def _is_separator(line: str, size: int | None) -> bool:
    stripped = line.strip()
    if not stripped or not set(stripped) <= _SEPARATOR_CHARS:
        return False
    if "+" in stripped or "=" in stripped or ":" in stripped:
        return True
    dashes = stripped.count("-")
    return size is None or dashes != size


def _grid_from_rows(
    rows: list[tuple[int, str]], geometry: Geometry | None, source: str | None
) -> Puzzle:
    """Build a puzzle from N (line number, row text) pairs."""
    values: list[int] = []
    size = geometry.size if geometry is not None else None
    for lineno, text in rows:
        cells = _row_cells(text, size)
        if size is None:
            size = len(cells)
        try:
            if len(cells) != size:
                raise ParseError(f"grid row has {len(cells)} cells, expected {size}", column=1)
            if cells and isinstance(cells[0][1], int):
                for col, v in cells:
                    assert isinstance(v, int)
                    if v > size:
                        shown = v if v < _TOO_BIG else f"of more than {_MAX_NUMBER_DIGITS} digits"
                        raise ParseError(f"number {shown} is out of range 1..{size}", column=col)
                    values.append(v)
            else:
                values.extend(_cells_from_chars(cells, size))  # type: ignore[arg-type]
        except ParseError as err:
            raise err.located(source=source, line=lineno) from None
    if size is None:
        raise ParseError("empty grid", source=source)
    if geometry is None:
        try:
            geometry = Geometry.standard(size)
        except GeometryError as err:
            raise ParseError(str(err), source=source, line=rows[0][0]) from None
    return Puzzle(np.array(values, dtype=np.int8), geometry)


def parse(text: str, geometry: Geometry | None = None) -> Puzzle:
    """Parse exactly one puzzle from text in any supported form.

    Args:
        text: a one-line puzzle or a multi-line grid (comments and blank lines allowed).
        geometry: the shape; inferred when omitted.

    Raises:
        ParseError: when the text holds no puzzle, more than one, or a bad cell.
        ArgumentError: ``text`` is not a str.
    """
    if not isinstance(text, str):  # StringIO's "initial_value must be str" says nothing of why
        raise ArgumentError(
            f"parse reads puzzle text (a str), got {type(text).__name__}: "
            "use as_puzzle or Puzzle for arrays and sequences of cells"
        )
    entries = list(read_puzzles(_io.StringIO(text), geometry, source_name="<string>"))
    if not entries:
        raise ParseError("no puzzle in the text", source="<string>")
    for entry in entries:
        if entry.error is not None:
            raise entry.error
    if len(entries) > 1:
        raise ParseError(f"expected one puzzle, found {len(entries)}", source="<string>")
    puzzle = entries[0].puzzle
    assert puzzle is not None  # an entry has a puzzle or an error
    return puzzle


# ---------------------------------------------------------------------- reading many
@dataclass(frozen=True)
class Entry:
    """One item read from a puzzle file: a puzzle or the error that stands in its place.

    Attributes:
        line: 1-based line number where the puzzle (or grid) starts.
        text: the raw text of that line (without the line end).
        puzzle: the puzzle, or None when the line is bad.
        error: why the line is bad, or None.
        source: the file name.
        fields: the other fields of a JSON Lines or CSV record (``seed``,
            ``ratings``, ...; empty for plain text), so that a command can pass
            them through to rows it writes in the same format.
    """

    line: int
    text: str
    puzzle: Puzzle | None
    error: ParseError | None
    source: str
    fields: dict[str, Any] = field(default_factory=dict, compare=False)


#: The first bytes of the compressed inputs read, and the module that reads each
#: (bzip2: ``BZh`` and its block size, a digit 1-9).
_COMPRESSED: tuple[tuple[tuple[bytes, ...], str], ...] = (
    ((b"\x1f\x8b",), "gzip"),
    (tuple(b"BZh%d" % k for k in range(1, 10)), "bz2"),
    ((b"\xfd7zXZ\x00",), "lzma"),
)


#: Bytes decompressed per step: a damaged input loses at most this much before the damage.
_PIECE = 1 << 16


class _Decompressed(_io.BufferedIOBase):
    """A compressed input's bytes; damaged data is a :class:`ParseError` naming the file.

    The decompressors raise ``EOFError``, ``OSError``, ``lzma.LZMAError``,
    ``zlib.error`` or ``zipfile.BadZipFile`` for a file cut short or damaged. A read that meets the damage
    returns the bytes decoded before it, and the next read raises: so a batch run
    keeps the rows of the lines before the damage, then says what happened (never
    a silent end of input, never an internal error).
    """

    def __init__(self, inner: IO[bytes], outer: IO[bytes], name: str, kind: str) -> None:
        super().__init__()
        # every decompressor's file object is buffered (read1)
        self._inner = cast(_io.BufferedIOBase, inner)
        self._outer, self._name, self._kind = outer, name, kind
        self._failed: ParseError | None = None

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        import lzma
        import zipfile
        import zlib

        if self._failed is not None:
            raise self._failed
        whole = size is None or size < 0
        parts: list[bytes] = []
        got = 0
        while whole or got < (size or 0):
            try:
                # read1: at most one read of the decompressor's own (a read() of
                # several would drop what the earlier ones decoded when a later one
                # meets the damage)
                piece = self._inner.read1(_PIECE if whole else min(_PIECE, (size or 0) - got))
            except (EOFError, OSError, lzma.LZMAError, zlib.error, zipfile.BadZipFile) as exc:
                self._failed = _damaged(self._kind, self._name, exc)
                if parts:
                    break
                raise self._failed from None
            if not piece:
                break
            parts.append(piece)
            got += len(piece)
        return b"".join(parts)

    def read1(self, size: int = -1) -> bytes:
        return self.read(_PIECE if size < 0 else min(size, _PIECE))

    def close(self) -> None:
        if not self.closed:
            self._inner.close()
            self._outer.close()  # the decompressors leave a file object they were given open
        super().close()


def _damaged(kind: str, name: str, exc: BaseException) -> ParseError:
    """What a damaged or cut compressed input is said as."""
    return ParseError(f"the {kind} data is damaged or cut short ({exc})", source=name)


def compression(fh: IO[bytes]) -> str | None:
    """How ``fh``'s data is compressed, by its first bytes (``"gzip"``, ``"bz2"``,
    ``"lzma"``, ``"zip"``), or None: plain data, or a stream that cannot peek.
    Nothing is read from ``fh``."""
    peek = getattr(fh, "peek", None)
    if peek is None:
        return None
    head = bytes(peek(6)[:6])
    if head.startswith(b"PK\x03\x04"):
        return "zip"
    return next((kind for magics, kind in _COMPRESSED if head.startswith(magics)), None)


def open_input(fh: IO[bytes], name: str) -> IO[bytes]:
    """``fh``'s bytes, decompressed when they are gzip, bzip2 or xz data, or the one
    file of a zip archive.

    Known by their first bytes (a text puzzle file cannot start so), so
    ``check puzzles.txt.gz`` and ``... | check -`` of compressed data read as the
    text would. A stream that cannot peek (a pipe given as a raw stream) is
    read as it is. Closing the result closes ``fh``.
    """
    kind = compression(fh)
    if kind is None:
        return fh
    if kind == "zip":
        inner = _zip_member(fh, name)
    else:
        import importlib

        inner = importlib.import_module(kind).open(fh, "rb")
    return cast(IO[bytes], _Decompressed(inner, fh, name, kind))


def open_file(path: str | os.PathLike[str]) -> IO[bytes]:
    """A puzzle file's bytes through :func:`open_input` (closed again if that fails)."""
    name = os.fspath(path)
    fh = open(name, "rb")  # noqa: SIM115 - closed with the result
    try:
        return open_input(fh, name)
    except BaseException:
        fh.close()
        raise


def access_error(path: str, err: OSError, doing: str) -> FileAccessError:
    """The project's error for a file that cannot be opened for ``doing``, naming ``path``."""
    if isinstance(err, IsADirectoryError):
        why = "is a folder, not a file"
    elif isinstance(err, FileNotFoundError):
        why = "no such file" if doing == "reading" else "its folder does not exist"
    else:
        why = err.strerror or str(err)
    error = FileAccessError(f"{path}: cannot open for {doing}: {why}")
    error.errno = err.errno  # the message alone is its text (no strerror, no filename)
    return error


def _opened(path: str) -> IO[bytes]:
    """:func:`open_file` with an unreadable path as a :class:`FileAccessError`."""
    try:
        return open_file(path)
    except OSError as err:
        raise access_error(path, err, "reading") from err


def _zip_member(fh: IO[bytes], name: str) -> IO[bytes]:
    """The one file of a zip archive, opened for reading.

    Raises:
        ParseError: an archive read from a pipe (zip needs to seek), a damaged
            one, or one that holds no file or several (which one is meant?).
    """
    import zipfile

    if not fh.seekable():
        raise ParseError("a zip archive cannot be read from a pipe: unzip it first", source=name)
    try:
        archive = zipfile.ZipFile(fh)
        members = [m for m in archive.infolist() if not m.is_dir()]
        if len(members) != 1:
            listed = ", ".join(m.filename for m in members[:5]) or "none"
            raise ParseError(
                f"a zip archive is read when it holds one file; this one holds "
                f"{len(members)} ({listed}): unzip the one you mean",
                source=name,
            )
        return archive.open(members[0])
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise _damaged("zip", name, exc) from None


def _open_lines(source: PathOrLines) -> tuple[Iterable[str], str, IO[Any] | None]:
    """The text lines of ``source``, its name, and what to close (compressed data
    decompressed: :func:`open_input`)."""
    if isinstance(source, (_io.BufferedIOBase, _io.RawIOBase)):  # open(..., "rb"), gzip.open
        # read as read_chunks reads a binary stream: as it is, decoded here
        binary = cast(IO[bytes], source)
        lines = (raw.decode("utf-8", "replace") for raw in binary)
        return lines, str(getattr(source, "name", "<input>")), None
    if source is None or isinstance(source, (bytes, bytearray, int, float)):
        # None and bytes raised TypeError or AttributeError while reading
        raise ArgumentError(
            "puzzles are read from a path, an open file or an iterable of lines, got "
            f"{type(source).__name__} {source!r:.40}"
        )
    if not isinstance(source, (str, os.PathLike)):
        return cast(Iterable[str], source), str(getattr(source, "name", "<input>")), None
    name = os.fspath(source)
    if name == "-":
        import sys

        raw = getattr(sys.stdin, "buffer", None)
        data = None if raw is None else open_input(raw, "<stdin>")
        if data is None:  # a text stream put in place of stdin (an embedding program, a test)
            return sys.stdin, "<stdin>", None
        if data is raw:  # plain text: read as sys.stdin would decode it
            fd = _stream_fd(raw)
            if fd is not None:
                return (
                    _PipeLines(raw, fd, sys.stdin.encoding, sys.stdin.errors or "strict"),
                    "<stdin>",
                    None,
                )
            return sys.stdin, "<stdin>", None
        name = "<stdin>"
    else:
        data = _opened(name)
        fd = _stream_fd(data)
        if fd is not None:  # a named pipe, ``<(command)``
            return _PipeLines(data, fd, "utf-8-sig", "replace"), name, data
    text = _io.TextIOWrapper(data, encoding="utf-8-sig", errors="replace", newline=None)
    return text, name, text


class _PipeLines:
    """The text lines of a pipe, a socket or a terminal, each as soon as it is whole,
    knowing whether the next one is here (:meth:`waits`).

    A text stream reads ahead, so whether it holds a next line cannot be asked;
    this reader holds what it read itself. Decoded as a text stream would be
    (universal line ends: ``\r\n`` and ``\r`` end a line as ``\n``).
    """

    def __init__(self, fh: IO[bytes], fd: int, encoding: str, errors: str) -> None:
        import codecs

        self._fd = fd
        self._read = getattr(fh, "read1", fh.read)
        decoder = codecs.getincrementaldecoder(encoding)(errors)
        self._decoder = _io.IncrementalNewlineDecoder(decoder, translate=True)
        self._lines: deque[str] = deque()  # whole lines read and not yet given
        self._tail: list[str] = []  # the pieces of the line being written
        self._eof = False

    def __iter__(self) -> _PipeLines:
        return self

    def __next__(self) -> str:
        while not self._lines:
            if self._eof:
                line, self._tail = "".join(self._tail), []
                if not line:
                    raise StopIteration
                return line
            more = self._read(_PIECE)
            self._eof = not more
            first, *whole = self._decoder.decode(more, self._eof).split("\n")
            self._tail.append(first)
            if whole:  # a line end: the line written so far is whole
                whole[0:0] = ["".join(self._tail)]
                self._tail = [whole.pop()]
                self._lines.extend(line + "\n" for line in whole)
        return self._lines.popleft()

    def waits(self, timeout: float = 0.0) -> bool:
        """Whether the next line would wait for the writer: none is held, none can be read
        (within ``timeout`` seconds)."""
        return not self._lines and not self._eof and _would_wait(self._fd, timeout)


#: The readers of pipes now being read (newest last): see :func:`input_waits`.
_READING: list[Callable[[float], bool]] = []


@contextlib.contextmanager
def _reading(waits: Callable[[float], bool] | None) -> Iterator[None]:
    """While the block runs (a reader's generator is not done), :func:`input_waits` asks ``waits``."""
    if waits is None:
        yield
        return
    _READING.append(waits)
    try:
        yield
    finally:
        _READING.remove(waits)


def input_waits(timeout: float = 0.0) -> bool:
    """Whether the pipe (or socket, or terminal) being read now has no whole line to give:
    reading on would wait for its writer (waiting up to ``timeout`` seconds for one to
    come). False at once while no pipe is being read.

    So that a batch on several processes hands back the results done while its
    writer is quiet (:func:`csp_sudoku.core.parallel.ordered_map`), instead of
    holding them until the next line comes.
    """
    return bool(_READING) and _READING[-1](timeout)


def read_puzzles(
    source: PathOrLines, geometry: Geometry | None = None, *, source_name: str | None = None
) -> Iterator[Entry]:
    """Read puzzles lazily from a file path, an open text file or an iterable of lines.

    Each puzzle (or each bad line, in its place) is yielded as an :class:`Entry`
    as soon as it is read, so files of millions of lines stream in constant memory.
    A bad line does not stop the reading, except binary data, which ends it.

    Args:
        source: a path (``"-"`` for standard input), an open text file, an open
            binary one (``open(path, "rb")``, ``gzip.open(path)``: read as
            UTF-8, and not closed), or lines.
        geometry: the shape of every puzzle; inferred per puzzle when omitted.
        source_name: the name used in error messages (defaults to the path).
    """
    check_geometry(geometry)
    lines, name, handle = _open_lines(source)
    name = source_name or name
    try:
        with _reading(lines.waits if isinstance(lines, _PipeLines) else None):
            yield from _entries(lines, geometry, name)
    finally:
        if handle is not None:
            handle.close()


@dataclass
class ReadState:
    """Where the reader of one input stands between two runs of its lines.

    :func:`read_puzzles` reads a file in one go; a worker of ``check`` reads a
    chunk of its lines (:class:`TextChunk`) starting from the state the chunk
    before left, and hands back the state it ends in. Only a CSV header, a grid
    cut in the middle or binary data carry over a chunk's end.

    Attributes:
        line: the lines read so far (the next one is ``line + 1``).
        header: the columns of a CSV input, once its header is read.
        block: the rows read of a multi-line grid not yet complete, as
            ``(line number, text)``.
        block_size: the number of rows that grid needs.
        stopped: binary data was met: the rest of the input is not read.
    """

    line: int = 0
    header: list[str] | None = None
    block: list[tuple[int, str]] = field(default_factory=list)
    block_size: int | None = None
    stopped: bool = False

    def at_rest(self) -> bool:
        """Whether the next line starts afresh (no grid open, no CSV header, reading on)."""
        return not self.block and self.header is None and not self.stopped


def _entries(
    lines: Iterable[str],
    geometry: Geometry | None,
    name: str,
    state: ReadState | None = None,
    *,
    end: bool = True,
) -> Iterator[Entry]:
    """The entries of ``lines``, read on from ``state`` (updated as lines are read).

    With ``end`` the lines are the last of the input: a grid still open there
    is reported as cut short.
    """
    st = ReadState() if state is None else state
    if st.stopped:
        return

    def flush_incomplete() -> Entry:
        first, text = st.block[0]
        why = f"grid has {counted(len(st.block), 'row')}, expected {st.block_size}"
        if len(st.block) == 1:  # as likely a puzzle line of the wrong length: say both
            why = (
                f"line has {st.block_size} cells: a puzzle line has {_LINE_LENGTHS}, "
                f"and a grid {st.block_size} cells wide has {st.block_size} rows"
            )
        err = ParseError(why, source=name, line=first)
        st.block, st.block_size = [], None
        return Entry(first, text, None, err, name)

    for lineno, raw in enumerate(lines, start=st.line + 1):
        st.line = lineno
        text = raw.rstrip("\r\n")
        if lineno == 1:
            text = text.lstrip("\ufeff")  # a byte-order mark from a Windows editor
        bad = _BINARY.search(text)
        if bad is not None:
            what = "NUL byte" if bad.group() == "\x00" else f"control byte {ord(bad.group()):#04x}"
            err = ParseError(
                f"binary data ({what}): this is not a puzzle text file",
                source=name,
                line=lineno,
                column=bad.start() + 1,
            )
            st.stopped = True
            # shown escaped (``\x00``): a row that carried the raw bytes would make
            # its own output binary, and a reader of that output would stop there
            shown = _BINARY.sub(lambda m: f"\\x{ord(m.group()):02x}", text[:80])
            yield Entry(lineno, shown.replace("\t", "\\t"), None, err, name)
            return
        if "\ufffd" in text and not text.lstrip().startswith("#"):
            # (a comment may be in any encoding: "# by J\xf6rg" in Latin-1 is no fault)
            err = ParseError(
                "bytes that are not UTF-8 text (binary data?)",
                source=name,
                line=lineno,
                column=text.index("\ufffd") + 1,
            )
            yield Entry(lineno, text[:80], None, err, name)
            continue
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            if st.block and not stripped:
                yield flush_incomplete()
            continue
        if not st.block:
            record = _record_entry(text, stripped, lineno, geometry, name, st.header)
            if isinstance(record, list):
                st.header = record
                continue
            if record is not None:
                yield record
                continue
        if st.block:
            if _is_separator(text, st.block_size):
                continue
            if len(_row_cells(text, st.block_size)) == st.block_size:
                # a row of the grid, even with a bad cell: the grid's error names it
                # (else "x" in row 5 gave three errors, none of them about the "x")
                st.block.append((lineno, text))
                if len(st.block) == st.block_size:
                    yield _finish_block(st.block, geometry, name)
                    st.block, st.block_size = [], None
                continue
            # Not a row of this grid: the grid ends short, and this line starts afresh.
            yield flush_incomplete()
        # Not inside a grid: a one-line puzzle, a separator, or the first row of a grid.
        first_token = stripped.split(None, 1)[0]
        one_line = "|" not in text and (
            len(first_token) == geometry.ncells
            if geometry is not None
            else len(first_token) in _VALID_CELL_COUNTS
        )
        if one_line:
            try:
                yield Entry(lineno, text, parse_line(text, geometry), None, name)
            except ParseError as err:
                yield Entry(lineno, text, None, err.located(source=name, line=lineno), name)
            continue
        if _is_separator(text, geometry.size if geometry else None):
            continue
        row_size = _grid_row_size(text, geometry.size if geometry is not None else None)
        if row_size is not None:
            st.block, st.block_size = [(lineno, text)], row_size
            continue
        try:
            parse_line(text, geometry)  # raises the precise reason
        except ParseError as err:
            yield Entry(lineno, text, None, err.located(source=name, line=lineno), name)
        else:  # pragma: no cover - a valid line was handled above
            continue
    if end and st.block:
        yield flush_incomplete()


#: The columns that make a line a CSV header: a plain puzzle's, a variant one's
#: f-puzzles object (a row with it is an error here, see :func:`_field_entry`).
_PUZZLE_COLUMNS = frozenset({"puzzle", "fpuzzles"})
#: ``file:line`` at the start of a result row written as text by check, count and rate.
_LOCATION = re.compile(r"[^\t]+:\d+\t")


def _record_entry(
    text: str,
    stripped: str,
    lineno: int,
    geometry: Geometry | None,
    name: str,
    header: list[str] | None,
) -> Entry | list[str] | None:
    """A line read as a record (JSON object, CSV row or header, text result row).

    Returns the entry, the column names when the line is a CSV header, or None
    when the line is plain puzzle text for the caller to read.
    """

    def bad(reason: str, column: int = 1) -> Entry:
        return Entry(
            lineno, text, None, ParseError(reason, source=name, line=lineno, column=column), name
        )

    if stripped.startswith("{"):
        try:
            rec = json.loads(stripped)
        except json.JSONDecodeError as err:
            reason = f"not a JSON object: {err.msg}"
            column = len(text) - len(text.lstrip()) + err.colno
            return bad(reason, column)
        except (ValueError, RecursionError):  # a number of over 4300 digits, deep nesting
            reason = "not a JSON object: a number too long or nesting too deep to read"
            return bad(reason)
        if not isinstance(rec, dict):
            return bad("a JSON line must be an object")
        return _field_entry(rec, text, lineno, geometry, name)
    if header is not None and ("," in stripped or len(header) == 1):
        values = _csv_fields(text)
        if values is None:
            return bad(f"a CSV field longer than {csv.field_size_limit()} characters")
        if _PUZZLE_COLUMNS & {v.strip() for v in values} and [v.strip() for v in values] != header:
            return [v.strip() for v in values]  # the header of a next CSV file
        if [v.strip() for v in values] == header:
            return header  # the same header again (files joined with cat)
        if len(values) != len(header):
            reason = f"CSV row has {len(values)} fields, the header {len(header)}"
            return bad(reason)
        rec = {k: _csv_value(v) for k, v in zip(header, values, strict=True)}
        return _field_entry(rec, text, lineno, geometry, name)
    if "," in stripped or stripped in _PUZZLE_COLUMNS:
        columns = [c.strip() for c in _csv_fields(text) or []]
        if _PUZZLE_COLUMNS & set(columns):
            return columns
        if name.lower().endswith(".csv"):
            reason = "a CSV file needs a header line naming a 'puzzle' column"
            return bad(reason)
    if _LOCATION.match(stripped):
        start = text.rindex("\t") + 1
        return _puzzle_entry(text[start:], start, text, lineno, geometry, name, {})
    return None


def _csv_fields(text: str) -> list[str] | None:
    """The fields of one CSV line, or None when the csv module refuses it (a huge field)."""
    try:
        return next(csv.reader([text]), [])
    except csv.Error:
        return None


def _csv_value(value: str) -> Any:
    """A CSV cell, with the JSON a writer put in it for a nested value (``ratings``) decoded."""
    if value[:1] in "{[":
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def is_variant_record(rec: dict[str, Any]) -> bool:
    """Whether a JSON or CSV record holds a variant puzzle: a row with its ``fpuzzles``
    field filled, or an f-puzzles object itself (``size`` and ``grid``)."""
    return rec.get("fpuzzles") not in (None, "") or ("size" in rec and "grid" in rec)


def _field_entry(
    rec: dict[str, Any], text: str, lineno: int, geometry: Geometry | None, name: str
) -> Entry:
    """The entry of a JSON or CSV record: its ``puzzle`` field read, the others kept.

    A record with an ``fpuzzles`` field holds a variant puzzle, whose ``puzzle``
    field is only its givens: it is an error here, never read as a plain
    puzzle (the command line reads it as the variant, ``csp_sudoku.cli.variants``).
    """
    value = rec.get("puzzle")
    fields = {k: v for k, v in rec.items() if k != "puzzle"}
    if is_variant_record(rec):
        reason = (
            "a variant puzzle (the record's 'fpuzzles' field), not a plain one: "
            "its 'puzzle' field holds only the givens"
            if "size" not in rec or "grid" not in rec
            else "a variant puzzle (an f-puzzles object), not a plain one"
        )
        err = ParseError(reason, source=name, line=lineno, column=1)
        return Entry(lineno, text, None, err, name, fields)
    if not isinstance(value, str):
        reason = (
            "no 'puzzle' field"
            if "puzzle" not in rec
            else f"the 'puzzle' field is not a string (it is {json.dumps(value):.40})"
        )
        err = ParseError(reason, source=name, line=lineno, column=1)
        return Entry(lineno, text, None, err, name, fields)
    named = record_geometry(rec, geometry)
    if isinstance(named, str):
        return Entry(lineno, text, None, ParseError(named, source=name, line=lineno), name, fields)
    found = text.find(value) if value else -1
    return _puzzle_entry(value, max(found, 0), text, lineno, named, name, fields)


def geometry_fields(geometry: Geometry) -> dict[str, str]:
    """The fields a record names its puzzle's shape with: ``geometry`` (its name)
    and, for a jigsaw, ``regions`` (:attr:`Geometry.regions_text`); what
    :func:`record_geometry` reads back, so that a command reading the record
    reads a variant as one."""
    regions = geometry.regions_text
    return {"geometry": geometry.name} | ({} if regions is None else {"regions": regions})


def shape_fields(geometry: Geometry | None) -> dict[str, str]:
    """:func:`geometry_fields` for a shape that a puzzle line alone does not tell (extra
    units, jigsaw regions), else none: what a command's row carries, so that the next
    command reads an X-Sudoku or a jigsaw again as one, not as a plain grid."""
    if geometry is None or (
        geometry.size in STANDARD_BOXES and geometry == Geometry.standard(geometry.size)
    ):
        return {}
    return geometry_fields(geometry)


def record_geometry(rec: dict[str, Any], geometry: Geometry | None) -> Geometry | str | None:
    """The geometry to read a record's puzzle in: the one its ``geometry`` field
    (and a jigsaw's ``regions``, :meth:`Geometry.named`) names, or ``geometry``
    (the command's options) when it names none; a message saying why when the
    field names no geometry, or another than the options ask for.

    ``rec`` may be a record or an :attr:`Entry.fields` (its other fields): a
    command that kept a puzzle as its line (``check --certify``) finds its
    shape again from them."""
    field_name, regions = rec.get("geometry"), rec.get("regions")
    if field_name is None or field_name == "":
        return geometry
    if not isinstance(field_name, str) or not (regions is None or isinstance(regions, str)):
        return "the 'geometry' and 'regions' fields must be strings"
    try:
        named = Geometry.named(field_name, regions or None)
    except GeometryError as err:
        return f"the record's geometry: {err}"
    if geometry is not None and geometry != named:
        if geometry.name == named.name:  # two jigsaws
            return "the record's jigsaw regions are not those of the --jigsaw file"
        return (
            f"the record names geometry {named.name}, but the options (--size, --variant, "
            f"--jigsaw) ask for {geometry.name}"
        )
    return named


def _puzzle_entry(
    value: str,
    offset: int,
    text: str,
    lineno: int,
    geometry: Geometry | None,
    name: str,
    fields: dict[str, Any],
) -> Entry:
    """The entry of a puzzle line found at ``offset`` inside ``text`` (errors located there)."""
    try:
        grid = "\n" in value.strip()  # a grid written into one JSON string
        puzzle = parse(value, geometry) if grid else parse_line(value, geometry)
    except ParseError as err:
        column = None if err.column is None else err.column + (offset if err.line is None else 0)
        located = ParseError(err.reason, source=name, line=lineno, column=column)
        return Entry(lineno, text, None, located, name, fields)
    return Entry(lineno, text, puzzle, None, name, fields)


def _grid_row_size(text: str, size: int | None) -> int | None:
    """The grid size N if ``text`` reads as a row of N valid cells (of ``size``, when given).

    Every cell must be a symbol of an N-digit grid, so a stray line of words is
    not mistaken for the first row of a 10x10 grid.
    """
    cells = _row_cells(text, size)
    k = len(cells)
    if k < 2 or k not in STANDARD_BOXES or (size is not None and k != size):
        return None
    for _, v in cells:
        d = v if isinstance(v, int) else digit_of(v)
        if d is None or d > k:
            return None
    return k


def _finish_block(block: list[tuple[int, str]], geometry: Geometry | None, name: str) -> Entry:
    first, text = block[0]
    try:
        return Entry(first, text, _grid_from_rows(block, geometry, name), None, name)
    except ParseError as err:
        located = err if err.line is not None else err.located(source=name, line=first)
        return Entry(first, text, None, located, name)


# ---------------------------------------------------------------------- reading in chunks
@dataclass(frozen=True)
class TextChunk:
    """Whole lines of one input as the bytes read, with the number of the first.

    What the main process of ``check`` hands to a worker: cutting an input into
    chunks costs it no work per line; the worker decodes and parses them
    (:func:`read_chunk`).

    Attributes:
        source: the input's name in messages (a path, ``<stdin>``, ``<argument>``).
        first_line: the 1-based number of the first line.
        lines: how many lines the chunk holds, counted as :func:`read_puzzles`
            counts them (``\\n``, ``\\r\\n`` and a lone ``\\r`` each end a line).
        data: the bytes, whole lines only.
        last: whether the input ends with this chunk.
    """

    source: str
    first_line: int
    lines: int
    data: bytes
    last: bool


#: Bytes asked of an input per read while a chunk is gathered.
_READ_BYTES = 1 << 18


def _open_bytes(
    source: str | os.PathLike[str] | IO[bytes],
) -> tuple[IO[bytes], str, IO[bytes] | None]:
    """The binary stream of a path (``"-"``: standard input), its name, and what to close."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if name == "-":
            import sys

            raw: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
            if raw is None:  # a text stream put in place of stdin (an embedding program, a test)
                raw = _io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))
            data = open_input(raw, "<stdin>")
            return data, "<stdin>", (None if data is raw else data)
        data = _opened(name)
        return data, name, data
    return source, str(getattr(source, "name", "<input>")), None


def _stream_fd(fh: IO[bytes]) -> int | None:
    """The descriptor of ``fh`` when it is a pipe, a socket or a terminal (data
    comes when its writer sends it), else None (a file, a decompressed stream)."""
    import stat

    try:
        fd = fh.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):  # no descriptor (BytesIO, decompressors)
        return None
    return fd if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode) else None


def _would_wait(fd: int, timeout: float = 0.0) -> bool:
    """Whether a read of ``fd`` would wait for its writer now (no data is ready, nor
    comes within ``timeout`` seconds)."""
    import select

    try:
        return not select.select([fd], [], [], timeout)[0]
    except (OSError, ValueError):  # select cannot watch it: read as a file is
        return False


def _line_ends(buf: bytes, eof: bool) -> NDArray[np.int64]:
    """The offsets just after each line end of ``buf``, in order.

    A ``\\r`` in the last byte ends a line only at the end of the input (else
    the next read may bring its ``\\n``).
    """
    a = np.frombuffer(buf, dtype=np.uint8)
    ends = np.flatnonzero(a == 10)
    if b"\r" in buf:
        cr = np.flatnonzero(a == 13)
        inner = cr[cr + 1 < a.size]
        alone = inner[a[inner + 1] != 10]
        if eof and a[-1] == 13:
            alone = np.append(alone, a.size - 1)
        ends = np.union1d(ends, alone)
    return ends + 1


def read_chunks(
    source: str | os.PathLike[str] | IO[bytes], lines: int = 4096, *, source_name: str | None = None
) -> Iterator[TextChunk]:
    """Cut an input into chunks of at most ``lines`` whole lines, reading bytes only.

    The cuts and line counts are found by numpy over the bytes, with no
    Python work per line, so the reading process keeps up with workers that
    parse and check. The last chunk has ``last`` set (an empty input gives one
    empty chunk). Memory: a chunk and one read beyond it.

    From a pipe (``generate ... | check -``) a chunk also ends when its writer
    has sent nothing more yet and whole lines are there: the rows of a slow
    writer's puzzles come out as they come in, not when it ends.

    Args:
        source: a path (``"-"`` for standard input) or a binary stream.
        lines: the most lines in a chunk.
        source_name: the name used in messages (defaults to the path).
    """
    fh, name, handle = _open_bytes(source)
    name = source_name or name
    pipe = _stream_fd(fh)
    # from a pipe, what is there now (read() would wait until all it asks for came)
    read = getattr(fh, "read1", fh.read) if pipe is not None else fh.read
    held = [b""]  # ``buf`` while a chunk is out: :func:`input_waits` asks whether a line is there

    def waits(timeout: float) -> bool:
        return b"\n" not in held[0] and _would_wait(cast(int, pipe), timeout)

    try:
        with _reading(None if pipe is None else waits):
            first, buf, eof = 1, b"", False
            broken: ParseError | None = None  # compressed data damaged after ``buf``
            width = 0.0  # bytes per line so far: one read mostly brings a chunk's lines
            while True:
                ends = _LineEnds(buf, eof, int(lines * width))
                waiting = False  # a pipe's writer is slow: the whole lines so far go now
                while not ends.more_than(lines) and not eof:
                    if pipe is not None and b"\n" in buf and _would_wait(pipe):
                        waiting = True
                        break
                    want = int((lines + 1) * width * 1.1) - len(buf) if width else _READ_BYTES
                    want = max(want, len(buf), 4096)  # at least doubling: linear time
                    try:
                        more = read(want)
                    except ParseError as damage:  # the whole lines before it are still read
                        broken, more = damage, b""
                        buf = buf[: buf.rfind(b"\n") + 1]
                    eof = not more
                    buf += more
                    ends = _LineEnds(buf, eof, int(lines * width))
                if ends.more_than(lines) or (eof and ends.count() == lines and not ends.at_end()):
                    cut, count = ends.after(lines), lines
                elif waiting:  # the whole lines there are; the line being written stays
                    count = ends.count()
                    cut = ends.after(count)
                else:  # the rest of the input, maybe with a last line without its line end
                    cut = len(buf)
                    count = ends.count() + (bool(buf) and not ends.at_end())
                width = cut / max(count, 1)
                data, buf = buf[:cut], buf[cut:]
                last = eof and not buf
                held[0] = buf
                yield TextChunk(name, first, count, data, last)
                if last:
                    if broken is not None:
                        raise broken
                    return
                first += count
    finally:
        if handle is not None:
            handle.close()


class _LineEnds:
    """The line ends of a buffer, found near where a chunk is expected to end.

    Without a ``\\r`` in the buffer a line end is a ``\\n``: ``bytes.count``
    up to ``guess`` (where the chunk's last line should end, by the width of
    the lines so far), then a few ``find`` / ``rfind`` steps (C loops over the
    bytes, no array), so the main process of ``check`` reads each byte about
    once. With a ``\\r``, or far from the guess, :func:`_line_ends` lists them all.
    """

    #: The most line ends stepped over one by one before all are listed instead.
    STEPS = 64

    def __init__(self, buf: bytes, eof: bool, guess: int) -> None:
        self.buf = buf
        self.eof = eof
        self.offsets = _line_ends(buf, eof) if b"\r" in buf else None
        self.pos = min(max(guess, 0), len(buf))
        self.seen = 0 if self.offsets is not None else buf.count(b"\n", 0, self.pos)

    def _step_to(self, k: int) -> bool:
        """Move ``pos`` just past the ``k``-th line end, if there is one, in ``STEPS`` at most.

        Afterwards ``seen`` line ends lie before ``pos``, and the last byte before it is one
        (unless ``seen`` is 0); returns False when the buffer has fewer than ``k``.
        """
        buf = self.buf
        while self.seen < k:
            if k - self.seen > self.STEPS:
                if self.seen + buf.count(b"\n", self.pos) < k:
                    return False
                self.offsets = _line_ends(buf, self.eof)
                return True
            found = buf.find(b"\n", self.pos)
            if found < 0:
                return False
            self.pos, self.seen = found + 1, self.seen + 1
        while self.seen > k or (self.seen and buf[self.pos - 1] != 10):
            end = buf.rindex(b"\n", 0, self.pos)  # the seen-th line end
            if self.seen == k:
                self.pos = end + 1
                break
            self.pos, self.seen = end, self.seen - 1
        return True

    def more_than(self, k: int) -> bool:
        """Whether the buffer has more than ``k`` line ends."""
        if self.offsets is None:
            return self._step_to(k + 1)
        return self.offsets.size > k

    def after(self, k: int) -> int:
        """The offset just after the ``k``-th line end (1-based; the buffer has that many)."""
        if self.offsets is None:
            self._step_to(k)
        return self.pos if self.offsets is None else int(self.offsets[k - 1])

    def count(self) -> int:
        """How many line ends the buffer has."""
        return self.buf.count(b"\n") if self.offsets is None else self.offsets.size

    def at_end(self) -> bool:
        """Whether the buffer ends with a line end."""
        if self.offsets is None:
            return self.buf.endswith(b"\n")
        return bool(self.offsets.size) and int(self.offsets[-1]) == len(self.buf)


def _chunk_lines(chunk: TextChunk) -> _io.StringIO:
    """The lines of a chunk decoded as :func:`read_puzzles` decodes a file."""
    return _io.StringIO(chunk.data.decode("utf-8", "replace"), newline=None)


#: How :func:`read_chunk` reads the cells of a chunk that looks like bare puzzle
#: lines: ``(rows, ncells, crlf, size, values)`` -> the ``(n, ncells)`` cells
#: (``int8``), or None. ``rows`` is the chunk's bytes as an ``(n, width)``
#: array, one line per row; a line is a puzzle when it ends in ``\n`` (``\r\n``
#: with ``crlf``) and its first ``ncells`` bytes map through ``values`` (a
#: 256-entry table of cell values, 255 for no symbol) to at most ``size``.
PlainReader = Callable[
    [NDArray[np.uint8], int, bool, int, NDArray[np.uint8]], NDArray[np.int8] | None
]


def numpy_cells(
    rows: NDArray[np.uint8], ncells: int, crlf: bool, size: int, values: NDArray[np.uint8]
) -> NDArray[np.int8] | None:
    """The :data:`PlainReader` of numpy: a few whole-array operations (no numba needed)."""
    if (rows[:, -1] != 10).any() or (crlf and (rows[:, ncells] != 13).any()):
        return None
    cells = values[rows[:, :ncells]]
    if (cells > size).any():
        return None
    return cells.view(np.int8)


def _plain_cells(
    chunk: TextChunk, state: ReadState, geometry: Geometry | None, reader: PlainReader
) -> tuple[NDArray[np.int8], Geometry] | None:
    """Every line's cells when each line is a bare puzzle of one size, else None.

    The fast path of :func:`read_chunk`: with the reader at rest and every line
    exactly ``N*N`` symbols (``\\n`` or ``\\r\\n`` ends), each line is one
    puzzle, read here by one table look-up over the bytes (``reader``).
    """
    data = chunk.data
    if not data or not state.at_rest():
        return None
    if not data.endswith(b"\n"):
        data += b"\n"  # the input's last line, without its line end
    width = data.index(b"\n") + 1
    crlf = width >= 2 and data[width - 2] == 13
    ncells = width - 1 - crlf
    size = _VALID_CELL_COUNTS.get(ncells)
    if size is None or len(data) % width or (geometry is not None and geometry.ncells != ncells):
        return None
    rows = np.frombuffer(data, dtype=np.uint8).reshape(-1, width)
    cells = reader(rows, ncells, crlf, size, _LUT)
    if cells is None:
        return None
    return cells, geometry or Geometry.standard(size)


def read_chunk(
    chunk: TextChunk,
    state: ReadState,
    geometry: Geometry | None = None,
    *,
    reader: PlainReader = numpy_cells,
) -> list[Entry] | tuple[NDArray[np.int8], Geometry]:
    """Read one chunk from ``state``, which is moved to the chunk's end.

    ``reader`` reads a chunk that looks like bare puzzle lines (a compiled
    one where numba is loaded anyway: see :data:`PlainReader`).

    Returns:
        ``(cells, geometry)``, an ``(n, ncells)`` array of the chunk's puzzles,
        one per line, when every line is a bare puzzle line (then entry ``i``
        is line ``chunk.first_line + i`` and nothing is wrong with it); else
        the entries, as :func:`read_puzzles` would give them.
    """
    plain = _plain_cells(chunk, state, geometry, reader)
    if plain is not None:
        state.line = chunk.first_line + chunk.lines - 1
        return plain
    return list(_entries(_chunk_lines(chunk), geometry, chunk.source, state, end=chunk.last))


def entry_lines(
    chunk: TextChunk, state: ReadState, geometry: Geometry | None = None
) -> Sequence[int]:
    """The line numbers of a chunk's entries, read from ``state`` (moved to its end)."""
    read = read_chunk(chunk, state, geometry)
    if isinstance(read, list):
        return [e.line for e in read]
    return range(chunk.first_line, chunk.first_line + len(read[0]))


def guess_state(chunk: TextChunk, geometry: Geometry | None = None) -> ReadState:
    """The reader's state inside an input, guessed from its first chunk: its CSV header, if any.

    Where the chunks of an input are read at once by several workers, each
    starts from a guess; it is right for every chunk of a file of one-line
    puzzles, JSON Lines or CSV (a chunk read from a wrong guess, e.g. inside
    a multi-line grid, is read again from the right state).
    """
    state = ReadState()
    head = chunk.data[:_READ_BYTES].decode("utf-8", "replace")
    for line in _io.StringIO(head, newline=None):
        for _ in _entries([line], geometry, chunk.source, state, end=False):
            pass
        if state.header is not None or (line.strip() and not line.lstrip().startswith("#")):
            break
    return ReadState(header=state.header)


# ---------------------------------------------------------------------- writing
def written_as_is(target: str | os.PathLike[str]) -> bool:
    """True when ``target`` is written as it is, not staged and renamed into place: a
    device or a pipe, or a stream named through ``/dev`` or ``/proc`` (``/dev/stdout``,
    ``/dev/fd/1``, a link to them). Where the standard output goes to a file,
    ``/dev/stdout`` is that regular file, and renaming a staged file onto the name
    replaced the link ``/dev/stdout`` itself (as root) and left the file empty."""
    path = os.path.abspath(os.fspath(target))
    if os.path.exists(path) and not os.path.isfile(path):
        return True
    for _ in range(40):  # a chain of links, followed one step at a time
        if path.startswith(("/dev/", "/proc/")):
            return True
        if not os.path.islink(path):
            return False
        path = os.path.abspath(os.path.join(os.path.dirname(path), os.readlink(path)))
    return False


@contextlib.contextmanager
def staged(target: str | os.PathLike[str]) -> Iterator[str]:
    """A path to write instead of ``target``, renamed over it when the block ends normally.

    The one way the package writes a file it is asked to write: the content goes
    to a hidden sibling (``.NAME.PID.partial.SUFFIX``, the suffix kept for writers
    that read the format from it) and is renamed into place (``os.replace``, atomic
    on one file system) only when the block finishes. So an interrupted or failed
    write never leaves a half-written file where a good one stood, and a reader
    never sees one; on an error the sibling is removed. A device, a pipe or a stream
    (``/dev/stdout``: :func:`written_as_is`) is written as it is::

        with staged("book.pdf") as tmp:
            figure.savefig(tmp, format="pdf")
    """
    path = os.fspath(target)
    if written_as_is(path):
        yield path
        return
    head, name = os.path.split(path)
    if head and not os.path.isdir(head):  # said of the target, not of the hidden sibling
        missing = FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), head)
        raise access_error(path, missing, "writing")
    stem, suffix = os.path.splitext(name)
    tmp = os.path.join(head, f".{stem}.{os.getpid()}.partial{suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)


@contextlib.contextmanager
def open_output(
    target: str | os.PathLike[str] | IO[str], *, newline: str | None = None
) -> Iterator[IO[str]]:
    """Write to a path (UTF-8 text, through :func:`staged`) or to an open text file (left open).

    The one "write to a path or a file object" of the package::

        with open_output(target) as fh:
            fh.write(text)
    """
    if isinstance(target, (str, os.PathLike)):
        with staged(target) as tmp:
            try:
                fh = open(tmp, "w", encoding="utf-8", newline=newline)  # noqa: SIM115
            except OSError as err:  # named by the target: the sibling is the package's own
                raise access_error(os.fspath(target), err, "writing") from err
            with fh:
                yield fh
    elif callable(getattr(target, "write", None)):
        yield target
    else:  # None raised "no attribute 'write'" at the first row
        raise ArgumentError(
            f"an output is a path or an open text file, got {type(target).__name__} {target!r:.40}"
        )


def write_text(target: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to a path as UTF-8 through :func:`staged` (all of it or nothing)."""
    with open_output(target) as fh:
        fh.write(text)


def check_many(items: object, what: str) -> None:
    """Refuse an argument meant to hold several puzzles that cannot: a text (it would be
    read letter by letter, each letter a puzzle), a single :class:`Puzzle`, or what is
    not iterable (``None``, a number).

    Raises:
        ArgumentError: naming ``what`` and the type given (with a hint for one puzzle).
    """
    if isinstance(items, (str, bytes, Puzzle)) or not isinstance(items, Iterable):
        one = " (for one puzzle, pass [puzzle])" if isinstance(items, (str, Puzzle)) else ""
        raise ArgumentError(
            f"{what} must be a sequence of puzzles, got {type(items).__name__}{one}"
        )


def write_puzzles(
    puzzles: Iterable[Puzzle | str | Sequence[int] | NDArray[np.integer]],
    target: str | os.PathLike[str] | IO[str],
) -> int:
    """Write puzzles one per line; returns how many were written.

    Each item is a :class:`Puzzle`, a puzzle text or an array of cells, read as
    :func:`parse` and :class:`Puzzle` read them; a file is written whole or not
    at all (:func:`open_output`), so a bad item leaves no half file.

    Raises:
        ArgumentError: ``puzzles`` that is not an iterable of puzzles (``None``, a
            number, a single puzzle or puzzle line), before anything is written.
        ParseError: an item that is no puzzle, named by its index (``puzzles[2]: ...``).
    """
    # None raised "'NoneType' object is not iterable"; a puzzle line was read letter by
    # letter, each letter "a line of 1 cells"
    check_many(puzzles, "puzzles")
    count = 0
    with open_output(target) as fh:
        for i, p in enumerate(puzzles):
            if not isinstance(p, Puzzle):
                try:
                    p = parse(p) if isinstance(p, str) else Puzzle(p)
                except ParseError as err:
                    raise err.located(source=f"puzzles[{i}]") from None
                except GeometryError as err:  # cells of no shape
                    raise ParseError(str(err), source=f"puzzles[{i}]") from None
            fh.write(format_line(p) + "\n")
            count += 1
    return count


# ---------------------------------------------------------------------- fast path
def _build_lut() -> np.ndarray:
    lut = np.full(256, 255, dtype=np.uint8)
    for b in range(256):
        d = digit_of(chr(b)) if b < 128 else None
        if d is not None:
            lut[b] = d
    return lut


_LUT = _build_lut()
#: bytes.translate tables: symbol byte -> digit byte, and per size the bytes it accepts.
_TRANSLATE = bytes(_LUT.tolist())
_ACCEPTED = {n: bytes(b for b in range(256) if _LUT[b] <= n) for n in _VALID_CELL_COUNTS.values()}


def fast_cells(text: str, geometry: Geometry | None = None) -> tuple[np.ndarray, Geometry] | None:
    """Convert a clean one-line puzzle to ``(cells, geometry)`` with no Python loop.

    Returns None whenever the text is anything but a plain line of exactly
    ``N*N`` valid symbols; the caller then takes the full parser, which also
    explains what is wrong. The work is two ``bytes.translate`` calls (C speed,
    no numpy temporaries): the single-puzzle API calls spend most of their
    overhead here.
    """
    t = text.strip()
    size = _VALID_CELL_COUNTS.get(len(t))
    if size is None or (geometry is not None and geometry.ncells != len(t)):
        return None
    try:
        raw = t.encode("ascii")
    except UnicodeEncodeError:
        return None
    if raw.translate(None, _ACCEPTED[size]):  # some byte is not a symbol of this size
        return None
    geo = geometry or Geometry.standard(size)
    cells = np.frombuffer(raw.translate(_TRANSLATE), dtype=np.int8)  # read-only, like a clue array
    return cells, geo
