"""Resuming an interrupted ``check`` or ``rate`` run from the rows it already wrote.

Both commands write their rows in input order, and every row carries the
``file`` and ``line`` of its puzzle, so the rows already in the output file
say which entries are done. A row cut short by the interruption (no line end)
is removed first.

* ``check`` writes exactly one row per entry: the number of rows is the number
  of entries done (:func:`skip_done`, which finds the chunk of lines where
  they end), and the file and line of the last row are checked against the
  input, so a resumed run never appends to the output of a different input.
* ``rate`` writes one row per puzzle *and metric* (a *group* of rows, in the
  order of ``--metric``), and none for a bad line or a puzzle that cannot be
  rated. A puzzle is done when its whole group is in the file. A trailing
  group cut short (the run stopped between two metrics of one puzzle) is
  **dropped**: the file is truncated to the end of the last complete group and
  that puzzle is rated again. Completing the group instead would save at most
  one puzzle's work but needs a second, per-metric code path; since a rating
  depends only on the puzzle, the metric and the puzzle's seed, the rows
  written again are the ones that were lost. :func:`mark_done` then walks the
  input beside the done groups: a done puzzle is skipped, and an entry of the
  done part without rows (a bad line, a puzzle without one solution) is handed
  back to be reported again, so the errors, the counts and the exit code are
  those of an uninterrupted run.
"""

from __future__ import annotations

import copy
import csv
import json
import os
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Literal

from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import Entry, ReadState, TextChunk, counted, entry_lines

#: What reading a row of a damaged or foreign output file can raise.
BAD_ROW_ERRORS = (
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
    RecursionError,
    csv.Error,
)


class ResumeError(SudokuError):
    """The output file does not belong to this input, or cannot be read."""


#: What the rows an earlier run wrote for one entry say of it: ``ok``, ``failed``
#: (the entry's exit code 1: a puzzle not unique, a count its budget stopped) or
#: ``bad`` (``check``'s ``invalid`` row of an entry that could not be read).
Kind = Literal["ok", "failed", "bad"]
#: The kind of one entry from its rows (each a dict; a text row is ``file``,
#: ``line`` and ``text``, what follows its ``FILE:LINE`` and tab). Raises
#: :class:`ResumeError` when this run's options write other rows for it (another
#: ``count --limit``): the message says how the two runs differ.
Judge = Callable[[list[dict[str, Any]]], Kind]
#: A command's judge, given its options too (:data:`csp_sudoku.cli._plain.KEPT`).
OptionsJudge = Callable[[list[dict[str, Any]], dict[str, Any]], Kind]


def with_options(judge: OptionsJudge | None, options: dict[str, Any]) -> Judge | None:
    """``judge`` with the run's ``options`` (None without one)."""
    if judge is None:
        return None
    given = judge
    return lambda rows: given(rows, options)


def judged(judge: Judge | None, rows: list[dict[str, Any]], path: str, line: int) -> Kind:
    """The kind of one kept entry (``ok`` without a judge); a fault names its first row."""
    if judge is None:
        return "ok"
    try:
        return judge(rows)
    except ResumeError as err:
        raise ResumeError(f"{path}:{line}: {err}") from None
    except BAD_ROW_ERRORS:
        raise ResumeError(f"{path}:{line}: a row this command does not write") from None


#: How many attempts of a puzzle ``generate --resume`` looks through for the seed of a
#: row (a row that does not record its attempt number; ``--attempts`` bounds it lower).
MAX_ATTEMPT_SEARCH = 100_000


def read_records(
    path: str, fmt: str, fields: Sequence[str], what: str
) -> tuple[list[dict[str, Any]], bool]:
    """The records of an earlier run's JSON Lines or CSV output, to resume it.

    A last row cut short (no line end) is removed from the file first. A CSV
    file must start with the header ``fields`` (the columns this version writes).

    Returns:
        ``(rows, has_header)``: each row as a dict (CSV cells as text), and
        whether a CSV header is there.

    Raises:
        ResumeError: a header or row that ``what --format fmt`` does not write.
    """
    truncate_partial_line(path)
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        lines = fh.read().splitlines()
    has_header = fmt == "csv" and bool(lines)
    if has_header:
        try:
            header = next(csv.reader([lines[0]]))
        except csv.Error:
            header = []
        if header != list(fields):
            raise ResumeError(
                f"{path}: not the output of this version's '{what} --format csv' "
                f"(its header is not {','.join(fields)})"
            )
    rows: list[dict[str, Any]] = []
    for n, line in enumerate(lines[1:] if has_header else lines, 1 + has_header):
        try:
            rows.append(row_record(line, fmt, fields))
        except BAD_ROW_ERRORS:
            raise ResumeError(f"{path}:{n}: not a row of '{what} --format {fmt}'") from None
    return rows, has_header


def row_record(line: str, fmt: str, fields: Sequence[str]) -> dict[str, Any]:
    """One row of a JSON Lines (``fmt`` ``jsonl``) or CSV output as a dict, CSV cells as
    text under the header ``fields``.

    Raises:
        ValueError: not a JSON object, not JSON, or not one CSV cell a field (every
            error it raises is one of :data:`BAD_ROW_ERRORS`).
    """
    if fmt == "csv":
        values = next(csv.reader([line]))
        if len(values) != len(fields):
            raise ValueError("wrong number of fields")
        return dict(zip(fields, values, strict=True))
    rec = json.loads(line)
    if not isinstance(rec, dict):
        raise ValueError("not an object")
    return rec


@dataclass
class ResumePoint:
    """What an earlier run wrote.

    Attributes:
        rows: complete result rows kept in the file.
        tally: rows per value of the key column (``check``: the status;
            ``rate``: the metric).
        last: ``(file, line)`` of the last kept row, None when there is none.
        has_header: a CSV file whose header is written.
        groups: complete groups kept (``check``: equal to ``rows``).
        done: with groups, the ``(file, line)`` of every done entry in order,
            stored per run of one file as compact arrays of line numbers.
        last_group: the rows of the last complete group, as read (the text
            format gives ``file``, ``line``, the key and ``puzzle`` only).
    """

    rows: int = 0
    tally: Counter[str] = field(default_factory=Counter)
    last: tuple[str, int] | None = None
    has_header: bool = False
    groups: int = 0
    done: list[tuple[str, array[int]]] = field(default_factory=list)
    last_group: list[dict[str, Any]] = field(default_factory=list)

    def done_keys(self) -> Iterator[tuple[str, int]]:
        """``(file, line)`` of the done entries, in order."""
        for source, lines in self.done:
            for line in lines:
                yield source, line


def truncate_partial_line(path: str) -> None:
    """Cut a trailing line without its line end (a row interrupted mid-write)."""
    size = os.path.getsize(path)
    if size == 0:
        return
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return
        pos = size
        block = 4096
        while pos > 0:
            start = max(0, pos - block)
            fh.seek(start)
            chunk = fh.read(pos - start)
            k = chunk.rfind(b"\n")
            if k >= 0:
                fh.truncate(start + k + 1)
                return
            pos = start
        fh.truncate(0)


def _rows(
    fh: BinaryIO, fmt: str, key: str, what: str
) -> Iterator[tuple[dict[str, Any] | None, int]]:
    """``(row, end offset)`` for every row; ``(None, offset)`` for a CSV header.

    Every row has ``file``, ``line`` (an int) and ``key``; a text row also has
    ``puzzle`` (its last field) and ``text`` (what follows ``FILE:LINE`` and its tab).
    """
    fieldnames: list[str] | None = None
    end = 0
    for n, raw in enumerate(fh, start=1):
        end += len(raw)
        text = raw.decode("utf-8").rstrip("\r\n")
        try:
            if fmt == "csv":
                values = next(csv.reader([text]))
                if fieldnames is None:
                    fieldnames = values
                    yield None, end
                    continue
                rec: dict[str, Any] = dict(zip(fieldnames, values, strict=False))
            elif fmt == "jsonl":
                rec = json.loads(text)
            else:
                fields = text.split("\t")
                source, num = fields[0].rsplit(":", 1)
                rec = {"file": source, "line": num, key: fields[1].split(" ", 1)[0]}
                rec["puzzle"] = fields[-1]
                rec["text"] = "\t".join(fields[1:])
            rec["line"] = int(rec["line"])
            if not isinstance(rec["file"], str) or not isinstance(rec[key], str):
                raise TypeError
        except BAD_ROW_ERRORS:
            raise ResumeError(f"{fh.name}:{n}: not a row of '{what} --format {fmt}'") from None
        yield rec, end


def read_resume_point(
    path: str,
    fmt: str,
    *,
    key: str = "status",
    group: Sequence[str] | None = None,
    what: str = "check",
    judge: Judge | None = None,
) -> ResumePoint:
    """Read the complete rows (or groups of rows) of an earlier run's output.

    Args:
        path: the output file (a missing file is an empty point).
        fmt: ``text``, ``jsonl`` or ``csv``.
        key: the column tallied and, with ``group``, checked (``status``, ``metric``).
        group: the key values of one entry's rows, in order (``rate``: the
            metrics); None for one row per entry (``check``). A trailing group
            cut short is removed from the file.
        what: the command, for error messages.
        judge: checks each complete group's rows against this run's options
            (``check --limit``, see :data:`Judge`; the tally is the rows' own).

    Raises:
        ResumeError: when a row cannot be read in the given format, rows
            are not grouped as ``group`` says (another ``--metric``), or
            ``judge`` refuses them.
    """
    point = ResumePoint()
    if not os.path.exists(path):
        return point
    truncate_partial_line(path)
    size = len(group) if group else 1
    current: list[dict[str, Any]] = []
    keep = 0  # end of the last complete group
    with open(path, "rb") as fh:
        for n, (rec, end) in enumerate(_rows(fh, fmt, key, what), 1):
            if rec is None:
                point.has_header = True
                keep = end
                continue
            where = (rec["file"], rec["line"])
            if group:
                if current and where != (current[0]["file"], current[0]["line"]):
                    raise ResumeError(
                        f"{path}: {current[0]['file']}:{current[0]['line']} has rows for "
                        f"{len(current)} of the metrics {','.join(group)}: not this run's output"
                    )
                if rec[key] != group[len(current)]:
                    raise ResumeError(
                        f"{path}: {where[0]}:{where[1]} has a row for {rec[key]!r} where "
                        f"{group[len(current)]!r} was expected: written with another --{key}"
                    )
            current.append(rec)
            if len(current) < size:
                continue
            judged(judge, current, path, n + 1 - size)
            keep = end
            point.rows += size
            point.groups += 1
            point.tally.update(r[key] for r in current)
            point.last = where
            if group:
                if point.done and point.done[-1][0] == where[0]:
                    point.done[-1][1].append(where[1])
                else:
                    point.done.append((where[0], array("q", [where[1]])))
            point.last_group, current = current, []
    if current:  # a group cut short: rated again from the start
        with open(path, "rb+") as fh:
            fh.truncate(keep)
    return point


def skip_done(
    chunks: Iterator[TextChunk], point: ResumePoint, geometry: Geometry | None
) -> Iterator[tuple[TextChunk, ReadState | None, int]]:
    """The chunks left after the first ``point.rows`` entries (one row per entry), checking the last.

    Yields ``(chunk, start, skip)``: first the chunk holding the entry after the
    done ones, with the reader's state at its start and how many of its entries
    are done; then every chunk after it, with ``None`` and 0. The done chunks
    are read here, not checked (a chunk of bare puzzle lines is read with no
    work per line).

    Raises:
        ResumeError: when the input is shorter than the output or the last row's
            file and line are not those of the matching entry.
    """
    seen = 0
    state = ReadState()
    for chunk in chunks:
        if chunk.first_line == 1:
            state = ReadState()
        start = copy.deepcopy(state)
        lines = entry_lines(chunk, state, geometry)
        if seen + len(lines) < point.rows:
            seen += len(lines)
            continue
        skip = point.rows - seen
        last = (chunk.source, lines[skip - 1])
        if point.last is not None and last != point.last:
            raise ResumeError(
                f"the output's last row is {point.last[0]}:{point.last[1]} but entry "
                f"{point.rows} of the input is {last[0]}:{last[1]}: not this input's output"
            )
        yield chunk, start, skip
        yield from ((c, None, 0) for c in chunks)
        return
    raise ResumeError(
        f"the output already has {counted(point.rows, 'row')} but the input has fewer entries"
    )


def generate_row_fault(row: Mapping[str, Any], *, symmetry: str, minimal: bool) -> str | None:
    """Why a row of an earlier ``generate`` run is not one this run's options write; None
    when it may be.

    A row records the run's ``symmetry``, but its ``minimal`` and
    ``minimal_in_symmetry`` say what its puzzle is, not what the run asked: with a
    symmetry a puzzle is made minimal among the symmetric clue patterns, and may
    keep a clue removable alone (``minimal`` false, ``minimal_in_symmetry``
    true); with ``--not-minimal`` a puzzle may be minimal all the same. So a run
    with ``--minimal`` wrote puzzles that are minimal one way or the other, and
    one with ``--not-minimal`` any puzzle. The values are JSON's booleans or the
    ``True``/``False`` (empty: not said) of a CSV row.
    """
    if "symmetry" in row and str(row["symmetry"]) != symmetry:
        return f"the earlier run used symmetry {row['symmetry']}, this one {symmetry}"
    said = [row[k] for k in ("minimal", "minimal_in_symmetry") if row.get(k) not in (None, "")]
    if minimal and said and not any(v is True or str(v) == "True" for v in said):
        return "its puzzle is not minimal: the earlier run used --not-minimal, this one --minimal"
    return None


State = Literal["done", "again", "new"]


def mark_done(entries: Iterator[Entry], point: ResumePoint) -> Iterator[tuple[Entry, State]]:
    """Every entry with its state against the groups of ``point`` (``rate``).

    ``done``: its rows are in the file. ``again``: an entry of the done part
    without rows (a bad line or a puzzle that could not be rated), to be
    reported again; it must not give rows. ``new``: after the done part.

    Raises:
        ResumeError: when the done groups are not entries of this input, in order,
            or the last done puzzle is not the one in the file.
    """
    keys = point.done_keys()
    expected = next(keys, None)
    seen = 0
    for e in entries:
        if expected is None:
            yield e, "new"
            continue
        where = (e.source, e.line)
        if where != expected:
            if e.source == expected[0] and e.line > expected[1]:
                raise ResumeError(
                    f"the output has rows for {expected[0]}:{expected[1]}, which is not a "
                    f"puzzle of the input: not this input's output"
                )
            yield e, "again"
            continue
        seen += 1
        puzzle = point.last_group[0].get("puzzle") if point.last_group else None
        if e.puzzle is None or (
            seen == point.groups and puzzle is not None and puzzle != e.puzzle.to_line()
        ):
            raise ResumeError(
                f"the output's rows for {e.source}:{e.line} are not about its puzzle: "
                f"not this input's output"
            )
        expected = next(keys, None)
        yield e, "done"
    if expected is not None:
        raise ResumeError(
            f"the output has rows for {expected[0]}:{expected[1]} but the input has no "
            f"such entry after the ones before it: not this input's output"
        )
