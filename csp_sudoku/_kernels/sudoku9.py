"""A solution counter for the standard 9x9 grid only: digit-major bit boards (numba).

The generic kernel (:mod:`csp_sudoku._kernels.bitset`) keeps one candidate
mask per cell and reads the geometry from tables, so every step walks lists
of peers and units. This one knows the 9x9 shape and keeps the state the way
the fastest native solvers do, *digit-major*: for each band (three rows) and
digit one 27-bit word, index ``9 * band + digit``, whose bit
``(row % 3) * 9 + col`` is set while the digit is still possible in that
cell; three more words hold the cells of each band not placed yet. A search
state is those 30 integers, copied in one go when the search branches.

Propagation (:func:`_propagate`) is a worklist over the 27 words: a bit mask
of the words changed since they were last read (no snapshots to compare).
Reading a word does, all in bit arithmetic and 512-entry tables:

* **band matching** (box-line reasoning along rows, both ways): inside a
  band the digit sits once in each of the three rows and once in each of the
  three boxes, so its row-by-box occupancy must hold a permutation; a table
  indexed by the 9-bit occupancy keeps the cells of the (row, box) pairs on
  some permutation (none left: a contradiction). This turns a hidden single
  in a box into one in its row;
* **row singles**: a row of the band with one cell left for the digit places
  the digit there (the cell is cleared in the band's other eight words and
  leaves the unplaced cells);
* **stack singles and pairs** (box-line reasoning along columns): in a stack
  the digit sits once in each band and once in each column. A band left with
  one column of the stack takes it from the other two bands; two bands left
  with the same two columns take both from the third. With the band matching
  this places hidden singles of columns too.

Each write that changes a word marks it for reading again. When no word is
marked, a once/twice count over the nine words of each band gives the
**naked singles** (placed by clearing the rest of the cell's row and box in
the digit's word, which the next reading turns into a row single) and the
cells with no candidate left (a contradiction), with no loop over cells.

Search branches on a cell with two candidates (three when there is none),
taking among those the one whose placement removes the most candidates from
its row, box and column (:func:`_score`); depth-first, one saved state per
level; it stops at ``limit`` solutions.

Entry points: :func:`count_cells`, :func:`count_batch`, :func:`count_text`
(from the bytes of a line), :func:`removable` and :func:`reduce` (the
generator's removal questions), :func:`nodes_batch` (search sizes, for
benchmarks), and :func:`count_part` and :func:`count_rows`, the counts
taken in slices: a count to a big limit can run for hours, and a compiled
call sees no signal, so those return every ``SLICE9`` branch nodes with
their place kept in a workspace of the caller's, which looks whether to stop
and calls again. Return conventions (as in the generic kernel,
:class:`~csp_sudoku._kernels.status.CountEnd`): counts are ``>= 0``;
``BAD_VALUE`` (-1) means a cell value outside ``0..9``; ``GAVE_UP`` (-2) that
the search gave up after its node budget; ``NOT_A_SYMBOL`` (-3, text only) a
byte that is no symbol; ``PAUSED`` (-5) a slice spent.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.bitset import (
    _ctpop,
    _cttz,
    ended,
    next_alternative,
    pause_at,
    resume_at,
    rows_in_slices,
)
from csp_sudoku._kernels.status import (
    AT_NODES,
    AT_PAUSED,
    BAD_VALUE,
    CONTROL,
    GAVE_UP,
    NOT_A_SYMBOL,
    WORKSPACE9,
)

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

#: Words in a state: 27 band-digit boards (index ``9 * band + digit``), then
#: the unplaced cells of each band.
_UNPLACED = 27
_WORDS = 30
_ALL27 = (1 << 27) - 1
#: Every one of the 27 words marked for reading.
_ALL_WORDS = (1 << 27) - 1
#: A node count no search reaches: the pause of a search taken in one go.
_NEVER = 1 << 62


def _tables() -> tuple[NDArray[np.int64], ...]:
    """The constant tables the kernel reads (built once, at import, with numpy: about 1 ms)."""
    m = np.arange(512, dtype=np.int64)  # every 9-bit value
    ones = sum(((m >> j) & 1) for j in range(9))
    # a 9-bit row of a band word -> bits 0-2: which of its three minirows hold a
    # bit (its boxes); bits 3-11: the row itself when it holds one bit, else 0
    rowt = np.where(ones == 1, m, 0) << 3
    for k in range(3):
        rowt |= (((m >> (3 * k)) & 7) != 0).astype(np.int64) << k
    # band matching: occupancy bit r*3+k (row r of the band meets box k) -> the
    # cells of the (row, box) pairs that lie on some permutation
    pairs9 = np.zeros(512, np.int64)
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        pm = sum(1 << (r * 3 + perm[r]) for r in range(3))
        pairs9 |= np.where(m & pm == pm, pm, 0)
    keep = np.zeros(512, np.int64)
    for q in range(9):
        keep |= ((pairs9 >> q) & 1) * (7 << ((q // 3) * 9 + 3 * (q % 3)))
    # a 9-bit set of columns -> those columns in all three rows of a band word
    colrep = m | (m << 9) | (m << 18)
    # the columns a band's word uses -> what the other bands of its digit keep:
    # stack1, without the columns of a stack where it uses one column only;
    # stack2 (given the columns two bands use together), without the columns of
    # a stack where they use two only
    stack1 = np.full(512, _ALL27, np.int64)
    stack2 = np.full(512, _ALL27, np.int64)
    for s in range(3):
        part = (m >> (3 * s)) & 7
        n = sum(((part >> j) & 1) for j in range(3))
        stack1 &= ~np.where(n == 1, colrep[part << (3 * s)], 0)
        stack2 &= ~np.where(n == 2, colrep[part << (3 * s)], 0)
    # for a cell bit of a band: its row and box inside the band, itself excluded
    peer = np.zeros(27, np.int64)
    for bit in range(27):
        r, c = divmod(bit, 9)
        peer[bit] = ((0x1FF << (9 * r)) | (0x1C0E07 << (3 * (c // 3)))) & ~(1 << bit)
    # a 3-bit set of rows (or boxes) of a band -> their cells
    rows3 = np.zeros(8, np.int64)
    boxes3 = np.zeros(8, np.int64)
    for x in range(8):
        for k in range(3):
            if x >> k & 1:
                rows3[x] |= 0x1FF << (9 * k)
                boxes3[x] |= 0x1C0E07 << (3 * k)
    return rowt, keep, colrep, stack1, stack2, peer, rows3, boxes3


def _cell_tables() -> tuple[NDArray[np.int64], ...]:
    """Cell-indexed tables of the generator's removal loop (:func:`reduce`).

    The 20 peers of each of the 81 cells (same row, column or box), in order;
    the 9 cells of each of the 27 units (rows, columns, boxes); the 3 units of
    each cell; and each cell's units as bits of a 27-bit word.
    """
    cell = np.arange(81)
    r, c = cell // 9, cell % 9
    b = (r // 3) * 3 + c // 3
    same = (r[:, None] == r) | (c[:, None] == c) | (b[:, None] == b)
    np.fill_diagonal(same, False)
    peers = np.nonzero(same)[1].astype(np.int64).reshape(81, 20)
    labels = np.stack([r, 9 + c, 18 + b], axis=1).astype(np.int64)  # (81, 3)
    units = np.array([np.flatnonzero((labels == u).any(axis=1)) for u in range(27)], np.int64)
    bits = (np.int64(1) << labels).sum(axis=1).astype(np.int64)
    return peers, units, labels, bits


_PEERS81, _UNIT_CELLS, _CELL_UNITS, _CELL_UNIT_BITS = _cell_tables()


def _text_values() -> NDArray[np.int8]:
    """Text byte -> 9x9 cell value: the digits 1-9, 0 for a blank, -1 for no symbol."""
    table = np.full(256, -1, np.int8)
    for ch in ".0-*_":  # the blanks of csp_sudoku.core.io (a test checks they agree)
        table[ord(ch)] = 0
    for d in range(1, 10):
        table[ord(str(d))] = d
    return table


#: The byte table of :func:`count_text`, compiled in as a constant (an array
#: argument less saves its conversion at every single call).
TEXT_VALUES = _text_values()

(_ROWT, _KEEP, _COLREP, _STACK1, _STACK2, _PEER, _ROWS3, _BOXES3) = _tables()


@njit(cache=True)
def _propagate(st, dirty):  # type: ignore[no-untyped-def]
    """Read the marked words (bit ``i`` of ``dirty``: word ``i``) to a fixed point.

    See the module notes for what a reading does. False on a contradiction
    (``st`` is then partly updated and must be dropped); True at a fixed
    point, where every unplaced cell has two candidates or more.
    """
    while True:
        while dirty:
            i = _cttz(dirty)
            dirty &= dirty - 1
            f = st[i]
            t0 = _ROWT[f & 0x1FF]
            t1 = _ROWT[(f >> 9) & 0x1FF]
            t2 = _ROWT[f >> 18]
            g = f & _KEEP[(t0 & 7) | ((t1 & 7) << 3) | ((t2 & 7) << 6)]
            if g == 0:
                return False
            if g != f:
                st[i] = g
                t0 = _ROWT[g & 0x1FF]
                t1 = _ROWT[(g >> 9) & 0x1FF]
                t2 = _ROWT[g >> 18]
            b = i // 9
            # row singles not placed yet: clear them in the band's other words
            new = ((t0 >> 3) | ((t1 >> 3) << 9) | ((t2 >> 3) << 18)) & st[_UNPLACED + b]
            if new:
                st[_UNPLACED + b] &= ~new
                for j in range(9 * b, 9 * b + 9):
                    o = st[j]
                    n = o & ~new
                    st[j] = n
                    dirty |= (o != n) << j
                st[i] = g  # the word itself keeps its cells
                dirty &= ~(1 << i)
            # stack singles and pairs, towards the digit's other two bands
            p = i + 9 if i < 18 else i - 18
            q = i + 18 if i < 9 else i - 9
            fp = st[p]
            fq = st[q]
            cols = (g | (g >> 9) | (g >> 18)) & 0x1FF
            one = _STACK1[cols]
            gp = fp & one & _STACK2[cols | ((fq | (fq >> 9) | (fq >> 18)) & 0x1FF)]
            gq = fq & one & _STACK2[cols | ((fp | (fp >> 9) | (fp >> 18)) & 0x1FF)]
            st[p] = gp
            st[q] = gq
            dirty |= ((gp != fp) << p) | ((gq != fq) << q)
        # naked singles, and cells left with no candidate
        for b in range(3):
            u = st[_UNPLACED + b]
            if u == 0:
                continue
            once = 0
            twice = 0
            for j in range(9 * b, 9 * b + 9):
                f = st[j]
                twice |= once & f
                once |= f
            if once != _ALL27:
                return False
            single = once & ~twice & u
            if single:
                for j in range(9 * b, 9 * b + 9):
                    x = st[j] & single
                    while x:
                        st[j] &= ~_PEER[_cttz(x)]
                        x &= x - 1
                        dirty |= 1 << j
        if dirty == 0:
            return True


@njit(cache=True, inline="always")
def _clue(st, c, v):  # type: ignore[no-untyped-def]
    """Mark a clue ``v`` (1-9) at cell ``c`` (0-80) in a state being loaded (see :func:`_build`)."""
    r = c // 9
    b = r // 3
    bit = np.int64(1) << ((r - 3 * b) * 9 + c - 9 * r)
    st[9 * b + v - 1] |= bit
    st[_UNPLACED + b] |= bit


@njit(cache=True)
def _build(st):  # type: ignore[no-untyped-def]
    """Turn the clues marked by :func:`_clue` into a propagated state.

    Returns 1 when the clues are consistent so far, 0 when two clash (or
    propagation finds a contradiction). See :func:`_words`.
    """
    if not _words(st) or not _propagate(st, _ALL_WORDS):
        return 0
    return 1


@njit(cache=True)
def _words(st):  # type: ignore[no-untyped-def]
    """Turn the clues marked by :func:`_clue` into words, not propagated; False if two clash.

    On entry each word holds its digit's clue cells and ``st[_UNPLACED + b]``
    the clue cells of band ``b`` (everything else zero). The words are built
    in bulk: each digit's clues clear their rows, boxes and columns, and every
    clue cell keeps only its own digit.
    """
    for d in range(9):
        w0 = st[d]
        w1 = st[9 + d]
        w2 = st[18 + d]
        k0 = (w0 | (w0 >> 9) | (w0 >> 18)) & 0x1FF
        k1 = (w1 | (w1 >> 9) | (w1 >> 18)) & 0x1FF
        k2 = (w2 | (w2 >> 9) | (w2 >> 18)) & 0x1FF
        if (k0 & k1) | (k0 & k2) | (k1 & k2):
            return False  # the digit twice in a column
        cols = _COLREP[k0 | k1 | k2]
        for b in range(3):
            x = st[9 * b + d]
            rows = 0
            boxes = 0
            for k in range(3):
                y = (x >> (9 * k)) & 0x1FF
                if y & (y - 1):
                    return False  # twice in a row
                if y:
                    rows |= 1 << k
                y = x & (0x1C0E07 << (3 * k))
                if y & (y - 1):
                    return False  # twice in a box
                if y:
                    boxes |= 1 << k
            st[9 * b + d] = x | (
                _ALL27 & ~st[_UNPLACED + b] & ~_ROWS3[rows] & ~_BOXES3[boxes] & ~cols
            )
    for b in range(3):
        st[_UNPLACED + b] = _ALL27 & ~st[_UNPLACED + b]
    return True


@njit(cache=True)
def _load(cells, st):  # type: ignore[no-untyped-def]
    """Fill and propagate ``st`` from 81 clue values.

    Returns 1 when the clues are consistent so far, 0 when they clash (or
    propagation finds a contradiction), ``BAD_VALUE`` for a value outside ``0..9``.
    """
    for c in range(81):
        v = cells[c]
        if v < 0 or v > 9:
            return BAD_VALUE
    for i in range(_WORDS):
        st[i] = 0
    for c in range(81):
        v = cells[c]
        if v != 0:
            _clue(st, c, v)
    return _build(st)


@njit(cache=True, inline="always")
def _score(st, b, p):  # type: ignore[no-untyped-def]
    """How many candidates placing a digit at cell bit ``p`` of band ``b`` would remove.

    Summed over the cell's digits: the digit's other places in the cell's row
    and box, and in its column in the other two bands.
    """
    digits = 0
    for d in range(9):
        digits |= ((st[9 * b + d] >> p) & 1) << d
    cm = _COLREP[1 << (p % 9)]
    pm = _PEER[p]
    sc = 0
    while digits:
        d = _cttz(digits)
        digits &= digits - 1
        f = st[9 * b + d]
        sc += _ctpop(f & pm) + _ctpop((st[d] | st[9 + d] | st[18 + d]) & ~f & cm)
    return sc


@njit(cache=True, inline="always")
def _at_least(st, b):  # type: ignore[no-untyped-def]
    """The cells of band ``b`` with two, three and four candidates or more (three masks).

    A count over the nine digit words, kept as bit planes: no loop over cells.
    """
    c1 = 0
    c2 = 0
    c3 = 0
    c4 = 0
    for j in range(9 * b, 9 * b + 9):
        f = st[j]
        c4 |= c3 & f
        c3 |= c2 & f
        c2 |= c1 & f
        c1 |= f
    return c2, c3, c4


@njit(cache=True, inline="always")
def _best_scored(st, b, x, best, best_score):  # type: ignore[no-untyped-def]
    """Among the cells ``x`` (bits) of band ``b``, the one with the highest :func:`_score`.

    Returns ``(cell, score)``, the cell as ``band * 27 + bit``; ``(best,
    best_score)`` when no cell of ``x`` scores higher.
    """
    while x:
        p = _cttz(x)
        x &= x - 1
        sc = _score(st, b, p)
        if sc > best_score:
            best_score = sc
            best = b * 27 + p
    return best, best_score


@njit(cache=True)
def _pick(st, quick):  # type: ignore[no-untyped-def]
    """The branch cell as ``band * 27 + bit``.

    A cell with two candidates (three when no cell has two; the fewest
    otherwise), and among those the one with the highest :func:`_score`: on
    the hardest sets this halves the tree against taking the first such cell.
    With ``quick``, the first cell with two candidates: for the generator's
    removal tests, whose searches all but always end at a first solution (or
    propagation alone answers them), the scoring costs more than it saves.
    """
    best = -1
    best_score = -1
    three = 0
    three_band = 0
    for b in range(3):
        u = st[_UNPLACED + b]
        if u == 0:
            continue
        c2, c3, c4 = _at_least(st, b)
        x = c2 & ~c3 & u
        if quick and x:
            return b * 27 + _cttz(x)
        if x == 0 and three == 0:
            three = c3 & ~c4 & u
            three_band = b
        best, best_score = _best_scored(st, b, x, best, best_score)
    if best >= 0:
        return best
    best, best_score = _best_scored(st, three_band, three, best, best_score)
    if best >= 0:
        return best
    # every unplaced cell has four candidates or more (rare): the fewest, first found
    fewest = 10
    for b in range(3):
        u = st[_UNPLACED + b]
        while u:
            p = _cttz(u)
            u &= u - 1
            n = 0
            for d in range(9):
                n += (st[9 * b + d] >> p) & 1
            if n < fewest:
                fewest = n
                best = b * 27 + p
    return best


@njit(cache=True)
def _write(st, row):  # type: ignore[no-untyped-def]
    """Write the solved state ``st`` as 81 digits into ``row``."""
    for b in range(3):
        for d in range(9):
            f = st[9 * b + d]
            while f:
                row[b * 27 + _cttz(f)] = d + 1
                f &= f - 1


@njit(cache=True)
def _same(st, avoid):  # type: ignore[no-untyped-def]
    """True when the solved state ``st`` equals the grid ``avoid`` (81 digits).

    Cell by cell: the bit of ``avoid``'s digit at the cell is set in the state
    (a solved state has one digit a cell); a cell of ``avoid`` that holds no
    digit 1-9 is never equal.
    """
    for c in range(81):
        v = avoid[c]
        if v < 1 or v > 9:
            return False
        b = c // 27
        if not (st[9 * b + v - 1] >> (c - 27 * b)) & 1:
            return False
    return True


@njit(cache=True)
def _search(st, limit, avoid, out, budget, ws, quick=False, pause=0):  # type: ignore[no-untyped-def]
    """Count solutions (up to ``limit``) from the propagated state ``st``.

    Solutions equal to ``avoid`` (when it has 81 cells) are not counted; the
    first ``out.shape[0]`` counted are written to ``out``. After ``budget``
    branch nodes (when ``budget > 0``) the search gives up and returns ``GAVE_UP``, as
    the generic kernel does. ``ws`` is the workspace from :func:`_workspace`;
    its control word ``AT_NODES`` receives the number of branch nodes visited. ``quick``
    branches on the first cell with two candidates (see :func:`_pick`), for
    searches that mostly end at a first solution.

    With ``pause > 0`` the search stops after ``pause`` more branch nodes and
    returns ``PAUSED``, its place kept in ``ws`` (``st`` holds the node it
    stopped at, a consistent fixed point); a call with the same ``st``, ``ws``
    and arguments goes on from there, so the count of a search taken in
    slices is the count of one made in one go. A long search is run that way
    so that its caller gets control back every few milliseconds.
    """
    stack, cells_, lefts, ctl = ws
    if ctl[AT_PAUSED]:
        nodes, depth, count = resume_at(ctl)
    else:
        count = 0
        depth = 0
        nodes = 0
    stop = nodes + pause if pause > 0 else _NEVER
    while True:
        # st is a consistent fixed point here: branch, or record a solution
        if (st[_UNPLACED] | st[_UNPLACED + 1] | st[_UNPLACED + 2]) == 0:
            if avoid.shape[0] != 81 or not _same(st, avoid):
                if count < out.shape[0]:
                    _write(st, out[count])
                count += 1
                if count >= limit:
                    return ended(ctl, nodes, count)
        else:
            cell = _pick(st, quick)
            b = cell // 27
            p = cell - 27 * b
            left = 0
            for d in range(9):
                left |= ((st[9 * b + d] >> p) & 1) << d
            for i in range(_WORDS):  # a loop, not a slice copy: see below
                stack[depth, i] = st[i]
            cells_[depth] = cell
            lefts[depth] = left
            depth += 1
        # take the next alternative, backtracking as needed
        while True:
            if depth == 0:
                return ended(ctl, nodes, count)
            depth, k, bit = next_alternative(lefts, depth)
            d = _cttz(bit)
            # element by element: a slice assignment brings numba's shape-mismatch
            # message (string formatting), which doubles the first compile of _search
            for i in range(_WORDS):
                st[i] = stack[k, i]
            cell = cells_[k]
            b = cell // 27
            # place d: clear the rest of the cell's row and box in its word, which
            # propagation reads as a row single
            i = 9 * b + d
            st[i] &= ~_PEER[cell - 27 * b]
            nodes += 1
            if nodes > budget > 0:
                return ended(ctl, nodes, GAVE_UP)
            if _propagate(st, np.int64(1) << i):
                if nodes >= stop:  # the slice is spent: keep the place, go on when called
                    return pause_at(ctl, nodes, depth, count)
                break


@njit(cache=True, inline="always")
def _place_clue(st, c, v):  # type: ignore[no-untyped-def]
    """Place ``v`` (1-9) at cell ``c`` (0-80) of a state; the index of the word changed.

    The rest of the cell's row and box is cleared in the digit's word, which
    propagation reads as a row single (as the search places its guesses).
    """
    r = c // 9
    b = r // 3
    i = 9 * b + v - 1
    st[i] &= ~_PEER[(r - 3 * b) * 9 + c - 9 * r]
    return i


@njit(cache=True, inline="always")
def _open(st):  # type: ignore[no-untyped-def]
    """Make ``st`` the state of no clues: every digit possible everywhere, nothing placed."""
    for i in range(_WORDS):
        st[i] = _ALL27


@njit(cache=True, inline="always")
def _meet(st, a, b):  # type: ignore[no-untyped-def]
    """``st`` = the word-by-word intersection of the propagated states ``a`` and ``b``.

    For clue sets ``A`` and ``B`` the intersection holds every solution of
    ``A | B``; returns the words where it differs from ``a`` (as bits), the
    only ones :func:`_propagate` must read to bring it to the state of
    ``A | B``: every other word and its rules are as in ``a``, a fixed point.
    """
    dirty = 0
    for i in range(27):
        x = a[i] & b[i]
        st[i] = x
        dirty |= (x != a[i]) << i
    for i in range(27, _WORDS):
        st[i] = a[i] & b[i]
    return dirty


@njit(cache=True, inline="always")
def _bar(st, c, v):  # type: ignore[no-untyped-def]
    """Remove digit ``v`` (1-9) from cell ``c`` (0-80) of ``st``; the index of the word changed."""
    r = c // 9
    b = r // 3
    i = 9 * b + v - 1
    st[i] &= ~(np.int64(1) << ((r - 3 * b) * 9 + c - 9 * r))
    return i


@njit(cache=True)
def _views(mem):  # type: ignore[no-untyped-def]
    """A state and the search workspace, as views of ``mem`` (``WORKSPACE9`` words).

    The workspace: saved states, branch cells and digits left per level, and
    the control words (``AT_NODES`` ... of :mod:`~csp_sudoku._kernels.status`):
    the node count, and the place of a paused search. A search taken in slices
    keeps all of it in an array of its caller's between two calls.
    """
    st = mem[:_WORDS]
    stack = mem[_WORDS : _WORDS + 82 * _WORDS].reshape((82, _WORDS))
    cells_ = mem[_WORDS + 82 * _WORDS : _WORDS + 82 * _WORDS + 82]
    lefts = mem[_WORDS + 82 * _WORDS + 82 : _WORDS + 82 * _WORDS + 164]
    ctl = mem[_WORDS + 82 * _WORDS + 164 : _WORDS + 82 * _WORDS + 164 + CONTROL]
    return st, (stack, cells_, lefts, ctl)


@njit(cache=True)
def _workspace():  # type: ignore[no-untyped-def]
    """:func:`_views` of a new allocation, with no search paused in it.

    One allocation: a single call (``is_unique(str)``) pays for one instead of five.
    """
    st, ws = _views(np.empty(WORKSPACE9, np.int64))
    ctl = ws[3]
    for i in range(CONTROL):
        ctl[i] = 0
    return st, ws


@njit(cache=True)
def _count_workspace():  # type: ignore[no-untyped-def]
    """:func:`_workspace`, and the ``avoid`` and ``out`` of a search that only
    counts: no grid to avoid, no room for solutions."""
    st, ws = _workspace()
    return st, ws, np.empty(0, np.int8), np.empty((0, 81), np.int8)


@njit(cache=True)
def _count(cells, limit, avoid, out, budget, st, ws, pause):  # type: ignore[no-untyped-def]
    """:func:`count_part` on a state and workspace (loads ``cells`` unless a search is paused)."""
    if ws[3][AT_PAUSED] == 0:
        ok = _load(cells, st)
        if ok <= 0:
            return ok
    return _search(st, limit, avoid, out, budget, ws, False, pause)


@njit(cache=True)
def count_cells(cells, limit, avoid, out, budget):  # type: ignore[no-untyped-def]
    """Solutions of the 81 clues ``cells`` (0 = empty), up to ``limit``.

    Solutions equal to ``avoid`` (if it has 81 cells) are not counted; the
    first ``out.shape[0]`` are written to ``out``. Returns ``BAD_VALUE`` for a bad value,
    ``GAVE_UP`` when the search gave up after ``budget`` branch nodes.
    """
    st, ws = _workspace()
    return _count(cells, limit, avoid, out, budget, st, ws, 0)


@njit(cache=True)
def count_part(cells, limit, avoid, out, budget, mem, pause):  # type: ignore[no-untyped-def]
    """:func:`count_cells` taken in slices of ``pause`` branch nodes (0: in one go).

    ``mem`` is the search's workspace (``WORKSPACE9`` words, zeros for a new
    search). Returns what :func:`count_cells` returns, or ``PAUSED`` when the
    slice is spent: call again with the same arguments to go on (the
    solutions written to ``out`` so far stay). The Python side's loop is
    :func:`csp_sudoku.core.deadline.in_slices`.
    """
    st, ws = _views(mem)
    return _count(cells, limit, avoid, out, budget, st, ws, pause)


@njit(cache=True)
def count_text(raw, limit, budget):  # type: ignore[no-untyped-def]
    """Solutions, up to ``limit``, of a puzzle given as its 81 text bytes (``bytes``).

    Each byte goes through :data:`TEXT_VALUES`; a byte that is no symbol gives
    ``NOT_A_SYMBOL``, and the caller takes its full parser (which explains what is wrong).
    This lets ``is_unique(str)`` skip building a cell array: the clues go
    from the bytes into the state. ``GAVE_UP``: gave up after ``budget`` nodes.
    """
    st, ws = _workspace()
    for i in range(_WORDS):
        st[i] = 0
    for c in range(81):
        v = TEXT_VALUES[raw[c]]
        if v != 0:
            if v < 0:
                return NOT_A_SYMBOL
            _clue(st, c, v)
    if _build(st) == 0:
        return 0
    return _search(st, limit, np.empty(0, np.int8), np.empty((0, 81), np.int8), budget, ws)


@njit(cache=True)
def _count_row(row, pause, state):  # type: ignore[no-untyped-def]
    """:func:`count_part` of one row of a batch (see
    :func:`~csp_sudoku._kernels.bitset.rows_in_slices`)."""
    limit, budget, st, ws, avoid, out = state
    return _count(row, limit, avoid, out, budget, st, ws, pause)


_rows = rows_in_slices(_count_row)


@njit(cache=True, nogil=True)
def count_batch(batch, limit, budget):  # type: ignore[no-untyped-def]
    """Counts (capped at ``limit``) for every row of an ``(n, 81)`` batch.

    ``BAD_VALUE`` marks a row with a bad value, ``GAVE_UP`` a row whose search gave up.
    """
    counts = np.empty(batch.shape[0], np.int64)
    st, ws, avoid, out = _count_workspace()
    _rows(batch, counts, ws[3], 0, (limit, budget, st, ws, avoid, out))
    return counts


@njit(cache=True, nogil=True)
def count_rows(batch, limit, budget, counts, mem, pause):  # type: ignore[no-untyped-def]
    """:func:`count_batch` taken in slices of about ``pause`` branch nodes (0: in one go).

    Writes the counts into ``counts`` (one per row) and returns the number of
    rows counted so far: below ``n`` when the slice is spent (a row's search
    paused, or the rows so far took ``pause`` nodes and one each), then call
    again with the same arguments to go on. ``mem`` is the workspace
    (``WORKSPACE9`` words, zeros for a new batch).
    """
    st, ws = _views(mem)
    avoid, out = np.empty(0, np.int8), np.empty((0, 81), np.int8)  # none to skip, none kept
    return _rows(batch, counts, ws[3], pause, (limit, budget, st, ws, avoid, out))


@njit(cache=True)
def removable(cells, known, budget):  # type: ignore[no-untyped-def]
    """The clue cells whose removal alone keeps ``known`` the only solution.

    ``known`` must be the unique solution of ``cells``; as in the generic
    kernel, each test searches for any solution of the clues less clue ``c``
    with ``c`` barred from ``known[c]``. The clues less ``c`` are those before
    ``c`` and those after it: their propagated states are built once, clue by
    clue from each end, and each test starts from the intersection of two
    (:func:`_meet`) instead of loading 80 clues. (Clues that clash, which have
    no such states, are loaded less one clue for each test, which gives the
    answers of the clues as given.) Returns the cell indices, or a
    one-element ``[BAD_VALUE]`` for a bad cell value or ``[GAVE_UP]`` when a search gave up.
    """
    st, ws, avoid, out = _count_workspace()
    res = np.empty(81, np.int64)
    nres = 0
    ok = _load(cells, st)
    if ok < 0:
        res[0] = BAD_VALUE
        return res[:1]
    consistent = ok > 0
    # before[c]: the clues in cells 0 .. c-1; after[c]: those in cells c+1 .. 80
    # (consistent clues: no propagation here meets a contradiction)
    before = np.empty((81, _WORDS), np.int64)
    after = np.empty((81, _WORDS), np.int64)
    if consistent:
        _open(before[0])
        for c in range(80):
            _clue_state(before[c + 1], before[c], c, cells[c])
        _open(after[80])
        for c in range(79, -1, -1):
            _clue_state(after[c], after[c + 1], c + 1, cells[c + 1])
    work = cells.copy()
    for c in range(81):
        v = cells[c]
        if v == 0:
            continue
        dirty = 0
        if consistent:
            dirty = _meet(st, after[c], before[c])
        else:
            work[c] = 0
            ok = _load(work, st)
            work[c] = v
        if ok > 0:
            dirty |= np.int64(1) << _bar(st, c, v)
            if _propagate(st, dirty):
                found = _search(st, 1, avoid, out, budget, ws, True)
                if found == GAVE_UP:
                    res[0] = GAVE_UP
                    return res[:1]
                if found > 0:
                    continue
        res[nres] = c
        nres += 1
    return res[:nres]


@njit(cache=True, inline="always")
def _clue_state(st, prev, c, v):  # type: ignore[no-untyped-def]
    """``st`` = the propagated state ``prev`` with clue ``v`` at cell ``c`` (0 = none) added."""
    for i in range(_WORDS):
        st[i] = prev[i]
    if v != 0:
        _propagate(st, np.int64(1) << _place_clue(st, c, v))


@njit(cache=True, inline="always")
def _single(work, holds, c, v):  # type: ignore[no-untyped-def]
    """True when the empty cell ``c`` must hold ``v`` by a naked or hidden single of ``work``.

    Naked: the peers of ``c`` hold the eight other digits. Hidden: in one of
    the units of ``c`` every other cell is a clue or sees a clue ``v`` (its
    units meet ``holds[v]``, the units holding a clue ``v``).
    """
    seen = 0
    for j in range(20):
        seen |= 1 << work[_PEERS81[c, j]]
    if (seen | 1 | (1 << v)) == 0x3FF:
        return True
    h = holds[v]
    for k in range(3):
        u = _CELL_UNITS[c, k]
        hidden = True
        for j in range(9):
            q = _UNIT_CELLS[u, j]
            if q != c and work[q] == 0 and h & _CELL_UNIT_BITS[q] == 0:
                hidden = False
                break
        if hidden:
            return True
    return False


@njit(cache=True)
def reduce(work, sol, orbits, order, budget, stats):  # type: ignore[no-untyped-def]
    """Remove clues of ``work`` orbit by orbit while ``sol`` stays the only solution.

    The generator's removal loop in one call. ``work`` (clues of a unique
    puzzle whose solution is ``sol``) is reduced in place. ``orbits`` is an
    ``(norbits, 4)`` table of cell groups padded with -1; ``order`` the order
    to visit them. An orbit is removed unless the clues without it admit
    another solution: a removal that a naked or hidden single, or propagation
    alone, answers is a *shortcut*; otherwise one search, with a lone removed
    cell barred from its digit in ``sol`` (any other solution differs there),
    or for a larger orbit one that skips ``sol``. ``stats`` (4 ints) receives
    tried, shortcuts, solver calls and removed. Returns 0, or ``GAVE_UP`` when a search
    gave up after ``budget`` nodes (``work`` is then partly reduced).

    When orbit ``k`` is tested the clues are those of the orbits tested before
    and kept, and those of the orbits not tested yet (all of their clues). The
    propagated state of the first set grows as orbits are kept; the states of
    the second, for every ``k``, are built once from the end of ``order``;
    each test starts from their intersection (:func:`_meet`) instead of
    loading its clues.
    """
    st, ws, no_avoid, out = _count_workspace()
    saved = np.empty(4, np.int8)
    norbits = order.shape[0]
    width = orbits.shape[1]
    # the units (bits as in _CELL_UNIT_BITS) holding a clue of each digit: a
    # digit of the solution sits once in a unit, so a removal clears its bits
    holds = np.zeros(10, np.int64)
    for c in range(81):
        holds[work[c]] |= _CELL_UNIT_BITS[c]
    # untested[k]: the propagated state of the clues in orbits order[k:]
    # (clues of the solution: no propagation here meets a contradiction)
    untested = np.empty((norbits + 1, _WORDS), np.int64)
    _open(untested[norbits])
    for k in range(norbits - 1, -1, -1):
        row = untested[k]
        for i in range(_WORDS):
            row[i] = untested[k + 1, i]
        dirty = 0
        for j in range(width):
            c = orbits[order[k], j]
            if c >= 0 and work[c] != 0:
                dirty |= np.int64(1) << _place_clue(row, c, work[c])
        if dirty:
            _propagate(row, dirty)
    kept = np.empty(_WORDS, np.int64)  # the state of the clues tested and kept
    _open(kept)
    for k in range(norbits):
        g = order[k]
        n = 0
        last = -1
        taken = 0
        for j in range(width):
            c = orbits[g, j]
            if c >= 0 and work[c] != 0:
                saved[j] = work[c]
                holds[work[c]] &= ~_CELL_UNIT_BITS[c]
                work[c] = 0
                taken |= 1 << j
                n += 1
                last = c
        if n == 0:
            continue
        stats[0] += 1
        if n == 1 and _single(work, holds, last, sol[last]):
            # a single of the remaining clues: removable, no propagation needed
            stats[1] += 1
            stats[3] += 1
            continue
        other = 0
        dirty = _meet(st, untested[k + 1], kept)
        if n == 1:
            # any other solution differs from sol at the removed cell: bar its
            # digit there before propagating, so that a removal that propagation
            # alone answers stops at the first contradiction
            dirty |= np.int64(1) << _bar(st, last, sol[last])
            if not _propagate(st, dirty):
                stats[1] += 1
            else:
                stats[2] += 1
                other = _search(st, 1, no_avoid, out, budget, ws, True)
        elif _propagate(st, dirty):
            if (st[_UNPLACED] | st[_UNPLACED + 1] | st[_UNPLACED + 2]) == 0:
                stats[1] += 1
            else:
                stats[2] += 1
                other = _search(st, 1, sol, out, budget, ws, True)
        if other == GAVE_UP:
            return GAVE_UP
        if other > 0:
            dirty = 0
            for j in range(width):
                if (taken >> j) & 1:
                    c = orbits[g, j]
                    work[c] = saved[j]
                    holds[saved[j]] |= _CELL_UNIT_BITS[c]
                    dirty |= np.int64(1) << _place_clue(kept, c, saved[j])
            _propagate(kept, dirty)
        else:
            stats[3] += 1
    return 0


@njit(cache=True)
def nodes_batch(batch, limit):  # type: ignore[no-untyped-def]
    """Branch nodes each count-to-``limit`` of an ``(n, 81)`` batch visits (for benchmarks)."""
    n = batch.shape[0]
    nodes = np.zeros(n, np.int64)
    st, ws, avoid, out = _count_workspace()
    for i in range(n):
        if _load(batch[i], st) > 0:
            _search(st, limit, avoid, out, 0, ws)
            nodes[i] = ws[3][AT_NODES]
    return nodes
