"""How full a printed line is: the edition's column width, read from the text itself.

A Siku page has a fixed number of character cells per column (21 in the WYG 集说). A line of
commentary or 经文 that fills the column may run on in the next line; one that stops short
ends its unit. Small print takes one cell for each character of its longer half (two small
columns share a cell), indentation one cell a full-width space, and a Kanripo entity for a
character outside Unicode (``&KR0879;``) one cell.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from kg.readers.tradition.layout import KLine

_ENTITY = re.compile(r"&[A-Za-z0-9_]+;")
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
