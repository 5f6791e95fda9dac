"""Content that sizes itself: measure functions (View.set_measure, invalidate), the errors they raise
(CallbackError), text (View.set_text, text_lines) with the built-in measurer, a Python advance function or a
real font (moa.Font, libmoafont), fitting sizes and the measure statistics."""
import gc
import math
import os
import re
import weakref

import pytest

import moa
from conftest import SOURCE_ROOT

CHAR, LINE = 10.0, 20.0  # the measure model: characters 10 points wide, lines 20 points high
TEXT = "Moa lays out text that wraps to the width it gets"


class Chars:
    """A measure function for `n` characters of CHAR points on lines of LINE points, wrapped at the proposed
    width; it records the proposals it was asked."""

    def __init__(self, n):
        self.n = n
        self.calls = []

    def lines(self, width):
        per_line = max(1, int(width // CHAR))
        return -(-self.n // per_line), min(self.n, per_line)

    def __call__(self, width, width_mode, height, height_mode):
        self.calls.append((width, width_mode, height, height_mode))
        if math.isinf(width):
            return self.n * CHAR, LINE, LINE - 4
        lines, chars = self.lines(width)
        return chars * CHAR, lines * LINE, lines * LINE - 4, LINE - 4


def frames(L):
    """Every view's frame as of the last solve (L.frames() would solve first)."""
    return [(v.name, v.root_frame) for v in [L.root] + L.views()]


def label_layout(n=60, width=320):
    """A layout with a label pinned left and right to the root with 8-point margins, 20 from the top."""
    L = moa.Layout(width, 480)
    label = L.view("label")
    L.eqs("label.left == 8\nlabel.right == root.right - 8\nlabel.top == 20")
    fn = Chars(n)
    label.set_measure(fn)
    return L, label, fn


# ---------------------------------------------------------------------------------------------- measure functions

def test_height_follows_width():
    L, label, fn = label_layout(60)
    for width in (320, 200, 120):
        L.set_root_size(width, 480)
        L.solve()
        w = width - 16
        lines, _ = fn.lines(w)
        assert label.frame == moa.Rect(8, 20, w, lines * LINE), width
        assert fn.calls[-1] == (w, "at_most", math.inf, "undefined")
    assert [fn.lines(w)[0] for w in (304, 184, 104)] == [2, 4, 6]  # three different heights
    assert fn.calls[0] == (math.inf, "undefined", math.inf, "undefined")  # the natural size first


def test_resizes_call_only_for_new_widths():
    L, label, fn = label_layout(60)
    L.solve()
    stats = L.measure_stats()
    assert stats["calls"] == len(fn.calls) == 2 and stats["last_calls"] == 2 and stats["cache_hits"] == 0
    assert 1 <= stats["last_rounds"] <= moa.MAX_MEASURE_ROUNDS
    # a height-only resize: the label's width is the same, nothing is measured
    fn.calls.clear()
    L.set_root_size(320, 600)
    L.solve()
    assert fn.calls == [] and L.measure_stats()["calls"] == 2
    # a new width is measured once
    L.set_root_size(200, 600)
    L.solve()
    assert fn.calls == [(184, "at_most", math.inf, "undefined")]
    assert label.frame.height == 4 * LINE
    # back to a width seen before: answered from the cache
    fn.calls.clear()
    hits = L.measure_stats()["cache_hits"]
    L.set_root_size(320, 600)
    L.solve()
    assert fn.calls == []
    stats = L.measure_stats()
    assert stats["cache_hits"] > hits and stats["calls"] == 3 and stats["last_calls"] == 0
    assert label.frame.height == 2 * LINE


def test_invalidate_measures_again():
    L, label, fn = label_layout(60)
    L.solve()
    assert label.frame.height == 2 * LINE
    fn.n = 100  # the content changed, but the layout does not know: the cached answers stand
    L.set_root_size(320, 600)
    L.solve()
    assert label.frame.height == 2 * LINE
    fn.calls.clear()
    assert label.invalidate() is label
    L.solve()
    assert label.frame.height == 4 * LINE  # 100 characters, 30 a line
    assert (304, "at_most", math.inf, "undefined") in fn.calls
    label.set_measure(None)
    with pytest.raises(moa.InvalidError, match="no measured content"):
        label.invalidate()


def test_baselines_come_from_the_answer():
    L = moa.Layout(320, 480)
    a, b = L.view("a"), L.view("b")
    a.set_measure(lambda w, wm, h, hm: (50, 40, 30, 12))
    b.set_measure(lambda w, wm, h, hm: (50, 40, None, None))
    L.eqs("a.left == 0\na.top == 100\nb.left == 100\nb.firstBaseline == a.firstBaseline")
    L.solve()
    assert a.frame == moa.Rect(0, 100, 50, 40)
    assert b.frame.y == 100 + 12 - 40  # b's first baseline is its bottom
    L.xeq("b.firstBaseline == a.firstBaseline")
    L.eq("b.lastBaseline == a.lastBaseline")
    L.solve()
    assert b.frame.y == 100 + 30 - 40


def test_an_exception_fails_the_solve_with_callback_error():
    L, label, fn = label_layout(60)
    L.solve()
    before = frames(L)
    boom = ValueError("the text is on fire")

    def failing(width, width_mode, height, height_mode):
        raise boom

    label.set_measure(failing)
    with pytest.raises(moa.CallbackError) as ei:
        L.solve()
    e = ei.value
    assert "the text is on fire" in str(e) and "ValueError" in str(e) and "`label`" in str(e)
    assert e.__cause__ is boom
    assert e.code == "CALLBACK" and e.status == 9 and isinstance(e, moa.Error)
    assert frames(L) == before  # nothing changed
    assert label.frame == moa.Rect(8, 20, 304, 2 * LINE)
    label.set_measure(fn)  # usable again
    L.set_root_size(200, 480)
    L.solve()
    assert label.frame.height == 4 * LINE


@pytest.mark.parametrize("answer,cause", [
    ("a string", TypeError), ((float("nan"), 10), ValueError), ((10, float("inf")), ValueError), ((10,), TypeError),
    ((10, "10"), TypeError), (None, TypeError), ((1, 2, 3, 4, 5), TypeError), ((10, 10, float("nan")), ValueError),
    ((True, 10), TypeError),
])
def test_a_bad_answer_fails_cleanly(answer, cause):
    L, label, _ = label_layout(60)
    L.solve()
    before = frames(L)
    label.set_measure(lambda w, wm, h, hm: answer)
    with pytest.raises(moa.CallbackError, match="measuring `label`") as ei:
        L.solve()
    assert type(ei.value.__cause__) is cause
    assert frames(L) == before
    with pytest.raises(moa.CallbackError):  # again: the failure is not cached
        L.solve()


def test_an_answer_out_of_range_is_refused_by_the_library():
    L, label, _ = label_layout(60)
    label.set_measure(lambda w, wm, h, hm: (-5, 10))
    with pytest.raises(moa.CallbackError, match="width -5") as ei:
        L.solve()
    assert ei.value.__cause__ is None  # nothing raised in Python: the library's own check


def test_the_layout_can_be_read_but_not_changed_from_a_measure_function():
    L, label, fn = label_layout(60)
    L.solve()
    seen = []

    def reentrant(width, width_mode, height, height_mode):
        for change in (lambda: L.eq("label.height >= 1"), L.solve, lambda: label.set_measure(None),
                       lambda: L.set_font(None), lambda: label.set_text("x"), label.invalidate,
                       lambda: L.fitting_size(label)):
            with pytest.raises(moa.MisuseError):
                change()
        seen.append((L.root.frame.width, label.frame.width, L.measure_stats()["calls"]))
        return fn(width, width_mode, height, height_mode)

    label.set_measure(reentrant)
    L.set_root_size(200, 480)
    L.solve()  # succeeds: the MisuseErrors were caught inside
    assert seen and seen[0][0] == 320  # reads give the last solve's frames
    assert label.frame.height == 4 * LINE
    assert len(L.constraints()) == 3  # the eq inside was refused


def test_an_uncaught_misuse_inside_is_the_cause():
    L, label, _ = label_layout(60)
    label.set_measure(lambda w, wm, h, hm: L.solve())
    with pytest.raises(moa.CallbackError, match="MisuseError") as ei:
        L.solve()
    assert isinstance(ei.value.__cause__, moa.MisuseError)


def test_keyboard_interrupt_is_raised_as_it_is():
    L, label, _ = label_layout(60)

    def interrupt(*_):
        raise KeyboardInterrupt

    label.set_measure(interrupt)
    with pytest.raises(KeyboardInterrupt):
        L.solve()
    label.set_measure(Chars(10))
    L.solve()
    assert label.frame.height == LINE


def test_a_failure_while_advancing():
    L, label, fn = label_layout(60)
    L.solve()
    L.animate_root_size(200, 480, duration=1.0)
    L.advance(0.5)
    label.set_measure(lambda *_: 1 / 0)
    with pytest.raises(moa.CallbackError) as ei:
        L.advance(0.1)
    assert isinstance(ei.value.__cause__, ZeroDivisionError)
    label.set_measure(fn)
    L.advance(1)
    assert label.frame == moa.Rect(8, 20, 184, 4 * LINE)


def test_content_that_never_settles():
    L = moa.Layout(320, 480)
    square = L.view("square")
    L.eqs("square.left == 0\nsquare.top == 0\nsquare.width == square.height")
    square.set_measure(lambda w, wm, h, hm: (10, 20) if math.isinf(w) else (w, w + 10))
    with pytest.raises(moa.CallbackError, match="did not settle") as ei:
        L.solve()
    assert ei.value.__cause__ is None
    assert str(moa.MAX_MEASURE_ROUNDS) in str(ei.value)


def test_max_measure_rounds_is_the_header_s():
    header = os.environ.get("MOA_HEADER") or os.path.join(SOURCE_ROOT or ".", "Include", "moa.h")
    if not os.path.exists(header):
        pytest.skip("no Include/moa.h (set MOA_SOURCE_ROOT or MOA_HEADER)")
    with open(header, encoding="utf-8") as f:
        m = re.search(r"#define MOA_MAX_MEASURE_ROUNDS (\d+)", f.read())
    assert m and int(m.group(1)) == moa.MAX_MEASURE_ROUNDS


def test_set_measure_checks_its_arguments():
    L, label, _ = label_layout(60)
    with pytest.raises(TypeError):
        label.set_measure(42)
    with pytest.raises(moa.InvalidError):
        L.root.set_measure(Chars(3))
    with pytest.raises(moa.InvalidError):  # a measured view's intrinsic size is the layout's
        label.set_intrinsic_size(10, 10)
    assert label.set_measure(None) is label
    L.solve()  # no measured content: the label's height is free
    assert label.frame.width == 304


def test_the_function_is_released_with_its_view_or_layout():
    L, label, _ = label_layout(60)
    keep = Chars(5)
    other = L.view("other")
    L.eqs("other.left == 0\nother.top == 0")
    other.set_measure(keep)
    L.solve()
    ref = weakref.ref(label._layout._measures[label.id])
    fn = Chars(3)
    fref = weakref.ref(fn)
    label.set_measure(fn)
    del fn
    gc.collect()
    assert ref() is None and fref() is not None  # the replaced C callback is dropped, the new one kept
    label.remove()
    gc.collect()
    assert fref() is None  # removing the view drops its function
    assert other.frame.width == 50
    # a layout whose function refers back to it is collected (no global reference)
    L2 = moa.Layout(100, 100)
    v = L2.view("v")
    v.set_measure(lambda w, wm, h, hm: (v.layout.width, 10))
    L2.eqs("v.left == 0\nv.top == 0")
    L2.solve()
    lref = weakref.ref(L2)
    del L2, v
    gc.collect()
    assert lref() is None


# ---------------------------------------------------------------------------------------------- text

def text_layout(width=160, **style):
    L = moa.Layout(width, 480)
    label = L.view("label")
    L.eqs("label.left == 10\nlabel.right <= root.right - 10\nlabel.top == 10")
    label.set_text(TEXT, size=10, line_height=12, **style)
    return L, label


def test_text_wraps_by_words_with_the_built_in_measurer():
    L, label = text_layout()
    L.solve()
    lines, m = label.text_lines()
    assert lines == ["Moa lays out text that", "wraps to the width it", "gets"]
    assert m == {"lines": 3, "font_size": 10, "line_height": 12, "first_baseline": pytest.approx(8.6),
                 "width": 22 * 6, "height": 36}
    assert label.frame == moa.Rect(10, 10, 140, 36)
    # wider: fewer lines, and the label hugs its text
    L.set_root_size(400, 480)
    L.solve()
    assert label.text_lines()[0] == [TEXT]
    assert label.frame == moa.Rect(10, 10, len(TEXT) * 6, 12)


def test_max_lines_ends_in_an_ellipsis():
    L, label = text_layout(max_lines=2)
    L.solve()
    lines, m = label.text_lines()
    assert lines == ["Moa lays out text that", "wraps to the width it…"]
    assert m["lines"] == 2 and m["height"] == 24
    assert label.frame.height == 24


def test_adaptive_font_size_follows_the_root_width():
    L = moa.Layout(320, 480)
    label = L.view("label")
    L.eqs("label.left == 0\nlabel.top == 0")
    label.set_text("Adaptive", size=10, reference_width=320, max_size=18)
    for width, size in ((320, 10), (480, 15), (160, 5), (640, 18)):
        L.set_root_size(width, 480)
        L.solve()
        _, m = label.text_lines()
        assert m["font_size"] == pytest.approx(size), width
        assert label.frame.width == pytest.approx(8 * 0.6 * size)
        assert label.frame.height == pytest.approx(1.2 * size)
    label.set_text("Adaptive", size=10, reference_width=320, min_size=8)
    L.set_root_size(160, 480)
    L.solve()
    assert label.text_lines()[1]["font_size"] == 8


def test_text_replaces_a_measure_function_and_goes_away():
    L, label, fn = label_layout(60)
    label.set_text("abc", size=10)
    L.solve()
    assert label.text_lines()[0] == ["abc"] and fn.calls == []
    assert label.id not in L._measures
    label.set_text("")
    L.solve()
    assert label.text_lines() == ([], label.text_lines()[1]) and label.frame.height == 0
    label.set_text(None)
    with pytest.raises(moa.InvalidError, match="no text"):
        label.text_lines()


@pytest.mark.parametrize("kwargs,exc", [
    (dict(size=0), moa.InvalidError), (dict(size=float("nan")), moa.InvalidError), (dict(size="10"), TypeError),
    (dict(line_height=0), moa.InvalidError), (dict(max_lines=-1), moa.InvalidError),
    (dict(max_lines=1.5), TypeError), (dict(reference_width=0), moa.InvalidError),
    (dict(min_size=20, max_size=10, reference_width=100), moa.InvalidError),
])
def test_set_text_checks_its_style(kwargs, exc):
    L = moa.Layout(100, 100)
    v = L.view("v")
    with pytest.raises(exc):
        v.set_text("x", **kwargs)
    with pytest.raises(TypeError):
        v.set_text(b"bytes")
    with pytest.raises(moa.InvalidError):
        L.root.set_text("x")


def test_nested_labels_size_their_container():
    L = moa.Layout(320, 480)
    box = L.view("box")
    counts = (25, 60, 7)
    labels = [L.view("l%d" % i, box) for i in range(3)]
    for v, n in zip(labels, counts):
        v.set_measure(Chars(n))
    L.eqs("""box.left == 10
box.right == root.right - 10
box.top == 0
l0.left == box.left + 8
l0.right == box.right - 8
l1.left == box.left + 8
l1.right == box.right - 8
l2.left == box.left + 8
l2.right == box.right - 8
l0.top == box.top + 8
l1.top == l0.bottom + 4
l2.top == l1.bottom + 4
box.bottom == l2.bottom + 8""")
    heights = set()
    for width in (320, 200, 480, 120):
        L.set_root_size(width, 480)
        L.solve()
        inner = width - 20 - 16
        expected = [Chars(n).lines(inner)[0] * LINE for n in counts]
        assert [v.frame.height for v in labels] == expected, width
        assert box.frame.height == sum(expected) + 8 + 4 + 4 + 8
        assert labels[2].root_frame.y == expected[0] + expected[1] + 16
        heights.add(box.frame.height)
    assert len(heights) == 4


def test_fitting_size_of_a_cell():
    L = moa.Layout(320, 480)
    cell = L.view("cell")
    label = L.view("label", cell)
    fn = Chars(40)
    label.set_measure(fn)
    L.eqs("""cell.left == 0
cell.right == root.right
cell.top == 0
label.left == cell.left + 10
label.right == cell.right - 10
label.top == cell.top + 5
cell.bottom == label.bottom + 5""")
    L.solve()
    before = L.frames()  # solved: the same as frames(L) here
    assert cell.frame == moa.Rect(0, 0, 320, 2 * LINE + 10)
    for width in (200, 100, 320):
        size = L.fitting_size(cell, width, 0, "required", "fit")
        assert size == (width, fn.lines(width - 20)[0] * LINE + 10), width
        assert L.fitting_size(cell, width, 0, 1000, 50) == size  # names or numbers
    assert L.frames() == before  # the live layout did not change
    # the smallest size: the natural one (the compression resistance, 750, beats the fitting targets, 50)
    assert L.fitting_size(label) == (40 * CHAR, LINE)
    assert L.fitting_size(label, 100, 0, "required") == (100, 4 * LINE)
    with pytest.raises(moa.InvalidError):
        L.fitting_size(cell, -1)
    with pytest.raises(moa.InvalidError):
        L.fitting_size(cell, 100, 0, "nope")
    with pytest.raises(TypeError):
        L.fitting_size("cell")
    label.set_measure(lambda *_: {}["missing"])
    with pytest.raises(moa.CallbackError) as ei:
        L.fitting_size(cell, 200, 0, "required")
    assert isinstance(ei.value.__cause__, KeyError)


# ---------------------------------------------------------------------------------------------- fonts

def natural_width(L, label):
    L.solve()
    return label.frame.width


def text_view(text="Hello world", size=16):
    L = moa.Layout(320, 480)
    label = L.view("label")
    L.eqs("label.left == 10\nlabel.top == 10")
    label.set_text(text, size=size)
    return L, label


def test_a_python_advance_function():
    L, label = text_view()
    assert natural_width(L, label) == pytest.approx(11 * 0.6 * 16)  # the built-in measurer
    asked = []

    def advance(text, size):
        asked.append((text, size))
        return len(text) * size * 0.5

    assert L.set_font(advance, family="Half") is L
    assert natural_width(L, label) == pytest.approx(11 * 8)
    assert ("Hello", 16) in asked and ("world", 16) in asked
    assert 'font-family="Half"' in L.svg()
    L.set_font(None)
    assert natural_width(L, label) == pytest.approx(11 * 0.6 * 16)


@pytest.mark.parametrize("answer,cause", [(RuntimeError("no glyphs"), RuntimeError), ("wide", TypeError),
                                          (float("nan"), ValueError), (-1.0, ValueError)])
def test_a_failing_advance_function_fails_the_solve(answer, cause):
    L, label = text_view()
    L.solve()
    before = label.frame

    def advance(text, size):
        if isinstance(answer, Exception):
            raise answer
        return answer

    L.set_font(advance)
    with pytest.raises(moa.CallbackError, match="advance function") as ei:
        L.solve()
    assert type(ei.value.__cause__) is cause
    if isinstance(answer, Exception):
        assert ei.value.__cause__ is answer
    assert label.frame == before
    L.set_font(None)
    L.solve()


def test_set_font_checks_its_arguments():
    L, _ = text_view()
    with pytest.raises(TypeError):
        L.set_font(42)
    with pytest.raises(moa.InvalidError):
        L.set_font(lambda t, s: 1.0, ascent=11)
    with pytest.raises(TypeError):
        L.set_font(lambda t, s: 1.0, family=3)


needs_font = pytest.mark.skipif(not moa.has_font(), reason="libmoafont not built (make font)")


def dejavu():
    font = moa.Font()
    if font.family != "DejaVu Sans":
        font.close()
        pytest.skip("the default font is %s, not DejaVu Sans" % font.family)
    return font


@needs_font
def test_font_measures_with_harfbuzz():
    with dejavu() as font:
        assert font.advance("Hello", 16) == 40.5546875
        assert font.advance("Hello", 32) == 2 * 40.5546875
        assert font.advance("", 16) == 0
        m = font.metrics()
        assert (m.ascent, m.descent, m.line_gap) == (1901 / 2048, 483 / 2048, 0)
        assert os.path.exists(font.path) and "DejaVu Sans" in repr(font)
        with pytest.raises(moa.InvalidError):
            font.advance("x", -1)
        with pytest.raises(TypeError):
            font.advance(b"x", 10)
    assert font.closed
    with pytest.raises(moa.ClosedError):
        font.advance("Hello", 16)
    with pytest.raises(OSError, match="nonexistent"):
        moa.Font("/nonexistent/font.ttf")


@needs_font
def test_set_font_changes_the_natural_width():
    L, label = text_view()
    builtin = natural_width(L, label)
    with dejavu() as font:
        assert L.set_font(font) is L
        real = natural_width(L, label)
        assert real == pytest.approx(font.advance("Hello world", 16))
        assert real != pytest.approx(builtin)
        assert label.frame.height == pytest.approx(1.2 * 16)
        assert 'font-family="DejaVu Sans"' in L.svg()
        _, m = label.text_lines()
        assert m["first_baseline"] == pytest.approx((1.2 * 16 - (1901 + 483) / 2048 * 16) / 2 + 1901 / 2048 * 16)
    # closed while the layout uses it: the C font stays until the layout lets go
    assert font.closed and font._ptr is not None
    label.set_text("Hello", size=16)
    assert natural_width(L, label) == 40.5546875
    L.set_font(None)
    assert font._ptr is None
    assert natural_width(L, label) == pytest.approx(5 * 0.6 * 16)
    # closing the layout releases the font too
    font2 = dejavu()
    L.set_font(font2)
    font2.close()
    L.close()
    assert font2._ptr is None


def test_has_font_and_missing_library(monkeypatch):
    assert isinstance(moa.has_font(), bool)
    import moa._font as F
    monkeypatch.setattr(F, "_state", {})
    monkeypatch.setenv("MOA_FONT_LIBRARY", "/nonexistent/libmoafont.so")
    assert moa.has_font() is False
    with pytest.raises(OSError, match="MOA_FONT_LIBRARY"):
        moa.Font()


def test_callback_error_is_exported():
    assert "CallbackError" in moa.__all__ and issubclass(moa.CallbackError, moa.Error)
    assert moa._errors.error_for(9) is moa.CallbackError
    assert moa._errors.STATUS_NAMES[9] == "CALLBACK"
    assert {"MAX_MEASURE_ROUNDS", "Font", "has_font"} <= set(moa.__all__)
    assert moa.MAX_MEASURE_ROUNDS == 8
