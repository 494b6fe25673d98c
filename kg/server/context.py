"""The running server's state: configuration, the worker pool, the store it serves, and
per-build caches (counts, base IRI)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from starlette.requests import Request

from kg.server.config import ServeConfig
from kg.server.errors import HttpError
from kg.server.lanes import ClientLanes
from kg.server.pool import WorkerPool


class ClientGone(Exception):
    """The client closed the connection before its answer was ready."""


class ServerContext:
    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.pool = WorkerPool(config.workers, config.worker_memory)
        self.lanes = ClientLanes(self.pool.size)
        self._stats: dict[str, dict[str, Any]] = {}
        self._stats_lock = asyncio.Lock()

    def store_path(self) -> str:
        """The complete build the store link points at now (a new build swaps the link)."""
        path = os.path.realpath(self.config.store)
        if not os.path.isdir(path):
            raise HttpError(503, f"{self.config.store}: no store; run `kg build` first")
        return path

    async def run(
        self,
        kind: str,
        kwargs: dict[str, Any],
        *,
        timeout: float | None = None,
        request: Request | None = None,
    ) -> Any:
        """Run a job on a worker; with ``request``, in its client's lane (lanes.py), and
        stopped if the client disconnects."""
        timeout = timeout or self.config.timeout
        path = self.store_path()
        if request is None:
            return await self.pool.run(kind, path, kwargs, timeout)
        client = request.client.host if request.client else ""
        async with self.lanes.hold(client, timeout):
            job = self.pool.run(kind, path, kwargs, timeout)
            return await _unless_disconnected(job, request)

    async def stats(self) -> dict[str, Any]:
        """Counts and base IRI of the store being served (computed once per build)."""
        path = self.store_path()
        if path not in self._stats:
            async with self._stats_lock:
                if path not in self._stats:
                    stats = await self.pool.run("stats", path, {}, self.config.dump_timeout)
                    self._stats = {path: stats}
        return self._stats[path]


async def _unless_disconnected(job: Any, request: Request) -> Any:
    task = asyncio.ensure_future(job)
    watch = asyncio.ensure_future(_disconnect(request))
    try:
        done, _ = await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        watch.cancel()
        raise
    if task in done:
        watch.cancel()
        return task.result()
    task.cancel()
    raise ClientGone


async def _disconnect(request: Request) -> None:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
