"""Bad input: a clear one-line error naming file and line, never a crash; nothing lost."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import cli
from kg.errors import InputError
from kg.readers import read

from conftest import SEEDS, select

ONE_LINE_WITH_LINE = re.compile(r"^Error: \S+:\d+: [^\n]+\n$")


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def test_binary_file_names_the_line(tmp_path: Path) -> None:
    p = write(tmp_path, "bin.txt", "主人升\n宾升\n".encode() + b"\x00\x01\x02")
    with pytest.raises(InputError) as e:
        read(p)
    assert str(e.value).startswith(f"{p}:3: binary data")


def test_gbk_bytes_name_the_line_and_suggest_the_encoding(tmp_path: Path) -> None:
    p = write(tmp_path, "gbk.txt", "第一行\n".encode() + "主人升自阼阶".encode("gbk"))
    with pytest.raises(InputError) as e:
        read(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}:2: not valid utf-8") and "--encoding gb18030" in msg
    assert "\n" not in msg


def test_gbk_reads_with_the_encoding_option(tmp_path: Path) -> None:
    p = write(tmp_path, "gbk.txt", "士冠礼\n筮于庙门\n【筮者以蓍问吉凶也】\n".encode("gbk"))
    doc = read(p, encoding="gb18030")
    assert doc.juans[0].chapters[0].sections[0].passages[0].text == "筮于庙门"


def test_unbalanced_open_bracket_is_read_and_reported(tmp_path: Path) -> None:
    p = write(tmp_path, "open.txt", "宾升【升堂也\n主人答拜\n".encode())
    doc = read(p)
    passages = doc.juans[0].chapters[0].sections[0].passages
    assert [x.text for x in passages] == ["宾升", "主人答拜"]
    assert [(i.kind, i.line) for i in doc.issues if i.kind != "placement"] == [("unbalanced", 1)]


def test_empty_file_is_not_an_error(tmp_path: Path) -> None:
    doc = read(write(tmp_path, "empty.txt", b""))
    assert doc.juans == [] and doc.segments == []


def test_one_huge_line(tmp_path: Path) -> None:
    body = ("司射适堂西袒决遂取弓于阶西【袒露左臂也】 " * 20000).encode()
    doc = read(write(tmp_path, "huge.txt", body))
    assert len(doc.juans[0].chapters[0].sections[0].passages) == 20000


def test_cli_bad_file_keeps_the_previous_store(tmp_path: Path) -> None:
    store = tmp_path / "store"
    runner = CliRunner()
    ok = runner.invoke(cli, ["build", "-q", "--source", str(SEEDS), "--store", str(store)])
    assert ok.exit_code == 0, ok.output
    before = store.resolve()

    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    (bad_dir / "a.txt").write_text("士冠礼\n筮于庙门\n", encoding="utf-8")
    (bad_dir / "b.txt").write_bytes("好\n".encode() + "坏".encode("gbk"))
    result = runner.invoke(cli, ["build", "-q", "--source", str(bad_dir), "--store", str(store)])
    assert result.exit_code == 1
    assert ONE_LINE_WITH_LINE.match(result.output), result.output
    assert "b.txt:2:" in result.output

    # the store still answers, from the same build
    assert store.resolve() == before
    from kg.store import open_store

    rows = select(open_store(store), "SELECT (COUNT(*) AS ?n) WHERE { ?p a lj:Passage }")
    assert int(rows[0]["n"]) > 400


def test_interrupted_build_leaves_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg.build import run as build_module
    from kg.store import open_store

    store = tmp_path / "store"
    build_module.build([SEEDS], store)
    before = store.resolve()

    def boom(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module.Emitter, "opinions", boom)
    with pytest.raises(KeyboardInterrupt):
        build_module.build([SEEDS], store)
    assert store.resolve() == before
    leftovers = [p for p in (tmp_path / ".store.builds").iterdir() if p.resolve() != before]
    assert leftovers == []
    from kg.store import run_query

    assert bool(run_query(open_store(store), "ASK { ?w a lj:Work }"))
