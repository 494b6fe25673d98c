"""ASCII slugs from Chinese names (pinyin), shared by the readers (minted rites) and the IRIs."""

from __future__ import annotations

import hashlib
import re

from pypinyin import lazy_pinyin

from kg.text.normalize import normalize

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """ASCII slug from pinyin of the normalized text; a short hash if nothing is left.

    >>> slugify("主人献衆宾")
    'zhurenxianzhongbin'
    """
    slug = _NOT_SLUG.sub("", "".join(lazy_pinyin(normalize(text))).lower())
    return slug or "x" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]
