"""The works of the tradition in a build (仪礼注疏, 仪礼集说 … beside the book).

A file whose ``kg.readers.tradition.work_of`` is not None transcribes another work: it is read
with ``read_work`` into a WorkDocument and emitted by kg.rdf.tradition under its work's own
IRIs; it never reaches the book's readers or kg.text.align, so no juan or chapter of one work
merges with the book's or another work's. The WorkDocuments stay in memory for the whole
build: the phase that links them to the book (kg.build.link) needs them with each part.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kg.build.phases import Phases
from kg.errors import InputError
from kg.readers.base import decode
from kg.readers.tradition import read_work, work_of
from kg.text.tradition import WorkDocument

Progress = Callable[[str, int, int], None]


def split_sources(
    paths: list[Path],
    encoding: str,
    phases: Phases,
    progress: Progress | None = None,
) -> tuple[list[Path], list[WorkDocument]]:
    """The files of the book (for its readers), and the other works' files, read."""
    book: list[Path] = []
    works: list[WorkDocument] = []
    with phases("reading"):
        for i, f in enumerate(paths, 1):
            try:
                data = f.read_bytes()
            except OSError as e:
                raise InputError(f, None, f"cannot read: {e.strerror}") from None
            text = decode(f, data, encoding)
            if work_of(text) is None:
                book.append(f)
                continue
            if progress:
                progress(f"reading {f.name}", i, len(paths))
            works.append(read_work(f, text))
    return book, works
