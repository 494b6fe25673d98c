"""A small pool of worker processes (worker.py) driven from the server's event loop.

A job goes to an idle worker; the loop waits on the worker's pipe without a thread. If the
job outlives its timeout, or the client goes away, the worker is killed and replaced: that
is the only way to stop a pyoxigraph query that is still computing its first result.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing as mp
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from kg.server import worker
from kg.server.errors import HttpError


class _Worker:
    def __init__(self, proc: BaseProcess, conn: Connection) -> None:
        self.proc = proc
        self.conn = conn


def _context() -> mp.context.BaseContext:
    # forkserver: workers fork from a clean helper with kg preloaded (fast respawn, and never
    # a fork of the threaded server); spawn where fork is unavailable
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["kg.server.worker"])  # with its jobs and the store
        return ctx
    return mp.get_context("spawn")


class WorkerPool:
    def __init__(self, size: int, memory_mb: int | None = None) -> None:
        self.size = max(1, size)
        self.memory_mb = memory_mb
        self.isolated: bool | None = None
        self._ctx = _context()
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: set[_Worker] = set()
        self._tasks: set[asyncio.Task] = set()
        self._closed = False

    async def start(self) -> None:
        self._idle = asyncio.Queue()
        await asyncio.gather(*(self._spawn() for _ in range(self.size)))

    async def close(self) -> None:
        self._closed = True
        for t in list(self._tasks):
            t.cancel()
        for w in list(self._all):
            self._kill(w)

    async def run(self, kind: str, path: str, kwargs: dict[str, Any], timeout: float) -> Any:
        """Run one job; raise HttpError (503 busy or timed out, 500 crashed) when it fails."""
        assert self._idle is not None, "pool not started"
        w = await self._take(timeout)
        try:
            w.conn.send((kind, path, kwargs))
            reply = await asyncio.wait_for(self._recv(w), timeout)
        except TimeoutError:
            self._replace(w)
            raise HttpError(
                503, f"query timed out after {timeout:g} s (the server's --timeout)"
            ) from None
        except (EOFError, OSError, BrokenPipeError):
            self._replace(w)
            raise HttpError(
                500, "the query worker stopped (out of memory or crashed); nothing was sent"
            ) from None
        except asyncio.CancelledError:  # the client went away: stop its query too
            self._replace(w)
            raise
        self._idle.put_nowait(w)
        if reply[0] == "ok":
            return reply[1]
        raise HttpError(reply[1], reply[2])

    async def _take(self, timeout: float) -> _Worker:
        """An idle worker that is alive (one that died while idle is replaced)."""
        assert self._idle is not None
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:  # an idle worker at hand is taken without a task to wait on the queue
                w = self._idle.get_nowait()
            except asyncio.QueueEmpty:
                try:
                    w = await asyncio.wait_for(self._idle.get(), max(left, 0.001))
                except TimeoutError:
                    raise HttpError(503, "all query workers are busy; try again shortly") from None
            if w.proc.is_alive():
                return w
            self._replace(w)

    # -- processes ------------------------------------------------------------------------

    async def _spawn(self) -> None:
        parent, child = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(  # type: ignore[attr-defined]
            target=worker.main, args=(child, self.memory_mb), daemon=True
        )
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, proc.start)
        child.close()
        w = _Worker(proc, parent)
        self._all.add(w)
        try:
            _, info = await asyncio.wait_for(self._recv(w), 120)
        except (TimeoutError, EOFError, OSError):
            self._kill(w)
            raise RuntimeError("a query worker failed to start") from None
        self.isolated = info["isolated"] if self.isolated is None else self.isolated
        if self._closed:
            self._kill(w)
        else:
            assert self._idle is not None
            self._idle.put_nowait(w)

    def _replace(self, w: _Worker) -> None:
        self._kill(w)
        if not self._closed:
            task = asyncio.get_running_loop().create_task(self._spawn())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _kill(self, w: _Worker) -> None:
        self._all.discard(w)
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(w.conn.fileno())
        with contextlib.suppress(Exception):
            w.proc.kill()
        with contextlib.suppress(Exception):
            w.conn.close()
        with contextlib.suppress(Exception):
            w.proc.join(0.5)

    def _recv(self, w: _Worker) -> asyncio.Future:
        """A future for the worker's next message (or EOFError when it dies)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future = loop.create_future()
        fd = w.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if fut.done():
                return
            try:
                fut.set_result(w.conn.recv())
            except BaseException as e:  # EOFError when the worker died
                fut.set_exception(e)

        def done(f: asyncio.Future) -> None:
            if f.cancelled():
                with contextlib.suppress(Exception):
                    loop.remove_reader(fd)

        loop.add_reader(fd, readable)
        fut.add_done_callback(done)
        return fut
