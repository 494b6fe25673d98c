"""Benchmark: the queries/ set over HTTP with concurrent clients against `kg serve` and
`oxigraph serve-read-only` on the same store, and through rdflib's own SPARQL engine on
the same data. Not a test: it prints a table of throughput and p50/p95 latency.

    .venv/bin/python bench/endpoint.py [--store DIR] [--clients 8] [--rounds 3]

Both servers answer the same text (the usual prefixes declared in it, default parameters
bound) over the union of the named graphs, and must agree on the number of result rows.
The servers are measured one after the other, twice each, alternating, in one run.
rdflib runs each query once (single client) in a forked process with a time budget.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing as mp
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.queries import list_queries, with_values  # noqa: E402
from kg.rdf.prefixes import PREFIXES, data_prefixes  # noqa: E402
from kg.resources import default_store  # noqa: E402
from kg.store import dump_to, open_store, store_base  # noqa: E402
from kg.text.normalize import normalize  # noqa: E402

JSON = "application/sparql-results+json"
LOAD_TIMEOUT = 600.0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def queries(store: Path) -> dict[str, str]:
    db = open_store(store)
    prologue = "".join(
        f"PREFIX {k}: <{v}>\n" for k, v in {**PREFIXES, **data_prefixes(store_base(db))}.items()
    )
    out = {}
    for q in list_queries():
        values = {k: normalize(v) for k, v in q.params.items() if v}
        out[q.name] = prologue + with_values(q.text, values)
    return out


@contextlib.contextmanager
def server(cmd: list[str], url: str, log: Path) -> Iterator[str]:
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.post(url, data={"query": "ASK {}"}, timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{cmd[0]} did not start:\n{log.read_text()}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(20)


def rows(url: str, text: str, budget: float) -> int | None:
    """Result rows of one query; None if it did not finish within ``budget`` seconds."""
    try:
        r = httpx.post(url, data={"query": text}, headers={"Accept": JSON}, timeout=budget + 5)
    except httpx.TimeoutException:
        return None
    if r.status_code != 200:
        return None
    try:
        return len(r.json()["results"]["bindings"])
    except ValueError:  # Oxigraph's answer to a failure while streaming: 200, cut short
        print(f"  {url}: HTTP 200 with a truncated body ({len(r.content)} bytes)")
        return None


def load(
    url: str, qs: dict[str, str], expected: dict[str, int], clients: int, rounds: int
) -> tuple[float, list, dict, list]:
    """Every client runs the query set ``rounds`` times (its own shuffled order). Only a
    complete answer counts: status 200, valid JSON, the expected number of rows."""
    latencies: list[float] = []
    per_query: dict[str, list[float]] = {n: [] for n in qs}
    failures: list[str] = []
    lock = threading.Lock()

    def client(seed: int) -> None:
        order = [n for _ in range(rounds) for n in qs]
        random.Random(seed).shuffle(order)
        with httpx.Client(timeout=LOAD_TIMEOUT + 30, headers={"Accept": JSON}) as c:
            for name in order:
                t = time.perf_counter()
                r = c.post(url, data={"query": qs[name]})
                dt = time.perf_counter() - t
                try:
                    ok = r.status_code == 200 and (
                        len(r.json()["results"]["bindings"]) == expected[name]
                    )
                except ValueError:
                    ok = False
                with lock:
                    if ok:
                        latencies.append(dt)
                        per_query[name].append(dt)
                    else:
                        failures.append(f"{name}: {r.status_code} {r.text[:80]!r}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started, latencies, per_query, failures


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] * 1000


def _rdflib_child(dataset, text: str, conn) -> None:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    try:
        n: int | str = len(list(dataset.query(text)))
    except Exception as e:  # rdflib fails on some queries: report, do not hang
        n = f"error: {type(e).__name__}: {e}"
    conn.send((n, time.perf_counter() - t))


def rdflib_run(store: Path, qs: dict[str, str], budget: float) -> dict[str, tuple]:
    """Each query once through rdflib over the same quads (union default graph)."""
    from rdflib import Dataset

    data = io.BytesIO()
    dump_to(open_store(store), data, "nquads")
    started = time.perf_counter()
    ds = Dataset(default_union=True)
    ds.parse(data=data.getvalue(), format="nquads")
    print(f"rdflib: loaded {len(ds):,} quads in {time.perf_counter() - started:.1f} s")
    ctx = mp.get_context("fork")  # the child shares the loaded dataset
    out: dict[str, tuple] = {}
    for name, text in qs.items():
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_rdflib_child, args=(ds, text, child))
        proc.start()
        if parent.poll(budget):
            out[name] = parent.recv()
        else:
            out[name] = (None, budget)  # did not finish within the budget
        proc.kill()
        proc.join()
        n, t = out[name]
        note = f" ({n})" if isinstance(n, str) else ""
        print(f"  rdflib {name}: {'> ' if n is None else ''}{t:.2f} s{note}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, default=None)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3, help="query-set passes per client")
    ap.add_argument("--workers", type=int, default=None, help="kg serve --workers")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per server query")
    ap.add_argument("--rdflib-budget", type=float, default=60.0, help="seconds per query")
    ap.add_argument("--no-rdflib", action="store_true")
    args = ap.parse_args()
    store = (args.store or default_store()).resolve()
    if not store.exists():
        raise SystemExit(f"{store}: no store; run `kg build` first (or pass --store)")
    qs = queries(store)
    bindir = Path(sys.executable).parent
    logs = Path(tempfile.mkdtemp(prefix="kg-bench-"))

    def engines(timeout: float) -> dict[str, tuple[list[str], str]]:
        kg_port, ox_port = free_port(), free_port()
        kg_cmd = [sys.executable, "-m", "kg.cli", "serve", "--store", str(store),
                  "--port", str(kg_port), "--timeout", f"{timeout:g}", "--limit", "10000000",
                  "--log-level", "warning"]  # fmt: skip
        if args.workers:
            kg_cmd += ["--workers", str(args.workers)]
        ox_cmd = [str(bindir / "oxigraph"), "serve-read-only", "--location", str(store),
                  "--bind", f"127.0.0.1:{ox_port}", "--union-default-graph",
                  "--timeout-s", f"{timeout:g}"]  # fmt: skip
        return {
            "kg serve": (kg_cmd, f"http://127.0.0.1:{kg_port}/sparql"),
            "oxigraph serve-read-only": (ox_cmd, f"http://127.0.0.1:{ox_port}/query"),
        }

    print(f"store {store}; {len(qs)} queries; {args.clients} clients × {args.rounds} rounds; "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    counts: dict[str, dict[str, int | None]] = {}
    with contextlib.ExitStack() as stack:  # probe: every query once, with a time budget
        for name, (cmd, url) in engines(args.budget).items():
            stack.enter_context(server(cmd, url, logs / f"probe-{name.split()[0]}.log"))
            counts[name] = {q: rows(url, text, args.budget) for q, text in qs.items()}
    a, b = counts.values()
    slow = sorted(q for q in qs if a[q] is None or b[q] is None)
    for q in slow:  # too slow for a load test on either server: reported, not loaded
        del qs[q]
    if any(a[q] != b[q] for q in qs):
        raise SystemExit(f"the servers disagree on result rows:\n{a}\n{b}")
    if slow:
        print(f"left out (no complete answer within {args.budget:g} s): "
              + ", ".join(f"{q} (kg {a[q]}, oxigraph {b[q]})" for q in slow))  # fmt: skip
    expected = {q: n for q, n in a.items() if n is not None}

    results: dict[str, dict] = {}
    with contextlib.ExitStack() as stack:  # load: fresh servers, no time limit in the way
        urls = {
            name: stack.enter_context(server(cmd, url, logs / f"load-{name.split()[0]}.log"))
            for name, (cmd, url) in engines(LOAD_TIMEOUT).items()
        }
        for name in urls:
            results[name] = {"time": 0.0, "lat": [], "per": {}, "fail": []}
        for _ in range(2):  # alternate to spread any drift over both
            for name, url in urls.items():
                t, lat, per, fail = load(url, qs, expected, args.clients, args.rounds)
                r = results[name]
                r["time"] += t
                r["lat"] += lat
                r["fail"] += fail
                for q, v in per.items():
                    r["per"].setdefault(q, []).extend(v)
    for name, r in results.items():
        if r["fail"]:
            print(f"{name}: {len(r['fail'])} incomplete answers, e.g. {r['fail'][:3]}")

    print()
    print("| engine | clients | answers | throughput (q/s) | p50 (ms) | p95 (ms) | vs Oxigraph |")
    print("|---|---|---|---|---|---|---|")
    peer = results["oxigraph serve-read-only"]
    ox = len(peer["lat"]) / peer["time"]
    for name, r in results.items():
        tput = len(r["lat"]) / r["time"]
        print(f"| {name} | {args.clients} | {len(r['lat'])} | {tput:.1f} | "
              f"{pct(r['lat'], 50):.1f} | {pct(r['lat'], 95):.1f} | {tput / ox:.2f} |")  # fmt: skip
    rdf = None
    if not args.no_rdflib:
        rdf = rdflib_run(store, qs, args.rdflib_budget)
        spent = sum(t for _, t in rdf.values())
        done = [t for n, t in rdf.values() if isinstance(n, int)]
        lat = [t for _, t in rdf.values()]
        late = len(rdf) - len(done)
        tput = len(rdf) / spent
        bound = "≤ " if late else ""
        print(f"| rdflib {_version()} (in-process, no HTTP) | 1 | {len(rdf)} | {bound}{tput:.3f} | "
              f"{pct(lat, 50):.0f} | {bound.replace('≤', '≥')}{pct(lat, 95):.0f} | "
              f"{bound}{tput / ox:.4f} |")  # fmt: skip
        if late:
            print(f"  ({late} rdflib queries did not finish within {args.rdflib_budget:g} s "
                  "or failed; counted at the time they took)")  # fmt: skip
    print()
    print("| query | rows | kg serve p50 (ms) | oxigraph p50 (ms) | rdflib (ms) |")
    print("|---|---|---|---|---|")
    for q in qs:
        kgp = _median(results["kg serve"]["per"][q])
        oxp = _median(results["oxigraph serve-read-only"]["per"][q])
        rl = ""
        if rdf is not None:
            n, t = rdf[q]
            rl = f"> {t * 1000:.0f}" if n is None else f"{t * 1000:.0f}"
            if isinstance(n, str):
                rl += " (failed)"
            elif n is not None and n != expected[q]:
                rl += f" ({n} rows!)"
        print(f"| {q} | {counts['kg serve'][q]} | {kgp:.1f} | {oxp:.1f} | {rl} |")


def _median(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else float("nan")


def _version() -> str:
    import rdflib

    return rdflib.__version__


if __name__ == "__main__":
    main()
