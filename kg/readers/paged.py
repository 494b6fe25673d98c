"""Line layout extracted from a PDF (seed 000): one unit per line, page headers between.

``礼经本义 - 第 7 页/共 40 页`` lines are page headers, reported as noise.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kg.readers.base import Item, LayoutReader, line_items

_HEADER = re.compile(r"^\S*\s*[-－—]\s*第\s*\d+\s*页\s*/\s*共\s*\d+\s*页\s*$", re.M)


class PagedReader(LayoutReader):
    name = "paged"
    description = "lines with PDF page headers (礼经本义 - 第 N 页/共 M 页)"

    def score(self, text: str) -> float:
        return 0.9 if _HEADER.search(text[:200000]) else 0.0

    def items(self, text: str) -> Iterator[Item]:
        yield from line_items(text)
