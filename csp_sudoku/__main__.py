"""``python -m csp_sudoku`` runs the command line."""

from csp_sudoku.cli import entry

entry()
