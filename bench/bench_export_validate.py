"""Speed of `kg export` and `kg validate` on a built store, with the alternatives they chose
against, measured side by side in one run (CPU seconds, so a busy machine skews less).

    .venv/bin/python bench/bench_export_validate.py [--store DIR] [--chapter xiangsheli]

1. every export format, whole store: CPU seconds, bytes, counts;
2. Turtle from the same sorted quads: Oxigraph's serializer (what kg export uses) vs
   rdflib's Turtle serializer (its sorted output was the other candidate);
3. SHACL-SPARQL constraints over one chapter's data: one Oxigraph query per constraint over
   the whole graph (what kg validate does) vs pySHACL running each once per focus node;
4. kg validate's four checks on the whole store.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyshacl import validate
from rdflib import RDF, Graph, URIRef
from rdflib.namespace import SH

from kg.export import FORMATS, render
from kg.export import rdf as rdf_export
from kg.export.select import resolve_layers
from kg.resources import default_store
from kg.store import RdfFile, build_store, open_store
from kg.validate import load_shapes, split_shapes, store_query, validate_store

SHAPES = URIRef("https://w3id.org/lijing/shapes")


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.process_time()
    out = fn()
    return time.process_time() - started, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", type=Path, default=default_store())
    ap.add_argument("--chapter", default="xiangsheli")
    ap.add_argument("--parts", default="1234", help="which measurements to run (default: all)")
    args = ap.parse_args()
    db = open_store(args.store)

    print(f"store {args.store}")
    if "1" in args.parts:
        exports(db)
    if "2" in args.parts:
        turtle(db)
    if "3" in args.parts:
        constraints(db, args.chapter)
    if "4" in args.parts:
        validation(db)


def exports(db: object) -> None:
    print("\n1. exports of the whole store (CPU s)")
    for fmt in FORMATS:
        t, (files, counts, _) = cpu(lambda fmt=fmt: render(db, fmt))
        size = sum(len(b) for b in files.values())
        shown = " ".join(f"{k}={v:,}" for k, v in counts.items())
        print(f"   {fmt:10} {t:7.1f}  {size / 1e6:7.1f} MB  {shown}")


def turtle(db: object) -> None:
    print("\n2. Turtle from the same sorted quads (CPU s)")
    lines = rdf_export.nquad_lines(db, resolve_layers(db, []))
    t_ox, _ = cpu(lambda: rdf_export.serialize(db, lines, "turtle"))
    g = Graph()
    triples = "\n".join(line.rsplit(" ", 2)[0] + " ." for line in lines) + "\n"
    t_parse, _ = cpu(lambda: g.parse(data=triples, format="nt"))
    t_rdflib, _ = cpu(lambda: g.serialize(format="turtle"))
    print(
        f"   oxigraph {t_ox:6.1f}   rdflib {t_rdflib:6.1f} (+ {t_parse:.1f} to load)   "
        f"ratio {t_rdflib / max(t_ox, 1e-9):.0f}x"
    )


def constraints(db: object, name: str) -> None:
    print(f"\n3. SPARQL constraints over chapter {name} (CPU s)")
    chapter = render(db, "nquads", chapter=name)[0][""].decode().splitlines()
    ontology = render(db, "nquads", layers=["ontology"])[0][""].decode().splitlines()
    data = Graph()  # the union, as kg validate sees it
    data.parse(data="\n".join(x.rsplit(" ", 2)[0] + " ." for x in chapter + ontology), format="nt")
    shapes = load_shapes()
    _, found = split_shapes(shapes)
    only = Graph()  # the SPARQL constraints alone, with their shapes' targets
    for shape, c in shapes.subject_objects(SH.sparql):
        only.add((shape, RDF.type, SH.NodeShape))
        for p in (SH.targetClass, SH.targetSubjectsOf):
            for o in shapes.objects(shape, p):
                only.add((shape, p, o))
        only.add((shape, SH.sparql, c))
        only += shapes.cbd(c)
    for decl in shapes.objects(None, SH.declare):
        only.add((SHAPES, SH.declare, decl))
        only += shapes.cbd(decl)
    with tempfile.TemporaryDirectory() as tmp:  # the same quads in an Oxigraph store
        nq = Path(tmp) / "chapter.nq"
        nq.write_text("\n".join(chapter + ontology) + "\n", encoding="utf-8")
        build_store(Path(tmp) / "store", [], [RdfFile(nq, "urn:x-unused")])
        run = store_query(open_store(Path(tmp) / "store"))
        t_ours, ours = cpu(lambda: sum(len(list(run(c.query))) for c in found))
    t_theirs, (_, results, _) = cpu(lambda: validate(data, shacl_graph=only, inference="none"))
    theirs = len(set(results.subjects(RDF.type, SH.ValidationResult)))
    print(
        f"   {len(data):,} triples, {len(found)} constraints: whole-graph queries "
        f"{t_ours:6.1f} ({ours} results)   pySHACL per focus node {t_theirs:6.1f} "
        f"({theirs} results)   ratio {t_theirs / max(t_ours, 1e-9):.0f}x"
    )


def validation(db: object) -> None:
    print("\n4. kg validate, whole store (wall s per check)")
    t, report = cpu(lambda: validate_store(db))
    for c in report.checks:
        print(f"   {c.name:9} {c.seconds:6.1f} wall  {c.summary}")
    print(f"   total {t:.1f} CPU s; {report.violations:,} violations")


if __name__ == "__main__":
    main()
