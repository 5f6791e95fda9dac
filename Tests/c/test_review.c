/*
** test_review.c -- what an adversarial review of the C API found (sixteenth session), each reduced to a check:
** a deep hierarchy freed on a small thread stack, callbacks that changed the layout outside its checks, pans
** that accepted a constraint twice or a snap no clock can hold and ended a drag on a failed call, limits a
** frame hid, views a completion moved missing from the frame's list, error offsets into the repaired text
** instead of the caller's bytes, a bulk read that allocated before checking, and text styles.
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- a 40,000-deep hierarchy freed on a 256 KB thread (the release was recursive) ---- */

static void *deep_free(void *arg) {
    int *ok = (int *)arg;
    moa_layout *L = moa_layout_new(320, 480);
    moa_view v = 0;
    char name[32];
    for (int i = 0; i < 40000; i++) {
        snprintf(name, sizeof name, "d%d", i);
        if (moa_view_new(L, name, v, &v) != MOA_OK) return NULL;
    }
    moa_layout_free(L);
    *ok = 1;
    return NULL;
}

static void test_deep_free_on_small_stack(void) {
    pthread_attr_t a;
    pthread_t t;
    int ok = 0;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 256 * 1024);
    CHECK(pthread_create(&t, &a, deep_free, &ok) == 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&a);
    CHECK(ok);
}

/* ---- a font's advance function may not move the clock ---- */

static moa_layout *font_layout;
static moa_status font_advance_status = MOA_OK;

static double font_advance(const char *s, size_t n, double size, void *ud) {
    (void)s; (void)ud;
    if (font_advance_status == MOA_OK) font_advance_status = moa_layout_advance(font_layout, 1.0);
    return 0.6 * size * (double)n;
}

static void test_font_callback_cannot_advance(void) {
    moa_layout *L = font_layout = moa_layout_new(320, 480);
    moa_view label, box;
    moa_lcons c;
    double t = -1;
    int animating = 0;
    CHECK_OK(moa_view_new(L, "label", 0, &label));
    CHECK_OK(moa_view_new(L, "box", 0, &box));
    CHECK_OK(moa_layout_eqs(L, "label.left == 0\nlabel.top == 0\nbox.top == 0\nbox.size == 10x10", NULL, 0,
                            &(size_t){0}));
    CHECK_OK(moa_layout_eq(L, "box.left == 0", &c));
    CHECK_OK(moa_lcons_animate(L, c, 100, 2, MOA_LINEAR, 0, NULL, NULL, NULL));
    CHECK_OK(moa_view_set_text(L, label, "hello", NULL));
    CHECK_OK(moa_layout_set_font(L, "F", font_advance, NULL, 0.8, 0.2));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_STATUS(font_advance_status, MOA_MISUSE);
    CHECK_OK(moa_layout_time(L, &t));
    CHECK_NEAR(t, 0);
    CHECK_OK(moa_layout_is_animating(L, &animating));
    CHECK(animating); /* the animation was not killed */
    moa_layout_free(L);
}

/* ---- the progress function may not make pans, collapsibles, animations or change limits ---- */

static moa_status progress_statuses[5];

static int progress_changes(moa_layout *L, uint64_t steps, void *ud) {
    moa_lcons cs[8];
    size_t n = 0;
    moa_view b = 0;
    moa_pan pan;
    moa_collapsible col;
    (void)steps; (void)ud;
    moa_view_find(L, "b", &b);
    moa_layout_constraints(L, cs, 8, &n);
    if (n == 0) return 0;
    progress_statuses[0] = moa_pan_new(L, &cs[0], 1, MOA_HORIZONTAL, NULL, 0, &pan);
    progress_statuses[1] = moa_collapsible_new(L, b, cs[0], MOA_LEFT, &col);
    progress_statuses[2] = moa_lcons_animate(L, cs[0], 50, 1, MOA_LINEAR, 0, NULL, NULL, NULL);
    progress_statuses[3] = moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 1);
    progress_statuses[4] = moa_layout_cancel_animations(L);
    return 1; /* stop the call */
}

static void test_progress_cannot_change(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view b;
    double pivots = 0;
    CHECK_OK(moa_view_new(L, "b", 0, &b));
    CHECK_OK(moa_layout_set_progress(L, progress_changes, 2, NULL));
    CHECK_STATUS(moa_layout_eqs(L, "b.left == 20\nb.top == 0\nb.size == 10x10", NULL, 0, &(size_t){0}), MOA_LIMIT);
    for (int i = 0; i < 5; i++) CHECK_STATUS(progress_statuses[i], MOA_MISUSE);
    CHECK_OK(moa_layout_limit(L, MOA_LIMIT_PIVOTS, &pivots));
    CHECK(pivots > 1);
    moa_layout_free(L);
}

/* ---- pans: a constraint twice, a snap no clock can hold, a failed end that ended the drag ---- */

static void test_pan_checks(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view b;
    moa_lcons c, two[2];
    moa_pan p;
    int accepted = -1;
    double t = 0, off = -1;
    CHECK_OK(moa_view_new(L, "b", 0, &b));
    CHECK_OK(moa_layout_eqs(L, "b.top == 0\nb.size == 10x10", NULL, 0, &(size_t){0}));
    CHECK_OK(moa_layout_eq(L, "b.left == 0", &c));
    two[0] = two[1] = c;
    CHECK_STATUS(moa_pan_new(L, two, 2, MOA_HORIZONTAL, (double[]){0, 100}, 2, &p), MOA_INVALID);
    CHECK_OK(moa_pan_new(L, &c, 1, MOA_HORIZONTAL, (double[]){0, 100}, 2, &p));
    CHECK_STATUS(moa_pan_set_options(L, p, 400, 20, MOA_AUTO, 1e300, MOA_LINEAR), MOA_INVALID);
    CHECK_OK(moa_pan_began(L, p, &accepted));
    CHECK_OK(moa_pan_changed(L, p, 80, 0, &accepted));
    CHECK_STATUS(moa_pan_ended(L, p, NAN, NULL, NULL, &t, &accepted), MOA_INVALID);
    CHECK_OK(moa_pan_ended(L, p, 0, NULL, NULL, &t, &accepted)); /* the drag went on */
    CHECK(accepted == 1);
    CHECK_NEAR(t, 100);
    CHECK_OK(moa_layout_advance(L, 1));
    CHECK_OK(moa_pan_offset(L, p, &off));
    CHECK_NEAR(off, 100);
    moa_layout_free(L);
}

/* ---- a limit that stops measuring fails the solve and the frame alike ---- */

static double measured_width = 50;

static moa_status measure_fixed(moa_layout *L, moa_view v, double w, moa_measure_mode wm, double h,
                                moa_measure_mode hm, moa_measured_size *out, void *ud) {
    (void)L; (void)v; (void)w; (void)wm; (void)h; (void)hm;
    out->width = measured_width + (double)(uintptr_t)ud;
    out->height = 20;
    return MOA_OK;
}

static void test_measure_limit_reported(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view vs[8];
    moa_frame f[16];
    size_t n = 0;
    for (size_t i = 0; i < 8; i++) {
        char name[8], eq[160];
        snprintf(name, sizeof name, "v%zu", i);
        CHECK_OK(moa_view_new(L, name, 0, &vs[i]));
        if (i) snprintf(eq, sizeof eq, "v%zu.left == v%zu.right + 1\nv%zu.top == 0\nv%zu.right <= root.right", i, i - 1, i, i);
        else snprintf(eq, sizeof eq, "v0.left == 0\nv0.top == 0");
        CHECK_OK(moa_layout_eqs(L, eq, NULL, 0, &(size_t){0}));
        CHECK_OK(moa_view_set_measure(L, vs[i], measure_fixed, (void *)(uintptr_t)i));
    }
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 1));
    measured_width = 20;
    for (int i = 0; i < 8; i++) CHECK_OK(moa_view_invalidate(L, vs[i]));
    n = 999;
    CHECK_STATUS(moa_layout_advance_frames(L, 0.1, f, 16, &n), MOA_LIMIT);
    CHECK(n == 999); /* a failed call writes nothing */
    CHECK_STATUS(moa_layout_solve(L, NULL), MOA_LIMIT);
    moa_layout_free(L);
}

/* ---- views a completion moves (and solves) are in the frame's list ---- */

static moa_lcons completion_other;

static void completion_moves(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)a; (void)finished; (void)ud;
    moa_lcons_set_constant(L, completion_other, 300);
    moa_layout_solve(L, NULL);
}

static void test_completion_moves_listed(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view a, b;
    moa_lcons ca;
    moa_frame f[8];
    size_t n = 0, changed = 9;
    int seen_b = 0;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_view_new(L, "b", 0, &b));
    CHECK_OK(moa_layout_eqs(L, "a.top == 0\na.size == 10x10\nb.top == 50\nb.size == 10x10", NULL, 0, &n));
    CHECK_OK(moa_layout_eq(L, "a.left == 0", &ca));
    CHECK_OK(moa_layout_eq(L, "b.left == 0", &completion_other));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_lcons_animate(L, ca, 100, 0.5, MOA_LINEAR, 0, completion_moves, NULL, NULL));
    CHECK_OK(moa_layout_advance_frames(L, 1, f, 8, &n));
    CHECK(n == 2);
    for (size_t i = 0; i < n && i < 8; i++)
        if (f[i].view == b) {
            seen_b = 1;
            CHECK_NEAR(f[i].frame_in_root.x, 300);
        }
    CHECK(seen_b);
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK(changed == 0);
    moa_layout_free(L);
}

/* ---- error offsets count the caller's bytes, invalid UTF-8 included ---- */

static void test_error_offsets_in_caller_bytes(void) {
    moa_layout *L = moa_layout_new(320, 480);
    const char *t = "# \xff\xff\xff\xff\xff\xff\xff\xff\na.left == nope.left";
    const char *line = "a.left \xff\xff == nope.left";
    moa_error_info e;
    moa_view a;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK(moa_layout_eqs(L, t, NULL, 0, &(size_t){0}) != MOA_OK);
    CHECK_OK(moa_layout_error_info(L, &e));
    CHECK(e.line == 2);
    CHECK(e.text_offset == (int)(strstr(t, "nope") - t));
    CHECK(e.offset == (int)(strstr(t, "nope") - strchr(t, '\n') - 1));
    CHECK(e.length == 4);
    CHECK(moa_layout_eq(L, line, &(moa_lcons){0}) != MOA_OK);
    CHECK_OK(moa_layout_error_info(L, &e));
    CHECK(e.text_offset >= 0 && (size_t)e.text_offset + (size_t)e.length <= strlen(line));
    moa_layout_free(L);
}

/* ---- a bulk read checks before it allocates; text styles ---- */

static void test_bulk_and_styles(void) {
    moa_solver *s = moa_solver_new();
    moa_var bad[1] = {0};
    double out[1];
    moa_layout *L = moa_layout_new(320, 480);
    moa_view v;
    moa_text_style style;
    moa_text_metrics lines;
    const char *text = NULL;
    CHECK(moa_solver_values(s, bad, (size_t)1 << 40, out) != MOA_OK); /* not an abort on the allocation */
    moa_solver_free(s);

    CHECK_OK(moa_view_new(L, "t", 0, &v));
    CHECK_OK(moa_layout_eqs(L, "t.left == 0\nt.top == 0", NULL, 0, &(size_t){0}));
    memset(&style, 0, sizeof style); /* zero fields take their defaults: 17 pt */
    style.max_lines = 2;
    CHECK_OK(moa_view_set_text(L, v, "hello", &style));
    CHECK_OK(moa_view_text_lines(L, v, &text, &lines));
    CHECK_NEAR(lines.font_size, 17);
    style.reference_width = 4.9e-324; /* an adaptive size that would be infinite: kept at 1e4 */
    CHECK_OK(moa_view_set_text(L, v, "hello", &style));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_view_text_lines(L, v, &text, &lines));
    CHECK_NEAR(lines.font_size, 1e4);
    moa_layout_free(L);
}

/* ---- second review: pictures, text, owned guides, the keyboard, a failed add's leftovers ---- */

static double wide_advance(const char *s, size_t n, double size, void *ud) {
    (void)s; (void)ud;
    return 0.6 * size * (double)n;
}

static void test_second_review(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view a, b, st, vs[3];
    moa_lcons c;
    moa_rect r;
    moa_frame f[16];
    size_t n = 0;
    const char *svg = NULL, *text = NULL;
    moa_text_style style;
    char *big;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_view_new(L, "b", 0, &b));
    CHECK_OK(moa_layout_eqs(L, "a.left == 0\na.top == 0\na.width == 100\na.height == 10\nb.left == 0\nb.top == 20\n"
                               "b.width == 100", NULL, 0, &n));
    /* text with control characters makes a well-formed picture */
    CHECK_OK(moa_view_set_text(L, b, "x\x01y\x0b<z>", NULL));
    CHECK_OK(moa_layout_svg(L, 0, &svg));
    CHECK(svg != NULL && strchr(svg, 0x01) == NULL && strchr(svg, 0x0b) == NULL && strstr(svg, "&lt;z&gt;") != NULL);
    /* a failed text_lines leaves the frames as they were */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_layout_eq(L, "a.left == 50", &c));
    CHECK_STATUS(moa_view_text_lines(L, a, &text, NULL), MOA_INVALID);
    CHECK_OK(moa_view_frame(L, a, &r));
    CHECK_NEAR(r.x, 0);
    /* text wider than any length: measured at the edge, the layout still solves */
    big = malloc(200001);
    memset(big, 'x', 200000);
    big[200000] = 0;
    memset(&style, 0, sizeof style);
    style.font_size = 1e4;
    CHECK_OK(moa_layout_set_font(L, "F", wide_advance, NULL, 0.8, 0.2));
    CHECK_OK(moa_view_set_text(L, b, big, &style));
    CHECK_OK(moa_layout_solve(L, NULL));
    free(big);
    /* the keyboard's height is a length */
    CHECK_STATUS(moa_layout_set_keyboard_height(L, 1e10), MOA_INVALID);
    /* a stack's spacers are changed through the stack only */
    for (int i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "s%d", i);
        CHECK_OK(moa_view_new(L, name, 0, &vs[i]));
        CHECK_OK(moa_view_set_intrinsic_size(L, vs[i], 50, 10));
    }
    CHECK_OK(moa_stack_new(L, "st", 0, MOA_HORIZONTAL, &st));
    CHECK_OK(moa_stack_set_distribution(L, st, MOA_DISTRIBUTION_EQUAL_SPACING));
    for (int i = 0; i < 3; i++) CHECK_OK(moa_stack_insert(L, st, vs[i], -1));
    CHECK_OK(moa_layout_frames(L, 1, f, 16, &n));
    {
        int refused = 0, spacers = 0;
        for (size_t i = 0; i < n && i < 16; i++) {
            const char *name = NULL;
            if (!f[i].is_guide || moa_view_name(L, f[i].view, &name) != MOA_OK || strchr(name, '#') == NULL) continue;
            spacers++;
            if (moa_view_set_direction(L, f[i].view, MOA_RTL) == MOA_INVALID &&
                moa_view_set_intrinsic_size(L, f[i].view, 5, 5) == MOA_INVALID)
                refused++;
        }
        CHECK(spacers > 0 && refused == spacers);
    }
    moa_layout_free(L);
}

/* A required add that fails after taking a definition over must give the definition its aggregate back: a
   later removal left a required constraint broken (nice numbers). */
static void test_failed_add_leaves_nothing(void) {
    moa_solver *s = moa_solver_new();
    moa_var x, y, z;
    moa_cons c1, c2, c3, c4;
    double X = 0, Y = 0, Z = 0;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    CHECK_OK(moa_var_new(s, "z", &z));
    moa_term t1[] = {{x, -9}}, t2[] = {{x, 1}, {y, 1}, {z, -16}}, t3[] = {{z, -18}}, t4[] = {{x, -1}, {z, 2}};
    CHECK_OK(moa_solver_add(s, t1, 1, -70, MOA_EQ, MOA_REQUIRED, "c1", &c1));
    CHECK_OK(moa_solver_add(s, t2, 3, 40, MOA_GE, MOA_REQUIRED, "c2", &c2));
    CHECK_OK(moa_solver_add(s, t3, 1, -160, MOA_GE, MOA_REQUIRED, "c3", &c3));
    CHECK_STATUS(moa_solver_add(s, t4, 2, -170, MOA_EQ, MOA_REQUIRED, "c4", &c4), MOA_UNSATISFIABLE);
    CHECK_OK(moa_cons_remove(s, c1));
    CHECK_OK(moa_solver_update(s));
    CHECK_OK(moa_var_value(s, x, &X));
    CHECK_OK(moa_var_value(s, y, &Y));
    CHECK_OK(moa_var_value(s, z, &Z));
    CHECK(X + Y - 16 * Z + 40 >= -1e-9);
    CHECK(-18 * Z - 160 >= -1e-9);
    moa_solver_free(s);
}

int main(void) {
    test_deep_free_on_small_stack();
    test_font_callback_cannot_advance();
    test_progress_cannot_change();
    test_pan_checks();
    test_measure_limit_reported();
    test_completion_moves_listed();
    test_error_offsets_in_caller_bytes();
    test_bulk_and_styles();
    test_second_review();
    test_failed_add_leaves_nothing();
    return CHECK_DONE();
}
