"""The act reader's grammar: the small words ``patterns/acts.toml`` lists, and the items the
reader reads — lexicon spans (roles, objects, places, actions) and those small words.

Shared by the extractor (kg/nlp/extract.py), which builds the items, and the act reader
(kg/nlp/acts.py), which reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from kg.nlp.lexicon import PATTERNS
from kg.nlp.wordlists import PatternFile
from kg.text.normalize import normalize

if TYPE_CHECKING:
    from kg.nlp.positions import Position


@dataclass(frozen=True)
class Swallowed:
    """An object an action word's span covers (袒决遂: 决, 遂): still what the act handles."""

    form: str
    iri: str


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
    swallowed: tuple[Swallowed, ...] = ()  # action: the objects its span covers
    position: Position | None = None  # place: an anchor + direction the vocabulary lacks (尸东)


@dataclass(frozen=True)
class Grammar:
    preps: dict[str, str]  # form -> location|source|destination
    motion_to: frozenset[str]
    motion_from: frozenset[str]
    moves: frozenset[str]  # movements: 自X before any other verb is where it is done
    motion_into: frozenset[str]  # 入于室: 于 after these is where the movement ends
    follow: frozenset[str]  # 从入: 从 before a movement is one act with it
    follow_moves: frozenset[str]
    facings: tuple[str, ...]
    speech: frozenset[str]
    closing: frozenset[str]
    said_before: frozenset[str]  # 某也辞, 寡君: after these, words of the speech itself
    commands: frozenset[str]
    bare_commands: frozenset[str]
    requests: frozenset[str]  # 请射: the verb after it is asked for
    request_not: frozenset[str]  # 请入告: movements after 请 are acts
    role_patients: frozenset[str]
    gives: frozenset[str]  # 授宰币: a role then a thing is receiver and gift, not "whose"
    invites: frozenset[str]  # 延之: the one invited acts next
    leads: frozenset[str]  # 前尸出户: the one led is acted on, the leader moves on
    greets_in_turn: frozenset[str]  # 劳侯氏亦…: the role acted on acts next
    replies: frozenset[str]
    inanimate: frozenset[str]
    negations: frozenset[str]
    plural: frozenset[str]
    anonymous: frozenset[str]
    pair: frozenset[str]
    partner: str  # the role 与其耦 names
    comparison: frozenset[str]  # 如主人: compared with, not acting
    joiners: frozenset[str]
    adverbs: frozenset[str]
    repeats: tuple[str, ...]
    repeat_previous: frozenset[str]  # 亦如之: the act just before
    repeat_prefix: str
    repeat_max: int
    cond_open: frozenset[str]
    cond_close: frozenset[str]
    pronouns: frozenset[str]
    align_after_act: frozenset[str]  # 当 after an act: a line-up, not a setting
    position_after_thing: frozenset[str]  # 在 after a thing: where it stands, not an act
    measure: frozenset[str]  # 以堂深: the place is a measure
    directions: frozenset[str]  # 筵西: a spot beside a thing
    spot_directions: frozenset[str]  # 尊南, 尸东: a thing or role that only says where
    spot_ends: frozenset[str]  # 筵末, 序端: always a spot
    oriented: frozenset[str]  # 楅北括: laid out facing a direction, not a spot
    genitive: frozenset[str]  # 楅之南
    near: frozenset[str]  # 进当楅: where one stands, not what one handles
    max_gap: int  # characters between an act and a thing it still handles
    used_with: frozenset[str]  # 受用箧: a thing after these is what the act uses
    instrument: frozenset[str]  # 以柶祭醴: what the act is done with
    not_an_act_after: frozenset[str]  # 所设: no act
    not_an_act_before: frozenset[str]  # 至者: a person, no act
    declines: frozenset[str]  # 辞洗: the verb after it is declined
    completes: frozenset[str]  # 成拜: completes a bow another declined
    bows: frozenset[str]  # the bows (slugs) a 辞 can decline
    doer_suffix: str  # 吊 → 吊者: the role that names the doer of a verb

    @property
    def spot_words(self) -> frozenset[str]:
        """After a thing not right after its verb: it names a spot (荐东, 筵末)."""
        return self.spot_directions | self.spot_ends


def _longest_first(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted((normalize(f) for f in words), key=len, reverse=True))


@lru_cache(maxsize=1)
def grammar(path: Path | None = None) -> Grammar:
    """``patterns/acts.toml`` (or another file) as the reader's grammar, normalized; a missing
    or mistyped key is a PatternError naming the file."""
    f = PatternFile(path or PATTERNS / "acts.toml")

    def n(section: str, key: str) -> frozenset[str]:
        return frozenset(normalize(x) for x in f.words(section, key))

    preps = {normalize(w): role for role, forms in f.table("prepositions").items() for w in forms}
    return Grammar(
        preps=preps,
        motion_to=n("motion", "to"),
        motion_from=n("motion", "leave"),
        facings=_longest_first(f.words("facing", "forms")),
        speech=n("speech", "markers"),
        closing=n("speech", "closing_actions"),
        commands=n("command", "verbs"),
        bare_commands=n("command", "bare"),
        requests=n("command", "request"),
        request_not=n("command", "request_not"),
        role_patients=n("role_patients", "verbs"),
        gives=n("role_patients", "gives"),
        greets_in_turn=n("role_patients", "in_turn"),
        replies=n("replies", "verbs"),
        inanimate=n("inanimate", "verbs"),
        negations=n("negation", "words"),
        plural=n("agents", "plural"),
        anonymous=n("agents", "anonymous"),
        pair=n("agents", "pair"),
        partner=normalize(f.value("agents", "partner", str)),
        comparison=n("agents", "comparison"),
        joiners=n("agents", "joiners"),
        adverbs=n("agents", "adverbs"),
        repeats=_longest_first(f.words("repeat", "forms")),
        repeat_previous=n("repeat", "previous"),
        repeat_prefix=normalize(f.value("repeat", "prefix", str)),
        repeat_max=f.value("repeat", "max_target_chars", int),
        cond_open=n("condition", "opens"),
        cond_close=n("condition", "closes"),
        pronouns=n("pronoun", "object"),
        align_after_act=n("not_a_setting", "after_act"),
        position_after_thing=n("not_a_setting", "after_thing"),
        measure=n("not_a_setting", "measure"),
        directions=n("relative", "directions"),
        spot_directions=n("spot", "directions"),
        spot_ends=n("spot", "ends"),
        oriented=n("spot", "oriented"),
        genitive=n("spot", "genitive"),
        near=n("spot", "near"),
        max_gap=f.value("spot", "max_gap", int),
        instrument=n("instrument", "words"),
        not_an_act_after=n("not_an_act", "after"),
        not_an_act_before=n("not_an_act", "before"),
        declines=n("not_an_act", "declined"),
        **_issue15(f, n),
    )


def _issue15(f: PatternFile, n: Callable[[str, str], frozenset[str]]) -> dict:
    """The keys the act reader gained for the chapters the seeds lack (issue 15)."""
    return dict(
        completes=n("not_an_act", "completes"),
        bows=frozenset(f.words("not_an_act", "bows")),
        doer_suffix=normalize(f.value("agents", "doer_suffix", str)),
        said_before=n("speech", "said_before"),
        moves=n("motion", "moves"),
        motion_into=n("motion", "into"),
        follow=n("motion", "follow"),
        follow_moves=n("motion", "follow_moves"),
        invites=n("role_patients", "invites"),
        leads=n("role_patients", "leads"),
        used_with=n("instrument", "used_with"),
    )


@lru_cache(maxsize=1)
def _marker_re() -> re.Pattern[str]:
    rules = grammar()
    words = {
        **{f: "facing" for f in rules.facings},
        **{f: "repeat" for f in rules.repeats},
        **{f: "pair" for f in rules.pair},
        **{f: "prep" for f in rules.preps},
        **{f: "speech" for f in rules.speech},
        **{f: "cond-open" for f in rules.cond_open},
        **{f: "cond-close" for f in rules.cond_close},
        **{f: "plural" for f in rules.plural},
        **{f: "anonymous" for f in rules.anonymous},
        **{f: "joiner" for f in rules.joiners},
        **{f: "pronoun" for f in rules.pronouns},
        **{f: "adverb" for f in rules.adverbs},
    }
    alternation = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(alternation)


def _marker_kind(form: str) -> str:
    rules = grammar()
    for kind, forms in (
        ("facing", rules.facings), ("repeat", rules.repeats), ("pair", rules.pair),
        ("prep", rules.preps), ("speech", rules.speech), ("cond-open", rules.cond_open),
        ("cond-close", rules.cond_close), ("plural", rules.plural),
        ("anonymous", rules.anonymous), ("joiner", rules.joiners),
        ("pronoun", rules.pronouns),
    ):  # fmt: skip
        if form in forms:
            return kind
    return "adverb"


def markers(text: str, taken: list[bool]) -> list[Item]:
    """Small words in the characters no lexicon span took (each free run on its own, so
    that 堂西南面 reads 堂西 + 南面, not 西南面)."""
    rules = grammar()
    out = []
    pos = 0
    while pos < len(text):
        if taken[pos]:
            pos += 1
            continue
        end = pos
        while end < len(text) and not taken[end]:
            end += 1
        for match in _marker_re().finditer(text, pos, end):
            kind = _marker_kind(match.group())
            extra = ""
            if kind == "facing":
                extra = match.group()[:-1]
            elif kind == "prep":
                extra = rules.preps[match.group()]
            out.append(Item(match.start(), match.end(), kind, match.group(), extra=extra))
        pos = end
    return out
