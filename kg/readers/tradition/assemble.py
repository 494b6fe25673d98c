"""One file of a work in the 集说 layout → ``WorkDocument``: front matter and juans, with the
segments that partition the file."""

from __future__ import annotations

from pathlib import Path

from kg.readers.tradition.body import Body
from kg.readers.tradition.columns import page_widths
from kg.readers.tradition.conventions import Conventions
from kg.readers.tradition.frontmatter import Front, is_front_matter
from kg.readers.tradition.layout import KanripoFile, partition, read_lines
from kg.readers.tradition.registry import config
from kg.text.catalog import load_catalog
from kg.text.normalize import normalize
from kg.text.tradition import WorkDocument, WorkInfo


def titles(info: WorkInfo, kf: KanripoFile) -> tuple[str, ...]:
    """The work's title in the forms its juan lines may print it, longest first."""
    forms = {info.title, kf.header.get("name", "")}
    entry = config()["works"].get(info.text_id)
    if entry:
        forms.add(entry["title"])
    return tuple(sorted({normalize(f).strip() for f in forms if f.strip()}, key=len)[::-1])


def read_document(path: Path, text: str, info: WorkInfo, conv: Conventions) -> WorkDocument:
    kf = read_lines(text)
    doc = WorkDocument(
        path=path, text=text, work=info, metadata=dict(kf.header), pages=list(kf.pages)
    )
    names = titles(info, kf)
    body = Body(
        source=text,
        conv=conv,
        catalog=load_catalog(),
        widths=page_widths(kf.content(), [o for o, _ in kf.pages], text),
        titles=names,
    )
    front = Front(source=text, titles=names, own_voice=conv.own_voice)
    unit: str | None = None  # the front-matter unit being read (提要, 原序 …)
    lines: list = []
    for ln in kf.lines:
        if ln.header is not None and ln.header[0] == "juan":
            if unit is not None:
                front.unit(unit, lines)
            unit, lines = (ln.header[1], []) if is_front_matter(ln.header[1]) else (None, [])
        elif unit is not None:
            lines.append(ln)
        else:
            body.feed(ln)
    if unit is not None:
        front.unit(unit, lines)
    doc.abstract, doc.juans = front.blocks, body.juans
    doc.issues = [*kf.issues, *body.issues]
    doc.segments = partition(len(text), [*body.claims, *front.claims, *kf.marks])
    return doc
