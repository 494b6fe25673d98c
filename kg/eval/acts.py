"""Scoring the act reader against ``tests/gold/acts.jsonl``.

Gold and read acts of a unit are aligned in order by action (difflib on the action
sequences). *agent+action*: an aligned pair whose action and set of agents agree. *frame*:
also the patients and the places (each with its relation: location, source, destination).
Each gold unit is read on its own, with no subject carried in from the passage before.
"""

from __future__ import annotations

from collections import defaultdict
from difflib import SequenceMatcher
from pathlib import Path

from kg.errors import InputError
from kg.eval.score import Report, Score, read_jsonl
from kg.nlp.acts import Act, ActReader
from kg.nlp.extract import act_items
from kg.text.normalize import normalize

RELATIONS = ("location", "source", "destination")


def _tail(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1]


def _spots(act: Act, relation: str) -> list[str]:
    """The act's places by slug. This gold predates positions and writes a position by its
    place (西阶东 → xijie) or as ``?`` text (所设中之西南 → ?中西南): a position is scored as its
    anchor place, or as ``?`` + its words when the anchor is a thing or a person (those
    are scored by the positions task, kg/eval/positions.py)."""
    out = [_tail(x) for x in act.place_iris.get(relation, [])]
    for p in act.positions.get(relation, []):
        anchor = p.anchors[0]
        out.append(_tail(anchor.iri) if anchor.kind == "place" else f"?{p.label}")
    return out


def _frame(act: dict) -> tuple:
    places = frozenset((r, p) for r in RELATIONS for p in act.get(r, []))
    return (
        act["action"],
        frozenset(act.get("agents", [])),
        frozenset(act.get("patients", [])),
        places,
    )


def _read(text: str) -> list[dict]:

    acts = ActReader(normalize(text), act_items(text)).read()
    return [
        {
            "action": a.action,
            "agents": [_tail(x) for x in a.agent_iris],
            "patients": [_tail(x) for x in a.patient_iris],
            **{r: _spots(a, r) for r in RELATIONS},
            "span": [a.start, a.end],
        }
        for a in acts
    ]


def evaluate_acts(path: Path) -> Report:
    rows = read_jsonl(path)
    for n, u in enumerate(rows, 1):
        if "text" not in u or "acts" not in u:
            raise InputError(path, n, "gold unit lacks 'text' or 'acts'")
    scores: dict[str, dict[str, Score]] = {
        "agent+action": defaultdict(Score),
        "frame": defaultdict(Score),
    }
    errors: list[tuple[str, str, str]] = []
    for u in rows:
        gold = [_frame(a) for a in u["acts"]]
        got = [_frame(a) for a in _read(u["text"])]
        matcher = SequenceMatcher(None, [g[0] for g in gold], [g[0] for g in got], autojunk=False)
        pairs = [
            (blk.a + k, blk.b + k) for blk in matcher.get_matching_blocks() for k in range(blk.size)
        ]
        for mode, width in (("agent+action", 2), ("frame", 4)):
            tp = sum(1 for i, j in pairs if gold[i][:width] == got[j][:width])
            sc = scores[mode]["all"]
            sc.tp += tp
            sc.fp += len(got) - tp
            sc.fn += len(gold) - tp
        matched_gold = {i for i, _ in pairs}
        for i, g in enumerate(gold):
            if i not in matched_gold:
                errors.append((u["id"], "missed", f"{g[0]} {sorted(g[1])}"))
        for i, j in pairs:
            if gold[i][:2] != got[j][:2]:
                errors.append(
                    (
                        u["id"],
                        "agent",
                        f"{gold[i][0]}: gold {sorted(gold[i][1])} read {sorted(got[j][1])}",
                    )
                )
            elif gold[i] != got[j]:
                errors.append(
                    (u["id"], "frame", f"{gold[i][0]}: gold {gold[i][2:]} read {got[j][2:]}")
                )
        matched_got = {j for _, j in pairs}
        for j, g in enumerate(got):
            if j not in matched_got:
                errors.append((u["id"], "spurious", f"{g[0]} {sorted(g[1])}"))
    return Report("acts", len(rows), {k: dict(v) for k, v in scores.items()}, errors)
