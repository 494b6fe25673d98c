"""The named queries on the seeds, checked against what the raw files say."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from kg.queries import list_queries, resolve_query, with_values
from kg.text.normalize import normalize

from conftest import SEED_FILES, select


def run(db, name: str, **values: str) -> list[dict[str, str]]:
    q = resolve_query(name)
    params = {**q.params, **values}
    return select(db, with_values(q.text, {k: normalize(v) for k, v in params.items() if v}))


def headings_in_raw_files() -> dict[str, list[str]]:
    """An independent oracle: 右X headings read straight off the files with a regex."""
    found: dict[str, list[str]] = defaultdict(list)
    for p in SEED_FILES:
        text = p.read_text(encoding="utf-8")
        # a heading: 右 at a line start (after indentation), after 】, or, in the one-line
        # web export, after the space that separates its units
        start = r"(?:^|\n|】| )" if p.name.startswith("001") else r"(?:^|\n|】)"
        heading = start + r"[\u3000 ]*右([^\s\u3000【】]{1,16})(?=[\s\u3000【]|$)"
        for m in re.finditer(heading, text):
            if m.group(1)[0] not in "手还个":  # 右手, 右还, 右个 are ordinary words
                found[p.name].append(normalize(m.group(1)))
    return found


def test_every_query_is_documented_and_runs(seeds_db) -> None:
    queries = list_queries()
    assert len(queries) >= 6
    for q in queries:
        assert q.title, q.name
        if not q.needs:  # the tradition's queries run on seeds + samples (test_tradition_links)
            assert run(seeds_db, q.name), q.name


def test_every_heading_of_the_seeds_is_a_section_in_order(seeds_db) -> None:
    rows = run(seeds_db, "chapters-sections")
    in_graph = [normalize(r["section"]) for r in rows if r["section"]]
    oracle = headings_in_raw_files()
    # each file's headings appear in the graph's order (sections from several witnesses merge)
    for name, titles in oracle.items():
        pos = 0
        for t in titles:
            assert t in in_graph[pos:], (name, t)
            pos = in_graph.index(t, pos) + 1
    assert set(in_graph) == {t for ts in oracle.values() for t in ts}


def test_chapter_list(seeds_db) -> None:
    rows = run(seeds_db, "chapters-sections")
    chapters = list(dict.fromkeys(r["chapter"] for r in rows))
    assert chapters == ["士冠礼", "士昏礼", "乡饮酒礼", "乡射礼", "燕礼", "大射仪", "公食大夫礼"]


def test_section_passages(seeds_db) -> None:
    rows = run(seeds_db, "section-passages", chapter="乡射礼", section="比三耦")
    assert rows == []  # 比三耦 is a sub-step named in commentary, not a 右X section
    rows = run(seeds_db, "section-passages", chapter="乡射礼", section="请射")
    assert [r["n"] for r in rows][:2] == ["1", "2"]
    assert rows[0]["passage"].startswith("三耦俟于堂西南面东上")
    assert rows[0]["commentary"].startswith("郝仲舆曰凡射二人为耦")


def test_section_records(seeds_db) -> None:
    rows = run(seeds_db, "section-records", chapter="乡射礼", section="初射")
    assert [r["record"] for r in rows][:2] == ["命负侯者由其位", "上射于右"]


@pytest.mark.parametrize("name", ["敖继公", "敖君善", "敖氏"])
def test_opinions_of_a_commentator_by_any_name(seeds_db, name: str) -> None:
    rows = run(seeds_db, "opinions-by-commentator", commentator=name)
    assert len(rows) > 50
    assert all(r["opinion"].startswith(("敖君善曰", "敖继公曰")) for r in rows)


def test_witness_differences(seeds_db) -> None:
    rows = run(seeds_db, "witness-differences")
    kinds = {r["kind"] for r in rows}
    assert kinds == {"variant characters", "different text"}
    files = {(r["file1"][:3], r["file2"][:3]) for r in rows}
    assert {("000", "001"), ("001", "004")} <= files
    # 000 lacks the 弦 that 001 has in 执弓不挟右执弦南面揖
    assert any("右执弦南面揖" in r["reading2"] and "右执南面揖" in r["reading1"] for r in rows)


def test_fulltext_separates_classic_and_commentary(seeds_db) -> None:
    rows = run(seeds_db, "fulltext", phrase="釋獲者")
    where = {r["where"] for r in rows}
    assert {"经文", "commentary"} <= where
    assert all("释获者" in normalize(r["text"]) for r in rows)


def test_noise_is_queryable(seeds_db) -> None:
    kinds = {r["kind"] for r in run(seeds_db, "noise")}
    assert kinds == {"page header", "web footer", "catalogue tag"}


def test_commentators(seeds_db) -> None:
    rows = run(seeds_db, "commentators")
    top = [r["commentator"] for r in rows[:5]]
    assert top[0] == "蔡德晋" and {"敖继公", "郝敬", "高愈"} <= set(top)
