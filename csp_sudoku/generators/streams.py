"""Long tasks whose items come back while they run, merged in a fixed order.

:func:`~csp_sudoku.core.parallel.ordered_map` hands a task's result back when
the task ends. An annealing chain runs for the whole budget and finds its
puzzles along the way: waiting for its end would hold every puzzle back until
then. :func:`round_robin` runs a few such tasks at once (a private process
pool, any ``concurrent.futures`` executor, or a ``dask.distributed.Client``)
and gives each a :class:`Channel`: the task puts every item on it as soon as
it has one (and progress reports), and looks now and then whether the caller
has stopped reading.

The order of the items does not depend on timing: round ``r`` takes item ``r``
of task 0, then of task 1, ..., so an item is yielded as soon as every item
before it in that order is there (or its task has ended without it). What a
task returns when it ends is the authority on its items: an item sent twice
(a Dask task run again after its worker died sends its items again) is kept
once, and an item lost on the way is taken from the result.
"""

from __future__ import annotations

import os
import pickle
import queue as queue_mod
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack
from typing import Any

# _result: a task's result, a worker process that died being a BatchError
from csp_sudoku.core.parallel import DaskSubmitter, _result, exit_with_parent

__all__ = ["Channel", "round_robin"]


class Channel:
    """From the tasks to the caller: a message queue and a stop flag (picklable).

    Messages go as pickled bytes (a Dask queue carries only msgpack-able data).
    ``queue`` and ``event`` are a ``multiprocessing`` manager's proxies or a
    ``distributed.Queue`` and ``distributed.Event``: both pickle by reference.
    """

    def __init__(self, queue: Any, event: Any, batched: bool = False) -> None:
        self.queue = queue
        self.event = event
        #: a Dask queue: read what is there (``get(batch=True)``), never wait in
        #: ``get`` (its scheduler logs an error for every wait that times out)
        self.batched = batched
        self.pending: deque[tuple[Any, ...]] = deque()

    def put(self, *message: Any) -> None:
        """Send ``message`` (a tuple whose first field names its kind) to the caller."""
        self.queue.put(pickle.dumps(message))

    def stopped(self) -> bool:
        """True once the caller has stopped reading (or is gone): the task may end at once."""
        try:
            return bool(self.event.is_set())
        except Exception:  # the caller's end is closed (its manager shut down, the client gone)
            return True

    def receive(self, timeout: float) -> tuple[Any, ...] | None:
        """The next message, or None when none came within ``timeout`` seconds."""
        if not self.pending and self.batched:
            self.pending.extend(pickle.loads(data) for data in self.queue.get(batch=True))
            if not self.pending:
                time.sleep(timeout)
        if self.pending:
            return self.pending.popleft()
        if self.batched:
            return None
        try:
            data = self.queue.get(timeout=timeout)
        except (queue_mod.Empty, TimeoutError):
            return None
        message: tuple[Any, ...] = pickle.loads(data)
        return message


def _is_dask(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed") and hasattr(executor, "nthreads")


def _open(executor: Any, tasks: int, stack: ExitStack) -> tuple[Any, Channel]:
    """The submitter and the channel for ``executor`` (None: a private process pool)."""
    if _is_dask(executor):
        from distributed import Event, Queue

        name = f"csp-sudoku-{uuid.uuid4().hex}"
        dq = Queue(f"{name}-q", client=executor)  # type: ignore[no-untyped-call,unused-ignore]
        stack.callback(dq.close)
        stop = Event(f"{name}-stop", client=executor)  # type: ignore[no-untyped-call,unused-ignore]
        return DaskSubmitter(executor), Channel(dq, stop, batched=True)
    from multiprocessing.managers import SyncManager

    manager = SyncManager()
    manager.start(exit_with_parent, (os.getpid(),))  # ends with this process, even on kill -9
    stack.callback(manager.shutdown)
    channel = Channel(manager.Queue(), manager.Event())
    if executor is None:
        pool = ProcessPoolExecutor(tasks, initializer=exit_with_parent, initargs=(os.getpid(),))
        stack.callback(pool.shutdown, wait=False, cancel_futures=True)
        executor = pool
    return executor, channel


def round_robin(
    fn: Callable[..., tuple[list[Any], Any]],
    tasks: Sequence[tuple[Any, ...]],
    shares: Sequence[int],
    *,
    executor: Executor | Any = None,
    ended: Callable[[int, int, Any], None] | None = None,
    message: Callable[[tuple[Any, ...]], None] | None = None,
    poll: float = 0.2,
) -> Iterator[tuple[int, Any]]:
    """Run ``fn(*task, index, channel)`` for every task at once; yield ``(index, item)`` in order.

    Task ``w`` sends its ``j``-th item as ``channel.put("item", w, j, item)``
    as soon as it has it, and returns ``(items, extra)`` when it ends (at most
    ``shares[w]`` items). The items come out in round-robin order (item 0 of
    every task, then item 1 ...), each as soon as the items before it are
    out, so the order depends on the tasks' outputs alone, not on timing.

    Args:
        fn: a picklable (module-level) function.
        tasks: the argument tuples, all run at once (one worker each).
        shares: the most items each task makes.
        executor: a ``concurrent.futures`` executor, a ``distributed.Client``,
            or None for a private process pool of ``len(tasks)`` workers.
        ended: called with ``(index, items, extra)`` when a task has ended.
        message: called with every other message a task puts.
        poll: seconds to wait for a message before looking at the tasks again.

    Raises:
        BatchError: a worker process of a local pool died.
    """
    order = [
        (w, r) for r in range(max(shares, default=0)) for w in range(len(tasks)) if r < shares[w]
    ]
    got: list[dict[int, Any]] = [{} for _ in tasks]
    done: list[int | None] = [None] * len(tasks)
    with ExitStack() as stack:
        pool, channel = _open(executor, len(tasks), stack)
        futures = [pool.submit(fn, *task, w, channel) for w, task in enumerate(tasks)]
        stack.callback(lambda: [f.cancel() for f in futures])
        stack.callback(channel.event.set)  # first of all on the way out: the tasks stop

        def collect(w: int) -> None:
            items, extra = _result(futures[w])
            for j, item in enumerate(items):
                got[w].setdefault(j, item)
            done[w] = len(items)
            if ended is not None:
                ended(w, len(items), extra)

        pos = 0
        while pos < len(order):
            w, r = order[pos]
            if r in got[w]:
                yield w, got[w][r]
                pos += 1
                continue
            if done[w] is not None:  # ended with fewer: passed over from now on
                pos += 1
                continue
            msg = channel.receive(poll)
            if msg is not None and msg[0] == "item":
                got[msg[1]].setdefault(msg[2], msg[3])
            elif msg is not None and message is not None:
                message(msg)
            for k, fut in enumerate(futures):
                if done[k] is None and fut.done():
                    collect(k)
        for k in range(len(futures)):  # every share is out: the tasks end now
            if done[k] is None:
                collect(k)
