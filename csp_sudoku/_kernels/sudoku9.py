"""A solution counter for the standard 9x9 grid only: digit-major bit boards (numba).

The generic kernel (:mod:`csp_sudoku._kernels.bitset`) keeps one candidate
mask per cell and reads the geometry from tables, so every step walks lists
of peers and units. This one knows the 9x9 shape and keeps the state the way
the fastest native solvers do, *digit-major*: for each digit and each band
(three rows) one 27-bit word whose bit ``(row % 3) * 9 + col`` is set while
the digit is still possible in that cell. 27 words hold every candidate, and
one more word per band marks the cells already placed; with the propagation
steps' snapshots (below) a search state is 111 integers, copied in one go
when the search branches.

Reasoning, to a fixed point, all of it bit arithmetic on those words:

* **band matching** (box-line reasoning, both ways): inside a band a digit
  sits once in each of the three rows and once in each of the three boxes, so
  its row-by-box occupancy must hold a permutation. A table indexed by the
  9-bit occupancy keeps only the (row, box) pairs that lie on some
  permutation (0 when none does: a contradiction). This is pointing and
  claiming between the band's rows and boxes, done for every digit and band
  at every node for a few table look-ups. **Stack matching** does the same
  for the columns and boxes of each stack.
* **minirow and minicolumn triples**: a minirow (three cells of a row in a
  box) with exactly three possible digits confines them to it within its row
  and box; a minirow that three digits must occupy holds nothing else; fewer
  than three possible digits is a contradiction. The same for minicolumns.
* **hidden singles** in rows and boxes (a band word masked to one row or box
  with one bit left) and in columns (per digit, a once/twice count over the
  nine rows);
* **naked singles**: per band, a once/twice count over the nine digit words
  gives the cells with exactly one candidate, and the cells with none (a
  contradiction), with no loop over cells.

Each step keeps a snapshot of the words it last read and skips the bands or
digits that have not changed since. Placing a digit clears its cell in the
other eight words, its row and box in its own word, and its column in the two
other bands of its digit.

Search branches on a cell with the fewest candidates (two, nearly always),
taking among those the one whose placement removes the most candidates;
depth-first, one saved state per level; it stops at ``limit`` solutions.

Entry points: :func:`count_cells`, :func:`count_batch`, :func:`count_text`
(from the bytes of a line), :func:`removable` and :func:`reduce` (the
generator's removal questions), :func:`nodes_batch` (search sizes, for
benchmarks). Return conventions (as in the generic kernel): counts are
``>= 0``; ``-1`` means a cell value outside ``0..9``; ``-2`` that the search
gave up after its node budget; ``-3`` (text only) a byte that is no symbol.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.bitset import _ctpop, _cttz

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

#: Words in a state: 27 digit-band boards, the placed cells of each band,
#: then what each propagation step last saw of the boards (see :func:`_propagate`).
_SOLVED = 27
_SEEN_BAND = 30
_SEEN_STACK = 57
_SEEN_NAKED = 84
_WORDS = 111
_ALL27 = (1 << 27) - 1


def _tables() -> tuple[NDArray[np.int64], ...]:
    """The constant tables the kernel reads (built once, at import, with numpy: about 1 ms)."""
    m = np.arange(512, dtype=np.int64)  # every 9-bit value
    rows3 = np.array([7 << (3 * r) for r in range(3)], np.int64)  # (row, box) bits of a row
    boxes3 = np.array([0b001001001 << k for k in range(3)], np.int64)  # ... of a box

    def popcount9(x: NDArray[np.int64]) -> NDArray[np.int64]:
        return sum(((x >> j) & 1) for j in range(9))  # type: ignore[return-value]

    # triad occupancy of a 9-bit row: bit k set when columns 3k..3k+2 hold a bit;
    # full3: bit k set when all three do
    tri = np.zeros(512, np.int64)
    full3 = np.zeros(512, np.int64)
    for k in range(3):
        t = (m >> (3 * k)) & 7
        tri |= (t != 0).astype(np.int64) << k
        full3 |= (t == 7).astype(np.int64) << k
    # for a (row, box) occupancy bit q = r*3+k of a band: the other bits of its row and box
    line = np.array([(rows3[q // 3] | boxes3[q % 3]) & ~(1 << q) for q in range(9)], np.int64)
    # band matching: occupancy bit r*3+k (row r of the band meets box k) -> pairs9,
    # the (row, box) pairs on some permutation, and keep, those pairs' cells
    pairs9 = np.zeros(512, np.int64)
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        pm = sum(1 << (r * 3 + perm[r]) for r in range(3))
        pairs9 |= np.where(m & pm == pm, pm, 0)
    keep = np.zeros(512, np.int64)
    for q in range(9):
        keep |= ((pairs9 >> q) & 1) * (7 << ((q // 3) * 9 + 3 * (q % 3)))
    # the minirows (bit q) a digit is confined to within its row or its box
    conf = np.zeros(512, np.int64)
    for q in range(9):
        alone = (popcount9(m & rows3[q // 3]) == 1) | (popcount9(m & boxes3[q % 3]) == 1)
        conf |= (((m >> q) & 1) & alone) << q
    # for a cell bit of a band: its row and box inside the band, itself excluded
    peer = np.zeros(27, np.int64)
    for bit in range(27):
        r, c = divmod(bit, 9)
        peer[bit] = ((0x1FF << (9 * r)) | (0x1C0E07 << (3 * (c // 3)))) & ~(1 << bit)
    col = np.array([(1 << c) | (1 << (9 + c)) | (1 << (18 + c)) for c in range(9)], np.int64)
    row = np.array([0x1FF << (9 * r) for r in range(3)], np.int64)
    box = np.array([0x1C0E07 << (3 * k) for k in range(3)], np.int64)
    # a 9-bit set of columns -> those columns in all three rows of a band word
    colrep = m | (m << 9) | (m << 18)
    return tri, full3, line, keep, pairs9, peer, col, row, box, colrep, conf


def _peers81() -> NDArray[np.int64]:
    """The 20 peers of each of the 81 cells (same row, column or box), in order."""
    cell = np.arange(81)
    r, c = cell // 9, cell % 9
    b = (r // 3) * 3 + c // 3
    same = (r[:, None] == r) | (c[:, None] == c) | (b[:, None] == b)
    np.fill_diagonal(same, False)
    return np.nonzero(same)[1].astype(np.int64).reshape(81, 20)


_PEERS81 = _peers81()

(_TRI, _FULL3, _LINE, _KEEP, _PAIRS, _PEER, _COL, _ROW, _BOX, _COLREP, _CONF) = _tables()


@njit(cache=True, inline="always")
def _place(st, d, b, bit):  # type: ignore[no-untyped-def]
    """Place digit ``d`` (0-based) at cell bit ``bit`` (a one-bit mask) of band ``b``."""
    for e in range(9):
        st[e * 3 + b] &= ~bit
    p = _cttz(bit)
    i = d * 3 + b
    st[i] = (st[i] & ~_PEER[p]) | bit
    cm = _COL[p % 9]
    for b2 in range(3):
        if b2 != b:
            st[d * 3 + b2] &= ~cm
    st[_SOLVED + b] |= bit


@njit(cache=True, inline="always")
def _dirty_band(st, seen, b):  # type: ignore[no-untyped-def]
    """True (and the snapshot renewed) when a word of band ``b`` changed since ``seen``."""
    dirty = False
    for d in range(9):
        i = d * 3 + b
        if st[i] != st[seen + i]:
            st[seen + i] = st[i]
            dirty = True
    return dirty


@njit(cache=True)
def _propagate(st):  # type: ignore[no-untyped-def]
    """Band and stack matching and singles to a fixed point; False on a contradiction.

    Each of the three steps keeps a snapshot of the words it last read (in
    ``st`` itself, so saved states carry it) and skips the bands or digits
    whose words have not changed since: at a fixed point it would find
    nothing new there. On success the snapshots equal the words.
    """
    while True:
        again = False
        # band matching, then hidden singles in the band's rows and boxes
        for b in range(3):
            if not _dirty_band(st, _SEEN_BAND, b):
                continue
            # how many digits each minirow (three cells of a row in a box) still
            # holds: fewer than three is a contradiction; with exactly three,
            # those digits are confined to it within its row and its box
            n1 = 0
            n2 = 0
            n3 = 0
            n4 = 0
            g1 = 0
            g2 = 0
            g3 = 0
            g4 = 0
            for d in range(9):
                f = st[d * 3 + b]
                occ = _TRI[f & 0x1FF] | (_TRI[(f >> 9) & 0x1FF] << 3) | (_TRI[f >> 18] << 6)
                n4 |= n3 & occ
                n3 |= n2 & occ
                n2 |= n1 & occ
                n1 |= occ
                cf = _CONF[occ]
                g4 |= g3 & cf
                g3 |= g2 & cf
                g2 |= g1 & cf
                g1 |= cf
            if n3 != 0x1FF or g4 != 0:
                return False
            # a minirow that three digits must occupy holds nothing else
            c3 = g3
            sv = st[_SOLVED + b]
            e3 = (
                n3
                & ~n4
                & ~(_FULL3[sv & 0x1FF] | (_FULL3[(sv >> 9) & 0x1FF] << 3) | (_FULL3[sv >> 18] << 6))
            )
            for d in range(9):
                i = d * 3 + b
                f = st[i]
                occ = _TRI[f & 0x1FF] | (_TRI[(f >> 9) & 0x1FF] << 3) | (_TRI[f >> 18] << 6)
                h = occ & e3
                while h:
                    q = h & -h
                    h ^= q
                    occ &= ~_LINE[_cttz(q)]
                occ &= ~(c3 & ~_CONF[occ])
                g = f & _KEEP[occ]
                if g == 0:
                    return False
                if g != f:
                    st[i] = g
                    f = g
                if f & ~st[_SOLVED + b] == 0:
                    continue
                for k in range(3):
                    x = f & _ROW[k]
                    if x & (x - 1) == 0 and x & ~st[_SOLVED + b]:
                        _place(st, d, b, x)
                        f = st[i]
                        again = True
                    x = f & _BOX[k]
                    if x & (x - 1) == 0 and x & ~st[_SOLVED + b]:
                        _place(st, d, b, x)
                        f = st[i]
                        again = True
        # how many digits each minicolumn (three cells of a column in a box)
        # still holds, as for minirows; bit 9 * band + column
        m1 = 0
        m2 = 0
        m3 = 0
        m4 = 0
        for d in range(9):
            i = d * 3
            f0 = st[i]
            f1 = st[i + 1]
            f2 = st[i + 2]
            occ = (
                ((f0 | (f0 >> 9) | (f0 >> 18)) & 0x1FF)
                | (((f1 | (f1 >> 9) | (f1 >> 18)) & 0x1FF) << 9)
                | (((f2 | (f2 >> 9) | (f2 >> 18)) & 0x1FF) << 18)
            )
            m4 |= m3 & occ
            m3 |= m2 & occ
            m2 |= m1 & occ
            m1 |= occ
        if m3 != _ALL27:
            return False
        s0 = st[_SOLVED]
        s1 = st[_SOLVED + 1]
        s2 = st[_SOLVED + 2]
        v3 = (
            m3
            & ~m4
            & ~(
                (s0 & (s0 >> 9) & (s0 >> 18) & 0x1FF)
                | ((s1 & (s1 >> 9) & (s1 >> 18) & 0x1FF) << 9)
                | ((s2 & (s2 >> 9) & (s2 >> 18) & 0x1FF) << 18)
            )
        )
        # stack matching and hidden singles in columns, digit by digit
        for d in range(9):
            i = d * 3
            f0 = st[i]
            f1 = st[i + 1]
            f2 = st[i + 2]
            if (
                f0 == st[_SEEN_STACK + i]
                and f1 == st[_SEEN_STACK + i + 1]
                and f2 == st[_SEEN_STACK + i + 2]
            ):
                continue
            st[_SEEN_STACK + i] = f0
            st[_SEEN_STACK + i + 1] = f1
            st[_SEEN_STACK + i + 2] = f2
            # in each stack the digit's band-by-column occupancy must hold a
            # permutation (box-line reasoning along columns)
            c0 = (f0 | (f0 >> 9) | (f0 >> 18)) & 0x1FF
            c1 = (f1 | (f1 >> 9) | (f1 >> 18)) & 0x1FF
            c2 = (f2 | (f2 >> 9) | (f2 >> 18)) & 0x1FF
            k0 = 0
            k1 = 0
            k2 = 0
            h0 = c0 & v3
            h1 = c1 & (v3 >> 9)
            h2 = c2 & (v3 >> 18)
            for s_ in range(3):
                sh = 3 * s_
                occ = ((c0 >> sh) & 7) | (((c1 >> sh) & 7) << 3) | (((c2 >> sh) & 7) << 6)
                # a minicolumn holding exactly three digits confines each of them
                # to it within its column and its box (bit band * 3 + column here)
                h = ((h0 >> sh) & 7) | (((h1 >> sh) & 7) << 3) | (((h2 >> sh) & 7) << 6)
                while h:
                    q = h & -h
                    h ^= q
                    occ &= ~_LINE[_cttz(q)]
                p = _PAIRS[occ]
                if p == 0:
                    return False
                k0 |= (p & 7) << sh
                k1 |= ((p >> 3) & 7) << sh
                k2 |= ((p >> 6) & 7) << sh
            if k0 != c0 or k1 != c1 or k2 != c2:
                f0 &= _COLREP[k0]
                f1 &= _COLREP[k1]
                f2 &= _COLREP[k2]
                st[i] = f0
                st[i + 1] = f1
                st[i + 2] = f2
                again = True
            # a once/twice count over the nine rows
            once = 0
            twice = 0
            for f in (f0, f1, f2):
                for r in range(3):
                    x = (f >> (9 * r)) & 0x1FF
                    twice |= once & x
                    once |= x
            if once != 0x1FF:
                return False
            placed = f0 & st[_SOLVED] | f1 & st[_SOLVED + 1] | f2 & st[_SOLVED + 2]
            placed = (placed | (placed >> 9) | (placed >> 18)) & 0x1FF
            new = once & ~twice & ~placed
            while new:
                c = new & -new
                new ^= c
                cm = _COL[_cttz(c)]
                for b in range(3):
                    x = st[i + b] & cm
                    if x:
                        _place(st, d, b, x)
                        again = True
                        break
        # naked singles (and empty cells): per band, a once/twice count over the digits
        for b in range(3):
            if not _dirty_band(st, _SEEN_NAKED, b):
                continue
            once = 0
            twice = 0
            for d in range(9):
                f = st[d * 3 + b]
                twice |= once & f
                once |= f
            if once != _ALL27:
                return False
            single = once & ~twice & ~st[_SOLVED + b]
            while single:
                x = single & -single
                single ^= x
                found = False
                for d in range(9):
                    if st[d * 3 + b] & x:
                        _place(st, d, b, x)
                        found = True
                        break
                if not found:
                    return False
                again = True
        if not again:
            for i in range(27):
                st[_SEEN_BAND + i] = st[i]
                st[_SEEN_STACK + i] = st[i]
                st[_SEEN_NAKED + i] = st[i]
            return True


@njit(cache=True, inline="always")
def _reach(st, b, p):  # type: ignore[no-untyped-def]
    """How many candidates placing a digit of cell bit ``p`` of band ``b`` would remove.

    Summed over the cell's digits: the digit's other places in the cell's row,
    box and column.
    """
    bit = np.int64(1) << p
    cm = _COL[p % 9]
    sc = 0
    for d in range(9):
        f = st[d * 3 + b]
        if f & bit:
            sc += _ctpop(f & _PEER[p])
            for b2 in range(3):
                if b2 != b:
                    sc += _ctpop(st[d * 3 + b2] & cm)
    return sc


@njit(cache=True)
def _pick(st):  # type: ignore[no-untyped-def]
    """The branch cell as ``band * 27 + bit``.

    Among the cells with the fewest candidates (two, nearly always), the one
    whose placement removes the most candidates (see :func:`_reach`): on the
    hardest sets this halved the tree against taking the first such cell.
    """
    best = -1
    bestn = 10
    bests = -1
    for b in range(3):
        c1 = 0
        c2 = 0
        c3 = 0
        c4 = 0
        for d in range(9):
            f = st[d * 3 + b]
            c4 |= c3 & f
            c3 |= c2 & f
            c2 |= c1 & f
            c1 |= f
        open_ = ~st[_SOLVED + b] & _ALL27
        for n, x in ((2, c2 & ~c3 & open_), (3, c3 & ~c4 & open_), (4, c4 & open_)):
            if n > bestn:
                break
            while x:
                p = _cttz(x)
                x &= x - 1
                m = n
                if n == 4:
                    m = 0
                    for d in range(9):
                        m += (st[d * 3 + b] >> p) & 1
                if m > bestn:
                    continue
                sc = _reach(st, b, p)
                if m < bestn or sc > bests:
                    best = b * 27 + p
                    bestn = m
                    bests = sc
            if bestn <= n:
                break
    return best


@njit(cache=True)
def _load(cells, st):  # type: ignore[no-untyped-def]
    """Fill and propagate ``st`` from 81 clue values.

    Returns 1 when the clues are consistent so far, 0 when they clash (or
    propagation finds a contradiction), -1 for a value outside ``0..9``.
    """
    for i in range(27):
        st[i] = _ALL27
    for b in range(3):
        st[_SOLVED + b] = 0
    for i in range(_SEEN_BAND, _WORDS):
        st[i] = -1
    for c in range(81):
        v = cells[c]
        if v == 0:
            continue
        if v < 0 or v > 9:
            return -1
    for c in range(81):
        v = cells[c]
        if v == 0:
            continue
        r = c // 9
        b = r // 3
        bit = np.int64(1) << ((r % 3) * 9 + c % 9)
        i = (v - 1) * 3 + b
        if st[i] & bit == 0:
            return 0
        _place(st, v - 1, b, bit)
    if not _propagate(st):
        return 0
    return 1


@njit(cache=True)
def _write(st, row):  # type: ignore[no-untyped-def]
    """Write the solved state ``st`` as 81 digits into ``row``."""
    for d in range(9):
        for b in range(3):
            f = st[d * 3 + b]
            while f:
                p = _cttz(f)
                f &= f - 1
                row[b * 27 + (p // 9) * 9 + p % 9] = d + 1


@njit(cache=True)
def _same(st, avoid):  # type: ignore[no-untyped-def]
    """True when the solved state ``st`` equals the grid ``avoid`` (81 digits)."""
    for d in range(9):
        for b in range(3):
            f = st[d * 3 + b]
            while f:
                p = _cttz(f)
                f &= f - 1
                if avoid[b * 27 + p] != d + 1:
                    return False
    return True


@njit(cache=True)
def _search(st, limit, avoid, out, budget, ws):  # type: ignore[no-untyped-def]
    """Count solutions (up to ``limit``) from the propagated state ``st``.

    Solutions equal to ``avoid`` (when it has 81 cells) are not counted; the
    first ``out.shape[0]`` counted are written to ``out``. After ``budget``
    branch nodes (when ``budget > 0``) the search gives up and returns -2, as
    the generic kernel does. ``ws`` is the workspace from :func:`_workspace`;
    its ``nodes[0]`` receives the number of branch nodes visited.
    """
    stack, cells_, lefts, nodes_out = ws
    count = 0
    depth = 0
    nodes = 0
    while True:
        # st is a consistent fixed point here: branch, or record a solution
        if (st[_SOLVED] & st[_SOLVED + 1] & st[_SOLVED + 2]) == _ALL27:
            if avoid.shape[0] != 81 or not _same(st, avoid):
                if count < out.shape[0]:
                    _write(st, out[count])
                count += 1
                if count >= limit:
                    nodes_out[0] = nodes
                    return count
        else:
            cell = _pick(st)
            b = cell // 27
            bit = np.int64(1) << (cell % 27)
            left = 0
            for d in range(9):
                if st[d * 3 + b] & bit:
                    left |= 1 << d
            for i in range(_WORDS):  # a loop, not a slice copy: see below
                stack[depth, i] = st[i]
            cells_[depth] = cell
            lefts[depth] = left
            depth += 1
        # take the next alternative, backtracking as needed
        while True:
            if depth == 0:
                nodes_out[0] = nodes
                return count
            k = depth - 1
            left = lefts[k]
            d = _cttz(left)
            left &= left - 1
            if left == 0:
                depth -= 1  # last alternative: this level is spent
            else:
                lefts[k] = left
            # element by element: a slice assignment brings numba's shape-mismatch
            # message (string formatting), which doubles the first compile of _search
            for i in range(_WORDS):
                st[i] = stack[k, i]
            cell = cells_[k]
            _place(st, d, cell // 27, np.int64(1) << (cell % 27))
            nodes += 1
            if nodes > budget > 0:
                nodes_out[0] = nodes
                return -2
            if _propagate(st):
                break


@njit(cache=True)
def _workspace():  # type: ignore[no-untyped-def]
    """A state, and the search workspace: saved states, branch cells and digits, a node count."""
    st = np.empty(_WORDS, np.int64)
    stack = np.empty((82, _WORDS), np.int64)
    cells_ = np.empty(82, np.int64)
    lefts = np.empty(82, np.int64)
    nodes = np.zeros(1, np.int64)
    return st, (stack, cells_, lefts, nodes)


@njit(cache=True)
def count_cells(cells, limit, avoid, out, budget):  # type: ignore[no-untyped-def]
    """Solutions of the 81 clues ``cells`` (0 = empty), up to ``limit``.

    Solutions equal to ``avoid`` (if it has 81 cells) are not counted; the
    first ``out.shape[0]`` are written to ``out``. Returns -1 for a bad value,
    -2 when the search gave up after ``budget`` branch nodes.
    """
    st, ws = _workspace()
    ok = _load(cells, st)
    if ok <= 0:
        return ok
    return _search(st, limit, avoid, out, budget, ws)


@njit(cache=True)
def count_text(raw, lut, limit, budget):  # type: ignore[no-untyped-def]
    """Solutions, up to ``limit``, of a puzzle given as its 81 text bytes (``uint8``).

    ``lut`` maps each byte to its cell value (0 = empty) or to -1 for a byte
    that is no symbol; such a byte gives -3, and the caller takes its full
    parser (which explains what is wrong). This lets ``is_unique(str)`` skip
    building a cell array in Python. -2: gave up after ``budget`` nodes.
    """
    cells = np.empty(81, np.int8)
    for c in range(81):
        v = lut[raw[c]]
        if v < 0:
            return -3
        cells[c] = v
    st, ws = _workspace()
    ok = _load(cells, st)
    if ok <= 0:
        return ok
    return _search(st, limit, np.empty(0, np.int8), np.empty((0, 81), np.int8), budget, ws)


@njit(cache=True)
def count_batch(batch, limit, budget):  # type: ignore[no-untyped-def]
    """Counts (capped at ``limit``) for every row of an ``(n, 81)`` batch.

    -1 marks a row with a bad value, -2 a row whose search gave up.
    """
    n = batch.shape[0]
    counts = np.empty(n, np.int64)
    st, ws = _workspace()
    avoid = np.empty(0, np.int8)
    out = np.empty((0, 81), np.int8)
    for i in range(n):
        ok = _load(batch[i], st)
        if ok <= 0:
            counts[i] = ok
            continue
        counts[i] = _search(st, limit, avoid, out, budget, ws)
    return counts


@njit(cache=True)
def removable(cells, known, budget):  # type: ignore[no-untyped-def]
    """The clue cells whose removal alone keeps ``known`` the only solution.

    ``known`` must be the unique solution of ``cells``; as in the generic
    kernel, each test searches for any solution of the clues less clue ``c``
    with ``c`` barred from ``known[c]``. Returns the cell indices, or a
    one-element ``[-1]`` for a bad cell value or ``[-2]`` when a search gave up.
    """
    st, ws = _workspace()
    avoid = np.empty(0, np.int8)
    out = np.empty((0, 81), np.int8)
    res = np.empty(81, np.int64)
    nres = 0
    for c in range(81):
        v = cells[c]
        if v < 0 or v > 9:
            res[0] = -1
            return res[:1]
    work = cells.copy()
    for c in range(81):
        v = cells[c]
        if v == 0:
            continue
        work[c] = 0
        ok = _load(work, st)
        work[c] = v
        if ok > 0:
            r = c // 9
            b = r // 3
            bit = np.int64(1) << ((r % 3) * 9 + c % 9)
            st[(v - 1) * 3 + b] &= ~bit
            if _propagate(st):
                found = _search(st, 1, avoid, out, budget, ws)
                if found == -2:
                    res[0] = -2
                    return res[:1]
                if found > 0:
                    continue
        res[nres] = c
        nres += 1
    return res[:nres]


@njit(cache=True)
def reduce(work, sol, orbits, order, budget, stats):  # type: ignore[no-untyped-def]
    """Remove clues of ``work`` orbit by orbit while ``sol`` stays the only solution.

    The generator's removal loop in one call. ``work`` (clues of a unique
    puzzle whose solution is ``sol``) is reduced in place. ``orbits`` is an
    ``(norbits, 4)`` table of cell groups padded with -1; ``order`` the order
    to visit them. An orbit is removed unless the clues without it admit
    another solution: a removal that propagation alone answers (every cell
    placed) is a *shortcut*; otherwise one search, with a lone removed cell
    barred from its digit in ``sol`` (any other solution differs there), or
    for a larger orbit one that skips ``sol``. ``stats`` (4 ints) receives
    tried, shortcuts, solver calls and removed. Returns 0, or -2 when a search
    gave up after ``budget`` nodes (``work`` is then partly reduced).
    """
    st, ws = _workspace()
    out = np.empty((0, 81), np.int8)
    no_avoid = np.empty(0, np.int8)
    saved = np.empty(4, np.int8)
    for k in range(order.shape[0]):
        g = order[k]
        n = 0
        last = -1
        taken = 0
        for j in range(orbits.shape[1]):
            c = orbits[g, j]
            if c >= 0 and work[c] != 0:
                saved[j] = work[c]
                work[c] = 0
                taken |= 1 << j
                n += 1
                last = c
        if n == 0:
            continue
        stats[0] += 1
        if n == 1:
            # a lone cell whose peers hold the eight other digits is a naked
            # single of the remaining clues: removable, no propagation needed
            seen = 0
            for j in range(20):
                seen |= 1 << work[_PEERS81[last, j]]
            if (seen | 1 | (1 << sol[last])) == 0x3FF:
                stats[1] += 1
                stats[3] += 1
                continue
        other = 0
        if _load(work, st) > 0:
            if (st[_SOLVED] & st[_SOLVED + 1] & st[_SOLVED + 2]) == _ALL27:
                stats[1] += 1
            else:
                stats[2] += 1
                if n == 1:
                    v = sol[last]
                    r = last // 9
                    bit = np.int64(1) << ((r % 3) * 9 + last % 9)
                    st[(v - 1) * 3 + r // 3] &= ~bit
                    if _propagate(st):
                        other = _search(st, 1, no_avoid, out, budget, ws)
                else:
                    other = _search(st, 1, sol, out, budget, ws)
        if other == -2:
            return -2
        if other > 0:
            for j in range(orbits.shape[1]):
                if (taken >> j) & 1:
                    work[orbits[g, j]] = saved[j]
        else:
            stats[3] += 1
    return 0


@njit(cache=True)
def nodes_batch(batch, limit):  # type: ignore[no-untyped-def]
    """Branch nodes each count-to-``limit`` of an ``(n, 81)`` batch visits (for benchmarks)."""
    n = batch.shape[0]
    nodes = np.zeros(n, np.int64)
    st, ws = _workspace()
    avoid = np.empty(0, np.int8)
    out = np.empty((0, 81), np.int8)
    for i in range(n):
        if _load(batch[i], st) > 0:
            _search(st, limit, avoid, out, 0, ws)
            nodes[i] = ws[3][0]
    return nodes
