"""Per-client lanes: one client address holds at most half of the query workers.

Eight slow queries from one client used to take every worker, and everyone else waited for
the timeout. A pyoxigraph query cannot be told short from long before it runs, and killing
the longest job punishes whoever is unlucky; a cap per client address is predictable: the
other half of the pool stays free for other clients, whose light queries start at once.
A client over its share waits (up to the query timeout) for one of its own jobs to end.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from kg.server.errors import HttpError


class ClientLanes:
    def __init__(self, workers: int) -> None:
        self.share = max(1, workers // 2)
        self._lanes: dict[str, asyncio.Semaphore] = {}
        self._users: dict[str, int] = {}  # holders and waiters: the lane is dropped at zero

    @contextlib.asynccontextmanager
    async def hold(self, client: str, timeout: float) -> AsyncIterator[None]:
        lane = self._lanes.setdefault(client, asyncio.Semaphore(self.share))
        self._users[client] = self._users.get(client, 0) + 1
        try:
            try:  # a free lane is taken at once, without a task to wait on it
                if lane.locked():
                    await asyncio.wait_for(lane.acquire(), timeout)
                else:
                    await lane.acquire()
            except TimeoutError:
                raise HttpError(
                    503, f"this client already runs {self.share} queries; try again shortly"
                ) from None
            try:
                yield
            finally:
                lane.release()
        finally:
            self._users[client] -= 1
            if not self._users[client]:
                del self._users[client], self._lanes[client]
