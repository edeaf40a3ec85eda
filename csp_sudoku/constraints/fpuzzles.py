"""Reading and writing f-puzzles (https://www.f-puzzles.com) puzzles.

An f-puzzles puzzle is a JSON object: ``size``, ``grid`` (rows of cell
objects with ``value``, ``given`` and ``region``) and one field per kind of
constraint (``killercage``, ``thermometer`` ...: see
:data:`csp_sudoku.constraints.registry.KINDS`), plus ``negative`` (which dot
kinds are negative) and the texts ``title``, ``author`` and ``ruleset``. A
``?load=`` link carries the object compressed with LZ-string's
``compressToBase64``.

Every field is read or refused: a field the engine does not know is an error
naming it, never dropped. An error names the field and the index of the
entry (``killercage[3]: cell R10C1 is outside the 9x9 grid``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from csp_sudoku.constraints._pairs import NoDot
from csp_sudoku.constraints.base import Constraint
from csp_sudoku.constraints.puzzle import VariantPuzzle
from csp_sudoku.constraints.registry import KINDS
from csp_sudoku.core.errors import ArgumentError, ParseError
from csp_sudoku.core.geometry import STANDARD_BOXES, Geometry
from csp_sudoku.core.puzzle import Puzzle

#: The texts of a puzzle that are kept as they are: f-puzzles field -> attribute.
TEXTS = {"title": "title", "author": "author", "ruleset": "rules"}
#: The names of the ``negative`` list -> the negative kinds.
NEGATIVES = {"difference": "-difference", "ratio": "-ratio", "xv": "-xv"}
#: The fields of a grid cell.
CELL_FIELDS = frozenset({"value", "given", "region"})
#: The largest grid f-puzzles draws.
LARGEST = 16


def parse_fpuzzles(text: str) -> VariantPuzzle:
    """A puzzle from f-puzzles JSON text, a ``?load=`` link, or the compressed data alone.

    Raises:
        ParseError: malformed JSON or data, or a puzzle the engine cannot read
            (the message names the field and the entry).
    """
    if not isinstance(text, str):  # None said "no attribute 'strip'"; bytes a TypeError
        raise ParseError(
            "f-puzzles data is text (JSON, a '?load=' link or its data), "
            f"got {type(text).__name__} {text!r:.40}"
        )
    text = text.strip()
    # JSON text (an array too: refused as one by from_fpuzzles), else a link or its data
    json_text = text.startswith(("{", "["))
    return from_fpuzzles(_json(text if json_text else decompress(text)))


def _json(text: str) -> Any:
    """The JSON value of ``text``; any failure to read it (bad syntax, an integer
    past Python's digit limit, nesting past the recursion limit) is a ParseError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ParseError(f"malformed JSON: {err.msg}", line=err.lineno, column=err.colno) from None
    except (ValueError, RecursionError) as err:
        raise ParseError(f"malformed JSON: {err}") from None


def decompress(link: str) -> str:
    """The JSON text of a ``?load=`` link (or of its data alone), decompressed.

    Raises:
        ParseError: data that is not LZ-string base64 of a JSON text.
    """
    m = re.search(r"[?&]load=([^&#\s]*)", link)
    data = m.group(1) if m else link
    data = data.replace("%2B", "+").replace("%2F", "/").replace("%3D", "=").replace(" ", "+")
    if not data or not re.fullmatch(r"[A-Za-z0-9+/=]+", data):
        raise ParseError("not f-puzzles data: a '?load=' link or its base64 text was expected")
    try:
        text = _lz().decompressFromBase64(data)
    except Exception:
        text = None
    if not isinstance(text, str) or not text.lstrip().startswith("{"):
        raise ParseError("the '?load=' data does not decompress to an f-puzzles object")
    try:
        json.loads(text)
    except json.JSONDecodeError as err:
        raise ParseError(f"the '?load=' data holds malformed JSON: {err.msg}") from None
    return text


def compress(puzzle: VariantPuzzle) -> str:
    """The ``?load=`` data of ``puzzle`` (LZ-string ``compressToBase64`` of its JSON)."""
    text = json.dumps(to_fpuzzles(puzzle), separators=(",", ":"))
    return str(_lz().compressToBase64(text))


def link(puzzle: VariantPuzzle) -> str:
    """An f-puzzles link that opens ``puzzle``."""
    return "https://www.f-puzzles.com/?load=" + compress(puzzle)


def _lz() -> Any:
    import lzstring  # type: ignore[import-untyped]  # no type hints published

    return lzstring.LZString()


def from_fpuzzles(data: Any) -> VariantPuzzle:
    """A puzzle from a decoded f-puzzles object.

    Raises:
        ParseError: an unknown field, a bad entry, a cell outside the grid ...
    """
    if isinstance(data, list):  # read as JSON Lines, its lines were nonsense
        raise ParseError(
            "a JSON array, not an f-puzzles object: for several puzzles, write one "
            "object a line (JSON Lines, a .jsonl file)"
        )
    if not isinstance(data, dict):
        raise ParseError("an f-puzzles puzzle is a JSON object")
    known = {
        "size",
        "grid",
        "negative",
        "solution",
        *TEXTS,
        *(k for k in KINDS if not k.startswith("-")),
    }
    for key in data:
        if key not in known:
            raise ParseError(f"unknown field {key!r}: this engine cannot solve it")
    for key in ("size", "grid"):  # said as missing, not as a bad value None
        if key not in data:
            raise ParseError(
                f"{key}: the field {key!r} is missing (an f-puzzles puzzle has 'size' and 'grid')"
            )
    size = data["size"]
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= LARGEST:
        raise ParseError(f"size: a whole number from 1 to {LARGEST} was expected, not {size!r}")
    geometry, givens = _read_grid(data["grid"], size)
    constraints: list[Constraint] = []
    for kind, cls in KINDS.items():
        if kind in data:
            constraints.extend(cls.read(data[kind], geometry))
    constraints.extend(_read_negative(data.get("negative", []), constraints))
    texts = {}
    for key, attr in TEXTS.items():
        value = data.get(key, "")
        if not isinstance(value, str):
            raise ParseError(f"{key}: a text was expected, not {value!r}")
        texts[attr] = value
    puzzle = VariantPuzzle(Puzzle(givens, geometry), tuple(constraints), **texts)
    _check_solution(data.get("solution"), puzzle)
    return puzzle


def _check_solution(value: Any, puzzle: VariantPuzzle) -> None:
    """The setter's solution, which f-puzzles saves with a puzzle (a flat list of digits,
    row by row): read only to be checked. One that breaks the puzzle's rules means a
    damaged file, or a constraint read otherwise than its setter meant it: never
    passed over in silence. An empty list or null is no solution given."""
    if value is None or value == []:
        return
    n = puzzle.geometry.size
    if (
        not isinstance(value, list)
        or len(value) != n * n
        or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n for v in value)
    ):
        raise ParseError(f"solution: a list of {n * n} digits from 1 to {n} was expected")
    if not puzzle.keeps(value):
        raise ParseError(
            "solution: the setter's solution breaks the puzzle's givens, units or "
            "constraints (a damaged file, or a constraint this engine reads otherwise)"
        )


def _read_negative(value: Any, constraints: list[Constraint]) -> list[Constraint]:
    if not isinstance(value, list):
        raise ParseError("negative: a list of 'difference', 'ratio', 'xv' was expected")
    out: list[Constraint] = []
    seen = set()
    for i, name in enumerate(value):
        if not isinstance(name, str) or name not in NEGATIVES:
            raise ParseError(f"negative[{i}]: {name!r} is not one of {', '.join(NEGATIVES)}")
        if name in seen:
            continue
        seen.add(name)
        cls = KINDS[NEGATIVES[name]]
        assert issubclass(cls, NoDot)
        out.append(cls.of(constraints))
    return out


def _read_grid(rows: Any, size: int) -> tuple[Geometry, Any]:
    """The geometry (standard boxes, or the cells' ``region`` labels) and the givens."""
    if not isinstance(rows, list) or len(rows) != size:
        raise ParseError(f"grid: a list of {size} rows was expected")
    givens = np.zeros((size, size), dtype=np.int8)
    labels = _box_labels(size)
    has_regions = False
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != size:
            raise ParseError(f"grid[{r}]: a list of {size} cells was expected")
        for c, cell in enumerate(row):
            where = f"grid[{r}][{c}]"
            if not isinstance(cell, dict):
                raise ParseError(f"{where}: a cell object was expected")
            for key in cell:
                if key not in CELL_FIELDS:
                    raise ParseError(f"{where}: unknown field {key!r}")
            value = cell.get("value")
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= size:
                    raise ParseError(f"{where}: value {value!r} is not a digit 1-{size}")
                givens[r, c] = value
            if not isinstance(cell.get("given", False), bool):
                raise ParseError(f"{where}: given must be true or false")
            if "region" in cell:
                region = cell["region"]
                if (
                    isinstance(region, bool)
                    or not isinstance(region, int)
                    or not 0 <= region < size
                ):
                    raise ParseError(f"{where}: region {region!r} is not 0-{size - 1}")
                has_regions = True
                labels[r * size + c] = region
    if not has_regions and size in STANDARD_BOXES:
        return Geometry.standard(size), givens
    if -1 in labels:
        raise ParseError(
            f"grid: a {size}x{size} grid has no standard boxes; give every cell a region"
        )
    try:
        return Geometry.jigsaw(labels), givens
    except ValueError as err:
        raise ParseError(f"grid: the regions are not a jigsaw: {err}") from None


def _box_labels(size: int) -> list[int]:
    """The standard box of every cell, row-major (-1 everywhere when the size has none)."""
    if size not in STANDARD_BOXES:
        return [-1] * (size * size)
    br, bc = STANDARD_BOXES[size]
    return [(r // br) * (size // bc) + c // bc for r in range(size) for c in range(size)]


def size_refusal(size: int) -> str | None:
    """Why a ``size x size`` grid cannot be written to f-puzzles (the reader takes 1 to
    :data:`LARGEST`: a larger one would be written as an object nobody reads back), or
    None when it can."""
    if 1 <= size <= LARGEST:
        return None
    return (
        f"a {size}x{size} grid is no f-puzzles grid: f-puzzles grids are 1x1 to {LARGEST}x{LARGEST}"
    )


def to_fpuzzles(puzzle: VariantPuzzle) -> dict[str, Any]:
    """The f-puzzles object of ``puzzle`` (``from_fpuzzles`` reads it back equal).

    Raises:
        ParseError: a geometry with extra units (X, Windoku), which f-puzzles
            writes as constraints: build the puzzle with those constraints instead;
            or a grid larger than f-puzzles draws (:func:`size_refusal`).
    """
    if not isinstance(puzzle, VariantPuzzle):
        raise ArgumentError(
            f"to_fpuzzles takes a VariantPuzzle (from_fpuzzles, or VariantPuzzle(grid, "
            f"constraints)), not {type(puzzle).__name__}"
        )
    g = puzzle.geometry
    if g.extra_units:
        raise ParseError(
            f"geometry {g.name}: extra units are not an f-puzzles grid; "
            "use the diagonal or extra-region constraints"
        )
    n = g.size
    refused = size_refusal(n)
    if refused is not None:
        raise ParseError(refused)
    boxes = _box_labels(n)
    labels = list(g.regions) if g.regions is not None else boxes
    cells = puzzle.puzzle.cells
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            cell: dict[str, Any] = {}
            v = int(cells[r * n + c])
            if v:
                cell = {"value": v, "given": True}
            # a jigsaw names every region, even one that is a standard box: read back,
            # a grid with no region at all is the standard geometry, not this jigsaw
            if g.regions is not None:
                cell["region"] = int(labels[r * n + c])
            row.append(cell)
        grid.append(row)
    out: dict[str, Any] = {"size": n, "grid": grid}
    for key, attr in TEXTS.items():
        if getattr(puzzle, attr):
            out[key] = getattr(puzzle, attr)
    negative = []
    for kind, cls in KINDS.items():
        items = [c for c in puzzle.constraints if c.kind == kind]
        if not items:
            continue
        if kind.startswith("-"):
            negative.append(kind[1:])
        else:
            out[kind] = cls.write(items)
    if negative:
        out["negative"] = negative
    return out
