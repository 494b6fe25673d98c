"""The phase that links the book to the works of the tradition, one part of the book at a time.

Called by the build (kg.build.run) after each part of the book is emitted, while its aligned
Corpus is still in memory, with every WorkDocument of the build (kg.build.works) and both
emitters: ``book.units`` maps id(Unit) of this part to its IRI, ``tradition.iri_of(passage or
block)`` a work's unit to its IRI. It yields the parallels of the classic and the traced
quotations (kg.rdf.quotations) and counts into the book's report (``book.stats``: parallels,
classic variants, quotations by fidelity, untraced quotations by commentator, passages
without a parallel in each work). The works' passages and blocks are gathered once per build
(and paired with each other then); a part adds only its own chapters.
"""

from __future__ import annotations

from collections.abc import Iterator
from weakref import WeakKeyDictionary

from kg.rdf.emit import Emitter
from kg.rdf.quotations import TraditionLinker, work_chapters
from kg.rdf.terms import Quad
from kg.rdf.tradition import TraditionEmitter
from kg.text.align import Corpus
from kg.text.tradition import WorkDocument

# one linker per build (its tradition emitter), made at the first part
_LINKERS: WeakKeyDictionary[TraditionEmitter, TraditionLinker] = WeakKeyDictionary()


def link_tradition(
    corpus: Corpus,
    works: list[WorkDocument],
    book: Emitter,
    tradition: TraditionEmitter,
) -> Iterator[Quad]:
    """Quads that tie this part of the book to the works (none when there are no works)."""
    if not works:
        return
    linker = _LINKERS.get(tradition)
    if linker is None:
        linker = TraditionLinker(book.minter, work_chapters(works, tradition.iri_of))
        linker.stats = book.stats  # counted in the build report with the book's figures
        linker.names = book.commentary.new_names
        _LINKERS[tradition] = linker
        yield from book.phases.iterate("linking", linker.between_works())
    yield from book.phases.iterate("linking", linker.part(corpus, book.units))
