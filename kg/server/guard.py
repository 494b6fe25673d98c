"""What a query text asks for, read before it runs: SERVICE (refused), FROM, an update form.

Oxigraph follows ``SERVICE`` to any host, and so does pyoxigraph: asked for
``SERVICE <http://127.0.0.1:PORT/>`` it POSTs the inner pattern to that port, and its
``Store.query`` has no option to turn SERVICE off. So the endpoint decides before execution,
on the query as Oxigraph reads it (lexer.py: its comments, strings, IRIs and escapes, every
reading where two are possible), and refuses rather than runs where readers could disagree:

- any word of code (a keyword, a bare name, the prefix of a prefixed name) that contains
  ``service`` in any letter case is SERVICE: Oxigraph needs no word boundary after its
  keywords (``service:x {…}`` and ``trueSERVICE<…>`` both run SERVICE);
- the query is read twice, as written (pyoxigraph 0.5 reads ``\\u`` escapes only inside
  strings and IRIs) and with every ``\\u``/``\\U`` escape applied once beforehand (as the
  SPARQL grammar says, and as spargebra does with its ``standard-unicode-escaping``);
- a query whose own reading cannot be lexed (a string not closed) is refused as unreadable.

Variables (``?service``), local names (``schema:Service``), strings and IRIs may hold the word.
The worker processes also run without network where the OS allows (see worker.py).

>>> inspect_query('SELECT * { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }').service
True
>>> inspect_query('SELECT * { ?s ?p "customer service" }').service
False
>>> inspect_query(r'SELECT * { \\u0053ERVICE <http://x/> { ?s ?p ?o } }').service
True
>>> inspect_query('SELECT * { # x\\r SERVICE <http://x/> { } }').service
True
>>> inspect_query('SELECT ?s FROM <http://g> { ?s ?p ?o }').dataset
True
>>> inspect_query('SELECT ?from { ?from ex:from "FROM" } # FROM').dataset
False
>>> inspect_query('PREFIX ex: <http://ex/> INSERT DATA { ex:a ex:b ex:c }').update
True
"""

from __future__ import annotations

import contextlib
import functools
import re
from dataclasses import dataclass

from kg.server.lexer import Token, Unreadable, readings, tokens

UPDATE_REFUSED = "SPARQL Update is not accepted: this endpoint is read-only"
SERVICE_REFUSED = "SERVICE is not allowed: this endpoint makes no requests to other hosts"

_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_UPDATE_WORDS = {
    *("insert", "delete", "load", "clear", "create", "drop", "copy", "move", "add", "with")
}


@dataclass(frozen=True)
class Inspection:
    service: bool  # holds a SERVICE pattern in some reading: refuse
    dataset: bool  # names its own dataset (FROM / FROM NAMED)
    update: bool  # an update operation, not a query: refuse
    unreadable: str | None = None  # why the query cannot be lexed: refuse


def unescape(text: str) -> str:
    """Apply SPARQL's codepoint escapes once, as the grammar does before parsing."""

    def char(m: re.Match[str]) -> str:
        code = int(m.group(1) or m.group(2), 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group()

    return _ESCAPE.sub(char, text)


def is_service(token: Token) -> bool:
    return token.kind in ("word", "prefix") and token.live and "service" in token.text.casefold()


# a client (a page, a dashboard) sends the same texts again and again, and lexing them twice
# in Python costs more than Oxigraph takes to answer a light query: remember the last few
_CACHED_TEXT = 16 << 10  # longer texts are read every time (the cache stays small)


def inspect_query(sparql: str) -> Inspection:
    if len(sparql) <= _CACHED_TEXT:
        return _remembered(sparql)
    return _inspect(sparql)


@functools.lru_cache(maxsize=256)
def _remembered(sparql: str) -> Inspection:
    return _inspect(sparql)


def _inspect(sparql: str) -> Inspection:
    try:
        words = [t for t in tokens(sparql) if t.kind in ("word", "prefix", "iri")]
        service = any(is_service(t) for t in readings(sparql))
    except Unreadable as e:
        return Inspection(service=False, dataset=False, update=False, unreadable=str(e))
    escaped = unescape(sparql)
    if escaped != sparql and not service:
        # where this reading cannot be lexed a spec reader fails too; pyoxigraph's was checked
        with contextlib.suppress(Unreadable):
            service = any(is_service(t) for t in readings(escaped))
    return Inspection(service=service, dataset=_dataset(words), update=_update(words))


def _dataset(words: list[Token]) -> bool:
    return any(t.kind == "word" and t.text.casefold() == "from" for t in words)


def _update(words: list[Token]) -> bool:
    """The first keyword after the prologue (PREFIX p: <iri>, BASE <iri>) is an update verb."""
    i = 0
    while i < len(words):
        word = words[i].text.casefold()
        if word == "prefix":
            i += 2 + (i + 1 < len(words) and words[i + 1].kind == "prefix")
        elif word == "base":
            i += 2
        else:
            return words[i].kind == "word" and word in _UPDATE_WORDS
    return False
