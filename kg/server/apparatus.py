"""A passage's witnesses as an apparatus: each source's reading beside the text the graph
keeps, with the characters that differ marked, and private-use glyphs shown with the form
they are read as. Differences come from rapidfuzz's edit operations (as the quotations do)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Levenshtein

from kg.server.reading import int_of, select_rows, value_of
from kg.text.normalize import normalize


@dataclass
class Mark:
    text: str
    kind: str  # same | variant (another form) | changed | added | missing (from the reading)
    read_as: str | None = None  # a private-use glyph's normalized form


@dataclass
class Reading:
    iri: str
    source: str
    line: int | None
    marks: list[Mark]

    @property
    def differs(self) -> bool:
        return any(m.kind != "same" for m in self.marks)


def _pua(ch: str) -> bool:
    return 0xE000 <= ord(ch) <= 0xF8FF or 0xF0000 <= ord(ch) <= 0x10FFFD


def marks(text: str, reading: str) -> list[Mark]:
    """``reading`` cut into runs the same as ``text``, changed, added, or missing from it.

    >>> [(m.text, m.kind) for m in marks("主人献宾", "主人獻賓于")]
    [('主人', 'same'), ('獻賓', 'variant'), ('于', 'added')]
    >>> [(m.text, m.kind) for m in marks("主人献宾", "主献宾")]
    [('主', 'same'), ('人', 'missing'), ('献宾', 'same')]
    >>> [(m.text, m.kind) for m in marks("献宾", "献宫")]
    [('献', 'same'), ('宫', 'changed')]
    """
    out: list[Mark] = []
    # aligned on the forms the characters are read as, so 獻 meets 献, cut from the originals
    for op in Levenshtein.opcodes(_read(text), _read(reading)):
        mine, theirs = text[op.src_start : op.src_end], reading[op.dest_start : op.dest_end]
        if op.tag == "equal":
            out.extend(_forms(mine, theirs))
        elif op.tag == "replace":
            out.append(Mark(theirs, "changed"))
        elif op.tag == "insert":
            out.append(Mark(theirs, "added"))
        else:
            out.append(Mark(mine, "missing"))
    return [_glyphs(m) for m in out]


def _forms(mine: str, theirs: str) -> list[Mark]:
    """A stretch read alike: runs printed alike, and runs in another form (衆 for 众)."""
    out: list[Mark] = []
    for a, b in zip(mine, theirs, strict=True):
        kind = "same" if a == b else "variant"
        if out and out[-1].kind == kind:
            out[-1].text += b
        else:
            out.append(Mark(b, kind))
    return out


def _read(s: str) -> str:
    """One character for each character of ``s``: the one it normalizes to (or itself)."""
    return "".join((normalize(c) or c)[0] for c in s)


def _glyphs(m: Mark) -> Mark:
    read = normalize(m.text)
    if any(_pua(c) for c in m.text) and read != m.text:
        return Mark(m.text, m.kind, read)
    return m


def apparatus(db: Any, iri: str, text: str) -> list[Reading]:
    """Every witness of unit ``iri`` against its text ``text``."""
    out = []
    for r in select_rows(db, "witnesses", s=[iri]):
        w, said = value_of(r["w"]), value_of(r["text"])
        if w is None or said is None:
            continue
        src = value_of(r["src"]) or w
        out.append(Reading(w, src.rsplit("/", 1)[-1], int_of(r["line"]), marks(text, said)))
    return out
