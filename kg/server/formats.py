"""Content negotiation: media types ↔ format names, and picking one from ``Accept``.

Lookup tables derived from the format registry (kg.rdf.formats), not chains of ifs.

>>> negotiate("text/csv;q=0.5, application/sparql-results+xml", RESULT_TYPES)
'application/sparql-results+xml'
>>> negotiate("image/png", RESULT_TYPES) is None
True
>>> negotiate(None, GRAPH_TYPES)
'text/turtle'
"""

from __future__ import annotations

from kg.rdf.formats import RDF_FORMATS, RESULT_FORMATS, media_types, short_names

# offered media type → format; the first entry is the default for a client that accepts any
RESULT_TYPES: dict[str, str] = media_types(RESULT_FORMATS)
GRAPH_TYPES: dict[str, str] = media_types(RDF_FORMATS)
# format → the Content-Type we answer with
CONTENT_TYPES: dict[str, str] = {
    **{f.name: f.content_type for f in RESULT_FORMATS.values()},
    **{f.name: f.content_type for f in RDF_FORMATS.values()},
    "html": "text/html; charset=utf-8",
}
# the ``format`` request parameter: short names for each kind of result
RESULT_NAMES = short_names(RESULT_FORMATS)
GRAPH_NAMES = short_names(RDF_FORMATS)
# linked-data pages: HTML first, then RDF; a resource is triples, so the suffixes that ask for
# a format are those of the triple formats and JSON-LD
PAGE_TYPES: dict[str, str] = {"text/html": "html", "application/xhtml+xml": "html", **GRAPH_TYPES}
PAGE_FORMATS = ("turtle", "jsonld", "ntriples", "rdfxml")
SUFFIXES = {f".{RDF_FORMATS[n].suffix}": n for n in PAGE_FORMATS}
EXTENSIONS = {n: RDF_FORMATS[n].suffix for n in PAGE_FORMATS}
# full dumps for download: file name → (format, compressed); Turtle holds the union as triples
DUMP_NAME = "lijing"
DUMP_FORMATS = ("nquads", "trig", "turtle", "jsonld")
DUMPS: dict[str, tuple[str, bool]] = {
    f"{DUMP_NAME}.{RDF_FORMATS[n].suffix}{gz}": (n, bool(gz))
    for n in DUMP_FORMATS
    for gz in ("", ".gz")
}


def _ranges(accept: str) -> list[tuple[str, str, float]]:
    out = []
    for part in accept.split(","):
        fields = [f.strip() for f in part.split(";")]
        mime = fields[0].lower()
        if "/" not in mime:
            continue
        q = 1.0
        for f in fields[1:]:
            key, _, value = f.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        main, _, sub = mime.partition("/")
        out.append((main, sub, q))
    return out


def _quality(mime: str, ranges: list[tuple[str, str, float]]) -> float:
    """q of the most specific range that matches ``mime`` (0 when none does)."""
    main, _, sub = mime.partition("/")
    best, specificity = 0.0, -1
    for rmain, rsub, q in ranges:
        if rmain == main and rsub == sub:
            s = 2
        elif rmain == main and rsub == "*":
            s = 1
        elif rmain == "*" and rsub == "*":
            s = 0
        else:
            continue
        if s > specificity:
            best, specificity = q, s
    return best


def negotiate(accept: str | None, offers: dict[str, str]) -> str | None:
    """The offered media type the client prefers most (ties: our order); None if none."""
    if not accept or not accept.strip():
        return next(iter(offers))
    ranges = _ranges(accept)
    if not ranges:
        return next(iter(offers))
    best, best_q = None, 0.0
    for mime in offers:
        q = _quality(mime, ranges)
        if q > best_q:
            best, best_q = mime, q
    return best
