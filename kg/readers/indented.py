"""Lines indented with two full-width spaces (seed 002): the indentation is layout."""

from __future__ import annotations

from collections.abc import Iterator

from kg.readers.base import Item, LayoutReader, line_items, physical_lines


class IndentedReader(LayoutReader):
    name = "indented"
    description = "lines indented with full-width spaces"

    def score(self, text: str) -> float:
        lines = [text[a:b] for a, b in physical_lines(text[:200000]) if b > a]
        if not lines:
            return 0.0
        share = sum(1 for ln in lines if ln.startswith("\u3000\u3000")) / len(lines)
        return 0.8 * share if share > 0.5 else 0.0

    def items(self, text: str) -> Iterator[Item]:
        yield from line_items(text)
