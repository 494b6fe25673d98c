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

from kg.queries import list_queries
from kg.rdf.formats import RDF_FORMATS
from kg.rdf.namespaces import DEFAULT_BASE
from kg.rdf.prefixes import PREFIXES, curie, data_prefixes
from kg.resources import ontology_dir, project_root
from kg.server import i18n
from kg.server.csp import with_inline_styles
from kg.server.errors import HttpError
from kg.server.formats import (
    CONTENT_TYPES,
    DUMPS,
    EXTENSIONS,
    GRAPH_NAMES,
    GRAPH_TYPES,
    PAGE_FORMATS,
    PAGE_TYPES,
    SUFFIXES,
    negotiate,
)
from kg.server.void import ONTOLOGY, void_description
from kg.text.work import load_work

templates = Jinja2Templates(
    directory=str(Path(__file__).parent / "templates"), context_processors=[i18n.context]
)
RDF_OFFERS = {m: f for m, f in GRAPH_TYPES.items() if f in EXTENSIONS}
LJ = PREFIXES["lj"]
KIND_NAMES = {k: k for k in ("role", "object", "place", "action", "commentator")}


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


async def home(request: Request) -> Response:
    try:
        stats = await _stats(request)
    except HttpError as e:
        return error_page(request, e.status, e.message)
    linker = Linker(request, stats["base"])
    examples = [{"name": q.name, "title": q.title} for q in list_queries()]
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
    if fmt == "html" and request.query_params.get("view") != "data":
        shown = await _reader_view(request, iri, stats, headers)
        if shown is not None:
            return shown
    try:
        if fmt == "html":
            page = await ctx.run(
                "page",
                {
                    "iri": iri,
                    "graph_triples": stats["graphs"].get(iri),
                    "lang": i18n.lang_of(request),
                },
                request=request,
            )
        elif iri in stats["graphs"]:  # a named graph's page: its .ttl/.nt/… are its triples
            body = await _graph(request, iri, fmt)
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
        return await _page(request, page, Linker(request, stats["base"]), rest, headers)
    if body is None:
        return Response(f"Nothing is known about <{iri}>.\n", 404, media_type="text/plain")
    headers["Content-Location"] = f"{rest.rsplit('/', 1)[-1]}.{EXTENSIONS[fmt]}"
    return Response(body, media_type=CONTENT_TYPES[fmt], headers=headers)


async def _page(
    request: Request, page: Any, linker: Linker, rest: str, headers: dict[str, str]
) -> Response:
    """The statements page of an IRI, with its apparatus and its plan where it has them."""
    readings = await _readings(request, page.iri, page)
    orders = [v.value for p, vals in page.outgoing if p.value == LJ + "order" for v in vals]
    order = int(orders[0]) if orders and orders[0].isdigit() else None
    plans = await _plans(request, page.iri, {t.value for t in page.types}, order, linker)
    context = {
        "page": page,
        "link": linker,
        "rest": rest,
        "lj": LJ,
        "readings": readings,
        "plans": plans,
    }
    return templates.TemplateResponse(request, "resource.html", context, headers=headers)


async def _readings(request: Request, iri: str, page: Any) -> list[Any]:
    """A passage's or record's witnesses as an apparatus (none for other pages)."""
    kinds = {t.value for t in page.types}
    if not page.text or not kinds & {LJ + "Passage", LJ + "Record"}:
        return []
    text = "".join(s.text for s in page.text)
    try:
        return await request.app.state.kg.run(
            "apparatus", {"iri": iri, "text": text}, request=request
        )
    except HttpError:
        return []  # the page without its apparatus rather than no page


async def _reader_view(
    request: Request, iri: str, stats: dict[str, Any], headers: dict[str, str]
) -> Response | None:
    """A chapter's reading view or a work's contents (``?view=data``: the statements)."""
    who = request.query_params.get("who")
    who_iri = f"{stats['base']}person/{who}" if who else None
    try:
        found = await request.app.state.kg.run(
            "view", {"iri": iri, "who": who_iri}, request=request
        )
    except HttpError as e:
        return error_page(request, e.status, e.message)
    if found is None:
        return None
    kind, data = found
    link = Linker(request, stats["base"])
    work = load_work().title
    if kind == "reading":
        plans = await _plans(request, iri, {LJ + "Chapter"}, None, link)
        context = {"r": data, "link": link, "work_title": work, "plans": plans}
        return templates.TemplateResponse(request, "reading.html", context, headers=headers)
    if kind == "entity":
        context = {"e": data, "link": link, "kind_names": KIND_NAMES}
        return templates.TemplateResponse(request, "entity.html", context, headers=headers)
    context = {"toc": data, "link": link, "iri": iri, "title": work}
    return templates.TemplateResponse(request, "contents.html", context, headers=headers)


PLAYABLE = {LJ + "Section", LJ + "RitualAct", LJ + "Chapter"}


async def _plans(
    request: Request, iri: str, kinds: set[str], order: int | None, linker: Linker
) -> dict[str, Any] | None:
    """The plan player of a section, act or chapter page: the sections to play (their SVG
    addresses and number of steps) and the step to show first (an act's own)."""
    if not PLAYABLE & kinds:
        return None
    try:
        found = await request.app.state.kg.run("plan_sections", {"iri": iri}, request=request)
    except HttpError:
        return None
    if not found:
        return None
    sections = [
        {"src": linker.plan_href(f["iri"]), "label": f["label"], "steps": f["steps"]} for f in found
    ]
    chapter = LJ + "Chapter" in kinds
    is_act = LJ + "RitualAct" in kinds
    first = order if is_act and order is not None else 0 if chapter else sections[0]["steps"]
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


@cache
def _term_labels(mtime: float) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for term, label in ontology_graph().subject_objects(RDFS.label):
        out.setdefault(str(term), {}).setdefault(getattr(label, "language", None) or "", str(label))
    return out


def term_name(iri: str, lang: str = "en") -> str:
    """A term's name for a page: its label in the interface's language, else its local name
    (``xsd:integer`` → integer), never a prefixed IRI standing as a link's text."""
    labels = _term_labels(ontology_file().stat().st_mtime).get(iri, {})
    name = labels.get("en" if lang == "en" else "lzh") or labels.get("en")
    return name or iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1] or iri


templates.env.globals["term_name"] = term_name


def generated_docs(request: Request) -> Path | None:
    """docs/ontology.html written by `kg docs`, beside the store or in the project."""
    store = Path(request.app.state.kg.config.store)
    for folder in (store.parent, store.parent.parent, project_root()):
        candidate = folder / "docs" / "ontology.html"
        if candidate.is_file():
            return candidate
    return None


async def docs_file(request: Request) -> Response:
    """The files `kg docs` writes beside ontology.html (its diagram, shapes, context), at
    the root where that page's relative links point; nothing else."""
    docs = generated_docs(request)
    name = request.path_params["name"]
    wanted = docs.parent / name if docs else None
    if wanted is None or name.startswith(".") or not wanted.is_file() or wanted == docs:
        return error_page(request, 404, f"No page /{name}.")
    return FileResponse(wanted, media_type=CONTENT_TYPES.get(_DOCS_TYPES.get(wanted.suffix, "")))


_DOCS_TYPES = {".ttl": "turtle", ".jsonld": "jsonld"}


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
    if docs is not None:  # self-contained: its <style> is let through by hash
        html = docs.read_text(encoding="utf-8")
        headers["Content-Security-Policy"] = with_inline_styles(html)
        return Response(html, media_type=CONTENT_TYPES["html"], headers=headers)
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
    fmt = rdf_format(request)
    if fmt is None:
        return Response(
            "406: VoID is RDF (Turtle, JSON-LD, N-Triples, RDF/XML)\n", 406, media_type="text/plain"
        )
    try:
        stats = await _stats(request)
    except HttpError as e:
        return Response(e.message + "\n", e.status)
    if fmt == "html":  # a person reads the description as a page, with the RDF as links
        return templates.TemplateResponse(
            request,
            "void.html",
            {
                "turtle": void_description(request, stats, "turtle").decode("utf-8"),
                "formats": [(RDF_FORMATS[f].label, EXTENSIONS[f]) for f in PAGE_FORMATS],
            },
            headers={"Vary": "Accept"},
        )
    return Response(
        void_description(request, stats, fmt),
        media_type=CONTENT_TYPES[fmt],
        headers={"Vary": "Accept"},
    )


def rdf_format(request: Request) -> str | None:
    """``?format=ttl`` (…), else by ``Accept``: "html" where a browser prefers HTML, an RDF
    format for an RDF client (and for ``*/*``), None for neither."""
    wanted = request.query_params.get("format", "").strip().lower()
    if wanted:
        fmt = GRAPH_NAMES.get(wanted)
        return fmt if fmt in EXTENSIONS else None
    mime = negotiate(request.headers.get("accept"), {**RDF_OFFERS, "text/html": "html"})
    return None if mime is None else {**RDF_OFFERS, "text/html": "html"}[mime]


async def _graph(request: Request, iri: str, fmt: str) -> bytes | None:
    ctx = request.app.state.kg
    return await ctx.run(
        "graph", {"iri": iri, "fmt": fmt}, timeout=ctx.config.dump_timeout, request=request
    )


async def graph_store(request: Request) -> Response:
    """GET ?graph=IRI: the triples of one named graph (SPARQL 1.1 Graph Store, read-only)."""
    graphs = request.query_params.getlist("graph")
    if len(graphs) != 1:
        return Response("give one ?graph=IRI\n", 400, media_type="text/plain")
    fmt = rdf_format(request)
    if fmt is None:
        return Response(
            "406: a graph is sent as Turtle, N-Triples, RDF/XML or JSON-LD\n",
            406,
            media_type="text/plain",
        )
    if fmt == "html":  # a person: the graph's page, not megabytes of RDF
        try:
            page = Linker(request, (await _stats(request))["base"]).href(graphs[0])
        except HttpError as e:
            return error_page(request, e.status, e.message)
        if page is None or not page.startswith("/"):  # not ours: no redirect elsewhere
            return error_page(request, 404, f"<{graphs[0]}> is not a graph of this dataset.")
        return RedirectResponse(page, 303, headers={"Vary": "Accept"})
    try:
        body = await _graph(request, graphs[0], fmt)
    except HttpError as e:
        return Response(e.message + "\n", e.status, media_type="text/plain")
    if body is None:
        return Response(f"no graph <{graphs[0]}>\n", 404, media_type="text/plain")
    return Response(body, media_type=CONTENT_TYPES[fmt], headers={"Vary": "Accept"})
