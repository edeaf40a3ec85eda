"""Long tasks whose items come back while they run, merged in a fixed order.

:func:`~csp_sudoku.core.parallel.ordered_map` hands a task's result back when
the task ends. An annealing chain runs for the whole budget and finds its
puzzles along the way: waiting for its end would hold every puzzle back until
then. :func:`round_robin` runs a few such tasks at once (a private process
pool, any ``concurrent.futures`` executor, or a ``dask.distributed.Client``)
and gives each a :class:`Channel`: the task puts every item on it as soon as
it has one (and progress reports), and looks now and then whether the caller
has stopped reading. Locally the channel is a ``multiprocessing`` manager's
queue; on Dask, events the worker logs under a topic that the client
subscribes to.

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

# _result, _submit: a task's result, its submission; a worker process that died being a BatchError
from csp_sudoku.core.parallel import (
    DaskSubmitter,
    _result,
    _submit,
    end_workers,
    exit_with_parent,
)

__all__ = ["Channel", "round_robin"]


class Channel:
    """From the tasks to the caller: messages and a stop flag (picklable: one goes to each task).

    Messages go as pickled bytes: on a ``multiprocessing`` manager's queue
    (``queue``, a proxy), or with a Dask client as events of ``topic`` that the
    worker logs (``Worker.log_event``) and the client is sent as they come
    (``Client.subscribe_topic``: no polling of the scheduler, nothing kept
    there for long). ``event`` is a manager's or a ``distributed.Event``.
    """

    def __init__(self, event: Any, queue: Any = None, topic: str | None = None) -> None:
        self.event = event
        self.queue = queue
        self.topic = topic

    def put(self, *message: Any) -> None:
        """Send ``message`` (a tuple whose first field names its kind) to the caller.

        A message the caller can no longer read is dropped: the caller may read an
        item, stop and shut the manager down while the queue's answer to this very
        put is still on its way (seen once under load: the task then died of the
        lost answer instead of seeing the stop)."""
        data = pickle.dumps(message)
        if self.topic is None:
            try:
                self.queue.put(data)
            except Exception:
                if not self.stopped():
                    raise
        else:
            from distributed import get_worker

            get_worker().log_event(self.topic, {"message": data})

    def stopped(self) -> bool:
        """True once the caller has stopped reading (or is gone): the task may end at once."""
        try:
            return bool(self.event.is_set())
        except Exception:  # the caller's end is closed (its manager shut down, the client gone)
            return True


#: Reads the next message a task sent, waiting at most the given seconds; None if none came.
Receive = Callable[[float], "tuple[Any, ...] | None"]


def _is_dask(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed") and hasattr(executor, "nthreads")


def _from_queue(q: Any) -> Receive:
    def receive(timeout: float) -> tuple[Any, ...] | None:
        try:
            data = q.get(timeout=timeout)
        except (queue_mod.Empty, TimeoutError):
            return None
        message: tuple[Any, ...] = pickle.loads(data)
        return message

    return receive


def _from_topic(client: Any, topic: str, stack: ExitStack) -> Receive:
    inbox: deque[bytes] = deque()  # filled by the client's thread, read by this one
    client.subscribe_topic(topic, lambda event: inbox.append(event[1]["message"]))
    stack.callback(client.unsubscribe_topic, topic)

    def receive(timeout: float) -> tuple[Any, ...] | None:
        if not inbox:
            time.sleep(timeout)
            if not inbox:
                return None
        message: tuple[Any, ...] = pickle.loads(inbox.popleft())
        return message

    return receive


def _open(executor: Any, tasks: int, stack: ExitStack) -> tuple[Any, Channel, Receive]:
    """The submitter, the channel and its reader for ``executor`` (None: a private pool)."""
    if _is_dask(executor):
        from distributed import Event

        name = f"csp-sudoku-{uuid.uuid4().hex}"
        stop = Event(f"{name}-stop", client=executor)  # type: ignore[no-untyped-call,unused-ignore]
        receive = _from_topic(executor, name, stack)
        return DaskSubmitter(executor), Channel(stop, topic=name), receive
    from multiprocessing.managers import SyncManager

    manager = SyncManager()
    manager.start(exit_with_parent, (os.getpid(),))  # ends with this process, even on kill -9
    stack.callback(manager.shutdown)
    channel = Channel(manager.Event(), queue=manager.Queue())
    if executor is None:
        pool = ProcessPoolExecutor(tasks, initializer=exit_with_parent, initargs=(os.getpid(),))
        stack.callback(_close, pool)
        executor = pool
    return executor, channel, _from_queue(channel.queue)


def _close(pool: ProcessPoolExecutor) -> None:
    """Close a private pool on the way out: its workers ended now. When every share
    was out, they are idle; otherwise (a Ctrl-C, a SIGTERM, the caller stopped
    early, an error) a task still searching would stop only at its next look at
    the stop flag, and the interpreter's exit waited for it (0.7 s and more)."""
    end_workers(pool)
    pool.shutdown(wait=False, cancel_futures=True)


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
        pool, channel, receive = _open(executor, len(tasks), stack)
        futures = [_submit(pool, fn, *task, w, channel) for w, task in enumerate(tasks)]
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
            msg = receive(poll)
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
