"""Rasterise a few board pictures to PNG for the documentation (docs/images/).

A development tool: it needs ``rsvg-convert`` (Debian/Ubuntu: ``apt-get install librsvg2-bin``)
or, failing that, Chromium. The pictures are drawn by gammon itself (``Position.to_svg``), so
run it after the engine is built: ``python tools/screenshots.py [OUT_DIR] [--width PX]``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from gammon import Position, read_position
from gammon import battlegammon as bg


def pictures() -> dict[str, str]:
    """Each picture's file name (without .png) and its SVG."""
    p = Position.initial()
    match = read_position("XGID=-b----E-C---eE---c-e----B-:1:1:1:31:2:4:0:7:10").match
    assert match is not None
    start = bg.Position.initial()
    play = next(q for q in start.legal_plays(4, 2) if q.moves == ((20, 16), (19, 17)))
    return {
        "board-opening-31": p.to_svg((3, 1), play="8/5 6/5", names=("White", "Black")),
        "board-match": match.to_svg(),
        "battlegammon-track": start.to_svg((4, 2), play=play),
    }


def rasterise(svg: Path, png: Path, width: int) -> None:
    """``svg`` written as ``png``, ``width`` pixels wide."""
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", "-w", str(width), "-o", str(png), str(svg)], check=True)
        return
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("neither rsvg-convert (apt-get install librsvg2-bin) nor Chromium is installed")
    # Chromium sizes the page, not the picture: the SVG is shown in a page as wide as asked.
    page = svg.with_suffix(".html")
    page.write_text(
        f'<html><body style="margin:0"><img src="{svg.name}" style="width:{width}px"></body></html>'
    )
    subprocess.run(
        [
            chromium,
            "--headless",
            "--disable-gpu",
            f"--screenshot={png}",
            f"--window-size={width},{width}",
            str(page),
        ],
        check=True,
        capture_output=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "out", nargs="?", default="docs/images", help="folder of the PNGs (default docs/images)"
    )
    parser.add_argument("--width", type=int, default=480, help="width in pixels (default 480)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in pictures().items():
            svg = Path(tmp) / f"{name}.svg"
            svg.write_text(text, encoding="utf-8")
            png = out / f"{name}.png"
            rasterise(svg, png, args.width)
            print(f"{png}: {png.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
