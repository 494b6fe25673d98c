"""Shared fixtures: the seeds built once per session, paths to our own test texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.build.run import build
from kg.resources import project_root

ROOT = project_root()
SEEDS = ROOT / "seeds"
FIXTURES = Path(__file__).parent / "fixtures"
SEED_FILES = sorted(p for p in SEEDS.glob("*.txt"))


@pytest.fixture(scope="session")
def seeds_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("seeds") / "store"
    build([SEEDS], store)
    return store


@pytest.fixture(scope="session")
def seeds_db(seeds_store: Path):
    from kg.store import open_store

    return open_store(seeds_store)


def select(db, sparql: str) -> list[dict[str, str]]:
    """Rows of a SELECT as {var: value} with plain string values."""
    from kg.store import rows, run_query

    names, body = rows(run_query(db, sparql))
    return [{n: (c[1] if c else None) for n, c in zip(names, r, strict=True)} for r in body]
