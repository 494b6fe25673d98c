"""Helpers for the word lists of the pattern files: a regex alternation of words."""

from __future__ import annotations

import re
from collections.abc import Iterable


def alternation(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, the longest first (so 愚按 wins over 按).

    >>> alternation(["按", "愚按", "谨按"])
    '愚按|谨按|按'
    """
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))
