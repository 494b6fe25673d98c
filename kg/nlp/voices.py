"""Split one 【…】 block into voices: who says which stretch of it.

- ``X曰`` with X any name the commentator vocabulary knows starts a quoted voice; so does
  ``X曰`` with a name it does not know (a surname and two characters, where a voice may
  start: 张炅生曰), marked ``name`` so that the caller can mint and report it; a name that
  fails that test in one block but opens many across the book is given by the caller
  (``names``, from kg.nlp.new_voices's census) and taken like the vocabulary's;
- ``按`` / ``愚按`` at the start of a part or after a sentence-final particle, and ``愚谓`` /
  ``愚则`` … anywhere, are the author's own note;
- ``旧说`` / ``或云`` / ``一说`` … an anonymous earlier view, which ends at its first full
  clause (or before 然 "however");
- in the author's own text, ``敖君善谓 …``, ``郑氏以 … 为 …``, ``郑注 …`` are the author
  *reporting* a view: a voice of kind ``report`` (speaker: the author; ``reports``: whose
  view), which ends at its first full clause, a judgement on it (… 是也) included;
- ``○`` and spaces separate parts: after one, unattributed text is the author's again, as is
  a closing ``此X也`` summary. Text before any attribution is the author's.

All offsets are in the block's text (normalization keeps one character for one).

>>> [(v.speaker, v.kind) for v in split_voices("比合也 郝仲舆曰射二人为耦 此比耦也")]
[('caidejin', 'author'), ('haojing', 'quote'), ('caidejin', 'author')]
>>> v = split_voices("上某主人名敖君善谓冠礼三加惟云缁布冠者谦也吾子相亲之辞")[1]
>>> v.kind, v.reports
('report', 'aojigong')
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from pypinyin import lazy_pinyin

from kg.nlp.commentary_rules import (
    ANONYMOUS,
    AUTHOR,
    Rules,
    SummaryWords,
    load_rules,
    with_names,
)
from kg.nlp.lexicon import load_lexicon
from kg.nlp.phrases import view_end
from kg.text.normalize import normalize

__all__ = [
    "ANONYMOUS",
    "AUTHOR",
    "ReportMarker",
    "StepLabel",
    "Voice",
    "at_boundary",
    "find_reports",
    "person_slug",
    "split_voices",
    "step_labels",
]


@dataclass(frozen=True)
class Voice:
    start: int  # offsets in the block's text
    end: int
    speaker: str  # commentator slug
    kind: str  # author | note (按) | quote (X曰) | anonymous (旧说 …) | report (X谓 …)
    marker: tuple[int, int] | None = None  # the attribution words (郝仲舆曰, 愚按, 敖君善谓)
    reports: str | None = None  # report: the commentator whose view the author reports
    view: tuple[int, int] | None = None  # report: the reported words
    name: str | None = None  # a quoted speaker the vocabulary lacks: his name as written

    @property
    def body_start(self) -> int:
        return self.marker[1] if self.marker else self.start


@dataclass(frozen=True)
class _Cut:
    start: int
    marker_end: int
    speaker: str
    kind: str
    name: str | None = None
    short: bool = False  # a view that ends at its first full clause (anonymous)


def person_slug(name: str) -> str:
    """IRI slug for a person the vocabulary lacks: toneless pinyin of the name.

    >>> person_slug("张炅生")
    'zhangjiongsheng'
    """
    return re.sub(r"[^a-z0-9]", "", "".join(lazy_pinyin(normalize(name))).lower())


@lru_cache(maxsize=1)
def _lexicon_forms() -> frozenset[str]:

    return frozenset(load_lexicon().entries)


def _titled(name: str, rules: Rules) -> bool:
    """A book's title or a figure of the classics rather than a commentator (公羊传, 孟献子):
    [census] not_name_end after a two-character given name, or [census] not_names."""
    c = rules.patterns.census
    return name in c.not_names or (len(name) > 2 and name[-1] in c.not_name_end)


def split_voices(text: str, names: Mapping[str, str] | None = None) -> list[Voice]:
    """Voices of one commentary block, in order, covering its text but for separators.

    ``names``: speakers the vocabulary lacks that a census of the book found (name → slug,
    kg.nlp.new_voices), quoted and reported like the vocabulary's; their voices carry
    ``name`` so that the caller mints them."""
    norm = normalize(text)
    rules = with_names(frozenset(names.items())) if names else load_rules()
    pieces: list[Voice] = []
    pos = 0
    seps = re.compile(f"[{re.escape(rules.separators)}\\s]+")
    for sep in [*seps.finditer(norm), None]:
        stop = sep.start() if sep else len(norm)
        if stop > pos:
            pieces.extend(_part(norm, pos, stop, rules))
        if sep is None:
            break
        pos = sep.end()
    voices = _merge(_summaries(pieces, norm, rules))
    return _reports(voices, norm, rules)


def at_boundary(norm: str, i: int, start: int, rules: Rules, after: str) -> bool:
    """May a voice start at i: the part's start, or after a final (or one of ``after``)."""
    return i == start or norm[i - 1] in rules.finals or norm[i - 1] in after


def _cuts(norm: str, start: int, end: int, rules: Rules) -> list[_Cut]:
    v = rules.patterns.voices
    cuts: list[_Cut] = []
    for m in rules.quote_re.finditer(norm, start, end):
        name = m.group()[: -len(v.quote_verb)]  # 郝仲舆曰 → 郝仲舆
        new = name if name in rules.new_names else None
        cuts.append(_Cut(m.start(), m.end(), rules.names[name], "quote", name=new))
    for m in rules.unknown_re.finditer(norm, start, end):
        name = m.group("name")
        if (
            at_boundary(norm, m.start(), start, rules, rules.patterns.unknown.after)
            and name not in rules.names
            and name not in rules.works
            and name not in _lexicon_forms()
            and not _titled(name, rules)
        ):
            cuts.append(_Cut(m.start(), m.end(), person_slug(name), "quote", name=name))
    if m := rules.note_re.match(norm, start, end):
        anon = rules.anon_re.match(norm, m.end(), end)
        if anon:  # 按旧说 …: the note opens with the old view
            cuts.append(_Cut(m.start(), anon.end(), ANONYMOUS, "anonymous", short=True))
        else:
            cuts.append(_Cut(m.start(), m.end(), AUTHOR, "note"))
    for m in rules.note_re.finditer(norm, start + 1, end):
        before = norm[m.start() - 1]
        # 按 is the author's attribution: it ends a quote with or without a final before it
        # (not after 曰: 杨信斋曰按 … is the quoted scholar's note), 案 alone only after a final
        # (几案 is a table)
        anywhere = m.group() not in v.note_after_final and before not in v.note_not_after
        if before in rules.finals or anywhere:
            cuts.append(_Cut(m.start(), m.end(), AUTHOR, "note"))
    for m in rules.resume_re.finditer(norm, start, end):
        cuts.append(_Cut(m.start(), m.end(), AUTHOR, "note"))
    anywhere = set(v.anonymous_anywhere)
    for m in rules.anon_re.finditer(norm, start, end):
        if m.group() in anywhere or at_boundary(norm, m.start(), start, rules, v.anonymous_after):
            cuts.append(_Cut(m.start(), m.end(), ANONYMOUS, "anonymous", short=True))
    # one cut per start: the one with the longest marker; none inside another's marker
    cuts.sort(key=lambda c: (c.start, -c.marker_end))
    kept: list[_Cut] = []
    for c in cuts:
        if kept and c.start < kept[-1].marker_end:
            continue
        kept.append(c)
    return kept


def _part(norm: str, start: int, end: int, rules: Rules) -> Iterator[Voice]:
    """Voices inside one separator-delimited part."""
    cuts = _cuts(norm, start, end, rules)
    pos = start
    for i, c in enumerate(cuts):
        if c.start < pos:
            continue
        if c.start > pos:
            yield Voice(pos, c.start, AUTHOR, "author")
        stop = cuts[i + 1].start if i + 1 < len(cuts) else end
        if c.short:
            stop = view_end(norm, c.marker_end, stop, rules)[0]
        yield Voice(c.start, stop, c.speaker, c.kind, (c.start, c.marker_end), name=c.name)
        pos = stop
    if pos < end:
        yield Voice(pos, end, AUTHOR, "author")


def _summary_re(s: SummaryWords, lazy: bool) -> re.Pattern[str]:
    """此X也, X a label of min to max characters (the shortest with ``lazy``)."""
    label = f"[^{re.escape(s.not_in_label)}\\W]{{{s.min},{s.max}}}" + ("?" if lazy else "")
    return re.compile(f"{re.escape(s.opens)}({label}){re.escape(s.closes)}")


def summary_at(norm: str, start: int, end: int, rules: Rules | None = None) -> re.Match | None:
    """A 此X也 summary ending exactly at ``end`` (X a step label, not a remark)."""
    rules = rules or load_rules()
    s = rules.patterns.summary
    pat = _summary_re(s, lazy=False)
    for m in pat.finditer(norm, start, end):
        opens = m.start() == start or norm[m.start() - 1] not in s.not_after
        if m.end() == end and opens and m.group(1).count(s.repeated) <= s.max_repeated:
            return m
    return None


def _summaries(voices: list[Voice], norm: str, rules: Rules) -> list[Voice]:
    """A quoted voice ending in 此X也 hands the summary back to the author."""
    out: list[Voice] = []
    for v in voices:
        m = summary_at(norm, v.body_start, v.end, rules) if v.kind != "author" else None
        if m and m.start() > v.body_start:
            out.append(Voice(v.start, m.start(), v.speaker, v.kind, v.marker, name=v.name))
            out.append(Voice(m.start(), v.end, AUTHOR, "author"))
        else:
            out.append(v)
    return out


def _merge(voices: list[Voice]) -> list[Voice]:
    """Adjacent unattributed parts of the author are one voice: a note (按 …) runs on over
    the author's parts after it, separators and all, to the next attributed voice."""
    out: list[Voice] = []
    for v in voices:
        prev = out[-1] if out else None
        if prev and v.kind == "author" and prev.kind in ("author", "note") and prev.end <= v.start:
            out[-1] = Voice(prev.start, v.end, AUTHOR, prev.kind, prev.marker)
        else:
            out.append(v)
    return out


class ReportMarker(NamedTuple):
    """敖君善谓, 郑注: whose view the author reports, and the words that say so."""

    slug: str  # the commentator reported
    start: int
    end: int


class StepLabel(NamedTuple):
    voice: int  # index of the author's voice that states it
    label: str  # 此比耦也 → 比耦
    start: int
    end: int


def find_reports(
    norm: str, start: int, end: int, rules: Rules | None = None
) -> Iterator[ReportMarker]:
    """Every reported view between start and end: a name with a reporting verb (敖君善谓),
    or a work that stands for its author (郑注)."""
    rules = rules or load_rules()
    authors = rules.patterns.reports.work_authors
    for m in rules.report_re.finditer(norm, start, end):
        if m.group("name"):
            yield ReportMarker(rules.names[m.group("name")], m.start(), m.end())
        else:
            slug = authors.get(rules.works.get(m.group("work"), ""))
            if slug:
                yield ReportMarker(slug, m.start(), m.end())


def _reports(voices: list[Voice], norm: str, rules: Rules) -> list[Voice]:
    """Cut the author's reports of others' views out of his own voices."""
    out: list[Voice] = []
    for v in voices:
        if v.kind not in ("author", "note"):
            out.append(v)
            continue
        pos = v.start
        cur_marker = v.marker
        kind = v.kind
        markers = list(find_reports(norm, v.body_start, v.end, rules))
        for k, (slug, a, b) in enumerate(markers):
            if a < pos:
                continue
            # a view ends where the next reported one begins (郑氏谓 … 敖氏则以为 …), and
            # at the end of its part (○)
            limit = next((m.start for m in markers[k + 1 :] if m.start >= b), v.end)
            limit = _part_end(norm, b, limit, rules)
            view_stop, stop = view_end(norm, b, limit, rules, verdict=True)
            before = a
            while before > pos and _is_separator(norm[before - 1], rules):
                before -= 1
            if before > pos:
                out.append(Voice(pos, before, AUTHOR, kind, cur_marker))
            out.append(Voice(a, stop, AUTHOR, "report", (a, b), reports=slug, view=(b, view_stop)))
            pos, cur_marker, kind = _skip_separators(norm, stop, v.end, rules), None, "author"
            # a note may open right after the verdict on the view (… 得之又按 …)
            if note := rules.note_re.match(norm, pos, v.end):
                cur_marker, kind = (note.start(), note.end()), "note"
        if pos < v.end:
            out.append(Voice(pos, v.end, AUTHOR, kind, cur_marker))
    return _merge(out)


def _part_end(norm: str, start: int, end: int, rules: Rules) -> int:
    """The first separator (○, a space) between start and end, or end."""
    return next((i for i in range(start, end) if _is_separator(norm[i], rules)), end)


def _skip_separators(norm: str, start: int, end: int, rules: Rules) -> int:
    """Past the separators at ``start``: the next voice begins after them."""
    while start < end and _is_separator(norm[start], rules):
        start += 1
    return start


def _is_separator(ch: str, rules: Rules) -> bool:
    return ch in rules.separators or ch.isspace()


def step_labels(text: str, voices: list[Voice]) -> list[StepLabel]:
    """The label of each 此X也 that opens a clause of the author's
    own voice and names a sub-step (此比耦也 → 比耦).

    >>> text = "比合也 此比三耦也"
    >>> [s.label for s in step_labels(text, split_voices(text))]
    ['比三耦']
    """
    norm = normalize(text)
    rules = load_rules()
    s = rules.patterns.summary
    pat = _summary_re(s, lazy=True)
    out: list[StepLabel] = []
    for i, v in enumerate(voices):
        if v.kind not in ("author", "note"):
            continue
        for m in pat.finditer(norm, v.body_start, v.end):
            a = m.start()
            opens = a == v.body_start or norm[a - 1] in rules.finals + rules.separators
            if opens and m.group(1).count(s.repeated) <= s.max_repeated:
                out.append(StepLabel(i, m.group(1), a, m.end()))
    return out
