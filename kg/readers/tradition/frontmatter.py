"""Front matter of a Kanripo work (``_000``): the Siku 提要 and the author's 原序, as blocks.

A unit runs from a ``#+PROPERTY: JUAN 提要`` line (any value without 卷) to the next such
property. Its furniture (欽定四庫全書, the catalogue line 儀禮集説　禮類二…), its title line
(提要, 儀禮集説原序) and the editors' signatures (總纂官 …) are not its text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.readers.tradition.body import span
from kg.readers.tradition.layout import KLine, stream
from kg.readers.tradition.registry import config
from kg.text.document import Seg, Segment
from kg.text.normalize import normalize
from kg.text.tradition import Block


def is_front_matter(juan_value: str) -> bool:
    return normalize(config()["kanripo"]["juan_mark"]) not in normalize(juan_value)


@dataclass
class Front:
    source: str
    titles: tuple[str, ...]  # normalized titles of the work
    own_voice: str  # who wrote a 序 (the work's author)
    blocks: list[Block] = field(default_factory=list)
    claims: list[Segment] = field(default_factory=list)

    def unit(self, name: str, lines: list[KLine]) -> None:
        k = config()["kanripo"]
        norm_name = normalize(name).strip()
        abstract = normalize(k["abstract"]) in norm_name
        voice, kind = (k["abstract_voice"], "abstract") if abstract else (self.own_voice, "own")
        block = Block(voice=voice, kind=kind, label=name.strip() or None)
        furniture = tuple(normalize(x) for x in k["furniture"])
        signatures = tuple(normalize(x) for x in k["signatures"])
        for ln in lines:
            if ln.header is not None or ln.blank:
                continue
            norm = normalize(ln.text).strip()
            a, b = span(ln)
            bare = norm.replace("\u3000", "").replace(" ", "")  # 總　校　官: spaced out
            if norm.startswith(furniture) or any(s in bare for s in signatures):
                self.claims.append(Segment(Seg.FURNITURE, a, b))
            elif norm_name and norm.endswith(norm_name) and len(norm) <= len(norm_name) + 8:
                self.claims.append(Segment(Seg.PREFACE_TITLE, a, b))
            elif self.titles and norm.startswith(self.titles) and not block.text:
                self.claims.append(Segment(Seg.FURNITURE, a, b))  # 儀禮集説　禮類二 …
            else:
                before = len(block.pieces)
                stream([ln], self.source).fill(block, 0, len(ln.text))
                self.claims.extend(Segment(Seg.ABSTRACT, s, e) for s, e in block.pieces[before:])
        if block.text:
            self.blocks.append(block)
