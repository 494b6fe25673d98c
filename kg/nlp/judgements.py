"""Where an opinion accepts or rejects another's view, by explicit wording only.

Three places count (wording in ``patterns/commentary.toml`` [judgements]):

1. the end of a reported view: ``敖君善以为字之误是也`` endorses 敖继公, ``康成谓 … 非也``
   disputes 郑玄 — the judging opinion is the report itself;
2. the first words of the author's voice right after a quoted or anonymous view:
   ``旧说 … 也亦通`` endorses that view (the target is the opinion);
3. a short name with a strong judgement anywhere: ``敖说得之``, ``当从郑说``;
4. inside a quoted voice, the end of a view the quoted commentator reports: in ``郝仲舆曰 …
   康成谓疑者正立自定之貌非也`` 郝敬's opinion disputes 郑玄.

``是也`` and ``从之`` count only in the first two places: elsewhere they close an
identification (内则 … 是也) or tell what someone did.

>>> from kg.nlp.voices import split_voices
>>> text = "郑氏谓某贤于某若干纯是也"
>>> [(j.stance, j.person, j.words) for j in find_judgements(text, split_voices(text))]
[('endorses', 'zhengxuan', '是也')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kg.nlp.commentary_rules import ANONYMOUS, load_rules
from kg.nlp.phrases import (
    judgement_phrases,
    judgement_prefix,
    judgement_suffix,
    phrase_allowed,
    view_end,
)
from kg.nlp.voices import Voice, find_reports
from kg.nlp.wordlists import alternation
from kg.text.normalize import normalize


@dataclass(frozen=True)
class Judgement:
    voice: int  # index of the judging voice (opinion) in the block
    stance: str  # disputes | endorses
    start: int  # the words, offsets in the block's text
    end: int
    words: str
    person: str | None  # the commentator judged
    target: int | None = None  # index of the judged voice, when it is an opinion of the block


@lru_cache(maxsize=1)
def _named_re() -> tuple[re.Pattern[str], dict[str, str]]:
    rules = load_rules()
    j = rules.patterns.judgements
    short = dict(j.short_names)
    names = {**{n + j.view_suffix: s for n, s in rules.names.items()}, **short}
    strong = [p.words for p in judgement_phrases() if p.words not in j.weak]
    alt = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    words = "|".join(map(re.escape, strong))
    gap = f"(?:[^{re.escape(j.named_gap_not)}]{{0,{j.named_gap}}}?)"
    return re.compile(f"(?P<name>{alt}){gap}(?P<word>{words})"), names


@lru_cache(maxsize=1)
def _follow_re() -> re.Pattern[str]:
    """当从郑说: following a named view endorses it."""
    j = load_rules().patterns.judgements
    view = f"\\w{{1,{j.follow_name}}}?{re.escape(j.view_suffix)}"
    return re.compile(f"(?:{alternation(j.follow)})(?P<name>{view})")


def find_judgements(text: str, voices: list[Voice]) -> list[Judgement]:
    norm = normalize(text)
    phrase_of = {p.words: p for p in judgement_phrases()}
    named_re, names = _named_re()
    found: list[Judgement] = []
    for i, v in enumerate(voices):
        if v.kind == "report" and v.view:
            j = judgement_suffix(norm, v.view[0], v.end)
            if j:
                found.append(Judgement(i, j.stance, j.start, j.end, j.words, v.reports))
        if v.kind == "quote":  # the quoted commentator judging a view he reports
            rules = load_rules()
            for slug, _, b in find_reports(norm, v.body_start, v.end, rules):
                view_stop, stop = view_end(norm, b, v.end, rules, verdict=True)
                j = judgement_prefix(norm, view_stop, stop) if stop > view_stop else None
                if j and slug != v.speaker:
                    found.append(Judgement(i, j.stance, j.start, j.end, j.words, slug))
        prev = voices[i - 1] if i else None
        if (
            prev is not None
            and v.kind in ("author", "note")
            and prev.kind in ("quote", "anonymous", "report")
        ):
            j = judgement_prefix(norm, v.body_start, v.end)
            if j:
                person = prev.reports if prev.kind == "report" else prev.speaker
                target = None if prev.kind == "report" else i - 1
                found.append(
                    Judgement(i, j.stance, j.start, j.end, j.words, person or ANONYMOUS, target)
                )
        for m in named_re.finditer(norm, v.body_start, v.end):
            phrase = phrase_of[m.group("word")]
            if phrase_allowed(norm, m.start("word"), phrase):
                person = names[m.group("name")]
                found.append(Judgement(i, phrase.stance, m.start(), m.end(), m.group(), person))
        for m in _follow_re().finditer(norm, v.body_start, v.end):
            if m.group("name") in names:
                found.append(
                    Judgement(i, "endorses", m.start(), m.end(), m.group(), names[m.group("name")])
                )
    # one judgement per words: the first reading of them wins
    seen: set[tuple[int, int]] = set()
    out = []
    for j in found:
        if any(a < j.end and j.start < b for a, b in seen):
            continue
        seen.add((j.start, j.end))
        out.append(j)
    return out
