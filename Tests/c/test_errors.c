/*
** test_errors.c -- moa_errstr() and moa_solver_errmsg() texts, versions, string lifetimes.
*/
#include <stdlib.h>

#include "check.h"

/* strdup is POSIX, not C11. */
static char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static void test_errstr(void) {
    const moa_status codes[] = {MOA_OK,      MOA_ERROR,    MOA_MISUSE,        MOA_NOMEM, MOA_INVALID,
                                MOA_NOTFOUND, MOA_DUPLICATE, MOA_UNSATISFIABLE, MOA_PARSE, MOA_CALLBACK,
                                MOA_LIMIT};
    const size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; i++) {
        CHECK(codes[i] == (moa_status)i); /* the codes are 0..10, in this order */
        const char *s = moa_errstr(codes[i]);
        CHECK(s != NULL && s[0] != '\0');
        CHECK(s == moa_errstr(codes[i])); /* static */
        for (size_t j = 0; j < i; j++) CHECK(strcmp(s, moa_errstr(codes[j])) != 0);
        CHECK(strcmp(s, moa_errstr(-1)) != 0);
    }
    CHECK_STR(moa_errstr(MOA_OK), "not an error");
    CHECK_STR(moa_errstr(-1), "unknown status code");
    CHECK_STR(moa_errstr(11), "unknown status code");
    CHECK_STR(moa_status_name(MOA_LIMIT), "LIMIT");
    CHECK_STR(moa_errstr(1 << 20), "unknown status code");
}

static void test_errmsg(void) {
    const char *null_msg = moa_solver_errmsg(NULL);
    CHECK(null_msg != NULL && null_msg[0] != '\0');

    moa_solver *s = moa_solver_new();
    CHECK_STR(moa_solver_errmsg(s), "not an error");
    moa_var x, y;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term t = {x, 1.0};
    moa_cons c, c2;
    CHECK_OK(moa_solver_add(s, &t, 1, -1.0, MOA_EQ, MOA_REQUIRED, "x=1", &c));

    /* One failure per code the solver can produce; each message is non-empty and specific. */
    struct {
        moa_status status;
        moa_status got;
    } cases[6];
    char *msgs[6];
    int k = 0;
    cases[k].status = MOA_MISUSE;
    cases[k].got = moa_var_value(s, x, NULL);
    msgs[k++] = copy_string(moa_solver_errmsg(s));
    cases[k].status = MOA_MISUSE;
    cases[k].got = moa_var_free(s, x);
    msgs[k++] = copy_string(moa_solver_errmsg(s));
    cases[k].status = MOA_INVALID;
    cases[k].got = moa_solver_add(s, &t, 1, NAN, MOA_EQ, MOA_LOW, NULL, &c2);
    msgs[k++] = copy_string(moa_solver_errmsg(s));
    cases[k].status = MOA_NOTFOUND;
    cases[k].got = moa_var_value(s, 0, &(double){0});
    msgs[k++] = copy_string(moa_solver_errmsg(s));
    cases[k].status = MOA_DUPLICATE;
    cases[k].got = moa_cons_set_active(s, c, 1);
    msgs[k++] = copy_string(moa_solver_errmsg(s));
    cases[k].status = MOA_UNSATISFIABLE;
    cases[k].got = moa_solver_add(s, &t, 1, -2.0, MOA_EQ, MOA_REQUIRED, NULL, &c2);
    msgs[k++] = copy_string(moa_solver_errmsg(s));
    for (int i = 0; i < k; i++) {
        CHECK_STATUS(cases[i].got, cases[i].status);
        CHECK(msgs[i] != NULL && msgs[i][0] != '\0');
        CHECK(strcmp(msgs[i], "not an error") != 0);
        if (i > 0) CHECK(strcmp(msgs[i], msgs[i - 1]) != 0);
        fprintf(stderr, "    %-24s %s\n", moa_errstr(cases[i].status), msgs[i]);
    }
    CHECK_CONTAINS(msgs[0], "NULL");
    CHECK_CONTAINS(msgs[5], "x=1");
    for (int i = 0; i < k; i++) free(msgs[i]);

    /* The message stays until the next recording call; errmsg and conflicts do not clear it. */
    const char *m1 = moa_solver_errmsg(s);
    size_t n = 0;
    CHECK_OK(moa_solver_conflicts(s, NULL, 0, &n));
    CHECK(n == 1);
    CHECK(moa_solver_errmsg(s) == m1);
    CHECK_CONTAINS(moa_solver_errmsg(s), "x=1");
    /* A failure of another kind replaces it and empties the conflict list. */
    CHECK_STATUS(moa_var_value(s, 0, &(double){0}), MOA_NOTFOUND);
    CHECK_OK(moa_solver_conflicts(s, NULL, 0, &n));
    CHECK(n == 0);
    /* A success resets it. */
    CHECK_OK(moa_solver_update(s));
    CHECK_STR(moa_solver_errmsg(s), "not an error");
    moa_solver_free(s);
}

/* Returned strings stay valid until the next call on that solver (errmsg/conflicts excepted). */
static void test_string_lifetime(void) {
    moa_solver *s = moa_solver_new();
    moa_var x;
    CHECK_OK(moa_var_new(s, "a fairly long variable name, longer than any small-string buffer", &x));
    const char *name = NULL;
    CHECK_OK(moa_var_name(s, x, &name));
    (void)moa_solver_errmsg(s);
    size_t n;
    CHECK_OK(moa_solver_conflicts(s, NULL, 0, &n));
    CHECK_STR(name, "a fairly long variable name, longer than any small-string buffer");
    /* Separate solvers have separate storage. */
    moa_solver *o = moa_solver_new();
    moa_var ox;
    const char *oname = NULL;
    CHECK_OK(moa_var_new(o, "other", &ox));
    CHECK_OK(moa_var_name(o, ox, &oname));
    CHECK_STR(name, "a fairly long variable name, longer than any small-string buffer");
    CHECK_STR(oname, "other");
    moa_solver_free(o);
    /* The caller's string is copied, not kept. */
    char buf[8] = "temp";
    moa_var t;
    CHECK_OK(moa_var_new(s, buf, &t));
    strcpy(buf, "XXXX");
    CHECK_OK(moa_var_name(s, t, &name));
    CHECK_STR(name, "temp");
    moa_solver_free(s);
}

/* Many solvers, many calls: no cross-talk (ids differ across solvers). */
static void test_many_solvers(void) {
    enum { N = 64 };
    moa_solver *ss[N];
    moa_var vs[N];
    for (int i = 0; i < N; i++) {
        ss[i] = moa_solver_new();
        CHECK(ss[i] != NULL);
        CHECK_OK(moa_var_new(ss[i], "v", &vs[i]));
        moa_term t = {vs[i], 1.0};
        moa_cons c;
        CHECK_OK(moa_solver_add(ss[i], &t, 1, -(double)i, MOA_EQ, MOA_REQUIRED, NULL, &c));
    }
    int distinct = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < i; j++)
            if (vs[i] == vs[j]) distinct = 0;
    CHECK(distinct);
    for (int i = 0; i < N; i++) {
        double v = -1;
        CHECK_OK(moa_solver_update(ss[i]));
        CHECK_OK(moa_var_value(ss[i], vs[i], &v));
        CHECK_NEAR(v, (double)i);
        moa_solver_free(ss[i]);
    }
}

int main(void) {
    test_errstr();
    test_errmsg();
    test_string_lifetime();
    test_many_solvers();
    return CHECK_DONE();
}
