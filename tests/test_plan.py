"""The ground plan (ontology/plan.ttl), agents' positions (kg/nlp/tracks.py) and `kg plan`.

The tracker tests are on passages written here (the choreography of chapters the seeds lack
too); the plan and the drawings are checked over the whole seeds build.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from kg.cli import cli
from kg.export.plan_scene import Mark, Scene, Step, find_section, section_scene
from kg.export.plan_svg import render
from kg.nlp.acts import read_acts
from kg.nlp.tracks import Tracker
from kg.text.plan import load_plan
from kg.text.vocab import load_concepts

from conftest import FIXTURES, select

WRITTEN = FIXTURES / "written_shisang_space.txt"  # 士丧礼 as remembered: a chapter the seeds lack


@pytest.fixture(scope="module")
def written_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from kg.build.run import build

    store = tmp_path_factory.mktemp("written") / "store"
    build([WRITTEN], store)
    return store


@pytest.fixture(scope="module")
def written_db(written_store: Path):
    from kg.store import open_store

    return open_store(written_store)


SVG = "{http://www.w3.org/2000/svg}"


def tail(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1]


def positions(text: str) -> list[list[tuple[str, str, str | None]]]:
    """(role, anchor, direction) of each act's agents, all tails."""
    t = Tracker()
    out = []
    for k, act in enumerate(read_acts(text)):
        stands = t.step(act, k, text[act.start : act.end], text)
        out.append([(tail(s.role), tail(s.spot.anchor), s.spot.direction) for s in stands])
    return out


# -- the plan -------------------------------------------------------------------------------


def test_every_place_of_the_vocabulary_is_on_the_plan_or_says_why_not() -> None:
    plan = load_plan()
    placed = set(plan.boxes) | {k for v in plan.variants.values() for k in v.boxes}
    for slug in load_concepts("places.ttl"):
        key = f"place/{slug}"
        assert (key in placed) != (key in plan.off_plan), f"{key}: on the plan xor lj:offPlan"


def test_the_plan_has_the_house_of_the_shigong_tradition() -> None:
    plan = load_plan()
    box = plan.box
    assert box("place/xijie").x < 0 < box("place/zuojie").x  # 西阶 west, 阼阶 east
    assert box("place/xijie").y < 0 < box("place/tangshang").y  # stairs below the hall's edge
    assert box("place/shi").y > box("place/tangshang").y  # 室 behind the open hall
    assert box("place/you").x < box("place/hu").x  # 户 east of 牖
    assert box("place/dongfang").x > box("place/shi").x > box("place/xifang").x
    court, gate = box("place/ting"), box("place/men")
    assert gate.y < court.y and box("place/bei").y > gate.y  # 碑 north of the gate
    assert box("place/xixi").x < box("place/xidong").x  # 洗西, 洗东 either side of the basin
    assert box("place/dongshu").x > 0 > box("place/xishu").x


def test_settings_the_house_lacks_are_variants_a_rite_declares() -> None:
    plan = load_plan()
    assert plan.box("object/hou") is None  # no target in the house
    assert plan.box("object/hou", plan.variants_of("rite/xiangsheli")) is not None
    assert "plan/coffin" in plan.variants_of("rite/shisangli")
    assert plan.box("place/si", plan.variants_of("rite/shisangli")) is not None  # 肂
    assert plan.box("place/mu", plan.variants_of("rite/jixili")) is not None  # 墓
    assert plan.box("place/tan", plan.variants_of("rite/jinli")) is not None  # 坛
    assert plan.variants_of("rite/shiguanli") == ["plan/house"]


# Places an act uses: directly, as the anchor of a position, or where its agent ends up. (Each
# branch binds ?p itself: a BIND of an outer variable inside a UNION sees it unbound.)
USED_PLACES = """SELECT DISTINCT ?p WHERE {
  { ?a a lj:RitualAct ; (lj:location|lj:source|lj:destination|lj:setAt) ?p }
  UNION { ?a a lj:RitualAct ; (lj:location|lj:source|lj:destination|lj:setAt) ?s .
          ?s lj:relativeTo ?p }
  UNION { ?a a lj:RitualAct ; lj:agentPosition ?x .
          { ?x lj:atPlace ?p } UNION { ?x lj:relativeTo ?p } }
  ?p a lj:Place }"""


def off_the_plans(db, rite: str | None = None) -> list[str]:
    """Places the acts use that neither the plans (the rite's, or any) nor lj:offPlan hold."""
    plan = load_plan()
    variants = plan.variants_of(rite) if rite else list(plan.variants)
    placed = set(plan.boxes) | {k for v in variants for k in plan.variants[v].boxes}
    used = [tail(r["p"]) for r in select(db, USED_PLACES)]
    assert len(used) > 15  # the query finds the acts' places at all
    return [p for p in used if f"place/{p}" not in placed | set(plan.off_plan)]


def test_every_place_an_act_uses_in_the_seeds_is_on_the_plan_or_says_why(seeds_db) -> None:
    assert not off_the_plans(seeds_db)


def test_every_place_an_unseen_chapter_uses_is_on_its_plans_or_says_why(written_db) -> None:
    assert not off_the_plans(written_db, "rite/shisangli")


# -- where each agent stands ----------------------------------------------------------------


def test_up_the_west_stairs_and_down_again() -> None:
    got = positions("司射升自西阶北面告于宾宾许诺司射降")
    assert got[0] == [("sishe", "xijie", "上")]
    assert got[1] == [("sishe", "xijie", "上")]  # 告: he stays where he is
    assert got[2] == []  # the guest: nothing says where he is
    assert got[3] == [("sishe", "xijie", "下")]  # down the stairs he went up by


def test_inside_the_gate_on_the_walkers_side() -> None:
    got = positions("宾入门左主人入门右")
    assert got == [[("bin", "mennei", "西")], [("zhuren", "mennei", "东")]]
    out = positions("宾出门左")
    assert out == [[("bin", "menwai", "东")]]  # leaving, his left is east


def test_to_a_place_and_back_to_his_place() -> None:
    got = positions("主人即位于阼阶东南西面主人适西阶主人反位")
    assert got[0] and got[0][0][1] in ("zuojie", "jiedong")
    assert got[1] == [("zhuren", "xijie", None)]
    assert got[2] == got[0]  # 反位: back where he took his place


def test_no_guesses_where_the_text_is_silent() -> None:
    got = positions("宾退主人拜")
    assert got == [[], []]
    lost = positions("宾升自西阶宾适")  # he goes somewhere the text does not name
    assert lost[0] and lost[1] == []


def test_a_group_is_one_position() -> None:
    got = positions("众宾立于堂下西面北上")
    assert got == [[("zhongbin", "tangxia", None)]]


def test_a_bare_stair_spot_is_the_stair_he_used() -> None:
    got = positions("司射升自阼阶阶上北面告于主人")
    assert got[-1] == [("sishe", "zuojie", "上")]


def test_where_he_stands_to_set_a_thing_down_and_a_small_step() -> None:
    got = positions("主人适洗南主人阼阶上北面奠爵于荐西主人少退")
    assert got[1] == [("zhuren", "zuojie", "上")]  # named before the verb: where he kneels
    assert got[2] == got[1]  # 少退: a step back, not a move elsewhere
    kept = positions("主人适洗南奠爵于篚")
    assert kept[1] == kept[0]  # after the verb: where the cup goes, not where he goes


def test_a_spot_beside_a_stair_wins_over_a_line_to_the_beam() -> None:
    got = positions("主人阼阶上当楣北面再拜")
    assert got == [[("zhuren", "zuojie", "上")]]


def test_seed_acts_get_positions(seeds_db) -> None:
    counts = select(
        seeds_db,
        """SELECT (COUNT(DISTINCT ?a) AS ?all) (COUNT(DISTINCT ?b) AS ?placed) WHERE {
             ?a a lj:RitualAct . OPTIONAL { ?a lj:agentPosition ?p . BIND(?a AS ?b) } }""",
    )[0]
    assert int(counts["placed"]) > 0.5 * int(counts["all"])
    # each position names who stands there and the act whose words put him there
    bad = select(
        seeds_db,
        """SELECT ?p WHERE { ?a lj:agentPosition ?p .
             FILTER NOT EXISTS { ?p lj:positionOf ?r ; lj:positionFrom ?f ; lj:positionBasis ?b } }
           LIMIT 3""",
    )
    assert not bad


# -- kg plan ------------------------------------------------------------------------------


def test_every_section_with_acts_renders(seeds_db) -> None:
    sections = select(seeds_db, "SELECT DISTINCT ?s WHERE { ?s a lj:Section . ?a lj:inSection ?s }")
    assert len(sections) > 50
    drawn_roles = 0
    for r in sections:
        scene = section_scene(seeds_db, r["s"])
        svg = ElementTree.fromstring(render(scene))
        groups = svg.findall(f".//{SVG}g[@class='plan-step']")
        assert len(groups) == len(scene.steps)
        visible = [g for g in groups if g.get("display") != "none"]
        assert len(visible) == 1
        drawn_roles += len(visible[0].findall(f"{SVG}circle"))
    assert drawn_roles > len(sections)


def test_kg_plan_writes_one_step(seeds_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "qingshe.svg"
    args = ["plan", "乡射礼/请射", "--store", str(seeds_store), "-o", str(out), "--step", "7"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    svg = ElementTree.parse(out).getroot()
    groups = svg.findall(f".//{SVG}g[@class='plan-step']")
    assert [g.get("data-step") for g in groups] == ["7"]
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "司射" in texts and "西阶" in texts  # Chinese labels as SVG text
    assert svg.findall(f".//{SVG}line[@class='plan-facing']")  # 北面告于宾


def test_kg_plan_draws_the_busiest_section_of_an_unseen_chapter(
    written_db, written_store: Path, tmp_path: Path
) -> None:
    busiest = select(
        written_db,
        """SELECT ?s (COUNT(?a) AS ?n) WHERE { ?a lj:inSection ?s } GROUP BY ?s
           ORDER BY DESC(?n) LIMIT 1""",
    )[0]
    assert int(busiest["n"]) >= 15
    out = tmp_path / "busiest.svg"
    args = ["plan", busiest["s"], "--store", str(written_store), "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    svg = ElementTree.parse(out).getroot()
    groups = svg.findall(f".//{SVG}g[@class='plan-step']")
    assert len(groups) == int(busiest["n"]) + 1  # the state before and after each act
    last = [t.text for t in groups[-1].iter(f"{SVG}text")]
    assert "商祝" in last  # he came in (入) with the cloth: drawn where he stands
    assert svg.findall(f".//{SVG}line[@class='plan-move']")
    # 受贝奠于尸西: the 奠 names no thing; the 贝 in his hand is drawn west of the body
    scene = section_scene(written_db, busiest["s"])
    assert "贝" in [m.label for m in scene.steps[-1].things]


def test_sections_whose_titles_sound_alike_are_two_sections(written_db) -> None:
    # 士丧礼's 复 (calling the soul back) and 赴 (the announcement) are both fu in pinyin
    rows = select(
        written_db,
        """SELECT ?s (COUNT(DISTINCT ?title) AS ?n) WHERE { ?s a lj:Section ; lj:title ?title }
           GROUP BY ?s""",
    )
    assert len(rows) >= 7 and all(r["n"] == "1" for r in rows)


def test_kg_plan_refuses_a_bad_step_or_section(seeds_store: Path) -> None:
    run = CliRunner().invoke
    bad = run(cli, ["plan", "乡射礼/请射", "--store", str(seeds_store), "--step", "999"])
    assert bad.exit_code == 1 and "step 999" in bad.output
    none = run(cli, ["plan", "乡射礼/没有", "--store", str(seeds_store)])
    assert none.exit_code == 1 and "no such section" in none.output


def test_movement_arrows_and_things_set_down(seeds_db) -> None:
    iri = find_section(seeds_db, "乡射礼/请射")
    scene = section_scene(seeds_db, iri)
    assert any(m.came_from for s in scene.steps for m in s.roles)  # someone moved
    svg = ElementTree.fromstring(render(scene))
    assert svg.findall(f".//{SVG}line[@class='plan-move']")


def test_labels_are_escaped() -> None:
    evil = '<script>alert("x")</script>&'
    step = Step(1, evil, evil, [Mark("urn:x", evil, 0, 0, "北")], [Mark("urn:y", evil, 5, 5)])
    scene = Scene("urn:s", evil, ["plan/house"], [Step(0, "", ""), step], [])
    svg = render(scene)
    assert "<script>" not in svg
    assert ElementTree.fromstring(svg).find(f".//{SVG}title").text == evil


@pytest.mark.parametrize("step", [0, 1])
def test_step_zero_is_before_the_first_act(seeds_db, step: int) -> None:
    scene = section_scene(seeds_db, find_section(seeds_db, "乡射礼/请射"))
    svg = ElementTree.fromstring(render(scene, step))
    (group,) = svg.findall(f".//{SVG}g[@class='plan-step']")
    assert group.get("data-step") == str(step)


# -- the tracks task ------------------------------------------------------------------------


def test_the_annotated_positions_are_reproduced() -> None:
    from kg.eval.tasks import TASKS

    report = TASKS["tracks"].score(TASKS["tracks"].path("dev"))
    score = report.scores["position"]["all"]
    assert score.tp + score.fn >= 40  # the gold has at least 40 positions
    assert score.precision >= 0.9 and score.recall >= 0.8


def test_a_gold_clause_not_in_its_text_is_an_input_error(tmp_path: Path) -> None:
    import json

    from kg.errors import InputError
    from kg.eval.tracks import evaluate_tracks

    bad = tmp_path / "tracks.jsonl"
    unit = {"id": "x", "text": "宾升自西阶", "positions": [{"clause": "主人降", "role": "zhuren"}]}
    bad.write_text(json.dumps(unit, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"tracks\.jsonl:1"):
        evaluate_tracks(bad)
