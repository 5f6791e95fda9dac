"""moa._speedups, the optional compiled module of the calls of every frame, and its fallback, ctypes: the module
is in use when it was built (unless MOA_PYTHON_SPEEDUPS=0), and both paths give the same results, from the raw
calls up to the Layout methods, callbacks included. `make test-python` runs the whole suite once with the module
and once on ctypes alone; the comparisons here run both paths in one process (they skip without the module)."""
import ctypes
import importlib
import os
import sysconfig

import pytest

import moa
from moa import _layout

_lib = importlib.import_module("moa._lib")  # (moa._lib itself is the ctypes library: moa/__init__.py)
Frame_ = _lib.Frame_
BUILT = os.path.isfile(os.path.join(_lib.PACKAGE_DIR, "_speedups" + (sysconfig.get_config_var("EXT_SUFFIX") or "")))
sp = _lib.speedups
needs_speedups = pytest.mark.skipif(sp is None, reason="moa._speedups is not in use (not built, or "
                                                       "MOA_PYTHON_SPEEDUPS=0)")

# The calls the module makes: _lib.NAME is speedups.NAME or _lib._ct_NAME.
PAIRS = ["advance", "advance_frames", "changed_frames"]


def test_the_module_is_in_use_when_it_was_built():
    if os.environ.get("MOA_PYTHON_SPEEDUPS") == "0":
        assert sp is None
        assert _lib.advance_frames is _lib._ct_advance_frames
    else:
        assert (sp is not None) == BUILT, "moa/_speedups%s built: %s; in use: %s" % (
            sysconfig.get_config_var("EXT_SUFFIX"), BUILT, sp is not None)
    # One place chooses: every call is the module's or every call is ctypes'.
    mine = [getattr(_lib, name) for name in PAIRS]
    assert all(f is (getattr(sp, name) if sp else getattr(_lib, "_ct_" + name)) for name, f in zip(PAIRS, mine))
    assert _layout._advance_frames is _lib.advance_frames and _layout._changed_frames is _lib.changed_frames


@needs_speedups
def test_the_module_calls_the_library_ctypes_loaded():
    assert sp.FRAME_SIZE == ctypes.sizeof(Frame_)
    assert set(sp.FUNCTIONS) == {"moa_layout_" + n for n in PAIRS}


def screen(rows=30):
    """The screen of scripts/bench-frames.py, small: rows in a content view beside a sidebar."""
    L = moa.Layout(1024, 768)
    L.view("sidebar")
    content = L.view("content")
    L.view("badge", content)
    lines = ["sidebar.left == 0", "sidebar.top == 0", "sidebar.bottom == 0", "sidebar.width == 240",
             "content.left == sidebar.right", "content.right == 0", "content.top == 0",
             "badge.top == content.top + 8", "badge.right == content.right - 8", "badge.width == 24",
             "badge.height == 24"]
    views = L.add_views(["row%d" % i for i in range(rows)], content,
                        [(80 + i % 7 * 10, None if i % 5 == 0 else 20) for i in range(rows)])
    for i in range(rows):
        lines.append("row%d.left == content.left + 16" % i)
        lines.append("row0.top == content.top + 8" if i == 0 else "row%d.top == row%d.bottom + 4" % (i, i - 1))
    lines.append("content.bottom >= row%d.bottom + 8" % (rows - 1))
    cs = L.eqs("\n".join(lines))
    L.solve()
    return L, cs, views


def named(L, frames):
    """A buffer of moa_frame (or FrameColumns) as plain values, the ids as names (ids differ between layouts)."""
    frames = getattr(frames, "buffer", frames)
    name = lambda i: L.view_by_id(i).name if i else None  # noqa: E731
    return [(name(f.view), name(f.superview), tuple(getattr(f.frame, k) for k in ("x", "y", "width", "height")),
             tuple(getattr(f.frame_in_root, k) for k in ("x", "y", "width", "height")), f.depth, f.is_guide)
            for f in frames]


@needs_speedups
def test_raw_calls_agree():
    """Each call of the module against its ctypes twin, on two layouts made the same way."""
    a, b = moa.Layout(1024, 768), moa.Layout(1024, 768)
    for L in (a, b):
        L.add_views(["x", "y", "z"], sizes=[(10, None), (20, 30), (None, None)])
        L.eqs("x.left == 0\nx.top == 0\ny.left == x.right\ny.top == 0\nz.size == 5x5\nz.left == 1\nz.top == 1")
        L.solve()
    ca, cb = a.constraints()[0], b.constraints()[0]
    ca.animate(100, duration=1.0), cb.animate(100, duration=1.0)
    for cap in (0, 1, 2, 8):
        fa, fb = (Frame_ * max(1, cap))(), (Frame_ * max(1, cap))()
        ra = sp.advance_frames(a._core.h, 0.125, fa, cap)
        rb = _lib._ct_advance_frames(b._core.h, 0.125, fb, cap)
        assert ra == rb and ra[0] == 0 and ra[1] == 2  # x, and y beside it
        assert named(a, fa[:cap]) == named(b, fb[:cap]) and (cap == 0 or fa[0].view)
        ga, gb = (Frame_ * 4)(), (Frame_ * 4)()
        assert sp.changed_frames(a._core.h, ga, 4) == _lib._ct_changed_frames(b._core.h, gb, 4) == (0, 2)
        assert named(a, ga[:2]) == named(b, gb[:2])
        assert sp.changed_frames(a._core.h, None, 0) == _lib._ct_changed_frames(b._core.h, None, 0) == (0, 2)
    assert sp.advance(a._core.h, 0.125) == _lib._ct_advance(b._core.h, 0.125) == 0
    assert named(a, a.frame_buffer()) == named(b, b.frame_buffer())
    a.close(), b.close()


@needs_speedups
def test_the_module_refuses_a_buffer_smaller_than_its_capacity():
    L = moa.Layout(100, 100)
    small = (Frame_ * 2)()
    with pytest.raises(ValueError, match="smaller"):
        sp.advance_frames(L._core.h, 0.1, small, 3)
    with pytest.raises(ValueError, match="smaller"):
        sp.changed_frames(L._core.h, small, 3)
    with pytest.raises(ValueError):
        sp.changed_frames(L._core.h, None, 1)
    with pytest.raises(BufferError):
        sp.advance_frames(L._core.h, 0.1, bytes(200), 1)  # read-only
    with pytest.raises(TypeError):
        sp.advance_frames(L._core.h, 0.1, small)
    with pytest.raises(TypeError):
        sp.advance(L._core.h, "0.1")
    with pytest.raises(OverflowError):
        sp.changed_frames(L._core.h, small, -1)
    with pytest.raises(ValueError):
        sp.advance(0, 0.1)  # a NULL handle
    assert L.time == 0 and len(L.frames()) == 1
    L.close()


def run_scenario():
    """Build, animate, follow the frames with every frame call; everything read, as plain values."""
    out = []
    L, cs, views = screen(300)
    out.append([v.name for v in views])
    out.append([c.equation for c in cs])
    out.append(named(L, L.frame_buffer()))
    done = []
    cs[3].animate(300, duration=0.5, curve="easeInOut", done=done.append)   # sidebar.width: every view
    cs[7].animate(40, duration=0.25, done=done.append)                      # the badge alone
    for _ in range(12):
        cols = L.advance_frames(1 / 24)
        out.append((len(cols), [L.view_by_id(i).name for i in cols.view], cols.root_x.tolist(),
                    cols.height.tolist(), named(L, cols)))
    out.append(done[:])
    cs[12].animate(30, duration=0.2)
    for _ in range(6):
        n = L.advance(1 / 24, views=False)
        out.append((n, named(L, L.frame_buffer(changed=True)), L.time))
    out.append(named(L, L.frame_buffer()))
    with pytest.raises(moa.DuplicateError):
        L.add_views(["fresh", "row3"])
    with pytest.raises(moa.ParseError) as e:
        L.eqs("row1.left == \nrow2.left == 3")
    out.append((e.value.line, e.value.offset, str(e.value)))
    L.close()
    return out


@needs_speedups
def test_both_paths_give_the_same_results(monkeypatch):
    """The Layout methods on the module's calls and then on ctypes' (the names _layout.py calls, swapped)."""
    fast = run_scenario()
    for name in PAIRS:
        monkeypatch.setattr(_layout, "_" + name, getattr(_lib, "_ct_" + name))
    slow = run_scenario()
    assert len(fast) == len(slow)
    for i, (f, s) in enumerate(zip(fast, slow)):
        assert f == s, "item %d differs" % i


def test_advance_frames_after_frames_that_moved_many_views():
    """After a frame of more than _FRAMES_SMALL views, the array of the next frame is made ahead, and a frame that
    moves few copies them out of it: frames that move every view, none, the badge alone, every view, the rows,
    each as advance() + frame_columns() give them, and none shares its array with another."""
    L, cs, _ = screen(300)
    twin, tcs, _ = screen(300)
    moves = [(3, 300, 0.25), (7, 40, 0.25), (3, 240, 0.25), (12, 30, 0.25)]  # sidebar.width, badge.top, row0.top
    kept = []
    for i, to, duration in moves:
        cs[i].animate(to, duration=duration)
        tcs[i].animate(to, duration=duration)
        for _ in range(4):
            cols = L.advance_frames(1 / 16)
            n = twin.advance(1 / 16, views=False)
            assert len(cols) == n == len(cols.buffer) and (n > _layout._FRAMES_SMALL or i != 3)
            assert named(L, cols) == named(twin, twin.frame_buffer(changed=True))
            kept.append((cols, named(L, cols)))
            assert (L._frames_spare is not None) == (n > _layout._FRAMES_SMALL)
            assert len(L.advance_frames(0)) == 0 and twin.advance(0, views=False) == 0
            assert L._frames_spare is None
    assert all(named(L, cols) == values for cols, values in kept)  # no frame wrote into an array handed out


@pytest.mark.parametrize("into", [False, True])
def test_callbacks_in_advance_frames_surface_after_the_frame(into):
    """Completions run inside the frame call (on whichever path, into a new FrameColumns or out=): the first
    exception is raised once the frame is made, KeyboardInterrupt as it is, and a completion that closes the
    layout makes the call return None. A frame with no completion waiting skips collecting (the layout counts
    its waiting completions): the count follows them."""
    L, cs, _ = screen(3)
    after = []
    cols = moa.FrameColumns() if into else None

    def boom(_finished):
        raise ValueError("boom in done")

    assert L._core.callbacks == 0
    cs[3].animate(100, duration=0.1, done=boom)
    cs[7].animate(5, duration=0.1, done=after.append)
    assert L._core.callbacks == 2
    with pytest.raises(ValueError, match="boom in done"):
        L.advance_frames(0.1, out=cols)
    assert after == [True] and L["sidebar"].frame.width == 100
    assert L._core.callbacks == 0
    with pytest.raises(ValueError):
        cs[3].animate(100, duration=-1, done=boom)  # refused: no completion waits
    assert L._core.callbacks == 0
    L.advance_frames(0.1, out=cols)  # nothing waits: the path that collects nothing

    def interrupt(_finished):
        raise KeyboardInterrupt

    cs[3].animate(150, duration=0.1, done=interrupt)
    with pytest.raises(KeyboardInterrupt):
        L.advance_frames(0.1, out=cols)
    assert L["sidebar"].frame.width == 150

    cs[3].animate(100, duration=0.1, done=lambda _f: L.advance(1))
    with pytest.raises(moa.MisuseError):
        L.advance_frames(0.1, out=cols)

    cs[3].animate(120, duration=0.1, done=lambda _f: L.close())
    assert L.advance_frames(0.1, out=cols) is None
    assert L.closed
    with pytest.raises(moa.ClosedError):
        L.advance_frames(0.1, out=cols)


def run_into_scenario():
    """advance_frames(dt, out=cols) through every branch of its usual case and around it: the count the same
    (a column read before stays and shows the new frame), smaller, larger than out holds (a new buffer), an int
    dt, a refused dt, a bad out, a failed frame, a closed layout. Everything read, as plain values."""
    out = []
    L, cs, _ = screen(40)
    cols = moa.FrameColumns()
    cs[3].animate(300, duration=0.25)   # sidebar.width: every view, more than an empty FrameColumns holds
    got = L.advance_frames(1 / 16, out=cols)
    out.append((got is cols, len(cols), len(cols.buffer), named(L, cols)))
    xs = cols.root_x
    got = L.advance_frames(1 / 16, out=cols)  # as many: the column is kept and reads the new frame
    out.append((got is cols, cols.root_x is xs, xs.tolist(), named(L, cols)))
    cs[3].animate(cs[3].constant, duration=0)  # (stops it where it is)
    cs[7].animate(40, duration=0.25)           # the badge alone: fewer, the columns dropped
    got = L.advance_frames(1 / 16, out=cols)
    out.append((got is cols, len(cols), cols.root_x is xs, cols.root_y.tolist(), named(L, cols)))
    got = L.advance_frames(1, out=cols)  # an int dt (the method's own path), the animation's end
    out.append((len(cols), named(L, cols), L.animating))
    for bad in (float("nan"), float("inf"), "0.1"):
        with pytest.raises((moa.InvalidError, TypeError)) as e:
            L.advance_frames(bad, out=cols)
        out.append((type(e.value).__name__, str(e.value), L.time))
    with pytest.raises(TypeError) as e:
        L.advance_frames(0.1, out=(Frame_ * 4)())
    out.append((str(e.value), L.time))
    with pytest.raises(moa.Error) as e:
        L.advance_frames(-0.5, out=cols)  # the library refuses it: out as it was
    out.append((type(e.value).__name__, str(e.value), len(cols), named(L, cols), L.time))
    L.close()
    with pytest.raises(moa.ClosedError):
        L.advance_frames(0.1, out=cols)
    out.append(len(cols))
    return out


@needs_speedups
def test_advance_frames_into_out_same_on_both_paths(monkeypatch):
    """Layout.advance_frames(dt, out=) with moa._speedups.advance_into and with the method's Python body alone."""
    assert _layout._advance_into is sp.advance_into
    seen = []

    def into(core, dt, out):
        r = sp.advance_into(core, dt, out)
        seen.append("out" if r is out else type(r).__name__)
        return r

    monkeypatch.setattr(_layout, "_advance_into", into)
    fast = run_into_scenario()
    assert {"out", "tuple", "NoneType"} <= set(seen), seen  # made whole, finished by the method, stepped aside
    monkeypatch.setattr(_layout, "_advance_into", None)
    slow = run_into_scenario()
    assert len(fast) == len(slow)
    for i, (f, s) in enumerate(zip(fast, slow)):
        assert f == s, "item %d differs" % i


@needs_speedups
def test_advance_into_steps_aside_before_the_frame():
    """advance_into returns None, making no frame, for every case the method handles itself: a dt that is not a
    finite float, an out that is not a FrameColumns, a core that is not one or is closed, callbacks waiting."""
    L, cs, _ = screen(3)
    cols = moa.FrameColumns()
    cs[3].animate(300, duration=1)
    core = L._core
    for args in [(core, 1, cols), (core, float("nan"), cols), (core, float("-inf"), cols), (core, "1", cols),
                 (core, 0.1, None), (core, 0.1, (Frame_ * 8)()), (object(), 0.1, cols), (None, 0.1, cols)]:
        assert sp.advance_into(*args) is None
    cs[7].animate(40, duration=1, done=lambda _f: None)  # a completion waits: the method collects what it raises
    assert sp.advance_into(core, 0.1, cols) is None
    assert L.time == 0 and len(cols) == 0
    L.cancel_animations()
    L.advance(0)  # the cancelled completions run
    assert core.callbacks == 0
    cs[3].animate(200, duration=1)
    st, n = sp.advance_into(core, 0.1, cols)  # more moved than out holds: the frame is made, the method finishes
    assert st == 0 and n == len(L.frame_buffer(changed=True)) > 0 and len(cols) == 0 and L.time > 0
    L.close()
    assert sp.advance_into(core, 0.1, cols) is None  # closed: h is None
    with pytest.raises(TypeError):
        sp.advance_into(core, 0.1)
