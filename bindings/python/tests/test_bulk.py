"""Frames in bulk: frame_columns() (the one buffer of frame_buffer() by column), view_by_id(), and solve / advance /
seek with views=False (the count, no View objects). Each is checked against the per-view calls."""
import ctypes

import pytest

import moa
from conftest import near


def screen(rows=0):
    """sidebar | content, a badge in the content, and `rows` rows stacked in the content; solved."""
    L = moa.Layout(320, 480)
    L.view("sidebar")
    content = L.view("content")
    L.view("badge", content)
    lines = ["sidebar.left == 0", "sidebar.top == 0", "sidebar.bottom == 0", "sidebar.width == 100",
             "content.left == sidebar.right", "content.right == 0", "content.top == 0", "content.bottom == 0",
             "badge.top == content.top + 8", "badge.right == content.right - 8", "badge.size == 24x24"]
    for i in range(1, rows + 1):
        L.view("row%d" % i, content)
        lines += ["row%d.left == content.left + 4" % i, "row%d.size == %dx10" % (i, 40 + i % 5),
                  "row1.top == content.top + 40" if i == 1 else "row%d.top == row%d.bottom + 2" % (i, i - 1)]
    cs = L.eqs("\n".join(lines))
    L.solve()
    return L, cs


def same(frames, cols, refilled=False):
    """The columns hold exactly the values of a list of Frame (frames(), changed_frames()); their buffer holds
    those frames only, or (refilled by advance_frames(out=)) at least those."""
    assert len(cols) == len(frames) and (len(cols.buffer) >= len(cols) if refilled else len(cols.buffer) == len(cols))
    assert all(len(getattr(cols, name)) == len(frames) for name in moa.FrameColumns.fields)
    assert cols.view.tolist() == [f.view.id for f in frames]
    assert cols.superview.tolist() == [f.view.superview.id if f.superview else 0 for f in frames]
    assert list(zip(cols.x, cols.y, cols.width, cols.height)) == [tuple(f.frame) for f in frames]
    assert list(zip(cols.root_x, cols.root_y, cols.root_width, cols.root_height)) == \
        [tuple(f.root_frame) for f in frames]
    assert cols.depth.tolist() == [f.depth for f in frames]
    assert cols.guide.tolist() == [int(f.guide) for f in frames]
    assert all(type(i) is int for i in cols.view) and all(type(x) is float for x in cols.root_x)


def test_columns_hold_the_values_of_frames_and_changed_frames():
    L, cs = screen(5)
    same(L.frames(), L.frame_columns())
    same(L.frames(guides=True), L.frame_columns(guides=True))
    assert len(L.frame_columns(guides=True)) == len(L.frames()) + 3
    same(L.changed_frames(), L.frame_columns(changed=True))  # the first solve: every view
    assert len(L.frame_columns(changed=True)) == len(L.frames())
    cs[3].constant = 150  # sidebar.width: every view but the root moves
    L.solve()
    cols = L.frame_columns(changed=True)
    same(L.changed_frames(), cols)
    assert len(cols) == len(L.frames()) - 1
    L.solve()
    cols = L.frame_columns(changed=True)
    assert len(cols) == 0 and cols.root_x.tolist() == [] and cols.view.tolist() == []


def test_columns_of_one_view_and_their_buffer():
    L, _ = screen()
    cols = L.frame_columns()
    badge = L.find("badge")
    i = cols.view.tolist().index(badge.id)
    assert i == 3  # hierarchy order: root, sidebar, content, badge
    assert (cols.x[i], cols.y[i], cols.width[i], cols.height[i]) == (188, 8, 24, 24)
    assert (cols.root_x[i], cols.root_y[i], cols.root_width[i], cols.root_height[i]) == (288, 8, 24, 24)
    assert cols.superview[i] == L.find("content").id and cols.depth[i] == 2 and cols.guide[i] == 0
    assert sum(cols.root_width) == 320 + 100 + 220 + 24
    assert cols.root_x is cols.root_x  # made once
    assert repr(cols) == "<moa.FrameColumns of 4 frames>"
    assert isinstance(cols.buffer, ctypes.Array) and cols.buffer[i].frame_in_root.x == 288
    assert moa.FrameColumns.fields == ("view", "superview", "x", "y", "width", "height", "root_x", "root_y",
                                       "root_width", "root_height", "depth", "guide")


def test_columns_are_a_snapshot():
    L, cs = screen(2)
    before = L.frame_columns()
    xs = before.root_x.tolist()
    cs[3].constant = 150
    L.solve()
    assert before.root_x.tolist() == xs
    assert L.frame_columns().root_x.tolist() != xs
    del L, cs  # the columns keep their buffer
    assert before.root_x.tolist() == xs


def test_view_by_id():
    L, cs = screen(3)
    cols = L.frame_columns(guides=True)
    frames = L.frames(guides=True)
    assert [L.view_by_id(i) for i in cols.view] == [f.view for f in frames]
    assert all(L.view_by_id(i) is f.view for i, f in zip(cols.view, frames))  # the same objects
    assert L.view_by_id(L.root.id) is L.root
    assert L.view_by_id(L.guide("keyboard").id) is L.guide("keyboard")
    badge = L.find("badge")
    assert L.view_by_id(badge.id) is badge
    assert L.view_by_id(ctypes.c_uint64(badge.id).value) is badge
    for nothing in (0, -1, 1 << 64, 1 << 70, cs[0].id, badge.id + (1 << 64), badge.id - (1 << 64)):
        assert L.view_by_id(nothing) is None
    other, _ = screen(1)
    assert L.view_by_id(other.find("badge").id) is None  # another layout's
    vid = badge.id
    badge.remove()
    assert L.view_by_id(vid) is None  # removed
    for bad in (1.0, "1", None, True):
        with pytest.raises(TypeError):
            L.view_by_id(bad)
    L.close()
    with pytest.raises(moa.ClosedError):
        L.view_by_id(vid)


def test_views_false_counts_and_still_moves_the_views():
    L, cs = screen(3)
    twin, tcs = screen(3)
    cs[3].constant = 150
    tcs[3].constant = 150
    n = L.solve(views=False)
    assert type(n) is int and n == len(twin.solve()) == len(L.frames()) - 1
    assert L.solve(views=False) == 0
    cs[0].animate(-50, duration=1)
    tcs[0].animate(-50, duration=1)
    n = L.advance(0.5, views=False)
    assert type(n) is int and n == len(twin.advance(0.5)) == len(L.frames()) - 1
    assert [f.root_frame for f in L.frames()] == [f.root_frame for f in twin.frames()]
    assert near(L.find("sidebar").frame.x, -25)
    assert L.seek(1, views=False) == len(twin.seek(1))
    assert near(L.find("sidebar").frame.x, -50)
    assert L.advance(0.1, views=False) == 0
    assert L.seek(L.time, views=False) == 0
    assert L.advance(0.1, views=True) == [] and L.advance(0.1) == [] and L.solve(views=True) == []


def test_following_an_animation_in_bulk():
    L, cs = screen(60)
    cs[8].constant = 12  # badge.top: one view moves
    L.solve()
    assert len(L.frame_columns(changed=True)) == 1
    twin, tcs = screen(60)  # the same screen, followed by the per-view calls
    tcs[8].constant = 12
    twin.solve()
    cs[0].animate(-100, duration=0.5)
    tcs[0].animate(-100, duration=0.5)
    for frame in range(1, 36):
        count = L.advance(1 / 60, views=False)
        views = twin.advance(1 / 60)
        cols = L.frame_columns(changed=True)
        want = twin.changed_frames()
        assert count == len(views) == len(cols)
        assert [L.view_by_id(i).name for i in cols.view] == [f.name for f in want]
        assert list(zip(cols.root_x, cols.root_y, cols.root_width, cols.root_height)) == \
            [tuple(f.root_frame) for f in want]
        assert list(zip(cols.x, cols.y, cols.width, cols.height)) == [tuple(f.frame) for f in want]
        if frame <= 29:
            assert count == len(L.frames()) - 1
        elif frame >= 32:
            assert count == 0
    same(L.changed_frames(), L.frame_columns(changed=True))


def test_views_must_be_a_bool_and_a_keyword():
    L, cs = screen(1)
    cs[0].animate(-50, duration=1)
    for bad in (0, 1, None, "false"):
        with pytest.raises(TypeError):
            L.advance(0.5, views=bad)
        with pytest.raises(TypeError):
            L.seek(0.5, views=bad)
        with pytest.raises(TypeError):
            L.solve(views=bad)
    with pytest.raises(TypeError):
        L.advance(0.5, False)  # keyword only
    assert L.time == 0 and L.find("sidebar").frame.x == 0  # nothing moved
    L.close()
    for call in (lambda: L.advance(0.1, views=False), lambda: L.seek(1, views=False),
                 lambda: L.solve(views=False), lambda: L.frame_columns(), lambda: L.frame_columns(changed=True)):
        with pytest.raises(moa.ClosedError):
            call()


def test_frame_columns_refuses_bad_flags():
    L, _ = screen()
    with pytest.raises(TypeError):
        L.frame_columns(guides=1)
    with pytest.raises(TypeError):
        L.frame_columns(guides="yes")


def test_views_false_after_a_callback_closed_the_layout_or_raised():
    L, cs = screen(1)
    cs[3].animate(150, duration=0.1, done=lambda _f: L.close())
    assert L.advance(0.1, views=False) is None
    assert L.closed

    L2, cs2 = screen(1)

    def boom(_f):
        raise RuntimeError("boom")

    cs2[3].animate(150, duration=0.1, done=boom)
    with pytest.raises(RuntimeError, match="boom"):
        L2.advance(0.1, views=False)
    assert L2.find("sidebar").frame.width == 150  # the frame was made
    assert L2.advance(0.1, views=False) == 0


def test_advance_frames_is_advance_and_the_changed_columns_in_one_call():
    L, cs = screen(20)
    other, ocs = screen(20)  # the same screen, stepped with advance + frame_columns
    for c in (cs[3], ocs[3]):
        c.animate(160, duration=1.0, curve="linear")  # sidebar.width: every view but the root moves
    for _ in range(3):
        cols = L.advance_frames(0.25)
        assert other.advance(0.25, views=False) == len(cols) == len(L.frames()) - 1
        ref = other.frame_columns(changed=True)
        assert [L.view_by_id(i).name for i in cols.view] == [other.view_by_id(i).name for i in ref.view]
        assert cols.root_x.tolist() == ref.root_x.tolist() and cols.width.tolist() == ref.width.tolist()
        same(L.changed_frames(), cols)
    # One view moves: one frame (the array shrinks to what moved, then grows again when more move).
    cs[-1].animate(cs[-1].constant + 6, duration=0.5)
    cols = L.advance_frames(0.25)
    assert len(cols) > 0 and len(cols.buffer) == len(cols)
    L.advance_frames(1.0)
    assert len(L.advance_frames(0.25)) == 0  # nothing animating: nothing moved
    cs[3].animate(100, duration=0.5)
    cols = L.advance_frames(0.5)
    assert len(cols) == len(L.frames()) - 1
    same(L.changed_frames(), cols)


def test_advance_frames_into_one_frame_columns_as_the_count_grows_and_shrinks():
    L, cs = screen(40)
    other, ocs = screen(40)  # the same screen, stepped with advance_frames() (a new FrameColumns each frame)
    cols = moa.FrameColumns()
    assert len(cols) == 0 and cols.root_x.tolist() == []
    for c in (cs[-1], ocs[-1]):
        c.animate(c.constant + 6, duration=0.25)  # one view moves first
    held = None
    for frame in range(50):
        if frame == 10:  # then every view
            for c in (cs[3], ocs[3]):
                c.animate(160, duration=0.5, curve="easeInOut")
        assert L.advance_frames(1 / 30, out=cols) is cols
        ref = other.advance_frames(1 / 30)
        assert len(cols) == len(ref)
        assert [L.view_by_id(i).name for i in cols.view] == [other.view_by_id(i).name for i in ref.view]
        assert cols.root_x.tolist() == ref.root_x.tolist() and cols.height.tolist() == ref.height.tolist()
        same(L.changed_frames(), cols, refilled=True)
        if frame == 12:
            held = cols.root_x  # as many views move in the next frame: the same memoryview, new values
        if frame == 13:
            assert cols.root_x is held and held.tolist() == ref.root_x.tolist()
    assert len(cols) == 0 and len(cols.buffer) >= len(L.frames()) - 1  # the buffer stays for the next animation
    with pytest.raises(TypeError):
        L.advance_frames(0.1, out=L.frame_buffer())  # a ctypes array, not a FrameColumns
    L.close()
    with pytest.raises(moa.Error):
        L.advance_frames(0.1, out=cols)


def test_advance_frames_refuses_what_advance_refuses_and_moves_nothing():
    L, _ = screen(2)
    t = L.time
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises((ValueError, moa.Error)):
            L.advance_frames(bad)
    with pytest.raises(TypeError):
        L.advance_frames("0.5")
    assert L.time == t
