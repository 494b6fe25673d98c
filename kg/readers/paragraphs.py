"""Paragraphs separated by blank lines (seeds 003, 004): each paragraph line is one unit."""

from __future__ import annotations

from collections.abc import Iterator

from kg.readers.base import Item, LayoutReader, line_items, physical_lines


class ParagraphReader(LayoutReader):
    name = "paragraphs"
    description = "paragraphs separated by blank lines"

    def score(self, text: str) -> float:
        spans = list(physical_lines(text[:200000]))
        if len(spans) < 3:
            return 0.0
        blank = sum(1 for a, b in spans if not text[a:b].strip())
        share = blank / len(spans)
        return 0.7 if 0.3 < share < 0.7 else 0.0

    def items(self, text: str) -> Iterator[Item]:
        yield from line_items(text)
