"""A query worker: a process that opens the store read-only and answers the server's jobs.

pyoxigraph cannot interrupt a query, so the server kills a worker whose job outlives the
timeout and starts another (pool.py). Each worker also:

- runs without network where the OS allows it (its own empty network namespace), so no
  query can reach another host even if the SERVICE guard were bypassed;
- caps its address space (``--worker-memory``), so a query that would eat the machine's
  memory ends this process only, and the server answers with an error;
- opens the store at the path each job names (the resolved link), reopening when a new
  build has been swapped in: requests are always served from the last complete store.

A job is ``(kind, store_path, kwargs)``; the reply ``("ok", value)`` or
``("error", http_status, message)``.
"""

from __future__ import annotations

import ctypes
import os
import resource
from multiprocessing.connection import Connection
from typing import Any

from kg.errors import KgError
from kg.server.errors import HttpError
from kg.server.jobs import JOBS
from kg.store import open_store

CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000


# "off" runs workers on the host's network: for tests that the SERVICE guard holds alone
ISOLATION_ENV = "KG_SERVE_NETWORK_ISOLATION"


def isolate_network() -> bool:
    """Move this process into a new, empty network namespace; False where not permitted."""
    if os.environ.get(ISOLATION_ENV) == "off":
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    # as root a new network namespace is enough; otherwise a user namespace must come with it
    return any(libc.unshare(flags) == 0 for flags in (CLONE_NEWNET, CLONE_NEWUSER | CLONE_NEWNET))


def limit_memory(megabytes: int | None) -> None:
    if megabytes:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(conn: Connection, memory_mb: int | None) -> None:
    """The worker's loop: one job at a time until the server closes the pipe."""
    isolated = isolate_network()
    limit_memory(memory_mb)
    opened: tuple[str, Any] | None = None
    conn.send(("ready", {"pid": os.getpid(), "isolated": isolated}))
    while True:
        try:
            kind, path, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if opened is None or opened[0] != path:
                opened = None  # drop the previous build's store before opening the new one
                opened = (path, open_store(path))
            reply: tuple = ("ok", JOBS[kind](opened[1], **kwargs))
        except HttpError as e:
            reply = ("error", e.status, e.message)
        except KgError as e:  # a bad IRI or query is the client's; a failed read is ours
            failed = HttpError.of(e)
            reply = ("error", failed.status, failed.message)
        except MemoryError:
            reply = ("error", 500, "the query needed more memory than a worker may use")
        conn.send(reply)
