"""The tools layer: batch runs and the leaf tools built on every layer below.

:mod:`~csp_sudoku.tools.batch` (streamed batch checks),
:mod:`~csp_sudoku.tools.bank` (a puzzle bank file), :mod:`~csp_sudoku.tools.render`
(SVG/PNG pictures), :mod:`~csp_sudoku.tools.report` (the metric report),
:mod:`~csp_sudoku.tools.certify` (DRUP certificates of uniqueness),
:mod:`~csp_sudoku.tools.canonical` (canonical forms under the symmetry group),
:mod:`~csp_sudoku.tools.explain_view` (the HTML/SVG view of an explained path).
Only the CLI sits above.
"""
