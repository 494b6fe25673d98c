"""Judgement phrases (非也, 是也, 此说未是 …) and where a reported or anonymous view ends: the
wording that both the voice splitter (kg/nlp/voices.py) and the judgement finder
(kg/nlp/judgements.py) read. Wording in ``patterns/commentary.toml`` [judgements].

>>> judgement_suffix("郑说非也", 0, 4)
PhraseMatch(start=2, end=4, words='非也', stance='disputes')
>>> view_end("郑氏谓某贤于某若干纯是也", 3, 12, load_rules(), verdict=True)
(10, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from kg.nlp.commentary_rules import Rules, load_rules


@dataclass(frozen=True)
class Phrase:
    words: str  # 非也, 是也, 当从 …
    stance: str  # disputes | endorses


@dataclass(frozen=True)
class PhraseMatch:
    """A judgement phrase found in a block's text (with its lead: 此说未是)."""

    start: int
    end: int
    words: str
    stance: str


@lru_cache(maxsize=1)
def judgement_phrases() -> tuple[Phrase, ...]:
    """Every judgement phrase, the longest first (恐未是 before 未是)."""
    j = load_rules().patterns.judgements
    phrases = [Phrase(w, "disputes") for w in j.disputes] + [
        Phrase(w, "endorses") for w in j.endorses
    ]
    return tuple(sorted(phrases, key=lambda p: len(p.words), reverse=True))


def phrase_allowed(norm: str, start: int, phrase: Phrase) -> bool:
    """误 after 之 / 字 / 本 is about a character (字之误, 本误作), not a view."""
    j = load_rules().patterns.judgements
    return not (
        phrase.stance == "disputes"
        and phrase.words.startswith(j.error)
        and start
        and norm[start - 1] in j.not_before_dispute
    )


def judgement_suffix(norm: str, start: int, end: int) -> PhraseMatch | None:
    """A judgement phrase closing ``norm[start:end]`` (a final particle may follow it)."""
    finals = load_rules().finals
    stops = [end]
    if end - 1 > start and norm[end - 1] in finals:
        stops.append(end - 1)
    for stop in stops:
        for phrase in judgement_phrases():
            a = stop - len(phrase.words)
            if a >= start and norm.startswith(phrase.words, a) and phrase_allowed(norm, a, phrase):
                return PhraseMatch(a, end, norm[a:end], phrase.stance)
    return None


def judgement_prefix(norm: str, start: int, end: int) -> PhraseMatch | None:
    """A judgement phrase opening ``norm[start:end]`` (after 此说 / 其说 / 斯言)."""
    for lead in (*load_rules().patterns.judgements.leads, ""):
        if not norm.startswith(lead, start):
            continue
        a = start + len(lead)
        for phrase in judgement_phrases():
            b = a + len(phrase.words)
            if norm.startswith(phrase.words, a) and b <= end and phrase_allowed(norm, a, phrase):
                return PhraseMatch(start, b, norm[start:b], phrase.stance)
    return None


def verdict_at(norm: str, i: int, limit: int, rules: Rules) -> PhraseMatch | None:
    """A judgement opening at ``i``, also after a verdict lead ([reports] verdict_leads:
    今从之, 其义亦通) or a commentator's short name (郑说是也)."""
    j = judgement_prefix(norm, i, limit)
    if j:
        return j
    lead = _verdict_lead(norm, i, rules)
    if lead:
        j = judgement_prefix(norm, i + len(lead), limit)
        if j and j.start == i + len(lead):
            return PhraseMatch(i, j.end, norm[i : j.end], j.stance)
    return None


def _verdict_lead(norm: str, i: int, rules: Rules) -> str | None:
    """The lead of two characters or more (or a verdict lead) that opens ``norm`` at i."""
    j = rules.patterns.judgements
    leads = [w for w in j.leads if len(w) > 1]
    leads += [*rules.patterns.reports.verdict_leads, *j.short_names]
    return next((w for w in sorted(leads, key=len, reverse=True) if norm.startswith(w, i)), None)


def _first_clause_end(norm: str, body: int, limit: int, rules: Rules) -> int:
    """The end of a view's first full clause (two characters at least), before 然
    "however" or before a judgement on it."""
    v = rules.patterns.voices
    for i in range(body + 2, limit):
        if verdict_at(norm, i, limit, rules):
            return i
        if norm[i] in rules.finals:
            return i + 1
        if any(norm.startswith(w, i) for w in v.view_ends) and not any(
            norm.startswith(w, i) for w in v.view_ends_unless
        ):
            return i
    return limit


def _later_verdict(norm: str, pos: int, limit: int, rules: Rules) -> tuple[int, PhraseMatch] | None:
    """A verdict in one of the [reports] verdict_within clauses after ``pos``: opening a
    clause, or after a lead inside one. The view runs to it."""
    weak = set(rules.patterns.judgements.weak)
    for _ in range(rules.patterns.reports.verdict_within):
        if pos >= limit:
            return None
        clause = pos
        for i in range(clause, limit):
            j = verdict_at(norm, i, limit, rules)
            if j and (i == clause or _verdict_lead(norm, i, rules)):
                return i, j
            if norm[i] in rules.finals:
                pos = i + 1
                break
        else:
            # the verdict may close the view's last clause (将行而始之亦通)
            j = judgement_suffix(norm, clause, limit)
            if j and j.start > clause + 1 and j.words not in weak:
                return j.start, j
            return None
    return None


def _parallel_end(norm: str, body: int, end: int, limit: int, rules: Rules) -> int:
    """A view of parallel A者B clauses runs over all of them (挋用巾者拭发也挋用浴衣者拭身也):
    each next clause opens with the view's first character and holds 者."""
    zhe = rules.patterns.voices.parallel_mark
    first = norm[body:end].find(zhe)
    if first < 1:
        return end
    while end < limit and norm[end] == norm[body]:
        stop = next((i + 1 for i in range(end, limit) if norm[i] in rules.finals), None)
        if stop is None or zhe not in norm[end + 1 : stop - 1]:
            break
        end = stop
    return end


def view_end(
    norm: str, body: int, limit: int, rules: Rules, verdict: bool = False
) -> tuple[int, int]:
    """Where a reported or anonymous view ends: ``(end of the view, end of the voice)``.

    The view ends after its first full clause, before 然 "however", or before a judgement
    on it (… 非也, 此说未是). The author's verdict on a view he reports belongs to the
    report's voice (``verdict``), and may come a clause or two later (…今从之); on an
    anonymous view it is the author speaking again."""
    end = _first_clause_end(norm, body, limit, rules)
    if norm[end - 1] in rules.finals:
        end = _parallel_end(norm, body, end, limit, rules)
    if not verdict:
        return end, end
    j = verdict_at(norm, end, limit, rules)
    if not j and norm[end - 1] in rules.finals:  # not past 然: the author's own view
        later = _later_verdict(norm, end, limit, rules)
        if later is not None:
            end, j = later
    if not j:
        return end, end
    stop = j.end
    if stop < limit and norm[stop] in rules.finals and norm[stop - 1] not in rules.finals:
        stop += 1
    return end, stop
