/*
** test_add_many.c -- moa_solver_add_many(): a batch in any order builds the tableau of the ordered one, all or
** nothing (conflicts, bad arguments, limits), and moa_solver_batch_conflicts() names the batch's part of a
** conflict.
*/
#include <stdlib.h>

#include "check.h"

enum { N = 2000 };

static unsigned long long lcg_state = 12345;
static size_t lcg_below(size_t n) {
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (size_t)((lcg_state >> 33) % n);
}

static void shuffle(size_t *a, size_t n) {
    for (size_t i = n; i > 1; i--) {
        size_t j = lcg_below(i);
        size_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

static size_t cells(moa_solver *s) {
    moa_usage u;
    memset(&u, 0, sizeof u);
    CHECK_OK(moa_solver_usage(s, &u));
    return u.cells;
}

static size_t constraint_count(moa_solver *s) {
    size_t nv = 0, nc = 0;
    CHECK_OK(moa_solver_counts(s, &nv, &nc));
    return nc;
}

/* A chain x[0] = 0, x[i+1] = x[i] + 10, its variables made in the order `made` and its links listed in the order
   `listed` (link k defines x[k]; link 0 is x[0] = 0). Added as one batch or one call at a time. Returns the cells. */
static size_t build_chain(const size_t *made, const size_t *listed, int batch) {
    moa_solver *s = moa_solver_new();
    moa_var x[N];
    for (size_t i = 0; i < N; i++) CHECK_OK(moa_var_new(s, NULL, &x[made[i]]));
    moa_term *terms = calloc(2 * N, sizeof *terms);
    moa_cons_spec *specs = calloc(N, sizeof *specs);
    moa_cons *ids = calloc(N, sizeof *ids);
    for (size_t n = 0; n < N; n++) {
        size_t k = listed[n];
        moa_cons_spec *sp = &specs[n];
        sp->terms = &terms[2 * n];
        terms[2 * n] = (moa_term){x[k], 1.0};
        if (k == 0) {
            sp->nterms = 1;
        } else {
            terms[2 * n + 1] = (moa_term){x[k - 1], -1.0};
            sp->nterms = 2;
            sp->constant = -10.0;
        }
        sp->rel = MOA_EQ;
        sp->priority = MOA_REQUIRED;
    }
    if (batch) {
        size_t failed = 99;
        CHECK_OK(moa_solver_add_many(s, specs, N, ids, &failed));
        CHECK(failed == 99); /* written on failure only */
    } else {
        for (size_t n = 0; n < N; n++) {
            const moa_cons_spec *sp = &specs[n];
            CHECK_OK(moa_solver_add(s, sp->terms, sp->nterms, sp->constant, sp->rel, sp->priority, NULL, &ids[n]));
        }
    }
    CHECK_OK(moa_solver_update(s));
    int values_ok = 1;
    for (size_t i = 0; i < N; i++) {
        double v = NAN;
        CHECK_OK(moa_var_value(s, x[i], &v));
        if (fabs(v - 10.0 * (double)i) > 1e-6) values_ok = 0;
    }
    CHECK(values_ok);
    size_t c = cells(s);
    free(terms);
    free(specs);
    free(ids);
    moa_solver_free(s);
    return c;
}

/* Variables made and links listed at random: one batch builds (about) the ordered chain's tableau, where the
   same calls one at a time build a tableau many times as large. */
static void test_any_order(void) {
    size_t in_order[N], made[N], listed[N];
    for (size_t i = 0; i < N; i++) in_order[i] = made[i] = listed[i] = i;
    shuffle(made, N);
    shuffle(listed, N);
    size_t ordered = build_chain(in_order, in_order, 0);
    size_t batch = build_chain(made, listed, 1);
    size_t one_by_one = build_chain(made, listed, 0);
    printf("chain of %d: ordered %zu cells, shuffled batch %zu, shuffled one by one %zu\n", N, ordered, batch,
           one_by_one);
    CHECK(batch <= ordered + ordered / 10);
    CHECK(one_by_one > 3 * ordered);
}

/* Weights, tags and priorities reach the constraints; a weight of 0 means 1. */
static void test_fields(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term tx = {x, 1.0}, ty = {y, 1.0};
    moa_cons_spec specs[2];
    memset(specs, 0, sizeof specs);
    specs[0] = (moa_cons_spec){&tx, 1, -5.0, MOA_LOW, 3.0, "x=5", MOA_EQ};
    specs[1] = (moa_cons_spec){&ty, 1, -7.0, MOA_REQUIRED, 0.0, NULL, MOA_GE};
    moa_cons ids[2] = {0, 0};
    CHECK_OK(moa_solver_add_many(s, specs, 2, ids, NULL));
    double w = 0, p = 0;
    CHECK_OK(moa_cons_weight(s, ids[0], &w));
    CHECK_NEAR(w, 3.0);
    CHECK_OK(moa_cons_weight(s, ids[1], &w));
    CHECK_NEAR(w, 1.0);
    CHECK_OK(moa_cons_priority(s, ids[0], &p));
    CHECK_NEAR(p, MOA_LOW);
    const char *tag = NULL;
    CHECK_OK(moa_cons_tag(s, ids[0], &tag));
    CHECK_STR(tag, "x=5");
    CHECK_OK(moa_solver_update(s));
    double v = 0;
    CHECK_OK(moa_var_value(s, x, &v));
    CHECK_NEAR(v, 5.0);
    CHECK_OK(moa_var_value(s, y, &v));
    CHECK_NEAR(v, 7.0);
    /* An empty batch, with NULL arrays, adds nothing. */
    CHECK_OK(moa_solver_add_many(s, NULL, 0, NULL, NULL));
    CHECK(constraint_count(s) == 2);
    moa_solver_free(s);
}

/* x >= 10 is there; the batch y = x, z = y, z <= 5 fails at item 2 with items 0 and 1 and x >= 10 in the
   conflict, and adds nothing. */
static void test_conflict(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y, z;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    CHECK_OK(moa_var_new(s, "z", &z));
    moa_term tx = {x, 1.0};
    moa_cons ge = 0;
    CHECK_OK(moa_solver_add(s, &tx, 1, -10.0, MOA_GE, MOA_REQUIRED, "x>=10", &ge));
    size_t cells_before = cells(s), count_before = constraint_count(s);
    const char *text = NULL;
    CHECK_OK(moa_solver_dump(s, &text));
    size_t dump_len = strlen(text ? text : "") + 1;
    char *dump_before = malloc(dump_len);
    memcpy(dump_before, text ? text : "", dump_len);
    moa_term yx[2] = {{y, 1.0}, {x, -1.0}}, zy[2] = {{z, 1.0}, {y, -1.0}}, tz = {z, 1.0};
    moa_cons_spec specs[3] = {
        {yx, 2, 0.0, MOA_REQUIRED, 0.0, "y=x", MOA_EQ},
        {zy, 2, 0.0, MOA_REQUIRED, 0.0, "z=y", MOA_EQ},
        {&tz, 1, -5.0, MOA_REQUIRED, 0.0, "z<=5", MOA_LE},
    };
    moa_cons ids[3] = {0, 0, 0};
    size_t failed = 99;
    CHECK_STATUS(moa_solver_add_many(s, specs, 3, ids, &failed), MOA_UNSATISFIABLE);
    CHECK(failed == 2);
    CHECK(ids[0] == 0 && ids[1] == 0 && ids[2] == 0);
    moa_cons list[4] = {0, 0, 0, 0};
    size_t n = 0;
    CHECK_OK(moa_solver_conflicts(s, list, 4, &n));
    CHECK(n == 1 && list[0] == ge);
    size_t items[4] = {9, 9, 9, 9};
    CHECK_OK(moa_solver_batch_conflicts(s, items, 4, &n));
    CHECK(n == 2 && items[0] == 0 && items[1] == 1);
    CHECK_CONTAINS(moa_solver_errmsg(s), "item 2 of the batch");
    CHECK_CONTAINS(moa_solver_errmsg(s), "x>=10");
    CHECK_STATUS(moa_solver_batch_conflicts(s, NULL, 0, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_solver_batch_conflicts(NULL, NULL, 0, &n), MOA_MISUSE);
    CHECK(constraint_count(s) == count_before);
    CHECK(cells(s) == cells_before);
    CHECK_OK(moa_solver_dump(s, &text));
    CHECK_STR(text, dump_before); /* the adds ran in one transaction, rolled back whole */
    free(dump_before);
    /* The solver is as it was: the batch without its last item goes in, and a success clears the lists. */
    CHECK_OK(moa_solver_add_many(s, specs, 2, ids, &failed));
    CHECK_OK(moa_solver_batch_conflicts(s, NULL, 0, &n));
    CHECK(n == 0);
    CHECK_OK(moa_solver_update(s));
    double v = 0;
    CHECK_OK(moa_var_value(s, z, &v));
    CHECK_NEAR(v, 10.0);
    moa_solver_free(s);
}

/* Bad arguments: the failing spec's index, its status, and nothing added. */
static void test_bad_arguments(void) {
    moa_solver *s = moa_solver_new();
    moa_solver *other = moa_solver_new();
    moa_var x, y, foreign;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    CHECK_OK(moa_var_new(other, "f", &foreign));
    moa_term tx = {x, 1.0}, ty = {y, 1.0}, tf = {foreign, 1.0};
    moa_cons ids[3];
    size_t failed = 99;
    moa_cons_spec good = {&tx, 1, -1.0, MOA_REQUIRED, 0.0, NULL, MOA_EQ};
    moa_cons_spec specs[3] = {good, good, good};
    specs[1] = (moa_cons_spec){&ty, 1, NAN, MOA_REQUIRED, 0.0, NULL, MOA_EQ};
    CHECK_STATUS(moa_solver_add_many(s, specs, 3, ids, &failed), MOA_INVALID);
    CHECK(failed == 1);
    specs[1] = (moa_cons_spec){&ty, 1, 0.0, MOA_REQUIRED, -2.0, NULL, MOA_EQ};
    CHECK_STATUS(moa_solver_add_many(s, specs, 3, ids, &failed), MOA_INVALID);
    CHECK(failed == 1);
    specs[1] = (moa_cons_spec){&ty, 1, 0.0, 0.0, 1.0, NULL, MOA_EQ};
    CHECK_STATUS(moa_solver_add_many(s, specs, 3, ids, &failed), MOA_INVALID);
    CHECK(failed == 1);
    specs[1] = (moa_cons_spec){&ty, 1, 0.0, MOA_REQUIRED, 1.0, NULL, (moa_relation)7};
    CHECK_STATUS(moa_solver_add_many(s, specs, 3, ids, &failed), MOA_INVALID);
    CHECK(failed == 1);
    specs[1] = (moa_cons_spec){NULL, 1, 0.0, MOA_REQUIRED, 1.0, NULL, MOA_EQ};
    CHECK_STATUS(moa_solver_add_many(s, specs, 3, ids, &failed), MOA_MISUSE);
    CHECK(failed == 1);
    specs[2] = (moa_cons_spec){&tf, 1, 0.0, MOA_REQUIRED, 1.0, NULL, MOA_EQ};
    specs[1] = good;
    CHECK_STATUS(moa_solver_add_many(s, specs, 3, ids, &failed), MOA_NOTFOUND);
    CHECK(failed == 2);
    /* A second x = 1 beside the first is redundant, not a failure; the batch's own arguments: */
    CHECK_STATUS(moa_solver_add_many(s, NULL, 1, ids, &failed), MOA_MISUSE);
    CHECK(failed == 1);
    CHECK_STATUS(moa_solver_add_many(s, specs, 1, NULL, &failed), MOA_MISUSE);
    CHECK_STATUS(moa_solver_add_many(NULL, specs, 1, ids, &failed), MOA_MISUSE);
    CHECK_STATUS(moa_solver_add_many(s, specs, (size_t)1 << 25, ids, &failed), MOA_INVALID);
    CHECK(constraint_count(s) == 0);
    CHECK(cells(s) == 0);
    CHECK_OK(moa_solver_add_many(s, specs, 2, ids, &failed));
    CHECK(constraint_count(s) == 2);
    moa_solver_free(other);
    moa_solver_free(s);
}

/* A rows limit reached half way through the batch: MOA_LIMIT, nothing added; with the limit raised it goes in. */
static void test_limit(void) {
    moa_solver *s = moa_solver_new();
    enum { M = 40 };
    moa_var x[M];
    moa_term terms[2 * M];
    moa_cons_spec specs[M];
    moa_cons ids[M];
    memset(specs, 0, sizeof specs);
    for (size_t i = 0; i < M; i++) CHECK_OK(moa_var_new(s, NULL, &x[i]));
    for (size_t i = 0; i < M; i++) {
        terms[2 * i] = (moa_term){x[i], 1.0};
        terms[2 * i + 1] = (moa_term){x[i > 0 ? i - 1 : 0], -1.0};
        specs[i] = (moa_cons_spec){&terms[2 * i], i > 0 ? 2u : 1u, i > 0 ? -1.0 : 0.0, MOA_REQUIRED, 0.0, NULL,
                                   i % 2 ? MOA_EQ : MOA_GE};
    }
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_ROWS, 10));
    size_t failed = 99;
    CHECK_STATUS(moa_solver_add_many(s, specs, M, ids, &failed), MOA_LIMIT);
    CHECK(failed >= 10 && failed < M);
    CHECK(constraint_count(s) == 0);
    CHECK(cells(s) == 0);
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_ROWS, 1000));
    CHECK_OK(moa_solver_add_many(s, specs, M, ids, &failed));
    CHECK(constraint_count(s) == M);
    moa_solver_free(s);
}

int main(void) {
    test_any_order();
    test_fields();
    test_conflict();
    test_bad_arguments();
    test_limit();
    return CHECK_DONE();
}
