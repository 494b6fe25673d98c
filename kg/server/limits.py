"""What a client may hold of the server while it sends a request: time, connections, memory.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``), but waits for ever
for the first request's headers, and for a body, and accepts every connection. Here:

- ``protocol(config)``: uvicorn's httptools protocol (h11 where httptools is missing) with a
  deadline for the request line and headers (``read_timeout`` from the connection or the
  previous answer: 408 and close), a cap on open connections (the one over it gets 503 and
  is closed), a cap on one request's line and headers (431 and close past ``max_request``
  and 64 KiB) and a budget for the bytes of headers not yet complete, over all connections
  (503 and close past it);
- ``RequestLimits``: the ASGI side, for bodies: 413 past ``max_request`` (414 for a query
  string), 408 when the body is not complete ``read_timeout`` seconds after its headers, and
  503 when the bodies being received, over all requests, would pass their budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from kg.server.config import ServeConfig
from kg.server.errors import HttpError

try:  # uvicorn's binding of llhttp: a request parsed in C, not in Python (h11)
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools not installed: h11 does the same, slower
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


HEADROOM = 64 << 10  # bytes of request line and headers besides a query string of max_request


def _raw(status: int, reason: str, text: str) -> bytes:
    body = f"{status}: {text}\n".encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class _Budget:
    """Bytes held for requests still arriving, shared by every connection of one server."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self.peak = 0

    def take(self, n: int) -> bool:
        if self.held + n > self.limit:
            return False
        self.held += n
        self.peak = max(self.peak, self.held)
        return True

    def give(self, n: int) -> None:
        self.held -= n
        if self.held == 0 and self.peak > 8 << 20:  # hand a burst's memory back to the OS
            self.peak = 0
            _trim()


def _trim() -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


class _Guard:
    """A header deadline, a connection cap, a header cap and a budget (set by ``protocol``,
    per server) around one of uvicorn's HTTP protocols (the class after this in the bases)."""

    limits: ServeConfig  # not `config`: uvicorn's own Config has that name
    budget: _Budget
    connections: set
    cycle: Any
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._awaiting = False  # between requests: the next one's headers are due
        self._pending = 0  # bytes received towards headers not yet complete
        self._line_read = False  # the request line of the headers awaited has ended
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.limits.max_connections:
            self._refused = True
            transport.write(_raw(503, "Service Unavailable", "too many open connections"))
            transport.close()
            return
        super().connection_made(transport)
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        if not self._refused:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._awaiting:
            if not self.budget.take(len(data)):
                return self._close(503, "Service Unavailable", "too many requests arriving")
            self._pending += len(data)
            self._line_read = self._line_read or b"\n" in data
            if self._pending > self.limits.max_request + HEADROOM:
                if not self._line_read:  # still in the request line: its URI is too long
                    return self._close(414, "URI Too Long", "request line too long")
                return self._close(431, "Request Header Fields Too Large", "headers too large")
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # the headers were complete: a request has begun
            self._release()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_headers()  # the next request's headers have read_timeout too

    def _await_headers(self) -> None:
        self._release()
        self._awaiting = True
        self._line_read = False
        self._deadline = self.loop.call_later(self.limits.read_timeout, self._expired)

    def _release(self) -> None:
        self._awaiting = False
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.budget.give(self._pending)
        self._pending = 0

    def _expired(self) -> None:
        self._deadline = None
        self._close(408, "Request Timeout", f"no request within {self.limits.read_timeout:g} s")

    def _close(self, status: int, reason: str, text: str) -> None:
        self._release()
        if not self.transport.is_closing():
            self.transport.write(_raw(status, reason, text))
            self.transport.close()


class GuardedProtocol(_Guard, H11Protocol):
    pass


GuardedHttpTools = (
    None if HttpToolsProtocol is None else type("GuardedHttpTools", (_Guard, HttpToolsProtocol), {})
)


def protocol(config: ServeConfig, http: str = "auto") -> type:
    """The protocol class for one server: its limits, and one budget for all its connections.
    ``http``: "h11", "httptools", or "auto" (httptools where installed)."""
    budget = _Budget(config.receive_budget)
    base = GuardedHttpTools if http != "h11" and GuardedHttpTools is not None else GuardedProtocol
    if http == "httptools" and GuardedHttpTools is None:
        raise RuntimeError("httptools is not installed")
    return type("Guarded", (base,), {"limits": config, "budget": budget})


class RequestLimits:
    """Bodies: 413 (or 414 for a query string) past the size limit, before they are read
    whole; 408 past the read timeout; 503 past the budget of bodies being received."""

    def __init__(self, app: ASGIApp, config: ServeConfig) -> None:
        self.app = app
        self.max = config.max_request
        self.timeout = config.read_timeout
        self.budget = _Budget(config.receive_budget)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if len(scope.get("query_string", b"")) > self.max:
            return await plain(send, 414, f"query string over {self.max} bytes")
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max):
            return await plain(send, 413, f"request body over {self.max} bytes")
        body = _Body(
            receive, self.max, self.budget, asyncio.get_running_loop().time() + self.timeout
        )
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, body.receive, tracking_send)
        except _Cut as e:
            if not started:
                await plain(send, e.error.status, e.error.message)
        finally:
            self.budget.give(body.held)


class _Cut(Exception):
    """Stops the app (not an HttpError: a route must not answer it and keep the connection)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.error = HttpError(status, message)


class _Body:
    """``receive`` for one request: counted, under a deadline until the body is complete."""

    def __init__(self, receive: Receive, limit: int, budget: _Budget, deadline: float) -> None:
        self._receive = receive
        self.limit = limit
        self.budget = budget
        self.deadline = deadline
        self.held = 0
        self.complete = False

    async def receive(self) -> Message:
        if self.complete:  # after the body: only the disconnect is awaited, for as long as it takes
            return await self._receive()
        try:  # a deadline on the await itself: wait_for would start a task per message
            async with asyncio.timeout_at(self.deadline):
                message = await self._receive()
        except TimeoutError:
            raise _Cut(408, "the request body did not arrive in time") from None
        if message["type"] == "http.request":
            chunk = len(message.get("body", b""))
            if self.held + chunk > self.limit:
                raise _Cut(413, f"request body over {self.limit} bytes")
            if not self.budget.take(chunk):
                raise _Cut(503, "the server is receiving too many requests; try again")
            self.held += chunk
            self.complete = not message.get("more_body", False)
        else:
            self.complete = True
        return message


async def plain(send: Send, status: int, text: str) -> None:
    """A short text answer that closes the connection."""
    body = f"{status}: {text}\n".encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
