"""Works a commentary block cites: a work's name (ontology/works.ttl) followed by a citing
word (云, 曰, 所云, 所谓 …), with the quoted words where their end can be told: the end of
the voice, the next citation, the author's ``是也``, or a sentence-final particle within
``max_quote`` characters.

>>> from kg.nlp.voices import split_voices
>>> text = "燕义云君独升立席上西面特立莫敢适之义也"
>>> [(c.work, c.quote) for c in find_citations(text, split_voices(text))]
[('yanyi', '君独升立席上西面特立莫敢适之义也')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kg.nlp.commentary_rules import load_rules
from kg.nlp.voices import Voice
from kg.nlp.wordlists import alternation
from kg.text.normalize import normalize


@dataclass(frozen=True)
class Citation:
    voice: int  # index of the citing voice
    work: str  # slug in works.ttl
    start: int  # the work's name and the citing word
    end: int
    name: str  # the name as normalized
    quote: str | None = None
    quote_span: tuple[int, int] | None = None


@lru_cache(maxsize=1)
def _citing_re() -> re.Pattern[str]:
    rules = load_rules()
    verbs = alternation(rules.patterns.citations.verbs)
    return re.compile(f"(?P<work>{alternation(rules.works)})(?P<verb>{verbs})")


def find_citations(text: str, voices: list[Voice]) -> list[Citation]:
    norm = normalize(text)
    rules = load_rules()
    cfg = rules.patterns.citations
    out: list[Citation] = []
    for i, v in enumerate(voices):
        hits = list(_citing_re().finditer(norm, v.body_start, v.end))
        for n, m in enumerate(hits):
            limit = hits[n + 1].start() if n + 1 < len(hits) else v.end
            span = _quote(norm, m.end(), limit, limit == v.end or n + 1 < len(hits), cfg, rules)
            out.append(
                Citation(
                    i,
                    rules.works[m.group("work")],
                    m.start(),
                    m.end(),
                    m.group("work"),
                    norm[span[0] : span[1]] if span else None,
                    span,
                )
            )
    return out


def _quote(
    norm: str, start: int, limit: int, hard: bool, cfg: dict, rules
) -> tuple[int, int] | None:
    """The quoted words: up to a closer (是也), a final particle within reach, or the limit
    when that is the end of the voice or the next citation."""
    if start >= limit:
        return None
    end = limit
    for closer in cfg.closers:
        k = norm.find(closer, start, limit)
        if k > start:
            end = min(end, k)
    for i in range(start + 1, min(end, start + cfg.max_quote)):
        if norm[i] in rules.finals:
            return start, i + 1
    if end < limit or hard:
        return (start, end) if end - start <= cfg.max_quote * 2 else None
    return None
