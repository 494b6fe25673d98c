"""Full dumps for download: N-Quads, TriG, Turtle, JSON-LD, each also gzip-compressed.

Written from the store by a worker on first request and cached beside the store, one
folder per build (``.store.dumps/<build>/`` next to the ``store`` link; a temporary folder
if that is not writable), so a new build gets new dumps and old ones are removed.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from kg.server.errors import HttpError
from kg.server.formats import CONTENT_TYPES, DUMPS


class DumpCache:
    def __init__(self, store_link: Path, folder: Path | None) -> None:
        self.root = folder or store_link.parent / f".{store_link.name}.dumps"
        self._fallback: Path | None = None
        self._locks: dict[str, asyncio.Lock] = {}

    def folder(self, build: str) -> Path:
        """The cache folder of one build (created; older builds' folders removed)."""
        for root in (self.root, self._tmp()):
            here = root / Path(build).name
            try:
                here.mkdir(parents=True, exist_ok=True)
            except OSError:
                continue
            for old in root.iterdir():
                if old != here and old.is_dir():
                    shutil.rmtree(old, ignore_errors=True)
            return here
        raise HttpError(500, "no writable folder for dumps")

    def _tmp(self) -> Path:
        if self._fallback is None:
            self._fallback = Path(tempfile.mkdtemp(prefix="kg-dumps-"))
        return self._fallback

    async def get(self, request: Request, name: str) -> Path:
        ctx = request.app.state.kg
        build = ctx.store_path()
        path = self.folder(build) / name
        lock = self._locks.setdefault(str(path), asyncio.Lock())
        async with lock:
            if not path.is_file():
                fmt, compress = DUMPS[name]
                await ctx.run(
                    "dump",
                    {"fmt": fmt, "path": str(path), "compress": compress},
                    timeout=ctx.config.dump_timeout,
                )
        return path


async def download(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in DUMPS:
        return Response("no such dump\n", 404, media_type="text/plain; charset=utf-8")
    cache: DumpCache = request.app.state.dumps
    try:
        path = await cache.get(request, name)
    except HttpError as e:
        return Response(e.message + "\n", e.status, media_type="text/plain; charset=utf-8")
    fmt, compress = DUMPS[name]
    media = "application/gzip" if compress else CONTENT_TYPES[fmt]
    return FileResponse(path, media_type=media, filename=name)
