"""Reading speed of the Kanripo reader beside the seed readers, measured in one run.

    .venv/bin/python bench/bench_kanripo.py [--repeat N]

Prints characters per second for each file (reader + structure parser, no alignment) and
the Kanripo sample's speed as a ratio of seed 001's (tagged reader), so the cost of joining
column lines and notes back into units is a number, not a guess.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kg.readers import parse_text
from kg.text.catalog import load_catalog

ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "seed 001 (tagged)": next((ROOT / "seeds").glob("001_*.txt")),
    "seed 002 (indented)": next((ROOT / "seeds").glob("002_*.txt")),
    "fixture 士喪禮 (kanripo)": ROOT / "tests" / "fixtures" / "kanripo_shisangli.txt",
    "sample 卷一 (kanripo)": ROOT.parent / "shared" / "corpus" / "kanripo" / "KR1d0044_001.txt",
}


def speed(path: Path, repeat: int) -> float:
    text = path.read_text(encoding="utf-8")
    catalog = load_catalog()
    parse_text(text, path, catalog=catalog)  # warm caches (OpenCC, markers)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        parse_text(text, path, catalog=catalog)
        best = min(best, time.perf_counter() - t)
    return len(text) / best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    speeds = {name: speed(p, args.repeat) for name, p in FILES.items() if p.is_file()}
    for name, cps in speeds.items():
        print(f"{name:28s} {cps / 1000:8.0f} k chars/s")
    base = speeds.get("seed 001 (tagged)")
    kanripo = speeds.get("sample 卷一 (kanripo)")
    if base and kanripo:
        print(f"kanripo sample / tagged seed 001: {kanripo / base:.2f}× the speed")


if __name__ == "__main__":
    main()
