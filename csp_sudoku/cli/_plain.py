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

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from csp_sudoku.api import count_solutions, solutions
from csp_sudoku.cli import EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import progress
from csp_sudoku.cli._resume import Kind, ResumeError
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
        with _part_progress(budget is not None and bool(options.get("show"))) as note:
            n = count_solutions(
                puzzle,
                limit=limit,
                backend=options["backend"],
                budget_seconds=budget,
                progress=note,
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


# ------------------------------------------------------------------ rows kept by --resume
#: Said after how an earlier run's options differ from this one's.
_GIVE = "give the interrupted run's {option} (or another --output)"


def _flag(value: Any) -> bool:
    """A row's boolean field, as JSON (``true``) or a CSV cell (``True``) has it."""
    return value is True or str(value) == "True"


def _shown(row: dict[str, Any]) -> tuple[str, str]:
    """The first field of a text row (:data:`csp_sudoku.cli._resume.Judge`) split at
    its first space: ``("unique", "")``, ``("multiple", "5+")``, ``("7+", "(budget)")``."""
    first, _, rest = row["text"].split("\t", 1)[0].partition(" ")
    return first, rest.strip()


def _earlier(option: str, earlier: str, this: int) -> ResumeError:
    """The refusal of rows that another value of ``option`` wrote."""
    how = _GIVE.format(option=option)
    return ResumeError(f"the earlier run used {earlier}, this one {option} {this}: {how}")


def kept_check(rows: list[dict[str, Any]], options: dict[str, Any]) -> Kind:
    """What ``check``'s row of an entry kept by ``--resume`` says: ``ok`` (unique),
    ``bad`` (invalid) or ``failed``.

    Raises:
        ResumeError: the row was written with another ``--limit``, as far as it
            tells: a text row shows the count only when the limit is not 2, and
            ``N+`` at the limit; a JSON or CSV row's count is at most its limit.
    """
    row, limit = rows[0], options["limit"]
    if "text" not in row:
        found = int(row.get("count") or 0)
        if found > limit:
            raise _earlier("--limit", f"a --limit of {found} or more", limit)
        return _verdict_kind(str(row["status"]))
    status, count = _shown(row)
    if status == "invalid" or (not count and limit == 2):
        return _verdict_kind(status)
    if not count:
        raise _earlier("--limit", "--limit 2", limit)
    n = int(count.rstrip("+"))
    if count.endswith("+") and n != limit:
        raise _earlier("--limit", f"--limit {n}", limit)
    if not count.endswith("+") and (limit == 2 or n >= limit):
        raise _earlier("--limit", f"a --limit above {n} (not 2)", limit)
    return _verdict_kind(status)


def _verdict_kind(status: str) -> Kind:
    return "ok" if status == "unique" else "bad" if status == "invalid" else "failed"


def kept_count(rows: list[dict[str, Any]], options: dict[str, Any]) -> Kind:
    """What ``count``'s row of an entry kept by ``--resume`` says: ``failed`` when its
    budget stopped the count (exit code 1), else ``ok``.

    Raises:
        ResumeError: the row was counted under another ``--limit``: a count stopped
            at the limit is the limit itself, a whole count is below it. (A CSV row
            does not say that a budget stopped it: below this run's limit, it is
            taken for one when this run has a budget too.)
    """
    row, limit = rows[0], options["limit"]
    if "text" in row:  # N, N+ at the limit, N+ (budget)
        count, why = _shown(row)
        n, capped, budget = int(count.rstrip("+")), count.endswith("+"), why == "(budget)"
    else:
        n, capped, budget = int(row["count"]), _flag(row["capped"]), _flag(row.get("budget"))
    csv_row = isinstance(row.get("capped"), str)
    if budget or (capped and n < limit and csv_row and options.get("budget") is not None):
        return "failed"
    if capped and n != limit:
        budget_too = " (or a --budget-seconds)" if csv_row else ""
        raise _earlier("--limit", f"--limit {n}{budget_too}", limit)
    if not capped and n >= limit:
        raise _earlier("--limit", f"a --limit above {n}", limit)
    return "ok"


def kept_solve(rows: list[dict[str, Any]], options: dict[str, Any]) -> Kind:
    """What ``solve``'s rows of an entry kept by ``--resume`` say: ``ok`` (unique) or
    ``failed`` (no solution, or several).

    Raises:
        ResumeError: the rows were written with another ``--all``: this run looks
            for ``max(K, 2)`` solutions (``capped`` when it finds them all) and
            writes a row for each of the first K (one for a puzzle without any).
    """
    row, wanted = rows[0], options["all"]
    if "text" in row:  # a variant puzzle's text rows: STATUS<TAB>SOLUTION
        return "ok" if _shown(row)[0] == "unique" else "failed"
    n, capped = int(row["solutions"]), _flag(row["capped"])
    most = max(wanted, 2)
    if (capped and n != most) or (not capped and n >= most) or len(rows) != max(min(wanted, n), 1):
        if capped and n > 2:
            earlier = f"--all {n}"
        elif capped or len(rows) < n:
            earlier = f"--all {len(rows)}"
        else:
            earlier = f"an --all above {n}"
        raise _earlier("--all", earlier, wanted)
    return "ok" if str(row["status"]) == "unique" else "failed"


#: The judges of the rows that ``--resume`` keeps, per command (:data:`csp_sudoku.cli._resume.Judge`
#: given the command's options).
KEPT = {"check": kept_check, "count": kept_count, "solve": kept_solve}


@contextmanager
def _part_progress(show: bool) -> Iterator[Callable[[int, int, int], None] | None]:
    """One count's progress on stderr while the block runs, when ``show``: how many of
    its parts are done and the solutions found so far. Yields the callback for the
    count's ``progress`` (None without ``show``).

    A bar of the command line's (:func:`~csp_sudoku.cli._common.progress`), redrawn
    at most every half second as parts end and once a second besides, which draws
    its last state when the block ends (the count done, or stopped by its budget or
    its limit). A count in parts calls back after every part, several hundred
    times a second on an empty grid: a line redrawn at each call kept the terminal
    busy with nothing anyone could read.
    """
    if not show:
        yield None
        return
    bar = progress(None, True, unit="part")
    done_before = 0

    def note(done: int, parts: int, found: int) -> None:
        nonlocal done_before
        bar.set_total(parts)
        bar.postfix(f"{counted(found, 'solution')} so far")
        bar.update(done - done_before)
        done_before = done

    try:
        yield note
    finally:
        bar.close()


__all__ = [
    "KEPT",
    "check_one",
    "count_one",
    "invalid_row",
    "kept_check",
    "kept_count",
    "kept_solve",
    "solve_one",
]
