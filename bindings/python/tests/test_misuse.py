"""Misuse raises, never crashes: closed layouts, NaN and infinities, wrong types, stale and foreign objects."""
import gc
import math

import pytest

import moa

NAN, INF = float("nan"), float("inf")


def everything():
    """A layout with one of each child, and the children."""
    L = moa.Layout(320, 480)
    v = L.view("v")
    c = L.eq("v.left == 0")
    L.eqs("v.top == 0\nv.size == 10x10")
    a = c.animate(10, duration=1)
    col = L.collapsible(v, c, "left")
    p = L.pan([c], "horizontal", [0, 10])
    return L, v, c, a, col, p


def test_with_block_closes_even_on_an_exception():
    with pytest.raises(RuntimeError):
        with moa.Layout(10, 10) as L:
            raise RuntimeError("inside")
    assert L.closed


@pytest.mark.parametrize("use", [
    lambda L, v, c, a, col, p: L.view("w"),
    lambda L, v, c, a, col, p: L.root,
    lambda L, v, c, a, col, p: L.time,
    lambda L, v, c, a, col, p: L.solve(),
    lambda L, v, c, a, col, p: L.eq("v.width == 1"),
    lambda L, v, c, a, col, p: L.frames(),
    lambda L, v, c, a, col, p: L.advance(0.1),
    lambda L, v, c, a, col, p: L.advance(0.1, views=False),
    lambda L, v, c, a, col, p: L.frame_columns(changed=True),
    lambda L, v, c, a, col, p: L.view_by_id(v.id),
    lambda L, v, c, a, col, p: L["v"],
    lambda L, v, c, a, col, p: v.frame,
    lambda L, v, c, a, col, p: v.set_margins(1),
    lambda L, v, c, a, col, p: v.remove(),
    lambda L, v, c, a, col, p: c.constant,
    lambda L, v, c, a, col, p: setattr(c, "constant", 3),
    lambda L, v, c, a, col, p: c.animate(1),
    lambda L, v, c, a, col, p: c.remove(),
    lambda L, v, c, a, col, p: a.cancel(),
    lambda L, v, c, a, col, p: col.toggle(),
    lambda L, v, c, a, col, p: col.collapsed,
    lambda L, v, c, a, col, p: p.began(),
    lambda L, v, c, a, col, p: p.enabled,
    lambda L, v, c, a, col, p: p.offset,
    lambda L, v, c, a, col, p: L.collapsible(v, c, "left"),
])
def test_closed_layout_raises_for_every_object(use):
    objs = everything()
    L = objs[0]
    L.close()
    L.close()  # idempotent
    with pytest.raises(moa.ClosedError, match="attempt to use a closed layout"):
        use(*objs)
    assert isinstance(moa.ClosedError("x"), moa.MisuseError)
    assert repr(objs[1]) == "<moa.View (closed layout)>"
    del objs, L
    gc.collect()  # __del__ after close: no double free


@pytest.mark.parametrize("call", [
    lambda L, v, c, a, col, p: L.advance(NAN),
    lambda L, v, c, a, col, p: L.seek(INF),
    lambda L, v, c, a, col, p: L.set_root_size(NAN, 10),
    lambda L, v, c, a, col, p: L.set_safe_area(0, NAN, 0, 0),
    lambda L, v, c, a, col, p: L.set_keyboard_height(-INF),
    lambda L, v, c, a, col, p: L.animate_root_size(10, NAN),
    lambda L, v, c, a, col, p: L.show_keyboard(NAN),
    lambda L, v, c, a, col, p: v.set_margins(NAN),
    lambda L, v, c, a, col, p: v.set_intrinsic_size(INF, 1),
    lambda L, v, c, a, col, p: v.set_baseline(NAN),
    lambda L, v, c, a, col, p: v.set_content_priority("horizontal", NAN, 1),
    lambda L, v, c, a, col, p: c.set_constant(NAN),
    lambda L, v, c, a, col, p: c.set_priority(NAN),
    lambda L, v, c, a, col, p: c.animate(NAN),
    lambda L, v, c, a, col, p: c.animate_priority(INF),
    lambda L, v, c, a, col, p: c.animate(1, duration=NAN),
    lambda L, v, c, a, col, p: col.collapse(duration=INF),
    lambda L, v, c, a, col, p: p.changed(NAN),
    lambda L, v, c, a, col, p: p.changed(0, INF),
    lambda L, v, c, a, col, p: p.ended(NAN),
    lambda L, v, c, a, col, p: p.move(NAN),
    lambda L, v, c, a, col, p: p.set_options(snap_duration=NAN),
    lambda L, v, c, a, col, p: L.pan([c], "horizontal", [NAN]),
])
def test_nan_and_infinity_raise_invalid_error(call):
    objs = everything()
    L = objs[0]
    before = L.describe()
    with pytest.raises(moa.InvalidError) as ei:
        call(*objs)
    assert isinstance(ei.value, ValueError)
    assert ei.value.code == "INVALID"
    assert L.describe() == before  # nothing changed
    L.solve()
    L.close()


def test_numbers_out_of_range_are_caught_by_the_library():
    L, v, c, *_ = everything()
    with pytest.raises(moa.InvalidError):
        c.set_constant(1e13)  # finite, but beyond +-1e12
    with pytest.raises(moa.InvalidError):
        L.set_root_size(1e10, 1)
    with pytest.raises(moa.InvalidError):
        c.priority = 1001
    with pytest.raises(moa.InvalidError):
        L.eq("v.width == 1e400")


@pytest.mark.parametrize("call", [
    lambda L, v, c, a, col, p: L.view(None),
    lambda L, v, c, a, col, p: L.view(b"bytes"),
    lambda L, v, c, a, col, p: L.view("w", "v"),
    lambda L, v, c, a, col, p: L.eq(42),
    lambda L, v, c, a, col, p: L.advance(None),
    lambda L, v, c, a, col, p: L.advance(True),
    lambda L, v, c, a, col, p: L.frames(guides=1),
    lambda L, v, c, a, col, p: L.collapsible(c, c, "left"),
    lambda L, v, c, a, col, p: L.collapsible(v, c, 0),
    lambda L, v, c, a, col, p: L.trace_svg_strip(1.5),
    lambda L, v, c, a, col, p: v.set_direction(None),
    lambda L, v, c, a, col, p: c.set_active("yes"),
    lambda L, v, c, a, col, p: col.collapse(animated=None),
    lambda L, v, c, a, col, p: p.move(0, animated="no"),
])
def test_wrong_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call(*everything())


def test_nul_in_strings():
    L = moa.Layout(10, 10)
    with pytest.raises(moa.InvalidError):
        L.eq("root.width == 10\0 junk")
    with pytest.raises(moa.InvalidError):
        L.find("a\0")


def test_objects_of_another_layout():
    A, B = moa.Layout(10, 10), moa.Layout(10, 10)
    va = A.view("v")
    cb = B.eq("root.width >= 0")
    with pytest.raises(moa.InvalidError, match="another layout"):
        A.collapsible(va, cb, "left")
    with pytest.raises(moa.InvalidError, match="another layout"):
        A.pan([cb], "horizontal", [0])
    with pytest.raises(TypeError):
        A.pan([va], "horizontal", [0])
    with pytest.raises(moa.InvalidError):
        va.set_superview(B.root)
    B.close()
    with pytest.raises(moa.ClosedError):
        A.pan([cb], "horizontal", [0])  # a child of a closed layout: says so


def test_stale_ids_raise_not_found():
    L, v, c, a, col, p = everything()
    v.remove()  # removes c too; col and p answer NOTFOUND
    for use in (lambda: v.frame, lambda: v.name, lambda: c.constant, lambda: c.remove(), lambda: col.toggle(),
                lambda: p.began()):
        with pytest.raises(moa.NotFoundError) as ei:
            use()
        assert isinstance(ei.value, LookupError) and ei.value.code == "NOTFOUND"
    assert v.removed and c.removed
    assert L.find("v") is None
    w = L.view("v")  # the name is free again; the old object stays stale
    assert w != v and w.id != v.id
    assert not math.isnan(L.solve() and 0)
