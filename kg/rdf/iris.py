"""The IRI scheme: readable, stable, and the same whichever files a build reads, in any order.

Under the base (default ``https://w3id.org/lijing/id/``):

- ``lijingbenyi`` the work; ``lijingbenyi/tiyao`` the catalogue abstract
- ``juan/4`` a juan; ``juan/1/preface`` its front matter
- ``xiangsheli`` a chapter (the rite's slug); ``xiangsheli/preface`` its preface
- ``xiangsheli/qingshe`` a section (pinyin of its title; ``-2`` … when a title recurs)
- ``xiangsheli/p/1a2b3c4d`` a passage, ``…/r/…`` a record: a hash of its incipit and
  explicit (first and last six characters, normalized), so witnesses that differ only inside
  a passage give it one IRI whatever else is read; the whole text's hash where two units of
  a chapter share incipit and explicit
- ``…/c1`` the n-th commentary block on a unit, ``…/n1`` its n-th inline note,
  ``…/c1/o2`` the second opinion of a block, ``…/w/<source>`` a witness reading
- ``source/<file stem>`` a source document; ``graph/<layer>`` a named graph
- a work of the tradition read beside the book (kg/rdf/tradition.py) under its own slug,
  never merged with the book: ``yilizhushu`` the work, ``yilizhushu/tiyao`` its abstract,
  ``yilizhushu/juan/1``, ``yilizhushu/shiguanli`` a chapter, then sections, ``…/p/<key>``
  passages and ``…/c1`` blocks as in the book (``…/c1/o1`` a block's one opinion)
- vocabularies: ``rite/…`` (also a rite minted from a chapter title the vocabulary lacks),
  ``person/…``, ``role/…``, ``object/…``, ``place/…`` …

>>> m = Minter("https://example.org/id/")
>>> m.section(m.chapter("xiangsheli"), "请射")
rdflib.term.URIRef('https://example.org/id/xiangsheli/qingshe')
>>> slugify("主人献衆宾")
'zhurenxianzhongbin'
"""

from __future__ import annotations

import re

from rdflib import URIRef

from kg.rdf.namespaces import DEFAULT_BASE
from kg.rdf.terms import iri as _iri
from kg.text.slugs import slugify
from kg.text.work import SLUG

GRAPHS = ("text", "commentary", "mentions", "acts", "ontology", "vocabularies")


def source_id(name: str) -> str:
    """File name → IRI-safe id (the stem, other characters as '-')."""
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-") or "source"


class Minter:
    def __init__(self, base: str = DEFAULT_BASE) -> None:
        self.base = base if base.endswith(("/", "#")) else base + "/"
        self._vocab: dict[str, URIRef] = {}  # a few hundred concepts, named millions of times

    def iri(self, path: str) -> URIRef:
        return _iri(self.base + path)

    def vocab(self, iri: str) -> URIRef:
        """A vocabulary IRI (written under the default base in ontology/) under this base."""
        found = self._vocab.get(iri)
        if found is None:
            moved = self.base + iri[len(DEFAULT_BASE) :] if iri.startswith(DEFAULT_BASE) else iri
            found = self._vocab[iri] = _iri(moved)
        return found

    def graph(self, layer: str) -> URIRef:
        return self.iri(f"graph/{layer}")

    def work(self) -> URIRef:
        return self.iri(SLUG)

    def work_of(self, slug: str) -> URIRef:
        """A work of the tradition (its ``WorkInfo.slug``); the book is ``work()``."""
        return self.iri(slug)

    def work_juan(self, work: URIRef, number: int | None, fallback: str) -> URIRef:
        return _iri(f"{work}/juan/{number if number is not None else 'unknown-' + fallback}")

    def work_chapter(self, work: URIRef, slug: str) -> URIRef:
        return _iri(f"{work}/{slug}")

    def abstract(self) -> URIRef:
        return self.iri(f"{SLUG}/tiyao")

    def juan(self, number: int | None, fallback: str) -> URIRef:
        return self.iri(f"juan/{number}" if number is not None else f"juan/unknown-{fallback}")

    def chapter(self, slug: str) -> URIRef:
        return self.iri(slug)

    def section(self, chapter: URIRef, title: str | None, n: int = 1, key: str = "") -> URIRef:
        slug = slugify(title) if title else f"untitled-{key}"
        return _iri(f"{chapter}/{slug}" + (f"-{n}" if n > 1 else ""))

    def unit(self, chapter: URIRef, kind: str, key: str) -> URIRef:
        return _iri(f"{chapter}/{kind}/{key}")

    def child(self, parent: URIRef, step: str) -> URIRef:
        return _iri(f"{parent}/{step}")

    def source(self, sid: str) -> URIRef:
        return self.iri(f"source/{sid}")
