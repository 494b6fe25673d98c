"""A chapter as a reader reads it: its sections in order, each passage with the commentary
printed under it, speakers named, things named in the text marked by kind, reading marks
and textual notes shown as such; and the work as a table of contents.

Each part comes from one query over the whole chapter (``queries/reading-*.rq``), not one per
passage, so a chapter of 80 passages and 300 voices costs a handful of queries.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from kg.rdf.prefixes import DATA_PREFIXES
from kg.server.describe import QUERIES, highlight
from kg.store import Cell, query_dataset, rows, store_base

LJ = "https://w3id.org/lijing/ontology#"
KINDS = {
    LJ + "Commentary": "commentary",
    LJ + "TextualNote": "textual-note",
    LJ + "SourceNote": "source-note",
}
COLOURS = 8  # speakers are coloured in turn: .who-0 … .who-7


@dataclass
class Piece:
    text: str
    concept: str | None = None  # the IRI a mention names
    kind: str | None = None  # role, object, place, action … (the vocabulary it is in)
    tip: str | None = None  # 司射 · director of archery
    mark: bool = False  # a reading mark (【句】) follows


@dataclass
class Speech:
    iri: str
    who: str | None
    name: str | None
    colour: int | None
    pieces: list[Piece]


@dataclass
class Note:
    iri: str
    kind: str  # commentary | textual-note | source-note
    pieces: list[Piece]
    voices: list[Speech] = field(default_factory=list)


@dataclass
class Unit:
    iri: str
    kind: str  # passage | record
    pieces: list[Piece]
    notes: list[Note] = field(default_factory=list)


@dataclass
class Part:
    iri: str
    title: str | None
    units: list[Unit] = field(default_factory=list)


@dataclass
class Speaker:
    iri: str
    name: str
    voices: int
    colour: int


@dataclass
class Reading:
    iri: str
    title: str
    work: tuple[str, str] | None
    prev: tuple[str, str] | None
    next: tuple[str, str] | None
    sections: list[Part]
    speakers: list[Speaker]
    who: str | None  # the commentator the voices are filtered to


@cache
def _query(name: str) -> str:
    return (QUERIES / f"{name}.rq").read_text(encoding="utf-8")


def select_rows(db: Any, name: str, **values: list[str]) -> list[dict[str, Cell | None]]:
    names, body = rows(query_dataset(db, _query(name), values=values))  # type: ignore[arg-type]
    return [dict(zip(names, r, strict=True)) for r in body]


def value_of(cell: Cell | None) -> str | None:
    return cell.value if cell else None


def int_of(cell: Cell | None) -> int | None:
    try:
        return int(cell.value) if cell else None
    except ValueError:
        return None


class Tips:
    """Labels of the IRIs a reading shows: the Chinese label and the English, in one query."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.found: dict[str, dict[str, str]] = defaultdict(dict)

    def fetch(self, iris: set[str]) -> None:
        todo = sorted(iris - self.found.keys())
        for i in range(0, len(todo), 400):
            for r in select_rows(self.db, "labels-en", x=todo[i : i + 400]):
                if r["x"] and r["l"]:
                    self.found[r["x"].value].setdefault(r["l"].tag or "", r["l"].value)

    def name(self, iri: str) -> str | None:
        got = self.found.get(iri, {})
        return got.get("lzh") or got.get("en")

    def tip(self, iri: str) -> str | None:
        got = self.found.get(iri, {})
        parts = [got[k] for k in ("lzh", "en") if k in got]
        return " · ".join(parts) or None


def _kind(iri: str, base: str) -> str | None:
    for name in DATA_PREFIXES:
        if iri.startswith(f"{base}{name}/"):
            return name
    return None


def pieces(
    text: str, spans: list[tuple[int, int, str]], breaks: list[int], tips: Tips, base: str
) -> list[Piece]:
    """The text cut at its mentions and after its reading marks."""
    cells = [(s, e, Cell("iri", c)) for s, e, c in spans]
    out: list[Piece] = []
    pos = 0
    cuts = sorted(b for b in set(breaks) if 0 < b <= len(text))
    for chunk, cell in highlight(text, cells):
        end = pos + len(chunk)
        inner = [b for b in cuts if pos < b < end and cell is None]  # never split a name
        start = pos
        for b in [*inner, end]:
            piece = Piece(text[start:b], mark=b in cuts)
            if cell is not None:
                piece.concept, piece.kind, piece.tip = (
                    cell.value,
                    _kind(cell.value, base),
                    tips.tip(cell.value),
                )
            out.append(piece)
            start = b
        pos = end
    return out


def chapter(db: Any, iri: str, who: str | None = None) -> Reading | None:
    """The reading view of chapter ``iri``; voices only of ``who`` (an IRI) if given."""
    base = store_base(db)
    found = select_rows(db, "reading-units", s=[iri])
    if not found:
        return None
    sections: dict[str, Part] = {}
    units: dict[str, Unit] = {}
    texts: dict[str, str] = {}
    for r in found:
        sec = value_of(r["sec"])
        if sec is None:
            continue
        part = sections.setdefault(sec, Part(sec, value_of(r["stitle"])))
        u = value_of(r["u"])
        if u and u not in units:
            kind = "record" if value_of(r["type"]) == LJ + "Record" else "passage"
            units[u] = Unit(u, kind, [])
            texts[u] = value_of(r["text"]) or ""
            part.units.append(units[u])
    blocks = select_rows(db, "reading-blocks", s=list(units)) if units else []
    said = sorted({b["c"].value for b in blocks if b["c"]})
    opinions = select_rows(db, "reading-opinions", c=said) if said else []
    marks = select_rows(db, "reading-marks", s=[*units, *said]) if units else []
    spans: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    breaks: dict[str, list[int]] = defaultdict(list)
    for m in marks:
        s = value_of(m["s"])
        if s and m["break"] is not None and (b := int_of(m["break"])) is not None:
            breaks[s].append(b)
        elif (
            s
            and m["c"]
            and (a := int_of(m["start"])) is not None
            and (e := int_of(m["end"])) is not None
        ):
            spans[s].append((a, e, m["c"].value))
    tips = Tips(db)
    want = {c for ss in spans.values() for _, _, c in ss} | {iri}
    want |= {o["who"].value for o in opinions if o["who"]}
    tips.fetch(want)
    speakers = _notes(blocks, opinions, units, spans, tips, base, who)
    for u, unit in units.items():
        unit.pieces = pieces(texts[u], spans[u], breaks[u], tips, base)
    work, prev, nxt = _neighbours(db, iri)
    return Reading(
        iri=iri,
        title=tips.name(iri) or iri,
        work=work,
        prev=prev,
        next=nxt,
        sections=list(sections.values()),
        speakers=speakers,
        who=who,
    )


def _notes(
    blocks: list[dict[str, Cell | None]],
    opinions: list[dict[str, Cell | None]],
    units: dict[str, Unit],
    spans: dict[str, list[tuple[int, int, str]]],
    tips: Tips,
    base: str,
    who: str | None,
) -> list[Speaker]:
    """Attach each block and its voices to its unit; the speakers, with colours and counts."""
    notes: dict[str, Note] = {}
    for r in blocks:
        s, c = value_of(r["s"]), value_of(r["c"])
        if s in units and c and c not in notes:
            text = value_of(r["ctext"]) or ""
            kind = KINDS.get(value_of(r["ctype"]) or "", "commentary")
            notes[c] = Note(c, kind, pieces(text, spans[c], [], tips, base))
            units[s].notes.append(notes[c])
    colour: dict[str, int] = {}
    counts: dict[str, int] = defaultdict(int)
    for r in opinions:
        c, o, speaker = value_of(r["c"]), value_of(r["o"]), value_of(r["who"])
        if c not in notes or o is None or any(v.iri == o for v in notes[c].voices):
            continue
        if speaker:
            colour.setdefault(speaker, len(colour) % COLOURS)
            counts[speaker] += 1
        if who and speaker != who:
            continue
        a, e = int_of(r["start"]), int_of(r["end"])
        inside = [] if a is None or e is None else [x for x in spans[c] if a <= x[0] and x[1] <= e]
        own = [(x - a, y - a, k) for x, y, k in inside] if a is not None else []
        text = pieces(value_of(r["otext"]) or "", own, [], tips, base)
        name = tips.name(speaker) if speaker else None
        notes[c].voices.append(Speech(o, speaker, name, colour.get(speaker or ""), text))
    if who:
        for unit in units.values():
            unit.notes = [n for n in unit.notes if n.voices]
    return [Speaker(s, tips.name(s) or s, counts[s], colour[s]) for s in colour]


def _neighbours(db: Any, iri: str) -> tuple[tuple[str, str] | None, ...]:
    """The work the chapter is in, and the chapters before and after it in reading order."""
    found = [r for r in select_rows(db, "reading-chapters") if r["ch"]]
    order = [
        (r["ch"].value, value_of(r["title"]) or r["ch"].value, value_of(r["w"])) for r in found
    ]
    at = next((i for i, (c, _, _) in enumerate(order) if c == iri), None)
    if at is None:
        return None, None, None
    work_iri = order[at][2]
    same = [(c, t) for c, t, w in order if w == work_iri]
    i = same.index((order[at][0], order[at][1]))
    work = (work_iri, "") if work_iri else None
    return work, same[i - 1] if i > 0 else None, same[i + 1] if i + 1 < len(same) else None


@dataclass
class Entry:
    iri: str
    title: str
    sections: list[tuple[str, str]] = field(default_factory=list)


def contents(db: Any, iri: str) -> list[tuple[str, str, list[Entry]]]:
    """The table of contents of work ``iri``: juans, their chapters, each chapter's sections."""
    juans: dict[str, tuple[str, list[Entry]]] = {}
    entries: dict[str, Entry] = {}
    for r in select_rows(db, "reading-chapters", w=[iri]):
        j, ch = value_of(r["juan"]), value_of(r["ch"])
        if j is None or ch is None:
            continue
        label = f"卷{int_of(r['jorder'])}" if int_of(r["jorder"]) is not None else j
        juans.setdefault(j, (label, []))
        if ch not in entries:
            entries[ch] = Entry(ch, value_of(r["title"]) or ch)
            juans[j][1].append(entries[ch])
    if entries:
        for r in select_rows(db, "reading-units", s=list(entries)):
            ch, sec = value_of(r["s"]), value_of(r["sec"])
            if ch in entries and sec and sec not in {s for s, _ in entries[ch].sections}:
                entries[ch].sections.append((sec, value_of(r["stitle"]) or "—"))
    return [(j, label, es) for j, (label, es) in juans.items()]
