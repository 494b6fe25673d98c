"""The rules for reading a commentary block, from ``patterns/commentary.toml`` and the
commentator and work vocabularies: data, loaded once.

>>> r = load_rules()
>>> r.names["郑康成"], r.names["敖君善"]
('zhengxuan', 'aojigong')
>>> r.works["说文"]
'shuowenjiezi'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from kg.nlp.wordlists import alternation, from_table, read_toml
from kg.text.vocab import load_concepts
from kg.text.work import load_work

PATTERNS = Path(__file__).parent / "patterns"
AUTHOR = load_work().author.slug  # the book's author speaks where no one else is named
ANONYMOUS = "anonymous"


Words = tuple[str, ...]


@dataclass(frozen=True)
class VoiceWords:
    """[voices]: who speaks which stretch of a block."""

    separators: str  # separate the parts of a block
    finals: str  # sentence-final particles
    note: Words  # 按 …: the author's own note
    note_after_final: Words  # … of which these start one only after a final (案)
    note_not_after: str  # … and the others anywhere but after these (杨信斋曰按: his note)
    author_resumes: Words  # 愚谓 …: the author takes the floor back
    anonymous: Words  # 旧说 …: an anonymous earlier view
    anonymous_anywhere: Words
    anonymous_after: str
    view_ends: Words  # a view ends before these (然) …
    view_ends_unless: Words  # … unless they begin these (然则)
    parallel_mark: str  # a view of parallel clauses marked so runs over them all (者)
    quote_verb: str  # 曰
    not_names: Words  # 曰 after these is no person speaking


@dataclass(frozen=True)
class ReportWords:
    """[reports]: the author reporting another's view (敖君善谓 …, 郑注 …)."""

    verbs: Words
    verb_leads: Words  # 则 / 亦 / 又 / 乃 before any of the verbs (敖氏则读 …)
    work_authors: dict[str, str]  # work slug → commentator slug
    verdict_leads: Words  # 今从之, 其义亦通: words a verdict on a reported view may open with
    verdict_within: int  # the clauses after the view's first in which its verdict may come


@dataclass(frozen=True)
class UnknownNames:
    """[unknown]: X曰 with a name the vocabulary lacks."""

    surnames: str
    not_in_name: str
    after: str  # besides a part's start and a final, a voice may start after these


@dataclass(frozen=True)
class CensusWords:
    """[census]: new voices found by how often a name opens one (kg/nlp/new_voices.py)."""

    verbs: Words  # 曰 云 谓
    compound_surnames: Words
    min_blocks: int  # different voices a name must open
    not_in_name: str
    not_given_start: str
    not_name_end: str
    not_prefix_types: Words
    not_names: Words


@dataclass(frozen=True)
class SummaryWords:
    """[summary]: 此X也 naming a sub-step."""

    opens: str  # 此
    closes: str  # 也
    repeated: str
    max_repeated: int
    not_in_label: str
    not_after: str
    min: int
    max: int


@dataclass(frozen=True)
class JudgementWords:
    """[judgements]: explicit wording of accepting or rejecting a view."""

    disputes: Words
    error: str  # 误: about a character after not_before_dispute
    not_before_dispute: str
    endorses: Words
    weak: Words  # count only after a reported or quoted view
    view_suffix: str  # 敖说
    named_gap: int
    named_gap_not: str
    follow: Words  # 当从郑说
    follow_name: int
    leads: Words  # may stand before the judgement (此说未是)
    short_names: dict[str, str]  # 郑说 → zhengxuan


@dataclass(frozen=True)
class CitationWords:
    """[citations]: a work's name and a citing word."""

    verbs: Words
    closers: Words
    max_quote: int


@dataclass(frozen=True)
class GlossWords:
    """[glosses]: which words are glossed, and how (what each key means: commentary.toml)."""

    not_term_start: str
    not_before_wei: Words
    ji_as_then: str
    not_before_naming: str
    max_term: int
    max_definition: int
    max_definition_bare: int
    classifiers: Words
    whole_classifiers: Words
    classifier_types: Words
    not_definition_start: Words
    not_definition_start_zhe: Words
    not_in_definition: Words
    not_after_definition_start: Words
    not_in_definition_clause: Words
    definition_frames: tuple[tuple[str, str], ...]
    expansion_min_term: int
    expansion_not_start: str
    not_definition_final: str
    max_run: int
    min_inner_definition: int
    not_definition_end: str
    not_in_inner_definition: str
    endings: Words
    openers: Words
    definition_stops: Words
    bare_definition_stops: Words
    named_definition_after: str
    parallel_max: int
    parallel_pairs: tuple[tuple[str, str], ...]
    also_named: Words
    second_definition_endings: Words
    tail_finals: str
    tail_max_definition: int
    tail_min_before: int
    tail_not_before: str
    tail_not_term_types: Words
    tail_repeat_window: int
    tail_repeat_gap: int
    tail_only_here: int
    tail_lexicon: int
    tail_min_score: int
    not_term_end: str
    phrase_term_start: str
    phrase_term_inner: str
    phrase_long_min: int
    phrase_long_inner: str
    head_after: str
    negations: str
    negated_definition_start: Words
    max_definition_long: int
    long_definition_endings: Words
    not_in_long_definition: Words
    purpose: str
    how_frames: tuple[tuple[str, str], ...]
    long_clause_word: str
    act_restated_before: str
    fragment_zhe: str
    statement_min: int
    final_not_before: str
    not_terms: Words
    naming: Words  # B曰A, B谓之A, B之谓A
    likening: Words  # A犹B也, A犹言B, A之言B
    identity: str  # A即B
    meaning: str  # A谓B
    citing: str  # 曰 / 云 after a work's name
    max_named_term: int
    max_named_definition: int
    max_lexicon_word: int
    taken_as: str  # A为B
    taken_as_open: str
    not_taken_after: str  # a view after these reads a character, it glosses none (读A为B)
    ji_verbs: str


@dataclass(frozen=True)
class AlignedReading:
    """[aligned]: A当作B, A words of the passage."""

    max_reading: int
    not_single: str


@dataclass(frozen=True)
class TextualPattern:
    """[[textual]]: one regex for a statement about the wording (校勘)."""

    kind: str  # edition-error | variant | emendation | interpolation
    regex: str
    aligned: bool = False  # A当作B: the reading is aligned with the passage


@dataclass(frozen=True)
class CommentaryPatterns:
    """The whole of ``patterns/commentary.toml``."""

    voices: VoiceWords
    reports: ReportWords
    unknown: UnknownNames
    census: CensusWords
    summary: SummaryWords
    judgements: JudgementWords
    citations: CitationWords
    glosses: GlossWords
    aligned: AlignedReading
    textual: tuple[TextualPattern, ...]


@dataclass(frozen=True)
class Rules:
    patterns: CommentaryPatterns
    names: dict[str, str]  # every form of a commentator's name (≥ 2 chars) → slug
    labels: dict[str, str]  # slug → preferred label
    works: dict[str, str]  # every form of a cited work → slug
    work_labels: dict[str, str]
    quote_re: re.Pattern[str]  # 郝仲舆曰
    report_re: re.Pattern[str]  # 敖君善谓, 郑氏以, 郑注
    unknown_re: re.Pattern[str]  # 张炅生曰
    note_re: re.Pattern[str]
    resume_re: re.Pattern[str]
    anon_re: re.Pattern[str]
    new_names: frozenset[str] = frozenset()  # names of ``names`` found by the census

    @property
    def separators(self) -> str:
        return self.patterns.voices.separators

    @property
    def finals(self) -> str:
        return self.patterns.voices.finals


@lru_cache(maxsize=2)
def load_rules(path: Path | None = None) -> Rules:
    path = path or PATTERNS / "commentary.toml"
    patterns = from_table(CommentaryPatterns, read_toml(path), path, "")
    people = load_concepts("commentators.ttl")
    names: dict[str, str] = {}
    for c in people.values():
        if c.slug == ANONYMOUS:
            continue
        for form in c.forms:
            if len(form) >= 2:
                names[form] = c.slug
    labels = {c.slug: c.pref for c in people.values()}
    works: dict[str, str] = {}
    work_labels: dict[str, str] = {}
    for c in load_concepts("works.ttl").values():
        work_labels[c.slug] = c.pref
        for form in c.forms:
            works[form] = c.slug
    voices, unknown = patterns.voices, patterns.unknown
    verb = re.escape(voices.quote_verb)
    quote_re, report_re = _name_patterns(patterns, names, works)
    banned = re.escape(unknown.not_in_name)
    unknown_re = re.compile(
        f"(?<![{re.escape(''.join(voices.not_names))}])"
        f"(?P<name>[{unknown.surnames}](?:[^{banned}\\W\\d]{{2}}|子)){verb}"
    )
    return Rules(
        patterns=patterns,
        names=names,
        labels=labels,
        works=works,
        work_labels=work_labels,
        quote_re=quote_re,
        report_re=report_re,
        unknown_re=unknown_re,
        note_re=re.compile(alternation(voices.note)),
        resume_re=re.compile(alternation(voices.author_resumes)),
        anon_re=re.compile(alternation(voices.anonymous)),
    )


def _name_patterns(
    patterns: CommentaryPatterns, names: dict[str, str], works: dict[str, str]
) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The quote (郝仲舆曰) and report (敖君善谓, 郑注) patterns for these names."""
    reports = patterns.reports
    quote_re = re.compile(f"(?:{alternation(names)}){re.escape(patterns.voices.quote_verb)}")
    via_work = {f for f, slug in works.items() if slug in reports.work_authors and len(f) >= 2}
    report_re = re.compile(
        f"(?P<name>{alternation(names)})"
        f"(?P<verb>(?:{alternation(reports.verb_leads)})?(?:{alternation(reports.verbs)}))"
        f"|(?P<work>{alternation(via_work)})"
    )
    return quote_re, report_re


@lru_cache(maxsize=8)
def with_names(extra: frozenset[tuple[str, str]]) -> Rules:
    """The rules that also know ``extra`` (name, slug): the voices a census of the book
    found, quoted (X曰) and reported (X谓) like any name of the vocabulary."""
    rules = load_rules()
    if not extra:
        return rules
    names = {**rules.names, **dict(extra)}
    quote_re, report_re = _name_patterns(rules.patterns, names, rules.works)
    new = rules.new_names | {name for name, _ in extra}
    return replace(rules, names=names, quote_re=quote_re, report_re=report_re, new_names=new)
