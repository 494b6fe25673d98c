"""``kg export``: every format opens in a real reader with what the store holds, in the same
bytes for the same input, with layers and one chapter chosen as asked."""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from pyld import jsonld
from rdflib import Dataset, Graph

from kg.build.run import RdfArgument, build
from kg.cli import cli
from kg.errors import KgError
from kg.export import FORMATS, export, render
from kg.export.context import context_path, derive_context, load_context
from kg.export.context import render as render_context
from kg.export.graph import build_graph, load_config
from kg.store import graph_counts, open_store

from conftest import FIXTURES, select

RDF_FORMATS = [f for f in FORMATS if FORMATS[f].family == "rdf"]
GRAPH_FORMATS = [f for f in FORMATS if FORMATS[f].family == "graph"]
ACTS = FIXTURES / "acts_mentions.trig"
TEXT = FIXTURES / "plain_shaolao.txt"
OXIGRAPH = Path(sys.executable).with_name("oxigraph")
RDFLIB_FORMATS = {"turtle": "turtle", "trig": "trig", "nquads": "nquads", "jsonld": "json-ld"}


def build_fixture(where: Path) -> Path:
    store = where / "store"
    build([TEXT], store, rdf=[RdfArgument(ACTS)])
    return store


@pytest.fixture(scope="module")
def fx_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture(tmp_path_factory.mktemp("fx1"))


@pytest.fixture(scope="module")
def fx_db(fx_store: Path):
    return open_store(fx_store)


def export_bytes(db, fmt: str, **kw) -> bytes:
    files, _, _ = render(db, fmt, **kw)
    if fmt == "csv":
        return files["nodes.csv"] + b"\n---\n" + files["edges.csv"]
    return files[""]


def parse(data: bytes, fmt: str) -> Graph:
    g: Graph = Graph() if fmt == "turtle" else Dataset()
    g.parse(data=data, format=RDFLIB_FORMATS[fmt])
    return g


def quad_count(g: Graph) -> int:
    if isinstance(g, Dataset):
        return sum(len(x) for x in g.graphs())
    return len(g)


# -- stable bytes ------------------------------------------------------------------------------


def test_two_builds_of_the_same_input_export_the_same_bytes(fx_db, tmp_path: Path) -> None:
    other = open_store(build_fixture(tmp_path))
    for fmt in FORMATS:
        assert export_bytes(fx_db, fmt) == export_bytes(other, fmt), fmt


def test_nquads_lines_are_sorted_and_distinct(seeds_db) -> None:
    lines = export_bytes(seeds_db, "nquads").decode().splitlines()
    assert lines == sorted(set(lines))
    assert len(lines) == sum(graph_counts(seeds_db).values())


def test_gzip_is_reproducible_and_holds_the_plain_bytes(fx_db, tmp_path: Path) -> None:
    plain = export(fx_db, "trig", tmp_path / "a.trig")
    zipped = [export(fx_db, "trig", tmp_path / f"{n}.trig.gz") for n in ("b", "c")]
    data = [p.files[0].read_bytes() for p in zipped]
    assert data[0] == data[1]
    assert gzip.decompress(data[0]) == plain.files[0].read_bytes()


# -- real readers: rdflib, oxigraph convert, pyld --------------------------------------------------


@pytest.mark.parametrize("fmt", RDF_FORMATS)
def test_rdflib_reads_every_rdf_export_whole(fx_db, fmt: str) -> None:
    stored = graph_counts(fx_db)
    g = parse(export_bytes(fx_db, fmt), fmt)
    if fmt == "turtle":  # the union: a triple in two graphs is written once
        distinct = select(
            fx_db,
            "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o "
            "WHERE { GRAPH ?g { ?s ?p ?o } } }",
        )
        assert len(g) == int(distinct[0]["n"])
    else:
        assert quad_count(g) == sum(stored.values())
        graphs = {str(x.identifier) for x in g.graphs() if len(x)}  # type: ignore[attr-defined]
        assert graphs == set(stored)


CHAPTER = "xiangsheli"  # a chapter of the seeds read in two witnesses


@pytest.mark.parametrize("fmt", RDF_FORMATS)
def test_oxigraph_convert_reads_every_rdf_export(seeds_db, tmp_path: Path, fmt: str) -> None:
    src = tmp_path / f"x{FORMATS[fmt].suffix}"
    src.write_bytes(export_bytes(seeds_db, fmt, chapter=CHAPTER))
    out = subprocess.run(
        [str(OXIGRAPH), "convert", "--from-file", str(src), "--to-format", "nq"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    expected = export_bytes(seeds_db, "nquads", chapter=CHAPTER).decode().splitlines()
    assert len(expected) > 1000
    if fmt == "turtle":
        assert len(out.splitlines()) == len({line.rsplit(" ", 2)[0] for line in expected})
    else:
        assert sorted(out.splitlines()) == expected


def _loader(url: str, options: dict | None = None) -> dict:
    if url != "https://w3id.org/lijing/context.jsonld":
        raise AssertionError(f"tried to fetch {url}")
    return {"contextUrl": None, "documentUrl": url, "document": load_context()}


def test_jsonld_expands_with_the_published_context(fx_db) -> None:
    doc = json.loads(export_bytes(fx_db, "jsonld"))
    assert doc["@context"] == load_context()["@context"]
    # as a consumer would: the context by reference, fetched (here from the file)
    doc["@context"] = "https://w3id.org/lijing/context.jsonld"
    nq = jsonld.to_rdf(doc, {"format": "application/n-quads", "documentLoader": _loader})
    expected = export_bytes(fx_db, "nquads").decode()
    ours = Dataset().parse(data=expected, format="nquads")
    theirs = Dataset().parse(data=nq, format="nquads")
    assert quad_count(theirs) == quad_count(ours) == len(expected.splitlines())
    assert set(theirs.quads()) == set(ours.quads())


def test_jsonld_uses_the_short_terms(fx_db) -> None:
    text = export_bytes(fx_db, "jsonld").decode()
    for term in ('"agent"', '"isPartOf"', '"order"', '"RitualAct"'):
        assert term in text, term


def test_the_published_context_is_derived_from_the_ontology() -> None:
    assert context_path().read_text(encoding="utf-8") == render_context(derive_context()), (
        "ontology/context.jsonld is behind ontology/lijing.ttl: "
        "run `.venv/bin/python -m kg.export.context`"
    )


# -- graph tools: networkx reads them back ---------------------------------------------------------


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_networkx_reads_graphml_and_gexf_with_the_same_counts(seeds_db, fmt: str) -> None:
    pg = build_graph(seeds_db, chapter=CHAPTER)
    reader = nx.read_graphml if fmt == "graphml" else nx.read_gexf
    g = reader(io.BytesIO(export_bytes(seeds_db, fmt, chapter=CHAPTER)))
    assert (g.number_of_nodes(), g.number_of_edges()) == (len(pg.nodes), len(pg.edges))
    assert len(pg.nodes) > 100 and len(pg.edges) > 100
    colours = {}
    for _, data in g.nodes(data=True):
        assert data["label_zh"] or data["label_en"]
        assert data["label_en"]
        colours.setdefault(data["class"], data["colour"])
        if fmt == "gexf":
            assert data["viz"]["color"]["r"] == int(data["colour"][1:3], 16)
    assert len(set(colours.values())) == len(colours)  # a colour per class
    assert {d["relation"] for *_, d in g.edges(data=True)} == set(pg.by_relation())


def test_cytoscape_json_reads_back_and_styles_each_class(fx_db) -> None:
    doc = json.loads(export_bytes(fx_db, "cytoscape"))
    g = nx.cytoscape_graph(doc)
    pg = build_graph(fx_db)
    assert (g.number_of_nodes(), g.number_of_edges()) == (len(pg.nodes), len(pg.edges))
    selectors = {s["selector"] for s in doc["style"]}
    for n in doc["elements"]["nodes"]:
        assert f"node.{n['classes']}" in selectors
        assert n["data"]["id"] == n["data"]["iri"]


def test_csv_lists_have_neo4j_headers_and_every_edge_end_is_a_node(fx_db) -> None:
    files, counts, _ = render(fx_db, "csv")
    nodes = list(csv.DictReader(io.StringIO(files["nodes.csv"].decode("utf-8-sig"))))
    edges = list(csv.DictReader(io.StringIO(files["edges.csv"].decode("utf-8-sig"))))
    assert (len(nodes), len(edges)) == (counts["nodes"], counts["edges"])
    assert {"id:ID", ":LABEL", "label_zh", "label_en"} <= set(nodes[0])
    assert {":START_ID", ":END_ID", ":TYPE"} <= set(edges[0])
    ids = {n["id:ID"] for n in nodes}
    assert all(e[":START_ID"] in ids and e[":END_ID"] in ids for e in edges)
    assert files["nodes.csv"].startswith(b"\xef\xbb\xbf")  # spreadsheets need the BOM for 中文


def test_csv_goes_to_a_folder_or_a_zip(fx_db, tmp_path: Path) -> None:
    out = export(fx_db, "csv", tmp_path / "lists")
    assert sorted(p.name for p in out.files) == ["edges.csv", "nodes.csv"]
    out = export(fx_db, "csv", tmp_path / "lists.zip")
    assert sorted(zipfile.ZipFile(out.files[0]).namelist()) == ["edges.csv", "nodes.csv"]


# -- acts, mentions and what the layers choose ---------------------------------------------


def test_acts_become_typed_nodes_with_their_order_on_their_edges(fx_db) -> None:
    pg = build_graph(fx_db, ["acts"])
    acts = select(fx_db, "SELECT ?a ?o WHERE { ?a a lj:RitualAct ; lj:order ?o }")
    order = {r["a"]: int(r["o"]) for r in acts}
    assert pg.by_class()["RitualAct"] == len(order) > 0
    nexts = select(fx_db, "SELECT (COUNT(*) AS ?n) WHERE { ?a lj:nextAct ?b }")
    assert pg.by_relation()["nextAct"] == int(nexts[0]["n"])
    for e in pg.edges:
        assert e.source in order  # every acts edge leaves an act
        assert e.attrs["act_order"] == order[e.source]
    agent = next(e for e in pg.edges if e.relation == "agent")
    assert (agent.attrs["relation_zh"], agent.attrs["relation_en"]) == ("施事", "agent")


def test_ritual_layer_has_roles_objects_places_only(fx_db) -> None:
    pg = build_graph(fx_db, ["ritual"])
    assert set(pg.by_class()) <= {"Role", "RitualObject", "Place", "Rite"}
    derived = select(
        fx_db,
        "SELECT (COUNT(*) AS ?n) WHERE { ?s lj:handles|lj:standsAt|lj:movesTo|lj:involves ?o }",
    )
    assert len(pg.edges) == int(derived[0]["n"]) > 0


def test_mentions_layer_links_units_to_concepts(fx_db) -> None:
    pg = build_graph(fx_db, ["mentions"])
    found = select(
        fx_db, "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?u ?c WHERE { ?u lj:mentions ?c } }"
    )
    assert pg.by_relation() == {"mentions": int(found[0]["n"])}


def test_rdf_layers_are_named_graphs(fx_db) -> None:
    files, counts, details = render(fx_db, "nquads", layers=["acts", "mentions"])
    graphs = {line.rsplit(" ", 2)[-2] for line in files[""].decode().splitlines()}
    assert graphs == {
        "<https://w3id.org/lijing/id/graph/acts>",
        "<https://w3id.org/lijing/id/graph/mentions>",
    }
    assert counts["quads"] == sum(
        v for k, v in graph_counts(fx_db).items() if k.endswith(("/acts", "/mentions"))
    )
    assert set(details) == {"acts", "mentions"}


def test_one_chapter_holds_its_units_and_nothing_of_the_others(seeds_db) -> None:
    files, _, _ = render(seeds_db, "nquads", chapter="鄉射禮")  # any character form
    subjects = {line.split(" ", 1)[0][1:-1] for line in files[""].decode().splitlines()}
    chapter = "https://w3id.org/lijing/id/xiangsheli"
    assert chapter in subjects
    other = [
        r["c"] for r in select(seeds_db, "SELECT ?c WHERE { ?c a lj:Chapter }") if r["c"] != chapter
    ]
    assert not [s for s in subjects for c in other if s == c or s.startswith(c + "/")]
    passages = select(
        seeds_db,
        f"SELECT (COUNT(*) AS ?n) WHERE {{ ?p a lj:Passage ; "
        f"dcterms:isPartOf/dcterms:isPartOf <{chapter}> }}",
    )
    pg = build_graph(seeds_db, chapter=chapter)
    assert pg.by_class()["Passage"] == int(passages[0]["n"]) > 0
    assert pg.by_class()["Chapter"] == 1


def test_a_graph_export_of_every_layer_is_at_least_the_default(fx_db) -> None:
    default = build_graph(fx_db)
    everything = build_graph(fx_db, list(load_config().layers))
    assert len(everything.edges) > len(default.edges)  # vocabularies is left out by default


# -- the command ---------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_cli_writes_a_file_and_reports_counts(fx_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "g.gexf"
    r = run("export", "-f", "gexf", "--layer", "acts", "--store", str(fx_store), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "nodes" in r.output and "edges" in r.output
    assert nx.read_gexf(out).number_of_nodes() > 0


def test_cli_writes_to_standard_output(fx_store: Path) -> None:
    r = CliRunner().invoke(
        cli, ["export", "-f", "nquads", "--layer", "ontology", "--store", str(fx_store)]
    )
    assert r.exit_code == 0, r.output
    assert "<https://w3id.org/lijing/id/graph/ontology> ." in r.stdout


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["-f", "trig", "--layer", "nope"], 1, "no layer 'nope'"),
        (["-f", "graphml", "--layer", "nope"], 1, "no graph layer 'nope'"),
        (["-f", "turtle", "--chapter", "无此篇"], 1, "no chapter"),
        (["-f", "csv"], 2, "give -o FOLDER"),
        (["-f", "pdf"], 2, "Invalid value"),
    ],
)
def test_cli_errors_are_one_line(fx_store: Path, args: list[str], code: int, words: str) -> None:
    r = run("export", *args, "--store", str(fx_store))
    assert r.exit_code == code, r.output
    assert words in r.output


def test_a_bad_graph_config_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "graph.toml"
    bad.write_text('[classes.X]\niri = "nope:X"\n[layers.a]\nedges = []\n', encoding="utf-8")
    with pytest.raises(KgError, match=r"graph\.toml: unknown prefix"):
        load_config(bad)
    bad.write_text('[classes.X]\niri = "lj:X"\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(KgError, match="not #rrggbb"):
        load_config(bad)
