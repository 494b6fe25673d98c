"""Ritual acts → quads (graph/acts), and the relations derived from them.

An act is ``{unit}/a{n}`` (n-th act read in that passage), ordered within its section
(lj:order, lj:nextAct) with its evidence (the unit and the clause's span and words).
Derived: lj:handles (role → object), lj:standsAt / lj:movesTo (role → place) and
lj:involves (rite → role), each also stated as an rdf:Statement whose lj:evidence lists the
acts it comes from, so a simple query asks the direct triple and a careful one checks why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rdflib import RDF, RDFS, URIRef

from kg.nlp.acts import Act, RepeatOf
from kg.nlp.tracks import Stand, Tracker
from kg.rdf.iris import Minter
from kg.rdf.namespaces import LJ
from kg.rdf.terms import Lit, Quad, en, integer, zh
from kg.text.normalize import normalize

RELATIONS = {"location": LJ.location, "source": LJ.source, "destination": LJ.destination}


@dataclass
class _Done:
    iri: URIRef
    action: str
    agents: list[str]


@dataclass
class ActEmitter:
    minter: Minter
    stats: dict[str, int] = field(default_factory=dict)
    # the derived relations stated so far; their evidence is emitted as it is found, so
    # only the relations (bounded by the vocabularies), not every act, are held to the end
    derived: dict[tuple[str, str, str], URIRef] = field(default_factory=dict)  # → statement
    chapter_acts: list[_Done] = field(default_factory=list)
    tracker: Tracker = field(default_factory=Tracker)  # where each role stands, by chapter

    def __post_init__(self) -> None:
        self.graph = self.minter.graph("acts")

    def new_chapter(self) -> None:
        self.chapter_acts = []
        self.tracker = Tracker()

    def section(
        self,
        section: URIRef,
        rite: URIRef | None,
        units: list[tuple[URIRef, str, list[Act]]],
    ) -> Iterator[Quad]:
        """Acts of one section's units (unit IRI, unit text, acts), in reading order."""
        order = 0
        previous: URIRef | None = None
        for unit, text, acts in units:
            nodes = [self.minter.child(unit, f"a{k}") for k in range(1, len(acts) + 1)]
            for act, node in zip(acts, nodes, strict=True):
                order += 1
                yield from self._evidence(node, act, section, order, unit, text)
                if previous is not None:
                    yield previous, LJ.nextAct, node, self.graph
                previous = node
                yield from self._participants(node, act, rite, unit, text)
                yield from self._circumstances(node, act, nodes)
                yield from self._agent_positions(node, act, text)
                self.chapter_acts.append(_Done(node, act.action, list(act.agent_iris)))
                self.stats["acts"] = self.stats.get("acts", 0) + 1

    def _evidence(
        self, node: URIRef, act: Act, section: URIRef, order: int, unit: URIRef, text: str
    ) -> Iterator[Quad]:
        """What the act is, where it is read, and its label."""
        graph = self.graph
        yield node, RDF.type, LJ.RitualAct, graph
        yield node, LJ.actionType, self.minter.vocab(act.action_iri), graph
        yield node, LJ.inSection, section, graph
        yield node, LJ.order, integer(order), graph
        yield node, LJ.evidence, unit, graph
        yield node, LJ.evidenceText, zh(text[act.start : act.end]), graph
        yield node, LJ.charStart, integer(act.start), graph
        yield node, LJ.charEnd, integer(act.end), graph
        label = "".join(act.agents) + "·" + act.action_form
        if act.patients:
            label += "·" + "".join(act.patients)
        yield node, RDFS.label, zh(normalize(label)), graph

    def _participants(
        self, node: URIRef, act: Act, rite: URIRef | None, unit: URIRef, text: str
    ) -> Iterator[Quad]:
        """Agents, patients and places, with the relations derived from them."""
        graph = self.graph
        agents = [self.minter.vocab(a) for a in act.agent_iris]
        for agent in agents:
            yield node, LJ.agent, agent, graph
            if rite is not None:
                yield from self._derive(rite, LJ.involves, agent, node)
        for patient in act.patient_iris:
            thing = self.minter.vocab(patient)
            yield node, LJ.patient, thing, graph
            if "/object/" in patient:
                for agent in agents:
                    yield from self._derive(agent, LJ.handles, thing, node)
        for relation, places in act.place_iris.items():
            prop = RELATIONS[relation]
            link = LJ.movesTo if relation == "destination" else LJ.standsAt
            for place in places:
                spot = self.minter.vocab(place)
                yield node, prop, spot, graph
                if relation == "location" and act.set_at:
                    yield node, LJ.setAt, spot, graph
                if relation != "source":
                    for agent in agents:
                        yield from self._derive(agent, link, spot, node)
        yield from self._positions(node, act, unit, text)
        if act.set_at:  # what is at the lj:setAt spot from now on: named, or the thing in hand
            for thing in dict.fromkeys(p for p in act.patient_iris + act.held if "/object/" in p):
                yield node, LJ.setsDown, self.minter.vocab(thing), graph

    def _positions(self, node: URIRef, act: Act, unit: URIRef, text: str) -> Iterator[Quad]:
        """Each position the act names (尸东, 西阶东) is its own node, ``{act}/{relation}``:
        the same words elsewhere may be another spot (the 尸 moves, a 荐 is set anew), and
        the node carries the span it was read from. Queries group by anchor and direction."""
        graph = self.graph
        for relation, positions in act.positions.items():
            for k, position in enumerate(positions, 1):
                spot = self.minter.child(node, relation if k == 1 else f"{relation}-{k}")
                yield node, RELATIONS[relation], spot, graph
                if relation == "location" and act.set_at:
                    yield node, LJ.setAt, spot, graph
                yield spot, RDF.type, LJ.Position, graph
                for anchor in position.anchors:
                    yield spot, LJ.relativeTo, self.minter.vocab(anchor.iri), graph
                    if anchor.kind == "place" and relation != "source":
                        # 阼阶上: he stands at the east stairs (lj:standsAt), as before
                        link = LJ.movesTo if relation == "destination" else LJ.standsAt
                        place = self.minter.vocab(anchor.iri)
                        for agent in act.agent_iris:
                            yield from self._derive(self.minter.vocab(agent), link, place, node)
                yield spot, LJ.direction, Lit(position.direction), graph
                yield spot, RDFS.label, zh(text[position.start : position.end]), graph
                yield spot, LJ.evidence, unit, graph
                yield spot, LJ.evidenceText, zh(text[position.start : position.end]), graph
                yield spot, LJ.charStart, integer(position.start), graph
                yield spot, LJ.charEnd, integer(position.end), graph
                self.stats["positions"] = self.stats.get("positions", 0) + 1

    def _circumstances(self, node: URIRef, act: Act, nodes: list[URIRef]) -> Iterator[Quad]:
        """Facing, condition, command and back-reference; ``nodes``: the unit's acts."""
        graph = self.graph
        if act.agent_note and not act.agent_iris:
            yield node, LJ.agentNote, en(act.agent_note), graph
        if act.facing:
            yield node, LJ.facing, zh(act.facing), graph
        if act.condition:
            yield node, LJ.condition, zh(act.condition), graph
        if act.commanded_by is not None:
            yield node, LJ.commandedBy, nodes[act.commanded_by], graph
        if act.repeats:
            yield node, LJ.backReference, zh(act.repeats.words), graph
            target = self._repeated(act)
            if target is not None:
                yield node, LJ.repeats, target, graph

    def _agent_positions(self, node: URIRef, act: Act, text: str) -> Iterator[Quad]:
        """Where each agent stands once the act is done (``kg.nlp.tracks``), with the act
        whose words put him there."""
        key = len(self.chapter_acts)
        for k, stand in enumerate(self.tracker.step(act, key, text[act.start : act.end], text), 1):
            yield from self._agent_position(self.minter.child(node, f"at{k}"), node, key, stand)

    def _agent_position(self, at: URIRef, node: URIRef, key: int, stand: Stand) -> Iterator[Quad]:
        graph, spot = self.graph, stand.spot
        since = node if stand.since == key else self.chapter_acts[stand.since].iri
        yield node, LJ.agentPosition, at, graph
        yield at, RDF.type, LJ.AgentPosition, graph
        yield at, LJ.positionOf, self.minter.vocab(stand.role), graph
        if spot.direction is None and "/place/" in spot.anchor:
            yield at, LJ.atPlace, self.minter.vocab(spot.anchor), graph
        else:
            yield at, LJ.relativeTo, self.minter.vocab(spot.anchor), graph
            if spot.direction:
                yield at, LJ.direction, zh(spot.direction), graph
        yield at, LJ.positionBasis, zh(normalize(stand.basis)), graph
        yield at, LJ.positionFrom, since, graph
        self.stats["agent positions"] = self.stats.get("agent positions", 0) + 1

    def _repeated(self, act: Act) -> URIRef | None:
        """The earlier act of the chapter a back-reference names (the reader says which:
        ``RepeatOf``)."""
        if not self.chapter_acts or act.repeats is None:
            return None
        if act.repeats.of is RepeatOf.PREVIOUS:
            return self.chapter_acts[-1].iri
        same = [d for d in self.chapter_acts if d.action == act.action]
        by_agent = [d for d in same if set(d.agents) & set(act.agent_iris)]
        pick = by_agent or same
        return pick[0].iri if pick else None

    def _derive(self, s: URIRef, p: URIRef, o: URIRef, act: URIRef) -> Iterator[Quad]:
        key = (str(s), str(p), str(o))
        statement = self.derived.get(key)
        if statement is None:
            statement = self.derived[key] = self._statement(*key)
        yield statement, LJ.evidence, act, self.graph

    def _statement(self, s: str, p: str, o: str) -> URIRef:
        name = p.rsplit("#", 1)[-1]
        return self.minter.iri(f"derived/{name}/{_tail(s)}/{_tail(o)}")

    def derived_quads(self) -> Iterator[Quad]:
        graph = self.graph
        for (s, p, o), node in sorted(self.derived.items()):
            s_, p_, o_ = URIRef(s), URIRef(p), URIRef(o)
            yield s_, p_, o_, graph
            yield node, RDF.type, RDF.Statement, graph
            yield node, RDF.subject, s_, graph
            yield node, RDF.predicate, p_, graph
            yield node, RDF.object, o_, graph
            self.stats["derived relations"] = self.stats.get("derived relations", 0) + 1


def _tail(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1]
