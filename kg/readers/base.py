"""What every layout reader shares: decoding, the marker table, and cutting lines out of text.

A reader turns a file into a stream of ``Line``s (stretches of content for the structure
parser) and ``Segment``s (layout, noise, metadata, furniture it recognised itself) that
together cover the text exactly, in order.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

from kg.errors import InputError
from kg.text.document import Seg, Segment

_WS = " \t\u3000\r\n\f\v\ufeff\xa0"


@dataclass(slots=True)
class Line:
    """A stretch of content the structure parser reads as one line.

    A layout that wraps a unit over several printed lines gives the pieces to join
    (``pieces``, in reading order; what lies between them the reader reports as segments);
    otherwise the line is the one span ``start``–``end``. ``role`` says what the layout
    knows about the line: ``text`` (nothing), ``abstract``, ``classic`` (经文: never a
    heading), ``heading`` (a 右X heading block), ``title`` (a title line: juan, category,
    chapter).
    """

    start: int
    end: int
    role: str = "text"
    pieces: tuple[tuple[int, int], ...] = ()

    def spans(self) -> tuple[tuple[int, int], ...]:
        return self.pieces or ((self.start, self.end),)


@dataclass(slots=True)
class Meta:
    """Work metadata a reader found (the ``[book_*]`` header of a web export)."""

    values: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Page:
    """A page-break marker: the print page that begins at ``start`` (e.g. "WYG 001-2a")."""

    start: int
    end: int
    label: str


Item = Line | Segment | Meta | Page


class FormatError(Exception):
    """A reader cannot make sense of its layout at ``offset``: ``read`` names file and line."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


@dataclass(frozen=True)
class Markers:
    furniture: frozenset[str]
    furniture_patterns: tuple[re.Pattern[str], ...]
    juan_marker: re.Pattern[str]
    juan_label: re.Pattern[str]
    heading_prefix: str
    heading_max: int
    heading_not_before: frozenset[str]
    reading_marks: frozenset[str]
    note_max: int
    textual: tuple[re.Pattern[str], ...]
    source: tuple[re.Pattern[str], ...]
    preface_max: int
    noise_lines: tuple[re.Pattern[str], ...]
    noise_inline: re.Pattern[str]


@lru_cache(maxsize=1)
def markers() -> Markers:
    data = tomllib.loads((Path(__file__).parent / "markers.toml").read_text(encoding="utf-8"))
    comp = lambda xs: tuple(re.compile(x) for x in xs)  # noqa: E731
    return Markers(
        furniture=frozenset(data["lines"]["furniture"]),
        furniture_patterns=comp(data["lines"]["furniture_patterns"]),
        juan_marker=re.compile(data["lines"]["juan_marker"]),
        juan_label=re.compile(data["lines"]["juan_label"]),
        heading_prefix=data["heading"]["prefix"],
        heading_max=data["heading"]["max_title_chars"],
        heading_not_before=frozenset(data["heading"]["ordinary_next"]),
        reading_marks=frozenset(data["notes"]["reading_mark"]),
        note_max=data["notes"]["max_chars"],
        textual=comp(data["notes"]["textual"]),
        source=comp(data["notes"]["source"]),
        preface_max=data["preface"]["max_title_chars"],
        noise_lines=comp(data["noise"]["lines"]),
        noise_inline=re.compile("|".join(f"(?:{p})" for p in data["noise"]["inline"])),
    )


def decode(path: Path, data: bytes, encoding: str = "utf-8") -> str:
    """Bytes to text, or an InputError naming the line of the first bad byte."""
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise InputError(
            path, line, f"binary data (NUL byte at offset {nul}); expected a text file"
        )
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        hint = ""
        if encoding.replace("-", "").lower() in ("utf8", "utf8sig"):
            try:
                data[data.rfind(b"\n", 0, e.start) + 1 :].decode("gb18030")
                hint = "; it reads as GB18030/GBK: build with --encoding gb18030"
            except UnicodeDecodeError:
                pass
        raise InputError(
            path, line, f"not valid {encoding} (byte 0x{data[e.start]:02X} at column {col}){hint}"
        ) from None
    except LookupError:
        raise InputError(path, None, f"unknown encoding {encoding!r}") from None
    ctrl = sum(1 for ch in text[:65536] if ord(ch) < 32 and ch not in "\t\n\r\f\v")
    if ctrl > 8 and ctrl > len(text[:65536]) // 100:
        first = next(i for i, ch in enumerate(text) if ord(ch) < 32 and ch not in "\t\n\r\f\v")
        raise InputError(path, text.count("\n", 0, first) + 1, "binary data (control characters)")
    return text


def physical_lines(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """(start, end) of each line's content, without its line break."""
    end = len(text) if end is None else end
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        line_end = stop - 1 if stop > pos and text[stop - 1] == "\r" else stop
        yield pos, line_end
        pos = stop + 1 if nl >= 0 else end


def cut(text: str, start: int, end: int, role: str = "text") -> Iterator[Item]:
    """One stretch of a line: web footers and whole-line noise out, whitespace as layout."""
    m = markers()
    pos = start
    for hit in m.noise_inline.finditer(text, start, end):
        yield from _trimmed(text, pos, hit.start(), role, m)
        yield Segment(Seg.NOISE, hit.start(), hit.end())
        pos = hit.end()
    yield from _trimmed(text, pos, end, role, m)


def _trimmed(text: str, start: int, end: int, role: str, m: Markers) -> Iterator[Item]:
    a, b = start, end
    while a < b and text[a] in _WS:
        a += 1
    while b > a and text[b - 1] in _WS:
        b -= 1
    if a > start:
        yield Segment(Seg.LAYOUT, start, a)
    if b > a:
        body = text[a:b]
        if any(p.match(body) for p in m.noise_lines):
            yield Segment(Seg.NOISE, a, b)
        else:
            yield Line(a, b, role)
    if end > b and b >= a:
        yield Segment(Seg.LAYOUT, max(a, b), end)


def line_items(text: str, start: int = 0, end: int | None = None) -> Iterator[Item]:
    """Every physical line as items, line breaks as layout: the common case of line layouts."""
    end = len(text) if end is None else end
    pos = start
    for a, b in physical_lines(text, start, end):
        if a > pos:
            yield Segment(Seg.LAYOUT, pos, a)
        yield from cut(text, a, b)
        pos = b
    if end > pos:
        yield Segment(Seg.LAYOUT, pos, end)


class LayoutReader:
    """A layout: how confidently it fits a text, and how to cut the text into items."""

    name: ClassVar[str]
    description: ClassVar[str]
    brackets: ClassVar[tuple[str, str]] = ("【", "】")  # what encloses notes in this layout

    def score(self, text: str) -> float:
        raise NotImplementedError

    def items(self, text: str) -> Iterator[Item]:
        raise NotImplementedError
