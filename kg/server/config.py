"""What ``kg serve`` was asked for: the store, limits and pool size."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ServeConfig:
    store: Path
    timeout: float = 30.0  # seconds a query may run before its worker is killed
    limit: int = 10_000  # most rows (SELECT) or triples (CONSTRUCT/DESCRIBE) in one answer
    # query worker processes: more than the CPUs, so that short queries are not queued
    # behind long ones (the OS shares the cores between them, as a threaded server would)
    workers: int = max(4, 4 * (os.cpu_count() or 1))
    max_request: int = 1 << 20  # bytes of request body (and of query string)
    read_timeout: float = 10.0  # seconds for a request's headers, and then for its body
    max_connections: int = 512  # open connections; the one over gets 503 and is closed
    receive_budget: int = 64 << 20  # bytes of headers (and of bodies) being received, all clients
    worker_memory: int | None = 2048  # MB of address space per worker; None: no cap
    dump_timeout: float = 600.0  # seconds to write one full dump
    dumps: Path | None = None  # where dump files are cached (default: beside the store)
