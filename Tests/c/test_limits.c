/*
** test_limits.c -- limits and the progress callback (moa.h, "Limits and progress"): a call that reaches a limit
** (rows, cells, pivots or time, on a solver or a layout) fails with MOA_LIMIT and changes nothing; the progress
** callback sees the steps, can stop a call, and cannot change the layout it reports on; usage follows adds and
** removals.
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
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_PIVOTS, &v));
    CHECK(v == 10000000);
    v = -1;
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_SECONDS, &v));
    CHECK(v == 0);
    /* Seconds: finite and >= 0 (0 is none); pivots: a whole number >= 1, as rows and cells. */
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_SECONDS, NAN), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_SECONDS, -1), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_SECONDS, INFINITY), MOA_INVALID);
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_SECONDS, 2.5));
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_SECONDS, &v));
    CHECK(v == 2.5);
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_SECONDS, 0));
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_SECONDS, &v));
    CHECK(v == 0);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, 0), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, 2.5), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, NAN), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, -1), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, 0x1p53 * 2), MOA_INVALID);
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_PIVOTS, &v));
    CHECK(v == 10000000);
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, 0x1p53));
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_PIVOTS, &v));
    CHECK(v == 0x1p53);
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, 10000000));
    CHECK_STATUS(moa_solver_set_limit(s, 4, 1), MOA_INVALID);
    CHECK_STATUS(moa_solver_limit(s, 4, &v), MOA_INVALID);
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
    CHECK_OK(moa_solver_set_limit(s, MOA_LIMIT_PIVOTS, 5));
    CHECK_OK(moa_solver_reset(s));
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_ROWS, &v));
    CHECK(v == 100);
    CHECK_OK(moa_solver_limit(s, MOA_LIMIT_PIVOTS, &v));
    CHECK(v == 5);
    free(before);
    moa_solver_free(s);
}

/* The drag row (shared/bench/DRAG.md): container.left, container.right, then left and width of n boxes, each box
** 8 after the previous one, at least 20 wide, preferring 40.5 to 72.75 at one of seven soft priorities with
** distinct weights (a unique optimum); the trailing space prefers 8 (@325); container.right is an edit (@750)
** suggested at the natural width. Suggesting the minimum width (drag_min) then takes a pivot per box. */
typedef struct {
    moa_solver *s;
    int n;
    moa_var *vars; /* 2 + 2n: container.left, container.right, left_0, width_0, left_1, ... */
} drag_row;

static const double drag_prefs[4] = {40.5, 50.25, 60.125, 72.75};

static double drag_natural(int n) {
    double w = 8.0 * n + 8;
    for (int i = 0; i < n; i++) w += drag_prefs[i % 4];
    return w;
}

static double drag_min(int n) { return 28.0 * n + 8; }

static moa_cons drag_add(moa_solver *s, moa_term *t, size_t nt, double k, moa_relation rel, double priority) {
    moa_cons c = 0;
    CHECK_OK(moa_solver_add(s, t, nt, k, rel, priority, NULL, &c));
    return c;
}

static drag_row drag_row_new(int n) {
    drag_row R = {moa_solver_new(), n, malloc(sizeof(moa_var) * (size_t)(2 + 2 * n))};
    moa_solver *s = R.s;
    moa_var *v = R.vars;
    for (int i = 0; i < 2 + 2 * n; i++) CHECK_OK(moa_var_new(s, NULL, &v[i]));
    moa_var cl = v[0], cr = v[1], *left = v + 2, *width = v + 3; /* left[2 * i], width[2 * i] */
    moa_term t[3];
    t[0] = (moa_term){cl, 1};
    drag_add(s, t, 1, 0, MOA_EQ, MOA_REQUIRED);
    t[0] = (moa_term){left[0], 1}, t[1] = (moa_term){cl, -1};
    drag_add(s, t, 2, -8, MOA_EQ, MOA_REQUIRED);
    for (int i = 0; i < n; i++) {
        if (i > 0) {
            t[0] = (moa_term){left[2 * i], 1}, t[1] = (moa_term){left[2 * i - 2], -1};
            t[2] = (moa_term){width[2 * i - 2], -1};
            drag_add(s, t, 3, -8, MOA_EQ, MOA_REQUIRED);
        }
        t[0] = (moa_term){width[2 * i], 1};
        drag_add(s, t, 1, -20, MOA_GE, MOA_REQUIRED);
        moa_cons pref = drag_add(s, t, 1, -drag_prefs[i % 4], MOA_EQ, 250 + 8 * (i % 7));
        CHECK_OK(moa_cons_set_weight(s, pref, 1 + i / 1024.0));
    }
    t[0] = (moa_term){cr, 1}, t[1] = (moa_term){left[2 * n - 2], -1}, t[2] = (moa_term){width[2 * n - 2], -1};
    drag_add(s, t, 3, -8, MOA_GE, MOA_REQUIRED);
    drag_add(s, t, 3, -8, MOA_EQ, 325);
    CHECK_OK(moa_solver_add_edit(s, cr, 750));
    CHECK_OK(moa_solver_suggest(s, cr, drag_natural(n)));
    CHECK_OK(moa_solver_update(s));
    return R;
}

static void drag_row_free(drag_row R) {
    moa_solver_free(R.s);
    free(R.vars);
}

/* Every value after an update, into a new array. */
static double *drag_values(drag_row R) {
    size_t n = (size_t)(2 + 2 * R.n);
    double *out = malloc(sizeof(double) * n);
    CHECK_OK(moa_solver_update(R.s));
    CHECK_OK(moa_solver_values(R.s, R.vars, n, out));
    return out;
}

/* Whether two value arrays of the row are equal, exactly (a failed call changes nothing). */
static int drag_same(drag_row R, const double *a, const double *b) {
    for (int i = 0; i < 2 + 2 * R.n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* Whether every box of the row is at its minimum width 20. */
static int drag_all_min(drag_row R, const double *values) {
    for (int i = 0; i < R.n; i++)
        if (fabs(values[3 + 2 * i] - 20) > 1e-9) return 0;
    return 1;
}

/* A failed call changed nothing: the values are `natural`, the solver's state `state` (solver_state). */
static void drag_unchanged(drag_row R, const double *natural, const char *state) {
    double *after = drag_values(R);
    CHECK(drag_same(R, natural, after));
    free(after);
    char *now = solver_state(R.s, R.vars, (size_t)(2 + 2 * R.n));
    CHECK_STR(now, state);
    free(now);
}

/* Pivots: a suggestion that needs a pivot per box fails under a limit of 3 and changes nothing (the suggestion
** is rolled back); raised, the same suggestion goes through. An add that needs re-optimising, and a constant
** change, fail the same way under a limit of 1, constraint counts included. */
static void test_solver_pivots(void) {
    const int n = 40;
    drag_row R = drag_row_new(n);
    moa_var cr = R.vars[1];
    double *natural = drag_values(R);
    CHECK_NEAR(natural[1], drag_natural(n));
    CHECK_NEAR(natural[3], 40.5);
    char *state = solver_state(R.s, R.vars, (size_t)(2 + 2 * n));

    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_PIVOTS, 3));
    CHECK_STATUS(moa_solver_suggest(R.s, cr, drag_min(n)), MOA_LIMIT);
    CHECK_CONTAINS(moa_solver_errmsg(R.s), "limit of 3 pivots");
    drag_unchanged(R, natural, state);
    double *after;
    /* A small move (the cheapest box, box 0, stretches by 1) still goes through under the limit. */
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_natural(n) + 1));
    after = drag_values(R);
    CHECK_NEAR(after[1], drag_natural(n) + 1);
    CHECK_NEAR(after[3], 41.5);
    free(after);
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_natural(n)));

    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_PIVOTS, 10000000));
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_min(n)));
    after = drag_values(R);
    CHECK(!drag_same(R, natural, after));
    CHECK_NEAR(after[1], drag_min(n));
    CHECK(drag_all_min(R, after));
    free(after);

    /* Adds: back at the natural width, a required container.right at the minimum width, or a box made wider
    ** than it prefers, needs pivots to re-optimise: refused under a limit of 1, nothing changed. */
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_natural(n)));
    after = drag_values(R);
    CHECK(drag_same(R, natural, after));
    free(after);
    moa_usage u0, u;
    size_t ncons0 = 0, ncons = 0;
    CHECK_OK(moa_solver_usage(R.s, &u0));
    CHECK_OK(moa_solver_counts(R.s, NULL, &ncons0));
    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_PIVOTS, 1));
    moa_term right = {cr, 1}, wide = {R.vars[3 + 2 * 5], 1};
    moa_cons c = 0;
    CHECK_STATUS(moa_solver_add(R.s, &right, 1, -drag_min(n), MOA_EQ, MOA_REQUIRED, NULL, &c), MOA_LIMIT);
    CHECK_CONTAINS(moa_solver_errmsg(R.s), "limit of 1 pivot");
    CHECK_STATUS(moa_solver_add(R.s, &wide, 1, -100, MOA_EQ, MOA_REQUIRED, NULL, &c), MOA_LIMIT);
    CHECK(c == 0);
    CHECK_OK(moa_solver_usage(R.s, &u));
    CHECK_OK(moa_solver_counts(R.s, NULL, &ncons));
    CHECK(u.constraints == u0.constraints && u.rows == u0.rows && u.cells == u0.cells && ncons == ncons0);
    after = drag_values(R);
    CHECK(drag_same(R, natural, after));
    free(after);
    char *state_after = solver_state(R.s, R.vars, (size_t)(2 + 2 * n));
    CHECK_STR(state_after, state);
    free(state_after);

    /* Raised, the add goes in and the row shrinks to its minimum. */
    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_PIVOTS, 10000000));
    CHECK_OK(moa_solver_add(R.s, &right, 1, -drag_min(n), MOA_EQ, MOA_REQUIRED, NULL, &c));
    CHECK_OK(moa_solver_usage(R.s, &u));
    CHECK(u.constraints == u0.constraints + 1);
    after = drag_values(R);
    CHECK(drag_all_min(R, after));

    /* A constant change back to the natural width, under a limit of 1: refused, the old constant kept. */
    double *shrunk = after, k = 0;
    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_PIVOTS, 1));
    CHECK_STATUS(moa_cons_set_constant(R.s, c, -drag_natural(n)), MOA_LIMIT);
    CHECK_OK(moa_cons_constant(R.s, c, &k));
    CHECK(k == -drag_min(n));
    after = drag_values(R);
    CHECK(drag_same(R, shrunk, after));
    free(after);
    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_PIVOTS, 10000000));
    CHECK_OK(moa_cons_set_constant(R.s, c, -drag_natural(n)));
    after = drag_values(R);
    CHECK_NEAR(after[1], drag_natural(n));
    CHECK_NEAR(after[3], 40.5);
    free(after);
    free(shrunk);
    free(state);
    free(natural);
    drag_row_free(R);
}

/* Time on a raw solver: a suggestion that needs hundreds of pivots reads the clock after 64 of them, finds a
** limit of 1 ns past and fails, changing nothing; with no limit (0) it goes through. */
static void test_solver_seconds(void) {
    const int n = 400;
    drag_row R = drag_row_new(n);
    moa_var cr = R.vars[1];
    double *natural = drag_values(R);
    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_SECONDS, 1e-9));
    double v = 0;
    CHECK_OK(moa_solver_limit(R.s, MOA_LIMIT_SECONDS, &v));
    CHECK(v == 1e-9);
    CHECK_STATUS(moa_solver_suggest(R.s, cr, drag_min(n)), MOA_LIMIT);
    CHECK_CONTAINS(moa_solver_errmsg(R.s), "limit of");
    double *after = drag_values(R);
    CHECK(drag_same(R, natural, after));
    free(after);
    CHECK_OK(moa_solver_set_limit(R.s, MOA_LIMIT_SECONDS, 0));
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_min(n)));
    after = drag_values(R);
    CHECK_NEAR(after[1], drag_min(n));
    CHECK(drag_all_min(R, after));
    free(after);
    free(natural);
    drag_row_free(R);
}

/* A raw solver's progress function: a suggestion that takes a pivot per box of a 600-box row calls it every
** 100 pivots; from there every call on the solver fails with MOA_MISUSE; stopping makes the suggestion fail with
** MOA_LIMIT and changes nothing; going on lets it finish; a free from it waits for the call to return. */
typedef struct {
    int calls, stop, free_it;
    uint64_t last;
    moa_status inner;
} solver_progress_log;

static int on_solver_progress(moa_solver *s, uint64_t pivots, void *ud) {
    solver_progress_log *p = ud;
    moa_usage u;
    p->calls++;
    CHECK(pivots > p->last && pivots % 100 == 0);
    p->last = pivots;
    p->inner = moa_solver_usage(s, &u);
    if (p->free_it) moa_solver_free(s);
    return p->stop;
}

static void test_solver_progress(void) {
    const int n = 600;
    drag_row R = drag_row_new(n);
    moa_var cr = R.vars[1];
    double *natural = drag_values(R);
    char *state = solver_state(R.s, R.vars, (size_t)(2 + 2 * n));
    solver_progress_log p = {0, 1, 0, 0, MOA_OK};
    CHECK_STATUS(moa_solver_set_progress(R.s, on_solver_progress, 0, &p), MOA_INVALID);
    CHECK_STATUS(moa_solver_set_progress(NULL, on_solver_progress, 1, &p), MOA_MISUSE);
    CHECK_OK(moa_solver_set_progress(R.s, on_solver_progress, 100, &p));
    CHECK_STATUS(moa_solver_suggest(R.s, cr, drag_min(n)), MOA_LIMIT);
    CHECK_CONTAINS(moa_solver_errmsg(R.s), "progress");
    CHECK(p.calls == 1 && p.last == 100 && p.inner == MOA_MISUSE);
    drag_unchanged(R, natural, state);
    double *after;

    p = (solver_progress_log){0, 0, 0, 0, MOA_OK};
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_min(n)));
    CHECK(p.calls >= 3 && p.inner == MOA_MISUSE);
    after = drag_values(R);
    CHECK(drag_all_min(R, after));
    free(after);
    CHECK_OK(moa_solver_set_progress(R.s, NULL, 0, NULL));
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_natural(n)));
    CHECK(p.calls >= 3); /* removed: not called any more */
    int calls = p.calls;
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_min(n)));
    CHECK(p.calls == calls);

    /* Freed from the progress function: the call goes on to its end (here: stopped), then the solver goes. */
    CHECK_OK(moa_solver_suggest(R.s, cr, drag_natural(n)));
    p = (solver_progress_log){0, 1, 1, 0, MOA_OK};
    CHECK_OK(moa_solver_set_progress(R.s, on_solver_progress, 100, &p));
    CHECK_STATUS(moa_solver_suggest(R.s, cr, drag_min(n)), MOA_LIMIT);
    CHECK(p.calls == 1);
    free(state);
    free(natural);
    free(R.vars); /* the solver is gone */
}

/* Views b0 ... b(n-1) in a row 8 apart from x = 8, each at least min_width wide and preferring a drag_prefs
** width at its own priority, and their equations (malloc'd); their ids into views when not NULL. */
static char *box_row(moa_layout *L, int n, double min_width, moa_view *views) {
    size_t cap = (size_t)n * 160 + 1;
    char *text = malloc(cap), line[200];
    text[0] = 0;
    for (int i = 0; i < n; i++) {
        char name[16];
        moa_view v;
        snprintf(name, sizeof name, "b%d", i);
        CHECK_OK(moa_view_new(L, name, 0, &v));
        if (views) views[i] = v;
        if (i == 0) snprintf(line, sizeof line, "b0.left == 8\n");
        else snprintf(line, sizeof line, "b%d.left == b%d.right + 8\n", i, i - 1);
        strcat(text, line);
        snprintf(line, sizeof line, "b%d.top == 0\nb%d.height == 20\nb%d.width >= %g\nb%d.width == %g @ %d\n", i, i,
                 i, min_width, i, drag_prefs[i % 4], 250 + 8 * (i % 7));
        strcat(text, line);
    }
    return text;
}

/* Pivots on a layout: each solver operation of a call gets the limit. A row of boxes that must shrink to fit a
** required right edge needs many pivots: under a limit of 1 the block fails and no frame moves. */
static void test_layout_pivots(void) {
    const int n = 10;
    moa_layout *L = moa_layout_new(320, 480);
    moa_view views[10];
    char *text = box_row(L, n, 20, views);
    size_t count = 0;
    CHECK_OK(moa_layout_eqs(L, text, NULL, 0, &count));
    free(text);
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_rect before[10], r;
    for (int i = 0; i < n; i++) CHECK_OK(moa_view_frame(L, views[i], &before[i]));
    CHECK_NEAR(before[9].x + before[9].width, drag_natural(n) - 8); /* every box at its preference */
    const char *d = NULL;
    CHECK_OK(moa_layout_describe(L, &d));
    char *described = strdup(d);
    moa_usage u0, u;
    CHECK_OK(moa_layout_usage(L, &u0));

    const char *block = "b0.top == 0\nb9.right == root.left + 300";
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 1));
    CHECK_STATUS(moa_layout_eqs(L, block, NULL, 0, &count), MOA_LIMIT);
    CHECK_CONTAINS(moa_layout_errmsg(L), "limit of 1 pivot");
    CHECK_OK(moa_layout_solve(L, NULL));
    int same = 1;
    for (int i = 0; i < n; i++) {
        CHECK_OK(moa_view_frame(L, views[i], &r));
        same &= memcmp(&r, &before[i], sizeof r) == 0;
    }
    CHECK(same);
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_STR(d, described);
    CHECK_OK(moa_layout_usage(L, &u));
    CHECK(u.constraints == u0.constraints && u.rows == u0.rows && u.cells == u0.cells);

    /* Raised, the same block goes in and the row fits. */
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 10000000));
    CHECK_OK(moa_layout_eqs(L, block, NULL, 0, &count));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_view_frame(L, views[9], &r));
    CHECK_NEAR(r.x + r.width, 300);
    free(described);
    moa_layout_free(L);
}

/* The progress callback inside one solver operation: a row of boxes that must shrink to fit a required right
** edge takes a pivot per box in one add. The callback runs every 256 pivots (its constraint interval set too
** high to count); from there every call on the layout fails with MOA_MISUSE. Stopping makes the add fail with
** MOA_LIMIT and leaves the layout as it was; going on lets it finish. */
typedef struct {
    int calls, stop;
    moa_status solve, frame;
} inside_log;

static int on_progress_inside(moa_layout *L, uint64_t steps, void *ud) {
    inside_log *p = ud;
    double w, h;
    (void)steps;
    p->calls++;
    p->solve = moa_layout_solve(L, NULL);
    p->frame = moa_layout_root_size(L, &w, &h);
    return p->stop; /* nonzero stops */
}

static void test_progress_inside_solver(void) {
    enum { n = 1200 };
    moa_layout *L = moa_layout_new(320, 480);
    size_t count = 0;
    char *text = box_row(L, n, 1, NULL), line[200];
    CHECK_OK(moa_layout_eqs(L, text, NULL, 0, &count));
    CHECK_OK(moa_layout_solve(L, NULL));
    const char *d = NULL;
    CHECK_OK(moa_layout_describe(L, &d));
    char *described = strdup(d);
    moa_usage u0, u;
    CHECK_OK(moa_layout_usage(L, &u0));

    inside_log p = {0, 1, MOA_OK, MOA_OK};
    CHECK_OK(moa_layout_set_progress(L, on_progress_inside, 1000000, &p));
    snprintf(line, sizeof line, "b%d.right == root.left + %d", n - 1, n * 10);
    CHECK_STATUS(moa_layout_eqs(L, line, NULL, 0, &count), MOA_LIMIT);
    CHECK_CONTAINS(moa_layout_errmsg(L), "progress");
    CHECK(p.calls == 1);
    CHECK(p.solve == MOA_MISUSE && p.frame == MOA_MISUSE);
    CHECK_OK(moa_layout_describe(L, &d));
    CHECK_STR(d, described);
    CHECK_OK(moa_layout_usage(L, &u));
    CHECK(u.constraints == u0.constraints && u.rows == u0.rows && u.cells == u0.cells);

    p = (inside_log){0, 0, MOA_OK, MOA_OK};
    CHECK_OK(moa_layout_eqs(L, line, NULL, 0, &count));
    CHECK(p.calls >= 2); /* about n pivots: a call every 256 */
    CHECK(p.solve == MOA_MISUSE && p.frame == MOA_MISUSE);
    CHECK_OK(moa_layout_solve(L, NULL)); /* usable again after the call: the row fits */
    moa_view last;
    moa_rect r;
    snprintf(line, sizeof line, "b%d", n - 1);
    CHECK_OK(moa_view_find(L, line, &last));
    CHECK_OK(moa_view_frame(L, last, &r));
    CHECK_NEAR(r.x + r.width, n * 10);
    CHECK_OK(moa_layout_set_progress(L, NULL, 0, NULL));
    free(described);
    free(text);
    moa_layout_free(L);
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
    CHECK_STATUS(moa_layout_set_limit(L, MOA_LIMIT_SECONDS, NAN), MOA_INVALID);
    CHECK_OK(moa_layout_limit(L, MOA_LIMIT_PIVOTS, &v));
    CHECK(v == 10000000);
    CHECK_STATUS(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 0), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 2.5), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, NAN), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, -1), MOA_INVALID);
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 7));
    CHECK_OK(moa_layout_limit(L, MOA_LIMIT_PIVOTS, &v));
    CHECK(v == 7);
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 10000000));
    CHECK_STATUS(moa_layout_set_limit(L, 4, 1), MOA_INVALID);
    CHECK_STATUS(moa_layout_limit(L, 4, &v), MOA_INVALID);
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
    test_progress_inside_solver();
    test_solver_progress();
    test_solver_limits();
    test_solver_pivots();
    test_solver_seconds();
    test_layout_limits();
    test_layout_pivots();
    return CHECK_DONE();
}
