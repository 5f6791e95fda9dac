"""The raw solver of moa (moa_solver): variables, linear expressions, constraints with strict priorities, edit
variables and suggested values.

    import moa
    with moa.Solver() as s:
        x, y = s.var("x"), s.var("y")
        s.add(x + 10 <= y)                    # required
        s.add(x == 100, "weak")               # or a number in (0, 1000]
        s.edit(y, "strong"); s.suggest(y, 50); s.update()
        print(x.value, y.value)               # 40.0 50.0

Relations are built with ``==``, ``<=`` and ``>=`` (or ``.eq``, ``.le``, ``.ge`` as in Lua) and added with
:meth:`Solver.add` (or many in one call, all or nothing, with :meth:`Solver.add_many`). A :class:`Relation` has no
truth value (``bool(x == y)`` raises TypeError), so a comparison used by mistake in an ``if`` fails loudly.
Variables hash by identity.

Ownership. A Solver owns its C solver; :meth:`Solver.close` (or a ``with`` block, or collection) frees it once.
Variables and constraints hold their solver. A Constraint stays in its solver until removed. When a Variable
object is collected, its C variable is freed later, by update() or counts(), once no constraint or edit uses it
(never from a finalizer).
"""
from __future__ import annotations

import ctypes
import numbers
import weakref
from typing import Any, Callable, Iterable, List, Literal, NoReturn, Optional, Sequence, Tuple, Union

from . import _errors as E
from ._errors import finite, text, boolean
from ._lib import lib, Term_, ConsSpec_, Usage_, SOLVER_PROGRESS_FN
from ._layout import Usage

__all__ = ["Solver", "Variable", "Expression", "Relation", "Constraint"]

_RELS = {"==": 0, "<=": 1, ">=": 2}
# moa_limit by name (the index: MOA_LIMIT_ROWS, _CELLS, _SECONDS, _PIVOTS), the same as a layout's.
_LIMITS = ("rows", "cells", "seconds", "pivots")
_SECONDS, _PIVOTS = 2, 3

#: What arithmetic and relations take: a number, a Variable or an Expression.
Operand = Union[float, "Variable", "Expression"]
#: A priority: a number in (0, 1000] or a name ("required", "strong", "medium", "weak", ...).
Priority = Union[float, str]
#: One item of Solver.add_many: a Relation, or a tuple of add()'s arguments (relation, priority[, weight[, tag]]).
BatchItem = Union["Relation", Tuple["Relation"], Tuple["Relation", Priority], Tuple["Relation", Priority, float],
                  Tuple["Relation", Priority, float, Optional[str]]]
# add()'s arguments checked (Solver._spec): ([(variable id, coefficient)], constant, moa_relation, priority, weight,
# tag).
_Spec = Tuple[List[Tuple[int, float]], float, int, float, float, Optional[bytes]]
_TERM_P = ctypes.POINTER(Term_)


def _describe_item(item: object) -> str:
    if isinstance(item, tuple):
        if not 1 <= len(item) <= 4:
            return "a tuple of %d" % len(item)
        return "a tuple whose first element is %s" % type(item[0]).__name__
    return type(item).__name__


def _item_error(e: Exception, i: int) -> Exception:
    """e (an argument check's TypeError or moa.Error) again, its message naming item i of add_many, ``index`` i."""
    msg = "add_many: item %d: %s" % (i, e)
    if isinstance(e, E.Error):
        err = type(e)(msg, e.status, e.kind)
        err.index = i
        return err
    new = TypeError(msg)
    new.index = i  # type: ignore[attr-defined]
    return new


def _closed() -> E.ClosedError:
    return E.ClosedError("attempt to use a closed solver", E.MISUSE, "misuse")


# No progress function (ctypes refuses None for a CFUNCTYPE argument).
_NO_PROGRESS = SOLVER_PROGRESS_FN()


class Solver:
    """A constraint solver (moa_solver). ``Solver()``; use it in a ``with`` block or call :meth:`close`."""

    def __init__(self) -> None:
        h = lib.moa_solver_new()
        if not h:
            raise MemoryError("moa_solver_new: out of memory")
        self._h_: Optional[int] = h
        self._generation = 0
        self._cons: weakref.WeakValueDictionary[int, Constraint] = weakref.WeakValueDictionary()
        self._orphans: list[int] = []  # ids of collected Variable objects, freed when no constraint or edit uses them
        # on_progress: the C callback (alive while set) and the first exception the function raised in the call
        # in progress (raised by _check once the call has returned).
        self._progress: Any = None
        self._progress_error: Optional[BaseException] = None

    # -- lifecycle

    def close(self) -> None:
        """Free the C solver (idempotent); its variables and constraints become unusable."""
        h, self._h_ = self._h_, None
        if h is not None:
            lib.moa_solver_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except BaseException:  # noqa: B902
            pass

    def __enter__(self) -> Solver:
        self._h()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._h_ is None

    def __repr__(self) -> str:
        if self._h_ is None:
            return "<moa.Solver (closed)>"
        nv, nc = self.counts()
        return "<moa.Solver %d variables, %d constraints>" % (nv, nc)

    # -- plumbing

    def _h(self) -> int:
        if self._h_ is None:
            raise _closed()
        return self._h_

    def _failure(self, st: int) -> E.Error:
        msg = (lib.moa_solver_errmsg(self._h_) or b"").decode("utf-8", "replace")
        ids = []
        count = ctypes.c_size_t(0)
        if lib.moa_solver_conflicts(self._h_, None, 0, ctypes.byref(count)) == E.OK and count.value:
            arr = (ctypes.c_uint64 * count.value)()
            if lib.moa_solver_conflicts(self._h_, arr, count.value, ctypes.byref(count)) == E.OK:
                ids = list(arr[:min(len(arr), count.value)])
        conflicts: list[E.Conflict] = []
        for i in ids:
            out = ctypes.c_char_p()
            desc = out.value.decode("utf-8", "replace") if lib.moa_cons_describe(
                self._h_, i, ctypes.byref(out)) == E.OK and out.value is not None else "?"
            conflicts.append(E.Conflict(self._constraint(i), desc, 0))
        kind = {E.UNSATISFIABLE: "unsatisfiable", E.INVALID: "invalid", E.NOTFOUND: "notFound",
                E.DUPLICATE: "duplicate", E.MISUSE: "misuse", E.LIMIT: "limit"}.get(st, "error")
        return E.error_for(st)(msg, st, kind, conflicts=conflicts)

    def _check(self, st: int) -> None:
        if self._progress_error is not None:  # the progress function raised: that stopped the call
            e, self._progress_error = self._progress_error, None
            raise e
        if st != E.OK:
            raise self._failure(st)

    def _constraint(self, cid: int) -> Constraint:
        c = self._cons.get(cid)
        if c is None:
            c = Constraint(self, cid, self._generation)
            self._cons[cid] = c
        return c

    def _var_id(self, v: object, what: str = "variable") -> int:
        if not isinstance(v, Variable):
            raise TypeError("%s must be a moa.Variable, got %s" % (what, type(v).__name__))
        if v._solver is not self:
            raise E.InvalidError("%s belongs to another solver" % what, E.INVALID, "invalid")
        if v._generation != self._generation:
            raise E.NotFoundError("%s is stale (created before reset())" % what, E.NOTFOUND, "stale")
        return v._id

    def _free_orphans(self) -> None:
        if not self._orphans:
            return
        keep = []
        for vid in self._orphans:
            if lib.moa_var_free(self._h_, vid) == E.MISUSE:  # still used by a constraint or an edit
                keep.append(vid)
        self._orphans = keep

    # -- API

    def var(self, name: str = "") -> Variable:
        """A new variable (value 0 until solved)."""
        b = text(name, "name")
        out = ctypes.c_uint64(0)
        self._check(lib.moa_var_new(self._h(), b, ctypes.byref(out)))
        return Variable(self, out.value, self._generation)

    def _spec(self, relation: Relation, priority: Priority = "required", weight: float = 1,
              tag: Optional[str] = None) -> _Spec:
        """add()'s arguments checked (TypeError, InvalidError, NotFoundError, ...: nothing reaches C), as
        ([(variable id, coefficient), ...], constant, moa_relation, priority, weight, tag or None)."""
        if not isinstance(relation, Relation):
            raise TypeError("add needs a moa.Relation (x + 1 <= y), got %s" % type(relation).__name__)
        p = E.priority(priority)
        w = finite(weight, "weight")
        if not 1e-6 <= w <= 1e6:
            raise E.InvalidError("weight must be in [1e-6, 1e6], got %r" % w, E.INVALID, "invalid")
        t = None if tag is None else text(tag, "tag")
        terms = [(self._var_id(v, "a variable of the relation"), coef) for v, coef in relation._expr._terms]
        return terms, relation._expr._constant, _RELS[relation._op], p, w, t

    def add(self, relation: Relation, priority: Priority = "required", weight: float = 1,
            tag: Optional[str] = None) -> Constraint:
        """Add `relation` (x + 10 <= y) as a constraint at a priority (a number in (0, 1000] or a name), with a
        weight within its priority and an optional tag; returns the Constraint. ConflictError (with
        ``conflicts``) if it is required and cannot hold; nothing is added then. Many at once: add_many()."""
        terms, constant, rel, p, w, t = self._spec(relation, priority, weight, tag)
        arr = (Term_ * max(len(terms), 1))()
        for i, (vid, coef) in enumerate(terms):
            arr[i].var = vid
            arr[i].coef = coef
        out = ctypes.c_uint64(0)
        self._check(lib.moa_solver_add(self._h(), arr, len(terms), constant, rel, p, t, ctypes.byref(out)))
        if w != 1:  # moa_solver_add starts every constraint at weight 1
            # The weight change re-optimises, so it can reach the pivots or time limit (LimitError): all or
            # nothing, and the removal that undoes the add must not be refused by those limits.
            st = lib.moa_cons_set_weight(self._h_, out.value, w)
            if st != E.OK:
                err, self._progress_error = self._progress_error or self._failure(st), None
                self._remove_unlimited(out.value)
                raise err
        return self._constraint(out.value)

    def add_many(self, items: Iterable[BatchItem]) -> List[Constraint]:
        """Add several constraints in one call, all or nothing (moa_solver_add_many); returns their Constraints in
        the order of the items. Each item is what add() takes: a Relation (required, weight 1, no tag) or a tuple
        of add()'s arguments in their order, (relation, priority[, weight[, tag]]), e.g.
        ``s.add_many([x >= 0, (x + 10 <= y, "strong"), (y == 100, "weak", 2, "goal")])``.

        One call instead of one per constraint, and the tableau it builds depends neither on the order of the
        items nor on the order their variables were made in (the items' variables that no constraint holds yet are
        ranked by the batch's required equalities first): constraints listed in an arbitrary order (a dict's, a
        set's) build the tableau that adding them grown from one end would, where add() one at a time can build a
        much bigger one. The work limits (set_limit, on_progress) cover the whole call.

        Every item is checked first, as add() checks its arguments: TypeError or moa.Error (InvalidError,
        NotFoundError, ...) naming the item, with ``index`` its 0-based position. A failure of the call raises
        what add() would raise for the item that failed (ConflictError with ``conflicts`` the constraints that
        were in the solver, LimitError, ...) with ``index`` that item's position and ``batch_conflicts`` the
        positions of the other items in the conflict (ascending; empty unless a conflict); ``index`` is the
        number of items when the call as a whole was refused (MisuseError from a progress function). Either way
        nothing is added."""
        h = self._h()
        try:
            it = iter(items)
        except TypeError:
            raise TypeError("add_many needs an iterable of items (a list of relations), got %s"
                            % type(items).__name__) from None
        specs = []
        for i, item in enumerate(it):
            try:
                if isinstance(item, Relation):
                    specs.append(self._spec(item))
                elif isinstance(item, tuple) and 1 <= len(item) <= 4 and isinstance(item[0], Relation):
                    specs.append(self._spec(*item))
                else:
                    raise TypeError("expected a moa.Relation (x + 1 <= y) or a tuple (relation, priority[, weight[, "
                                    "tag]]), got %s" % _describe_item(item))
            except (TypeError, E.Error) as e:
                raise _item_error(e, i) from None
        n = len(specs)
        if n == 0:
            return []
        # The terms of all the items in one array, each spec pointing at its slice (nterms 0: terms stays NULL).
        terms = (Term_ * max(sum(len(spec[0]) for spec in specs), 1))()
        arr = (ConsSpec_ * n)()
        base, size, k = ctypes.addressof(terms), ctypes.sizeof(Term_), 0
        for c, (ts, constant, rel, p, w, t) in zip(arr, specs):
            if ts:
                c.terms = ctypes.cast(base + k * size, _TERM_P)
                for vid, coef in ts:
                    term = terms[k]
                    term.var, term.coef = vid, coef
                    k += 1
            c.nterms, c.constant, c.rel, c.priority, c.weight, c.tag = len(ts), constant, rel, p, w, t
        out = (ctypes.c_uint64 * n)()
        failed = ctypes.c_size_t(n)
        st = lib.moa_solver_add_many(h, arr, n, out, ctypes.byref(failed))  # (terms, a local, is alive here)
        if st != E.OK and self._progress_error is None:
            batch = self._batch_conflicts()  # first: the calls _failure makes (moa_cons_describe) clear the record
            err = self._failure(st)
            err.index = failed.value
            err.batch_conflicts = batch
            raise err
        self._check(st)  # the progress function's exception, if it raised one
        return [self._constraint(cid) for cid in out]

    def _batch_conflicts(self) -> List[int]:
        """moa_solver_batch_conflicts: the failed add_many's items in the conflict (empty after any other call)."""
        count = ctypes.c_size_t(0)
        if lib.moa_solver_batch_conflicts(self._h_, None, 0, ctypes.byref(count)) != E.OK or not count.value:
            return []
        arr = (ctypes.c_size_t * count.value)()
        if lib.moa_solver_batch_conflicts(self._h_, arr, count.value, ctypes.byref(count)) != E.OK:
            return []
        return list(arr[:min(len(arr), count.value)])

    def _remove_unlimited(self, cid: int) -> None:
        """Remove constraint `cid` with the pivots and time limits and the progress function lifted, then put
        them back (an undo)."""
        h = self._h()
        pivots, seconds = ctypes.c_double(0), ctypes.c_double(0)
        lib.moa_solver_limit(h, _PIVOTS, ctypes.byref(pivots))
        lib.moa_solver_limit(h, _SECONDS, ctypes.byref(seconds))
        lib.moa_solver_set_limit(h, _PIVOTS, 2.0 ** 53)
        lib.moa_solver_set_limit(h, _SECONDS, 0.0)
        if self._progress is not None:
            lib.moa_solver_set_progress(h, _NO_PROGRESS, 1, None)
        lib.moa_cons_remove(h, cid)
        lib.moa_solver_set_limit(h, _PIVOTS, pivots.value)
        lib.moa_solver_set_limit(h, _SECONDS, seconds.value)
        if self._progress is not None:
            lib.moa_solver_set_progress(h, self._progress[0], self._progress[1], None)

    def remove(self, constraint: Constraint) -> None:
        """Remove a constraint (its object is stale afterwards)."""
        self._cons_id(constraint)
        constraint.remove()

    def _cons_id(self, c: object) -> int:
        if not isinstance(c, Constraint):
            raise TypeError("expected a moa.Constraint, got %s" % type(c).__name__)
        if c._solver is not self:
            raise E.InvalidError("constraint belongs to another solver", E.INVALID, "invalid")
        return c._id

    def edit(self, v: Variable, priority: Priority = "strong") -> Solver:
        """Make v an edit variable (priority below 1000), so suggest() can move it. DuplicateError if it is one."""
        vid = self._var_id(v)
        self._check(lib.moa_solver_add_edit(self._h(), vid, E.priority(priority, edit=True)))
        return self

    def unedit(self, v: Variable) -> Solver:
        """Stop v being an edit variable."""
        self._check(lib.moa_solver_remove_edit(self._h(), self._var_id(v)))
        return self

    def has_edit(self, v: Variable) -> bool:
        """Whether v is an edit variable."""
        out = ctypes.c_int(0)
        self._check(lib.moa_solver_has_edit(self._h(), self._var_id(v), ctypes.byref(out)))
        return bool(out.value)

    def suggest(self, v: Variable, value: float) -> Solver:
        """Suggest a value for an edit variable; update() makes it visible. LimitError if the call reaches its
        pivots or time limit (set_limit): the suggestion is not made and nothing changes."""
        self._check(lib.moa_solver_suggest(self._h(), self._var_id(v), finite(value, "value")))
        return self

    def update(self) -> Solver:
        """Copy the current solution into the variables' values."""
        h = self._h()
        self._free_orphans()
        self._check(lib.moa_solver_update(h))
        return self

    def values(self, variables: Sequence["Variable"]) -> List[float]:
        """The values of several variables as of the last update(), in one call (faster than reading
        ``v.value`` one by one when there are many)."""
        ids = [self._var_id(v) for v in variables]
        n = len(ids)
        out = (ctypes.c_double * n)()
        self._check(lib.moa_solver_values(self._h(), (ctypes.c_uint64 * n)(*ids), n, out))
        return list(out)

    def _values_into(self, ids: Any, out: Any) -> None:
        """values() into arrays the caller keeps: `ids` a ctypes uint64 array of this solver's variables' ids
        (`_var_id`), `out` a ctypes double array as long (moa.kiwi reads every variable back each frame)."""
        self._check(lib.moa_solver_values(self._h(), ids, len(out), out))

    def counts(self) -> Tuple[int, int]:
        """(number of variables, number of constraints)."""
        h = self._h()
        self._free_orphans()
        nv, nc = ctypes.c_size_t(0), ctypes.c_size_t(0)
        self._check(lib.moa_solver_counts(h, ctypes.byref(nv), ctypes.byref(nc)))
        return nv.value, nc.value

    def reset(self) -> Solver:
        """Drop every variable and constraint; older objects are stale afterwards."""
        self._check(lib.moa_solver_reset(self._h()))
        self._generation += 1
        self._cons = weakref.WeakValueDictionary()
        self._orphans = []
        return self

    def on_progress(self, fn: Optional[Callable[[int], object]], every: int = 256) -> Solver:
        """Call fn(pivots) every `every` pivots (an int >= 1) inside one call that pivots that much (an add whose
        optimisation moves many variables, a suggestion, a removal), `pivots` being how many that call has made
        (moa_solver_set_progress). fn returns False to stop the call, which then raises
        :class:`moa.LimitError` and changes nothing; anything else (None, True) goes on. fn runs with the solver
        half way through a change: every call on this solver raises MisuseError there (close() waits for the
        call to return). An exception fn raises stops the call, which raises that exception once the C call has
        returned. None removes the function. While one is set, adds are journaled (somewhat slower). Returns
        self."""
        h = self._h()
        if fn is None:
            self._check(lib.moa_solver_set_progress(h, _NO_PROGRESS, 1, None))
            self._progress = None
            return self
        if not callable(fn):
            raise TypeError("the progress function must be callable, got %s" % type(fn).__name__)
        if isinstance(every, bool) or not isinstance(every, int):
            raise TypeError("every must be an int, got %s" % type(every).__name__)
        if every < 1:
            raise E.InvalidError("every must be 1 or more, got %d" % every, E.INVALID, "invalid")
        every = min(every, 2 ** 63 - 1)
        ref = weakref.ref(self)  # the callback must not keep the solver alive

        def thunk(_s: Optional[int], pivots: int, _ud: Optional[int]) -> int:
            try:
                return 1 if fn(pivots) is False else 0
            except BaseException as e:  # noqa: B902 - nothing may escape into C
                me = ref()
                if me is not None and me._progress_error is None:
                    me._progress_error = e
                return 1

        cb = SOLVER_PROGRESS_FN(thunk)
        self._check(lib.moa_solver_set_progress(h, cb, every, None))
        self._progress = (cb, every)
        return self

    def set_limit(self, name: str, value: float) -> Solver:
        """Set a limit (moa_solver_set_limit), applied from the next call: the tableau's "rows" (about one per
        active constraint; default 10,000,000) and "cells" (its coefficients, the bulk of its memory; default
        100,000,000), and the work of one call: "pivots" (simplex steps; default 10,000,000), whole numbers
        >= 1, and "seconds" (wall-clock time, read every 64 pivots), >= 0, 0 (the default) for none. An add,
        edit or activation that finds the tableau at a limit, and any call that pivots (add, suggest, constant,
        priority or weight change, removal, ...) past its pivots or time limit, raises :class:`moa.LimitError`
        and changes nothing; update() and value reads are never limited. InvalidError for an unknown name or a
        bad value. Returns self."""
        which = E.choice(name, _LIMITS, "limit")
        self._check(lib.moa_solver_set_limit(self._h(), which, finite(value, "value")))
        return self

    def limit(self, name: str) -> Union[int, float]:
        """The value of a limit: "rows", "cells" and "pivots" (ints), "seconds" (a float, 0 for none)."""
        which = E.choice(name, _LIMITS, "limit")
        out = ctypes.c_double(0)
        self._check(lib.moa_solver_limit(self._h(), which, ctypes.byref(out)))
        return out.value if which == _SECONDS else int(out.value)

    def usage(self) -> Usage:
        """What the solver has in use: a :class:`moa.Usage` (rows, cells, variables, constraints; views is 0).
        Collected variables that nothing uses are freed first, as by counts()."""
        h = self._h()
        self._free_orphans()
        out = Usage_()
        self._check(lib.moa_solver_usage(h, ctypes.byref(out)))
        return Usage(out.rows, out.cells, out.variables, out.constraints, out.views)

    def dump(self) -> str:
        """A text dump of the solver's internal state, for debugging."""
        out = ctypes.c_char_p()
        self._check(lib.moa_solver_dump(self._h(), ctypes.byref(out)))
        return (out.value or b"").decode("utf-8", "replace")


# ---------------------------------------------------------------------------------------------- expressions


class _Linear:
    """Arithmetic shared by Variable and Expression; == <= >= build a Relation."""
    __slots__ = ()

    def _as_expr(self) -> Expression:
        raise NotImplementedError

    def __add__(self, other: Operand) -> Expression:
        """self + other: an Expression."""
        o = _expr(other)
        return NotImplemented if o is None else self._as_expr()._combine(o, 1.0)

    __radd__ = __add__

    def __sub__(self, other: Operand) -> Expression:
        """self - other: an Expression."""
        o = _expr(other)
        return NotImplemented if o is None else self._as_expr()._combine(o, -1.0)

    def __rsub__(self, other: Operand) -> Expression:
        """other - self: an Expression."""
        o = _expr(other)
        return NotImplemented if o is None else o._combine(self._as_expr(), -1.0)

    def __mul__(self, k: float) -> Expression:
        """self * k (k a number: expressions are linear)."""
        if isinstance(k, _Linear):
            raise TypeError("moa: only linear expressions (a variable times a number)")
        if isinstance(k, bool) or not isinstance(k, numbers.Real):
            return NotImplemented
        return self._as_expr()._scale(finite(k, "coefficient"))

    __rmul__ = __mul__

    def __truediv__(self, k: float) -> Expression:
        """self / k (k a nonzero number)."""
        if isinstance(k, _Linear):
            raise TypeError("moa: only linear expressions (cannot divide by an expression)")
        if isinstance(k, bool) or not isinstance(k, numbers.Real):
            return NotImplemented
        k = finite(k, "divisor")
        if k == 0:
            raise ZeroDivisionError("moa: division of an expression by zero")
        return self._as_expr()._scale(1.0 / k)

    def __neg__(self) -> Expression:
        return self._as_expr()._scale(-1.0)

    def __pos__(self) -> Expression:
        return self._as_expr()

    def _relation(self, other: object, op: str) -> Relation:
        o = _expr(other)
        if o is None:
            return NotImplemented
        return Relation(self._as_expr()._combine(o, -1.0), op)

    def __eq__(self, other: Operand) -> Relation:  # type: ignore[override]
        """The relation self == other (add it with Solver.add; it has no truth value)."""
        return self._relation(other, "==")

    def __le__(self, other: Operand) -> Relation:
        """The relation self <= other."""
        return self._relation(other, "<=")

    def __ge__(self, other: Operand) -> Relation:
        """The relation self >= other."""
        return self._relation(other, ">=")

    def eq(self, other: Operand) -> Relation:
        """The relation self == other (as the Lua binding's :eq)."""
        return self._checked_relation(other, "==")

    def le(self, other: Operand) -> Relation:
        """The relation self <= other."""
        return self._checked_relation(other, "<=")

    def ge(self, other: Operand) -> Relation:
        """The relation self >= other."""
        return self._checked_relation(other, ">=")

    def _checked_relation(self, other: object, op: str) -> Relation:
        r = self._relation(other, op)
        if r is NotImplemented:
            raise TypeError("moa: cannot relate to %s" % type(other).__name__)
        return r

    def __lt__(self, other: object) -> NoReturn:
        """Refused: strict inequalities are not constraints (TypeError)."""
        raise TypeError("moa: strict inequalities are not constraints (use <= or >=)")

    __gt__ = __lt__


def _expr(x: object) -> Optional[Expression]:
    """x as an Expression, or None if it is not a number, variable or expression."""
    if isinstance(x, _Linear):
        return x._as_expr()
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return None
    return Expression((), finite(x, "constant"))


class Variable(_Linear):
    """A variable of one solver: ``v.value`` (as of the last update()), ``v.name`` (assignable)."""
    __slots__ = ("_solver", "_id", "_generation", "__weakref__")

    def __init__(self, solver: Solver, id_: int, generation: int) -> None:
        self._solver = solver
        self._id = id_
        self._generation = generation

    def _as_expr(self) -> Expression:
        return Expression(((self, 1.0),), 0.0)

    def __hash__(self) -> int:
        return id(self)

    @property
    def solver(self) -> Solver:
        """The Solver this belongs to."""
        return self._solver

    @property
    def value(self) -> float:
        """The value as of the last Solver.update()."""
        s = self._solver
        out = ctypes.c_double(0)
        s._check(lib.moa_var_value(s._h(), s._var_id(self), ctypes.byref(out)))
        return out.value

    @property
    def name(self) -> str:
        """The name given at creation (or assigned)."""
        s = self._solver
        out = ctypes.c_char_p()
        s._check(lib.moa_var_name(s._h(), s._var_id(self), ctypes.byref(out)))
        return (out.value or b"").decode("utf-8", "replace")

    @name.setter
    def name(self, name: str) -> None:
        s = self._solver
        s._check(lib.moa_var_set_name(s._h(), s._var_id(self), text(name, "name")))

    def __del__(self) -> None:
        # Never enters C: the id is freed later by the solver (update/counts), once nothing uses it.
        try:
            s = self._solver
            if s._h_ is not None and s._generation == self._generation:
                s._orphans.append(self._id)
        except BaseException:  # noqa: B902
            pass

    def __repr__(self) -> str:
        try:
            return "<moa.Variable %s = %g>" % (self.name or "?", self.value)
        except E.Error:
            return "<moa.Variable (closed or stale)>"


class Expression(_Linear):
    """An immutable linear expression: ``terms`` ((Variable, coefficient), ...) plus ``constant``; like terms
    are merged."""
    __slots__ = ("_terms", "_constant")

    def __init__(self, terms: Iterable[Tuple[Variable, float]] = (), constant: float = 0.0) -> None:
        self._terms = tuple(terms)
        self._constant = float(constant)

    def _as_expr(self) -> Expression:
        return self

    __hash__ = None  # type: ignore[assignment]

    @property
    def terms(self) -> Tuple[Tuple[Variable, float], ...]:
        """The terms, as ((Variable, coefficient), ...)."""
        return self._terms

    @property
    def constant(self) -> float:
        """The constant."""
        return self._constant

    def _combine(self, other: Expression, sign: float) -> Expression:
        acc: dict[int, float] = {}
        order: list[Variable] = []
        for v, c in self._terms + tuple((v, sign * c) for v, c in other._terms):
            if id(v) not in acc:
                order.append(v)
                acc[id(v)] = 0.0
            acc[id(v)] += c
        terms = tuple((v, acc[id(v)]) for v in order if acc[id(v)] != 0)
        return Expression(terms, self._constant + sign * other._constant)

    def _scale(self, k: float) -> Expression:
        return Expression(tuple((v, c * k) for v, c in self._terms if c * k != 0), self._constant * k)

    def __repr__(self) -> str:
        parts = ["%g*%s" % (c, _vname(v)) for v, c in self._terms]
        if self._constant or not parts:
            parts.append("%g" % self._constant)
        return "<moa.Expression %s>" % " + ".join(parts)


def _vname(v: Variable) -> str:
    try:
        return v.name or "?"
    except E.Error:
        return "?"


class Relation:
    """``expression REL 0`` (REL one of == <= >=): a constraint not yet added; add it with Solver.add()."""
    __slots__ = ("_expr", "_op")

    def __init__(self, expr: Expression, op: str) -> None:
        self._expr = expr
        self._op = op

    @property
    def op(self) -> str:
        """"==", "<=" or ">="."""
        return self._op

    @property
    def expression(self) -> Expression:
        """The left side (the right side is 0)."""
        return self._expr

    def __bool__(self) -> NoReturn:
        raise TypeError("a moa.Relation has no truth value; add it with solver.add(relation)")

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "<moa.Relation %s %s 0>" % (repr(self._expr)[15:-1], self._op)


class Constraint:
    """A constraint of one solver: ``constant``, ``priority``, ``weight``, ``active`` (read and assign;
    ConflictError when a required one cannot hold), ``tag``, ``str(c)`` its description; remove()."""
    __slots__ = ("_solver", "_id", "_generation", "__weakref__")

    def __init__(self, solver: Solver, id_: int, generation: int) -> None:
        self._solver = solver
        self._id = id_
        self._generation = generation

    def _h(self) -> int:
        s = self._solver
        h = s._h()
        if self._generation != s._generation:
            raise E.NotFoundError("constraint is stale (created before reset())", E.NOTFOUND, "stale")
        return h

    def _get(self, fn: Any, ctype: Any) -> Any:
        out = ctype()
        self._solver._check(fn(self._h(), self._id, ctypes.byref(out)))
        return out.value

    @property
    def solver(self) -> Solver:
        """The Solver this belongs to."""
        return self._solver

    @property
    def constant(self) -> float:
        """The constant of the constraint's expression."""
        return self._get(lib.moa_cons_constant, ctypes.c_double)

    @constant.setter
    def constant(self, k: float) -> None:
        self.set_constant(k)

    @property
    def priority(self) -> float:
        """The priority, in (0, 1000]; assign a number or a name."""
        return self._get(lib.moa_cons_priority, ctypes.c_double)

    @priority.setter
    def priority(self, p: Priority) -> None:
        self.set_priority(p)

    @property
    def weight(self) -> float:
        """The weight within its priority."""
        return self._get(lib.moa_cons_weight, ctypes.c_double)

    @weight.setter
    def weight(self, w: float) -> None:
        self.set_weight(w)

    @property
    def active(self) -> bool:
        """Whether it takes part in solving."""
        return bool(self._get(lib.moa_cons_is_active, ctypes.c_int))

    @active.setter
    def active(self, b: bool) -> None:
        self.set_active(b)

    @property
    def tag(self) -> str:
        """The tag given to add() ("" if none)."""
        return (self._get(lib.moa_cons_tag, ctypes.c_char_p) or b"").decode("utf-8", "replace")

    def describe(self) -> str:
        """A description for people, e.g. "x + -1*y + 10 <= 0 @1000"."""
        return (self._get(lib.moa_cons_describe, ctypes.c_char_p) or b"").decode("utf-8", "replace")

    def set_constant(self, k: float) -> Constraint:
        """Change the constant in place. Returns self."""
        self._solver._check(lib.moa_cons_set_constant(self._h(), self._id, finite(k, "constant")))
        return self

    def set_priority(self, p: Priority) -> Constraint:
        """Change the priority (also to or from required). Returns self."""
        self._solver._check(lib.moa_cons_set_priority(self._h(), self._id, E.priority(p)))
        return self

    def set_weight(self, w: float) -> Constraint:
        """Change the weight within its priority. Returns self."""
        self._solver._check(lib.moa_cons_set_weight(self._h(), self._id, finite(w, "weight")))
        return self

    def set_active(self, b: bool) -> Constraint:
        """Activate or deactivate it; a no-op when it already is. Returns self."""
        v = boolean(b, "active")
        if self.active != bool(v):
            self._solver._check(lib.moa_cons_set_active(self._h(), self._id, v))
        return self

    def remove(self) -> None:
        """Remove it from its solver."""
        self._solver._check(lib.moa_cons_remove(self._h(), self._id))

    @property
    def removed(self) -> bool:
        """True once removed (or after Solver.reset())."""
        s = self._solver
        if s._h_ is None:
            raise _closed()
        out = ctypes.c_int(0)
        return (self._generation != s._generation or
                lib.moa_cons_is_active(s._h_, self._id, ctypes.byref(out)) == E.NOTFOUND)

    def __str__(self) -> str:
        try:
            return self.describe()
        except E.ClosedError:
            return "moa.Constraint (closed solver)"
        except E.Error:
            return "moa.Constraint (removed)"

    def __repr__(self) -> str:
        return "<moa.Constraint %r>" % str(self)
