"""Which source files must be aligned together: the parts of a build.

Files that share a chapter (its rite) or a juan number hold readings of one stretch of the
book and are aligned as one part. A part shares nothing with the others, so a build reads,
aligns and emits one part at a time and then drops it: its memory grows with the largest
part, not with the corpus. (The catalogue abstract, which many files repeat, is kept apart
and aligned at the end: ``abstract_only``.)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path

import networkx as nx

from kg.text.document import Document

Key = tuple[str, Hashable]


def part_keys(doc: Document) -> set[Key]:
    """What ties a file to others: the rites of its chapters, the numbers of its juans."""
    keys: set[Key] = {("rite", c.rite) for c in doc.chapters() if c.rite}
    keys |= {("juan", j.number) for j in doc.juans if j.number is not None}
    return keys


def plan_parts(keys: Mapping[Path, set[Key]]) -> list[list[Path]]:
    """Files grouped by shared keys; parts in book order (lowest juan first), files sorted.

    >>> a, b, c = Path("a"), Path("b"), Path("c")
    >>> plan_parts({c: {("juan", 1)}, b: {("rite", "x")}, a: {("rite", "x"), ("juan", 2)}})
    [[PosixPath('c')], [PosixPath('a'), PosixPath('b')]]
    """
    graph = nx.Graph()
    for path, ks in keys.items():
        graph.add_node(("file", path))
        graph.add_edges_from((("file", path), k) for k in ks)
    parts = [
        sorted((n[1] for n in comp if n[0] == "file"), key=lambda p: (p.name, str(p)))
        for comp in nx.connected_components(graph)
    ]

    def first_juan(part: list[Path]) -> float:
        numbers = [k[1] for p in part for k in keys[p] if k[0] == "juan"]
        return min(numbers, default=float("inf"))  # type: ignore[type-var]

    return sorted(parts, key=lambda part: (first_juan(part), part[0].name, str(part[0])))


def abstract_only(doc: Document) -> Document | None:
    """The file cut down to what its abstract's witness needs (text up to the abstract's
    end, for line numbers; its pages), or None if it has no abstract."""
    a = doc.abstract
    if a is None:
        return None
    end = max([a.end, *(n.end for n in (*a.notes, *a.commentary))])
    return Document(
        path=doc.path,
        text=doc.text[:end],
        layout=doc.layout,
        metadata=doc.metadata,
        abstract=a,
        pages=[p for p in doc.pages if p[0] < end],
    )
