"""Fallback: any text, one unit per line. Never refuses a text."""

from __future__ import annotations

from collections.abc import Iterator

from kg.readers.base import Item, LayoutReader, line_items


class PlainReader(LayoutReader):
    name = "plain"
    description = "plain lines (fallback)"

    def score(self, text: str) -> float:
        return 0.1

    def items(self, text: str) -> Iterator[Item]:
        yield from line_items(text)
