#!/usr/bin/env python3
"""diff-highs.py -- random differential test of Moa's solver against an independent LP solution (HiGHS).

Each case is a small random system: 2-8 free variables, required equalities and inequalities, and soft
constraints at 2-3 strict priority levels with weights. It is built incrementally in Moa through the C solver
API (ctypes on libmoa.so); a required constraint Moa rejects (MOA_UNSATISFIABLE) is left out, as Moa leaves it
out, and HiGHS must agree that it is infeasible with the required constraints accepted before it (and that
every accepted one is feasible). Then some constraints are removed again, to exercise incremental removal.

After building, and again after the removals, Moa's solution is checked:
  - every required constraint holds (within 1e-7 relative);
  - per priority level, highest first, Moa's weighted violation equals the lexicographic optimum HiGHS finds
    (scipy.optimize.linprog(method="highs")): minimise level 1's violation (errors as nonnegative slacks,
    two per soft equality, one per soft inequality, times the weight), fix that optimum as a constraint, then
    level 2, and so on. Objective values are compared, not variable values (optima need not be unique).

Usage: diff-highs.py [--lib build/lib/libmoa.so] [--count 500] [--seed 1] [--case N] [--verbose]
  --case N  run only case N of the seed (as printed on a failure), with its constraints listed.
Exit status 1 if any case disagrees; each disagreement prints a reproducer (the calls to make, in order).
"""
import argparse
import ctypes
import random
import sys

import numpy as np
from scipy.optimize import linprog

MOA_OK, MOA_UNSATISFIABLE = 0, 7
EQ, LE, GE = 0, 1, 2
REL = {EQ: "==", LE: "<=", GE: ">="}
REQUIRED = 1000.0


class Term(ctypes.Structure):
    _fields_ = [("var", ctypes.c_uint64), ("coef", ctypes.c_double)]


def load(path):
    lib = ctypes.CDLL(path)
    u64p = ctypes.POINTER(ctypes.c_uint64)
    lib.moa_solver_new.restype = ctypes.c_void_p
    lib.moa_solver_free.argtypes = [ctypes.c_void_p]
    lib.moa_var_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, u64p]
    lib.moa_solver_add.argtypes = [ctypes.c_void_p, ctypes.POINTER(Term), ctypes.c_size_t, ctypes.c_double,
                                   ctypes.c_int, ctypes.c_double, ctypes.c_char_p, u64p]
    lib.moa_cons_remove.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.moa_cons_set_weight.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_double]
    lib.moa_solver_update.argtypes = [ctypes.c_void_p]
    lib.moa_var_value.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.POINTER(ctypes.c_double)]
    lib.moa_solver_errmsg.argtypes = [ctypes.c_void_p]
    lib.moa_solver_errmsg.restype = ctypes.c_char_p
    return lib


class Cons:
    """sum(coef * x[var]) + constant REL 0 at priority, with weight."""

    def __init__(self, terms, constant, rel, priority, weight):
        self.terms, self.constant, self.rel, self.priority, self.weight = terms, constant, rel, priority, weight
        self.id = 0

    def text(self):
        lhs = " + ".join(f"{c:g}*x{v}" for v, c in self.terms) or "0"
        w = f" weight {self.weight:g}" if self.weight != 1 else ""
        return f"{lhs} + {self.constant:g} {REL[self.rel]} 0 @{self.priority:g}{w}"

    def value(self, x):
        return sum(c * x[v] for v, c in self.terms) + self.constant

    def violation(self, x):
        e = self.value(x)
        return abs(e) if self.rel == EQ else max(e, 0.0) if self.rel == LE else max(-e, 0.0)

    def scale(self, x):
        return 1.0 + abs(self.constant) + sum(abs(c * x[v]) for v, c in self.terms)


def random_system(rng):
    n = rng.randint(2, 8)
    levels = sorted(rng.sample([900.0, 750.0, 500.0, 250.0, 1.0], rng.randint(2, 3)), reverse=True)
    cons = []
    for _ in range(rng.randint(n, 3 * n + 2)):
        k = rng.randint(1, min(3, n))
        terms = [(v, float(rng.choice([-3, -2, -1, 1, 1, 1, 2, 3]))) for v in rng.sample(range(n), k)]
        constant = float(rng.randint(-20, 20))
        rel = rng.choice([EQ, LE, GE])
        if rng.random() < 0.4:
            cons.append(Cons(terms, constant, rel, REQUIRED, 1.0))
        else:
            cons.append(Cons(terms, constant, rel, rng.choice(levels), rng.choice([1.0, 1.0, 2.0, 3.0, 0.5])))
    removals = rng.randint(0, max(1, len(cons) // 4))
    return n, cons, removals


# ---------------------------------------------------------------------------------------------------- HiGHS

def lexicographic_optimum(n, cons):
    """None if the required constraints are infeasible; else {priority: optimal weighted violation}."""
    req = [c for c in cons if c.priority >= REQUIRED]
    soft = [c for c in cons if c.priority < REQUIRED]
    # Columns: x (n, free), then per soft constraint its slacks (EQ: e+, e-; LE/GE: e), all >= 0.
    cols = []  # (constraint index, sign)
    for i, c in enumerate(soft):
        if c.rel == EQ:
            cols += [(i, 1.0), (i, -1.0)]
        else:
            cols.append((i, -1.0 if c.rel == LE else 1.0))
    m = n + len(cols)
    a_eq, b_eq, a_ub, b_ub = [], [], [], []

    def row(c):
        r = np.zeros(m)
        for v, k in c.terms:
            r[v] += k
        return r

    for c in req:  # expr REL 0 with expr = a.x + constant
        r = row(c)
        if c.rel == EQ:
            a_eq.append(r); b_eq.append(-c.constant)
        elif c.rel == LE:
            a_ub.append(r); b_ub.append(-c.constant)
        else:
            a_ub.append(-r); b_ub.append(c.constant)
    for i, c in enumerate(soft):
        r = row(c)
        for j, (ci, sign) in enumerate(cols):
            if ci == i:
                r[n + j] = sign
        # EQ: expr + e+ - e- == 0; LE: expr - e <= 0; GE: expr + e >= 0
        if c.rel == EQ:
            a_eq.append(r); b_eq.append(-c.constant)
        elif c.rel == LE:
            a_ub.append(r); b_ub.append(-c.constant)
        else:
            a_ub.append(-r); b_ub.append(c.constant)
    bounds = [(None, None)] * n + [(0, None)] * len(cols)

    def solve(obj):
        res = linprog(obj, A_ub=np.array(a_ub) if a_ub else None, b_ub=np.array(b_ub) if b_ub else None,
                      A_eq=np.array(a_eq) if a_eq else None, b_eq=np.array(b_eq) if b_eq else None,
                      bounds=bounds, method="highs")
        return res

    res = solve(np.zeros(m))
    if res.status == 2:
        return None
    if res.status != 0:
        raise RuntimeError(f"HiGHS: {res.message}")
    optimum = {}
    fixed, levels = [], {}  # rows of b_ub that fix a level's optimum, and their level
    slack, loosened = {}, 0.0  # how far the levels above were loosened when HiGHS needed it
    for p in sorted({c.priority for c in soft}, reverse=True):
        obj = np.zeros(m)
        for j, (i, _) in enumerate(cols):
            if soft[i].priority == p:
                obj[n + j] = soft[i].weight
        res = solve(obj)
        for loosen in (1e-7, 1e-5):
            if res.status != 2:
                break
            # The levels fixed above can be a hair too tight for HiGHS's own tolerances: loosen and retry.
            for j in fixed:
                b_ub[j] = optimum[levels[j]] + loosen * (1 + abs(optimum[levels[j]]))
            loosened = max(loosened, loosen)
            res = solve(obj)
        if res.status != 0:
            raise RuntimeError(f"HiGHS at level {p:g}: {res.message}")
        optimum[p] = res.fun
        slack[p] = loosened
        fixed.append(len(b_ub))
        levels[len(b_ub)] = p
        a_ub.append(obj.copy()); b_ub.append(res.fun + 1e-9 * (1 + abs(res.fun)))  # fix this level
    return optimum, slack


# ---------------------------------------------------------------------------------------------------- Moa

def moa_add(lib, s, xs, c):
    terms = (Term * max(1, len(c.terms)))(*[Term(xs[v], k) for v, k in c.terms])
    out = ctypes.c_uint64(0)
    st = lib.moa_solver_add(s, terms, len(c.terms), c.constant, c.rel, c.priority, None, ctypes.byref(out))
    if st == MOA_OK:
        c.id = out.value
        if c.weight != 1.0:
            st = lib.moa_cons_set_weight(s, c.id, c.weight)
            assert st == MOA_OK, st
    return st


def moa_values(lib, s, xs):
    assert lib.moa_solver_update(s) == MOA_OK
    vals = []
    for x in xs:
        d = ctypes.c_double()
        assert lib.moa_var_value(s, x, ctypes.byref(d)) == MOA_OK
        vals.append(d.value)
    return vals


def check(n, live, x, stage):
    """Problems with Moa's solution x for the live constraints (empty list: agrees)."""
    problems = []
    for c in live:
        if c.priority >= REQUIRED and c.violation(x) > 1e-7 * c.scale(x):
            problems.append(f"{stage}: required constraint violated by {c.violation(x):.3g}: {c.text()}")
    result = lexicographic_optimum(n, live)
    if result is None:
        problems.append(f"{stage}: HiGHS finds the accepted required constraints infeasible")
        return problems
    opt, slack = result
    for p, best in opt.items():
        got = sum(c.weight * c.violation(x) for c in live if c.priority == p)
        # Higher levels fixed with slack (loosened for HiGHS) may buy this level a little: widen by as much.
        tol = max(1e-6, 1e3 * slack[p]) * (1 + abs(best) + max((c.scale(x) for c in live if c.priority == p), default=0))
        if abs(got - best) > tol:
            problems.append(f"{stage}: level @{p:g}: Moa's weighted violation {got:.9g}, HiGHS optimum {best:.9g}"
                            f" ({'worse' if got > best else 'better?'})")
            break  # lower levels are compared under this level's optimum: meaningless after a miss
    return problems


def run_case(lib, rng, verbose):
    n, cons, removals = random_system(rng)
    s = lib.moa_solver_new()
    log = []  # the reproducer: the calls in order
    problems = []
    try:
        xs = []
        for i in range(n):
            out = ctypes.c_uint64(0)
            assert lib.moa_var_new(s, f"x{i}".encode(), ctypes.byref(out)) == MOA_OK
            xs.append(out.value)
        live = []
        for c in cons:
            st = moa_add(lib, s, xs, c)
            log.append(f"add   {c.text()}  -> {'ok' if st == MOA_OK else 'UNSATISFIABLE' if st == MOA_UNSATISFIABLE else st}")
            if c.priority >= REQUIRED:
                feasible = lexicographic_optimum(n, [d for d in live if d.priority >= REQUIRED] + [c]) is not None
                if feasible != (st == MOA_OK):
                    problems.append(f"add of a required constraint: Moa {'accepted' if st == MOA_OK else 'rejected'} it,"
                                    f" HiGHS finds it {'feasible' if feasible else 'infeasible'}: {c.text()}")
            if st == MOA_OK:
                live.append(c)
            elif st != MOA_UNSATISFIABLE or c.priority < REQUIRED:
                problems.append(f"add failed with status {st}: {lib.moa_solver_errmsg(s).decode()}")
        if not problems:
            problems += check(n, live, moa_values(lib, s, xs), "after adds")
        if not problems and removals:
            for c in rng.sample(live, min(removals, len(live))):
                assert lib.moa_cons_remove(s, c.id) == MOA_OK
                live.remove(c)
                log.append(f"remove {c.text()}")
            problems += check(n, live, moa_values(lib, s, xs), "after removals")
        if verbose:
            print("\n".join(log))
    finally:
        lib.moa_solver_free(s)
    return n, problems, log


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", default="build/lib/libmoa.so")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--case", type=int, default=None)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    lib = load(args.lib)
    failures = 0
    stats = {"cases": 0, "rejected": 0}
    cases = [args.case] if args.case is not None else range(args.count)
    for k in cases:
        rng = random.Random(args.seed * 1_000_003 + k)  # each case reproducible on its own
        n, problems, log = run_case(lib, rng, args.verbose or args.case is not None)
        stats["cases"] += 1
        stats["rejected"] += sum(1 for line in log if line.endswith("UNSATISFIABLE"))
        if problems:
            failures += 1
            print(f"FAIL: case {k} (seed {args.seed}; rerun: {sys.argv[0]} --seed {args.seed} --case {k}),"
                  f" {n} variables:")
            for p in problems:
                print("   ", p)
            print("  calls:")
            for line in log:
                print("   ", line)
    print(f"diff-highs: {stats['cases'] - failures}/{stats['cases']} systems agree with HiGHS "
          f"(seed {args.seed}; {stats['rejected']} required adds rejected as infeasible, each confirmed)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
