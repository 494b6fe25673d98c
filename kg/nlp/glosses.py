"""Glosses (训诂) stated in a commentary block: which word, explained how.

Patterns (the text is unpunctuated: a clause runs to a sentence-final particle 也 矣 …):

=============  =====================  ==========================================
pattern        example                term / definition
=============  =====================  ==========================================
``A B也``      比合也, 乗矢四矢也      A at the clause's start / B
``A犹B也``     御犹待也, 直犹当也      A just before 犹 (犹言, 之言) / B
``A者B也``     筮者以蓍问吉凶也        A at the clause's start / B
``A谓B``       庙谓祢庙               A / B up to 也, or a lexicon word
``A即B``       玄端即朝服也            A / B
``B曰A``       二升曰觚, 射中曰获      A after 曰 / B before it
``B谓之A``     门侧之堂谓之塾          (likewise; and ``B之谓A``)
``A B之名``    …                      A at the clause's start / B
``A B器``      甒瓦器以盛醴            an object / B up to a classifier
``A B``        堂西堂下之西|袒露左臂也  a run of glosses without 也 (see below)
``A为B``       郑氏谓荐车为进明器之车  in a reported or anonymous view: A / B
``…A B也``     挟矢指间|挟夹也         a short gloss closing a longer clause (below)
``A B也 C也``  媵送也|女从者也         C, a name (…者), defines the same A again
=============  =====================  ==========================================

Where a term begins or ends is the hard part. A term must be a word of the passage the
block comments on (when it is given) or a lexicon form; the longest such word wins. A
definition must be short and must not read as a reason or a purpose (不敢…, 以…, 故…),
unless it restates the term (反位反中西南东面之位) or is a 所以…者 nominal.

Runs: a clause may hold several glosses with no 也 between them. It is cut where a word of
the passage starts that comes later in the passage than the previous term, and every inner
definition must read as a noun phrase (no act of the passage, no adverb, 之 or a nominal
ending, or nothing the passage names); a definition ending in 貌 / 之辞 / 名 …, or followed by
既 / 盖 / 凡 …, may close a run by itself (疑立立不安貌|敬之至也). Only a clause that can be cut
in exactly one way yields glosses. Precision first: where the boundaries are not clear, no
gloss.

A clause ending in 也 that nothing else reads may close on a short gloss with nothing
marking where its term starts (…以授三耦|搢插也). Every cut of its end into a word of the
passage and a definition of a few characters is tried against hard conditions (the term is no
person and no statement's opener, does not end a longer phrase of the passage; the definition
is new to the passage or restates the term, is no act; a one-character definition only for a
one-character term) and scored (the block names the term nowhere else, or only just before as
a word used: 挟矢指间|挟夹也; the term is a lexicon word); the one best cut is taken when it
scores high enough. The features and weights are in commentary.toml (``tail_*``).

Unseen commentary (issue 15): a term of two to four characters that is no lexicon word must
read as a word, not a phrase of the passage (又展, 君不许, 三日之朝, 尸入门左 are phrases); a
term right after a negation or after 之 ending a longer phrase of the passage is a fragment
(无|物, 三日之|朝). ``A者B`` glosses, it does not explain the act: no restating of the term's
act, no purpose or manner, no subject (再拜者拜其赐, 用燕几者以几之足夹之, 一拜者士于大夫礼杀).
A negated phrase may be paraphrased by a negated definition (无受者不以轻服受之也), and a
definition may be long when it fills a clause closed by 也 or the voice's end and describes
(…之象, …者). Words and limits: commentary.toml (``phrase_*``, ``negat*``, ``*long*``).

>>> [(g.term, g.definition) for g in find_glosses("比合也", passage="司射比耦")]
[('比', '合')]
>>> [(g.term, g.definition) for g in find_glosses("二升曰觚", passage="实觚")]
[('觚', '二升')]
>>> [(g.term, g.definition) for g in find_glosses("阶西阶下之西挟夹持也", passage="立于阶西挟弓")]
[('阶西', '阶下之西'), ('挟', '夹持')]
>>> [(g.term, g.definition) for g in find_glosses("左手扱矢腰间扱插也", passage="扱矢")]
[('扱', '插')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from kg.nlp.commentary_rules import load_rules
from kg.nlp.lexicon import load_lexicon
from kg.nlp.voices import Voice, split_voices
from kg.nlp.wordlists import alternation
from kg.text.normalize import normalize
from kg.text.vocab import load_concepts

_CJK = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff]+$")


@dataclass(frozen=True)
class Gloss:
    term_start: int  # offsets in the block's text
    term_end: int
    def_start: int
    def_end: int
    term: str  # normalized
    definition: str  # normalized
    pattern: str  # A B也 | A犹B也 | A者B也 | A谓B | A即B | B曰A | B谓之A | B之谓A | A B之名 |
    # A B器 | A B (one of a run without 也) | A为B (a reported view)
    voice: int = 0  # index of the voice (opinion) stating it

    @property
    def start(self) -> int:
        return min(self.term_start, self.def_start)

    @property
    def end(self) -> int:
        return max(self.term_end, self.def_end)


@lru_cache(maxsize=1)
def _lexicon_forms() -> frozenset[str]:

    forms = set(load_lexicon().entries)
    for c in load_concepts("actions.ttl").values():
        forms |= c.forms
    return frozenset(forms)


@lru_cache(maxsize=1)
def _action_forms() -> frozenset[str]:

    return frozenset(f for c in load_concepts("actions.ttl").values() for f in c.forms)


@lru_cache(maxsize=4)
def _typed_forms(types: tuple[str, ...]) -> dict[str, bool]:

    return {
        form: True
        for form, entries in load_lexicon().entries.items()
        if any(e.type in types for e in entries)
    }


@lru_cache(maxsize=1)
def _form_types() -> dict[str, frozenset[str]]:

    return {f: frozenset(e.type for e in es) for f, es in load_lexicon().entries.items()}


@lru_cache(maxsize=1)
def _marker_re() -> re.Pattern[str]:
    """The gloss markers (谓之, 犹, 即, 谓, 曰 …), the longest first."""
    words = load_rules().patterns.glosses
    return re.compile(alternation([*words.naming, *words.likening, words.identity, words.meaning]))


class _Reader:
    """The glosses of one voice's text, given the passage commented on."""

    def __init__(self, norm: str, passage: str) -> None:
        self.norm = norm
        self.passage = passage
        words = load_rules().patterns.glosses
        self.cfg = words
        self.finals = load_rules().finals
        self.lexicon = _lexicon_forms()
        self.not_terms = set(words.not_terms)
        self.objects = _typed_forms(tuple(words.classifier_types))
        self.actions = _action_forms()
        self.types = _form_types()
        self.marker_re = _marker_re()

    # -- words ----------------------------------------------------------------------------------

    def is_term(self, a: int, b: int) -> bool:
        t = self.norm[a:b]
        if not (1 <= len(t) <= self.cfg.max_term) or not _CJK.match(t):
            return False
        if t in self.not_terms or t[0] in self.cfg.not_term_start:
            return False
        if t[-1] in self.cfg.not_term_end:
            return False
        if len(t) >= 2 and t not in self.lexicon and self.phrase(t):
            return False
        if self.passage:
            return t in self.passage
        return len(t) >= 2 and t in self.lexicon

    def phrase(self, t: str) -> bool:
        """Is a span of the passage a phrase, not a word (又展, 君不许, 迁于祖, 三日之朝)?"""
        c = self.cfg
        long = len(t) >= c.phrase_long_min
        subject = any(  # 尸入门左: a person and what he does
            "role" in self.types.get(t[:w], ()) and t[w] not in "之" for w in range(1, len(t) - 1)
        )
        return (
            t[0] in c.phrase_term_start
            or any(ch in c.phrase_term_inner for ch in t[1:-1])
            or (long and (subject or any(ch in c.phrase_long_inner for ch in t[1:-1])))
        )

    def negated(self, term: str, d: str) -> bool:
        """Does the definition paraphrase a negated term (无受 → 不以轻服受之), naming no
        other act of the passage (不决遂|不执弓变于大射 goes on about the passage)?"""
        return (
            any(c in self.cfg.negations for c in term)
            and any(d.startswith(w) for w in self.cfg.negated_definition_start)
            and not self.passage_acts(term, d)
        )

    def passage_acts(self, term: str, d: str) -> bool:
        """Does the definition name an act of the passage other than the term's (one after
        所 is a noun: 未有主时所设者)?"""
        acts = (d[i : i + w] for w in (1, 2) for i in range(len(d)) if d[i - 1 : i] != "所")
        return any(a in self.actions and a in self.passage and a not in term for a in acts)

    def negated_who(self, term: str) -> bool:
        """Is the term "those who do not …" (无受者), no lexicon word?"""
        return (
            term[-1] == "者"
            and term not in self.lexicon
            and any(c in self.cfg.negations for c in term[:-1])
        )

    def descriptive(self, d: str) -> bool:
        """May a definition be long (a noun phrase describing: …之象, …者)?"""
        return "之" in d or any(d.endswith(w) for w in self.cfg.long_definition_endings)

    def explains_act(self, term: str, d: str) -> bool:
        """Does the definition of ``A者B`` explain an act rather than gloss a word: it
        restates the term's act (再拜者拜其赐, not 抚之者抚众矢而数之), holds another 者
        (东面者亨者东向), states a purpose (具者具于使者之庙以待命) or a manner
        (用燕几者以几之足夹之)?"""
        if not d:
            return False
        c = self.cfg
        purpose = any(  # 以 "so as to", not 所以 nor 不以 "not using" (无受者不以轻服受之)
            d[i] == c.purpose and d[i - 1] != "所" and d[i - 1] not in c.negations
            for i in range(1, len(d))
        )
        how = any(d.startswith(x) and d.endswith(y) for x, y in c.how_frames)
        whole = len(term) > 1 and all(ch in d for ch in term)  # 官戒者|戒诸官: restated whole
        act = d[0] in term and d[0] in self.actions and d[-1] != term[-1] and not whole
        act = act or (len(term) == 1 and d[0] == term and d[1:2] in c.act_restated_before)
        subject = any(  # 一拜者|士于大夫礼杀: a statement of its own, with its subject
            "role" in self.types.get(d[:w], ()) and "role" not in self.types.get(term, ())
            for w in (1, 2)
        )
        return act or subject or "者" in d[:-1] or purpose or how

    def long_ok(self, term: str, d: str) -> bool:
        """May a definition be longer than the usual limits: a description (…之象, …者) that
        opens with no word of a statement, holds no act of the passage but the term's, and
        does not name a one-character term again (执|贤获执其胜党…)?"""
        if not self.descriptive(d) or (len(term) == 1 and term in d):
            return False
        if d.count(self.cfg.long_clause_word) > 1:
            return False  # 随阳而处候时而行…: clauses chained, no description
        opens = any(d.startswith(w) for w in self.cfg.not_definition_start)
        if opens and not self.negated(term, d):
            return False
        return not self.passage_acts(term, d) and not any(
            c in d for c in self.cfg.not_in_long_definition
        )

    def term_before(self, cs: int, k: int) -> tuple[int, int] | None:
        """The term ending at k: the whole stretch from the clause start if it is a word,
        else the longest word ending there."""
        if self.is_term(cs, k):
            return cs, k
        for n in range(min(self.cfg.max_term, k - cs), 0, -1):
            a = k - n
            negated = a > cs and self.norm[a - 1] in self.cfg.negations  # 无|物谓…: 无物
            if self.is_term(a, k) and not negated and not self.tail_of_phrase(cs, a, k):
                return a, k
        return None

    def tail_of_phrase(self, cs: int, a: int, b: int) -> bool:
        """Does [a, b) end a longer phrase of the passage that the clause goes on with
        (前期三日之|朝犹…)? Then it is a fragment, no term."""
        n = self.norm
        head = n[a - 1] in self.cfg.head_after  # 三日之|朝: the head of a longer phrase
        return a > cs and (n[a:b] not in self.lexicon or head) and n[a - 1 : b] in self.passage

    def term_at_start(
        self, cs: int, limit: int, longest: int | None = None, cut: bool = True
    ) -> tuple[int, int] | None:
        """The longest word opening the clause, leaving at least one character after it; with
        ``cut``, not one that a lexicon word runs out of when a shorter one will do
        (雍爨|雍人之灶, not 雍爨雍|人之灶)."""
        found = [
            (cs, cs + n)
            for n in range(min(longest or self.cfg.max_term, limit - cs - 1), 0, -1)
            if self.is_term(cs, cs + n)
        ]
        first = found[0] if found else None
        return next((t for t in found if self.boundary(t[1])), first) if cut else first

    def term_after(self, k: int, limit: int) -> tuple[int, int] | None:
        """The longest word starting at k (a term named after 曰 / 谓之)."""
        for n in range(min(self.cfg.max_named_term, limit - k), 0, -1):
            if self.is_term(k, k + n) and self.passage:
                return k, k + n
        return None

    def truncated(self, t: tuple[int, int]) -> bool:
        """Is the term cut out of a longer phrase of the passage (相工如|初)? Then it is
        not a word, and the clause is not a gloss of it."""
        a, b = t
        if b >= len(self.norm) or not self.passage:
            return False
        return self.norm[a : b + 1] in self.passage and self.norm[a:b] not in self.lexicon

    def definition_ok(
        self, a: int, b: int, bare: bool = False, term: str = "", long: bool = False
    ) -> bool:
        """``long``: the definition fills a clause of its own, it may be long if descriptive."""
        d = self.norm[a:b]
        limit = self.cfg.max_definition_bare if bare else self.cfg.max_definition
        if long and len(d) > limit and self.long_ok(term, d):
            limit = self.cfg.max_definition_long
        if not (1 <= len(d) <= limit) or not _CJK.match(d):
            return False
        if any(w in d for w in self.cfg.not_in_definition):
            return False
        if any(w in d[1:] for w in self.cfg.not_after_definition_start):
            return False
        if d[-1] in self.cfg.not_definition_final:
            return False
        if len(d) == 2 and d[1] == self.cfg.fragment_zhe and (len(term) == 1 or d[0] in term):
            return False  # 关|门者, 横三缩二|横者: the end of a longer phrase
        framed = any(
            d.startswith(x) and d.endswith(y) and len(d) > len(x) + len(y)
            for x, y in self.cfg.definition_frames
        )
        for w in self.cfg.not_in_definition_clause:
            i = d.find(w)
            inside = any(w == x and d.endswith(y) for x, y in self.cfg.definition_frames if x)
            inside = inside or (w == "所以" and "之" in d[i + 2 : -1])  # 平日所以养亲之饮食
            if i >= 0 and not ((framed and i == 0) or inside) and len(d) - i - len(w) >= 2:
                return False  # 故 / 盖 / 所以 opening a clause (所以…者 is a noun phrase)
        if not bare:
            return True
        if len(d) == 1:
            return d not in self.not_terms
        if "者" in d[:-1] and not self.expansion(term, d):
            return False  # a clause (…者…), unless the term is restated (拜辱拜戒者来辱)
        if framed or self.expansion(term, d) or self.negated(term, d):
            return True
        if len(d) >= self.cfg.statement_min and self.statement(term, d):
            return False
        return not any(d.startswith(w) for w in self.cfg.not_definition_start)

    def predicate(self, g: Gloss) -> bool:
        """Does a definition say what the term does, opening with an act (髻发|用麻), not
        name it (宾长|上宾, 碑|所以丽牲者)?"""
        d = g.definition
        framed = any(d.startswith(x) and d.endswith(y) for x, y in self.cfg.definition_frames)
        act = any(d[:w] in self.actions and not self.objects.get(d[:w]) for w in (1, 2))
        return act and not framed and not self.named(d) and not self.expansion(g.term, d)

    def statement(self, term: str, d: str) -> bool:
        """Is a long definition of a thing what the thing does (雁|取知时飞翔有行列), not a
        noun phrase (缌麻|布之细如丝者, 祧|迁主所藏之庙)? It opens with an act, has no 之 and
        no nominal ending, and the term is an object or a person."""
        thing = bool(self.types.get(term, frozenset()) & {"object", "role"})
        return (
            thing
            and not self.named(d)
            and not self.descriptive(d)
            and any(d[:w] in self.actions and not self.objects.get(d[:w]) for w in (1, 2))
        )

    def expansion(self, term: str, d: str) -> bool:
        """Does the definition restate the term (反位 → 反中西南东面之位)?"""
        return (
            len(term) >= self.cfg.expansion_min_term
            and d != term
            and d[0] not in self.cfg.expansion_not_start
            and (
                (d[0] == term[0] and term[0] not in self.not_terms)
                or (d[-1] == term[-1] and term[-1] not in self.not_terms)
                or all(ch in d and ch not in self.not_terms for ch in term)  # 中屋当屋之中
            )
        )

    def boundary(self, p: int) -> bool:
        """May a new word start at p, no lexicon word running across it?"""
        n = self.norm
        return not any(n[a : a + w] in self.lexicon for w in (2, 3, 4) for a in range(p - w + 1, p))

    def later(self, first: str, second: str) -> bool:
        """Does ``second`` occur in the passage after ``first`` (glosses follow its order)?"""
        i = self.passage.find(first)
        return i >= 0 and self.passage.find(second, i + len(first)) >= 0

    # -- clauses --------------------------------------------------------------------------------

    def clauses(self, start: int, end: int) -> Iterator[tuple[int, int, bool]]:
        """(start, end, closed): closed clauses end with a final particle (kept in the span),
        or with 者 when a word of the passage follows and 者 is not part of a word itself
        (司射掌射事者|堂西堂下之西)."""
        cs = start
        n = self.norm
        for i in range(start, end):
            if n[i] in self.finals and not (i + 1 < end and n[i + 1] in self.cfg.final_not_before):
                if i > cs:
                    yield cs, i + 1, True
                cs = i + 1
            elif (
                n[i] == "者"
                and i - cs >= 3
                and self.passage
                and self.term_at_start(i + 1, end + 1)
                and not self.is_term(cs, i)
                and not any(n[a : i + 1] in self.passage for a in range(max(cs, i - 4), i))
            ):
                yield cs, i + 1, True
                cs = i + 1
        if cs < end:
            yield cs, end, False

    def appositions(self, cs: int, ce: int) -> Iterator[Gloss]:
        """``A B器`` / ``A B属`` / ``A B名`` inside a clause: the shortest definition ending
        in a classifier with a word of the passage right before it."""
        n = self.norm
        for cls in self.cfg.classifiers:
            for m in re.finditer(re.escape(cls), n[cs:ce]):
                end = cs + m.end()
                if end < ce and n[end] in "之者":
                    continue
                whole = cls in self.cfg.whole_classifiers  # 洗器名
                for size in range(len(cls) + (0 if whole else 1), len(cls) + 3):
                    d0 = end - size
                    t = self.term_before(max(cs, d0 - 4), d0) if d0 > cs else None
                    if t and self.objects.get(n[t[0] : t[1]]) and n[t[0] - 1 : t[0]] != "此":
                        yield self._gloss(t, (d0, end), "A B器")
                        break

    def glosses(
        self, start: int, end: int, view: bool = False, quote: bool = False
    ) -> Iterator[Gloss]:
        last = start  # where the last gloss found ends
        prev: Gloss | None = None  # the previous clause's one gloss
        topic = -1  # where a clause "X者" that glossed nothing ends, X a word of the passage
        for cs, ce, closed in self.clauses(start, end):
            # the end of a view or of a quote another voice follows (郑康成曰虞丧祭名|此…),
            # or 者 ending a voice (有司主人之执事者|敖君善曰), ends a clause
            by_quote = not closed and ce == end and quote and self.norm[ce - 1] != "者"
            closed = closed or (ce == end and (view or quote or self.norm[ce - 1] == "者"))
            found = list(self.marked(cs, ce, closed))
            reading = self.norm[start - 1 : start] in self.cfg.not_taken_after  # 读堕为挼
            if view and cs == start and not found and not reading:
                found = list(self.taken_as(cs, ce))
            if found:
                first = min(g.start for g in found)
                if first > cs and self.passage:
                    found += self.run(cs, first, self.norm[found[0].term_start : found[0].term_end])
            elif closed and cs != topic:
                # (after a topic 宾不辞者 that glossed nothing, the clause is what is said of
                # it, no gloss: 宾不辞者|受君之赐也); a one-character definition needs a clause
                # between two finals (媵送也)
                n = self.norm
                after = cs == last or n[cs - 1] in self.finals  # 无物谓士之木命者|糅杂也
                whole = after and n[ce - 1] == "也"
                alone = after and (n[ce - 1] == "也" or ce == end)
                found = self.run(cs, self.body_end(cs, ce)) or list(self.bare(cs, ce, whole, alone))
                # closed by the next voice only (虞|丧祭名), or a view cut by the verdict on it
                # (髻发用麻|其说是也: what is said of it): a name
                if by_quote:
                    found = [g for g in found if g.pattern != "A B也" or self.named(g.definition)]
                elif view and self.norm[ce - 1] not in self.finals:
                    found = [g for g in found if g.pattern != "A B也" or not self.predicate(g)]
                if not found:
                    found = self.tail(cs, ce)
                if not found and prev:
                    found = self.again(prev, cs, ce)
            taken = [(g.start, g.end) for g in found]
            for g in self.appositions(cs, ce):
                if not any(a < g.end and g.start < b for a, b in taken):
                    found.append(g)
                    taken.append((g.start, g.end))
            if found:
                last = ce
            elif self.norm[ce - 1] == "者" and self.term_at_start(cs, ce):
                topic = ce
            prev = found[0] if len(found) == 1 and found[0].pattern == "A B也" else None
            yield from sorted(found, key=lambda g: g.start)

    def stop(self, d0: int, d1: int, stops: list[str] | None = None) -> int:
        """Where a definition starting at d0 stops: before 犹 "like" or 亦 "also"
        (握手把处|犹肤也, 不达于理|亦谦也), or before a cited work (…|易曰)."""
        n = self.norm
        for w in self.cfg.definition_stops if stops is None else stops:
            k = n.find(w, d0 + 1, d1)
            d1 = k if k > 0 else d1
        rules = load_rules()
        for i in range(d0 + 1, d1):
            if n[i] in self.cfg.citing:
                w = next((w for w in rules.works if n.endswith(w, d0, i)), None)
                if w:
                    return i - len(w)
        return d1

    def body_end(self, cs: int, ce: int) -> int:
        return ce - 1 if self.norm[ce - 1] in self.finals else ce

    # -- runs of glosses without 也 -------------------------------------------------------------

    def run(self, cs: int, e: int, then: str = "") -> list[Gloss]:
        """The clause [cs, e) cut into two or more "A B" glosses, or what ends in a nominal
        ending (疑立立不安貌|…); ``then``: the term of a marked gloss that follows at e.
        Only one way to cut it may fit, else nothing (precision first)."""
        if not self.passage or e - cs > self.cfg.max_run:
            return []
        whole = next(self.bare(cs, e), None)
        if not then and whole and whole.definition[-1] == whole.term[-1] != whole.term[0]:
            return []  # 请宾请君命谁为宾也: the definition closes on the term, one gloss
        cuts = [c for c in self._cuts(cs, e, then, 0) if len(c) > 1 or then or c[0][1]]
        if len(cuts) != 1:
            return []
        return [g for g, _ in cuts[0]]

    def _cuts(self, s: int, e: int, then: str, depth: int) -> list[list[tuple[Gloss, bool]]]:
        """Every way to read [s, e) as glosses "A B" (a term of the passage opening each);
        the bool marks a piece closed by a nominal ending, after which anything may follow."""
        t = self.term_at_start(s, e)
        if not t or self.truncated(t) or depth > 4:
            return []
        term = self.norm[t[0] : t[1]]
        if t[1] - t[0] >= 4 and term not in self.lexicon:
            return []
        out: list[list[tuple[Gloss, bool]]] = []
        if then:  # the last piece ends where the marked gloss's term begins
            if self.inner_ok(t, e, term) and self.later(term, then):
                out.append([(self._gloss(t, (t[1], e), "A B"), False)])
        elif (
            depth and (g := next(self.bare(s, e, whole=True), None)) and self.nominal(g.definition)
        ):
            out.append([(g, False)])
        lo = t[1] + self.cfg.min_inner_definition
        for p in range(lo, e - 1):
            if not self.inner_ok(t, p, term):
                continue
            nxt = self.term_at_start(p, e)
            d = self.norm[t[1] : p]
            ending = (
                any(d.endswith(w) and len(d) >= len(w) + 2 for w in self.cfg.endings)
                or any(self.norm.startswith(w, p) for w in self.cfg.openers)
                or any(
                    d.startswith(x) and d.endswith(y) and len(d) >= len(x) + len(y) + 2
                    for x, y in self.cfg.definition_frames
                )
            )
            ending = ending and term not in self.actions  # 命上下之辞|异…: a verb, no name
            ending = ending and (
                self.norm[p] not in self.cfg.not_in_inner_definition
                or (  # 宾主人之僚友|既筮…, but not 宰家臣之长|舅既答拜: 舅 opens it
                    any(self.norm.startswith(w, p) for w in self.cfg.openers)
                    and not self.named_word(p - 1)
                )
            )
            if ending and not then and depth == 0 and e - p >= 2:
                out.append([(self._gloss(t, (t[1], p), "A B"), True)])
            word = self.norm[nxt[0] : nxt[1]] if nxt else ""
            if word and self.boundary(p) and self.later(term, word):
                for rest in self._cuts(p, e, then, depth + 1):
                    out.append([(self._gloss(t, (t[1], p), "A B"), False), *rest])
        return out

    def inner_ok(self, t: tuple[int, int], p: int, term: str) -> bool:
        """A definition with no 也 after it: long enough, not cut after a particle."""
        d = self.norm[t[1] : p]
        framed = any(d.startswith(x) and d.endswith(y) for x, y in self.cfg.definition_frames)
        if (any(c in self.cfg.not_in_inner_definition for c in d) and not framed) or (
            d in self.passage
        ):
            return False  # 宾北面|拜者…: the passage's own words go on
        acts = [d[i : i + w] for w in (1, 2) for i in range(len(d))]
        named = "之" in d or any(d.endswith(w) for w in self.cfg.endings)
        if any(
            a in self.actions and a not in term and (a in self.passage or not named) for a in acts
        ):
            return False  # 三耦|递取矢司射反, 宾|还西序东向: acts go on, no noun defining
        return (
            len(d) >= self.cfg.min_inner_definition
            and d[-1] not in self.cfg.not_definition_end
            and self.nominal(d)
            and self.definition_ok(t[1], p, bare=True, term=term)
        )

    def named(self, d: str) -> bool:
        """Does a definition read as a name (虞|丧祭名, not 请|道已道路所当由)? It ends in a
        nominal ending or has 之."""
        return "之" in d or any(d.endswith(w) for w in self.cfg.endings)

    def nominal(self, d: str) -> bool:
        """Does a definition in a run read as a noun phrase defining, not as the passage's
        narrative going on (宾|还西序东向)? It ends in a nominal ending, or has 之, or names
        nothing the passage names (鸿|大雁长颈)."""
        words = (d[i : i + w] for w in (1, 2) for i in range(len(d)))
        return (
            any(d.endswith(w) for w in self.cfg.endings)
            or "之" in d
            or not any(w in self.passage and w in self.lexicon for w in words)
        )

    # -- a gloss closing a longer clause --------------------------------------------------------

    def again(self, prev: Gloss, cs: int, ce: int) -> list[Gloss]:
        """A second definition of the term just glossed, in a clause of its own that reads as
        a name (媵送也|女从者也): it ends in one of ``second_definition_endings``."""
        n = self.norm
        be = ce - 1
        d = n[cs:be]
        if n[be] != "也" or prev.def_end != cs - 1:
            return []
        if not any(d.endswith(w) for w in self.cfg.second_definition_endings):
            return []
        if len(d) < 2 or not self.definition_ok(cs, be, bare=True, term=prev.term):
            return []
        if any(d[:w] in self.passage and d[:w] in self.lexicon and d[w] != "之" for w in (1, 2)):
            return []  # 击杀也|司马司士主杀牲者也: the passage's people (not 介副也|宾之从者也)
        return [self._gloss((prev.term_start, prev.term_end), (cs, be), "A B也")]

    def tail(self, cs: int, ce: int) -> list[Gloss]:
        """A short gloss closing a longer clause with nothing marking where its term starts
        (…在手挟矢指间|挟夹也, …以授三耦|搢插也): every cut of the clause's end into a word
        of the passage and a short definition is scored; one cut, scoring high enough, is
        taken (see ``tail_*`` in commentary.toml)."""
        n = self.norm
        c = self.cfg
        if not self.passage or n[ce - 1] not in c.tail_finals:
            return []
        be = ce - 1
        best: list[tuple[int, Gloss]] = []
        for dl in range(1, c.tail_max_definition + 1):
            for tl in range(1, c.max_term + 1):
                k = be - dl - tl
                if k - cs < c.tail_min_before:
                    continue
                score = self.tail_score(cs, k, k + tl, be)
                if score is not None:
                    best.append((score, self._gloss((k, k + tl), (k + tl, be), "A B也")))
        top = max((s for s, _ in best), default=-1)
        good = [g for s, g in best if s == top]
        if top < c.tail_min_score or len(good) != 1:
            return []  # no cut sure enough, or two as good: no gloss
        return good

    def tail_score(self, cs: int, k: int, j: int, be: int) -> int | None:
        """The score of reading [k, j) as a term and [j, be) as its definition, the clause
        [cs, k) before them; None where a hard condition fails."""
        n = self.norm
        c = self.cfg
        term, d = n[k:j], n[j:be]
        if not self.is_term(k, j) or not _CJK.match(d):
            return None
        if term in c.not_definition_start or any(
            e in c.tail_not_term_types for e in self.types.get(term, ())
        ):
            return None  # 拜敬也, 舅尊也: an act or a person, and what is said of it
        expansion = self.expansion(term, d)
        if len(term) > 1 and (len(d) == 1 or not (expansion and d[-1] == term[-1])):
            return None  # 不拜礼简也, 祭荐祭脯也: a longer term is restated, its head kept
            # (乘矢四矢也); a one-character definition needs a one-character term
        if n[k - 1] in c.tail_not_before or any(
            n[a:j] in self.passage for a in range(max(cs, k - 3), k)
        ):
            return None  # the term is cut out of a longer phrase of the passage (…之|X)
        if self.truncated((k, j)) or not self.boundary(k) or not self.boundary(j):
            return None
        if d in self.passage or d in self.not_terms or d[0] in self.not_terms:
            return None
        if any(ch in c.not_in_inner_definition for ch in d) or d[-1] in c.not_definition_end:
            return None
        if not self.definition_ok(j, be, bare=True, term=term):
            return None
        new = not any(ch in self.passage for ch in d)
        if not (new or expansion):
            return None  # 祭酒也, 算直一矢也: the definition goes on about the passage
        acts = [d[i : i + w] for w in (1, 2) for i in range(len(d))]
        if any(a in self.actions and not self.objects.get(a) for a in acts) and not expansion:
            return None  # 车尚安舒也 …: an act, not a word
        # the term stated nowhere else in the block, but perhaps just used in the clause,
        # not right before it (挟矢指间|挟夹也, but 祭祭酒也, 献工献太师也)
        lo, hi = c.tail_repeat_gap, c.tail_repeat_window
        just = n.find(term, max(cs, k - hi), k - lo - len(term) + 1) if len(d) == 1 else -1
        elsewhere = n.count(term) - 1 - n.count(term, j, be) - (just >= 0)
        score = 0
        if not elsewhere:
            score += c.tail_only_here
        if term in self.lexicon:
            score += c.tail_lexicon
        return score

    def taken_as(self, cs: int, ce: int) -> Iterator[Gloss]:
        """A reported or anonymous view "(以)A为B": the commentator takes A to mean B
        (郑氏谓荐车为进明器之车)."""
        n = self.norm
        s = cs + 1 if n[cs] == self.cfg.taken_as_open else cs
        be = self.body_end(cs, ce)
        k = n.find(self.cfg.taken_as, s, be)
        if k <= s:
            return
        t = self.term_before(s, k)
        be = self.stop(k + 1, be)
        opens = n[k + 1 : k + 2] in self.cfg.not_term_start  # 主人为之具者: "for him"
        if t and t[0] == s and not opens and self.definition_ok(k + 1, be):
            yield self._gloss(t, (k + 1, be), "A为B")

    def _gloss(self, t: tuple[int, int], d: tuple[int, int], pattern: str) -> Gloss:
        n = self.norm
        return Gloss(t[0], t[1], d[0], d[1], n[t[0] : t[1]], n[d[0] : d[1]], pattern)

    def bare(self, cs: int, ce: int, whole: bool = False, alone: bool = False) -> Iterator[Gloss]:
        """``A B也`` and ``A B之名`` (and ``A B者``, a clause closed by 者); ``whole``: the
        clause is the gloss and nothing else (媵送也), a one-character definition will do;
        ``alone``: the clause is closed by 也 or the voice's end, a definition may be long."""
        n = self.norm
        body_end = self.body_end(cs, ce)
        t = self.term_at_start(cs, body_end)
        cut = False  # the term is shortened on purpose: it may be cut out of a phrase
        if t and t[1] - t[0] > 2 and self.negated_who(n[t[0] : t[1]]):
            t, cut = (t[0], t[1] - 1), True  # 无受者|不以轻服受之: A者B of the negated phrase
        if t and n[t[1]] == "之" and t[1] - t[0] > 2:  # 大功布|之用功… : 大功|布之用功粗大者
            shorter = self.term_at_start(cs, body_end, longest=2, cut=False)
            t, cut = (shorter, True) if shorter and shorter[1] == t[1] - 1 else (t, cut)
        if not t or (self.truncated(t) and not cut):
            return
        term = n[t[0] : t[1]]
        body_end = self.stop(t[1], body_end, self.cfg.bare_definition_stops)
        long = whole or alone
        if n[t[1]] == "者":  # A者B也: 者 marks the term, four characters will do (燕养馈羞者)
            yield from self.zhe(t, body_end, long)
            return
        if (
            t[1] - t[0] >= 4
            and term not in self.lexicon
            and not self.restated(term, t[1], body_end)
        ):
            return  # 升自西阶导妇入也: a phrase of the passage explained, not a word glossed
        if n.endswith("之名", t[1], body_end) and self.definition_ok(t[1], body_end):
            yield self._gloss(t, (t[1], body_end), "A B之名")
            return
        if body_end - t[1] == 1 and not whole:
            return
        if n[cs - 1 : cs] == "者" and "者" in n[t[1] : body_end - 1]:
            return  # 序进盥洗谓先者|盥洗后者乃进盥洗: a clause cut at 者 goes on, no gloss
        if self.definition_ok(t[1], body_end, bare=True, term=term, long=long) and not (
            self.goes_on(term, n[t[1] : body_end])
        ):
            yield self._gloss(t, (t[1], body_end), "A B也")

    def restated(self, term: str, d0: int, d1: int) -> bool:
        """Is a four-character phrase of the passage restated as a whole, not explained: the
        definition keeps its words (旬有一日|十一日), paraphrases its negation (不辟子卯|不避忌日)
        or renders it word for word (夙兴夜处|早起夜卧), naming no act of the passage?"""
        d = self.norm[d0:d1]
        same = len(d) == len(term) and not self.passage_acts(term, d)
        return self.expansion(term, d) or self.negated(term, d) or same

    def goes_on(self, term: str, d: str) -> bool:
        """Does a bare definition open with the passage's own act or person, the passage
        going on (刲羊|击豕各用其所宜, 司马|司士主杀牲者), not a noun defining (有司|主人之执事者,
        伯父|天子称同姓大国之辞)?
        Only for a term of two characters or more, not restated (卒|取矢毕, 正|司马正 are
        glosses)."""
        if len(term) < 2 or d[-1] == term[-1] or any(d.endswith(w) for w in self.cfg.endings):
            return False  # …之辞, …之称: a name, whoever it opens with
        if all(ch in d for ch in term):
            return False  # 右之|设几于筵之右: the term restated, not the passage going on
        for w in (2, 1):
            head = d[:w]
            if len(d) <= w or head in term or head not in self.passage:
                continue
            person = "role" in self.types.get(head, ())
            act = head in self.actions and not self.objects.get(head)
            if (act or person) and d[w] != "之":  # 布之用功粗大者: a noun, 之 after it
                return True
        return False

    def zhe(self, t: tuple[int, int], body_end: int, long: bool) -> Iterator[Gloss]:
        """``A者B也``: B defines A, not explains the act (拜宾者拜其来助祭)."""
        n = self.norm
        term, d = n[t[0] : t[1]], n[t[1] + 1 : body_end]
        if d.endswith("者") and body_end < len(n) and n[body_end] not in self.finals:
            return  # 折横覆之者|以折之长者|横于圹上也: the clause goes on past its 者
        banned = self.cfg.not_definition_start_zhe
        negated = any(c in self.cfg.negations for c in term + d[:1])
        if len(term) > 1 and term not in self.lexicon and not set(term) & set(d) and not negated:
            return  # 左何之者|扱领于带: a phrase of the passage is not restated but explained
        if (
            self.definition_ok(t[1] + 1, body_end, term=term, long=long)
            and not self.explains_act(term, d)
            and (
                self.expansion(term, d)
                or self.negated(term, d)
                or d[-1] == term[-1]  # 如觌币者|其数如宾觌之币: the head kept
                or not any(map(d.startswith, banned))
            )
        ):
            yield self._gloss(t, (t[1] + 1, body_end), "A者B也")

    def marked(self, cs: int, ce: int, closed: bool) -> Iterator[Gloss]:
        n = self.norm
        body_end = ce - 1 if n[ce - 1] in self.finals else ce
        for m in self.marker_re.finditer(n[cs:body_end]):
            k, kend, word = cs + m.start(), cs + m.end(), m.group()
            if word in self.cfg.naming:
                yield from self._naming(cs, k, kend, body_end, word)
            elif word in self.cfg.likening:
                t = self.term_before(cs, k)
                if t and closed and self.definition_ok(kend, body_end):
                    yield self._gloss(t, (kend, body_end), f"A{word}B也")
            elif word == self.cfg.identity:
                yield from self._identity(cs, k, kend, body_end, closed)
            elif word == self.cfg.meaning and n[k - 1 : k] not in self.cfg.not_before_wei:
                t = self.term_before(cs, k)
                if not t or (t[0] != cs and n[t[0] : t[1]] not in self.lexicon):
                    continue
                if t[0] != cs and n[body_end - 1] == "之":
                    continue
                term = n[t[0] : t[1]]
                again = n.find(self.cfg.taken_as + term, kend, body_end)  # 二三子谓众宾以下为二三子
                stop = self.stop(kend, body_end)
                if again > kend:
                    if self.definition_ok(kend, again):
                        yield self._gloss(t, (kend, again), "A谓B")
                elif closed and self.definition_ok(kend, stop):
                    yield self._gloss(t, (kend, stop), "A谓B")
                else:
                    w = self._lexicon_word(kend, body_end)
                    if w:
                        yield self._gloss(t, w, "A谓B")

    def named_word(self, i: int) -> bool:
        """Does a lexicon word of the passage end at i?"""
        n = self.norm
        return any(
            n[i - w + 1 : i + 1] in self.lexicon and n[i - w + 1 : i + 1] in self.passage
            for w in (1, 2, 3)
        )

    def _lexicon_word(self, k: int, limit: int, term: str = "") -> tuple[int, int] | None:
        """The lexicon word opening [k, limit); one character will do for an object naming
        an object (筹即算)."""
        for n in range(min(self.cfg.max_lexicon_word, limit - k), 0, -1):
            w = self.norm[k : k + n]
            if w in self.lexicon and (n > 1 or (self.objects.get(w) and self.objects.get(term))):
                return k, k + n
        return None

    def _identity(self, cs: int, k: int, kend: int, body_end: int, closed: bool) -> Iterator[Gloss]:
        n = self.norm
        nxt = n[kend : kend + 1]
        inside = self.passage and self.cfg.identity + nxt in self.passage  # 即席 of the passage
        if not nxt or nxt in self.cfg.ji_verbs or inside:
            return
        t = self.term_before(cs, k)
        if not t or (t[0] != cs and n[t[0] : t[1]] not in self.lexicon):
            return
        if any(c in n[cs:k] for c in self.cfg.ji_as_then):  # 若无玄裳即用黄裳: "then"
            return
        if closed and n[body_end - 1] != "之" and self.definition_ok(kend, body_end):
            yield self._gloss(t, (kend, body_end), "A即B")  # not 即束之: "at once", a verb
        elif w := self._lexicon_word(kend, body_end, n[t[0] : t[1]]):
            yield self._gloss(t, w, "A即B")

    def parallel(self, d0: int, k: int, after: int, limit: int) -> int:
        """In a list of names (一辞曰礼再辞曰固, 凡服上曰衰下曰裳) a definition is as long as
        the next one when their last characters match or are opposites (辞/辞, 上/下): the
        words before it are the topic (辞有三|一辞, 服|上)."""
        n = self.norm
        m = n.find("曰", after, min(limit, after + self.cfg.parallel_max + 1))
        nxt = n[after:m] if m > after else ""
        if not nxt or len(nxt) >= k - d0 or any(c in self.finals for c in nxt):
            return d0
        mine = n[k - len(nxt) : k]
        pairs = {a + b for a, b in self.cfg.parallel_pairs}
        if mine[-1] == nxt[-1] or mine[-1] + nxt[-1] in pairs or nxt[-1] + mine[-1] in pairs:
            return k - len(nxt)
        return d0

    def _naming(self, cs: int, k: int, kend: int, body_end: int, word: str) -> Iterator[Gloss]:
        """``B曰A`` / ``B谓之A`` / ``B之谓A``: the definition comes first."""
        n = self.norm
        if k == cs or n[k - 1] in self.cfg.not_before_naming:
            return
        t = self.term_after(kend, body_end)
        if not t:
            return
        # the definition: from the clause start, a doubled character (贯弁弁之缨), or the
        # word after an earlier 曰 / 云 in the clause (尔雅曰笙小者谓之和, 一辞曰礼再辞曰固)
        d0 = cs
        for i in range(k - 2, cs - 1, -1):
            if n[i] in self.cfg.named_definition_after:  # 诸侯则|去玄黄曰三正
                d0 = i + 1
                break
            if n[i] == n[i + 1]:
                d0 = i + 1
                break
            if n[i] in self.cfg.citing:
                rules = load_rules()
                cited = any(n.endswith(w, cs, i) for w in (*rules.works, *rules.names))
                t0 = None if cited else self.term_after(i + 1, k)
                d0 = t0[1] if t0 and n[i] == "曰" and t0[1] < k else i + 1
                break
        if n[d0] == "凡":
            d0 += 1
        d0 = self.parallel(d0, k, t[1], body_end)
        if k - d0 > self.cfg.max_named_definition and self.passage:
            # 西面坐|矢干曰笴: the definition starts after the passage's last word
            i = next((i for i in range(k - 2, d0, -1) if self.named_word(i)), d0)
            d = n[i + 1 : k]
            acts = (d[j : j + w] for w in (1, 2) for j in range(len(d)))
            if (
                len(d) >= 2
                and d[0] not in self.not_terms
                and not any(c in self.cfg.not_in_inner_definition for c in d)
                and not any(a in self.actions for a in acts)
            ):
                d0 = i + 1
        rules = load_rules()
        if any(n.endswith(w, d0, k) for w in (*rules.works, *rules.names)):
            return
        if self.definition_ok(d0, k) and k - d0 <= self.cfg.max_named_definition:
            pattern = f"B{word}A"
            yield self._gloss(t, (d0, k), pattern)
            for w in self.cfg.also_named:  # 八尺曰仞亦曰寻
                if n.startswith(w, t[1]) and (t2 := self.term_after(t[1] + len(w), body_end)):
                    yield self._gloss(t2, (d0, k), pattern)


def find_glosses(text: str, voices: list[Voice] | None = None, passage: str = "") -> list[Gloss]:
    """Glosses in a block's text, each with the index of the voice that states it."""
    norm = normalize(text)
    passage = normalize(passage)
    voices = voices if voices is not None else split_voices(text)
    reader = _Reader(norm, passage)
    out: list[Gloss] = []
    for i, v in enumerate(voices):
        start = v.view[0] if v.view else v.body_start
        end = v.view[1] if v.view else v.end
        view = v.kind in ("report", "anonymous")
        quote = v.kind == "quote" and i + 1 < len(voices)
        for g in reader.glosses(start, end, view=view, quote=quote):
            out.append(replace(g, voice=i))
    return out
