"""The document model every reader yields: Work › Juan › Chapter › Section › Passage | Record.

Offsets are code-point offsets into the decoded source text. ``Document.segments`` partitions
the source: concatenating every segment's text in order gives the file back, character for
character (the lossless property the tests check).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple


class Seg(StrEnum):
    """What a stretch of the source is."""

    PASSAGE = "passage"  # 经文
    RECORD = "record"  # 记 after a 右X heading
    COMMENTARY = "commentary"  # a 【…】 block
    READING_MARK = "reading-mark"  # 【句】
    TEXTUAL_NOTE = "textual-note"  # 【二耦卒射之二郑本误作三】
    SOURCE_NOTE = "source-note"  # 【此条朱子以戴记补】
    HEADING = "heading"  # 右X
    JUAN_MARKER = "juan-marker"  # 礼经本义卷N
    CATEGORY = "category"  # 嘉礼 …
    CHAPTER_TITLE = "chapter-title"
    PREFACE_TITLE = "preface-title"  # 五礼之仪
    ABSTRACT = "abstract"  # 提要
    FURNITURE = "furniture"  # 钦定四库全书, 无锡蔡德晋撰, [book_title]卷一
    METADATA = "metadata"  # [book_name]… header of a web export
    LAYOUT = "layout"  # line breaks, indentation, separators, column marks (¶, /)
    PAGE = "page-marker"  # <pb:KR1d0044_WYG_001-2a>: where a printed page begins
    NOISE = "noise"  # page headers, web footers, catalogue tags


@dataclass(slots=True)
class Segment:
    kind: Seg
    start: int
    end: int


@dataclass(slots=True)
class Issue:
    """Something a user should know about the input: noise removed, garbles kept, guesses made."""

    kind: str  # noise | garbled | unbalanced | placement | structure | commentator
    line: int
    start: int
    end: int
    message: str


class FileIssue(NamedTuple):
    """An issue and the file it is in, as a build reports it."""

    path: Path
    issue: Issue


@dataclass
class Note:
    """One 【…】 block: commentary, textual or source note (``text``: inside the brackets).

    A note printed over several lines (an interlinear note in two small columns) is read
    from several stretches of the file: ``pieces`` are those spans, in reading order;
    ``start``/``end`` enclose them all.
    """

    kind: Seg
    text: str
    start: int  # span of the block, brackets included
    end: int
    opened: bool = True  # False: a 】 whose 【 lies before the fragment began
    closed: bool = True  # False: a 【 never closed on its line
    pieces: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.pieces:
            self.pieces = [(self.start, self.end)]

    @property
    def inner_start(self) -> int:
        return self.start + (1 if self.opened else 0)


class Spanned:
    """Something read from ``pieces`` of a file: its start and end are theirs."""

    pieces: list[tuple[int, int]]

    @property
    def start(self) -> int:
        return self.pieces[0][0]

    @property
    def end(self) -> int:
        return self.pieces[-1][1]


@dataclass
class TextUnit(Spanned):
    """A Passage (经文) or Record (记): its text without reading marks or inline notes."""

    kind: Seg  # PASSAGE or RECORD
    text: str = ""
    pieces: list[tuple[int, int]] = field(default_factory=list)  # source spans of the text
    reading_breaks: list[int] = field(default_factory=list)  # offsets in ``text`` after 【句】
    notes: list[Note] = field(default_factory=list)  # textual / source notes inside the unit
    commentary: list[Note] = field(default_factory=list)

    def add(self, text: str, start: int, end: int) -> None:
        self.text += text
        self.pieces.append((start, end))


@dataclass
class Section:
    title: str | None = None  # None: the fragment ended before its 右X heading
    heading: tuple[int, int] | None = None
    notes: list[Note] = field(default_factory=list)  # 【…】 on the heading itself
    passages: list[TextUnit] = field(default_factory=list)
    records: list[TextUnit] = field(default_factory=list)
    orphans: list[Note] = field(default_factory=list)  # commentary whose passage is not in the file
    starts_mid: bool = False  # the fragment began inside this section

    @property
    def empty(self) -> bool:
        return not (self.title or self.passages or self.records or self.orphans or self.notes)


@dataclass
class Preface:
    """A chapter preface (【…】 after the title) or a titled front-matter piece (五礼之仪【…】)."""

    title: str | None = None
    title_span: tuple[int, int] | None = None
    blocks: list[Note] = field(default_factory=list)


@dataclass
class Chapter:
    title: str | None = None  # as written
    rite: str | None = None  # slug of the rite (lj:slug in ontology/rites.ttl, or minted)
    minted: str | None = None  # the name of a rite the vocabulary lacks, minted from the title
    part: str | None = None  # 上 / 下: the half of a minted rite's chapter this title prints
    category: str | None = None  # 嘉礼 … as written
    title_span: tuple[int, int] | None = None
    placement: str = "title"  # title | manifest | recognized | unknown
    preface: Preface | None = None
    sections: list[Section] = field(default_factory=list)

    def section(self) -> Section:
        """The open section (created on first use)."""
        if not self.sections or self.sections[-1].title is not None:
            self.sections.append(Section())
        return self.sections[-1]


@dataclass
class Juan:
    number: int | None = None
    placement: str = "marker"  # marker | close-marker | header | manifest | unknown
    open_span: tuple[int, int] | None = None
    close_span: tuple[int, int] | None = None
    prefaces: list[Preface] = field(default_factory=list)
    chapters: list[Chapter] = field(default_factory=list)


@dataclass
class Document:
    path: Path
    text: str
    layout: str
    metadata: dict[str, str] = field(default_factory=dict)
    abstract: TextUnit | None = None
    juans: list[Juan] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    pages: list[tuple[int, str]] = field(default_factory=list)  # (offset, "WYG 001-2a"), sorted

    def line_of(self, offset: int) -> int:
        """1-based line number of a character offset."""
        return self.text.count("\n", 0, offset) + 1

    def pages_of(self, pieces: list[tuple[int, int]]) -> list[str]:
        """The printed pages the spans stand on, in order (none if the file marks no pages).

        >>> d = Document(Path("x"), "abcdef", "kanripo", pages=[(0, "A 1a"), (3, "A 1b")])
        >>> d.pages_of([(1, 2)]), d.pages_of([(1, 5)]), d.pages_of([(4, 5), (0, 1)])
        (['A 1a'], ['A 1a', 'A 1b'], ['A 1b', 'A 1a'])
        """
        if not self.pages:
            return []
        offsets = [o for o, _ in self.pages]
        out: list[str] = []
        for a, b in pieces:
            first = bisect_right(offsets, a) - 1  # -1: the span starts before any marker
            last = bisect_right(offsets, max(a, b - 1)) - 1
            for i in range(max(first, 0), last + 1):
                if self.pages[i][1] not in out:
                    out.append(self.pages[i][1])
        return out

    def chapters(self) -> list[Chapter]:
        return [c for j in self.juans for c in j.chapters]
