"""Sections of a 注疏 chapter: the stretches its 疏 names (``自此至X一節論Y``).

注疏 prints no 右X headings; a 疏 opening ``自此至X`` (or ``自此盡X``, ``自此以下至X``) says the
passages from the one it comments on to the one whose 经文 ends with X are about Y. Passages
outside any such stretch go in untitled sections, so every passage is in exactly one. A
stretch opening inside another closes it (the model's sections do not nest).
"""

from __future__ import annotations

from collections.abc import Callable

from kg.readers.tradition.layout import Stream
from kg.readers.tradition.zhushu_units import Draft
from kg.text.normalize import normalize
from kg.text.tradition import TPassage, TSection

Report = Callable[..., None]


def sections_of(
    s: Stream, drafts: list[Draft], passages: list[TPassage], conf: dict, report: Report
) -> list[TSection]:
    starts = _starts(s, drafts, passages, conf, report)
    out: list[TSection] = []
    cur: TSection | None = None
    until: int | None = None  # index of the last passage of the open named stretch
    for k, p in enumerate(passages):
        if k in starts:
            cur, until = starts[k]
            out.append(cur)
        elif cur is None or (cur.title is not None and (until is None or k > until)):
            cur, until = TSection(), None
            out.append(cur)
        cur.passages.append(p)
    return out


def _starts(
    s: Stream, drafts: list[Draft], passages: list[TPassage], conf: dict, report: Report
) -> dict[int, tuple[TSection, int | None]]:
    """Where each named stretch begins: the first passage the 疏 is on (the passages since
    the last 疏 share it), but not before the end of the stretch before it."""
    out: dict[int, tuple[TSection, int | None]] = {}
    group, last_start, last_end = 0, -1, -1
    for k, d in enumerate(drafts):
        if d.group_start:
            group = k
        if d.section is None:
            continue
        title, covers, end, span = d.section
        start = min(max(group, last_start + 1, last_end + 1), k)
        pieces = s.pieces(*span)
        section = TSection(title=title, covers=covers, heading=(pieces[0][0], pieces[-1][1]))
        until = _end(end, passages, start, conf)
        if until is None:
            report("structure", pieces[0][0], f"the stretch {covers!r} names an end not found")
        out[start] = (section, until)
        last_start, last_end = start, until if until is not None else k
    return out


def _end(end: str, passages: list[TPassage], k: int, conf: dict) -> int | None:
    """The passage from ``k`` on whose 经文 holds the stretch's last words ``end``."""
    if end in conf["to_end"]:
        return len(passages) - 1
    target = normalize(end.rstrip(conf["strip_end"]))
    if not target:
        return None
    for tries in (target, target[-4:]):
        for j in range(k, len(passages)):
            if tries in normalize(passages[j].text):
                return j
    return None
