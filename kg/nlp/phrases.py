"""Judgement phrases (非也, 是也, 此说未是 …) and where a reported or anonymous view ends: the
wording that both the voice splitter (kg/nlp/voices.py) and the judgement finder
(kg/nlp/judgements.py) read. Wording in ``patterns/commentary.toml`` [judgements].

>>> judgement_suffix("郑说非也", 0, 4)
(2, 4, '非也', 'disputes')
>>> view_end("郑氏谓某贤于某若干纯是也", 3, 12, load_rules(), verdict=True)
(10, 12)
"""

from __future__ import annotations

from functools import lru_cache

from kg.nlp.commentary_rules import Rules, load_rules


@lru_cache(maxsize=1)
def judgement_phrases() -> tuple[list[tuple[str, str]], set[str], str]:
    j = load_rules().patterns.judgements
    pairs = [(w, "disputes") for w in j.disputes] + [(w, "endorses") for w in j.endorses]
    pairs.sort(key=lambda p: len(p[0]), reverse=True)
    return pairs, set(j.weak), j.not_before_dispute


def phrase_allowed(norm: str, start: int, word: str, stance: str) -> bool:
    """误 after 之 / 字 / 本 is about a character (字之误, 本误作), not a view."""
    j = load_rules().patterns.judgements
    return not (
        stance == "disputes"
        and word.startswith(j.error)
        and start
        and norm[start - 1] in j.not_before_dispute
    )


def judgement_suffix(norm: str, start: int, end: int) -> tuple[int, int, str, str] | None:
    """A judgement phrase closing ``norm[start:end]`` (a final particle may follow it):
    ``(start, end, words, stance)``."""
    pairs, _, _ = judgement_phrases()
    finals = load_rules().finals
    stops = [end]
    if end - 1 > start and norm[end - 1] in finals:
        stops.append(end - 1)
    for stop in stops:
        for word, stance in pairs:
            a = stop - len(word)
            if a >= start and norm.startswith(word, a) and phrase_allowed(norm, a, word, stance):
                return a, end, norm[a:end], stance
    return None


def judgement_prefix(norm: str, start: int, end: int) -> tuple[int, int, str, str] | None:
    """A judgement phrase opening ``norm[start:end]`` (after 此说 / 其说 / 斯言)."""
    pairs, _, _ = judgement_phrases()
    for lead in (*load_rules().patterns.judgements.leads, ""):
        if not norm.startswith(lead, start):
            continue
        a = start + len(lead)
        for word, stance in pairs:
            if (
                norm.startswith(word, a)
                and a + len(word) <= end
                and phrase_allowed(norm, a, word, stance)
            ):
                return start, a + len(word), norm[start : a + len(word)], stance
    return None


def view_end(
    norm: str, body: int, limit: int, rules: Rules, verdict: bool = False
) -> tuple[int, int]:
    """Where a reported or anonymous view ends: ``(end of the view, end of the voice)``.

    The view ends after its first full clause (two characters at least), before 然
    "however", or before a judgement on it (… 非也, 此说未是). The author's verdict on a
    view he reports belongs to the report's voice (``verdict``); on an anonymous view it is
    the author speaking again."""
    v = rules.patterns.voices
    end = limit
    for i in range(body + 2, limit):
        if judgement_prefix(norm, i, limit):
            end = i
            break
        ch = norm[i]
        if ch in rules.finals:
            end = i + 1
            break
        if any(norm.startswith(w, i) for w in v.view_ends) and not any(
            norm.startswith(w, i) for w in v.view_ends_unless
        ):
            end = i
            break
    if not verdict:
        return end, end
    j = judgement_prefix(norm, end, limit)
    if not j:
        return end, end
    stop = j[1]
    if stop < limit and norm[stop] in rules.finals and norm[stop - 1] not in rules.finals:
        stop += 1
    return end, stop
