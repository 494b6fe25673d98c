"""GraphML and GEXF, the files Gephi, Cytoscape (desktop) and yEd open — written by networkx.

Every node has ``label`` (中文, else English), ``label_zh``, ``label_en``, ``class`` (with
``class_zh`` / ``class_en``), ``colour`` and the attributes of its class; GraphML adds
``r``/``g``/``b`` (which Gephi reads as the node colour), GEXF the ``viz:color`` element.
Edges have an ``id``, ``relation`` (with ``relation_zh`` / ``relation_en``) and, for acts,
the act's order. networkx writes in insertion order, which is the sorted order of
:mod:`kg.export.graph`.
"""

from __future__ import annotations

import io
import re

import networkx as nx

from kg.export.graph import PropertyGraph


def to_networkx(pg: PropertyGraph, flavour: str = "plain") -> nx.MultiDiGraph:
    """A networkx graph of ``pg``; ``flavour`` graphml or gexf adds that format's colours."""
    g = nx.MultiDiGraph()
    g.graph["layers"] = ",".join(pg.layers)
    if pg.chapter:
        g.graph["chapter"] = pg.chapter
    for n in pg.nodes:
        attrs = dict(n.attrs)
        r, gr, b = (int(n.cls.colour[i : i + 2], 16) for i in (1, 3, 5))
        if flavour == "gexf":
            attrs["viz"] = {"color": {"r": r, "g": gr, "b": b, "a": 1.0}}
        elif flavour == "graphml":
            attrs.update(r=r, g=gr, b=b)
        g.add_node(n.id, **attrs)
    for e in pg.edges:
        attrs = dict(e.attrs)
        attrs["label"] = str(e.attrs.get("relation", e.relation))
        if flavour == "gexf":
            attrs["id"] = e.id
            g.add_edge(e.source, e.target, key=e.id, **attrs)
        else:
            g.add_edge(e.source, e.target, key=e.id, id=e.id, **attrs)
    return g


def graphml(pg: PropertyGraph) -> bytes:
    buf = io.BytesIO()
    nx.write_graphml(
        to_networkx(pg, "graphml"),
        buf,
        encoding="utf-8",
        named_key_ids=True,
        edge_id_from_attribute="id",
    )
    return buf.getvalue()


def gexf(pg: PropertyGraph) -> bytes:
    buf = io.BytesIO()
    nx.write_gexf(to_networkx(pg, "gexf"), buf, encoding="utf-8", version="1.2draft")
    # networkx stamps today's date; leave it out so that equal graphs give equal files
    return re.sub(rb'<meta lastmodifieddate="[^"]*">', b"<meta>", buf.getvalue(), count=1)
