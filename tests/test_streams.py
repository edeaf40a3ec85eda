"""round_robin: items of long tasks come out while the tasks run, in an order timing cannot change."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from csp_sudoku.core.errors import BatchError
from csp_sudoku.generators.streams import Channel, round_robin

#: set by the test once it has read the first item (tasks run in threads of this process)
_READ_FIRST = threading.Event()


def _letters(word: str, twice: bool, w: int, channel: Channel) -> tuple[list[str], Any]:
    """Send the letters of ``word`` one by one (each twice when asked), return them all."""
    for j, ch in enumerate(word):
        channel.put("item", w, j, ch)
        if twice:
            channel.put("item", w, j, ch)
        channel.put("progress", w, j)
    return list(word), len(word)


def _waits(w: int, channel: Channel) -> tuple[list[str], Any]:
    """Send one item, then wait until the caller has read it (or give up after 60 s)."""
    channel.put("item", w, 0, "first")
    streamed = _READ_FIRST.wait(60)
    return ["first", "second"], streamed


#: how each _until_stopped task ended
_OUTCOME: list[str] = []


def waits_for_file(flag: str, w: int, channel: Channel) -> tuple[list[str], Any]:
    """Send one item, then wait until the file ``flag`` exists (or give up after 60 s):
    the caller makes it once it has read the item (tasks in other processes)."""
    import os
    import time

    channel.put("item", w, 0, "first")
    for _ in range(600):
        if os.path.exists(flag):
            return ["first", "second"], True
        time.sleep(0.1)
    return ["first", "second"], False


def _until_stopped(w: int, channel: Channel) -> tuple[list[str], Any]:
    """Send one item, then run until the caller stops reading (or 60 s)."""
    channel.put("item", w, 0, "only")
    for _ in range(600):
        if channel.stopped():
            _OUTCOME.append("stopped")
            return ["only"], None
        threading.Event().wait(0.1)
    _OUTCOME.append("ran on")
    return ["only"], None


def _dies(w: int, channel: Channel) -> tuple[list[str], Any]:
    import os

    os._exit(3)


def test_round_robin_order_passes_over_short_tasks_and_keeps_resent_items_once() -> None:
    ended: dict[int, tuple[int, Any]] = {}
    progress: list[tuple[Any, ...]] = []
    tasks = [("abc", False), ("de", True), ("f", False)]
    with ThreadPoolExecutor(3) as pool:
        got = list(
            round_robin(
                _letters,
                tasks,
                [3, 3, 2],  # the second and third tasks end short of their shares
                executor=pool,
                ended=lambda w, n, extra: ended.__setitem__(w, (n, extra)),
                message=progress.append,
            )
        )
    assert got == [(0, "a"), (1, "d"), (2, "f"), (0, "b"), (1, "e"), (0, "c")]
    assert ended == {0: (3, 3), 1: (2, 2), 2: (1, 1)}
    assert all(m[0] == "progress" for m in progress)


def test_items_stream_before_their_task_ends() -> None:
    _READ_FIRST.clear()
    with ThreadPoolExecutor(1) as pool:
        extras: list[Any] = []
        stream = round_robin(
            _waits, [()], [2], executor=pool, ended=lambda w, n, e: extras.append(e)
        )
        assert next(stream) == (0, "first")  # while the task still waits
        _READ_FIRST.set()
        assert list(stream) == [(0, "second")]
    assert extras == [True]  # the task saw its first item read before it ended


def test_items_stream_from_worker_processes(tmp_path: Path) -> None:
    flag = tmp_path / "read"
    extras: list[Any] = []
    stream = round_robin(
        waits_for_file, [(str(flag),)], [2], ended=lambda w, n, e: extras.append(e)
    )  # a private process pool
    assert next(stream) == (0, "first")  # while the task still waits for the flag
    flag.touch()
    assert list(stream) == [(0, "second")]
    assert extras == [True]


def test_stopping_early_stops_the_tasks() -> None:
    _OUTCOME.clear()
    with ThreadPoolExecutor(1) as pool:  # leaving it waits for the task
        stream = round_robin(_until_stopped, [()], [2], executor=pool)
        assert next(stream) == (0, "only")
        stream.close()
    assert _OUTCOME == ["stopped"]


def test_a_dead_worker_is_a_batch_error() -> None:
    with pytest.raises(BatchError, match="worker process died"):
        list(round_robin(_dies, [(), ()], [1, 1]))


class _GoneQueue:
    """A manager's queue whose answer to a put is lost (the manager shut down)."""

    def put(self, data: bytes) -> None:
        raise EOFError("the manager is gone")


def test_a_put_the_caller_can_no_longer_read_is_dropped() -> None:
    """The caller may read an item and shut its manager down before the queue answers
    the task's put: that put is dropped once the caller has stopped, and the task goes
    on to see the stop; while the caller still reads, the failure is the task's."""
    stop = threading.Event()
    channel = Channel(stop, queue=_GoneQueue())
    with pytest.raises(EOFError):
        channel.put("item", 0, 0, "first")  # the caller still reads: a real failure
    stop.set()
    channel.put("item", 0, 1, "second")  # the caller has stopped: dropped
    assert channel.stopped()
