"""Named queries: ``queries/NAME.rq``, a comment header, then SPARQL.

The first comment line is the title. ``# @param NAME = DEFAULT  description`` declares a
parameter: ``kg query NAME --bind NAME=VALUE`` (or the default) is put in the query as
``VALUES ?NAME { VALUE }`` at the start of its WHERE block. ``# @needs WHAT`` says the query
only has rows when the build holds more than the book (``tradition``: works such as 仪礼注疏
read beside it).

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
from kg.text.normalize import normalize

_PARAM = re.compile(r"^#\s*@param\s+(\w+)\s*(?:=\s*(\S+))?\s*(.*)$")
_NEEDS = re.compile(r"^#\s*@needs\s+(\w+)")
_WHERE = re.compile(r"\bWHERE\s*\{", re.I)


@dataclass(frozen=True)
class NamedQuery:
    name: str
    title: str
    text: str
    params: dict[str, str] = field(default_factory=dict)
    path: Path | None = None
    docs: dict[str, str] = field(default_factory=dict)  # what each parameter is
    needs: tuple[str, ...] = ()  # data the query needs beyond the book (tradition)


def parse_query(name: str, text: str, path: Path | None = None) -> NamedQuery:
    title = ""
    params: dict[str, str] = {}
    docs: dict[str, str] = {}
    needs: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            if line.strip():
                break
            continue
        if m := _PARAM.match(line):
            params[m.group(1)] = m.group(2) or ""
            docs[m.group(1)] = m.group(3).strip()
        elif m := _NEEDS.match(line):
            needs.append(m.group(1))
        elif not title and line.strip("# ").strip():
            title = line.strip("# ").strip()
    return NamedQuery(name, title, text, params, path, docs, tuple(needs))


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


def with_defaults(text: str) -> str:
    """A ``queries/`` file sent as it is (to the endpoint, or pasted in the editor): its
    declared parameters get their defaults, folded as ``kg query`` folds them, unless the
    query already binds them with VALUES — so it answers instead of scanning the store for
    every binding of an unbound variable.

    >>> with_defaults("# T\\n# @param t = 請射\\nSELECT * WHERE { ?s ?p ?t }").splitlines()[-1]
    'SELECT * WHERE { VALUES ?t { "请射" } ?s ?p ?t }'
    """
    q = parse_query("", text)
    values = {
        k: normalize(v)
        for k, v in q.params.items()
        if v and not re.search(rf"\bVALUES\s*\??\(?[^{{]*\?{k}\b", text, re.I)
    }
    try:
        return with_values(text, values)
    except QueryError:
        return text  # no WHERE block: leave it to the parser to say what is wrong
