#!/usr/bin/env python3
"""A sidebar beside its content, collapsed with an animation on a clock this script advances; prints the frames.

    make demo-python
    # or, from the repository root after `make lib`:
    PYTHONPATH=bindings/python python3 examples/python/layout.py
"""
import os
import sys

# Run from a checkout without installing: the package lives in bindings/python.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python"))

import moa  # noqa: E402


def show(L, label):
    print("%-16s" % label, "  ".join("%s %g,%g %gx%g" % (f.name, f.frame.x, f.frame.y, f.frame.width, f.frame.height)
                                    for f in L.frames()[1:]))


def main():
    with moa.Layout(320, 480) as L:
        sidebar, content = L.view("sidebar"), L.view("content")
        cs = L.eqs("""
            sidebar.left == 0
            sidebar.top == 0
            sidebar.bottom == 0
            sidebar.width == 200
            content.left == sidebar.right
            content.right == 0
            content.top == 0
            content.bottom == 0
        """)
        L.solve()
        show(L, "shown")

        # A mistake in an equation names the line, the offset and a suggestion.
        try:
            L.eq("sidebar.widht == 180")
        except moa.ParseError as e:
            print("parse error: line %d, byte %d, did you mean %r?" % (e.line, e.offset, e.suggestion))

        # Collapse the sidebar to the left over 0.3 s; the content follows, frame by frame.
        col = L.collapsible(sidebar, cs[0], "left")
        col.toggle(duration=0.3, curve="easeInOut", done=lambda finished: print("collapsed, finished =", finished))
        for _ in range(4):
            L.advance(0.1)
            show(L, "t = %.1f s" % L.time)

        # Show it again without animation.
        col.show(animated=False)
        L.advance(0)
        show(L, "shown again")


if __name__ == "__main__":
    main()
