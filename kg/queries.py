"""Named queries: ``queries/NAME.rq``, a comment header, then SPARQL.

The first comment line is the title. ``# @param NAME = DEFAULT  description`` declares a
parameter: ``kg query NAME --bind NAME=VALUE`` (or the default) is put in the query as
``VALUES ?NAME { VALUE }`` at the start of its WHERE block.

>>> q = parse_query("x", "# Title\\n# @param t = 请射  a title\\nSELECT * WHERE { ?s ?p ?t }")
>>> q.title, q.params
('Title', {'t': '请射'})
>>> with_values(q.text, {"t": "请射"}).splitlines()[-1]
'SELECT * WHERE { VALUES ?t { "请射" } ?s ?p ?t }'
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import QueryError
from kg.resources import queries_dir

_PARAM = re.compile(r"^#\s*@param\s+(\w+)\s*(?:=\s*(\S+))?\s*(.*)$")
_WHERE = re.compile(r"\bWHERE\s*\{", re.I)


@dataclass(frozen=True)
class NamedQuery:
    name: str
    title: str
    text: str
    params: dict[str, str] = field(default_factory=dict)
    path: Path | None = None


def parse_query(name: str, text: str, path: Path | None = None) -> NamedQuery:
    title = ""
    params: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            if line.strip():
                break
            continue
        if m := _PARAM.match(line):
            params[m.group(1)] = m.group(2) or ""
        elif not title and line.strip("# ").strip():
            title = line.strip("# ").strip()
    return NamedQuery(name, title, text, params, path)


def list_queries() -> list[NamedQuery]:
    return [
        parse_query(p.stem, p.read_text(encoding="utf-8"), p)
        for p in sorted(queries_dir().glob("*.rq"))
    ]


def resolve_query(ref: str) -> NamedQuery:
    """A path to a .rq file, or the name of one in queries/."""
    path = Path(ref)
    if path.suffix == ".rq" or path.is_file():
        if not path.is_file():
            raise QueryError(f"{ref}: no such query file")
        return parse_query(path.stem, path.read_text(encoding="utf-8"), path)
    named = queries_dir() / f"{ref}.rq"
    if not named.is_file():
        names = [q.name for q in list_queries()]
        close = difflib.get_close_matches(ref, names, n=3, cutoff=0.5)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise QueryError(
            f"no query named {ref!r} ({hint}kg query --list shows them all: {', '.join(names)})"
        )
    return parse_query(ref, named.read_text(encoding="utf-8"), named)


def sparql_literal(value: str) -> str:
    if re.fullmatch(r"https?://\S+|urn:\S+", value):
        return f"<{value}>"
    escaped = (
        value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    return f'"{escaped}"'


def with_values(text: str, values: dict[str, str]) -> str:
    """Put ``VALUES ?name { value }`` for each binding at the start of the WHERE block."""
    if not values:
        return text
    m = next(
        (
            w
            for w in _WHERE.finditer(text)
            if not text[text.rfind("\n", 0, w.start()) + 1 : w.start()].lstrip().startswith("#")
        ),
        None,
    )
    if m is None:
        raise QueryError("--bind needs a query with a WHERE { … } block")
    block = " ".join(f"VALUES ?{k} {{ {sparql_literal(v)} }}" for k, v in values.items())
    return f"{text[: m.end()]} {block}{text[m.end() :]}"
