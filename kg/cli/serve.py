"""``kg serve``: the SPARQL endpoint and linked-data pages."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from kg.cli.options import store_option


def _size(value: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    v = value.strip().lower().removesuffix("b")
    try:
        return int(float(v[:-1]) * units[v[-1]]) if v and v[-1] in units else int(v)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a size (e.g. 1M, 512k)") from None


def _limit_options(command: Callable[..., None]) -> Callable[..., None]:
    """What one request, one client and one worker may take."""
    for option in reversed(
        [
            click.option(
                "--max-request",
                default="1M",
                show_default=True,
                help="Largest request body / query string.",
            ),
            click.option(
                "--read-timeout",
                default=10.0,
                show_default=True,
                type=float,
                help="Seconds for a request's headers, then for its body.",
            ),
            click.option(
                "--max-connections",
                default=512,
                show_default=True,
                type=int,
                help="Open connections.",
            ),
            click.option(
                "--worker-memory",
                default=2048,
                show_default=True,
                type=int,
                help="MB of address space per worker (0: no cap).",
            ),
        ]
    ):
        command = option(command)
    return command


@click.command()
@store_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--timeout", default=30.0, show_default=True, type=float, help="Seconds a query may run."
)
@click.option(
    "--limit", default=10_000, show_default=True, type=int, help="Most rows or triples sent."
)
@click.option("--workers", default=None, type=int, help="Query worker processes [4 × CPUs].")
@_limit_options
@click.option("--get", "get_path", default=None, help="Answer one GET of PATH here and exit.")
@click.option("--log-level", default="info", show_default=True, help="uvicorn log level.")
def serve(
    store: Path,
    host: str,
    port: int,
    timeout: float,
    limit: int,
    workers: int | None,
    max_request: str,
    read_timeout: float,
    max_connections: int,
    worker_memory: int,
    get_path: str | None,
    log_level: str,
) -> None:
    """Serve the store: SPARQL 1.1 endpoint (/sparql), linked-data pages, dumps, VoID."""
    from kg.server.config import ServeConfig
    from kg.server.run import get_once, run_server
    from kg.store import open_store

    path = store
    open_store(path)  # a missing or unreadable store stops here, with its message
    if min(timeout, limit, read_timeout, max_connections) <= 0:
        raise click.BadParameter("--timeout, --limit, --read-timeout, --max-connections: > 0")
    kwargs = {} if workers is None else {"workers": max(1, workers)}
    config = ServeConfig(
        store=path,
        timeout=timeout,
        limit=limit,
        max_request=_size(max_request),
        read_timeout=read_timeout,
        max_connections=max_connections,
        worker_memory=worker_memory or None,
        **kwargs,  # type: ignore[arg-type]
    )
    if get_path is not None:
        status, text = get_once(config, get_path)
        click.echo(text, nl=not text.endswith("\n"))
        sys.exit(0 if status == 200 else 1)
    run_server(config, host, port, log_level)
