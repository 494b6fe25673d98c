"""Mentions and ritual acts for the emitter, one scope at a time.

A scope is what the emitter writes next: a juan's prefaces, or a chapter. Only the scope
being emitted has its analyses in memory, so a build's memory does not grow with the number
of chapters. With ``jobs`` > 1 a process pool analyses the scopes ahead (at most two per
worker) while this process emits and loads; each scope is analysed by the same functions
either way, so the graph is the same whatever ``jobs`` is.
"""

from __future__ import annotations

import multiprocessing as mp
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult, Pool

from kg.build.phases import Phases
from kg.nlp.acts import Act, read_chapter_acts
from kg.nlp.extract import Mention, analyse
from kg.text.align import AlignedChapter, AlignedJuan, Corpus, Unit
from kg.text.normalize import normalize

Scope = AlignedJuan | AlignedChapter
Found = tuple[dict[int, list[Mention]], dict[int, list[Act]]]


@dataclass
class Job:
    """What a worker needs: the texts of a scope's units, and (for a chapter) which of them
    are each section's passages and records, for the act reader."""

    texts: list[tuple[str, str]]  # (text, "classic" | "commentary")
    sections: list[tuple[list[int], list[int]]]


def run_job(job: Job, phases: Phases | None = None) -> tuple[list[list[Mention]], dict]:
    """Mentions of every unit of the job, and acts of its passages and records by index."""
    phases = phases or Phases()
    with phases("nlp"):
        analyses = list(analyse(job.texts))
    with phases("acts"):
        texts = {
            i: (normalize(job.texts[i][0]), analyses[i].items)
            for passages, records in job.sections
            for i in (*passages, *records)
        }
        acts = read_chapter_acts(job.sections, texts)
    return [a.mentions for a in analyses], acts


def _walk(u: Unit, kind: str) -> Iterator[tuple[Unit, str]]:
    yield u, kind
    for n in (*u.notes, *u.commentary):
        yield from _walk(n, "commentary")


def scope_units(scope: Scope) -> tuple[list[Unit], Job]:
    """The units of a scope that have text, in Corpus.units() order, and their job."""
    pairs: list[tuple[Unit, str]] = []
    parts: list[tuple[list[Unit], list[Unit]]] = []
    for p in scope.prefaces:
        pairs.extend(_walk(p, "commentary"))
    if isinstance(scope, AlignedChapter):
        for s in scope.sections:
            for u in (*s.notes, *s.orphans):
                pairs.extend(_walk(u, "commentary"))
            for u in (*s.passages, *s.records):
                pairs.extend(_walk(u, "classic"))
            parts.append((s.passages, s.records))
    kept = [(u, k) for u, k in pairs if u.canonical.text]
    index = {id(u): i for i, (u, _) in enumerate(kept)}
    sections = [
        ([index[id(u)] for u in ps if id(u) in index], [index[id(u)] for u in rs if id(u) in index])
        for ps, rs in parts
    ]
    return [u for u, _ in kept], Job([(u.canonical.text, k) for u, k in kept], sections)


def scopes(corpus: Corpus) -> Iterator[Scope]:
    """Scopes in the order the emitter writes them."""
    for j in corpus.juans:
        yield j
        yield from j.chapters


class Extractor:
    """Called by the emitter with each scope in turn; returns that scope's mentions and acts
    by id(unit). A build of several parts ``start``s each part's corpus in turn, keeping
    one pool of workers."""

    def __init__(
        self,
        corpus: Corpus | None = None,
        jobs: int = 1,
        phases: Phases | None = None,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> None:
        self.phases = phases or Phases()
        self.progress = progress
        self.start(corpus or Corpus([], []))
        self.pool: Pool | None = None
        self.ahead: deque[tuple[Scope, list[Unit], AsyncResult]] = deque()
        if jobs > 1:
            # forkserver: workers start from a clean process, not a fork of one that may
            # hold a progress thread's lock or an open store
            ctx = mp.get_context("forkserver")
            ctx.set_forkserver_preload(["kg.build.pool"])
            self.pool = ctx.Pool(jobs)
            self.window = 2 * jobs

    def start(self, corpus: Corpus, label: str = "extracting and loading") -> None:
        """Analyse ``corpus``'s scopes next (those of the last one have all been asked for)."""
        self.label = label
        self.total = sum(1 for _ in scopes(corpus))
        self.done = 0
        self.plan = ((s, *scope_units(s)) for s in scopes(corpus))

    def __call__(self, scope: Scope) -> Found:
        self.done += 1
        if self.progress:
            self.progress(self.label, self.done, self.total)
        if self.pool is None:
            planned, units, job = next(self.plan)
            assert planned is scope, "scopes must be asked for in emission order"
            mentions, acts = run_job(job, self.phases)
        else:
            self._fill()
            planned, units, pending = self.ahead.popleft()
            assert planned is scope, "scopes must be asked for in emission order"
            with self.phases("nlp"):  # waiting on the workers
                mentions, acts = pending.get()
            self._fill()
        if self.done == self.total:  # the last scope: the plan's corpus may go
            self.plan = iter(())
        return (
            {id(u): m for u, m in zip(units, mentions, strict=True)},
            {id(units[i]): a for i, a in acts.items()},
        )

    def _fill(self) -> None:
        assert self.pool is not None
        while len(self.ahead) < self.window:
            nxt = next(self.plan, None)
            if nxt is None:
                return
            scope, units, job = nxt
            self.ahead.append((scope, units, self.pool.apply_async(run_job, (job,))))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
