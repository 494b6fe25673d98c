"""How full a printed line is: the edition's column width, read from the text itself.

A Siku page has a fixed number of character cells per column (21 in the WYG 集说). A line of
commentary or 经文 that fills the column may run on in the next line; one that stops short
ends its unit. Small print takes one cell for each character of its longer half (two small
columns share a cell), indentation one cell a full-width space, and a Kanripo entity for a
character outside Unicode (``&KR0879;``) one cell.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from kg.readers.tradition.layout import KLine

_ENTITY = re.compile(r"&[A-Za-z0-9_]+;")
NARROW_PAGE = 3  # a page whose longest lines, this many at least, are a cell or two short
NARROW_BY = 2  # … is printed narrower: its full lines are those
MIN_WIDTH = 4  # below this no line is "full": a text of one-word lines has no column to fill


def cells(text: str) -> int:
    return len(_ENTITY.sub("\x00", text))


def columns(line: KLine, source: str) -> int:
    """Character cells the printed line fills, its indentation included."""
    n = line.indent
    for run in line.runs:
        if not run.small:
            n += cells(run.text)
            continue
        start = (run.opened + 1) if run.opened is not None else line.start
        end = run.closed if run.closed is not None else line.end
        right, _, left = source[start:end].rstrip("¶ \u3000").partition("/")
        n += max(cells(right), cells(left))
    return n


def width(lines: Iterable[KLine], source: str) -> int:
    """The column width: the commonest line length (most lines of running text are full);
    on a tie the longer one."""
    counts = Counter(columns(ln, source) for ln in lines if not ln.blank and ln.header is None)
    if not counts:
        return MIN_WIDTH
    best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
    return max(best, MIN_WIDTH)


@dataclass(frozen=True)
class Widths:
    """The column width at each page: the text's, or a narrower page's own (the WYG 集说
    prints the odd half-leaf with 20 cells a column where the rest has 21)."""

    default: int
    starts: tuple[int, ...] = ()  # file offset where each page begins
    widths: tuple[int, ...] = ()

    def at(self, offset: int) -> int:
        k = bisect_right(self.starts, offset) - 1
        return self.widths[k] if k >= 0 else self.default


def page_widths(lines: list[KLine], pages: list[int], source: str) -> Widths:
    """``pages``: file offsets of the page markers, in order."""
    full = width(lines, source)
    per: dict[int, Counter[int]] = {}
    for ln in lines:
        if ln.blank or ln.header is not None:
            continue
        k = bisect_right(pages, ln.start) - 1
        per.setdefault(k, Counter())[columns(ln, source)] += 1
    starts, widths = [], []
    for k, counts in sorted(per.items()):
        longest = max(counts)
        if longest < full and longest >= full - NARROW_BY and counts[longest] >= NARROW_PAGE:
            starts.append(pages[k] if k >= 0 else 0)
            widths.append(longest)
            starts.append(pages[k + 1] if k + 1 < len(pages) else len(source))
            widths.append(full)
    return Widths(full, tuple(starts), tuple(widths))
