"""The query editor at ``/editor``: YASGUI's editor and result views (vendored, no outside
host), our vocabulary for completion, and the named queries with a form for their @params.

``/editor?query=…`` opens a query and runs it; ``/editor?name=Q&p=v…`` opens the named query
``Q`` with its parameters bound as ``kg query Q --bind p=v`` binds them (values folded to the
normalized forms the data uses, defaults for the rest) and runs it. The share link the page
offers is one of these URLs.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from rdflib import Graph
from rdflib.namespace import OWL, RDF, RDFS
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kg.errors import QueryError
from kg.queries import NamedQuery, list_queries, resolve_query, with_values
from kg.rdf.prefixes import PREFIXES, data_prefixes
from kg.resources import ontology_dir
from kg.server.pages import error_page, templates
from kg.text.normalize import normalize

FIRST_QUERY = """SELECT ?chapter ?title WHERE {
  ?chapter a lj:Chapter ; lj:title ?title .
}
ORDER BY ?chapter
"""
_DECLARED = re.compile(r"^\s*PREFIX\s+([\w-]*):", re.I | re.M)


def with_prefixes(text: str, prefixes: dict[str, str]) -> str:
    """The query with a PREFIX line for each predeclared prefix it uses and does not declare,
    so that it runs as shown on any endpoint (ours predeclares them)."""
    declared = set(_DECLARED.findall(text))
    body = re.sub(r"#[^\n]*", "", text)
    used = [p for p in prefixes if p not in declared and re.search(rf"(?<![\w:]){p}:", body)]
    head = "".join(f"PREFIX {p}: <{prefixes[p]}>\n" for p in used)
    # after the comment header a named query opens with, so its title stays on top
    header = re.match(r"(?:[ \t]*#[^\n]*\n|[ \t]*\n)*", text)
    cut = header.end() if header else 0
    return text[:cut] + head + text[cut:]


def bound(q: NamedQuery, given: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The named query's text with its parameters bound (given values, else defaults)."""
    values = {k: (given.get(k) or v).strip() for k, v in q.params.items()}
    values = {k: normalize(v) for k, v in values.items() if v}
    return with_values(q.text, values), values


@cache
def vocabulary() -> dict[str, list[dict[str, str]]]:
    """Classes and properties of ontology/lijing.ttl with their labels, for completion."""
    g = Graph().parse(ontology_dir() / "lijing.ttl")
    kinds = {
        "class": (OWL.Class, RDFS.Class),
        "property": (OWL.ObjectProperty, OWL.DatatypeProperty, RDF.Property),
    }
    out: dict[str, list[dict[str, str]]] = {}
    for kind, types in kinds.items():
        terms = {
            s for t in types for s in g.subjects(RDF.type, t) if str(s).startswith(PREFIXES["lj"])
        }
        out[kind] = [
            {
                "iri": str(s),
                "label": " / ".join(sorted(str(lbl) for lbl in g.objects(s, RDFS.label))),
            }
            for s in sorted(terms)
        ]
    return out


def _catalogue() -> list[dict[str, Any]]:
    return [
        {"name": q.name, "title": q.title, "params": q.params, "docs": q.docs}
        for q in list_queries()
    ]


async def editor(request: Request) -> Response:
    stats = await request.app.state.kg.stats()
    prefixes = {**PREFIXES, **data_prefixes(stats["base"])}
    args = request.query_params
    name, values, text = args.get("name"), {}, args.get("query")
    chosen = None
    if name:
        try:
            chosen = resolve_query(name)
        except QueryError as e:
            return error_page(request, 404, str(e))
        if chosen.path is None or chosen.path.parent.name != "queries":
            return error_page(request, 404, f"no named query {name!r}")
        text, values = bound(chosen, dict(args))
    run = text is not None
    if text is None:
        text = FIRST_QUERY
    config = {
        "query": with_prefixes(text, prefixes),
        "run": run,
        "endpoint": str(request.url_for("sparql")),
        "editor": str(request.url_for("editor")),
        "plan": request.scope.get("root_path", "") + "/plan/",
        "base": stats["base"],
        "local": request.scope.get("root_path", "") + "/id/",
        "prefixes": prefixes,
        "limit": request.app.state.kg.config.limit,
    }
    return templates.TemplateResponse(
        request,
        "editor.html",
        {
            "config": config,
            "queries": _catalogue(),
            "chosen": chosen,
            "values": values,
            "settings": request.app.state.kg.config,
        },
    )


async def terms(request: Request) -> Response:
    """Our vocabulary's classes and properties, for the editor's completion (no outside service)."""
    return JSONResponse(vocabulary(), headers={"Cache-Control": "max-age=3600"})
