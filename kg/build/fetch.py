"""``--source kanripo:KR1d0028``: a Kanripo text fetched once into a cache, then read there.

The public repository (``https://github.com/kanripo/{id}``; ``$KG_KANRIPO_URL``, a template
with ``{id}``, points elsewhere: tests use a local git repository) is cloned with the ``git``
CLI into ``<cache>/kanripo/<id>``: ``--cache DIR``, else ``$KG_CACHE``, else ``cache/`` beside
the store (``.kg/cache`` for the default store ``.kg/store``). A clone that exists is reused
with no network; a clone is made in a temporary folder and renamed when complete, so an
interrupted one is never taken for the text. Offline, an unknown id or no git: one KgError.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from kg.errors import KgError

SCHEME = "kanripo:"
KANRIPO_URL = "https://github.com/kanripo/{id}"
TIMEOUT = 600  # seconds for one clone: a whole Kanripo text is a few MB
_ID = re.compile(r"^KR[0-9][a-z][0-9]{4}[a-z]?$")  # KR1d0028


def is_kanripo(spec: str | Path) -> bool:
    return isinstance(spec, str) and spec.startswith(SCHEME)


def cache_dir(store: Path, cache: Path | None = None) -> Path:
    if cache is not None:
        return cache
    env = os.environ.get("KG_CACHE")
    return Path(env) if env else store.parent / "cache"


def resolve_sources(specs: list[str | Path], store: Path, cache: Path | None = None) -> list[Path]:
    """Files and folders as given; each ``kanripo:ID`` replaced by the juan files of its clone."""
    out: list[Path] = []
    for spec in specs:
        if is_kanripo(spec):
            text_id = str(spec)[len(SCHEME) :]
            out.extend(kanripo_files(fetch_kanripo(text_id, cache_dir(store, cache)), text_id))
        else:
            out.append(Path(spec))
    return out


def kanripo_files(clone: Path, text_id: str) -> list[Path]:
    """The juan files of a clone (``KR1d0028_001.txt`` …): not its Readme or other files."""
    files = sorted(clone.glob(f"{text_id}_*.txt"))
    if not files:
        raise KgError(f"{SCHEME}{text_id}: no {text_id}_NNN.txt files in {clone}")
    return files


def fetch_kanripo(text_id: str, cache: Path) -> Path:
    """The clone of one Kanripo text in ``cache``, made if it is not there yet."""
    if not _ID.match(text_id):
        raise KgError(f"{SCHEME}{text_id}: not a Kanripo id (they look like KR1d0028)")
    dest = cache / "kanripo" / text_id
    if (dest / ".git").is_dir():
        return dest
    url = os.environ.get("KG_KANRIPO_URL", KANRIPO_URL).replace("{id}", text_id)
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f".{text_id}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        _clone(url, partial, f"{SCHEME}{text_id}")
        try:
            partial.rename(dest)
        except OSError:  # another build made it meanwhile
            if not (dest / ".git").is_dir():
                raise KgError(f"{SCHEME}{text_id}: cannot write the clone to {dest}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return dest


def _clone(url: str, into: Path, what: str) -> None:
    # no credential helper and no prompt: a public text needs none, and a missing repository
    # must fail at once rather than ask for a password
    cmd = ["git", "-c", "credential.helper=", "clone", "--quiet", "--depth", "1", url, str(into)]
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    except FileNotFoundError:
        raise KgError(f"{what}: fetching needs git, which is not installed") from None
    except subprocess.TimeoutExpired:
        raise KgError(f"{what}: no answer from {url} in {TIMEOUT} s (offline?)") from None
    if done.returncode != 0:
        lines = [ln.strip() for ln in done.stderr.splitlines() if ln.strip()]
        why = lines[-1] if lines else f"git exit {done.returncode}"
        raise KgError(f"{what}: cannot fetch {url} (offline, or no public text of that id?): {why}")
