"""Save or compare what the code does: the sorted N-Quads of a seeds build and every `kg eval`
figure. A refactoring must leave both unchanged.

    .venv/bin/python bench/behaviour.py save /tmp/behaviour     # before
    .venv/bin/python bench/behaviour.py check /tmp/behaviour    # after: exit 1 on a difference
"""

from __future__ import annotations

import difflib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KG = [str(Path(sys.executable).parent / "kg")]


def run(*args: str) -> str:
    done = subprocess.run([*KG, *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"kg {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def snapshot() -> dict[str, str]:
    with tempfile.TemporaryDirectory() as scratch:
        store = str(Path(scratch) / "store")
        run("build", "--store", store)
        quads = run("export", "-f", "nquads", "--store", store)
    lines = sorted(quads.replace(str(ROOT), "<ROOT>").splitlines())
    return {"seeds.nq": "\n".join(lines) + "\n", "eval.txt": run("eval")}


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in {"save", "check"}:
        sys.exit(__doc__)
    verb, folder = sys.argv[1], Path(sys.argv[2])
    current = snapshot()
    if verb == "save":
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in current.items():
            (folder / name).write_text(text, encoding="utf-8")
        print(f"saved {', '.join(current)} in {folder}")
        return
    changed = False
    for name, text in current.items():
        saved = (folder / name).read_text(encoding="utf-8")
        if saved != text:
            changed = True
            diff = difflib.unified_diff(saved.splitlines(), text.splitlines(), lineterm="", n=0)
            print(f"{name} differs:\n" + "\n".join(list(diff)[:40]))
    if changed:
        sys.exit(1)
    print(f"unchanged: {', '.join(current)}")


if __name__ == "__main__":
    main()
