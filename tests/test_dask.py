"""check on a Dask LocalCluster, including a worker killed in the middle of a run."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from distributed import Client, LocalCluster

from csp_sudoku.cli import main
from csp_sudoku.core.io import read_puzzles
from csp_sudoku.tools.batch import BatchError, check_entries, dask_client
from tests.conftest import load_lines


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(
        n_workers=3, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as c:
        yield c


def _lines() -> list[str]:
    hard = load_lines("forum_hardest_11plus.txt", limit=400)
    multi = load_lines("multi_solution_serg.txt", limit=200)
    mixed = [x for pair in zip(hard[:200], multi, strict=True) for x in pair]
    return [*mixed, "x" * 81, *hard[200:]]


def test_killed_worker_loses_and_duplicates_nothing(cluster: LocalCluster) -> None:
    lines = _lines()
    expected = list(check_entries(read_puzzles(lines), backend="sat", chunk_size=25))
    with Client(cluster) as client:
        pids = client.run(os.getpid)
        got = []
        killed = False
        victim = -1
        for r in check_entries(
            read_puzzles(lines), backend="sat", chunk_size=25, jobs=3, executor=client
        ):
            got.append(r)
            if len(got) == 100 and not killed:
                victim = sorted(pids.values())[0]
                os.kill(victim, signal.SIGKILL)
                killed = True
        assert killed
        # the worker really died (the scheduler may not know yet: its broadcast
        # to the dead worker fails, and only the live ones answer)
        assert victim not in client.run(os.getpid, on_error="ignore").values()
    assert [(r.line, r.status, r.count) for r in got] == [
        (r.line, r.status, r.count) for r in expected
    ]
    assert len(got) == len(lines)


def test_cli_scheduler_address(cluster: LocalCluster, tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(load_lines("top1465.txt", limit=300)) + "\n")
    local, remote = tmp_path / "local.txt", tmp_path / "dask.txt"
    assert main(["check", str(src), "-o", str(local), "-q"]) == 0
    args = ["check", str(src), "-o", str(remote), "-q", "--chunk-size", "30"]
    assert main([*args, "--scheduler", cluster.scheduler_address]) == 0
    assert remote.read_text() == local.read_text()


def test_unreachable_scheduler_is_a_clear_error() -> None:
    with pytest.raises(BatchError, match="cannot reach"):
        dask_client("tcp://127.0.0.1:9", timeout=1)


@pytest.mark.parametrize(
    "address", ["abc", "0", "/tmp/x", "tcp://h:99999", "local:0", "local:-2", "local:two"]
)
def test_a_malformed_scheduler_address_is_a_clear_error(
    address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before, Dask's ValueError came out as an internal error (exit 70).
    with pytest.raises(BatchError, match=r"scheduler address|local:N"):
        dask_client(address, timeout=1)
    path = tmp_path / "in.txt"
    path.write_text("\n".join(load_lines("top1465.txt", limit=3)) + "\n")
    assert main(["check", "--scheduler", address, str(path)]) == 2
    assert address in capsys.readouterr().err


def _square_sum(a: int, b: int) -> int:
    return a * a + b


def test_ordered_map_on_pool_and_dask(cluster: LocalCluster) -> None:
    from csp_sudoku.tools.batch import ordered_map

    tasks = [(i, i % 3) for i in range(40)]
    want = [_square_sum(*t) for t in tasks]
    assert list(ordered_map(_square_sum, iter(tasks))) == want
    assert list(ordered_map(_square_sum, iter(tasks), jobs=2)) == want
    with Client(cluster) as client:
        assert list(ordered_map(_square_sum, iter(tasks), jobs=0, executor=client)) == want
        gen = ordered_map(_square_sum, iter(tasks), jobs=2, executor=client)
        assert next(gen) == want[0]
        gen.close()  # stopping early cancels the rest


def test_anneal_chains_on_dask_give_the_local_puzzles(cluster: LocalCluster) -> None:
    """Annealing chains on the cluster (streamed back through a Dask queue): the same
    seed and jobs give the local run's puzzles, in the same order."""
    import math

    from csp_sudoku.generators import generate
    from tests.independent import count_solutions

    def run(**kw: object) -> list[tuple[str, int]]:
        got = generate(
            5, score_range=(3.0, math.inf), metric="se", method="anneal", seed=6, jobs=2, **kw
        )
        return [(g.puzzle.to_line(), g.seed) for g in got]

    local = run()
    with Client(cluster) as client:
        assert run(executor=client) == local
    assert len({p for p, _ in local}) == 5
    for p, _ in local:
        assert count_solutions([0 if c == "." else int(c) for c in p], limit=2) == 1


def test_items_stream_from_dask_workers_while_their_tasks_run(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    from csp_sudoku.generators.streams import round_robin
    from tests.test_streams import waits_for_file

    flag = tmp_path / "read"
    with Client(cluster) as client:
        extras: list[object] = []
        stream = round_robin(
            waits_for_file,
            [(str(flag),)],
            [2],
            executor=client,
            ended=lambda w, n, e: extras.append(e),
        )
        assert next(stream) == (0, "first")  # while the task still waits for the flag
        flag.touch()
        assert list(stream) == [(0, "second")]
    assert extras == [True]


def test_cli_anneal_on_a_scheduler_address(cluster: LocalCluster, tmp_path: Path) -> None:
    """``--scheduler ADDRESS`` runs the chains on the cluster: the local --jobs 2 rows."""
    import json

    argv = ["generate", "-n", "3", "--method", "anneal", "--metric", "se", "--score-min", "3"]
    argv += ["--seed", "9", "--jobs", "2", "--format", "jsonl", "-q"]
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert main([*argv, "-o", str(local)]) == 0
    assert main([*argv, "-o", str(remote), "--scheduler", cluster.scheduler_address]) == 0

    def rows(path: Path) -> list[dict[str, object]]:
        lines = path.read_text().splitlines()
        return [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in lines]

    assert rows(remote) == rows(local) and len(rows(local)) == 3


def test_anneal_chain_of_a_killed_worker_runs_again_and_repeats_nothing(
    cluster: LocalCluster,
) -> None:
    """A worker killed while its chain runs: Dask runs the chain again elsewhere (it
    sends its puzzles again, from the first), and the run still equals the local one."""
    import math

    from csp_sudoku.generators import generate

    def run(**kw: object) -> Iterator[str]:
        got = generate(
            12, score_range=(3.0, math.inf), metric="se", method="anneal", seed=4, jobs=2, **kw
        )
        return (g.puzzle.to_line() for g in got)

    local = list(run())
    with Client(cluster) as client:
        pids = client.run(os.getpid)
        got: list[str] = []
        for line in run(executor=client):
            got.append(line)
            if len(got) == 1:
                busy = [w for w, tasks in client.processing().items() if tasks]
                # a busy worker's chain runs again elsewhere; were both chains done
                # already (a very fast machine), an idle worker dies and nothing changes
                victim = pids[(busy or sorted(pids))[0]]
                os.kill(victim, signal.SIGKILL)
        # the worker really died (the scheduler may not know yet: its broadcast
        # to the dead worker fails, and only the live ones answer)
        assert victim not in client.run(os.getpid, on_error="ignore").values()
    assert got == local and len(set(got)) == 12
