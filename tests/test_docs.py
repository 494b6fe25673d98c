"""``kg docs``: the ontology reference has every term, the vocabularies, the alignment,
examples from the data and a diagram, escapes what it shows, and renders in Chromium."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner
from rdflib import OWL, RDF, RDFS, Graph, URIRef
from rdflib.namespace import SKOS

from kg.build.run import RdfArgument, build
from kg.cli import cli
from kg.docs import default_docs_dir, render_docs
from kg.docs.reference import load_layout
from kg.rdf.namespaces import LJ
from kg.resources import ontology_dir

from conftest import FIXTURES, select

ARTIFACTS = Path(__file__).parent / "artifacts"
NS = str(LJ._NS)


@pytest.fixture(scope="module")
def page(seeds_db, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render_docs(seeds_db, tmp_path_factory.mktemp("docs"))


@pytest.fixture(scope="module")
def html(page: Path) -> str:
    return page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def onto() -> Graph:
    return Graph().parse(ontology_dir() / "lijing.ttl", format="turtle")


def own(g: Graph, kind: URIRef) -> list[str]:
    return sorted(str(s)[len(NS) :] for s in g.subjects(RDF.type, kind) if str(s).startswith(NS))


def test_every_class_and_property_has_an_entry_with_both_labels(html: str, onto: Graph) -> None:
    for kind in (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty):
        for name in own(onto, kind):
            entry = re.search(
                rf'<article id="{name}" class="term[^"]*">(.*?)</article>', html, re.S
            )
            assert entry, name
            for lab in onto.objects(URIRef(NS + name), RDFS.label):
                assert str(lab) in entry.group(1), (name, str(lab))


def test_domains_ranges_and_alignment_are_shown(html: str) -> None:
    agent = re.search(r'<article id="agent".*?</article>', html, re.S).group(0)
    assert 'href="#RitualAct"' in agent and 'href="#Role"' in agent
    assert "crm:P14_carried_out_by" in agent
    alignment = re.search(r'<section id="alignment">.*?</section>', html, re.S).group(0)
    for external in ("crm:E7_Activity", "foaf:Person", "prov:Entity", "skos:Concept"):
        assert external in alignment, external


def test_class_entries_show_counts_and_examples_from_the_data(html: str, seeds_db) -> None:
    n = select(seeds_db, "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a lj:Passage }")[0]["n"]
    entry = re.search(r'<article id="Passage".*?</article>', html, re.S).group(0)
    assert f"<dd>{int(n):,}</dd>" in entry
    examples = re.findall(r'<code class="small">([^<]+)</code>', entry)
    assert len(examples) == 3
    for iri in examples:
        types = {r["t"] for r in select(seeds_db, f"SELECT ?t WHERE {{ <{iri}> a ?t }}")}
        assert NS + "Passage" in types


def test_class_entries_list_their_shacl_constraints(html: str) -> None:
    entry = re.search(r'<article id="Opinion".*?</article>', html, re.S).group(0)
    assert "Constraints (SHACL" in entry
    assert "lj:commentator" in entry and "exactly 1" in entry


def test_every_vocabulary_and_concept_is_listed(html: str) -> None:
    g = Graph()
    for f in sorted(ontology_dir().glob("*.ttl")):
        if f.name not in ("lijing.ttl", "shapes.ttl"):
            g.parse(f, format="turtle")
    for scheme in g.subjects(RDF.type, SKOS.ConceptScheme):
        slug = str(scheme).rsplit("/", 1)[-1]
        assert f'id="scheme-{slug}"' in html, slug
    concepts = set(g.subjects(SKOS.inScheme, None))
    assert len(concepts) > 500
    rows = set(re.findall(r'<tr id="[^"]+"><td lang="lzh"><a href="([^"]+)">', html))
    assert {str(c) for c in concepts} <= rows


def test_the_diagram_is_svg_with_a_box_per_class_linking_to_its_entry(
    page: Path, html: str
) -> None:
    svg = ElementTree.parse(page.with_name("core.svg")).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    drawn = [c for col in load_layout()["diagram"]["columns"] for c in col if c]
    assert len(svg.findall(f".//{ns}rect")) == len(drawn)
    links = {a.get("href") for a in svg.iter(f"{ns}a")}
    assert links == {f"#{c}" for c in drawn}
    assert all(f'<article id="{c}"' in html for c in drawn)
    assert len(svg.findall(f".//{ns}path")) >= len(drawn)  # arrows between them
    assert "<svg" in html  # inline, so the page stands alone


def test_the_page_stands_alone_beside_its_downloads(page: Path, html: str) -> None:
    for name in ("ontology.ttl", "shapes.ttl", "context.jsonld", "core.svg"):
        assert (page.parent / name).is_file(), name
        assert f'href="{name}"' in html
    assert not re.search(r'<(link|script)[^>]+(href|src)="https?://', html)  # nothing to fetch


def test_text_from_the_data_is_escaped(tmp_path: Path) -> None:
    evil = tmp_path / "evil.ttl"
    evil.write_text(
        "@prefix lj: <https://w3id.org/lijing/ontology#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "<https://w3id.org/lijing/id/aaa> a lj:Passage ; "
        'rdfs:label "<script>alert(1)</script>"@lzh .\n',
        encoding="utf-8",
    )
    store = tmp_path / "store"
    build([FIXTURES / "plain_shaolao.txt"], store, rdf=[RdfArgument(evil)])
    text = render_docs(store, tmp_path / "docs").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)" in text
    assert "<script>alert" not in text


def test_without_a_store_the_page_has_no_counts(tmp_path: Path) -> None:
    text = render_docs(None, tmp_path).read_text(encoding="utf-8")
    assert '<article id="Passage"' in text
    assert "<dt>Instances</dt>" not in text


def test_the_command_writes_beside_the_store_by_default(seeds_store: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["docs", "--store", str(seeds_store), "-o", str(tmp_path / "d")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "d" / "ontology.html").is_file()
    assert default_docs_dir(seeds_store) == seeds_store.parent / "docs"


# -- it renders ------------------------------------------------------------------------------------


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _png_colours(data: bytes) -> int:
    """How many different byte values the decoded image holds (a blank page has few)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


@pytest.mark.skipif(_chromium() is None, reason="chromium is not installed")
def test_the_page_renders_in_headless_chromium(page: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "ontology.png"
    shot.unlink(missing_ok=True)
    base = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    url = page.resolve().as_uri()
    dom = subprocess.run(
        [*base, "--dump-dom", url], capture_output=True, timeout=120, check=True
    ).stdout.decode("utf-8")
    assert '<article id="Passage"' in dom and "<svg" in dom
    subprocess.run(
        [*base, f"--screenshot={shot}", "--window-size=1400,2000", url],
        capture_output=True,
        timeout=120,
        check=True,
    )
    data = shot.read_bytes()
    assert len(data) > 50_000
    assert _png_colours(data) > 64  # text, boxes and colours, not a blank page
