"""The reader's view of an IRI, where it has one: a chapter's reading, a work's contents, the
page of a thing or a commentator. Anything else gets the page of its statements."""

from __future__ import annotations

from typing import Any

from kg.server import entity, reading


def view(db: Any, iri: str, who: str | None = None) -> tuple[str, Any] | None:
    if (r := reading.chapter(db, iri, who)) is not None:
        return "reading", r
    if toc := reading.contents(db, iri):
        return "contents", toc
    if (e := entity.concept(db, iri)) is not None:
        return "entity", e
    return None
