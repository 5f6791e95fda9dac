"""Solver.add_many (moa_solver_add_many, moa_solver_batch_conflicts): many constraints in one call, all or nothing;
the tableau independent of the order of the items and of their variables; failures as add()'s, with the item."""
import random

import pytest

import moa

N = 2000


def chain(n, shuffled, batch):
    """A solver holding x[0] == 0 and x[i+1] == x[i] + 10: the variables made and the constraints listed in order,
    or both in the orders of random.Random(7); added by one add_many or by add() one at a time. (solver, x)."""
    rng = random.Random(7)
    s = moa.Solver()
    made = list(range(n))
    if shuffled:
        rng.shuffle(made)
    x = [None] * n
    for i in made:
        x[i] = s.var("x%d" % i)
    rels = [x[0] == 0] + [x[i + 1] == x[i] + 10 for i in range(n - 1)]
    if shuffled:
        rng.shuffle(rels)
    if batch:
        cs = s.add_many(rels)
        assert len(cs) == n and all(isinstance(c, moa.Constraint) for c in cs)
    else:
        for r in rels:
            s.add(r)
    return s, x


def test_a_shuffled_chain_in_one_batch_builds_the_ordered_tableau():
    ordered, xo = chain(N, shuffled=False, batch=False)
    batched, xb = chain(N, shuffled=True, batch=True)
    one_by_one, xs = chain(N, shuffled=True, batch=False)
    want = [10.0 * i for i in range(N)]
    for s, x in ((ordered, xo), (batched, xb), (one_by_one, xs)):
        s.update()
        assert s.values(x) == want
        assert s.counts() == (N, N)
    cells = {name: s.usage().cells for name, s in (("ordered", ordered), ("batched", batched),
                                                   ("one_by_one", one_by_one))}
    # Seen: ordered 3999, batched 3999, shuffled one at a time 320,659 cells.
    assert cells["batched"] <= 1.1 * cells["ordered"], cells
    assert cells["one_by_one"] > 3 * cells["ordered"], cells


def test_priority_weight_and_tag_are_carried_through():
    with moa.Solver() as s:
        x, y, z = s.var("x"), s.var("y"), s.var("z")
        cs = s.add_many([
            x >= 0,
            (x + 10 <= y, "strong"),
            (y == 100, "weak", 2, "goal"),
            (z == 7, 123.5),
            (z == 1, "medium", 0.5),
            (x <= 1000,),
        ])
        got = [(c.priority, c.weight, c.tag) for c in cs]
        assert got == [(1000, 1, ""), (750, 1, ""), (250, 2, "goal"), (123.5, 1, ""), (500, 0.5, ""), (1000, 1, "")]
        assert all(c.active and not c.removed for c in cs)
        assert "goal" in str(cs[2]) and cs[2].constant == -100
        s.update()
        assert (x.value, y.value, z.value) == (90, 100, 1)
        # The objects returned are the solver's: a later conflict names the same ones.
        with pytest.raises(moa.ConflictError) as ei:
            s.add(x <= -1)
        assert [c.constraint for c in ei.value.conflicts] == [cs[0]]
        assert ei.value.conflicts[0].constraint is cs[0]
        # add() keeps its own errors: no index, no batch conflicts.
        assert ei.value.index is None and ei.value.batch_conflicts == []


def test_a_conflict_names_the_item_the_batch_items_and_the_constraints_there():
    with moa.Solver() as s:
        x, y, z = s.var("x"), s.var("y"), s.var("z")
        lo = s.add(x >= 10, tag="lo")
        counts, usage, dump = s.counts(), s.usage(), s.dump()
        with pytest.raises(moa.ConflictError) as ei:
            s.add_many([y == x, z == y, z <= 5])
        e = ei.value
        assert e.code == "UNSATISFIABLE" and e.kind == "unsatisfiable"
        assert e.index == 2
        assert e.batch_conflicts == [0, 1]
        assert [c.constraint for c in e.conflicts] == [lo] and e.conflicts[0].constraint is lo
        assert "lo" in e.conflicts[0].equation and "item 2" in str(e)
        assert (s.counts(), s.usage(), s.dump()) == (counts, usage, dump)  # nothing added
        c = s.add(z == 1)
        s.update()
        assert (x.value, z.value) == (10, 1) and c.priority == 1000
        # A conflict inside the batch alone: the earlier items are named, no constraint that was there.
        with pytest.raises(moa.ConflictError) as ei:
            s.add_many([y >= 3, (y == 0, "weak"), y <= 2])
        assert (ei.value.index, ei.value.batch_conflicts, ei.value.conflicts) == (2, [0], [])
        assert s.counts() == (3, 2)


def test_argument_errors_name_the_item_and_add_nothing():
    a, b = moa.Solver(), moa.Solver()
    x, y = a.var("x"), a.var("y")
    other = b.var("other")
    good = x + 1 <= y
    cases = [
        ([good, "x == 1"], TypeError, 1, "expected a moa.Relation"),
        ([good, good, 5], TypeError, 2, "got int"),
        ([good, (x == 1, "strong", 1, "t", "extra")], TypeError, 1, "a tuple of 5"),
        ([good, ()], TypeError, 1, "a tuple of 0"),
        ([good, ("x == 1", "strong")], TypeError, 1, "first element is str"),
        ([good, x == other], moa.InvalidError, 1, "another solver"),
        ([good, (x == 1, "weak", 0)], moa.InvalidError, 1, "weight must be in"),
        ([(x == 1, "weak", 1e7), good], moa.InvalidError, 0, "weight must be in"),
        ([good, (x == 1, "weak", float("nan"))], moa.InvalidError, 1, "weight must be finite"),
        ([good, (x == 1, "weak", "heavy")], TypeError, 1, "weight must be a number"),
        ([good, (x == 1, "bogus")], moa.InvalidError, 1, "unknown priority name"),
        ([good, (x == 1, 1001)], moa.InvalidError, 1, r"priority must be in \(0, 1000\]"),
        ([good, (x == 1, "weak", 1, "a\0b")], moa.InvalidError, 1, "NUL"),
        ([good, (x == 1, "weak", 1, 3)], TypeError, 1, "tag must be a str"),
    ]
    for items, cls, index, words in cases:
        before = a.counts(), a.usage(), a.dump()
        with pytest.raises(cls, match=words) as ei:
            a.add_many(items)
        assert ei.value.index == index, items
        assert str(ei.value).startswith("add_many: item %d: " % index)
        assert (a.counts(), a.usage(), a.dump()) == before, items
    for bad in (5, None, x == 1, x):
        with pytest.raises(TypeError, match="add_many needs an iterable"):
            a.add_many(bad)
    assert a.counts() == (2, 0)
    # A stale variable (made before reset()), and a closed solver.
    a.reset()
    z = a.var("z")
    with pytest.raises(moa.NotFoundError, match="item 1: .*stale") as ei:
        a.add_many([z >= 0, x == 1])
    assert ei.value.index == 1 and ei.value.kind == "stale"
    assert a.counts() == (1, 0)
    a.close()
    with pytest.raises(moa.ClosedError):
        a.add_many([z >= 0])
    b.close()


def test_empty_input_and_any_iterable():
    with moa.Solver() as s:
        assert s.add_many([]) == []
        assert s.add_many(()) == [] and s.add_many(iter([])) == []
        assert s.counts() == (0, 0)
        x = s.var("x")
        cs = s.add_many(x >= i for i in range(3))  # a generator
        assert len(cs) == 3 and len({id(c) for c in cs}) == 3
        cs = s.add_many({"a": x <= 10, "b": (x == 4, "weak")}.values())
        s.update()
        assert x.value == 4 and s.counts() == (1, 5)


def test_a_row_limit_reached_half_way_adds_nothing():
    with moa.Solver() as s:
        v = [s.var("v%d" % i) for i in range(10)]
        s.add(v[0] >= 0)
        counts, usage, dump = s.counts(), s.usage(), s.dump()
        s.set_limit("rows", usage.rows + 5)
        with pytest.raises(moa.LimitError) as ei:
            s.add_many([v[i] + 1 <= v[i + 1] for i in range(9)])
        e = ei.value
        assert e.code == "LIMIT" and e.kind == "limit"
        assert e.index == 5 and e.batch_conflicts == [] and e.conflicts == []
        assert "item 5" in str(e) and "the limit is %d" % (usage.rows + 5) in str(e)
        assert (s.counts(), s.usage(), s.dump()) == (counts, usage, dump)
        s.set_limit("rows", 100)
        cs = s.add_many([v[i] + 1 <= v[i + 1] for i in range(9)])
        s.update()
        assert len(cs) == 9 and v[9].value == 9


def test_the_pivots_limit_and_the_progress_function_cover_the_batch():
    with moa.Solver() as s:
        xs = [s.var("x%d" % i) for i in range(6)]
        for x in xs:
            s.add(x >= 0)
            s.add(x == 10, "weak")
        total = xs[0] + xs[1] + xs[2] + xs[3] + xs[4] + xs[5]
        usage = s.usage()
        s.set_limit("pivots", 1)
        with pytest.raises(moa.LimitError, match="limit of 1 pivot") as ei:
            s.add_many([xs[0] <= 100, (total == 0, "weak", 3)])
        assert ei.value.index == 1 and s.usage() == usage
        s.set_limit("pivots", 1e7)

        def stop(pivots):
            raise KeyError("stop")

        s.on_progress(stop, 1)
        with pytest.raises(KeyError):  # the function's exception, as it is
            s.add_many([xs[0] <= 100, (total == 0, "weak", 3)])
        assert s.usage() == usage
        # From the progress function the call as a whole is refused: index is the number of items.
        seen = []

        def nested(pivots):
            try:
                s.add_many([xs[0] <= 50, xs[1] <= 50])
            except moa.MisuseError as e:
                seen.append((e.index, e.batch_conflicts))
            return False

        s.on_progress(nested, 1)
        with pytest.raises(moa.LimitError):
            s.add_many([xs[0] <= 100, (total == 0, "weak", 3)])
        assert seen == [(2, [])] and s.usage() == usage
        s.on_progress(None)
        cs = s.add_many([xs[0] <= 100, (total == 0, "weak", 3)])
        assert cs[1].weight == 3
        s.update()
        assert all(v == pytest.approx(0, abs=1e-9) for v in s.values(xs))
