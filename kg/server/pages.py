"""Linked-data pages: the home page, one page per IRI under the base (HTML, or RDF by
``Accept`` or a ``.ttl``/``.jsonld``/``.nt``/``.rdf`` suffix), the ontology, VoID, and a
read-only Graph Store GET for each named graph."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rdflib import Graph
from rdflib.namespace import OWL, RDF, RDFS, SKOS
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.templating import Jinja2Templates

from kg.queries import list_queries, with_values
from kg.rdf.formats import RDF_FORMATS
from kg.rdf.namespaces import DEFAULT_BASE
from kg.rdf.prefixes import PREFIXES, curie, data_prefixes
from kg.resources import ontology_dir, project_root
from kg.server.errors import HttpError
from kg.server.formats import (
    CONTENT_TYPES,
    DUMPS,
    EXTENSIONS,
    GRAPH_TYPES,
    PAGE_TYPES,
    SUFFIXES,
    negotiate,
)
from kg.server.void import ONTOLOGY, void_description
from kg.text.normalize import normalize

templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
RDF_OFFERS = {m: f for m, f in GRAPH_TYPES.items() if f in EXTENSIONS}
LJ = PREFIXES["lj"]


class Linker:
    """Where a page links an IRI: ours (under the base, or the ontology) to this server."""

    SAFE = "/:@!$&'()*+,;=-._~"

    def __init__(self, request: Request, base: str) -> None:
        self.root = request.scope.get("root_path", "")
        self.base = base
        self.prefixes = {**PREFIXES, **data_prefixes(base)}

    def href(self, iri: str) -> str | None:
        if iri.startswith(self.base):
            return f"{self.root}/id/{quote(iri[len(self.base) :], safe=self.SAFE)}"
        if iri == ONTOLOGY or iri.startswith(ONTOLOGY + "#"):
            return f"{self.root}/ontology{iri[len(ONTOLOGY) :]}"
        if iri.startswith(("http://", "https://")):
            return iri
        return None  # never a javascript: or data: link from the data

    def curie(self, iri: str) -> str:
        return curie(iri, self.prefixes, bare=False)

    def plan_href(self, iri: str) -> str | None:
        """Where this server draws a section of the store on the plan."""
        if not iri.startswith(self.base):
            return None
        return f"{self.root}/plan/{quote(iri[len(self.base) :], safe=self.SAFE)}"


def error_page(request: Request, status: int, message: str) -> Response:
    return templates.TemplateResponse(
        request, "error.html", {"status": status, "message": message}, status_code=status
    )


async def _stats(request: Request) -> dict[str, Any]:
    return await request.app.state.kg.stats()


# -- home -------------------------------------------------------------------------------------


def example_queries() -> list[dict[str, str]]:
    """The queries/ set with their default parameters filled in, as the editor offers them."""
    out = []
    for q in list_queries():
        values = {k: normalize(v) for k, v in q.params.items() if v}
        out.append({"name": q.name, "title": q.title, "text": with_values(q.text, values)})
    return out


async def home(request: Request) -> Response:
    try:
        stats = await _stats(request)
    except HttpError as e:
        return error_page(request, e.status, e.message)
    linker = Linker(request, stats["base"])
    examples = example_queries()
    return templates.TemplateResponse(
        request,
        "home.html",
        {
            "stats": stats,
            "link": linker,
            "examples": examples,
            "dumps": [(name, RDF_FORMATS[fmt].label, gz) for name, (fmt, gz) in DUMPS.items()],
            "config": request.app.state.kg.config,
        },
    )


# -- one IRI ----------------------------------------------------------------------------------


async def resource(request: Request) -> Response:
    ctx = request.app.state.kg
    rest = request.path_params.get("path", "")
    fmt = None
    for suffix, f in SUFFIXES.items():
        if rest.endswith(suffix):
            rest, fmt = rest[: -len(suffix)], f
            break
    try:
        stats = await _stats(request)
    except HttpError as e:
        return error_page(request, e.status, e.message)
    if not rest:
        return RedirectResponse(request.url_for("home").path, 303)  # relative: Host is forged
    iri = stats["base"] + rest
    if fmt is None:
        mime = negotiate(request.headers.get("accept"), PAGE_TYPES)
        if mime is None:
            return Response("406: ask for HTML or an RDF format\n", 406, media_type="text/plain")
        fmt = PAGE_TYPES[mime]
    headers = {"Vary": "Accept", "Link": _alternates(request, rest)}
    try:
        if fmt == "html":
            page = await ctx.run(
                "page", {"iri": iri, "graph_triples": stats["graphs"].get(iri)}, request=request
            )
        else:
            body = await ctx.run(
                "rdf", {"iri": iri, "fmt": fmt, "cap": ctx.config.limit}, request=request
            )
    except HttpError as e:
        message = f"<{iri}> is not an IRI ({e.message})." if e.status == 400 else e.message
        if fmt != "html":  # an RDF client gets text, not a page
            return Response(message + "\n", e.status, media_type="text/plain")
        return error_page(request, e.status, message)
    if fmt == "html":
        if page is None:
            return error_page(request, 404, f"Nothing is known about <{iri}>.")
        linker = Linker(request, stats["base"])
        plans = await _plans(request, page, linker)
        return templates.TemplateResponse(
            request,
            "resource.html",
            {"page": page, "link": linker, "rest": rest, "lj": LJ, "plans": plans},
            headers=headers,
        )
    if body is None:
        return Response(f"Nothing is known about <{iri}>.\n", 404, media_type="text/plain")
    headers["Content-Location"] = f"{rest.rsplit('/', 1)[-1]}.{EXTENSIONS[fmt]}"
    return Response(body, media_type=CONTENT_TYPES[fmt], headers=headers)


PLAYABLE = {LJ + "Section", LJ + "RitualAct", LJ + "Chapter"}


async def _plans(request: Request, page: Any, linker: Linker) -> dict[str, Any] | None:
    """The plan player of a section, act or chapter page: the sections to play (their SVG
    addresses and number of steps) and the step to show first (an act's own)."""
    if not PLAYABLE & {t.value for t in page.types}:
        return None
    try:
        found = await request.app.state.kg.run("plan_sections", {"iri": page.iri}, request=request)
    except HttpError:
        return None
    if not found:
        return None
    sections = [
        {"src": linker.plan_href(f["iri"]), "label": f["label"], "steps": f["steps"]} for f in found
    ]
    orders = [v.value for p, vals in page.outgoing if p.value == LJ + "order" for v in vals]
    is_act = LJ + "RitualAct" in {t.value for t in page.types}
    chapter = LJ + "Chapter" in {t.value for t in page.types}
    first = int(orders[0]) if is_act and orders else 0 if chapter else sections[0]["steps"]
    return {"sections": sections, "step": first, "chapter": chapter}


async def plan(request: Request) -> Response:
    """GET /plan/SECTION?step=N: the section drawn on the ground plan (SVG)."""
    ctx = request.app.state.kg
    rest = request.path_params.get("path", "")
    step_arg = request.query_params.get("step")
    if step_arg is not None and not step_arg.isdigit():
        return Response("step is a number (0, 1, 2 …)\n", 400, media_type="text/plain")
    try:
        stats = await _stats(request)
        body = await ctx.run(
            "plan",
            {"iri": stats["base"] + rest, "step": int(step_arg) if step_arg else None},
            request=request,
        )
    except HttpError as e:
        return Response(e.message + "\n", e.status, media_type="text/plain")
    if body is None:
        return Response(f"no section {rest}\n", 404, media_type="text/plain")
    return Response(body, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


def _alternates(request: Request, rest: str) -> str:
    root = request.scope.get("root_path", "")
    path = quote(rest, safe=Linker.SAFE)
    return ", ".join(
        f'<{root}/id/{path}.{ext}>; rel="alternate"; type="{mime}"'
        for mime, ext in (
            ("text/turtle", "ttl"),
            ("application/ld+json", "jsonld"),
            ("application/n-triples", "nt"),
            ("application/rdf+xml", "rdf"),
        )
    )


# -- ontology ---------------------------------------------------------------------------------


def ontology_file() -> Path:
    return ontology_dir() / "lijing.ttl"


@cache
def _ontology(mtime: float) -> Graph:
    return Graph().parse(ontology_file(), format="turtle")


def ontology_graph() -> Graph:
    return _ontology(ontology_file().stat().st_mtime)


def generated_docs(request: Request) -> Path | None:
    """docs/ontology.html written by `kg docs`, beside the store or in the project."""
    store = Path(request.app.state.kg.config.store)
    for folder in (store.parent, store.parent.parent, project_root()):
        candidate = folder / "docs" / "ontology.html"
        if candidate.is_file():
            return candidate
    return None


def _terms(g: Graph, kinds: tuple) -> list[dict[str, Any]]:
    out = []
    subjects = {s for k in kinds for s in g.subjects(RDF.type, k) if str(s).startswith(LJ)}
    for s in sorted(subjects):
        labels = {str(lit.language or ""): str(lit) for lit in g.objects(s, RDFS.label)}
        out.append(
            {
                "iri": str(s),
                "name": str(s)[len(LJ) :],
                "lzh": labels.get("lzh", ""),
                "en": labels.get("en", ""),
                "definition": next((str(d) for d in g.objects(s, SKOS.definition)), ""),
                "parents": sorted(
                    str(o) for p in (RDFS.subClassOf, RDFS.subPropertyOf) for o in g.objects(s, p)
                ),
                "domain": sorted(str(o) for o in g.objects(s, RDFS.domain)),
                "range": sorted(str(o) for o in g.objects(s, RDFS.range)),
                "kinds": sorted(str(k).rsplit("#", 1)[-1] for k in g.objects(s, RDF.type)),
            }
        )
    return out


async def ontology(request: Request) -> Response:
    ext = request.path_params.get("ext")
    if ext:
        fmt = SUFFIXES.get(f".{ext}")
        if fmt is None:
            return error_page(request, 404, f"No ontology file .{ext}")
    else:
        mime = negotiate(request.headers.get("accept"), PAGE_TYPES)
        if mime is None:
            return Response("406: ask for HTML or an RDF format\n", 406, media_type="text/plain")
        fmt = PAGE_TYPES[mime]
    headers = {"Vary": "Accept"}
    if fmt == "turtle":
        return FileResponse(ontology_file(), media_type=CONTENT_TYPES["turtle"], headers=headers)
    if fmt != "html":
        body = ontology_graph().serialize(format=RDF_FORMATS[fmt].rdflib)
        return Response(body, media_type=CONTENT_TYPES[fmt], headers=headers)
    docs = generated_docs(request)
    if docs is not None:
        return FileResponse(docs, media_type=CONTENT_TYPES["html"], headers=headers)
    g = ontology_graph()
    try:
        base = (await _stats(request))["base"]
    except HttpError:
        base = DEFAULT_BASE
    return templates.TemplateResponse(
        request,
        "ontology.html",
        {
            "classes": _terms(g, (OWL.Class,)),
            "properties": _terms(
                g, (OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)
            ),
            "link": Linker(request, base),
            "meta": {
                str(p).rsplit("/", 1)[-1]: str(o)
                for p, o in g.predicate_objects(next(g.subjects(RDF.type, OWL.Ontology)))
                if getattr(o, "language", None) in (None, "en")
            },
        },
        headers=headers,
    )


# -- VoID, graphs -----------------------------------------------------------------------------


async def void(request: Request) -> Response:
    mime = negotiate(request.headers.get("accept"), RDF_OFFERS)
    if mime is None:
        return Response(
            "406: VoID is RDF (Turtle, JSON-LD, N-Triples, RDF/XML)\n", 406, media_type="text/plain"
        )
    try:
        stats = await _stats(request)
    except HttpError as e:
        return Response(e.message + "\n", e.status)
    fmt = RDF_OFFERS[mime]
    return Response(
        void_description(request, stats, fmt),
        media_type=CONTENT_TYPES[fmt],
        headers={"Vary": "Accept"},
    )


async def graph_store(request: Request) -> Response:
    """GET ?graph=IRI: the triples of one named graph (SPARQL 1.1 Graph Store, read-only)."""
    graphs = request.query_params.getlist("graph")
    if len(graphs) != 1:
        return Response("give one ?graph=IRI\n", 400, media_type="text/plain")
    mime = negotiate(request.headers.get("accept"), RDF_OFFERS)
    if mime is None:
        return Response(
            "406: a graph is sent as Turtle, N-Triples, RDF/XML or JSON-LD\n",
            406,
            media_type="text/plain",
        )
    fmt = RDF_OFFERS[mime]
    try:
        body = await request.app.state.kg.run(
            "graph",
            {"iri": graphs[0], "fmt": fmt},
            timeout=request.app.state.kg.config.dump_timeout,
            request=request,
        )
    except HttpError as e:
        return Response(e.message + "\n", e.status, media_type="text/plain")
    if body is None:
        return Response(f"no graph <{graphs[0]}>\n", 404, media_type="text/plain")
    return Response(body, media_type=CONTENT_TYPES[fmt], headers={"Vary": "Accept"})
