"""Does the udkanbun dependency parser find agents better than the rules? (issue 4)

Runs the act reader on tests/gold/acts.jsonl twice: agents by the rules (topic chain), and
agents from udkanbun's parse where it gives the verb a subject (nsubj) that is one of the
roles the lexicon found, the rules otherwise. Prints agent+action F1 for both.

udkanbun is not a project dependency (it is large and slow to load); run this with a
Python that has both the project and udkanbun installed:
    python -m venv /tmp/udk && /tmp/udk/bin/pip install -e . udkanbun
    /tmp/udk/bin/python bench/udkanbun_agents.py
"""

from __future__ import annotations

import json
import sys
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.nlp.acts import ActReader  # noqa: E402
from kg.nlp.extract import act_items  # noqa: E402
from kg.text.normalize import normalize  # noqa: E402


def parse(lzh, text: str) -> list[tuple[int, int, int, str]]:
    """(start, end, head index, deprel) per token, with character offsets."""
    rows, pos = [], 0
    for line in str(lzh(text)).splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        form = cols[1]
        start = text.find(form, pos) if text.find(form, pos) >= 0 else pos
        rows.append((start, start + len(form), int(cols[6]), cols[7]))
        pos = start + len(form)
    return rows


def tail(iri: str) -> str:
    return iri.rsplit("/", 1)[-1]


def score(rows: list[dict], agent_sets: list[list[tuple[str, frozenset]]]) -> float:
    tp = fp = fn = 0
    for u, got in zip(rows, agent_sets, strict=True):
        gold = [(a["action"], frozenset(a["agents"])) for a in u["acts"]]
        m = SequenceMatcher(None, [g[0] for g in gold], [g[0] for g in got], autojunk=False)
        pairs = [(b.a + k, b.b + k) for b in m.get_matching_blocks() for k in range(b.size)]
        ok = sum(1 for i, j in pairs if gold[i] == got[j])
        tp, fp, fn = tp + ok, fp + len(got) - ok, fn + len(gold) - ok
    p, r = tp / (tp + fp), tp / (tp + fn)
    return 2 * p * r / (p + r)


def main() -> None:
    import udkanbun

    lzh = udkanbun.load()
    rows = [json.loads(x) for x in (ROOT / "tests/gold/acts.jsonl").read_text().splitlines()]
    rules, parsed = [], []
    for u in rows:
        text = u["text"]
        items = act_items(text)
        acts = ActReader(normalize(text), items).read()
        rules.append([(a.action, frozenset(tail(x) for x in a.agent_iris)) for a in acts])
        toks = parse(lzh, text)
        roles = [i for i in items if i.kind == "role"]
        mine = []
        for a in acts:
            agents = frozenset(tail(x) for x in a.agent_iris)
            verb = next((k for k, t in enumerate(toks) if t[0] <= a.verb[0] < t[1]), None)
            if verb is not None:
                subj = [t for t in toks if t[2] == verb + 1 and t[3].startswith("nsubj")]
                found = {
                    tail(r.iri) for t in subj for r in roles if r.start < t[1] and t[0] < r.end
                }
                if found:
                    agents = frozenset(found)
            mine.append((a.action, agents))
        parsed.append(mine)
    print(f"agent+action F1, rules:            {score(rows, rules):.3f}")
    print(f"agent+action F1, udkanbun nsubj:   {score(rows, parsed):.3f}")


if __name__ == "__main__":
    main()
