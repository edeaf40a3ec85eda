"""The core layer: the values and conventions every other layer builds on.

A short glossary of the domain words used across the package:

- **cell**: one square of the grid, numbered row-major from 0.
- **digit**: a value 1..N placed in a cell (0 means empty in arrays, ``.`` in text).
- **unit** (or house): a row, a column or a box (plus any extra region of a
  variant geometry); each must hold every digit exactly once.
- **candidate**: a (cell, digit) pair still possible, numbered ``cell * N + digit - 1``.
- **constraint**: a column of the exact-cover matrix: a cell must be filled, or
  a unit must hold a digit; each candidate covers one column of each kind.
- **grid**: a full assignment of digits to cells; a **puzzle** is a partial one.

Modules: :mod:`~csp_sudoku.core.errors` (every exception),
:mod:`~csp_sudoku.core.geometry` (the shape of a grid and its kernel tables),
:mod:`~csp_sudoku.core.puzzle` (the ``Puzzle`` value),
:mod:`~csp_sudoku.core.io` (reading and writing text),
:mod:`~csp_sudoku.core.verify` (the solution checker),
:mod:`~csp_sudoku.core.seeds` (the seed convention),
:mod:`~csp_sudoku.core.parallel` (ordered maps over processes or Dask),
:mod:`~csp_sudoku.core.bits` (popcount), :mod:`~csp_sudoku.core.names` (the
literal names of methods, metrics, symmetries and techniques),
:mod:`~csp_sudoku.core.numbers` (what a count, limit, size or seed must be).
"""
