"""Benchmark: `kg serve` against `oxigraph serve-read-only` on the same store, over HTTP with
concurrent clients, for two mixes: the light mix (bench/light/*.rq: short queries, where the
server's own cost per request shows) and the queries/ set; then the queries/ set through
rdflib's own SPARQL engine on the same data. Not a test: it prints, per mix, throughput and
p50/p95 latency per engine and the ratio to Oxigraph, with the load average around each mix.

    .venv/bin/python bench/endpoint.py [--store DIR] [--mix both] [--kg base=../main]

Every server answers the same text (the usual prefixes declared in it, default parameters
bound) over the union of the named graphs, and all must agree on the number of result rows.
The servers are measured one after the other, ``--passes`` times each, alternating (the
order rotated each pass), in one run; ``--kg NAME=DIR`` adds `kg serve` from another checkout
(the code before a change) to the same alternation. rdflib runs each query once (single
client) in a forked process with a time budget.
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
OXIGRAPH = "oxigraph serve-read-only"
LIGHT = Path(__file__).resolve().parent / "light"
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
def server(cmd: list[str], url: str, log: Path, env: dict[str, str]) -> Iterator[str]:
    with open(log, "w") as out:
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env
        )
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


def light_queries(store: Path) -> dict[str, str]:
    """The light mix (bench/light/*.rq): short queries where the server's own cost shows."""
    db = open_store(store)
    prologue = "".join(
        f"PREFIX {k}: <{v}>\n" for k, v in {**PREFIXES, **data_prefixes(store_base(db))}.items()
    )
    return {p.stem: prologue + p.read_text(encoding="utf-8") for p in sorted(LIGHT.glob("*.rq"))}


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def engines(
    args: argparse.Namespace, store: Path, timeout: float
) -> dict[str, tuple[list[str], str, dict[str, str]]]:
    """name → (command, query URL, environment): each kg serve checkout and the Oxigraph server."""
    bindir = Path(sys.executable).parent
    out = {}
    for name, root in [("kg serve", ROOT), *args.kg]:
        port = free_port()
        cmd = [sys.executable, "-m", "kg.cli", "serve", "--store", str(store),
               "--port", str(port), "--timeout", f"{timeout:g}", "--limit", "10000000",
               "--log-level", "warning"]  # fmt: skip
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        env = {**os.environ, "PYTHONPATH": str(root)}
        out[name] = (cmd, f"http://127.0.0.1:{port}/sparql", env)
    port = free_port()
    ox_cmd = [str(bindir / "oxigraph"), "serve-read-only", "--location", str(store),
              "--bind", f"127.0.0.1:{port}", "--union-default-graph",
              "--timeout-s", f"{timeout:g}"]  # fmt: skip
    out[OXIGRAPH] = (ox_cmd, f"http://127.0.0.1:{port}/query", dict(os.environ))
    return out


def probe(args: argparse.Namespace, store: Path, qs: dict[str, str], logs: Path) -> dict:
    """Every query once on every server (with a time budget): the rows each must answer."""
    counts: dict[str, dict[str, int | None]] = {}
    with contextlib.ExitStack() as stack:
        for name, (cmd, url, env) in engines(args, store, args.budget).items():
            stack.enter_context(server(cmd, url, logs / f"probe-{_slug(name)}.log", env))
            counts[name] = {q: rows(url, text, args.budget) for q, text in qs.items()}
    first, *others = counts.values()
    slow = sorted(q for q in qs if any(c[q] is None for c in counts.values()))
    for q in slow:  # too slow for a load test on some server: reported, not loaded
        del qs[q]
    if any(first[q] != c[q] for c in others for q in qs):
        raise SystemExit(f"the servers disagree on result rows:\n{counts}")
    if slow:
        seen = {q: {n: c[q] for n, c in counts.items()} for q in slow}
        print(f"left out (no complete answer within {args.budget:g} s): {seen}")
    return {q: n for q, n in first.items() if n is not None}


def measure(
    args: argparse.Namespace, store: Path, qs: dict[str, str], rounds: int, logs: Path, mix: str
) -> tuple[dict[str, dict], dict[str, int]]:
    expected = probe(args, store, qs, logs)
    results: dict[str, dict] = {}
    print(f"{mix}: {len(qs)} queries, {args.clients} clients × {rounds} rounds, "
          f"{args.passes} passes per engine; load average before {loadavg()}")  # fmt: skip
    with contextlib.ExitStack() as stack:  # load: fresh servers, no time limit in the way
        urls = {
            name: stack.enter_context(server(cmd, url, logs / f"{mix}-{_slug(name)}.log", env))
            for name, (cmd, url, env) in engines(args, store, LOAD_TIMEOUT).items()
        }
        for name in urls:
            results[name] = {"time": 0.0, "lat": [], "per": {}, "fail": []}
        for i in range(args.passes):  # alternate, order rotated, to spread drift over all
            names = list(urls)
            for name in names[i % len(names) :] + names[: i % len(names)]:
                t, lat, per, fail = load(urls[name], qs, expected, args.clients, rounds)
                r = results[name]
                r["time"] += t
                r["lat"] += lat
                r["fail"] += fail
                for q, v in per.items():
                    r["per"].setdefault(q, []).extend(v)
    print(f"{mix}: load average after {loadavg()}")
    for name, r in results.items():
        if r["fail"]:
            print(f"{name}: {len(r['fail'])} incomplete answers, e.g. {r['fail'][:3]}")
    return results, expected


def table(results: dict[str, dict], clients: int, mix: str) -> float:
    print()
    print(f"{mix} mix:")
    print("| engine | clients | answers | throughput (q/s) | p50 (ms) | p95 (ms) | vs Oxigraph |")
    print("|---|---|---|---|---|---|---|")
    peer = results[OXIGRAPH]
    ox = len(peer["lat"]) / peer["time"]
    for name, r in results.items():
        tput = len(r["lat"]) / r["time"]
        print(f"| {name} | {clients} | {len(r['lat'])} | {tput:.1f} | "
              f"{pct(r['lat'], 50):.1f} | {pct(r['lat'], 95):.1f} | {tput / ox:.2f} |")  # fmt: skip
    return ox


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, default=None)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2, help="queries/ set passes per client")
    ap.add_argument("--light-rounds", type=int, default=100, help="light mix passes per client")
    ap.add_argument("--passes", type=int, default=3, help="loads per engine, alternating")
    ap.add_argument("--mix", choices=["light", "queries", "both"], default="both")
    ap.add_argument("--kg", type=_named_root, action="append", default=[],
                    help="NAME=DIR: also measure kg serve from checkout DIR")  # fmt: skip
    ap.add_argument("--workers", type=int, default=None, help="kg serve --workers")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per server query")
    ap.add_argument("--rdflib-budget", type=float, default=60.0, help="seconds per query")
    ap.add_argument("--no-rdflib", action="store_true")
    args = ap.parse_args()
    store = (args.store or default_store()).resolve()
    if not store.exists():
        raise SystemExit(f"{store}: no store; run `kg build` first (or pass --store)")
    logs = Path(tempfile.mkdtemp(prefix="kg-bench-"))
    print(f"store {store}; {os.cpu_count()} CPUs; load average {loadavg()}")
    if args.mix in ("light", "both"):
        results, _ = measure(args, store, light_queries(store), args.light_rounds, logs, "light")
        table(results, args.clients, "light")
    if args.mix == "light":
        return
    qs = queries(store)
    results, expected = measure(args, store, qs, args.rounds, logs, "queries")
    ox = table(results, args.clients, "queries/")
    rdf = rdflib_table(args, store, qs, ox)
    print()
    names = list(results)
    print("| query | rows | " + " | ".join(f"{n} p50 (ms)" for n in names) + " | rdflib (ms) |")
    print("|---|---|" + "---|" * len(names) + "---|")
    for q in qs:
        cells = " | ".join(f"{_median(results[n]['per'][q]):.1f}" for n in names)
        rl = ""
        if rdf is not None:
            n, t = rdf[q]
            rl = f"> {t * 1000:.0f}" if n is None else f"{t * 1000:.0f}"
            if isinstance(n, str):
                rl += " (failed)"
            elif n is not None and n != expected[q]:
                rl += f" ({n} rows!)"
        print(f"| {q} | {expected[q]} | {cells} | {rl} |")


def rdflib_table(
    args: argparse.Namespace, store: Path, qs: dict[str, str], ox: float
) -> dict[str, tuple] | None:
    if args.no_rdflib:
        return None
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
    return rdf


def _named_root(value: str) -> tuple[str, Path]:
    name, sep, root = value.partition("=")
    if not sep or not Path(root).is_dir():
        raise argparse.ArgumentTypeError(f"{value!r}: NAME=DIR of a kg checkout")
    return f"kg serve ({name})", Path(root).resolve()


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name).strip("-")


def _median(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else float("nan")


def _version() -> str:
    import rdflib

    return rdflib.__version__


if __name__ == "__main__":
    main()
