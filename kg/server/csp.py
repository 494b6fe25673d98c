"""The Content-Security-Policy of HTML pages, and the same policy admitting a page's own
inline ``<style>`` blocks by hash (the self-contained page `kg docs` writes)."""

from __future__ import annotations

import base64
import hashlib
import re

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
_STYLE = re.compile(r"<style(?:\s[^>]*)?>(.*?)</style>", re.S | re.I)


def with_inline_styles(html: str) -> str:
    """CSP that also allows exactly the ``<style>`` blocks of ``html`` (no 'unsafe-inline')."""
    hashes = sorted(
        {
            "'sha256-"
            + base64.b64encode(hashlib.sha256(m.group(1).encode()).digest()).decode()
            + "'"
            for m in _STYLE.finditer(html)
        }
    )
    if not hashes:
        return CSP
    return CSP.replace("style-src 'self'", "style-src 'self' " + " ".join(hashes), 1)
