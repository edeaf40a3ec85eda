"""Never a copy: the shipped keys of the published puzzles, the invariant in
front of the canonical form, and a run's own keys.

The isomorphic copies here are made by :func:`_isomorph`, written in this file
with no code of the package (bands, rows, stacks, columns, transposition,
digits, drawn with Python's own random module).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku.core.errors import GenerationError
from csp_sudoku.generators import novelty
from csp_sudoku.generators.hsolve_gen import SEED_BANK
from tests.conftest import load_lines
from tests.helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ("17_clue.txt", "top1465.txt", "forum_hardest_1106.txt", "forum_hardest_11plus.txt")


def _isomorph(line: str, rng: random.Random) -> str:
    """A random member of ``line``'s isomorphism class (9x9)."""

    def lines() -> list[int]:
        groups = [0, 1, 2]
        rng.shuffle(groups)
        out = []
        for g in groups:
            inner = [0, 1, 2]
            rng.shuffle(inner)
            out += [3 * g + i for i in inner]
        return out

    rows, cols = lines(), lines()
    names = list("123456789")
    rng.shuffle(names)
    relabel = {str(d + 1): names[d] for d in range(9)}
    flip = rng.random() < 0.5
    out = []
    for i in range(9):
        for j in range(9):
            r, c = (rows[i], cols[j]) if not flip else (cols[j], rows[i])
            ch = line[9 * r + c]
            out.append(relabel.get(ch, "."))
    return "".join(out)


def _cells(line: str) -> np.ndarray:
    return np.array([0 if ch in ".0" else int(ch) for ch in line], dtype=np.int8)


@settings(max_examples=60, deadline=None)
@given(k=st.integers(0, 1464), seed=st.integers(0, 2**32))
def test_isomorphic_puzzles_share_invariant_and_hash(k: int, seed: int) -> None:
    line = load_lines("top1465.txt")[k]
    other = _isomorph(line, random.Random(seed))
    a, b = _cells(line), _cells(other)
    assert novelty.invariants(a)[0] == novelty.invariants(b)[0]
    assert novelty.canonical_hashes(a)[0] == novelty.canonical_hashes(b)[0]


def test_the_invariant_tells_apart_what_it_counts() -> None:
    """A clue fewer, or a clue moved to another row's count, changes the invariant."""
    cells = _cells(load_lines("top1465.txt", limit=1)[0])
    filled = np.flatnonzero(cells)
    fewer = cells.copy()
    fewer[filled[0]] = 0
    row_counts = np.count_nonzero(cells.reshape(9, 9), axis=1)
    assert novelty.invariants(fewer)[0] != novelty.invariants(cells)[0]
    # all clues moved into the first rows: the row counts' multiset changes
    packed = np.zeros(81, dtype=np.int8)
    packed[: filled.size] = cells[filled]
    assert sorted(np.count_nonzero(packed.reshape(9, 9), axis=1)) != sorted(row_counts)
    assert novelty.invariants(packed)[0] != novelty.invariants(cells)[0]


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_puzzles_and_their_isomorphs_are_never_new(name: str) -> None:
    keys = novelty.default_keys()
    rng = random.Random(name)
    for line in load_lines(name, step=97):
        assert not keys.is_new(_cells(line)), line
        assert not keys.is_new(_cells(_isomorph(line, rng))), line


def test_the_seed_bank_is_never_new() -> None:
    keys = novelty.default_keys()
    assert not any(keys.is_new(cs.parse(line).cells) for line in SEED_BANK)


def test_generated_puzzles_are_new_and_a_run_never_repeats_one() -> None:
    keys = novelty.default_keys()
    made = [g.puzzle for g in cs.generate(30, minimal=True, seed=3)]
    rng = random.Random(3)
    for p in made:
        assert keys.is_new(p.cells)
        keys.add(p.cells)
        assert not keys.is_new(p.cells)
        assert not keys.is_new(_cells(_isomorph(p.to_line(), rng)))
    fresh = novelty.default_keys()  # a new run's set does not hold the old run's
    assert all(fresh.is_new(p.cells) for p in made)


def test_a_run_of_random_puzzles_pays_for_few_canonical_forms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The invariant answers most lookups: canonical forms are computed only
    for puzzles whose invariant an avoided puzzle shares."""
    calls = [0]
    real = novelty.canonical_hashes

    def counting(cells: np.ndarray) -> np.ndarray:
        calls[0] += 1
        return real(cells)

    monkeypatch.setattr(novelty, "canonical_hashes", counting)
    got = list(cs.generate(200, minimal=True, seed=5))
    assert len(got) == 200
    assert calls[0] < 40, calls[0]


def test_the_shipped_keys_cover_every_published_list() -> None:
    """A spread sample of each list (and the file's own record of its sources)."""
    with np.load(novelty.KEYS_FILE) as data:
        sources = [str(s) for s in data["sources"]]
        hashes = set(data["hashes"].tolist())
    for name in PUBLISHED:
        assert any(s.startswith(f"{name}.xz: ") for s in sources), sources
        sample = np.stack([_cells(x) for x in load_lines(name, step=211)])
        assert set(novelty.canonical_hashes(sample).tolist()) <= hashes


@pytest.mark.slow
def test_the_shipped_keys_are_what_the_script_builds_from_the_lists() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_reference_keys
    finally:
        sys.path.pop(0)
    inv, hashes, _sources = build_reference_keys.build()
    with np.load(novelty.KEYS_FILE) as data:
        assert np.array_equal(data["invariants"], inv)
        assert np.array_equal(data["hashes"], hashes)


def _use_keys_file(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setattr(novelty, "KEYS_FILE", path)


@pytest.mark.parametrize("damage", ["truncated", "altered", "missing"])
def test_a_damaged_key_file_is_an_error_that_names_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, damage: str
) -> None:
    bad = tmp_path / "reference_keys.npz"
    if damage == "truncated":
        data = novelty.KEYS_FILE.read_bytes()
        bad.write_bytes(data[: len(data) // 2])
    elif damage == "altered":
        with np.load(novelty.KEYS_FILE) as data:
            arrays = {k: data[k] for k in data.files}
        arrays["hashes"] = arrays["hashes"].copy()
        arrays["hashes"][7] ^= np.uint64(1)  # one key changed, the checksum kept
        np.savez(bad, **arrays)
    _use_keys_file(monkeypatch, bad)
    with pytest.raises(GenerationError, match=r"reference_keys\.npz"):
        list(cs.generate(1, seed=1))
    code, out, err = run_cli(["generate", "-n", "1", "--seed", "1", "-q"])
    assert (code, out) == (2, "")
    assert str(bad) in err
    assert ("damaged" if damage == "altered" else "cannot be read") in err


@pytest.mark.slow
def test_an_installed_package_refuses_a_published_puzzle_with_no_variable(
    tmp_path: Path,
) -> None:
    """The wheel, installed away from the repository, with no environment
    variable: its keys are found, a published puzzle is not new and a plain
    generate warns of nothing."""
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(wheels), str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = wheels.glob("csp_sudoku-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        assert "csp_sudoku/data/reference_keys.npz" in zf.namelist()
        zf.extractall(site)
    published = load_lines("forum_hardest_11plus.txt", limit=1)[0]
    code = (
        "import sys, warnings\n"
        "warnings.simplefilter('error')\n"
        "import csp_sudoku as cs\n"
        "from csp_sudoku.generators.novelty import default_keys\n"
        f"assert cs.__file__.startswith({str(site)!r}), cs.__file__\n"
        f"print(default_keys().is_new(cs.parse({published!r}).cells))\n"
        "print(len(list(cs.generate(2, seed=1))))\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("CSP_SUDOKU")}
    env["PYTHONPATH"] = str(site)
    work = tmp_path / "elsewhere"
    work.mkdir()
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=work, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "2"]
    assert out.stderr == ""
    shutil.rmtree(site)


def test_a_method_whose_puzzles_are_all_known_ends_and_says_why() -> None:
    """The pseudo-generator's minimal puzzles reduce to the forum's published
    ones: the run stops after COPIES_LIMIT copies in a row, with what it found,
    exit 1, and the way out (it once searched for ever)."""
    from csp_sudoku.generators.target import COPIES_LIMIT

    code, out, err = run_cli(["generate", "-n", "3", "--seed", "1", "--method", "pseudo"])
    assert code == 1
    assert len(out.splitlines()) < 3
    assert f"the next {COPIES_LIMIT} puzzles made were all copies" in err
    assert "--not-minimal" in err
    code, out, _err = run_cli(
        ["generate", "-n", "3", "--seed", "1", "--method", "pseudo", "--not-minimal"]
    )
    assert code == 0 and len(out.splitlines()) == 3
    keys = novelty.default_keys()
    assert all(keys.is_new(_cells(line.split()[0])) for line in out.splitlines())
