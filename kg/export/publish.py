"""``kg publish``: send each named graph to a store that speaks the SPARQL 1.1 Graph Store
HTTP Protocol (Fuseki, GraphDB, Virtuoso, Oxigraph server …) with ``PUT ?graph=IRI``,
replacing what that store held under the same graph name."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from kg.errors import KgError
from kg.store import dump, graph_counts, open_store


@dataclass(frozen=True)
class Sent:
    graph: str
    triples: int
    status: int
    seconds: float


def parse_auth(value: str | None) -> tuple[str, str] | None:
    """``USER:PASS`` → (user, password)."""
    if not value:
        return None
    user, sep, password = value.partition(":")
    if not sep or not user:
        raise KgError("--auth must be USER:PASS")
    return user, password


def publish(
    store: Path,
    endpoint: str,
    *,
    auth: tuple[str, str] | None = None,
    graphs: list[str] | None = None,
    timeout: float = 300.0,
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
    with httpx.Client(auth=auth, timeout=timeout) as client:
        for graph, n in counts.items():
            if graphs and graph not in graphs:
                continue
            started = time.perf_counter()
            body = dump(db, "ntriples", graph=graph)
            try:
                r = client.put(
                    endpoint,
                    params={"graph": graph},
                    content=body,
                    headers={"Content-Type": "application/n-triples"},
                )
            except httpx.HTTPError as e:
                raise KgError(f"{endpoint}: cannot send graph <{graph}>: {e}") from None
            if r.status_code >= 400:
                hint = " (check --auth)" if r.status_code in (401, 403) else ""
                detail = " ".join(r.text.split())[:200]
                raise KgError(
                    f"{endpoint}: PUT <{graph}> answered {r.status_code} "
                    f"{r.reason_phrase}{hint}{': ' + detail if detail else ''}"
                )
            done = Sent(graph, n, r.status_code, time.perf_counter() - started)
            on_sent(done)
            sent.append(done)
    return sent
