"""The works of the tradition in a build (仪礼注疏, 仪礼集说 … beside the book).

A file whose ``kg.readers.tradition.work_of`` is not None transcribes another work: it is read
with ``read_work`` into a WorkDocument and emitted by kg.rdf.tradition under its work's own
IRIs; it never reaches the book's readers or kg.text.align, so no juan or chapter of one work
merges with the book's or another work's. The WorkDocuments stay in memory for the whole
build: the phase that links them to the book (kg.build.link) needs them with each part.

注疏 does not mark where a 注 ends when 经文 follows in the same large characters: its files
are read last, given as a witness the 经文 of each chapter the other works read (集说's),
which shows where the next 经文 starts (kg/readers/tradition/witness.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kg.build.phases import Phases
from kg.errors import InputError
from kg.readers.base import decode
from kg.readers.tradition import read_work, work_of
from kg.readers.tradition.zhushu import read_zhushu
from kg.text.tradition import WorkDocument, WorkInfo

Progress = Callable[[str, int, int], None]
NEEDS_WITNESS = "zhushu"  # the layout read with the other works' 经文 as its witness


def split_sources(
    paths: list[Path],
    encoding: str,
    phases: Phases,
    progress: Progress | None = None,
) -> tuple[list[Path], list[WorkDocument]]:
    """The files of the book (for its readers), and the other works' files, read (in the
    order given)."""
    book: list[Path] = []
    later: list[tuple[Path, str, WorkInfo]] = []
    read: dict[Path, WorkDocument] = {}
    with phases("reading"):
        for i, f in enumerate(paths, 1):
            text = _text(f, encoding)
            info = work_of(text)
            if info is None:
                book.append(f)
            elif info.layout == NEEDS_WITNESS:
                later.append((f, text, info))
            else:
                if progress:
                    progress(f"reading {f.name}", i, len(paths))
                read[f] = read_work(f, text)
        witness = classic_by_rite(list(read.values()))
        for f, text, info in later:
            if progress:
                progress(f"reading {f.name}", len(read) + 1, len(paths))
            read[f] = read_zhushu(f, text, info, witness or None)
    return book, [read[f] for f in paths if f in read]


def classic_by_rite(works: list[WorkDocument]) -> dict[str, str]:
    """Rite slug → the 经文 of its chapter in these works, in reading order (the first work
    that has the chapter gives it; a chapter printed in two halves is joined)."""
    out: dict[str, str] = {}
    owner: dict[str, str] = {}
    for doc in works:
        for ch in doc.chapters():
            if not ch.rite or owner.setdefault(ch.rite, doc.work.slug) != doc.work.slug:
                continue
            out[ch.rite] = out.get(ch.rite, "") + "".join(p.text for p in ch.passages())
    return {rite: text for rite, text in out.items() if text}


def _text(f: Path, encoding: str) -> str:
    try:
        data = f.read_bytes()
    except OSError as e:
        raise InputError(f, None, f"cannot read: {e.strerror}") from None
    return decode(f, data, encoding)
