"""The raw solver: variables, expressions, relations, constraints, priorities, edits, conflicts, ownership."""
import gc

import pytest

import moa


def test_readme_example():
    with moa.Solver() as s:
        x, y = s.var("x"), s.var("y")
        s.add(x + 10 <= y)
        s.add(x == 100, "weak")
        s.edit(y, "strong")
        s.suggest(y, 50)
        s.update()
        assert (x.value, y.value) == (40, 50)
        assert repr(s) == "<moa.Solver 2 variables, 2 constraints>"
        assert repr(x) == "<moa.Variable x = 40>"
    assert s.closed
    with pytest.raises(moa.ClosedError, match="closed solver"):
        x.value


def test_expressions_merge_terms_and_relations_have_no_truth_value():
    s = moa.Solver()
    x, y = s.var("x"), s.var("y")
    e = 2 * x + y - x + 3 - (y / 2) * 2
    assert [(v is x, c) for v, c in e.terms] == [(True, 1.0)]
    assert e.constant == 3
    r = x + 1 <= y
    assert isinstance(r, moa.Relation) and r.op == "<="
    assert x.le(y).op == "<=" and x.ge(1).op == ">=" and x.eq(y).op == "=="
    with pytest.raises(TypeError, match="no truth value"):
        bool(x == y)
    with pytest.raises(TypeError):
        x * y
    with pytest.raises(TypeError):
        x < y
    with pytest.raises(ZeroDivisionError):
        x / 0
    with pytest.raises(moa.InvalidError):
        x * float("nan")
    with pytest.raises(TypeError):
        x.eq("y")
    assert {x: 1}[x] == 1  # hashable by identity


def test_strict_priorities():
    s = moa.Solver()
    x = s.var("x")
    s.add(x == 10, "strong")
    for _ in range(50):  # any number of weaker wishes cannot outvote one stronger
        s.add(x == 0, "weak")
    s.update()
    assert x.value == 10


def test_constraint_properties_and_changes():
    s = moa.Solver()
    x, y = s.var("x"), s.var("y")
    c = s.add(x >= 10, "medium", weight=2, tag="floor")
    s.add(x == 0, "weak")
    s.update()
    assert x.value == 10
    assert (c.priority, c.weight, c.tag, c.active, c.constant) == (500, 2, "floor", True, -10)
    assert "floor" in str(c)
    c.constant = -20
    s.update()
    assert x.value == 20
    c.active = False
    s.update()
    assert x.value == 0
    c.set_active(True).set_priority("required").set_weight(3)
    assert (c.priority, c.weight) == (1000, 3)
    c.remove()
    assert c.removed
    with pytest.raises(moa.NotFoundError):
        c.constant
    with pytest.raises(moa.NotFoundError):
        s.remove(c)
    s.update()
    assert x.value == 0
    del y


def test_conflict_lists_the_constraints():
    s = moa.Solver()
    x = s.var("x")
    lo = s.add(x >= 10, tag="lo")
    with pytest.raises(moa.ConflictError) as ei:
        s.add(x <= 5, tag="hi")
    e = ei.value
    assert e.code == "UNSATISFIABLE" and e.status == 7
    assert [c.constraint for c in e.conflicts] == [lo]
    assert "lo" in e.conflicts[0].equation
    assert s.counts() == (1, 1)  # nothing added
    c = s.add(x <= 5, "weak")
    with pytest.raises(moa.ConflictError):
        c.priority = 1000
    assert c.priority == 250


def test_edit_variables():
    s = moa.Solver()
    x = s.var("x")
    with pytest.raises(moa.InvalidError):
        s.edit(x, "required")
    s.edit(x)
    assert s.has_edit(x)
    with pytest.raises(moa.DuplicateError):
        s.edit(x)
    s.suggest(x, 7).update()
    assert x.value == 7
    with pytest.raises(moa.InvalidError):
        s.suggest(x, float("inf"))
    s.unedit(x)
    with pytest.raises(moa.NotFoundError):
        s.suggest(x, 1)


def test_foreign_and_stale_variables():
    a, b = moa.Solver(), moa.Solver()
    x, y = a.var("x"), b.var("y")
    with pytest.raises(moa.InvalidError, match="another solver"):
        a.add(x == y)
    c = a.add(x == 1)
    a.reset()
    with pytest.raises(moa.NotFoundError):
        x.value
    with pytest.raises(moa.NotFoundError):
        c.constant
    assert c.removed
    with pytest.raises(TypeError):
        a.add("x == 1")


def test_collected_variables_are_freed_when_unused():
    s = moa.Solver()
    x = s.var("x")
    c = s.add(s.var("tmp") == x)  # the Variable object of tmp is gone at once
    gc.collect()
    assert s.counts() == (2, 1)  # still used by c
    c.remove()
    assert s.counts() == (1, 0)
    del x
    gc.collect()
    assert s.counts() == (0, 0)


def test_constraint_objects_are_unique_and_survive_collection():
    s = moa.Solver()
    x = s.var("x")
    s.add(x >= 3, tag="keep")
    gc.collect()
    s.update()
    assert x.value == 3
    assert "x" in s.dump()
