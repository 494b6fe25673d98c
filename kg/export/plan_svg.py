"""A scene (``kg.export.plan_scene``) as SVG: the ground plan, the settings the rite adds,
and for each step the roles as labelled marks, the movement that step ends as an arrow, a
tick for the way each faces, and the things set down so far. Labels are SVG <text> in the
text's own characters; every string from the data is escaped.

One group ``<g class="plan-step" data-step="N">`` per state (0: before the first act); all
but the shown one carry ``display="none"``, which ``plan.js`` switches on a page.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from kg.export.plan_scene import Mark, Scene, Step, style
from kg.text.plan import Box, Plan, load_plan
from kg.text.vocab import load_concepts

FILL = {
    "ting": "#f5f1e8",
    "tang": "#eadfc8",
    "shi": "#dccbaa",
    "dongfang": "#dccbaa",
    "xifang": "#dccbaa",
}


class _Frame:
    """Plan units → pixels (north up)."""

    def __init__(self, boxes: list[Box]) -> None:
        d = style()["draw"]
        self.scale, m = d["scale"], d["margin"]
        self.x0 = min(b.x - b.width / 2 for b in boxes) - m
        self.x1 = max(b.x + b.width / 2 for b in boxes) + m
        self.y0 = min(b.y - b.height / 2 for b in boxes) - m
        self.y1 = max(b.y + b.height / 2 for b in boxes) + m + 8  # room for the title

    def x(self, x: float) -> float:
        return round((x - self.x0) * self.scale, 1)

    def y(self, y: float) -> float:
        return round((self.y1 - y) * self.scale, 1)

    def size(self) -> tuple[float, float]:
        return self.x(self.x1), self.y(self.y0)


def render(scene: Scene, step: int | None = None, plan: Plan | None = None) -> str:
    """The SVG document; ``step``: only the state after that act (0: before any)."""
    plan = plan or load_plan()
    frame = _Frame(_boxes(scene, plan))
    w, h = frame.size()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" class="plan" data-steps="{len(scene.steps) - 1}">',
        _defs(),
        f"<title>{escape(scene.label)}</title>",
        *_ground(scene, plan, frame),
    ]
    shown = len(scene.steps) - 1 if step is None else step
    if not 0 <= shown < len(scene.steps):
        raise ValueError(f"step {step}: the section has steps 0 to {len(scene.steps) - 1}")
    for s in scene.steps if step is None else [scene.steps[shown]]:
        parts.extend(_step(scene, s, frame, visible=s.order == shown))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _boxes(scene: Scene, plan: Plan) -> list[Box]:
    d = style()["draw"]
    keys = [
        f"place/{k}" for k in d["outline"] if k not in d["optional"] or f"place/{k}" in scene.places
    ]
    boxes = [b for k in keys if (b := plan.box(k)) is not None]
    for v in scene.variants:
        boxes.extend(plan.variants[v].boxes.values())
    for s in scene.steps:
        boxes.extend(Box(int(m.x), int(m.y), 2, 2) for m in s.roles + s.things)
    return boxes


def _drawn(slug: str, scene: Scene) -> bool:
    return slug not in style()["draw"]["optional"] or f"place/{slug}" in scene.places


def _defs() -> str:
    return (
        '<defs><marker id="plan-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0L10,5L0,10z" fill="#a23b2a"/></marker></defs>'
        "<style>text{font-family:'Noto Sans CJK SC','WenQuanYi Zen Hei','Source Han Sans SC',"
        "sans-serif}</style>"
    )


def _rect(frame: _Frame, b: Box, fill: str, stroke: str, dash: bool = False) -> str:
    x, y = frame.x(b.x - b.width / 2), frame.y(b.y + b.height / 2)
    w, h = round(b.width * frame.scale, 1), round(b.height * frame.scale, 1)
    extra = ' stroke-dasharray="4 3"' if dash else ""
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="1"{extra}/>'
    )


def _text(frame: _Frame, x: float, y: float, s: str, size: float, **attrs: str) -> str:
    more = "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
    px = round(size * frame.scale, 1)
    return (
        f'<text x="{frame.x(x)}" y="{frame.y(y)}" font-size="{px}" '
        f'text-anchor="middle"{more}>{escape(s)}</text>'
    )


def _ground(scene: Scene, plan: Plan, frame: _Frame) -> list[str]:
    """The house and the settings the rite adds, drawn once under every step."""
    d, font = style()["draw"], style()["draw"]["font"]
    out = ['<g class="plan-ground">']
    names = _place_names()
    for slug in d["outline"]:
        b = plan.box(f"place/{slug}")
        if b is not None and _drawn(slug, scene):
            out.append(_rect(frame, b, FILL.get(slug, "#e3d6bb"), "#8a7a5c"))
    for slug in d["points"]:
        b = plan.box(f"place/{slug}")
        if b is not None:
            r = round(1.2 * frame.scale, 1)
            out.append(f'<circle cx="{frame.x(b.x)}" cy="{frame.y(b.y)}" r="{r}" fill="#6b5b3e"/>')
    shown = {f"place/{s}" for s in d["labels"]}
    shown |= {k for k in scene.places if k.startswith("place/")}
    shown -= {f"place/{s}" for s in d["unlabelled"]}
    for key in sorted(shown):
        b = plan.box(key)
        if b is not None and key in names:
            y = b.y + (b.height / 2 - font if b.height > 3 * font else -font)
            out.append(_text(frame, b.x, y, names[key], font * 0.8, fill="#6b5b3e"))
    for v in scene.variants:
        for key, b in sorted(plan.variants[v].boxes.items()):
            if key.startswith("object/") or key in shown:
                out.append(_rect(frame, b, "none", "#3b6ea5", dash=True))
                label = names.get(key, key.rsplit("/", 1)[-1])
                out.append(_text(frame, b.x, b.y - font, label, font * 0.8, fill="#3b6ea5"))
    out.append("</g>")
    return out


def _place_names() -> dict[str, str]:
    names = {f"place/{s}": c.pref for s, c in load_concepts("places.ttl").items()}
    names.update({f"object/{s}": c.pref for s, c in load_concepts("objects.ttl").items()})
    return names


def _step(scene: Scene, s: Step, frame: _Frame, visible: bool) -> list[str]:
    d = style()["draw"]
    hide = "" if visible else ' display="none"'
    total = len(scene.steps) - 1
    title = f"{scene.label} · {s.order}/{total}" + (f" · {s.words}" if s.words else "")
    out = [f'<g class="plan-step" data-step="{s.order}"{hide}>']
    out.append(
        _text(frame, (frame.x0 + frame.x1) / 2, frame.y1 - 5, title, d["font"] * 1.1, fill="#222")
    )
    for m in s.things:
        half, side = 1.6, round(3.2 * frame.scale, 1)
        out.append(
            f'<rect x="{frame.x(m.x - half)}" y="{frame.y(m.y + half)}" '
            f'width="{side}" height="{side}" '
            f'fill="#7a9a52" class="plan-thing" data-key={quoteattr(m.key)}/>'
        )
        out.append(_text(frame, m.x, m.y - 3.6, m.label, d["font"] * 0.85, fill="#4d6a2c"))
    for m in _spread(s.roles):
        out.extend(_role(frame, m))
    out.append("</g>")
    return out


def _spread(marks: list[Mark]) -> list[Mark]:
    """Roles at one point (or close by) side by side, so each label reads."""
    gap = style()["draw"]["spread"]
    at: dict[tuple[float, float], list[Mark]] = {}
    for m in marks:
        near = next((p for p in at if abs(p[0] - m.x) < gap and abs(p[1] - m.y) < gap), None)
        at.setdefault(near or (m.x, m.y), []).append(m)
    out = []
    font = style()["draw"]["font"]
    for (x, y), group in at.items():
        widths = [max(gap, len(m.label) * font + 1) for m in group]  # each label's room
        left = x - sum(widths) / 2
        for m, w in zip(group, widths, strict=True):
            m.x, m.y = left + w / 2, y
            left += w
            out.append(m)
    return out


def _role(frame: _Frame, m: Mark) -> list[str]:
    d = style()["draw"]
    r = round(d["mark"] * frame.scale, 1)
    out = []
    if m.came_from is not None:
        out.append(
            f'<line x1="{frame.x(m.came_from[0])}" y1="{frame.y(m.came_from[1])}" '
            f'x2="{frame.x(m.x)}" y2="{frame.y(m.y)}" stroke="#a23b2a" stroke-width="2" '
            'marker-end="url(#plan-arrow)" class="plan-move"/>'
        )
    out.append(
        f'<circle cx="{frame.x(m.x)}" cy="{frame.y(m.y)}" r="{r}" fill="#c0392b" '
        f'stroke="#fff" class="plan-role" data-key={quoteattr(m.key)}/>'
    )
    vec = style()["facing"].get(m.facing or "")
    if vec is not None:
        t = d["tick"]
        out.append(
            f'<line x1="{frame.x(m.x)}" y1="{frame.y(m.y)}" x2="{frame.x(m.x + vec[0] * t)}" '
            f'y2="{frame.y(m.y + vec[1] * t)}" stroke="#222" stroke-width="2" '
            f'class="plan-facing" data-facing={quoteattr(m.facing or "")}/>'
        )
    out.append(_text(frame, m.x, m.y + d["mark"] + 0.8, m.label, d["font"], fill="#111"))
    return out
