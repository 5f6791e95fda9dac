"""moa.kiwi: kiwisolver's API on Moa's solver.

Tests that state kiwisolver's documented behaviour run against both moa.kiwi and the real kiwisolver when it is
importable (parameter id "kiwisolver"; skipped otherwise), so the expectations are checked against the original.
Tests of what moa.kiwi does differently on purpose (strict priorities, the MoaKiwiWarning, Moa's number limits,
the dump text) run on moa.kiwi only.
"""
import contextlib
import gc
import math
import sys
import warnings

import pytest

import moa
import moa.kiwi as mk

try:
    import kiwisolver as _real
    if hasattr(_real, "__moa_version__"):  # moa.kiwi installed in its place: not the original
        _real = None
except ImportError:
    _real = None

BOTH = [pytest.param(mk, id="moa.kiwi"),
        pytest.param(_real, id="kiwisolver",
                     marks=pytest.mark.skipif(_real is None, reason="kiwisolver is not installed"))]


@pytest.fixture(params=BOTH)
def K(request):
    return request.param


@pytest.fixture(autouse=True)
def _defaults():
    """Every test starts from the module defaults (and restores them)."""
    saved = mk.strength_mode, mk.strength_warning
    yield
    mk.strength_mode, mk.strength_warning = saved


@contextlib.contextmanager
def quiet():
    """Mixing strength bands on purpose: no MoaKiwiWarning noise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mk.MoaKiwiWarning)
        yield


def names(expr):
    """The terms of an expression as {name: coefficient} (a reduced expression's order is kiwisolver's memory
    order, so only the set is compared)."""
    out = {}
    for t in expr.terms():
        out[t.variable().name()] = out.get(t.variable().name(), 0.0) + t.coefficient()
    return out


def listed(expr):
    """The terms in order, as [(name, coefficient)] (unreduced expressions keep kiwisolver's order)."""
    return [(t.variable().name(), t.coefficient()) for t in expr.terms()]


# ---------------------------------------------------------------------------------------------- Variable


def test_variable_name_value_context(K):
    x = K.Variable("x")
    assert x.name() == "x" and x.value() == 0.0 and x.context() is None
    assert K.Variable().name() == ""
    ctx = {"owner": 1}
    v = K.Variable("v", ctx)
    assert v.context() is ctx
    w = K.Variable(name="w", context=5)
    assert (w.name(), w.context()) == ("w", 5)
    x.setName("renamed")
    assert x.name() == "renamed" and str(x) == "renamed" and repr(x) == "renamed"
    x.setContext([1, 2])
    assert x.context() == [1, 2]
    with pytest.raises(TypeError):
        K.Variable(3)
    with pytest.raises(TypeError):
        x.setName(None)


def test_variables_are_unhashable(K):
    with pytest.raises(TypeError):
        hash(K.Variable("x"))
    with pytest.raises(TypeError):
        {K.Variable("x"): 1}


# ---------------------------------------------------------------------------------------------- operators


def test_variable_operators_give_terms_and_expressions(K):
    x, y = K.Variable("x"), K.Variable("y")
    for t, coef in ((2 * x, 2.0), (x * 2, 2.0), (x / 4, 0.25), (-x, -1.0), (x * True, 1.0)):
        assert type(t) is K.Term
        assert t.variable() is x and t.coefficient() == coef
    e = x + y
    assert type(e) is K.Expression and listed(e) == [("x", 1.0), ("y", 1.0)] and e.constant() == 0.0
    assert listed(x - y) == [("x", 1.0), ("y", -1.0)]
    assert listed(x + 2.5) == [("x", 1.0)] and (x + 2.5).constant() == 2.5
    assert listed(2.5 + x) == [("x", 1.0)] and (2.5 + x).constant() == 2.5
    assert listed(4 - x) == [("x", -1.0)] and (4 - x).constant() == 4.0
    assert (x - 4).constant() == -4.0


def test_term_and_expression_operators_keep_kiwisolvers_term_order(K):
    x, y, z = K.Variable("x"), K.Variable("y"), K.Variable("z")
    t = K.Term(x, 2)
    e = K.Expression([K.Term(z, 2), K.Term(y, 5)], 7)
    assert listed(t + y) == [("x", 2.0), ("y", 1.0)]
    assert listed(y + t) == [("y", 1.0), ("x", 2.0)]
    assert listed(t + t) == [("x", 2.0), ("x", 2.0)]  # not merged
    assert listed(y + e) == [("z", 2.0), ("y", 5.0), ("y", 1.0)] and (y + e).constant() == 7
    assert listed(e + y) == [("z", 2.0), ("y", 5.0), ("y", 1.0)]
    assert listed(y - e) == [("z", -2.0), ("y", -5.0), ("y", 1.0)] and (y - e).constant() == -7
    assert listed(e - t) == [("z", 2.0), ("y", 5.0), ("x", -2.0)]
    assert listed(t - e) == [("z", -2.0), ("y", -5.0), ("x", 2.0)]
    assert listed(e + e) == [("z", 2.0), ("y", 5.0)] * 2 and (e + e).constant() == 14
    assert listed(e * 2) == [("z", 4.0), ("y", 10.0)] and (2 * e).constant() == 14
    assert listed(e / 2) == [("z", 1.0), ("y", 2.5)] and (e / 2).constant() == 3.5
    assert listed(-e) == [("z", -2.0), ("y", -5.0)] and (-e).constant() == -7
    assert type(t * 3) is K.Term and (t * 3).coefficient() == 6.0 and (t / 4).coefficient() == 0.5
    assert type(-t) is K.Term and (-t).coefficient() == -2.0
    assert (1 - e).constant() == -6 and listed(1 - e) == [("z", -2.0), ("y", -5.0)]


def test_reprs_are_kiwisolvers(K):
    x, y = K.Variable("x"), K.Variable("y")
    assert repr(K.Term(x, 2)) == "2 * x"
    assert repr(x + 1.5) == "1 * x + 1.5"
    assert repr(x + y) == "1 * x + 1 * y + 0"
    assert repr(K.Expression([])) == "0"
    assert repr(-(x + y)) == "-1 * x + -1 * y + -0"
    assert repr(x >= 5) == "1 * x + -5 >= 0 | strength = 1.001e+09 (VIOLATED)"
    assert repr((x <= 5) | "weak") == "1 * x + -5 <= 0 | strength = 1"


def test_operators_kiwisolver_refuses(K):
    x, y = K.Variable("x"), K.Variable("y")
    for bad in (lambda: x * y, lambda: (x + 1) * (y + 1), lambda: K.Term(x) * y, lambda: x / y, lambda: 2 / x,
                lambda: x != y, lambda: x != 1, lambda: x < 1, lambda: x > y, lambda: (x + 1) < y,
                lambda: x + "a", lambda: x - None, lambda: x <= "a", lambda: abs(x), lambda: +x, lambda: float(x)):
        with pytest.raises(TypeError):
            bad()
    with pytest.raises(ZeroDivisionError):
        x / 0
    with pytest.raises(ZeroDivisionError):
        (x + 1) / 0.0
    assert (x == "a") is False and (x == None) is False  # noqa: E711 (no relation: identity comparison)


def test_term_and_expression_constructors(K):
    x = K.Variable("x")
    t = K.Term(x)
    assert t.coefficient() == 1.0 and t.variable() is x
    assert K.Term(x, 3).coefficient() == 3.0
    e = K.Expression([K.Term(x, 2), K.Term(x)], 3)
    assert listed(e) == [("x", 2.0), ("x", 1.0)] and e.constant() == 3.0
    assert K.Expression([t]).constant() == 0.0
    assert isinstance(e.terms(), tuple)
    with pytest.raises(TypeError):
        K.Expression([x])
    with pytest.raises(TypeError):
        K.Term(x, "2")
    with pytest.raises(TypeError):
        K.Term(3)


def test_values_of_terms_and_expressions(K):
    x, y = K.Variable("x"), K.Variable("y")
    s = K.Solver()
    s.addConstraint(x == 5)
    s.addConstraint(y == 2 * x)
    s.updateVariables()
    assert (x.value(), y.value()) == (5.0, 10.0)
    assert K.Term(x, 3).value() == 15.0
    assert (x + y + 1).value() == 16.0
    assert (2 * x - y / 2).value() == 5.0
    assert K.Expression([], 4).value() == 4.0


# ---------------------------------------------------------------------------------------------- Constraint


def test_comparisons_build_constraints(K):
    x, y = K.Variable("x"), K.Variable("y")
    c = x + 2 <= y
    assert type(c) is K.Constraint and c.op() == "<=" and c.strength() == K.strength.required
    assert names(c.expression()) == {"x": 1.0, "y": -1.0} and c.expression().constant() == 2.0
    assert (x == 1).op() == "==" and (x >= y).op() == ">="
    r = 5 <= x  # reflected: x >= 5
    assert r.op() == ">=" and names(r.expression()) == {"x": 1.0} and r.expression().constant() == -5.0
    r = 5 >= 2 * x
    assert r.op() == "<=" and names(r.expression()) == {"x": 2.0}
    r = 3 == x + 1
    assert r.op() == "==" and r.expression().constant() == -2.0


def test_constraint_expression_is_reduced(K):
    x, y = K.Variable("x"), K.Variable("y")
    c = x + x + y - y + 1 == 0
    assert names(c.expression()) == {"x": 2.0, "y": 0.0}  # like terms merged; a zero coefficient is kept
    assert len(c.expression().terms()) == 2
    c = K.Constraint(K.Expression([K.Term(x), K.Term(x, 2)], 1), "==")
    assert names(c.expression()) == {"x": 3.0} and c.expression().constant() == 1.0
    assert (x == x).expression().terms()[0].coefficient() == 0.0


def test_constraint_constructor(K):
    x = K.Variable("x")
    c = K.Constraint(x + 1, ">=")
    assert c.op() == ">=" and c.strength() == K.strength.required
    assert K.Constraint(x + 1, "<=", 5).strength() == 5.0
    assert K.Constraint(x + 1, "==", "weak").strength() == 1.0
    assert K.Constraint(x + 1, "==", -3).strength() == 0.0
    assert K.Constraint(x + 1, "==", 1e12).strength() == K.strength.required
    with pytest.raises(ValueError):
        K.Constraint(x + 1, "!=")
    with pytest.raises(ValueError):
        K.Constraint(x + 1, "==", "foo")
    with pytest.raises(TypeError):
        K.Constraint(x, "==")  # a Variable is not an Expression
    with pytest.raises(TypeError):
        K.Constraint(x + 1)


def test_constraint_or_strength(K):
    x = K.Variable("x")
    c = x == 1
    s = c | "strong"
    assert s is not c and s.strength() == 1e6 and c.strength() == K.strength.required
    assert s.op() == "==" and names(s.expression()) == {"x": 1.0}
    assert ("weak" | c).strength() == 1.0
    assert (c | "medium").strength() == 1e3
    assert (c | 5).strength() == 5.0
    assert (c | 2.5e9).strength() == K.strength.required  # clipped
    assert (c | -1).strength() == 0.0
    assert (c | K.strength.create(1, 2, 3)).strength() == 1002003.0
    with pytest.raises(ValueError):
        c | "foo"
    with pytest.raises(TypeError):
        c | None


def test_violated(K):
    x = K.Variable("x")
    c = x == 2
    assert c.violated()  # x is 0
    s = K.Solver()
    s.addConstraint(c)
    s.updateVariables()
    assert not c.violated()
    assert "(VIOLATED)" not in repr(c)
    assert (x <= 1).violated() and not (x >= 1).violated() and not (x <= 2).violated()
    assert not (x == 2 + 1e-10).violated()
    with quiet():
        soft = (x == 10) | "weak"
        s.addConstraint(soft)
        s.updateVariables()
    assert soft.violated() and x.value() == 2.0


# ---------------------------------------------------------------------------------------------- strength


def test_strength_values_and_create(K):
    st = K.strength
    assert (st.required, st.strong, st.medium, st.weak) == (1001001000.0, 1e6, 1e3, 1.0)
    assert st.create(1, 2, 3) == 1002003.0
    assert st.create(1, 2, 3, 2) == 2004006.0
    assert st.create(1, 0, 0, 0.5) == 500000.0
    assert st.create(2000, 0, 0) == 1e9  # each part clipped to [0, 1000]
    assert st.create(1000, 0, 0, 2) == 1e9
    assert st.create(-1, 0, 0) == 0.0
    assert st.create(1000, 1000, 1000) == st.required
    with pytest.raises(TypeError):
        st.create(1, 2)
    with pytest.raises(TypeError):
        st.create("a", 0, 0)
    with pytest.raises(TypeError):
        st.create(1, 0, 0, w=2)  # positional only, as kiwisolver


# ---------------------------------------------------------------------------------------------- Solver


def test_add_update_has_remove(K):
    x, y = K.Variable("x"), K.Variable("y")
    s = K.Solver()
    c1, c2 = x + 10 <= y, (x == 100) | "weak"
    s.addConstraint(c1)
    s.addConstraint(c2)
    with quiet():
        s.addEditVariable(y, "strong")
    s.suggestValue(y, 50)
    s.updateVariables()
    assert (x.value(), y.value()) == (40.0, 50.0)
    assert s.hasConstraint(c1) and s.hasConstraint(c2)
    assert not s.hasConstraint(c1 | "strong")  # a new constraint
    s.removeConstraint(c1)
    assert not s.hasConstraint(c1)
    s.updateVariables()
    assert (x.value(), y.value()) == (100.0, 50.0)
    with pytest.raises(TypeError):
        s.addConstraint(x + 1)
    with pytest.raises(TypeError):
        s.hasConstraint(x)


def test_duplicate_and_unknown_constraint(K):
    x = K.Variable("x")
    s = K.Solver()
    c = x >= 1
    s.addConstraint(c)
    with pytest.raises(K.DuplicateConstraint) as info:
        s.addConstraint(c)
    assert info.value.constraint is c and info.value.args == (c,)
    other = x >= 1  # equal but not the same constraint: allowed
    s.addConstraint(other)
    assert s.hasConstraint(other)
    s.removeConstraint(c)
    with pytest.raises(K.UnknownConstraint) as info:
        s.removeConstraint(c)
    assert info.value.constraint is c and info.value.args == (c,)
    with pytest.raises(K.UnknownConstraint):
        K.Solver().removeConstraint(x <= 3)


def test_unsatisfiable_constraint_is_not_added(K):
    x = K.Variable("x")
    s = K.Solver()
    s.addConstraint(x == 3)
    bad = x == 4
    with pytest.raises(K.UnsatisfiableConstraint) as info:
        s.addConstraint(bad)
    assert info.value.constraint is bad and info.value.args == (bad,)
    assert not s.hasConstraint(bad)
    with pytest.raises(K.UnsatisfiableConstraint):
        s.addConstraint(K.Constraint(K.Expression([], 5), "=="))
    s.addConstraint((x == 4) | "strong")  # soft: fine
    s.updateVariables()
    assert x.value() == 3.0


def test_edit_variables(K):
    x, y = K.Variable("x"), K.Variable("y")
    s = K.Solver()
    s.addConstraint(x == y + 5)
    s.addEditVariable(y, "strong")
    assert s.hasEditVariable(y) and not s.hasEditVariable(x)
    s.updateVariables()
    assert y.value() == 0.0 and x.value() == 5.0  # before any suggestion an edit variable holds 0
    s.suggestValue(y, 20)
    s.updateVariables()
    assert (x.value(), y.value()) == (25.0, 20.0)
    s.suggestValue(y, -3.5)
    s.updateVariables()
    assert (x.value(), y.value()) == (1.5, -3.5)
    with pytest.raises(K.DuplicateEditVariable) as info:
        s.addEditVariable(y, "medium")
    assert info.value.edit_variable is y and info.value.args == (y,)
    with pytest.raises(K.UnknownEditVariable) as info:
        s.suggestValue(x, 1)
    assert info.value.edit_variable is x and info.value.args == (x,)
    with pytest.raises(K.UnknownEditVariable) as info:
        s.removeEditVariable(x)
    assert info.value.edit_variable is x
    s.removeEditVariable(y)
    assert not s.hasEditVariable(y)
    with pytest.raises(K.UnknownEditVariable):
        s.suggestValue(y, 1)
    s.addEditVariable(y, K.strength.weak)  # again, now weak
    s.suggestValue(y, 7)
    s.updateVariables()
    assert (x.value(), y.value()) == (12.0, 7.0)
    with pytest.raises(TypeError):
        s.suggestValue(y, "7")
    with pytest.raises(TypeError):
        s.hasEditVariable(3)
    with pytest.raises(ValueError):
        s.addEditVariable(x, "bad")


def test_required_edit_variable_is_bad_required_strength(K):
    x = K.Variable("x")
    s = K.Solver()
    for st in ("required", K.strength.required, 2e9, K.strength.create(1000, 1000, 1000)):
        with pytest.raises(K.BadRequiredStrength) as info:
            s.addEditVariable(x, st)
        assert info.value.args == ("A required strength cannot be used in this context.",)
        assert not s.hasEditVariable(x)


def test_edit_against_a_soft_constraint_in_one_band_adds_by_weight(K):
    # Same band (strong): kiwisolver and moa.kiwi both compare 1e6 * |error| with 2e6 * |error| or 5e5 * |error|.
    x = K.Variable("x")
    s = K.Solver()
    s.addEditVariable(x, "strong")
    s.suggestValue(x, 0)
    c = (x == 10) | K.strength.create(2, 0, 0)
    s.addConstraint(c)
    s.updateVariables()
    assert x.value() == 10.0
    s.removeConstraint(c)
    s.addConstraint((x == 10) | K.strength.create(0.5, 0, 0))
    s.updateVariables()
    assert x.value() == 0.0


def test_constraints_in_one_band_add_up_by_weight(K):
    # Three weak pulls to 0 against one at 10 with strength 2.5 (weak band): 3 * 1 > 2.5, so 0; then 3 > 4 no.
    x = K.Variable("x")
    s = K.Solver()
    for _ in range(3):
        s.addConstraint((x == 0) | "weak")
    c = (x == 10) | 2.5
    s.addConstraint(c)
    s.updateVariables()
    assert x.value() == 0.0
    s.removeConstraint(c)
    s.addConstraint((x == 10) | 4)
    s.updateVariables()
    assert x.value() == 10.0


def test_reset_keeps_values(K):
    x = K.Variable("x")
    s = K.Solver()
    c = x == 3
    s.addConstraint(c)
    s.addEditVariable(K.Variable("e"), "weak")
    s.updateVariables()
    s.reset()
    assert not s.hasConstraint(c)
    assert x.value() == 3.0
    s.addConstraint(c)  # the same constraint again, after reset
    s.addConstraint((x == 1) | "weak")
    s.updateVariables()
    assert x.value() == 3.0
    s.reset()
    s.addConstraint(x == 8)
    s.updateVariables()
    assert x.value() == 8.0


def test_value_of_a_variable_whose_constraints_were_removed_is_zero(K):
    x = K.Variable("x")
    s = K.Solver()
    c = x == 4
    s.addConstraint(c)
    s.updateVariables()
    assert x.value() == 4.0
    s.removeConstraint(c)
    s.updateVariables()
    assert x.value() == 0.0
    s.addEditVariable(x, "strong")
    s.suggestValue(x, 3)
    s.updateVariables()
    assert x.value() == 3.0
    s.removeEditVariable(x)
    s.updateVariables()
    assert x.value() == 0.0


def test_variables_shared_between_solvers_keep_their_last_value(K):
    x, y = K.Variable("x"), K.Variable("y")
    s1, s2 = K.Solver(), K.Solver()
    s1.addConstraint(x == 1)
    s1.addConstraint(y == x + 1)
    s2.addConstraint(x == 7)
    s1.updateVariables()
    assert (x.value(), y.value()) == (1.0, 2.0)
    s2.updateVariables()
    assert (x.value(), y.value()) == (7.0, 2.0)  # s2 does not know y
    s1.updateVariables()
    assert x.value() == 1.0
    del s1, s2
    gc.collect()
    assert (x.value(), y.value()) == (1.0, 2.0)  # free-standing: the last value stays
    s3 = K.Solver()
    s3.addConstraint(y == 2 * x + 0.5)
    s3.addConstraint(x == 10)
    s3.updateVariables()
    assert (x.value(), y.value()) == (10.0, 20.5)


def test_same_constraint_in_two_solvers(K):
    x = K.Variable("x")
    c = x == 5
    s1, s2 = K.Solver(), K.Solver()
    s1.addConstraint(c)
    s2.addConstraint(c)
    s1.removeConstraint(c)
    assert s2.hasConstraint(c) and not s1.hasConstraint(c)
    s2.updateVariables()
    assert x.value() == 5.0


def test_dumps_and_dump(K, capfd):
    x = K.Variable("xvar")
    s = K.Solver()
    s.addConstraint(x >= 2)
    s.addEditVariable(x, "strong")
    s.suggestValue(x, 4)
    s.updateVariables()
    text = s.dumps()
    assert isinstance(text, str) and "xvar" in text and "Constraints" in text and "Edit Variables" in text
    s.dump()
    assert "xvar" in capfd.readouterr().out  # kiwisolver writes to the C-level stdout


def test_numbers_of_other_types(K):
    np = pytest.importorskip("numpy")
    x = K.Variable("x")
    for n in (np.float64(2), np.int64(2), np.float32(2)):
        assert (x * n).coefficient() == 2.0 and (n * x).coefficient() == 2.0
        assert (x + n).constant() == 2.0 and (n + x).constant() == 2.0
        assert (x == n).expression().constant() == -2.0
    s = K.Solver()
    s.addEditVariable(x, "strong")
    s.suggestValue(x, np.float64(3))
    s.updateVariables()
    assert x.value() == 3.0


def test_exception_classes(K):
    for name, attr in (("DuplicateConstraint", "constraint"), ("UnknownConstraint", "constraint"),
                       ("UnsatisfiableConstraint", "constraint"), ("DuplicateEditVariable", "edit_variable"),
                       ("UnknownEditVariable", "edit_variable")):
        cls = getattr(K, name)
        assert issubclass(cls, Exception)
        e = cls("payload")
        assert getattr(e, attr) == "payload" and e.args == ("payload",)
    assert issubclass(K.BadRequiredStrength, Exception)
    for name in ("Variable", "Term", "Expression", "Constraint", "Solver", "strength", "__version__",
                 "__kiwi_version__", "BadRequiredStrength"):
        assert hasattr(K, name)


# ---------------------------------------------------------------------------------------------- strength semantics


def test_kiwisolver_trades_bands_moa_kiwi_keeps_them_strict(K):
    # One strong constraint x == 0 against one weak one whose error is 2e6 times larger per unit of x: kiwisolver
    # minimises 1e6*|x| + 1*|2e6*x - 2e7| and gives x = 10; Moa keeps the strong one (x = 0) and says so.
    x = K.Variable("x")
    s = K.Solver()
    s.addConstraint((x == 0) | "strong")
    if K is mk:
        with pytest.warns(mk.MoaKiwiWarning, match="strong and weak"):
            s.addConstraint((2e6 * x == 2e7) | "weak")
    else:
        s.addConstraint((2e6 * x == 2e7) | "weak")
    s.updateVariables()
    assert x.value() == (0.0 if K is mk else 10.0)


def test_weighted_mode_reproduces_kiwisolvers_trade_off():
    for how in ("module", "keyword"):
        if how == "module":
            mk.strength_mode = "weighted"
            s = mk.Solver()
            mk.strength_mode = "levels"
        else:
            s = mk.Solver(strength_mode="weighted")
        assert s.strength_mode == "weighted"
        x = mk.Variable("x")
        with warnings.catch_warnings():
            warnings.simplefilter("error", mk.MoaKiwiWarning)  # no band warning in weighted mode
            s.addConstraint((x == 0) | "strong")
            s.addConstraint((2e6 * x == 2e7) | "weak")
        s.updateVariables()
        assert x.value() == 10.0
    with pytest.raises(ValueError):
        mk.Solver(strength_mode="strict")


def test_warning_once_per_solver_and_not_within_a_band():
    x, y = mk.Variable("x"), mk.Variable("y")
    s = mk.Solver()
    with warnings.catch_warnings():
        warnings.simplefilter("error", mk.MoaKiwiWarning)
        s.addConstraint((x == 1) | "strong")
        s.addConstraint((x == 2) | mk.strength.create(3, 0, 0))  # still the strong band
        s.addEditVariable(y, mk.strength.create(0.2, 0, 0))      # 2e5: strong band too
        s.addConstraint(x + y == 3)                                 # required
    with pytest.warns(mk.MoaKiwiWarning) as rec:
        s.addConstraint((y == 0) | "medium")
    assert len(rec) == 1 and "strong and medium" in str(rec[0].message) and "750 > 500" in str(rec[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", mk.MoaKiwiWarning)
        s.addConstraint((y == 1) | "weak")  # once per solver
    s2 = mk.Solver()
    s2.addConstraint((x == 1) | "weak")
    with pytest.warns(mk.MoaKiwiWarning, match="medium and weak"):
        s2.addEditVariable(y, "medium")


def test_no_warning_once_the_other_band_is_gone():
    x = mk.Variable("x")
    s = mk.Solver()
    c = (x == 1) | "weak"
    s.addConstraint(c)
    s.removeConstraint(c)
    with warnings.catch_warnings():
        warnings.simplefilter("error", mk.MoaKiwiWarning)
        s.addConstraint((x == 1) | "strong")


def test_warning_switch_ignore_and_error():
    x = mk.Variable("x")
    mk.strength_warning = "ignore"
    s = mk.Solver()
    with warnings.catch_warnings():
        warnings.simplefilter("error", mk.MoaKiwiWarning)
        s.addConstraint((x == 1) | "strong")
        s.addConstraint((x == 2) | "weak")
    mk.strength_warning = "error"
    s = mk.Solver()
    s.addConstraint((x == 1) | "strong")
    c = (x == 2) | "medium"
    with pytest.raises(mk.MoaKiwiWarning):
        s.addConstraint(c)
    assert not s.hasConstraint(c)  # nothing added
    with pytest.raises(mk.MoaKiwiWarning):
        s.addEditVariable(x, "weak")
    assert not s.hasEditVariable(x)
    s.addConstraint((x == 3) | "strong")  # the same band is fine
    s.updateVariables()
    assert 1.0 <= x.value() <= 3.0  # two equal strong pulls: any point between is optimal


def test_clamped_weight_warns():
    x = mk.Variable("x")
    s = mk.Solver()
    with pytest.warns(mk.MoaKiwiWarning, match="cannot be represented exactly"):
        s.addConstraint((x == 5) | 0)  # kiwisolver: no effect; Moa: the faintest weight
    s.updateVariables()
    assert x.value() == 5.0


def test_strength_mapping():
    assert mk.moa_priority("required") == (1000.0, 1.0)
    assert mk.moa_priority("strong") == (750.0, 1.0)
    assert mk.moa_priority("medium") == (500.0, 1.0)
    assert mk.moa_priority("weak") == (250.0, 1.0)
    assert mk.moa_priority(mk.strength.create(2, 0, 0)) == (750.0, 2.0)
    assert mk.moa_priority(mk.strength.create(0, 100, 0)) == (750.0, 0.1)   # 1e5: nearer strong than medium
    assert mk.moa_priority(mk.strength.create(0, 1, 0, 1.25)) == (500.0, 1.25)
    assert mk.moa_priority(mk.strength.create(0, 0, 5)) == (250.0, 5.0)
    assert mk.moa_priority(0.25) == (250.0, 0.25)
    assert mk.moa_priority(10 ** 4.4) == (500.0, pytest.approx(10 ** 1.4))
    assert mk.moa_priority(10 ** 4.6) == (750.0, pytest.approx(10 ** -1.4))
    assert mk.moa_priority("strong", "weighted") == (500.0, 1000.0)
    assert mk.moa_priority("weak", "weighted") == (500.0, 1e-3)
    x = mk.Variable("x")
    s = mk.Solver()
    with quiet():
        c = (x == 1) | mk.strength.create(0, 1, 0, 1.25)
        s.addConstraint(c)
    assert "Moa priority 500 weight 1.25" in s.dumps()
    assert (s.moa_solver.counts()[1]) == 1


# ---------------------------------------------------------------------------------------------- Moa's limits


def test_numbers_moa_refuses_raise_value_error_and_add_nothing():
    x = mk.Variable("x")
    s = mk.Solver()
    c = 1e13 * x == 1
    with pytest.raises(ValueError):
        s.addConstraint(c)
    assert not s.hasConstraint(c)
    s.addEditVariable(x, "strong")
    with pytest.raises(ValueError):
        s.suggestValue(x, float("nan"))
    with pytest.raises(ValueError):
        s.addConstraint((x == 1) | float("nan"))


def test_dumps_shows_the_mapping_and_moas_dump():
    x = mk.Variable("xvar")
    s = mk.Solver()
    s.addConstraint((x >= 2) | "strong")
    x.setName("renamed")
    text = s.dumps()
    assert "strength = 1e+06 (VIOLATED)  -> Moa priority 750 weight 1" in text
    assert "Moa solver" in text and "renamed" in text.split("Moa solver")[1]  # names refreshed for Moa's dump
    assert "strength mode levels" in text


def test_install_replaces_kiwisolver():
    saved = {k: sys.modules.get(k) for k in ("kiwisolver", "kiwisolver.exceptions")}
    try:
        assert mk.install() is mk
        import kiwisolver
        from kiwisolver.exceptions import UnknownConstraint
        assert kiwisolver is mk and UnknownConstraint is mk.UnknownConstraint
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def test_version_passes_version_checks():
    major, minor = (int(p) for p in mk.__version__.split(".")[:2])
    assert (major, minor) >= (1, 3)
    assert mk.__version__.endswith("+moa." + moa.version)


def test_many_constraints_and_edits_match_a_hand_solution():
    # A row of n boxes between 0 and an edited right edge: equal widths (required), so width = right / n.
    n = 50
    lefts = [mk.Variable("l%d" % i) for i in range(n)]
    widths = [mk.Variable("w%d" % i) for i in range(n)]
    right = mk.Variable("right")
    s = mk.Solver()
    s.addConstraint(lefts[0] == 0)
    for i in range(1, n):
        s.addConstraint(lefts[i] == lefts[i - 1] + widths[i - 1])
        s.addConstraint(widths[i] == widths[0])
    s.addConstraint(lefts[-1] + widths[-1] == right)
    s.addEditVariable(right, "strong")
    for r in (100.0, 250.0, 1000.0):
        s.suggestValue(right, r)
        s.updateVariables()
        assert all(math.isclose(w.value(), r / n) for w in widths)
        assert math.isclose(lefts[-1].value(), r - r / n)


def test_update_reads_every_variable_as_variables_join_frame_by_frame(K):
    # moa.kiwi keeps updateVariables' arrays while no variable joins: each frame here adds a variable (or
    # not), moves an edit, and every variable's value must follow, across a reset too.
    s = K.Solver()
    left = K.Variable("left")
    s.addEditVariable(left, "strong")
    chain = [left]
    for frame in range(40):
        if frame % 3 == 0:  # a new variable joins: the next link of the chain
            v = K.Variable("v%d" % frame)
            s.addConstraint(v == chain[-1] + 10)
            chain.append(v)
        s.suggestValue(left, frame * 2)
        s.updateVariables()
        for i, v in enumerate(chain):
            assert v.value() == frame * 2 + 10 * i, (frame, i)
    s.reset()
    w = K.Variable("w")
    s.addConstraint(w == 5)
    s.updateVariables()
    assert w.value() == 5.0
    s.addConstraint(left == w + 1)
    s.updateVariables()
    assert (left.value(), w.value()) == (6.0, 5.0)
