"""RDF dumps: Turtle, TriG, N-Quads, JSON-LD — in a stable order, so that two builds of the
same input give the same bytes and two builds of different inputs give a readable diff.

Everything starts from the store's N-Quads, one line per quad, filtered to the chosen
graphs and chapter and sorted:

- N-Quads: those lines.
- Turtle: the lines in subject order, re-serialized by Oxigraph with the usual prefixes
  (a triple held by two graphs appears once).
- TriG: the lines in graph, then subject order, one block per named graph.
- JSON-LD: compacted by rdflib with the published context (``ontology/context.jsonld``,
  embedded so the file reads offline); node objects sorted by ``@id``, keys and values
  sorted (never inside ``@list``).
- Blank nodes (only ``--rdf`` files bring them) first get canonical labels (rdflib.compare),
  so their names do not change between builds either.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rdflib import BNode, Dataset

from kg.export.context import load_context
from kg.rdf.prefixes import PREFIXES, data_prefixes
from kg.store import dump, reserialize_nquads, store_base

RDF_FORMATS = ("turtle", "trig", "nquads", "jsonld")
_BLANK = re.compile(r"(?:^| )_:")


def graph_of(line: str) -> str:
    """The graph IRI of an N-Quads line (IRIs hold no spaces; literals escape newlines)."""
    return line.rsplit(" ", 2)[-2][1:-1]


def nquad_lines(db: object, graphs: list[str], members: set[str] | None = None) -> list[str]:
    """Sorted N-Quads lines of the chosen graphs (about ``members`` only, when given)."""
    text = dump(db, "nquads").decode("utf-8")  # type: ignore[arg-type]
    wanted = set(graphs)
    keep = []
    blank = False
    for line in text.splitlines():
        if line.count(" ") < 4 or graph_of(line) not in wanted:
            continue
        if members is not None and line.partition(" ")[0][1:-1] not in members:
            continue
        blank = blank or bool(_BLANK.search(line))
        keep.append(line)
    if blank:
        keep = _canonical_blank_nodes(keep)
    return sorted(set(keep))


def _canonical_blank_nodes(lines: list[str]) -> list[str]:
    """Relabel blank nodes by their graph's structure (rdflib.compare). A store keeps each
    --rdf file in its own graph, so no blank node spans two graphs."""
    ds = Dataset()
    ds.parse(data="\n".join(lines) + "\n", format="nquads")
    out = Dataset()
    for g in ds.graphs():
        if not len(g):
            continue
        canon = g
        if any(isinstance(t, BNode) for triple in g for t in triple):
            from rdflib.compare import to_canonical_graph

            canon = to_canonical_graph(g)
        target = out.graph(g.identifier)
        for triple in canon:
            target.add(triple)
    text = out.serialize(format="nquads", encoding="utf-8").decode("utf-8")
    return [line for line in text.splitlines() if line.strip()]


def prefixes(db: object, text: str) -> dict[str, str]:
    """The usual prefixes (ontology and data) that the text uses."""
    every = {**PREFIXES, **data_prefixes(store_base(db))}  # type: ignore[arg-type]
    return {p: ns for p, ns in every.items() if f"<{ns}" in text}


def serialize(db: object, lines: list[str], fmt: str) -> bytes:
    """The sorted lines in one of RDF_FORMATS."""
    if fmt not in RDF_FORMATS:
        raise ValueError(f"not an RDF format: {fmt}")
    text = "\n".join(lines) + "\n" if lines else ""
    if fmt == "nquads":
        return text.encode("utf-8")
    if fmt == "jsonld":
        return _jsonld(text)
    if fmt == "trig":
        ordered = sorted(lines, key=lambda line: (graph_of(line), line))
        text = "\n".join(ordered) + "\n" if ordered else ""
    return reserialize_nquads(text.encode("utf-8"), fmt, prefixes(db, text))


def union_size(lines: list[str]) -> int:
    """Distinct triples (a triple held by two graphs counts once)."""
    return len({line.rsplit(" ", 2)[0] for line in lines})


def _jsonld(text: str) -> bytes:
    context = load_context()["@context"]
    ds = Dataset()
    ds.parse(data=text, format="nquads")
    doc = json.loads(ds.serialize(format="json-ld", context=context, encoding="utf-8"))
    body = {k: _stable(v) for k, v in doc.items() if k != "@context"}
    # the context as published, not as rdflib re-orders it
    return (json.dumps({"@context": context, **body}, ensure_ascii=False, indent=1) + "\n").encode()


def _stable(value: Any, in_list: bool = False) -> Any:
    """Sort object keys and set-like arrays (not ``@list``, whose order is meaning)."""
    if isinstance(value, dict):
        return {k: _stable(value[k], in_list=(k == "@list")) for k in sorted(value)}
    if isinstance(value, list):
        items = [_stable(v) for v in value]
        return items if in_list else sorted(items, key=_sort_key)
    return value


def _sort_key(v: Any) -> tuple[str, str]:
    if isinstance(v, dict):
        return (str(v.get("@id", "")), json.dumps(v, ensure_ascii=False, sort_keys=True))
    return ("", json.dumps(v, ensure_ascii=False))
