"""Readers of the commentary tradition: works other than the book, each read as its own work.

``work_of(text)`` says which work a Kanripo file transcribes (``tradition.toml``, by its
``#+PROPERTY: ID``): None for the book itself (its readers are ``kg.readers``) or a text with
no Kanripo id; a ``WorkInfo`` otherwise, minted (``known=False``, layout ``generic``) for an id
the registry does not list. ``read_work(path)`` reads the file with its layout's reader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kg.errors import InputError
from kg.readers.base import decode
from kg.readers.tradition import generic, jishuo
from kg.readers.tradition.registry import work_of
from kg.readers.tradition.zhushu import read_zhushu
from kg.text.tradition import WorkDocument, WorkInfo

__all__ = ["READERS", "read_work", "work_of"]

Reader = Callable[[Path, str, WorkInfo], WorkDocument]
READERS: dict[str, Reader] = {
    "zhushu": read_zhushu,
    "jishuo": jishuo.read,
    "generic": generic.read,
}


def read_work(path: Path, text: str | None = None) -> WorkDocument:
    """Read one file of a tradition work, or raise InputError naming the file (and line)."""
    if text is None:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise InputError(path, None, f"cannot read: {e.strerror}") from None
        text = decode(path, data)
    info = work_of(text)
    if info is None:
        raise InputError(path, None, "not a tradition work: no Kanripo id, or the book itself")
    reader = READERS.get(info.layout, generic.read)
    return reader(path, text, info)
