"""Shared fixtures.

In the checkout (bindings/python/tests beside bindings/python/moa) the package is imported from the checkout,
whatever PYTHONPATH says; the library is MOA_LIBRARY or the checkout's build/lib/libmoa.so (see moa/_lib.py).
Copied elsewhere (scripts/test-wheel.sh runs a copy against an installed wheel), or with MOA_TEST_INSTALLED=1,
the tests import the installed package instead. A few tests read files of the Moa checkout (Include/moa.h,
examples/): SOURCE_ROOT, from MOA_SOURCE_ROOT, else the checkout these tests sit in."""
import os
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_BINDING = os.path.dirname(_HERE)
if os.path.isfile(os.path.join(_BINDING, "moa", "__init__.py")) and not os.environ.get("MOA_TEST_INSTALLED"):
    sys.path.insert(0, _BINDING)

import moa  # noqa: E402

#: The directory the moa under test was imported from (bindings/python, or site-packages when installed).
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(moa.__file__)))


def _source_root():
    env = os.environ.get("MOA_SOURCE_ROOT")
    if env:
        return os.path.abspath(env)
    root = os.path.dirname(os.path.dirname(_BINDING))
    return root if os.path.isfile(os.path.join(root, "Include", "moa.h")) else None


#: The Moa checkout whose files some tests read (Include/moa.h, examples/), or None (then they skip).
SOURCE_ROOT = _source_root()

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
