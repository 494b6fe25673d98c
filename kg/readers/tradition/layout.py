"""The Kanripo line layer the tradition readers share (注疏, 集说, an unknown work).

A Mandoku juan file (``../shared/corpus/tradition/README.md``) is read into printed lines
with every character's file offset, the layout marks cut out:

- org header lines (``#+TITLE:``, ``#+PROPERTY: ID KR1d0028``, ``BASEEDITION``, ``JUAN``) →
  ``KanripoFile.header`` (names as in ``kg/readers/kanripo.toml``); a property met again later
  (``#+PROPERTY: JUAN 卷一考證`` before the 考證) is kept in ``properties`` with its line;
- page markers ``<pb:KR1d0028_WYG_001-2a>`` → ``KanripoFile.pages`` (``WYG 001-2a``);
- ``¶`` (end of a printed column), trailing blanks, and the full-width spaces opening a line
  (counted: ``KLine.indent``) are layout;
- ``( … / … )`` is small print in two columns. Each printed line holds the right-hand column
  before ``/`` and the left-hand one after it, and a note runs on line by line, so reading
  order is file order with the marks left out: ``(釋曰自此至宗人告/事畢一節論將行冠)¶
  (禮先筮諏日之事…`` reads 釋曰自此至宗人告事畢一節論將行冠禮先筮諏日之事. ``Run.small``
  says which print a stretch is in.

``Stream`` flattens the lines into one string with an offset per character, so a reader can
match patterns across line ends and turn any range back into file ``pieces``; ``partition``
makes the lossless ``segments`` from what the reader claimed plus this layer's marks.
Nothing here raises on bad input: what cannot be read is an ``Issue`` with its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kg.readers.kanripo import layout, page_label
from kg.text.document import Issue, Seg, Segment
from kg.text.tradition import Pieced

INDENT = "\u3000"
_LEAD = INDENT + " \t\ufeff\xa0"
_TRAILING = " \t\u3000\xa0\r\ufeff"
_HEADER = re.compile(r"#\+([A-Za-z_]+):[ \t]*(.*)$")
_TAG = re.compile(r"<[^<>\n]*>?")


@dataclass
class Run:
    """A stretch of one print size within a printed line, marks removed."""

    small: bool
    text: str = ""
    offsets: list[int] = field(default_factory=list)  # file offset of each character
    opened: int | None = None  # offset of the "(" that opened this small run
    closed: int | None = None  # offset of its ")" (None: never closed on the line)

    def push(self, ch: str, offset: int) -> None:
        self.text += ch
        self.offsets.append(offset)


@dataclass
class KLine:
    """One printed line (``number`` 1-based; ``start``–``end`` without the newline)."""

    number: int
    start: int
    end: int
    indent: int = 0  # full-width spaces before the first content
    runs: list[Run] = field(default_factory=list)
    column_end: int | None = None  # offset of the ¶ ending the printed column
    header: tuple[str, str] | None = None  # an org line: (KEY or PROPERTY NAME, value)

    @property
    def text(self) -> str:
        return "".join(r.text for r in self.runs)

    @property
    def blank(self) -> bool:
        return not any(r.text for r in self.runs)


@dataclass
class KanripoFile:
    text: str
    lines: list[KLine] = field(default_factory=list)
    header: dict[str, str] = field(default_factory=dict)  # name → value (first occurrence)
    properties: list[tuple[int, str, str]] = field(default_factory=list)  # (line, name, value)
    pages: list[tuple[int, str]] = field(default_factory=list)  # (offset, "WYG 001-2a")
    marks: list[Segment] = field(default_factory=list)  # metadata lines, page markers, tags
    issues: list[Issue] = field(default_factory=list)

    def content(self) -> list[KLine]:
        """The lines of the book: header lines and lines with no content left out."""
        return [ln for ln in self.lines if ln.header is None and not ln.blank]


def read_lines(text: str) -> KanripoFile:
    """Every printed line of ``text`` with its runs, marks and header values."""
    out = KanripoFile(text)
    for number, (a, b) in enumerate(_physical(text), start=1):
        if text.startswith("#", a) or text.startswith("* ", a):
            out.lines.append(_header(out, number, a, b))
        else:
            out.lines.append(_line(out, number, a, b))
    return out


def _physical(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            yield pos, len(text)
            return
        yield pos, nl
        pos = nl + 1


def _header(out: KanripoFile, number: int, a: int, b: int) -> KLine:
    lay = layout()
    raw = out.text[a:b].rstrip(_TRAILING)
    line = KLine(number, a, b)
    if raw:
        out.marks.append(Segment(Seg.METADATA, a, a + len(raw)))
    m = _HEADER.match(raw)
    if m is None:
        return line  # the mode line, a comment, an org headline: not the book
    key, value = m.group(1).upper(), m.group(2).strip()
    if key == "PROPERTY":
        prop = re.match(r"(\S+)(?:[ \t]+(.*))?$", value)
        if prop is None:
            out.issues.append(Issue("garbled", number, a, b, "'#+PROPERTY:' without a name"))
            return line
        key, value = prop.group(1).upper(), (prop.group(2) or "").strip()
        name = lay.properties.get(key, key.lower())
        out.properties.append((number, name, value))
    else:
        name = lay.keywords.get(key, key.lower())
        value = value.split(" / ")[0].strip()  # "儀禮注疏 / WYG": the edition is not the title
    out.header.setdefault(name, value)
    line.header = (name, value)
    return line


def _line(out: KanripoFile, number: int, a: int, b: int) -> KLine:
    """Page markers and tags out, indentation counted, ``¶``, ``(``, ``/``, ``)`` cut."""
    line = KLine(number, a, b)
    chars: list[tuple[int, str]] = []  # (offset, char) of the line without markers
    pos = a
    for m in _TAG.finditer(out.text, a, b):
        if not _marker(out, number, m.start(), m.end()):
            continue  # an ordinary "<" of the text
        chars.extend((i, out.text[i]) for i in range(pos, m.start()))
        pos = m.end()
    chars.extend((i, out.text[i]) for i in range(pos, b))
    while chars and chars[-1][1] in _TRAILING:
        chars.pop()
    k = 0
    while k < len(chars) and chars[k][1] in _LEAD:
        line.indent += chars[k][1] == INDENT
        k += 1
    _runs(out, line, chars[k:])
    return line


def _marker(out: KanripoFile, number: int, s: int, e: int) -> bool:
    """A page marker or Mandoku tag at ``s``–``e``: recorded; False for text that is not one."""
    raw = out.text[s:e]
    if raw.startswith("<pb:"):
        label = page_label(raw[4:-1]) if raw.endswith(">") else None
        if label is None:
            out.marks.append(Segment(Seg.NOISE, s, e))
            msg = f"malformed page marker {raw!r}: expected <pb:TEXT_EDITION_JJJ-NNs>"
            out.issues.append(Issue("garbled", number, s, e, msg))
        else:
            out.marks.append(Segment(Seg.PAGE, s, e))
            out.pages.append((s, label[0]))
        return True
    if layout().tag.fullmatch(raw):
        out.marks.append(Segment(Seg.METADATA, s, e))
        return True
    return False


def _runs(out: KanripoFile, line: KLine, chars: list[tuple[int, str]]) -> None:
    lay = layout()
    opening, closing = lay.note
    run = Run(small=False)
    depth = 0
    for offset, ch in chars:
        if ch == lay.column_end:
            line.column_end = offset
        elif ch == opening:
            if depth == 0:
                line.runs.append(run)
                run = Run(small=True, opened=offset)
            depth += 1
        elif ch == closing and depth:
            depth -= 1
            if depth == 0:
                run.closed = offset
                line.runs.append(run)
                run = Run(small=False)
        elif ch == closing:
            msg = "')' closes no small print: read as a mark"
            out.issues.append(Issue("unbalanced", line.number, offset, offset + 1, msg))
        elif not (ch == lay.split and depth):
            run.push(ch, offset)
    if depth:
        msg = "small print '(' not closed on its line"
        out.issues.append(Issue("unbalanced", line.number, run.opened or 0, line.end, msg))
    while run.text and run.text[-1] in _TRAILING:  # blanks before the ¶ are layout
        run.text, run.offsets = run.text[:-1], run.offsets[:-1]
    line.runs.append(run)
    line.runs = [r for r in line.runs if r.text or r.small]


@dataclass
class Stream:
    """The content of lines as one string: ``offsets[i]`` is the file offset of ``text[i]``,
    ``small[i]`` its print, ``line[i]`` its printed line; ``opens`` the indices where a
    small run begins (after its ``(``), ``line_starts`` where a printed line's content begins."""

    text: str
    offsets: list[int]
    small: list[bool]
    line: list[int]
    opens: set[int]
    line_starts: set[int]
    source: str = ""  # the file's text, for ``fill``

    def pieces(self, i: int, j: int) -> list[tuple[int, int]]:
        """File spans of ``text[i:j]``: runs of consecutive offsets."""
        spans: list[tuple[int, int]] = []
        for k in range(max(i, 0), min(j, len(self.text))):
            o = self.offsets[k]
            if spans and spans[-1][1] == o:
                spans[-1] = (spans[-1][0], o + 1)
            else:
                spans.append((o, o + 1))
        return spans

    def fill(self, target: Pieced, i: int, j: int) -> None:
        """Add ``text[i:j]`` to ``target``, piece by piece."""
        for s, e in self.pieces(i, j):
            target.add(self.source[s:e], s, e)

    def line_of(self, i: int) -> int:
        return self.line[min(i, len(self.line) - 1)] if self.line else 1


def stream(lines: Iterable[KLine], source: str) -> Stream:
    text: list[str] = []
    offsets: list[int] = []
    small: list[bool] = []
    numbers: list[int] = []
    opens: set[int] = set()
    starts: set[int] = set()
    for ln in lines:
        if ln.header is not None:
            continue
        starts.add(len(offsets))
        for r in ln.runs:
            if r.small:
                opens.add(len(offsets))
            text.append(r.text)
            offsets.extend(r.offsets)
            small.extend([r.small] * len(r.text))
            numbers.extend([ln.number] * len(r.text))
    return Stream("".join(text), offsets, small, numbers, opens, starts, source=source)


def partition(length: int, claimed: Iterable[Segment]) -> list[Segment]:
    """Segments covering ``0``–``length`` exactly: the ``claimed`` ones in order (an overlap is
    clipped), every gap between them layout."""
    out: list[Segment] = []
    pos = 0
    for seg in sorted(claimed, key=lambda s: (s.start, s.end)):
        start, end = max(seg.start, pos), min(seg.end, length)
        if end <= start:
            continue
        if start > pos:
            out.append(Segment(Seg.LAYOUT, pos, start))
        out.append(Segment(seg.kind, start, end))
        pos = end
    if pos < length:
        out.append(Segment(Seg.LAYOUT, pos, length))
    return out
