"""The technique catalogue: one table of names, shown unchanged in the docs and
used by the se rating."""

from __future__ import annotations

from pathlib import Path

import pytest

import csp_sudoku as cs
from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.human.catalogue import (
    TECHNIQUES,
    canonical_name,
    lookup,
    markdown_table,
    technique_names,
)
from csp_sudoku.metrics.se import replay, se_rating
from tests.conftest import load_table

ROOT = Path(__file__).resolve().parents[1]


def test_docs_table_is_the_catalogue() -> None:
    """docs/techniques.md embeds markdown_table() verbatim, so they cannot drift."""
    text = (ROOT / "docs" / "techniques.md").read_text()
    start = text.index("| SE name |")
    end = text.index("<!-- end of generated table -->")
    assert text[start:end] == markdown_table()


def test_names_are_unique_and_codes_well_formed() -> None:
    names = technique_names()
    assert len({n.casefold() for n in names}) == len(names) == len(TECHNIQUES)
    for t in TECHNIQUES:
        assert t.hodoku_code == "" or (len(t.hodoku_code) == 4 and t.hodoku_code.isdigit())
        assert (t.hodoku_code == "") == (t.hodoku_name == "")
        assert t.description and "|" not in t.description


def test_lookup_is_case_insensitive_and_lists_names_on_error() -> None:
    assert lookup("hidden single").name == "Hidden Single"
    assert lookup("  DYNAMIC REGION FORCING CHAINS ").hodoku_code == "1304"
    with pytest.raises(ArgumentError) as err:
        lookup("Squirmbag")
    assert "Hidden Single" in str(err.value) and "Nested Forcing Chains" in str(err.value)


def test_every_replayed_technique_is_catalogued() -> None:
    """The se replay's step names, and the rating's hardest, are catalogue names
    (a sample of SukakuExplainer-rated puzzles spanning its techniques)."""
    rows = load_table("se_calibration_top1465.tsv")
    picked: dict[str, str] = {}
    for r in rows:
        if float(r["ER"]) <= 8.5 and float(r["seconds"]) < 10:
            picked.setdefault(r["technique"], r["puzzle"])
    names = set(technique_names())
    for puzzle in list(picked.values())[:12]:
        p = cs.parse(puzzle)
        run = replay(p)
        assert {s.technique for s in run.steps} <= names
        details = se_rating(p)[3]
        assert details["hardest"] in names


@pytest.mark.parametrize(
    ("spelt", "name"),
    [
        ("WXYZ-Wing 137", "WXYZ-Wing"),
        ("Skyscraper 011", "Turbot Fish"),
        ("Grouped Skyscraper 111", "Turbot Fish"),
        ("2 Strong links 001", "Turbot Fish"),
        ("Grouped 2-String Kite 011", "Turbot Fish"),
        ("Grouped 3-String Kite 111", "3 Strong Links"),
        ("Hidden Triplet", "Hidden Triple"),
        ("direct hidden triplet", "Direct Hidden Triple"),
        ("Unique Rectangle type 2", "Unique Rectangle"),
    ],
)
def test_se_spellings_are_read_as_the_catalogues(spelt: str, name: str) -> None:
    assert canonical_name(spelt) == name
    assert lookup(spelt).name == name


def test_unknown_and_partial_names_pass_through() -> None:
    """A name that is no spelling of a technique comes back unchanged (partial
    names stay partial), and lookup still refuses it."""
    assert canonical_name(" Forcing Chains ") == "Forcing Chains"
    assert canonical_name("Squirmbag 12") == "Squirmbag 12"
    with pytest.raises(ArgumentError):
        lookup("Skyscraper Deluxe")


def test_every_se_spelling_in_the_calibration_file_is_read() -> None:
    """Every technique name SukakuExplainer wrote in the calibration file maps
    to a catalogue name (the bench's name comparison relies on it)."""
    spelt = {r["technique"] for r in load_table("se_calibration_top1465.tsv")}
    names = set(technique_names())
    assert {s for s in spelt if canonical_name(s) not in names} == set()


def test_generate_reads_se_spellings(capsys: pytest.CaptureFixture[str]) -> None:
    """``generate --require-technique`` takes SE's spelling: the puzzle's se
    path then uses the catalogue's technique; a name of no technique is exit 2."""
    from csp_sudoku.cli import main

    argv = ["generate", "--count", "1", "--seed", "1", "-q", "--budget-seconds", "120"]
    assert main([*argv, "--require-technique", "Direct Hidden Triplet"]) == 0
    puzzle = capsys.readouterr().out.split()[0]
    counts = cs.rate(puzzle, "se").details["technique_counts"]
    assert counts.get("Direct Hidden Triple", 0) > 0
    assert main([*argv, "--require-technique", "Skyscraper Deluxe"]) == 2
    assert "unknown technique" in capsys.readouterr().err


def test_values_read_each_form_of_the_difficulty_column() -> None:
    """One value, a range and a chain's ``base+`` (no upper bound)."""
    assert lookup("X-Wing").values == (3.2, 3.2)
    assert lookup("Unique Rectangle").values == (4.5, 4.8)
    assert lookup("Nested Forcing Chains").values == (10.5, float("inf"))
    assert all(low <= high for low, high in (t.values for t in TECHNIQUES))


def test_ses_own_ratings_lie_within_their_hardest_techniques_values() -> None:
    """Sudoku Explainer's ER of each calibration puzzle is a value of the technique it
    names as the hardest: the bounds the generator's filter check relies on hold
    for SE itself, not only for the replay."""
    rows = load_table("se_calibration_top1465.tsv")
    outside = [
        (r["technique"], r["ER"])
        for r in rows
        if not _within(float(r["ER"]), lookup(canonical_name(r["technique"])).values)
    ]
    assert len(rows) > 600 and outside == []


@pytest.mark.parametrize("rater", ["sukaku", "classic"])
def test_every_replayed_step_lies_within_its_techniques_values(rater: str) -> None:
    """Every step of the se path (both raters) of calibration puzzles rated up to
    9.5, spread over the ratings, is valued within its technique's bounds."""
    rows = [
        r
        for name in ("se_calibration_top1465.tsv", "se_calibration.tsv")
        for r in load_table(name)
        if float(r["ER"]) <= 9.5
    ]
    outside: list[tuple[str, float]] = []
    steps = 0
    for r in rows[::20]:
        for s in replay(cs.parse(r["puzzle"]), rater).steps:
            steps += 1
            if not _within(s.difficulty, lookup(s.technique).values):
                outside.append((s.technique, s.difficulty))
    assert steps > 3000 and outside == []


def _within(value: float, bounds: tuple[float, float]) -> bool:
    return bounds[0] - 1e-9 <= value <= bounds[1] + 1e-9
