"""``kg build`` as a plain function: read → align → emit → load, with a report."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kg.align import align
from kg.catalog import load_catalog
from kg.errors import KgError
from kg.model import Document, Issue
from kg.rdf.emit import Emitter
from kg.rdf.iris import Minter
from kg.rdf.namespaces import DEFAULT_BASE
from kg.readers import read, source_files
from kg.readers.placement import load_manifest
from kg.resources import ontology_dir
from kg.store import RdfFile, build_store
from kg.vocab import vocabulary_files

Progress = Callable[[str, int, int], None]


@dataclass
class BuildReport:
    store: Path
    sources: list[Path]
    counts: dict[str, int] = field(default_factory=dict)
    graphs: dict[str, int] = field(default_factory=dict)
    issues: list[tuple[Path, Issue]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def triples(self) -> int:
        return sum(self.graphs.values())


def read_all(
    sources: list[Path], encoding: str = "utf-8", progress: Progress | None = None
) -> list[Document]:
    files = source_files(sources)
    if not files:
        raise KgError(f"no text files in {', '.join(map(str, sources))}")
    catalog = load_catalog()
    manifests: dict[Path, dict] = {}
    docs = []
    for i, f in enumerate(files, 1):
        if progress:
            progress(f"reading {f.name}", i, len(files))
        folder = f.parent
        if folder not in manifests:
            manifests[folder] = load_manifest(folder)
        docs.append(read(f, encoding=encoding, catalog=catalog, manifest=manifests[folder]))
    return docs


def build(
    sources: list[Path],
    store: Path,
    *,
    base: str = DEFAULT_BASE,
    encoding: str = "utf-8",
    rdf: list[Path] | None = None,
    progress: Progress | None = None,
) -> BuildReport:
    started = time.perf_counter()
    docs = read_all(sources, encoding, progress)
    catalog = load_catalog()
    if progress:
        progress("aligning witnesses", 0, 0)
    corpus = align(docs, catalog)
    minter = Minter(base)
    emitter = Emitter(corpus, catalog, minter)
    files = [
        RdfFile(ontology_dir() / "lijing.ttl", str(minter.graph("ontology"))),
        *(
            RdfFile(p, str(minter.graph("vocabularies")), rewrite=(DEFAULT_BASE, minter.base))
            for p in vocabulary_files()
        ),
        *(RdfFile(p, str(minter.iri(f"graph/user/{p.stem}"))) for p in rdf or []),
    ]
    for f in files:
        if not f.path.is_file():
            raise KgError(f"{f.path}: no such RDF file")
    graphs = build_store(
        store,
        emitter.quads(),
        files,
        on_progress=(lambda what: progress(what, 0, 0)) if progress else (lambda _: None),
    )
    report = BuildReport(store=store, sources=[d.path for d in docs], graphs=graphs)
    report.counts = dict(emitter.stats)
    report.issues = [(d.path, i) for d in docs for i in d.issues]
    report.seconds = time.perf_counter() - started
    return report
