"""Test helpers: real server-grade stores that `kg publish` sends to, each started on free
loopback ports with a throw-away database, polled until it answers, and stopped afterwards.

- `oxigraph serve` (the CLI the `oxigraph` package installs beside Python);
- Virtuoso (`virtuoso-t`, Debian's `virtuoso-opensource`, installed by `.ci/run`): its own
  virtuoso.ini in the test's directory (HTTP and SQL ports, database files, DirsAllowed).
  A fresh database has the account dba/dba, and the Graph Store at /sparql-graph-crud-auth
  wants digest authentication."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import httpx
from serving import free_port

OXIGRAPH = Path(sys.executable).parent / "oxigraph"
VIRTUOSO = shutil.which("virtuoso-t")
VIRTUOSO_MISSING = (
    "virtuoso-t not found: install Debian's virtuoso-opensource "
    "(`apt-get install virtuoso-opensource`, as .ci/run does) to test kg publish against it"
)

# Only what differs from Virtuoso's defaults; every file in the test's own directory.
VIRTUOSO_INI = """\
[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
LockFile = {dir}/virtuoso.lck
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql}
DisableUnixSocket = 1
DirsAllowed = {dir}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = {dir}
ServerThreads = 4
Charset = UTF-8
"""


class Remote(NamedTuple):
    name: str
    graph_store: str  # the SPARQL 1.1 Graph Store (PUT ?graph=IRI)
    sparql: str  # the query endpoint
    publish_options: tuple[str, ...]  # what `kg publish` needs besides --endpoint


def wait_answers(url: str, proc: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    """Poll ``url`` (an ASK) until it answers 200; fail with the log if the process exits."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{proc.args[0]} exited:\n{log.read_text(errors='replace')}")
        try:
            if httpx.get(url, params={"query": "ASK {}"}, timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{url} did not answer in {seconds} s:\n{log.read_text()}")


@contextlib.contextmanager
def _running(cmd: list[str], cwd: Path, ready_url: str) -> Iterator[None]:
    log = cwd / "server.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_answers(ready_url, proc, log)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextlib.contextmanager
def oxigraph_serve(root: Path, *options: str) -> Iterator[Remote]:
    root.mkdir(parents=True, exist_ok=True)
    url = f"http://127.0.0.1:{free_port()}"
    cmd = [str(OXIGRAPH), "serve", "--location", str(root / "db"), "--bind", url[7:], *options]
    with _running(cmd, root, f"{url}/query"):
        yield Remote("oxigraph", f"{url}/store", f"{url}/query", ())


@contextlib.contextmanager
def virtuoso(root: Path) -> Iterator[Remote]:
    """A Virtuoso on free loopback ports; the caller skips when ``VIRTUOSO`` is None."""
    assert VIRTUOSO, VIRTUOSO_MISSING
    root.mkdir(parents=True, exist_ok=True)
    http, sql = free_port(), free_port()
    ini = root / "virtuoso.ini"
    ini.write_text(VIRTUOSO_INI.format(dir=root, http=http, sql=sql))
    url = f"http://127.0.0.1:{http}"
    # -f: in the foreground, so that it is our child and terminate() stops it
    with _running([VIRTUOSO, "-f", "-c", str(ini)], root, f"{url}/sparql"):
        yield Remote(
            "virtuoso",
            f"{url}/sparql-graph-crud-auth",
            f"{url}/sparql",
            ("--auth", "dba:dba", "--digest"),
        )


def select(url: str, sparql: str) -> tuple[list[str], list[dict]]:
    """A SELECT on a remote endpoint: (variables, bindings) of its JSON results."""
    r = httpx.post(
        url,
        data={"query": sparql},
        headers={"Accept": "application/sparql-results+json"},
        timeout=300,
    )
    assert r.status_code == 200, f"{url}: {r.status_code} {r.text[:500]}"
    j = r.json()
    return j["head"]["vars"], j["results"]["bindings"]
