/*
** test_measure.c -- content that sizes itself, from C: measure callbacks (cache, invalidation, errors,
** re-entrance, settling), text with the built-in measurer and with a C advance function, fitting sizes.
*/
#include <math.h>
#include <stdlib.h>

#include "check.h"

/* Equations whose handles the test does not keep. */
static moa_status eqs(moa_layout *L, const char *text) {
    size_t n = 0;
    return moa_layout_eqs(L, text, NULL, 0, &n);
}

/* A label: `chars` characters 10 points wide, 20-point lines, wrapped at the width by characters. */
typedef struct {
    int chars;
    int calls;
    int fail;          /* return MOA_ERROR (after moa_measure_error) */
    int reenter;       /* try to change the layout from inside */
    moa_status inner;  /* what the re-entrant call returned */
    moa_measure_mode last_mode;
} label;

static moa_status measure_label(moa_layout *L, moa_view v, double width, moa_measure_mode wmode, double height,
                                moa_measure_mode hmode, moa_measured_size *out, void *ud) {
    label *lb = ud;
    (void)v; (void)height; (void)hmode;
    lb->calls++;
    lb->last_mode = wmode;
    if (lb->reenter) {
        moa_lcons c;
        lb->inner = moa_layout_eq(L, "label.height >= 1", &c);
    }
    if (lb->fail) {
        moa_measure_error(L, "font not loaded");
        return MOA_ERROR;
    }
    double natural = lb->chars * 10.0;
    if (wmode == MOA_MEASURE_UNDEFINED) {
        out->width = natural;
        out->height = 20;
        return MOA_OK;
    }
    int per_line = (int)(width / 10);
    if (per_line < 1) per_line = 1;
    int lines = (lb->chars + per_line - 1) / per_line;
    out->width = natural < per_line * 10.0 ? natural : per_line * 10.0;
    out->height = lines * 20.0;
    out->baseline = lines * 20.0 - 5;
    out->first_baseline = 15;
    return MOA_OK;
}

static moa_layout *make_label(label *lb, moa_view *v) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view_new(L, "label", 0, v);
    CHECK_OK(moa_view_set_measure(L, *v, measure_label, lb));
    CHECK_OK(eqs(L, "label.left == 8\nlabel.right == root.right - 8\nlabel.top == 20"));
    return L;
}

static double height_of(moa_layout *L, moa_view v) {
    moa_rect r;
    moa_view_frame(L, v, &r);
    return r.height;
}

static void test_height_follows_width(void) {
    label lb = {100, 0, 0, 0, 0, 0};
    moa_view v;
    moa_layout *L = make_label(&lb, &v);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(height_of(L, v), 80); /* 304 wide: 30 a line, 4 lines */
    CHECK(lb.calls == 2);
    CHECK(lb.last_mode == MOA_MEASURE_AT_MOST);
    CHECK_OK(moa_layout_set_root_size(L, 568, 320));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(height_of(L, v), 40);
    CHECK(lb.calls == 3);
    CHECK_OK(moa_layout_set_root_size(L, 568, 600)); /* height only: no call */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK(lb.calls == 3);
    moa_measure_stats st;
    CHECK_OK(moa_layout_measure_stats(L, &st));
    size_t hits = st.cache_hits;
    CHECK_OK(moa_layout_set_root_size(L, 320, 480)); /* a width seen before: the cache */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK(lb.calls == 3);
    CHECK_OK(moa_layout_measure_stats(L, &st));
    CHECK(st.cache_hits == hits + 1);
    CHECK(st.calls == 3);
    CHECK_NEAR(height_of(L, v), 80);
    /* Invalidation after the content changed. */
    lb.chars = 10;
    CHECK_OK(moa_view_invalidate(L, v));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(height_of(L, v), 20);
    CHECK(lb.calls == 5);
    CHECK_STATUS(moa_layout_measure_stats(L, NULL), MOA_MISUSE);
    moa_layout_free(L);
}

static void test_errors_change_nothing(void) {
    label lb = {100, 0, 0, 0, 0, 0};
    moa_view v;
    moa_layout *L = make_label(&lb, &v);
    CHECK_OK(moa_layout_solve(L, NULL));
    lb.fail = 1;
    CHECK_OK(moa_layout_set_root_size(L, 500, 480));
    CHECK_STATUS(moa_layout_solve(L, NULL), MOA_CALLBACK);
    const char *msg = moa_layout_errmsg(L);
    CHECK(strstr(msg, "font not loaded") != NULL);
    CHECK(strstr(msg, "`label`") != NULL);
    CHECK_NEAR(height_of(L, v), 80); /* the frames stayed */
    moa_rect r;
    moa_view_frame(L, v, &r);
    CHECK_NEAR(r.width, 304);
    CHECK_STATUS(moa_layout_advance(L, 0.1), MOA_CALLBACK); /* a frame fails the same way */
    lb.fail = 0;
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(height_of(L, v), 60);
    /* Outside a callback, moa_measure_error is misuse. */
    CHECK_STATUS(moa_measure_error(L, "x"), MOA_MISUSE);
    CHECK_STATUS(moa_measure_error(NULL, "x"), MOA_MISUSE);
    /* Measured views own their intrinsic size. */
    CHECK_STATUS(moa_view_set_intrinsic_size(L, v, 10, 10), MOA_INVALID);
    CHECK_STATUS(moa_view_set_measure(L, 0, measure_label, &lb), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_set_measure(NULL, v, measure_label, &lb), MOA_MISUSE);
    CHECK_STATUS(moa_view_invalidate(L, 12345), MOA_NOTFOUND);
    CHECK_OK(moa_view_set_measure(L, v, NULL, NULL));
    CHECK_STATUS(moa_view_invalidate(L, v), MOA_INVALID);
    moa_layout_free(L);
}

static void test_reentrance_is_misuse(void) {
    label lb = {10, 0, 0, 1, MOA_OK, 0};
    moa_view v;
    moa_layout *L = make_label(&lb, &v);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_STATUS(lb.inner, MOA_MISUSE);
    size_t n = 0;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &n));
    CHECK(n == 3); /* nothing was added */
    moa_layout_free(L);
}

/* Height is width + 10 and width is height: every round moves it. */
static moa_status never_settles(moa_layout *L, moa_view v, double width, moa_measure_mode wmode, double height,
                                moa_measure_mode hmode, moa_measured_size *out, void *ud) {
    (void)L; (void)v; (void)height; (void)hmode; (void)ud;
    out->width = 10;
    out->height = (wmode == MOA_MEASURE_UNDEFINED ? 10 : width) + 10;
    return MOA_OK;
}

static void test_never_settles(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view v;
    moa_view_new(L, "square", 0, &v);
    CHECK_OK(moa_view_set_measure(L, v, never_settles, NULL));
    CHECK_OK(eqs(L, "square.left == 0\nsquare.top == 0\nsquare.width == square.height"));
    CHECK_STATUS(moa_layout_solve(L, NULL), MOA_CALLBACK);
    CHECK(strstr(moa_layout_errmsg(L), "did not settle") != NULL);
    CHECK_STR(moa_status_name(MOA_CALLBACK), "CALLBACK");
    moa_layout_free(L);
}

/* A font whose characters are 5 points wide at size 10 (0.5 em); counts its calls. */
static int advance_calls = 0;
static double half_em(const char *utf8, size_t len, double size, void *ud) {
    (void)utf8; (void)ud;
    advance_calls++;
    return (double)len * 0.5 * size; /* ASCII only here */
}

static double broken_font(const char *utf8, size_t len, double size, void *ud) {
    (void)utf8; (void)len; (void)size; (void)ud;
    return NAN;
}

static void test_text(void) {
    moa_layout *L = moa_layout_new(160, 480);
    moa_view v;
    moa_view_new(L, "label", 0, &v);
    moa_text_style style = {10, 0, 0, 0, 0, 0};
    CHECK_OK(moa_view_set_text(L, v, "Moa lays out text that wraps to the width it gets", &style));
    CHECK_OK(eqs(L, "label.left == 10\nlabel.right <= root.right - 10\nlabel.top == 10"));
    CHECK_OK(moa_layout_solve(L, NULL));
    const char *lines = NULL;
    moa_text_metrics m;
    CHECK_OK(moa_view_text_lines(L, v, &lines, &m));
    CHECK_STR(lines, "Moa lays out text that\nwraps to the width it\ngets");
    CHECK_NEAR(m.lines, 3);
    CHECK_NEAR(m.line_height, 12);
    CHECK_NEAR(height_of(L, v), 36);
    const char *svg = NULL;
    CHECK_OK(moa_layout_svg(L, 0, &svg));
    CHECK(svg && strstr(svg, ">wraps to the width it</tspan>") != NULL);
    /* A font of our own: 5 points a character, so 28 characters a line. */
    CHECK_OK(moa_layout_set_font(L, "Half Em", half_em, NULL, 0.8, 0.2));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK(advance_calls > 0);
    CHECK_OK(moa_view_text_lines(L, v, &lines, &m));
    CHECK_STR(lines, "Moa lays out text that wraps\nto the width it gets");
    CHECK_OK(moa_layout_svg(L, 0, &svg));
    CHECK(svg && strstr(svg, "font-family=\"Half Em\"") != NULL);
    /* A font that fails fails the solve, and the frames stay. */
    CHECK_OK(moa_layout_set_font(L, "Broken", broken_font, NULL, 0.8, 0.2));
    CHECK_STATUS(moa_layout_solve(L, NULL), MOA_CALLBACK);
    CHECK_NEAR(height_of(L, v), 24);
    CHECK_STATUS(moa_layout_set_font(L, "Bad", half_em, NULL, NAN, 0.2), MOA_INVALID);
    CHECK_OK(moa_layout_set_font(L, NULL, NULL, NULL, 0, 0)); /* back to the built-in measurer */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(height_of(L, v), 36);
    /* Bad styles, and text taken away. */
    moa_text_style bad = {0.1, 0, 0, 0, 0, 0};
    CHECK_STATUS(moa_view_set_text(L, v, "x", &bad), MOA_INVALID);
    moa_text_style negative_lines = {10, 0, -1, 0, 0, 0};
    CHECK_STATUS(moa_view_set_text(L, v, "x", &negative_lines), MOA_INVALID);
    CHECK_OK(moa_view_set_text(L, v, NULL, NULL));
    CHECK_STATUS(moa_view_text_lines(L, v, &lines, NULL), MOA_INVALID);
    CHECK_STATUS(moa_view_text_lines(L, v, NULL, NULL), MOA_MISUSE);
    moa_layout_free(L);
}

static void test_adaptive_font(void) {
    moa_layout *L = moa_layout_new(375, 667);
    moa_view v;
    moa_view_new(L, "title", 0, &v);
    moa_text_style style = {20, 0, 0, 375, 0, 30};
    CHECK_OK(moa_view_set_text(L, v, "Hello", &style));
    CHECK_OK(eqs(L, "title.left == 0\ntitle.top == 0"));
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_rect r;
    moa_view_frame(L, v, &r);
    CHECK_NEAR(r.width, 60);
    CHECK_OK(moa_layout_set_root_size(L, 667, 375)); /* rotation: 35.6 pt, capped at 30 */
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_view_frame(L, v, &r);
    CHECK_NEAR(r.width, 90);
    moa_layout_free(L);
}

static void test_fitting_size(void) {
    label lb = {100, 0, 0, 0, 0, 0};
    moa_layout *L = moa_layout_new(320, 480);
    moa_view cell, v;
    moa_view_new(L, "cell", 0, &cell);
    moa_view_new(L, "label", cell, &v);
    CHECK_OK(moa_view_set_measure(L, v, measure_label, &lb));
    CHECK_OK(eqs(L,
                            "cell.left == 0\ncell.top == 0\ncell.right == root.right\ncell.height == 44 @ 250\n"
                            "label.left == cell.left + 16\nlabel.right == cell.right - 16\n"
                            "label.top == cell.top + 12\nlabel.bottom == cell.bottom - 12"));
    CHECK_OK(moa_layout_solve(L, NULL));
    double w = 0, h = 0;
    /* 200 wide, required: 168 for the label, 16 a line, 7 lines: 140 + 24. */
    CHECK_OK(moa_layout_fitting_size(L, cell, 200, 0, MOA_REQUIRED, MOA_FIT, &w, &h));
    CHECK_NEAR(w, 200);
    CHECK_NEAR(h, 164);
    moa_rect r;
    moa_view_frame(L, cell, &r);
    CHECK_NEAR(r.width, 320); /* the live layout did not move */
    CHECK_NEAR(r.height, 104);
    CHECK_STATUS(moa_layout_fitting_size(L, cell, -1, 0, MOA_REQUIRED, MOA_FIT, &w, &h), MOA_INVALID);
    CHECK_STATUS(moa_layout_fitting_size(L, cell, 10, 0, 0, MOA_FIT, &w, &h), MOA_INVALID);
    CHECK_STATUS(moa_layout_fitting_size(L, cell, 10, 0, MOA_FIT, MOA_FIT, NULL, &h), MOA_MISUSE);
    CHECK_STATUS(moa_layout_fitting_size(L, 999, 10, 0, MOA_FIT, MOA_FIT, &w, &h), MOA_NOTFOUND);
    moa_layout_free(L);
}

/* Three wrapping labels stacked in a box whose width follows the root: the box's height is their heights plus
   the gaps, at every width. */
static void test_stack_in_resizing_container(void) {
    label lbs[3] = {{40, 0, 0, 0, 0, 0}, {5, 0, 0, 0, 0, 0}, {100, 0, 0, 0, 0, 0}};
    moa_layout *L = moa_layout_new(320, 960);
    moa_view box, v[3];
    CHECK_OK(moa_view_new(L, "box", 0, &box));
    const char *names[3] = {"l0", "l1", "l2"};
    for (int i = 0; i < 3; i++) {
        CHECK_OK(moa_view_new(L, names[i], box, &v[i]));
        CHECK_OK(moa_view_set_measure(L, v[i], measure_label, &lbs[i]));
    }
    CHECK_OK(eqs(L, "box.left == 0\nbox.right == root.right\nbox.top == 0\n"
                    "l0.left == box.left + 10\nl0.right == box.right - 10\n"
                    "l1.left == box.left + 10\nl1.right == box.right - 10\n"
                    "l2.left == box.left + 10\nl2.right == box.right - 10\n"
                    "l0.top == box.top + 10\nl1.top == l0.bottom + 8\nl2.top == l1.bottom + 8\n"
                    "box.bottom == l2.bottom + 10"));
    const double widths[3] = {320, 210, 1000};
    const double heights[3][3] = {{40, 20, 80}, {60, 20, 120}, {20, 20, 40}};
    for (int k = 0; k < 3; k++) {
        CHECK_OK(moa_layout_set_root_size(L, widths[k], 960));
        CHECK_OK(moa_layout_solve(L, NULL));
        double sum = 36;
        for (int i = 0; i < 3; i++) {
            CHECK_NEAR(height_of(L, v[i]), heights[k][i]);
            sum += heights[k][i];
        }
        CHECK_NEAR(height_of(L, box), sum);
    }
    moa_layout_free(L);
}

int main(void) {
    test_stack_in_resizing_container();
    test_height_follows_width();
    test_errors_change_nothing();
    test_reentrance_is_misuse();
    test_never_settles();
    test_text();
    test_adaptive_font();
    test_fitting_size();
    return CHECK_DONE();
}
