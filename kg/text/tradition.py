"""A work of the commentary tradition (仪礼注疏, 仪礼集说, …), read beside the book.

A source work is not a witness of 礼经本义: it has its own work, juans, chapters and IRIs and
never merges with the book or with another work. Its commentary is already split into voices
by the print itself (注 / 音義 / 疏 in 注疏, 注曰 / 疏曰 / 繼公謂 in 集说), so a ``Block`` knows its
speaker when it is read; the book's own commentary goes through ``kg.nlp.voices`` instead.

Texts keep the original characters (``text``); ``pieces`` are the source spans whose
concatenation is ``text`` (layout, page markers and column marks removed), so any offset
into ``text`` maps back to the file (``file_offset``). ``WorkDocument.segments`` partitions the
file, as ``Document.segments`` does, for the lossless check.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path

from kg.text.document import Issue, Segment, Spanned


@dataclass(frozen=True)
class WorkInfo:
    """Which work a file transcribes (``kg/readers/tradition.toml``, or minted from its header)."""

    slug: str  # IRI slug: yilizhushu, yilijishuo, … (the book itself is lijingbenyi)
    text_id: str  # Kanripo id: KR1d0028
    title: str  # as the header prints it: 儀禮注疏
    layout: str  # zhushu | jishuo | generic
    edition: str | None = None  # BASEEDITION: WYG
    authors: tuple[str, ...] = ()  # person slugs (ontology/commentators.ttl)
    known: bool = True  # False: minted from an unknown Kanripo id (reported)


class Pieced(Spanned):
    """``text`` read from ``pieces`` of the file."""

    text: str

    def add(self, text: str, start: int, end: int) -> None:
        assert len(text) == end - start, "a piece is a verbatim stretch of the file"
        if text:
            self.text += text
            self.pieces.append((start, end))

    def file_offset(self, i: int) -> int:
        """Offset ``i`` into ``text`` → offset into the file (``len(text)`` maps to ``end``)."""
        starts, acc = [], 0
        for a, b in self.pieces:
            starts.append(acc)
            acc += b - a
        if i >= acc:
            return self.end
        k = bisect_right(starts, i) - 1
        return self.pieces[k][0] + (i - starts[k])


@dataclass
class Block(Pieced):
    """One voice's stretch of commentary.

    ``kind``: ``zhu`` (郑玄's 注), ``yinyi`` (陆德明's 音義), ``shu`` (贾公彦's 疏 on the 经文,
    its 釋曰), ``shu-zhu`` (the 疏 on the 注, its 注釋曰: ``comments_on`` is the 注's index),
    ``kaozheng`` (the Siku editors' 考證), ``own`` (the work's author in his own words),
    ``quote`` (the author quoting ``voice``, e.g. 集说's 注曰), ``reading`` (a 音 gloss in small
    print after the 经文).
    """

    voice: str  # person slug: zhengxuan, ludeming, jiagongyan, aojigong, siku-editors, …
    kind: str
    text: str = ""
    pieces: list[tuple[int, int]] = field(default_factory=list)
    label: str | None = None  # the printed label, not part of text: 注, 疏, 釋曰, 注曰, 繼公謂 …
    label_span: tuple[int, int] | None = None
    comments_on: int | None = None  # index in the passage's blocks of the block it explains


@dataclass
class TPassage(Pieced):
    """A stretch of 经文 as this work cuts it, with the commentary printed under it."""

    text: str = ""
    pieces: list[tuple[int, int]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    record: bool = False  # a 记 passage (after the chapter's 記 heading)


@dataclass
class TSection:
    title: str | None = None  # 右X as printed (集说), or the stretch a 疏 names (注疏)
    heading: tuple[int, int] | None = None
    covers: str | None = None  # 注疏: the 自此至…論… phrase that names the stretch
    passages: list[TPassage] = field(default_factory=list)


@dataclass
class TChapter:
    title: str | None = None  # as printed: 士冠禮第一
    rite: str | None = None  # slug in ontology/rites.ttl (or minted), as the book's chapters
    title_span: tuple[int, int] | None = None
    preface: list[Block] = field(default_factory=list)  # commentary before the first 经文
    sections: list[TSection] = field(default_factory=list)

    def passages(self) -> list[TPassage]:
        return [p for s in self.sections for p in s.passages]


@dataclass
class TJuan:
    number: int | None = None
    label: str | None = None  # as printed: 卷五上 (the parts of a juan share its number)
    open_span: tuple[int, int] | None = None
    chapters: list[TChapter] = field(default_factory=list)
    kaozheng: list[Block] = field(default_factory=list)  # 注疏: the 考證 at the juan's end


@dataclass
class WorkDocument:
    """One file of a tradition work, read."""

    path: Path
    text: str
    work: WorkInfo
    metadata: dict[str, str] = field(default_factory=dict)
    abstract: list[Block] = field(default_factory=list)  # 提要 (_000)
    juans: list[TJuan] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    pages: list[tuple[int, str]] = field(default_factory=list)

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def chapters(self) -> list[TChapter]:
        return [c for j in self.juans for c in j.chapters]
