"""The classic as a script: who does what, with which object, where, facing which way.

A left-to-right reading of one unit's normalized text, over the spans the lexicon found
(roles, objects, places, actions) and the small words ``patterns/acts.toml`` lists
(prepositions, facings, speech, commands, back-references, conditions). Each action word
becomes an act; the subject carries over from clause to clause until a new one appears.

>>> [(a.action_form, a.agents, a.patients, a.places) for a in read_acts("司射适堂西取弓于阶西")]
[('适', ['司射'], [], {'destination': ['堂西']}), ('取', ['司射'], ['弓'], {'location': ['阶西']})]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from kg.nlp.act_grammar import Item, grammar
from kg.nlp.extract import act_items
from kg.nlp.lexicon import load_lexicon
from kg.nlp.positions import Position, with_positions
from kg.nlp.positions import rules as position_rules
from kg.text.numerals import COUNT_CHARS

K = TypeVar("K", bound=Hashable)


class RepeatOf(StrEnum):
    """Which earlier act a back-reference (如初, 亦如之) repeats."""

    PREVIOUS = "previous"  # 亦如之 "likewise": the act just before
    FIRST = "first"  # 如初: the first earlier act of the same kind, by the same agent if any


@dataclass(frozen=True)
class BackReference:
    words: str  # 如初, 亦如之, 如初仪
    of: RepeatOf


@dataclass
class Act:
    start: int  # the clause that states the act, in the unit's text
    end: int
    action: str  # slug
    action_iri: str
    action_form: str
    verb: tuple[int, int]
    agents: list[str] = field(default_factory=list)  # normalized forms, for reading
    agent_iris: list[str] = field(default_factory=list)
    patients: list[str] = field(default_factory=list)
    patient_iris: list[str] = field(default_factory=list)
    places: dict[str, list[str]] = field(default_factory=dict)  # location|source|destination
    place_iris: dict[str, list[str]] = field(default_factory=dict)
    positions: dict[str, list[Position]] = field(default_factory=dict)  # 尸东, 西阶东: relation →
    sets_down: bool = False  # 设X于Y, 奠X于Y: its things are at its location from then on
    held: list[str] = field(default_factory=list)  # 取爵…奠于荐东: the things it sets down unnamed
    facing: str | None = None
    repeats: BackReference | None = None  # 如初, 亦如之: the act repeats an earlier one
    condition: str | None = None
    commanded_by: int | None = None  # index of the command act in the same unit
    agent_note: str | None = None  # why there is no agent, when there is none

    def add_agent(self, form: str, iri: str) -> None:
        if iri not in self.agent_iris:
            self.agents.append(form)
            self.agent_iris.append(iri)

    def add_patient(self, form: str, iri: str) -> None:
        if iri not in self.patient_iris:
            self.patients.append(form)
            self.patient_iris.append(iri)

    def add_place(self, role: str, form: str, iri: str) -> None:
        if iri not in self.place_iris.get(role, []):
            self.places.setdefault(role, []).append(form)
            self.place_iris.setdefault(role, []).append(iri)

    def add_spot(self, role: str, item: Item) -> None:
        """A place item: a place of the vocabulary, or a position read from the text."""
        if item.position is None:
            self.add_place(role, item.form, item.iri)
        elif item.position not in self.positions.get(role, []):
            self.positions.setdefault(role, []).append(item.position)

    @property
    def set_at(self) -> bool:
        """Does the act put the things it handles at its location (lj:setAt)?"""
        has_thing = any("/object/" in p for p in self.patient_iris + self.held)
        return (
            self.sets_down
            and has_thing
            and bool(self.places.get("location") or self.positions.get("location"))
        )


def _carry_held(text: str, acts: list[Act], preps: frozenset[str]) -> None:
    """奠于荐东, 设于西阶前 with no thing named set down what the agent last handled in the
    unit (坐取粱与酱以降…奠于阶西: the 粱 and 酱), unless he has set it down already. What
    follows a preposition (取爵于篚: the 篚) is where, not what he holds."""
    holding: dict[tuple[str, ...], list[str]] = {}
    for act in acts:
        who = tuple(act.agent_iris)
        things = []
        for form, iri in zip(act.patients, act.patient_iris, strict=True):
            at = text.find(form, act.start, max(act.end, act.verb[1]))
            if "/object/" in iri and not (at > 0 and text[at - 1] in preps):
                things.append(iri)
        if act.sets_down and not things and act.condition is None:
            act.held = list(holding.get(who, []))
        if things:
            holding[who] = [] if act.sets_down else things
        elif act.sets_down:
            holding.pop(who, None)


SKIP = "skip"  # a preposition whose place is no act's setting


class ActReader:
    """Reads one unit; ``carry`` is the subject handed on from the previous unit, ``known``
    the roles already acting in the section (a speech ends when one of them acts)."""

    def __init__(
        self,
        text: str,
        items: list[Item],
        carry: list[Item] | None = None,
        known: set[str] | None = None,
    ) -> None:
        self.text = text
        ordered = _facing_out_of_place(
            text, _verbs_in_verb_position(text, sorted(items, key=lambda i: (i.start, -i.end)))
        )
        self.items = with_positions(text, ordered)
        self.grammar = grammar()
        self.subject: list[Item] = list(carry or [])
        self.unnamed = "no performer is named in the text before it"  # why subject is empty
        self.known: set[str] = set(known or ()) | {s.iri for s in self.subject}
        self.acts: list[Act] = []
        self.pending_place: list[tuple[str, Item]] = []  # places named before their verb
        self.run_role: str | None = None  # the relation the last place read got (门中闑西)
        self.pending_facing: str | None = None
        self.pending_repeat: BackReference | None = None
        self.pending_patients: list[Item] = []  # 以X before the verb: its instrument
        self.things: list[Item] = []  # things that are the subject (匕俎从设)
        self.prep: str | None = None
        self.condition: str | None = None
        self.condition_until: int | None = None  # inside 若 … 则: no acts, no subject
        self.before_condition: list[Item] = []
        self.command: int | None = None  # the command whose addressee now acts
        self.in_speech = False
        self.speech_from = -1  # where the words said begin
        self.clause_start: int | None = None
        self.clause_subject = False  # a role has begun the clause being read

    @property
    def _negated_instrument(self) -> set[str]:
        return {n + w for n in self.grammar.negations for w in self.grammar.instrument}

    def _next_solid(self, i: int) -> Item | None:
        for it in self.items[i + 1 :]:
            if it.kind not in ("adverb", "plural", "pair", "joiner"):
                return it
        return None

    def _group_end(self, i: int) -> int:
        """The last role of a group of subjects: adjacent roles (宾主人大夫) or joined by
        与/及, and a following 皆/各."""
        j = i
        while j + 1 < len(self.items):
            nxt = self.items[j + 1]
            if nxt.kind not in ("role", "joiner", "plural") or nxt.start != self.items[j].end:
                break
            if nxt.kind == "role" and nxt.form == self.items[j].form:
                break  # 揖宾宾答拜: the second 宾 starts a clause of its own
            j += 1
        return j

    def _subject_here(self, i: int) -> bool:
        """A role starts a clause when its group is followed by a verb, a facing or a place
        (past what it wears: 主人玄冠朝服缁带素韠即位)."""
        j = self._group_end(i)
        k = j + 1
        while k < len(self.items):
            x = self.items[k]
            comparison = x.kind == "role" and self.items[k - 1].form in self.grammar.comparison
            count = x.kind == "anonymous" and k == j + 1 and x.start == self.items[j].end
            if (
                x.kind in ("object", "pronoun", "adverb", "plural", "joiner")
                or comparison
                or count  # 复者一人: how many of them
            ):
                k += 1  # what the subject wears, or 如主人之服
                continue
            return x.kind in ("action", "facing", "place", "prep", "repeat")
        return False

    def _next_role_adjacent(self, i: int) -> bool:
        nxt = self.items[i + 1] if i + 1 < len(self.items) else None
        return nxt is not None and nxt.kind == "role" and nxt.start == self.items[i].end

    def _genitive(self, i: int) -> bool:
        """宾诸公卿大夫之矢: roles before 之 + an object only say whose it is — also before a
        spot by that object (主人之席前: the host's mat, where the guest toasts him)."""
        j = self._group_end(i)
        rest = self.items[j + 1 : j + 3]
        if len(rest) != 2 or rest[0].kind != "pronoun":
            return False
        spot = rest[1].position
        return rest[1].kind == "object" or (spot is not None and spot.anchors[0].kind == "object")

    def _answers(self, i: int) -> bool:
        """A role whose next act is a reply (对, 许诺, 应 …) is a new speaker."""
        nxt = self._next_solid(self._group_end(i))
        while nxt is not None and nxt.kind in ("prep", "place"):
            nxt = self._next_solid(self.items.index(nxt))
        return nxt is not None and nxt.kind == "action" and nxt.form in self.grammar.closing

    def _acts_now(self, i: int) -> bool:
        """Inside a speech, a role right before a movement of its own (宾入, 宾出) has begun
        acting: the speech is over — unless the role is part of the speaker's words (寡君)."""
        it = self.items[i]
        if self.text[it.start - 1 : it.start] in self.grammar.said_before:
            return False
        nxt = self._item(self._group_end(i) + 1)
        return (
            nxt is not None
            and nxt.kind == "action"
            and nxt.start == self.items[self._group_end(i)].end
            and nxt.form in self.grammar.follow_moves
        )

    def _follows_last(self, it: Item) -> bool:
        """The verb comes right after the previous act's verb (从设)."""
        return bool(self.acts) and self.acts[-1].verb[1] == it.start

    def _start(self, at: int) -> None:
        if self.clause_start is None:
            self.clause_start = at

    @property
    def current(self) -> Act | None:
        return self.acts[-1] if self.acts else None

    def _touch(self, it: Item) -> None:
        if self.current is not None:
            self.current.end = max(self.current.end, it.end)

    def read(self) -> list[Act]:
        i = 0
        while i < len(self.items):
            it = self.items[i]
            if self.in_speech and it.kind == "action" and it.start == self.speech_from:
                if it.form in self.grammar.closing:
                    self.in_speech = False  # 应曰诺, 曰升: the one word said is the speech
                i += 1
                continue
            if self.in_speech:
                closes = (
                    it.kind == "action"
                    and it.form in self.grammar.closing
                    and self.text[it.start - 1 : it.start] not in self.grammar.said_before
                )  # 某也辞不得命: the speaker's own words, not the act that ends the speech
                speaker = (
                    it.kind == "role"
                    and self._subject_here(i)
                    and (it.iri in self.known or self._answers(i) or self._acts_now(i))
                )
                if not (closes or speaker):
                    i += 1
                    continue
                self.in_speech = False
            handler = getattr(self, "on_" + it.kind.replace("-", "_"), None)
            if handler is not None:
                i = handler(i, it) or i
            i += 1
        for act in self.acts:
            act.end = max(act.end, act.verb[1])
        self._name_the_sent()
        _carry_held(self.text, self.acts, frozenset(self.grammar.preps))
        return self.acts

    def _name_the_sent(self) -> None:
        """君使人吊 … 吊者入: an act done by someone unnamed at a command is the act of the
        role named after it by that act (吊 → 吊者, 襚 → 襚者), when the unit names him later."""
        for act in self.acts:
            if act.agent_iris or act.commanded_by is None:
                continue
            doer = act.action_form + self.grammar.doer_suffix
            later = next(
                (
                    x
                    for x in self.items
                    if x.kind == "role" and x.form == doer and x.start > act.end
                ),
                None,
            )
            if later is not None:
                act.add_agent(later.form, later.iri)
                act.agent_note = None

    # -- handlers --------------------------------------------------------------------------

    def _item(self, k: int) -> Item | None:
        return self.items[k] if 0 <= k < len(self.items) else None

    def on_role(self, i: int, it: Item) -> int | None:
        if self._genitive(i):
            return self._group_end(i) + 1  # skip the roles and 之
        nxt = self._item(i + 1)
        if (
            nxt is not None
            and nxt.kind == "pronoun"
            and nxt.start == it.end
            and self.text[nxt.end : nxt.end + 1] in self.grammar.spot_directions
        ):
            return i + 1  # 由司射之西: where, not who
        before = self.text[it.start - 1 : it.start]
        if before in self.grammar.comparison or (
            before in COUNT_CHARS and self._next_role_adjacent(i)
        ):
            return None  # 如主人之服, 工四人二瑟小臣…: a comparison or a count, not who acts
        act = self.current
        if act is not None and it.start == act.verb[1] and self._role_acted_on(i, it, act):
            return None
        return self._role_in_clause(i, it, act)

    def _role_acted_on(self, i: int, it: Item, act: Act) -> bool:
        """A role right after a verb: is it what the verb acts on (揖宾, 命弟子)?"""
        nxt = self._item(i + 1)
        if nxt is not None and nxt.kind == "facing" and nxt.start == it.end:
            return False  # 再拜主人东面答再拜: a role with a facing of its own starts a clause
        if act.action_form in self.grammar.commands:
            return self._addressee(it)  # 使卿皮弁还玉: the one sent, whatever he wears
        if nxt is not None and nxt.kind == "object" and nxt.start == it.end:
            if act.action_form in self.grammar.gives:
                act.add_patient(it.form, it.iri)  # 授宰币: the one given to, then the gift
                self._touch(it)
            return True  # 燅尸俎: whose stand it is; the stand is what is warmed
        ahead = self._next_solid(i)
        led = (  # 帅大夫以入, 祝前尸出户: the one led moves with the leader
            self.text[it.end : it.end + 1] in self.grammar.instrument
            or act.action_form in self.grammar.leads
        )
        if (
            ahead is not None
            and ahead.kind == "action"
            and ahead.form in self.grammar.replies
            and not led
        ):
            return False  # 主人再拜宾答再拜: the guest answers, he is the next subject
        if act.action in self.grammar.bows and self._acts_on_a_thing(i):
            return False  # 主人拜尸奠觯, 拜送尸祭酒: the one bowed to acts next
        if act.action_form in self.grammar.role_patients:
            act.add_patient(it.form, it.iri)  # 揖宾, 献宾
            self._touch(it)
            self.known.add(it.iri)
            if self.text[it.end : it.end + 1] in self.grammar.greets_in_turn:
                self.subject = [it]  # 劳侯氏亦皮弁迎: the one greeted greets in turn
                self.command = None
            return True
        return False

    def _acts_on_a_thing(self, i: int) -> bool:
        """The role is followed at once by a verb and what it handles (尸奠觯, 摈者延之)."""
        verb, thing = self._item(i + 1), self._item(i + 2)
        return (
            verb is not None
            and thing is not None
            and verb.kind == "action"
            and verb.start == self.items[i].end
            and thing.kind in ("object", "pronoun")  # 尸奠觯, 摈者延之
            and all(c in COUNT_CHARS for c in self.text[verb.end : thing.start])  # 执两笾
        )

    def _addressee(self, it: Item) -> bool:
        """命弟子…, 使卿…: the one commanded is acted on, then does what follows."""
        act = self.acts[-1]
        act.add_patient(it.form, it.iri)
        self._touch(it)
        self._start(it.start)  # what he wears next (使卿皮弁) is his, not the command's
        self.subject = [it]
        self.command = len(self.acts) - 1
        self.known.add(it.iri)
        return True

    def _role_in_clause(self, i: int, it: Item, act: Act | None) -> int | None:
        """A role not acted on by the verb before it: where, the clause's subject, or the one
        addressed after a preposition."""
        prev = self._item(i - 1)
        after_prep = prev is not None and prev.kind == "prep" and prev.end == it.start
        if after_prep and self.text[it.end : it.end + 1] in self.grammar.spot_directions:
            return None  # 奠于尸东: where, not who
        if self._subject_here(i) and not after_prep:
            j = self._group_end(i)
            group = [x for x in self.items[i : j + 1] if x.kind == "role"]
            if (
                prev is not None
                and prev.kind == "joiner"
                and prev.end == it.start
                and act is not None
                and prev.start == act.verb[1]
            ):
                group = [*self.subject, *group]  # 出即位及丈夫拾踊: she and the men together
            if self.clause_subject:
                # 众主人堂下东面北上妇人入: the stance before had no verb; it is not this act's
                self.pending_place, self.pending_facing = [], None
                self.clause_start = None
            self.subject = group
            self.clause_subject = True
            self.known.update(x.iri for x in group)
            self.command = None
            self.prep = None
            self._start(it.start)
            return j
        if act is not None and after_prep:
            act.add_patient(it.form, it.iri)  # 告于宾: the one addressed
            self._touch(it)
            self.known.add(it.iri)
            ahead = self._next_solid(i)
            if ahead is not None and ahead.kind == "action" and ahead.form in self.grammar.replies:
                self.subject = [it]  # 告于宾宾礼辞…: the one addressed answers
                self.command = None
        self.prep = None
        return None

    def _object_run(self, i: int) -> int:
        """The last of a run of things: adjacent (匕俎) or joined by 与/及 (旌与荐俎)."""
        run = i
        while (
            run + 1 < len(self.items)
            and self.items[run + 1].kind == "object"
            and self.items[run + 1].start == self.items[run].end
        ):
            run += 1
        while (
            run + 2 < len(self.items)
            and self.items[run + 1].kind == "joiner"
            and self.items[run + 2].kind == "object"
        ):
            run += 2
        return run

    def on_object(self, i: int, it: Item) -> int | None:
        run = self._object_run(i)
        if self._things_open_clause(i, it, run):
            return run
        act = self.current
        if act is None or self.clause_start is not None:
            self._start(it.start)  # what a new subject wears or holds, not what the last act took
            return None
        self._object_of_act(run, it, act)
        return None

    def _things_open_clause(self, i: int, it: Item, run: int) -> bool:
        """Things before a verb: a spot where the next act is, the subject of the next act
        (匕俎从设), or what it is done with (以柶祭醴)."""
        act = self.current
        nxt = self._item(run + 1)
        after_verb = act is not None and (act.end == it.start or self.prep is not None)
        end = self.items[run].end
        if (
            run == i
            and not after_verb
            and self.text[end : end + 1] in self.grammar.directions
            and not (nxt is not None and nxt.start == end and nxt.kind in ("facing", "place"))
        ):
            self._start(it.start)  # 筵西南面: a spot by the thing, where the next act is
            return True
        prev = self._item(i - 1)
        instrument = (
            prev is not None
            and prev.form in self.grammar.instrument
            and self.text[prev.start - 1 : prev.start] not in self.grammar.negations
        )  # 不以酱湆: not what the act is done with
        next_verb = nxt is not None and nxt.kind == "action" and nxt.start == end
        clause_edge = (
            prev is None
            or prev.kind in ("facing", "place", "repeat")
            or (  # 告须马入设: a thing that moves of itself, not what the verb before took
                prev.kind == "action"
                and prev.end < it.start
                and self.text[it.start - 1 : it.start] not in self.grammar.used_with  # 受用箧
                and next_verb
                and nxt.form in self.grammar.follow_moves
            )
        )
        inanimate = next_verb and nxt.form in self.grammar.inanimate  # 奠从, 烛从
        if (
            (clause_edge or inanimate)
            and next_verb
            and (
                not after_verb
                or (inanimate and act is not None and act.action_form in self.grammar.inanimate)
            )
            and not instrument
            and not self.clause_subject
        ):
            # 匕俎从设: things are the subject; the chain of agents stops here, and the
            # acts that follow at once are about them
            self.subject = []
            self.unnamed = "things, not people, are the subject of the clause"
            self.command = None
            self.things = [x for x in self.items[i : run + 1] if x.kind == "object"]
            self._start(it.start)
            return True
        if instrument and nxt is not None and nxt.kind == "action":
            # 以柶祭醴, 以旌与荐俎退: what the act is done with
            self.pending_patients.extend(x for x in self.items[i : run + 1] if x.kind == "object")
            self._start(prev.start)
            return True
        return False

    def _object_of_act(self, run: int, it: Item, act: Act) -> None:
        """A thing after the current act: where it goes, a spot, or what it handles."""
        if self.text[it.start - 2 : it.start] in self._negated_instrument:
            return  # 三饮不以酱湆: what the act is not done with
        if (
            self.prep is None
            and act.verb[1] == it.start
            and act.action_form in self.grammar.motion_to
        ):
            # 适侯: the target is where one goes — the place of that name, if there is one
            place = _place_named(it.form)
            if place is not None:
                act.add_place("destination", it.form, place)
                self._touch(it)
                return
        after = self.text[it.end : it.end + 2]
        orientation = (
            after[:1] in self.grammar.spot_directions and after[1:2] in self.grammar.oriented
        )
        adjacent = act.verb[1] == it.start
        if (
            (after[:1] in self.grammar.spot_ends)
            or (not adjacent and (after[:1] in self.grammar.spot_words and not orientation))
            or (after[:1] in self.grammar.genitive and after[1:] in self.grammar.spot_directions)
        ):
            self._touch(it)  # 立于尊南, 筵末坐, 所设楅之南: the thing only says where
            self.prep = None
            return
        nxt = self._item(run + 1)
        if nxt is not None and nxt.kind == "pronoun" and nxt.start == it.end:
            after_pron = self._item(run + 2)
            if after_pron is not None and after_pron.kind == "object":
                return  # 二尊之盖幂: whose lid; the lid is what is handled
        before = self.text[it.start - 1 : it.start]
        if before in self.grammar.near:
            self._touch(it)  # 进当楅, 揖及楅: where one stands or arrives, not what one handles
            self.prep = None
            return
        if it.start - act.end > self.grammar.max_gap and self.prep is None:
            # too far from its verb: another clause the reader has no verb for
            self._start(it.start)
            return
        act.add_patient(it.form, it.iri)  # also 加于楅, 奠于篚: the thing it is put on or in
        self._touch(it)
        self.prep = None

    def on_place(self, i: int, it: Item) -> None:
        """After a preposition: that relation to the current act. Right after a motion verb:
        where it goes or leaves. Before a facing or a verb: where the next act happens.
        Otherwise: where the current act happens."""
        act = self.current
        nxt = self._next_solid(i)
        before_verb = nxt is not None and nxt.kind in ("action", "facing")
        prev = self.items[i - 1] if i > 0 else None
        measure = prev is not None and prev.end == it.start and prev.form in self.grammar.measure
        if self.prep == SKIP or measure:
            self.prep = None
            return
        if self.clause_start is not None:
            # a new clause has begun (a subject, a place, a facing): this is its setting
            self.pending_place.append((self.prep or "location", it))
        elif self.prep is not None and act is not None:
            act.add_spot(self.prep, it)
            self._touch(it)
        elif act is not None and act.verb[1] == it.start:
            # right after the verb: where a movement goes, or where the act is done
            role = "destination" if act.action_form in self.grammar.motion_to else "location"
            act.add_spot(role, it)
            self._touch(it)
        elif act is not None and self._continues_run(prev, act):
            # 布席于门中闑西阈外: a run of spots right after the act's last one, same relation
            act.add_spot(self.run_role, it)
            self._touch(it)
        elif before_verb or act is None:
            self.pending_place.append((self.prep or "location", it))
            self._start(it.start)
        else:
            act.add_spot("location", it)
            self._touch(it)
        self.prep = None
        self.run_role = self._role_of(act, it)

    def _continues_run(self, prev: Item | None, act: Act) -> bool:
        return (
            prev is not None
            and prev.kind == "place"
            and prev.end == act.end
            and self.run_role == "location"  # 升自西阶阶上: 阶上 is where the next act is
        )

    @staticmethod
    def _role_of(act: Act | None, it: Item) -> str | None:
        """The relation ``it`` was just given in ``act`` (None if it waits for the next act)."""
        if act is None or act.end != it.end:
            return None
        for role in ("location", "source", "destination"):
            if it.iri in act.place_iris.get(role, []) or (
                it.position is not None and it.position in act.positions.get(role, [])
            ):
                return role
        return None

    def on_prep(self, i: int, it: Item) -> None:
        nxt = self._next_solid(i)
        if (
            nxt is not None
            and nxt.kind == "action"
            and self.text[nxt.start - 1 : nxt.start] in self.grammar.not_an_act_after
        ):
            nxt = self._next_solid(self.items.index(nxt))  # 立于所设楅之南: where it was set
        act = self.current
        prev = self.items[i - 1] if i > 0 else None
        after = self.items[i + 2] if i + 2 < len(self.items) else None
        sets_next = after is not None and after.kind in ("facing", "action")  # 入当牖北面彻
        if (
            act is not None
            and it.form in self.grammar.align_after_act
            and act.verb[1] == it.start
            and (act.action_form in self.grammar.motion_to or not sets_next)
        ):
            # 进当楅南: where the movement ends; 立当X: where the act is
            self.prep = "destination" if act.action_form in self.grammar.motion_to else "location"
            self._touch(it)
            return
        if (
            act is not None
            and it.form in self.grammar.align_after_act
            and self.clause_start is None
        ) or (
            it.form in self.grammar.position_after_thing
            and prev is not None
            and prev.kind == "object"
            and prev.end == it.start
            and (act is None or prev.start > act.end)
        ):
            self.prep = SKIP  # 当洗东, 水在洗东: not where an act happens
            return
        leads_in = (  # 自门入: where the next verb's movement starts, not the last act's
            it.extra == "source"
            and nxt is not None
            and nxt.kind == "place"
            and after is not None
            and after.kind == "action"
            and after.start == nxt.end
            and not (act is not None and act.verb[1] == it.start)  # 升自西阶进: the 升's
        )
        if (
            act is not None
            and it.start - act.end <= self.grammar.max_gap
            and self.clause_start is None
            and not leads_in
        ):
            self.prep = it.extra  # 委其余于中西: still the same act
            if act.verb[1] == it.start and act.action_form in self.grammar.motion_into:
                self.prep = "destination"  # 入于室, 至于阶: where the movement ends
            self._touch(it)
        elif nxt is not None and nxt.kind in ("place", "object"):
            self.prep = it.extra
            self._start(it.start)
        if nxt is not None and nxt.kind == "role":
            self.prep = None  # 告于宾: the role is the one addressed

    def on_facing(self, i: int, it: Item) -> None:
        nxt = self._next_solid(i)
        if self.current is None or (nxt is not None and nxt.kind in ("action", "place", "prep")):
            self.pending_facing = it.extra
            self._start(it.start)
        else:
            self.current.facing = it.extra
            self._touch(it)

    def on_action(self, i: int, it: Item) -> None:
        if self.condition_until is not None and it.start < self.condition_until:
            return  # 若君赐之爵则…: what the condition says is not an act
        prev = self.items[i - 1] if i > 0 else None
        if prev is not None and prev.end == it.start and prev.form in self.grammar.negations:
            return  # 不升堂: not done
        if self.text[it.start - 1 : it.start] in self.grammar.not_an_act_after:
            return  # 所设中之西南: where it was set, not an act
        if self.text[it.end : it.end + 1] in self.grammar.not_an_act_before:
            return  # 后至者: those who come late
        if self._joins_next_move(i, it):
            self._start(it.start)  # 主人从入, 从立: one act, the movement
            return
        last = self.current
        if last is not None and self._asked_or_declined(last, it):
            last.end = it.end  # 请射于宾, 辞洗: what is asked for or declined belongs to the verb
            return
        self._bower_completes(i, it)
        start = self.clause_start if self.clause_start is not None else it.start
        act = Act(
            start=start,
            end=it.end,
            action=it.slug,
            action_iri=it.iri,
            action_form=it.form,
            verb=(it.start, it.end),
            condition=self.condition,
            commanded_by=self.command,
            repeats=self.pending_repeat,
        )
        for s in self.subject:
            act.add_agent(s.form, s.iri)
        if not act.agent_iris:
            act.agent_note = self.unnamed
        for role, place in self.pending_place:
            if role == "source" and it.form not in self.grammar.moves:
                role = "location"  # 宾自碑内听命, 小臣自阼阶下北面请: where, not whence
            act.add_spot(role, place)
        act.sets_down = it.form in position_rules().set_down
        for thing in it.swallowed:  # 决遂 → 决, 遂; 取矢 → 矢: still what it handles
            act.add_patient(thing.form, thing.iri)
        for thing in self.pending_patients:
            act.add_patient(thing.form, thing.iri)
        self.pending_patients = []
        if self.things and (self.things[-1].end == it.start or self._follows_last(it)):
            for thing in self.things:
                act.add_patient(thing.form, thing.iri)  # 匕俎从设: what follows, what is set
        else:
            self.things = []
        if self.pending_facing:
            act.facing = self.pending_facing
        self.pending_place, self.pending_facing, self.pending_repeat = [], None, None
        self.prep = None
        self.clause_start = None
        self.clause_subject = False
        self.acts.append(act)
        self._bare_command(i, it)

    def _bare_command(self, i: int, it: Item) -> None:
        nxt = self._item(i + 1)
        if it.form in self.grammar.bare_commands and nxt is not None and nxt.kind == "action":
            self.subject = []  # 命退楅: those commanded are not named
            self.unnamed = "those commanded are not named"
            self.command = len(self.acts) - 1

    def _joins_next_move(self, i: int, it: Item) -> bool:
        """从 right before a movement (从入, 从立) is one act with it."""
        nxt = self._item(i + 1)
        return (
            it.form in self.grammar.follow
            and nxt is not None
            and nxt.kind == "action"
            and nxt.start == it.end
            and nxt.form in self.grammar.follow_moves
        )

    def _bower_completes(self, i: int, it: Item) -> None:
        """大夫辞升成拜: the one who bowed below, whose bow was declined, goes up and
        completes it — not the one who declined."""
        last = self.current
        if last is None or self.clause_subject or last.action_form not in self.grammar.declines:
            return
        nxt = self._item(i + 1)
        completes = it.form in self.grammar.completes or (
            nxt is not None and nxt.kind == "action" and nxt.form in self.grammar.completes
        )
        if not completes:
            return
        for act in reversed(self.acts[:-1]):
            if (
                act.action in self.grammar.bows
                and act.agent_iris
                and act.agent_iris != last.agent_iris
            ):
                self.subject = [
                    Item(it.start, it.start, "role", f, iri=x)
                    for f, x in zip(act.agents, act.agent_iris, strict=True)
                ]
                return

    def _asked_or_declined(self, last: Act, it: Item) -> bool:
        """请射, 辞洗: the verb right after 请 / 辞 is what is asked for or declined — unless it
        is a movement (请入告) or, after 辞, a reply or bow (不敢辞再拜) of its own."""
        if last.verb[1] != it.start or self.clause_start is not None:
            return False
        if last.action_form in self.grammar.requests:
            return it.form not in self.grammar.request_not
        if last.action_form in self.grammar.declines:
            return it.form not in self.grammar.request_not | self.grammar.replies
        return False

    def on_anonymous(self, i: int, it: Item) -> None:
        nxt = self._next_solid(i)
        prev = self.items[i - 1] if i > 0 else None
        act = self.current
        acted_on = act is not None and prev is not None and prev.iri in act.patient_iris
        if prev is not None and prev.kind == "role" and prev.end == it.start and not acted_on:
            return  # 复者一人: how many of them — but 迎尸一人奉篚: someone else
        if nxt is not None and nxt.kind in ("action", "object", "facing", "prep"):
            self.subject = []  # 一人执算: someone unnamed acts
            self.unnamed = "the performer is someone unnamed (一人, 人)"
            sent = act is not None and act.verb[1] == it.start
            self.command = (
                len(self.acts) - 1 if sent and act.action_form in self.grammar.commands else None
            )  # 使人吊: the one sent
            self.clause_subject = True
            self._start(it.start)

    def on_adverb(self, i: int, it: Item) -> None:
        nxt = self._next_solid(i)
        if nxt is not None and nxt.kind == "action":
            self._start(it.start)

    def on_pair(self, i: int, it: Item) -> None:
        # X与其耦: the partner acts too
        partner = self.grammar.partner
        for entry in load_lexicon().entries.get(partner, ()):
            if entry.type == "role":
                role = Item(it.start, it.end, "role", partner, entry.slug, entry.iri)
                self.subject = [*self.subject, role]

    def on_speech(self, i: int, it: Item) -> None:
        self._touch(it)
        self.in_speech = True
        self.speech_from = it.end

    def on_repeat(self, i: int, it: Item) -> None:
        nxt = self.items[i + 1] if i + 1 < len(self.items) else None
        if nxt is not None and nxt.kind == "action" and nxt.start == it.end:
            self.pending_repeat = self._back_reference(it)  # 如初升: the next act repeats
            self._start(it.start)
        elif self.current is not None:
            self.current.repeats = self._back_reference(it)
            self._touch(it)

    def _invite_the_other(self, act: Act, it: Item) -> bool:
        """摈者延之: 之 is the last other person acting before, who acts next (升成拜)."""
        for prev in reversed(self.acts[:-1]):
            others = [
                (f, x)
                for f, x in zip(prev.agents, prev.agent_iris, strict=True)
                if x not in act.agent_iris
            ]
            if others:
                for form, iri in others:
                    act.add_patient(form, iri)
                self._touch(it)
                self.subject = [Item(it.start, it.end, "role", f, iri=x) for f, x in others]
                return True
        return False

    def _back_reference(self, it: Item) -> BackReference:
        of = RepeatOf.PREVIOUS if it.form in self.grammar.repeat_previous else RepeatOf.FIRST
        return BackReference(it.form, of)

    def on_cond_open(self, i: int, it: Item) -> None:
        close = next((x for x in self.items[i + 1 :] if x.kind == "cond-close"), None)
        if close is not None:
            self.condition = self.text[it.end : close.start]
            self.condition_until = close.end
            self.before_condition = list(self.subject)

    def on_cond_close(self, i: int, it: Item) -> None:
        if self.condition_until is not None and it.end == self.condition_until:
            self.condition_until = None
            self.subject = self.before_condition  # who acts under the condition
            self.clause_start = None

    def on_pronoun(self, i: int, it: Item) -> None:
        act = self.current
        if act is None or act.verb[1] != it.start or act.patients:
            return
        if act.action_form in self.grammar.invites and self._invite_the_other(act, it):
            return
        # 取之: the last thing named; a person only after a verb that takes one (延之), so
        # 授尸…哜之 tastes the lung, not the impersonator
        persons = act.action_form in self.grammar.role_patients
        for prev in reversed(self.acts[:-1]):
            for form, iri in reversed(list(zip(prev.patients, prev.patient_iris, strict=True))):
                if persons or not _is_role(form, iri):
                    act.add_patient(form, iri)
                    self._touch(it)
                    if act.action_form in self.grammar.invites and _is_role(form, iri):
                        # 摈者延之曰升升成拜: the one invited forward acts next
                        self.subject = [Item(it.start, it.end, "role", form, iri=iri)]
                    return


def _verbs_in_verb_position(text: str, items: list[Item]) -> list[Item]:
    """A word that names a thing and an act (免, 襚, 奠) right after its subject, with no thing
    after it, is the act: 众主人免于房 (puts on the mourning band), not the band."""
    out = list(items)
    for k in range(1, len(out)):
        it, prev = out[k], out[k - 1]
        nxt = out[k + 1] if k + 1 < len(out) else None
        if it.kind != "object" or prev.kind not in ("role", "anonymous") or prev.end != it.start:
            continue  # 众主人免于房, 君使人襚: the word right after who does it
        if text[it.end : it.end + 1] in grammar().spot_directions:
            continue  # 冠者筵西拜: a spot by the thing
        if nxt is not None and nxt.start == it.end and nxt.kind in ("object", "pronoun"):
            continue  # 主人冠端玄: what he wears
        for e in load_lexicon().entries.get(it.form, ()):
            if e.type == "action":
                out[k] = Item(it.start, it.end, "action", it.form, e.slug, e.iri)
                break
    return out


def _facing_out_of_place(text: str, items: list[Item]) -> list[Item]:
    """祝出户西面: a place ending in a direction (户西) right before a bare 面 / 乡 gives the
    direction to the facing (户 + 西面) when the rest is a place too."""
    facings = set(grammar().facings)
    out: list[Item] = []
    for it in items:
        shorter = it.form[:-1]
        facing = text[it.end - 1 : it.end + 1]
        if it.kind == "place" and it.position is None and facing in facings and shorter:
            iri = _place_named(shorter)
            if iri is not None:
                slug = iri.rstrip("/").rsplit("/", 1)[-1]
                out.append(Item(it.start, it.end - 1, "place", shorter, slug, iri))
                out.append(Item(it.end - 1, it.end + 1, "facing", facing, extra=facing[:-1]))
                continue
        out.append(it)
    return out


def _is_role(form: str, iri: str) -> bool:
    return any(e.type == "role" and e.iri == iri for e in load_lexicon().entries.get(form, ()))


def _place_named(form: str) -> str | None:
    for entry in load_lexicon().entries.get(form, ()):
        if entry.type == "place":
            return entry.iri
    return None


def read_acts(text: str, carry: list[Item] | None = None) -> list[Act]:
    """Acts of one unit of the classic (for tests and doctests: runs the whole pipeline)."""
    return ActReader(text, act_items(text), carry).read()


def read_chapter_acts(
    sections: Iterable[tuple[Sequence[K], Sequence[K]]],
    texts: dict[K, tuple[str, list[Item]]],
) -> dict[K, list[Act]]:
    """Acts of one chapter's units, by key: ``sections`` gives each section's passage and
    record keys in reading order, ``texts`` each analysed unit's normalized text and items
    (a unit without is skipped). The subject carries from passage to passage through the
    chapter; each record (记) starts afresh."""
    out: dict[K, list[Act]] = {}
    carry: list[Item] = []
    known: set[str] = set()
    for passages, records in sections:
        for key in passages:
            if key in texts:
                reader = ActReader(*texts[key], carry, known)
                out[key] = reader.read()
                carry, known = reader.subject, reader.known
        for key in records:
            if key in texts:
                reader = ActReader(*texts[key], [], known)
                out[key] = reader.read()
    return out
