"""Scoring agents' positions (kg/nlp/tracks.py) against ``tests/gold/tracks.jsonl``.

A gold unit is a passage and the positions a reader can tell from it: each names a clause
of the text (found left to right), a role, and where that role stands once the clause's
last act is done — ``at`` a place, thing or role slug with an optional ``direction``, or
``at: null`` where the text does not tell (any position read there is a false positive).
Each unit is read on its own, with no role carried in from the passage before.

Spots are compared in one form: a compound place of the vocabulary is its anchor and side
(门外 = 门 + 外, 阼阶上 = 阼阶 + 上, from ``places.ttl``), and the court's gate is 门 by any of
its names (庙门, 寝门). *position*: role, anchor and direction; *anchor*: role and anchor.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from pathlib import Path

from rdflib import Graph

from kg.errors import InputError
from kg.eval.score import Report, Score, read_jsonl
from kg.nlp.acts import Act, read_acts
from kg.nlp.tracks import Tracker, rules
from kg.rdf.namespaces import LJ
from kg.resources import ontology_dir
from kg.text.normalize import normalize

Spot = tuple[str, str | None]


def _tail(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1]


@lru_cache(maxsize=1)
def _compounds() -> dict[str, Spot]:
    g = Graph().parse(ontology_dir() / "places.ttl", format="turtle")
    out = {}
    for place, anchor in g.subject_objects(LJ.relativeTo):
        direction = g.value(place, LJ.direction)
        if direction is not None:
            out[_tail(str(place))] = (_tail(str(anchor)), str(direction))
    return out


def canonical(anchor: str, direction: str | None) -> Spot:
    """One form for a spot: a court gate is 门; a compound place its anchor and side."""
    gates = set(rules().gates["court"])
    anchor = "men" if anchor in gates else anchor
    if direction is None and anchor in _compounds():
        anchor, direction = _compounds()[anchor]
        anchor = "men" if anchor in gates else anchor
    return anchor, direction


def _acts_in(text: str, acts: list[Act], clause: str, cursor: int) -> tuple[int, int | None]:
    """Where ``clause`` starts (from ``cursor``) and the index of its last act's verb."""
    at = text.find(normalize(clause), cursor)
    if at < 0:
        return -1, None
    end = at + len(normalize(clause))
    inside = [k for k, a in enumerate(acts) if at <= a.verb[0] < end]
    return at, (inside[-1] if inside else None)


def _unit(u: dict, path: Path, n: int) -> tuple[list[tuple], list[tuple]]:
    """(gold, read) items of one unit: (clause number, role, anchor, direction)."""
    text = normalize(u["text"])
    acts = read_acts(text)
    tracker = Tracker()
    stands = [tracker.step(a, k, text[a.start : a.end], text) for k, a in enumerate(acts)]
    gold, got, cursor = [], [], 0
    for i, p in enumerate(u["positions"]):
        at, k = _acts_in(text, acts, p["clause"], cursor)
        if at < 0:
            raise InputError(path, n, f"clause {p['clause']!r} is not in the text (in order)")
        cursor = at
        if p.get("at") is not None:
            gold.append((i, p["role"], *canonical(p["at"], p.get("direction"))))
        for s in stands[k] if k is not None else []:
            if _tail(s.role) == p["role"]:
                got.append((i, p["role"], *canonical(_tail(s.spot.anchor), s.spot.direction)))
    return gold, got


def evaluate_tracks(path: Path) -> Report:
    rows = read_jsonl(path)
    scores: dict[str, dict[str, Score]] = {
        "position": defaultdict(Score),
        "anchor": defaultdict(Score),
    }
    errors: list[tuple[str, str, str]] = []
    for n, u in enumerate(rows, 1):
        if "text" not in u or "positions" not in u:
            raise InputError(path, n, "gold unit lacks 'text' or 'positions'")
        gold, got = _unit(u, path, n)
        kind = "seed" if str(u.get("source", "")).startswith("seeds/") else "written"
        for mode, width in (("position", 4), ("anchor", 3)):
            g, r = {x[:width] for x in gold}, {x[:width] for x in got}
            scores[mode]["all"].add(g, r)
            scores[mode][kind].add(g, r)
        clauses = [p["clause"] for p in u["positions"]]
        for x in sorted(set(gold) - set(got)):
            errors.append((u["id"], "missed", f"{clauses[x[0]]}: {x[1]} at {x[2]} {x[3] or ''}"))
        for x in sorted(set(got) - set(gold)):
            errors.append(
                (u["id"], "wrong", f"{clauses[x[0]]}: {x[1]} read at {x[2]} {x[3] or ''}")
            )
    return Report("tracks", len(rows), {k: dict(v) for k, v in scores.items()}, errors)
