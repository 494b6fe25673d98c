"""``kg plan SECTION``: the section drawn on the ground plan of the hall, as SVG."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.options import store_option


@click.command("plan")
@click.argument("section")
@click.option(
    "-o", "--output", type=click.Path(path_type=Path, dir_okay=False), help="Write the SVG here."
)
@click.option("--step", type=int, default=None, help="Only the state after act N (0: before).")
@store_option
def plan_command(section: str, output: Path | None, step: int | None, store: Path) -> None:
    """Draw SECTION (an IRI or chapter/section, e.g. 乡射礼/请射) on the plan: its roles where
    they stand, the moves, the way they face, the things set down."""
    from kg.errors import KgError
    from kg.export.plan_scene import find_section, section_scene
    from kg.export.plan_svg import render
    from kg.store import open_store

    db = open_store(store)
    scene = section_scene(db, find_section(db, section))
    try:
        svg = render(scene, step)
    except ValueError as e:
        raise KgError(str(e)) from None
    if output is None:
        click.echo(svg, nl=False)
        return
    output.write_text(svg, encoding="utf-8")
    click.echo(f"wrote {output} ({len(scene.steps) - 1} steps, {len(scene.variants)} plans)")
