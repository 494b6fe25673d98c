"""Positions: a spot the text names by an anchor and a side (西阶东, 阼阶上, 尸东, 主人之南).

The anchor is a place, a ritual object or a role the lexicon found; the side is a word of the
closed list in ``ontology/directions.tsv`` right after it (or after 之). Rank orders (东上),
layouts (南领, 北首) and facings (西面) are not positions. A spot the vocabulary names as one
place (楅南, 洗北, 门外 — also when the text writes 楅之南) stays that place; the others become
an :class:`Position` carried by a place item, so the act reader attaches it as it attaches a
place (location, source or destination).

>>> [(p.anchors[0].form, p.direction) for p in spots("宾立于西阶东北面")]
[('西阶', '东')]
>>> [(p.anchors[0].form, p.direction) for p in spots("祝奠觯于尸东")]
[('尸', '东')]
>>> spots("众宾立于堂下西面北上")  # 堂下 is a place of the vocabulary; 北上 is a rank order
[]
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from rdflib import Graph

from kg.nlp.act_grammar import Item
from kg.nlp.extract import act_items
from kg.nlp.lexicon import PATTERNS, load_lexicon
from kg.nlp.wordlists import PatternFile
from kg.rdf.namespaces import LJ
from kg.resources import ontology_dir
from kg.text.normalize import normalize

ANCHOR_KINDS = ("place", "object", "role")
FREE_KINDS = ("adverb",)  # small words a direction may also be (左, 右, 后 are adverbs too)


@dataclass(frozen=True)
class Anchor:
    form: str  # normalized, as the text writes it
    iri: str
    kind: str  # place | object | role


@dataclass(frozen=True)
class Position:
    """A spot relative to ``anchors`` (one, or two for 间) on side ``direction``; ``start`` …
    ``end`` is its span in the unit's text (the anchor to the direction word)."""

    anchors: tuple[Anchor, ...]
    direction: str
    start: int
    end: int

    @property
    def label(self) -> str:
        return "".join(a.form for a in self.anchors) + self.direction


@dataclass(frozen=True)
class Direction:
    word: str
    slug: str
    english: str
    axis: str


@lru_cache(maxsize=1)
def directions(path: Path | None = None) -> tuple[Direction, ...]:
    """The closed list of ``ontology/directions.tsv``, longest word first."""
    path = path or ontology_dir() / "directions.tsv"
    with path.open(encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    out = [Direction(*(c.strip() for c in r[:4])) for r in rows]
    return tuple(sorted(out, key=lambda d: -len(d.word)))


@dataclass(frozen=True)
class PositionRules:
    genitive: frozenset[str]
    after: frozenset[str]
    compass_before: frozenset[str]
    pairs: frozenset[str]
    hands: frozenset[str]
    diagonal_after: frozenset[str]
    set_down: frozenset[str]
    layers: dict[str, str]


@lru_cache(maxsize=1)
def rules(path: Path | None = None) -> PositionRules:
    f = PatternFile(path or PATTERNS / "positions.toml")

    def n(section: str, key: str) -> frozenset[str]:
        return frozenset(normalize(x) for x in f.words(section, key))

    return PositionRules(
        genitive=n("anchor", "genitive"),
        after=n("anchor", "after"),
        compass_before=n("not_a_position", "compass_before"),
        pairs=n("not_a_position", "pairs"),
        hands=n("not_a_position", "hands"),
        diagonal_after=frozenset(f.words("anchor", "diagonal_after")),
        set_down=n("set_down", "verbs"),
        layers={p[i]: p[1 - i] for p in n("not_a_position", "layers") for i in (0, 1)},
    )


def _direction_at(text: str, pos: int, free: list[bool]) -> str | None:
    """The direction word at ``pos`` in free text, unless it ranks, lays out or faces."""
    for d in directions():
        w = d.word
        if not text.startswith(w, pos) or not all(free[pos : pos + len(w)]):
            continue
        after = text[pos + len(w) : pos + len(w) + 1]
        pair = next((p for p in rules().pairs if text.startswith(p, pos)), None)
        if pair is not None and all(free[pos : pos + len(pair)]):
            if text[pos + len(pair) : pos + len(pair) + 1] in rules().compass_before:
                return pair[0]  # 酱东西上: east of the sauce, ranked from the west
            return None  # 左右几, 南北以堂深: both sides, an extent
        if d.axis != "compass" or after not in rules().compass_before:
            return w
        if len(w) == 2 and after == "上":
            return w[0]  # 西阶东北上: east of the west stairs, ranked from the north
        return None  # 东上, 南领, 北首: not where
    return None


def _anchored(text: str, items: list[Item], k: int, genitive: bool, end: int) -> bool:
    """May the thing or person ``items[k]`` anchor a position ending at ``end``?"""
    it = items[k]
    if it.kind == "place" or genitive:
        return True
    prev = items[k - 1] if k > 0 else None
    if prev is not None and prev.end == it.start and prev.form in rules().after:
        return True  # 于尸东, 由司射西, 适尊东
    rank = items[k - 2] if k > 1 else None
    if _ranked(prev, it) and rank is not None and rank.end == prev.start:
        return rank.form in rules().after  # 加其奉于左皮上: 左皮 is the leftmost hide
    nxt = next((x for x in items[k + 1 :] if x.start >= end), None)
    after_verb = prev is not None and prev.kind == "action" and prev.end == it.start
    return (
        it.kind == "object"
        and not after_verb
        and text[end - 1 : end] not in rules().hands
        and nxt is not None
        and nxt.start == end
        and nxt.kind in ("facing", "action")
    )  # 筵西南面: a spot by the thing, where the next act is


def _ranked(prev: Item | None, it: Item) -> bool:
    """Is ``prev`` a side word right before ``it`` that picks one of its kind (左皮, 上韇)?"""
    sides = {d.word for d in directions()}
    return prev is not None and prev.end == it.start and prev.form in sides


def _layered(text: str, items: list[Item], end: int, word: str) -> bool:
    """下莞上簟: a side word before a thing, answered by its opposite before the next thing,
    says which layer each is (the lower mat, the upper mat), not a spot."""
    opposite = rules().layers.get(word)
    nxt = next((x for x in items if x.start == end), None)
    if opposite is None or nxt is None or nxt.kind != "object":
        return False
    return text.startswith(opposite, nxt.end)


def _free(text: str, items: list[Item]) -> list[bool]:
    free = [True] * len(text)
    for x in items:
        if x.kind not in FREE_KINDS:
            for p in range(x.start, x.end):
                free[p] = False
    return free


def _vocabulary_place(form: str) -> str | None:
    """楅之南 is 楅南, a place of the vocabulary."""
    return next((e.iri for e in load_lexicon().entries.get(form, ()) if e.type == "place"), None)


def with_positions(text: str, items: list[Item]) -> list[Item]:
    """``items`` with each anchor + direction read as one place item: a vocabulary place where
    the vocabulary names that spot, else a place item carrying its :class:`Position`."""
    items = _split_diagonals(text, sorted(items, key=lambda i: (i.start, -i.end)))
    free = _free(text, items)
    out: list[Item] = []
    consumed_to = -1
    for k, it in enumerate(items):
        if it.start < consumed_to:
            continue  # a small word inside a position just read (之, 右)
        spot = _spot_after(text, items, k, free) if it.kind in ANCHOR_KINDS else None
        if spot is None:
            out.append(it)
            continue
        out.append(spot)
        consumed_to = spot.end
    return out


def _split_diagonals(text: str, items: list[Item]) -> list[Item]:
    """西阶东北面 is 西阶东 + 北面, not 西阶 + 东北面: a diagonal facing right after a place or a
    thing (or after its 之) gives its first character to the spot. Not after a spot that
    already has its side (阼阶上东北面) nor after a person (主人西南面: he faces south-west)."""
    out = list(items)
    sides = {d.word for d in directions()}
    for k, it in enumerate(items[:-1]):
        if it.kind not in rules().diagonal_after or text[it.end - 1 : it.end] in sides:
            continue
        nxt = items[k + 1]
        at = it.end + (1 if text[it.end : it.end + 1] in rules().genitive else 0)
        if k + 2 < len(items) and nxt.kind == "pronoun" and nxt.start == it.end:
            nxt = items[k + 2]
        if nxt.kind == "facing" and nxt.start == at and len(nxt.extra) == 2:
            out[out.index(nxt)] = replace(
                nxt, start=nxt.start + 1, form=nxt.form[1:], extra=nxt.extra[1]
            )
    return out


def _spot_after(text: str, items: list[Item], k: int, free: list[bool]) -> Item | None:
    it = items[k]
    pos = it.end
    genitive = text[pos : pos + 1] in rules().genitive
    if genitive:
        pos += 1  # 主人之南: the direction after 之
    word = _direction_at(text, pos, free)
    if word is None or not _anchored(text, items, k, genitive, pos + len(word)):
        return None
    if _layered(text, items, pos + len(word), word):
        return None
    end = pos + len(word)
    named = _vocabulary_place(it.form + word)
    if named is not None:
        return Item(it.start, end, "place", text[it.start : end], iri=named)
    position = Position((Anchor(it.form, it.iri, it.kind),), word, it.start, end)
    return replace(it, end=end, kind="place", form=text[it.start : end], position=position)


@lru_cache(maxsize=1)
def vocabulary_positions() -> dict[str, tuple[tuple[str, ...], str]]:
    """The compound places of ``ontology/places.ttl`` that are positions (户东: 户, 东):
    place IRI → (anchor IRIs, direction)."""
    g = Graph()
    g.parse(ontology_dir() / "places.ttl", format="turtle")
    out = {}
    for spot in set(g.subjects(LJ.relativeTo, None)):
        anchors = tuple(sorted(str(a) for a in g.objects(spot, LJ.relativeTo)))
        out[str(spot)] = (anchors, str(g.value(spot, LJ.direction)))
    return out


def spots(text: str) -> list[Position]:
    """The positions of one unit of the classic (for tests and doctests)."""
    norm = normalize(text)
    return [i.position for i in with_positions(norm, act_items(text)) if i.position is not None]
