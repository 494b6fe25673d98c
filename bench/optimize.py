"""Benchmark: does a freshly bulk-loaded store need Oxigraph's ``optimize``?

    .venv/bin/python -u bench/optimize.py --store /tmp/bench/store-x10 --rounds 3

Dumps the store's N-Quads, loads them twice into fresh stores the way ``kg build`` does
(``bulk_load`` in batches of kg.store.BATCH), runs ``optimize`` on one of the two (timed),
closes both, then opens each read-only (as ``kg serve`` and ``kg query`` do: a read-only
store never compacts) and runs the ``queries/`` set (default parameters bound) on each,
alternating the two, ``--rounds`` times. Prints each query's median seconds on both and the
totals; ``--timeout`` leaves out a query that takes longer on the first round.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.queries import list_queries, with_defaults  # noqa: E402
from kg.rdf.prefixes import PREFIXES, data_prefixes  # noqa: E402
from kg.store import BATCH, open_store, store_base  # noqa: E402


def load(nq: Path, target: Path, optimize: bool) -> float:
    """Seconds spent in ``optimize`` (0 when not run)."""
    store = ox.Store(str(target))
    lines: list[bytes] = []
    with nq.open("rb") as f:
        for line in f:
            lines.append(line)
            if len(lines) == BATCH:
                store.bulk_load(b"".join(lines), format=ox.RdfFormat.N_QUADS)
                lines = []
    if lines:
        store.bulk_load(b"".join(lines), format=ox.RdfFormat.N_QUADS)
    spent = 0.0
    if optimize:
        start = time.perf_counter()
        store.optimize()
        spent = time.perf_counter() - start
    store.flush()
    del store
    return spent


def run(store: ox.Store, text: str, prefixes: dict[str, str]) -> float:
    start = time.perf_counter()
    list(store.query(text, prefixes=prefixes, use_default_graph_as_union=True))
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, required=True, help="a store built by kg build")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds, first round")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kg-optimize-"))
    try:
        nq = work / "dump.nq"
        source = open_store(args.store)
        source.dump(str(nq), format=ox.RdfFormat.N_QUADS)
        base = store_base(source)
        del source
        spent = load(nq, work / "optimized", optimize=True)
        load(nq, work / "fresh", optimize=False)
        nq.unlink()
        sizes = {
            name: sum(f.stat().st_size for f in (work / name).rglob("*") if f.is_file())
            for name in ("fresh", "optimized")
        }
        stores = {name: ox.Store.read_only(str(work / name)) for name in ("fresh", "optimized")}
        files = {name: len(list((work / name).glob("*.sst"))) for name in stores}
        print(f"optimize: {spent:.1f} s; ", end="")
        print(", ".join(f"{n}: {files[n]} SST files, {sizes[n] / 1e6:.0f} MB" for n in stores))
        prefixes = {**PREFIXES, **data_prefixes(base)}
        times: dict[str, dict[str, list[float]]] = {}
        for rnd in range(args.rounds):
            for q in list_queries():
                text = with_defaults(q.text)
                order = ("fresh", "optimized") if rnd % 2 == 0 else ("optimized", "fresh")
                if rnd > 0 and q.name not in times:
                    continue
                got = {name: run(stores[name], text, prefixes) for name in order}
                if rnd == 0 and max(got.values()) > args.timeout:
                    print(f"left out {q.name}: {max(got.values()):.1f} s")
                    continue
                for name, secs in got.items():
                    times.setdefault(q.name, {}).setdefault(name, []).append(secs)
        print("\n| query | fresh (ms) | optimized (ms) | fresh ÷ optimized |")
        print("|---|---|---|---|")
        total = {"fresh": 0.0, "optimized": 0.0}
        for name, by in sorted(times.items()):
            med = {k: statistics.median(v) for k, v in by.items()}
            for k in total:
                total[k] += med[k]
            ratio = med["fresh"] / med["optimized"] if med["optimized"] else float("nan")
            fresh, optimized = med["fresh"] * 1e3, med["optimized"] * 1e3
            print(f"| {name} | {fresh:.0f} | {optimized:.0f} | {ratio:.2f} |")
        print(
            f"| **all** | {total['fresh'] * 1e3:.0f} | {total['optimized'] * 1e3:.0f} | "
            f"{total['fresh'] / total['optimized']:.2f} |"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
