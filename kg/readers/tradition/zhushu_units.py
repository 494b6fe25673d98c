"""The units of one chapter of 儀禮注疏: 经文 passages and the 注 / 音義 / 疏 printed under them.

Works on a ``Stream`` (kg/readers/tradition/layout.py) in stream indices and yields drafts
(``Draft``, ``DraftBlock``) that ``zhushu.py`` turns into the document model. The print's
rules (README of the sample): the 经文 runs in large characters until a ``注`` inside the run;
the 注 runs on until the next ``○``, ``音義(…)`` or ``疏(…)``; the 疏 is all the small print
after its label; after small print or ``○`` the next large characters are 经文 again (unless
they open with ``注``, the note of the same 经文 after its 音義). Where a 注 runs on into the
next 经文 unmarked, ``boundary.Splitter`` finds the split (``split_notes``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.readers.tradition.boundary import CharModel, Splitter
from kg.readers.tradition.layout import Stream
from kg.text.document import Seg

Range = tuple[int, int]


@dataclass
class DraftBlock:
    kind: str
    body: Range
    label: Range | None = None
    comments_on: int | None = None


@dataclass
class Draft:
    body: Range
    blocks: list[DraftBlock] = field(default_factory=list)
    record: bool = False
    heading: Range | None = None  # the 記 that opens the chapter's 记
    holes: list[Range] = field(default_factory=list)  # small print inside the 经文
    group_start: bool = False  # first passage after a 疏: a 疏's 自此 may mean this one
    section: tuple[str, str, str, Range] | None = None  # (title, covers, end, span) of 自此…
    witnessed: bool = False  # another witness of the classic confirmed where this 经文 ends


@dataclass
class Conventions:
    zhu: str
    yinyi: tuple[str, ...]
    shu: tuple[str, ...]
    separator: str
    shu_parts: re.Pattern[str]  # (?P<zhu>…)|(?P<classic>…)
    record: tuple[str, ...]
    section: re.Pattern[str]
    title_endings: tuple[tuple[str, ...], ...]
    max_title: int
    stop: str

    def title(self, text: str, a: int, b: int) -> str:
        """The 論… phrase at ``a``: to the first ending of the first group found in reach."""
        reach = text[a : min(b, a + self.max_title)]
        for group in self.title_endings:
            ends = [k + len(e) for e in group if (k := reach.find(e, 1)) > 0]
            if ends:
                return reach[: min(ends)]
        cut = [k for k in (reach.find(c) for c in self.stop) if k > 1]
        return reach[: min(cut)] if cut else reach


@dataclass
class Units:
    """Reads one chapter's stream into drafts; ``claims`` are stream ranges with their kind."""

    s: Stream
    conv: Conventions
    passages: list[Draft] = field(default_factory=list)
    preface: list[DraftBlock] = field(default_factory=list)
    claims: list[tuple[int, int, Seg]] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (stream index, message)
    mode: str = "start"  # start | classic | zhu | small | sep
    group: bool = True
    in_record: bool = False

    def run(self) -> Units:
        s, n, i = self.s, len(self.s.text), 0
        while i < n:
            if s.small[i]:
                j = i
                while j < n and s.small[j]:
                    j += 1
                self.small(i, j, None)
                i = j
                continue
            j = i
            while j < n and not s.small[j]:
                j += 1
            label = self._small_label(i, j) if j < n else None
            self.big(i, j if label is None else label[1])
            if label is not None:
                k = j
                while k < n and s.small[k]:
                    k += 1
                self.claims.append((label[1], j, Seg.COMMENTARY))
                self.small(j, k, label[0])
                i = k
            else:
                i = j
        return self

    def _small_label(self, i: int, j: int) -> tuple[str, int] | None:
        """``音義`` or ``疏`` ending the large run just before small print: (kind, start).
        Small print opening 釋曰 is a 疏 whatever label the print gives it (``注(釋曰…``)."""
        text, conv = self.s.text, self.conv
        labels = [("yinyi", w) for w in conv.yinyi] + [("shu", w) for w in conv.shu]
        for kind, label in labels:
            if j - i >= len(label) and text.startswith(label, j - len(label)):
                return kind, j - len(label)
        if conv.shu_parts.match(text, j) and text.startswith(conv.zhu, j - len(conv.zhu)):
            self.problems.append(
                (j - 1, f"small print opening 釋曰 after {conv.zhu!r}: read as 疏")
            )
            return "shu", j - len(conv.zhu)
        return None

    # -- large characters ---------------------------------------------------------------------

    def big(self, i: int, j: int) -> None:
        sep, text = self.conv.separator, self.s.text
        a = i
        while a < j:
            b = text.find(sep, a, j)
            if b < 0:
                self.large(a, j)
                return
            self.large(a, b)
            self.mode = "sep"
            a = b + len(sep)

    def large(self, a: int, b: int) -> None:
        text, zhu = self.s.text, self.conv.zhu
        while a < b and text[a].isspace():  # a blank between units is layout
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a >= b:
            return
        if self.mode == "zhu":
            self._extend_note(b)
            return
        if self.mode == "small" and text.startswith(zhu, a) and self.passages:
            self._note(a, b)  # the 注 of the same 经文, after its 音義
            return
        if self.mode != "classic":
            a = self._new_passage(a, b)
            if a >= b:
                return
        m = text.find(zhu, a, b)
        p = self.passages[-1]
        p.body = (p.body[0], b if m < 0 else m)
        if m >= 0:
            self._note(m, b)
        else:
            self.mode = "classic"

    def _new_passage(self, a: int, b: int) -> int:
        """A 经文 passage begins at ``a`` (after its 記 heading if it opens the 记)."""
        text = self.s.text
        heading = None
        for word in self.conv.record:
            opens = a in self.s.line_starts or self.mode == "sep"
            if opens and text.startswith(word, a) and not self.in_record and self.passages:
                heading, self.in_record = (a, a + len(word)), True
                if a + len(word) < b and not text.startswith(self.conv.zhu, a + len(word)):
                    a += len(word)
                break
        self.passages.append(Draft((a, a), record=self.in_record, group_start=self.group))
        self.passages[-1].heading = heading if heading and heading[1] <= a else None
        self.group = False
        self.mode = "classic"
        return a

    def _note(self, m: int, b: int) -> None:
        zhu = self.conv.zhu
        block = DraftBlock("zhu", (m + len(zhu), b), label=(m, m + len(zhu)))
        self.passages[-1].blocks.append(block)
        self.mode = "zhu"

    def _extend_note(self, b: int) -> None:
        block = self.passages[-1].blocks[-1]
        block.body = (block.body[0], b)

    # -- small print ---------------------------------------------------------------------------

    def small(self, i: int, j: int, kind: str | None) -> None:
        target = self.passages[-1].blocks if self.passages else self.preface
        if kind is None and self.mode == "classic":
            # a reading gloss inside the 经文 (``與升射者(目木)左交…``): the 经文 goes on
            target.append(DraftBlock("reading", (i, j)))
            self.passages[-1].holes.append((i, j))
            return
        if kind == "shu":
            self._shu(i, j, target)
            self.group = True
        else:
            label = (self._label_start(i), i) if kind == "yinyi" else None
            target.append(DraftBlock(kind or "reading", (i, j), label=label))
        self.mode = "small"

    def _label_start(self, i: int) -> int:
        words = [w for w in self.conv.yinyi if self.s.text.startswith(w, i - len(w))]
        return i - len(words[0]) if words else i

    def _shu(self, i: int, j: int, target: list[DraftBlock]) -> None:
        text = self.s.text
        marks = list(self.conv.shu_parts.finditer(text, i, j))
        starts = [(m.start(), m.end(), "shu-zhu" if m.group("zhu") else "shu") for m in marks]
        if not starts or starts[0][0] > i:
            starts.insert(0, (i, i, "shu"))  # 疏 text before any 釋曰
        zhu = next((k for k in range(len(target) - 1, -1, -1) if target[k].kind == "zhu"), None)
        for (a, e, kind), nxt in zip(starts, [*starts[1:], (j, j, "")], strict=True):
            block = DraftBlock(kind, (e, nxt[0]), label=(a, e) if e > a else None)
            if kind == "shu-zhu":
                block.comments_on = zhu
            target.append(block)
            self._section(block)

    def _section(self, block: DraftBlock) -> None:
        """自此至X一節論Y opening a 疏 part: kept on the passage the 疏 is printed under."""
        m = self.conv.section.match(self.s.text, block.body[0], block.body[1])
        if m is None or not self.passages or self.passages[-1].section is not None:
            return
        title = self.conv.title(self.s.text, m.end(), block.body[1])
        span = (m.start(), m.end() + len(title))
        covers = self.s.text[span[0] : span[1]]
        self.passages[-1].section = (title, covers, m.group("end"), span)


def split_notes(s: Stream, passages: list[Draft], zhu: str) -> list[Draft]:
    """Cut each 注 that runs on into the next 经文 at its inner ``注`` (see ``boundary``)."""
    text = s.text
    clean = [
        text[b.body[0] : b.body[1]]
        for p in passages
        for b in p.blocks
        if b.kind == "zhu" and zhu not in text[b.body[0] : b.body[1]]
    ]
    classic = [text[p.body[0] : p.body[1]] for p in passages if p.body[1] > p.body[0]]
    if len(clean) < 5 or len(classic) < 5:
        return passages  # too little of this file to learn its print from
    splitter = Splitter(CharModel.train(clean), CharModel.train(classic))
    out: list[Draft] = []
    for p in passages:
        out.extend([p] if p.witnessed else _split_passage(text, p, splitter, zhu))
    return out


def _split_passage(text: str, p: Draft, splitter: Splitter, zhu: str) -> list[Draft]:
    for k, b in enumerate(p.blocks):
        if b.kind != "zhu":
            continue
        a, e = b.body
        m = text.find(zhu, a + 1, e)
        while m >= 0:
            cut = splitter.split(text[a:m], text[m + len(zhu) : min(e, m + len(zhu) + 3)])
            if cut is not None:
                head, tail = cut_note(p, k, a + cut, m, len(zhu))
                return [head, *_split_passage(text, tail, splitter, zhu)]
            m = text.find(zhu, m + 1, e)
    return [p]


def cut_note(p: Draft, k: int, start: int, m: int, label: int) -> tuple[Draft, Draft]:
    """Passage ``p``'s block ``k`` is a 注 that runs on into 经文 ``start``–``m``: the 注
    ends at ``start``; a new passage holds that 经文, a 注 after the label (``label``
    characters) at ``m`` if the old 注 goes on past it, and the blocks that followed."""
    b = p.blocks[k]
    a, e = b.body
    head = Draft(p.body, p.blocks[:k], p.record, p.heading, p.holes, group_start=p.group_start)
    head.blocks.append(DraftBlock("zhu", (a, start), b.label))
    rest = [DraftBlock("zhu", (m + label, e), (m, m + label))] if m < e else []
    tail = Draft((start, m), rest + p.blocks[k + 1 :], p.record, section=p.section)
    for x in tail.blocks:  # what explained block y of p is now at y - k - 1 + len(rest)
        if x.comments_on is not None:
            y = x.comments_on - k - 1 + len(rest)
            x.comments_on = y if y >= 0 and tail.blocks[y].kind == "zhu" else None
    return head, tail
