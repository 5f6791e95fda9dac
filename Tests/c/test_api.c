/*
** test_api.c -- the happy path of every function in moa.h, with known answers.
*/
#include <stdlib.h>

#include "check.h"

static double value(moa_solver *s, moa_var v) {
    double x = NAN;
    CHECK_OK(moa_var_value(s, v, &x));
    return x;
}

/* Adds `coef * v + constant REL 0` and returns the id (0 on failure). */
static moa_cons add1(moa_solver *s, moa_var v, double coef, double constant, moa_relation rel, double prio,
                     const char *tag) {
    moa_term t = {v, coef};
    moa_cons c = 0;
    CHECK_OK(moa_solver_add(s, &t, 1, constant, rel, prio, tag, &c));
    CHECK(c != 0);
    return c;
}

static void test_version(void) {
    CHECK_STR(moa_libversion(), MOA_VERSION);
    CHECK(moa_libversion_number() == MOA_VERSION_NUMBER);
    CHECK(MOA_VERSION_NUMBER == MOA_VERSION_MAJOR * 1000000 + MOA_VERSION_MINOR * 1000 + MOA_VERSION_PATCH);
    CHECK(MOA_VERSION_NUMBER == 1000);
}

static void test_variables(void) {
    moa_solver *s = moa_solver_new();
    CHECK(s != NULL);
    moa_var x = 0, y = 0, anon = 0;
    const char *name = NULL;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    CHECK_OK(moa_var_new(s, NULL, &anon));
    CHECK(x != 0 && y != 0 && anon != 0);
    CHECK(x != y && y != anon && x != anon);

    CHECK_OK(moa_var_name(s, x, &name));
    CHECK_STR(name, "x");
    CHECK_OK(moa_var_name(s, anon, &name));
    CHECK_STR(name, "");
    CHECK_OK(moa_var_set_name(s, anon, "width"));
    CHECK_OK(moa_var_name(s, anon, &name));
    CHECK_STR(name, "width");
    CHECK_OK(moa_var_set_name(s, anon, NULL));
    CHECK_OK(moa_var_name(s, anon, &name));
    CHECK_STR(name, "");
    /* Invalid UTF-8 is repaired, not rejected: each bad byte becomes U+FFFD. */
    CHECK_OK(moa_var_set_name(s, anon, "a\xff\xfe"));
    CHECK_OK(moa_var_name(s, anon, &name));
    CHECK_STR(name, "a\xEF\xBF\xBD\xEF\xBF\xBD");
    /* UTF-8 round-trips. */
    CHECK_OK(moa_var_set_name(s, anon, "h\xC3\xB6he"));
    CHECK_OK(moa_var_name(s, anon, &name));
    CHECK_STR(name, "h\xC3\xB6he");

    CHECK_NEAR(value(s, x), 0.0); /* 0 until solved */

    size_t nv = 99, nc = 99;
    CHECK_OK(moa_solver_counts(s, &nv, &nc));
    CHECK(nv == 3 && nc == 0);
    CHECK_OK(moa_var_free(s, anon));
    CHECK_OK(moa_solver_counts(s, &nv, NULL));
    CHECK(nv == 2);
    nc = 99;
    CHECK_OK(moa_solver_counts(s, NULL, &nc));
    CHECK(nc == 0);
    CHECK_OK(moa_solver_counts(s, NULL, NULL));
    moa_solver_free(s);
}

/* x + y == 10, x == 3 -> y == 7; then the constraint accessors. */
static void test_constraints(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term sum[2] = {{x, 1.0}, {y, 1.0}};
    moa_cons csum = 0, cx = 0;
    CHECK_OK(moa_solver_add(s, sum, 2, -10.0, MOA_EQ, MOA_REQUIRED, "sum", &csum));
    cx = add1(s, x, 1.0, -3.0, MOA_EQ, MOA_REQUIRED, NULL);
    CHECK(csum != cx);
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 3.0);
    CHECK_NEAR(value(s, y), 7.0);

    size_t nv = 0, nc = 0;
    CHECK_OK(moa_solver_counts(s, &nv, &nc));
    CHECK(nv == 2 && nc == 2);

    /* Accessors. */
    int active = -1;
    double d = NAN;
    const char *str = NULL;
    CHECK_OK(moa_cons_is_active(s, csum, &active));
    CHECK(active == 1);
    CHECK_OK(moa_cons_constant(s, csum, &d));
    CHECK_NEAR(d, -10.0);
    CHECK_OK(moa_cons_priority(s, csum, &d));
    CHECK_NEAR(d, MOA_REQUIRED);
    CHECK_OK(moa_cons_weight(s, csum, &d));
    CHECK_NEAR(d, 1.0);
    CHECK_OK(moa_cons_tag(s, csum, &str));
    CHECK_STR(str, "sum");
    CHECK_OK(moa_cons_tag(s, cx, &str));
    CHECK_STR(str, "");
    CHECK_OK(moa_cons_describe(s, csum, &str));
    CHECK(str != NULL && str[0] != '\0');
    CHECK_CONTAINS(str, "x");
    CHECK_CONTAINS(str, "y");
    CHECK_CONTAINS(str, "==");
    CHECK_CONTAINS(str, "sum");

    /* set_constant: x + y == 20 -> y == 17. */
    CHECK_OK(moa_cons_set_constant(s, csum, -20.0));
    CHECK_OK(moa_cons_constant(s, csum, &d));
    CHECK_NEAR(d, -20.0);
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, y), 17.0);

    /* set_weight / set_priority on a required constraint. */
    CHECK_OK(moa_cons_set_weight(s, csum, 2.5));
    CHECK_OK(moa_cons_weight(s, csum, &d));
    CHECK_NEAR(d, 2.5);
    CHECK_OK(moa_cons_set_priority(s, cx, MOA_HIGH));
    CHECK_OK(moa_cons_priority(s, cx, &d));
    CHECK_NEAR(d, MOA_HIGH);
    CHECK_OK(moa_cons_set_priority(s, cx, MOA_REQUIRED));
    CHECK_OK(moa_cons_priority(s, cx, &d));
    CHECK_NEAR(d, MOA_REQUIRED);

    /* Deactivate x == 3 and pin y == 4 instead (required): x == 16. */
    CHECK_OK(moa_cons_set_active(s, cx, 0));
    CHECK_OK(moa_cons_is_active(s, cx, &active));
    CHECK(active == 0);
    moa_cons cy = add1(s, y, 1.0, -4.0, MOA_EQ, MOA_REQUIRED, "y=4");
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 16.0);
    CHECK_NEAR(value(s, y), 4.0);
    CHECK_OK(moa_solver_counts(s, NULL, &nc));
    CHECK(nc == 3); /* inactive constraints count */

    /* Swap back: remove y == 4, reactivate x == 3. */
    CHECK_OK(moa_cons_remove(s, cy));
    CHECK_OK(moa_cons_set_active(s, cx, 1));
    CHECK_OK(moa_cons_is_active(s, cx, &active));
    CHECK(active == 1);
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 3.0);
    CHECK_NEAR(value(s, y), 17.0);
    CHECK_OK(moa_solver_counts(s, NULL, &nc));
    CHECK(nc == 2);

    /* A variable may occur in several terms: z + z - 8 == 0 -> z == 4. */
    moa_var z;
    CHECK_OK(moa_var_new(s, "z", &z));
    moa_term zz[2] = {{z, 1.0}, {z, 1.0}};
    moa_cons cz;
    CHECK_OK(moa_solver_add(s, zz, 2, -8.0, MOA_EQ, MOA_REQUIRED, NULL, &cz));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, z), 4.0);

    /* A constraint with no terms: 0 == 0 holds. terms may be NULL when nterms is 0. */
    moa_cons c0 = 0;
    CHECK_OK(moa_solver_add(s, NULL, 0, 0.0, MOA_EQ, MOA_REQUIRED, "trivial", &c0));
    CHECK(c0 != 0);
    CHECK_OK(moa_cons_remove(s, c0));

    /* Free a variable once nothing uses it. */
    CHECK_OK(moa_cons_remove(s, cz));
    CHECK_OK(moa_var_free(s, z));
    CHECK_OK(moa_solver_counts(s, &nv, &nc));
    CHECK(nv == 2 && nc == 2);

    const char *dump = NULL;
    CHECK_OK(moa_solver_dump(s, &dump));
    CHECK(dump != NULL && dump[0] != '\0');
    moa_solver_free(s);
}

/* Inequalities against weaker preferences. */
static void test_inequalities(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    add1(s, x, 1.0, -5.0, MOA_GE, MOA_REQUIRED, "x>=5");   /* x >= 5 */
    add1(s, x, 1.0, 0.0, MOA_EQ, MOA_LOW, "x=0");          /* x == 0, weak */
    add1(s, y, 1.0, -2.5, MOA_LE, MOA_REQUIRED, "y<=2.5"); /* y <= 2.5 */
    add1(s, y, 1.0, -100.0, MOA_EQ, MOA_MEDIUM, "y=100");  /* y == 100, medium */
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, x), 5.0);
    CHECK_NEAR(value(s, y), 2.5);
    moa_solver_free(s);
}

/* Strict priorities: y == 0 @751 beats a hundred y == 100 @750. */
static void test_strict_priorities(void) {
    moa_solver *s = moa_solver_new();
    moa_var y;
    CHECK_OK(moa_var_new(s, "y", &y));
    add1(s, y, 1.0, 0.0, MOA_EQ, 751.0, "y=0");
    for (int i = 0; i < 100; i++) add1(s, y, 1.0, -100.0, MOA_EQ, 750.0, NULL);
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, y), 0.0);
    moa_solver_free(s);
}

/* Weights within one priority: |a| * 1 + |a - 10| * 3 is least at a == 10. */
static void test_weights(void) {
    moa_solver *s = moa_solver_new();
    moa_var a;
    CHECK_OK(moa_var_new(s, "a", &a));
    add1(s, a, 1.0, 0.0, MOA_EQ, MOA_MEDIUM, "a=0");
    moa_cons c10 = add1(s, a, 1.0, -10.0, MOA_EQ, MOA_MEDIUM, "a=10");
    CHECK_OK(moa_cons_set_weight(s, c10, 3.0));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, a), 10.0);
    /* Raising a=0's priority above medium makes it win regardless of weights. */
    moa_cons c0 = add1(s, a, 1.0, 0.0, MOA_EQ, MOA_LOW, "a=0 low");
    CHECK_OK(moa_cons_set_priority(s, c0, MOA_HIGH));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, a), 0.0);
    moa_solver_free(s);
}

/* Edit variables: left + width == right, left == 10 (required); drag the width. */
static void test_edit(void) {
    moa_solver *s = moa_solver_new();
    moa_var l, w, r;
    CHECK_OK(moa_var_new(s, "left", &l));
    CHECK_OK(moa_var_new(s, "width", &w));
    CHECK_OK(moa_var_new(s, "right", &r));
    moa_term t[3] = {{l, 1.0}, {w, 1.0}, {r, -1.0}};
    moa_cons c;
    CHECK_OK(moa_solver_add(s, t, 3, 0.0, MOA_EQ, MOA_REQUIRED, "l+w=r", &c));
    add1(s, l, 1.0, -10.0, MOA_EQ, MOA_REQUIRED, "l=10");
    add1(s, w, 1.0, -50.0, MOA_EQ, MOA_LOW, "w=50 weak");

    int has = -1;
    CHECK_OK(moa_solver_has_edit(s, w, &has));
    CHECK(has == 0);
    CHECK_OK(moa_solver_add_edit(s, w, MOA_HIGH));
    CHECK_OK(moa_solver_has_edit(s, w, &has));
    CHECK(has == 1);

    CHECK_OK(moa_solver_suggest(s, w, 42.0));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, w), 42.0);
    CHECK_NEAR(value(s, r), 52.0);
    CHECK_OK(moa_solver_suggest(s, w, 17.0));
    CHECK_OK(moa_solver_suggest(s, w, 7.5)); /* the last suggestion wins */
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, w), 7.5);
    CHECK_NEAR(value(s, r), 17.5);

    /* A second edit variable on the right edge, weaker than the width's. */
    CHECK_OK(moa_solver_add_edit(s, r, MOA_MEDIUM));
    CHECK_OK(moa_solver_suggest(s, r, 300.0));
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, w), 7.5);
    CHECK_NEAR(value(s, r), 17.5);
    CHECK_OK(moa_solver_remove_edit(s, w));
    CHECK_OK(moa_solver_has_edit(s, w, &has));
    CHECK(has == 0);
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, r), 300.0);
    CHECK_NEAR(value(s, w), 290.0);
    CHECK_OK(moa_solver_remove_edit(s, r));

    /* Once it is no edit variable and in no constraint, a variable can be freed. */
    moa_var e;
    CHECK_OK(moa_var_new(s, "e", &e));
    CHECK_OK(moa_solver_add_edit(s, e, MOA_LOW));
    CHECK_OK(moa_solver_remove_edit(s, e));
    CHECK_OK(moa_var_free(s, e));
    moa_solver_free(s);
}

/* reset drops everything; the solver works as new afterwards. */
static void test_reset(void) {
    moa_solver *s = moa_solver_new();
    moa_var x;
    CHECK_OK(moa_var_new(s, "x", &x));
    add1(s, x, 1.0, -1.0, MOA_EQ, MOA_REQUIRED, NULL);
    CHECK_OK(moa_solver_add_edit(s, x, MOA_LOW));
    CHECK_OK(moa_solver_reset(s));
    size_t nv = 9, nc = 9;
    CHECK_OK(moa_solver_counts(s, &nv, &nc));
    CHECK(nv == 0 && nc == 0);
    moa_var y;
    CHECK_OK(moa_var_new(s, "y", &y));
    add1(s, y, 2.0, -3.0, MOA_EQ, MOA_REQUIRED, NULL);
    CHECK_OK(moa_solver_update(s));
    CHECK_NEAR(value(s, y), 1.5);
    moa_solver_free(s);
}

int main(void) {
    test_version();
    test_variables();
    test_constraints();
    test_inequalities();
    test_strict_priorities();
    test_weights();
    test_edit();
    test_reset();
    moa_solver_free(NULL); /* no-op */
    return CHECK_DONE();
}
