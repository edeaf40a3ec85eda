"""pencilmark's side of ``bench_pencilmark.py``: run by the Python of pencilmark's own environment.

Never imported by csp_sudoku or its benchmarks (they start it as a process),
and it imports nothing of csp_sudoku: pencilmark is a black box driven through
its public API (``pencilmark.load``, ``pencilmark.solve``,
``pencilmark.sources.fpuzzles.to_puzzle``, ``pencilmark.gen.generate``).

Two modes, JSON in and out:

* ``check``: reads JSON Lines on stdin, ``{"id": ..., "data": F-PUZZLES OBJECT}``,
  and answers each with one line, flushed at once: ``{"id", "verdict"
  (unique, multiple, none, unsupported, undecided or error), "why",
  "translate_cpu", "load_cpu", "solve_cpu", "solve_wall"}`` (seconds). The
  f-puzzles object goes through pencilmark's f-puzzles reader, except its
  slow thermometers, which its reader refuses: each becomes a line rule of
  kind ``slow_thermo`` in the puzzle JSON that the reader made. The
  uniqueness check timed is ``pencilmark.solve`` of the loaded puzzle: a
  solution means unique, ``NotUnique`` multiple, ``NoSolution`` none.
* ``generate SPEC_JSON``: one ``pencilmark.gen.generate(SPEC)``; prints
  ``{"ok", "cpu", "wall", "info" or "why"}``. The caller kills the process
  at its budget (the generator's own ``time_limit`` is not always kept).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def _to_pencilmark(data: dict[str, Any]) -> dict[str, Any]:
    """The f-puzzles object as pencilmark's puzzle JSON (slow thermometers added as line rules)."""
    from pencilmark.sources import fpuzzles

    data = dict(data)
    slow = data.pop("slowthermometer", [])
    puzzle: dict[str, Any] = fpuzzles.to_puzzle(data, fetch=False)
    for entry in slow:
        for line in entry["lines"]:
            rule = {"type": "line", "kind": "slow_thermo", "cells": [c.lower() for c in line]}
            puzzle.setdefault("rules", []).append(rule)
    return puzzle


def check(line: str) -> dict[str, Any]:
    """One request of the ``check`` mode answered."""
    import pencilmark

    request = json.loads(line)
    out: dict[str, Any] = {"id": request.get("id"), "verdict": "error", "why": ""}
    t = time.process_time()
    try:
        pj = _to_pencilmark(request["data"])
    except Exception as err:  # its reader refuses a kind: say so, go on
        out.update(verdict="unsupported", why=f"{type(err).__name__}: {err}"[:300])
        return out
    out["translate_cpu"] = time.process_time() - t
    t = time.process_time()
    try:
        puzzle = pencilmark.load(pj)
    except Exception as err:
        out.update(verdict="unsupported", why=f"load: {type(err).__name__}: {err}"[:300])
        return out
    out["load_cpu"] = time.process_time() - t
    t, w = time.process_time(), time.perf_counter()
    try:
        pencilmark.solve(puzzle)
        out["verdict"] = "unique"
    except pencilmark.NotUnique:
        out["verdict"] = "multiple"
    except pencilmark.NoSolution:
        out["verdict"] = "none"
    except pencilmark.Undecided as err:
        out.update(verdict="undecided", why=str(err)[:300])
    except Exception as err:
        out["why"] = f"{type(err).__name__}: {err}"[:300]
    out["solve_cpu"] = time.process_time() - t
    out["solve_wall"] = time.perf_counter() - w
    return out


def generate(spec: dict[str, Any]) -> dict[str, Any]:
    """One puzzle of pencilmark's generator for ``spec``, with its CPU and wall time."""
    from pencilmark.gen import GenerationFailed
    from pencilmark.gen import generate as make

    t, w = time.process_time(), time.perf_counter()
    try:
        made = make(spec)
        out: dict[str, Any] = {"ok": True, "info": made.get("info", {})}
    except GenerationFailed as err:
        out = {"ok": False, "why": str(err)[:300]}
    out.update(cpu=time.process_time() - t, wall=time.perf_counter() - w)
    return out


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "check":
        import pencilmark  # noqa: F401  (loaded before the first request is timed)

        sys.stdout.write(json.dumps({"ready": True, "version": pencilmark_version()}) + "\n")
        sys.stdout.flush()
        for line in sys.stdin:
            if line.strip():
                sys.stdout.write(json.dumps(check(line), default=str) + "\n")
                sys.stdout.flush()
    elif mode == "generate" and len(sys.argv) == 3:
        sys.stdout.write(json.dumps(generate(json.loads(sys.argv[2])), default=str) + "\n")
    else:
        sys.stderr.write("usage: pencilmark_driver.py check | generate SPEC_JSON\n")
        sys.exit(2)


def pencilmark_version() -> str:
    """The installed pencilmark's version."""
    from importlib.metadata import version

    return version("pencilmark")


if __name__ == "__main__":
    main()
