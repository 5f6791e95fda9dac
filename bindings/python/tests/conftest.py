"""Shared fixtures. The package is imported from this checkout (bindings/python), whatever PYTHONPATH says;
the library is MOA_LIBRARY or the checkout's build/lib/libmoa.so (see moa/_lib.py)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import moa  # noqa: E402

SIDEBAR = """
sidebar.left == 0
sidebar.top == 0
sidebar.bottom == 0
sidebar.width == 200
content.left == sidebar.right
content.right == 0
content.top == 0
content.bottom == 0
"""


def near(a, b, eps=1e-6):
    """abs(a - b) <= eps, elementwise for tuples (Rects)."""
    if isinstance(a, tuple):
        return len(a) == len(b) and all(near(x, y, eps) for x, y in zip(a, b))
    return abs(a - b) <= eps


class Sidebar:
    """A 320 x 480 layout with a 200-wide sidebar and the content beside it (the README's)."""

    def __init__(self):
        self.L = moa.Layout(320, 480)
        self.sidebar = self.L.view("sidebar")
        self.content = self.L.view("content")
        self.cs = self.L.eqs(SIDEBAR.strip())
        self.L.solve()


@pytest.fixture
def sb():
    s = Sidebar()
    yield s
    s.L.close()


@pytest.fixture
def calculator():
    """Two 320-wide panels below a 160-high display and a pan driver over their left edges (test_motion.c)."""
    L = moa.Layout(320, 480)
    for name in ("display", "basic", "advanced"):
        L.view(name)
    cs = L.eqs("""display.left == 0
display.right == 0
display.top == 0
display.height == 160
basic.left == 0
advanced.left == 320
basic.width == root.width
advanced.width == root.width
basic.top == display.bottom
advanced.top == display.bottom
basic.bottom == 0
advanced.bottom == 0""")
    L.solve()
    pan = L.pan([cs[4], cs[5]], "horizontal", [0, -320])
    yield L, pan, L["basic"], L["advanced"]
    L.close()
