"""The diagram of the ontology's core: an SVG drawn from the ontology and ``layout.toml``.

Classes sit in the columns the layout gives them (each box labelled 中文 and English, linked
to its entry on the page); arrows are the object properties whose domain and range are both
drawn, plus the layout's extra links. Arrows between the same two classes are merged; arrows
within a column, or both ways between two classes, are bent so they do not overlap.

>>> svg = core_svg(_demo_graph(), {"columns": [["A"], ["B"]], "links": []})
>>> svg.count("<rect"), ">ab</text>" in svg
(2, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Any

from rdflib import OWL, RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import SKOS

from kg.rdf.namespaces import LJ
from kg.rdf.prefixes import PREFIXES

BOX_W, BOX_H = 156, 44
COL_GAP, ROW_GAP = 262, 76
MARGIN = 40
SIDE = 110  # room left and right for arcs that go round a column
NS = str(LJ._NS)


@dataclass
class Box:
    name: str
    x: float  # centre
    y: float
    zh: str
    en: str
    note: str


def _label(graph: Graph, term: URIRef, lang: str) -> str:
    for lab in graph.objects(term, RDFS.label):
        if isinstance(lab, Literal) and lab.language == lang:
            return str(lab)
    return ""


def _local(iri: str) -> str:
    for prefix, ns in PREFIXES.items():
        if iri.startswith(ns):
            return iri[len(ns) :] if prefix == "lj" else f"{prefix}:{iri[len(ns) :]}"
    return iri


def _expand(curie: str) -> str:
    prefix, _, local = curie.partition(":")
    return PREFIXES[prefix] + local if prefix in PREFIXES else curie


def core_svg(graph: Graph, layout: dict[str, Any]) -> str:
    """The SVG (a standalone document, also fit to inline in HTML)."""
    boxes = _boxes(graph, layout["columns"])
    edges = _edges(graph, boxes, layout.get("links", []))
    rows = max((len(c) for c in layout["columns"]), default=0)
    width = SIDE * 2 + BOX_W + (len(layout["columns"]) - 1) * COL_GAP
    height = MARGIN * 2 + BOX_H + (rows - 1) * ROW_GAP
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" class="lj-diagram" '
        "font-family=\"'Noto Sans CJK SC', 'Noto Sans SC', 'Source Han Sans SC', sans-serif\">",
        "<title>The core of the lijing ontology</title>",
        '<defs><marker id="lj-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#555"/></marker></defs>',
        '<g class="edges" fill="none" stroke="#777" stroke-width="1.2">',
    ]
    labels = []
    for (src, tgt), names in sorted(edges.items()):
        arrow, label = _arrow(boxes[src], boxes[tgt], names, edges, layout)
        out.append(arrow)
        labels.append(label)
    out.append("</g>")
    out.append('<g class="boxes">')
    out.extend(_box_svg(b) for b in boxes.values())
    out.append("</g>")
    out.append('<g class="labels">' + "".join(labels) + "</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _boxes(graph: Graph, columns: list[list[str]]) -> dict[str, Box]:
    """A box for each class the layout places, at its column and row."""
    boxes: dict[str, Box] = {}
    for ci, column in enumerate(columns):
        for ri, name in enumerate(column):
            if not name:
                continue
            term = URIRef(NS + name)
            parents = [
                _local(str(p))
                for p in graph.objects(term, RDFS.subClassOf)
                if not str(p).startswith(NS)
            ]
            definition = str(graph.value(term, SKOS.definition) or "")
            note = definition + (f" (⊑ {', '.join(sorted(parents))})" if parents else "")
            boxes[name] = Box(
                name,
                SIDE + BOX_W / 2 + ci * COL_GAP,
                MARGIN + BOX_H / 2 + ri * ROW_GAP,
                _label(graph, term, "lzh") or name,
                _label(graph, term, "en") or name,
                note,
            )
    return boxes


def _arrow(
    a: Box,
    b: Box,
    names: list[str],
    edges: dict[tuple[str, str], list[str]],
    layout: dict[str, Any],
) -> tuple[str, str]:
    """The SVG of one arrow and of its label (drawn later, above the boxes)."""
    path, (lx, ly) = _geometry(a, b, edges, layout)
    arrow = (
        f'<path d="{path}" marker-end="url(#lj-arrow)"><title>'
        f"{escape(a.name)} → {escape(' / '.join(names))} → {escape(b.name)}</title></path>"
    )
    vertical = abs(a.x - b.x) < 1 and abs(a.y - b.y) <= ROW_GAP
    anchor = "start" if vertical else "middle"  # beside a short vertical arrow, not on it
    lx, ly = (lx + 6, ly + 6) if vertical else (lx, ly)
    label = (
        f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}" font-size="11" fill="#333" '
        f'stroke="#fff" stroke-width="3" paint-order="stroke">'
        f"{escape(' / '.join(names))}</text>"
    )
    return arrow, label


def _box_svg(b: Box) -> str:
    return (
        f'<a href="#{escape(b.name)}"><g class="box">'
        f"<title>{escape(b.name)}: {escape(b.note)}</title>"
        f'<rect x="{b.x - BOX_W / 2:.1f}" y="{b.y - BOX_H / 2:.1f}" width="{BOX_W}" '
        f'height="{BOX_H}" rx="6" fill="#f4f1ea" stroke="#8a6d3b" stroke-width="1.2"/>'
        f'<text x="{b.x:.1f}" y="{b.y - 4:.1f}" text-anchor="middle" font-size="15" '
        f'font-weight="bold" fill="#3b2f1e">{escape(b.zh)}</text>'
        f'<text x="{b.x:.1f}" y="{b.y + 13:.1f}" text-anchor="middle" font-size="11" '
        f'fill="#5a4a32">{escape(b.en)}</text></g></a>'
    )


def _edges(
    graph: Graph, boxes: dict[str, Box], links: list[list[str]]
) -> dict[tuple[str, str], list[str]]:
    edges: dict[tuple[str, str], list[str]] = {}

    def add(src: str, prop: str, tgt: str) -> None:
        if src in boxes and tgt in boxes:
            names = edges.setdefault((src, tgt), [])
            if prop not in names:
                names.append(prop)

    props = sorted(
        p
        for p in graph.subjects(RDF.type, OWL.ObjectProperty)
        if isinstance(p, URIRef) and str(p).startswith(NS)
    )
    for p in props:
        for d in graph.objects(p, RDFS.domain):
            for r in graph.objects(p, RDFS.range):
                if str(d).startswith(NS) and str(r).startswith(NS):
                    add(str(d)[len(NS) :], str(p)[len(NS) :], str(r)[len(NS) :])
    for src, prop, tgt in links:
        add(src, _local(_expand(prop)).removeprefix("dcterms:"), tgt)
    return edges


def _geometry(
    a: Box, b: Box, edges: dict[tuple[str, str], list[str]], layout: dict[str, Any]
) -> tuple[str, tuple[float, float]]:
    """An SVG path from box a to box b, and where its label goes."""
    if a is b:  # a loop below the box
        x, y = a.x, a.y + BOX_H / 2
        path = (
            f"M{x - 14:.1f},{y:.1f} C{x - 40:.1f},{y + 44:.1f} "
            f"{x + 40:.1f},{y + 44:.1f} {x + 14:.1f},{y:.1f}"
        )
        return path, (x, y + 46)
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1.0
    bend = 0.0
    if (b.name, a.name) in edges:
        bend = 22.0
    same_column = abs(dx) < 1
    if same_column and abs(dy) > ROW_GAP * 1.5:
        # go round the boxes in between, on the outer side of the diagram
        outward = 1.0 if a.x > SIDE + BOX_W else -1.0
        side = outward * (1 if dy > 0 else -1)  # perpendicular (-dy, dx) points left of travel
        bend = -side * (BOX_W / 2 + 18 + abs(dy) * 0.05) + (bend if bend else 0)
    # the control point, perpendicular to the chord at its middle
    mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
    nx, ny = -dy / length, dx / length
    cx, cy = mx + nx * bend * 2, my + ny * bend * 2
    start = _clip(a, cx if bend else b.x, cy if bend else b.y)
    end = _clip(b, cx if bend else a.x, cy if bend else a.y)
    if not bend:
        # the label halfway, or a third of the way on long diagonals (where several cross)
        t = 0.35 if abs(dx) > 1 and abs(dy) > ROW_GAP * 1.5 else 0.5
        lx = start[0] + (end[0] - start[0]) * t
        ly = start[1] + (end[1] - start[1]) * t - 3
        return f"M{start[0]:.1f},{start[1]:.1f} L{end[0]:.1f},{end[1]:.1f}", (lx, ly)
    lx = 0.25 * start[0] + 0.5 * cx + 0.25 * end[0]
    ly = 0.25 * start[1] + 0.5 * cy + 0.25 * end[1]
    return (
        f"M{start[0]:.1f},{start[1]:.1f} Q{cx:.1f},{cy:.1f} {end[0]:.1f},{end[1]:.1f}",
        (lx, ly + 4),
    )


def _clip(box: Box, tx: float, ty: float) -> tuple[float, float]:
    """Where the line from the box's centre towards (tx, ty) leaves the box."""
    dx, dy = tx - box.x, ty - box.y
    if dx == 0 and dy == 0:
        return box.x, box.y
    scale = min(
        (BOX_W / 2 + 2) / abs(dx) if dx else math.inf,
        (BOX_H / 2 + 2) / abs(dy) if dy else math.inf,
    )
    return box.x + dx * scale, box.y + dy * scale


def _demo_graph() -> Graph:
    g = Graph()
    a, b, p = URIRef(NS + "A"), URIRef(NS + "B"), URIRef(NS + "ab")
    for c in (a, b):
        g.add((c, RDF.type, OWL.Class))
    g.add((p, RDF.type, OWL.ObjectProperty))
    g.add((p, RDFS.domain, a))
    g.add((p, RDFS.range, b))
    return g
