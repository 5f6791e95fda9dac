"""The layout level: Layout, views, frames, equations (eq / eqs / xeq), constraint objects, errors with details."""
import gc
import json

import pytest

import moa
from conftest import near


def test_layout_basics():
    with moa.Layout(320, 480) as L:
        assert repr(L) == "<moa.Layout 320 x 480, 0 views>"
        assert (L.width, L.height) == (320, 480)
        assert L.root_size == (320, 480)
        assert L.root.name == "root"
        assert L.root.superview is None
        L.solve()
        assert L.root.frame == moa.Rect(0, 0, 320, 480)
        assert L.time == 0
        assert L.animating is False
        assert L.closed is False
    assert L.closed is True
    assert repr(L) == "<moa.Layout (closed)>"
    assert moa.layout is moa.Layout and moa.version == "0.1.0"


@pytest.mark.parametrize("w,h,exc", [(-1, 10, moa.InvalidError), (float("nan"), 10, moa.InvalidError),
                                     (float("inf"), 10, ValueError), (1e10, 10, moa.InvalidError),
                                     ("x", 10, TypeError), (True, 10, TypeError), (None, 10, TypeError)])
def test_layout_refuses_bad_sizes(w, h, exc):
    with pytest.raises(exc):
        moa.Layout(w, h)


def test_views_subviews_identity_and_frames():
    L = moa.Layout(320, 480)
    a = L.view("a")
    b = L.view("b", a)
    assert L.find("a") is a and L["b"] is b and "a" in L and "nope" not in L
    assert L.find("nope") is None
    with pytest.raises(KeyError):
        L["nope"]
    assert b.superview is a and a.superview == L.root
    assert a.layout is L
    assert L.views() == [a, b]
    L.eqs("a.left == 10\na.top == 20\na.size == 100x100\nb.left == a.left + 5\nb.top == a.top + 5\nb.size == 10x10")
    changed = L.solve()
    assert changed == [L.root, a, b]
    assert a.frame == moa.Rect(10, 20, 100, 100)
    assert b.frame == moa.Rect(5, 5, 10, 10)
    assert b.root_frame == moa.Rect(15, 25, 10, 10)
    assert L.solve() == []  # nothing changed since
    assert repr(b) == "<moa.View b (5, 5, 10, 10)>"
    # frames(): hierarchy order, names, depth; guides on request
    f = L.frames()
    assert [x.name for x in f] == ["root", "a", "b"]
    assert [x.depth for x in f] == [0, 1, 2]
    assert f[2].superview == "a" and f[0].superview is None
    assert f[2].view is b and f[2].frame == (5, 5, 10, 10) and f[2].root_frame == (15, 25, 10, 10)
    assert len(L.frames(guides=True)) == 6
    assert sum(x.guide for x in L.frames(guides=True)) == 3
    # changed_frames(): only what moved at the last solve; frame_buffer(): the same as one ctypes array
    c = L.eq("b.width == 20")
    assert L.solve() == [b]
    f = L.changed_frames()
    assert [x.name for x in f] == ["b"] and f[0].frame == (5, 5, 20, 10) and f[0].view is b
    buf = L.frame_buffer(changed=True)
    assert len(buf) == 1 and buf[0].frame.width == 20 and buf[0].depth == 2
    assert memoryview(buf).nbytes == 88
    assert len(L.frame_buffer()) == 3 and len(L.frame_buffer(guides=True)) == 6
    assert L.solve() == [] and L.changed_frames() == [] and len(L.frame_buffer(changed=True)) == 0


def test_add_views_in_bulk():
    with moa.Layout(320, 480) as L:
        box = L.view("box")
        a, b, c = L.add_views(["a", "b", "c"], box, [(10, 20), (30, None), (None, 5)])
        assert L.find("a") is a and c.superview is box
        L.eqs("a.left == 0\na.top == 0\nb.left == a.right\nb.top == 0\nb.height == 7\n"
              "c.left == 0\nc.top == a.bottom\nc.width == 3")
        L.solve()
        assert a.frame == moa.Rect(0, 0, 10, 20)
        assert b.frame == moa.Rect(10, 0, 30, 7)
        assert c.frame == moa.Rect(0, 20, 3, 5)
        count = len(L.views())
        with pytest.raises(moa.DuplicateError):
            L.add_views(["x", "a"])
        with pytest.raises(moa.DuplicateError):
            L.add_views(["x", "y", "x"])
        with pytest.raises(moa.InvalidError):
            L.add_views(["x", "2y"])
        with pytest.raises(moa.InvalidError):
            L.add_views(["x", "y"], sizes=[(1, 1)])
        with pytest.raises(moa.InvalidError):
            L.add_views(["x"], sizes=[(-1, 1)])
        with pytest.raises(moa.InvalidError):
            L.add_views(["x"], sizes=[(1e300, 1)])
        with pytest.raises(moa.InvalidError):
            L.add_views(["x"], sizes=[(float("nan"), 1)])
        with pytest.raises(TypeError):
            L.add_views("xy")
        with pytest.raises(TypeError):
            L.add_views(["x", 2])
        assert len(L.views()) == count and L.find("x") is None
        assert L.add_views([]) == []
        assert [v.name for v in L.add_views(("x", "y"))] == ["x", "y"]


def test_view_misuse():
    L = moa.Layout(320, 480)
    L.view("a")
    with pytest.raises(moa.DuplicateError):
        L.view("a")
    with pytest.raises(moa.InvalidError):
        L.view("")
    with pytest.raises(moa.InvalidError):
        L.view("9lives")
    with pytest.raises(TypeError):
        L.view(42)
    with pytest.raises(moa.InvalidError):
        L.view("a\0b")
    other = moa.Layout(10, 10)
    x = other.view("x")
    with pytest.raises(moa.InvalidError, match="another layout"):
        L.view("c", x)
    with pytest.raises(moa.NotFoundError):
        L.guide("nope")
    with pytest.raises(AttributeError):
        L.find("a").nope = 1  # __slots__: no stray attributes


def test_guides():
    L = moa.Layout(320, 480)
    kb = L.guide("keyboard")
    assert kb.name == "keyboard" and L.find("keyboard") is kb
    L.set_keyboard_height(200)
    L.solve()
    assert kb.frame == (0, 280, 320, 200)
    L.set_safe_area(20, 0, 34, 0)
    L.solve()
    assert L.guide("safeArea").frame == (0, 20, 320, 426)
    assert L.guide("margins").frame == (8, 8, 304, 464)


def test_name_tables_come_from_the_library():
    """One table per name: the priorities Python takes are the library's (moa_priority_name), each one works in
    equation text with the same value; the curves and status names are the library's too."""
    import ctypes
    from moa._lib import lib
    listed = {}
    i = 0
    while True:
        v = ctypes.c_double(0)
        name = lib.moa_priority_name(i, ctypes.byref(v))
        if name is None:
            break
        listed[name.decode()] = v.value
        i += 1
    assert moa.PRIORITIES == listed
    assert moa.PRIORITIES["medium"] == 500 and moa.PRIORITIES["fittingSizeLevel"] == 50
    L = moa.Layout(100, 100)
    L.view("a")
    for name, value in listed.items():
        c = L.eq("a.width == 5 @ %s" % name)
        assert c.priority == value, name
        c.remove()
    s = moa.Solver()
    x = s.var("x")
    assert s.add(x.ge(1), "fittingSizeLevel").priority == 50
    assert moa.CURVES == {"linear": 0, "easeIn": 1, "easeOut": 2, "easeInOut": 3, "spring": 4, "keyboard": 5}
    assert moa.__version__ == moa.version == lib.moa_libversion().decode()


def test_directional_margins_and_orientation():
    L = moa.Layout(320, 480)
    assert L.orientation == "portrait"
    box = L.view("box")
    a = L.view("a", box)
    L.eqs("""box.pin == 0
a.left == box.leftMargin
a.right == box.rightMargin
a.top == 0
a.height == 10""")
    box.set_directional_margins(0, 20, 0, 50)
    L.solve()
    assert a.frame == (20, 0, 250, 10)
    box.set_direction("rtl")
    L.solve()
    assert a.frame == (50, 0, 250, 10)
    with pytest.raises(moa.InvalidError):
        box.set_directional_margins(0, float("nan"), 0, 0)
    L.solve()
    assert a.frame == (50, 0, 250, 10)
    box.set_directional_margins(6)
    L.solve()
    assert a.frame == (6, 0, 308, 10)
    L.set_root_size(480, 320)
    assert L.orientation == "landscape"


def test_view_setters_and_remove():
    L = moa.Layout(320, 480)
    box = L.view("box")
    label = L.view("label", box)
    L.eqs("""box.left == 0
box.top == 0
box.size == 200x100
label.leading == box.leadingMargin
label.top == box.topMargin""")
    box.set_margins(10, 12, 10, 14)
    label.set_intrinsic_size(50, 20)
    L.solve()
    assert label.frame == (12, 10, 50, 20)
    box.set_direction("rtl")
    L.solve()
    assert label.frame == (200 - 14 - 50, 10, 50, 20)
    with pytest.raises(moa.InvalidError):
        box.set_direction("sideways")
    box.set_direction("inherit").set_margins(4)
    L.solve()
    assert label.frame == (4, 4, 50, 20)
    L.eq("label.width == 120 @ 200")
    L.solve()
    assert label.frame.width == 50  # hugging 250 beats 200
    label.set_content_priority("horizontal", 150, 750)
    L.solve()
    assert label.frame.width == 120
    with pytest.raises(moa.InvalidError):
        label.set_content_priority("diagonal", 1, 1)
    with pytest.raises(moa.InvalidError):
        label.set_intrinsic_size(-1, 20)  # -1 is C's "none": refused as a size in Python
    label.set_intrinsic_size(None, 20)
    text = L.view("text")
    L.eqs("text.left == 0\ntext.size == 10x20")
    text.set_baseline(15)
    L.eq("text.firstBaseline == root.top + 30")
    L.solve()
    assert text.frame.y == 15
    text.set_baseline(None)  # baseline = bottom
    L.solve()
    assert text.frame.y == 10
    n = len(L.constraints())
    label.superview = None
    assert label.superview == L.root
    box.remove()
    assert box.removed and L.find("box") is None
    assert repr(box) == "<moa.View (removed)>"
    with pytest.raises(moa.NotFoundError):
        box.frame
    assert len(L.constraints()) < n
    with pytest.raises(moa.InvalidError):
        L.root.remove()


def test_eq_returns_a_constraint_object(sb):
    L = sb.L
    box = L.view("box", sb.content)
    L.eqs("box.left == 0\nbox.top == 0\nbox.width == 10\nbox.height == 480 @ low")
    c = L.eq("box.height <= 400 @ high")
    assert isinstance(c, moa.LayoutConstraint)
    assert str(c) == "box.height <= 400 @ 750" == c.equation == c.describe()
    assert repr(c) == "<moa.LayoutConstraint 'box.height <= 400 @ 750'>"
    assert (c.constant, c.priority, c.active, c.line) == (400, 750, True, 0)
    assert L.eq("box.height <= 300 @ high") is c  # re-issued: the same constraint, new constant
    assert c.constant == 300
    L.solve()
    assert box.frame.height == 300
    c.constant = 350
    L.solve()
    assert box.frame.height == 350
    c.priority = "low"
    assert c.priority == 250
    c.active = False
    L.solve()
    assert box.frame.height == 480 and c.active is False
    assert c.set_active(True).set_constant(100).set_priority(800) is c
    L.solve()
    assert box.frame.height == 100
    with pytest.raises(TypeError):
        c.constant = "x"
    with pytest.raises(moa.InvalidError):
        c.constant = float("inf")
    with pytest.raises(moa.InvalidError):
        c.priority = 0
    with pytest.raises(moa.InvalidError):
        c.priority = "enormous"
    with pytest.raises(TypeError):
        c.active = 1
    assert L.constraints()[-1] is c
    assert "box.height <= 100 @ 800" in L.describe()


def test_eqs_line_order_all_or_nothing():
    L = moa.Layout(320, 480)
    L.view("a")
    cs = L.eqs("a.left == 0\n\n# a comment\na.top == 0\na.size == 10x20\na.pin == 4 @ low")
    assert len(cs) == 8  # 1 + 1 + size 2 + pin 4
    assert [c.line for c in cs[:3]] == [1, 4, 5]
    before = len(L.constraints())
    with pytest.raises(moa.ParseError) as ei:
        L.eqs("a.right == 100\na.bottom == 50\na.widht == 3")
    e = ei.value
    assert "line 3" in str(e)
    assert (e.code, e.status, e.line, e.offset, e.suggestion) == ("PARSE", 8, 3, 2, "width")
    assert e.source_line == "a.widht == 3"
    assert e.conflicts == []
    assert len(L.constraints()) == before  # nothing from the failing call stays
    with pytest.raises(moa.ParseError) as ei:
        L.eqs("a.left == b.left", source="screen.moa", first_line=10)
    assert (ei.value.source, ei.value.line, ei.value.kind) == ("screen.moa", 10, "unknownView")
    assert "screen.moa" in str(ei.value)
    with pytest.raises(moa.InvalidError):
        L.eqs("a.left == 0", first_line=0)


def test_parse_error_details():
    L = moa.Layout(320, 480)
    L.view("calendar")
    with pytest.raises(moa.ParseError) as ei:
        L.eq("calendar.left = 10")
    e = ei.value
    assert (e.code, e.status, e.kind, e.line, e.offset, e.length) == ("PARSE", 8, "parse", 1, 14, 1)
    assert "==" in e.expected
    assert "did you mean" in e.message and "line 1" not in e.message  # the message has no location
    assert str(e).startswith("line 1, byte 14:") and "^" in str(e)  # the full text has it and a caret
    with pytest.raises(moa.ParseError) as ei:
        L.eq("calender.left == 0")
    assert (ei.value.kind, ei.value.offset, ei.value.suggestion) == ("unknownView", 0, "calendar")
    with pytest.raises(moa.ParseError) as ei:
        L.eq("calendar.lefft == 0")
    assert (ei.value.kind, ei.value.suggestion) == ("unknownAttribute", "left")
    assert isinstance(ei.value, moa.Error)
    with pytest.raises(moa.InvalidError):
        L.eq("")  # a blank line
    with pytest.raises(moa.InvalidError):
        L.eq("calendar.size == 10x10")  # several constraints: eqs
    with pytest.raises(TypeError):
        L.eq(None)


def test_conflict_details(sb):
    L, cs = sb.L, sb.cs
    with pytest.raises(moa.ConflictError) as ei:
        L.eq("sidebar.right == 150")
    e = ei.value
    assert e.code == "UNSATISFIABLE" and e.status == 7 and "cannot hold" in str(e)
    assert len(e.conflicts) >= 2
    seen = {c.equation: c.line for c in e.conflicts}
    assert seen["sidebar.width == 200"] == 4
    assert seen["sidebar.left == root.left"] == 1
    assert [c.constraint for c in e.conflicts if c.equation == "sidebar.width == 200"] == [cs[3]]
    assert all(isinstance(c, moa.Conflict) for c in e.conflicts)
    # eqs: the failing line and the conflicts; nothing stays
    n = len(L.constraints())
    with pytest.raises(moa.ConflictError) as ei:
        L.eqs("content.width >= 10\nsidebar.right == 150")
    assert ei.value.line == 2 and len(ei.value.conflicts) >= 2
    assert len(L.constraints()) == n
    # constraint changes that conflict raise and change nothing
    c = L.eq("sidebar.right == root.left + 150 @ 500")
    with pytest.raises(moa.ConflictError):
        c.set_priority(1000)
    assert c.priority == 500
    with pytest.raises(moa.ConflictError):
        c.priority = "required"
    c.set_constant(200)
    assert c.set_priority("required") is c  # holds now
    with pytest.raises(moa.ConflictError):
        cs[3].constant = 10
    assert cs[3].constant == 200
    L.solve()
    assert sb.sidebar.frame.width == 200  # still usable


def test_xeq_and_remove(sb):
    L, cs = sb.L, sb.cs
    assert L.xeq("sidebar.width == 999") == 1  # the constant is not compared
    assert cs[3].removed
    with pytest.raises(moa.NotFoundError):
        cs[3].constant
    assert str(cs[3]) == "moa.LayoutConstraint (removed)"
    with pytest.raises(moa.NotFoundError) as ei:
        L.xeq("sidebar.width == 200")
    assert ei.value.code == "NOTFOUND"
    with pytest.raises(moa.ParseError):
        L.xeq("sidebar.widht == 1")
    L.view("box")
    L.eqs("box.size == 10x20")
    assert L.xeq("box.size == 0x0") == 2
    # c.remove(): removed once; a second remove or a change raises NotFoundError
    L.eq("sidebar.width == 50")
    L.solve()
    assert sb.sidebar.frame.width == 50
    cs[0].remove()
    with pytest.raises(moa.NotFoundError):
        cs[0].remove()
    with pytest.raises(moa.NotFoundError):
        cs[0].constant = 1


def test_root_size_conflict(sb):
    L = sb.L
    L.set_root_size(400, 300)
    L.solve()
    assert sb.content.frame == (200, 0, 200, 300)
    L.eq("content.width >= 150")
    with pytest.raises(moa.ConflictError) as ei:
        L.set_root_size(300, 300)
    assert any(c.equation == "content.width >= 150" for c in ei.value.conflicts)
    assert L.width == 400
    with pytest.raises(moa.InvalidError):
        L.set_root_size(-1, 1)


def test_debug_reports_and_a_raising_reporter(sb):
    L = sb.L
    got = []
    assert L.on_debug(got.append) is L
    c = L.eq("content.height <= 1000 ?")
    assert "content.height <= 1000" in got[0]
    L.eqs("content.width >= 10 ?\ncontent.width >= 20 ?")
    assert len(got) == 3

    def bad(_text):
        raise RuntimeError("reporter failed")

    L.on_debug(bad)
    with pytest.raises(RuntimeError, match="reporter failed"):
        L.eq("content.width >= 30 ?")
    # the equation was applied (the error came after the work) and the layout is usable
    assert L.solve() is not None
    assert L.xeq("content.width >= 0") == 1
    L.on_debug(None)
    L.eq("content.width >= 31")
    with pytest.raises(TypeError):
        L.on_debug(42)
    L.on_debug(lambda _t: L.close())  # closing from the reporter: no crash
    with pytest.raises(moa.ClosedError):
        L.eq("content.width >= 40 ?")
    assert L.closed
    assert str(c) == "moa.LayoutConstraint (closed layout)"


def test_violations_and_ambiguities():
    L = moa.Layout(100, 100)
    L.view("a")
    L.eqs("a.left == 0\na.top == 0\na.height == 10\na.width == 50 @ low\na.width == 80 @ high")
    L.solve()
    v = L.violations()
    assert len(v) == 1
    assert str(v[0].constraint) == "a.width == 50 @ 250" and v[0].amount == 30
    L.view("b")
    amb = L.ambiguities()
    assert len(amb) == 4
    assert amb[0].view.name == "b" and [a.var for a in amb] == ["minX", "minY", "width", "height"]


def test_svg(sb):
    s = sb.L.svg()
    assert s.startswith("<svg") and ">content<" in s
    assert ">content<" not in sb.L.svg(labels=False)
    assert len(sb.L.svg(constraints=True, guides=True)) > len(s)
    with pytest.raises(TypeError):
        sb.L.svg("x")


def _page_data(page):
    """The JSON object in the inspector page's data block."""
    start = page.index('<script id="moa-data" type="application/json">')
    start = page.index(">", start) + 1
    return json.loads(page[start:page.index("</script>", start)])


def test_html(sb, tmp_path):
    """The inspector page: frames, equations with lines, a recorded conflict and trace; written to a file."""
    with pytest.raises(moa.ConflictError):
        sb.L.eq("sidebar.right == 100")
    sb.L.trace_start()
    sb.L.collapsible(sb.sidebar, sb.cs[0], "left").collapse(duration=0.2)
    while sb.L.animating:
        sb.L.advance(1 / 60)
    sb.L.trace_stop()
    path = tmp_path / "scene.html"
    page = sb.L.html(path, title="scene </script>")
    assert path.read_text(encoding="utf-8") == page
    assert page.lower().startswith("<!doctype html>") and "__MOA_DATA__" not in page
    data = _page_data(page)
    assert data["title"] == "scene </script>"
    views = {v["name"]: v for v in data["views"]}
    assert views["content"]["superview"] == "root" and views["content"]["rootFrame"] == [0, 0, 320, 480]
    equations = {c["id"]: (c["equation"], c["line"]) for c in data["constraints"]}
    assert ("content.left == sidebar.right", 5) in [equations[i] for i in views["content"]["constraints"]]
    assert data["conflicts"][0]["equation"] == "sidebar.right == root.right + 100"
    xs = [next(f["rootFrame"][0] for f in s["frames"] if f["name"] == "sidebar") for s in data["trace"]]
    assert xs[0] == 0 and xs[-1] == -200 and len(xs) > 10
    with pytest.raises(TypeError):
        sb.L.html(title=3)


def test_children_keep_the_layout_alive():
    for _ in range(20):
        L = moa.Layout(100, 100)
        v = L.view("v")
        c = L.eq("v.width == 10")
        col = L.collapsible(v, L.eq("v.left == 0"), "left")
        p = L.pan([c], "horizontal", [0, 10])
        del L
        gc.collect()
        assert c.constant == 10 and v.name == "v" and col.collapsed is False and p.offset == 0
        assert c.layout.closed is False
        del v, c
        gc.collect()
        del col, p
        gc.collect()


def test_constraints_outlive_their_objects():
    L = moa.Layout(320, 480)
    a = L.view("a")
    L.eqs("a.left == 0\na.top == 0\na.size == 30x40")
    gc.collect()
    L.solve()
    assert a.frame == (0, 0, 30, 40)
    assert len(L.constraints()) == 4
    assert near(L.constraints()[2].constant, 30)
