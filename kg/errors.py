"""Errors a user can act on: each names the file and line it is about.

>>> str(InputError("seeds/x.txt", 3, "unbalanced 【"))
'seeds/x.txt:3: unbalanced 【'
"""

from __future__ import annotations

from pathlib import Path


class KgError(Exception):
    """Base class: the message is one line and is shown to the user as is."""


class InputError(KgError):
    """Bad input text: carries the file and the 1-based line."""

    def __init__(self, path: str | Path, line: int | None, what: str) -> None:
        self.path = str(path)
        self.line = line
        self.what = what
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {what}")


class StoreError(KgError):
    """The store is missing, locked or unreadable."""


class QueryError(KgError):
    """A query the client got wrong (a bad IRI, format or binding): HTTP 400."""

    http_status = 400


class QuerySyntaxError(QueryError):
    """SPARQL that does not parse."""


class QueryFailed(QueryError):
    """A query that parsed but failed while running (a read error, a limit): ours, HTTP 500."""

    http_status = 500
