"""儀禮注疏 (KR1d0028, Kanripo layout) → ``WorkDocument``; conventions in ``zhushu.toml``.

A juan file is furniture (欽定四庫全書, the juan title, the author line), one chapter title
(士冠禮第一 → its rite, or a minted one), the chapter's units (``zhushu_units``: 经文 passages
with 注, 音義, 疏 split into 釋曰 and 注釋曰 parts; sections named by a 疏's 自此至…論…; the
记 after its 記) and the Siku editors' 考證 after its heading. The front-matter file (_000:
疏序, 提要, 原目, 原目考證) is read into ``WorkDocument.abstract``, one block a part.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.readers.titles import mint_slug, name_of, rite_for
from kg.readers.tradition.layout import KanripoFile, KLine, Stream, partition, read_lines, stream
from kg.readers.tradition.witness import align_notes
from kg.readers.tradition.zhushu_sections import sections_of
from kg.readers.tradition.zhushu_units import Conventions, Draft, DraftBlock, Units, split_notes
from kg.text.catalog import load_catalog
from kg.text.document import Issue, Seg, Segment
from kg.text.numerals import parse_numeral
from kg.text.tradition import Block, TChapter, TJuan, TPassage, WorkDocument, WorkInfo

_BLANKS = re.compile(r"[\s\u3000]+")


@dataclass(frozen=True)
class Print:
    """zhushu.toml, compiled."""

    conv: Conventions
    voices: dict[str, str]
    work: dict[str, object]
    furniture: tuple[str, ...]
    patterns: tuple[str, ...]
    juan: str
    kaozheng: str
    front: dict[str, dict[str, str]]
    sections: dict[str, object]


@lru_cache(maxsize=1)
def conventions() -> Print:
    data = tomllib.loads((Path(__file__).parent / "zhushu.toml").read_text(encoding="utf-8"))
    lab, sec = data["labels"], data["sections"]
    parts = "|".join(f"(?:{p})" for p in lab["explains_zhu"])
    classic = "|".join(f"(?:{p})" for p in lab["explains_classic"])
    conv = Conventions(
        zhu=lab["zhu"],
        yinyi=tuple(lab["yinyi"]),
        shu=tuple(lab["shu"]),
        separator=lab["separator"],
        shu_parts=re.compile(f"(?P<zhu>{parts})|(?P<classic>{classic})"),
        record=tuple(lab["record"]),
        section=re.compile(sec["opening"]),
        title_endings=tuple(tuple(g) for g in sec["title_endings"]),
        max_title=sec["max_title"],
        stop=sec["stop"],
    )
    fur = data["furniture"]
    return Print(
        conv=conv,
        voices=data["voices"],
        work=data["work"],
        furniture=tuple(fur["lines"]),
        patterns=tuple(fur["patterns"]),
        juan=fur["juan"],
        kaozheng=fur["kaozheng"],
        front=data["front"],
        sections=sec,
    )


def default_work(header: dict[str, str]) -> WorkInfo:
    w = conventions().work
    return WorkInfo(
        slug=str(w["slug"]),
        text_id=header.get("text_id", "KR1d0028"),
        title=header.get("name", "儀禮注疏"),
        layout=str(w["layout"]),
        edition=header.get("edition"),
        authors=tuple(w["authors"]),  # type: ignore[arg-type]
    )


def read_zhushu(
    path: Path,
    text: str | None = None,
    work: WorkInfo | None = None,
    witness: Mapping[str, str] | None = None,
) -> WorkDocument:
    """One file of 儀禮注疏, read; what cannot be read is an issue with its line, never a crash.

    ``witness``: rite slug → that chapter's 经文 in another work (the book's, 集说's), to find
    where a 注 running on into 经文 ends (``witness.py``); without it the file's own character
    models guess (``boundary.py``)."""
    if text is None:
        text = path.read_bytes().decode("utf-8", errors="replace")
    f = read_lines(text)
    doc = WorkDocument(path, text, work or default_work(f.header), metadata=dict(f.header))
    doc.pages = list(f.pages)
    doc.issues = list(f.issues)
    reader = _Reader(doc, f, witness or {})
    if _is_front(f):
        reader.front()
    else:
        reader.body()
    doc.segments = partition(len(text), [*f.marks, *reader.claims])
    return doc


def _juan_number(f: KanripoFile) -> int | None:
    label = f.header.get("juan", "")
    n = parse_numeral(label.removeprefix("卷")) if label.startswith("卷") else None
    if n is None and f.pages:
        m = re.search(r" (\d+)-", f.pages[0][1])
        n = int(m.group(1)) if m else None
    return n


def _is_front(f: KanripoFile) -> bool:
    label = f.header.get("juan", "")
    return (bool(label) and not label.startswith("卷")) or (not label and _juan_number(f) == 0)


class _Reader:
    def __init__(self, doc: WorkDocument, f: KanripoFile, witness: Mapping[str, str]) -> None:
        self.doc, self.f, self.pr = doc, f, conventions()
        self.witness = witness
        self.claims: list[Segment] = []
        self.cat = load_catalog()
        title = re.escape(_BLANKS.sub("", f.header.get("name", "") or doc.work.title))
        self.res = {
            k: re.compile(p.replace("{title}", title))
            for k, p in (("juan", self.pr.juan), ("kaozheng", self.pr.kaozheng))
        }
        self.patterns = [re.compile(p.replace("{title}", title)) for p in self.pr.patterns]

    # -- claims and issues --------------------------------------------------------------------

    def claim_line(self, ln: KLine, kind: Seg) -> tuple[int, int]:
        pieces = stream([ln], self.doc.text).pieces(0, len(ln.text))
        self.claims.extend(Segment(kind, a, b) for a, b in pieces)
        return pieces[0][0], pieces[-1][1]

    def issue(self, kind: str, offset: int, message: str, end: int | None = None) -> None:
        line = self.doc.line_of(offset)
        self.doc.issues.append(Issue(kind, line, offset, end or offset, message))

    # -- lines ----------------------------------------------------------------------------------

    def classify(self, ln: KLine) -> str:
        compact = _BLANKS.sub("", ln.text)
        if compact in self.pr.furniture or any(p.match(compact) for p in self.patterns):
            return "juan" if self.res["juan"].match(compact) else "furniture"
        if self.res["kaozheng"].match(compact):
            return "kaozheng"
        if ln.indent >= 1 and (rite_for(self.cat, compact) or name_of(compact)):
            return "chapter"
        return "content"

    def body(self) -> None:
        juan = TJuan(number=_juan_number(self.f))
        self.doc.juans.append(juan)
        regions: list[tuple[KLine | None, list[KLine]]] = []
        notes: list[KLine] | None = None  # the 考證's lines, once its heading is passed
        for ln in self.f.content():
            kind = "content" if notes is not None else self.classify(ln)
            if notes is not None and self.classify(ln) in ("juan", "furniture"):
                self.claim_line(ln, Seg.FURNITURE)
            elif notes is not None:
                notes.append(ln)
            elif kind in ("juan", "furniture"):
                span = self.claim_line(ln, Seg.JUAN_MARKER if kind == "juan" else Seg.FURNITURE)
                juan.open_span = juan.open_span or (span if kind == "juan" else None)
            elif kind == "kaozheng":
                self.claim_line(ln, Seg.HEADING)
                notes = []
            elif kind == "chapter" or not regions:
                regions.append(
                    (ln if kind == "chapter" else None, [] if kind == "chapter" else [ln])
                )
            else:
                regions[-1][1].append(ln)
        juan.chapters = [self.chapter(title, lines) for title, lines in regions]
        juan.kaozheng = self.kaozheng(notes or [])

    # -- a chapter ------------------------------------------------------------------------------

    def chapter(self, title: KLine | None, lines: list[KLine]) -> TChapter:
        ch = TChapter()
        if title is None:
            if lines:
                self.issue("structure", lines[0].start, "text before any chapter title")
        else:
            ch.title = _BLANKS.sub("", title.text)
            ch.title_span = self.claim_line(title, Seg.CHAPTER_TITLE)
            ch.rite = rite_for(self.cat, ch.title)
            if ch.rite is None:
                name = name_of(ch.title) or ch.title
                ch.rite = mint_slug(self.cat, name)
                said = f"chapter {ch.title!r} names no rite of ontology/rites.ttl: minted {ch.rite}"
                self.issue("structure", ch.title_span[0], said, ch.title_span[1])
        s = stream(lines, self.doc.text)
        units = Units(s, self.pr.conv).run()
        drafts = units.passages
        if ch.rite in self.witness:
            drafts = align_notes(s.text, drafts, self.witness[ch.rite], self.pr.conv.zhu)
        drafts = split_notes(s, drafts, self.pr.conv.zhu)
        for i, message in units.problems:
            self.issue("structure", s.offsets[i], message)
        for a, b, kind in units.claims:
            self.claims.extend(Segment(kind, x, y) for x, y in s.pieces(a, b))
        ch.preface = [self.block(s, b) for b in units.preface]
        passages = [self.passage(s, d, ch) for d in drafts]
        kept = [(d, p) for d, p in zip(drafts, passages, strict=True) if p is not None]
        ch.sections = sections_of(
            s, [d for d, _ in kept], [p for _, p in kept], self.pr.sections, self.issue
        )
        return ch

    def passage(self, s: Stream, d: Draft, ch: TChapter) -> TPassage | None:
        blocks = [self.block(s, b) for b in d.blocks]
        if d.heading is not None:
            self.claims.extend(Segment(Seg.HEADING, a, b) for a, b in s.pieces(*d.heading))
        if d.body[1] <= d.body[0] + sum(b - a for a, b in d.holes):
            where = s.offsets[d.body[0]] if d.body[0] < len(s.offsets) else 0
            self.issue("structure", where, "commentary with no 经文 before it: kept as preface")
            ch.preface.extend(blocks)
            return None
        p = TPassage(record=d.record, blocks=blocks)
        pos = d.body[0]
        for a, b in sorted(d.holes):
            s.fill(p, pos, a)
            pos = max(pos, b)
        s.fill(p, pos, d.body[1])
        kind = Seg.RECORD if d.record else Seg.PASSAGE
        self.claims.extend(Segment(kind, a, b) for a, b in p.pieces)
        return p

    def block(self, s: Stream, d: DraftBlock) -> Block:
        b = Block(voice=self.pr.voices.get(d.kind, "anonymous"), kind=d.kind)
        b.comments_on = d.comments_on
        s.fill(b, *d.body)
        if d.kind == "shu-zhu" and d.comments_on is None and b.pieces:
            said = "注釋曰 explaining no 注 of its passage (a 注 printed before, or none)"
            self.issue("structure", b.start, said)
        if d.label is not None and d.label[1] > d.label[0]:
            pieces = s.pieces(*d.label)
            b.label = s.text[d.label[0] : d.label[1]]
            b.label_span = (pieces[0][0], pieces[-1][1])
            self.claims.extend(Segment(Seg.COMMENTARY, x, y) for x, y in pieces)
        self.claims.extend(Segment(Seg.COMMENTARY, x, y) for x, y in b.pieces)
        return b

    # -- 考證 and front matter ------------------------------------------------------------------

    def kaozheng(self, lines: list[KLine]) -> list[Block]:
        """One block an entry: an entry opens at indentation 0 and wraps indented."""
        entries: list[list[KLine]] = []
        for ln in lines:
            if ln.indent == 0 or not entries:
                entries.append([])
            entries[-1].append(ln)
        out = []
        for entry in entries:
            s = stream(entry, self.doc.text)
            out.append(self.block(s, DraftBlock("kaozheng", (0, len(s.text)))))
        return out

    def front(self) -> None:
        """_000: one block per #+PROPERTY: JUAN part, its heading and furniture lines apart."""
        parts: list[tuple[str, list[KLine]]] = [("", [])]
        for ln in self.f.lines:
            if ln.header is not None and ln.header[0] == "juan":
                parts.append((ln.header[1], []))
            elif ln.header is None and not ln.blank:
                parts[-1][1].append(ln)
        title = _BLANKS.sub("", self.f.header.get("name", ""))
        for label, lines in parts:
            heads = {label, title, title + label, title.removesuffix("注疏") + label}
            body = []
            for ln in lines:
                compact = _BLANKS.sub("", ln.text)
                if compact in heads or compact in self.pr.furniture:
                    self.claim_line(ln, Seg.FURNITURE)
                else:
                    body.append(ln)
            if body:
                self.doc.abstract.append(self.front_block(label, body))

    def front_block(self, label: str, lines: list[KLine]) -> Block:
        how = self.pr.front.get(label, self.pr.front["default"])
        s = stream(lines, self.doc.text)
        b = Block(voice=how["voice"], kind=how["kind"], label=label or None)
        s.fill(b, 0, len(s.text))
        kind = Seg.ABSTRACT if how["kind"] == "abstract" else Seg.COMMENTARY
        self.claims.extend(Segment(kind, x, y) for x, y in b.pieces)
        return b
