"""A build in parts: files that share no chapter or juan are read, aligned and emitted one
group at a time (bounded memory), and give the same graph as the whole corpus at once."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

import kg.build.run
from kg.build.run import build
from kg.store import dump, open_store

from conftest import FIXTURES

# our own texts, two layouts, six groups (聘礼 in three files, 士丧礼 in two, …)
TEXTS = sorted(FIXTURES.glob("*.txt"))

ABSTRACT = "臣等谨案是书以仪礼经文为主而附以诸家之说"
WITH_ABSTRACT = {
    "tejuan.txt": "[book_name]礼经本义 [book_title]提要 {a} [book_title]卷十五 礼经本义卷十五 "
    "吉礼 特牲馈食礼 【此士祭其祖祢之礼也】 特牲馈食之礼不诹日 【不诹日者士贱不得筮日也】",
    "sangjuan.txt": "[book_name]礼经本义 [book_title]提要 {a} [book_title]卷十二 礼经本义卷十二 "
    "凶礼 士丧礼 【此言始死之礼】 士丧礼死于适室幠用敛衾 【敖氏曰适室正寝也】",
}


def nquads(store: Path) -> list[bytes]:
    return sorted(dump(open_store(store), "nquads").splitlines())


def one_part(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the build align every file as one part; return the part counts it planned."""
    planned: list[int] = []
    real = kg.build.run.plan_parts

    def whole(keys: dict) -> list[list[Path]]:
        planned.append(len(real(keys)))
        return [sorted(keys, key=lambda p: (p.name, str(p)))]

    monkeypatch.setattr(kg.build.run, "plan_parts", whole)
    return planned


def test_parts_give_the_same_graph_as_the_whole(tmp_path: Path, monkeypatch) -> None:
    parts = build(TEXTS, tmp_path / "parts")
    planned = one_part(monkeypatch)
    whole = build(TEXTS, tmp_path / "whole")
    assert planned == [6]
    assert parts.counts == whole.counts
    assert [(p, i.line, i.message) for p, i in parts.issues] == [
        (p, i.line, i.message) for p, i in whole.issues
    ]
    assert nquads(tmp_path / "parts") == nquads(tmp_path / "whole")


def test_the_abstract_of_files_in_different_parts_is_one_unit(tmp_path: Path, monkeypatch) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name, text in WITH_ABSTRACT.items():
        (src / name).write_text(text.format(a=ABSTRACT), encoding="utf-8")
    report = build([src], tmp_path / "parts")
    assert report.counts["abstracts"] == 1
    abstract = [q for q in nquads(tmp_path / "parts") if b"/tiyao/w/" in q and b"#sourceFile" in q]
    assert len(abstract) == 2  # one witness from each file
    planned = one_part(monkeypatch)
    build([src], tmp_path / "whole")
    assert planned == [2]
    assert nquads(tmp_path / "parts") == nquads(tmp_path / "whole")


def test_a_part_is_dropped_before_the_next_is_read(tmp_path: Path, monkeypatch) -> None:
    """Memory: the documents of a part are freed before the build reads the next."""
    monkeypatch.setattr(kg.build.run, "KEEP_CHARS", 0)  # no text kept from the planning read
    alive: list[list[weakref.ref]] = []
    real_align = kg.build.run.align

    def align(docs, catalog, abstract=True):
        gc.collect()
        if alive:
            assert not any(r() for r in alive[-1]), "the last part is still in memory"
        alive.append([weakref.ref(d) for d in docs])
        return real_align(docs, catalog, abstract)

    monkeypatch.setattr(kg.build.run, "align", align)
    build(TEXTS, tmp_path / "store")
    assert len(alive) == 6
