"""A synthetic corpus of N copies of seeds/, each copy a distinct set of chapters.

    .venv/bin/python bench/synth.py --times 10 --out /tmp/bench/x10

Chapters merge by rite (kg/text/align.py keys them by ``rite``, recognised from the title line
through ``ontology/rites.ttl``), juans by number, prefaces by title within a juan. So each
copy k ≥ 1 gets its own rites and juans:

- ``OUT/home/`` is a ``KG_HOME`` whose ``ontology/rites.ttl`` adds, for every rite the seeds
  use, a rite ``<slug>-k`` titled ``<title>第<k>`` (same key terms); the other ontology files
  and ``queries/`` are links to the project's own.
- ``OUT/corpus/`` holds ``kNNN_<seed file>``: the seed with each chapter title the reader
  found replaced by the copy's title and each juan marker renumbered (juan n → n + k·J,
  J the highest juan of the seeds), and a ``manifest.toml`` placing the fragments likewise.

With ``--tradition`` (../shared/corpus/tradition) and ``--work-juans N``, ``OUT/corpus/works/``
also holds the works of the tradition (仪礼注疏, 仪礼集说) at N juans each (17: the whole
仪礼, one juan per chapter): the sample juans, then renamed copies of them filling the juan
numbers the samples lack (3, 8, 10 …) — copy k of a juan gets the same rite ``<slug>-k`` as
copy k of the book, its juan title, ``#+PROPERTY: JUAN`` and page markers renumbered, so copies
of one work never align with each other, and copy k of a work lines up with copy k of the
book as the samples line up with the seeds. Every chapter title is written as its rite's
label (copy 0) or copy title, so an original 士冠禮第一 never reads as copy 1's 士冠礼第一.

Copy 0 is the seeds as they are. Titles and markers are found by the project's own reader,
so only structure changes, never the text the extractors read. The one unit the copies
share is the catalogue abstract (提要) of 001, which the book has once: its copies align as
witnesses of one unit.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tomllib
from pathlib import Path

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import SKOS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.build.phases import Phases  # noqa: E402
from kg.build.works import split_sources  # noqa: E402
from kg.readers import read, source_files  # noqa: E402
from kg.readers.placement import MANIFEST, load_manifest  # noqa: E402
from kg.text.catalog import LJ, load_catalog  # noqa: E402
from kg.text.numerals import parse_numeral  # noqa: E402

DIGITS = "〇一二三四五六七八九"


def chinese(n: int) -> str:
    """Juan numbers as the markers write them (up to 999).

    >>> [chinese(n) for n in (7, 10, 17, 70, 105, 700)]
    ['七', '十', '十七', '七十', '一百〇五', '七百']
    """
    if n >= 100:
        rest = n % 100
        tail = "" if rest == 0 else ("〇" + DIGITS[rest] if rest < 10 else _tens(rest, True))
        return DIGITS[n // 100] + "百" + tail
    return _tens(n, False) if n >= 10 else DIGITS[n]


def _tens(n: int, full: bool) -> str:
    head = "" if n // 10 == 1 and not full else DIGITS[n // 10]
    return head + "十" + (DIGITS[n % 10] if n % 10 else "")


def copy_title(label: str, k: int) -> str:
    return f"{label}第{chinese(k)}"


def synthetic_rites(slugs: set[str], times: int) -> Graph:
    """rites.ttl plus a rite per (seed rite, copy ≥ 1), sharing the original's key terms."""
    g = Graph()
    g.parse(ROOT / "ontology" / "rites.ttl", format="turtle")
    catalog = load_catalog()
    for slug in sorted(slugs):
        rite = catalog.rites[slug]
        src = rite.iri
        for k in range(1, times):
            new = URIRef(f"{src}-{k}")
            title = Literal(copy_title(rite.label, k), lang="lzh")
            for t in (LJ.Rite, SKOS.Concept):
                g.add((new, RDF.type, t))
            for p in (SKOS.inScheme, LJ.category, LJ.keyTerm):
                for o in g.objects(src, p):
                    g.add((new, p, o))
            g.add((new, LJ.slug, Literal(f"{slug}-{k}")))
            g.add((new, LJ.order, Literal(rite.order + 100 * k)))
            g.add((new, SKOS.prefLabel, title))
            g.add((new, RDFS.label, title))
    return g


def home(out: Path, rites: Graph) -> Path:
    """A KG_HOME: the project's ontology and queries, rites.ttl replaced."""
    h = out / "home"
    onto = h / "ontology"
    onto.mkdir(parents=True)
    for f in (ROOT / "ontology").iterdir():
        if f.name != "rites.ttl":
            (onto / f.name).symlink_to(f)
    rites.serialize(onto / "rites.ttl", format="turtle")
    (h / "queries").symlink_to(ROOT / "queries")
    return h


def rewrite(path: Path, k: int, offset: int, manifest: dict) -> tuple[str, set[str]]:
    """The seed's text for copy k, and the rites it names."""
    catalog = load_catalog()
    doc = read(path, catalog=catalog, manifest=manifest)
    edits: list[tuple[int, int, str]] = []
    rites: set[str] = set()
    for j in doc.juans:
        for span in (j.open_span, j.close_span):
            if span is not None and j.number is not None:
                edits.append((*span, f"礼经本义卷{chinese(j.number + offset)}"))
        for c in j.chapters:
            if c.rite:
                rites.add(c.rite)
            if c.title_span is not None and c.rite:
                edits.append((*c.title_span, copy_title(catalog.rites[c.rite].label, k)))
    text = doc.text
    for a, b, new in sorted(edits, reverse=True):
        text = text[:a] + new + text[b:]
    return text, rites


def generate(
    seeds: Path, out: Path, times: int, tradition: Path | None = None, work_juans: int = 0
) -> tuple[Path, Path]:
    if out.exists():
        shutil.rmtree(out)
    corpus = out / "corpus"
    corpus.mkdir(parents=True)
    manifest = load_manifest(seeds)
    catalog = load_catalog()
    files = source_files([seeds])
    docs = {f: read(f, catalog=catalog, manifest=manifest) for f in files}
    offset = max(j.number or 0 for d in docs.values() for j in d.juans)
    used = {c.rite for d in docs.values() for j in d.juans for c in j.chapters if c.rite}
    used |= {catalog.rite_for_title(e["chapter"]) for e in manifest.values() if "chapter" in e}
    lines: list[str] = []
    for k in range(times):
        for f in files:
            name = f"k{k:03d}_{f.name}"
            if k == 0:
                text = f.read_text(encoding="utf-8")
            else:
                text, _ = rewrite(f, k, offset * k, manifest)
            (corpus / name).write_text(text, encoding="utf-8")
            entry = manifest.get(f.name)
            if entry:
                juan = int(entry["juan"]) + offset * k
                title = entry["chapter"]
                if k:
                    rite = catalog.rite_for_title(title)
                    assert rite is not None
                    title = copy_title(catalog.rites[rite].label, k)
                assert parse_numeral(chinese(juan)) == juan
                lines.append(f'["{name}"]\njuan = {juan}\nchapter = "{title}"\n')
    (corpus / MANIFEST).write_text("\n".join(lines), encoding="utf-8")
    tomllib.loads((corpus / MANIFEST).read_text(encoding="utf-8"))  # fail here, not in kg
    copies = times
    if tradition is not None and work_juans:
        for folder in sorted(p for p in tradition.iterdir() if p.is_dir()):
            rites, n = complete_work(folder, corpus / "works" / folder.name, work_juans)
            used |= rites
            copies = max(copies, n)
    return corpus, home(out, synthetic_rites({r for r in used if r}, copies))


_JUAN = re.compile(r"(#\+PROPERTY: JUAN 卷|儀禮..卷)([〇一二三四五六七八九十百]+)")


def complete_work(samples: Path, out: Path, juans: int) -> tuple[set[str], int]:
    """``juans`` juans of one work from its sample juans (and its 提要 and other front matter
    as they are); the rites its chapters name, and the copies made (as ``times``)."""
    catalog = load_catalog()
    out.mkdir(parents=True)
    files = sorted(samples.glob("*.txt"))
    body: list[tuple[Path, int]] = []  # the sample juans, by number
    for f in files:
        (work,) = split_sources([f], "utf-8", Phases())[1]
        numbers = [j.number for j in work.juans if j.number is not None]
        if numbers:
            body.append((f, numbers[0]))
        else:
            shutil.copy(f, out / f.name)  # 提要: once
    have = {n for _, n in body}
    free = (n for n in range(1, 1000) if n not in have)
    slots = [(f, n, 0) for f, n in body]
    while len(slots) < juans:
        f, _ = body[(len(slots) - len(body)) % len(body)]
        slots.append((f, next(free), 1 + (len(slots) - len(body)) // len(body)))
    rites: set[str] = set()
    for f, number, k in slots[:juans]:
        text, named = _work_copy(f, number, k, catalog)
        rites |= named
        stem = f.stem.rsplit("_", 1)[0]
        (out / f"{stem}_{number:03d}.txt").write_text(text, encoding="utf-8")
    return rites, 1 + max(k for _, _, k in slots[:juans])


def _work_copy(path: Path, number: int, k: int, catalog) -> tuple[str, set[str]]:
    """A sample juan as juan ``number``, its chapters renamed for copy ``k``."""
    (work,) = split_sources([path], "utf-8", Phases())[1]
    text = path.read_text(encoding="utf-8")
    old = next(j.number for j in work.juans if j.number is not None)
    edits, rites = [], set()
    for ch in work.chapters():
        if ch.rite and ch.rite in catalog.rites and ch.title_span is not None:
            label = catalog.rites[ch.rite].label
            edits.append((*ch.title_span, copy_title(label, k) if k else label))
            rites.add(ch.rite)
    for a, b, new in sorted(edits, reverse=True):
        text = text[:a] + new + text[b:]
    text = _JUAN.sub(lambda m: m.group(1) + chinese(number), text)
    return re.sub(rf"(<pb:[^_>]+_[^_>]+_){old:03d}-", rf"\g<1>{number:03d}-", text), rites


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--times", type=int, default=10)
    ap.add_argument("--seeds", type=Path, default=ROOT / "seeds")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--tradition", type=Path, default=None, help="../shared/corpus/tradition")
    ap.add_argument("--work-juans", type=int, default=17, help="juans of each work (17: all)")
    args = ap.parse_args()
    corpus, kg_home = generate(args.seeds, args.out, args.times, args.tradition, args.work_juans)
    chars = sum(len(f.read_text(encoding="utf-8")) for f in source_files([corpus]))
    print(f"corpus {corpus} ({chars:,} characters); KG_HOME={kg_home}")


if __name__ == "__main__":
    main()
