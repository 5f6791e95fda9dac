"""Limits and progress (moa.h, "Limits and progress"): Layout.set_limit / limit / usage, the same on a Solver (the
same names: rows, cells, seconds, pivots), and Layout.on_progress. A call stopped by a limit or by the progress
function raises LimitError and changes nothing; an exception raised by the progress function stops the call and is
raised as it is once the C call returned; the progress function cannot change the layout. Mirrors
bindings/lua/spec/limits_spec.lua."""
import gc
import threading
import weakref

import pytest

import moa


def row_scene(n):
    """A layout of n views in a row, and the text of 3 equations per view (left, top, width): 3n constraints."""
    L = moa.Layout(320, 480)
    lines = []
    for i in range(1, n + 1):
        L.view("v%d" % i)
        prev = "root.left" if i == 1 else "v%d.right" % (i - 1)
        lines += ["v%d.left == %s + 1" % (i, prev), "v%d.top == 0" % i, "v%d.width == 10" % i]
    return L, "\n".join(lines)


def frames(L):
    """Every view's frame as of the last solve, by name."""
    return {v.name: v.frame for v in L.views()}


def check_limit(e):
    assert isinstance(e, moa.LimitError) and isinstance(e, moa.Error)
    assert e.code == "LIMIT" and e.status == 10
    assert e.conflicts == []


PREFS = (40.5, 50.25, 60.125, 72.75)


def drag_row(n):
    """The drag row (shared/bench/DRAG.md) on a raw solver: n boxes 8 apart, each >= 20 wide and preferring 40.5
    to 72.75 at one of seven soft priorities with distinct weights; the trailing space prefers 8 (@325); the
    container's right edge is an edit (@750) at the natural width. Suggesting the minimum width takes a pivot per
    box. Returns s, the edit variable, every variable (container left and right, then left and width of each
    box), the natural and the minimum width."""
    s = moa.Solver()
    cl, cr = s.var("container.left"), s.var("container.right")
    variables, natural, prev = [cl, cr], 8.0 * n + 8, None
    s.add(cl == 0)
    for i in range(n):
        left, width = s.var("left%d" % i), s.var("width%d" % i)
        variables += [left, width]
        s.add(left == (cl + 8 if prev is None else prev + 8))
        s.add(width >= 20)
        s.add(width == PREFS[i % 4], 250 + 8 * (i % 7), 1 + i / 1024)
        natural += PREFS[i % 4]
        prev = left + width
    s.add(cr >= prev + 8)
    s.add(prev + 8 == cr, 325)
    s.edit(cr, 750).suggest(cr, natural).update()
    return s, cr, variables, natural, 28.0 * n + 8


# ---------------------------------------------------------------------------------------------- layout limits

def test_layout_defaults():
    with moa.Layout(320, 480) as L:
        assert L.limit("rows") == 10_000_000 and isinstance(L.limit("rows"), int)
        assert L.limit("cells") == 100_000_000 and isinstance(L.limit("cells"), int)
        assert L.limit("seconds") == 0.0 and isinstance(L.limit("seconds"), float)
        assert L.limit("pivots") == 10_000_000 and isinstance(L.limit("pivots"), int)


def test_layout_set_and_read():
    with moa.Layout(320, 480) as L:
        assert L.set_limit("rows", 1234) is L
        assert L.limit("rows") == 1234
        L.set_limit("cells", 5678)
        assert L.limit("cells") == 5678
        L.set_limit("seconds", 0.25)
        assert L.limit("seconds") == 0.25
        L.set_limit("seconds", 0)
        assert L.limit("seconds") == 0
        L.set_limit("pivots", 42)
        assert L.limit("pivots") == 42


def test_layout_bad_names_and_values():
    with moa.Layout(320, 480) as L:
        with pytest.raises(moa.InvalidError, match=r"unknown limit 'bogus' \(expected rows, cells, seconds, pivots"):
            L.limit("bogus")
        with pytest.raises(moa.InvalidError, match="unknown limit"):
            L.set_limit("bogus", 1)
        with pytest.raises(TypeError):
            L.set_limit(3, 1)
        with pytest.raises(TypeError):
            L.set_limit("rows", "10")
        for name, value in (("rows", 0), ("cells", 2.5), ("seconds", -1), ("rows", 2.0**60), ("pivots", 0),
                            ("pivots", 2.5), ("pivots", -1)):
            with pytest.raises(moa.InvalidError):
                L.set_limit(name, value)
        with pytest.raises(moa.InvalidError, match="finite"):
            L.set_limit("seconds", float("inf"))
        assert L.limit("rows") == 10_000_000  # unchanged
        assert L.limit("pivots") == 10_000_000


def test_cell_limit_refuses_a_big_block_and_changes_nothing():
    L, text = row_scene(100)
    L.eqs("v1.height == 20")
    L.solve()
    before, before_frames, before_usage = L.describe(), frames(L), L.usage()
    L.set_limit("cells", 50)
    with pytest.raises(moa.LimitError) as ei:
        L.eqs(text)
    check_limit(ei.value)
    assert "the limit is 50" in str(ei.value)
    assert ei.value.kind == "limit"
    assert ei.value.line >= 1  # the equation that did not go in
    assert L.describe() == before
    assert L.usage() == before_usage
    L.solve()
    assert frames(L) == before_frames

    L.set_limit("cells", 1e8)
    assert len(L.eqs(text)) == 300
    L.solve()
    assert L["v2"].frame.x == 12


def test_row_limit_refuses_a_single_eq():
    with moa.Layout(320, 480) as L:
        L.view("a")
        L.set_limit("rows", L.usage().rows)
        with pytest.raises(moa.LimitError):
            L.eq("a.left == 10")
        assert L.describe() == ""
        L.set_limit("rows", L.usage().rows + 10)
        L.eq("a.left == 10")


def test_time_limit():
    L, text = row_scene(1000)
    L.set_limit("seconds", 1e-9)
    with pytest.raises(moa.LimitError, match="limit of 1e-09 s") as ei:
        L.eqs(text)
    check_limit(ei.value)
    assert L.describe() == ""
    L.set_limit("seconds", 0)
    assert len(L.eqs(text)) == 3000


def test_pivots_limit_stops_a_block_that_must_shrink_a_row():
    """Each solver operation of a call gets the limit: a right edge that every box but one gives way to takes a
    pivot per box, so under a limit of 1 the block fails and no frame moves."""
    with moa.Layout(320, 480) as L:
        lines = []
        for i in range(10):
            L.view("b%d" % i)
            lines.append("b0.left == 8" if i == 0 else "b%d.left == b%d.right + 8" % (i, i - 1))
            lines.append("b%d.top == 0\nb%d.height == 20\nb%d.width >= 20" % (i, i, i))
            lines.append("b%d.width == %s @ %d" % (i, PREFS[i % 4], 250 + 8 * (i % 7)))
        L.eqs("\n".join(lines))
        L.solve()
        before, before_frames, before_usage = L.describe(), frames(L), L.usage()
        L.set_limit("pivots", 1)
        block = "b9.right == root.left + 300"
        with pytest.raises(moa.LimitError, match="limit of 1 pivot") as ei:
            L.eqs(block)
        check_limit(ei.value)
        assert ei.value.kind == "limit" and ei.value.line == 1
        assert L.describe() == before
        assert L.usage() == before_usage
        L.solve()
        assert frames(L) == before_frames
        L.set_limit("pivots", 1e7)
        L.eqs(block)
        L.solve()
        f = L["b9"].frame
        assert f.x + f.width == pytest.approx(300, abs=1e-9)


def test_limit_in_a_stack_undoes_it():
    with moa.Layout(320, 480) as L:
        views = [L.view("s%d" % i) for i in range(20)]
        L.set_limit("cells", L.usage().cells + 10)
        with pytest.raises(moa.LimitError):
            L.stack("st", views=views)
        assert L.find("st") is None  # the stack is not made
        assert all(v.superview == L.root for v in views)
        L.set_limit("cells", 1e8)
        assert L.stack("st", views=views).views == views


# ---------------------------------------------------------------------------------------------- layout usage

def test_usage_grows_and_shrinks_back():
    with moa.Layout(320, 480) as L:
        u0 = L.usage()
        assert isinstance(u0, moa.Usage) and all(isinstance(n, int) for n in u0)
        assert u0.views >= 1
        a, b = L.view("a"), L.view("b")
        u1 = L.usage()
        assert u1.views == u0.views + 2
        assert u1.variables == u0.variables + 8
        L.eqs("a.left == 0\na.width == 10\nb.left == a.right\nb.width == 20")
        u2 = L.usage()
        assert u2.constraints == u1.constraints + 4
        assert u2.rows > u1.rows and u2.cells > u1.cells
        b.remove()
        a.remove()
        assert L.usage() == u0


# ---------------------------------------------------------------------------------------------- the progress function

def test_progress_is_called_with_growing_steps():
    L, text = row_scene(1000)
    steps = []
    assert L.on_progress(steps.append, 100) is L
    assert len(L.eqs(text)) == 3000
    assert steps == list(range(100, 3001, 100))
    assert all(isinstance(n, int) for n in steps)


def test_progress_default_interval_and_removal():
    L, text = row_scene(1000)
    steps = []
    L.on_progress(steps.append)
    L.eqs(text)
    assert steps == [1000, 2000, 3000]
    L2, text2 = row_scene(1000)

    def never(_steps):
        raise AssertionError("removed")

    L2.on_progress(never, 1)
    L2.on_progress(None)
    L2.eqs(text2)


def test_progress_arguments():
    with moa.Layout(320, 480) as L:
        with pytest.raises(TypeError):
            L.on_progress(42)
        with pytest.raises(TypeError):
            L.on_progress(print, 1.5)
        with pytest.raises(TypeError):
            L.on_progress(print, True)
        with pytest.raises(moa.InvalidError, match="interval"):
            L.on_progress(print, 0)


def test_returning_false_stops_the_call():
    L, text = row_scene(1000)
    L.eqs("v1.left == 5\nv1.top == 5\nv1.width == 5\nv1.height == 5")
    L.solve()
    before, before_frames, before_usage = L.describe(), frames(L), L.usage()
    seen = []

    def fn(n):
        seen.append(n)
        return n < 500

    L.on_progress(fn, 100)
    with pytest.raises(moa.LimitError, match="stopped the call after 500 constraints") as ei:
        L.eqs(text)
    check_limit(ei.value)
    assert seen[-1] == 500
    assert L.describe() == before
    assert L.usage() == before_usage
    L.solve()
    assert frames(L) == before_frames
    # None (no return) and other values go on
    L.on_progress(lambda n: None, 100)
    L.eqs(text)


def test_progress_inside_one_solver_operation():
    """Called every 256 pivots inside one solver operation (a row of 600 boxes between their minimum and their
    preferences: one edge moves every box, a pivot each), where every call on the layout raises MisuseError."""
    L = moa.Layout(2000, 100)
    lines = []
    for i in range(600):
        L.view("b%d" % i)
        lines.append("b0.left == 0" if i == 0 else "b%d.left == b%d.right + 4" % (i, i - 1))
        lines.append("b%d.top == 0\nb%d.height == 20\nb%d.width >= 1\nb%d.width == %d @ %d"
                     % (i, i, i, i, 50 + i % 7, 250 + i % 9 * 10))
    L.eqs("\n".join(lines))
    L.solve()
    before, calls, inner = L.describe(), [], []

    def stop(n):
        calls.append(n)
        with pytest.raises(moa.MisuseError, match="solver operation is under way"):
            L.describe()
        inner.append(True)
        return False

    L.on_progress(stop, 1000000)
    with pytest.raises(moa.LimitError, match="progress"):
        L.eq("b599.right == 2000")
    assert calls == [1] and inner == [True]
    assert L.describe() == before
    L.on_progress(lambda n: calls.append(n), 1000000)
    L.eq("b599.right == 2000")
    assert len(calls) >= 3
    L.solve()
    f = L.find("b599").frame
    assert abs(f.x + f.width - 4000) < 1e-6


def test_an_exception_stops_the_call_and_is_raised_as_it_is():
    L, text = row_scene(300)
    error = KeyError("stop here")
    seen = []

    def fn(n):
        seen.append(n)
        raise error

    L.on_progress(fn, 50)
    with pytest.raises(KeyError) as ei:
        L.eqs(text)
    assert ei.value is error
    assert seen == [50]
    assert L.describe() == ""
    # nothing left behind for the next call
    L.on_progress(None)
    assert len(L.eqs(text)) == 900


def test_keyboard_interrupt_comes_through():
    L, text = row_scene(100)

    def fn(_n):
        raise KeyboardInterrupt

    L.on_progress(fn, 10)
    with pytest.raises(KeyboardInterrupt):
        L.eqs(text)
    assert L.describe() == ""


def test_an_exception_in_a_call_that_does_not_solve():
    with moa.Layout(320, 480) as L:
        views = [L.view("s%d" % i) for i in range(20)]

        def fn(_n):
            raise RuntimeError("no stacks today")

        L.on_progress(fn, 1)
        with pytest.raises(RuntimeError, match="no stacks today"):
            L.stack("st", views=views)
        assert L.find("st") is None
        assert all(v.superview == L.root for v in views)
        L.on_progress(None)
        L.stack("st", views=views)


def test_progress_cannot_change_the_layout():
    L, text = row_scene(100)
    errors, described = [], []

    def fn(_n):
        for f in (L.solve, lambda: L.eq("v1.height == 1"), lambda: L.on_progress(None),
                  lambda: L.set_limit("rows", 5)):
            try:
                f()
                errors.append(None)
            except moa.MisuseError as e:
                errors.append(e)
        described.append(L.describe())  # reading is allowed

    L.on_progress(fn, 100)
    assert len(L.eqs(text)) == 300
    assert len(errors) == 12  # 3 calls of fn, 4 attempts each
    assert all(e is not None and "progress handler" in str(e) for e in errors)
    assert len(described) == 3 and all(isinstance(d, str) for d in described)
    assert L.limit("rows") == 10_000_000
    L.solve()
    assert L["v2"].frame.x == 12


def test_progress_may_close_the_layout():
    L, text = row_scene(100)
    L.on_progress(lambda n: L.close(), 10)
    with pytest.raises(moa.ClosedError):
        L.eqs(text)
    assert L.closed


def test_progress_function_is_released_when_replaced():
    L, text = row_scene(100)

    class Fn:
        def __call__(self, n):
            return None

    fn = Fn()
    ref = weakref.ref(fn)
    L.on_progress(fn, 10)
    del fn
    L.eqs(text)
    assert ref() is not None  # held while set
    L.on_progress(None)
    gc.collect()
    assert ref() is None


def test_progress_on_another_thread():
    L, text = row_scene(300)
    threads = []
    L.on_progress(lambda n: threads.append(threading.current_thread()), 300)
    t = threading.Thread(target=L.eqs, args=(text,))
    t.start()
    t.join()
    assert threads == [t] * 3


# ---------------------------------------------------------------------------------------------- solver limits

def test_solver_defaults_and_names():
    with moa.Solver() as s:
        assert s.limit("rows") == 10_000_000
        assert s.limit("cells") == 100_000_000
        assert s.limit("seconds") == 0.0 and isinstance(s.limit("seconds"), float)
        assert s.limit("pivots") == 10_000_000 and isinstance(s.limit("pivots"), int)
        assert s.set_limit("cells", 999) is s
        assert s.limit("cells") == 999
        assert s.set_limit("seconds", 0.5) is s
        assert s.limit("seconds") == 0.5
        assert s.set_limit("pivots", 2**53) is s
        assert s.limit("pivots") == 2**53 and isinstance(s.limit("pivots"), int)
        with pytest.raises(moa.InvalidError, match=r"unknown limit 'bogus' \(expected rows, cells, seconds, pivots"):
            s.limit("bogus")
        for name, value in (("rows", 0), ("pivots", 0), ("pivots", 2.5), ("pivots", -1), ("pivots", 2.0**60),
                            ("seconds", -1)):
            with pytest.raises(moa.InvalidError):
                s.set_limit(name, value)
        for value in (float("inf"), float("nan")):
            with pytest.raises(moa.InvalidError, match="finite"):
                s.set_limit("seconds", value)
        assert s.limit("seconds") == 0.5 and s.limit("pivots") == 2**53  # unchanged


def test_solver_pivots_limit_stops_a_suggestion_and_changes_nothing():
    s, cr, variables, natural, minimum = drag_row(40)
    with s:
        before = s.values(variables)
        assert cr.value == natural
        s.set_limit("pivots", 3)
        with pytest.raises(moa.LimitError, match="limit of 3 pivots") as ei:
            s.suggest(cr, minimum)
        check_limit(ei.value)
        assert ei.value.kind == "limit"
        s.update()
        assert s.values(variables) == before
        s.set_limit("pivots", 1e7)
        assert s.suggest(cr, minimum) is s
        s.update()
        assert cr.value == minimum
        assert all(w == pytest.approx(20, abs=1e-9) for w in s.values(variables[3::2]))


def test_solver_progress_stops_a_suggestion_and_changes_nothing():
    """on_progress on a raw solver: called every `every` pivots inside a suggestion that takes a pivot per box
    (with the pivots so far), closed to the solver; False stops it (LimitError, nothing changed), an exception
    stops it and comes through as it is, None goes on; removed by None."""
    s, cr, variables, natural, minimum = drag_row(400)
    with s:
        before = s.values(variables)
        seen, inner = [], []

        def stop(pivots):
            seen.append(pivots)
            with pytest.raises(moa.MisuseError, match="progress function"):
                s.counts()
            inner.append(True)
            return False

        assert s.on_progress(stop, 100) is s
        with pytest.raises(moa.LimitError, match="progress") as ei:
            s.suggest(cr, minimum)
        check_limit(ei.value)
        assert seen == [100] and inner == [True]
        s.update()
        assert s.values(variables) == before

        def boom(pivots):
            raise KeyError(pivots)

        s.on_progress(boom, 50)
        with pytest.raises(KeyError, match="50"):
            s.suggest(cr, minimum)
        s.update()
        assert s.values(variables) == before
        seen.clear()
        s.on_progress(seen.append, 100)  # None: goes on
        s.suggest(cr, minimum).update()
        assert cr.value == minimum and seen[:3] == [100, 200, 300]
        s.on_progress(None)
        n = len(seen)
        s.suggest(cr, natural).update()
        assert len(seen) == n
        with pytest.raises(TypeError):
            s.on_progress(42)
        with pytest.raises(moa.InvalidError):
            s.on_progress(stop, 0)


def test_solver_time_limit_stops_a_suggestion():
    """The clock is read every 64 pivots: a suggestion that takes a pivot per box of 400 finds 1 ns past."""
    s, cr, variables, _, minimum = drag_row(400)
    with s:
        before = s.values(variables)
        s.set_limit("seconds", 1e-9)
        with pytest.raises(moa.LimitError, match="limit of 1e-09 s") as ei:
            s.suggest(cr, minimum)
        check_limit(ei.value)
        s.update()
        assert s.values(variables) == before
        s.set_limit("seconds", 0)
        s.suggest(cr, minimum).update()
        assert cr.value == minimum


def test_solver_pivots_limit_refuses_an_add_weight_change_included():
    with moa.Solver() as s:
        xs = [s.var("x%d" % i) for i in range(6)]
        for x in xs:
            s.add(x >= 0)
            s.add(x == 10, "weak")
        total = xs[0] + xs[1] + xs[2] + xs[3] + xs[4] + xs[5]
        s.update()
        dump, usage, before = s.dump(), s.usage(), s.values(xs)
        s.set_limit("pivots", 1)
        # At weight 3 the sum wins over the six preferences: every x goes to 0, a pivot each. At weight 1 it does
        # not: the add alone goes through, and the weight set after it is what reaches the limit.
        with pytest.raises(moa.LimitError, match="limit of 1 pivot") as ei:
            s.add(total == 0, "weak", 3)
        check_limit(ei.value)
        assert s.dump() == dump
        assert s.usage() == usage
        s.update()
        assert s.values(xs) == before
        assert s.limit("pivots") == 1  # put back after the binding took the constraint out
        light = s.add(total == 0, "weak")  # weight 1: within the limit
        s.set_limit("pivots", 1e7)
        light.remove()
        c = s.add(total == 0, "weak", 3)
        assert c.weight == 3
        s.update()
        assert all(v == pytest.approx(0, abs=1e-9) for v in s.values(xs))


def test_solver_row_limit_refuses_an_add_and_changes_nothing():
    with moa.Solver() as s:
        x, y, z = s.var("x"), s.var("y"), s.var("z")
        s.set_limit("rows", 3)
        added = 0
        for i in range(1, 6):
            dump, usage = s.dump(), s.usage()
            try:
                s.add(x + i <= y + z * i, "weak")
                added += 1
            except moa.LimitError as e:
                check_limit(e)
                assert e.kind == "limit"
                assert "the limit is 3" in str(e)
                assert s.dump() == dump
                assert s.usage() == usage
        assert added == 3
        assert s.usage().rows == 3 and s.usage().constraints == 3
        with pytest.raises(moa.LimitError):
            s.edit(x, "strong")
        assert not s.has_edit(x)
        s.set_limit("rows", 100)
        s.add(x + 9 <= y, "weak")
        s.edit(x, "strong")


def test_solver_usage():
    with moa.Solver() as s:
        assert s.usage() == moa.Usage(0, 0, 0, 0, 0)
        x, y = s.var("x"), s.var("y")
        c = s.add(x + 10 <= y)
        u = s.usage()
        assert u.variables == 2 and u.constraints == 1 and u.rows >= 1 and u.cells >= 1 and u.views == 0
        c.remove()
        assert s.usage().constraints == 0


def test_limit_error_is_exported():
    assert "LimitError" in moa.__all__ and "Usage" in moa.__all__
    assert issubclass(moa.LimitError, moa.Error)
    assert moa._errors.STATUS_NAMES[10] == "LIMIT"
    assert moa._errors.error_for(10) is moa.LimitError
