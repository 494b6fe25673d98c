"""Scoring positions against ``tests/gold/positions.jsonl``.

A gold unit: ``{"id", "text", "positions": [{"span", "text", "anchors", "kind", "direction",
"relation", "set"}], "not_positions": [...]}``; anchors are concept slugs (``?X`` for a thing
the lexicon lacks), kind the anchor's type (place, object, role). A compound place of the
vocabulary (户东, 洗北) counts as a position by its ``lj:relativeTo`` / ``lj:direction`` in
``ontology/places.ttl``. Three modes, each by anchor type:

- *spot*: the anchor(s) and direction of each spot an act is at, goes to or comes from,
  counted per unit (a multiset: 门左 twice is two);
- *spot+relation*: also the act's relation to it (location, source, destination);
- *setAt*: the spots where an act sets its things down (设X于Y).

The words of ``not_positions`` (东上, 南领, 北首, 西面) are what a reader must not take; a
position read inside one of them is an error as any other spurious one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

from kg.eval.score import Report, Score, add_totals, read_gold
from kg.nlp.acts import Act, ActReader
from kg.nlp.extract import act_items
from kg.nlp.positions import vocabulary_positions
from kg.text.normalize import normalize

RELATIONS = ("location", "source", "destination")
Key = tuple  # (anchors, direction, kind, …)


def _tail(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1]


def _kind(iri: str) -> str:
    return next((k for k in ("place", "object", "role") if f"/{k}/" in iri), "place")


def _vocab_key(iri: str) -> Key | None:
    found = vocabulary_positions().get(iri)
    if found is None:
        return None
    anchors, direction = found
    return tuple(sorted(_tail(a) for a in anchors)), direction, _kind(anchors[0])


def _act_keys(acts: list[Act]) -> tuple[Counter, Counter]:
    """(relation, anchors, direction, kind) of each act's spots, and the spots set at."""
    related: Counter = Counter()
    sets: Counter = Counter()
    for act in acts:
        for relation in RELATIONS:
            keys = [_vocab_key(i) for i in act.place_iris.get(relation, [])]
            for p in act.positions.get(relation, []):
                anchors = tuple(sorted(_tail(a.iri) for a in p.anchors))
                keys.append((anchors, p.direction, p.anchors[0].kind))
            for key in filter(None, keys):
                related[(relation, *key)] += 1
                if relation == "location" and act.set_at:
                    sets[key] += 1
    return related, sets


def _score(scores: dict[str, Score], gold: Counter, got: Counter, kind_at: int) -> None:
    for kind in {k[kind_at] for k in gold | got}:
        g = Counter({k: n for k, n in gold.items() if k[kind_at] == kind})
        f = Counter({k: n for k, n in got.items() if k[kind_at] == kind})
        tp = sum((g & f).values())
        sc = scores[kind]
        sc.tp, sc.fp, sc.fn = sc.tp + tp, sc.fp + sum(f.values()) - tp, sc.fn + sum(g.values()) - tp


def _gold_keys(u: dict) -> tuple[Counter, Counter, Counter]:
    spots, related, sets = Counter(), Counter(), Counter()
    for p in u["positions"]:
        key = (tuple(sorted(p["anchors"])), p["direction"], p["kind"])
        spots[key] += 1
        related[(p["relation"], *key)] += 1
        if p.get("set"):
            sets[key] += 1
    return spots, related, sets


def evaluate_positions(path: Path) -> Report:
    rows = read_gold(path, ("id", "text", "positions"))
    scores: dict[str, dict[str, Score]] = {
        m: defaultdict(Score) for m in ("spot", "spot+relation", "setAt")
    }
    errors: list[tuple[str, str, str]] = []
    for u in rows:
        text = normalize(u["text"])
        g_spots, g_related, g_sets = _gold_keys(u)
        got_related, got_sets = _act_keys(ActReader(text, act_items(text)).read())
        got_spots = Counter()
        for key, n in got_related.items():
            got_spots[key[1:]] += n
        _score(scores["spot"], g_spots, got_spots, 2)
        _score(scores["spot+relation"], g_related, got_related, 3)
        _score(scores["setAt"], g_sets, got_sets, 2)
        for key in sorted((g_related - got_related).elements()):
            errors.append((u["id"], "missed", _describe(key)))
        for key in sorted((got_related - g_related).elements()):
            errors.append((u["id"], "spurious", _describe(key)))
    for mode in scores.values():
        add_totals(mode)
    return Report("positions", len(rows), {k: dict(v) for k, v in scores.items()}, errors)


def _describe(key: Key) -> str:
    relation, anchors, direction, kind = key
    return f"{relation} {'+'.join(anchors)} {direction} ({kind})"
