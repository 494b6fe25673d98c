"""A Kanripo work the registry does not know → a ``WorkDocument`` of its own work.

Read as the 集说 layout without labels (``body.py``): 经文 at indentation 0, indented lines as
commentary blocks of the author the juan's author line names (if ``ontology/commentators.ttl``
knows him), else of ``anonymous``. Its slug is its own (``registry.mint_slug``), so it never
merges with the book or a known work; that it was not recognised is reported as an issue.
"""

from __future__ import annotations

from pathlib import Path

from kg.readers.tradition.assemble import read_document
from kg.readers.tradition.conventions import generic_conventions
from kg.text.document import Issue
from kg.text.tradition import WorkDocument, WorkInfo


def read(path: Path, text: str, info: WorkInfo) -> WorkDocument:
    doc = read_document(path, text, info, generic_conventions(info.authors))
    who = ", ".join(info.authors) or "anonymous"
    message = (
        f"unknown Kanripo work {info.text_id} ({info.title}): read as a work of its own, "
        f"slug {info.slug}, commentary voice {who}"
    )
    doc.issues.insert(0, Issue("structure", 1, 0, 0, message))
    return doc
