"""Benchmark: `kg build` of seeds/ alone against seeds/ + the two works of the tradition.

    .venv/bin/python -u bench/tradition.py [--runs 3] [--tradition ../shared/corpus/tradition]

The two builds alternate (seeds, seeds + works, seeds, …) in one run, so the load of a shared
machine falls on both alike; for each: wall time (the median of ``--runs``, and every run),
the peak resident memory of the `kg build` process (the largest over its runs), characters
read, triples, and the build's own seconds per phase (`-v`, of the median run). The works
are the samples of 仪礼注疏 (KR1d0028) and 仪礼集说 (KR1d0035), read by kg.readers.tradition.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from build import machine, run  # noqa: E402

from kg.readers import source_files  # noqa: E402


def kg_build(sources: list[Path], store: Path) -> tuple[float, float, str]:
    """Wall seconds, peak MB and the report of one build of this checkout's code."""
    cmd = [sys.executable, "-m", "kg.cli", "build", "-q", "-v", "--store", str(store)]
    for s in sources:
        cmd += ["--source", str(s)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return run(cmd, env)


def number(pattern: str, report: str) -> int:
    found = re.search(pattern, report)
    return int(found.group(1).replace(",", "")) if found else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tradition", type=Path, default=ROOT.parent / "shared/corpus/tradition")
    args = ap.parse_args()
    seeds = ROOT / "seeds"
    works = [args.tradition / "KR1d0028", args.tradition / "KR1d0035"]
    cases = {"seeds": [seeds], "seeds + 注疏 + 集说": [seeds, *works]}
    runs: dict[str, list[tuple[float, float, str]]] = {name: [] for name in cases}
    with tempfile.TemporaryDirectory(prefix="kg-bench-tradition-") as scratch:
        for i in range(args.runs):
            for name, sources in cases.items():
                runs[name].append(kg_build(sources, Path(scratch) / f"store-{i}-{len(sources)}"))
                print(f"  run {i + 1} {name}: {runs[name][-1][0]:.1f} s", file=sys.stderr)
    print(f"# {datetime.date.today()} · {machine()} · {args.runs} runs each, alternating")
    print("| sources | files | characters | triples | build s (median) | runs (s) | peak MB |")
    print("|---|---|---|---|---|---|---|")
    medians, peaks = {}, {}
    for name, sources in cases.items():
        files = source_files(sources)
        chars = sum(len(f.read_text(encoding="utf-8")) for f in files)
        walls = [w for w, _, _ in runs[name]]
        medians[name] = statistics.median(walls)
        peak = peaks[name] = max(p for _, p, _ in runs[name])
        report = runs[name][walls.index(medians[name])][2] if args.runs % 2 else runs[name][0][2]
        triples = number(r"triples ([\d,]+)", report)
        each = " / ".join(f"{w:.1f}" for w in walls)
        print(
            f"| {name} | {len(files)} | {chars:,} | {triples:,} | {medians[name]:.1f} "
            f"| {each} | {peak:.0f} |"
        )
    for name in cases:
        spent = re.search(r"seconds: (.*)", runs[name][0][2])
        print(f"\n{name}, seconds per phase (first run): {spent.group(1) if spent else '-'}")
    (base, both), (pbase, pboth) = medians.values(), peaks.values()
    print(f"\nseeds + works ÷ seeds: {both / base:.2f}× the time, {pboth / pbase:.2f}× the memory")


if __name__ == "__main__":
    main()
