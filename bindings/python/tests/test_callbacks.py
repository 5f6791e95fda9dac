"""Callbacks: exceptions never cross into C and surface after the call; re-entrant calls; closing from a
callback; pending completions at close and at collection."""
import gc
import os
import subprocess
import sys
import textwrap

import pytest

import moa
from conftest import near, PACKAGE_PARENT


def test_raising_completion_surfaces_after_the_call(sb):
    L, cs = sb.L, sb.cs
    after = []

    def boom(_finished):
        raise ValueError("boom in done")

    cs[3].animate(100, duration=0.1, done=boom)
    cs[1].animate(5, duration=0.1, done=after.append)
    with pytest.raises(ValueError, match="boom in done"):
        L.advance(0.1)
    assert after == [True]  # the other completions of that frame still ran
    assert near(sb.sidebar.frame.width, 100)  # the frame was made
    assert not L.animating
    assert L.time == pytest.approx(0.1)
    # usable: a new animation runs and completes
    cs[3].animate(200, duration=0.1, done=after.append)
    L.advance(0.1)
    assert after == [True, True]


def test_first_exception_wins_and_the_object_is_kept(sb):
    L, cs = sb.L, sb.cs
    first, second = KeyError("first"), RuntimeError("second")

    def raise_(e):
        def fn(_finished):
            raise e
        return fn

    cs[3].animate(150, duration=0.1, done=raise_(first))
    cs[1].animate(5, duration=0.1, done=raise_(second))
    with pytest.raises(KeyError) as ei:
        L.advance(0.1)
    assert ei.value is first


def test_keyboard_interrupt_in_a_callback_does_not_escape_into_c(sb):
    def interrupt(_finished):
        raise KeyboardInterrupt

    sb.cs[3].animate(150, duration=0.1, done=interrupt)
    with pytest.raises(KeyboardInterrupt):
        sb.L.advance(0.1)
    assert near(sb.sidebar.frame.width, 150)
    sb.L.advance(0.1)


def test_raising_pan_rest_callback(calculator):
    L, pan, _, _ = calculator
    pan.began()
    pan.changed(-10, -10)

    def failing(rest, finished):
        raise RuntimeError("rest failed")

    pan.ended(0, failing)
    with pytest.raises(RuntimeError, match="rest failed"):
        L.advance(0.3)
    assert isinstance(L.advance(0.1), list)


def test_advance_from_a_callback_is_refused(sb):
    L = sb.L
    sb.cs[3].animate(100, duration=0.1, done=lambda _f: L.advance(1))
    with pytest.raises(moa.MisuseError):
        L.advance(0.1)
    L.advance(0.1)


def test_a_callback_that_closes_the_layout(sb):
    L, cs = sb.L, sb.cs
    log = []

    def first(f):
        log.append("first:%s" % f)
        L.close()

    cs[3].animate(100, duration=0.1, done=first)
    cs[1].animate(5, duration=0.1, done=lambda f: log.append("second:%s" % f))
    cs[2].animate(5, duration=5, done=lambda f: log.append("later:%s" % f))
    assert L.advance(0.1) is None
    assert L.closed
    assert log == ["first:True", "second:True", "later:False"]
    with pytest.raises(moa.ClosedError):
        L.advance(0.1)
    with pytest.raises(moa.ClosedError):
        sb.sidebar.frame
    L.close()  # idempotent; never a double free


def test_completion_that_starts_animations_and_adds_views(sb):
    L, cs = sb.L, sb.cs
    log = []

    def more(_f):
        L.view("late")
        L.eqs("late.size == 10x10")
        cs[3].animate(200, duration=0.1, done=log.append)

    cs[3].animate(100, duration=0.1, done=more)
    L.advance(0.1)
    L.advance(0.1)
    assert log == [True]
    assert L.find("late") is not None


def test_close_calls_pending_completions_and_raises_their_error(sb):
    L, cs = sb.L, sb.cs
    log = []
    cs[3].animate(100, duration=1, done=log.append)

    def bad(_f):
        raise RuntimeError("from close")

    cs[1].animate(5, duration=1, done=bad)
    with pytest.raises(RuntimeError, match="from close"):
        L.close()
    assert log == [False]
    assert L.closed
    assert not any(e[0] is L._core for e in moa._layout._callbacks.values())


def test_collected_layout_calls_completions_and_drops_their_errors():
    count = []

    def make():
        L = moa.Layout(100, 100)
        L.view("v")
        c = L.eq("v.width == 10")

        def done(f):
            count.append(f)
            raise RuntimeError("ignored")

        c.animate(1, duration=1, done=done)

    make()
    gc.collect()
    assert count == [False]


def test_failed_calls_do_not_keep_their_callback(sb):
    before = len(moa._layout._callbacks)
    with pytest.raises(moa.InvalidError):
        sb.cs[3].animate(1, duration=-1, done=lambda f: None)
    with pytest.raises(moa.InvalidError):
        sb.L.collapsible(sb.sidebar, sb.cs[0], "left").collapse(duration=float("nan"), done=lambda f: None)
    assert len(moa._layout._callbacks) == before


def test_a_separate_process_survives_misuse_and_exits_cleanly():
    """Misuse that would crash the host if it reached Swift unchecked, in a fresh interpreter; the process
    must end with status 0 (a trap would be SIGILL)."""
    code = textwrap.dedent("""
        import gc, moa
        L = moa.Layout(100, 100)
        v = L.view("v")
        c = L.eq("v.width == 10")
        c.animate(1, duration=1, done=lambda f: 1 / 0)
        for bad in (lambda: L.advance(float("nan")), lambda: c.set_constant(float("inf")),
                    lambda: L.eq("v.width == 1e400"), lambda: L.view("x" * 100000 + "\\0"),
                    lambda: L.set_root_size(1e300, 1), lambda: L.pan([c], "horizontal", [float("nan")])):
            try:
                bad()
            except (moa.Error, ValueError, TypeError):
                pass
        c.remove()
        try:
            c.remove()
        except moa.NotFoundError:
            pass
        try:
            L.close()  # the pending completion runs (finished=False) and raises ZeroDivisionError here
        except ZeroDivisionError:
            pass
        L.close()
        try:
            v.frame
        except moa.ClosedError:
            pass
        del L, v, c
        gc.collect()
        print("survived")
    """)
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)  # the moa under test (checkout or installed)
    r = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "survived"
