"""moa.kiwi -- kiwisolver's Python API on Moa's solver.

    import moa.kiwi as kiwisolver          # code written for kiwisolver runs unchanged
    x, y = kiwisolver.Variable("x"), kiwisolver.Variable("y")
    s = kiwisolver.Solver()
    s.addConstraint(x + 10 <= y)
    s.addConstraint((x == 100) | "weak")
    s.addEditVariable(y, "strong")
    s.suggestValue(y, 50)
    s.updateVariables()
    print(x.value(), y.value())             # 40.0 50.0

To run a program that imports kiwisolver itself (matplotlib's constrained_layout does), put this module in its
place before that import::

    import moa.kiwi; moa.kiwi.install()     # sys.modules["kiwisolver"] (and "kiwisolver.exceptions")
    import matplotlib.pyplot as plt

What is the same as kiwisolver (https://kiwisolver.readthedocs.io, checked against kiwisolver 1.5.1):

- ``Variable(name="", context=None)`` with ``name()``, ``setName()``, ``value()``, ``context()``,
  ``setContext()``. A Variable belongs to no solver: it keeps its last value, and several solvers can use it
  (each writes its own solution into it at its ``updateVariables()``). Variables are unhashable, as in
  kiwisolver.
- ``Term(variable, coefficient=1.0)`` (``variable()``, ``coefficient()``, ``value()``),
  ``Expression(terms, constant=0.0)`` (``terms()``, ``constant()``, ``value()``), and the operators: ``-v``,
  ``v * 2``, ``v / 2``, ``+``, ``-`` between variables, terms, expressions and numbers give Terms and
  Expressions with kiwisolver's term order (unmerged, like kiwisolver); ``==``, ``<=``, ``>=`` give a
  ``Constraint``; ``!=``, ``<``, ``>``, products of two expressions and division by an expression raise TypeError.
- ``Constraint(expression, op, strength="required")`` with ``expression()`` (like terms merged),
  ``op()``, ``strength()``, ``violated()`` (from the variables' current values, as kiwisolver);
  ``constraint | strength`` and ``strength | constraint`` (a name or a number) give a new Constraint.
- ``strength``: ``required`` (1001001000), ``strong`` (1e6), ``medium`` (1e3), ``weak`` (1),
  ``create(a, b, c, w=1.0)`` = a*1e6 + b*1e3 + c after multiplying each of a, b, c by w and clipping it to
  [0, 1000]; every strength is clipped to [0, required].
- ``Solver()`` with ``addConstraint``, ``removeConstraint``, ``hasConstraint``, ``addEditVariable``,
  ``removeEditVariable``, ``hasEditVariable``, ``suggestValue``, ``updateVariables``, ``reset``, ``dump``,
  ``dumps``; the exceptions ``UnsatisfiableConstraint``, ``DuplicateConstraint``, ``UnknownConstraint``
  (``.constraint``), ``DuplicateEditVariable``, ``UnknownEditVariable`` (``.edit_variable``) and
  ``BadRequiredStrength``, raised where kiwisolver raises them, with the same arguments.
- ``__version__`` is kiwisolver's API version with Moa's as a local label ("1.5.1+moa.X.Y.Z"), so version
  checks (matplotlib wants >= 1.3.1) pass.

What differs, deliberately:

1. Strengths are strict priorities. kiwisolver minimises ONE weighted sum: a strong violation costs 1e6, a
   weak one 1, so a million units of weak violation outweigh one unit of strong violation. Moa's priorities
   are strict: a higher priority is never given up to satisfy any number of lower ones. moa.kiwi maps every
   soft strength ``s`` onto one of three Moa priorities by its magnitude, and keeps the exact ratios within a
   priority as Moa weights (violations of one priority are summed times their weights, exactly as kiwisolver
   sums them)::

       s >= 10**4.5   (strong band)  -> Moa priority 750 ("strong"), weight s / 1e6
       s >= 10**1.5   (medium band)  -> Moa priority 500 ("medium"), weight s / 1e3
       otherwise      (weak band)    -> Moa priority 250 ("weak"),   weight s
       s == required                 -> Moa priority 1000 (required)

   So strong, medium and weak become 750 / 500 / 250 with weight 1; create(1, 0, 0, 2) = 2e6 is "twice a
   strong" (750, weight 2); create(0, 0, 5) is 250 with weight 5. Results equal kiwisolver's whenever the
   soft constraints that compete are in the same band (matplotlib's constrained_layout uses only "strong"
   and required: identical layouts, within 1e-15 of the figure, see scripts/kiwi-matplotlib.py), or whenever kiwisolver's optimum does not trade a higher band against
   a pile of lower ones. Where kiwisolver would trade, moa.kiwi keeps the higher band satisfied.

   This is never silent: the first time a Solver holds soft constraints (or edit variables) of two different
   bands at once -- strengths kiwisolver would add into one objective and trade off against each other --
   it emits a :class:`MoaKiwiWarning` (a UserWarning; once per Solver). The module switch
   ``moa.kiwi.strength_warning`` is ``"warn"`` (default), ``"ignore"`` or ``"error"`` (raise MoaKiwiWarning
   from the addConstraint/addEditVariable call instead; nothing is added). The check is conservative: it
   does not look at whether the two bands share variables. Weights Moa cannot represent ([1e-6, 1e6]; e.g.
   strength 0, which kiwisolver accepts and which then has no effect) are clamped, with the same warning.

   ``moa.kiwi.strength_mode = "weighted"`` (or ``Solver(strength_mode="weighted")``) puts every soft
   strength on ONE Moa priority with weight s / 1e3: kiwisolver's weighted sum exactly, for strengths in
   [1e-3, 1e9] (weak .. create(1000, 0, 0)); outside that range the weight is clamped (with the warning).
   The mode is read when a Solver is created.

2. Edit variables are Moa soft constraints ``v == value`` at the edit strength's priority and weight (Moa's own
   edit variables carry a priority but no weight, and start at the variable's current value where kiwisolver
   starts at 0); ``suggestValue`` changes the constraint's constant, which is what Moa's suggest does
   internally. Semantics are kiwisolver's: before the first suggestion an edit variable is pulled to 0.
3. Numbers: Moa rejects coefficients, constants and suggested values that are NaN, infinite or beyond
   +-1e12 (moa.InvalidError, a ValueError; nothing is added); kiwisolver accepts them. A NaN strength is a
   ValueError. Terms with a zero coefficient are kept in ``expression()`` (as kiwisolver) but not sent to Moa.
4. ``dump()``/``dumps()`` print moa.kiwi's constraints, edit variables and strength mapping followed by Moa's
   own solver dump, not kiwisolver's tableau; ``dump()`` writes to ``sys.stdout``. A Constraint's
   ``expression()`` lists the merged terms in order of first occurrence (kiwisolver's order follows memory
   addresses). Error messages name the types ``Variable``, ... rather than ``kiwisolver.Variable``.
5. A Solver keeps a Moa variable for every Variable it has seen until ``reset()`` (kiwisolver also keeps its
   variables until reset); ``updateVariables()`` writes the value of each of them (0 for one no constraint
   uses any more, as kiwisolver).
6. Speed: every call crosses into libmoa through the ctypes binding (moa.Solver). ``updateVariables()`` must
   write every variable's value into its Python object, as kiwisolver does, and the C API has no bulk read,
   so it costs one ``moa.Variable.value`` (~1.1 us) per variable: that, not Moa's solve, dominates edit-heavy
   workloads (the shared animate-1k: Moa's updates take 6 ms of a 0.6 s edit phase). Building is faster
   than kiwisolver's on most workloads. scripts/bench-kiwi.py measures both against kiwisolver.
"""
from __future__ import annotations

import ctypes
import numbers
import sys
import types
import warnings
from typing import Any, Dict, List, NoReturn, Optional, Set, Tuple, Union

from . import Solver as _MoaSolver, Relation as _Relation, Expression as _MoaExpression, \
    ConflictError as _ConflictError, version as _moa_version

__all__ = ["BadRequiredStrength", "Constraint", "DuplicateConstraint", "DuplicateEditVariable", "Expression",
           "Solver", "Term", "UnknownConstraint", "UnknownEditVariable", "UnsatisfiableConstraint", "Variable",
           "__kiwi_version__", "__version__", "strength", "MoaKiwiWarning", "install", "strength_mode",
           "strength_warning", "moa_priority"]

#: kiwisolver's API version that this module follows, with Moa's version as a local label.
__version__ = "1.5.1+moa." + _moa_version
__kiwi_version__ = __version__
__moa_version__ = _moa_version

#: "levels" (default: strong/medium/weak bands on strict Moa priorities 750/500/250, weights within a band)
#: or "weighted" (kiwisolver's single weighted sum: every soft strength on one Moa priority). Read by Solver().
strength_mode = "levels"
#: What happens when a Solver maps strengths kiwisolver would trade off onto different strict priorities (or
#: clamps a weight): "warn" (MoaKiwiWarning, once per Solver), "ignore", or "error" (raise MoaKiwiWarning).
strength_warning = "warn"

_REQUIRED = 1001001000.0
_STRONG = 1000000.0
_MEDIUM = 1000.0
_WEAK = 1.0
_NAMED = {"required": _REQUIRED, "strong": _STRONG, "medium": _MEDIUM, "weak": _WEAK}
# Band edges: the geometric midpoints between strong and medium, medium and weak.
_STRONG_EDGE = 10.0 ** 4.5
_MEDIUM_EDGE = 10.0 ** 1.5
# (name, Moa priority, base) per band; band 3 is the single level of "weighted" mode.
_BANDS = (("strong", 750.0, _STRONG), ("medium", 500.0, _MEDIUM), ("weak", 250.0, _WEAK),
          ("weighted", 500.0, _MEDIUM))
_MIN_WEIGHT = 1e-6
_MAX_WEIGHT = 1e6
_EPS = 1.0e-8  # kiwi's nearZero, for Constraint.violated()

#: A number kiwisolver accepts (int, float, bool, numpy scalars: any numbers.Real).
Number = Union[int, float]
#: A strength: "required", "strong", "medium", "weak" or a number (clipped to [0, required]).
StrengthLike = Union[str, int, float]
#: An operand of + - == <= >=: a Variable, Term, Expression or number.
Operand = Union["Variable", "Term", "Expression", int, float]


# ---------------------------------------------------------------------------------------------- exceptions
# As kiwisolver.exceptions: the offending object is the only argument and an attribute.

class BadRequiredStrength(Exception):
    pass


class DuplicateConstraint(Exception):
    __slots__ = ("constraint",)

    def __init__(self, constraint: Any) -> None:
        self.constraint = constraint


class DuplicateEditVariable(Exception):
    __slots__ = ("edit_variable",)

    def __init__(self, edit_variable: Any) -> None:
        self.edit_variable = edit_variable


class UnknownConstraint(Exception):
    __slots__ = ("constraint",)

    def __init__(self, constraint: Any) -> None:
        self.constraint = constraint


class UnknownEditVariable(Exception):
    __slots__ = ("edit_variable",)

    def __init__(self, edit_variable: Any) -> None:
        self.edit_variable = edit_variable


class UnsatisfiableConstraint(Exception):
    __slots__ = ("constraint",)

    def __init__(self, constraint: Any) -> None:
        self.constraint = constraint


class MoaKiwiWarning(UserWarning):
    """Strengths that kiwisolver adds into one weighted objective were mapped onto different strict Moa
    priorities (or a weight was clamped): results may differ from kiwisolver's. See the module docstring."""


# ---------------------------------------------------------------------------------------------- numbers


def _num(o: Any) -> Optional[float]:
    """o as a float, or None if it is not a real number (bool and numpy scalars count, as in kiwisolver)."""
    t = type(o)
    if t is float:
        return o
    if t is int or t is bool:
        return float(o)
    if isinstance(o, numbers.Real):
        return float(o)
    return None


def _float_arg(o: object) -> float:
    v = _num(o)
    if v is None:
        raise TypeError("Expected object of type `float, int, or long`. Got object of type `%s` instead."
                        % type(o).__name__)
    return v


def _clip(v: float) -> float:
    return 0.0 if v < 0.0 else (_REQUIRED if v > _REQUIRED else v)


def _strength(s: object) -> float:
    """A strength (a name or a number) as kiwisolver's clipped double."""
    if isinstance(s, str):
        try:
            return _NAMED[s]
        except KeyError:
            raise ValueError("string strength must be 'required', 'strong', 'medium', or 'weak', not '%s'"
                             % s) from None
    v = _float_arg(s)
    if v != v:
        raise ValueError("moa.kiwi: a strength cannot be NaN")
    return _clip(v)


def _type_error(expected: str, o: object) -> TypeError:
    return TypeError("Expected object of type `%s`. Got object of type `%s` instead."
                     % (expected, type(o).__name__))


class Strength:
    """kiwisolver's ``strength`` singleton: the named strengths and ``create``."""
    __slots__ = ()

    @property
    def weak(self) -> float:
        return _WEAK

    @property
    def medium(self) -> float:
        return _MEDIUM

    @property
    def strong(self) -> float:
        return _STRONG

    @property
    def required(self) -> float:
        return _REQUIRED

    def create(self, a: Number, b: Number, c: Number, w: Number = 1.0, /) -> float:
        """a * 1e6 + b * 1e3 + c, each of a, b, c first multiplied by w and clipped to [0, 1000]."""
        a, b, c, w = _float_arg(a), _float_arg(b), _float_arg(c), _float_arg(w)
        r = 0.0
        r += max(0.0, min(1000.0, a * w)) * 1000000.0
        r += max(0.0, min(1000.0, b * w)) * 1000.0
        r += max(0.0, min(1000.0, c * w))
        return r


strength = Strength()


def moa_priority(s: StrengthLike, mode: Optional[str] = None) -> Tuple[float, float]:
    """The Moa (priority, weight) a kiwisolver strength (a name or a number) is mapped to, in `mode`
    ("levels" or "weighted"; default: the module's strength_mode)."""
    p, w, _band, _clamped = _map(_strength(s), mode or strength_mode)
    return p, w


def _map(s: float, mode: str) -> Tuple[float, float, Optional[int], bool]:
    """(Moa priority, weight, band index or None for required, clamped?) of a clipped kiwi strength."""
    if s >= _REQUIRED:
        return 1000.0, 1.0, None, False
    if mode == "weighted":
        band = 3
    elif s >= _STRONG_EDGE:
        band = 0
    elif s >= _MEDIUM_EDGE:
        band = 1
    else:
        band = 2
    _name, prio, base = _BANDS[band]
    w = s / base
    if w < _MIN_WEIGHT:
        return prio, _MIN_WEIGHT, band, True
    if w > _MAX_WEIGHT:
        return prio, _MAX_WEIGHT, band, True
    return prio, w, band, False


# ---------------------------------------------------------------------------------------------- symbolics
# Every operand is viewed as (terms, constant); the order of terms follows kiwisolver: in a sum with an
# Expression on the right only (var/term + expression), the expression's terms come first.


def _neg_terms(terms: Tuple[Term, ...]) -> Tuple[Term, ...]:
    return tuple([Term(t._variable, -t._coefficient) for t in terms])


def _parts(o: Any) -> Any:
    """(terms, constant, is_expression) of a symbolic operand, or None."""
    t = type(o)
    if t is Variable:
        return (Term(o, 1.0),), 0.0, False
    if t is Term:
        return (o,), 0.0, False
    if t is Expression:
        return o._terms, o._constant, True
    if isinstance(o, Variable):
        return (Term(o, 1.0),), 0.0, False
    if isinstance(o, Term):
        return (o,), 0.0, False
    if isinstance(o, Expression):
        return o._terms, o._constant, True
    return None


def _add(a: Any, b: object, sign: float) -> Any:
    """a + sign * b for a symbolic `a` and anything `b`; NotImplemented if b is not an operand."""
    at, ac, aexpr = _parts(a)
    pb = _parts(b)
    if pb is None:
        n = _num(b)
        if n is None:
            return NotImplemented
        return Expression._make(at, ac + sign * n)
    bt, bc, bexpr = pb
    if sign < 0:
        bt = _neg_terms(bt)
        bc = -bc
    if bexpr and not aexpr:
        return Expression._make(bt + at, ac + bc)
    return Expression._make(at + bt, ac + bc)


def _radd(a: Any, b: object, sign: float) -> Any:
    """b + sign * a for a number b (the reflected + and -)."""
    n = _num(b)
    if n is None:
        return NotImplemented
    at, ac, _ = _parts(a)
    if sign < 0:
        at = _neg_terms(at)
        ac = -ac
    return Expression._make(at, ac + n)


def _relation(a: Any, b: object, op: str) -> Any:
    if _parts(b) is None and _num(b) is None:
        return NotImplemented
    return Constraint._make(_add(a, b, -1.0), op, _REQUIRED)


def _no_compare(a: object, b: object, op: str) -> NoReturn:
    raise TypeError("unsupported operand type(s) for %s: '%s' and '%s'" % (op, type(a).__name__, type(b).__name__))


class _Symbolic:
    """The operators shared by Variable, Term and Expression."""
    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]

    def _scaled(self, k: float) -> Any:
        raise NotImplementedError

    def __add__(self, other: Operand) -> Expression:
        return _add(self, other, 1.0)  # type: ignore[no-any-return]

    def __radd__(self, other: Number) -> Expression:
        return _radd(self, other, 1.0)  # type: ignore[no-any-return]

    def __sub__(self, other: Operand) -> Expression:
        return _add(self, other, -1.0)  # type: ignore[no-any-return]

    def __rsub__(self, other: Number) -> Expression:
        return _radd(self, other, -1.0)  # type: ignore[no-any-return]

    def __mul__(self, other: Number) -> Any:
        n = _num(other)
        if n is None:
            return NotImplemented
        return self._scaled(n)

    __rmul__ = __mul__

    def __truediv__(self, other: Number) -> Any:
        n = _num(other)
        if n is None:
            return NotImplemented
        if n == 0.0:
            raise ZeroDivisionError("float division by zero")
        return self._scaled(1.0 / n)

    def __eq__(self, other: Operand) -> Constraint:  # type: ignore[override]
        return _relation(self, other, "==")  # type: ignore[no-any-return]

    def __le__(self, other: Operand) -> Constraint:
        return _relation(self, other, "<=")  # type: ignore[no-any-return]

    def __ge__(self, other: Operand) -> Constraint:
        return _relation(self, other, ">=")  # type: ignore[no-any-return]

    def __ne__(self, other: object) -> NoReturn:  # type: ignore[override]
        _no_compare(self, other, "!=")

    def __lt__(self, other: object) -> NoReturn:
        _no_compare(self, other, "<")

    def __gt__(self, other: object) -> NoReturn:
        _no_compare(self, other, ">")


class Variable(_Symbolic):
    """A variable, free-standing: ``Variable(name="", context=None)``. Its value is 0 until a solver it takes
    part in runs updateVariables(), and stays the last value written."""
    __slots__ = ("_name", "_context", "_value", "__weakref__")

    def __init__(self, name: str = "", context: Any = None) -> None:
        if not isinstance(name, str):
            raise _type_error("str", name)
        self._name = name
        self._context = context
        self._value = 0.0

    def name(self) -> str:
        """Get the name of the variable."""
        return self._name

    def setName(self, name: str) -> None:
        """Set the name of the variable."""
        if not isinstance(name, str):
            raise _type_error("str", name)
        self._name = name

    def value(self) -> float:
        """Get the current value of the variable."""
        return self._value

    def context(self) -> Any:
        """Get the context object associated with the variable."""
        return self._context

    def setContext(self, context: Any) -> None:
        """Set the context object associated with the variable."""
        self._context = context

    def _scaled(self, k: float) -> Term:
        return Term(self, k)

    def __neg__(self) -> Term:
        return Term(self, -1.0)

    def __repr__(self) -> str:
        return self._name

    __str__ = __repr__


class Term(_Symbolic):
    """A variable times a coefficient: ``Term(variable, coefficient=1.0)``."""
    __slots__ = ("_variable", "_coefficient")

    def __init__(self, variable: Variable, coefficient: Number = 1.0) -> None:
        if not isinstance(variable, Variable):
            raise _type_error("Variable", variable)
        self._variable = variable
        self._coefficient = coefficient if type(coefficient) is float else _float_arg(coefficient)

    def variable(self) -> Variable:
        """Get the variable for the term."""
        return self._variable

    def coefficient(self) -> float:
        """Get the coefficient for the term."""
        return self._coefficient

    def value(self) -> float:
        """Get the value for the term."""
        return self._coefficient * self._variable._value

    def _scaled(self, k: float) -> Term:
        return Term(self._variable, self._coefficient * k)

    def __neg__(self) -> Term:
        return Term(self._variable, -self._coefficient)

    def __repr__(self) -> str:
        return "%g * %s" % (self._coefficient, self._variable._name)

    __str__ = __repr__


class Expression(_Symbolic):
    """A sum of terms and a constant: ``Expression(terms, constant=0.0)`` (terms as given, unmerged)."""
    __slots__ = ("_terms", "_constant")

    def __init__(self, terms: Any, constant: Number = 0.0) -> None:
        terms = tuple(terms)
        for t in terms:
            if type(t) is not Term and not isinstance(t, Term):
                raise _type_error("Term", t)
        self._terms: Tuple[Term, ...] = terms
        self._constant: float = constant if type(constant) is float else _float_arg(constant)

    @classmethod
    def _make(cls, terms: Tuple[Term, ...], constant: float) -> Expression:
        e = cls.__new__(cls)
        e._terms = terms
        e._constant = constant
        return e

    def terms(self) -> Tuple[Term, ...]:
        """Get the tuple of terms for the expression."""
        return self._terms

    def constant(self) -> float:
        """Get the constant for the expression."""
        return self._constant

    def value(self) -> float:
        """Get the value for the expression (from the variables' current values)."""
        v = self._constant
        for t in self._terms:
            v += t._coefficient * t._variable._value
        return v

    def _scaled(self, k: float) -> Expression:
        return Expression._make(tuple([Term(t._variable, t._coefficient * k) for t in self._terms]),
                                self._constant * k)

    def __neg__(self) -> Expression:
        return Expression._make(_neg_terms(self._terms), -self._constant)

    def __repr__(self) -> str:
        if not self._terms:
            return "%g" % self._constant
        return " + ".join([repr(t) for t in self._terms]) + " + %g" % self._constant

    __str__ = __repr__


def _reduce(terms: Tuple[Term, ...]) -> Tuple[Term, ...]:
    """Like terms merged (first occurrence order; zero coefficients kept, as kiwisolver)."""
    if len(terms) < 2:
        return terms
    acc: Dict[int, List[Any]] = {}
    for t in terms:
        k = id(t._variable)
        e = acc.get(k)
        if e is None:
            acc[k] = [t._variable, t._coefficient]
        else:
            e[1] += t._coefficient
    if len(acc) == len(terms):
        return terms
    return tuple([Term(v, c) for v, c in acc.values()])


_OPS = ("==", "<=", ">=")


class Constraint:
    """``Constraint(expression, op, strength="required")``: expression OP 0, like terms merged. Immutable;
    ``constraint | strength`` gives a new one."""
    __slots__ = ("_expression", "_op", "_strength", "__weakref__")

    def __init__(self, expression: Expression, op: str, strength: StrengthLike = "required") -> None:
        if not isinstance(expression, Expression):
            raise _type_error("Expression", expression)
        if not isinstance(op, str):
            raise _type_error("str", op)
        if op not in _OPS:
            raise ValueError("relational operator must be '==', '<=', or '>=', not '%s'" % op)
        terms = _reduce(expression._terms)
        self._expression = expression if terms is expression._terms else Expression._make(terms,
                                                                                          expression._constant)
        self._op = op
        self._strength = _strength(strength)

    @classmethod
    def _make(cls, expression: Expression, op: str, s: float) -> Constraint:
        c = cls.__new__(cls)
        terms = _reduce(expression._terms)
        c._expression = expression if terms is expression._terms else Expression._make(terms,
                                                                                      expression._constant)
        c._op = op
        c._strength = s
        return c

    def expression(self) -> Expression:
        """Get the expression object for the constraint."""
        return self._expression

    def op(self) -> str:
        """Get the relational operator for the constraint."""
        return self._op

    def strength(self) -> float:
        """Get the strength for the constraint."""
        return self._strength

    def violated(self) -> bool:
        """Whether the constraint is violated by the variables' current values."""
        v = self._expression.value()
        if self._op == "==":
            return not (-_EPS < v < _EPS)
        if self._op == "<=":
            return v > 0.0
        return v < 0.0

    def __or__(self, other: StrengthLike) -> Constraint:
        if not isinstance(other, str) and _num(other) is None:
            return NotImplemented
        c = Constraint.__new__(Constraint)
        c._expression = self._expression
        c._op = self._op
        c._strength = _strength(other)
        return c

    __ror__ = __or__

    def __repr__(self) -> str:
        return "%r %s 0 | strength = %g%s" % (self._expression, self._op, self._strength,
                                               " (VIOLATED)" if self.violated() else "")

    __str__ = __repr__


# ---------------------------------------------------------------------------------------------- solver


def _moa_name(name: str) -> str:
    return name.replace("\0", "\\0") if "\0" in name else name


class Solver:
    """kiwisolver's Solver on a moa.Solver. ``Solver(strength_mode=None)``: the keyword (not in kiwisolver)
    overrides the module's strength_mode for this solver."""
    __slots__ = ("_moa", "_vars", "_cons", "_edits", "_mode", "_bands", "_warned", "_readback", "__weakref__")

    def __init__(self, strength_mode: Optional[str] = None) -> None:
        mode = strength_mode or globals()["strength_mode"]
        if mode not in ("levels", "weighted"):
            raise ValueError("moa.kiwi: strength_mode must be 'levels' or 'weighted', not %r" % (mode,))
        self._moa = _MoaSolver()
        self._mode = mode
        self._vars: Dict[int, Tuple[Variable, Any]] = {}    # id(Variable) -> (Variable, moa.Variable); the Variable is kept alive (its id stays)
        self._cons: Dict[int, Tuple[Constraint, Any, Optional[int]]] = {}    # id(Constraint) -> (Constraint, moa.Constraint, band)
        self._edits: Dict[int, Tuple[Variable, Any, int, float]] = {}   # id(Variable) -> (Variable, moa.Constraint, band, strength)
        self._bands = [0, 0, 0, 0]  # live soft constraints and edits per band
        self._warned: Set[str] = set()
        # updateVariables' arrays, kept while no variable is added (_vars only grows until reset): (count,
        # Variables, ctypes ids, ctypes values), so a frame makes no list or array of its own.
        self._readback: Optional[Tuple[int, List[Variable], Any, Any]] = None

    @property
    def moa_solver(self) -> Any:
        """The underlying moa.Solver (not part of kiwisolver's API)."""
        return self._moa

    @property
    def strength_mode(self) -> str:
        """"levels" or "weighted" (not part of kiwisolver's API)."""
        return self._mode

    # -- plumbing

    def _moa_var(self, v: Variable) -> Any:
        e = self._vars.get(id(v))
        if e is None:
            e = self._vars[id(v)] = (v, self._moa.var(_moa_name(v._name)))
        return e[1]

    def _priority(self, s: float, what: str) -> Tuple[float, float, Optional[int]]:
        """Map a kiwi strength for adding `what`; warns (or raises) before anything is added."""
        prio, w, band, clamped = _map(s, self._mode)
        if band is None:
            return prio, w, band
        policy = strength_warning
        if policy != "ignore":
            msg = None
            if clamped and "clamp" not in self._warned:
                msg = ("moa.kiwi: strength %g of %s cannot be represented exactly: Moa weights are within [1e-6, "
                       "1e6] of a priority, so it is mapped to priority %g with weight %g (kiwisolver: %s)."
                       % (s, what, prio, w, "no effect at all" if s == 0 else "weight %g" % s))
                kind = "clamp"
            elif band < 3 and "levels" not in self._warned:
                others = [i for i in range(3) if i != band and self._bands[i]]
                if others:
                    o = others[0]
                    hi, lo = (band, o) if band < o else (o, band)
                    msg = ("moa.kiwi: this Solver now holds soft constraints of the %s and %s strength bands; "
                           "kiwisolver adds them into one weighted objective (%g : %g), so enough %s violations "
                           "outweigh a %s one, while Moa ranks them as strict priorities %g > %g: a %s "
                           "constraint is never given up for any number of %s ones, and results can differ "
                           "from kiwisolver's. Set moa.kiwi.strength_mode = 'weighted' for kiwisolver's "
                           "trade-off, or moa.kiwi.strength_warning = 'ignore' / 'error' (see moa.kiwi)."
                           % (_BANDS[hi][0], _BANDS[lo][0], _BANDS[hi][2], _BANDS[lo][2], _BANDS[lo][0],
                              _BANDS[hi][0], _BANDS[hi][1], _BANDS[lo][1], _BANDS[hi][0], _BANDS[lo][0]))
                    kind = "levels"
            if msg is not None:
                if policy == "error":
                    raise MoaKiwiWarning(msg)
                warnings.warn(msg, MoaKiwiWarning, stacklevel=3)
                self._warned.add(kind)
        return prio, w, band

    # -- constraints

    def addConstraint(self, constraint: Constraint) -> None:
        """Add a constraint to the solver."""
        if type(constraint) is not Constraint and not isinstance(constraint, Constraint):
            raise _type_error("Constraint", constraint)
        key = id(constraint)
        if key in self._cons:
            raise DuplicateConstraint(constraint)
        prio, w, band = self._priority(constraint._strength, "a constraint")
        expr = constraint._expression
        terms = []
        for t in expr._terms:
            if t._coefficient != 0.0:
                terms.append((self._moa_var(t._variable), t._coefficient))
        rel = _Relation(_MoaExpression(terms, expr._constant), constraint._op)
        try:
            mc = self._moa.add(rel, prio, w)
        except _ConflictError:
            raise UnsatisfiableConstraint(constraint) from None
        self._cons[key] = (constraint, mc, band)
        if band is not None:
            self._bands[band] += 1

    def removeConstraint(self, constraint: Constraint) -> None:
        """Remove a constraint from the solver."""
        if type(constraint) is not Constraint and not isinstance(constraint, Constraint):
            raise _type_error("Constraint", constraint)
        e = self._cons.pop(id(constraint), None)
        if e is None:
            raise UnknownConstraint(constraint)
        e[1].remove()
        if e[2] is not None:
            self._bands[e[2]] -= 1

    def hasConstraint(self, constraint: Constraint) -> bool:
        """Check whether the solver contains a constraint."""
        if type(constraint) is not Constraint and not isinstance(constraint, Constraint):
            raise _type_error("Constraint", constraint)
        return id(constraint) in self._cons

    # -- edit variables

    def addEditVariable(self, variable: Variable, strength: StrengthLike) -> None:
        """Add an edit variable to the solver (a required strength raises BadRequiredStrength)."""
        if not isinstance(variable, Variable):
            raise _type_error("Variable", variable)
        s = _strength(strength)
        key = id(variable)
        if key in self._edits:
            raise DuplicateEditVariable(variable)
        if s >= _REQUIRED:
            raise BadRequiredStrength("A required strength cannot be used in this context.")
        prio, w, band = self._priority(s, "an edit variable")
        assert band is not None  # s is below required
        mv = self._moa_var(variable)
        mc = self._moa.add(_Relation(_MoaExpression(((mv, 1.0),), 0.0), "=="), prio, w, "edit")
        self._edits[key] = (variable, mc, band, s)
        self._bands[band] += 1

    def removeEditVariable(self, variable: Variable) -> None:
        """Remove an edit variable from the solver."""
        if not isinstance(variable, Variable):
            raise _type_error("Variable", variable)
        e = self._edits.pop(id(variable), None)
        if e is None:
            raise UnknownEditVariable(variable)
        e[1].remove()
        self._bands[e[2]] -= 1

    def hasEditVariable(self, variable: Variable) -> bool:
        """Check whether the solver contains an edit variable."""
        if not isinstance(variable, Variable):
            raise _type_error("Variable", variable)
        return id(variable) in self._edits

    def suggestValue(self, variable: Variable, value: Number) -> None:
        """Suggest a desired value for an edit variable."""
        if not isinstance(variable, Variable):
            raise _type_error("Variable", variable)
        x = value if type(value) is float else _float_arg(value)
        e = self._edits.get(id(variable))
        if e is None:
            raise UnknownEditVariable(variable)
        e[1].set_constant(-x)

    # -- solving

    def updateVariables(self) -> None:
        """Update the values of the solver's variables (written into the Variable objects)."""
        self._moa.update()
        rb = self._readback
        if rb is None or rb[0] != len(self._vars):
            pairs = list(self._vars.values())
            n = len(pairs)
            ids = (ctypes.c_uint64 * n)(*[self._moa._var_id(mv) for _, mv in pairs])
            rb = self._readback = (n, [v for v, _ in pairs], ids, (ctypes.c_double * n)())
        _n, variables, ids, out = rb
        self._moa._values_into(ids, out)   # one C call for all
        for v, x in zip(variables, out):
            v._value = x

    def reset(self) -> None:
        """Reset the solver to the initial empty starting condition (variables keep their values)."""
        self._moa.reset()
        self._vars = {}
        self._readback = None
        self._cons = {}
        self._edits = {}
        self._bands = [0, 0, 0, 0]

    def dumps(self) -> str:
        """A text dump: the constraints and edit variables with their Moa priorities, then Moa's dump."""
        for v, mv in self._vars.values():
            n = _moa_name(v._name)
            if mv.name != n:
                mv.name = n
        out = ["moa.kiwi Solver (strength mode %s; Moa %s)" % (self._mode, _moa_version), ""]
        out += ["Constraints", "-----------"]
        for c, mc, _band in self._cons.values():
            out.append("%r  -> Moa priority %g weight %g" % (c, mc.priority, mc.weight))
        out += ["", "Edit Variables", "--------------"]
        for v, mc, _band, s in self._edits.values():
            out.append("%s | strength = %g -> Moa priority %g weight %g, suggested %g"
                       % (v._name, s, mc.priority, mc.weight, -mc.constant))
        out += ["", "Variables", "---------"]
        for v, _mv in self._vars.values():
            out.append("%s = %g" % (v._name, v._value))
        out += ["", "Moa solver", "----------", self._moa.dump()]
        return "\n".join(out) + "\n"

    def dump(self) -> None:
        """Print the dump (dumps()) to stdout."""
        sys.stdout.write(self.dumps())

    def __repr__(self) -> str:
        return "<moa.kiwi.Solver %d constraints, %d edit variables, %s>" % (len(self._cons), len(self._edits),
                                                                           self._mode)


# ---------------------------------------------------------------------------------------------- installing

exceptions = types.ModuleType("kiwisolver.exceptions", "moa.kiwi's exceptions, as kiwisolver.exceptions.")
for _cls in (BadRequiredStrength, DuplicateConstraint, DuplicateEditVariable, UnknownConstraint,
             UnknownEditVariable, UnsatisfiableConstraint):
    setattr(exceptions, _cls.__name__, _cls)
del _cls


def install() -> types.ModuleType:
    """Make ``import kiwisolver`` (and ``kiwisolver.exceptions``) give this module; returns it. Call it before
    the program (e.g. matplotlib) imports kiwisolver."""
    mod = sys.modules[__name__]
    sys.modules["kiwisolver"] = mod
    sys.modules["kiwisolver.exceptions"] = exceptions
    return mod
