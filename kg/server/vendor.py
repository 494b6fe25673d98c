"""The vendored browser files (``kg/server/vendor.toml``): rebuild them from the npm registry,
or check that what is served is what the manifest pins.

``python -m kg.server.vendor``          fetch with ``npm pack`` and write the files and hashes
``python -m kg.server.vendor --check``  exit 1 if a served file differs from its pinned hash
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).parent
MANIFEST = HERE / "vendor.toml"
VENDOR = HERE / "static" / "vendor"
_SOURCE_MAP = re.compile(rb"\n?/[/*]# sourceMappingURL=\S+(?: \*/)?\s*$")


def load() -> dict[str, dict]:
    return tomllib.loads(MANIFEST.read_text(encoding="utf-8"))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def mismatches() -> list[str]:
    """Vendored files missing or not matching their pinned hash."""
    bad = []
    for name, pkg in load().items():
        for target in pkg["files"].values():
            path = VENDOR / name / target
            want = pkg.get("sha256", {}).get(target)
            if not path.is_file() or digest(path) != want:
                bad.append(f"{name}/{target}")
    return bad


def fetch(name: str, pkg: dict) -> dict[str, str]:
    """``npm pack`` the pinned version, copy its built files (source-map comment removed)."""
    out = VENDOR / name
    out.mkdir(parents=True, exist_ok=True)
    hashes = {}
    with tempfile.TemporaryDirectory() as tmp:
        spec = f"{pkg['package']}@{pkg['version']}"
        subprocess.run(["npm", "pack", spec, "--silent"], cwd=tmp, check=True, timeout=300)
        (tarball,) = Path(tmp).glob("*.tgz")
        with tarfile.open(tarball) as tar:
            for source, target in pkg["files"].items():
                member = tar.extractfile(f"package/{source}")
                assert member is not None, f"{spec} has no {source}"
                (out / target).write_bytes(_SOURCE_MAP.sub(b"\n", member.read()))
                hashes[target] = digest(out / target)
    return hashes


def _write_hashes(all_hashes: dict[str, dict[str, str]]) -> None:
    text = MANIFEST.read_text(encoding="utf-8")
    for name, hashes in all_hashes.items():
        table = "\n".join(f'"{k}" = "{v}"' for k, v in sorted(hashes.items()))
        text = re.sub(rf"\[{name}\.sha256\]\n(?:\"[^\n]*\n)*", f"[{name}.sha256]\n{table}\n", text)
    MANIFEST.write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    if "--check" in argv:
        bad = mismatches()
        for b in bad:
            print(f"vendored file differs from kg/server/vendor.toml: {b}", file=sys.stderr)
        return 1 if bad else 0
    _write_hashes({name: fetch(name, pkg) for name, pkg in load().items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
