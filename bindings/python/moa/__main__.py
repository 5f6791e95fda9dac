"""``python -m moa``: a small screen laid out, animated and drawn, as a quick check that the package works.

A 480 x 320 window: a sidebar beside the content; in the content a title (text that sizes itself) and a
toolbar, a stack of three buttons sharing its width. The sidebar collapses with an animation on a clock this demo
advances (0.1 s steps), shows again, and the window turns to portrait. The frames are printed, and the final
layout is written as an SVG picture (``moa-demo.svg`` in the current directory, or the path given with
``--out``).

    python -m moa                       # prints the frames, writes ./moa-demo.svg
    python -m moa --out /tmp/demo.svg   # elsewhere
    python -m moa --strip               # the SVG shows every frame of the animation side by side
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

import moa

SCREEN = """
sidebar.left == 0
sidebar.top == 0
sidebar.bottom == 0
sidebar.width == 160
content.left == sidebar.right
content.right == 0
content.top == 0
content.bottom == 0
title.left == content.left + 16
title.right == content.right - 16
title.top == content.top + 16
toolbar.left == content.left + 16
toolbar.right == content.right - 16
toolbar.top == title.bottom + 12
toolbar.height == 40
"""


def _rect(r: moa.Rect) -> str:
    return "%g,%g %gx%g" % (round(r.x, 1), round(r.y, 1), round(r.width, 1), round(r.height, 1))


def run(out: str, strip: bool = False, step: float = 0.1) -> list[str]:
    """Lay out the demo screen, animate it, write the SVG to `out`; returns the lines it printed."""
    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(line)
        print(line)

    def block(L: moa.Layout, label: str) -> None:
        w, h = L.root_size
        say("%s (%g x %g)" % (label, w, h))
        for f in L.frames()[1:]:
            say("  %-9s %s" % (f.name, _rect(f.root_frame)))

    with moa.Layout(480, 320) as L:
        sidebar, content = L.view("sidebar"), L.view("content")
        title = L.view("title", content)
        title.set_text("Moa: constraint layout", size=20)  # content that sizes itself: its height from the text
        toolbar = L.stack("toolbar", content, distribution="fillEqually", spacing=8)
        for name in ("open", "save", "share"):
            button = L.view(name, toolbar.view)
            button.set_intrinsic_size(64, 40)
            toolbar.add(button)
        cs = L.eqs(SCREEN.strip(), source="demo")
        L.solve()
        block(L, "shown")

        if strip:
            L.trace_start()
        collapse = L.collapsible(sidebar, cs[0], "left")
        finished: list[bool] = []
        collapse.collapse(duration=0.3, curve="easeInOut", done=finished.append)
        say("collapse (0.3 s, easeInOut, advanced by %g s)" % step)
        while L.animating:
            L.advance(step)
            say("  t = %.1f s  sidebar %s  content %s  open %s" % (
                L.time, _rect(sidebar.root_frame), _rect(content.root_frame), _rect(L["open"].root_frame)))
        say("  collapsed = %s, done(finished = %s)" % (collapse.collapsed, finished[0] if finished else None))

        collapse.show(animated=False)
        L.set_root_size(320, 480)
        L.solve()
        block(L, "shown again, portrait")
        if strip:
            L.trace_stop()
            svg = L.trace_svg_strip(max_frames=6)
        else:
            svg = L.svg()

        with open(out, "w", encoding="utf-8") as f:
            f.write(svg)
        say("wrote %s (%d bytes)" % (out, len(svg)))
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: ``python -m moa [--out PATH] [--strip]``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m moa", description="Moa's demo: a screen laid out, "
                                     "animated and drawn as SVG.")
    parser.add_argument("--out", default="moa-demo.svg", help="where to write the SVG (default: ./moa-demo.svg)")
    parser.add_argument("--strip", action="store_true", help="draw the animation's frames side by side")
    parser.add_argument("--version", action="version", version="moa %s (%s)" % (moa.version, moa.library_path))
    args = parser.parse_args(argv)
    print("moa %s, library %s" % (moa.version, moa.library_path))
    out = os.path.abspath(args.out)
    try:
        run(out, strip=args.strip)
    except OSError as e:
        print("python -m moa: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
