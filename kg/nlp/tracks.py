"""Where each agent stands: every role followed through a chapter's acts.

An act moves its agents as ``patterns/tracks.toml`` says (升 to the top of the stairs, 降 to
their foot, 入门右 inside the gate on the east, 适X to X, 反位 back to his place …); an act that
does not move him leaves him where he was. A role whose place the text does not give has no
position, and a movement to an unnamed place loses it.

>>> from kg.nlp.acts import read_acts
>>> t = Tracker()
>>> [[(s.role.rsplit("/", 1)[-1], s.spot.anchor.rsplit("/", 1)[-1], s.spot.direction)
...   for s in t.step(a, a.start)] for a in read_acts("司射升自西阶北面告于宾宾许诺司射降")]
[[('sishe', 'xijie', '上')], [('sishe', 'xijie', '上')], [], [('sishe', 'xijie', '下')]]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from kg.nlp.acts import Act
from kg.nlp.lexicon import PATTERNS
from kg.nlp.wordlists import from_table, read_toml
from kg.text.plan import key_of, load_plan

PLACE = "https://w3id.org/lijing/id/place/"
RELATIONS = ("destination", "location", "source")


@dataclass(frozen=True)
class Spot:
    """A place, or a spot beside a place, thing or role (西阶 上, 楅 南)."""

    anchor: str  # IRI
    direction: str | None = None
    early: bool = field(default=False, compare=False)  # named before the verb (主人阼阶上…拜)


@dataclass(frozen=True)
class Stand:
    role: str  # the role's IRI
    spot: Spot
    basis: str  # the words that put him there
    since: int  # the key (given to ``step``) of the act whose words those are


@dataclass(frozen=True)
class Moves:
    actions: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()  # 少退: a word before any verb that makes it one of these


@dataclass(frozen=True)
class Vertical:
    actions: tuple[str, ...]
    direction: str
    otherwise: str
    steps: tuple[str, ...] = ()  # 升二等: words after the verb that keep him on the stairs
    steps_within: int = 3


@dataclass(frozen=True)
class Passage:
    actions: tuple[str, ...]
    direction: str
    left: str
    right: str
    gate_inside: str = ""
    gate_outside: str = ""


@dataclass(frozen=True)
class Placing:
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Rules:
    ascend: Vertical
    descend: Vertical
    enter: Passage
    exit: Passage
    walker: dict[str, str]
    gates: dict[str, tuple[str, ...]]
    rooms: dict[str, dict[str, str]]
    go: Moves
    shift: Moves
    back: Moves
    station: Moves
    placing: Placing
    pairs: dict[str, dict[str, str]]
    sides: dict[str, int]
    stair_spots: dict[str, str]
    stairs: dict[str, tuple[str, ...]]


@lru_cache(maxsize=1)
def rules() -> Rules:
    path = PATTERNS / "tracks.toml"
    return from_table(Rules, read_toml(path), path, "")


def spots(act: Act, relation: str, words: str = "") -> list[Spot]:
    """The places (and spots beside things) an act names under ``relation``: those after
    the verb first, then those before it, spots beside something first (主人阼阶上当楣…:
    阼阶上 before 楣); ``words`` (the act's clause) tells which were named before the verb.
    A spot right after the person the verb acts on is that person's (再拜宾西阶上), not the
    agent's (but 迎宾于门外 is where the act is)."""
    verb_start, verb_end = act.verb[0] - act.start, act.verb[1] - act.start
    before = words[: max(0, verb_start)]
    persons = [f for f, i in zip(act.patients, act.patient_iris, strict=False) if "/role/" in i]
    found = []
    for pos in act.positions.get(relation, []):  # 尸东, 西阶上: beside its (first) anchor
        at = pos.start - act.start
        found.append((Spot(pos.anchors[0].iri, pos.direction, at < verb_start), at))
    places = zip(act.places.get(relation, []), act.place_iris.get(relation, []), strict=False)
    for form, iri in places:
        early = bool(before) and form in before
        at = words.find(form, verb_end) if not early else words.find(form)
        found.append((Spot(iri, None, early), at))
    late = [
        s
        for s, at in found
        if not s.early and not (at > verb_end and any(words[:at].endswith(p) for p in persons))
    ]
    return late + [s for s, _ in found if s.early]


def _slug(iri: str) -> str:
    return iri.rsplit("/", 1)[-1] if iri.startswith(PLACE) else ""


@dataclass
class Tracker:
    """Follows every role through one chapter; ``step`` each act in reading order."""

    rules: Rules = field(default_factory=rules)
    where: dict[str, Stand] = field(default_factory=dict)
    station: dict[str, Stand] = field(default_factory=dict)  # where 反位 goes back to
    stair: dict[str, str] = field(default_factory=dict)  # the stair he last used
    following: str = ""  # the few characters after the act's verb (升二等)

    def step(self, act: Act, key: int, words: str = "", text: str = "") -> list[Stand]:
        """Where each agent of ``act`` stands once it is done (only those the text tells);
        ``words``: the act's clause, ``text``: its unit's text (what follows the verb)."""
        self.following = text[act.verb[1] : act.verb[1] + 3] if text else ""
        if act.condition:
            return []  # what would happen if …: nobody moves
        words = words or act.action_form
        out = []
        for role in act.agent_iris:
            spot, basis = self._move(role, act, words)
            if spot is None and basis:
                self.where.pop(role, None)  # he went where the text does not say
                continue
            if spot is not None:
                stand = Stand(role, spot, words, key)
                self.where[role] = stand
                if act.action in self.rules.station.actions:
                    self.station[role] = stand
                self._remember_stair(role, spot)
            if role in self.where:
                out.append(self.where[role])
        return out

    def _remember_stair(self, role: str, spot: Spot) -> None:
        if _slug(spot.anchor) in self.rules.stairs["places"]:
            self.stair[role] = spot.anchor

    def _move(self, role: str, act: Act, words: str) -> tuple[Spot | None, bool]:
        """The new spot (None: unchanged) and whether the act moved him at all."""
        r, a = self.rules, act.action
        named = [self._resolve(role, s) for rel in RELATIONS for s in spots(act, rel, words)]
        named = [s for s in named if s is not None]
        located = [self._resolve(role, s) for s in spots(act, "location", words)]
        located = [s for s in located if s is not None]
        prefix = words[act.verb[0] - act.start - 1 : act.verb[0] - act.start] if words else ""
        if prefix and prefix in r.shift.prefixes:
            return None, False  # 少退: a step back, still where he was
        if a in r.ascend.actions or a in r.descend.actions:
            return self._vertical(role, act, named, words), True
        if a in r.enter.actions or a in r.exit.actions:
            return self._passage(role, act, named), True
        if a in r.back.actions:
            back = self.station.get(role)
            return (back.spot if back else None), True
        if a in r.go.actions:
            return (named[0] if named else None), True
        if a in r.placing.actions:  # the place after the verb is the thing's; one before, his
            early = [s for s in located if s.early]
            return (early[0] if early else None), False
        if a in r.shift.actions:
            return None, False  # a step that keeps his place
        if a in r.station.actions and not located:
            here = self.where.get(role)
            return (here.spot if here else None), False
        return (located[0] if located else None), False

    def _vertical(self, role: str, act: Act, named: list[Spot], words: str) -> Spot | None:
        up = act.action in self.rules.ascend.actions
        rule = self.rules.ascend if up else self.rules.descend
        stairs = [s for s in named if _slug(s.anchor) in self.rules.stairs["places"]]
        after = self.following[: rule.steps_within]
        if up and any(w in after for w in rule.steps):  # 升二等: on the stairs, not the hall
            stair = stairs[0].anchor if stairs else self.stair.get(role)
            return Spot(stair) if stair else None
        if stairs:
            return Spot(stairs[0].anchor, rule.direction)
        climbed = [s for s in spots(act, "source", words) if s.direction is None]
        if climbed:  # 降自后西荣: at the foot of what he came down by
            return Spot(climbed[0].anchor, rule.direction)
        here = self.where.get(role)
        if here is not None and _slug(here.spot.anchor) in self.rules.stairs["places"]:
            return Spot(here.spot.anchor, rule.direction)  # up or down the stairs he is at
        if not up and role in self.stair:
            return Spot(self.stair[role], rule.direction)  # down the stairs he went up by
        if named:
            return named[0]  # 升西楹西, 降洗南: up or down to where he goes
        return Spot(PLACE + rule.otherwise)

    def _passage(self, role: str, act: Act, named: list[Spot]) -> Spot | None:
        """入 / 出: through a gate (on the walker's left or right) or into / out of a room."""
        inward = act.action in self.rules.enter.actions
        rule = self.rules.enter if inward else self.rules.exit
        gate = rule.gate_inside if inward else rule.gate_outside
        for spot in named:
            slug = _slug(spot.anchor)
            if slug == self.rules.walker["left"] or slug == self.rules.walker["right"]:
                side = rule.left if slug == self.rules.walker["left"] else rule.right
                return Spot(PLACE + gate, side)
            if slug in self.rules.gates["court"]:
                return Spot(PLACE + gate)
            if slug in self.rules.gates["other"]:
                return Spot(spot.anchor, rule.direction)
            if inward:
                return spot  # 入于室: in the room
            if slug in self.rules.rooms["outside"]:
                return Spot(PLACE + self.rules.rooms["outside"][slug])
        here = self.where.get(role)
        if inward:
            outside = here is None or _slug(here.spot.anchor) == self.rules.exit.gate_outside
            return Spot(PLACE + gate) if outside else None
        if here is not None and _slug(here.spot.anchor) in self.rules.rooms["outside"]:
            return Spot(PLACE + self.rules.rooms["outside"][_slug(here.spot.anchor)])
        return None

    def _resolve(self, role: str, spot: Spot) -> Spot | None:
        """A bare 阶 / 阶上 / 序 / 楹 …: the one of the pair the agent is by, if the text lets
        us tell (the stair he last used; else the side of the hall he is on)."""
        slug = _slug(spot.anchor)
        pairs, stair_spots = self.rules.pairs, self.rules.stair_spots
        if slug in stair_spots or slug == "jie":
            stair = self.stair.get(role) or self._side(role, "jie")
            if stair is None:
                return None
            return Spot(stair, stair_spots.get(slug, spot.direction))
        if slug in pairs:
            chosen = self._side(role, slug)
            return Spot(chosen, spot.direction) if chosen else None
        return spot

    def _side(self, role: str, pair: str) -> str | None:
        here = self.where.get(role)
        if here is None:
            return None
        box = load_plan().box(key_of(here.spot.anchor))
        if box is None or abs(box.x) < self.rules.sides["margin"]:
            return None
        return PLACE + self.rules.pairs[pair]["west" if box.x < 0 else "east"]


def track(acts: Iterable[Act]) -> list[list[Stand]]:
    """Positions for a run of acts (one chapter), each keyed by its index."""
    t = Tracker()
    return [t.step(a, k) for k, a in enumerate(acts)]
