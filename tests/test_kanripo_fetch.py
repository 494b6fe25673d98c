"""``kg build --source kanripo:ID`` (kg/build/fetch.py): cloned once into the cache, reused
after, a clear line when it cannot be fetched. A local git repository stands in for
Kanripo (``KG_KANRIPO_URL``): no test reaches the network."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.build.fetch import cache_dir, fetch_kanripo, resolve_sources
from kg.cli import cli
from kg.errors import KgError

FIXTURES = Path(__file__).parent / "fixtures"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git CLI")


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture
def origin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Kanripo-like repository of the book (KR1d0044) with one juan file and a Readme."""
    repo = tmp_path / "origin" / "KR1d0044"
    repo.mkdir(parents=True)
    shutil.copy(FIXTURES / "kanripo_yili.txt", repo / "KR1d0044_017.txt")
    (repo / "Readme.org").write_text("#+TITLE: 禮經本義\n", encoding="utf-8")
    (repo / "LICENSE").write_text("not a juan\n", encoding="utf-8")
    git("init", "-q", cwd=repo)
    git("add", ".", cwd=repo)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "juan 17", cwd=repo)
    monkeypatch.setenv("KG_KANRIPO_URL", f"file://{tmp_path / 'origin'}/{{id}}")
    monkeypatch.delenv("KG_CACHE", raising=False)
    return repo


def test_a_text_is_cloned_once_into_the_cache_beside_the_store(origin: Path, tmp_path: Path):
    store = tmp_path / "kg" / "store"
    (files,) = [resolve_sources(["kanripo:KR1d0044"], store)]
    clone = tmp_path / "kg" / "cache" / "kanripo" / "KR1d0044"
    assert files == [clone / "KR1d0044_017.txt"]  # the juan files only: no Readme, no LICENSE
    assert files[0].read_bytes() == (origin / "KR1d0044_017.txt").read_bytes()
    shutil.rmtree(origin.parent)  # the origin gone (offline): the clone is reused
    assert resolve_sources(["kanripo:KR1d0044", Path("x")], store) == [*files, Path("x")]
    assert not list(clone.parent.glob(".*partial*"))


def test_the_cache_is_chosen_by_option_then_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KG_CACHE", raising=False)
    store = tmp_path / "s" / "store"
    assert cache_dir(store) == tmp_path / "s" / "cache"
    monkeypatch.setenv("KG_CACHE", str(tmp_path / "env"))
    assert cache_dir(store) == tmp_path / "env"
    assert cache_dir(store, tmp_path / "opt") == tmp_path / "opt"


@pytest.mark.parametrize("spec", ["kanripo:KR1d9999", "kanripo:nonsense", "kanripo:"])
def test_an_unknown_or_malformed_id_is_one_clear_line(origin: Path, tmp_path: Path, spec: str):
    with pytest.raises(KgError) as e:
        resolve_sources([spec], tmp_path / "store")
    message = str(e.value)
    assert "\n" not in message and message.startswith(spec)
    assert not (tmp_path / "cache" / "kanripo" / spec[len("kanripo:") :]).exists()


def test_offline_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KG_KANRIPO_URL", "http://127.0.0.1:9/{id}")  # nothing listens there
    with pytest.raises(KgError, match=r"^kanripo:KR1d0028: cannot fetch .*offline") as e:
        fetch_kanripo("KR1d0028", tmp_path / "cache")
    assert "\n" not in str(e.value)


def test_kg_build_reads_a_kanripo_source(origin: Path, tmp_path: Path) -> None:
    store, cache = tmp_path / "store", tmp_path / "c"
    args = ["build", "-q", "--source", "kanripo:KR1d0044", "--store", str(store)]
    result = CliRunner().invoke(cli, [*args, "--cache", str(cache)])
    assert result.exit_code == 0, result.output
    assert "from 1 files" in result.output and "chapters 2" in result.output
    assert (cache / "kanripo" / "KR1d0044" / "KR1d0044_017.txt").is_file()


def test_kg_build_with_an_unknown_id_exits_with_one_line(origin: Path, tmp_path: Path) -> None:
    args = ["build", "-q", "--source", "kanripo:KR1d9999", "--store", str(tmp_path / "s")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "kanripo:KR1d9999" in lines[0] and "Traceback" not in result.output
