"""``kg build`` as a plain function: set the works of the tradition apart (kg.build.works),
plan the book's parts, then emit the works and, per part, read → align → emit → link → load."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kg.build.link import link_tradition
from kg.build.parts import abstract_only, part_keys, plan_parts
from kg.build.phases import Phases
from kg.build.pool import Extractor
from kg.build.works import split_sources
from kg.errors import KgError
from kg.nlp.new_voices import VoiceCensus
from kg.rdf.emit import Emitter, source_ids
from kg.rdf.iris import Minter
from kg.rdf.namespaces import DEFAULT_BASE
from kg.rdf.terms import Quad
from kg.rdf.tradition import TraditionEmitter
from kg.readers import read, source_files
from kg.readers.placement import load_manifest
from kg.resources import ontology_dir
from kg.store import RdfFile, build_store
from kg.text.align import align, align_abstract
from kg.text.catalog import Catalog, load_catalog
from kg.text.document import Document, FileIssue
from kg.text.residue import Residue
from kg.text.tradition import WorkDocument
from kg.text.vocab import vocabulary_files

Progress = Callable[[str, int, int], None]
KEEP_CHARS = 1_000_000  # source text held between a build's two readings (~50 bytes a char)
_IRI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>\"{}|^`\\]+$")


@dataclass
class BuildReport:
    store: Path
    sources: list[Path]
    counts: dict[str, int] = field(default_factory=dict)
    graphs: dict[str, int] = field(default_factory=dict)
    issues: list[FileIssue] = field(default_factory=list)
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)  # wall seconds per phase
    works: dict[str, dict[str, int]] = field(default_factory=dict)  # per tradition work

    @property
    def triples(self) -> int:
        return sum(self.graphs.values())


class _Reader:
    """Reads source files (each folder's manifest once), keeping what it read while the
    texts held stay under ``keep_chars``: a small corpus is read once although a build
    reads each file twice (to plan its parts, then to build them)."""

    def __init__(self, encoding: str, catalog: Catalog, keep_chars: int | None = None) -> None:
        self.encoding, self.catalog = encoding, catalog
        self.room = KEEP_CHARS if keep_chars is None else keep_chars
        self.manifests: dict[Path, dict] = {}
        self.kept: dict[Path, Document] = {}

    def __call__(self, path: Path) -> Document:
        if path in self.kept:
            return self.kept.pop(path)
        folder = path.parent
        if folder not in self.manifests:
            self.manifests[folder] = load_manifest(folder)
        return read(
            path, encoding=self.encoding, catalog=self.catalog, manifest=self.manifests[folder]
        )

    def keep(self, doc: Document) -> None:
        self.room -= len(doc.text)
        if self.room >= 0:
            self.kept[doc.path] = doc
        else:
            self.kept.clear()


@dataclass(frozen=True)
class RdfArgument:
    """An RDF file to add to the store (``--rdf``), in its own named graph: ``graph``, or
    ``graph/user/<file stem>`` under the build's base when that is None."""

    path: Path
    graph: str | None = None

    def rdf_file(self, minter: Minter) -> RdfFile:
        graph = self.graph or str(minter.iri(f"graph/user/{self.path.stem}"))
        return RdfFile(self.path, graph)


def rdf_argument(value: str) -> RdfArgument:
    """``--rdf FILE`` (graph ``graph/user/<stem>``) or ``--rdf GRAPH_IRI=FILE``.

    >>> rdf_argument("http://example.org/g=links.ttl")
    RdfArgument(path=PosixPath('links.ttl'), graph='http://example.org/g')
    >>> rdf_argument("links.ttl")
    RdfArgument(path=PosixPath('links.ttl'), graph=None)
    """
    graph, sep, file = value.partition("=")
    if sep and _IRI_SCHEME.match(graph) and not Path(value).exists():
        return RdfArgument(Path(file), graph)
    return RdfArgument(Path(value))


def build(
    sources: list[Path],
    store: Path,
    *,
    base: str = DEFAULT_BASE,
    encoding: str = "utf-8",
    rdf: list[RdfArgument] | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
) -> BuildReport:
    """Read, align, extract, emit and load; ``jobs`` processes find mentions and acts."""
    started = time.perf_counter()
    phases = Phases()
    paths = source_files(sources)
    if not paths:
        raise KgError(f"no text files in {', '.join(map(str, sources))}")
    catalog = load_catalog()
    reader = _Reader(encoding, catalog)
    book, works = split_sources(paths, encoding, phases, progress)  # never aligned with the book
    census = VoiceCensus()  # speakers the vocabulary lacks, counted over the whole book
    parts = plan(book, reader, phases, progress, census)
    minter = Minter(base)
    files = rdf_files(minter, rdf or [])
    extractor = Extractor(jobs=jobs, phases=phases, progress=progress)
    sources = source_ids(paths)
    emitter = Emitter(None, catalog, minter, extract=extractor, phases=phases, sources=sources)
    emitter.commentary.use_census(census)
    tradition = TraditionEmitter(minter, catalog, sources)
    stream = _PartStream(reader, catalog, emitter, extractor, phases, tradition, works)
    try:
        graphs = build_store(
            store,
            stream.quads(parts),
            files,
            on_progress=(lambda what: progress(what, 0, 0)) if progress else (lambda _: None),
            phases=phases,
        )
    finally:
        extractor.close()
    order = {f: i for i, f in enumerate(paths)}
    return BuildReport(
        store=store,
        sources=paths,
        counts=dict(emitter.stats),
        graphs=graphs,
        issues=sorted(stream.issues, key=lambda reported: order[reported.path]),
        seconds=time.perf_counter() - started,
        phases=dict(phases.seconds),
        works=tradition.stats,
    )


def plan(
    paths: list[Path],
    reader: _Reader,
    phases: Phases,
    progress: Progress | None,
    census: VoiceCensus | None = None,
) -> list[list[Path]]:
    """The parts to build one at a time, from a first reading of every file for what ties it
    to others (its juans and chapters); an unreadable file stops the build here. The same
    reading counts, in ``census``, the speakers each name opens across the book."""
    keys = {}
    with phases("reading"):
        for i, f in enumerate(paths, 1):
            if progress:
                progress(f"reading {f.name}", i, len(paths))
            doc = reader(f)
            keys[f] = part_keys(doc)
            if census is not None:
                census.add_document(doc)
            reader.keep(doc)
    return plan_parts(keys)


def rdf_files(minter: Minter, rdf: list[RdfArgument]) -> list[RdfFile]:
    """What the store loads beside the emitted quads: the ontology, the vocabularies (under
    the build's base) and the user's ``--rdf`` files, each checked to exist."""
    files = [
        RdfFile(ontology_dir() / "lijing.ttl", str(minter.graph("ontology"))),
        *(
            RdfFile(p, str(minter.graph("vocabularies")), rewrite=(DEFAULT_BASE, minter.base))
            for p in vocabulary_files()
        ),
        *(r.rdf_file(minter) for r in rdf),
    ]
    for f in files:
        if not f.path.is_file():
            raise KgError(f"{f.path}: no such RDF file")
    return files


@dataclass
class _PartStream:
    """The build's quads: first the works of the tradition, then the book one part at a time:
    read, align and emit it (mentions and acts are found chapter by chapter as the emitter
    reaches each one), link it to the works, then drop it before the next is read; at the end
    the abstract the parts' files share, and what only the end knows."""

    reader: _Reader
    catalog: Catalog
    emitter: Emitter
    extractor: Extractor
    phases: Phases
    tradition: TraditionEmitter
    works: list[WorkDocument]
    issues: list[FileIssue] = field(default_factory=list)  # the readers' and the emitter's
    abstracts: list[Document] = field(default_factory=list)
    residue: Residue = field(default_factory=Residue)  # characters normalization left rare

    def quads(self, parts: list[list[Path]]) -> Iterator[Quad]:
        if parts or not self.works:
            yield from self.emitter.work()
        for doc in self.works:
            yield from self.tradition.document(doc)
            self.issues.extend(FileIssue(doc.path, i) for i in doc.issues)
        self.issues.extend(self.tradition.take_issues())
        for n, part in enumerate(parts, 1):
            label = "extracting and loading" + (
                f" (part {n}/{len(parts)})" if len(parts) > 1 else ""
            )
            yield from self.part(part, label)
        self.issues.extend(self.residue.issues())
        with self.phases("aligning"):
            abstract = align_abstract(self.abstracts)
        if abstract is not None:
            yield from self.emitter.abstract(abstract)
        yield from self.emitter.finish()

    def part(self, files: list[Path], label: str) -> Iterator[Quad]:
        """One part; its documents and corpus go with this generator's frame."""
        with self.phases("reading"):
            docs = [self.reader(f) for f in files]
        with self.phases("aligning"):
            corpus = align(docs, self.catalog, abstract=False)
        self.extractor.start(corpus, label)
        yield from self.emitter.part(corpus)
        yield from link_tradition(corpus, self.works, self.emitter, self.tradition)
        self.issues.extend(FileIssue(d.path, i) for d in docs for i in d.issues)
        for d in docs:
            self.residue.add(d)
        self.issues.extend(self.emitter.take_issues())  # what emission met (new commentators)
        self.abstracts.extend(a for a in map(abstract_only, docs) if a is not None)
