"""Split one 【…】 block into voices: who says which stretch of it.

``X曰`` with X any name the commentator vocabulary knows starts a quoted voice; ``按`` /
``愚按`` at the start of a part start the author's own note; ``旧说`` / ``或云`` / ``一说``
an anonymous earlier view. ``○`` and spaces separate parts: after one, unattributed text
is the author's again, as is a closing ``此X也`` summary. Text before any attribution is
the author's.

>>> [(v.speaker, v.kind) for v in split_voices("比合也 郝仲舆曰射二人为耦 此比耦也")]
[('caidejin', 'author'), ('haojing', 'quote'), ('caidejin', 'author')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kg.normalize import normalize
from kg.vocab import load_concepts

AUTHOR = "caidejin"
ANONYMOUS = "anonymous"
_SEPARATORS = re.compile(r"[○〇\s\u3000]+")
_FINALS = "也矣焉耳乎欤哉"
_SUMMARY = re.compile(r"此([^此之谓所以故乃]{2,8})也$")


@dataclass(frozen=True)
class Voice:
    start: int  # offsets in the block's inner text
    end: int
    speaker: str  # commentator slug
    kind: str  # author | note (按) | quote (X曰) | anonymous (旧说 …)
    marker: tuple[int, int] | None = None  # the attribution words (郝仲舆曰, 愚按)

    @property
    def body_start(self) -> int:
        return self.marker[1] if self.marker else self.start


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], dict[str, str]]:
    people = load_concepts("commentators.ttl")
    names: dict[str, str] = {}
    for c in people.values():
        if c.slug == ANONYMOUS:
            continue
        for form in c.forms:
            if len(form) >= 2 and form != "愚":
                names[form] = c.slug
    alternation = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(f"(?:{alternation})曰"), names


_NOTE = re.compile(r"(?:愚按|谨按|按)")
_ANON = re.compile(r"(?:旧说|或云|一说|或曰|或说)")


def split_voices(text: str) -> list[Voice]:
    """Voices of one commentary block, in order, covering its text but for separators."""
    norm = normalize(text)
    quote_re, names = _patterns()
    pieces: list[Voice] = []
    pos = 0
    for sep in [*_SEPARATORS.finditer(norm), None]:
        stop = sep.start() if sep else len(norm)
        if stop > pos:
            pieces.extend(_part(norm, pos, stop, quote_re, names))
        if sep is None:
            break
        pos = sep.end()
    return _merge(_summaries(pieces, norm))


def _part(norm: str, start: int, end: int, quote_re: re.Pattern[str], names: dict[str, str]):
    """Voices inside one separator-delimited part."""
    cuts: list[tuple[int, int, str, str]] = []  # (start, marker end, speaker, kind)
    for m in quote_re.finditer(norm, start, end):
        cuts.append((m.start(), m.end(), names[m.group()[:-1]], "quote"))
    if m := _NOTE.match(norm, start, end):
        cuts.append((m.start(), m.end(), AUTHOR, "note"))
    elif m := _ANON.match(norm, start, end):
        cuts.append((m.start(), m.end(), ANONYMOUS, "anonymous"))
    for m in _NOTE.finditer(norm, start + 1, end):
        if norm[m.start() - 1] in _FINALS and not any(c[0] <= m.start() < c[1] for c in cuts):
            cuts.append((m.start(), m.end(), AUTHOR, "note"))
    cuts.sort()
    pos = start
    for i, (a, b, speaker, kind) in enumerate(cuts):
        if a < pos:
            continue
        if a > pos:
            yield Voice(pos, a, AUTHOR, "author")
        stop = cuts[i + 1][0] if i + 1 < len(cuts) else end
        yield Voice(a, stop, speaker, kind, (a, b))
        pos = stop
    if pos < end:
        yield Voice(pos, end, AUTHOR, "author")


def _summaries(voices: list[Voice], norm: str) -> list[Voice]:
    """A quoted voice ending in 此X也 hands the summary back to the author."""
    out: list[Voice] = []
    for v in voices:
        m = _SUMMARY.search(norm, v.body_start, v.end) if v.kind != "author" else None
        if m and m.start() > v.body_start:
            out.append(Voice(v.start, m.start(), v.speaker, v.kind, v.marker))
            out.append(Voice(m.start(), v.end, AUTHOR, "author"))
        else:
            out.append(v)
    return out


def _merge(voices: list[Voice]) -> list[Voice]:
    """Adjacent unattributed parts of the author are one voice."""
    out: list[Voice] = []
    for v in voices:
        if out and v.kind == "author" and out[-1].kind == "author":
            out[-1] = Voice(out[-1].start, v.end, AUTHOR, "author")
        else:
            out.append(v)
    return out
