"""Benchmark: `kg build` on seeds/ and on N-fold synthetic corpora, beside its limits.

    .venv/bin/python -u bench/build.py --times 1 10 100 --jobs-at 10 --profile-at 100

For each size, one after the other in one run: the build's wall time, peak memory (the
largest resident set of the `kg build` process) and seconds per phase (its `-v` report);
then the limits it builds on over the same input: spaCy's tokenizer alone (blank ``zh``,
character segmenter, as kg/nlp/config.cfg) over the same text, and the `oxigraph load`
CLI bulk-loading the N-Quads of the store the build made. Build time is reported as a
multiple of (tokenize + load). ``--jobs-at`` sizes are also built with ``--jobs 2``
(same graph, checked by triple counts); ``--profile-at`` sizes get one more build under
pyinstrument (not timed). Sizes ×N > 1 are made by bench/synth.py. ``--baseline DIR``
builds each size with the code in DIR too (e.g. ``git archive main | tar -x -C DIR``),
alternating with this checkout ``--runs`` times: an A/B on a shared machine (medians, wall
and CPU seconds; bench/behaviour.py checks the two give the same quads byte for byte).

The working tree may change under a long run (other work in progress): run it from a
snapshot, e.g. ``cp -r kg ontology queries seeds bench /tmp/snap/`` and
``PYTHONPATH=/tmp/snap .venv/bin/python -u /tmp/snap/bench/build.py …``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from synth import generate  # noqa: E402

from kg.readers import source_files  # noqa: E402


@dataclass
class Run:
    seconds: float
    peak_mb: float
    triples: int
    phases: dict[str, float] = field(default_factory=dict)
    cpu: float = 0.0  # user + system seconds: steadier than wall time on a shared machine


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB) and stdout of a command."""
    wall, _, peak, out = run_timed(cmd, env)
    return wall, peak, out


def run_timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system), peak RSS (MB) and stdout of a command."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}:\n{out}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def kg_build(
    corpus: Path, store: Path, env: dict[str, str], jobs: int = 1, code: Path = ROOT
) -> Run:
    """One `kg build` of ``code``'s checkout (this one, or ``--baseline``)."""
    cmd = [sys.executable, "-m", "kg.cli", "build", "-q", "-v", "--source", str(corpus)]
    env = {**env, "PYTHONPATH": str(code)}
    wall, cpu, peak, out = run_timed([*cmd, "--store", str(store), "--jobs", str(jobs)], env)
    triples = int(re.search(r"triples ([\d,]+)", out).group(1).replace(",", ""))  # type: ignore[union-attr]
    spent = re.search(r"seconds: (.*)", out)
    phases = {}
    for part in spent.group(1).split(" · ") if spent else []:
        name, secs = part.rsplit(" ", 1)
        phases[name] = float(secs)
    return Run(wall, peak, triples, phases, cpu)


def tokenize_seconds(corpus: Path) -> tuple[float, float]:
    """spaCy's tokenizer alone, as the pipeline configures it, over every line of the input."""
    import spacy

    nlp = spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "char"}}})
    lines = [
        ln
        for f in source_files([corpus])
        for ln in f.read_text(encoding="utf-8").splitlines()
        if ln.strip()
    ]
    start, cpu = time.perf_counter(), time.process_time()
    for ln in lines:
        nlp.make_doc(ln)
    return time.perf_counter() - start, time.process_time() - cpu


def oxigraph_load(store: Path, work: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak MB of `oxigraph load` of the store's own N-Quads
    into a fresh directory."""
    from kg.store import open_store

    nq = work / "dump.nq"
    open_store(store).dump(str(nq), format=__import__("pyoxigraph").RdfFormat.N_QUADS)
    target = work / "oxigraph-load"
    shutil.rmtree(target, ignore_errors=True)  # a fresh store each time, as kg build makes
    cmd = [str(BIN / "oxigraph"), "load", "--location", str(target), "--file", str(nq)]
    wall, cpu, peak, _ = run_timed(cmd, env)
    nq.unlink()
    return wall, cpu, peak


def profile(corpus: Path, store: Path, env: dict[str, str], out: Path) -> None:
    cmd = [str(BIN / "pyinstrument"), "-r", "text", "-o", str(out), str(BIN / "kg")]
    run([*cmd, "build", "-q", "--source", str(corpus), "--store", str(store)], env)


def chars(corpus: Path) -> int:
    return sum(len(f.read_text(encoding="utf-8")) for f in source_files([corpus]))


def machine() -> str:
    mem = next(
        int(ln.split()[1]) // (1024 * 1024)
        for ln in Path("/proc/meminfo").read_text().splitlines()
        if ln.startswith("MemTotal")
    )
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        platform.machine(),
    )
    return f"{os.cpu_count()} cores ({cpu}), {mem} GiB, Python {platform.python_version()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--times", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--jobs-at", type=int, nargs="*", default=[10])
    ap.add_argument("--profile-at", type=int, nargs="*", default=[])
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temp)")
    ap.add_argument("--runs", type=int, default=1, help="builds per size (the median counts)")
    ap.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="another checkout (e.g. `git archive main | tar -x -C DIR`) built beside this one",
    )
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="kg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"# {datetime.date.today()} · {machine()} · load average {os.getloadavg()[0]:.1f}")
    print(
        "| size | characters | triples | build (s) | s per 10k chars | peak MB "
        "| tokenize (s) | oxigraph load (s) | load peak MB | build ÷ (tokenize + load) "
        "| build CPU (s) | CPU ÷ (tokenize + load) CPU |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    phase_rows, job_rows = [], []
    for n in args.times:
        env = dict(os.environ)
        if n == 1:
            corpus = ROOT / "seeds"
        else:
            corpus, home = generate(ROOT / "seeds", work / f"x{n}", n)
            env["KG_HOME"] = str(home)
        store = work / f"store-x{n}"
        size = chars(corpus)
        ours, theirs, toks, loads = [], [], [], []
        for _ in range(args.runs):  # alternating, so a shared machine's load falls on all alike
            ours.append(kg_build(corpus, store, env))
            if args.baseline:
                theirs.append(kg_build(corpus, work / f"store-x{n}-base", env, code=args.baseline))
            toks.append(tokenize_seconds(corpus))
            loads.append(oxigraph_load(store, work, env))
        tok = statistics.median(wall for wall, _ in toks)
        load = statistics.median(wall for wall, _, _ in loads)
        load_mb = max(mb for _, _, mb in loads)
        limits_cpu = statistics.median(c for _, c in toks) + statistics.median(
            c for _, c, _ in loads
        )
        b = _median_run(ours)
        for name, r in (("", b), (" baseline", _median_run(theirs) if theirs else None)):
            if r is None:
                continue
            print(
                f"| ×{n}{name} | {size:,} | {r.triples:,} | {r.seconds:.1f} | "
                f"{r.seconds / size * 10_000:.3f} | {r.peak_mb:.0f} | {tok:.2f} | {load:.1f} | "
                f"{load_mb:.0f} | {r.seconds / (tok + load):.2f} | {r.cpu:.1f} | "
                f"{r.cpu / limits_cpu:.2f} |",
                flush=True,
            )
        if theirs:
            pairs = list(zip(ours, theirs, strict=True))
            each = " / ".join(f"{o.seconds:.1f}:{t.seconds:.1f}" for o, t in pairs)
            same = all(o.triples == t.triples for o, t in pairs)
            cpu = statistics.median(o.cpu for o in ours) / statistics.median(t.cpu for t in theirs)
            print(
                f"  ×{n}: this ÷ baseline {b.seconds / _median_run(theirs).seconds:.2f} wall, "
                f"{cpu:.2f} CPU "
                f"(runs this:baseline {each}; same triples: {'yes' if same else 'NO'}; "
                f"load average {os.getloadavg()[0]:.1f})",
                flush=True,
            )
        phase_rows.append((n, b))
        if n in args.jobs_at:
            two = kg_build(corpus, work / f"store-x{n}-j2", env, jobs=2)
            job_rows.append((n, b, two))
        if n in args.profile_at:
            out = work / f"profile-x{n}.txt"
            profile(corpus, work / f"store-x{n}-prof", env, out)
            print(f"profile of ×{n}: {out}", flush=True)
    names = sorted({k for _, b in phase_rows for k in b.phases}, key=_phase_order)
    print("\n| size | " + " | ".join(names) + " | sum | wall |")
    print("|---|" + "---|" * (len(names) + 2))
    for n, b in phase_rows:
        cells = " | ".join(f"{b.phases.get(k, 0):.1f}" for k in names)
        print(f"| ×{n} | {cells} | {sum(b.phases.values()):.1f} | {b.seconds:.1f} |")
    if job_rows:
        print(
            "\n| size | --jobs 1 (s) | --jobs 2 (s) | speed-up | peak MB (j1 / j2) | same triples |"
        )
        print("|---|---|---|---|---|---|")
        for n, one, two in job_rows:
            print(
                f"| ×{n} | {one.seconds:.1f} | {two.seconds:.1f} | "
                f"{one.seconds / two.seconds:.2f} | {one.peak_mb:.0f} / {two.peak_mb:.0f} | "
                f"{'yes' if one.triples == two.triples else 'NO'} |"
            )
    print(f"\nscratch: {work}")


def _median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda r: r.seconds)[(len(runs) - 1) // 2]


ORDER = ["reading", "aligning", "nlp", "acts", "commentary", "emission", "loading"]


def _phase_order(name: str) -> int:
    return ORDER.index(name) if name in ORDER else len(ORDER)


if __name__ == "__main__":
    main()
