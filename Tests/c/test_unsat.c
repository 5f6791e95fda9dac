/*
** test_unsat.c -- MOA_UNSATISFIABLE: the failing call changes nothing, moa_solver_conflicts() names the
** culprits, the message describes them, and a success clears both.
*/
#include <stdlib.h>

#include "check.h"

static double value(moa_solver *s, moa_var v) {
    double x = NAN;
    CHECK_OK(moa_var_value(s, v, &x));
    return x;
}

static moa_status add1(moa_solver *s, moa_var v, double constant, moa_relation rel, double prio, const char *tag,
                       moa_cons *out) {
    moa_term t = {v, 1.0};
    return moa_solver_add(s, &t, 1, constant, rel, prio, tag, out);
}

static size_t conflicts(moa_solver *s, moa_cons *out, size_t cap) {
    size_t n = 12345;
    CHECK_OK(moa_solver_conflicts(s, out, cap, &n));
    return n;
}

/* Strong edit on x; x >= 2 required; x <= 1 required fails with conflicts = [x >= 2]. */
static void test_failed_add(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term xy[2] = {{x, 1.0}, {y, -1.0}};
    moa_cons cxy;
    CHECK_OK(moa_solver_add(s, xy, 2, 0.0, MOA_EQ, MOA_MEDIUM, "y=x", &cxy));
    CHECK_OK(moa_solver_add_edit(s, x, MOA_HIGH));
    CHECK_OK(moa_solver_suggest(s, x, 5.0));
    moa_cons ge = 0, le = 0;
    CHECK_OK(add1(s, x, -2.0, MOA_GE, MOA_REQUIRED, "x>=2", &ge));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 5.0);
    CHECK_NEAR(value(s, y), 5.0);
    CHECK(conflicts(s, NULL, 0) == 0);

    size_t nv0, nc0;
    CHECK_OK(moa_solver_counts(s, &nv0, &nc0));
    CHECK_STATUS(add1(s, x, -1.0, MOA_LE, MOA_REQUIRED, "x<=1", &le), MOA_UNSATISFIABLE);
    CHECK(le == 0); /* not written */

    /* The message names the conflicting constraint; errmsg and conflicts do not change the state. */
    const char *msg = moa_solver_errmsg(s);
    CHECK_CONTAINS(msg, "x>=2");
    CHECK_CONTAINS(msg, "unsatisfiable");
    moa_cons list[4] = {0, 0, 0, 0};
    CHECK(conflicts(s, NULL, 0) == 1);
    CHECK(conflicts(s, list, 4) == 1);
    CHECK(list[0] == ge);
    CHECK(list[1] == 0);
    CHECK_CONTAINS(moa_solver_errmsg(s), "x>=2");

    /* Nothing changed: counts, values (before and after an update). */
    size_t nv, nc;
    CHECK_OK(moa_solver_counts(s, &nv, &nc)); /* a success: clears the list and the message */
    CHECK(nv == nv0 && nc == nc0);
    CHECK(conflicts(s, list, 4) == 0);
    CHECK_STR(moa_solver_errmsg(s), "not an error");
    CHECK_NEAR(value(s, x), 5.0);
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 5.0);
    CHECK_NEAR(value(s, y), 5.0);
    CHECK_OK(moa_solver_suggest(s, x, 1.5)); /* x >= 2 still holds and still wins over the edit */
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 2.0);
    CHECK_NEAR(value(s, y), 2.0);

    /* Remove and re-add x >= 2: succeeds. */
    CHECK_OK(moa_cons_remove(s, ge));
    CHECK_OK(add1(s, x, -2.0, MOA_GE, MOA_REQUIRED, "x>=2 again", &ge));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 2.0);
    CHECK_STATUS(add1(s, x, -1.0, MOA_LE, MOA_REQUIRED, "x<=1", &le), MOA_UNSATISFIABLE);
    CHECK(conflicts(s, list, 4) == 1 && list[0] == ge);
    CHECK_CONTAINS(moa_solver_errmsg(s), "x>=2 again");

    /* Without x >= 2, x <= 1 can be added. */
    CHECK_OK(moa_cons_remove(s, ge));
    CHECK_OK(add1(s, x, -1.0, MOA_LE, MOA_REQUIRED, "x<=1", &le));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 1.0);
    CHECK_OK(moa_solver_suggest(s, x, -4.0));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), -4.0);
    /* A non-required conflicting constraint is fine: it just loses. */
    CHECK_OK(add1(s, x, -2.0, MOA_GE, 999.0, "x>=2 weak", &ge));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 1.0);
    moa_solver_free(s);
}

/* Two culprits; the count is the full count even when cap is smaller. */
static void test_two_conflicts(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term xy[2] = {{x, 1.0}, {y, 1.0}};
    moa_cons sum, cx, cy, unrelated;
    moa_var z;
    CHECK_OK(moa_var_new(s, "z", &z));
    CHECK_OK(add1(s, z, -1.0, MOA_EQ, MOA_REQUIRED, "z=1", &unrelated));
    CHECK_OK(moa_solver_add(s, xy, 2, -10.0, MOA_EQ, MOA_REQUIRED, "x+y=10", &sum));
    CHECK_OK(add1(s, x, -3.0, MOA_EQ, MOA_REQUIRED, "x=3", &cx));
    CHECK_STATUS(add1(s, y, -8.0, MOA_EQ, MOA_REQUIRED, "y=8", &cy), MOA_UNSATISFIABLE);
    moa_cons list[3] = {0, 0, 0};
    CHECK(conflicts(s, list, 1) == 2);
    CHECK(list[0] == sum || list[0] == cx);
    CHECK(list[1] == 0); /* only cap ids written */
    CHECK(conflicts(s, list, 3) == 2);
    CHECK((list[0] == sum && list[1] == cx) || (list[0] == cx && list[1] == sum));
    CHECK(list[2] == 0);
    const char *msg = moa_solver_errmsg(s);
    CHECK_CONTAINS(msg, "x+y=10");
    CHECK_CONTAINS(msg, "x=3");
    CHECK(strstr(msg, "z=1") == NULL);
    /* The conflicting ids are real: describe them. */
    const char *d = NULL;
    CHECK_OK(moa_cons_describe(s, list[0], &d));
    CHECK(d != NULL && d[0] != '\0');
    CHECK_OK(moa_solver_update(s));
    double v = 0;
    CHECK_OK(moa_var_value(s, y, &v));
    CHECK_NEAR(v, 7.0);
    moa_solver_free(s);
}

/* The other ways to make a required constraint conflict: activate, set_priority, set_constant. */
static void test_other_failures(void) {
    moa_solver *s = moa_solver_new();
    moa_var x;
    moa_cons le, ge, soft, floor0;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(add1(s, x, -2.0, MOA_GE, MOA_REQUIRED, "x>=2", &ge));
    CHECK_OK(moa_cons_set_active(s, ge, 0));
    CHECK_OK(add1(s, x, -1.0, MOA_LE, MOA_REQUIRED, "x<=1", &le));
    /* activate */
    CHECK_STATUS(moa_cons_set_active(s, ge, 1), MOA_UNSATISFIABLE);
    moa_cons list[2] = {0, 0};
    CHECK(conflicts(s, list, 2) == 1 && list[0] == le);
    CHECK_CONTAINS(moa_solver_errmsg(s), "x<=1");
    int active = -1;
    CHECK_OK(moa_cons_is_active(s, ge, &active));
    CHECK(active == 0);
    /* set_priority across required */
    CHECK_OK(moa_cons_remove(s, ge));
    CHECK_OK(add1(s, x, -2.0, MOA_GE, MOA_HIGH, "x>=2 soft", &soft));
    CHECK_STATUS(moa_cons_set_priority(s, soft, MOA_REQUIRED), MOA_UNSATISFIABLE);
    CHECK(conflicts(s, list, 2) == 1 && list[0] == le);
    double p = 0;
    CHECK_OK(moa_cons_priority(s, soft, &p));
    CHECK_NEAR(p, MOA_HIGH);
    /* set_constant of a required constraint */
    CHECK_OK(add1(s, x, 0.0, MOA_GE, MOA_REQUIRED, "x>=0", &floor0));
    CHECK_STATUS(moa_cons_set_constant(s, floor0, -3.0), MOA_UNSATISFIABLE); /* x >= 3 */
    CHECK(conflicts(s, list, 2) == 1 && list[0] == le);
    double k = 1;
    CHECK_OK(moa_cons_constant(s, floor0, &k));
    CHECK_NEAR(k, 0.0);
    CHECK_OK(moa_solver_update(s));
    double v = 0;
    CHECK_OK(moa_var_value(s, x, &v));
    CHECK_NEAR(v, 1.0);
    moa_solver_free(s);
}

/* A constant-only required constraint that cannot hold: 5 == 0. */
static void test_constant_only(void) {
    moa_solver *s = moa_solver_new();
    moa_cons c = 0;
    CHECK_STATUS(moa_solver_add(s, NULL, 0, 5.0, MOA_EQ, MOA_REQUIRED, "5=0", &c), MOA_UNSATISFIABLE);
    CHECK(conflicts(s, NULL, 0) == 0);
    CHECK_OK(moa_solver_add(s, NULL, 0, 5.0, MOA_GE, MOA_REQUIRED, "5>=0", &c));
    moa_solver_free(s);
}

int main(void) {
    test_failed_add();
    test_two_conflicts();
    test_other_failures();
    test_constant_only();
    return CHECK_DONE();
}
