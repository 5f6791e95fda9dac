/*
** test_stress.c -- random sequences of calls (deterministic seeds) through the C API.
**
** After every update, every active required constraint must hold; after every failing call, the counts and the
** solved values must be exactly what they were; conflict lists must name live, active, required constraints.
** MOA_STRESS_STEPS and MOA_STRESS_SEED (environment) override the number of steps per seed and the seeds;
** MOA_STRESS_TRACE prints every step.
*/
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define MAXV 24
#define MAXC 64

typedef struct {
    moa_cons id; /* 0: free slot */
    moa_term terms[3];
    size_t n;
    double constant;
    moa_relation rel;
} cons_rec;

typedef struct {
    moa_solver *s;
    moa_var vars[MAXV]; /* 0: free slot */
    int edit[MAXV];
    cons_rec cons[MAXC];
    uint64_t rng;
    long failures, unsat, ops;
    int trace;
} world;

static uint64_t next(world *w) { /* xorshift64* */
    w->rng ^= w->rng >> 12;
    w->rng ^= w->rng << 25;
    w->rng ^= w->rng >> 27;
    return w->rng * 2685821657736338717ULL;
}
static int pick(world *w, int n) { return (int)(next(w) % (uint64_t)n); }
static double small(world *w) { return (double)(pick(w, 41) - 20); }

static double val(world *w, moa_var v) {
    double x = NAN;
    CHECK_OK(moa_var_value(w->s, v, &x));
    return x;
}

/* Update, then check every active required constraint. */
static void check_required(world *w, long step) {
    CHECK_OK(moa_solver_update(w->s));
    for (int i = 0; i < MAXC; i++) {
        cons_rec *c = &w->cons[i];
        if (!c->id) continue;
        int active = 0;
        double p = 0, k = 0;
        CHECK_OK(moa_cons_is_active(w->s, c->id, &active));
        CHECK_OK(moa_cons_priority(w->s, c->id, &p));
        CHECK_OK(moa_cons_constant(w->s, c->id, &k));
        if (!active || p < MOA_REQUIRED) continue;
        double sum = k, scale = fabs(k) + 1;
        for (size_t t = 0; t < c->n; t++) {
            double x = val(w, c->terms[t].var);
            sum += c->terms[t].coef * x;
            scale += fabs(c->terms[t].coef * x);
        }
        double tol = 1e-7 * scale;
        int ok = c->rel == MOA_EQ ? fabs(sum) <= tol : c->rel == MOA_LE ? sum <= tol : sum >= -tol;
        if (!ok) {
            const char *d = NULL;
            moa_cons_describe(w->s, c->id, &d);
            fprintf(stderr, "step %ld: required constraint violated by %g: %s\n", step, sum, d ? d : "?");
        }
        CHECK(ok);
    }
}

typedef struct {
    size_t nv, nc;
    double values[MAXV];
} state;

static state capture(world *w) {
    state st;
    CHECK_OK(moa_solver_update(w->s));
    CHECK_OK(moa_solver_counts(w->s, &st.nv, &st.nc));
    for (int i = 0; i < MAXV; i++) st.values[i] = w->vars[i] ? val(w, w->vars[i]) : 0;
    return st;
}

static void check_unchanged(world *w, const state *before, moa_status st, const char *what, long step) {
    w->failures++;
    const char *msg = moa_solver_errmsg(w->s);
    CHECK(msg != NULL && strcmp(msg, "not an error") != 0);
    if (st == MOA_UNSATISFIABLE) {
        w->unsat++;
        moa_cons list[MAXC];
        size_t n = 0;
        CHECK_OK(moa_solver_conflicts(w->s, list, MAXC, &n));
        for (size_t i = 0; i < n && i < MAXC; i++) {
            int active = 0;
            double p = 0;
            CHECK_OK(moa_cons_is_active(w->s, list[i], &active));
            CHECK_OK(moa_cons_priority(w->s, list[i], &p));
            CHECK(active == 1 && p >= MOA_REQUIRED);
        }
    }
    state after = capture(w);
    int same = after.nv == before->nv && after.nc == before->nc;
    for (int i = 0; i < MAXV; i++)
        if (w->vars[i] && fabs(after.values[i] - before->values[i]) > 1e-9 * (1 + fabs(before->values[i])))
            same = 0;
    if (!same) fprintf(stderr, "step %ld: failed %s (%s) changed the solver\n", step, what, moa_errstr(st));
    CHECK(same);
}

/* Trace lines replay the run: "op args..." with variable and constraint slots, not ids. */
#define TRACE(...)                                 \
    do {                                           \
        if (w->trace) fprintf(stderr, __VA_ARGS__); \
    } while (0)

static int var_index(const world *w, moa_var v) {
    for (int i = 0; i < MAXV; i++)
        if (w->vars[i] == v) return i;
    return -1;
}

static int random_var(world *w) {
    int i = pick(w, MAXV);
    for (int k = 0; k < MAXV; k++, i = (i + 1) % MAXV)
        if (w->vars[i]) return i;
    return -1;
}

static int random_cons(world *w) {
    int i = pick(w, MAXC);
    for (int k = 0; k < MAXC; k++, i = (i + 1) % MAXC)
        if (w->cons[i].id) return i;
    return -1;
}

static double random_priority(world *w) {
    static const double ps[] = {MOA_REQUIRED, MOA_REQUIRED, MOA_HIGH, MOA_MEDIUM, MOA_LOW, 1.0, 999.0, 500.5};
    return ps[pick(w, (int)(sizeof ps / sizeof ps[0]))];
}

static void step(world *w, long n) {
    moa_solver *s = w->s;
    state before = capture(w);
    moa_status st = MOA_OK;
    const char *what = "?";
    int op = pick(w, 100);
    w->ops++;
    if (op < 10) { /* new variable */
        what = "var_new";
        int i = pick(w, MAXV);
        if (!w->vars[i]) {
            TRACE("var_new %d\n", i);
            st = moa_var_new(s, NULL, &w->vars[i]);
            w->edit[i] = 0;
        }
    } else if (op < 14) { /* free a variable (often in use) */
        what = "var_free";
        int i = random_var(w);
        if (i >= 0) {
            TRACE("var_free %d\n", i);
            st = moa_var_free(s, w->vars[i]);
            if (st == MOA_OK) w->vars[i] = 0;
        }
    } else if (op < 45) { /* add */
        what = "add";
        int slot = pick(w, MAXC);
        if (!w->cons[slot].id && random_var(w) >= 0) {
            cons_rec *c = &w->cons[slot];
            c->n = (size_t)(1 + pick(w, 3));
            for (size_t t = 0; t < c->n; t++) {
                c->terms[t].var = w->vars[random_var(w)];
                c->terms[t].coef = small(w);
                if (c->terms[t].coef == 0) c->terms[t].coef = 1;
            }
            c->constant = small(w) * 10;
            c->rel = (moa_relation)pick(w, 3);
            moa_cons id = 0;
            double p = random_priority(w);
            if (w->trace) {
                fprintf(stderr, "add %d %d %.17g %.17g %zu", slot, (int)c->rel, p, c->constant, c->n);
                for (size_t t = 0; t < c->n; t++)
                    fprintf(stderr, " %d %.17g", var_index(w, c->terms[t].var), c->terms[t].coef);
                fprintf(stderr, "\n");
            }
            st = moa_solver_add(s, c->terms, c->n, c->constant, c->rel, p, NULL, &id);
            if (st == MOA_OK) c->id = id;
        }
    } else if (op < 55) { /* remove */
        what = "remove";
        int i = random_cons(w);
        if (i >= 0) {
            TRACE("remove %d\n", i);
            st = moa_cons_remove(s, w->cons[i].id);
            if (st == MOA_OK) w->cons[i].id = 0;
        }
    } else if (op < 62) { /* toggle */
        what = "set_active";
        int i = random_cons(w);
        int a = pick(w, 2);
        if (i >= 0) TRACE("set_active %d %d\n", i, a);
        if (i >= 0) st = moa_cons_set_active(s, w->cons[i].id, a);
    } else if (op < 68) { /* constant */
        what = "set_constant";
        int i = random_cons(w);
        double k = small(w) * 10;
        if (i >= 0) TRACE("set_constant %d %.17g\n", i, k);
        if (i >= 0) st = moa_cons_set_constant(s, w->cons[i].id, k);
    } else if (op < 74) { /* priority */
        what = "set_priority";
        int i = random_cons(w);
        double p = random_priority(w);
        if (i >= 0) TRACE("set_priority %d %.17g\n", i, p);
        if (i >= 0) st = moa_cons_set_priority(s, w->cons[i].id, p);
    } else if (op < 77) { /* weight */
        what = "set_weight";
        int i = random_cons(w);
        double wt = 0.5 + pick(w, 4);
        if (i >= 0) TRACE("set_weight %d %.17g\n", i, wt);
        if (i >= 0) st = moa_cons_set_weight(s, w->cons[i].id, wt);
    } else if (op < 83) { /* edit on/off */
        int i = random_var(w);
        if (i >= 0) {
            if (w->edit[i]) {
                what = "remove_edit";
                TRACE("remove_edit %d\n", i);
                st = moa_solver_remove_edit(s, w->vars[i]);
                if (st == MOA_OK) w->edit[i] = 0;
            } else {
                what = "add_edit";
                double p = pick(w, 2) ? MOA_HIGH : 999.0;
                TRACE("add_edit %d %.17g\n", i, p);
                st = moa_solver_add_edit(s, w->vars[i], p);
                if (st == MOA_OK) w->edit[i] = 1;
            }
        }
    } else if (op < 99) { /* suggest */
        what = "suggest";
        int i = random_var(w);
        if (i >= 0) {
            double v = small(w) * 7;
            TRACE("suggest %d %.17g\n", i, v);
            st = moa_solver_suggest(s, w->vars[i], v);
            CHECK(w->edit[i] ? st == MOA_OK : st == MOA_NOTFOUND);
        }
    } else { /* reset */
        what = "reset";
        TRACE("reset\n");
        st = moa_solver_reset(s);
        memset(w->vars, 0, sizeof w->vars);
        memset(w->edit, 0, sizeof w->edit);
        for (int i = 0; i < MAXC; i++) w->cons[i].id = 0;
    }
    if (w->trace) fprintf(stderr, "# step %ld: %s -> %s\n", n, what, moa_errstr(st));
    if (st != MOA_OK) {
        /* Expected failures only: never MOA_ERROR, MOA_INVALID or MOA_NOTFOUND here (suggest is checked above). */
        int expected = st == MOA_UNSATISFIABLE || st == MOA_MISUSE || st == MOA_DUPLICATE ||
                       (st == MOA_NOTFOUND && op >= 83 && op < 99);
        if (!expected) fprintf(stderr, "step %ld: %s: %s (%s)\n", n, what, moa_errstr(st), moa_solver_errmsg(s));
        CHECK(expected);
        check_unchanged(w, &before, st, what, n);
    }
    check_required(w, n);
}

int main(void) {
    long steps = 1500;
    const char *env = getenv("MOA_STRESS_STEPS");
    if (env) steps = atol(env);
    uint64_t seeds[] = {1, 2, 3, 42, 1234567, 0x9E3779B97F4A7C15ULL};
    size_t nseeds = sizeof seeds / sizeof seeds[0];
    const char *seed = getenv("MOA_STRESS_SEED");
    if (seed) {
        seeds[0] = strtoull(seed, NULL, 0);
        if (seeds[0] == 0) seeds[0] = 1; /* xorshift needs a nonzero state */
        nseeds = 1;
    }
    long failures = 0, unsat = 0, ops = 0;
    for (size_t k = 0; k < nseeds; k++) {
        world *w = calloc(1, sizeof *w);
        if (!w) return 1;
        w->s = moa_solver_new();
        w->rng = seeds[k];
        w->trace = getenv("MOA_STRESS_TRACE") != NULL;
        int before = check_failed_;
        for (long n = 0; n < steps && check_failed_ - before < 5; n++) step(w, n);
        if (check_failed_ != before) fprintf(stderr, "seed %llu failed\n", (unsigned long long)seeds[k]);
        failures += w->failures;
        unsat += w->unsat;
        ops += w->ops;
        moa_solver_free(w->s);
        free(w);
    }
    fprintf(stderr, "%ld operations, %ld failed as expected (%ld unsatisfiable)\n", ops, failures, unsat);
    return CHECK_DONE();
}
