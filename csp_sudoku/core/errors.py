"""The one exception hierarchy of csp_sudoku: every error class is defined here.

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


class ArgumentError(SudokuError, ValueError):
    """An argument outside its domain (a limit below 1, an unknown technique name ...)."""


class MetricError(SudokuError, ValueError):
    """An unknown metric, a bad metric parameter, or a puzzle a metric cannot rate."""


class SearchBudgetExceeded(SudokuError):
    """A search took its budget of branch nodes (the small 9x9 search then hands
    the puzzle to the compiled kernel; never seen by a caller)."""


class CountBudgetExceeded(SudokuError):
    """A solution count ran past its time budget; ``at_least`` solutions were found."""

    def __init__(self, at_least: int, seconds: float) -> None:
        super().__init__(
            f"the count ran past its budget of {seconds:g} s with {at_least} "
            f"solution{'' if at_least == 1 else 's'} so far"
        )
        self.at_least = at_least


class ChainBudgetExceeded(SudokuError):
    """A nested refutation search (the human model's chains) ran out of its
    budget of inner hypotheses; the path so far is kept."""


class DeadlinePassed(SudokuError):
    """A solver call was cut off at the deadline of its caller's time budget
    (:func:`csp_sudoku.core.deadline.deadline`); the caller keeps what it found."""


class Contradiction(SudokuError):
    """Pencil marks that allow no solution: what a hypothesis of a human-style path
    reaches when it is refuted (the variant explainer raises it inside its
    propagation and catches it at the refutation step), or a puzzle with none."""


class Stopped(SudokuError):
    """A solver call ended early because the run it worked for was stopped (its caller
    stopped reading: a Ctrl-C, an error); see :func:`csp_sudoku.core.deadline.stop_when`."""


class GenerationError(SudokuError):
    """A generator could not make what was asked (bad options, impossible target)."""


class BudgetExhaustedError(GenerationError):
    """The time or attempt budget ran out before every puzzle asked for was found.

    Attributes:
        found: how many puzzles were produced before the budget ran out.
        wanted: how many were asked for.
    """

    def __init__(self, message: str, *, found: int = 0, wanted: int = 0) -> None:
        super().__init__(message)
        self.found = found
        self.wanted = wanted


class SymmetryError(GenerationError, ValueError):
    """An unknown symmetry name."""


class BatchError(SudokuError):
    """A batch run that cannot start or go on: Dask missing, a scheduler that cannot be
    reached, a worker process that died."""


class FileAccessError(SudokuError, OSError):
    """A file the package was asked to read or write that cannot be opened: missing, a
    folder, no permission. An OSError too, so code that caught the OSError still does;
    its message names the path the caller gave (never a temporary sibling)."""


class BankError(SudokuError):
    """A bank file that cannot be used, or a query that makes no sense."""


class BankUpgradeWarning(SudokuError, UserWarning):
    """A bank written by an earlier version is being brought up to date in place
    (its indexes added), or cannot be (a file opened read-only): said before the
    work, which takes seconds for a big bank, so that no command on it is slow in
    silence. Issued with :func:`warnings.warn`; the CLI prints it as
    ``csp-sudoku: warning: ...``.
    """


class CertificateError(SudokuError):
    """A certificate could not be produced (unknown solver, solver disagreement)."""


class RenderError(SudokuError):
    """An unknown output format, a missing matplotlib, or a layout that does not fit."""


class ReportError(SudokuError):
    """A report that cannot be made (no puzzles, unknown format, unknown metric)."""


class KernelBuildError(SudokuError, RuntimeError):
    """The kernels cannot be built ahead of time as they must be (numba's ahead-of-time
    compiler changed); ``check`` then counts with numba's kernels."""
