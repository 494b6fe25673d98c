"""``/search?q=…``: a phrase in the book and in concept names, as a page of hits (HTML) or
``{"hits": [{"iri", "snippet", "kind", …}, …]}`` for ``Accept: application/json``.

Bounded like the endpoint: the job runs on a worker under the query timeout, a page holds
at most ``MAX_SIZE`` hits, and no page starts past the row limit."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kg.server.errors import HttpError
from kg.server.formats import negotiate
from kg.server.pages import Linker, error_page, templates

SIZE, MAX_SIZE = 20, 100
MAX_PHRASE = 100  # characters


def _int(request: Request, name: str, default: int, lo: int, hi: int) -> int:
    raw = request.query_params.get(name, "")
    try:
        value = int(raw) if raw else default
    except ValueError:
        raise HttpError(400, f"{name} must be a whole number, not {raw[:20]!r}") from None
    if not lo <= value <= hi:
        raise HttpError(400, f"{name} must be from {lo} to {hi}")
    return value


def _marked(hit: dict[str, Any]) -> list[tuple[str, bool]]:
    """The snippet as (text, is_match) pieces, for the template to escape and mark."""
    text, out, at = hit["snippet"], [], 0
    for start, end in hit["marks"]:
        out += [(text[at:start], False), (text[start:end], True)]
        at = end
    return [*out, (text[at:], False)]


async def search(request: Request) -> Response:
    ctx = request.app.state.kg
    wants_json = (
        negotiate(request.headers.get("accept"), {"text/html": "html", "application/json": "json"})
        == "application/json"
    )
    phrase = request.query_params.get("q", "").strip()
    try:
        if len(phrase) > MAX_PHRASE:
            raise HttpError(400, f"a search phrase is at most {MAX_PHRASE} characters")
        size = _int(request, "size", SIZE, 1, MAX_SIZE)
        page = _int(request, "page", 1, 1, max(1, ctx.config.limit // size))
        found = (
            await ctx.run(
                "search",
                {"phrase": phrase, "offset": (page - 1) * size, "size": size},
                request=request,
            )
            if phrase
            else {"query": "", "normalized": "", "total": 0, "names": 0, "hits": []}
        )
        base = (await ctx.stats())["base"]
    except HttpError as e:
        if wants_json:
            return JSONResponse({"error": e.message}, e.status)
        return error_page(request, e.status, e.message)
    more = page * size < found["total"]
    if wants_json:
        return JSONResponse(
            {**found, "page": page, "size": size, "more": more}, headers={"Vary": "Accept"}
        )
    link = Linker(request, base)

    def at(n: int) -> str:
        return "?" + urlencode({"q": phrase, "page": n, **({"size": size} if size != SIZE else {})})

    return templates.TemplateResponse(
        request,
        "search.html",
        {
            "found": found,
            "hits": [
                {
                    **h,
                    "href": link.href(h["iri"]),
                    "pieces": _marked(h),
                    "section_href": h["section"] and link.href(h["section"]),
                }
                for h in found["hits"]
            ],
            "page": page,
            "first": (page - 1) * size + 1,
            "prev": at(page - 1) if page > 1 else None,
            "next": at(page + 1) if more else None,
        },
        headers={"Vary": "Accept"},
    )
