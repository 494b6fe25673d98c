"""One language switch for the site's interface words (中文 / English).

The language is ``?lang=zh|en`` (remembered in a cookie), else the cookie, else the browser's
Accept-Language. Templates call ``t("English words")``: the words themselves in English, their
Chinese from ``words.toml``. Data keeps its own languages; labels are chosen separately.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LANGS = {"zh": "中文", "en": "English"}
COOKIE = "lang"


@cache
def words() -> dict[str, str]:
    """English words → Chinese (``kg/server/words.toml``)."""
    data = tomllib.loads((Path(__file__).parent / "words.toml").read_text(encoding="utf-8"))
    return {k: v for table in data.values() for k, v in table.items()}


def lang_of(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked in LANGS:
        return asked
    kept = request.cookies.get(COOKIE)
    if kept in LANGS:
        return kept
    accept = request.headers.get("accept-language", "").lower()
    first = accept.split(",", 1)[0].strip()
    return "zh" if first.startswith("zh") else "en"


def context(request: Request) -> dict[str, Any]:
    """What every template gets: the language, ``t`` and the switch's links."""
    lang = lang_of(request)
    table = words()

    def t(text: str) -> str:
        return table.get(text, text) if lang == "zh" else text

    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    switch = {code: request.url.path + "?" + urlencode({**params, "lang": code}) for code in LANGS}
    return {"lang": lang, "t": t, "langs": LANGS, "switch": switch}


class RememberLanguage:
    """``?lang=`` sets the cookie, so the next page is in the same language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = None
        if scope["type"] == "http":
            for part in scope.get("query_string", b"").decode("latin-1").split("&"):
                key, _, value = part.partition("=")
                if key == "lang" and value in LANGS:
                    asked = value
        if asked is None:
            return await self.app(scope, receive, send)

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                cookie = f"{COOKIE}={asked}; Path=/; Max-Age=31536000; SameSite=Lax"
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (b"set-cookie", cookie.encode())],
                }
            await send(message)

        await self.app(scope, receive, with_cookie)
