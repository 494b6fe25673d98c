"""``kg publish``: send each named graph to a store that speaks the SPARQL 1.1 Graph Store
HTTP Protocol (Virtuoso, Oxigraph server, Fuseki, GraphDB …) with ``PUT ?graph=IRI``,
replacing what that store held under the same graph name.

One graph at a time, never held in memory: Oxigraph dumps it as N-Triples into a temporary
file, which is sent as it is read (a re-readable body, so a retry or a digest challenge sends
it again from the start). A graph whose PUT fails on the way (connection, timeout, 5xx, 429)
is tried again with exponential backoff, a bounded number of times."""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx
import tenacity

from kg.errors import KgError
from kg.store import dump_graph_to, graph_counts, open_store

CHUNK = 1 << 20  # bytes read from the dump and sent at a time
# statuses worth another try: the store is busy, restarting or timed out, not refusing
TRANSIENT = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class Sent:
    """What one graph's PUT sent (of its last, successful try)."""

    graph: str
    triples: int
    bytes: int
    status: int
    seconds: float  # from the dump's start to the last try's answer
    retries: int


@dataclass(frozen=True)
class Retry:
    """Bounded retries of a failed graph: ``retries`` more tries, waiting ``backoff`` s,
    then twice as long each time (at most ``max_wait``)."""

    retries: int = 3
    backoff: float = 1.0
    max_wait: float = 30.0


def parse_auth(value: str | None) -> tuple[str, str] | None:
    """``USER:PASS`` → (user, password)."""
    if not value:
        return None
    user, sep, password = value.partition(":")
    if not sep or not user:
        raise KgError("--auth must be USER:PASS")
    return user, password


def make_auth(credentials: tuple[str, str] | None, digest: bool) -> httpx.Auth | None:
    """Basic, or digest (Virtuoso's ``/sparql-graph-crud-auth``)."""
    if credentials is None:
        return None
    return httpx.DigestAuth(*credentials) if digest else httpx.BasicAuth(*credentials)


class FileBody:
    """A file sent in chunks; iterable again (each pass from the start), and counting the
    bytes and lines (N-Triples: one triple a line) of the last pass."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.size = path.stat().st_size
        self.sent = self.lines = 0

    def __iter__(self) -> Iterator[bytes]:
        self.sent = self.lines = 0
        with open(self.path, "rb") as f:
            while chunk := f.read(CHUNK):
                self.sent += len(chunk)
                self.lines += chunk.count(b"\n")
                yield chunk


class _Transient(Exception):
    """A status worth another try (kept to report if the tries run out)."""

    def __init__(self, response: httpx.Response) -> None:
        super().__init__(f"{response.status_code} {response.reason_phrase}")
        self.response = response


def _retryable(e: BaseException) -> bool:
    return isinstance(e, (_Transient, httpx.TransportError))


def _put_once(client: httpx.Client, endpoint: str, graph: str, body: FileBody) -> httpx.Response:
    r = client.put(
        endpoint,
        params={"graph": graph},
        content=body,
        # a length, not chunked transfer: not every Graph Store reads chunked bodies
        headers={"Content-Type": "application/n-triples", "Content-Length": str(body.size)},
    )
    if r.status_code in TRANSIENT:
        raise _Transient(r)
    return r


def _refused(endpoint: str, graph: str, r: httpx.Response, tries: int) -> KgError:
    hint = " (check --auth, and --digest for Virtuoso)" if r.status_code in (401, 403) else ""
    detail = " ".join(r.text.split())[:200]
    after = f" after {tries} tries" if tries > 1 else ""
    return KgError(
        f"{endpoint}: PUT <{graph}> answered {r.status_code} {r.reason_phrase}{after}"
        f"{hint}{': ' + detail if detail else ''}"
    )


def _prime(client: httpx.Client, endpoint: str) -> None:
    """Digest needs a challenge (a 401) before it can sign: get it with a request that has no
    body, so that the first graph is not sent twice. What it answers does not matter."""
    if isinstance(client.auth, httpx.DigestAuth):
        # if it fails, the PUT will say what is wrong, after its retries
        with contextlib.suppress(httpx.HTTPError):
            client.head(endpoint)


def put_graph(
    client: httpx.Client, endpoint: str, graph: str, body: FileBody, retry: Retry
) -> tuple[httpx.Response, int]:
    """PUT one graph, trying again on transient failures; (answer, retries)."""
    attempts = tenacity.Retrying(
        stop=tenacity.stop_after_attempt(retry.retries + 1),
        wait=tenacity.wait_exponential(multiplier=retry.backoff, max=retry.max_wait),
        retry=tenacity.retry_if_exception(_retryable),
        reraise=True,
    )
    tries = 0
    try:
        for attempt in attempts:
            with attempt:
                tries = attempt.retry_state.attempt_number
                r = _put_once(client, endpoint, graph, body)
    except _Transient as e:
        raise _refused(endpoint, graph, e.response, tries) from None
    except httpx.HTTPError as e:
        after = f" (after {tries} tries)" if tries > 1 else ""
        raise KgError(f"{endpoint}: cannot send graph <{graph}>{after}: {e}") from None
    if r.status_code >= 400:
        raise _refused(endpoint, graph, r, tries)
    return r, tries - 1


def publish(
    store: Path,
    endpoint: str,
    *,
    auth: httpx.Auth | None = None,
    graphs: list[str] | None = None,
    timeout: float = 300.0,
    retry: Retry = Retry(),
    on_sent: Callable[[Sent], None] = lambda _: None,
) -> list[Sent]:
    """PUT every named graph of the store (or those in ``graphs``) to ``endpoint``."""
    if not endpoint.startswith(("http://", "https://")):
        raise KgError(f"{endpoint}: the endpoint must be an http(s) URL")
    db = open_store(store)
    counts = graph_counts(db)
    missing = [g for g in graphs or [] if g not in counts]
    if missing:
        raise KgError(f"{store}: no graph {', '.join(f'<{g}>' for g in missing)}")
    sent = []
    with (
        httpx.Client(auth=auth, timeout=timeout) as client,
        tempfile.TemporaryDirectory(prefix="kg-publish-") as tmp,
    ):
        _prime(client, endpoint)
        for graph in counts:
            if graphs and graph not in graphs:
                continue
            started = time.perf_counter()
            path = Path(tmp) / "graph.nt"
            dump_graph_to(db, graph, path)
            body = FileBody(path)
            r, retries = put_graph(client, endpoint, graph, body, retry)
            path.unlink()
            done = Sent(
                graph, body.lines, body.sent, r.status_code, time.perf_counter() - started, retries
            )
            on_sent(done)
            sent.append(done)
    return sent


def report(sent: list[Sent], endpoint: str) -> dict[str, object]:
    """What was sent, per graph and in all (``kg publish --report``)."""
    return {
        "endpoint": endpoint,
        "graphs": [asdict(s) for s in sent],
        "total": {
            "graphs": len(sent),
            "triples": sum(s.triples for s in sent),
            "bytes": sum(s.bytes for s in sent),
            "seconds": round(sum(s.seconds for s in sent), 3),
            "retries": sum(s.retries for s in sent),
        },
    }
