"""The words of a SPARQL query as Oxigraph reads them: what is code, and what is a string, an
IRI or a comment (where a keyword is not a keyword).

The lexer follows the SPARQL 1.1 grammar's terminals, checked against pyoxigraph 0.5:

- a comment runs from ``#`` to the first ``\\r`` or ``\\n`` (nothing else ends one);
- strings in the four quote forms, with ECHAR and ``\\u``/``\\U`` escapes inside them; a short
  string holds no line end; an escape is read once (``"\\u005Cu0022"`` is ``\\u0022``);
- ``<…>`` is an IRI when its characters may stand in an IRIREF; prefixed names carry their
  ``%XX`` and ``\\#``-style escapes, so a ``#`` or ``'`` there starts nothing.

Where a reader could take a character two ways, both are followed: ``<`` is an IRI's start
or the less-than operator (``FILTER(?a<?b)SERVICE#>`` is a comparison, then SERVICE, then a
comment, to Oxigraph). The readings form a set of (position, state) pairs, each visited once,
so the cost stays linear. A query whose main reading cannot be lexed is unreadable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_U = _BASE + "_"
_CHARS = _U + r"\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_ESC = rf"\\[tbnrf\\\"']|{_UCHAR}"
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"

_SPACE = re.compile(r"[ \t\r\n]*")
_COMMENT = re.compile(r"#[^\r\n]*")
_STRINGS = {
    "'''": re.compile(rf"'''(?:(?:'|'')?(?:[^'\\]|{_ESC}))*'''"),
    '"""': re.compile(rf'"""(?:(?:"|"")?(?:[^"\\]|{_ESC}))*"""'),
    "'": re.compile(rf"'(?:[^'\\\n\r]|{_ESC})*'"),
    '"': re.compile(rf'"(?:[^"\\\n\r]|{_ESC})*"'),
}
_IRI = re.compile(rf"<(?:[^<>\"{{}}|^`\\\x00-\x20]|{_UCHAR})*>")
_VAR = re.compile(rf"[?$][{_U}0-9][{_U}0-9\u00b7\u0300-\u036f\u203f-\u2040]*")
_WORD = re.compile(rf"[{_CHARS}.]+")
_LOCAL = re.compile(rf"(?:[{_U}:0-9]|{_PLX})(?:(?:[{_CHARS}.:]|{_PLX})*(?:[{_CHARS}:]|{_PLX}))?")
# in an IRI read as "less than", these could move the reader out of the expression or into
# a string or comment: only then does the second reading matter
_FORK_IF = re.compile(r"[#')]")


@dataclass(frozen=True)
class Token:
    kind: str  # word (a keyword or bare name), prefix (before ':'), var, iri, string, punct
    text: str
    start: int
    live: bool  # False inside an expression opened by '<' read as an operator, before ')'


class Unreadable(Exception):
    """The query's own reading cannot be lexed (an unfinished string): refuse it."""


def _next(text: str, pos: int, live: bool) -> tuple[Token, int] | None:
    """The token at ``pos`` (after white space) and where the next one starts; None at the
    end. Raise Unreadable for a quote that opens no valid string."""
    while True:
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= len(text):
            return None
        if text[pos] != "#":
            break
        pos = _COMMENT.match(text, pos).end()  # type: ignore[union-attr]
    c = text[pos]
    if c in "'\"":
        quote = text[pos : pos + 3] if text.startswith(c * 3, pos) else c
        m = _STRINGS[quote].match(text, pos)
        if m is None:
            raise Unreadable(f"a string opened at character {pos + 1} is not closed")
        return Token("string", m.group(), pos, live), m.end()
    for kind, rx in (("iri", _IRI), ("var", _VAR), ("word", _WORD)):
        m = rx.match(text, pos)
        if m:
            end = m.end()
            if kind == "word" and text.startswith(":", end):  # a prefixed name: skip its local
                kind = "prefix"
                local = _LOCAL.match(text, end + 1)
                end = local.end() if local else end + 1
            return Token(kind, m.group(), pos, live), end
    return Token("punct", c, pos, live or c == ")"), pos + 1


def tokens(text: str) -> Iterator[Token]:
    """The one reading where every ``<`` that can start an IRI does (Unreadable if it fails)."""
    pos: int | None = 0
    while pos is not None:
        step = _next(text, pos, True)
        if step is None:
            return
        token, pos = step
        yield token


def readings(text: str) -> Iterator[Token]:
    """Every token of every reading (each position and state once), the main reading first."""
    seen: set[tuple[int, bool]] = set()
    todo: list[tuple[int, bool, bool]] = [(0, True, True)]  # (position, live, main reading)
    while todo:
        pos, live, main = todo.pop()
        while (pos, live) not in seen and (pos, True) not in seen:
            seen.add((pos, live))
            try:
                step = _next(text, pos, live)
            except Unreadable:
                if main:
                    raise
                break  # a reading no parser can take: Oxigraph would fail on it too
            if step is None:
                break
            token, pos = step
            live = token.live
            if token.kind == "iri" and _FORK_IF.search(token.text):
                todo.append((token.start + 1, False, False))  # '<' as an operator
            yield token
