"""The rules for reading a commentary block, from ``patterns/commentary.toml`` and the
commentator and work vocabularies: data, loaded once.

>>> r = load_rules()
>>> r.names["郑康成"], r.names["敖君善"]
('zhengxuan', 'aojigong')
>>> r.works["说文"]
'shuowenjiezi'
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.nlp.wordlists import alternation
from kg.text.vocab import load_concepts

PATTERNS = Path(__file__).parent / "patterns"
AUTHOR = "caidejin"
ANONYMOUS = "anonymous"


@dataclass(frozen=True)
class Rules:
    data: dict
    names: dict[str, str]  # every form of a commentator's name (≥ 2 chars) → slug
    labels: dict[str, str]  # slug → preferred label
    works: dict[str, str]  # every form of a cited work → slug
    work_labels: dict[str, str]
    quote_re: re.Pattern[str]  # 郝仲舆曰
    report_re: re.Pattern[str]  # 敖君善谓, 郑氏以, 郑注
    unknown_re: re.Pattern[str]  # 张炅生曰
    note_re: re.Pattern[str]
    resume_re: re.Pattern[str]
    anon_re: re.Pattern[str]
    separators: str
    finals: str

    def section(self, name: str) -> dict:
        return self.data[name]


@lru_cache(maxsize=2)
def load_rules(path: Path | None = None) -> Rules:
    path = path or PATTERNS / "commentary.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: {e}") from None
    people = load_concepts("commentators.ttl")
    names: dict[str, str] = {}
    for c in people.values():
        if c.slug == ANONYMOUS:
            continue
        for form in c.forms:
            if len(form) >= 2:
                names[form] = c.slug
    labels = {c.slug: c.pref for c in people.values()}
    works: dict[str, str] = {}
    work_labels: dict[str, str] = {}
    for c in load_concepts("works.ttl").values():
        work_labels[c.slug] = c.pref
        for form in c.forms:
            works[form] = c.slug
    v = data["voices"]
    not_names = v["not_names"]
    quote_re = re.compile(f"(?:{alternation(names)})曰")
    authors = data["reports"]["work_authors"]
    via_work = {f for f, slug in works.items() if slug in authors and len(f) >= 2}
    verbs = alternation(data["reports"]["verbs"])
    report_re = re.compile(
        f"(?P<name>{alternation(names)})(?P<verb>{verbs})|(?P<work>{alternation(via_work)})"
    )
    u = data["unknown"]
    banned = re.escape(u["not_in_name"])
    unknown_re = re.compile(
        f"(?<![{re.escape(''.join(not_names))}])"
        f"(?P<name>[{u['surnames']}](?:[^{banned}\\W\\d]{{2}}|子))曰"
    )
    return Rules(
        data=data,
        names=names,
        labels=labels,
        works=works,
        work_labels=work_labels,
        quote_re=quote_re,
        report_re=report_re,
        unknown_re=unknown_re,
        note_re=re.compile(alternation(v["note"])),
        resume_re=re.compile(alternation(v["author_resumes"])),
        anon_re=re.compile(alternation(v["anonymous"])),
        separators=v["separators"],
        finals=v["finals"],
    )
