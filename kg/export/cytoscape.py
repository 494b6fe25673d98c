"""Cytoscape.js JSON (``.cyjs``): ``elements`` as Cytoscape.js and Cytoscape desktop read
them (networkx's ``cytoscape_data`` layout, which ``cytoscape_graph`` reads back), each
element with its class in ``classes``, and a ``style`` with one colour per class::

    cytoscape({container, elements: doc.elements, style: doc.style, layout: {name: "cose"}})
"""

from __future__ import annotations

import json
from typing import Any

import networkx as nx

from kg.export.graph import PropertyGraph
from kg.export.graphtools import to_networkx


def document(pg: PropertyGraph) -> dict[str, Any]:
    g = to_networkx(pg)
    doc = nx.cytoscape_data(g, name="label", ident="id")
    classes = {n.id: n.cls.name for n in pg.nodes}
    for node in doc["elements"]["nodes"]:
        node["classes"] = classes[node["data"]["value"]]
    for edge in doc["elements"]["edges"]:
        edge["classes"] = edge["data"]["relation"]
    doc["style"] = style(pg)
    return doc


def style(pg: PropertyGraph) -> list[dict[str, Any]]:
    """A node colour per class; labels from ``label``; arrows with the relation's name."""
    out: list[dict[str, Any]] = [
        {"selector": "node", "style": {"label": "data(label)", "font-size": 10}},
        {
            "selector": "edge",
            "style": {
                "curve-style": "bezier",
                "target-arrow-shape": "triangle",
                "label": "data(relation)",
                "font-size": 6,
                "width": 1,
            },
        },
    ]
    seen: dict[str, str] = {}
    for n in pg.nodes:
        seen.setdefault(n.cls.name, n.cls.colour)
    for name in sorted(seen):
        out.append({"selector": f"node.{name}", "style": {"background-color": seen[name]}})
    return out


def cytoscape(pg: PropertyGraph) -> bytes:
    return (json.dumps(document(pg), ensure_ascii=False, indent=1) + "\n").encode("utf-8")
