"""The phase that links the book to the works of the tradition, one part of the book at a time.

Called by the build (kg.build.run) after each part of the book is emitted, while its aligned
Corpus is still in memory, with every WorkDocument of the build (kg.build.works) and both
emitters: ``book.units`` maps id(Unit) of this part to its IRI, ``tradition.iri_of(passage or
block)`` a work's unit to its IRI. It yields quads (lj:parallel, lj:Quotation …) and may count
into ``book.count``. A stub until the parallels and quotations are written: no quads.
"""

from __future__ import annotations

from collections.abc import Iterator

from kg.rdf.emit import Emitter
from kg.rdf.terms import Quad
from kg.rdf.tradition import TraditionEmitter
from kg.text.align import Corpus
from kg.text.tradition import WorkDocument


def link_tradition(
    corpus: Corpus,
    works: list[WorkDocument],
    book: Emitter,
    tradition: TraditionEmitter,
) -> Iterator[Quad]:
    """Quads that tie this part of the book to the works (none yet)."""
    del corpus, works, book, tradition
    return iter(())
