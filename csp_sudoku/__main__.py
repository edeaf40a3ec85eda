"""``python -m csp_sudoku`` runs the command line."""

import sys

from csp_sudoku.cli import main

sys.exit(main())
