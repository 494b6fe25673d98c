"""Voices gold (``voices.jsonl``, see tests/gold/README.md): attribution within a block."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from kg.eval.score import Report, Score, add_totals, differences, read_gold
from kg.nlp.commentary_rules import load_rules
from kg.nlp.new_voices import split_book


def evaluate_voices(path: Path) -> Report:
    """Attribution: per block, its voices ``[start, end, speaker, kind, reports]``.

    *strict*: a voice is right when its span (separators at either end left out), speaker,
    kind and reported commentator all match; scored per kind. *labels*: the same without
    the span (the n-th voice of a given speaker/kind/reports in the block). *blocks*: recall
    is the share of blocks whose whole voice sequence is right."""
    seps = load_rules().separators
    rows = read_gold(path, ("id", "text", "voices"))
    strict: dict[str, Score] = defaultdict(Score)
    labels: dict[str, Score] = defaultdict(Score)
    blocks: dict[str, Score] = defaultdict(Score)
    errors: list[tuple[str, str, str]] = []
    # the gold set is read as one book: a name that opens many of its blocks is a voice
    for u, voices in zip(rows, split_book([u["text"] for u in rows]), strict=True):
        text = u["text"]
        gold = {(*_trim(text, a, b, seps), s, k, r) for a, b, s, k, r in u["voices"]}
        got = {(*_trim(text, v.start, v.end, seps), v.speaker, v.kind, v.reports) for v in voices}
        for t in {x[3] for x in gold | got}:
            strict[t].add({x for x in gold if x[3] == t}, {x for x in got if x[3] == t})
        labels["all"].add(_numbered(gold), _numbered(got))
        blocks["all"].add({u["id"]}, {u["id"]} if gold == got else set())
        errors += differences(
            u["id"],
            gold,
            got,
            lambda a, b, s, k, r, text=text: f"{s}/{k}{'/' + r if r else ''} {text[a:b]} @{a}",
        )
    add_totals(strict)
    return Report(
        "voices", len(rows), {"strict": strict, "labels": labels, "blocks": blocks}, errors
    )


def _trim(text: str, a: int, b: int, seps: str) -> tuple[int, int]:
    while a < b and (text[a] in seps or text[a].isspace()):
        a += 1
    while b > a and (text[b - 1] in seps or text[b - 1].isspace()):
        b -= 1
    return a, b


def _numbered(voices: set[tuple]) -> set[tuple]:
    seen: dict[tuple, int] = {}
    out = set()
    for v in sorted(voices):
        key = v[2:]
        seen[key] = seen.get(key, 0) + 1
        out.add((*key, seen[key]))
    return out
