"""CSV node and edge lists: ``nodes.csv`` and ``edges.csv``, for spreadsheets and for Neo4j.

Headers follow ``neo4j-admin database import``: ``id:ID`` and ``:LABEL`` (the class) for
nodes, ``:START_ID``, ``:END_ID`` and ``:TYPE`` (the relation) for edges, ``:int`` /
``:boolean`` / ``:float`` on typed columns; a spreadsheet shows them as plain column names.
Files are UTF-8 with a byte-order mark, which spreadsheets need to show 中文 and Neo4j skips.

>>> column("order", [1, 2])
'order:int'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from kg.export.graph import PropertyGraph, Value

_FIRST_NODE_COLUMNS = ("label", "label_zh", "label_en", "class", "class_zh", "class_en", "colour")
_FIRST_EDGE_COLUMNS = ("relation_zh", "relation_en", "property")


def column(name: str, values: Iterable[Value]) -> str:
    """The Neo4j header for a column: ``name:int`` when every value is an integer …"""
    kinds = {type(v) for v in values}
    if kinds == {bool}:
        return f"{name}:boolean"
    if kinds == {int}:
        return f"{name}:int"
    if kinds and kinds <= {int, float}:
        return f"{name}:float"
    return name


def _table(header: list[tuple[str, str]], records: list[dict[str, Value]]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([title for _, title in header])
    for rec in records:
        w.writerow([_cell(rec.get(key)) for key, _ in header])
    return buf.getvalue().encode("utf-8-sig")


def _cell(v: Value | None) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _extra(records: list[dict[str, Value]], skip: set[str]) -> list[str]:
    """Other attribute names, in the order they first appear."""
    seen: dict[str, None] = {}
    for rec in records:
        for k in rec:
            if k not in skip:
                seen.setdefault(k, None)
    return list(seen)


def nodes_csv(pg: PropertyGraph) -> bytes:
    records = [n.attrs for n in pg.nodes]
    skip = {"iri", *_FIRST_NODE_COLUMNS}
    keys = list(_FIRST_NODE_COLUMNS) + _extra(records, skip)
    header = [("iri", "id:ID"), ("class", ":LABEL")] + [
        (k, column(k, (r[k] for r in records if k in r))) for k in keys
    ]
    return _table(header, records)


def edges_csv(pg: PropertyGraph) -> bytes:
    records = [{"source": e.source, "target": e.target, "id": e.id, **e.attrs} for e in pg.edges]
    skip = {"source", "target", "relation", "id", *_FIRST_EDGE_COLUMNS}
    keys = ["id", *_FIRST_EDGE_COLUMNS, *_extra(records, skip)]
    header = [("source", ":START_ID"), ("target", ":END_ID"), ("relation", ":TYPE")] + [
        (k, column(k, (r[k] for r in records if k in r))) for k in keys
    ]
    return _table(header, records)


def csv_files(pg: PropertyGraph) -> dict[str, bytes]:
    """``{"nodes.csv": …, "edges.csv": …}``."""
    return {"nodes.csv": nodes_csv(pg), "edges.csv": edges_csv(pg)}
