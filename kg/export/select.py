"""What an export takes from the store: which named graphs (layers) and which chapter.

A layer of an RDF export is a named graph, named by its path under ``graph/`` (``text``,
``commentary``, ``mentions``, ``acts``, ``vocabularies``, ``ontology``, ``user/NAME``). A
chapter is given by its slug (``xiangsheli``), title (``乡射礼``, any character form) or IRI;
what belongs to it is what reaches it by the links in ``graph.toml`` ``[chapter]``.

>>> sparql_path(["dcterms:isPartOf", "^lj:witness"])
'(<http://purl.org/dc/terms/isPartOf>|^<https://w3id.org/lijing/ontology#witness>)*'
"""

from __future__ import annotations

from collections.abc import Iterable

from kg.errors import KgError
from kg.rdf.prefixes import PREFIXES
from kg.store import graph_counts, rows, run_query, store_base
from kg.text.normalize import normalize


def expand(curie: str, where: str = "") -> str:
    """``lj:order`` → the full IRI (``where`` names the file for the error message)."""
    if curie.startswith("<") and curie.endswith(">"):
        return curie[1:-1]
    prefix, sep, local = curie.partition(":")
    if not sep or prefix not in PREFIXES:
        raise KgError(f"{where or 'export'}: unknown prefix in {curie!r}")
    return PREFIXES[prefix] + local


def sparql_path(links: Iterable[str]) -> str:
    """``(p1|^p2|…)*`` over the links (``^`` reads a link backwards)."""
    parts = []
    for link in links:
        inverse = link.startswith("^")
        parts.append(("^" if inverse else "") + f"<{expand(link.lstrip('^'))}>")
    return "(" + "|".join(parts) + ")*"


def layer_graphs(db: object) -> dict[str, str]:
    """Named graphs of the store by layer name (their path under ``graph/``)."""
    prefix = store_base(db) + "graph/"
    return {g[len(prefix) :] if g.startswith(prefix) else g: g for g in graph_counts(db)}


def resolve_layers(db: object, names: Iterable[str]) -> list[str]:
    """Graph IRIs of the named layers (all graphs when none are named)."""
    graphs = layer_graphs(db)
    names = list(names)
    if not names:
        return sorted(graphs.values())
    unknown = [n for n in names if n not in graphs]
    if unknown:
        raise KgError(
            f"no layer {', '.join(map(repr, unknown))} in this store "
            f"(it has: {', '.join(sorted(graphs))})"
        )
    return sorted({graphs[n] for n in names})


def chapters(db: object) -> list[dict[str, str]]:
    """Every chapter: IRI, slug (last IRI segment), title and label."""
    q = """SELECT ?c ?title ?label WHERE { ?c a lj:Chapter
           OPTIONAL { ?c lj:title ?title } OPTIONAL { ?c rdfs:label ?label } } ORDER BY ?c"""
    _, body = rows(run_query(db, q))  # type: ignore[arg-type]
    out = []
    for iri, title, label in body:
        out.append(
            {
                "iri": str(iri[1]),
                "slug": str(iri[1]).rstrip("/").rsplit("/", 1)[-1],
                "title": str(title[1]) if title else "",
                "label": str(label[1]) if label else "",
            }
        )
    return out


def resolve_chapter(db: object, wanted: str) -> str:
    """The IRI of the chapter a user names by slug, title (any character form) or IRI."""
    found = chapters(db)
    key = normalize(wanted.strip())
    for c in found:
        names = {c["iri"], c["slug"], normalize(c["title"]), normalize(c["label"])}
        if wanted in names or key in names:
            return c["iri"]
    known = ", ".join(f"{c['slug']} ({c['title']})" for c in found) or "none"
    raise KgError(f"no chapter {wanted!r} in this store (chapters: {known})")


def chapter_members(db: object, chapter: str, links: Iterable[str]) -> set[str]:
    """IRIs of the chapter and of everything that reaches it through ``links``."""
    q = f"SELECT DISTINCT ?x WHERE {{ ?x {sparql_path(links)} <{chapter}> }}"
    _, body = rows(run_query(db, q))  # type: ignore[arg-type]
    return {r[0].value for r in body if r[0] and r[0].kind == "iri"}
