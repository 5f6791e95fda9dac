"""Motion: the clock, animations with completions (and their order), collapse, keyboard, pan, traces."""
import pytest

import moa
from conftest import near


def ease_in_out(x):
    """cubic-bezier(0.42, 0, 0.58, 1) at time fraction x, by bisection (independent of the library)."""
    def bez(p1, p2, s):
        return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s ** 2 * p2 + s ** 3
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if bez(0.42, 0.58, mid) < x:
            lo = mid
        else:
            hi = mid
    return bez(0, 1, (lo + hi) / 2)


def test_clock(sb):
    L = sb.L
    assert L.time == 0
    L.advance(0.25)
    assert near(L.time, 0.25)
    L.seek(1)
    assert L.time == 1
    with pytest.raises(moa.InvalidError):
        L.seek(0.5)  # never back
    with pytest.raises(moa.InvalidError):
        L.advance(-1)
    with pytest.raises(moa.InvalidError):
        L.advance(float("nan"))
    with pytest.raises(TypeError):
        L.advance("x")
    assert L.advance(0) == []


def test_collapse_golden_frames(sb):
    L, sidebar, content = sb.L, sb.sidebar, sb.content
    col = L.collapsible(sidebar, sb.cs[0], "left")
    assert col.collapsed is False
    log = []
    anim = col.collapse(duration=0.3, curve="easeInOut", done=log.append)
    assert isinstance(anim, moa.Animation)
    assert col.collapsed is True  # at the call
    assert L.animating
    assert L.advance(0) == []
    assert sidebar.frame == (0, 0, 200, 480)
    assert L.advance(0.15) == [sidebar, content]
    assert near(sidebar.frame, (-100, 0, 200, 480)) and near(content.frame, (100, 0, 220, 480))
    assert log == []
    L.advance(0.15)
    assert near(sidebar.frame, (-200, 0, 200, 480)) and near(content.frame, (0, 0, 320, 480))
    assert log == [True]
    L.advance(1)
    assert log == [True]  # exactly once
    assert not L.animating


def test_collapse_follows_ease_in_out(sb):
    col = sb.L.collapsible(sb.sidebar, sb.cs[0], "left")
    col.collapse()  # easeInOut, 0.3 s by default
    for t in (0.03, 0.0823125, 0.1, 0.2, 0.27):
        sb.L.seek(t)
        assert near(sb.sidebar.frame.x, -200 * ease_in_out(t / 0.3))
        assert near(sb.content.frame.width, 120 + 200 * ease_in_out(t / 0.3))


def test_show_toggle_without_animation(sb):
    L, sidebar = sb.L, sb.sidebar
    col = L.collapsible(sidebar, sb.cs[0], "left")
    log = []
    assert col.collapse(animated=False, done=log.append) is None
    assert col.collapsed
    L.solve()
    assert sidebar.frame == (-200, 0, 200, 480)
    assert log == []
    L.advance(0)
    assert log == [True]  # at the next frame
    col.show(duration=0.2, curve="linear")
    L.advance(0.1)
    assert near(sidebar.frame.x, -100)
    col.toggle()  # mid-animation: retargets from where it is
    assert col.collapsed
    L.advance(0.3)
    assert near(sidebar.frame.x, -200)
    col.toggle(animated=False)
    assert not col.collapsed
    col.free()
    with pytest.raises(moa.NotFoundError):
        col.toggle()
    with pytest.raises(moa.InvalidError):
        L.collapsible(sidebar, sb.cs[0], "sideways")
    with pytest.raises(moa.InvalidError):
        L.collapsible(sidebar, sb.cs[1], "left")  # a vertical constraint
    with pytest.raises(TypeError):
        L.collapsible(sidebar, sidebar, "left")


def test_animate_constant_curves_delay_done(sb):
    L, sidebar, c = sb.L, sb.sidebar, sb.cs[3]
    done = []
    c.animate(100, duration=1, curve="linear", delay=0.5, done=done.append)
    L.advance(0.5)
    assert near(sidebar.frame.width, 200)
    L.advance(0.25)
    assert near(sidebar.frame.width, 175) and near(c.constant, 175)
    L.advance(0.75)
    assert near(sidebar.frame.width, 100)
    assert done == [True]
    c.animate(200, spring={"damping": 1, "response": 0.3})
    while L.animating:
        L.advance(1 / 60)
    assert near(sidebar.frame.width, 200, 1e-3)
    c.animate(150, duration=0.2, curve=(0.25, 0.1, 0.25, 1))
    L.advance(0.2)
    assert near(sidebar.frame.width, 150)
    c.animate(100, curve="spring")
    while L.animating:
        L.advance(1 / 60)
    assert near(sidebar.frame.width, 100, 1e-3)


@pytest.mark.parametrize("args,kwargs,exc", [
    ((float("inf"),), {}, moa.InvalidError),
    ((float("nan"),), {}, moa.InvalidError),
    ((1,), {"duration": -1}, moa.InvalidError),
    ((1,), {"duration": float("nan")}, moa.InvalidError),
    ((1,), {"delay": float("inf")}, moa.InvalidError),
    ((1,), {"curve": "bouncy"}, moa.InvalidError),
    ((1,), {"curve": (0, 1)}, TypeError),
    ((1,), {"curve": (2, 0, 1, 1)}, moa.InvalidError),
    ((1,), {"curve": {"damping": 0}}, moa.InvalidError),
    ((1,), {"curve": {"stiff": 1}}, moa.InvalidError),
    ((1,), {"spring": "yes"}, TypeError),
    ((1,), {"done": 42}, TypeError),
    (("x",), {}, TypeError),
])
def test_animate_refuses_bad_options(sb, args, kwargs, exc):
    with pytest.raises(exc):
        sb.cs[3].animate(*args, **kwargs)
    assert not sb.L.animating
    assert not moa._layout._callbacks or all(e[0] is not sb.L._core for e in moa._layout._callbacks.values())


def test_completion_order_and_retargeting(sb):
    L, cs = sb.L, sb.cs
    log = []

    def tag(name):
        return lambda finished: log.append("%s:%s" % (name, finished))

    cs[3].animate(150, duration=0.5, curve="linear", done=tag("long"))
    cs[1].animate(10, duration=0.2, curve="linear", done=tag("short"))
    cs[2].animate(-10, duration=0.2, curve="linear", done=tag("short2"))
    cs[3].animate(120, duration=0.1, curve="linear", done=tag("retarget"))  # takes over "long"
    L.advance(0)
    assert log == ["long:False"]
    L.advance(0.1)
    assert log == ["long:False", "retarget:True"]
    L.advance(0.1)
    assert log == ["long:False", "retarget:True", "short:True", "short2:True"]
    assert near(sb.sidebar.frame.width, 120)


def test_cancel_and_stop_animating(sb):
    L, c = sb.L, sb.cs[3]
    log = []
    a = c.animate(100, duration=1, curve="linear", done=log.append)
    L.advance(0.5)
    a.cancel()
    L.advance(0)
    assert log == [False]
    assert near(sb.sidebar.frame.width, 150)
    a.cancel()  # ended already: a no-op
    c.animate(0, duration=1)
    L.advance(0.1)
    c.stop_animating()
    c.constant = 180
    L.advance(1)
    assert near(sb.sidebar.frame.width, 180)
    c.animate(0, duration=1)
    L.cancel_animations()
    L.advance(1)
    assert not L.animating


def test_animate_root_size_and_priority(sb):
    L = sb.L
    L.animate_root_size(400, 480, duration=0.2, curve="linear")
    L.advance(0.1)
    assert near(sb.content.frame.width, 160)
    L.advance(0.1)
    assert near(sb.content.frame.width, 200)
    c = L.eq("content.width == 50 @ 1")
    c.animate_priority(999, duration=0.1)
    L.advance(0.1)
    assert c.priority == 999
    with pytest.raises(moa.InvalidError):
        c.animate_priority(0)


def test_keyboard():
    L = moa.Layout(320, 480)
    form = L.view("form")
    L.eqs("form.left == 0\nform.right == 0\nform.top == 0\nform.bottom == keyboard.top - 8")
    L.solve()
    log = []
    L.show_keyboard(200, 0.25, done=log.append)
    L.advance(0.125)
    assert near(form.frame.height, 480 - 8 - 100)  # easeInOut: halfway at half the duration
    L.advance(0.125)
    assert near(form.frame.height, 480 - 8 - 200)
    assert log == [True]
    L.hide_keyboard(0.1, curve="linear")
    L.advance(0.05)
    assert near(form.frame.height, 480 - 8 - 100)
    L.advance(0.05)
    assert near(form.frame.height, 472)
    with pytest.raises(moa.InvalidError):
        L.show_keyboard(-1)


def test_pan_follows_snaps_back_and_over(calculator):
    L, pan, basic, advanced = calculator

    def at(offset):
        L.solve()
        assert near(basic.frame, (offset, 160, 320, 320)) and near(advanced.frame, (320 + offset, 160, 320, 320))

    rests = []

    def on_rest(rest, finished):
        rests.append((rest, finished))

    assert pan.began()
    assert pan.changed(-30, -100)
    at(-30)
    pan.changed(-80, -150)
    at(-80)
    pan.changed(-100, -50)
    at(-100)
    assert near(pan.offset, -100)
    assert pan.ended(-50, on_rest) == 0
    L.seek(0.15)  # the default snap curve is easeInOut (UIKit's default): halfway at half the duration
    assert near(basic.frame, (-50, 160, 320, 320))
    assert rests == []
    L.seek(0.3)
    at(0)
    assert rests == [(0, True)] and pan.rest_position == 0
    # a fast swipe moves at most 20 per event and snaps over
    pan.began()
    pan.changed(-60, -900)
    at(-20)
    pan.changed(-150, -1200)
    at(-40)
    pan.changed(-45, -300)
    at(-45)
    assert pan.ended(-1200, on_rest) == -320
    L.advance(0.15)
    assert len(rests) == 1
    L.advance(0.15)
    at(-320)
    assert rests[1] == (-320, True) and pan.rest_position == -320
    # the drag limit, an interrupted snap, cancel
    pan.began()
    pan.changed(400, 100)
    at(-160)
    assert pan.ended(0, on_rest) == 0
    L.advance(0.1)
    pan.began()
    L.advance(0)
    assert rests[2] == (0, False)
    assert pan.cancelled(on_rest) == 0
    L.advance(0.3)
    at(0)
    assert rests[3] == (0, True)


def test_pan_enabled_options_rest_positions_move(calculator):
    L, pan, basic, _ = calculator
    rests = []
    pan.enabled = False
    assert pan.enabled is False
    assert pan.began() is False
    assert pan.changed(-100, -100) is False
    assert pan.ended(-1000, lambda *a: rests.append("called")) is None
    L.advance(1)
    L.solve()
    assert basic.frame.x == 0 and rests == []
    assert pan.set_enabled(True).enabled
    pan.set_options(drag_limit=50, snap_duration=0.1, snap_curve="linear")
    pan.began()
    pan.changed(-100, -100)
    L.solve()
    assert basic.frame.x == -50
    assert pan.ended(0) == 0
    L.advance(0.05)
    assert near(basic.frame.x, -25)
    L.advance(0.05)
    pan.move(-320, False, lambda rest, f: rests.append((rest, f)))
    L.solve()
    assert basic.frame.x == -320
    L.advance(0)
    assert rests == [(-320, True)]
    pan.set_rest_positions([0, -160, -320])
    pan.set_options(drag_limit="auto", snap_duration=0.3, snap_curve="easeOut")
    pan.began()
    pan.changed(130, 10)
    assert pan.ended(0) == -160
    pan.free()
    L.advance(0.3)  # the snap runs on after the driver is freed
    assert basic.frame.x == -160
    with pytest.raises(moa.NotFoundError):
        pan.began()
    with pytest.raises(moa.NotFoundError):
        pan.offset


def test_pan_options_read_back_and_orientations(calculator):
    L, pan, basic, _ = calculator
    assert pan.options == dict(fast_velocity=400, fast_step=20, drag_limit="auto", snap_duration=0.3,
                               snap_curve="easeInOut")
    pan.set_options(snap_curve="keyboard", drag_limit=70)
    assert pan.options["snap_curve"] == "keyboard" and pan.options["drag_limit"] == 70
    assert pan.options["snap_duration"] == 0.3  # the others kept
    pan.set_options(snap_curve=(0.1, 0.2, 0.3, 0.4))
    assert isinstance(pan.options["snap_curve"], int) and pan.options["snap_curve"] >= 256
    # Portrait only, as the calculator: landscape ignores events; a rotation mid-drag ends the drag.
    pan.set_options(drag_limit="auto", snap_curve="easeInOut", orientations="portrait")
    assert L.orientation == "portrait"
    L.set_root_size(480, 320)
    assert L.orientation == "landscape"
    assert pan.began() is False
    L.set_root_size(320, 480)
    assert pan.began() is True
    pan.changed(-200, -100)
    L.solve()
    assert basic.frame.x == -160
    L.set_root_size(480, 320)
    assert pan.changed(-10, 0) is False
    L.set_root_size(320, 480)
    L.advance(0.3)
    L.solve()
    assert basic.frame.x == -320
    pan.set_options(orientations="any")
    L.set_root_size(480, 320)
    assert pan.began() is True
    with pytest.raises(moa.InvalidError):
        pan.set_options(orientations="upside-down")


def test_pan_misuse(calculator):
    L, pan, _, _ = calculator
    with pytest.raises(moa.InvalidError):
        L.pan([], "horizontal", [0])
    with pytest.raises(TypeError):
        L.pan([1], "horizontal", [0])
    with pytest.raises(moa.InvalidError):
        L.pan([L.constraints()[0]], "diagonal", [0])
    with pytest.raises(moa.InvalidError):
        L.pan([L.constraints()[2]], "horizontal", [0])  # display.top: vertical
    with pytest.raises(moa.InvalidError):
        pan.changed(float("nan"), 0)
    with pytest.raises(moa.InvalidError):
        pan.set_options(fast_step=-1)
    with pytest.raises(moa.InvalidError):
        pan.set_options(drag_limit=-5)
    with pytest.raises(moa.InvalidError):
        pan.set_rest_positions([])
    with pytest.raises(moa.InvalidError):
        pan.set_rest_positions([0, float("inf")])
    with pytest.raises(TypeError):
        pan.ended(0, 42)
    with pytest.raises(TypeError):
        pan.enabled = 1


def test_traces(sb):
    L = sb.L
    col = L.collapsible(sb.sidebar, sb.cs[0], "left")
    L.trace_start()
    col.collapse(duration=0.3, curve="linear")
    for _ in range(3):
        L.advance(0.15)
    L.trace_stop()
    L.advance(0.15)  # not recorded
    csv = L.trace_csv()
    assert csv.startswith("time,view,superview,x,y,width,height,rootX,rootY\n")
    assert "0.15,sidebar,root,-100,0,200,480,-100,0\n" in csv
    assert "\n0.6," not in csv
    assert L.trace_json().startswith('{"frames":')
    strip = L.trace_svg_strip(3)
    assert strip.startswith("<svg") and "t = 0.15 s" in strip
    assert isinstance(L.trace_svg_strip(), str)
    with pytest.raises(moa.InvalidError):
        L.trace_svg_strip(-1)
    L.trace_start(guides=True)
    L.advance(0)
    assert "keyboard" in L.trace_csv()
