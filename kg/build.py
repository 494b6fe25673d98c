"""``kg build`` as a plain function: read → align → emit → load, with a report."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kg.align import align
from kg.catalog import load_catalog
from kg.errors import KgError
from kg.extraction import Extractor
from kg.model import Document, Issue
from kg.phases import Phases
from kg.rdf.emit import Emitter
from kg.rdf.iris import Minter
from kg.rdf.namespaces import DEFAULT_BASE
from kg.readers import read, source_files
from kg.readers.placement import load_manifest
from kg.resources import ontology_dir
from kg.store import RdfFile, build_store
from kg.vocab import vocabulary_files

Progress = Callable[[str, int, int], None]
_IRI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"{}|^`\\]+$")


@dataclass
class BuildReport:
    store: Path
    sources: list[Path]
    counts: dict[str, int] = field(default_factory=dict)
    graphs: dict[str, int] = field(default_factory=dict)
    issues: list[tuple[Path, Issue]] = field(default_factory=list)
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)  # wall seconds per phase

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


def rdf_argument(value: str) -> Path | tuple[str, Path]:
    """``--rdf FILE`` (graph ``graph/user/<stem>``) or ``--rdf GRAPH_IRI=FILE``.

    >>> rdf_argument("http://example.org/g=links.ttl")
    ('http://example.org/g', PosixPath('links.ttl'))
    >>> rdf_argument("links.ttl")
    PosixPath('links.ttl')
    """
    graph, sep, file = value.partition("=")
    if sep and _IRI_SCHEME.match(graph) and not Path(value).exists():
        return graph, Path(file)
    return Path(value)


def build(
    sources: list[Path],
    store: Path,
    *,
    base: str = DEFAULT_BASE,
    encoding: str = "utf-8",
    rdf: list[Path | tuple[str, Path]] | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
) -> BuildReport:
    """Read, align, extract, emit and load; ``jobs`` processes find mentions and acts."""
    started = time.perf_counter()
    phases = Phases()
    with phases("reading"):
        docs = read_all(sources, encoding, progress)
    catalog = load_catalog()
    if progress:
        progress("aligning witnesses", 0, 0)
    with phases("aligning"):
        corpus = align(docs, catalog)
    minter = Minter(base)
    files = [
        RdfFile(ontology_dir() / "lijing.ttl", str(minter.graph("ontology"))),
        *(
            RdfFile(p, str(minter.graph("vocabularies")), rewrite=(DEFAULT_BASE, minter.base))
            for p in vocabulary_files()
        ),
        *(
            RdfFile(r[1], r[0])
            if isinstance(r, tuple)
            else RdfFile(r, str(minter.iri(f"graph/user/{r.stem}")))
            for r in rdf or []
        ),
    ]
    for f in files:
        if not f.path.is_file():
            raise KgError(f"{f.path}: no such RDF file")
    # mentions and acts are found chapter by chapter as the emitter reaches each one, and
    # the quads go to the store as they come: only one chapter's analyses are in memory
    extractor = Extractor(corpus, jobs, phases, progress)
    emitter = Emitter(corpus, catalog, minter, extract=extractor, phases=phases)
    try:
        graphs = build_store(
            store,
            emitter.quads(),
            files,
            on_progress=(lambda what: progress(what, 0, 0)) if progress else (lambda _: None),
            phases=phases,
        )
    finally:
        extractor.close()
    report = BuildReport(store=store, sources=[d.path for d in docs], graphs=graphs)
    report.counts = dict(emitter.stats)
    report.issues = [(d.path, i) for d in docs for i in d.issues]
    report.seconds = time.perf_counter() - started
    report.phases = dict(phases.seconds)
    return report
