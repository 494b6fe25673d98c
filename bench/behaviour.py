"""Save or compare what the code does: the sorted N-Quads of a seeds build, byte for byte, its
report (counts and every issue, without the seconds) and every `kg eval` figure. A refactoring
or a speed-up (issue 19) must leave all three unchanged.

    .venv/bin/python bench/behaviour.py save /tmp/behaviour     # before
    .venv/bin/python bench/behaviour.py check /tmp/behaviour    # after: exit 1 on a difference

To save what other code does (the code before a change) on this checkout's seeds, put that
code first on PYTHONPATH: ``PYTHONPATH=/tmp/base .venv/bin/python bench/behaviour.py save …``
(``git archive main | tar -x -C /tmp/base`` makes such a copy).
"""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KG = [str(Path(sys.executable).parent / "kg")]
_TIMED = re.compile(r"^(Built .* in [\d.]+ s|\s*seconds: .*)$")


def run(*args: str, stderr: bool = False) -> str:
    done = subprocess.run([*KG, *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"kg {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout + (done.stderr if stderr else "")


def _checkout(text: str) -> str:
    """This checkout's path (where seeds/ is read) and the seconds left out."""
    text = text.replace(str(ROOT), "<ROOT>")
    return "".join(ln for ln in text.splitlines(True) if not _TIMED.match(ln))


def snapshot() -> dict[str, str]:
    with tempfile.TemporaryDirectory() as scratch:
        store = str(Path(scratch) / "store")
        report = run("build", "-v", "--store", store, stderr=True).replace(scratch, "<TMP>")
        quads = run("export", "-f", "nquads", "--store", store)
    lines = sorted(_checkout(quads).splitlines())
    return {
        "seeds.nq": "\n".join(lines) + "\n",
        "build.txt": _checkout(report),
        "eval.txt": run("eval"),
    }


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
        if not (folder / name).is_file():
            sys.exit(f"{folder / name}: not saved (save again from the code before the change)")
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
