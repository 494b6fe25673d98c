"""The body of a juan in the 集说 layout, shared by ``jishuo.py`` and ``generic.py``.

Printed lines (``layout.py``) become the model of ``kg.text.tradition`` by their indentation
and by how full they are (``columns.py``):

- the juan title (``儀禮集説卷一　　元　敖繼公　撰``) opens a juan, the same title alone ends
  it; a title-shaped line at indentation 0 right after it (``士冠禮第一``) is the chapter;
- 经文 runs at indentation 0 and goes on in the next line while a line fills the column; its
  small print ``(…/…)`` is a reading gloss (a ``reading`` block), also when the gloss runs on
  to a line of its own;
- commentary lines are indented: a block runs on while its lines fill the column and ends at
  a short line or where the next line opens with a label (``注曰``, ``繼公謂`` …);
- ``右X`` at deep indentation closes and names the section before it; deeper lines after it
  comment on that section (blocks of its last passage);
- ``記`` opening a 经文 line starts the record: passages from there on are ``record``;
- ``正誤`` after the juan's end opens the corrections: 经文 quoted with the author's notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.readers.titles import mint_slug, name_of, rite_for, title_shape
from kg.readers.tradition.columns import Widths, columns
from kg.readers.tradition.conventions import Conventions, Label
from kg.readers.tradition.layout import KLine, Run, stream
from kg.readers.tradition.registry import is_author_line
from kg.text.catalog import Catalog
from kg.text.document import Issue, Seg, Segment
from kg.text.normalize import normalize
from kg.text.numerals import parse_numeral
from kg.text.tradition import Block, Pieced, TChapter, TJuan, TPassage, TSection

TITLE_INDENT = 2  # 集说 prints its chapter titles at 0, 注疏 at 1, 礼经本义 at 2
_OTHER_TITLE = re.compile(
    r"([\u3400-\u9fff\U00020000-\U0003134f]{2,12}?)卷第?[〇一二三四五六七八九十百]+[上中下]?"
)
_JUAN_NO = re.compile(r"第?([〇一二三四五六七八九十百]+)([^\u3000 ]*)")


def span(ln: KLine) -> tuple[int, int]:
    """The line's content, from its first mark or character to its last."""
    starts, ends = [], []
    for r in ln.runs:
        if r.offsets:
            starts.append(r.offsets[0])
            ends.append(r.offsets[-1] + 1)
        if r.opened is not None:
            starts.append(r.opened)
        if r.closed is not None:
            ends.append(r.closed + 1)
    return (min(starts), max(ends)) if starts else (ln.start, ln.start)


def cut(pieces: list[tuple[int, int]], k: int) -> tuple[list[tuple[int, int]], ...]:
    """Pieces of a text split at offset ``k`` of the text: before and after."""
    head: list[tuple[int, int]] = []
    tail: list[tuple[int, int]] = []
    acc = 0
    for a, b in pieces:
        if acc + (b - a) <= k:
            head.append((a, b))
        elif acc >= k:
            tail.append((a, b))
        else:
            head.append((a, a + k - acc))
            tail.append((a + k - acc, b))
        acc += b - a
    return head, tail


@dataclass
class Body:
    """Reads the content lines of juans, line by line, into ``juans``."""

    source: str
    conv: Conventions
    catalog: Catalog
    widths: Widths
    titles: tuple[str, ...]  # normalized titles of the work, for its juan lines
    juans: list[TJuan] = field(default_factory=list)
    claims: list[Segment] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    chapter: TChapter | None = None
    section: TSection | None = None  # open: the next passage goes here
    closed: TSection | None = None  # the section the last 右X closed (its notes follow)
    passage: TPassage | None = None
    block: Block | None = None  # commentary that may run on in the next line
    reading: Block | None = None  # reading gloss that may run on
    prev: str = ""  # what the last line was: juan, title, jing, comm, heading, note, other
    prev_full: bool = False
    prev_indent: int = 0
    ended: bool = False  # the juan's closing title has been read
    record: bool = False
    corrections: bool = False
    _here_record: bool = False  # this 经文 line opened with 記
    blocks: list[Block] = field(default_factory=list)  # where the open block is

    # -- dispatch ---------------------------------------------------------------------------

    def feed(self, ln: KLine) -> None:
        if ln.header is not None:
            return
        if ln.blank:
            if "<" not in self.source[ln.start : ln.end]:
                self.prev_full = False  # an empty column ends whatever ran on
            return
        kind = self._kind(ln)
        self.prev, self.prev_full, self.prev_indent = kind, self._full(ln), ln.indent

    def _full(self, ln: KLine) -> bool:
        return columns(ln, self.source) >= self.widths.at(ln.start)

    def _kind(self, ln: KLine) -> str:
        text = ln.text
        norm = normalize(text).strip()
        c = self.conv
        if self.conv.is_furniture(text):
            self.claim(Seg.FURNITURE, *span(ln))
            return "other"
        if self._juan_line(ln, norm):
            return "juan"
        if self.prev == "juan" and is_author_line(text):
            self.claim(Seg.FURNITURE, *span(ln))  # the author line under a juan title
            return "juan"
        deep = ln.indent >= c.heading_indent
        if deep and norm.startswith(c.heading_prefix) and len(norm) > len(c.heading_prefix):
            return self._heading(ln)
        if deep and self.prev in ("heading", "note") and self.closed is not None:
            return self._commentary(ln, self._note_target(), "note")
        if self._chapter_title(ln, norm):
            return "title"
        if ln.indent == 0:
            if norm in c.corrections:
                return self._corrections(ln)
            return self._jing(ln, norm)
        return self._commentary(ln, None, "comm")

    def claim(self, kind: Seg, start: int, end: int) -> None:
        if end > start:
            self.claims.append(Segment(kind, start, end))

    def fill(self, target: Pieced, kind: Seg, ln: KLine, i: int = 0, j: int | None = None) -> None:
        s = stream([ln], self.source)
        before = len(target.pieces)
        s.fill(target, i, len(s.text) if j is None else j)
        for a, b in target.pieces[before:]:
            self.claim(kind, a, b)

    def fill_run(self, target: Pieced, kind: Seg, run: Run) -> None:
        line = KLine(0, 0, 0, runs=[run])
        self.fill(target, kind, line)

    def issue(self, kind: str, ln: KLine, message: str) -> None:
        self.issues.append(Issue(kind, ln.number, ln.start, ln.end, message))

    # -- juans and chapters -----------------------------------------------------------------

    def _juan_line(self, ln: KLine, norm: str) -> bool:
        """``儀禮集説卷五上　　元　敖繼公　撰`` opens a juan; the title alone, after it, ends it."""
        mark = self.conv.juan_mark
        title = next((t for t in self.titles if t and norm.startswith(t + mark)), None)
        if title is None:
            title = self._other_title(ln, norm)
        if title is None:
            return False
        rest = norm[len(title) + len(mark) :]
        m = _JUAN_NO.match(rest)
        number = parse_numeral(m.group(1)) if m else None
        cut = len(title) + len(mark) + (m.end() if m else 0)
        label = ln.text.strip()[len(title) : cut]  # 卷五上, 卷一考證: as printed
        after = rest[m.end() if m else 0 :].strip("\u3000 ")
        start, end = span(ln)
        juan = self.juans[-1] if self.juans else None
        same = juan is not None and normalize(juan.label or "") == normalize(label)
        if not after and same and not self.ended:
            self.claim(Seg.FURNITURE, start, end)  # the juan's last line repeats its title
            self.ended = True
            return True
        if number is None:
            self.issue("structure", ln, f"juan title {ln.text!r} without a number")
        self._open_juan(TJuan(number=number, open_span=(start, end), label=label))
        self.claim(Seg.JUAN_MARKER, start, min(start + cut, end))
        self.claim(Seg.FURNITURE, min(start + cut, end), end)
        return True

    def _other_title(self, ln: KLine, norm: str) -> str | None:
        """A juan line printing the title otherwise than the header (儀禮集説 for 儀禮某解):
        a title, 卷 and a numeral, alone or with the author line, never indented deeper."""
        m = _OTHER_TITLE.match(norm)
        if m is None or ln.indent > 1:
            return None
        after = norm[m.end() :].strip("\u3000 ")
        return m.group(1) if not after or is_author_line(after) else None

    def _open_juan(self, juan: TJuan) -> None:
        self.juans.append(juan)
        self.chapter = self.section = self.closed = self.passage = None
        self.block = self.reading = None
        self.ended = self.record = self.corrections = False

    def _chapter_title(self, ln: KLine, norm: str) -> bool:
        if ln.indent > TITLE_INDENT or any(r.small for r in ln.runs):
            return False
        if self.prev == "jing" and self.prev_full:
            return False
        name = name_of(ln.text)
        rite = rite_for(self.catalog, ln.text)
        if name is None and rite is None:
            return False
        numbered = title_shape().ordinal.search(norm) is not None
        first = bool(self.juans) and not self.juans[-1].chapters and self.prev in ("juan", "other")
        if not (numbered or first):
            return False
        rite = rite or mint_slug(self.catalog, name or norm)
        self._open_chapter(TChapter(title=ln.text, rite=rite, title_span=span(ln)))
        self.claim(Seg.CHAPTER_TITLE, *span(ln))
        return True

    def _open_chapter(self, chapter: TChapter) -> None:
        if not self.juans:
            self._open_juan(TJuan())
        self.juans[-1].chapters.append(chapter)
        self.chapter, self.section, self.closed, self.passage = chapter, None, None, None
        self.block = self.reading = None
        self.record = self.corrections = False

    def _need_chapter(self, ln: KLine) -> TChapter:
        if self.chapter is None:
            self.issue("structure", ln, "text before any chapter title: an untitled chapter")
            self._open_chapter(TChapter())
        assert self.chapter is not None
        return self.chapter

    # -- sections ---------------------------------------------------------------------------

    def _heading(self, ln: KLine) -> str:
        chapter = self._need_chapter(ln)
        section = self.section
        if section is None:
            section = TSection()
            chapter.sections.append(section)  # 右X over no passage of its own: kept, empty
        section.title, section.heading = ln.text, span(ln)
        self.claim(Seg.HEADING, *span(ln))
        self.closed, self.section, self.passage = section, None, None
        self.block = self.reading = None
        return "heading"

    def _corrections(self, ln: KLine) -> str:
        chapter = self._need_chapter(ln)
        section = TSection(title=ln.text, heading=span(ln))
        chapter.sections.append(section)
        self.claim(Seg.HEADING, *span(ln))
        self.section, self.closed, self.passage = section, None, None
        self.block = self.reading = None
        self.corrections = True
        return "heading-corrections"

    def _note_target(self) -> list[Block]:
        """Where the notes on a closed section go: its last passage, else the preface."""
        assert self.closed is not None
        if self.closed.passages:
            return self.closed.passages[-1].blocks
        assert self.chapter is not None
        return self.chapter.preface

    # -- 经文 -------------------------------------------------------------------------------

    def _jing(self, ln: KLine, norm: str) -> str:
        if ln.runs[0].small and self.prev == "jing" and self.passage is not None:
            self._runs(ln.runs)  # a reading gloss running on to a line of its own
            return "jing"
        if all(r.small for r in ln.runs):  # small print with no 经文 before it: a note
            return self._commentary(ln, None, "comm")
        if not (self.prev == "jing" and self.prev_full and self.passage is not None):
            runs = self._record_mark(ln, norm)
            if not runs:
                return "record"
            self._new_passage(ln)
            self._runs(runs)
            return "jing"
        self._runs(ln.runs)
        return "jing"

    def _record_mark(self, ln: KLine, norm: str) -> list[Run]:
        """The runs of a 经文 line, a 記 opening the record cut off (a heading)."""
        mark = self.conv.record
        first = ln.runs[0]
        n = len(mark)
        opens = norm.startswith(mark) and not first.small and len(first.text) >= n
        if not (opens and (self.corrections or not self.record)):
            self._here_record = False
            return ln.runs
        self.record = self.record or not self.corrections
        self._here_record = True
        self.claim(Seg.HEADING, first.offsets[0], first.offsets[n - 1] + 1)
        rest = Run(small=first.small, text=first.text[n:], offsets=first.offsets[n:])
        rest.opened, rest.closed = first.opened, first.closed
        return [r for r in [rest, *ln.runs[1:]] if r.text or r.small]

    def _new_passage(self, ln: KLine) -> None:
        chapter = self._need_chapter(ln)
        if self.section is None:
            self.section = TSection()
            chapter.sections.append(self.section)
        here = self._here_record
        self.passage = TPassage(record=here if self.corrections else self.record or here)
        self.section.passages.append(self.passage)
        self.closed = None
        self.block = self.reading = None

    def _runs(self, runs: list[Run]) -> None:
        p = self.passage
        assert p is not None
        for run in runs:
            if not run.small:
                self.fill_run(p, Seg.RECORD if p.record else Seg.PASSAGE, run)
                self.reading = None
                continue
            if self.reading is None:
                voice = self.conv.reading_voice or self.conv.own_voice
                self.reading = Block(voice=voice, kind="reading")
                p.blocks.append(self.reading)
            self.fill_run(self.reading, Seg.COMMENTARY, run)

    # -- commentary -------------------------------------------------------------------------

    def _commentary(self, ln: KLine, target: list[Block] | None, kind: str) -> str:
        if ln.runs[0].small and self.prev == "jing" and self.passage is not None:
            self._runs(ln.runs)  # 　(韠音/畢): the gloss of the 经文 above, run on
            return "jing"
        text = stream([ln], self.source).text
        found = self.conv.label_of(text)
        going_on = (
            self.block is not None
            and found is None
            and self.prev == kind
            and self.prev_full
            and ln.indent == self.prev_indent
        )
        if not going_on:
            label, lab = found or (None, Label(self.conv.own_voice, self.conv.own_kind))
            self.blocks = self._target(ln, target)  # may open a chapter: before the block
            self.block = Block(voice=lab.voice, kind=lab.kind, label=label)
            self.blocks.append(self.block)
            if label:
                pieces = stream([ln], self.source).pieces(0, len(label))
                self.block.label_span = (pieces[0][0], pieces[-1][1])
                for a, b in pieces:
                    self.claim(Seg.COMMENTARY, a, b)
        assert self.block is not None
        skip = len(found[0]) if found and not going_on else 0
        before = len(self.block.text)
        self.fill(self.block, Seg.COMMENTARY, ln, skip)
        self._split(before - self.conv.max_name_chars - 2)
        return kind

    def _split(self, start: int) -> None:
        """Cut the open block where a label inside its text opens another voice's words."""
        while self.block is not None:
            b = self.block
            hit = self.conv.split_in(b.text, b.voice, start, self.corrections)
            if hit is None:
                return
            k, label, lab = hit
            new = Block(voice=lab.voice, kind=lab.kind, label=label)
            head, tail = cut(b.pieces, k)
            marks, rest = cut(tail, len(label))
            new.text, new.pieces = b.text[k + len(label) :], rest
            new.label_span = (marks[0][0], marks[-1][1])
            b.text, b.pieces = b.text[:k], head
            blocks = self.blocks
            blocks.insert(next(i for i, x in enumerate(blocks) if x is b) + 1, new)
            self.block, start = new, 0

    def _target(self, ln: KLine, target: list[Block] | None) -> list[Block]:
        if target is not None:
            return target
        if self.passage is not None:
            return self.passage.blocks
        if self.closed is not None and self.prev in ("heading", "note"):
            return self._note_target()
        return self._need_chapter(ln).preface
