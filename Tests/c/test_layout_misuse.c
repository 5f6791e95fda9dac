/*
** test_layout_misuse.c -- the layout level never traps: NULL handles and pointers, stale, foreign and
** wrong-kind ids, NaN and infinite numbers, bad enum values and counts, calls in the wrong state. Each gives
** its status code and a message, and a failed call changes nothing (frames, constraints, out-parameters).
*/
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static void noop_done(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L, (void)a, (void)finished, (void)ud;
}

static void noop_rest(moa_layout *L, moa_pan p, double rest, int finished, void *ud) {
    (void)L, (void)p, (void)rest, (void)finished, (void)ud;
}

/* Every function with a NULL layout: MOA_MISUSE (free: a no-op; errmsg: a static string). */
static void test_null_layout(void) {
    moa_view v = 0;
    moa_lcons c = 0;
    moa_animation a = 0;
    moa_collapsible k = 0;
    moa_pan p = 0;
    moa_rect r;
    moa_frame f;
    moa_error_info info;
    const char *s = NULL;
    double d = 0, d2 = 0;
    int i = 0;
    size_t n = 0;
    moa_curve curve = 0;

    moa_layout_free(NULL);
    CHECK(moa_layout_new(NAN, 10) == NULL);
    CHECK(moa_layout_new(10, INFINITY) == NULL);
    CHECK(moa_layout_new(-1, 10) == NULL);
    CHECK(moa_layout_new(2e9, 10) == NULL);
    CHECK_CONTAINS(moa_layout_errmsg(NULL), "NULL layout");
    CHECK_STATUS(moa_layout_error_info(NULL, &info), MOA_MISUSE);
    CHECK_STATUS(moa_layout_conflicts(NULL, &c, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_set_root_size(NULL, 1, 1), MOA_MISUSE);
    CHECK_STATUS(moa_layout_root_size(NULL, &d, &d2), MOA_MISUSE);
    CHECK_STATUS(moa_layout_root(NULL, &v), MOA_MISUSE);
    CHECK_STATUS(moa_layout_guide(NULL, "keyboard", &v), MOA_MISUSE);
    CHECK_STATUS(moa_layout_set_safe_area(NULL, 0, 0, 0, 0), MOA_MISUSE);
    CHECK_STATUS(moa_layout_set_keyboard_height(NULL, 0), MOA_MISUSE);
    CHECK_STATUS(moa_view_new(NULL, "a", 0, &v), MOA_MISUSE);
    CHECK_STATUS(moa_view_free(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_view_find(NULL, "a", &v), MOA_MISUSE);
    CHECK_STATUS(moa_view_name(NULL, 1, &s), MOA_MISUSE);
    CHECK_STATUS(moa_view_superview(NULL, 1, &v), MOA_MISUSE);
    CHECK_STATUS(moa_view_set_superview(NULL, 1, 0), MOA_MISUSE);
    CHECK_STATUS(moa_view_set_margins(NULL, 1, 0, 0, 0, 0), MOA_MISUSE);
    CHECK_STATUS(moa_view_set_direction(NULL, 1, MOA_RTL), MOA_MISUSE);
    CHECK_STATUS(moa_view_set_intrinsic_size(NULL, 1, 1, 1), MOA_MISUSE);
    CHECK_STATUS(moa_view_set_content_priority(NULL, 1, MOA_HORIZONTAL, 1, 1), MOA_MISUSE);
    CHECK_STATUS(moa_view_set_baseline(NULL, 1, NULL, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_view_frame(NULL, 1, &r), MOA_MISUSE);
    CHECK_STATUS(moa_view_frame_in_root(NULL, 1, &r), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eq(NULL, "a.left == 0", &c), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eqs(NULL, "a.left == 0", &c, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eqs_source(NULL, "a.left == 0", "x", 1, &c, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_xeq(NULL, "a.left == 0", &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_constraints(NULL, &c, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_describe(NULL, &s), MOA_MISUSE);
    CHECK_STATUS(moa_layout_set_debug_callback(NULL, NULL, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_constant(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_set_constant(NULL, 1, 0), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_priority(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_set_priority(NULL, 1, 1), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_active(NULL, 1, &i), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_set_active(NULL, 1, 1), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_describe(NULL, 1, &s), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_line(NULL, 1, &i), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_remove(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_layout_solve(NULL, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_changed_views(NULL, &v, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_views(NULL, &v, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_frames(NULL, 0, &f, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_violations(NULL, &c, &d, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_ambiguities(NULL, &v, &i, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_svg(NULL, 0, &s), MOA_MISUSE);
    CHECK_STATUS(moa_layout_advance(NULL, 0.1), MOA_MISUSE);
    CHECK_STATUS(moa_layout_seek(NULL, 0.1), MOA_MISUSE);
    CHECK_STATUS(moa_layout_time(NULL, &d), MOA_MISUSE);
    CHECK_STATUS(moa_layout_is_animating(NULL, &i), MOA_MISUSE);
    CHECK_STATUS(moa_layout_spring_curve(NULL, 1, 0.5, NULL, &curve), MOA_MISUSE);
    CHECK_STATUS(moa_layout_bezier_curve(NULL, 0, 0, 1, 1, &curve), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_animate(NULL, 1, 0, 0.3, MOA_LINEAR, 0, noop_done, NULL, &a), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_animate_priority(NULL, 1, 500, 0.3, MOA_LINEAR, 0, noop_done, NULL, &a), MOA_MISUSE);
    CHECK_STATUS(moa_layout_animate_root_size(NULL, 1, 1, 0.3, MOA_LINEAR, 0, noop_done, NULL, &a), MOA_MISUSE);
    CHECK_STATUS(moa_animation_cancel(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_stop_animating(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_layout_cancel_animations(NULL), MOA_MISUSE);
    CHECK_STATUS(moa_collapsible_new(NULL, 1, 1, MOA_LEFT, &k), MOA_MISUSE);
    CHECK_STATUS(moa_collapsible_free(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_collapsible_set(NULL, 1, 1, 1, 0.3, MOA_LINEAR, noop_done, NULL, &a), MOA_MISUSE);
    CHECK_STATUS(moa_collapsible_toggle(NULL, 1, 1, 0.3, MOA_LINEAR, noop_done, NULL, &a), MOA_MISUSE);
    CHECK_STATUS(moa_collapsible_is_collapsed(NULL, 1, &i), MOA_MISUSE);
    CHECK_STATUS(moa_layout_show_keyboard(NULL, 100, 0.25, MOA_EASE_IN_OUT, noop_done, NULL, &a), MOA_MISUSE);
    CHECK_STATUS(moa_layout_hide_keyboard(NULL, 0.25, MOA_EASE_IN_OUT, noop_done, NULL, &a), MOA_MISUSE);
    CHECK_STATUS(moa_pan_new(NULL, &c, 1, MOA_HORIZONTAL, NULL, 0, &p), MOA_MISUSE);
    CHECK_STATUS(moa_pan_free(NULL, 1), MOA_MISUSE);
    CHECK_STATUS(moa_pan_began(NULL, 1, &i), MOA_MISUSE);
    CHECK_STATUS(moa_pan_changed(NULL, 1, 0, 0, &i), MOA_MISUSE);
    CHECK_STATUS(moa_pan_ended(NULL, 1, 0, noop_rest, NULL, &d, &i), MOA_MISUSE);
    CHECK_STATUS(moa_pan_cancelled(NULL, 1, noop_rest, NULL, &d, &i), MOA_MISUSE);
    CHECK_STATUS(moa_pan_move(NULL, 1, 0, 1, noop_rest, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_pan_set_enabled(NULL, 1, 1), MOA_MISUSE);
    CHECK_STATUS(moa_pan_set_options(NULL, 1, 400, 20, MOA_AUTO, 0.3, MOA_EASE_OUT), MOA_MISUSE);
    CHECK_STATUS(moa_pan_set_rest_positions(NULL, 1, &d, 1), MOA_MISUSE);
    CHECK_STATUS(moa_pan_offset(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_pan_rest_position(NULL, 1, &d), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_start(NULL, 0), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_stop(NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_csv(NULL, &s), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_json(NULL, &s), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_svg_strip(NULL, 0, 0, &s), MOA_MISUSE);
    CHECK(v == 0 && c == 0 && a == 0 && k == 0 && p == 0 && s == NULL && n == 0 && curve == 0);
}

/* NULL pointers where a result or an input is required. */
static void test_null_pointers(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_view v = 0;
    moa_lcons c = 0;
    size_t n = 0;
    CHECK_OK(moa_view_new(L, "a", 0, &v));
    CHECK_OK(moa_layout_eq(L, "a.left == 0", &c));
    CHECK_STATUS(moa_view_new(L, NULL, 0, &v), MOA_MISUSE);
    CHECK_CONTAINS(moa_layout_errmsg(L), "name is NULL");
    moa_error_info info;
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.code == MOA_MISUSE);
    CHECK_STR(info.kind, "misuse");
    CHECK_STATUS(moa_layout_error_info(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_view_new(L, "b", 0, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_view_find(L, "b", &v), MOA_NOTFOUND); /* the failed new made nothing */
    CHECK_STATUS(moa_view_find(L, NULL, &v), MOA_MISUSE);
    CHECK_STATUS(moa_view_find(L, "a", NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_root(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_guide(L, NULL, &v), MOA_MISUSE);
    CHECK_STATUS(moa_view_name(L, v, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_view_frame(L, v, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_view_frame_in_root(L, v, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_view_superview(L, v, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eq(L, NULL, &c), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eq(L, "a.top == 0", NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eqs(L, NULL, &c, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eqs(L, "a.top == 0", NULL, 1, &n), MOA_MISUSE); /* out NULL with cap > 0 */
    CHECK_STATUS(moa_layout_eqs(L, "a.top == 0", &c, 1, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_eqs(L, "a.top == 0", &c, (size_t)-1, &n), MOA_INVALID);
    CHECK_STATUS(moa_layout_eqs_source(L, "a.top == 0", NULL, 0, &c, 1, &n), MOA_INVALID); /* first_line 0 */
    size_t total = 9;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &total));
    CHECK(total == 1); /* none of the failed eqs calls added a.top */
    CHECK_OK(moa_layout_eqs(L, "a.top == 0", NULL, 0, &n)); /* out NULL with cap 0: count only */
    CHECK(n == 1);
    CHECK_STATUS(moa_layout_xeq(L, NULL, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_describe(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_constant(L, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_priority(L, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_active(L, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_describe(L, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_lcons_line(L, c, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_conflicts(L, NULL, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_conflicts(L, &c, 1, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_conflicts(L, &c, (size_t)-1, &n), MOA_INVALID);
    CHECK_STATUS(moa_layout_changed_views(L, NULL, 3, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_views(L, &v, 1, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_constraints(L, NULL, 2, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_frames(L, 0, NULL, 1, &n), MOA_MISUSE);
    CHECK_STATUS(moa_layout_frames(L, 0, NULL, 0, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_violations(L, NULL, NULL, 4, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_ambiguities(L, NULL, NULL, 4, NULL), MOA_MISUSE);
    CHECK_OK(moa_layout_violations(L, NULL, NULL, 4, &n)); /* both arrays optional */
    CHECK_STATUS(moa_layout_svg(L, 0, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_time(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_is_animating(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_spring_curve(L, 1, 1, NULL, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_bezier_curve(L, 0, 0, 1, 1, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_csv(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_json(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_layout_trace_svg_strip(L, 0, 0, NULL), MOA_MISUSE);
    moa_collapsible k = 0;
    CHECK_STATUS(moa_collapsible_new(L, v, c, MOA_LEFT, NULL), MOA_MISUSE);
    CHECK_OK(moa_collapsible_new(L, v, c, MOA_LEFT, &k));
    CHECK_STATUS(moa_collapsible_is_collapsed(L, k, NULL), MOA_MISUSE);
    moa_pan p = 0;
    CHECK_STATUS(moa_pan_new(L, NULL, 1, MOA_HORIZONTAL, NULL, 0, &p), MOA_MISUSE);
    CHECK_STATUS(moa_pan_new(L, &c, 1, MOA_HORIZONTAL, NULL, 2, &p), MOA_MISUSE); /* rest NULL, nrest 2 */
    CHECK_STATUS(moa_pan_new(L, &c, 1, MOA_HORIZONTAL, NULL, 0, NULL), MOA_MISUSE);
    CHECK_OK(moa_pan_new(L, &c, 1, MOA_HORIZONTAL, NULL, 0, &p)); /* rest positions {0} */
    CHECK_STATUS(moa_pan_offset(L, p, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_pan_rest_position(L, p, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_pan_set_rest_positions(L, p, NULL, 1), MOA_MISUSE);
    /* Optional out-pointers may be NULL. */
    CHECK_OK(moa_layout_root_size(L, NULL, NULL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_layout_xeq(L, "a.top == 0", NULL));
    CHECK_OK(moa_pan_began(L, p, NULL));
    CHECK_OK(moa_pan_changed(L, p, 5, 0, NULL));
    CHECK_OK(moa_pan_ended(L, p, 0, NULL, NULL, NULL, NULL));
    CHECK_OK(moa_lcons_animate(L, c, 3, 0.1, MOA_LINEAR, 0, NULL, NULL, NULL));
    moa_layout_free(L);
}

/* Ids: 0, stale (removed), foreign (another layout), wrong kind (a view id as a constraint). */
static void test_ids(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_layout *M = moa_layout_new(100, 100);
    moa_view a, ma, root;
    moa_lcons c, mc;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_view_new(M, "a", 0, &ma));
    CHECK_OK(moa_layout_eq(L, "a.left == 5", &c));
    CHECK_OK(moa_layout_eq(M, "a.left == 5", &mc));
    CHECK_OK(moa_layout_root(L, &root));
    CHECK(a != ma && c != mc); /* the same view / constraint in two layouts: different ids */
    moa_rect r;
    double k;
    const char *s;

    CHECK_STATUS(moa_view_frame(L, 0, &r), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_frame(L, ma, &r), MOA_NOTFOUND); /* foreign */
    CHECK_CONTAINS(moa_layout_errmsg(L), "is not a view id of this layout");
    CHECK_STATUS(moa_view_frame(L, c, &r), MOA_NOTFOUND); /* a constraint id as a view */
    CHECK_STATUS(moa_lcons_constant(L, a, &k), MOA_NOTFOUND); /* a view id as a constraint */
    CHECK_STATUS(moa_lcons_constant(L, mc, &k), MOA_NOTFOUND);
    CHECK_STATUS(moa_lcons_constant(L, 0, &k), MOA_NOTFOUND);
    CHECK_STATUS(moa_lcons_constant(L, c + 1000, &k), MOA_NOTFOUND);
    CHECK_STATUS(moa_lcons_constant(L, UINT64_MAX, &k), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_new(L, "b", ma, &(moa_view){0}), MOA_NOTFOUND); /* foreign parent */
    CHECK_STATUS(moa_view_set_superview(L, a, ma), MOA_NOTFOUND);
    CHECK_STATUS(moa_animation_cancel(L, 12345), MOA_NOTFOUND);
    CHECK_STATUS(moa_animation_cancel(L, a), MOA_NOTFOUND);
    CHECK_STATUS(moa_collapsible_free(L, a), MOA_NOTFOUND);
    CHECK_STATUS(moa_pan_free(L, c), MOA_NOTFOUND);
    CHECK_STATUS(moa_pan_new(L, &mc, 1, MOA_HORIZONTAL, NULL, 0, &(moa_pan){0}), MOA_NOTFOUND);
    moa_collapsible k1 = 0;
    CHECK_STATUS(moa_collapsible_new(L, ma, c, MOA_LEFT, &k1), MOA_NOTFOUND);
    CHECK(k1 == 0);

    /* Stale: a removed view and its constraints; a freed collapsible and pan driver. */
    moa_collapsible col;
    moa_pan pan;
    CHECK_OK(moa_collapsible_new(L, a, c, MOA_LEFT, &col));
    CHECK_OK(moa_pan_new(L, &c, 1, MOA_HORIZONTAL, NULL, 0, &pan));
    CHECK_STATUS(moa_collapsible_new(M, ma, mc, MOA_LEFT, &k1), MOA_OK);
    CHECK(k1 != col);
    CHECK_STATUS(moa_collapsible_free(M, col), MOA_NOTFOUND); /* foreign */
    CHECK_OK(moa_view_free(L, a));
    CHECK_STATUS(moa_view_frame(L, a, &r), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_name(L, a, &s), MOA_NOTFOUND);
    CHECK_STATUS(moa_lcons_constant(L, c, &k), MOA_NOTFOUND);
    CHECK_STATUS(moa_lcons_set_constant(L, c, 1), MOA_NOTFOUND);
    CHECK_STATUS(moa_lcons_animate(L, c, 1, 0.1, MOA_LINEAR, 0, NULL, NULL, NULL), MOA_NOTFOUND);
    int i = -1;
    CHECK_STATUS(moa_collapsible_set(L, col, 1, 0, 0.3, MOA_LINEAR, NULL, NULL, NULL), MOA_NOTFOUND);
    CHECK_OK(moa_collapsible_is_collapsed(L, col, &i)); /* the collapsible itself still answers */
    CHECK(i == 0);
    CHECK_STATUS(moa_pan_began(L, pan, &i), MOA_NOTFOUND);
    CHECK_STATUS(moa_pan_offset(L, pan, &k), MOA_NOTFOUND);
    CHECK_OK(moa_collapsible_free(L, col));
    CHECK_OK(moa_pan_free(L, pan));
    CHECK_STATUS(moa_collapsible_free(L, col), MOA_NOTFOUND);
    CHECK_STATUS(moa_collapsible_is_collapsed(L, col, &i), MOA_NOTFOUND);
    CHECK_STATUS(moa_pan_free(L, pan), MOA_NOTFOUND);
    CHECK_STATUS(moa_pan_rest_position(L, pan, &k), MOA_NOTFOUND);
    /* A new view of the same name gets a new id; the old one stays stale. */
    moa_view a2;
    CHECK_OK(moa_view_new(L, "a", 0, &a2));
    CHECK(a2 != a);
    CHECK_STATUS(moa_view_frame(L, a, &r), MOA_NOTFOUND);
    CHECK_OK(moa_view_frame(L, a2, &r));
    /* Intrinsic constraints follow their view: they cannot be removed or deactivated. */
    moa_lcons hug = 0;
    CHECK_OK(moa_view_set_intrinsic_size(L, a2, 10, 10));
    CHECK_OK(moa_layout_eq(L, "a.hugH == low", &hug));
    CHECK_OK(moa_lcons_describe(L, hug, &s));
    CHECK_STR(s, "a.width <= 10 @ 250");
    CHECK_STATUS(moa_lcons_remove(L, hug), MOA_INVALID);
    CHECK_STATUS(moa_lcons_set_active(L, hug, 0), MOA_INVALID);
    CHECK_OK(moa_lcons_active(L, hug, &i));
    CHECK(i == 1);
    moa_layout_free(M);
    moa_layout_free(L);
}

/* Bad numbers and enum values: MOA_INVALID, and nothing changes. */
static void test_bad_values(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_view a;
    moa_lcons c, lst[4];
    size_t n;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_layout_eqs(L, "a.left == 10\na.top == 10\na.size == 20x20", lst, 4, &n));
    c = lst[0];
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_rect before, after;
    CHECK_OK(moa_view_frame(L, a, &before));

    CHECK_STATUS(moa_layout_set_root_size(L, NAN, 100), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_root_size(L, 100, -1), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_root_size(L, INFINITY, 100), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_safe_area(L, NAN, 0, 0, 0), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_keyboard_height(L, -5), MOA_INVALID);
    CHECK_STATUS(moa_layout_set_keyboard_height(L, NAN), MOA_INVALID);
    CHECK_STATUS(moa_view_set_margins(L, a, 0, INFINITY, 0, 0), MOA_INVALID);
    CHECK_STATUS(moa_view_set_direction(L, a, (moa_layout_direction)3), MOA_INVALID);
    CHECK_STATUS(moa_view_set_direction(L, a, (moa_layout_direction)-1), MOA_INVALID);
    CHECK_STATUS(moa_view_set_intrinsic_size(L, a, NAN, 1), MOA_INVALID);
    CHECK_STATUS(moa_view_set_intrinsic_size(L, a, 1, -0.5), MOA_INVALID);
    CHECK_STATUS(moa_view_set_intrinsic_size(L, a, 1, 2e9), MOA_INVALID);
    CHECK_STATUS(moa_view_set_content_priority(L, a, MOA_VERTICAL, 0, 750), MOA_INVALID);
    CHECK_STATUS(moa_view_set_content_priority(L, a, MOA_VERTICAL, 250, 1001), MOA_INVALID);
    CHECK_STATUS(moa_lcons_set_constant(L, c, -INFINITY), MOA_INVALID);
    CHECK_STATUS(moa_lcons_set_priority(L, c, 2000), MOA_INVALID);
    CHECK_STATUS(moa_layout_eq(L, "a.left == 1e400", &c), MOA_INVALID); /* too large: a located number error */
    moa_error_info info;
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.offset == 10 && info.length == 5);
    CHECK_STATUS(moa_layout_eq(L, "a.left == 30px", &c), MOA_PARSE);
    CHECK_STATUS(moa_layout_svg(L, -1, &(const char *){NULL}), MOA_INVALID);
    CHECK_STATUS(moa_layout_trace_svg_strip(L, 0, MOA_SVG_CONSTRAINTS, &(const char *){NULL}), MOA_INVALID);
    CHECK_STATUS(moa_layout_trace_svg_strip(L, 1000000, 0, &(const char *){NULL}), MOA_INVALID);
    CHECK_STATUS(moa_layout_advance(L, NAN), MOA_INVALID);
    CHECK_STATUS(moa_layout_advance(L, -0.1), MOA_INVALID);
    CHECK_STATUS(moa_layout_seek(L, INFINITY), MOA_INVALID);
    CHECK_OK(moa_layout_seek(L, 1));
    CHECK_STATUS(moa_layout_seek(L, 0.5), MOA_INVALID); /* the clock only moves forward */
    CHECK_CONTAINS(moa_layout_errmsg(L), "the clock only moves forward");

    /* Curves. */
    moa_curve curve = -1, curve2 = -1;
    double v = NAN;
    CHECK_STATUS(moa_layout_spring_curve(L, 0, 0.5, NULL, &curve), MOA_INVALID);
    CHECK_STATUS(moa_layout_spring_curve(L, 1, -1, NULL, &curve), MOA_INVALID);
    CHECK_STATUS(moa_layout_spring_curve(L, 1, 0.5, &v, &curve), MOA_INVALID);
    CHECK_STATUS(moa_layout_bezier_curve(L, 1.5, 0, 1, 1, &curve), MOA_INVALID);
    CHECK_STATUS(moa_layout_bezier_curve(L, 0.5, NAN, 1, 1, &curve), MOA_INVALID);
    CHECK(curve == -1);
    CHECK_OK(moa_layout_bezier_curve(L, 0.25, 0.1, 0.25, 1, &curve));
    CHECK(curve >= MOA_CURVE_CUSTOM);
    CHECK_OK(moa_layout_bezier_curve(L, 0.25, 0.1, 0.25, 1, &curve2));
    CHECK(curve2 == curve); /* the same parameters, the same value */
    v = 300;
    CHECK_OK(moa_layout_spring_curve(L, 0.7, 0.4, &v, &curve2));
    CHECK(curve2 == curve + 1);

    /* Animation arguments. */
    moa_animation an = 0;
    CHECK_STATUS(moa_lcons_animate(L, c, NAN, 0.3, MOA_LINEAR, 0, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_lcons_animate(L, c, 1, -0.3, MOA_LINEAR, 0, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_lcons_animate(L, c, 1, 0.3, MOA_LINEAR, INFINITY, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_lcons_animate(L, c, 1, 0.3, MOA_KEYBOARD_CURVE + 1, 0, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_lcons_animate(L, c, 1, 0.3, MOA_CURVE_CUSTOM + 99, 0, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_lcons_animate(L, c, 1, 0.3, -1, 0, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_lcons_animate_priority(L, c, 0, 0.3, MOA_LINEAR, 0, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_layout_animate_root_size(L, -1, 100, 0.3, MOA_LINEAR, 0, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_layout_show_keyboard(L, NAN, 0.25, MOA_EASE_IN_OUT, noop_done, NULL, &an), MOA_INVALID);
    CHECK_STATUS(moa_layout_hide_keyboard(L, -1, MOA_EASE_IN_OUT, noop_done, NULL, &an), MOA_INVALID);
    CHECK(an == 0);
    int anim = -1;
    CHECK_OK(moa_layout_is_animating(L, &anim));
    CHECK(anim == 0); /* nothing started */

    /* A root-size constraint is the layout's. */
    moa_lcons conf[4];
    CHECK_STATUS(moa_layout_eq(L, "a.width == root.width", &c), MOA_UNSATISFIABLE);
    CHECK_OK(moa_layout_conflicts(L, conf, 4, &n));
    CHECK(n >= 1);
    int root_size_seen = 0;
    for (size_t i = 0; i < n && i < 4; i++) {
        const char *d = NULL;
        CHECK_OK(moa_lcons_describe(L, conf[i], &d));
        if (strcmp(d, "root.width == 100") == 0) {
            root_size_seen = 1;
            CHECK_STATUS(moa_lcons_set_constant(L, conf[i], 5), MOA_INVALID);
            CHECK_STATUS(moa_lcons_remove(L, conf[i]), MOA_INVALID);
            CHECK_STATUS(moa_lcons_animate(L, conf[i], 5, 0.1, MOA_LINEAR, 0, NULL, NULL, NULL), MOA_INVALID);
        }
    }
    CHECK(root_size_seen);

    /* Collapsible and pan arguments. */
    moa_collapsible k = 0;
    CHECK_STATUS(moa_collapsible_new(L, a, lst[0], (moa_collapse_direction)4, &k), MOA_INVALID);
    CHECK_STATUS(moa_collapsible_new(L, a, lst[0], MOA_UP, &k), MOA_INVALID); /* a horizontal constraint */
    CHECK_OK(moa_collapsible_new(L, a, lst[0], MOA_LEFT, &k));
    CHECK_STATUS(moa_collapsible_set(L, k, 1, 1, NAN, MOA_LINEAR, NULL, NULL, NULL), MOA_INVALID);
    CHECK_STATUS(moa_collapsible_set(L, k, 1, 0, 0.3, 77, NULL, NULL, NULL), MOA_INVALID);
    int collapsed = -1;
    CHECK_OK(moa_collapsible_is_collapsed(L, k, &collapsed));
    CHECK(collapsed == 0); /* the failed calls changed nothing */
    moa_pan p = 0;
    double rest[2] = {0, NAN};
    CHECK_STATUS(moa_pan_new(L, lst, 0, MOA_HORIZONTAL, NULL, 0, &p), MOA_INVALID);
    CHECK_STATUS(moa_pan_new(L, lst, 1, (moa_axis)9, NULL, 0, &p), MOA_INVALID);
    CHECK_STATUS(moa_pan_new(L, lst, 1, MOA_VERTICAL, NULL, 0, &p), MOA_INVALID); /* left is horizontal */
    CHECK_STATUS(moa_pan_new(L, lst, 1, MOA_HORIZONTAL, rest, 2, &p), MOA_INVALID);
    CHECK_STATUS(moa_pan_new(L, lst, (size_t)1 << 40, MOA_HORIZONTAL, NULL, 0, &p), MOA_INVALID);
    CHECK(p == 0);
    CHECK_OK(moa_pan_new(L, lst, 1, MOA_HORIZONTAL, rest, 1, &p));
    CHECK_STATUS(moa_pan_set_options(L, p, -1, 20, MOA_AUTO, 0.3, MOA_EASE_OUT), MOA_INVALID);
    CHECK_STATUS(moa_pan_set_options(L, p, 400, NAN, MOA_AUTO, 0.3, MOA_EASE_OUT), MOA_INVALID);
    CHECK_STATUS(moa_pan_set_options(L, p, 400, 20, -2, 0.3, MOA_EASE_OUT), MOA_INVALID);
    CHECK_STATUS(moa_pan_set_options(L, p, 400, 20, MOA_AUTO, INFINITY, MOA_EASE_OUT), MOA_INVALID);
    CHECK_STATUS(moa_pan_set_options(L, p, 400, 20, MOA_AUTO, 0.3, 1234), MOA_INVALID);
    CHECK_OK(moa_pan_set_options(L, p, 400, 20, 50, 0.3, curve2));
    CHECK_STATUS(moa_pan_set_rest_positions(L, p, rest, 0), MOA_INVALID);
    CHECK_STATUS(moa_pan_set_rest_positions(L, p, rest, 2), MOA_INVALID);
    CHECK_OK(moa_pan_began(L, p, NULL));
    CHECK_STATUS(moa_pan_changed(L, p, NAN, 0, NULL), MOA_INVALID);
    CHECK_STATUS(moa_pan_changed(L, p, 0, INFINITY, NULL), MOA_INVALID);
    CHECK_STATUS(moa_pan_ended(L, p, NAN, NULL, NULL, NULL, NULL), MOA_INVALID);
    CHECK_STATUS(moa_pan_move(L, p, NAN, 0, NULL, NULL), MOA_INVALID);

    /* After all that, the frame is as it was. */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_view_frame(L, a, &after));
    CHECK(memcmp(&before, &after, sizeof before) == 0);
    moa_layout_free(L);
}

/* Many layouts, views and handles: ids stay distinct and checked. */
static void test_many(void) {
    moa_layout *ls[8];
    moa_view vs[8];
    for (int i = 0; i < 8; i++) {
        ls[i] = moa_layout_new(10 * (i + 1), 10);
        CHECK(ls[i] != NULL);
        CHECK_OK(moa_view_new(ls[i], "v", 0, &vs[i]));
    }
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            moa_rect r;
            CHECK_STATUS(moa_view_frame(ls[i], vs[j], &r), i == j ? MOA_OK : MOA_NOTFOUND);
        }
    }
    for (int i = 0; i < 8; i++) moa_layout_free(ls[i]);
}

int main(void) {
    test_null_layout();
    test_null_pointers();
    test_ids();
    test_bad_values();
    test_many();
    return CHECK_DONE();
}
