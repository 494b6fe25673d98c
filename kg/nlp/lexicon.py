"""The extractor's lexicon, read from the SKOS vocabularies: normalized form → concepts.

>>> lex = load_lexicon()
>>> [(e.type, e.slug) for e in lex.entries["司射"]]
[('role', 'sishe')]
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.text.normalize import normalize
from kg.text.vocab import load_concepts

PATTERNS = Path(__file__).parent / "patterns"


@dataclass(frozen=True)
class TypeSpec:
    name: str
    file: str
    cls: str
    mention: bool
    priority: int


@dataclass(frozen=True)
class Entry:
    form: str  # normalized
    type: str
    slug: str
    iri: str
    ambiguous: bool


@dataclass(frozen=True)
class ContextRule:
    """Keep or drop a form of a type by the characters around it (data: context.jsonl)."""

    form: str
    type: str
    keep_only: bool  # True: keep only in these contexts; False: drop in these contexts
    before: tuple[str, ...]
    after: tuple[str, ...]
    units: tuple[str, ...]  # classic | commentary; empty = everywhere
    unless_before: tuple[str, ...] = ()  # exceptions: the rule does not fire here
    unless_after: tuple[str, ...] = ()

    def fires(self, text: str, start: int, end: int) -> bool:
        if any(text.endswith(b, 0, start) for b in self.unless_before) or any(
            text.startswith(a, end) for a in self.unless_after
        ):
            return False
        return any(text.endswith(b, 0, start) for b in self.before) or any(
            text.startswith(a, end) for a in self.after
        )


@dataclass(frozen=True)
class Lexicon:
    types: dict[str, TypeSpec]
    entries: dict[str, tuple[Entry, ...]]
    rules: dict[tuple[str, str], tuple[ContextRule, ...]]


def load_types(path: Path | None = None) -> dict[str, TypeSpec]:
    data = tomllib.loads((path or PATTERNS / "types.toml").read_text(encoding="utf-8"))
    return {
        name: TypeSpec(name, v["file"], v["class"], bool(v["mention"]), int(v["priority"]))
        for name, v in data.items()
    }


def load_rules(path: Path | None = None) -> dict[tuple[str, str], tuple[ContextRule, ...]]:

    rules: dict[tuple[str, str], list[ContextRule]] = {}
    path = path or PATTERNS / "context.jsonl"
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            r = json.loads(line)
            rule = ContextRule(
                form=normalize(r["form"]),
                type=r["type"],
                keep_only=bool(r.get("keep_only", False)),
                before=tuple(normalize(x) for x in r.get("before", [])),
                after=tuple(normalize(x) for x in r.get("after", [])),
                units=tuple(r.get("units", [])),
                unless_before=tuple(normalize(x) for x in r.get("unless_before", [])),
                unless_after=tuple(normalize(x) for x in r.get("unless_after", [])),
            )
        except (ValueError, KeyError) as e:
            raise ValueError(f"{path}:{n}: bad context rule: {e}") from None
        rules.setdefault((rule.form, rule.type), []).append(rule)
    return {k: tuple(v) for k, v in rules.items()}


@lru_cache(maxsize=2)
def load_lexicon() -> Lexicon:
    types = load_types()
    entries: dict[str, list[Entry]] = {}
    for t in types.values():
        for c in load_concepts(t.file).values():
            if not str(c.kind).endswith("#" + t.cls):
                continue  # e.g. the object-category concepts that share objects.ttl
            for form in c.forms:
                if form:
                    entries.setdefault(form, []).append(
                        Entry(form, t.name, c.slug, str(c.iri), c.ambiguous)
                    )
    return Lexicon(
        types=types,
        entries={k: tuple(v) for k, v in entries.items()},
        rules=load_rules(),
    )


def rule_allows(
    lexicon: Lexicon, form: str, type_: str, unit: str, text: str, start: int, end: int
) -> bool:
    """Context rules for this form and type: drop-rules that fire drop it, keep-only rules
    that do not fire drop it."""
    for rule in lexicon.rules.get((form, type_), ()):
        if rule.units and unit not in rule.units:
            if rule.keep_only:
                return False
            continue
        fires = rule.fires(text, start, end)
        if rule.keep_only and not fires and (rule.before or rule.after):
            return False
        if not rule.keep_only and (fires or not (rule.before or rule.after)):
            return False
    return True
