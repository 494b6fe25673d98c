"""What a query text asks for, read before it runs: SERVICE (refused), FROM, an update form.

Oxigraph follows ``SERVICE`` to any host, and so does pyoxigraph: asked for
``SERVICE <http://127.0.0.1:PORT/>`` it POSTs the inner pattern to that port. The endpoint
therefore refuses SERVICE before execution. Any query whose text (after SPARQL's ``\\u``
escapes, which apply before parsing) contains the word at all is parsed with rdflib's SPARQL
parser and refused if its parse tree holds a ``ServiceGraphPattern``; a query rdflib cannot
parse (Oxigraph-only syntax) is refused if the keyword stands outside strings, IRIs and
comments. The worker processes also run without network where the OS allows (see worker.py).

>>> inspect_query('SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }').service
True
>>> inspect_query('SELECT * { ?s ?p "customer service" }').service
False
>>> inspect_query(r'SELECT * { \\u0053ERVICE <http://x/> { ?s ?p ?o } }').service
True
>>> inspect_query('SELECT ?s FROM <http://g> { ?s ?p ?o }').dataset
True
>>> inspect_query('SELECT ?from { ?from ex:from "FROM" } # FROM').dataset
False
>>> inspect_query('PREFIX ex: <http://ex/> INSERT DATA { ex:a ex:b ex:c }').update
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UPDATE_REFUSED = "SPARQL Update is not accepted: this endpoint is read-only"
SERVICE_REFUSED = "SERVICE is not allowed: this endpoint makes no requests to other hosts"

_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
# strings, IRIs and comments: the parts of a query where a keyword is not a keyword
_OPAQUE = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r"|<[^<>\"{}|^`\\\x00-\x20]*>"
    r"|#[^\n\r]*",
    re.S,
)
_FROM = re.compile(r"(?<![\w?$:.\-])FROM(?![\w:\-])", re.I)
_SERVICE_TOKEN = re.compile(r"(?<![\w?$])SERVICE(?!\w)", re.I)
_PROLOGUE = re.compile(r"\s*(?:(?:PREFIX\s+[^\s:]*:|BASE)\s*)*", re.I)
_UPDATE_WORDS = {
    *("insert", "delete", "load", "clear", "create", "drop", "copy", "move", "add", "with")
}


@dataclass(frozen=True)
class Inspection:
    service: bool  # holds a SERVICE pattern: refuse
    dataset: bool  # names its own dataset (FROM / FROM NAMED)
    update: bool  # an update operation, not a query: refuse


def unescape(text: str) -> str:
    """Apply SPARQL's codepoint escapes (done before parsing, per the grammar)."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text)


def _keywords(text: str) -> str:
    return _OPAQUE.sub(" ", text)


def inspect_query(sparql: str) -> Inspection:
    text = unescape(sparql)
    bare = _keywords(text)
    first = bare[_PROLOGUE.match(bare).end() :].split(None, 1)  # type: ignore[union-attr]
    update = bool(first) and first[0].lower() in _UPDATE_WORDS
    service = "service" in text.lower() and _has_service(text, bare)
    return Inspection(service=service, dataset=bool(_FROM.search(bare)), update=update)


def _has_service(text: str, bare: str) -> bool:
    from rdflib.plugins.sparql.parser import parseQuery

    try:
        tree = parseQuery(text)
    except Exception:  # any failure to parse: not rdflib's SPARQL
        return bool(_SERVICE_TOKEN.search(bare))  # be conservative
    return _walk_for(tree, "ServiceGraphPattern")


def _walk_for(node: object, name: str) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if getattr(n, "name", None) == name:
            return True
        if isinstance(n, dict):
            stack.extend(n.values())
        elif isinstance(n, list | tuple) or type(n).__name__ == "ParseResults":
            stack.extend(n)  # type: ignore[arg-type]
    return False
