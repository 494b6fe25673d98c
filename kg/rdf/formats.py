"""The formats we read and write, registered by name — the way rdflib registers its plugins.

Each entry says everything any part needs: the store (Oxigraph's format), the server (media
types to offer and accept, the ``format`` parameter's short names, the file suffix that asks
for it), dumps and exports (suffix, label), VoID and pages (rdflib's name). Results formats
(SELECT / ASK) are registered beside the RDF_FORMATS ones.

>>> RDF_FORMATS["turtle"].media_type, RDF_FORMATS["turtle"].suffix, RDF_FORMATS["turtle"].rdflib
('text/turtle', 'ttl', 'turtle')
>>> sorted(f.name for f in RDF_FORMATS.values() if f.datasets)
['jsonld', 'nquads', 'trig']
>>> RESULT_FORMATS["json"].oxigraph
'JSON'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    """name (str): ours (``kg query -f``, ``?format=``). label (str): for people.
    media_types (tuple): the first is what we answer with; the others are accepted.
    content_type (str): the Content-Type we send. suffix (str): file suffix, no dot.
    aliases (tuple): other short names for ``?format=``. oxigraph (str): the member of
    ``pyoxigraph.RdfFormat`` / ``QueryResultsFormat``. rdflib (str): rdflib's plugin name
    ("" for results formats). datasets (bool): holds named graphs."""

    name: str
    label: str
    media_types: tuple[str, ...]
    content_type: str
    suffix: str
    aliases: tuple[str, ...]
    oxigraph: str
    rdflib: str = ""
    datasets: bool = False

    @property
    def media_type(self) -> str:
        return self.media_types[0]


RDF_FORMATS: dict[str, Format] = {}
RESULT_FORMATS: dict[str, Format] = {}


def register(table: dict[str, Format], fmt: Format) -> Format:
    if fmt.name in table:
        raise ValueError(f"format {fmt.name!r} is registered twice")
    table[fmt.name] = fmt
    return fmt


# the order is the server's preference when a client accepts several equally
for _fmt in (
    Format("turtle", "Turtle", ("text/turtle", "application/x-turtle"),
           "text/turtle; charset=utf-8", "ttl", ("ttl",), "TURTLE", "turtle"),
    Format("ntriples", "N-Triples", ("application/n-triples", "text/plain"),
           "application/n-triples", "nt", ("nt",), "N_TRIPLES", "nt"),
    Format("rdfxml", "RDF/XML", ("application/rdf+xml", "application/xml", "text/xml"),
           "application/rdf+xml", "rdf", ("xml", "rdf"), "RDF_XML", "xml"),
    Format("jsonld", "JSON-LD", ("application/ld+json", "application/json"),
           "application/ld+json", "jsonld", ("json-ld", "json"), "JSON_LD", "json-ld", True),
    Format("nquads", "N-Quads", ("application/n-quads",),
           "application/n-quads", "nq", ("nq",), "N_QUADS", "nquads", True),
    Format("trig", "TriG", ("application/trig",),
           "application/trig", "trig", (), "TRIG", "trig", True),
):  # fmt: skip
    register(RDF_FORMATS, _fmt)

for _fmt in (
    Format("json", "SPARQL JSON", ("application/sparql-results+json", "application/json"),
           "application/sparql-results+json", "srj", ("srj",), "JSON"),
    Format("xml", "SPARQL XML", ("application/sparql-results+xml", "application/xml",
                                 "text/xml"),
           "application/sparql-results+xml", "srx", ("srx",), "XML"),
    Format("csv", "CSV", ("text/csv",), "text/csv; charset=utf-8", "csv", (), "CSV"),
    Format("tsv", "TSV", ("text/tab-separated-values",),
           "text/tab-separated-values; charset=utf-8", "tsv", (), "TSV"),
):  # fmt: skip
    register(RESULT_FORMATS, _fmt)


def media_types(table: dict[str, Format]) -> dict[str, str]:
    """media type → format name: every format's own type first, then the ones it accepts."""
    out = {f.media_type: f.name for f in table.values()}
    for f in table.values():
        for m in f.media_types[1:]:
            out.setdefault(m, f.name)
    return out


def short_names(table: dict[str, Format]) -> dict[str, str]:
    """``?format=`` value → format name (its name and aliases)."""
    return {n: f.name for f in table.values() for n in (f.name, *f.aliases)}
