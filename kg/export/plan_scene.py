"""A section as a scene on the ground plan: who stands where after each act, who moved, which
way they face, and the things set down so far — read from the store, placed with
``ontology/plan.ttl`` (``kg.text.plan``) and the offsets in ``plan.toml``.

``section_scene(db, iri)`` gives a ``Scene``; ``kg.export.plan_svg`` draws it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from kg.errors import KgError
from kg.store import Cell, query_dataset, rows, store_base
from kg.text.plan import Plan, key_of, load_plan

QUERIES = Path(__file__).parent / "queries"
STYLE = Path(__file__).parent / "plan.toml"


@cache
def style() -> dict[str, Any]:
    return tomllib.loads(STYLE.read_text(encoding="utf-8"))


@cache
def _query(name: str) -> str:
    return (QUERIES / f"{name}.rq").read_text(encoding="utf-8")


def _select(db: Any, name: str, **bindings: str) -> list[dict[str, Cell | None]]:
    values = {k: [v] for k, v in bindings.items()}
    names, body = rows(query_dataset(db, _query(name), values=values))  # type: ignore[arg-type]
    return [dict(zip(names, r, strict=True)) for r in body]


def _v(cell: Cell | None) -> str | None:
    return cell.value if cell is not None else None


@dataclass
class Mark:
    """One role (or thing) drawn at a point."""

    key: str  # IRI
    label: str
    x: float
    y: float
    facing: str | None = None
    came_from: tuple[float, float] | None = None  # the movement this step ends


@dataclass
class Step:
    order: int
    label: str
    words: str
    roles: list[Mark] = field(default_factory=list)
    things: list[Mark] = field(default_factory=list)


@dataclass
class Scene:
    iri: str
    label: str
    variants: list[str]
    steps: list[Step]  # steps[0] is the state before the first act
    places: list[str]  # plan keys the section names (drawn labelled)


def find_section(db: Any, name: str) -> str:
    """A section IRI from an IRI or a ``chapter/section`` title (乡射礼/请射)."""
    if name.startswith(("http://", "https://")):
        return name
    if "/" not in name:
        raise KgError(f"{name}: give a section IRI or chapter/section (乡射礼/请射)")
    chapter, section = name.split("/", 1)
    wanted = f"{chapter}·{section}"
    text = _query("plan-find").replace("?wanted", _literal(wanted))
    found = [r[0].value for r in rows(query_dataset(db, text))[1] if r[0] is not None]  # type: ignore[arg-type]
    if not found:
        raise KgError(f"{name}: no such section in the store")
    return found[0]


def _literal(s: str) -> str:
    """A SPARQL string literal (escaped: the title comes from the command line)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def section_scene(db: Any, iri: str) -> Scene:
    head = _select(db, "plan-section", s=iri)
    if not head or head[0]["s"] is None:
        raise KgError(f"<{iri}> is not a section in the store")
    plan = load_plan()
    base = store_base(db)
    rite = _v(head[0]["rite"])
    variants = plan.variants_of(key_of(rite, base) if rite else None)
    acts = _acts(db, iri)
    builder = _Builder(plan, base, variants)
    builder.things_by_act = _things(db, iri, base)
    for pos in _select(db, "plan-positions", s=iri):
        builder.add_position(pos)
    builder.before = _before(db, iri)
    steps = builder.steps(acts)
    label = _v(head[0]["label"]) or iri.rsplit("/", 1)[-1]
    return Scene(iri, label, builder.variants, steps, sorted(builder.named))


def _acts(db: Any, iri: str) -> list[dict[str, Any]]:
    acts: dict[str, dict[str, Any]] = {}
    for r in _select(db, "plan-acts", s=iri):
        act = acts.setdefault(
            r["act"].value,  # type: ignore[union-attr]
            {
                "order": int(r["order"].value),  # type: ignore[union-attr]
                "label": _v(r["label"]) or "",
                "words": _v(r["words"]) or "",
                "facing": _v(r["facing"]),
                "agents": {},
            },
        )
        if r["agent"] is not None:
            act["agents"][r["agent"].value] = _v(r["agentLabel"]) or r["agent"].value
    return sorted(acts.values(), key=lambda a: a["order"])


def _things(db: Any, iri: str, base: str) -> dict[int, list[tuple[str, str, str, str | None]]]:
    """Things set down, by act order: (thing, label, spot anchor, direction)."""
    out: dict[int, list[tuple[str, str, str, str | None]]] = {}
    for r in _select(db, "plan-things", s=iri):
        anchor = _v(r["anchor"]) or r["spot"].value  # type: ignore[union-attr]
        thing = r["thing"].value  # type: ignore[union-attr]
        entry = (thing, _v(r["thingLabel"]) or thing, anchor, _v(r["direction"]))
        out.setdefault(int(r["order"].value), []).append(entry)  # type: ignore[union-attr]
    return out


def _before(db: Any, iri: str) -> dict[str, tuple[str, str, str | None]]:
    """Each role's last known position in the chapter's earlier sections (role → label,
    anchor, direction); a role whose last act there left him nowhere known is left out."""
    last: dict[str, tuple[str, str, str | None] | None] = {}
    for r in _select(db, "plan-before", s=iri):
        role = r["role"].value  # type: ignore[union-attr]
        anchor = _v(r["place"]) or _v(r["anchor"])
        label = _v(r["roleLabel"]) or role
        last[role] = (label, anchor, _v(r["direction"])) if anchor else None
    return {k: v for k, v in last.items() if v is not None}


class _Builder:
    """Turns acts and positions into the state after each act."""

    def __init__(self, plan: Plan, base: str, variants: list[str]) -> None:
        self.plan, self.base, self.variants = plan, base, list(variants)
        self.positions: dict[int, list[tuple[str, str, str, str | None]]] = {}
        self.things_by_act: dict[int, list[tuple[str, str, str, str | None]]] = {}
        self.before: dict[str, tuple[str, str, str | None]] = {}
        self.named: set[str] = set()

    def add_position(self, r: dict[str, Cell | None]) -> None:
        anchor = _v(r["place"]) or _v(r["anchor"])
        if anchor is None:
            return
        role = r["role"].value  # type: ignore[union-attr]
        entry = (role, _v(r["roleLabel"]) or role, anchor, _v(r["direction"]))
        self.positions.setdefault(int(r["order"].value), []).append(entry)  # type: ignore[union-attr]

    def point(
        self, anchor: str, direction: str | None, roles: dict[str, Mark], things: dict[str, Mark]
    ) -> tuple[float, float] | None:
        """Where a spot is: a place of the plan (or a variant), a thing set down, a role."""
        key = key_of(anchor, self.base)
        if anchor in things:
            x, y = things[anchor].x, things[anchor].y
        elif anchor in roles:
            x, y = roles[anchor].x, roles[anchor].y
        else:
            box = self.plan.box(key, self.variants)
            if box is None:
                extra = self.plan.variant_holding(key)
                if extra is None:
                    return None
                self.variants.append(extra)  # a setting the rite did not declare
                box = self.plan.box(key, self.variants)
            assert box is not None
            x, y = box.x, box.y
            self.named.add(key)
        dx, dy = style()["offsets"].get(direction or "", [0, 0])
        return x + dx, y + dy

    def steps(self, acts: list[dict[str, Any]]) -> list[Step]:
        roles: dict[str, Mark] = {}
        things: dict[str, Mark] = {}
        for role, (label, anchor, direction) in sorted(self.before.items()):
            p = self.point(anchor, direction, roles, things)
            if p is not None:
                roles[role] = Mark(role, label, p[0], p[1])
        out = [_snapshot(0, {"label": "", "words": ""}, roles, things)]
        for act in acts:
            n = act["order"]
            for role, label, anchor, direction in self.positions.get(n, []):
                p = self.point(anchor, direction, roles, things)
                if p is None:
                    roles.pop(role, None)
                    continue
                before = roles.get(role)
                moved = before is not None and (before.x, before.y) != p
                facing = act["facing"] if role in act["agents"] else None
                if facing is None and before is not None and not moved:
                    facing = before.facing  # he still faces the way he turned
                came = (before.x, before.y) if moved and before is not None else None
                roles[role] = Mark(role, label, p[0], p[1], facing, came)
            for role in act["agents"]:
                if role not in {r for r, *_ in self.positions.get(n, [])}:
                    roles.pop(role, None)  # he acts where the text does not say
            for thing, label, anchor, direction in self.things_by_act.get(n, []):
                p = self.point(anchor, direction, roles, things)
                if p is not None:
                    things[thing] = Mark(thing, label, p[0], p[1])
            out.append(_snapshot(n, act, roles, things))
            for r in roles.values():
                r.came_from = None
        return out


def _snapshot(n: int, act: dict[str, Any], roles: dict[str, Mark], things: dict[str, Mark]) -> Step:
    def copy(m: Mark) -> Mark:
        return Mark(m.key, m.label, m.x, m.y, m.facing, m.came_from)

    return Step(
        n,
        act["label"],
        act["words"],
        [copy(m) for m in roles.values()],
        [copy(m) for m in things.values()],
    )


@dataclass(frozen=True)
class Playable:
    """A section a page can play on the plan: its IRI, label and number of acts."""

    iri: str
    label: str
    steps: int


def playable(db: Any, iri: str) -> list[Playable]:
    """The sections a page for ``iri`` plays: the section, an act's section, or a chapter's
    sections in order (those with acts)."""
    out = []
    for r in _select(db, "plan-sections", s=iri):
        steps = int(r["acts"].value) if r["acts"] is not None else 0
        if r["section"] is not None and steps:
            out.append(Playable(r["section"].value, _v(r["label"]) or "", steps))
    return out
