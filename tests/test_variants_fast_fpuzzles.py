"""Real f-puzzles files (``tests/data/fpuzzles``, set by people, with their setters' solutions).

Each file the engine can read must be unique for the ``fast``, ``sat`` and
``cpsat`` backends; the one solution must be the setter's (the file's
``solution``, which the reader only checks against the rules) and pass
:func:`tests.independent_variants.broken_rules`, which shares no code with
the package. Each file with a kind the engine does not know must be refused
with an error naming the field, and ``check`` of all of them in one run must
answer the others and exit 2. Sources and licence: the folder's README.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from csp_sudoku import variants
from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles
from csp_sudoku.core.errors import ParseError
from tests.independent_variants import broken_rules

FOLDER = Path(__file__).parent / "data" / "fpuzzles"
#: The files whose kinds the engine does not read, and the field each is refused for.
REFUSED = {
    "clone-wars": "clone",
    "fortress-maximum": "maximum",
    "one-to-six": "rowindexer",
    "quad-bike": "quadruple",
}
FILES = sorted(FOLDER.glob("*.json"))
READ = [f for f in FILES if f.stem not in REFUSED]


def load(path: Path) -> tuple[dict[str, Any], list[int]]:
    """The f-puzzles object of ``path`` without its ``solution``, and that solution."""
    data = json.loads(path.read_text())
    solution = data.pop("solution")
    return data, solution


def test_the_folder_holds_what_its_readme_lists() -> None:
    listed = (FOLDER / "README.md").read_text()
    assert FILES and all(f"| {f.name} |" in listed for f in FILES)
    assert len(READ) >= 10 and set(REFUSED) < {f.stem for f in FILES}


@pytest.mark.parametrize("path", READ, ids=[f.stem for f in READ])
def test_unique_for_every_backend_and_the_setters_solution(path: Path) -> None:
    data, solution = load(path)
    n = data["size"]
    puzzle = from_fpuzzles(data)
    for backend in variants.BACKENDS:
        found = variants.solutions(puzzle, 2, backend=backend)
        assert len(found) == 1, backend
        assert [int(x) for x in found[0].cells] == solution, backend
    rows = [solution[r * n : (r + 1) * n] for r in range(n)]
    assert broken_rules(data, rows) == []


@pytest.mark.parametrize("path", READ, ids=[f.stem for f in READ])
def test_the_true_candidates_are_the_solution(path: Path) -> None:
    data, solution = load(path)
    cands = variants.candidates(from_fpuzzles(data), backend="fast")
    assert [[d + 1 for d in range(len(row)) if row[d]] for row in cands] == [[x] for x in solution]


@pytest.mark.parametrize("stem", sorted(REFUSED))
def test_an_unknown_kind_is_refused_by_name(stem: str) -> None:
    data, _ = load(FOLDER / f"{stem}.json")
    with pytest.raises(ParseError, match=REFUSED[stem].replace("[", r"\[").replace("]", r"\]")):
        from_fpuzzles(data)


def test_check_answers_every_file_and_reports_the_refused_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the files as f-puzzles saved them, setters' solutions included
    paths = FILES
    code = main(["check", *map(str, paths)])
    out, err = capsys.readouterr()
    assert code == 2
    verdicts = dict(line.split("\t") for line in out.splitlines())
    for p in paths:
        key = next(k for k in verdicts if k.startswith(str(p)))
        if p.stem in REFUSED:
            assert verdicts[key].startswith("invalid") and REFUSED[p.stem] in verdicts[key]
            assert any(str(p) in line and REFUSED[p.stem] in line for line in err.splitlines())
        else:
            assert verdicts[key] == "unique", p.stem


def test_a_saved_solution_that_breaks_the_rules_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The setter's solution is read to be checked: one that breaks the rules means a
    damaged file or a constraint read otherwise, said by name, never passed over."""
    data = json.loads((FOLDER / "frost.json").read_text())
    assert from_fpuzzles(data).keeps(data["solution"])
    swapped = list(data["solution"])
    swapped[0], swapped[1] = swapped[1], swapped[0]
    with pytest.raises(ParseError, match="solution: the setter's solution breaks"):
        from_fpuzzles({**data, "solution": swapped})
    n = data["size"]
    for bad in (swapped[:-1], [0] * (n * n), "123", [True] * (n * n), [str(v) for v in swapped]):
        with pytest.raises(ParseError, match=f"solution: a list of {n * n} digits"):
            from_fpuzzles({**data, "solution": bad})
    for none in (None, []):  # no solution given
        assert from_fpuzzles({**data, "solution": none}).keeps(data["solution"])
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({**data, "solution": swapped}))
    assert main(["check", str(f)]) == 2
    assert f"{f}:1: solution: the setter's solution breaks" in capsys.readouterr().err


def test_to_fpuzzles_takes_a_variant_puzzle() -> None:
    from csp_sudoku.constraints import to_fpuzzles
    from csp_sudoku.core.errors import ArgumentError

    with pytest.raises(ArgumentError, match="to_fpuzzles takes a VariantPuzzle"):
        to_fpuzzles("x")  # type: ignore[arg-type]
