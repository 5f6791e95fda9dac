/*
** test_limits.c -- limits and the progress callback (moa.h, "Limits and progress"): a call that reaches a limit
** fails with MOA_LIMIT and changes nothing; the progress callback sees the steps, can stop a call, and cannot
** change the layout it reports on; usage follows adds and removals.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A solver's description and every variable's value, to compare before and after a failed call. */
static char *solver_state(moa_solver *s, const moa_var *vars, size_t n) {
    const char *dump = NULL;
    CHECK_OK(moa_solver_update(s));
    CHECK_OK(moa_solver_dump(s, &dump));
    size_t len = strlen(dump) + 64 * n + 1;
    char *out = malloc(len);
    strcpy(out, dump);
    for (size_t i = 0; i < n; i++) {
        double v = 0;
        CHECK_OK(moa_var_value(s, vars[i], &v));
        snprintf(out + strlen(out), len - strlen(out), " %.17g", v);
    }
    return out;
}

static void test_solver_limits(void) {
    moa_solver *s = moa_solver_new();
    double v = 0;
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_ROWS, &v));
    CHECK(v == 10000000);
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_CELLS, &v));
    CHECK(v == 100000000);
    CHECK_STATUS(moa_solver_limit(s, MOA_LIMIT_SECONDS, &v), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_SECONDS, 1), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, 7, 1), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_ROWS, 0), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_ROWS, 2.5), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_CELLS, NAN), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(NULL, MOA_LIMIT_ROWS, 3), MOA_MISUSE);
    CHECK_STATUS(moa_solver_limit(s, MOA_LIMIT_ROWS, NULL), MOA_MISUSE);
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_ROWS, 3));
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_ROWS, &v));
    CHECK(v == 3);

    moa_var x[4];
    for (int i = 0; i < 4; i++) CHECK_OK(moa_var_new(s, NULL, &x[i]));
    moa_cons c;
    for (int i = 0; i < 3; i++) {
        moa_term t[2] = {{x[i], 1}, {x[i + 1], -1}};
        CHECK_OK(moa_solver_add(s, t, 2, -10, MOA_EQ, MOA_REQUIRED, NULL, &c));
    }
    moa_usage u;
    CHECK_OK(moa_solver_usage(s, &u));
    CHECK(u.rows == 3 && u.variables == 4 && u.constraints == 3 && u.views == 0 && u.cells >= 3);
    char *before = solver_state(s, x, 4);
    moa_term t0 = {x[0], 1};
    CHECK_STATUS(moa_solver_add(s, &t0, 1, -5, MOA_EQ, MOA_REQUIRED, NULL, &c), MOA_LIMIT);
    CHECK_CONTAINS(moa_solver_errmsg(s), "limit");
    CHECK_STATUS(moa_solver_add_edit(s, x[0], 750.0), MOA_LIMIT);
    char *after = solver_state(s, x, 4);
    CHECK_STR(before, after);
    free(after);
    /* Raised, the add goes in; removals free rows. */
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_ROWS, 4));
    CHECK_OK(moa_solver_add(s, &t0, 1, -5, MOA_EQ, MOA_REQUIRED, NULL, &c));
    CHECK_OK(moa_solver_update(s));
    CHECK_OK(moa_var_value(s, x[3], &v));
    CHECK_NEAR(v, -25);
    CHECK_OK(moa_cons_remove(s, c));
    CHECK_OK(moa_solver_usage(s, &u));
    CHECK(u.rows == 3);
    CHECK_STATUS(moa_solver_usage(s, NULL), MOA_MISUSE);
    /* Cells: a limit at the current count refuses the next add. */
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_ROWS, 100));
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_CELLS, (double)u.cells));
    CHECK_STATUS(moa_solver_add(s, &t0, 1, -5, MOA_GE, MOA_REQUIRED, NULL, &c), MOA_LIMIT);
    /* A reset keeps the limits. */
    CHECK_OK(moa_solver_reset(s));
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_ROWS, &v));
    CHECK(v == 100);
    free(before);
    moa_solver_free(s);
}

/* A row of n views with a label inside each: 4 views per column of text. */
static char *row_equations(int n) {
    size_t cap = (size_t)n * 200 + 1;
    char *text = malloc(cap);
    text[0] = 0;
    for (int i = 0; i < n; i++) {
        char line[200];
        if (i == 0) snprintf(line, sizeof line, "v0.left == 0\n");
        else snprintf(line, sizeof line, "v%d.left == v%d.right + 4\n", i, i - 1);
        strcat(text, line);
        snprintf(line, sizeof line, "v%d.top == 0\nv%d.size == 20x30\nv%d.width >= 10 @ 250\n", i, i, i);
        strcat(text, line);
    }
    return text;
}

static moa_layout *row_layout(int n) {
    moa_layout *L = moa_layout_new(320, 480);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "v%d", i);
        moa_view v;
        CHECK_OK(moa_view_new(L, name, 0, &v));
    }
    return L;
}

typedef struct {
    uint64_t calls, last, stop_at;
    moa_status inner; /* what a call on the layout returned from inside the callback */
    int try_inner;
} progress_log;

static int on_progress(moa_layout *L, uint64_t steps, void *ud) {
    progress_log *p = ud;
    p->calls++;
    CHECK(steps > p->last);
    p->last = steps;
    if (p->try_inner) {
        p->inner = moa_layout_solve(L, NULL);
        moa_lcons c;
        moa_status st = moa_layout_eq(L, "v0.top == 5", &c);
        if (st != MOA_MISUSE) p->inner = st;
        moa_rect r;
        CHECK_OK(moa_layout_root_size(L, &r.width, &r.height)); /* reading is fine */
    }
    return p->stop_at != 0 && steps >= p->stop_at;
}

static void test_layout_limits(void) {
    const int n = 300;
    char *text = row_equations(n);
    moa_layout *L = row_layout(n);
    double v = -1;
    CHECK_OK(moa_layout_limit(L, MOA_LIMIT_SECONDS, &v));
    CHECK(v == 0);
    CHECK_OK(moa_layout_limit(L, MOA_LIMIT_CELLS, &v));
    CHECK(v == 100000000);
    CHECK_STATUS(moa_layout_set_limit(L, MOA_LIMIT_SECONDS, -1), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_limit(L, MOA_LIMIT_SECONDS, INFINITY), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_limit(L, 3, 1), MOA_INVALID);
    CHECK_STATUS(moa_layout_limit(L, MOA_LIMIT_ROWS, NULL), MOA_MISUSE);
    moa_usage u0;
    CHECK_OK(moa_layout_usage(L, &u0));
    CHECK(u0.views == (size_t)n + 4); /* the root and its three guides */
    const char *d = NULL;
    CHECK_OK(moa_layout_describe(L, &d));
    char *described = strdup(d);

    /* Cells: a low limit refuses the block; nothing changed; raised, the same block goes in. */
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_CELLS, (double)u0.cells + 50));
    size_t count = 0;
    CHECK_STATUS(moa_layout_eqs(L, text, NULL, 0, &count), MOA_LIMIT);
    CHECK_CONTAINS(moa_layout_errmsg(L), "cells");
    moa_usage u;
    CHECK_OK(moa_layout_usage(L, &u));
    CHECK(u.cells == u0.cells && u.rows == u0.rows && u.constraints == u0.constraints);
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_STR(d, described);

    /* Time: a limit no call can meet stops the block after 64 constraints. */
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_CELLS, 100000000));
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_SECONDS, 1e-12));
    CHECK_STATUS(moa_layout_eqs(L, text, NULL, 0, &count), MOA_LIMIT);
    CHECK_CONTAINS(moa_layout_errmsg(L), "after 64 constraints");
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_STR(d, described);
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_SECONDS, 0));

    /* Progress: called every 100 constraints; stopping at 500 fails the call and changes nothing. */
    progress_log p = {0};
    p.stop_at = 500;
    CHECK_STATUS(moa_layout_set_progress(L, on_progress, 0, &p), MOA_INVALID);
    CHECK_OK(moa_layout_set_progress(L, on_progress, 100, &p));
    CHECK_STATUS(moa_layout_eqs(L, text, NULL, 0, &count), MOA_LIMIT);
    CHECK(p.calls == 5 && p.last == 500);
    CHECK_CONTAINS(moa_layout_errmsg(L), "progress");
    CHECK_CONTAINS(moa_layout_errmsg(L), "`v99.width >= 10 @ 250` (line 400)"); /* the 500th */
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_STR(d, described);

    /* Going on: every step reported; from inside, changing or solving the layout is misuse. */
    p = (progress_log){0};
    p.try_inner = 1;
    CHECK_OK(moa_layout_eqs(L, text, NULL, 0, &count));
    CHECK(count == (size_t)n * 5);
    CHECK(p.calls >= 12 && p.inner == MOA_MISUSE);
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_rect r;
    moa_view last = 0;
    CHECK_OK(moa_view_find(L, "v299", &last));
    CHECK_OK(moa_view_frame(L, last, &r));
    CHECK_NEAR(r.x, 299 * 24);
    CHECK_OK(moa_layout_usage(L, &u));
    CHECK(u.rows > u0.rows && u.cells > u0.cells && u.constraints > u0.constraints);

    /* Removed, the callback is not called again. */
    CHECK_OK(moa_layout_set_progress(L, NULL, 0, NULL));
    uint64_t calls = p.calls;
    CHECK_OK(moa_layout_eqs(L, text, NULL, 0, &count));
    CHECK(p.calls == calls);
    CHECK_STATUS(moa_layout_set_progress(NULL, NULL, 1, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_usage(L, NULL), MOA_MISUSE);
    free(described);
    free(text);
    moa_layout_free(L);
}

/* A progress callback that frees its layout: the free waits for the call to return (moa.h, Callbacks); the
** call may finish or stop, and nothing crashes or leaks (valgrind runs this file). */
static int free_on_progress(moa_layout *L, uint64_t steps, void *ud) {
    (void)steps;
    int *n = ud;
    if ((*n)++ == 0) moa_layout_free(L);
    return 0;
}

static void test_progress_frees_layout(void) {
    char *text = row_equations(100);
    moa_layout *L = row_layout(100);
    int n = 0;
    CHECK_OK(moa_layout_set_progress(L, free_on_progress, 10, &n));
    size_t count = 0;
    moa_status st = moa_layout_eqs(L, text, NULL, 0, &count);
    CHECK(st == MOA_OK || st == MOA_LIMIT);
    CHECK(n >= 1);
    free(text);
}

/* A call that takes constraints out and then meets a limit puts them back: undoing is never limited (a
** direction change rebuilds the view's leading constraints; found by the Lua binding's tests). */
static void test_undo_is_not_limited(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view a;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    moa_lcons cs[8];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, "a.leading == 10\na.top == 0\na.size == 50x20", cs, 8, &n));
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_usage before, after;
    CHECK_OK(moa_layout_usage(L, &before));
    const char *d = NULL;
    CHECK_OK(moa_layout_describe(L, &d));
    char *described = strdup(d);
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_ROWS, 1));
    CHECK_STATUS(moa_view_set_direction(L, a, MOA_RTL), MOA_LIMIT);
    CHECK_OK(moa_layout_usage(L, &after));
    CHECK(after.rows == before.rows && after.constraints == before.constraints);
    int active = 0;
    CHECK_OK(moa_lcons_active(L, cs[0], &active));
    CHECK(active == 1);
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_STR(d, described);
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_rect r;
    CHECK_OK(moa_view_frame(L, a, &r));
    CHECK_NEAR(r.x, 10);
    free(described);
    moa_layout_free(L);
}

int main(void) {
    test_undo_is_not_limited();
    test_progress_frees_layout();
    test_solver_limits();
    test_layout_limits();
    return CHECK_DONE();
}
