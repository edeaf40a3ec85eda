"""Resuming an interrupted ``check`` run from the rows it already wrote.

Every input entry gives exactly one output row, in input order, so the rows
already in the output file say how many entries are done. A row cut short by
the interruption is removed; the file and line of the last complete row are
checked against the input, so a resumed run never appends to the output of a
different input.
"""

from __future__ import annotations

import csv
import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from csp_sudoku.errors import SudokuError
from csp_sudoku.io import Entry


class ResumeError(SudokuError):
    """The output file does not belong to this input, or cannot be read."""


@dataclass
class ResumePoint:
    """What an earlier run wrote.

    Attributes:
        rows: complete result rows in the file.
        tally: rows per status (``unique``, ``multiple``, ``none``, ``invalid``).
        last: ``(file, line)`` of the last row, None when there is none.
        has_header: a CSV file whose header is written.
    """

    rows: int = 0
    tally: Counter[str] = field(default_factory=Counter)
    last: tuple[str, int] | None = None
    has_header: bool = False


def _truncate_partial_line(path: str) -> None:
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


def read_resume_point(path: str, fmt: str) -> ResumePoint:
    """Read the complete rows of an earlier run's output (``text``, ``jsonl`` or ``csv``).

    Raises:
        ResumeError: when a row cannot be read in the given format.
    """
    point = ResumePoint()
    if not os.path.exists(path):
        return point
    _truncate_partial_line(path)
    with open(path, encoding="utf-8", newline="") as fh:
        if fmt == "csv":
            reader = csv.DictReader(fh)
            if reader.fieldnames is None:
                return point
            point.has_header = True
            for row in reader:
                try:
                    point.last = (row["file"], int(row["line"]))
                    point.tally[row["status"]] += 1
                except (KeyError, TypeError, ValueError):
                    raise ResumeError(f"{path}: row {point.rows + 1} is not a check row") from None
                point.rows += 1
            return point
        for n, line in enumerate(fh, start=1):
            try:
                if fmt == "jsonl":
                    rec = json.loads(line)
                    source, lineno, status = rec["file"], int(rec["line"]), rec["status"]
                else:
                    where, shown = line.split("\t", 2)[:2]
                    source, num = where.rsplit(":", 1)
                    lineno, status = int(num), shown.split(" ", 1)[0]
            except (ValueError, KeyError, TypeError):
                raise ResumeError(f"{path}:{n}: not a row of 'check --format {fmt}'") from None
            point.last = (source, lineno)
            point.tally[status] += 1
            point.rows += 1
    return point


def skip_done(entries: Iterator[Entry], point: ResumePoint) -> Iterator[Entry]:
    """The entries after the first ``point.rows``, checking the last done one matches.

    Raises:
        ResumeError: when the input is shorter than the output or the last row's
            file and line are not those of the matching entry.
    """
    last: Entry | None = None
    for _ in range(point.rows):
        last = next(entries, None)
        if last is None:
            raise ResumeError(
                f"the output already has {point.rows} rows but the input has fewer entries"
            )
    if last is not None and point.last is not None and (last.source, last.line) != point.last:
        raise ResumeError(
            f"the output's last row is {point.last[0]}:{point.last[1]} but entry "
            f"{point.rows} of the input is {last.source}:{last.line}: not this input's output"
        )
    yield from entries
