"""The layout level of moa: views, equations, constraints, frames, and motion on a clock the caller advances.

    import moa
    with moa.Layout(320, 480) as L:
        sidebar, content = L.view("sidebar"), L.view("content")
        cs = L.eqs('''
            sidebar.left == 0
            sidebar.top == 0
            sidebar.bottom == 0
            sidebar.width == 200
            content.left == sidebar.right
            content.right == 0
            content.top == 0
            content.bottom == 0
        ''')
        L.solve()
        content.frame                         # Rect(x=200.0, y=0.0, width=120.0, height=480.0)
        col = L.collapsible(sidebar, cs[0], "left")
        col.toggle(duration=0.3, done=lambda finished: print("done", finished))
        L.advance(0.15); sidebar.frame.x      # -100.0

The names follow the Lua module (bindings/lua, reference in its README.md); the differences are Python's: failures raise
exceptions (moa.ParseError, moa.ConflictError, ... with the details as attributes) instead of returning
``nil, message, details``; readers are properties (``c.constant``, ``v.frame``, ``L.time``); options are keyword
arguments.

Ownership. A :class:`Layout` owns its C layout. :meth:`Layout.close` (or leaving a ``with`` block, or the
object being collected) frees it, once; afterwards every use of it or of its children raises
:class:`moa.ClosedError`. Children (views, constraints, animations, collapsibles, pan drivers, stacks, chains,
barriers) hold their layout, so the layout lives as long as any of them is reachable. A constraint (and a stack,
chain or barrier) stays in its layout until removed, whatever happens to its Python object. There is one
View / LayoutConstraint object per id while it is reachable, so ``L.find("a") is a``.

Frames in bulk. The per-view calls make Python objects for every view they list: :meth:`Layout.advance` a list
of View objects, :meth:`Layout.changed_frames` / :meth:`Layout.frames` a Frame with Rects and names per view.
Fine for a few views; when many views move in each frame (a collapse moves all the views beside it), follow the
animation with the bulk calls, which make none::

    n = L.advance(1 / 60, views=False)      # the number of views whose frame changed (also seek, solve)
    cols = L.frame_columns(changed=True)    # their ids and frames: one ctypes array, filled by one C call
    for vid, x, y, w, h in zip(cols.view, cols.root_x, cols.root_y, cols.root_width, cols.root_height):
        draw(vid, x, y, w, h)               # L.view_by_id(vid) gives the View of an id

:meth:`Layout.frame_buffer` is that ctypes array of moa_frame itself (buffer protocol: memoryview,
numpy.frombuffer); :class:`FrameColumns` reads it by column without copying. On the screen of ``moa-bench
--frames 10000`` (every view moves) a frame costs about 4.1 ms this way against 21 ms with advance(dt) and
frame_buffer read item by item, and 3.2 ms in C (scripts/bench-frames.py measures both).

Callbacks. Completions (``done``) and pan rests run inside :meth:`Layout.advance` / :meth:`Layout.seek`, `?`
reports (:meth:`Layout.on_debug`) inside eq/eqs/xeq, and pending completions (with ``finished=False``) inside
:meth:`Layout.close`. They may call any method of the layout except advance/seek (refused by the library) and
may close it. An exception raised by a callback never crosses into C: the trampoline catches it (moa.h's
callbacks return void: there is no "stop" status), the other callbacks of that call still run, and the first
exception is raised once the C call has returned. Exceptions of completions run while the layout is being
garbage-collected are dropped. A pending completion keeps its function (and what it refers to) alive until the
library calls it: exactly once, at the latest when the layout is closed.

Content that sizes itself. A view given a measure function (:meth:`View.set_measure`) or text
(:meth:`View.set_text`) is measured at each solve: its natural size first, then its height for the width it
was solved at, re-solving until no height changes (at most MAX_MEASURE_ROUNDS solves). Measure functions, and
the Python advance function of :meth:`Layout.set_font`, run inside solve, advance, seek, frames, svg,
text_lines and fitting_size. They may read the layout; anything that changes or solves it raises MisuseError
inside them. They return a value to C, so unlike completions their failures stop the call: an exception (or a
bad answer) is caught by the trampoline, the call fails and raises :class:`moa.CallbackError`, whose
``__cause__`` is that exception (KeyboardInterrupt and SystemExit are raised as they are); nothing changes
(advance/seek: the clock moved, the frames stayed). A measure function is kept while set on its view (until
replaced, taken away, or the view removed); a font while set on the layout (until replaced or the layout
closed). A :class:`moa.Font` (libmoafont) is measured by its C function directly, without entering Python.

Limits and progress. :meth:`Layout.set_limit` bounds the rows and cells of the layout's solver, the pivots of
each solver operation and the time one call may take (:meth:`Solver.set_limit` the same for a raw solver, per
call); :meth:`Layout.usage` tells what is in use. :meth:`Layout.on_progress` sets a function called every
`interval` constraints a call adds; returning False stops the call. A call stopped by a limit or by the function
raises :class:`moa.LimitError` and changes nothing. The progress function runs inside the C call: it may read the
layout, but anything that changes or solves it raises MisuseError there; an exception it raises stops the call
and is raised, as it is, once the C call has returned.
"""
from __future__ import annotations

import ctypes
import collections.abc
import itertools
import math
import numbers
import operator
import os
import weakref
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, Literal, Mapping, NamedTuple, Optional, Sequence,
                    SupportsIndex, Tuple, Union, cast, overload)

from . import _errors as E
from ._errors import finite, text, boolean, choice, priority
from ._font import Font
from ._lib import (lib, DONE_FN, REST_FN, TEXT_FN, MEASURE_FN, ADVANCE_FN, PROGRESS_FN, Rect_, Frame_, ErrorInfo_,
                   MeasuredSize_, MeasureStats_, TextStyle_, TextMetrics_, Usage_, CURVE_NAMES)
# The calls of every frame: moa._speedups' when it is in use, else ctypes' (_lib.py chooses; same signatures,
# same results).
from ._lib import advance as _advance, advance_frames as _advance_frames, changed_frames as _changed_frames
from ._lib import advance_into as _advance_into, speedups as _speedups

if TYPE_CHECKING:
    from ._arrange import Stack, Chain, Barrier

__all__ = ["Layout", "View", "LayoutConstraint", "Animation", "Collapsible", "Pan", "Rect", "Frame", "FrameColumns",
           "Violation", "Ambiguity", "Usage", "CURVES", "MAX_MEASURE_ROUNDS"]

# Types of the arguments (for type checkers; every argument is also checked at run time).
#: A priority: a number in [1, 1000] (layout) or a name ("required", "high", "low", "fit", ...).
Priority = Union[float, str]
#: A timing curve: a name of CURVES, a cubic Bézier (x1, y1, x2, y2), or a spring {"damping", "response",
#: "velocity"}.
Curve = Union[str, Sequence[float], Dict[str, float]]
#: A spring's options: {"damping": 1, "response": 0.5, "velocity": v}.
Spring = Dict[str, float]
#: A completion: done(finished).
Done = Callable[[bool], object]
#: A pan's snap completion: done(rest, finished).
RestDone = Callable[[float, bool], object]
#: A measure function: fn(width, width_mode, height, height_mode) -> (width, height[, baseline[, first_baseline]]).
MeasureFn = Callable[[float, str, float, str], Sequence[Optional[float]]]
#: A text-advance function: fn(text, size) -> points.
AdvanceFn = Callable[[str, float], float]
#: A progress function: fn(steps) -> False to stop the call (anything else goes on).
ProgressFn = Callable[[int], Optional[bool]]


class Rect(NamedTuple):
    """A rectangle: origin (x, y) and size, y growing downwards (moa_rect)."""
    x: float
    y: float
    width: float
    height: float


class Frame(NamedTuple):
    """One item of Layout.frames(): the View, its name, its superview's name (None for the root), its frame in
    the superview and in root space (Rect), its depth (0 for the root) and whether it is a guide."""
    view: View
    name: str
    superview: Optional[str]
    frame: Rect
    root_frame: Rect
    depth: int
    guide: bool


# The columns of a moa_frame array: (field, memoryview format, byte offset), from the ctypes layout of moa_frame.
_FRAME_SIZE = ctypes.sizeof(Frame_)
#: advance_frames: a frame that moves more views moves many (an array of 88 bytes a view): the array of the next
#: frame is made ahead of it (see advance_frames).
_FRAMES_SMALL = 256
_ITEM_SIZE = {"Q": ctypes.sizeof(ctypes.c_uint64), "d": ctypes.sizeof(ctypes.c_double),
              "i": ctypes.sizeof(ctypes.c_int)}


def _rect_columns(prefix: str, base: int) -> list[Tuple[str, str, int]]:
    return [(prefix + f, "d", base + getattr(Rect_, f).offset) for f in ("x", "y", "width", "height")]


_COLUMNS: list[Tuple[str, str, int]] = (
    [("view", "Q", Frame_.view.offset), ("superview", "Q", Frame_.superview.offset)] +
    _rect_columns("", Frame_.frame.offset) + _rect_columns("root_", Frame_.frame_in_root.offset) +
    [("depth", "i", Frame_.depth.offset), ("guide", "i", Frame_.is_guide.offset)])
assert all(_FRAME_SIZE % _ITEM_SIZE[fmt] == 0 and off % _ITEM_SIZE[fmt] == 0 for _, fmt, off in _COLUMNS)


class _Column:
    """A column of FrameColumns (a non-data descriptor): read on a FrameColumns, a memoryview over the first
    len() frames of its buffer, kept in the instance's __dict__ (later reads find it there without a call)
    until the next advance_frames(out=) that changes the number of frames."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.fmt, self.off = _COLUMN_AT[name]
        # The column as a slice of the buffer read as items of its format: start and step in items.
        self.start, self.step = self.off // _ITEM_SIZE[self.fmt], _FRAME_SIZE // _ITEM_SIZE[self.fmt]
        self.__doc__ = "The %s of every frame (a memoryview)." % name

    @overload
    def __get__(self, obj: None, owner: Optional[type] = None) -> _Column: ...

    @overload
    def __get__(self, obj: FrameColumns, owner: Optional[type] = None) -> memoryview: ...

    def __get__(self, obj: Optional[FrameColumns], owner: Optional[type] = None) -> Union[_Column, memoryview]:
        if obj is None:
            return self
        raw: Any = memoryview(obj.buffer).cast("B")  # (the format is one of _ITEM_SIZE's)
        col: memoryview = raw.cast(self.fmt)[self.start:self.start + obj._n * self.step:self.step]
        obj.__dict__[self.name] = col
        return col


_COLUMN_AT = {name: (fmt, off) for name, fmt, off in _COLUMNS}


class FrameColumns:
    """What Layout.frame_columns() and advance_frames() return: frames by column, each column a memoryview over
    one buffer (no copy; made when first read, so a column not read costs nothing), item i of each being frame
    i. ``len(cols)`` is the number of frames; ``cols.buffer`` the ctypes array of moa_frame they are the first
    ``len(cols)`` items of. ``FrameColumns()`` is an empty one, to be filled by advance_frames(dt, out=cols).

    Columns: ``view`` and ``superview`` (int ids as View.id gives them, superview 0 for the root; view_by_id()
    gives the View), ``x``, ``y``, ``width``, ``height`` (the frame in the superview), ``root_x``, ``root_y``,
    ``root_width``, ``root_height`` (the frame in root space) (floats), ``depth`` and ``guide`` (0 or 1) (ints).
    Iterate, index, ``sum()``, ``.tolist()`` or ``zip()`` them; reading an item makes one Python number. A
    column read after advance_frames(out=) refilled the FrameColumns shows the new frames (a memoryview read
    before it does too while the number of frames stays, and is otherwise left over the old buffer)."""
    __slots__ = {"buffer": "The ctypes array of moa_frame the columns read (its first len() items).",
                 "_n": None, "__dict__": None}

    #: The names of the columns, in moa_frame order.
    fields: Tuple[str, ...] = tuple(c[0] for c in _COLUMNS)

    view = _Column("view")
    superview = _Column("superview")
    x = _Column("x")
    y = _Column("y")
    width = _Column("width")
    height = _Column("height")
    root_x = _Column("root_x")
    root_y = _Column("root_y")
    root_width = _Column("root_width")
    root_height = _Column("root_height")
    depth = _Column("depth")
    guide = _Column("guide")

    def __init__(self, buffer: Optional[ctypes.Array[Frame_]] = None) -> None:
        self.buffer = buffer if buffer is not None else (Frame_ * 0)()
        self._n = len(self.buffer)

    def __len__(self) -> int:
        return self._n

    def __repr__(self) -> str:
        return "<moa.FrameColumns of %d frames>" % self._n


assert all(isinstance(FrameColumns.__dict__.get(name), _Column) for name in FrameColumns.fields)


class Violation(NamedTuple):
    """An optional constraint the solver gave up, and how far (points) it is off."""
    constraint: LayoutConstraint
    amount: float


class Ambiguity(NamedTuple):
    """A view variable no constraint fixes: var is "minX", "minY", "width" or "height"."""
    view: View
    var: str


class Usage(NamedTuple):
    """What a layout or solver has in use (moa_usage): its tableau's rows and cells, live variables, live
    constraints (a layout's: every layout constraint, active or not) and views (the root and guides included;
    0 for a solver)."""
    rows: int
    cells: int
    variables: int
    constraints: int
    views: int


def _usage(u: Usage_) -> Usage:
    return Usage(u.rows, u.cells, u.variables, u.constraints, u.views)


#: The limits by name (moa_limit: MOA_LIMIT_ROWS, MOA_LIMIT_CELLS, MOA_LIMIT_SECONDS, MOA_LIMIT_PIVOTS), the
#: same for a solver.
LIMIT_NAMES = ("rows", "cells", "seconds", "pivots")
_LIMIT_SECONDS, _LIMIT_PIVOTS = LIMIT_NAMES.index("seconds"), LIMIT_NAMES.index("pivots")


#: The predefined timing curves (moa_curve), from the library's table (moa_curve_name): linear, easeIn, easeOut,
#: easeInOut, spring, keyboard (the iOS keyboard's curve). A curve argument may also be a 4-tuple
#: (x1, y1, x2, y2), a CSS cubic-bezier, or a dict {"damping": 1, "response": 0.5, "velocity": v} for a spring.
CURVES: dict[str, int] = CURVE_NAMES

#: Orientations (moa.h MOA_PORTRAIT, MOA_LANDSCAPE, MOA_ANY_ORIENTATION) by name.
_ORIENTATIONS = {"portrait": 1, "landscape": 2, "any": 3}
_ORIENTATION_NAMES = list(_ORIENTATIONS)


def _insets(values: Sequence[Optional[float]], names: Sequence[str]) -> Tuple[float, ...]:
    """Four finite insets from (all,) or all four values (the other three None when one is given)."""
    if all(v is None for v in values[1:]):
        return (finite(values[0], names[0]),) * 4
    return tuple(finite(v, n) for v, n in zip(values, names))

_DIRECTIONS = ["inherit", "ltr", "rtl"]
_AXES = ["horizontal", "vertical"]
_COLLAPSE = ["left", "right", "up", "down"]
_VARS = ["minX", "minY", "width", "height"]
_SVG_CONSTRAINTS, _SVG_GUIDES, _SVG_NO_LABELS = 1, 2, 4
_AUTO = -1.0
_UNSET: Any = object()

#: Solves after which measured content must have settled (moa.h MOA_MAX_MEASURE_ROUNDS): content whose size
#: keeps changing fails the solve with CallbackError ("did not settle").
MAX_MEASURE_ROUNDS = 8
#: moa_measure_mode by value: how a proposed length binds the content.
_MEASURE_MODES = ("undefined", "exactly", "at_most")
#: The metrics of the built-in text measurer (SimpleTextMeasurer), the defaults for a Python advance function.
_BUILTIN_ASCENT, _BUILTIN_DESCENT = 0.76, 0.24
_TEXT_METRICS = ("lines", "font_size", "line_height", "first_baseline", "width", "height")

# ---------------------------------------------------------------------------------------------- callbacks


class _Core:
    """What the trampolines need of a layout: its handle (None once closed) and a stack of error lists, one
    per binding call in progress that may call back (the innermost collects the callbacks' exceptions).

    Measure and advance functions: ``measuring`` counts those running (calls made from one must not release
    what C is running), ``cb_error`` is the first exception one raised in the C call in progress; the call
    fails with MOA_CALLBACK and the binding raises CallbackError from it (_failure), or drops it when the call
    ends otherwise (_check, _finish).

    The progress function: ``progressing`` counts it running, ``progress_error`` is the first exception it
    raised; that stopped the C call (MOA_LIMIT), and _failure raises the exception itself. ``done_error`` is
    the first exception a completion raised in a C call that collects none (no frame on ``frames``: a solve
    whose measure function closed the layout, which runs the completions): _check raises it after that call."""
    __slots__ = ("h", "frames", "callbacks", "measuring", "cb_error", "progressing", "progress_error", "done_error")

    def __init__(self, h: Optional[int]) -> None:
        self.h = h
        self.frames: list[list[BaseException]] = []
        self.callbacks = 0  # this layout's entries in _callbacks: none, and no call can collect an exception
        self.measuring = 0
        self.cb_error: Optional[BaseException] = None
        self.progressing = 0
        self.progress_error: Optional[BaseException] = None
        self.done_error: Optional[BaseException] = None


if _speedups is not None:  # advance_into reads and writes these classes' slots
    _speedups.bind_types(_Core, FrameColumns)

# key (the C `ud`) -> (core, function). Completions are popped when called (the library calls each exactly
# once); the debug reporter stays until replaced or the layout is closed.
_callbacks: dict[int, Tuple[_Core, Callable[..., object]]] = {}
_keys = itertools.count(1)
_NONE_RAISED: list[BaseException] = []  # (never appended to: what a call that collected nothing hands on)


def _pop_callback(key: int) -> Optional[Tuple[_Core, Callable[..., object]]]:
    """Takes a completion (or debug function) out of _callbacks, keeping its core's count."""
    entry = _callbacks.pop(key, None)
    if entry is not None:
        entry[0].callbacks -= 1
    return entry


def _run(core: _Core, fn: Callable[..., object], args: Tuple[Any, ...]) -> None:
    try:
        fn(*args)
    except BaseException as e:  # noqa: B902 - nothing may escape into C, not even KeyboardInterrupt
        if core.frames:
            core.frames[-1].append(e)
        elif core.done_error is None:  # raised by the call's _check; from a finalizer (collected): dropped
            core.done_error = e


def _done_trampoline(_layout: Optional[int], _animation: int, finished: int, ud: Optional[int]) -> None:
    try:
        entry = _pop_callback(ud or 0)
        if entry is not None:
            _run(entry[0], entry[1], (bool(finished),))
    except BaseException:  # noqa: B902 - even a failure here must not reach C
        pass


def _rest_trampoline(_layout: Optional[int], _pan: int, rest: float, finished: int, ud: Optional[int]) -> None:
    try:
        entry = _pop_callback(ud or 0)
        if entry is not None:
            _run(entry[0], entry[1], (rest, bool(finished)))
    except BaseException:  # noqa: B902
        pass


def _text_trampoline(text_: Optional[bytes], ud: Optional[int]) -> None:
    try:
        entry = _callbacks.get(ud or 0)
        if entry is not None:
            _run(entry[0], entry[1], ((text_ or b"").decode("utf-8", "replace"),))
    except BaseException:  # noqa: B902
        pass


# The C function pointers live as long as the module: the library may call them at any later time.
_DONE = DONE_FN(_done_trampoline)
_REST = REST_FN(_rest_trampoline)
_TEXT = TEXT_FN(_text_trampoline)
# NULL function pointers (ctypes refuses None for a CFUNCTYPE argument).
_NO_DONE, _NO_REST, _NO_TEXT, _NO_MEASURE, _NO_ADVANCE = DONE_FN(), REST_FN(), TEXT_FN(), MEASURE_FN(), ADVANCE_FN()
_NO_PROGRESS = PROGRESS_FN()


def _exception_text(e: BaseException) -> bytes:
    """What moa_measure_error() reports for a Python exception: "ValueError: message" (NUL-free UTF-8)."""
    try:
        msg = str(e)
    except BaseException:  # noqa: B902 - a __str__ that fails
        msg = ""
    name = type(e).__name__
    return ("%s: %s" % (name, msg) if msg else name).replace("\0", "\\0").encode("utf-8", "replace")


def _store(core: _Core, e: BaseException) -> None:
    if core.cb_error is None:  # the first failure is the one the C call reports
        core.cb_error = e


def _answer_number(x: object, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError("%s must be a number, got %s" % (what, type(x).__name__))
    x = float(x)
    if not math.isfinite(x):
        raise ValueError("%s must be finite, got %r" % (what, x))
    return x


def _measure_thunk(core: _Core, fn: MeasureFn) -> Any:
    """The C measure callback (moa_measure_fn) for a Python measure function: fn(width, width_mode, height,
    height_mode) -> (width, height[, baseline[, first_baseline]]). Nothing escapes into C: an exception or a
    bad answer is kept on the core, explained with moa_measure_error() and answered with MOA_ERROR."""

    def thunk(L: Optional[int], _view: int, width: float, width_mode: int, height: float, height_mode: int,
              out: Any, _ud: Optional[int]) -> int:
        core.measuring += 1
        try:
            r = fn(width, _MEASURE_MODES[width_mode], height, _MEASURE_MODES[height_mode])
            if not isinstance(r, (tuple, list)) or not 2 <= len(r) <= 4:
                raise TypeError("a measure function must return (width, height[, baseline[, first_baseline]]), "
                                "got %r" % (r,))
            w = _answer_number(r[0], "the measured width")
            h = _answer_number(r[1], "the measured height")
            b = math.nan if len(r) < 3 or r[2] is None else _answer_number(r[2], "the measured baseline")
            fb = math.nan if len(r) < 4 or r[3] is None else _answer_number(r[3], "the measured first baseline")
            o = out.contents
            o.width, o.height, o.baseline, o.first_baseline = w, h, b, fb
            return E.OK
        except BaseException as e:  # noqa: B902 - nothing may escape into C, not even KeyboardInterrupt
            try:
                _store(core, e)
                lib.moa_measure_error(L, _exception_text(e))
            except BaseException:  # noqa: B902
                pass
            return E.ERROR
        finally:
            core.measuring -= 1

    return MEASURE_FN(thunk)


def _advance_thunk(core: _Core, fn: AdvanceFn) -> Any:
    """The C text-advance function (moa_text_advance_fn) for a Python one: fn(text, size) -> points. An
    exception or a bad answer (not a number, NaN, infinite, negative) is kept on the core and answered with
    NaN, which fails the solve."""

    def thunk(utf8: Any, length: int, size: float, _ud: Optional[int]) -> float:
        core.measuring += 1
        try:
            s = ctypes.string_at(utf8, length).decode("utf-8") if length else ""
            w = _answer_number(fn(s, size), "the advance of %r" % s)
            if w < 0:
                raise ValueError("the advance of %r must be 0 or more, got %r" % (s, w))
            return w
        except BaseException as e:  # noqa: B902
            try:
                _store(core, e)
            except BaseException:  # noqa: B902
                pass
            return math.nan
        finally:
            core.measuring -= 1

    return ADVANCE_FN(thunk)


def _progress_thunk(core: _Core, fn: ProgressFn) -> Any:
    """The C progress callback (moa_progress_fn) for a Python function fn(steps): False stops the call (the
    library fails it with MOA_LIMIT), anything else goes on. Nothing escapes into C: an exception stops the
    call too and is kept on the core (the first one) for _failure, which raises it once the C call has
    returned. A layout closed by the function stops the call."""

    def thunk(_L: Optional[int], steps: int, _ud: Optional[int]) -> int:
        if core.h is None:
            return 1
        core.progressing += 1
        try:
            stop = fn(steps) is False
            return 1 if stop or core.h is None else 0
        except BaseException as e:  # noqa: B902 - nothing may escape into C, not even KeyboardInterrupt
            try:
                if core.progress_error is None:
                    core.progress_error = e
            except BaseException:  # noqa: B902
                pass
            return 1
        finally:
            core.progressing -= 1

    return PROGRESS_FN(thunk)


def _register(core: _Core, fn: Optional[Callable[..., object]], what: str = "done") -> int:
    """A key for fn (None: no callback, key 0). Pop it with _unregister when the C call fails."""
    if fn is None:
        return 0
    if not callable(fn):
        raise TypeError("%s must be callable, got %s" % (what, type(fn).__name__))
    key = next(_keys)
    _callbacks[key] = (core, fn)
    core.callbacks += 1
    return key


def _unregister(key: int) -> None:
    if key:
        _pop_callback(key)


def _str_out(out: ctypes.c_char_p) -> str:
    return out.value.decode("utf-8", "replace") if out.value is not None else ""


def _rect(r: Rect_) -> Rect:
    return Rect(r.x, r.y, r.width, r.height)


def _count(n: object, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError("%s must be an int, got %s" % (what, type(n).__name__))
    if n < 0:
        raise E.InvalidError("%s must be 0 or more, got %d" % (what, n), E.INVALID, "invalid")
    if n > 2**63 - 1:  # (a C size_t would silently take it modulo 2^64)
        raise E.InvalidError("%s must be at most 2^63 - 1, got %d" % (what, n), E.INVALID, "invalid")
    return n


def _closed() -> E.ClosedError:
    return E.ClosedError("attempt to use a closed layout", E.MISUSE, "misuse")


# ---------------------------------------------------------------------------------------------- Layout


class Layout:
    """A layout: a root view of a size the caller sets, layout guides, views, their constraints, a clock and
    its animations (moa_layout). ``Layout(320, 480)``; use it in a ``with`` block or call :meth:`close`.

    Properties: ``root`` (View), ``width``, ``height``, ``root_size``, ``time``, ``animating``, ``closed``.
    """

    def __init__(self, width: float, height: float) -> None:
        w, h = finite(width, "width"), finite(height, "height")
        ptr = lib.moa_layout_new(w, h)
        if not ptr:
            raise E.InvalidError("moa.Layout: bad size %r x %r (0 to 1e9) or out of memory" % (w, h), E.INVALID,
                                 "invalid")
        self._core = _Core(ptr)
        self._views: weakref.WeakValueDictionary[int, View] = weakref.WeakValueDictionary()
        self._lcons: weakref.WeakValueDictionary[int, LayoutConstraint] = weakref.WeakValueDictionary()
        self._debug_key = 0
        # The C callbacks the library holds, alive while set: view id -> MEASURE_FN of View.set_measure; the
        # font of set_font (a Font, or the ADVANCE_FN of a Python function), None for the built-in measurer.
        self._measures: dict[int, Any] = {}
        self._font: Any = None
        # The PROGRESS_FN of on_progress, alive while set (kept after close: C may be running it when a progress
        # function closes the layout).
        self._progress: Any = None
        # advance_frames: the size of the array it hands the next frame (the last frame's count: animations
        # move as many views frame after frame), that array's type, and a large one made ahead (see there).
        self._frames_cap = 1
        self._frames_type: Any = Frame_ * 1
        self._frames_spare: Any = None

    # -- lifecycle

    def close(self) -> None:
        """Free the C layout (idempotent). Pending completions are called first, with finished=False; the
        first exception one raises is raised here. Called from a callback of this layout, the library frees it
        when the outer call returns: that call then raises what a callback raised, else ClosedError (the clock's
        calls, advance, seek and advance_frames, return None instead)."""
        self._close(False)

    def _close(self, finalizing: bool) -> None:
        core = self._core
        h = core.h
        if h is None:
            return
        core.h = None
        _unregister(self._debug_key)
        self._debug_key = 0
        frame: list[BaseException] = []
        core.frames.append(frame)
        try:
            lib.moa_layout_free(h)
        finally:
            core.frames.pop()
        if not core.frames and not core.measuring and not core.progressing:
            # Freed now (not deferred by a call in progress): nothing measures with the font any more. From a
            # callback the free waits for the outer call, which may still measure: the font stays until then
            # (the object's collection releases it).
            self._drop_font()
        if finalizing:
            return
        if core.frames:  # closed from one of our callbacks: the outer call raises
            core.frames[-1].extend(frame)
        elif frame:
            raise frame[0]

    def __del__(self) -> None:
        try:
            self._close(True)
            self._drop_font()
        except BaseException:  # noqa: B902 - never from a finalizer
            pass

    def _drop_font(self) -> None:
        font, self._font = self._font, None
        if isinstance(font, Font):
            font._release()

    def __enter__(self) -> Layout:
        self._h()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._core.h is None

    def __repr__(self) -> str:
        if self._core.h is None:
            return "<moa.Layout (closed)>"
        w, h = self.root_size
        n = ctypes.c_size_t(0)
        lib.moa_layout_views(self._core.h, None, 0, ctypes.byref(n))
        return "<moa.Layout %g x %g, %d views>" % (w, h, n.value)

    # -- plumbing

    def _h(self) -> int:
        h = self._core.h
        if h is None:
            raise _closed()
        return h

    def _failure(self, st: int) -> BaseException:
        """The exception for status st of the call just made (reads every detail before any other call)."""
        h = self._core.h
        if h is None:
            return _closed()
        msg = (lib.moa_layout_errmsg(h) or b"").decode("utf-8", "replace")
        info = ErrorInfo_()
        details: dict[str, Any] = {}
        if lib.moa_layout_error_info(h, ctypes.byref(info)) == E.OK:
            details = dict(kind=_s(info.kind), message=_s(info.message), line=info.line, offset=info.offset,
                           text_offset=info.text_offset, length=info.length, source_line=_s(info.source_line),
                           expected=_s(info.expected), suggestion=_s(info.suggestion), source=_s(info.source))
        ids = []
        count = ctypes.c_size_t(0)
        if lib.moa_layout_conflicts(h, None, 0, ctypes.byref(count)) == E.OK and count.value:
            arr = (ctypes.c_uint64 * count.value)()
            if lib.moa_layout_conflicts(h, arr, count.value, ctypes.byref(count)) == E.OK:
                ids = list(arr[:min(len(arr), count.value)])
        conflicts: list[E.Conflict] = []
        for i in ids:  # the describe calls clear the record: everything above is read already
            out, line = ctypes.c_char_p(), ctypes.c_int(0)
            eq = _str_out(out) if lib.moa_lcons_describe(h, i, ctypes.byref(out)) == E.OK else "?"
            if lib.moa_lcons_line(h, i, ctypes.byref(line)) != E.OK:
                line.value = 0
            conflicts.append(E.Conflict(self._constraint(i), eq, line.value))
        progress = self._take_progress_error()
        if progress is not None:
            self._take_cb_error()
            return progress  # the exception the progress function raised, which stopped the call
        err = E.error_for(st)(msg, st, conflicts=conflicts, **details)
        cause = self._take_cb_error()
        if cause is not None:
            if not isinstance(cause, Exception):
                return cause  # KeyboardInterrupt, SystemExit: raised as they are, not wrapped
            err.__cause__ = cause
        return err

    def _take_cb_error(self) -> Optional[BaseException]:
        """The exception a measure or advance function raised in the C call that just returned (then
        forgotten); None if none, or while such a function is running (a call made from inside it)."""
        core = self._core
        if core.measuring:
            return None
        e, core.cb_error = core.cb_error, None
        return e

    def _take_progress_error(self) -> Optional[BaseException]:
        """The exception the progress function raised in the C call that just returned (then forgotten); None
        if none, or while the progress function or a measure function is running (a call made from inside)."""
        core = self._core
        if core.progressing or core.measuring:
            return None
        e, core.progress_error = core.progress_error, None
        return e

    def _check(self, st: int) -> None:
        core = self._core
        if core.done_error is not None and not core.measuring and not core.progressing:
            e, core.done_error = core.done_error, None
            self._take_cb_error()
            self._take_progress_error()
            raise e  # a completion's exception wins over the call's outcome, as in advance()
        if st != E.OK:
            raise self._failure(st)
        if core.cb_error is not None:
            self._take_cb_error()  # a failure the call got over (none expected): not for a later call
        if core.progress_error is not None:
            self._take_progress_error()
        if core.h is None:  # a callback closed the layout inside the call: what the call handed out went with it
            raise _closed()

    def _call(self, fn: Union[str, Callable[..., Any]], *args: Any) -> Tuple[Any, list[BaseException]]:
        """A C call that may call back, fn(handle, *args) (fn a function of lib by name, or one of _lib's calls):
        returns (what it returned, exceptions the callbacks raised)."""
        core = self._core
        h = self._h()
        frame: list[BaseException] = []
        core.frames.append(frame)
        try:
            st = (getattr(lib, fn) if isinstance(fn, str) else fn)(h, *args)
        finally:
            core.frames.pop()
        return st, frame

    def _finish(self, st: int, frame: list[BaseException]) -> None:
        """After _call: a callback's exception first, then closed, then the status."""
        if frame:
            self._take_cb_error()
            self._take_progress_error()
            raise frame[0]
        if self._core.h is None:
            raise _closed()
        self._check(st)

    def _ids(self, name: str, *pre: Any) -> list[int]:
        h = self._h()
        count = ctypes.c_size_t(0)
        self._check(getattr(lib, name)(h, *pre, None, 0, ctypes.byref(count)))
        if not count.value:
            return []
        arr = (ctypes.c_uint64 * count.value)()
        self._check(getattr(lib, name)(h, *pre, arr, count.value, ctypes.byref(count)))
        return list(arr[:min(len(arr), count.value)])

    def _string(self, name: str, *args: Any) -> str:
        out = ctypes.c_char_p()
        self._check(getattr(lib, name)(self._h(), *args, ctypes.byref(out)))
        return _str_out(out)

    def _double(self, name: str, *args: Any) -> float:
        out = ctypes.c_double(0)
        self._check(getattr(lib, name)(self._h(), *args, ctypes.byref(out)))
        return out.value

    def _flag(self, name: str, *args: Any) -> bool:
        out = ctypes.c_int(0)
        self._check(getattr(lib, name)(self._h(), *args, ctypes.byref(out)))
        return bool(out.value)

    def _view(self, vid: int) -> View:
        v = self._views.get(vid)
        if v is None:
            v = View(self, vid)
            self._views[vid] = v
        return v

    def _constraint(self, cid: int) -> LayoutConstraint:
        c = self._lcons.get(cid)
        if c is None:
            c = LayoutConstraint(self, cid)
            self._lcons[cid] = c
        return c

    def _own(self, obj: object, cls: type[_Child], what: str) -> int:
        """The id of obj, which must be a cls of this layout."""
        if not isinstance(obj, cls):
            raise TypeError("%s must be a moa.%s, got %s" % (what, cls.__name__, type(obj).__name__))
        if obj._layout is not self:
            obj._layout._h()
            raise E.InvalidError("%s belongs to another layout" % what, E.INVALID, "invalid")
        return obj._id

    def _curve(self, curve: Optional[Curve], default: int) -> int:
        """A moa_curve from a name, a 4-tuple (cubic Bézier) or a dict (spring)."""
        if curve is None:
            return default
        if isinstance(curve, str):
            if curve not in CURVES:
                raise E.InvalidError("unknown curve %r (expected %s)" % (curve, ", ".join(CURVES)),
                                     E.INVALID, "invalid")
            return CURVES[curve]
        out = ctypes.c_int(0)
        if isinstance(curve, dict):
            unknown = set(curve) - {"damping", "response", "velocity"}
            if unknown:
                raise E.InvalidError("unknown spring option(s) %s (damping, response, velocity)" %
                                     ", ".join(sorted(map(str, unknown))), E.INVALID, "invalid")
            damping = finite(curve.get("damping", 1), "damping")
            response = finite(curve.get("response", 0.5), "response")
            v = curve.get("velocity")
            vp = None if v is None else ctypes.byref(ctypes.c_double(finite(v, "velocity")))
            self._check(lib.moa_layout_spring_curve(self._h(), damping, response, vp, ctypes.byref(out)))
            return out.value
        if isinstance(curve, (tuple, list)) and len(curve) == 4:
            p = [finite(x, "control point") for x in curve]
            self._check(lib.moa_layout_bezier_curve(self._h(), p[0], p[1], p[2], p[3], ctypes.byref(out)))
            return out.value
        raise TypeError("curve must be a name, a 4-tuple (cubic Bézier) or a dict (spring), got %s" %
                        type(curve).__name__)

    def _anim(self, duration: float, curve: Optional[Curve], delay: float, spring: Optional[Spring],
              default_curve: int = CURVES["easeInOut"]) -> Tuple[float, int, float]:
        d = finite(duration, "duration")
        dl = finite(delay, "delay")
        if spring is not None:
            if not isinstance(spring, dict):
                raise TypeError("spring must be a dict, got %s" % type(spring).__name__)
            c = self._curve(spring, default_curve)
        else:
            c = self._curve(curve, default_curve)
        return d, c, dl

    def _animation(self, st: int, key: int, out: ctypes.c_uint64) -> Optional[Animation]:
        if st != E.OK:
            _unregister(key)
        self._check(st)  # on success: forgets a measure failure the call got over (not for a later call)
        return Animation(self, out.value) if out.value else None

    # -- root, guides, views

    @property
    def root(self) -> View:
        """The root view."""
        out = ctypes.c_uint64(0)
        self._check(lib.moa_layout_root(self._h(), ctypes.byref(out)))
        return self._view(out.value)

    @property
    def root_size(self) -> Tuple[float, float]:
        """(width, height) of the root, as last set."""
        w, h = ctypes.c_double(0), ctypes.c_double(0)
        self._check(lib.moa_layout_root_size(self._h(), ctypes.byref(w), ctypes.byref(h)))
        return w.value, h.value

    @property
    def orientation(self) -> str:
        """ "landscape" when the root is wider than tall, otherwise "portrait" (a rotation is a root resize)."""
        out = ctypes.c_int(0)
        self._check(lib.moa_layout_orientation(self._h(), ctypes.byref(out)))
        return "landscape" if out.value == _ORIENTATIONS["landscape"] else "portrait"

    @property
    def width(self) -> float:
        """The root's width."""
        return self.root_size[0]

    @property
    def height(self) -> float:
        """The root's height."""
        return self.root_size[1]

    def set_root_size(self, width: float, height: float) -> Layout:
        """Set the root's size (rotation, window resize). ConflictError if required constraints cannot hold
        (the size stays). Returns self."""
        self._check(lib.moa_layout_set_root_size(self._h(), finite(width, "width"), finite(height, "height")))
        return self

    def set_safe_area(self, top: float, left: float, bottom: float, right: float) -> Layout:
        """Set the safe-area insets (the safeArea guide is the root inset by them). Returns self."""
        self._check(lib.moa_layout_set_safe_area(self._h(), finite(top, "top"), finite(left, "left"),
                                                 finite(bottom, "bottom"), finite(right, "right")))
        return self

    def set_keyboard_height(self, height: float) -> Layout:
        """Set the keyboard guide's height at once (see show_keyboard to animate it). Returns self."""
        self._check(lib.moa_layout_set_keyboard_height(self._h(), finite(height, "height")))
        return self

    def view(self, name: str, parent: Optional[View] = None) -> View:
        """Add a view named `name` under `parent` (None: the root). DuplicateError if the name is taken,
        InvalidError for a bad name."""
        b = text(name, "name")
        pid = 0 if parent is None else self._own(parent, View, "parent")
        out = ctypes.c_uint64(0)
        self._check(lib.moa_view_new(self._h(), b, pid, ctypes.byref(out)))
        return self._view(out.value)

    def add_views(self, names: Sequence[str], parent: Optional[View] = None,
                  sizes: Optional[Sequence[Tuple[Optional[float], Optional[float]]]] = None) -> list[View]:
        """Add many views under `parent` (None: the root) in one call, all or nothing: the bulk form of view()
        and View.set_intrinsic_size(), for when a call per view costs more than the view (a ctypes call is a
        few microseconds). sizes: None, or one (width, height) per name, None on an axis for none. Returns the
        views in the order of names. DuplicateError if a name is in use or given twice, InvalidError for a bad
        name or size; nothing is added then."""
        if isinstance(names, (str, bytes)):
            raise TypeError("names must be a sequence of str, not a single string")
        encoded = [text(n, "name") for n in names]
        count = len(encoded)
        pid = 0 if parent is None else self._own(parent, View, "parent")
        arr = (ctypes.c_char_p * max(1, count))(*encoded)
        flat = None
        if sizes is not None:
            if len(sizes) != count:
                raise E.InvalidError("%d sizes for %d names" % (len(sizes), count), E.INVALID, "invalid")
            values: list[float] = []
            add = values.append
            for w, h in sizes:
                for x in (w, h):
                    if x is None:
                        add(-1.0)   # MOA_NO_INTRINSIC
                        continue
                    # finite(), with a plain int first (what it does with one, faster: sizes come by thousands)
                    v = float(x) if type(x) is int and -2**53 <= x <= 2**53 else finite(x, "size")
                    if v < 0:
                        raise E.InvalidError("an intrinsic size must be 0 or more (None for none)", E.INVALID,
                                             "invalid")
                    add(v)
            flat = (ctypes.c_double * max(2, 2 * count))(*values)
        out = (ctypes.c_uint64 * max(1, count))()
        self._check(lib.moa_views_new(self._h(), arr, count, pid, flat, out))
        return [self._view(i) for i in out[:count]]

    def find(self, name: str) -> Optional[View]:
        """The view, root or guide named `name`, or None."""
        out = ctypes.c_uint64(0)
        st = lib.moa_view_find(self._h(), text(name, "name"), ctypes.byref(out))
        if st == E.NOTFOUND:
            return None
        self._check(st)
        return self._view(out.value)

    def __getitem__(self, name: str) -> View:
        """The view, root or guide named `name`; KeyError if none."""
        v = self.find(name)
        if v is None:
            raise KeyError(name)
        return v

    def __contains__(self, name: object) -> bool:
        """Whether a view, root or guide is named `name`."""
        return isinstance(name, str) and self.find(name) is not None

    def guide(self, name: str) -> View:
        """A layout guide by name: "safeArea", "margins", "keyboard", or one made with layout_guide() (a
        barrier's guide too). NotFoundError if no guide has that name."""
        out = ctypes.c_uint64(0)
        self._check(lib.moa_layout_guide(self._h(), text(name, "name"), ctypes.byref(out)))
        return self._view(out.value)

    def views(self) -> list[View]:
        """The views added with view() (not the root or guides), in creation order."""
        return [self._view(i) for i in self._ids("moa_layout_views")]

    def layout_guide(self, name: str, parent: Optional[View] = None) -> View:
        """Add a layout guide named `name` in `parent` (None: the root): UIKit's UILayoutGuide, an invisible
        rectangle with the attributes of a view, for equations only (spacers, equal gaps, a column to align to).
        Nothing places it until equations do; it cannot hold views and is not among views() or the changed
        views. guide(name) and find(name) find it; View.remove() removes it. DuplicateError if the name is
        taken, InvalidError for a bad name."""
        b = text(name, "name")
        pid = 0 if parent is None else self._own(parent, View, "parent")
        out = ctypes.c_uint64(0)
        self._check(lib.moa_guide_new(self._h(), b, pid, ctypes.byref(out)))
        return self._view(out.value)

    # -- arrangements: stacks, chains, barriers (the classes are in _arrange.py)

    def _view_ids(self, views: Union[View, Iterable[View]], what: str) -> list[int]:
        """The ids of an iterable of Views of this layout (a single View is a list of one)."""
        if isinstance(views, View):
            views = [views]
        elif isinstance(views, (str, bytes)) or not isinstance(views, collections.abc.Iterable):
            raise TypeError("%s must be an iterable of moa.View, got %s" % (what, type(views).__name__))
        return [self._own(v, View, "an item of " + what) for v in views]

    def stack(self, name: str, parent: Optional[View] = None, *, axis: str = "horizontal", distribution: str = "fill",
              alignment: str = "fill", spacing: float = 0.0, margins_relative: bool = False,
              views: Iterable[View] = ()) -> Stack:
        """Add a stack (UIKit's UIStackView): a view named `name` under `parent` (None: the root) that lays out
        its arranged views along `axis` ("horizontal" or "vertical"); returns a :class:`moa.Stack`. Equations
        place the stack's view by its name (``stack.view`` is that View).

        distribution: "fill", "fillEqually", "fillProportionally", "equalSpacing" or "equalCentering";
        alignment: "fill", "leading", "top", "center", "trailing", "bottom", "firstBaseline" or
        "lastBaseline"; spacing: points between neighbours; margins_relative: arrange within the view's layout
        margins; views: the views to arrange, in order, in one change (each becomes a subview of the stack).

        All or nothing: when arranging `views` fails (ConflictError, InvalidError for a guide or an ancestor of
        the stack) the stack's view is removed again and none of the views moved."""
        b = text(name, "name")
        pid = 0 if parent is None else self._own(parent, View, "parent")
        ax = choice(axis, _AXES, "axis")
        d = choice(distribution, list(_arrange.DISTRIBUTIONS), "distribution")
        a = choice(alignment, list(_arrange.ALIGNMENTS), "alignment")
        sp = finite(spacing, "spacing")
        m = boolean(margins_relative, "margins_relative")
        ids = self._view_ids(views, "views")
        if len(set(ids)) != len(ids):
            raise E.InvalidError("a view is named twice in views", E.INVALID, "invalid")
        h = self._h()
        out = ctypes.c_uint64(0)
        self._check(lib.moa_stack_new(h, b, pid, ax, ctypes.byref(out)))
        sid = out.value
        try:
            for fn, value, default in ((lib.moa_stack_set_distribution, d, 0), (lib.moa_stack_set_alignment, a, 0),
                                       (lib.moa_stack_set_spacing, sp, 0.0),
                                       (lib.moa_stack_set_margins_relative, m, 0)):
                if value != default:
                    self._check(fn(h, sid, value))
            if ids:  # all of them in one change, or none
                self._check(lib.moa_stack_insert_views(h, sid, (ctypes.c_uint64 * len(ids))(*ids), len(ids), -1))
        except BaseException:  # noqa: B902 - a library error, or what a progress function raised
            # Undo (the exception holds the library's details already): no view was arranged; the stack's view
            # goes.
            if self._core.h is not None:  # (a progress function may have closed the layout)
                saved = self._lift_limits()  # (they would stop the removal)
                lib.moa_view_free(h, sid)
                self._restore_limits(saved)
            self._core.progress_error = None  # one the undoing raised: this call raises the first
            raise
        return _arrange.Stack(self, sid)

    def stack_of(self, view: View) -> Optional[Stack]:
        """The :class:`moa.Stack` whose view is `view`, or None when `view` is not a stack's view."""
        vid = self._own(view, View, "view")
        st = lib.moa_stack_get(self._h(), vid, None, None, None, None, None)
        if st == E.NOTFOUND:
            return None
        self._check(st)
        return _arrange.Stack(self, vid)

    def chain(self, views: Iterable[View], *, axis: str = "horizontal", style: str = "spread", gap: float = 0.0,
              bias: float = 0.5, weights: Optional[Iterable[Optional[float]]] = None) -> Chain:
        """Link sibling `views` (one superview) along `axis` between their superview's edges (Android
        ConstraintLayout's chains); returns a :class:`moa.Chain`.

        style: "spread" (equal gaps at the ends and between the views, at least `gap` between them),
        "spreadInside" (the ends on the edges, equal gaps between) or "packed" (the views `gap` apart, the group
        at `bias`: 0 start, 0.5 centred, 1 end). weights: None, or one entry per view, a number above 0 or None
        (no weight): views with a weight share the room left along the axis in proportion to their weights.
        A view can be in one chain per axis. InvalidError for no views, views with different superviews, a view
        repeated or already chained on the axis, a guide, or a bad gap (0 ... 1e9) or bias (0 ... 1)."""
        ids = self._view_ids(views, "views")
        ax = choice(axis, _AXES, "axis")
        st = choice(style, list(_arrange.CHAIN_STYLES), "style")
        g = finite(gap, "gap")
        bi = finite(bias, "bias")
        warr = None
        if weights is not None:
            if isinstance(weights, (str, bytes)) or not isinstance(weights, collections.abc.Iterable):
                raise TypeError("weights must be None or a sequence, got %s" % type(weights).__name__)
            ws = [_arrange._weight(w, "weight") for w in weights]
            if len(ws) != len(ids):
                raise E.InvalidError("%d weights for %d views (one per view, None for no weight)" %
                                     (len(ws), len(ids)), E.INVALID, "invalid")
            warr = (ctypes.c_double * len(ws))(*ws)
        arr = (ctypes.c_uint64 * len(ids))(*ids)
        out = ctypes.c_uint64(0)
        self._check(lib.moa_chain_new(self._h(), arr, len(ids), ax, st, g, bi, warr, ctypes.byref(out)))
        return _arrange.Chain(self, out.value, axis, style, g, bi)

    def barrier(self, name: str, side: str, views: Iterable[View], *, margin: float = 0.0,
                parent: Optional[View] = None) -> Barrier:
        """Add a barrier (Android ConstraintLayout's): a guide named `name` in `parent` (None: the first member's
        superview, or the root) of zero thickness at the furthest of `views`' `side` edges ("left", "right",
        "top", "bottom", "leading" or "trailing") plus `margin`; returns a :class:`moa.Barrier`. Views attached
        to it by name (``field.leading == labels.trailing + 8``) follow the widest member as sizes and texts
        change. DuplicateError if the name is taken; InvalidError for a member repeated or a bad margin."""
        b = text(name, "name")
        sd = choice(side, list(_arrange.BARRIER_SIDES), "side")
        ids = self._view_ids(views, "views")
        m = finite(margin, "margin")
        pid = 0 if parent is None else self._own(parent, View, "parent")
        arr = (ctypes.c_uint64 * len(ids))(*ids)
        out = ctypes.c_uint64(0)
        self._check(lib.moa_barrier_new(self._h(), b, pid, sd, arr, len(ids), m, ctypes.byref(out)))
        return _arrange.Barrier(self, out.value, side, m)

    # -- the visual format language

    def vfl_options(self, words: Union[str, Iterable[str]]) -> int:
        """The MOA_VFL_* bits (an int) of option names separated by spaces, commas or `|`
        ("alignAllTop alignAllBottom"; Apple's names: alignAllLeft ... alignAllFirstBaseline, alignAllBaseline,
        directionLeadingToTrailing, directionLeftToRight, directionRightToLeft), or of an iterable of names.
        InvalidError for an unknown name (``suggestion`` holds the nearest)."""
        if not isinstance(words, str):
            if isinstance(words, bytes) or not isinstance(words, collections.abc.Iterable):
                raise TypeError("options must be a str or an iterable of str, got %s" % type(words).__name__)
            items = list(words)
            for w in items:
                if not isinstance(w, str):
                    raise TypeError("an option name must be a str, got %s" % type(w).__name__)
            words = " ".join(items)
        out = ctypes.c_uint(0)
        self._check(lib.moa_layout_vfl_options(self._h(), text(words, "options"), ctypes.byref(out)))
        return out.value

    def vfl(self, format: str, metrics: Optional[Mapping[str, float]] = None,
            options: Union[int, str, Iterable[str], None] = None) -> list[LayoutConstraint]:
        """Add the constraints of Auto Layout visual format strings, one format per line, all or nothing
        (``"H:|-[a]-[b(==a)]-|"``: `-` is 8 between views and 20 to the superview `|`); returns them as
        LayoutConstraint objects, in the order of the text (sizes, then gaps, then alignments). They are
        equations: re-issuing one updates it, as eqs() does.

        metrics: a mapping of names used in the text to numbers. options: None, an int of MOA_VFL_* bits, or
        option names as vfl_options() takes them ("alignAllTop alignAllBottom", or a list of names).

        Raises ParseError (``line``, ``offset`` of the offending character, a caret line under it in the
        message; also for an unknown view or metric), InvalidError (views in different superviews, an alignment
        on the format's own axis, unknown option bits), ConflictError (with conflicts)."""
        b = text(format, "format")
        names: list[bytes] = []
        values: list[float] = []
        if metrics is not None:
            if not isinstance(metrics, collections.abc.Mapping):
                raise TypeError("metrics must be a mapping of names to numbers, got %s" % type(metrics).__name__)
            for k, v in metrics.items():
                names.append(text(k, "a metric name"))
                values.append(finite(v, "metric %r" % (k,)))
        if options is None:
            opts = 0
        elif isinstance(options, int) and not isinstance(options, bool):
            if not 0 <= options <= 0xffffffff:
                raise E.InvalidError("options must be MOA_VFL_* bits (0 ... 0xffffffff), got %d" % options,
                                     E.INVALID, "invalid")
            opts = options
        elif isinstance(options, bool):
            raise TypeError("options must be an int, a str or an iterable of str, got bool")
        else:
            opts = self.vfl_options(options)
        n = len(names)
        narr = (ctypes.c_char_p * n)(*names) if n else None
        varr = (ctypes.c_double * n)(*values) if n else None
        # Every constraint comes from a byte of the text (a predicate, a connection) or, for an alignment
        # option, from a pair of neighbouring views: at most (bytes + 1) x (1 + alignment options).
        cap = (len(b) + 1) * (1 + bin(opts).count("1"))
        count = ctypes.c_size_t(0)
        while True:
            arr = (ctypes.c_uint64 * cap)()
            st, frame = self._call("moa_layout_vfl", b, narr, varr, n, opts, arr, cap, ctypes.byref(count))
            self._finish(st, frame)
            if count.value <= cap:
                return [self._constraint(i) for i in arr[:count.value]]
            cap = count.value  # not expected; re-issuing the same text updates the same constraints

    # -- equations

    def eq(self, line: str) -> LayoutConstraint:
        """Add (or update) the constraint one equation describes; returns its LayoutConstraint.

        Raises ParseError (with line, offset, expected, suggestion), ConflictError (with conflicts),
        InvalidError for a blank line or a size/pin line (use eqs)."""
        b = text(line, "line")
        out = ctypes.c_uint64(0)
        st, frame = self._call("moa_layout_eq", b, ctypes.byref(out))
        self._finish(st, frame)
        return self._constraint(out.value)

    def eqs(self, text_: str, source: Optional[str] = None, first_line: int = 1) -> list[LayoutConstraint]:
        """Add (or update) the constraints of many equation lines, all or nothing; returns them in line order
        (`size` gives 2, `pin` 4). `source` names the text in errors; `first_line` numbers its first line."""
        b = text(text_, "text")
        src = None if source is None else text(source, "source")
        if isinstance(first_line, bool) or not isinstance(first_line, int):
            raise TypeError("first_line must be an int, got %s" % type(first_line).__name__)
        if not 1 <= first_line <= 2**31 - 1:
            raise E.InvalidError("first_line must be 1 or more, got %d" % first_line, E.INVALID, "invalid")
        cap = 4 * (b.count(b"\n") + 1)  # pin makes 4 constraints: the most one line makes
        arr = (ctypes.c_uint64 * cap)()
        count = ctypes.c_size_t(0)
        if src is not None or first_line != 1:
            st, frame = self._call("moa_layout_eqs_source", b, src, first_line, arr, cap, ctypes.byref(count))
        else:
            st, frame = self._call("moa_layout_eqs", b, arr, cap, ctypes.byref(count))
        self._finish(st, frame)
        return [self._constraint(i) for i in arr[:min(cap, count.value)]]

    def xeq(self, line: str) -> int:
        """Remove the constraint(s) an equation names (the constant is not compared); returns how many.
        NotFoundError if none matches."""
        b = text(line, "line")
        removed = ctypes.c_size_t(0)
        st, frame = self._call("moa_layout_xeq", b, ctypes.byref(removed))
        self._finish(st, frame)
        return removed.value

    def on_debug(self, fn: Optional[Callable[[str], object]]) -> Layout:
        """Where the `?` reports of equations go: fn(text), or None for standard error. Returns self."""
        h = self._h()
        if fn is not None and not callable(fn):
            raise TypeError("on_debug needs a callable or None, got %s" % type(fn).__name__)
        old = self._debug_key
        if fn is None:
            self._check(lib.moa_layout_set_debug_callback(h, _NO_TEXT, None))
            self._debug_key = 0
        else:
            key = _register(self._core, fn, "on_debug")
            st = lib.moa_layout_set_debug_callback(h, _TEXT, key)
            if st != E.OK:
                _unregister(key)
                self._check(st)
            self._debug_key = key
        _unregister(old)
        return self

    def constraints(self) -> list[LayoutConstraint]:
        """The constraints made by equations, active or not, in creation order."""
        return [self._constraint(i) for i in self._ids("moa_layout_constraints")]

    def describe(self) -> str:
        """Every equation constraint as its equation, one per line (`  # line N`, `inactive`)."""
        return self._string("moa_layout_describe")

    # -- solving and reading

    @overload
    def solve(self, *, views: Literal[True] = ...) -> list[View]: ...

    @overload
    def solve(self, *, views: Literal[False]) -> int: ...

    @overload
    def solve(self, *, views: bool) -> Union[list[View], int]: ...

    def solve(self, *, views: bool = True) -> Union[list[View], int]:
        """Solve and update the frames; returns the views (and root) whose frame changed, or with views=False
        their number (no View object is made)."""
        v = boolean(views, "views")
        self._check(lib.moa_layout_solve(self._h(), None))
        return self._changed(v)

    def _changed(self, views: Union[bool, int] = True) -> Union[list[View], int]:
        if not views:  # the same views as moa_layout_changed_views, whose count alone costs more
            st, count = _changed_frames(self._h(), None, 0)
            self._check(st)
            return count
        return [self._view(i) for i in self._ids("moa_layout_changed_views")]

    def frames(self, guides: bool = False) -> list[Frame]:
        """The frames of the root and every view (with guides=True also the guides), in hierarchy order,
        solving first if needed: a list of Frame. Several Python objects per view (a Frame, its View, two
        Rects, names): to follow an animation of many views, read frame_columns() or frame_buffer()."""
        return self._frame_list(self.frame_buffer(guides=guides))

    def changed_frames(self) -> list[Frame]:
        """The frames of the views whose frame changed at the last solve or frame (advance, seek), in creation
        order: a list of Frame. After a small change this is short however large the layout. When many views
        move in each frame, frame_columns(changed=True) (with advance(dt, views=False)) costs far less."""
        return self._frame_list(self.frame_buffer(changed=True))

    def frame_buffer(self, guides: bool = False, changed: bool = False) -> ctypes.Array[Frame_]:
        """frames() or, with changed=True, changed_frames() as one ctypes array of moa_frame (filled by one C call
        once the count is known), without a Python object per view: fields view, superview (ids), frame and
        frame_in_root (x, y, width, height), depth, is_guide. It supports the buffer protocol (memoryview,
        numpy.frombuffer); reading it item by item (``buf[i].frame_in_root.x``) makes a ctypes object per item
        and field: frame_columns() reads it by column. View.id is its view field; view_by_id() gives the View of
        an id."""
        h = self._h()
        g = boolean(guides, "guides")
        count = ctypes.c_size_t(0)

        def call(arr: Optional[ctypes.Array[Frame_]], n: int) -> int:
            if changed:
                st, count.value = _changed_frames(h, arr, n)
                return st
            return lib.moa_layout_frames(h, g, arr, n, ctypes.byref(count))

        self._check(call(None, 0))
        arr = (Frame_ * count.value)()
        if count.value:
            self._check(call(arr, count.value))
        return arr

    def frame_columns(self, guides: bool = False, changed: bool = False) -> FrameColumns:
        """frame_buffer(guides, changed) as columns: a FrameColumns of memoryviews over that one buffer (no copy),
        e.g. ``cols.root_x`` the x of every frame in root space, ``cols.view`` their view ids. The bulk way to
        follow an animation of many views:

            n = L.advance(1 / 60, views=False)    # the number of views that moved, no View objects
            cols = L.frame_columns(changed=True)  # their ids and frames, one C call
            for vid, x, y in zip(cols.view, cols.root_x, cols.root_y): ...
        """
        return FrameColumns(self.frame_buffer(guides=guides, changed=changed))

    def view_by_id(self, id_: SupportsIndex) -> Optional[View]:
        """The View (a view, the root or a guide) of an id, as View.id, frame_buffer() and frame_columns() give
        it, or None when no view of this layout has it (removed, another layout's, not a view's id)."""
        if isinstance(id_, bool):
            raise TypeError("id must be an int, got bool")
        try:
            i = operator.index(id_)
        except TypeError:
            raise TypeError("id must be an int, got %s" % type(id_).__name__) from None
        h = self._h()
        if not 0 < i < 1 << 64:
            return None
        out = ctypes.c_char_p()
        st = lib.moa_view_name(h, i, ctypes.byref(out))
        if st == E.NOTFOUND:
            return None
        self._check(st)
        return self._view(i)

    def _frame_list(self, arr: ctypes.Array[Frame_]) -> list[Frame]:
        h = self._h()
        names: dict[int, str] = {}

        def name(vid: int) -> str:
            if vid not in names:
                out = ctypes.c_char_p()
                names[vid] = _str_out(out) if lib.moa_view_name(h, vid, ctypes.byref(out)) == E.OK else "?"
            return names[vid]

        return [Frame(self._view(f.view), name(f.view), name(f.superview) if f.superview else None, _rect(f.frame),
                      _rect(f.frame_in_root), f.depth, bool(f.is_guide))
                for f in arr]

    def violations(self) -> list[Violation]:
        """The optional constraints the solver gave up, highest priority first: a list of Violation."""
        h = self._h()
        count = ctypes.c_size_t(0)
        self._check(lib.moa_layout_violations(h, None, None, 0, ctypes.byref(count)))
        n = count.value
        if not n:
            return []
        ids, amounts = (ctypes.c_uint64 * n)(), (ctypes.c_double * n)()
        self._check(lib.moa_layout_violations(h, ids, amounts, n, ctypes.byref(count)))
        return [Violation(self._constraint(ids[i]), amounts[i]) for i in range(min(n, count.value))]

    def ambiguities(self) -> list[Ambiguity]:
        """The view variables no constraint fixes: a list of Ambiguity(view, var) (empty: not ambiguous)."""
        h = self._h()
        count = ctypes.c_size_t(0)
        self._check(lib.moa_layout_ambiguities(h, None, None, 0, ctypes.byref(count)))
        n = count.value
        if not n:
            return []
        ids, vars_ = (ctypes.c_uint64 * n)(), (ctypes.c_int * n)()
        self._check(lib.moa_layout_ambiguities(h, ids, vars_, n, ctypes.byref(count)))
        return [Ambiguity(self._view(ids[i]), _VARS[vars_[i]] if 0 <= vars_[i] < 4 else "?")
                for i in range(min(n, count.value))]

    def svg(self, constraints: bool = False, guides: bool = False, labels: bool = True) -> str:
        """The layout as an SVG document (solving first if needed)."""
        flags = ((_SVG_CONSTRAINTS if boolean(constraints, "constraints") else 0) |
                 (_SVG_GUIDES if boolean(guides, "guides") else 0) |
                 (0 if boolean(labels, "labels") else _SVG_NO_LABELS))
        return self._string("moa_layout_svg", flags)

    def html(self, path: Union[str, "os.PathLike[str]", None] = None, title: str = "Moa layout") -> str:
        """The inspector: one self-contained HTML page (no network) that draws the layout to scale (solving first
        if needed). Hovering a view shows its frames and every constraint touching it with its line; clicking a
        constraint highlights its views; panels list recent conflicts, violations and ambiguities; frames recorded
        with trace_start() replay on a timeline slider. Written to `path` (UTF-8) when given; returned always."""
        page = self._string("moa_layout_html", text(title, "title"))
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(page)
        return page

    # -- content that sizes itself

    def fitting_size(self, view: View, width: float = 0.0, height: float = 0.0, hpri: Priority = "fit",
                     vpri: Priority = "fit") -> Tuple[float, float]:
        """The size `view`'s subtree takes under its own constraints (those among the view and its descendants,
        their intrinsic sizes, measured content) with its width pulled toward `width` at priority `hpri` and
        its height toward `height` at `vpri` (numbers in [1, 1000] or names: "required", "fit", ...): Auto
        Layout's systemLayoutSizeFitting. Returns (width, height). A table cell's height for a width:
        ``L.fitting_size(cell, 320, 0, "required", "fit")``; targets 0 at "fit" give the smallest size. The
        live layout does not change. ConflictError when a required target cannot hold; CallbackError when
        measured content fails."""
        vid = self._own(view, View, "view")
        w, h_ = finite(width, "width"), finite(height, "height")
        hp, vp = priority(hpri, "hpri"), priority(vpri, "vpri")
        ow, oh = ctypes.c_double(0), ctypes.c_double(0)
        self._check(lib.moa_layout_fitting_size(self._h(), vid, w, h_, hp, vp, ctypes.byref(ow), ctypes.byref(oh)))
        return ow.value, oh.value

    def measure_stats(self) -> dict[str, int]:
        """How often measured content was asked: a dict with ``calls`` (measure calls since the layout was made,
        text measuring included), ``cache_hits`` (proposals answered from a view's cache instead),
        ``last_calls`` (calls in the last solve) and ``last_rounds`` (re-solves after measuring in the last
        solve that measured anything)."""
        out = MeasureStats_()
        self._check(lib.moa_layout_measure_stats(self._h(), ctypes.byref(out)))
        return dict(calls=out.calls, cache_hits=out.cache_hits, last_calls=out.last_calls,
                    last_rounds=out.last_rounds)

    # -- limits and progress

    def set_limit(self, name: str, value: float) -> Layout:
        """Set one of the layout's limits (moa_layout_set_limit); returns self. `name`: "rows" (rows of the
        solver's tableau, about one per active constraint; default 10,000,000), "cells" (its coefficients,
        the bulk of its memory; default 100,000,000) and "pivots" (simplex steps each solver operation of a call
        may make; default 10,000,000), whole numbers >= 1; "seconds" (the wall-clock time one call may spend
        adding constraints, the solver work inside it included), >= 0, 0 (the default) for none. A call that
        would go past a limit raises :class:`moa.LimitError` and changes nothing. InvalidError for an unknown
        name or a bad value; MisuseError from inside the progress function."""
        which = choice(name, LIMIT_NAMES, "limit")
        self._check(lib.moa_layout_set_limit(self._h(), which, finite(value, "value")))
        return self

    def limit(self, name: str) -> Union[int, float]:
        """The value of one of the layout's limits: "rows", "cells" and "pivots" (ints), "seconds" (a float, 0
        for none)."""
        which = choice(name, LIMIT_NAMES, "limit")
        value = self._double("moa_layout_limit", which)
        return value if which == 2 else int(value)

    def usage(self) -> Usage:
        """What the layout has in use: a :class:`moa.Usage` (rows, cells, variables, constraints, views)."""
        out = Usage_()
        self._check(lib.moa_layout_usage(self._h(), ctypes.byref(out)))
        return _usage(out)

    def on_progress(self, fn: Optional[ProgressFn], interval: int = 1000) -> Layout:
        """Call fn(steps) every `interval` constraints (an int >= 1) a call adds (an eqs block, a stack's
        rebuild, a view's intrinsic size ...), `steps` being how many that call has added so far. fn returns
        False to stop the call, which then raises :class:`moa.LimitError` and changes nothing; anything else
        (None, True) goes on. None removes the function. Returns self.

        fn runs inside the C call: it may read the layout (describe() shows the call's work so far), but
        anything that changes or solves it (solve, eq, set_limit, on_progress ...) raises MisuseError there. It
        is also called every 256 pivots inside one solver operation (an equation whose optimisation moves many
        views): from there every call on the layout raises MisuseError. An exception fn raises stops the call,
        which raises that exception once the C call has returned. MisuseError when called from inside fn."""
        h = self._h()
        if fn is None:
            self._check(lib.moa_layout_set_progress(h, _NO_PROGRESS, 1, None))
            self._progress = None
            return self
        if not callable(fn):
            raise TypeError("on_progress needs a callable or None, got %s" % type(fn).__name__)
        if isinstance(interval, bool) or not isinstance(interval, int):
            raise TypeError("interval must be an int, got %s" % type(interval).__name__)
        if not 1 <= interval <= 2**63 - 1:
            raise E.InvalidError("interval must be 1 or more, got %d" % interval, E.INVALID, "invalid")
        thunk = _progress_thunk(self._core, fn)
        self._check(lib.moa_layout_set_progress(h, thunk, interval, None))
        self._progress = (thunk, interval)  # the one before is no longer called (C refuses this from inside it)
        return self

    def _lift_limits(self) -> Tuple[float, float]:
        """Lifts the pivots and time limits and the progress function for an undo that must not be stopped half
        way (a failed stack taken apart); returns the limits for _restore_limits."""
        h = self._h()
        pivots, seconds = ctypes.c_double(0), ctypes.c_double(0)
        lib.moa_layout_limit(h, _LIMIT_PIVOTS, ctypes.byref(pivots))
        lib.moa_layout_limit(h, _LIMIT_SECONDS, ctypes.byref(seconds))
        lib.moa_layout_set_limit(h, _LIMIT_PIVOTS, 2.0 ** 53)
        lib.moa_layout_set_limit(h, _LIMIT_SECONDS, 0.0)
        if self._progress is not None:
            lib.moa_layout_set_progress(h, _NO_PROGRESS, 1, None)
        return pivots.value, seconds.value

    def _restore_limits(self, saved: Tuple[float, float]) -> None:
        h = self._core.h
        if h is None:
            return
        lib.moa_layout_set_limit(h, _LIMIT_PIVOTS, saved[0])
        lib.moa_layout_set_limit(h, _LIMIT_SECONDS, saved[1])
        if self._progress is not None:
            lib.moa_layout_set_progress(h, self._progress[0], self._progress[1], None)

    def set_font(self, font: Union[Font, AdvanceFn, None], *, family: Optional[str] = None,
                 ascent: Optional[float] = None, descent: Optional[float] = None) -> Layout:
        """Measure the layout's text (View.set_text) with a real font; every text is measured again at the next
        solve. Returns self.

        - a :class:`moa.Font` (libmoafont): the layout calls moafont's C function directly (measuring never
          enters Python) and keeps the Font while it is set; `family`, `ascent` and `descent` default to the
          font's (its family name, its metrics);
        - a Python function advance(text, size) -> points (the width of one line of text at `size` points):
          `family` (the name pictures draw the text in) defaults to "sans-serif", `ascent` and `descent` (fractions
          of the size) to the built-in measurer's 0.76 and 0.24. An exception it raises, or an answer that is
          not a finite number of 0 or more, fails the solve with CallbackError (from that exception);
        - None: back to the built-in measurer (0.6 em per character).

        Refused (MisuseError) from inside a measure or advance function of this layout."""
        h = self._h()
        if self._core.measuring:
            raise E.MisuseError("set_font cannot be called from inside a measure or advance function of the same "
                                "layout", E.MISUSE, "misuse")
        if font is None:
            self._check(lib.moa_layout_set_font(h, None, _NO_ADVANCE, None, 0.0, 0.0))
            self._drop_font()
            return self
        if isinstance(font, Font):
            fam = text(font.family if family is None else family, "family")
            m = font.metrics()
            a = finite(m.ascent if ascent is None else ascent, "ascent")
            d = finite(m.descent if descent is None else descent, "descent")
            fn, ud = font._acquire()
            st = lib.moa_layout_set_font(h, fam, fn, ud, a, d)
            if st != E.OK:
                font._release()
                self._check(st)
            self._drop_font()
            self._font = font
            return self
        if not callable(font):
            raise TypeError("set_font needs a moa.Font, a function advance(text, size) or None, got %s" %
                            type(font).__name__)
        fam = text("sans-serif" if family is None else family, "family")
        a = finite(_BUILTIN_ASCENT if ascent is None else ascent, "ascent")
        d = finite(_BUILTIN_DESCENT if descent is None else descent, "descent")
        thunk = _advance_thunk(self._core, font)
        self._check(lib.moa_layout_set_font(h, fam, thunk, None, a, d))
        self._drop_font()
        self._font = thunk
        return self

    # -- the clock

    @property
    def time(self) -> float:
        """Seconds since the layout was made, as advanced by advance() / seek()."""
        return self._double("moa_layout_time")

    @property
    def animating(self) -> bool:
        """Whether an animation is running, waiting for its delay, or a completion is due."""
        return self._flag("moa_layout_is_animating")

    @overload
    def advance(self, dt: float, *, views: Literal[True] = ...) -> Optional[list[View]]: ...

    @overload
    def advance(self, dt: float, *, views: Literal[False]) -> Optional[int]: ...

    @overload
    def advance(self, dt: float, *, views: bool) -> Union[list[View], int, None]: ...

    def advance(self, dt: float, *, views: bool = True) -> Union[list[View], int, None]:
        """Move the clock forward by dt seconds and make a frame; returns the views whose frame changed or, with
        views=False, their number (None if a callback closed the layout). Completions run inside; the first
        exception one raised is raised after the frame.

        views=False makes no View object: with frame_columns(changed=True) (or frame_buffer) it is the way to
        follow an animation in which many views move (see frame_columns)."""
        v = boolean(views, "views")
        return self._clock(_advance, finite(dt, "dt"), v)

    def advance_frames(self, dt: float, out: Optional[FrameColumns] = None) -> Optional[FrameColumns]:
        """advance(dt, views=False) and frame_columns(changed=True) in one C call (moa_layout_advance_frames):
        the frame, then the frames of the views it moved, by column (``len()`` is how many moved). A ctypes call
        costs about 2 us, half of a frame in which one view moves (moa._speedups, when built, makes this call
        without ctypes): this is the way to follow an animation frame by frame. Returns None if a callback closed
        the layout; completions run inside, and the first exception one raised is raised after the frame, as
        advance().

        With out (a FrameColumns: one returned before, or ``FrameColumns()``), the frames go into out's buffer
        (replaced by a larger one when more views moved than it holds) and out is returned: nothing is made per
        frame, and a column read in the last frame is read again without a call while as many views move. On
        failure out is as it was; a bad out raises before the frame."""
        # This is the call made for every frame, the one the benchmarks compare with C: with out, moa._speedups
        # makes it whole in the usual case (advance_into: no callbacks, a float dt, all that moved fits in out).
        core = self._core
        if out is not None and _advance_into is not None:
            r = _advance_into(core, dt, out)
            if r is out:
                return out
            if r is not None:  # the frame is made: a failure, the layout closed, or more moved than out holds
                return self._frames_after(r[0], _NONE_RAISED, r[1], out, out.buffer, len(out.buffer))
        # _call inlined.
        d = dt if type(dt) is float and dt - dt == 0 else finite(dt, "dt")
        h = core.h
        if h is None:
            raise _closed()
        if out is not None:
            if type(out) is not FrameColumns:
                raise TypeError("out must be a FrameColumns, got %s" % type(out).__name__)
            arr = out.buffer
            cap = len(arr)
        else:
            # The array is as large as the last frame's count, and handed out (cut to what moved). But the frame
            # after one that moved every view may move one view (another animation), and a large array made for
            # it would cost more than that frame: a large array is made after the frame that hands one out, for
            # the next frame; when that one moves few, they are copied out of it.
            cap = self._frames_cap
            arr = self._frames_type() if cap <= _FRAMES_SMALL else self._frames_spare
        if core.callbacks:  # a completion or debug function of this layout may run: collect what they raise
            frame: list[BaseException] = []
            core.frames.append(frame)
            try:
                st, n = _advance_frames(h, d, arr, cap)
            finally:
                core.frames.pop()
        else:
            frame = _NONE_RAISED
            st, n = _advance_frames(h, d, arr, cap)
        return self._frames_after(st, frame, n, out, arr, cap)

    def _frames_after(self, st: int, frame: list[BaseException], n: int, out: Optional[FrameColumns],
                      arr: ctypes.Array[Frame_], cap: int) -> Optional[FrameColumns]:
        """advance_frames after its C call (status st, n views moved, written into arr of cap frames, out's
        buffer when out is given; frame: what callbacks raised in it)."""
        h = self._core.h
        if (st or frame or h is None) and not self._clock_end(st, frame):
            return None
        if out is not None:
            if n > cap:  # more moved than out holds: all of them, from the frame just made, into a new buffer
                arr = (Frame_ * (n + n // 8 + 16))()
                self._check(_changed_frames(h, arr, n)[0])
                out.buffer = arr
                out.__dict__.clear()
            if n != out._n:
                out._n = n
                out.__dict__.clear()
            return out
        if n == cap and n <= _FRAMES_SMALL:
            return FrameColumns(arr)  # the usual frame: as many moved as in the last one
        if n > cap:  # more moved than the array holds: all of them, from the frame just made
            res = (Frame_ * n)()
            self._check(_changed_frames(h, res, n)[0])
        elif n <= _FRAMES_SMALL < cap:  # few after many: copied out
            res = (Frame_ * n).from_buffer_copy(arr)
            self._frames_spare = None
        else:
            res = arr if n == cap else (Frame_ * n).from_buffer(arr)  # (the first n frames, no copy)
        if n != cap:
            self._frames_cap = max(1, n)
            self._frames_type = Frame_ * self._frames_cap
        if n > _FRAMES_SMALL:
            self._frames_spare = self._frames_type()  # the next frame's (the last one is handed out)
        return FrameColumns(res)

    @overload
    def seek(self, t: float, *, views: Literal[True] = ...) -> Optional[list[View]]: ...

    @overload
    def seek(self, t: float, *, views: Literal[False]) -> Optional[int]: ...

    @overload
    def seek(self, t: float, *, views: bool) -> Union[list[View], int, None]: ...

    def seek(self, t: float, *, views: bool = True) -> Union[list[View], int, None]:
        """Move the clock forward to time t (never back) and make a frame; as advance()."""
        v = boolean(views, "views")
        return self._clock("moa_layout_seek", finite(t, "time"), v)

    def _clock(self, fn: Union[str, Callable[..., Any]], x: float, views: int) -> Union[list[View], int, None]:
        """A call that makes a frame (advance, seek), then what changed; None if a callback closed the layout."""
        st, frame = self._call(fn, x)
        if not self._clock_end(st, frame):
            return None
        return self._changed(views)

    def _clock_end(self, st: int, frame: list[BaseException]) -> bool:
        """After a call that made a frame: False if a callback closed the layout; a callback's exception, then
        a failure, raised."""
        if self._core.h is None:
            self._take_cb_error()
            if frame:
                raise frame[0]
            return False
        if st or frame:
            self._finish(st, frame)
        return True

    def cancel_animations(self) -> Layout:
        """Cancel every animation (completions get finished=False at the next frame). Returns self."""
        self._check(lib.moa_layout_cancel_animations(self._h()))
        return self

    def animate_root_size(self, width: float, height: float, duration: float = 0.3, curve: Optional[Curve] = None,
                          delay: float = 0, done: Optional[Done] = None, spring: Optional[Spring] = None) -> Animation:
        """Animate the root's size; returns the Animation. done(finished) is called once."""
        w, h_ = finite(width, "width"), finite(height, "height")
        d, c, dl = self._anim(duration, curve, delay, spring)
        h = self._h()  # before the callback is registered: a closed layout leaks nothing
        key = _register(self._core, done)
        out = ctypes.c_uint64(0)
        st = lib.moa_layout_animate_root_size(h, w, h_, d, c, dl, _DONE if key else _NO_DONE, key,
                                              ctypes.byref(out))
        return cast(Animation, self._animation(st, key, out))  # started: the library gave an id

    def show_keyboard(self, height: float, duration: float = 0.25, curve: Optional[Curve] = None,
                      done: Optional[Done] = None, spring: Optional[Spring] = None) -> Animation:
        """Animate the keyboard guide's height (UIKit's 0.25 s easeInOut by default); returns the Animation."""
        hh = finite(height, "height")
        d, c, _ = self._anim(duration, curve, 0, spring)
        h = self._h()  # before the callback is registered: a closed layout leaks nothing
        key = _register(self._core, done)
        out = ctypes.c_uint64(0)
        st = lib.moa_layout_show_keyboard(h, hh, d, c, _DONE if key else _NO_DONE, key, ctypes.byref(out))
        return cast(Animation, self._animation(st, key, out))  # started: the library gave an id

    def hide_keyboard(self, duration: float = 0.25, curve: Optional[Curve] = None, done: Optional[Done] = None,
                      spring: Optional[Spring] = None) -> Animation:
        """Animate the keyboard guide's height back to 0; returns the Animation."""
        d, c, _ = self._anim(duration, curve, 0, spring)
        h = self._h()  # before the callback is registered: a closed layout leaks nothing
        key = _register(self._core, done)
        out = ctypes.c_uint64(0)
        st = lib.moa_layout_hide_keyboard(h, d, c, _DONE if key else _NO_DONE, key, ctypes.byref(out))
        return cast(Animation, self._animation(st, key, out))  # started: the library gave an id

    # -- collapse and pan

    def collapsible(self, view: View, constraint: LayoutConstraint, direction: str) -> Collapsible:
        """Make `view` collapsible through `constraint` (its constant is the shown one) towards "left",
        "right", "up" or "down"; returns a Collapsible."""
        vid = self._own(view, View, "view")
        cid = self._own(constraint, LayoutConstraint, "constraint")
        d = choice(direction, _COLLAPSE, "direction")
        out = ctypes.c_uint64(0)
        self._check(lib.moa_collapsible_new(self._h(), vid, cid, d, ctypes.byref(out)))
        return Collapsible(self, out.value)

    def pan(self, constraints: Union[LayoutConstraint, Iterable[LayoutConstraint]], axis: str = "horizontal",
            rest: Optional[Iterable[float]] = None) -> Pan:
        """A pan-gesture driver over constraints (all moved by one offset) on "horizontal" or "vertical", with
        rest positions (offsets) a release snaps to (None: [0]); returns a Pan."""
        if isinstance(constraints, LayoutConstraint):
            constraints = [constraints]
        ids = [self._own(c, LayoutConstraint, "constraint") for c in constraints]
        if not ids:
            raise E.InvalidError("pan needs at least one constraint", E.INVALID, "invalid")
        a = choice(axis, _AXES, "axis")
        rs = [] if rest is None else [finite(r, "rest position") for r in rest]
        carr = (ctypes.c_uint64 * len(ids))(*ids)
        rarr = (ctypes.c_double * len(rs))(*rs) if rs else None
        out = ctypes.c_uint64(0)
        self._check(lib.moa_pan_new(self._h(), carr, len(ids), a, rarr, len(rs), ctypes.byref(out)))
        return Pan(self, out.value)

    # -- traces

    def trace_start(self, guides: bool = False) -> Layout:
        """Start recording frames (the current one and every following frame). Returns self."""
        self._check(lib.moa_layout_trace_start(self._h(), boolean(guides, "guides")))
        return self

    def trace_stop(self) -> Layout:
        """Stop recording; what was recorded stays readable. Returns self."""
        self._check(lib.moa_layout_trace_stop(self._h()))
        return self

    def trace_csv(self) -> str:
        """The recorded frames as CSV (time,view,superview,x,y,width,height,rootX,rootY)."""
        return self._string("moa_layout_trace_csv")

    def trace_json(self) -> str:
        """The recorded frames as JSON."""
        return self._string("moa_layout_trace_json")

    def trace_svg_strip(self, max_frames: int = 0, guides: bool = False, labels: bool = True) -> str:
        """The recorded frames side by side as one SVG (max_frames > 0: that many, evenly spaced)."""
        n = _count(max_frames, "max_frames")
        flags = (_SVG_GUIDES if boolean(guides, "guides") else 0) | (0 if boolean(labels, "labels") else
                                                                     _SVG_NO_LABELS)
        return self._string("moa_layout_trace_svg_strip", n, flags)


def _s(b: Optional[bytes]) -> str:
    return (b or b"").decode("utf-8", "replace")


# ---------------------------------------------------------------------------------------------- children


class _Child:
    """An id of one layout; holds the layout (so the layout lives while the child is reachable)."""
    __slots__ = ("_layout", "_id", "__weakref__")

    def __init__(self, layout: Layout, id_: int) -> None:
        self._layout = layout
        self._id = id_

    @property
    def layout(self) -> Layout:
        """The Layout this belongs to."""
        return self._layout

    @property
    def id(self) -> int:
        """The C id (opaque; for comparing and debugging only)."""
        return self._id

    def _h(self) -> int:
        return self._layout._h()

    def _check(self, st: int) -> None:
        self._layout._check(st)

    def __eq__(self, other: object) -> bool:
        """The same object of the same layout (the same id)."""
        return type(other) is type(self) and isinstance(other, _Child) and other._layout is self._layout and \
            other._id == self._id

    def __hash__(self) -> int:
        return hash((id(self._layout), self._id))


class View(_Child):
    """A view, the root or a layout guide. ``v.frame`` (in the superview) and ``v.root_frame`` are Rects
    as of the last solve; ``v.name``, ``v.superview`` (assignable), ``v.removed``."""
    __slots__ = ()

    @property
    def name(self) -> str:
        """The view's name."""
        out = ctypes.c_char_p()
        self._check(lib.moa_view_name(self._h(), self._id, ctypes.byref(out)))
        return _str_out(out)

    @property
    def frame(self) -> Rect:
        """The frame relative to the superview, as of the last solve (Rect)."""
        r = Rect_()
        self._check(lib.moa_view_frame(self._h(), self._id, ctypes.byref(r)))
        return _rect(r)

    @property
    def root_frame(self) -> Rect:
        """The frame in root space, as of the last solve (Rect)."""
        r = Rect_()
        self._check(lib.moa_view_frame_in_root(self._h(), self._id, ctypes.byref(r)))
        return _rect(r)

    @property
    def superview(self) -> Optional[View]:
        """The superview (None for the root). Assign a View (or None for the root) to move this view."""
        out = ctypes.c_uint64(0)
        self._check(lib.moa_view_superview(self._h(), self._id, ctypes.byref(out)))
        return self._layout._view(out.value) if out.value else None

    @superview.setter
    def superview(self, parent: Optional[View]) -> None:
        self.set_superview(parent)

    @property
    def removed(self) -> bool:
        """True once the view was removed."""
        out = ctypes.c_char_p()
        return lib.moa_view_name(self._h(), self._id, ctypes.byref(out)) == E.NOTFOUND

    def set_superview(self, parent: Optional[View]) -> View:
        """Move this view under `parent` (None: the root); its constraints stay. Returns self."""
        pid = 0 if parent is None else self._layout._own(parent, View, "parent")
        self._check(lib.moa_view_set_superview(self._h(), self._id, pid))
        return self

    def set_margins(self, top: float, left: Optional[float] = None, bottom: Optional[float] = None,
                    right: Optional[float] = None) -> View:
        """Set the layout margins: set_margins(all) or set_margins(top, left, bottom, right). Returns self."""
        self._check(lib.moa_view_set_margins(self._h(), self._id,
                                             *_insets((top, left, bottom, right), ("top", "left", "bottom", "right"))))
        return self

    def set_directional_margins(self, top: float, leading: Optional[float] = None, bottom: Optional[float] = None,
                                trailing: Optional[float] = None) -> View:
        """Set the layout margins by leading and trailing edge (UIKit's directionalLayoutMargins): they follow
        the view's effective direction (leading is the left margin left-to-right, the right one right-to-left).
        set_directional_margins(all) or (top, leading, bottom, trailing). Returns self."""
        insets = _insets((top, leading, bottom, trailing), ("top", "leading", "bottom", "trailing"))
        self._check(lib.moa_view_set_directional_margins(self._h(), self._id, *insets))
        return self

    def set_direction(self, direction: str) -> View:
        """Set the layout direction: "inherit", "ltr" or "rtl" (leading/trailing follow). Returns self."""
        d = choice(direction, _DIRECTIONS, "direction")
        self._check(lib.moa_view_set_direction(self._h(), self._id, d))
        return self

    def set_intrinsic_size(self, width: Optional[float] = None, height: Optional[float] = None) -> View:
        """Set the intrinsic content size; None on an axis for none. Returns self."""
        w = -1.0 if width is None else finite(width, "width")
        h = -1.0 if height is None else finite(height, "height")
        if w < 0 and width is not None or h < 0 and height is not None:
            raise E.InvalidError("an intrinsic size must be 0 or more (None for none)", E.INVALID, "invalid")
        self._check(lib.moa_view_set_intrinsic_size(self._h(), self._id, w, h))
        return self

    def set_content_priority(self, axis: str, hugging: Priority = 250, compression: Priority = 750) -> View:
        """Set hugging and compression resistance on "horizontal" or "vertical" (priorities in [1, 1000] or
        names). Returns self."""
        a = choice(axis, _AXES, "axis")
        hug, comp = priority(hugging, "hugging"), priority(compression, "compression")
        self._check(lib.moa_view_set_content_priority(self._h(), self._id, a, hug, comp))
        return self

    def set_baseline(self, offset: Optional[float] = None, first: Optional[float] = None) -> View:
        """Set the baseline offsets from the top (None: the bottom edge; first None: as offset). Returns self."""
        o = None if offset is None else ctypes.byref(ctypes.c_double(finite(offset, "offset")))
        f = None if first is None else ctypes.byref(ctypes.c_double(finite(first, "first")))
        self._check(lib.moa_view_set_baseline(self._h(), self._id, o, f))
        return self

    def remove(self) -> None:
        """Remove the view, its subviews and every constraint that mentions them."""
        L = self._layout
        L._check(lib.moa_view_free(self._h(), self._id))
        if L._measures:  # the measure functions of the views removed: the library no longer calls them
            h = L._h()
            out = ctypes.c_char_p()
            for vid in [v for v in L._measures if lib.moa_view_name(h, v, ctypes.byref(out)) == E.NOTFOUND]:
                del L._measures[vid]

    # -- content that sizes itself

    def set_measure(self, fn: Optional[MeasureFn]) -> View:
        """Give the view content that sizes itself (a label that wraps, a chat bubble): at each solve the layout
        calls ``fn(width, width_mode, height, height_mode)``, the modes being "undefined" (the length is
        math.inf: no proposal), "exactly" or "at_most"; fn returns ``(width, height)``, ``(width, height,
        baseline)`` or ``(width, height, baseline, first_baseline)`` (baselines from the top; None for none).
        The natural size (both undefined) becomes the intrinsic width; the size at most the solved width, the
        intrinsic height and baselines (with the view's content priorities). Answers are cached per proposal:
        call invalidate() when the content changes.

        fn may read the layout; anything that changes or solves it raises MisuseError there. An exception fn
        raises, or a bad answer, fails the solve with CallbackError from it (nothing changes). None takes the
        function away (with the intrinsic size and baselines it gave). Replaces text (set_text). The function
        is kept while set. Returns self."""
        L = self._layout
        h = self._h()
        if fn is None:
            L._check(lib.moa_view_set_measure(h, self._id, _NO_MEASURE, None))
            L._measures.pop(self._id, None)
            return self
        if not callable(fn):
            raise TypeError("set_measure needs a callable or None, got %s" % type(fn).__name__)
        thunk = _measure_thunk(L._core, fn)
        L._check(lib.moa_view_set_measure(h, self._id, thunk, None))
        L._measures[self._id] = thunk
        return self

    def invalidate(self) -> View:
        """The content changed: forget the measure function's cached answers; the next solve measures the view
        again (Auto Layout's invalidateIntrinsicContentSize). InvalidError if the view has no measured content.
        Returns self."""
        self._check(lib.moa_view_invalidate(self._h(), self._id))
        return self

    def set_text(self, text_: Optional[str], *, size: float = 17, line_height: Optional[float] = None,
                 max_lines: int = 0, reference_width: Optional[float] = None, min_size: float = 0,
                 max_size: float = 0) -> View:
        """Give the view text ("\\n" starts a paragraph), measured with the layout's font (set_font; by default a
        built-in measurer, 0.6 em per character): its natural width is the widest paragraph on one line, its
        height the lines wrapped by words at the width it gets, its baselines the first and last line's.

        size: points (0.5 to 1e4); line_height: between baselines (None: 1.2 x size); max_lines: at most this
        many lines, the last ending in "…" when cut (0: no limit); reference_width: an adaptive size,
        ``size * root width / reference_width``, kept within min_size and max_size (0: no limit) and measured
        again when the root's width changes (None: a fixed size). None takes the text away. Replaces a measure
        function (set_measure). Returns self."""
        L = self._layout
        h = self._h()
        if text_ is None:
            L._check(lib.moa_view_set_text(h, self._id, None, None))
            L._measures.pop(self._id, None)
            return self
        b = text(text_, "text")
        st = TextStyle_()
        st.font_size = finite(size, "size")
        if st.font_size == 0:  # (the library reads a zero size as its default, 17)
            raise E.InvalidError("size must be in 0.5...1e4, got 0", E.INVALID, "invalid")
        if line_height is not None:
            st.line_height = finite(line_height, "line_height")
            if st.line_height <= 0:
                raise E.InvalidError("line_height must be above 0 (None for 1.2 x the size)", E.INVALID, "invalid")
        n = _count(max_lines, "max_lines")
        if n > 2**31 - 1:
            raise E.InvalidError("max_lines must be at most %d, got %d" % (2**31 - 1, n), E.INVALID, "invalid")
        st.max_lines = n
        if reference_width is not None:
            st.reference_width = finite(reference_width, "reference_width")
            if st.reference_width <= 0:
                raise E.InvalidError("reference_width must be above 0 (None for a fixed size)", E.INVALID,
                                     "invalid")
        st.min_font_size = finite(min_size, "min_size")
        st.max_font_size = finite(max_size, "max_size")
        L._check(lib.moa_view_set_text(h, self._id, b, ctypes.byref(st)))
        L._measures.pop(self._id, None)
        return self

    def text_lines(self) -> Tuple[list[str], dict[str, float]]:
        """The view's text as drawn at its solved width (solving first if needed): (lines, metrics), lines a
        list of str (the last ending in "…" when max_lines cut it), metrics a dict with ``lines`` (their number),
        ``font_size`` (the size used: an adaptive one's for the root's width), ``line_height``,
        ``first_baseline`` (from the view's top), ``width`` (the widest line) and ``height``. InvalidError if the
        view has no text; CallbackError as solve()."""
        out, m = ctypes.c_char_p(), TextMetrics_()
        self._check(lib.moa_view_text_lines(self._h(), self._id, ctypes.byref(out), ctypes.byref(m)))
        metrics: dict[str, float] = {k: getattr(m, k) for k in _TEXT_METRICS}
        metrics["lines"] = int(m.lines)
        return (_str_out(out).split("\n") if metrics["lines"] else []), metrics

    def __repr__(self) -> str:
        h = self._layout._core.h
        if h is None:
            return "<moa.View (closed layout)>"
        out, r = ctypes.c_char_p(), Rect_()
        if lib.moa_view_name(h, self._id, ctypes.byref(out)) != E.OK:
            return "<moa.View (removed)>"
        name = _str_out(out)
        lib.moa_view_frame(h, self._id, ctypes.byref(r))
        return "<moa.View %s (%g, %g, %g, %g)>" % (name, r.x, r.y, r.width, r.height)


class LayoutConstraint(_Child):
    """A constraint of a layout. ``c.constant``, ``c.priority`` and ``c.active`` can be read and assigned
    (ConflictError when a required constraint cannot hold; nothing changes then); ``c.line``, ``c.removed``,
    ``c.equation`` (also ``str(c)``). It stays in its layout until removed."""
    __slots__ = ()

    @property
    def constant(self) -> float:
        """The constant (the `+ c` of its equation)."""
        return self._layout._double("moa_lcons_constant", self._id)

    @constant.setter
    def constant(self, k: float) -> None:
        self.set_constant(k)

    @property
    def priority(self) -> float:
        """The priority, in [1, 1000]; assign a number or a name ("high", "low", ...)."""
        return self._layout._double("moa_lcons_priority", self._id)

    @priority.setter
    def priority(self, p: Priority) -> None:
        self.set_priority(p)

    @property
    def active(self) -> bool:
        """Whether it takes part in solving (assign a bool)."""
        return self._layout._flag("moa_lcons_active", self._id)

    @active.setter
    def active(self, b: bool) -> None:
        self.set_active(b)

    @property
    def line(self) -> int:
        """The line of the eqs text it came from, 0 if none."""
        out = ctypes.c_int(0)
        self._check(lib.moa_lcons_line(self._h(), self._id, ctypes.byref(out)))
        return out.value

    @property
    def removed(self) -> bool:
        """True once removed (by remove(), xeq, or removing a view it mentions)."""
        out = ctypes.c_int(0)
        return lib.moa_lcons_active(self._h(), self._id, ctypes.byref(out)) == E.NOTFOUND

    @property
    def equation(self) -> str:
        """The equation that would create it, e.g. "box.height <= 400 @ 750"."""
        return self._layout._string("moa_lcons_describe", self._id)

    def describe(self) -> str:
        """The equation that would create it (as ``equation``)."""
        return self._layout._string("moa_lcons_describe", self._id)

    def set_constant(self, k: float) -> LayoutConstraint:
        """Change the constant in place. Returns self."""
        self._check(lib.moa_lcons_set_constant(self._h(), self._id, finite(k, "constant")))
        return self

    def set_priority(self, p: Priority) -> LayoutConstraint:
        """Change the priority (a number in [1, 1000] or a name), also to or from required. Returns self."""
        self._check(lib.moa_lcons_set_priority(self._h(), self._id, priority(p)))
        return self

    def set_active(self, b: bool) -> LayoutConstraint:
        """Activate or deactivate it (an inactive constraint keeps its id). Returns self."""
        self._check(lib.moa_lcons_set_active(self._h(), self._id, boolean(b, "active")))
        return self

    def remove(self) -> None:
        """Remove it from its layout; it is stale afterwards."""
        self._check(lib.moa_lcons_remove(self._h(), self._id))

    def animate(self, to: float, duration: float = 0.3, curve: Optional[Curve] = None, delay: float = 0,
                done: Optional[Done] = None, spring: Optional[Spring] = None) -> Animation:
        """Animate the constant to `to` over `duration` seconds along `curve` (default easeInOut; a name, a
        Bézier 4-tuple or a spring dict; or spring={...}) after `delay`; done(finished) is called once.
        Returns the Animation."""
        return self._animate(lib.moa_lcons_animate, finite(to, "target"), duration, curve, delay, done, spring)

    def animate_priority(self, to: Priority, duration: float = 0.3, curve: Optional[Curve] = None, delay: float = 0,
                         done: Optional[Done] = None, spring: Optional[Spring] = None) -> Animation:
        """Animate the priority to `to` (as animate())."""
        return self._animate(lib.moa_lcons_animate_priority, priority(to, "target"), duration, curve, delay, done,
                             spring)

    def _animate(self, fn: Any, to: float, duration: float, curve: Optional[Curve], delay: float,
                 done: Optional[Done], spring: Optional[Spring]) -> Animation:
        L = self._layout
        d, c, dl = L._anim(duration, curve, delay, spring)
        h = self._h()  # before the callback is registered: a closed layout leaks nothing
        key = _register(L._core, done)
        out = ctypes.c_uint64(0)
        st = fn(h, self._id, to, d, c, dl, _DONE if key else _NO_DONE, key, ctypes.byref(out))
        return cast(Animation, L._animation(st, key, out))  # started: the library gave an id

    def stop_animating(self) -> LayoutConstraint:
        """Stop the animations of its constant and priority where they are (so set_constant sticks)."""
        self._check(lib.moa_lcons_stop_animating(self._h(), self._id))
        return self

    def __str__(self) -> str:
        h = self._layout._core.h
        if h is None:
            return "moa.LayoutConstraint (closed layout)"
        out = ctypes.c_char_p()
        if lib.moa_lcons_describe(h, self._id, ctypes.byref(out)) != E.OK:
            return "moa.LayoutConstraint (removed)"
        return _str_out(out)

    def __repr__(self) -> str:
        return "<moa.LayoutConstraint %r>" % str(self)


class Animation(_Child):
    """A running (or finished) animation; cancel() stops it where it is."""
    __slots__ = ()

    def cancel(self) -> None:
        """Cancel it: its completion gets finished=False at the next frame; a no-op once it ended."""
        self._check(lib.moa_animation_cancel(self._h(), self._id))

    def __repr__(self) -> str:
        return "<moa.Animation %d>" % (self._id & 0xffffffff)


class Collapsible(_Child):
    """A view that collapses (moves flush off its superview's edge) and shows through one constraint.

    collapse(), show() and toggle() take animated=True, duration=0.3, curve="easeInOut", done=fn(finished),
    and return the Animation (None when not animated). ``collapsed`` changes at the call."""
    __slots__ = ()

    @property
    def collapsed(self) -> bool:
        """True after a collapse, False after a show."""
        return self._layout._flag("moa_collapsible_is_collapsed", self._id)

    def collapse(self, animated: bool = True, duration: float = 0.3, curve: Optional[Curve] = None,
                 done: Optional[Done] = None, spring: Optional[Spring] = None) -> Optional[Animation]:
        """Collapse the view."""
        return self._set(1, animated, duration, curve, done, spring)

    def show(self, animated: bool = True, duration: float = 0.3, curve: Optional[Curve] = None,
             done: Optional[Done] = None, spring: Optional[Spring] = None) -> Optional[Animation]:
        """Show the view again."""
        return self._set(0, animated, duration, curve, done, spring)

    def toggle(self, animated: bool = True, duration: float = 0.3, curve: Optional[Curve] = None,
               done: Optional[Done] = None, spring: Optional[Spring] = None) -> Optional[Animation]:
        """Collapse a shown view, show a collapsed one (mid-animation: retargets from where it is)."""
        return self._set(None, animated, duration, curve, done, spring)

    def _set(self, collapsed: Optional[int], animated: bool, duration: float, curve: Optional[Curve],
             done: Optional[Done], spring: Optional[Spring]) -> Optional[Animation]:
        L = self._layout
        a = boolean(animated, "animated")
        d, c, _ = L._anim(duration, curve, 0, spring)
        h = self._h()  # before the callback is registered: a closed layout leaks nothing
        key = _register(L._core, done)
        out = ctypes.c_uint64(0)
        cb = _DONE if key else _NO_DONE
        if collapsed is None:
            st = lib.moa_collapsible_toggle(h, self._id, a, d, c, cb, key, ctypes.byref(out))
        else:
            st = lib.moa_collapsible_set(h, self._id, collapsed, a, d, c, cb, key, ctypes.byref(out))
        return L._animation(st, key, out)

    def free(self) -> None:
        """Forget the collapsible (the view and constraint stay); it is stale afterwards."""
        self._check(lib.moa_collapsible_free(self._h(), self._id))

    def __repr__(self) -> str:
        return "<moa.Collapsible %d>" % (self._id & 0xffffffff)


class Pan(_Child):
    """A pan-gesture driver: began(), changed(translation, velocity), ended(velocity, done=fn(rest, finished)),
    cancelled(done), move(offset, animated, done); ``offset``, ``rest_position``, ``enabled`` (assignable)."""
    __slots__ = ("_enabled",)

    def __init__(self, layout: Layout, id_: int) -> None:
        super().__init__(layout, id_)
        self._enabled = True

    @property
    def options(self) -> dict[str, Any]:
        """The options as the library has them (its defaults until set): a dict with fast_velocity, fast_step,
        drag_limit (points, or "auto"), snap_duration and snap_curve (a curve name, or the moa_curve value of a
        custom curve)."""
        d = [ctypes.c_double(0) for _ in range(4)]
        c = ctypes.c_int(0)
        self._check(lib.moa_pan_options(self._h(), self._id, *[ctypes.byref(x) for x in d], ctypes.byref(c)))
        names = {v: k for k, v in CURVES.items()}
        return dict(fast_velocity=d[0].value, fast_step=d[1].value,
                    drag_limit="auto" if d[2].value == _AUTO else d[2].value, snap_duration=d[3].value,
                    snap_curve=names.get(c.value, c.value))

    def _accepted(self, fn: Any, *args: Any) -> bool:
        acc = ctypes.c_int(0)
        self._check(fn(self._h(), self._id, *args, ctypes.byref(acc)))
        return bool(acc.value)

    def began(self) -> bool:
        """The finger went down; returns False when ignored (disabled)."""
        return self._accepted(lib.moa_pan_began)

    def changed(self, translation: float, velocity: float = 0) -> bool:
        """The finger moved (translation since began, velocity in points/s); returns False when ignored."""
        return self._accepted(lib.moa_pan_changed, finite(translation, "translation"), finite(velocity, "velocity"))

    def ended(self, velocity: float = 0, done: Optional[RestDone] = None) -> Optional[float]:
        """The finger lifted: snap to a rest position; returns it (None when ignored; done is then never
        called). done(rest, finished) is called once when the snap ends."""
        return self._end(lib.moa_pan_ended, (finite(velocity, "velocity"),), done)

    def cancelled(self, done: Optional[RestDone] = None) -> Optional[float]:
        """The gesture was cancelled: snap back to the rest position nearest the drag's start (as ended())."""
        return self._end(lib.moa_pan_cancelled, (), done)

    def _end(self, fn: Any, args: Tuple[Any, ...], done: Optional[RestDone]) -> Optional[float]:
        L = self._layout
        h = self._h()  # before the callback is registered: a closed layout leaks nothing
        key = _register(L._core, done)
        target, acc = ctypes.c_double(0), ctypes.c_int(0)
        st = fn(h, self._id, *args, _REST if key else _NO_REST, key, ctypes.byref(target), ctypes.byref(acc))
        if st != E.OK or not acc.value:
            _unregister(key)  # failed or ignored: never called
        self._check(st)
        return target.value if acc.value else None

    def move(self, offset: float, animated: bool = False, done: Optional[RestDone] = None) -> Pan:
        """Move to an offset outside a gesture (animated with the snap options, or at once). Returns self."""
        L = self._layout
        o = finite(offset, "offset")
        a = boolean(animated, "animated")
        h = self._h()  # before the callback is registered: a closed layout leaks nothing
        key = _register(L._core, done)
        st = lib.moa_pan_move(h, self._id, o, a, _REST if key else _NO_REST, key)
        if st != E.OK:
            _unregister(key)
        self._check(st)
        return self

    def set_options(self, fast_velocity: Optional[float] = None, fast_step: Optional[float] = None,
                    drag_limit: Union[float, str, None] = _UNSET, snap_duration: Optional[float] = None,
                    snap_curve: Optional[Curve] = None, orientations: Optional[str] = None) -> Pan:
        """Tune the driver; unnamed options keep their values. drag_limit: points or "auto" (half the root's
        size on the axis). orientations: "portrait", "landscape" or "any" (the default), the layout
        orientations in which events are taken (the calculator pans in portrait only). All change, or none.
        Returns self."""
        o = self.options
        if o["drag_limit"] == "auto":
            o["drag_limit"] = _AUTO
        if isinstance(o["snap_curve"], str):
            o["snap_curve"] = CURVES[o["snap_curve"]]
        orient = None
        if orientations is not None:
            orient = _ORIENTATIONS[_ORIENTATION_NAMES[choice(orientations, _ORIENTATION_NAMES, "orientations")]]
        if fast_velocity is not None:
            o["fast_velocity"] = finite(fast_velocity, "fast_velocity")
        if fast_step is not None:
            o["fast_step"] = finite(fast_step, "fast_step")
        if drag_limit == "auto" or drag_limit is None:
            o["drag_limit"] = _AUTO
        elif drag_limit is not _UNSET:
            o["drag_limit"] = finite(drag_limit, "drag_limit")
            if o["drag_limit"] < 0:
                raise E.InvalidError("drag_limit must be 0 or more (or \"auto\")", E.INVALID, "invalid")
        if snap_duration is not None:
            o["snap_duration"] = finite(snap_duration, "snap_duration")
        if snap_curve is not None:
            o["snap_curve"] = self._layout._curve(snap_curve, o["snap_curve"])
        self._check(lib.moa_pan_set_options(self._h(), self._id, o["fast_velocity"], o["fast_step"], o["drag_limit"],
                                            o["snap_duration"], o["snap_curve"]))
        if orient is not None:
            self._check(lib.moa_pan_set_orientations(self._h(), self._id, orient))
        return self

    def set_rest_positions(self, rest: Iterable[float]) -> Pan:
        """Replace the rest positions (at least one). Returns self."""
        rs = [finite(r, "rest position") for r in rest]
        if not rs:
            raise E.InvalidError("at least one rest position expected", E.INVALID, "invalid")
        arr = (ctypes.c_double * len(rs))(*rs)
        self._check(lib.moa_pan_set_rest_positions(self._h(), self._id, arr, len(rs)))
        return self

    @property
    def enabled(self) -> bool:
        """Whether events are handled (assign a bool; disabling mid-drag ends the drag)."""
        self._h()
        return self._enabled

    @enabled.setter
    def enabled(self, b: bool) -> None:
        self.set_enabled(b)

    def set_enabled(self, b: bool) -> Pan:
        """Enable or disable the driver. Returns self."""
        v = boolean(b, "enabled")
        self._check(lib.moa_pan_set_enabled(self._h(), self._id, v))
        self._enabled = bool(v)
        return self

    @property
    def offset(self) -> float:
        """The current offset of its constraints from their base."""
        return self._layout._double("moa_pan_offset", self._id)

    @property
    def rest_position(self) -> float:
        """The rest position last reached."""
        return self._layout._double("moa_pan_rest_position", self._id)

    def free(self) -> None:
        """Forget the driver (its constraints stay where they are; a running snap runs on)."""
        self._check(lib.moa_pan_free(self._h(), self._id))

    def __repr__(self) -> str:
        return "<moa.Pan %d>" % (self._id & 0xffffffff)


from . import _arrange  # noqa: E402 - the arrangement classes build on _Child and View above
