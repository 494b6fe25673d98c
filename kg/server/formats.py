"""Content negotiation: media types ↔ format names, and picking one from ``Accept``.

Lookup tables, not chains of ifs. Format names are kg.store's (json, xml, csv, tsv for
SPARQL results; turtle, ntriples, nquads, trig, rdfxml, jsonld for RDF).

>>> negotiate("text/csv;q=0.5, application/sparql-results+xml", RESULT_TYPES)
'application/sparql-results+xml'
>>> negotiate("image/png", RESULT_TYPES) is None
True
>>> negotiate(None, GRAPH_TYPES)
'text/turtle'
"""

from __future__ import annotations

# offered media type → format; the first entry is the default for a client that accepts any
RESULT_TYPES: dict[str, str] = {
    "application/sparql-results+json": "json",
    "application/sparql-results+xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
    "application/json": "json",
    "application/xml": "xml",
    "text/xml": "xml",
}
GRAPH_TYPES: dict[str, str] = {
    "text/turtle": "turtle",
    "application/n-triples": "ntriples",
    "application/rdf+xml": "rdfxml",
    "application/ld+json": "jsonld",
    "application/n-quads": "nquads",
    "application/trig": "trig",
    "application/x-turtle": "turtle",
    "text/plain": "ntriples",
    "application/json": "jsonld",
    "application/xml": "rdfxml",
    "text/xml": "rdfxml",
}
# format → the Content-Type we answer with
CONTENT_TYPES: dict[str, str] = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv; charset=utf-8",
    "tsv": "text/tab-separated-values; charset=utf-8",
    "turtle": "text/turtle; charset=utf-8",
    "ntriples": "application/n-triples",
    "nquads": "application/n-quads",
    "trig": "application/trig",
    "rdfxml": "application/rdf+xml",
    "jsonld": "application/ld+json",
    "html": "text/html; charset=utf-8",
}
# the ``format`` request parameter: short names for each kind of result
RESULT_NAMES = {
    "json": "json",
    "srj": "json",
    "xml": "xml",
    "srx": "xml",
    "csv": "csv",
    "tsv": "tsv",
}
GRAPH_NAMES = {
    "turtle": "turtle",
    "ttl": "turtle",
    "ntriples": "ntriples",
    "nt": "ntriples",
    "nquads": "nquads",
    "nq": "nquads",
    "trig": "trig",
    "rdfxml": "rdfxml",
    "xml": "rdfxml",
    "rdf": "rdfxml",
    "jsonld": "jsonld",
    "json-ld": "jsonld",
    "json": "jsonld",
}
# linked-data pages: HTML first, then RDF; file suffixes that ask for a format
PAGE_TYPES: dict[str, str] = {"text/html": "html", "application/xhtml+xml": "html", **GRAPH_TYPES}
SUFFIXES = {".ttl": "turtle", ".jsonld": "jsonld", ".nt": "ntriples", ".rdf": "rdfxml"}
EXTENSIONS = {"turtle": "ttl", "jsonld": "jsonld", "ntriples": "nt", "rdfxml": "rdf"}


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
