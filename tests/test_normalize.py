"""Normalization: variants folded, traditional simplified, one character for one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kg.text.normalize import load_variants, normalize, skeleton


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
