"""Test helpers: build a store with the real CLI, run a real `kg serve` process on a free
loopback port, and stop it (and its workers) afterwards."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import httpx

ROOT = Path(__file__).resolve().parent.parent
KG = [sys.executable, "-m", "kg.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kg(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the kg CLI as a user would (a separate process)."""
    out = subprocess.run([*KG, *args], capture_output=True, text=True, cwd=ROOT)
    if check and out.returncode != 0:
        raise AssertionError(f"kg {' '.join(args)} failed:\n{out.stdout}\n{out.stderr}")
    return out


def wait_ready(url: str, proc: subprocess.Popen, log: Path, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"kg serve exited:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/sparql?query=ASK%7B%7D", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"kg serve did not answer in {seconds} s:\n{log.read_text()}")


class Served(NamedTuple):
    url: str
    proc: subprocess.Popen


@contextlib.contextmanager
def kg_serve(store: Path, *options: str, log: Path | None = None) -> Iterator[str]:
    """A running `kg serve --store STORE OPTIONS…`; yields its base URL."""
    with kg_serve_process(store, *options, log=log) as served:
        yield served.url


@contextlib.contextmanager
def kg_serve_process(
    store: Path, *options: str, log: Path | None = None, env: dict[str, str] | None = None
) -> Iterator[Served]:
    """Like kg_serve, with the process (for its memory) and extra environment variables."""
    port = free_port()
    log = log or store.parent / f"serve-{port}.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [*KG, "serve", "--store", str(store), "--port", str(port), *options],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            start_new_session=True,  # its own process group: workers go with it
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, proc, log)
        yield Served(url, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


@contextlib.contextmanager
def kg_serve_with_docs(store: Path, folder: Path, *options: str) -> Iterator[str]:
    """`kg serve` over ``store`` seen through ``folder``, with `kg docs` written beside it
    (so /ontology is the generated page)."""
    (folder / "store").symlink_to(store.resolve())
    kg("docs", "--store", str(folder / "store"), "-o", str(folder / "docs"))
    with kg_serve(folder / "store", *options) as url:
        yield url
