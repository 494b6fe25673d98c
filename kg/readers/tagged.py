"""Single-line web export with ``[book_*]`` tags (seed 001).

The whole book sits on one line: a ``[book_name]… [book_dec]…`` header (work metadata), then
``[book_title]提要`` (the catalogue abstract) and ``[book_title]卷N`` parts. Inside a part,
units are separated by ASCII spaces (a full-width space separates the Records after a
``右X`` heading), so each space-separated chunk at bracket depth 0 is one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kg.readers.base import Item, LayoutReader, Meta, cut, line_items
from kg.text.document import Seg, Segment

_TAG = re.compile(r"\[book_([a-z_]+)\]")
_TITLE = "[book_title]"


class TaggedReader(LayoutReader):
    name = "tagged"
    description = "single-line web export with [book_*] tags"

    def score(self, text: str) -> float:
        head = text[:4096]
        if "[book_name]" in head or "[book_title]" in head:
            return 1.0
        return 0.5 if _TITLE in text else 0.0

    def items(self, text: str) -> Iterator[Item]:
        first = text.find(_TITLE)
        if first < 0:
            first = len(text)
        if first > 0:
            yield from self._header(text, 0, first)
        pos = first
        while pos < len(text):
            nxt = text.find(_TITLE, pos + len(_TITLE))
            stop = len(text) if nxt < 0 else nxt
            yield from self._part(text, pos, stop)
            pos = stop

    def _header(self, text: str, start: int, end: int) -> Iterator[Item]:
        values: dict[str, str] = {}
        tags = list(_TAG.finditer(text, start, end))
        if not tags:
            yield from line_items(text, start, end)
            return
        if tags[0].start() > start:
            yield from line_items(text, start, tags[0].start())
        for i, tag in enumerate(tags):
            stop = tags[i + 1].start() if i + 1 < len(tags) else end
            values[tag.group(1)] = text[tag.end() : stop].strip()
        yield Meta(values)
        yield Segment(Seg.METADATA, tags[0].start(), end)

    def _part(self, text: str, start: int, end: int) -> Iterator[Item]:
        # "[book_title]卷一" or "[book_title]提要": the tag and its name are furniture
        name_end = start + len(_TITLE)
        while name_end < end and not text[name_end].isspace():
            name_end += 1
        yield Segment(Seg.FURNITURE, start, name_end)
        name = text[start + len(_TITLE) : name_end]
        if name == "提要":
            yield from cut(text, name_end, end, role="abstract")
            return
        yield from _chunks(text, name_end, end)


def _chunks(text: str, start: int, end: int) -> Iterator[Item]:
    """Split on ASCII spaces and line breaks outside 【…】; each chunk is a line."""
    depth = 0
    pos = start
    i = start
    while i < end:
        ch = text[i]
        if ch == "【":
            depth += 1
        elif ch == "】":
            depth = max(0, depth - 1)
        elif ch in " \n" and depth == 0:
            if i > pos:
                yield from cut(text, pos, i)
            j = i
            while j < end and text[j] in " \n\r":
                j += 1
            yield Segment(Seg.LAYOUT, i, j)
            pos = i = j
            continue
        i += 1
    if end > pos:
        yield from cut(text, pos, end)
