"""Make a puzzle book: N minimal, symmetric puzzles with their ratings.

Every puzzle is unique and minimal among puzzles with the chosen symmetric clue
pattern (csp_sudoku.generators.generate); each is rated with the rounds metric
of Hunt, Pong and Tucker and with the oracle metric of Fletcher, Johnson and
Morrison, and the book is sorted from easiest to hardest. The text file lists,
per puzzle, its number, the puzzle line, the clue count, the ratings and the
seed that regenerates it; when csp_sudoku.tools.render is installed (matplotlib) a
PDF is written too: a cover page with the title, the puzzles captioned the way
``csp-sudoku render`` captions records (number, level, metric and score), and
solution pages.

Usage:
    .venv/bin/python examples/make_book.py --count 24 --symmetry rot180 --seed 1 --out book
    .venv/bin/python examples/make_book.py --level hard --level fiendish --count 12
    .venv/bin/python examples/make_book.py --quick
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from csp_sudoku.generators import SYMMETRIES, Generated, generate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--symmetry", choices=SYMMETRIES, default="rot180")
    ap.add_argument("--level", action="append", help="rounds level(s) to keep (default: any)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="book", help="output name without suffix")
    ap.add_argument("--no-pdf", action="store_true")
    ap.add_argument("--quick", action="store_true", help="4 puzzles, for a smoke test")
    args = ap.parse_args()
    count = 4 if args.quick else args.count

    t = time.perf_counter()
    book: list[Generated] = []
    for g in generate(
        count,
        level=args.level,
        metric="rounds",
        rate_with=["rounds", "oracle"],
        symmetry=args.symmetry,
        minimal=True,
        seed=args.seed,
    ):
        book.append(g)
        r = g.ratings
        print(
            f"{len(book):3d}/{count}  {g.puzzle.to_line()}  {g.clues} clues  "
            f"rounds={r['rounds'].level}  oracle={r['oracle'].score:.2f}"
        )
    book.sort(key=lambda g: (g.ratings["rounds"].level_rank, g.ratings["oracle"].score))

    text = Path(f"{args.out}.txt")
    with text.open("w", encoding="utf-8") as fh:
        fh.write(
            f"# {len(book)} minimal puzzles, {args.symmetry} symmetry, "
            f"easiest first (csp_sudoku examples/make_book.py, seed {args.seed})\n"
            "# number  puzzle  clues  rounds-level  oracle-score  oracle-level  seed\n"
        )
        for i, g in enumerate(book, 1):
            r = g.ratings
            fh.write(
                f"{i}\t{g.puzzle.to_line()}\t{g.clues}\t{r['rounds'].level}\t"
                f"{r['oracle'].score:.3f}\t{r['oracle'].level}\t{g.seed}\n"
            )
    print(f"wrote {text} ({len(book)} puzzles in {time.perf_counter() - t:.1f} s)")

    if args.no_pdf:
        return
    try:
        from csp_sudoku.tools.render import caption_fields, default_caption, render_book
    except ImportError as err:  # matplotlib missing
        print(f"no PDF: {err}")
        return
    # the same captions as `csp-sudoku render` gives these records (first metric: rounds)
    titles = [default_caption(caption_fields(g.to_dict(), i)) for i, g in enumerate(book, 1)]
    files = render_book(
        [g.puzzle for g in book],
        f"{args.out}.pdf",
        solutions=[g.solution for g in book],
        titles=titles,
        title=f"Minimal {args.symmetry} puzzles",
    )
    print("wrote " + ", ".join(str(f) for f in files))


if __name__ == "__main__":
    main()
