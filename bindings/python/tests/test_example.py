"""examples/python/layout.py runs and prints the frames it promises; `python -m moa` runs its demo."""
import os
import shutil
import subprocess
import sys

import pytest

import moa
from conftest import PACKAGE_PARENT, SOURCE_ROOT


def _env():
    """The environment of a child Python that imports the moa under test (checkout or installed)."""
    return dict(os.environ, PYTHONPATH=PACKAGE_PARENT, PYTHONDONTWRITEBYTECODE="1")


def test_layout_example(tmp_path):
    if SOURCE_ROOT is None:
        pytest.skip("no Moa checkout for examples/python (set MOA_SOURCE_ROOT)")
    script = os.path.join(SOURCE_ROOT, "examples", "python", "layout.py")
    if PACKAGE_PARENT != os.path.join(SOURCE_ROOT, "bindings", "python"):
        # The installed package is under test: run a copy, whose sys.path line (the checkout's bindings/python,
        # relative to the script) then names nothing, so it imports the installed moa.
        script = str(shutil.copy(script, tmp_path / "layout.py"))
    r = subprocess.run([sys.executable, script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=60, env=_env())
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["shown", "sidebar", "0,0", "200x480", "content", "200,0", "120x480"]
    assert "did you mean 'width'?" in lines[1]
    assert "collapsed, finished = True" in lines
    assert "t = 0.3 s        sidebar -200,0 200x480  content 0,0 320x480" in lines
    assert lines[-1].split() == ["shown", "again", "sidebar", "0,0", "200x480", "content", "200,0", "120x480"]


def test_python_m_moa(tmp_path):
    """The demo lays out, animates and writes its SVG (into the current directory, or --out)."""
    r = subprocess.run([sys.executable, "-m", "moa"], cwd=str(tmp_path), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60, env=_env())
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "moa %s, library %s" % (moa.version, moa.library_path)
    assert "  sidebar   0,0 160x320" in lines and "  content   160,0 320x320" in lines
    assert "  collapsed = True, done(finished = True)" in lines
    assert any(line.startswith("  t = 0.3 s  sidebar -160,0 160x320  content 0,0 480x320") for line in lines)
    svg = (tmp_path / "moa-demo.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and 'data-view="toolbar"' in svg and 'data-view="share"' in svg
    assert lines[-1] == "wrote %s (%d bytes)" % (tmp_path / "moa-demo.svg", len(svg))

    out = tmp_path / "sub" / "strip.svg"
    out.parent.mkdir()
    r = subprocess.run([sys.executable, "-m", "moa", "--strip", "--out", str(out)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60, env=_env())
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8").startswith("<svg")

    r = subprocess.run([sys.executable, "-m", "moa", "--out", str(tmp_path / "missing" / "x.svg")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60, env=_env())
    assert r.returncode == 1 and "python -m moa:" in r.stderr
