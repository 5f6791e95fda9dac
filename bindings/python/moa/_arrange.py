"""Arrangements: stacks (UIKit's UIStackView), chains and barriers (Android's ConstraintLayout) over moa.h's
"Layout: guides, stacks, chains, barriers and the visual format language".

    import moa
    with moa.Layout(400, 300) as L:
        row = L.stack("row", distribution="fillEqually", spacing=10)
        L.eqs("row.left == 0\\nrow.top == 0\\nrow.width == 300\\nrow.height == 50")
        a, b, c = (L.view(n, row.view) for n in "abc")
        row.add(a).add(b).add(c)
        L.solve(); b.frame                   # Rect(x=103.33..., y=0.0, width=93.33..., height=50.0)
        row.hide(b, animated=True, duration=1, curve="linear", done=print)
        L.advance(1); b.frame.width          # 0.0 (and done printed True)

These objects are made by :meth:`Layout.stack`, :meth:`Layout.chain` and :meth:`Layout.barrier`. Each keeps
ordinary layout constraints current as its members and properties change; those constraints are owned by it
(they cannot be changed or removed by themselves: change the owner). Every change is all or nothing: one that
would make a required constraint fail raises ConflictError and changes nothing.

Ownership, as the other children of a layout: a Stack, Chain or Barrier holds its layout, and every use after
:meth:`Layout.close` raises ClosedError. A stack is named by its view (``stack.view``; removing that view ends
the stack: later calls raise NotFoundError), a barrier by its guide (``barrier.guide``, likewise), a chain by an
id of its own (``chain.remove()`` ends it; the views stay).
"""
from __future__ import annotations

import ctypes
from typing import Any, Iterable, Optional, Sequence, Tuple, Union, cast

from . import _errors as E
from ._errors import finite, boolean, choice
from ._lib import lib
from ._layout import _Child, View, Layout, Animation, Curve, Done, Spring, _AXES, _DONE, _NO_DONE, _register

__all__ = ["Stack", "Chain", "Barrier", "DISTRIBUTIONS", "ALIGNMENTS", "CHAIN_STYLES", "BARRIER_SIDES",
           "SPACING_DEFAULT"]

#: Stack distributions (moa_stack_distribution, in value order).
DISTRIBUTIONS = ("fill", "fillEqually", "fillProportionally", "equalSpacing", "equalCentering")
#: Stack alignments (moa_stack_alignment, in value order). "leading" and "top" are the same rule (the edge
#: where the cross axis starts), as are "trailing" and "bottom".
ALIGNMENTS = ("fill", "leading", "top", "center", "trailing", "bottom", "firstBaseline", "lastBaseline")
#: Chain styles (moa_chain_style, in value order).
CHAIN_STYLES = ("spread", "spreadInside", "packed")
#: Barrier sides (moa_barrier_side, in value order).
BARRIER_SIDES = ("left", "right", "top", "bottom", "leading", "trailing")
#: moa.h MOA_SPACING_DEFAULT (FLT_MAX, UIKit's spacingUseDefault): "no custom spacing". Stack.set_custom_spacing
#: takes None for it.
SPACING_DEFAULT = 3.4028234663852886e+38
#: moa.h MOA_NO_WEIGHT: "this view has no weight" in a chain. Chain weights take None for it.
_NO_WEIGHT = 0.0
# The largest index ctypes passes as a ptrdiff_t without an OverflowError (a larger one is out of range anyway).
_MAX_INDEX = 2 ** 62


def _name(names: Sequence[str], value: int) -> Union[str, int]:
    """The name of an enum value the library reported (a number it should not report: the number itself; the
    readers declare str, the only answer the library gives)."""
    return names[value] if 0 <= value < len(names) else value


def _weight(w: Optional[float], what: str) -> float:
    """A chain weight: None (no weight, MOA_NO_WEIGHT) or a number above 0."""
    if w is None:
        return _NO_WEIGHT
    x = finite(w, what)
    if not x > 0:
        raise E.InvalidError("%s must be above 0 (None for no weight), got %r" % (what, x), E.INVALID, "invalid")
    return x


# ---------------------------------------------------------------------------------------------- Stack


class Stack(_Child):
    """A stack (UIKit's UIStackView): a view (``stack.view``, placed by equations like any view, by its name)
    whose arranged views it lays out along its axis. Made with :meth:`Layout.stack`.

    Properties, readable and assignable (also set_axis() ... set_margins_relative(), which return the stack):
    ``axis`` ("horizontal", "vertical"), ``distribution`` (see DISTRIBUTIONS), ``alignment`` (see ALIGNMENTS),
    ``spacing`` (points, negative overlaps), ``margins_relative`` (arrange within the view's layout margins).
    ``views`` lists the arranged views in order, hidden ones included.

    A hidden view (hide(), show(), set_hidden()) leaves the arrangement: zero size along the axis, no spacing.
    Removing the stack's view ends the stack (later calls raise NotFoundError); removing an arranged view takes
    it out of the stack."""
    __slots__ = ()

    @property
    def view(self) -> View:
        """The stack's view (its id names the stack; equations name it by its name)."""
        self._h()
        return self._layout._view(self._id)

    @property
    def name(self) -> str:
        """The stack's view's name."""
        return self.view.name

    @property
    def removed(self) -> bool:
        """True once the stack ended (its view was removed)."""
        st = lib.moa_stack_get(self._h(), self._id, None, None, None, None, None)
        if st == E.NOTFOUND:
            return True
        self._check(st)
        return False

    # -- arranged views

    def add(self, view: View) -> Stack:
        """Arrange `view` last (UIKit's addArrangedSubview); a view already arranged moves to the end. It
        becomes a subview of the stack first if it is not one. Returns self."""
        return self._insert(view, -1)

    def insert(self, view: View, index: int) -> Stack:
        """Arrange `view` at `index` (0 ... the number of other arranged views; UIKit's insertArrangedSubview).
        InvalidError for an index out of range, a guide, the stack's view or one of its ancestors. Returns
        self."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("index must be an int, got %s" % type(index).__name__)
        if not 0 <= index <= _MAX_INDEX:
            raise E.InvalidError("index %d is out of range (0 ... the number of other arranged views)" % index,
                                 E.INVALID, "invalid")
        return self._insert(view, index)

    def _insert(self, view: View, index: int) -> Stack:
        vid = self._layout._own(view, View, "view")
        self._check(lib.moa_stack_insert(self._h(), self._id, vid, index))
        return self

    def remove(self, view: View) -> Stack:
        """Take `view` out of the arranged views (UIKit's removeArrangedSubview): it stays a subview of the stack
        (View.remove() removes it from the layout). NotFoundError if it is not arranged here. Returns self."""
        vid = self._layout._own(view, View, "view")
        self._check(lib.moa_stack_remove(self._h(), self._id, vid))
        return self

    @property
    def views(self) -> list[View]:
        """The arranged views in order, hidden ones included (a list of View)."""
        L = self._layout
        return [L._view(i) for i in L._ids("moa_stack_views", self._id)]

    def __len__(self) -> int:
        """The number of arranged views."""
        return len(self._layout._ids("moa_stack_views", self._id))

    def __contains__(self, view: object) -> bool:
        """Whether `view` is arranged here."""
        return any(v == view for v in self.views)

    # -- properties

    def _get(self) -> Tuple[int, int, int, float, int]:
        ax, d, a, m = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
        sp = ctypes.c_double(0)
        self._check(lib.moa_stack_get(self._h(), self._id, ctypes.byref(ax), ctypes.byref(d), ctypes.byref(a),
                                      ctypes.byref(sp), ctypes.byref(m)))
        return ax.value, d.value, a.value, sp.value, m.value

    @property
    def axis(self) -> str:
        """ "horizontal" or "vertical" (assignable)."""
        return cast(str, _name(_AXES, self._get()[0]))

    @axis.setter
    def axis(self, axis: str) -> None:
        self.set_axis(axis)

    def set_axis(self, axis: str) -> Stack:
        """Lay the views out along "horizontal" or "vertical". Returns self."""
        a = choice(axis, _AXES, "axis")
        self._check(lib.moa_stack_set_axis(self._h(), self._id, a))
        return self

    @property
    def distribution(self) -> str:
        """How the views are sized and spaced along the axis: "fill", "fillEqually", "fillProportionally",
        "equalSpacing" or "equalCentering" (assignable)."""
        return cast(str, _name(DISTRIBUTIONS, self._get()[1]))

    @distribution.setter
    def distribution(self, d: str) -> None:
        self.set_distribution(d)

    def set_distribution(self, distribution: str) -> Stack:
        """Set the distribution (see DISTRIBUTIONS). Returns self."""
        d = choice(distribution, list(DISTRIBUTIONS), "distribution")
        self._check(lib.moa_stack_set_distribution(self._h(), self._id, d))
        return self

    @property
    def alignment(self) -> str:
        """How the views are placed across the axis: "fill", "leading", "top", "center", "trailing", "bottom",
        "firstBaseline" or "lastBaseline" (assignable)."""
        return cast(str, _name(ALIGNMENTS, self._get()[2]))

    @alignment.setter
    def alignment(self, a: str) -> None:
        self.set_alignment(a)

    def set_alignment(self, alignment: str) -> Stack:
        """Set the alignment (see ALIGNMENTS). Returns self."""
        a = choice(alignment, list(ALIGNMENTS), "alignment")
        self._check(lib.moa_stack_set_alignment(self._h(), self._id, a))
        return self

    @property
    def spacing(self) -> float:
        """The gap between neighbours, points (assignable; finite, within +-1e9; negative overlaps them)."""
        return self._get()[3]

    @spacing.setter
    def spacing(self, s: float) -> None:
        self.set_spacing(s)

    def set_spacing(self, spacing: float) -> Stack:
        """Set the spacing. Returns self."""
        s = finite(spacing, "spacing")
        self._check(lib.moa_stack_set_spacing(self._h(), self._id, s))
        return self

    @property
    def margins_relative(self) -> bool:
        """Whether the views are arranged within the stack view's layout margins (assignable bool)."""
        return bool(self._get()[4])

    @margins_relative.setter
    def margins_relative(self, b: bool) -> None:
        self.set_margins_relative(b)

    def set_margins_relative(self, margins_relative: bool) -> Stack:
        """Arrange within the layout margins (True) or the edges (False). Returns self."""
        m = boolean(margins_relative, "margins_relative")
        self._check(lib.moa_stack_set_margins_relative(self._h(), self._id, m))
        return self

    def set_custom_spacing(self, after: View, spacing: Optional[float]) -> Stack:
        """The spacing after arranged view `after` (UIKit's setCustomSpacing); None goes back to the stack's
        spacing (MOA_SPACING_DEFAULT). NotFoundError if `after` is not arranged here. Returns self."""
        vid = self._layout._own(after, View, "after")
        s = SPACING_DEFAULT if spacing is None else finite(spacing, "spacing")
        self._check(lib.moa_stack_set_custom_spacing(self._h(), self._id, vid, s))
        return self

    # -- hiding

    def set_hidden(self, view: View, hidden: bool, *, animated: bool = False, duration: float = 0.3,
                   curve: Optional[Curve] = None, done: Optional[Done] = None,
                   spring: Optional[Spring] = None) -> Optional[Animation]:
        """Hide (hidden=True) or show arranged view `view`: a hidden view has zero size along the axis and no
        spacing. is_hidden() changes at the call.

        animated=True: its size and the gaps beside it move over `duration` seconds along `curve` (default
        easeInOut; a name, a Bézier 4-tuple or a spring dict; or spring={...}) on the layout's clock (advance it to
        see them; hiding again mid-way retargets). Not animated: the change is made at once (solve or advance to
        see it). done(finished) is called once: at the end, or at the next frame when nothing animates.

        Returns the Animation, or None when nothing animates (not animated, or already in that state) and no
        `done` is given. NotFoundError if `view` is not arranged here; ConflictError (nothing changes). An animated
        show solves first: measure functions run in it."""
        L = self._layout
        vid = L._own(view, View, "view")
        hd = boolean(hidden, "hidden")
        a = boolean(animated, "animated")
        d, c, _ = L._anim(duration, curve, 0, spring)
        h = self._h()
        key = _register(L._core, done)  # after every check that can raise: popped only by the library or below
        out = ctypes.c_uint64(0)
        st = lib.moa_stack_set_hidden(h, self._id, vid, hd, a, d, c, _DONE if key else _NO_DONE, key,
                                      ctypes.byref(out))
        return L._animation(st, key, out)

    def hide(self, view: View, **options: Any) -> Optional[Animation]:
        """set_hidden(view, True, **options): animated, duration, curve, done, spring."""
        return self.set_hidden(view, True, **options)

    def show(self, view: View, **options: Any) -> Optional[Animation]:
        """set_hidden(view, False, **options): animated, duration, curve, done, spring."""
        return self.set_hidden(view, False, **options)

    def is_hidden(self, view: View) -> bool:
        """True if `view` is hidden (or hiding). NotFoundError if it is not arranged here."""
        vid = self._layout._own(view, View, "view")
        return self._layout._flag("moa_stack_is_hidden", self._id, vid)

    def __repr__(self) -> str:
        h = self._layout._core.h
        if h is None:
            return "<moa.Stack (closed layout)>"
        out = ctypes.c_char_p()
        n = ctypes.c_size_t(0)
        if lib.moa_view_name(h, self._id, ctypes.byref(out)) != E.OK or \
                lib.moa_stack_views(h, self._id, None, 0, ctypes.byref(n)) != E.OK:
            return "<moa.Stack (removed)>"
        return "<moa.Stack %s, %d views>" % ((out.value or b"").decode("utf-8", "replace"), n.value)


# ---------------------------------------------------------------------------------------------- Chain


class Chain(_Child):
    """A chain (Android ConstraintLayout's): sibling views linked along an axis between their superview's edges.
    Made with :meth:`Layout.chain`.

    ``style`` ("spread", "spreadInside", "packed"), ``gap`` (0 ... 1e9, between neighbours) and ``bias`` (0 ...
    1, where a packed group sits) are readable and assignable (also set_style(), set_gap(), set_bias(), which
    return the chain); set_weight(view, w) gives a view a weight (None takes it away); ``axis`` is fixed.
    remove() ends the chain: its constraints go, the views stay (and may be left unplaced); close() does the
    same but does nothing when the chain was already ended. The library has no reader for a chain's
    properties: the values read are those this object set (a chain is only changed through it)."""
    __slots__ = ("_axis", "_style", "_gap", "_bias", "_ended")

    def __init__(self, layout: Layout, id_: int, axis: str, style: str, gap: float, bias: float) -> None:
        super().__init__(layout, id_)
        self._axis, self._style, self._gap, self._bias = axis, style, gap, bias
        self._ended = False

    def _live(self) -> None:
        self._h()
        if self._ended:
            raise E.NotFoundError("the chain was removed", E.NOTFOUND, "notFound")

    @property
    def removed(self) -> bool:
        """True once remove() (or close()) ended the chain."""
        self._h()
        return self._ended

    @property
    def axis(self) -> str:
        """ "horizontal" or "vertical"."""
        self._live()
        return self._axis

    @property
    def style(self) -> str:
        """ "spread", "spreadInside" or "packed" (assignable)."""
        self._live()
        return self._style

    @style.setter
    def style(self, s: str) -> None:
        self.set_style(s)

    def set_style(self, style: str) -> Chain:
        """Set the style (see CHAIN_STYLES). Returns self."""
        s = choice(style, list(CHAIN_STYLES), "style")
        self._check(lib.moa_chain_set_style(self._h(), self._id, s))
        self._style = style
        return self

    @property
    def gap(self) -> float:
        """The gap between neighbours (the least one in spread styles), 0 ... 1e9 (assignable)."""
        self._live()
        return self._gap

    @gap.setter
    def gap(self, g: float) -> None:
        self.set_gap(g)

    def set_gap(self, gap: float) -> Chain:
        """Set the gap. Returns self."""
        g = finite(gap, "gap")
        self._check(lib.moa_chain_set_gap(self._h(), self._id, g))
        self._gap = g
        return self

    @property
    def bias(self) -> float:
        """Where a packed chain's group sits between the edges: 0 start, 0.5 centred, 1 end (assignable)."""
        self._live()
        return self._bias

    @bias.setter
    def bias(self, b: float) -> None:
        self.set_bias(b)

    def set_bias(self, bias: float) -> Chain:
        """Set the bias (0 ... 1). Returns self."""
        b = finite(bias, "bias")
        self._check(lib.moa_chain_set_bias(self._h(), self._id, b))
        self._bias = b
        return self

    def set_weight(self, view: View, weight: Optional[float]) -> Chain:
        """Give `view` a weight (a number above 0): views with a weight share the room left along the axis in
        proportion to their weights (the gaps are then `gap`, the ends on the edges). None takes the weight away.
        NotFoundError if `view` is not in the chain. Returns self."""
        vid = self._layout._own(view, View, "view")
        w = _weight(weight, "weight")
        self._check(lib.moa_chain_set_weight(self._h(), self._id, vid, w))
        return self

    def remove(self) -> None:
        """End the chain: its constraints and spacers go, the views stay. NotFoundError if it was ended already."""
        self._check(lib.moa_chain_free(self._h(), self._id))
        self._ended = True

    def close(self) -> None:
        """End the chain as remove(), unless this object ended it already (then nothing happens)."""
        if not self._ended:
            self.remove()

    free = remove  # the Lua module's name (as Collapsible.free, Pan.free)

    def __repr__(self) -> str:
        if self._layout._core.h is None:
            return "<moa.Chain (closed layout)>"
        if self._ended:
            return "<moa.Chain (removed)>"
        return "<moa.Chain %d %s %s>" % (self._id & 0xffffffff, self._axis, self._style)


# ---------------------------------------------------------------------------------------------- Barrier


class Barrier(_Child):
    """A barrier (Android ConstraintLayout's): a guide (``barrier.guide``, named in equations by its name) of
    zero thickness at the furthest of its members' `side` edges plus ``margin``. Views attached to it follow the
    widest member as sizes and texts change. Made with :meth:`Layout.barrier`.

    set_views() replaces the members; ``margin`` is readable and assignable (also set_margin()). Removing the
    guide (``barrier.guide.remove()``) ends the barrier; removing a member takes it out."""
    __slots__ = ("_side", "_margin")

    def __init__(self, layout: Layout, id_: int, side: str, margin: float) -> None:
        super().__init__(layout, id_)
        self._side, self._margin = side, margin

    def _live(self) -> None:
        h = self._h()
        out = ctypes.c_char_p()
        if lib.moa_view_name(h, self._id, ctypes.byref(out)) == E.NOTFOUND:
            raise E.NotFoundError("the barrier's guide was removed", E.NOTFOUND, "notFound")

    @property
    def guide(self) -> View:
        """The barrier's guide (a View)."""
        self._h()
        return self._layout._view(self._id)

    @property
    def name(self) -> str:
        """The guide's name."""
        return self.guide.name

    @property
    def removed(self) -> bool:
        """True once the barrier ended (its guide was removed)."""
        return self.guide.removed

    @property
    def side(self) -> str:
        """The side of the members it follows (see BARRIER_SIDES)."""
        self._live()
        return self._side

    @property
    def margin(self) -> float:
        """The distance past (right, bottom, trailing) or before (the other sides) the furthest member's edge
        (assignable)."""
        self._live()
        return self._margin

    @margin.setter
    def margin(self, m: float) -> None:
        self.set_margin(m)

    def set_margin(self, margin: float) -> Barrier:
        """Set the margin (finite, within +-1e9). Returns self."""
        m = finite(margin, "margin")
        self._check(lib.moa_barrier_set_margin(self._h(), self._id, m))
        self._margin = m
        return self

    def set_views(self, views: Union[View, Iterable[View]]) -> Barrier:
        """Replace the members (views or guides of this layout, each once; none is allowed: the barrier then
        lies on its superview's side). Returns self."""
        ids = self._layout._view_ids(views, "views")
        arr = (ctypes.c_uint64 * len(ids))(*ids)
        self._check(lib.moa_barrier_set_views(self._h(), self._id, arr, len(ids)))
        return self

    def __repr__(self) -> str:
        h = self._layout._core.h
        if h is None:
            return "<moa.Barrier (closed layout)>"
        out = ctypes.c_char_p()
        if lib.moa_view_name(h, self._id, ctypes.byref(out)) != E.OK:
            return "<moa.Barrier (removed)>"
        return "<moa.Barrier %s %s%+g>" % ((out.value or b"").decode("utf-8", "replace"), self._side, self._margin)


for _cls in (Stack, Chain, Barrier):
    _cls.__module__ = "moa"
