"""Quotations gold (``quotations.jsonl``, tests/gold/quotations.md): traced sources, P and R.

The seeds and the tradition samples (``KG_TRADITION``, default ``../shared/corpus/tradition``
beside the project) are read, aligned and linked as a build links them (kg.rdf.quotations,
without a store). A predicted quotation matches a gold line when it is on the same opinion,
its quoted span overlaps the gold's and its source words overlap the gold's by at least half
of the shorter (normalized; the longest common subsequence), one to one. Precision is over the
predictions on opinions the gold covers, recall over the gold lines that have a source.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from rapidfuzz import fuzz
from rapidfuzz.distance import LCSseq
from rdflib import URIRef

from kg.build.phases import Phases
from kg.build.works import split_sources
from kg.errors import InputError
from kg.eval.score import Report, Score, add_totals, read_gold
from kg.rdf.iris import Minter
from kg.rdf.quotations import Traced, TraditionLinker, book_chapters, near_blocks, work_chapters
from kg.readers import read
from kg.resources import project_root
from kg.text.align import align
from kg.text.catalog import load_catalog
from kg.text.parallels import Skeleton

KEYS = ("id", "split", "chapter", "voice", "opinion", "quoted", "source_text")
OVERLAP = 0.5  # of the shorter source text, for a predicted source to match the gold's
JOIN = 6  # source characters between (or shared by) a report's quotation and its run-on's
FOUND = 85  # partial-ratio score at which the gold's quoted words are taken as found


def tradition_dir() -> Path:
    env = os.environ.get("KG_TRADITION")
    return Path(env) if env else project_root().parent / "shared" / "corpus" / "tradition"


@dataclass(frozen=True)
class Located:
    """A traced opinion and a gold line's quoted words in it (skeleton offsets of its block)."""

    traced: Traced
    start: int
    end: int


def evaluate_quotations(path: Path, split: str = "all") -> Report:
    rows = [r for r in read_gold(path, KEYS) if split in ("all", "gold") or r["split"] == split]
    traced = _traced()
    scores: dict[str, Score] = defaultdict(Score)
    errors: list[tuple[str, str, str]] = []
    heads = _heads(traced)
    by_opinion: dict[int, list[tuple[dict, Located]]] = defaultdict(list)
    for r in rows:
        where = _locate(r, traced)
        if where is None:
            if r["source_text"]:
                scores[r["voice"]].fn += 1
                errors.append((r["id"], "missed", f"opinion not found: {r['quoted'][:30]}"))
            continue
        by_opinion[id(heads[id(where.traced)][0])].append((r, where))
    for key, lines in by_opinion.items():
        _score_opinion(lines, next(g for h, g in heads.values() if id(h) == key), scores, errors)
    add_totals(scores)
    return Report("quotations", len(rows), {"sources": dict(scores)}, errors)


def _heads(traced: list[Traced]) -> dict[int, tuple[Traced, list[Traced]]]:
    """Each traced opinion → its head (a report) and the group it scores with: a report's
    run-on (``Traced.runs_on``, yielded right after it) is the same gold opinion."""
    out: dict[int, tuple[Traced, list[Traced]]] = {}
    head: tuple[Traced, list[Traced]] | None = None
    for t in traced:
        if not t.runs_on or head is None:
            head = (t, [t])
        else:
            head[1].append(t)
        out[id(t)] = head
    return out


def _score_opinion(
    lines: list[tuple[dict, Located]], group: list[Traced], scores: dict[str, Score], errors: list
) -> None:
    """One to one: each gold line with a source takes the first prediction it matches (the
    predictions of the opinion and of its run-on, ``group``)."""
    t = group[0]
    sk = Skeleton.of(t.block.text)
    preds = _joined(
        [
            (q, _skel_span(sk, x.start + q.quoted[0], x.start + q.quoted[1]), x)
            for x in group
            for q in x.found
        ]
    )
    used: set[int] = set()
    for r, where in lines:
        if not r["source_text"]:
            continue
        hit = next(
            (
                i
                for i, (q, (a, b), _) in enumerate(preds)
                if i not in used
                and a < where.end
                and where.start < b
                and _overlap(q.source_text, r["source_text"])
            ),
            None,
        )
        if hit is None:
            scores[r["voice"]].fn += 1
            errors.append((r["id"], "missed", f"{r['quoted'][:24]} ← {r['source_text'][:24]}"))
        else:
            used.add(hit)
            scores[r["voice"]].tp += 1
    for i, (q, _, x) in enumerate(preds):
        if i not in used:
            scores[lines[0][0]["voice"]].fp += 1
            quoted = x.text[q.quoted[0] : q.quoted[1]]
            errors.append((lines[0][0]["id"], "spurious", f"{quoted[:24]} ← {q.source_text[:24]}"))


def _joined(preds: list) -> list:
    """A report's last quotation and its run-on's first, where they continue one stretch of
    the same source, are one quotation of the gold opinion (the voices cut it in two)."""
    out: list = []
    for q, span, x in preds:
        if out:
            p, pspan, px = out[-1]
            gap = q.source_span[0] - p.source_span[1]
            if px is not x and p.source.key == q.source.key and -JOIN <= gap <= JOIN:
                q = replace(
                    p, source_span=(p.source_span[0], max(p.source_span[1], q.source_span[1]))
                )
                out[-1] = (q, (pspan[0], span[1]), px)
                continue
        out.append((q, span, x))
    return out


def _overlap(a: str, b: str) -> bool:
    x, y = Skeleton.of(a).chars, Skeleton.of(b).chars
    return bool(x and y) and LCSseq.similarity(x, y) >= OVERLAP * min(len(x), len(y))


def _skel_span(sk: Skeleton, a: int, b: int) -> tuple[int, int]:
    return bisect_left(sk.offsets, a), bisect_left(sk.offsets, b)


def _locate(row: dict, traced: list[Traced]) -> Located | None:
    """The traced opinion of the gold line's voice whose quoted words hold its ``quoted``."""
    quoted = Skeleton.of(row["quoted"]).chars
    best: tuple[float, Located] | None = None
    for t in traced:
        if t.speaker != row["voice"] or not quoted:
            continue
        sk = Skeleton.of(t.block.text)
        a, b = _skel_span(sk, t.start, t.end)
        found = fuzz.partial_ratio_alignment(quoted, sk.chars[a:b])
        if found is None or found.score < FOUND:
            continue
        where = Located(t, a + found.dest_start, a + found.dest_end)
        if best is None or found.score > best[0]:
            best = (found.score, where)
    return best[1] if best else None


@lru_cache(maxsize=1)
def _traced_cached(seeds: Path, tradition: Path) -> tuple[Traced, ...]:
    return tuple(_trace_all(seeds, tradition))


def _traced() -> list[Traced]:
    tradition = tradition_dir()
    if not tradition.is_dir():
        raise InputError(tradition, None, "no tradition corpus here (set KG_TRADITION)")
    return list(_traced_cached(project_root() / "seeds", tradition))


def _trace_all(seeds: Path, tradition: Path) -> Iterator[Traced]:
    """Every quoting opinion of the seeds, traced against the tradition samples."""
    catalog = load_catalog()
    corpus = align([read(p, catalog=catalog) for p in sorted(seeds.glob("*.txt"))], catalog)
    iris = {id(u): URIRef(f"urn:book:{n}") for n, (u, _) in enumerate(corpus.units())}
    for ch in corpus.chapters():  # prefaces are units too
        for n, u in enumerate(ch.prefaces):
            iris.setdefault(id(u), URIRef(f"urn:preface:{id(ch)}:{n}"))
    # read as a build reads them: 注疏 last, with the other works' 经文 as its witness
    _, docs = split_sources(sorted(tradition.glob("*/*.txt")), "utf-8", Phases())
    works = work_chapters(docs, lambda x: URIRef(f"urn:work:{id(x)}"))
    linker = TraditionLinker(Minter("urn:x:"), works)
    for book in book_chapters(corpus, iris, "book"):
        yield from linker.traced(book, near_blocks(book, linker.overlaps(book)))
