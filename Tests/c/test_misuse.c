/*
** test_misuse.c -- every kind of bad input gives its status code, never a crash, and changes nothing.
*/
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* Sizes and values of a solver, to compare before and after failing calls. */
typedef struct snapshot {
    size_t nvars, ncons;
    double x, y;
} snapshot;

static snapshot snap(moa_solver *s, moa_var x, moa_var y) {
    snapshot r = {0, 0, NAN, NAN};
    CHECK_OK(moa_solver_counts(s, &r.nvars, &r.ncons));
    CHECK_OK(moa_solver_update(s));
    CHECK_OK(moa_var_value(s, x, &r.x));
    CHECK_OK(moa_var_value(s, y, &r.y));
    return r;
}

#define CHECK_SAME(a, b) \
    CHECK((a).nvars == (b).nvars && (a).ncons == (b).ncons && (a).x == (b).x && (a).y == (b).y)

/* The failing call must have left a message (not "not an error"). */
#define CHECK_ERRMSG(s) CHECK(strcmp(moa_solver_errmsg(s), "not an error") != 0)

static void test_null_solver(void) {
    moa_var v = 0;
    moa_cons c = 0;
    double d = 0;
    int i = 0;
    size_t n = 0;
    const char *str = NULL;
    moa_term t = {1, 1.0};
    CHECK_STATUS(moa_solver_reset(NULL), MOA_MISUSE);
    CHECK_STATUS(moa_var_new(NULL, "x", &v), MOA_MISUSE);
    CHECK(v == 0); /* out-parameters are written only on success */
    CHECK_STATUS(moa_var_free(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_var_name(NULL, 1, &str), MOA_MISUSE);
    CHECK(str == NULL);
    CHECK_STATUS(moa_var_set_name(NULL, 1, "x"), MOA_MISUSE);
    CHECK_STATUS(moa_var_value(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_solver_add(NULL, &t, 1, 0.0, MOA_EQ, MOA_REQUIRED, NULL, &c), MOA_MISUSE);
    CHECK_STATUS(moa_cons_remove(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_cons_set_active(NULL, 1, 1), MOA_MISUSE);
    CHECK_STATUS(moa_cons_is_active(NULL, 1, &i), MOA_MISUSE);
    CHECK_STATUS(moa_cons_constant(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_cons_set_constant(NULL, 1, 1.0), MOA_MISUSE);
    CHECK_STATUS(moa_cons_priority(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_cons_set_priority(NULL, 1, MOA_LOW), MOA_MISUSE);
    CHECK_STATUS(moa_cons_weight(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_cons_set_weight(NULL, 1, 1.0), MOA_MISUSE);
    CHECK_STATUS(moa_cons_tag(NULL, 1, &str), MOA_MISUSE);
    CHECK_STATUS(moa_cons_describe(NULL, 1, &str), MOA_MISUSE);
    CHECK_STATUS(moa_solver_add_edit(NULL, 1, MOA_LOW), MOA_MISUSE);
    CHECK_STATUS(moa_solver_remove_edit(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_solver_has_edit(NULL, 1, &i), MOA_MISUSE);
    CHECK_STATUS(moa_solver_suggest(NULL, 1, 1.0), MOA_MISUSE);
    CHECK_STATUS(moa_solver_update(NULL), MOA_MISUSE);
    CHECK_STATUS(moa_solver_counts(NULL, &n, &n), MOA_MISUSE);
    CHECK_STATUS(moa_solver_dump(NULL, &str), MOA_MISUSE);
    CHECK_STATUS(moa_solver_conflicts(NULL, &c, 1, &n), MOA_MISUSE);
    CHECK(str == NULL);
    const char *msg = moa_solver_errmsg(NULL);
    CHECK(msg != NULL && msg[0] != '\0');
    moa_solver_free(NULL);
}

static void test_null_out(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term t = {x, 1.0};
    moa_cons c;
    CHECK_OK(moa_solver_add(s, &t, 1, -1.0, MOA_EQ, MOA_REQUIRED, NULL, &c));
    snapshot before = snap(s, x, y);

    CHECK_STATUS(moa_var_new(s, "z", NULL), MOA_MISUSE);
    CHECK_ERRMSG(s);
    CHECK_STATUS(moa_var_name(s, x, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_var_value(s, x, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_solver_add(s, &t, 1, -2.0, MOA_GE, MOA_LOW, NULL, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_cons_is_active(s, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_cons_constant(s, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_cons_priority(s, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_cons_weight(s, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_cons_tag(s, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_cons_describe(s, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_solver_has_edit(s, x, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_solver_dump(s, NULL), MOA_MISUSE);
    size_t n = 0;
    moa_cons buf[2];
    CHECK_STATUS(moa_solver_conflicts(s, buf, 2, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_solver_conflicts(s, NULL, 2, &n), MOA_MISUSE);
    CHECK_OK(moa_solver_conflicts(s, NULL, 0, &n));
    CHECK(n == 0);
    CHECK_STATUS(moa_solver_conflicts(s, buf, (size_t)-1, &n), MOA_INVALID);
    /* nterms > 0 with NULL terms. */
    CHECK_STATUS(moa_solver_add(s, NULL, 1, 0.0, MOA_EQ, MOA_LOW, NULL, &c), MOA_MISUSE);
    CHECK_ERRMSG(s);

    CHECK_SAME(before, snap(s, x, y));
    moa_solver_free(s);
}

/* Stale ids, ids from another solver, ids from before a reset, and id 0: all MOA_NOTFOUND. */
static void check_var_notfound(moa_solver *s, moa_var v, int line) {
    double d;
    int i;
    const char *str;
    moa_cons c;
    moa_term t = {v, 1.0};
    int before = check_failed_;
    CHECK_STATUS(moa_var_free(s, v), MOA_NOTFOUND);
    CHECK_STATUS(moa_var_name(s, v, &str), MOA_NOTFOUND);
    CHECK_STATUS(moa_var_set_name(s, v, "q"), MOA_NOTFOUND);
    CHECK_STATUS(moa_var_value(s, v, &d), MOA_NOTFOUND);
    CHECK_STATUS(moa_solver_add(s, &t, 1, 0.0, MOA_EQ, MOA_LOW, NULL, &c), MOA_NOTFOUND);
    CHECK_STATUS(moa_solver_add_edit(s, v, MOA_LOW), MOA_NOTFOUND);
    CHECK_STATUS(moa_solver_remove_edit(s, v), MOA_NOTFOUND);
    CHECK_STATUS(moa_solver_has_edit(s, v, &i), MOA_NOTFOUND);
    CHECK_STATUS(moa_solver_suggest(s, v, 1.0), MOA_NOTFOUND);
    CHECK_ERRMSG(s);
    if (check_failed_ != before) fprintf(stderr, "    (variable checks called from line %d)\n", line);
}

static void check_cons_notfound(moa_solver *s, moa_cons c, int line) {
    double d;
    int i;
    const char *str;
    int before = check_failed_;
    CHECK_STATUS(moa_cons_remove(s, c), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_set_active(s, c, 1), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_set_active(s, c, 0), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_is_active(s, c, &i), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_constant(s, c, &d), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_set_constant(s, c, 1.0), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_priority(s, c, &d), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_set_priority(s, c, MOA_LOW), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_weight(s, c, &d), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_set_weight(s, c, 2.0), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_tag(s, c, &str), MOA_NOTFOUND);
    CHECK_STATUS(moa_cons_describe(s, c, &str), MOA_NOTFOUND);
    CHECK_ERRMSG(s);
    if (check_failed_ != before) fprintf(stderr, "    (constraint checks called from line %d)\n", line);
}

static void test_bad_ids(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y, gone;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    CHECK_OK(moa_var_new(s, "gone", &gone));
    moa_term t = {x, 1.0};
    moa_cons keep, removed;
    CHECK_OK(moa_solver_add(s, &t, 1, -1.0, MOA_GE, MOA_REQUIRED, "keep", &keep));
    CHECK_OK(moa_solver_add(s, &t, 1, -4.0, MOA_EQ, MOA_LOW, "removed", &removed));
    CHECK_OK(moa_var_free(s, gone));
    CHECK_OK(moa_cons_remove(s, removed));
    snapshot before = snap(s, x, y);

    /* id 0 */
    check_var_notfound(s, 0, __LINE__);
    check_cons_notfound(s, 0, __LINE__);
    /* stale: freed variable, removed constraint (double free / double remove) */
    check_var_notfound(s, gone, __LINE__);
    check_cons_notfound(s, removed, __LINE__);
    /* a constraint id is not a variable id and vice versa */
    check_var_notfound(s, keep, __LINE__);
    check_cons_notfound(s, x, __LINE__);
    /* garbage */
    check_var_notfound(s, UINT64_MAX, __LINE__);
    check_cons_notfound(s, UINT64_MAX, __LINE__);
    check_var_notfound(s, (moa_var)1 << 40, __LINE__);

    /* A freed slot is reused, but the old id stays stale. */
    moa_var again;
    CHECK_OK(moa_var_new(s, "again", &again));
    CHECK(again != gone);
    check_var_notfound(s, gone, __LINE__);
    CHECK_OK(moa_var_free(s, again));
    snapshot after = snap(s, x, y);
    CHECK_SAME(before, after);

    /* Ids from another solver built the same way. */
    moa_solver *o = moa_solver_new();
    moa_var ox, oy, ogone;
    CHECK_OK(moa_var_new(o, "x", &ox));
    CHECK_OK(moa_var_new(o, "y", &oy));
    CHECK_OK(moa_var_new(o, "gone", &ogone));
    moa_term ot = {ox, 1.0};
    moa_cons okeep;
    CHECK_OK(moa_solver_add(o, &ot, 1, -1.0, MOA_GE, MOA_REQUIRED, "keep", &okeep));
    check_var_notfound(s, ox, __LINE__);
    check_var_notfound(s, oy, __LINE__);
    check_cons_notfound(s, okeep, __LINE__);
    check_var_notfound(o, x, __LINE__);
    check_cons_notfound(o, keep, __LINE__);
    /* A term mixing solvers is rejected as a whole. */
    moa_term mixed[2] = {{x, 1.0}, {oy, 1.0}};
    moa_cons c;
    CHECK_STATUS(moa_solver_add(s, mixed, 2, 0.0, MOA_EQ, MOA_LOW, NULL, &c), MOA_NOTFOUND);
    CHECK_SAME(before, snap(s, x, y));
    moa_solver_free(o);

    /* Ids from before a reset. */
    CHECK_OK(moa_solver_reset(s));
    moa_var nx, ny;
    CHECK_OK(moa_var_new(s, "x", &nx));
    CHECK_OK(moa_var_new(s, "y", &ny));
    moa_term nt = {nx, 1.0};
    moa_cons nkeep;
    CHECK_OK(moa_solver_add(s, &nt, 1, -1.0, MOA_GE, MOA_REQUIRED, "keep", &nkeep));
    check_var_notfound(s, x, __LINE__);
    check_var_notfound(s, y, __LINE__);
    check_cons_notfound(s, keep, __LINE__);
    moa_solver_free(s);
}

static void test_bad_numbers(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term t = {x, 1.0};
    moa_cons c, weak;
    CHECK_OK(moa_solver_add(s, &t, 1, -1.0, MOA_GE, MOA_REQUIRED, NULL, &c));
    CHECK_OK(moa_solver_add(s, &t, 1, -3.0, MOA_EQ, MOA_LOW, NULL, &weak));
    CHECK_OK(moa_solver_add_edit(s, y, MOA_MEDIUM));
    CHECK_OK(moa_solver_suggest(s, y, 5.0));
    snapshot before = snap(s, x, y);

    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        double b = bad[i];
        moa_term bt[2] = {{x, 1.0}, {y, b}};
        CHECK_STATUS(moa_solver_add(s, &t, 1, b, MOA_EQ, MOA_LOW, NULL, &c), MOA_INVALID); /* constant */
        CHECK_STATUS(moa_solver_add(s, bt, 2, 0.0, MOA_EQ, MOA_LOW, NULL, &c), MOA_INVALID); /* coefficient */
        CHECK_STATUS(moa_solver_add(s, &t, 1, 0.0, MOA_EQ, b, NULL, &c), MOA_INVALID);      /* priority */
        CHECK_STATUS(moa_cons_set_constant(s, weak, b), MOA_INVALID);
        CHECK_STATUS(moa_cons_set_priority(s, weak, b), MOA_INVALID);
        CHECK_STATUS(moa_cons_set_weight(s, weak, b), MOA_INVALID);
        CHECK_STATUS(moa_solver_suggest(s, y, b), MOA_INVALID);
        CHECK_STATUS(moa_solver_add_edit(s, x, b), MOA_INVALID);
        CHECK_ERRMSG(s);
    }
    /* Priorities out of (0, 1000]. */
    const double badprio[] = {0.0, -0.0, -1.0, -750.0, 1000.0001, 1001.0, 1e300};
    for (size_t i = 0; i < sizeof badprio / sizeof badprio[0]; i++) {
        CHECK_STATUS(moa_solver_add(s, &t, 1, 0.0, MOA_EQ, badprio[i], NULL, &c), MOA_INVALID);
        CHECK_STATUS(moa_cons_set_priority(s, weak, badprio[i]), MOA_INVALID);
        CHECK_STATUS(moa_solver_add_edit(s, x, badprio[i]), MOA_INVALID);
    }
    /* Edit variables cannot be required. */
    CHECK_STATUS(moa_solver_add_edit(s, x, MOA_REQUIRED), MOA_INVALID);
    CHECK_ERRMSG(s);
    /* Weights must be positive. */
    CHECK_STATUS(moa_cons_set_weight(s, weak, 0.0), MOA_INVALID);
    CHECK_STATUS(moa_cons_set_weight(s, weak, -1.0), MOA_INVALID);
    double w = 0;
    CHECK_OK(moa_cons_weight(s, weak, &w));
    CHECK_NEAR(w, 1.0);
    double p = 0;
    CHECK_OK(moa_cons_priority(s, weak, &p));
    CHECK_NEAR(p, MOA_LOW);
    double k = 0;
    CHECK_OK(moa_cons_constant(s, weak, &k));
    CHECK_NEAR(k, -3.0);
    int has = -1;
    CHECK_OK(moa_solver_has_edit(s, x, &has));
    CHECK(has == 0);

    /* Relations other than MOA_EQ, MOA_LE, MOA_GE. */
    CHECK_STATUS(moa_solver_add(s, &t, 1, 0.0, (moa_relation)3, MOA_LOW, NULL, &c), MOA_INVALID);
    CHECK_STATUS(moa_solver_add(s, &t, 1, 0.0, (moa_relation)-1, MOA_LOW, NULL, &c), MOA_INVALID);
    CHECK_STATUS(moa_solver_add(s, &t, 1, 0.0, (moa_relation)0x7fffffff, MOA_LOW, NULL, &c), MOA_INVALID);
    CHECK_ERRMSG(s);

    /* Counts: negative as ptrdiff_t, or more than 2^24 terms; the terms are not read. */
    CHECK_STATUS(moa_solver_add(s, &t, (size_t)-1, 0.0, MOA_EQ, MOA_LOW, NULL, &c), MOA_INVALID);
    CHECK_STATUS(moa_solver_add(s, &t, SIZE_MAX / 2 + 1, 0.0, MOA_EQ, MOA_LOW, NULL, &c), MOA_INVALID);
    CHECK_STATUS(moa_solver_add(s, &t, ((size_t)1 << 24) + 1, 0.0, MOA_EQ, MOA_LOW, NULL, &c), MOA_INVALID);
    CHECK_ERRMSG(s);

    CHECK_SAME(before, snap(s, x, y));
    moa_solver_free(s);
}

static void test_wrong_state(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y, e;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    CHECK_OK(moa_var_new(s, "e", &e));
    moa_term t = {x, 1.0};
    moa_term u = {y, 1.0};
    moa_cons c, inactive;
    CHECK_OK(moa_solver_add(s, &t, 1, -2.0, MOA_EQ, MOA_REQUIRED, NULL, &c));
    CHECK_OK(moa_solver_add(s, &u, 1, -3.0, MOA_EQ, MOA_REQUIRED, NULL, &inactive));
    CHECK_OK(moa_cons_set_active(s, inactive, 0));
    CHECK_OK(moa_solver_add_edit(s, e, MOA_HIGH));
    snapshot before = snap(s, x, y);

    /* Freeing a variable in use: by an active constraint, an inactive one, or as an edit variable. */
    CHECK_STATUS(moa_var_free(s, x), MOA_MISUSE);
    CHECK_ERRMSG(s);
    CHECK_STATUS(moa_var_free(s, y), MOA_MISUSE);
    CHECK_STATUS(moa_var_free(s, e), MOA_MISUSE);
    /* Activating an active constraint; deactivating an inactive one. */
    CHECK_STATUS(moa_cons_set_active(s, c, 1), MOA_DUPLICATE);
    CHECK_ERRMSG(s);
    CHECK_STATUS(moa_cons_set_active(s, c, 42), MOA_DUPLICATE);
    CHECK_STATUS(moa_cons_set_active(s, inactive, 0), MOA_MISUSE);
    /* Edit variables: twice, not an edit variable. */
    CHECK_STATUS(moa_solver_add_edit(s, e, MOA_LOW), MOA_DUPLICATE);
    CHECK_ERRMSG(s);
    CHECK_STATUS(moa_solver_suggest(s, x, 1.0), MOA_NOTFOUND);
    CHECK_ERRMSG(s);
    CHECK_STATUS(moa_solver_remove_edit(s, x), MOA_NOTFOUND);
    CHECK_OK(moa_solver_remove_edit(s, e));
    CHECK_STATUS(moa_solver_remove_edit(s, e), MOA_NOTFOUND);
    CHECK_STATUS(moa_solver_suggest(s, e, 1.0), MOA_NOTFOUND);
    /* Double remove. */
    CHECK_OK(moa_cons_remove(s, inactive));
    CHECK_STATUS(moa_cons_remove(s, inactive), MOA_NOTFOUND);
    CHECK_OK(moa_var_free(s, e));
    CHECK_STATUS(moa_var_free(s, e), MOA_NOTFOUND);

    snapshot after = snap(s, x, y);
    CHECK(after.nvars == before.nvars - 1 && after.ncons == before.ncons - 1);
    CHECK(after.x == before.x && after.y == before.y);
    /* A success resets the message. */
    CHECK_STR(moa_solver_errmsg(s), "not an error");
    moa_solver_free(s);
}

int main(void) {
    test_null_solver();
    test_null_out();
    test_bad_ids();
    test_bad_numbers();
    test_wrong_state();
    return CHECK_DONE();
}
