"""The text rows of ``csp-sudoku check`` for a chunk of puzzles, in one compiled call (numba).

A chunk of bare puzzle lines is counted by one ``count_many`` call; its rows,
``file:line<TAB>verdict<TAB>puzzle`` (then the count when ``--limit`` is not
2, ``3+`` at the limit, and ``  # reason`` for a puzzle without a solution), were built by Python
string formatting, about as long per line as a third of the 9x9 kernel's
count. :func:`text_rows` writes them all into one byte array instead; the
caller decodes it once. Everything that depends on the text of the row is
given as bytes (the file name, the three verdict words, the cell symbols, the
reasons, which Python works out for the few puzzles that need one), so the
kernel only copies bytes and writes line numbers and counts in decimal.

Arguments are read-only arrays of fixed dtypes and ``int64`` numbers (see
:func:`~csp_sudoku._kernels.frozen`), so each kernel compiles once (see :func:`csp_sudoku._kernels.init_numba_target` for
why every kernel module starts numba's target itself), and it copies element
by element: a slice assignment between arrays would make numba compile its
shape-mismatch message.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels import frozen as frozen
from csp_sudoku._kernels import init_numba_target

init_numba_target()  # numba's CPU target without its BLAS probe (see there)


#: Room for the decimal digits of an ``int64`` that is not negative.
_MAX_DIGITS = 20


@njit(cache=True)
def _put_bytes(out, k, src):  # type: ignore[no-untyped-def]
    """Copy ``src`` to ``out[k]``; returns the index after it.

    Through a view that starts at ``k``: indices counted from 0 are known not
    to be negative, so LLVM drops numba's negative-index test and vectorises
    the copy (``out[k + j]`` is about three times slower).
    """
    dst = out[k:]
    for j in range(src.size):
        dst[j] = src[j]
    return k + src.size


@njit(cache=True)
def _decimal(digits, value):  # type: ignore[no-untyped-def]
    """Write ``value >= 0`` in decimal (ASCII) at the end of ``digits``; returns where it starts."""
    start = digits.size
    while True:
        start -= 1
        digits[start] = 48 + value % 10
        value //= 10
        if value == 0:
            return start


@njit(cache=True)
def _next_decimal(digits, start):  # type: ignore[no-untyped-def]
    """Add one to the decimal number ``digits[start:]`` (ASCII); returns its new start."""
    j = digits.size - 1
    while digits[j] == 57:  # a 9 carries
        digits[j] = 48
        j -= 1
        if j < start:
            digits[j] = 49
            return j
    digits[j] += 1
    return start


@njit(cache=True, nogil=True)
def text_rows(prefix, first_line, cells, counts, words, word_ends, shown_limit, notes, note_ends):  # type: ignore[no-untyped-def]
    """The text rows of a chunk's puzzles, as bytes (a ``uint8`` array).

    Args:
        prefix: the file name then ``:``, encoded.
        first_line: the line number of the first puzzle (the next are consecutive).
        cells: the ``(n, ncells)`` puzzles (``int8``), written as
            :func:`csp_sudoku.core.puzzle.format_line` writes them: ``.`` for
            an empty cell, ``1``-``9``, then ``A`` for 10 and on.
        counts: their counts (``int64``, capped at the limit).
        words: the verdict words ``none``, ``unique``, ``multiple``, one after
            the other; ``word_ends`` (``int64``, 3 entries) where each ends.
        shown_limit: the limit, to write the count after the verdict (with ``+``
            when it is at the limit: at least that many), or 0 not to
            (``--limit`` 2).
        notes: what follows the puzzle of each row (``  # reason``, or nothing),
            one after the other; ``note_ends`` (``int64``, n entries) where each ends.
    """
    n, ncells = cells.shape
    per_row = prefix.size + 1 + words.size + 2 + 2 * _MAX_DIGITS + ncells + 1
    out = np.empty(n * per_row + notes.size, np.uint8)
    line = np.empty(_MAX_DIGITS, np.uint8)  # the line number, in decimal at line[start:]
    start = _decimal(line, first_line)
    count_digits = np.empty(_MAX_DIGITS, np.uint8)
    k = 0
    for i in range(n):
        k = _put_bytes(out, k, prefix)
        k = _put_bytes(out, k, line[start:])
        start = _next_decimal(line, start)
        out[k] = 9
        count = counts[i]
        w = min(count, 2)
        k = _put_bytes(out, k + 1, words[word_ends[w - 1] if w else 0 : word_ends[w]])
        if shown_limit:
            out[k] = 32
            k = _put_bytes(out, k + 1, count_digits[_decimal(count_digits, count) :])
            if count >= shown_limit:
                out[k] = 43  # +
                k += 1
        out[k] = 9
        row = out[k + 1 :]
        for c in range(ncells):
            d = cells[i, c]
            row[c] = 46 if d == 0 else (48 + d if d < 10 else 55 + d)
        k = _put_bytes(out, k + 1 + ncells, notes[note_ends[i - 1] if i else 0 : note_ends[i]])
        out[k] = 10
        k += 1
    return out[:k]


@njit(cache=True, nogil=True)
def plain_cells(rows, ncells, crlf, size, values):  # type: ignore[no-untyped-def]
    """The cells of a chunk of bare puzzle lines, in one pass over its bytes.

    ``rows`` is the chunk as an ``(n, width)`` ``uint8`` array, one line per
    row; ``values`` maps a byte to its cell value (255: no symbol). Returns
    ``(ok, cells)``: ``ok`` is 0 when some line does not end in ``\\n``
    (``\\r\\n`` when ``crlf`` is 1) or holds a byte that is no symbol of a grid
    of ``size`` digits (``cells`` is then unfinished). What
    :func:`csp_sudoku.core.io.numpy_cells` does with whole-array operations,
    which make and read several temporary arrays the size of the chunk.
    """
    n, width = rows.shape
    cells = np.empty((n, ncells), np.int8)
    for i in range(n):
        line = rows[i]
        if line[width - 1] != 10 or (crlf and line[ncells] != 13):
            return 0, cells
        row = cells[i]
        top = 0
        for c in range(ncells):
            v = values[line[c]]
            top = max(top, v)
            row[c] = v
        if top > size:
            return 0, cells
    return 1, cells
