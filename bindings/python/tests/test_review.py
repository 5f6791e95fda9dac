"""What an adversarial review of the Python binding found (sixteenth session), each reduced to a test."""
import fractions
import gc
import sys
import threading
import weakref

import pytest

import moa

_layout = sys.modules["moa._layout"]


def closing_measure(L):
    return lambda *a: (L.close(), (1, 1))[1]


@pytest.mark.parametrize("read", [
    lambda L: L.svg(),
    lambda L: L.html(),
    lambda L: L.frames(),
    lambda L: L["v"] and L.solve(),
])
def test_a_call_whose_callback_closed_the_layout_reads_nothing_of_it(read):
    L = moa.Layout(100, 100)
    v = L.view("v")
    v.set_measure(closing_measure(L))
    with pytest.raises(moa.ClosedError):
        read(L)
    assert L.closed


def test_text_lines_after_the_font_closed_the_layout():
    L = moa.Layout(100, 100)
    v = L.view("v")
    v.set_text("hello world")
    L.set_font(lambda s, size: (L.close(), 5.0)[1])
    with pytest.raises(moa.ClosedError):
        v.text_lines()


def test_a_completion_error_is_not_lost_when_a_measure_function_closes_the_layout():
    L = moa.Layout(320, 480)
    v = L.view("v")
    c = L.eq("v.left == 0")
    seen = []

    def done(finished):
        seen.append(finished)
        raise ValueError("from the completion")

    c.animate(10, 1, done=done)
    v.set_measure(closing_measure(L))
    with pytest.raises(ValueError, match="from the completion"):
        L.solve()
    assert seen == [False]


def test_a_stopped_stack_gives_its_views_back():
    L = moa.Layout(320, 480)
    vs = [L.view(n) for n in "abcd"]
    calls = [0]

    def progress(steps):
        calls[0] += 1
        return calls[0] <= 10  # a deadline that keeps saying stop once passed

    L.on_progress(progress, 1)
    with pytest.raises(moa.LimitError):
        L.stack("s", views=vs)
    assert [v.removed for v in vs] == [False] * 4
    assert L.find("s") is None
    L.on_progress(None)


def test_a_call_on_a_closed_layout_registers_no_callback():
    L = moa.Layout(320, 480)
    a = L.view("a")
    cs = L.eqs("a.left == 0\na.top == 0\na.width == 10\na.height == 10")
    col = L.collapsible(a, cs[0], "left")
    p = L.pan(cs[0], rest=[0, 10])
    before = len(_layout._callbacks)
    L.close()

    class Big:
        pass

    big = Big()
    alive = weakref.ref(big)
    for call in (lambda: cs[0].animate(5, done=lambda f, big=big: None),
                 lambda: col.collapse(done=lambda f, big=big: None),
                 lambda: p.move(5, done=lambda r, f, big=big: None),
                 lambda: p.ended(0, done=lambda r, f, big=big: None),
                 lambda: L.animate_root_size(5, 5, done=lambda f, big=big: None),
                 lambda: L.show_keyboard(5, done=lambda f, big=big: None),
                 lambda: L.hide_keyboard(done=lambda f, big=big: None)):
        with pytest.raises(moa.ClosedError):
            call()
    del big
    gc.collect()
    assert len(_layout._callbacks) == before
    assert alive() is None


@pytest.mark.parametrize("call", [
    lambda L, c, s, x: L.set_root_size(10**400, 1),
    lambda L, c, s, x: moa.Layout(10**400, 1),
    lambda L, c, s, x: c.set_constant(fractions.Fraction(10**400, 3)),
    lambda L, c, s, x: x * 10**400,
    lambda L, c, s, x: L.add_views(["q"], sizes=[(10**400, 1)]),
])
def test_numbers_beyond_a_double_are_invalid_not_overflow(call):
    L = moa.Layout(100, 100)
    L.view("v")
    c = L.eq("v.left == 0")
    s = moa.Solver()
    x = s.var()
    with pytest.raises(moa.InvalidError):
        call(L, c, s, x)


def test_counts_beyond_a_size_t_are_refused():
    L = moa.Layout(100, 100)
    L.view("v")
    L.eqs("v.left == 0\nv.top == 0\nv.width == 10\nv.height == 10")
    L.trace_start()
    L.advance(0.1)
    L.trace_stop()
    with pytest.raises(moa.InvalidError):
        L.trace_svg_strip(max_frames=2**64 + 3)


def test_one_layout_used_from_two_threads_does_not_crash():
    L = moa.Layout(320, 480)
    n = 100
    L.add_views(["v%d" % i for i in range(n)])
    L.eqs("\n".join("v%d.left == %d\nv%d.top == 0\nv%d.width == 10\nv%d.height == 10" % (i, i, i, i, i)
                    for i in range(n)))
    errors = []

    def worker(k):
        try:
            for j in range(100):
                L.eq("v%d.left == %d" % ((j * 7 + k) % n, j))
                L.solve()
                L.frames()
        except moa.Error as e:
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(L.frames()) == n + 1
