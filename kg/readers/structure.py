"""The structure every layout shares, parsed from the lines a layout reader cuts.

Juan markers, furniture, category lines, chapter titles with their preface, 右X headings
with their Records, passages with their commentary, reading marks and glued notes: DESIGN §1.
Every character of every line ends up in exactly one segment of the document.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from kg.readers.base import Item, Line, Markers, Meta, Page, markers
from kg.readers.titles import half_of, is_front_matter, mint_slug, name_of, rite_for
from kg.text.catalog import Catalog
from kg.text.document import (
    Chapter,
    Document,
    Issue,
    Juan,
    Note,
    Preface,
    Section,
    Seg,
    Segment,
    TextUnit,
)
from kg.text.normalize import GARBLED, normalize
from kg.text.numerals import parse_numeral

_SEP = " \t\u3000\xa0"
# What the last line was, where a title the vocabulary lacks may stand after it.
_TITLE_PLACES = frozenset({"start", "juan", "category", "preface", "heading"})


class View:
    """A line as the parser reads it: its pieces joined, with the way back to the file.

    Offsets in ``text`` are "virtual"; ``at`` and ``spans`` turn them into file offsets.
    A one-piece line is the file itself shifted by its start.

    >>> v = View("ab\\ncd", ((0, 2), (3, 5)))
    >>> v.text, v.at(2), v.spans(1, 3), v.span(0, 4)
    ('abcd', 3, [(1, 2), (3, 4)], (0, 5))
    """

    __slots__ = ("pieces", "starts", "text")

    def __init__(self, source: str, pieces: Sequence[tuple[int, int]]) -> None:
        self.pieces = [(a, b) for a, b in pieces if b > a] or [pieces[0]]
        self.starts: list[int] = []
        n = 0
        for a, b in self.pieces:
            self.starts.append(n)
            n += b - a
        self.text = "".join(source[a:b] for a, b in self.pieces)

    def at(self, v: int) -> int:
        """File offset of the character at virtual offset ``v`` (the line's end for len)."""
        if v >= len(self.text):
            return self.pieces[-1][1]
        i = bisect_right(self.starts, v) - 1
        return self.pieces[i][0] + v - self.starts[i]

    def spans(self, a: int, b: int) -> list[tuple[int, int]]:
        """File spans of the virtual stretch ``a``–``b``."""
        out = []
        for (ps, pe), vs in zip(self.pieces, self.starts, strict=True):
            lo, hi = max(a, vs), min(b, vs + pe - ps)
            if hi > lo:
                out.append((ps + lo - vs, ps + hi - vs))
        return out

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The file span enclosing the virtual stretch ``a``–``b``."""
        spans = self.spans(a, b)
        return (spans[0][0], spans[-1][1]) if spans else (self.at(a), self.at(a))


@dataclass(slots=True)
class Tok:
    kind: str  # text | bracket | sep
    start: int
    end: int
    opened: bool = True
    closed: bool = True


def tokenize(
    text: str, start: int, end: int, brackets: tuple[str, str] = ("【", "】")
) -> list[Tok]:
    """Text runs, 【…】 blocks (nested ones whole) and separator runs of one line."""
    opening, closing = brackets
    toks: list[Tok] = []
    i = start
    while i < end:
        ch = text[i]
        if ch == opening:
            depth, j = 0, i
            while j < end:
                c = text[j]
                if c == opening:
                    depth += 1
                elif c == closing:
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j < end:
                toks.append(Tok("bracket", i, j + 1))
                i = j + 1
            else:
                toks.append(Tok("bracket", i, end, closed=False))
                i = end
        elif ch == closing:
            # a close with no open: what precedes it on the line ends a commentary begun earlier
            toks = [Tok("bracket", start, i + 1, opened=False)]
            i += 1
        else:
            sep = ch in _SEP
            j = i + 1
            while j < end and text[j] not in brackets and (text[j] in _SEP) == sep:
                j += 1
            toks.append(Tok("sep" if sep else "text", i, j))
            i = j
    return toks


class StructureParser:
    """Feeds a reader's items into a Document, one line at a time.

    Each line is read through a ``View``: token offsets are offsets in the line's joined
    text, turned into file spans wherever something is recorded (segments, unit pieces,
    note pieces, spans of titles and headings).
    """

    def __init__(
        self, doc: Document, catalog: Catalog, brackets: tuple[str, str] = ("【", "】")
    ) -> None:
        self.doc = doc
        self.text = doc.text
        self.markers: Markers = markers()
        self.cat = catalog
        self.brackets = brackets
        self.juan: Juan | None = None
        self.chapter: Chapter | None = None
        self.category: str | None = None
        # the category the juan's chapters are in so far: a minted rite's when none is printed
        self.juan_category: str | None = None
        self.category_label = {slug: lab for lab, slug in catalog.categories.items()}
        self.target: TextUnit | Preface | Section | None = None
        self.front = False  # juan opened by its marker, no chapter title yet
        self.header_juan: int | None = None  # the juan a file's header says it holds
        self.last = "start"  # what the last line was: start juan category preface title …
        # 【嘉】 after a title: the first character of each category's label
        self.marks = {lab[0]: lab for lab in catalog.categories if len(lab) == 2}
        self.view = View(doc.text, ((0, 0),))

    # -- plumbing ---------------------------------------------------------------------------

    def seg(self, kind: Seg, start: int, end: int) -> None:
        if end > start:
            self.doc.segments.append(Segment(kind, start, end))

    def vseg(self, kind: Seg, a: int, b: int) -> None:
        """Segments for the virtual stretch ``a``–``b`` of the current line."""
        for start, end in self.view.spans(a, b):
            self.seg(kind, start, end)

    def issue(self, kind: str, start: int, end: int, message: str) -> None:
        self.doc.issues.append(Issue(kind, self.doc.line_of(start), start, end, message))

    def vissue(self, kind: str, a: int, b: int, message: str) -> None:
        start, end = self.view.span(a, b)
        self.issue(kind, start, end, message)

    def add(self, unit: TextUnit, a: int, b: int) -> None:
        """Append the virtual stretch ``a``–``b`` to a unit, one piece per file span."""
        for start, end in self.view.spans(a, b):
            unit.add(self.text[start:end], start, end)

    def run(self, items: Sequence[Item]) -> Document:
        lines = [i for i, it in enumerate(items) if isinstance(it, Line)]
        nxt = dict(zip(lines, [*lines[1:], None], strict=False))
        for idx, it in enumerate(items):
            if isinstance(it, Meta):
                self.meta(it)
            elif isinstance(it, Page):
                self.doc.pages.append((it.start, it.label))
                self.seg(Seg.PAGE, it.start, it.end)
            elif isinstance(it, Segment):
                self.doc.segments.append(it)
                if it.kind is Seg.NOISE:
                    snippet = self.text[it.start : it.end][:30]
                    self.issue("noise", it.start, it.end, f"not part of the book: {snippet!r}")
            else:
                following = nxt[idx]
                self.line(it, items[following] if following is not None else None)
        # a layout that joins lines reports what lies between the pieces as it goes
        self.doc.segments.sort(key=lambda s: s.start)
        self.doc.pages.sort()
        self._report_garbles()
        return self.doc

    def meta(self, it: Meta) -> None:
        self.doc.metadata.update(it.values)
        label = it.values.get("juan")
        if label is not None:
            label = normalize(label).strip()
            m = self.markers.juan_label.match(label)
            if label.isascii() and label.isdigit():
                self.header_juan = int(label) or None
            else:
                self.header_juan = parse_numeral(m.group(1)) if m else None

    def _juan(self) -> Juan:
        if self.juan is None:
            if self.header_juan is not None:
                self.juan = Juan(number=self.header_juan, placement="header")
            else:
                self.juan = Juan(number=None, placement="unknown")
            self.doc.juans.append(self.juan)
        return self.juan

    def _chapter(self, at: int) -> Chapter:
        if self.chapter is None:
            juan = self._juan()
            if self.front:
                self.issue("structure", at, at + 1, "text before any chapter title in this juan")
            self.chapter = Chapter(placement="unknown", category=self.category)
            juan.chapters.append(self.chapter)
            self.chapter.section().starts_mid = juan.open_span is None
            self.front = False
        return self.chapter

    def _norm(self, tok: Tok) -> str:
        return normalize(self.view.text[tok.start : tok.end]).strip()

    def _line_text(self, ln: Line) -> str:
        return "".join(self.text[a:b] for a, b in ln.spans())

    # -- lines ------------------------------------------------------------------------------

    def line(self, ln: Line, following: Item | None) -> None:
        if ln.role == "abstract":
            unit = TextUnit(Seg.ABSTRACT)
            for a, b in ln.spans():
                unit.add(self.text[a:b], a, b)
                self.seg(Seg.ABSTRACT, a, b)
            self.doc.abstract = unit
            return
        self.view = View(self.text, ln.spans())
        toks = tokenize(self.view.text, 0, len(self.view.text), self.brackets)
        content = [t for t in toks if t.kind != "sep"]
        if not content:
            self.vseg(Seg.LAYOUT, 0, len(self.view.text))
            return
        first = content[0]
        rest_are_notes = all(t.kind == "bracket" for t in content[1:])
        after = content[1:]
        if (
            first.kind == "text"
            and rest_are_notes
            and self._marker(first, following, ln.role, after)
        ):
            self._trailing(toks, toks.index(first) + 1)
            return
        titled = first.kind == "text" and ln.role == "title" and rest_are_notes
        if titled and self._unknown_title(first):
            self._trailing(toks, toks.index(first) + 1)
            return
        if (
            first.kind == "text"
            and ln.role != "classic"
            and self._is_heading(first, strict=ln.role != "heading")
        ):
            self.heading(toks, toks.index(first))
            return
        self.content(toks, headings=ln.role != "classic")

    def _marker(
        self, tok: Tok, following: Item | None, role: str = "text", after: Sequence[Tok] = ()
    ) -> bool:
        """Whole-line markers: juan, furniture, category, chapter title, preface title."""
        norm = self._norm(tok)
        a, b = tok.start, tok.end
        m = self.markers.juan_marker.match(norm) or self._work_juan(norm)
        if m and (n := parse_numeral(m.group(1))) is not None:
            self.juan_marker(n, a, b, following)
            return True
        if norm in self.markers.furniture or any(
            p.match(norm) for p in self.markers.furniture_patterns
        ):
            self.vseg(Seg.FURNITURE, a, b)
            return True
        if (cat := self.cat.category_for(norm)) is not None:
            self.category = self.juan_category = self.view.text[a:b]
            if self.chapter is not None and self.chapter.title is None and cat:
                self.chapter.category = self.category
            self.vseg(Seg.CATEGORY, a, b)
            self.last = "category"
            return True
        if (rite := rite_for(self.cat, norm)) is not None:
            self.chapter_title(rite, a, b)
            return True
        next_line = self._line_text(following) if isinstance(following, Line) else ""
        next_line = normalize(next_line).strip(_SEP)
        if is_front_matter(norm):
            self.preface_title(a, b)
            return True
        if role != "classic" and (name := name_of(norm)) is not None:
            # its place, or a category mark after it on its line or the next: 投壶礼【嘉】
            marked = self._is_mark(self.view.text[after[0].start : after[0].end] if after else "")
            if (
                role == "title"
                or self.last in _TITLE_PLACES
                or self.juan is None
                or marked
                or self._is_mark(next_line[: next_line.find(self.brackets[1]) + 1])
            ):
                self.new_rite(name, a, b)
                return True
        if self._front_title(norm, next_line, role, bool(after)):
            self.preface_title(a, b)
            return True
        return False

    def _is_mark(self, text: str) -> bool:
        """【嘉】, 【嘉礼】: a category mark."""
        opening, closing = self.brackets
        if not (text.startswith(opening) and text.endswith(closing)):
            return False
        inner = normalize(text[1:-1]).strip()
        return inner in self.marks or self.cat.category_for(inner) is not None

    def _front_title(self, norm: str, next_line: str, role: str, notes: bool) -> bool:
        """A front-matter title no list knows: the first line after the juan's marker, short,
        followed by its 【…】, before any category line. Only there: 经文 is never a title."""
        if role == "classic" or not (self.front and self.chapter is None and self.last == "juan"):
            return False
        if self.category is not None or len(norm) > self.markers.preface_max:
            return False
        if not (notes or next_line.startswith(self.brackets[0])):
            return False
        a, b = self.view.span(0, len(self.view.text))
        self.issue("structure", a, b, f"{norm!r} read as the title of the juan's front matter")
        return True

    def preface_title(self, a: int, b: int) -> None:
        pre = Preface(title=self.view.text[a:b], title_span=self.view.span(a, b))
        self._juan().prefaces.append(pre)
        self.target = pre
        self.vseg(Seg.PREFACE_TITLE, a, b)
        self.last = "preface"

    def new_rite(self, name: str, a: int, b: int) -> None:
        """A chapter title the vocabulary lacks: its rite is minted from its name, and said."""
        slug = mint_slug(self.cat, name)
        title = self.view.text[a:b]
        said = f"chapter {title!r} names no rite of ontology/rites.ttl: minted as rite/{slug}"
        self.vissue("structure", a, b, said)
        self.chapter_title(slug, a, b)
        assert self.chapter is not None
        self.chapter.minted = name
        self.chapter.part = half_of(title)
        self.chapter.category = self.chapter.category or self.juan_category

    def _work_juan(self, norm: str) -> re.Match[str] | None:
        """``TITLE卷N`` where a file's header names the work TITLE (another Kanripo text)."""
        name = normalize(self.doc.metadata.get("name", "")).strip()
        if not name or not norm.startswith(name):
            return None
        return self.markers.juan_label.match(norm[len(name) :])

    def _unknown_title(self, tok: Tok) -> bool:
        """A line the layout marks as a title but no catalogue knows, whatever its shape."""
        norm = self._norm(tok)
        if len(norm) > self.markers.preface_max:
            return False
        self.new_rite(norm, tok.start, tok.end)
        return True

    def _trailing(self, toks: list[Tok], start: int) -> None:
        """Separators and 【…】 after a marker on the same line attach to the new target."""
        for tok in toks[start:]:
            if tok.kind == "sep":
                self.vseg(Seg.LAYOUT, tok.start, tok.end)
            elif not self._category_mark(tok):
                self.attach(self.note(tok, Seg.COMMENTARY))

    def _category_mark(self, tok: Tok) -> bool:
        """【嘉】 right after a chapter title, before its preface: the chapter's category."""
        ch = self.chapter
        if self.last != "title" or ch is None or ch.preface is not self.target:
            return False
        if ch.preface is None or ch.preface.blocks or not (tok.opened and tok.closed):
            return False
        if not self._is_mark(self.view.text[tok.start : tok.end]):
            return False
        # the chapter's own mark, over an inherited one; the juan's chapters are in it so far
        ch.category = self.juan_category = self._inner(tok).strip()
        self.vseg(Seg.CATEGORY, tok.start, tok.end)
        return True

    def juan_marker(self, n: int, a: int, b: int, following: Item | None) -> None:
        span = self.view.span(a, b)
        cur = self.juan
        closes = cur is not None and (
            cur.number == n
            or (cur.number is None and cur.open_span is None and self._closing(following))
        )
        if cur is not None and closes:
            if cur.number is None:
                cur.number, cur.placement = n, "close-marker"
            cur.close_span = span
            self.juan = self.chapter = self.target = None
            self.front = False
            self.last = "start"
        else:
            if self.header_juan is not None and self.header_juan != n:
                said = f"juan {n} opens here, but the file's header says juan {self.header_juan}"
                self.issue("structure", span[0], span[1], said)
            self.juan = Juan(number=n, placement="marker", open_span=span)
            self.doc.juans.append(self.juan)
            self.chapter = self.target = None
            self.category = self.juan_category = None
            self.front = True
            self.last = "juan"
        self.vseg(Seg.JUAN_MARKER, a, b)

    def _closing(self, following: Item | None) -> bool:
        """After fragment content, a juan marker closes that juan unless a juan opening follows."""
        if not isinstance(following, Line):
            return True
        norm = normalize(self._line_text(following)).strip()
        opening = any(p.match(norm) for p in self.markers.furniture_patterns)
        opening = opening or self.cat.category_for(norm) is not None
        return not (opening or rite_for(self.cat, norm) is not None or name_of(norm) is not None)

    def chapter_title(self, rite: str, a: int, b: int) -> None:
        juan = self._juan()
        known = self.cat.rites.get(rite)
        if known is not None and known.category:
            self.juan_category = self.category_label.get(known.category, self.juan_category)
        self.chapter = Chapter(
            title=self.view.text[a:b],
            rite=rite,
            category=self.category,
            title_span=self.view.span(a, b),
        )
        juan.chapters.append(self.chapter)
        self.chapter.preface = Preface()
        self.target = self.chapter.preface
        self.front = False
        self.category = None
        self.vseg(Seg.CHAPTER_TITLE, a, b)
        self.last = "title"

    # -- headings and records ---------------------------------------------------------------

    def _is_heading(self, tok: Tok, strict: bool = True) -> bool:
        """右X: 右 and a short title; ``strict`` also refuses 右 + an ordinary word (右手 …)."""
        prefix = self.markers.heading_prefix
        length = tok.end - tok.start - len(prefix)
        if (
            not self.view.text.startswith(prefix, tok.start)
            or not 1 <= length <= self.markers.heading_max
        ):
            return False
        return (
            not strict
            or self.view.text[tok.start + len(prefix)] not in self.markers.heading_not_before
        )

    def heading(self, toks: list[Tok], at: int) -> None:
        tok = toks[at]
        self.last = "heading"
        chapter = self._chapter(self.view.at(tok.start))
        sec = chapter.section()
        sec.title = self.view.text[tok.start + len(self.markers.heading_prefix) : tok.end]
        sec.heading = self.view.span(tok.start, tok.end)
        self.vseg(Seg.HEADING, tok.start, tok.end)
        self.target = sec
        prev = "title"
        rec: TextUnit | None = None
        for t in toks[at + 1 :]:
            if t.kind == "sep":
                self.vseg(Seg.LAYOUT, t.start, t.end)
                prev = "sep"
            elif t.kind == "text":
                if rec is None or rec.commentary or prev == "sep":
                    rec = TextUnit(Seg.RECORD)
                    sec.records.append(rec)
                self.add(rec, t.start, t.end)
                self.vseg(Seg.RECORD, t.start, t.end)
                self.target = rec
                prev = "text"
            else:
                if prev == "title":
                    kind = Seg.SOURCE_NOTE if self._is_source_note(t) else Seg.COMMENTARY
                    sec.notes.append(self.note(t, kind))
                else:
                    self.bracket(t, rec, glued=prev == "text")
                prev = "bracket"

    # -- passages ---------------------------------------------------------------------------

    def content(self, toks: list[Tok], headings: bool = True) -> None:
        cur: TextUnit | None = None
        prev = ""
        last_solid = ""
        for i, t in enumerate(toks):
            if t.kind == "sep":
                self.vseg(Seg.LAYOUT, t.start, t.end)
                prev = "sep"
                continue
            if t.kind == "text":
                # 右X after a closing 】 (with or without a separator) opens a heading
                if headings and last_solid == "bracket" and self._is_heading(t):
                    self.heading(toks, i)
                    return
                if cur is None or cur.commentary:
                    cur = TextUnit(Seg.PASSAGE)
                    self._chapter(self.view.at(t.start)).section().passages.append(cur)
                self.add(cur, t.start, t.end)
                self.vseg(Seg.PASSAGE, t.start, t.end)
                self.target = cur
                self.last = "text"
            elif cur is None:
                if not self._category_mark(t):
                    self.attach(self.note(t, Seg.COMMENTARY))
            else:
                self.bracket(t, cur, glued=prev == "text")
            prev = last_solid = t.kind

    def _inner(self, tok: Tok) -> str:
        return self.view.text[tok.start + tok.opened : tok.end - tok.closed]

    def bracket(self, tok: Tok, unit: TextUnit | None, glued: bool) -> None:
        """A 【…】 after text: reading mark, inline textual/source note, or commentary."""
        inner = normalize(self._inner(tok)).strip()
        if unit is not None and tok.opened and tok.closed:
            if inner in self.markers.reading_marks:
                unit.reading_breaks.append(len(unit.text))
                self.vseg(Seg.READING_MARK, tok.start, tok.end)
                return
            if glued and not unit.commentary and len(inner) <= self.markers.note_max:
                kind = None
                if any(p.search(inner) for p in self.markers.textual):
                    kind = Seg.TEXTUAL_NOTE
                elif self._is_source_note(tok):
                    kind = Seg.SOURCE_NOTE
                if kind is not None:
                    unit.notes.append(self.note(tok, kind))
                    return
        note = self.note(tok, Seg.COMMENTARY)
        if unit is None:
            self.attach(note)
        else:
            unit.commentary.append(note)

    def _is_source_note(self, tok: Tok) -> bool:
        inner = normalize(self._inner(tok)).strip()
        return len(inner) <= self.markers.note_max and any(
            p.search(inner) for p in self.markers.source
        )

    def note(self, tok: Tok, kind: Seg) -> Note:
        inner = self._inner(tok)
        opening, closing = self.brackets
        if not tok.closed:
            self.vissue(
                "unbalanced",
                tok.start,
                tok.end,
                f"{opening} is not closed on its line: read to line end",
            )
        if not tok.opened:
            self.vissue(
                "unbalanced",
                tok.start,
                tok.end,
                f"{closing} without {opening}: read as the end of a commentary begun before "
                "this line",
            )
        self.vseg(kind, tok.start, tok.end)
        pieces = self.view.spans(tok.start, tok.end)
        start, end = pieces[0][0], pieces[-1][1]
        return Note(kind, inner, start, end, opened=tok.opened, closed=tok.closed, pieces=pieces)

    def attach(self, note: Note) -> None:
        """A 【…】 that starts a line belongs to what came before it."""
        target = self.target
        if isinstance(target, TextUnit):
            target.commentary.append(note)
        elif isinstance(target, Preface):
            target.blocks.append(note)
        elif isinstance(target, Section):
            target.notes.append(note)
        else:
            if self.front and self.chapter is None:
                pre = Preface()
                self._juan().prefaces.append(pre)
                pre.blocks.append(note)
                self.target = pre
                return
            self._chapter(note.start).section().orphans.append(note)

    def _report_garbles(self) -> None:
        noise = [(s.start, s.end) for s in self.doc.segments if s.kind is Seg.NOISE]
        for m in GARBLED.finditer(self.text):
            if any(a <= m.start() < b for a, b in noise):
                continue
            self.issue("garbled", m.start(), m.end(), f"unreadable character {m.group()!r} kept")
