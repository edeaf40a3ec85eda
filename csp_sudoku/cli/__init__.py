"""The ``csp-sudoku`` command line. The only part of csp_sudoku that prints.

Each subcommand lives in a module of its own in this package exposing
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed arguments and returning the exit code). To add a command,
write the module and add its name to :data:`SUBCOMMANDS`.

Exit codes: 0 success (for ``check``: every puzzle unique), 1 a puzzle is not
unique / a target was not met, 2 bad input or usage, 70 an internal error (a
bug: any input or option gets a message and exit code 2 instead), 130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from csp_sudoku.core._version import __version__
from csp_sudoku.core.errors import SudokuError

#: Subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS: tuple[str, ...] = (
    "check",
    "solve",
    "candidates",  # variant puzzles (cli/variants.py)
    "explain",
    "rate",
    "generate",
    "minimize",
    "export",
    "render",
    "report",
    "bank",
    "compile",
)

EXIT_OK = 0
EXIT_NOT_ALL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and a one-line message on usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser with every registered subcommand (or just ``only``, when given).

    A subcommand's module imports what the command needs, so registering one
    command only keeps the other commands' dependencies (the human model,
    the generators, python-sat ...) out of a short run's start-up.
    """
    parser = _Parser(
        prog="csp-sudoku",
        description="Check, solve, rate, explain and generate Sudoku puzzles.",
    )
    parser.add_argument("--version", action="version", version=f"csp-sudoku {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in SUBCOMMANDS if only is None else (only,):
        importlib.import_module(f"csp_sudoku.cli.{name}").register(sub)
    return parser


@functools.cache
def _parser(only: str | None) -> argparse.ArgumentParser:
    """The parser, built once per process and command (main() in a loop pays it once)."""
    return build_parser(only)


def _interrupted(err: BaseException) -> bool:
    """True when ``err`` stands for a Ctrl-C (or a SIGTERM): any error once the
    command's handler has seen one of them (an import cut short by it raises
    numpy's ImportError, a kernel handing back its result a SystemError, a pipe of
    a worker the same signal ended an OSError), or one caused by a KeyboardInterrupt."""
    if _SIGNALS:
        return True
    seen: set[int] = set()
    e: BaseException | None = err
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def _stopped() -> int:
    """Say that the run was stopped, and how; the exit code of it."""
    _REPORTED.append(True)
    if signal.SIGTERM in _SIGNALS:
        print("csp-sudoku: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    print("csp-sudoku: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


def _subcommands(parser: argparse.ArgumentParser) -> Any:
    """The subcommand action of ``parser``, or None when it has none."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _parse(parser: argparse.ArgumentParser, args: list[str]) -> argparse.Namespace:
    """Parse ``args``, taking options and file names in any order.

    ``csp-sudoku check a.txt -q b.txt`` reads both files, as Unix tools do:
    the innermost command's parser reads its arguments intermixed (plain
    ``parse_args`` stops taking positionals after the first option). argparse
    cannot intermix through subcommands, so they are walked here first.
    """
    names: list[tuple[str, str]] = []
    inner, rest = parser, args
    while rest and (subs := _subcommands(inner)) is not None and rest[0] in subs.choices:
        names.append((subs.dest, rest[0]))
        inner, rest = subs.choices[rest[0]], rest[1:]
    if not names or _subcommands(inner) is not None:
        return parser.parse_args(args)  # no command, or one with its action missing
    rest = _dashed_choices_joined(inner, rest)
    # after "--" every argument is a file: argparse's plain reading then (its
    # intermixed one refuses "-- -f.txt" when no file comes before the "--")
    ns = inner.parse_args(rest) if "--" in rest else inner.parse_intermixed_args(rest)
    for dest, name in names:
        setattr(ns, dest, name)
    return ns


def _dashed_choices_joined(parser: argparse.ArgumentParser, args: list[str]) -> list[str]:
    """``args`` with ``--order -score`` written ``--order=-score``: argparse reads a
    value that starts with a dash as an option ("expected one argument"), though
    the help lists it among the choices."""
    dashed = {
        opt: set(action.choices)
        for action in parser._actions
        if action.choices and any(str(c).startswith("-") for c in action.choices)
        for opt in action.option_strings
    }
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in dashed and i + 1 < len(args) and args[i + 1] in dashed[arg]:
            out.append(f"{arg}={args[i + 1]}")
            i += 2
        else:
            out.append(arg)
            i += 1
    return out


def _warnings_shown_by(previous: Callable[..., None]) -> Callable[..., None]:
    """A ``warnings.showwarning`` that prints the library's own warnings as one line,
    ``csp-sudoku: warning: ...``, and hands the others to ``previous``."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if issubclass(category, SudokuError):
            print(f"csp-sudoku: warning: {message}", file=sys.stderr)
        else:
            previous(message, category, filename, lineno, file, line)

    return show


#: The signals the command's handlers have seen (SIGINT, SIGTERM) in this run;
#: SIGTERM among them: the KeyboardInterrupt they raised was a termination.
_SIGNALS: list[int] = []
#: The run was reported stopped (:func:`_stopped`): a signal seen has done its work.
_REPORTED: list[bool] = []


def _send_again(signum: int, after: float = 0.02) -> None:
    """Send ``signum`` to this process again ``after`` seconds from now (from a
    daemon thread): its handler then runs at another place of the main thread.
    Not once the run is reported stopped (by another way to the same end): the
    signal would come after the command's handlers are gone, and Python's own
    would end the process with a KeyboardInterrupt's exit instead of 130."""

    def again() -> None:
        if not _REPORTED:
            os.kill(os.getpid(), signum)

    timer = threading.Timer(after, again)
    timer.daemon = True
    timer.start()


def _unraisable_shown_by(previous: Callable[[Any], None]) -> Callable[[Any], None]:
    """A ``sys.unraisablehook`` that sends a signal again whose KeyboardInterrupt was lost.

    A signal's handler runs wherever the main thread is, which may be a
    finalizer (a ``__del__``, a weakref or garbage-collector callback) or a
    ctypes callback: Python cannot raise out of those, so it prints "Exception
    ignored in ..." and goes on, and the Ctrl-C would be lost (the whole run
    then went on to its end). Such a KeyboardInterrupt of the command's handlers
    is not printed; the signal comes again a moment later, somewhere it counts.
    """

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and _SIGNALS and not _REPORTED:
            _send_again(_SIGNALS[-1])
            return
        previous(unraisable)

    return hook


def _on_sigint(signum: int, frame: Any) -> None:
    """A Ctrl-C: a KeyboardInterrupt, as Python's own handler raises, remembered."""
    _SIGNALS.append(signum)
    raise KeyboardInterrupt


def _on_sigterm(owner: int) -> Callable[[int, Any], None]:
    """A SIGTERM handler that ends process ``owner`` as an interrupt: its outputs
    are closed as after a Ctrl-C (a new one's rows moved into place, the lock freed)
    instead of the kill leaving ``FILE.partial`` and ``.FILE.lock`` behind. A
    worker process forked from it (which has the handler too) dies as before."""

    def handle(signum: int, frame: Any) -> None:
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        # a KeyboardInterrupt, not an error class of its own: every handler that
        # lets a Ctrl-C through (and no ``except Exception``) lets it through too
        _SIGNALS.append(signum)
        raise KeyboardInterrupt

    return handle


def _outside_llvm(handler: Callable[[int, Any], None]) -> Callable[[int, Any], None]:
    """``handler``, acting only where its KeyboardInterrupt can reach the command.

    A signal that comes while numba compiles may be handled inside a callback that
    LLVM makes into Python through ctypes (llvmlite's object cache notices, its
    lock's release calling numba back): an exception raised there is printed and
    lost, and numba then fails ("no compiled object yet", an internal error), the
    process crashes, or the run goes on as if no signal came. Where any frame of
    the stack is llvmlite's, the signal is sent again a moment later.
    """
    marker = f"{os.sep}llvmlite{os.sep}"

    def handle(signum: int, frame: Any) -> None:
        f = frame
        while f is not None:
            if marker in f.f_code.co_filename:
                _send_again(signum)
                return
            f = f.f_back
        handler(signum, frame)

    return handle


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``csp-sudoku`` script; returns the exit code.

    The library's warnings (:class:`~csp_sudoku.core.errors.SudokuError` ones) are
    printed as ``csp-sudoku: warning: ...`` while the command runs, and a SIGTERM
    ends the command as a Ctrl-C does (exit code 143 instead of 130). A signal
    whose KeyboardInterrupt something swallowed after all (a library's bare
    ``except:``) still makes the run's exit code and last line those of a stop.
    """
    previous = warnings.showwarning
    warnings.showwarning = _warnings_shown_by(previous)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable_shown_by(previous_hook)
    on_term = on_int = None
    _SIGNALS.clear()
    _REPORTED.clear()
    if threading.current_thread() is threading.main_thread():  # only it may set handlers
        on_term = signal.signal(signal.SIGTERM, _outside_llvm(_on_sigterm(os.getpid())))
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            on_int = signal.signal(signal.SIGINT, _outside_llvm(_on_sigint))
    try:
        code = _main(argv)
        return _stopped() if _SIGNALS and not _REPORTED else code
    finally:
        if on_term is not None:
            signal.signal(signal.SIGTERM, on_term)
        if on_int is not None:
            signal.signal(signal.SIGINT, on_int)
        warnings.showwarning = previous
        sys.unraisablehook = previous_hook
        if "csp_sudoku.cli._common" in sys.modules:  # outputs were claimed only if loaded
            sys.modules["csp_sudoku.cli._common"].release_outputs()


def _main(argv: Sequence[str] | None) -> int:
    args_list = sys.argv[1:] if argv is None else list(argv)
    # ``csp-sudoku CMD ...`` needs CMD's parser only: the top-level parser has no
    # option taking a value, so a first argument naming a command is the command
    first = args_list[0] if args_list else None
    if first == "--version":  # as argparse would answer it, without every command's imports
        print(f"csp-sudoku {__version__}")
        return EXIT_OK
    try:
        # building a command's parser imports what its help names (for generate, the
        # metrics' levels: numba starts), so a Ctrl-C may come here too
        parser = _parser(first if first in SUBCOMMANDS else None)
        args = _parse(parser, args_list)
    except SystemExit as done:  # a usage error (2, message printed), --help or --version (0)
        return done.code if isinstance(done.code, int) else EXIT_OK
    except KeyboardInterrupt:
        return _stopped()
    except Exception as err:  # an import that a Ctrl-C cut short (numpy's ImportError)
        if _interrupted(err):
            return _stopped()
        raise
    try:
        from csp_sudoku.cli._common import preflight

        preflight(args)
        code: int = args.func(args)
    except KeyboardInterrupt:
        return _stopped()
    except BrokenPipeError:
        # the reader (e.g. `head`) went away: not an error of ours
        sys.stderr.close()
        return EXIT_OK
    except (SudokuError, OSError) as err:
        if _interrupted(err):
            # raised while a Ctrl-C or SIGTERM was handled: e.g. a worker that the same
            # signal ended closed its pipe while the pool was shut down
            return _stopped()
        if isinstance(err, SudokuError):
            print(f"csp-sudoku: error: {err}", file=sys.stderr)
            return EXIT_BAD_INPUT
        where = err.filename or getattr(args, "output", None)
        said = f"{err.strerror or err}: {where}" if where else f"{err.strerror or err}"
        print(f"csp-sudoku: error: {said}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as err:  # a bug: say so in one line rather than a traceback
        if _interrupted(err):
            return _stopped()
        if os.environ.get("CSP_SUDOKU_DEBUG"):
            raise
        print(
            f"csp-sudoku: internal error ({type(err).__name__}: {err}); please report it "
            "with the command line that caused it",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    return code


def entry() -> NoReturn:
    """The ``csp-sudoku`` script and ``python -m csp_sudoku``: :func:`main`, then the exit.

    Where numba is loaded, the interpreter's teardown (freeing numba's and
    LLVM's objects) takes about 0.2 s of CPU, a third of what a run spends
    besides its work; so once the command is done, its standard streams are
    flushed and the process ends at once (``os._exit``), when nothing is left
    running that a normal exit would wait for (a worker process, a thread).
    Files the command wrote are closed by then: every command closes its own.
    """
    try:
        code = main()
    except KeyboardInterrupt:  # a Ctrl-C after main put Python's handler back: a stop too
        code = EXIT_INTERRUPTED if _REPORTED else _stopped()
    if "numba" not in sys.modules or _still_running():
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader gone (see main), a stream closed
            stream.flush()
    os._exit(code)


def _still_running() -> bool:
    """Whether a child process or a thread other than daemons and this one is alive."""
    import multiprocessing
    import threading

    if multiprocessing.active_children():
        return True
    main_thread = threading.main_thread()
    return any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not main_thread)


if __name__ == "__main__":  # pragma: no cover
    entry()
