"""Normalization: variants folded, traditional simplified, one character for one."""

from __future__ import annotations

from pathlib import Path

import opencc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.build.run import build
from kg.text.document import Document
from kg.text.normalize import load_variants, normalize, skeleton
from kg.text.residue import Residue
from kg.text.variant_source import ANY, VariantSource, is_common, load_deny, source_table


def test_variant_table_entries_apply() -> None:
    table = load_variants()
    assert {"賔", "衆", "於", "髙", "徳", "乗", "逺", "説", "壻", "聴"} <= set(table)
    for src, dst in table.items():
        assert normalize(src) == dst


def test_design_examples() -> None:
    assert normalize("賔衆於髙徳乗逺説壻聴毎絶") == "宾众于高德乘远说婿听每绝"
    assert normalize("郝仲與") == normalize("郝仲与") == "郝仲与"
    assert normalize("鄉射禮") == "乡射礼"


def test_characters_outside_the_bmp_survive() -> None:
    assert normalize("𤣥冠") == "玄冠"
    assert normalize("𠮷") == "𠮷"  # unknown astral character: kept as is


@given(st.text())
def test_length_is_preserved(text: str) -> None:
    assert len(normalize(text)) == len(text)


def test_skeleton_keeps_only_characters() -> None:
    assert skeleton("司射【句】適堂西 ?\u3000") == "司射句适堂西"


# --- variant source (issue 15): Siku forms t2s misses, a deny list, the residue report ---

HAN = st.characters(min_codepoint=0x3400, max_codepoint=0x9FFF)


def test_siku_variants_are_normalized() -> None:
    # 䘮 and 矦 come from variants.tsv (the source lacks them), the rest from the source
    assert normalize("䘮服朞年") == "丧服期年"
    assert normalize("觧冩") == "解写"
    assert normalize("諸矦賛庿歩") == "诸侯赞庙步"
    assert normalize("昬禮鼔爼") == "昏礼鼓俎"


def test_the_source_maps_what_table_and_opencc_leave() -> None:
    t2s, table = opencc.OpenCC("t2s"), load_variants()
    for ch, want in {"庿": "庙", "賛": "赞", "歩": "步", "郷": "乡", "䟽": "疏"}.items():
        assert ch not in table and not is_common(t2s.convert(ch)), ch
        assert ch in source_table()
        assert normalize(ch) == want


@given(st.text(alphabet=HAN))
def test_length_is_preserved_on_han_text(text: str) -> None:
    assert len(normalize(text)) == len(text)


@given(st.text(alphabet=HAN, min_size=1, max_size=1))
def test_a_common_character_never_leaves_the_common_set(ch: str) -> None:
    # the source is asked only about rare characters, so it cannot move a common one
    # (云/雲, 后/後, 适/適, 余/餘 are OpenCC's business, not the source's)
    if is_common(ch):
        assert is_common(normalize(ch)) or normalize(ch) == ch


def test_deny_list_holds() -> None:
    deny = load_deny()
    assert {"脩", "匜", "扱", "鼏", "豋"} <= set(deny)
    for ch, refused in deny.items():
        out = normalize(ch)
        assert out not in refused, ch
        if ANY in refused:
            assert out == ch, ch
    assert normalize("束脩") == "束脩" and normalize("腶脩") == "腶脩"
    assert normalize("奉匜沃盥") == "奉匜沃盥"
    assert normalize("後雲適餘") == "后云适余"


def test_the_hand_table_does_not_contradict_the_deny_list() -> None:
    deny = load_deny()
    for ch, dst in load_variants().items():
        refused = deny.get(ch, frozenset())
        assert dst == ch or (dst not in refused and ANY not in refused), ch


def test_an_ambiguous_source_entry_is_not_taken() -> None:
    source = VariantSource({"甲": "閑間", "乙": "間", "丙": "間"}, {"丙": frozenset({"间"})})
    fold = opencc.OpenCC("t2s").convert
    assert source.pick("甲", fold) is None  # 闲 and 间: two words
    assert source.pick("乙", fold) == "间"
    assert source.pick("丙", fold) is None  # refused


def test_a_malformed_deny_row_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "deny.tsv"
    bad.write_text("# c\tr\twhy\n脩\t*\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"deny.tsv:2:"):
        load_deny(bad)


def test_residue_reports_each_character_once_with_count_and_first_line() -> None:
    residue = Residue()
    residue.add(Document(Path("a.txt"), "士冠礼\n韠纁䘮\n爵韠", "plain"))
    residue.add(Document(Path("b.txt"), "韠韐", "plain"))
    found = {i.message[0]: (p, i) for p, i in residue.issues()}
    assert set(found) == {"韠", "纁", "韐"}  # 䘮 is normalized, 士冠礼爵 are common
    path, issue = found["韠"]
    assert (path, issue.line, issue.kind) == (Path("a.txt"), 2, "unnormalized")
    assert "3 times" in issue.message and "U+97E0" in issue.message
    assert found["韐"][0] == Path("b.txt") and "1 time," in found["韐"][1].message
    assert next(i.message[0] for _, i in residue.issues()) == "韠"  # most frequent first


def test_build_reports_unnormalized_characters(tmp_path: Path) -> None:
    src = tmp_path / "x.txt"
    src.write_text("士冠礼\n\n主人玄冠朝服緇帶素韠即位于门东\n\n宾韠\n", encoding="utf-8")
    report = build([src], tmp_path / "store")
    found = [(p, i) for p, i in report.issues if i.kind == "unnormalized"]
    assert [(p.name, i.line, i.message[0]) for p, i in found] == [("x.txt", 3, "韠")]
    assert "2 times" in found[0][1].message
