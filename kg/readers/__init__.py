"""Readers: one per layout, chosen by score; each yields the same document model.

>>> sorted(READERS)
['indented', 'kanripo', 'paged', 'paragraphs', 'plain', 'tagged']
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import InputError
from kg.readers.base import FormatError, LayoutReader, decode
from kg.readers.indented import IndentedReader
from kg.readers.kanripo import KanripoReader
from kg.readers.paged import PagedReader
from kg.readers.paragraphs import ParagraphReader
from kg.readers.placement import load_manifest, place
from kg.readers.plain import PlainReader
from kg.readers.structure import StructureParser
from kg.readers.tagged import TaggedReader
from kg.text.catalog import Catalog, load_catalog
from kg.text.document import Document

READERS: dict[str, type[LayoutReader]] = {
    r.name: r
    for r in (
        KanripoReader,
        TaggedReader,
        PagedReader,
        IndentedReader,
        ParagraphReader,
        PlainReader,
    )
}

SUFFIXES = {".txt", ".text", ""}


def choose(text: str) -> LayoutReader:
    """The reader whose layout fits the text best (the plain reader always fits a little)."""
    readers = [cls() for cls in READERS.values()]
    return max(readers, key=lambda r: r.score(text))


def parse_text(
    text: str, path: Path, layout: str | None = None, catalog: Catalog | None = None
) -> Document:
    """Text → Document (no placement); the core the tests drive directly."""
    reader = READERS[layout]() if layout else choose(text)
    doc = Document(path=path, text=text, layout=reader.name)
    try:
        items = list(reader.items(text))
    except FormatError as e:
        raise InputError(path, doc.line_of(e.offset), e.message) from None
    StructureParser(doc, catalog or load_catalog(), reader.brackets).run(items)
    return doc


def read(
    path: Path,
    *,
    encoding: str = "utf-8",
    layout: str | None = None,
    catalog: Catalog | None = None,
    manifest: dict[str, dict] | None = None,
) -> Document:
    """Read one file into a placed Document, or raise InputError naming file and line."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(path, None, f"cannot read: {e.strerror}") from None
    if layout is not None and layout not in READERS:
        raise InputError(path, None, f"unknown layout {layout!r} (one of {', '.join(READERS)})")
    text = decode(path, data, encoding)
    catalog = catalog or load_catalog()
    doc = parse_text(text, path, layout, catalog)
    if manifest is None:
        manifest = load_manifest(path.parent)
    place(doc, catalog, manifest.get(path.name))
    return doc


def source_files(paths: list[Path]) -> list[Path]:
    """Files to read from files and folders, in a stable order; manifests are not sources."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            # hidden files and folders (a Kanripo clone's .git/) are not sources
            out.extend(
                f
                for f in sorted(p.rglob("*"))
                if f.is_file()
                and f.suffix.lower() in SUFFIXES
                and not any(part.startswith(".") for part in f.relative_to(p).parts)
            )
        elif p.is_file():
            out.append(p)
        else:
            raise InputError(p, None, "no such file or folder")
    return sorted(dict.fromkeys(out), key=lambda f: (f.name, str(f)))
