"""examples/python/layout.py runs and prints the frames it promises."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_layout_example():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "layout.py")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["shown", "sidebar", "0,0", "200x480", "content", "200,0", "120x480"]
    assert "did you mean 'width'?" in lines[1]
    assert "collapsed, finished = True" in lines
    assert "t = 0.3 s        sidebar -200,0 200x480  content 0,0 320x480" in lines
    assert lines[-1].split() == ["shown", "again", "sidebar", "0,0", "200x480", "content", "200,0", "120x480"]
