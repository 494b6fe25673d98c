"""Statements about the wording of the text (校勘): a glued note such as
【二耦卒射之二郑本误作三】, or 衍文 / 当作 / 字之误 inside a commentary block.

Patterns are data (``patterns/commentary.toml`` [[textual]]).

>>> [(n.kind, n.reading, n.variant, n.edition) for n in find_readings("二耦卒射之二郑本误作三")]
[('edition-error', '二', '三', '郑本')]
>>> [(n.kind, n.reading, n.proposed) for n in find_readings("东上当作西上", passage="东上")]
[('emendation', '东上', '西上')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kg.nlp.commentary_rules import load_rules
from kg.text.normalize import normalize


@dataclass(frozen=True)
class ReadingNote:
    start: int  # the statement, offsets in the block's text
    end: int
    kind: str  # edition-error | variant | emendation | interpolation
    reading: str | None = None
    proposed: str | None = None
    variant: str | None = None
    edition: str | None = None
    locus: str | None = None


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[str, re.Pattern[str], bool]]:
    return [(p.kind, re.compile(p.regex), p.aligned) for p in load_rules().patterns.textual]


def find_readings(text: str, start: int = 0, end: int | None = None, passage: str = ""):
    """Textual statements in ``text[start:end]``, in order, not overlapping."""
    norm = normalize(text)
    passage = normalize(passage)
    end = len(norm) if end is None else end
    found: list[ReadingNote] = []
    taken: list[tuple[int, int]] = []
    for kind, pat, aligned in _patterns():
        for m in pat.finditer(norm, start, end):
            note = _aligned(norm, m, start, end, passage, kind) if aligned else _named(m, kind)
            if note is None or any(a < note.end and note.start < b for a, b in taken):
                continue
            taken.append((note.start, note.end))
            found.append(note)
    return sorted(found, key=lambda n: n.start)


def _named(m: re.Match[str], kind: str) -> ReadingNote:
    g = m.groupdict()
    return ReadingNote(
        m.start(),
        m.end(),
        kind,
        reading=g.get("reading"),
        proposed=g.get("proposed"),
        variant=g.get("variant"),
        edition=g.get("edition"),
        locus=g.get("locus"),
    )


def _aligned(
    norm: str, m: re.Match[str], start: int, end: int, passage: str, kind: str
) -> ReadingNote | None:
    """A当作B: A the longest words of the passage ending at 当, B as long as A, different."""
    if not passage:
        return None
    cfg = load_rules().patterns.aligned
    for n in range(cfg.max_reading, 0, -1):
        a = m.start() - n
        b = m.end() + n
        if a < start or b > end:
            continue
        reading, proposed = norm[a : m.start()], norm[m.end() : b]
        if reading in passage and proposed != reading and re.fullmatch(r"\w+", proposed):
            if n == 1 and reading in cfg.not_single:
                return None
            return ReadingNote(a, b, kind, reading=reading, proposed=proposed)
    return None
