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
from dataclasses import dataclass
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
    by_opinion: dict[int, list[tuple[dict, Located]]] = defaultdict(list)
    for r in rows:
        where = _locate(r, traced)
        if where is None:
            if r["source_text"]:
                scores[r["voice"]].fn += 1
                errors.append((r["id"], "missed", f"opinion not found: {r['quoted'][:30]}"))
            continue
        by_opinion[id(where.traced)].append((r, where))
    for lines in by_opinion.values():
        _score_opinion(lines, scores, errors)
    add_totals(scores)
    return Report("quotations", len(rows), {"sources": dict(scores)}, errors)


def _score_opinion(
    lines: list[tuple[dict, Located]], scores: dict[str, Score], errors: list
) -> None:
    """One to one: each gold line with a source takes the first prediction it matches."""
    t = lines[0][1].traced
    sk = Skeleton.of(t.block.text)
    preds = [(q, _skel_span(sk, t.start + q.quoted[0], t.start + q.quoted[1])) for q in t.found]
    used: set[int] = set()
    for r, where in lines:
        if not r["source_text"]:
            continue
        hit = next(
            (
                i
                for i, (q, (a, b)) in enumerate(preds)
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
    for i, (q, _) in enumerate(preds):
        if i not in used:
            scores[lines[0][0]["voice"]].fp += 1
            quoted = t.text[q.quoted[0] : q.quoted[1]]
            errors.append((lines[0][0]["id"], "spurious", f"{quoted[:24]} ← {q.source_text[:24]}"))


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
