"""Reading the pattern files: a TOML table into a frozen dataclass, every key checked at load
(a missing, unknown or mistyped key is a :class:`PatternError` naming the file), and a regex
alternation of words.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Limits:
...     words: tuple[str, ...]
...     max: int
>>> from_table(Limits, {"words": ["按", "愚按"], "max": 4}, "x.toml", "limits")
Limits(words=('按', '愚按'), max=4)
>>> from_table(Limits, {"words": ["按"], "max": "4"}, "x.toml", "limits")
Traceback (most recent call last):
...
kg.nlp.wordlists.PatternError: x.toml: [limits] max: expected int, got str
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, fields, is_dataclass
from pathlib import Path
from typing import Any, TypeVar, get_args, get_origin, get_type_hints

from kg.errors import KgError

T = TypeVar("T")


class PatternError(KgError, ValueError):
    """A pattern file that cannot be read into its rules: the message names the file."""


def alternation(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, the longest first (so 愚按 wins over 按).

    >>> alternation(["按", "愚按", "谨按"])
    '愚按|谨按|按'
    """
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise PatternError(f"{path}: {e}") from None


def from_table(cls: type[T], table: object, path: str | Path, section: str) -> T:
    """``table`` (the TOML table ``[section]`` of ``path``) as a ``cls``: lists become tuples,
    nested tables nested dataclasses; keys without a default must be there."""
    if not isinstance(table, Mapping):
        raise PatternError(f"{path}: {_at(section)}is not a table")
    hints = get_type_hints(cls)
    keys = fields(cls)  # type: ignore[arg-type]
    unknown = sorted(set(table) - {f.name for f in keys})
    if unknown:
        raise PatternError(f"{path}: {_at(section)}has unknown key {unknown[0]!r}")
    values = {}
    for f in keys:
        if f.name in table:
            values[f.name] = _value(table[f.name], hints[f.name], path, section, f.name)
        elif f.default is MISSING and f.default_factory is MISSING:
            raise PatternError(f"{path}: {_at(section)}lacks {f.name!r}")
    return cls(**values)


def _value(value: object, hint: Any, path: str | Path, section: str, key: str) -> Any:
    origin, args = get_origin(hint), get_args(hint)
    if is_dataclass(hint):
        inner = f"{section}.{key}" if section else key
        return from_table(hint, value, path, inner)  # type: ignore[arg-type]
    if origin is tuple and isinstance(value, list):
        each = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
        if len(each) == len(value):
            return tuple(_value(v, a, path, section, key) for v, a in zip(value, each, strict=True))
    elif origin is dict and isinstance(value, dict):
        return {
            _value(k, args[0], path, section, key): _value(v, args[1], path, section, key)
            for k, v in value.items()
        }
    elif (
        origin is None and isinstance(value, hint) and not (hint is int and isinstance(value, bool))
    ):
        return value
    wanted = hint.__name__ if origin is None else str(hint)
    got = type(value).__name__
    raise PatternError(f"{path}: {_at(section)}{key}: expected {wanted}, got {got}")


def _at(section: str) -> str:
    return f"[{section}] " if section else ""


class PatternFile:
    """A pattern file's tables read one key at a time, each checked: for a file whose rules
    are built from its words rather than taken as they are (acts.toml → ``Grammar``).

    >>> f = PatternFile(Path(__file__).parent / "patterns" / "acts.toml")
    >>> f.words("condition", "opens")
    ('若',)
    >>> f.value("repeat", "max_target_chars", str)
    Traceback (most recent call last):
    ...
    kg.nlp.wordlists.PatternError: ...acts.toml: [repeat] max_target_chars: expected str, got int
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = read_toml(path)

    def value(self, section: str, key: str, kind: type[T]) -> T:
        table = self.data.get(section)
        if not isinstance(table, Mapping) or key not in table:
            raise PatternError(f"{self.path}: [{section}] lacks {key!r}")
        return _value(table[key], kind, self.path, section, key)

    def words(self, section: str, key: str) -> tuple[str, ...]:
        return self.value(section, key, tuple[str, ...])  # type: ignore[arg-type]

    def table(self, section: str) -> dict[str, tuple[str, ...]]:
        """A table of word lists (``[prepositions]``: relation → words)."""
        return {key: self.words(section, key) for key in self.data.get(section, {})}
