"""The one exception hierarchy of csp_sudoku.

Every error the library raises on purpose derives from :class:`SudokuError`, so a
caller can catch one class. A bad puzzle is reported with where (source, line,
column) and why, never with a bare traceback.
"""

from __future__ import annotations


class SudokuError(Exception):
    """Base class of every error raised by csp_sudoku."""


class ParseError(SudokuError, ValueError):
    """A puzzle text could not be read.

    Attributes:
        reason: why the text is not a puzzle ("unknown character 'x'").
        source: the file name (or ``"<string>"``), when known.
        line: the 1-based line number in ``source``, when known.
        column: the 1-based column (character position in the line), when known.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self.describe())

    def describe(self) -> str:
        """Return ``source:line:column: reason`` with the known parts only."""
        where = [str(x) for x in (self.source, self.line, self.column) if x is not None]
        return f"{':'.join(where)}: {self.reason}" if where else self.reason

    def located(self, *, source: str | None = None, line: int | None = None) -> ParseError:
        """Return a copy that also names the file and line."""
        return ParseError(
            self.reason,
            source=source if source is not None else self.source,
            line=line if line is not None else self.line,
            column=self.column,
        )


class GeometryError(SudokuError, ValueError):
    """A grid shape or a set of extra units is not a valid Sudoku geometry."""


class BackendError(SudokuError):
    """An unknown backend name, or a backend that cannot handle a geometry."""


class NotUniqueError(SudokuError):
    """An operation that needs a puzzle with exactly one solution got another."""


class SeedError(SudokuError, ValueError):
    """A ``seed`` argument that is not a non-negative integer, a Generator, a SeedSequence or None."""
