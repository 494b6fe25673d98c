"""Kanripo juan files (Mandoku org-mode view): one juan of a Siku text per file.

The layout (README of ``../shared/corpus/kanripo/``): org header lines (``#+TITLE:``,
``#+PROPERTY: ID KR1d0044``, ``BASEEDITION WYG``, ``JUAN 卷一``), page markers
``<pb:KR1d0044_WYG_001-2a>``, ``¶`` at the end of every printed column line, indentation
with full-width spaces coding a line's role (0 经文, 1 note / juan title / category,
2 chapter title / category, 3 右X heading and its Records, 4+ a wrapped heading line or the
author line), and interlinear notes ``(…/…)`` in two small columns.

The reader turns printed lines back into the units the author wrote, as *logical lines*
whose pieces the structure parser joins (``Line.pieces``):

- 经文 wrapped over several column lines is one line; so is a heading with its Records.
- A note printed over several lines is one note: a line ending in ``)`` and the next line
  at the same indentation opening with ``(`` continue one note; that ``)`` and ``(`` are
  layout, like the ``/`` between the two small columns.
- Reading order inside a note: each printed line holds the right-hand small column before
  ``/`` and the left-hand one after it, and a note runs on column by column, so the text
  reads right column, left column, next line: ``(…乃禮之條/目也…得禮古)¶(經五十六篇…``
  reads 禮之條目也 … 得禮古經五十六篇. That is file order, with the marks left out.
- ``(句/)`` is the reading mark; page markers become ``Page`` items (``WYG 001-2a``);
  header lines are metadata.

Everything that is not a piece of a line is reported as a segment (layout, page marker,
metadata, noise), so the file is covered exactly. A page marker or ``#+PROPERTY`` line that
cannot be read stops the build with file and line: page references must not be guessed.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg.readers.base import FormatError, Item, LayoutReader, Line, Meta, Page, markers
from kg.readers.titles import rite_for
from kg.text.catalog import load_catalog
from kg.text.document import Seg, Segment
from kg.text.normalize import normalize

INDENT = "\u3000"
_ORG = re.compile(r"#|\*+ ")  # org keyword, comment or headline: no line of the book starts so
_TRAILING = " \t\u3000\xa0\r\ufeff"


@dataclass(frozen=True)
class Layout:
    keywords: dict[str, str]
    properties: dict[str, str]
    marker: re.Pattern[str]
    page_id: re.Pattern[str]
    tag: re.Pattern[str]
    heading_indent: int
    column_end: str
    note: tuple[str, str]
    split: str
    text_link: str


@lru_cache(maxsize=1)
def layout() -> Layout:
    data = tomllib.loads((Path(__file__).parent / "kanripo.toml").read_text(encoding="utf-8"))
    opening, closing = data["columns"]["note"]
    return Layout(
        keywords=data["header"]["keywords"],
        properties=data["header"]["properties"],
        marker=re.compile(data["page"]["marker"]),
        page_id=re.compile(data["page"]["id"]),
        tag=re.compile(data["page"]["tag"]),
        heading_indent=data["indent"]["heading"],
        column_end=data["columns"]["column_end"],
        note=(opening, closing),
        split=data["columns"]["split"],
        text_link=data["links"]["text"],
    )


def page_label(marker_id: str) -> tuple[str, tuple[str, int, int, str]] | None:
    """``KR1d0044_WYG_001-2a`` → ("WYG 001-2a", sort key), or None if it is not one.

    >>> page_label("KR1d0044_WYG_001-2a")
    ('WYG 001-2a', ('WYG', 1, 2, 'a'))
    >>> page_label("WYG-2a") is None
    True
    """
    m = layout().page_id.match(marker_id)
    if m is None:
        return None
    ed, juan, leaf, side = m.group("edition", "juan", "leaf", "side")
    return f"{ed} {juan}-{leaf}{side}", (ed, int(juan), int(leaf), side)


@dataclass
class Phys:
    """One printed line: its indentation and content pieces (marks and markers cut out)."""

    indent: int
    pieces: list[tuple[int, int]] = field(default_factory=list)
    body: str = ""  # the pieces' text
    opens_note: bool = False  # content starts with "("
    closes_note: bool = False  # content ends with a ")" that closes a note
    last_note: str = ""  # inside of the note that ends the line


_MARKERS_ONLY = Phys(indent=-1)


class KanripoReader(LayoutReader):
    name = "kanripo"
    description = "Kanripo / Mandoku org-mode juan files (<pb:…> page markers, ¶, (…/…) notes)"
    brackets = layout().note

    def score(self, text: str) -> float:
        head = text[:4096]
        lay = layout()
        org = head.startswith(("#+", "# -*-")) or "\n#+PROPERTY:" in head or "mandoku" in head
        pages = any(page_label(m.group(1)) for m in lay.marker.finditer(head))
        columns = head.count(lay.column_end + "\n")
        if pages and (org or columns >= 3):
            return 1.0
        return 0.95 if org and (columns or "#+PROPERTY:" in head) else 0.0

    def items(self, text: str) -> Iterator[Item]:
        return iter(_Scanner(text).run())


class _Scanner:
    """Cuts a Kanripo file into logical lines and the segments between their pieces."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lay = layout()
        self.markers = markers()
        self.cat = load_catalog()
        self.marks = re.compile(
            "[" + re.escape("".join((*self.lay.note, self.lay.split, self.lay.column_end))) + "]"
        )
        self.out: list[tuple[int, int, Item]] = []  # (offset, tie-break, item)
        self.covered: list[tuple[int, int]] = []  # spans given to lines or own segments
        self.values: dict[str, str] = {}
        self.first_page: tuple[str, int] | None = None  # (edition, juan) of the first marker

    # -- output -----------------------------------------------------------------------------

    def emit(self, start: int, item: Item, end: int | None = None) -> None:
        self.out.append((start, len(self.out), item))
        if end is not None:
            self.covered.append((start, end))

    def run(self) -> list[Item]:
        lines: list[Phys | None] = []  # None: a line with no content (a paragraph break)
        for a, b in _physical(self.text):
            if _ORG.match(self.text, a, b):
                self.header(a, b)
                continue
            phys = self.physical(a, b)
            if phys is not _MARKERS_ONLY:  # a page-marker line does not break a unit
                lines.append(phys)
        values = dict(self.values)
        if "juan" not in values and self.first_page is not None:
            # no JUAN property: the page markers say which juan this is (000: front matter)
            values["juan"] = f"{self.first_page[1]:03d}"
        if "text_id" in values and self.first_page is not None:
            values["link"] = kanripo_link(values["text_id"], self.first_page[1])
        if values:
            self.emit(0, Meta(values))
        if self._is_abstract():
            self.abstract([p for p in lines if p is not None])
        else:
            self.group(lines)
        self.layout_gaps()
        self.out.sort(key=lambda x: (x[0], x[1]))
        return [item for _, _, item in self.out]

    def layout_gaps(self) -> None:
        """Everything no line piece or segment holds is layout (¶, line breaks, indentation,
        the ``/`` and ``)(`` of notes)."""
        pos = 0
        for a, b in sorted(self.covered):
            if a > pos:
                self.emit(pos, Segment(Seg.LAYOUT, pos, a))
            pos = max(pos, b)
        if pos < len(self.text):
            self.emit(pos, Segment(Seg.LAYOUT, pos, len(self.text)))

    # -- header -----------------------------------------------------------------------------

    def header(self, a: int, b: int) -> None:
        line = self.text[a:b].rstrip(_TRAILING)
        end = a + len(line)
        if not line:
            return
        m = re.match(r"#\+([A-Za-z_]+):[ \t]*(.*)$", line)
        if m is None:
            # a comment, the mode line, an org headline: not the book, nothing to read
            self.emit(a, Segment(Seg.METADATA, a, end), end)
            return
        key, value = m.group(1).upper(), m.group(2).strip()
        if key == "PROPERTY":
            prop = re.match(r"(\S+)(?:[ \t]+(.*))?$", value)
            if prop is None:
                raise FormatError(a, "malformed org header: '#+PROPERTY:' without a name")
            name, value = prop.group(1).upper(), (prop.group(2) or "").strip()
            if name in self.lay.properties:
                self.values[self.lay.properties[name]] = value
        elif key in self.lay.keywords:
            # "禮經本義 / WYG": the edition after the slash is not part of the title
            self.values[self.lay.keywords[key]] = value.split(" / ")[0].strip()
        self.emit(a, Segment(Seg.METADATA, a, end), end)

    # -- one printed line -------------------------------------------------------------------

    def physical(self, a: int, b: int) -> Phys | None:
        """Page markers and tags out, indentation counted, ``¶`` and note marks cut.

        None for a line with no content, ``_MARKERS_ONLY`` for one with only markers."""
        text, lay = self.text, self.lay
        chunks: list[tuple[int, int]] = []
        pos = a
        for m in re.finditer(r"<[^<>\n]*>?", text[a:b]):
            s, e = a + m.start(), a + m.end()
            raw = m.group()
            if raw.startswith("<pb:"):
                if not raw.endswith(">"):
                    raise FormatError(s, f"page marker {raw!r} is not closed with '>'")
                label = page_label(raw[4:-1])
                if label is None:
                    raise FormatError(
                        s, f"malformed page marker {raw!r}: expected <pb:TEXT_EDITION_JJJ-NNs>"
                    )
                self.page(s, e, *label)
            elif lay.tag.fullmatch(raw):
                self.emit(s, Segment(Seg.METADATA, s, e), e)
            else:
                continue  # an ordinary "<" of the text
            chunks.append((pos, s))
            pos = e
        chunks.append((pos, b))
        phys = self._content(chunks)
        return _MARKERS_ONLY if phys is None and len(chunks) > 1 else phys

    def page(self, s: int, e: int, label: str, key: tuple[str, int, int, str]) -> None:
        self.emit(s, Page(s, e, label), e)
        if self.first_page is None:
            self.first_page = (key[0], key[1])

    def _content(self, chunks: list[tuple[int, int]]) -> Phys | None:
        text = self.text
        opening, closing = self.lay.note
        indent = 0
        pieces: list[tuple[int, int]] = []
        started = False
        depth = 0
        for s, e in chunks:
            i = s
            if not started:  # indentation: full-width spaces before the first content
                while i < e and text[i] in INDENT + " \t\ufeff":
                    indent += text[i] == INDENT
                    i += 1
            run = i
            started = started or i < e
            for m in self.marks.finditer(text, i, e):
                j, ch = m.start(), m.group()
                if ch == opening:
                    depth += 1
                elif ch == closing:
                    depth = max(0, depth - 1)
                elif ch == self.lay.column_end or (ch == self.lay.split and depth > 0):
                    if j > run:
                        pieces.append((run, j))
                    run = j + 1
            if e > run:
                pieces.append((run, e))
        # blanks after a mark that opens the line (``¶　…``) are layout, as indentation is
        while pieces:
            s, e = pieces[0]
            while s < e and text[s] in INDENT + " \t\ufeff":
                s += 1
            if s < e:
                pieces[0] = (s, e)
                break
            pieces.pop(0)
        # trailing blanks are layout
        while pieces:
            s, e = pieces[-1]
            while e > s and text[e - 1] in _TRAILING:
                e -= 1
            if e > s:
                pieces[-1] = (s, e)
                break
            pieces.pop()
        if not pieces:
            return None
        body = "".join(text[s:e] for s, e in pieces)
        phys = Phys(indent=indent, pieces=pieces, body=body)
        phys.opens_note = body.startswith(opening)
        if body.endswith(closing) and depth == 0:
            open_at = body.rfind(opening)
            phys.closes_note = open_at >= 0
            phys.last_note = body[open_at + 1 : -1]
        return phys

    # -- logical lines ----------------------------------------------------------------------

    def group(self, lines: list[Phys | None]) -> None:
        cur: list[tuple[int, int]] = []
        role = ""
        prev: Phys | None = None
        for p in lines:
            if p is None:  # an empty column line ends what was open
                self.line(cur, role)
                cur, role, prev = [], "", None
                continue
            join = prev is not None and self._joins(prev, p, role)
            if join == "note":
                # ")" ending the previous line and "(" opening this one are layout
                s, e = cur[-1]
                cur[-1] = (s, e - 1)
                first = (p.pieces[0][0] + 1, p.pieces[0][1])
                cur.extend([first, *p.pieces[1:]])
            elif join:
                cur.extend(p.pieces)
            else:
                self.line(cur, role)
                cur, role = list(p.pieces), self._role(p)
            prev = p
        self.line(cur, role)

    def _joins(self, prev: Phys, p: Phys, role: str) -> str | bool:
        """Does printed line ``p`` go on with the logical line ``prev`` belongs to?"""
        if p.opens_note:
            reading_mark = normalize(prev.last_note).strip() in self.markers.reading_marks
            # a note running on into the next column: both lines in note columns, or both
            # in the 经文 column (a note at the end of 经文 and commentary below it are two)
            same_column = (prev.indent == 0) == (p.indent == 0)
            if prev.closes_note and not reading_mark and same_column:
                return "note"
            return p.indent == 0 and role == "classic"  # a note inside the 经文 column
        if self._marker(p.body):
            return False
        if p.indent == 0:
            return role == "classic" and not self._marker(prev.body)
        if p.indent >= self.lay.heading_indent:
            return role == "heading" and not self._heading(p)
        return False

    def _role(self, p: Phys) -> str:
        if p.opens_note:
            return "text"
        if p.indent == 0:
            return "classic"
        if p.indent >= self.lay.heading_indent:
            return "heading" if self._heading(p) else "text"
        return "title"

    def _heading(self, p: Phys) -> bool:
        """右X at heading indentation: 右, a short title, then a separator, note or nothing."""
        prefix = self.markers.heading_prefix
        if not p.body.startswith(prefix) or len(p.body) == len(prefix):
            return False
        if normalize(p.body[len(prefix)]) in self.markers.heading_not_before:
            return False  # 右手, 右還: a wrapped Record line, not a heading
        title = re.split(r"[\s\u3000(（【]", p.body, maxsplit=1)[0]
        return 1 <= len(title) - len(prefix) <= self.markers.heading_max

    def _marker(self, body: str) -> bool:
        """Whole-line markers that never run on: furniture, juan title, category, chapter."""
        norm = normalize(body).strip()
        markers = self.markers
        return bool(
            norm in markers.furniture
            or any(p.match(norm) for p in markers.furniture_patterns)
            or markers.juan_marker.match(norm)
            or self.cat.category_for(norm) is not None
            or rite_for(self.cat, norm) is not None
        )

    def line(self, pieces: list[tuple[int, int]], role: str) -> None:
        pieces = [(s, e) for s, e in pieces if e > s]
        if not pieces:
            return
        self.emit(pieces[0][0], Line(pieces[0][0], pieces[-1][1], role, tuple(pieces)))
        self.covered.extend(pieces)

    # -- the catalogue abstract (提要, juan 000) --------------------------------------------

    def _is_abstract(self) -> bool:
        label = normalize(self.values.get("juan", ""))
        return "提要" in label or (
            "juan" not in self.values and self.first_page is not None and self.first_page[1] == 0
        )

    def abstract(self, lines: list[Phys]) -> None:
        pieces = [piece for p in lines for piece in p.pieces]
        if pieces:
            self.line(pieces, "abstract")


def _physical(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        stop = n if nl < 0 else nl
        yield pos, stop
        if nl < 0:
            return
        pos = nl + 1


def kanripo_link(text_id: str, juan: int) -> str:
    """Where the juan can be read online.

    >>> kanripo_link("KR1d0044", 1)
    'https://www.kanripo.org/text/KR1d0044/001'
    """
    return layout().text_link.format(text=text_id, juan=f"{juan:03d}")
