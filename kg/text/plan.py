"""The ground plan (``ontology/plan.ttl``) as plain lookups: where each place and standing
object is, why a place is not on the plan, and which settings (variants) a rite adds.

Keys are IRI tails under the data base (``place/xijie``, ``object/hou``, ``plan/archery``,
``rite/xiangsheli``), so a build under another base finds the same entries.

>>> plan = load_plan()
>>> plan.box("place/xijie")
Box(x=-18, y=-4, width=8, height=8)
>>> plan.box("place/xijie").x < 0 < plan.box("place/zuojie").x  # west stairs, east stairs
True
>>> "plan/archery" in plan.variants_of("rite/xiangsheli")
True
>>> plan.box("object/hou") is None, plan.box("object/hou", ["plan/archery"]) is not None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rdflib import RDF, RDFS, Graph, URIRef

from kg.rdf.namespaces import LJ
from kg.resources import ontology_dir

BASE = "https://w3id.org/lijing/id/"
HOUSE = "plan/house"


@dataclass(frozen=True)
class Box:
    """A place's centre and extent in plan units (x east, y north; see plan.ttl)."""

    x: int
    y: int
    width: int
    height: int


@dataclass
class Variant:
    key: str
    label: str
    boxes: dict[str, Box] = field(default_factory=dict)  # what it places, by key


@dataclass
class Plan:
    boxes: dict[str, Box]  # the house's own places
    off_plan: dict[str, str]  # place key → why it has no single spot
    variants: dict[str, Variant]
    rite_variants: dict[str, list[str]]

    def box(self, key: str, variants: list[str] | tuple[str, ...] = ()) -> Box | None:
        """Where ``key`` is on the house's plan, or in one of ``variants`` (which win)."""
        for v in variants:
            found = self.variants.get(v, Variant(v, v)).boxes.get(key)
            if found is not None:
                return found
        return self.boxes.get(key) or self.variants[HOUSE].boxes.get(key)

    def variants_of(self, rite: str | None) -> list[str]:
        return list(self.rite_variants.get(rite or "", [HOUSE]))

    def variant_holding(self, key: str) -> str | None:
        """The first variant (by key) that places ``key``, for a place a rite did not declare."""
        return next((k for k, v in sorted(self.variants.items()) if key in v.boxes), None)


def key_of(iri: str, base: str = BASE) -> str:
    """``https://…/id/place/xijie`` → ``place/xijie`` (any base: the last two segments)."""
    if iri.startswith(base):
        return iri[len(base) :]
    return "/".join(iri.rstrip("/").rsplit("/", 2)[-2:])


def _box(g: Graph, node: URIRef) -> Box | None:
    vals = [g.value(node, LJ[p]) for p in ("planX", "planY", "planWidth", "planHeight")]
    if any(v is None for v in vals):
        return None
    x, y, w, h = (int(v) for v in vals)  # type: ignore[arg-type]
    return Box(x, y, w, h)


@lru_cache(maxsize=4)
def load_plan(path: Path | None = None) -> Plan:
    g = Graph().parse(path or ontology_dir() / "plan.ttl", format="turtle")
    boxes = {}
    for node in set(g.subjects(LJ.planX, None)):
        box = _box(g, node)  # type: ignore[arg-type]
        if box is not None and g.value(node, LJ.placed) is None:
            boxes[key_of(str(node))] = box
    off = {key_of(str(s)): str(o) for s, o in g.subject_objects(LJ.offPlan)}
    variants = {}
    for v in set(g.subjects(RDF.type, LJ.PlanVariant)):
        zh = [str(x) for x in g.objects(v, RDFS.label) if getattr(x, "language", None) == "lzh"]
        variants[key_of(str(v))] = Variant(key_of(str(v)), zh[0] if zh else key_of(str(v)))
    for p in set(g.subjects(LJ.placed, None)):
        box, thing, variant = _box(g, p), g.value(p, LJ.placed), g.value(p, LJ.inVariant)  # type: ignore[arg-type]
        if box is not None and thing is not None and variant is not None:
            variants[key_of(str(variant))].boxes[key_of(str(thing))] = box
    rites: dict[str, list[str]] = {}
    for r, v in sorted(g.subject_objects(LJ.planVariant)):
        rites.setdefault(key_of(str(r)), []).append(key_of(str(v)))
    for vs in rites.values():
        vs.sort(key=lambda k: (k != HOUSE, k))
    return Plan(boxes, off, variants, rites)
