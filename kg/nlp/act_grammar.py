"""The act reader's grammar: the small words ``patterns/acts.toml`` lists, and the items the
reader reads — lexicon spans (roles, objects, places, actions) and those small words.

Shared by the extractor (kg/nlp/extract.py), which builds the items, and the act reader
(kg/nlp/acts.py), which reads them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache

from kg.nlp.lexicon import PATTERNS
from kg.text.normalize import normalize


@dataclass(frozen=True)
class Item:
    start: int
    end: int
    kind: str  # role object place action | facing prep speech repeat cond-open cond-close
    #            plural pair joiner pronoun adverb
    form: str
    slug: str = ""
    iri: str = ""
    extra: str = ""  # prep: location|source|destination; facing: the direction


@dataclass(frozen=True)
class Grammar:
    preps: dict[str, str]  # form -> location|source|destination
    motion_to: frozenset[str]
    motion_from: frozenset[str]
    facings: tuple[str, ...]
    speech: frozenset[str]
    closing: frozenset[str]
    commands: frozenset[str]
    bare_commands: frozenset[str]
    requests: frozenset[str]  # 请射: the verb after it is asked for
    request_not: frozenset[str]  # 请入告: movements after 请 are acts
    role_patients: frozenset[str]
    replies: frozenset[str]
    inanimate: frozenset[str]
    negations: frozenset[str]
    plural: frozenset[str]
    anonymous: frozenset[str]
    pair: frozenset[str]
    joiners: frozenset[str]
    adverbs: frozenset[str]
    repeats: tuple[str, ...]
    repeat_prefix: str
    repeat_max: int
    cond_open: frozenset[str]
    cond_close: frozenset[str]
    pronouns: frozenset[str]
    align_after_act: frozenset[str]  # 当 after an act: a line-up, not a setting
    position_after_thing: frozenset[str]  # 在 after a thing: where it stands, not an act
    measure: frozenset[str]  # 以堂深: the place is a measure
    directions: frozenset[str]  # 筵西: a spot beside a thing


@lru_cache(maxsize=1)
def grammar() -> Grammar:
    d = tomllib.loads((PATTERNS / "acts.toml").read_text(encoding="utf-8"))

    def n(xs: list[str]) -> frozenset[str]:
        return frozenset(normalize(x) for x in xs)

    preps = {normalize(f): role for role, forms in d["prepositions"].items() for f in forms}
    return Grammar(
        preps=preps,
        motion_to=n(d["motion"]["to"]),
        motion_from=n(d["motion"]["from"]),
        facings=tuple(sorted((normalize(f) for f in d["facing"]["forms"]), key=len, reverse=True)),
        speech=n(d["speech"]["markers"]),
        closing=n(d["speech"]["closing_actions"]),
        commands=n(d["command"]["verbs"]),
        bare_commands=n(d["command"]["bare"]),
        requests=n(d["command"]["request"]),
        request_not=n(d["command"]["request_not"]),
        role_patients=n(d["role_patients"]["verbs"]),
        replies=n(d["replies"]["verbs"]),
        inanimate=n(d["inanimate"]["verbs"]),
        negations=n(d["negation"]["words"]),
        plural=n(d["agents"]["plural"]),
        anonymous=n(d["agents"]["anonymous"]),
        pair=n(d["agents"]["pair"]),
        joiners=n(d["agents"]["joiners"]),
        adverbs=n(d["agents"]["adverbs"]),
        repeats=tuple(sorted((normalize(f) for f in d["repeat"]["forms"]), key=len, reverse=True)),
        repeat_prefix=normalize(d["repeat"]["prefix"]),
        repeat_max=int(d["repeat"]["max_target_chars"]),
        cond_open=n(d["condition"]["opens"]),
        cond_close=n(d["condition"]["closes"]),
        pronouns=n(d["pronoun"]["object"]),
        align_after_act=n(d["not_a_setting"]["after_act"]),
        position_after_thing=n(d["not_a_setting"]["after_thing"]),
        measure=n(d["not_a_setting"]["measure"]),
        directions=n(d["relative"]["directions"]),
    )


@lru_cache(maxsize=1)
def _marker_re() -> re.Pattern[str]:
    g = grammar()
    words = {
        **{f: "facing" for f in g.facings},
        **{f: "repeat" for f in g.repeats},
        **{f: "pair" for f in g.pair},
        **{f: "prep" for f in g.preps},
        **{f: "speech" for f in g.speech},
        **{f: "cond-open" for f in g.cond_open},
        **{f: "cond-close" for f in g.cond_close},
        **{f: "plural" for f in g.plural},
        **{f: "anonymous" for f in g.anonymous},
        **{f: "joiner" for f in g.joiners},
        **{f: "pronoun" for f in g.pronouns},
        **{f: "adverb" for f in g.adverbs},
    }
    alternation = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(alternation)


def _marker_kind(form: str) -> str:
    g = grammar()
    for kind, forms in (
        ("facing", g.facings), ("repeat", g.repeats), ("pair", g.pair), ("prep", g.preps),
        ("speech", g.speech), ("cond-open", g.cond_open), ("cond-close", g.cond_close),
        ("plural", g.plural), ("anonymous", g.anonymous), ("joiner", g.joiners),
        ("pronoun", g.pronouns),
    ):  # fmt: skip
        if form in forms:
            return kind
    return "adverb"


def markers(text: str, taken: list[bool]) -> list[Item]:
    """Small words in the characters no lexicon span took (each free run on its own, so
    that 堂西南面 reads 堂西 + 南面, not 西南面)."""
    g = grammar()
    out = []
    pos = 0
    while pos < len(text):
        if taken[pos]:
            pos += 1
            continue
        end = pos
        while end < len(text) and not taken[end]:
            end += 1
        for m in _marker_re().finditer(text, pos, end):
            kind = _marker_kind(m.group())
            extra = ""
            if kind == "facing":
                extra = m.group()[:-1]
            elif kind == "prep":
                extra = g.preps[m.group()]
            out.append(Item(m.start(), m.end(), kind, m.group(), extra=extra))
        pos = end
    return out
