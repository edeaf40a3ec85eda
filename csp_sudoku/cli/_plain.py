"""The rows of one plain puzzle for ``check``, ``count`` and ``solve``.

The per-puzzle work of the plain commands, apart from their batch loops, so
that both loops call it: :func:`csp_sudoku.cli._rows.run_rows` (``solve`` and
``count`` of plain inputs) and the loop of :mod:`csp_sudoku.cli.variants`,
which answers every plain puzzle of a run that also has variant ones by these
functions (rows as the plain commands write them). Each is a module-level
function of the puzzle and the command's options (picklable, for worker
processes) and returns an :data:`~csp_sudoku.cli._rows.Outcome`; ``{where}``
in a text row stands for the puzzle's ``FILE:LINE``.
"""

from __future__ import annotations

import sys
from typing import Any

from csp_sudoku.api import count_solutions, solutions
from csp_sudoku.cli import EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._rows import WHERE, Outcome
from csp_sudoku.core.errors import CountBudgetExceeded
from csp_sudoku.core.io import Entry, counted, format_grid, format_line
from csp_sudoku.core.puzzle import Puzzle


def check_one(puzzle: Puzzle, options: dict[str, Any]) -> Outcome:
    """The row of one puzzle for ``check``: its verdict as ``check`` writes it.

    The row's fields are those of :class:`csp_sudoku.tools.batch.CheckResult`
    (``puzzle``, ``status``, ``count``, ``reason`` when there is one); the text
    is ``FILE:LINE<TAB>verdict<TAB>puzzle`` (the verdict with its count when
    ``--limit`` is not 2) and ``  # reason``. Exit code 1 unless unique.
    """
    from csp_sudoku.tools.batch import Status, verdict_limit

    limit = verdict_limit(options["limit"])
    n = count_solutions(puzzle, limit=limit, backend=options["backend"])
    row, text = _check_row(Entry(0, "", puzzle, None, ""), n, limit)
    return (EXIT_OK if row["status"] == Status.UNIQUE.value else EXIT_NOT_ALL), [(row, text)], None


def invalid_row(entry: Entry) -> tuple[dict[str, Any], str]:
    """The ``invalid`` row of ``check`` for a line the plain reader could not read."""
    return _check_row(entry, None, 2)


def _check_row(entry: Entry, count: int | None, limit: int) -> tuple[dict[str, Any], str]:
    """``check``'s row of one entry (``count`` None: a bad line), as JSON fields and text."""
    from csp_sudoku.tools.batch import Verdicts

    verdicts = Verdicts()
    verdicts.add(entry, count)
    result = next(verdicts.results())
    row = {k: v for k, v in result.as_dict().items() if k not in ("file", "line")}
    shown = result.status.value
    if limit != 2 and count is not None:
        shown += f" {count}{'+' if count >= limit else ''}"
    note = f"  # {result.reason}" if result.reason else ""
    return row, f"{WHERE}\t{shown}\t{result.puzzle}{note}"


def solve_one(puzzle: Puzzle, options: dict[str, Any]) -> Outcome:
    """The rows of one puzzle for ``solve``: one per solution, or one saying it has none.

    A second solution is always searched for, whatever ``--all`` says, so that a row
    never presents one solution of a puzzle that has several as *the* solution: such a
    puzzle gets ``status: multiple`` (``solutions`` then counts those found, ``capped``
    true when there may be more; every row has ``capped``, so that a CSV row says
    it too), a message on stderr and exit code 1.
    """
    wanted = options["all"]
    sols = solutions(puzzle, limit=max(wanted, 2), backend=options["backend"])
    line = format_line(puzzle)
    if not sols:
        clashes = puzzle.clashes()
        why = f" ({clashes[0]})" if clashes else ""
        row = {"puzzle": line, "solution": None, "solutions": 0, "status": "none", "capped": False}
        return EXIT_NOT_ALL, [(row, f"{WHERE}: no solution{why}")], None
    unique = len(sols) == 1
    capped = len(sols) >= max(wanted, 2)
    fields = {
        "solutions": len(sols),
        "status": "unique" if unique else "multiple",
        "capped": capped,
    }
    rows = [
        (
            {"puzzle": line, "solution": format_line(s), **fields},
            format_grid(s) + "\n" if options["grid"] else format_line(s),
        )
        for s in sols[:wanted]
    ]
    if unique:
        return EXIT_OK, rows, None
    many = f"{len(sols)}{'+' if capped else ''}"
    shown = "the row shows one" if len(rows) == 1 else f"the rows show {len(rows)}"
    return EXIT_NOT_ALL, rows, f"not unique: {many} solutions; {shown} of them"


def count_one(puzzle: Puzzle, options: dict[str, Any]) -> Outcome:
    """The row of one puzzle for ``count``: its solution count, capped at ``--limit``."""
    limit = options["limit"]
    budget = options.get("budget")
    line = format_line(puzzle)
    try:
        n = count_solutions(
            puzzle,
            limit=limit,
            backend=options["backend"],
            budget_seconds=budget,
            progress=_part_progress if budget is not None and options.get("show") else None,
        )
    except CountBudgetExceeded as err:
        n = err.at_least
        row = {"puzzle": line, "count": n, "capped": True, "budget": True}
        return EXIT_NOT_ALL, [(row, f"{WHERE}\t{n}+ (budget)\t{line}")], None
    shown = f"{n}+" if n >= limit else str(n)
    return (
        EXIT_OK,
        [({"puzzle": line, "count": n, "capped": n >= limit}, f"{WHERE}\t{shown}\t{line}")],
        None,
    )


def _part_progress(done: int, parts: int, found: int) -> None:
    """One count's progress on stderr: parts done and solutions so far."""
    end = "\n" if done == parts else ""
    print(
        f"\rcount: part {done}/{parts}, {counted(found, 'solution')} so far",
        end=end,
        file=sys.stderr,
    )


__all__ = ["check_one", "count_one", "invalid_row", "solve_one"]
