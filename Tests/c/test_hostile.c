/*
** test_hostile.c -- hostile input through the C API, beyond test_misuse.c / test_layout_misuse.c: huge and
** tiny numbers (1e300, 1e-300, DBL_MAX, -0.0), a 10 MB equation, view name and eqs block, 100,000 views, a
** 20,000-deep hierarchy, a view made its own ancestor, unknown names, double frees of every kind of id, and
** callbacks that free the layout they are called from (pan rests, collapsibles, completions run by the free
** itself, a callback driving another layout). Every bad call must return its code with a message, and the
** layout must then still solve to exactly the frames it had (bit for bit) with the same constraints.
**
** Under valgrind (LD_PRELOAD names vgpreload) or with MOA_HOSTILE_SMALL set, the big cases shrink (1 MB,
** 10,000 views, 2,000 deep) and time limits are not checked.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

static int small_mode;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A call on big input must stay fast: 40 s for a 10 MB unknown name was a bug (quadratic suggestion). */
#define CHECK_FAST(t0, limit)                                                                              \
    do {                                                                                                   \
        double dt_ = now() - (t0);                                                                         \
        if (!small_mode) check_report_(dt_ < (limit), __FILE__, __LINE__, "took under " #limit " s");     \
        if (dt_ >= (limit)) fprintf(stderr, "    took %.2f s\n", dt_);                                     \
    } while (0)

/* ------------------------------------------------------------------------------------------ state checks */

/* What a failed call must not change: every frame (guides too), the equations, the root size and the clock. */
typedef struct state {
    moa_frame *frames;
    size_t nframes;
    char *described;
    double w, h, time;
} state;

static char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* Solves first: "the layout still solves". */
static state capture(moa_layout *L) {
    state st;
    memset(&st, 0, sizeof st);
    const char *d = NULL;
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_layout_frames(L, 1, NULL, 0, &st.nframes));
    st.frames = calloc(st.nframes + 1, sizeof *st.frames);
    size_t again = 0;
    CHECK(st.frames != NULL);
    CHECK_OK(moa_layout_frames(L, 1, st.frames, st.nframes, &again));
    CHECK(again == st.nframes);
    CHECK_OK(moa_layout_describe(L, &d));
    st.described = copy_string(d ? d : "");
    CHECK_OK(moa_layout_root_size(L, &st.w, &st.h));
    CHECK_OK(moa_layout_time(L, &st.time));
    return st;
}

static int same_state(const state *a, const state *b) {
    return a->nframes == b->nframes && memcmp(a->frames, b->frames, a->nframes * sizeof a->frames[0]) == 0 &&
           strcmp(a->described, b->described) == 0 && a->w == b->w && a->h == b->h && a->time == b->time;
}

/* expr must fail with `want`, leave a message, and change nothing. */
#define CHECK_FAILS(L, expr, want)                                                                         \
    do {                                                                                                   \
        state before_ = capture(L);                                                                        \
        CHECK_STATUS(expr, want);                                                                          \
        const char *msg_ = moa_layout_errmsg(L);                                                           \
        check_report_(msg_ && msg_[0] && strcmp(msg_, "not an error") != 0, __FILE__, __LINE__,            \
                      "a message for " #expr);                                                             \
        moa_error_info info_;                                                                              \
        CHECK_OK(moa_layout_error_info(L, &info_));                                                        \
        CHECK(info_.code == (want));                                                                       \
        state after_ = capture(L);                                                                         \
        check_report_(same_state(&before_, &after_), __FILE__, __LINE__, "nothing changed after " #expr);  \
        free(before_.described);                                                                           \
        free(after_.described);                                                                            \
        free(before_.frames);                                                                              \
        free(after_.frames);                                                                               \
    } while (0)

/* The small scene most tests run on: a card with a label inside, under the root; solved. */
static moa_layout *scene(moa_lcons *cs, size_t cap) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view card, label;
    size_t n = 0;
    CHECK(L != NULL);
    CHECK_OK(moa_view_new(L, "card", 0, &card));
    CHECK_OK(moa_view_new(L, "label", card, &label));
    CHECK_OK(moa_layout_eqs(L,
                            "card.left == 20\n"
                            "card.top == safeArea.top + 10\n"
                            "card.width == 200 @ high\n"
                            "card.height == 100\n"
                            "card.right <= margins.right\n"
                            "label.left == card.leftMargin\n"
                            "label.top == card.top + 8\n"
                            "label.width == 60\n"
                            "label.height == 20",
                            cs, cap, &n));
    CHECK(n == 9);
    CHECK_OK(moa_layout_solve(L, NULL));
    return L;
}

/* -------------------------------------------------------------------------------------------- numbers */

static void count_done(moa_layout *L, moa_animation a, int finished, void *ud);

static void test_numbers(void) {
    moa_lcons cs[9];
    moa_layout *L = scene(cs, 9);
    moa_view card;
    CHECK_OK(moa_view_find(L, "card", &card));
    moa_lcons c = 0;
    moa_animation an = 0;
    double huge = 1e300;

    /* Finite but far out of range: refused where they would enter the solver, never stored half-way. */
    CHECK_FAILS(L, moa_layout_set_root_size(L, 1e300, 1e300), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_set_root_size(L, DBL_MAX, 10), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_set_safe_area(L, 1e300, 0, 0, 0), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_set_safe_area(L, 0, 0, 0, -1e300), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_set_keyboard_height(L, 1e300), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_set_keyboard_height(L, -0.5), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_margins(L, card, 0, 1e300, 0, 0), MOA_INVALID); /* label uses leftMargin */
    CHECK_FAILS(L, moa_view_set_intrinsic_size(L, card, 1e300, MOA_NO_INTRINSIC), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_intrinsic_size(L, card, DBL_MAX, DBL_MAX), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_content_priority(L, card, MOA_HORIZONTAL, 1e-300, 750), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_content_priority(L, card, MOA_HORIZONTAL, NAN, NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_set_constant(L, cs[0], 1e300), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_set_constant(L, cs[0], -1e13), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_set_constant(L, cs[0], NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_set_priority(L, cs[2], 1e-300), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_set_priority(L, cs[2], -INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_animate(L, cs[0], 1e300, 1, MOA_LINEAR, 0, NULL, NULL, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_animate(L, cs[0], 1, NAN, MOA_LINEAR, 0, NULL, NULL, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_animate_priority(L, cs[2], 1e300, 1, MOA_LINEAR, 0, NULL, NULL, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_animate_root_size(L, 1e300, 10, 1, MOA_LINEAR, 0, NULL, NULL, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_show_keyboard(L, 1e300, 0.25, MOA_EASE_IN_OUT, NULL, NULL, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_advance(L, INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_advance(L, -DBL_MIN), MOA_INVALID);
    CHECK(an == 0);
    /* Lengths beyond 1e9 fail where they are given, even when nothing uses them yet
    ** (no constraint uses label's margins or baseline): they used to be stored and fail in a later call. */
    moa_view label;
    CHECK_OK(moa_view_find(L, "label", &label));
    CHECK_FAILS(L, moa_view_set_margins(L, label, 1e300, 0, 0, 0), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_margins(L, label, 0, 0, 0, -2e9), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_directional_margins(L, label, 0, 1e300, 0, 0), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_baseline(L, label, &huge, NULL), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_baseline(L, label, NULL, &huge), MOA_INVALID);
    double rests[2] = {0, 1e300};
    moa_pan pan = 0;
    CHECK_FAILS(L, moa_pan_new(L, &cs[0], 1, MOA_HORIZONTAL, rests, 2, &pan), MOA_INVALID);
    CHECK(pan == 0);
    rests[1] = -100;
    CHECK_OK(moa_pan_new(L, &cs[0], 1, MOA_HORIZONTAL, rests, 2, &pan));
    rests[1] = -1e10;
    CHECK_FAILS(L, moa_pan_set_rest_positions(L, pan, rests, 2), MOA_INVALID);
    CHECK_FAILS(L, moa_pan_move(L, pan, 1e300, 0, NULL, NULL), MOA_INVALID);
    CHECK_OK(moa_pan_free(L, pan));
    CHECK_OK(moa_view_set_margins(L, label, 1e9, 0, 0, 0)); /* the bound itself is a length */
    CHECK_OK(moa_view_set_margins(L, label, 8, 8, 8, 8));

    /* In equation text: too large, too many digits, NaN/inf spelled out (names, not numbers), division by
    ** zero, priorities out of range and priority arithmetic that overflows. */
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 1e300", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == -1e300", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 1e309", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == root.left * 1e300", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == root.left / 0", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == root.left / 1e-300", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == nan", &c), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == inf", &c), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 5 @ 1e300", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 5 @ high + 1e300", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 5 @ 0", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 5 @ -1", &c), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 5 @ 1000.5", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eq(L, "card.hugH == 1e300", &c), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_eqs(L, "card.left == 1\ncard.top == 1e20", NULL, 0, &(size_t){0}), MOA_INVALID);
    CHECK(c == 0);
    moa_error_info info;
    CHECK_STATUS(moa_layout_eqs(L, "card.left == 1\ncard.top == 1e20", NULL, 0, &(size_t){0}), MOA_INVALID);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.line == 2 && info.offset == 12 && info.length == 4);

    /* Tiny and signed zeros are ordinary numbers. */
    CHECK_OK(moa_layout_eq(L, "label.top == card.top + 1e-300", &c));
    CHECK_OK(moa_lcons_set_constant(L, cs[0], -0.0));
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_rect r;
    CHECK_OK(moa_view_frame(L, card, &r));
    CHECK(r.x == 0 && r.width == 200);
    CHECK_OK(moa_lcons_set_constant(L, cs[0], 20));

    /* A Bezier curve with control points at +-1e300 (allowed: finite) sends constants out of range: the
    ** animation ends (finished = 0) and the frames stay as they were. */
    moa_curve wild = 0;
    CHECK_OK(moa_layout_bezier_curve(L, 0.5, 1e300, 0.5, -1e300, &wild));
    state before = capture(L);
    CHECK_OK(moa_lcons_animate(L, cs[0], 30, 1, wild, 0, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance(L, 0.25));
    CHECK_OK(moa_layout_advance(L, 1));
    int animating = -1;
    CHECK_OK(moa_layout_is_animating(L, &animating));
    CHECK(animating == 0);
    CHECK_OK(moa_view_frame(L, card, &r));
    CHECK(isfinite(r.x) && isfinite(r.y) && isfinite(r.width) && isfinite(r.height));
    free(before.described);
    free(before.frames);

    /* The clock: 1e300-second steps and DBL_MAX never overflow to infinity; animations still end. */
    CHECK_OK(moa_layout_advance(L, 1e300));
    CHECK_FAILS(L, moa_layout_advance(L, DBL_MAX), MOA_INVALID);
    CHECK_OK(moa_layout_seek(L, DBL_MAX));
    CHECK_OK(moa_layout_advance(L, 1));
    double t = 0;
    CHECK_OK(moa_layout_time(L, &t));
    CHECK(t == DBL_MAX);
    CHECK_OK(moa_lcons_animate(L, cs[0], 42, 1, MOA_EASE_IN_OUT, 0, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_OK(moa_layout_is_animating(L, &animating));
    CHECK(animating == 0);
    CHECK_OK(moa_view_frame(L, card, &r));
    CHECK(r.x == 42);
    /* Delays and durations above 1e12 seconds are refused: nothing starts, done is never called. */
    int calls = 0;
    CHECK_FAILS(L, moa_lcons_animate(L, cs[0], 43, 1, MOA_LINEAR, huge, count_done, &calls, NULL), MOA_INVALID);
    CHECK_FAILS(L, moa_lcons_animate(L, cs[0], 43, 1.000001e12, MOA_LINEAR, 0, count_done, &calls, NULL), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_advance(L, 1e300), MOA_INVALID); /* the clock would overflow */
    CHECK_OK(moa_layout_advance(L, 1));
    CHECK_OK(moa_view_frame(L, card, &r));
    CHECK(r.x == 42 && calls == 0);
    moa_layout_free(L);
    CHECK(calls == 0);
    /* The longest delay allowed: the animation waits, and the free completes it unfinished. */
    L = moa_layout_new(100, 100);
    moa_view box;
    moa_lcons left;
    CHECK_OK(moa_view_new(L, "box", 0, &box));
    CHECK_OK(moa_layout_eq(L, "box.left == 0", &left));
    CHECK_OK(moa_lcons_animate(L, left, 43, 1, MOA_LINEAR, 1e12, count_done, &calls, NULL));
    CHECK_OK(moa_layout_advance(L, 1e6));
    CHECK_OK(moa_view_frame(L, box, &r));
    CHECK(r.x == 0 && calls == 0);
    moa_layout_free(L);
    CHECK(calls == 1);

    /* The same at the solver level: 1e300 constants and coefficients, and 1e-300 coefficients. */
    moa_solver *s = moa_solver_new();
    moa_var x, y;
    moa_cons k;
    CHECK_OK(moa_var_new(s, "x", &x));
    CHECK_OK(moa_var_new(s, "y", &y));
    moa_term t1[2] = {{x, 1}, {y, -1}};
    CHECK_OK(moa_solver_add(s, t1, 2, -5, MOA_EQ, MOA_REQUIRED, NULL, &k));
    moa_term hugecoef[1] = {{x, 1e300}}, tinycoef[1] = {{x, 1e-300}};
    CHECK_STATUS(moa_solver_add(s, t1, 2, 1e300, MOA_EQ, MOA_LOW, NULL, &k), MOA_INVALID);
    CHECK_STATUS(moa_solver_add(s, t1, 2, -DBL_MAX, MOA_EQ, MOA_LOW, NULL, &k), MOA_INVALID);
    CHECK_STATUS(moa_solver_add(s, hugecoef, 1, 0, MOA_EQ, MOA_LOW, NULL, &k), MOA_INVALID);
    CHECK_STATUS(moa_cons_set_weight(s, k, 1e300), MOA_INVALID);
    CHECK_STATUS(moa_cons_set_constant(s, k, 1e300), MOA_INVALID);
    /* A coefficient too small to matter leaves `1 == 0`: required, it cannot hold; optional, it is kept. */
    CHECK_STATUS(moa_solver_add(s, tinycoef, 1, 1, MOA_EQ, MOA_REQUIRED, NULL, &k), MOA_UNSATISFIABLE);
    CHECK_OK(moa_solver_add(s, tinycoef, 1, 1, MOA_EQ, MOA_LOW, NULL, &k));
    CHECK_OK(moa_solver_add_edit(s, x, MOA_HIGH));
    CHECK_STATUS(moa_solver_suggest(s, x, 1e300), MOA_INVALID);
    CHECK_OK(moa_solver_suggest(s, x, 7));
    CHECK_OK(moa_solver_update(s));
    double vx = 0, vy = 0;
    CHECK_OK(moa_var_value(s, x, &vx));
    CHECK_OK(moa_var_value(s, y, &vy));
    CHECK(vx == 7 && vy == 2);
    moa_solver_free(s);
}

/* -------------------------------------------------------------------------------------------- big text */

static void test_big_text(void) {
    const size_t N = small_mode ? (1u << 20) : (10u << 20);
    char *big = malloc(N + 64);
    moa_lcons cs[9];
    moa_layout *L = scene(cs, 9);
    moa_lcons c = 0;
    size_t n = 0;
    double t0;
    if (!big) {
        CHECK(!"out of memory");
        return;
    }

    /* A 10 MB number. */
    memcpy(big, "card.left == ", 13);
    memset(big + 13, '9', N);
    big[N + 13] = '\0';
    t0 = now();
    CHECK_FAILS(L, moa_layout_eq(L, big, &c), MOA_INVALID);
    CHECK_FAST(t0, 10.0);
    /* A 10 MB unknown view name: an error naming it, with no suggestion, quickly. */
    memset(big, 'x', N);
    memcpy(big + N, ".left == 0", 11);
    t0 = now();
    CHECK_FAILS(L, moa_layout_eq(L, big, &c), MOA_PARSE);
    CHECK_FAST(t0, 10.0);
    moa_error_info info;
    CHECK_STATUS(moa_layout_eq(L, big, &c), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unknownView");
    CHECK_STR(info.suggestion, "");
    CHECK(info.offset == 0 && (size_t)info.length == N);
    /* ... whose message and errmsg stay small (they quoted the name and the line whole: 30 MB); the line itself
    ** is still there, whole. */
    CHECK(strlen(info.message) <= 600);
    CHECK(strlen(moa_layout_errmsg(L)) <= 1000);
    CHECK(strlen(info.source_line) == N + 10);
    /* ... and a near miss of a real, equally long name: no suggestion for names that long (the quadratic
    ** table for two 10 MB names ran out of memory), still quickly. */
    moa_view longv;
    big[N] = '\0';
    CHECK_OK(moa_view_new(L, big, 0, &longv)); /* a 10 MB name is a valid name */
    big[N - 1] = 'y';
    memcpy(big + N, ".left == 0", 11);
    t0 = now();
    CHECK_FAILS(L, moa_layout_eq(L, big, &c), MOA_PARSE);
    CHECK_FAST(t0, 10.0);
    CHECK_STATUS(moa_layout_eq(L, big, &c), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unknownView");
    CHECK_STR(info.suggestion, "");
    CHECK_OK(moa_view_free(L, longv));
    /* Up to 64 letters, near misses are still suggested. */
    moa_view named;
    const char *name64 = "a_rather_long_view_name_of_exactly_sixty_four_letters_0123456789";
    CHECK(strlen(name64) == 64);
    CHECK_OK(moa_view_new(L, name64, 0, &named));
    CHECK_STATUS(moa_layout_eq(L, "a_rather_long_view_name_of_exactly_sixty_four_letters_0123456780.left == 0", &c),
                 MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.suggestion, name64);
    CHECK_OK(moa_view_free(L, named));
    /* 10 MB of blanks before an equation; 10 MB of open parentheses; a 10 MB priority sum. */
    memset(big, ' ', N);
    memcpy(big + N, "card.left == 20", 16);
    CHECK_OK(moa_layout_eq(L, big, &c));
    CHECK(c == cs[0]); /* the same equation: the same constraint */
    /* 1 MB (the cost per byte is the same as above; these keep the file fast): open parentheses, a priority
    ** sum of 250,000 terms, invalid UTF-8. */
    const size_t M = N / 10;
    memset(big, '(', M);
    big[M] = '\0';
    CHECK_FAILS(L, moa_layout_eq(L, big, &c), MOA_PARSE);
    memcpy(big, "card.left == 5 @ 1", 18);
    size_t e = 18;
    for (; e + 4 <= M; e += 4) memcpy(big + e, " + 1", 4);
    big[e] = '\0';
    t0 = now();
    CHECK_FAILS(L, moa_layout_eq(L, big, &c), MOA_INVALID);
    CHECK_FAST(t0, 5.0);
    CHECK_FAILS(L, moa_layout_xeq(L, big, &n), MOA_INVALID);
    memset(big, 0xff, M);
    big[M] = '\0';
    CHECK_FAILS(L, moa_layout_eq(L, big, &c), MOA_PARSE);
    CHECK_FAILS(L, moa_view_new(L, big, 0, &longv), MOA_INVALID);
    /* eqs: a 10 MB block whose last line is bad applies nothing and names that line. */
    size_t k = 0, lines = 0;
    while (k + 11 < N) {
        memcpy(big + k, "# comment \n", 11);
        k += 11;
        lines++;
    }
    memcpy(big + k, "label.top == 1e300\n", 20);
    CHECK_FAILS(L, moa_layout_eqs(L, big, NULL, 0, &n), MOA_INVALID);
    CHECK_STATUS(moa_layout_eqs(L, big, NULL, 0, &n), MOA_INVALID);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK((size_t)info.line == lines + 1 && info.offset == 13 && (size_t)info.text_offset == k + 13);
    /* ... and a 1 MB block of one re-issued equation returns its id once per line. */
    k = 0;
    lines = 0;
    while (k + 16 < M) {
        memcpy(big + k, "card.left == 20\n", 16);
        k += 16;
        lines++;
    }
    big[k] = '\0';
    moa_lcons one[2] = {0, 0};
    t0 = now();
    CHECK_OK(moa_layout_eqs(L, big, one, 2, &n));
    CHECK_FAST(t0, 20.0);
    CHECK(n == lines && one[0] == cs[0] && one[1] == cs[0]);
    size_t ncons = 0;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &ncons));
    CHECK(ncons == 9);
    moa_layout_free(L);
    free(big);
}

/* ------------------------------------------------------------------------------------ many and deep views */

static void test_many_views(void) {
    const int N = small_mode ? 10000 : 100000;
    moa_layout *L = moa_layout_new(1000, 1000);
    char name[32];
    moa_view v = 0, first = 0, last = 0;
    double t0 = now();
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "v%d", i);
        if (moa_view_new(L, name, 0, &v) != MOA_OK) {
            CHECK(!"moa_view_new failed");
            break;
        }
        if (i == 0) first = v;
        last = v;
    }
    /* A row in one eqs block: each view 1 wide, right of the one before (tops and heights stay free). */
    char *text = malloc((size_t)N * 80), *p = text;
    CHECK(text != NULL);
    p += sprintf(p, "v0.left == 0\n");
    for (int i = 0; i < N; i++) {
        if (i > 0) p += sprintf(p, "v%d.left == v%d.right\n", i, i - 1);
        p += sprintf(p, "v%d.width == 1\n", i);
    }
    size_t ncons = 0;
    CHECK_OK(moa_layout_eqs(L, text, NULL, 0, &ncons));
    CHECK(ncons == (size_t)N * 2);
    free(text);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_FAST(t0, 30.0);
    moa_rect r;
    CHECK_OK(moa_view_frame(L, last, &r));
    CHECK(r.x == N - 1 && r.width == 1);
    /* Bad calls on a big layout still fail cleanly. */
    snprintf(name, sizeof name, "v%d", N / 2);
    CHECK_STATUS(moa_view_new(L, name, 0, &v), MOA_DUPLICATE);
    CHECK_STATUS(moa_layout_eq(L, "v0.left == v99999999.right", &(moa_lcons){0}), MOA_PARSE);
    t0 = now();
    CHECK_STATUS(moa_layout_eq(L, "v1.left == v1234567.rigth", &(moa_lcons){0}), MOA_PARSE); /* near names */
    CHECK_FAST(t0, 5.0);
    CHECK_STATUS(moa_layout_eq(L, "v1.left == 5", &(moa_lcons){0}), MOA_UNSATISFIABLE);
    size_t nconf = 0;
    CHECK_OK(moa_layout_conflicts(L, NULL, 0, &nconf));
    CHECK(nconf >= 1);
    moa_frame *frames = malloc((size_t)(N + 8) * sizeof *frames);
    size_t n = 0;
    CHECK(frames != NULL);
    CHECK_OK(moa_layout_frames(L, 1, frames, (size_t)N + 8, &n));
    CHECK(n == (size_t)N + 4);
    free(frames);
    const char *svg = NULL;
    CHECK_OK(moa_layout_svg(L, MOA_SVG_GUIDES, &svg));
    CHECK(svg != NULL && strlen(svg) > (size_t)N);
    /* Removing the first view removes the constraints through it; the rest still solves. */
    CHECK_OK(moa_view_free(L, first));
    CHECK_STATUS(moa_view_free(L, first), MOA_NOTFOUND);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_view_frame(L, last, &r));
    CHECK(isfinite(r.x) && r.width == 1);
    CHECK_FAST(t0, 30.0);
    moa_layout_free(L);
}

static void test_deep(void) {
    const int N = small_mode ? 2000 : 20000;
    moa_layout *L = moa_layout_new(320, 480);
    moa_view *chain = malloc((size_t)N * sizeof *chain);
    char name[32];
    double t0 = now();
    CHECK(chain != NULL);
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "d%d", i);
        if (moa_view_new(L, name, i ? chain[i - 1] : 0, &chain[i]) != MOA_OK) {
            CHECK(!"moa_view_new failed");
            break;
        }
    }
    moa_lcons cs[4];
    size_t n = 0;
    snprintf(name, sizeof name, "d%d", N - 1);
    char eqs[256];
    snprintf(eqs, sizeof eqs, "d0.left == 10\nd0.top == 10\nd0.size == 100x100\n%s.left == d0.left + 5", name);
    CHECK_OK(moa_layout_eqs(L, eqs, cs, 4, &n));
    state before = capture(L);
    /* Every way of making a view its own ancestor: a cycle error, nothing moves. */
    CHECK_FAILS(L, moa_view_set_superview(L, chain[0], chain[N - 1]), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_superview(L, chain[0], chain[0]), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_superview(L, chain[N / 2], chain[N / 2 + 1]), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_superview(L, chain[N - 1], chain[N - 1]), MOA_INVALID);
    moa_error_info info;
    CHECK_STATUS(moa_view_set_superview(L, chain[1], chain[N - 2]), MOA_INVALID); /* 20,000 steps up */
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "cycle");
    moa_view sup = 0;
    CHECK_OK(moa_view_superview(L, chain[1], &sup));
    CHECK(sup == chain[0]);
    /* The root and guides cannot move or be parents; a guide is no ancestor either. */
    moa_view root = 0, kb = 0;
    CHECK_OK(moa_layout_root(L, &root));
    CHECK_OK(moa_layout_guide(L, "keyboard", &kb));
    CHECK_FAILS(L, moa_view_set_superview(L, root, chain[N - 1]), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_superview(L, chain[3], kb), MOA_INVALID);
    CHECK_FAILS(L, moa_view_set_superview(L, kb, chain[3]), MOA_INVALID);
    /* Walks over the whole depth: frames, SVG, trace, describe, a deep move. */
    moa_frame *frames = malloc((size_t)(N + 8) * sizeof *frames);
    CHECK(frames != NULL);
    CHECK_OK(moa_layout_frames(L, 1, frames, (size_t)N + 8, &n));
    CHECK(n == (size_t)N + 4 && frames[n - 1].depth == N);
    free(frames);
    const char *out = NULL;
    CHECK_OK(moa_layout_svg(L, MOA_SVG_CONSTRAINTS | MOA_SVG_GUIDES, &out));
    CHECK_OK(moa_layout_trace_start(L, 1));
    CHECK_OK(moa_lcons_animate(L, cs[0], 20, 0.1, MOA_LINEAR, 0, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK_OK(moa_layout_trace_stop(L));
    CHECK_OK(moa_layout_trace_json(L, &out));
    CHECK_OK(moa_layout_trace_svg_strip(L, 2, 0, &out));
    moa_rect r;
    CHECK_OK(moa_view_frame_in_root(L, chain[N - 1], &r));
    CHECK(r.x == 25);
    CHECK_OK(moa_view_set_superview(L, chain[N - 1], 0)); /* the deepest to the top: frames follow */
    CHECK_OK(moa_view_set_superview(L, chain[1], chain[N - 1])); /* and the chain below it */
    CHECK_OK(moa_view_set_direction(L, chain[N - 1], MOA_RTL));   /* inherited by 20,000 views */
    CHECK_OK(moa_layout_solve(L, NULL));
    /* Removing the top removes all of them, and its constraints; names are free again. */
    CHECK_OK(moa_view_free(L, chain[N - 1]));
    CHECK_STATUS(moa_view_free(L, chain[1]), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_frame(L, chain[N / 2], &r), MOA_NOTFOUND);
    CHECK_OK(moa_view_new(L, name, chain[0], &chain[1]));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_FAST(t0, 20.0);
    free(before.described);
    free(before.frames);
    moa_layout_free(L);
    free(chain);
}

/* ------------------------------------------------------------------------- unknown names, double frees */

static void test_names_and_double_frees(void) {
    moa_lcons cs[9];
    moa_layout *L = scene(cs, 9);
    moa_view v = 0, card = 0, label = 0;
    moa_lcons c = 0;
    size_t n = 0;
    CHECK_OK(moa_view_find(L, "card", &card));
    CHECK_OK(moa_view_find(L, "label", &label));

    CHECK_FAILS(L, moa_view_find(L, "nope", &v), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_view_find(L, "", &v), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_layout_guide(L, "card", &v), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_layout_guide(L, "", &v), MOA_NOTFOUND);
    CHECK(v == 0);
    CHECK_FAILS(L, moa_layout_eq(L, "crad.left == 5", &c), MOA_PARSE);
    moa_error_info info;
    CHECK_STATUS(moa_layout_eq(L, "crad.left == 5", &c), MOA_PARSE); /* CHECK_FAILS ends on a success */
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unknownView");
    CHECK_STR(info.suggestion, "card");
    CHECK_FAILS(L, moa_layout_eq(L, "card.lfet == 5", &c), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == label.rigth", &c), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_eq(L, "card.left == 5 @ hihg", &c), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_eq(L, "root.left == 5", &c), MOA_INVALID); /* the root has no superview */
    CHECK_FAILS(L, moa_layout_eq(L, "root.width == 5", &c), MOA_UNSATISFIABLE);
    CHECK_FAILS(L, moa_layout_xeq(L, "card.left == nope.left", &n), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_xeq(L, "card.left == label.left", &n), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_view_new(L, "view", 0, &v), MOA_INVALID);
    CHECK_FAILS(L, moa_view_new(L, "9lives", 0, &v), MOA_INVALID);
    CHECK_FAILS(L, moa_view_new(L, "a b", 0, &v), MOA_INVALID);
    CHECK_FAILS(L, moa_view_new(L, "card", 0, &v), MOA_DUPLICATE);
    CHECK_FAILS(L, moa_view_new(L, "keyboard", 0, &v), MOA_INVALID);

    /* Double frees of every kind of id: the second gives MOA_NOTFOUND and changes nothing. */
    moa_view extra;
    moa_lcons ec;
    moa_collapsible col;
    moa_pan pan;
    moa_animation an;
    CHECK_OK(moa_view_new(L, "extra", 0, &extra));
    CHECK_OK(moa_layout_eq(L, "extra.left == 3", &ec));
    CHECK_OK(moa_lcons_remove(L, ec));
    CHECK_FAILS(L, moa_lcons_remove(L, ec), MOA_NOTFOUND);
    CHECK_OK(moa_view_free(L, extra));
    CHECK_FAILS(L, moa_view_free(L, extra), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_layout_eq(L, "extra.left == 3", &c), MOA_PARSE); /* its name is gone */
    CHECK_OK(moa_collapsible_new(L, card, cs[0], MOA_LEFT, &col));
    CHECK_OK(moa_collapsible_free(L, col));
    CHECK_FAILS(L, moa_collapsible_free(L, col), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_collapsible_toggle(L, col, 0, 0, MOA_LINEAR, NULL, NULL, NULL), MOA_NOTFOUND);
    CHECK_OK(moa_pan_new(L, cs, 1, MOA_HORIZONTAL, NULL, 0, &pan));
    CHECK_OK(moa_pan_free(L, pan));
    CHECK_FAILS(L, moa_pan_free(L, pan), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_pan_began(L, pan, NULL), MOA_NOTFOUND);
    CHECK_OK(moa_lcons_animate(L, cs[1], 30, 0.1, MOA_LINEAR, 0, NULL, NULL, &an));
    CHECK_OK(moa_animation_cancel(L, an));
    CHECK_OK(moa_animation_cancel(L, an)); /* documented: cancelling an ended animation is a no-op */
    CHECK_OK(moa_layout_advance(L, 0.2));
    CHECK_OK(moa_animation_cancel(L, an));
    /* Ids that were never valid, of another kind, or off by one. */
    CHECK_FAILS(L, moa_view_free(L, cs[0]), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_lcons_remove(L, card), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_animation_cancel(L, cs[0]), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_view_free(L, label + 1000000), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_view_free(L, UINT64_MAX), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_lcons_remove(L, 0), MOA_NOTFOUND);
    moa_layout_free(L);

    /* Solver level: freeing a variable twice, removing a constraint twice, a stale id after reset. */
    moa_solver *s = moa_solver_new();
    moa_var x;
    moa_cons k;
    CHECK_OK(moa_var_new(s, "x", &x));
    moa_term t = {x, 1};
    CHECK_OK(moa_solver_add(s, &t, 1, -3, MOA_EQ, MOA_REQUIRED, NULL, &k));
    CHECK_OK(moa_cons_remove(s, k));
    CHECK_STATUS(moa_cons_remove(s, k), MOA_NOTFOUND);
    CHECK_OK(moa_var_free(s, x));
    CHECK_STATUS(moa_var_free(s, x), MOA_NOTFOUND);
    CHECK_OK(moa_solver_reset(s));
    CHECK_OK(moa_solver_reset(s));
    CHECK_STATUS(moa_var_free(s, x), MOA_NOTFOUND);
    moa_solver_free(s);
    moa_solver_free(NULL);
    moa_layout_free(NULL);
}

/* --------------------------------------------------------------------------- callbacks that free layouts */

typedef struct {
    int calls, finished;
    moa_status after; /* a call on the layout after the free (MOA_MISUSE expected) */
} freer;

static void count_done(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L, (void)a;
    *(int *)ud += 1 + 10 * finished; /* 1 per call, 10 more if finished */
}

static void rest_frees(moa_layout *L, moa_pan p, double rest, int finished, void *ud) {
    (void)p, (void)rest;
    freer *f = ud;
    f->calls++;
    f->finished = finished;
    moa_layout_free(L);
    moa_layout_free(L); /* a second free while one is pending is ignored */
    f->after = moa_pan_began(L, p, NULL);
}

static void done_frees(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)a;
    freer *f = ud;
    f->calls++;
    f->finished = finished;
    moa_layout_free(L);
    double t;
    f->after = moa_layout_time(L, &t);
}

/* Called by moa_layout_free itself (finished = 0): freeing again and any other call are refused. */
static void done_during_free(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)a;
    freer *f = ud;
    f->calls++;
    f->finished = finished;
    moa_layout_free(L);
    f->after = moa_layout_eq(L, "card.left == 1", &(moa_lcons){0});
}

typedef struct {
    moa_layout *outer, *other;
    moa_lcons outer_top;
    moa_status advance_other, advance_outer, eq_outer;
    int calls;
} cross;

static void other_done(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L, (void)a, (void)finished;
    cross *x = ud;
    x->calls++;
    x->advance_outer = moa_layout_advance(x->outer, 0.1); /* the outer layout is inside advance */
    x->eq_outer = moa_lcons_set_constant(x->outer, x->outer_top, 77); /* allowed */
}

static void outer_done(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L, (void)a, (void)finished;
    cross *x = ud;
    x->advance_other = moa_layout_advance(x->other, 0.2); /* another layout: allowed, and calls back */
    moa_layout_free(x->other);
    x->other = NULL;
}

static void test_callbacks_free(void) {
    moa_lcons cs[9];
    /* A pan's rest callback frees the layout at the end of the snap. */
    moa_layout *L = scene(cs, 9);
    moa_pan p;
    freer f = {0, -1, -1};
    double target = NAN;
    CHECK_OK(moa_pan_new(L, cs, 1, MOA_HORIZONTAL, (double[]){0, -100}, 2, &p));
    CHECK_OK(moa_pan_began(L, p, NULL));
    CHECK_OK(moa_pan_changed(L, p, -80, -10, NULL));
    CHECK_OK(moa_pan_ended(L, p, 0, rest_frees, &f, &target, NULL));
    CHECK(target == -100);
    CHECK_OK(moa_layout_advance(L, 1.0)); /* L is freed as this returns */
    CHECK(f.calls == 1 && f.finished == 1 && f.after == MOA_MISUSE);

    /* A collapsible's completion frees the layout; a second completion due in the same frame still runs. */
    L = scene(cs, 9);
    moa_view card;
    moa_collapsible col;
    freer g = {0, -1, -1}, h = {0, -1, -1};
    CHECK_OK(moa_view_find(L, "card", &card));
    CHECK_OK(moa_collapsible_new(L, card, cs[0], MOA_LEFT, &col));
    CHECK_OK(moa_collapsible_set(L, col, 1, 1, 0.2, MOA_EASE_IN_OUT, done_frees, &g, NULL));
    CHECK_OK(moa_lcons_animate(L, cs[6], 50, 0.2, MOA_LINEAR, 0, done_frees, &h, NULL));
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK(g.calls == 1 && g.finished == 1 && g.after == MOA_MISUSE);
    CHECK(h.calls == 1 && h.finished == 1 && h.after == MOA_MISUSE);

    /* Not animated: the completion runs at the next frame, and frees there. */
    L = scene(cs, 9);
    freer u = {0, -1, -1};
    CHECK_OK(moa_view_find(L, "card", &card));
    CHECK_OK(moa_collapsible_new(L, card, cs[0], MOA_LEFT, &col));
    CHECK_OK(moa_collapsible_toggle(L, col, 0, 0, MOA_LINEAR, done_frees, &u, NULL));
    CHECK(u.calls == 0);
    CHECK_OK(moa_layout_seek(L, 0));
    CHECK(u.calls == 1 && u.after == MOA_MISUSE);

    /* Completions run by moa_layout_free itself may call free again: ignored. */
    L = scene(cs, 9);
    freer d1 = {0, -1, -1}, d2 = {0, -1, -1};
    CHECK_OK(moa_lcons_animate(L, cs[0], 50, 5, MOA_LINEAR, 0, done_during_free, &d1, NULL));
    CHECK_OK(moa_lcons_animate(L, cs[1], 50, 5, MOA_LINEAR, 2, done_during_free, &d2, NULL));
    CHECK_OK(moa_layout_advance(L, 0.1));
    moa_layout_free(L);
    CHECK(d1.calls == 1 && d1.finished == 0 && d1.after == MOA_MISUSE);
    CHECK(d2.calls == 1 && d2.finished == 0 && d2.after == MOA_MISUSE);

    /* A completion of one layout drives and frees another, whose completion calls back into the first. */
    L = scene(cs, 9);
    moa_lcons ocs[9];
    cross x = {L, scene(ocs, 9), cs[1], -1, -1, -1, 0};
    CHECK_OK(moa_lcons_animate(x.other, ocs[0], 60, 0.1, MOA_LINEAR, 0, other_done, &x, NULL));
    CHECK_OK(moa_lcons_animate(L, cs[0], 40, 0.1, MOA_LINEAR, 0, outer_done, &x, NULL));
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK(x.other == NULL && x.calls == 1);
    CHECK(x.advance_other == MOA_OK);
    CHECK(x.advance_outer == MOA_MISUSE); /* re-entering advance of a layout inside advance */
    CHECK(x.eq_outer == MOA_OK);
    CHECK_OK(moa_layout_solve(L, NULL));
    moa_rect r;
    CHECK_OK(moa_view_find(L, "card", &card));
    CHECK_OK(moa_view_frame(L, card, &r));
    CHECK(r.x == 40 && r.y == 77);
    moa_layout_free(L);
}

int main(void) {
    const char *pre = getenv("LD_PRELOAD");
    small_mode = getenv("MOA_HOSTILE_SMALL") != NULL || (pre && strstr(pre, "vgpreload") != NULL);
    double t0 = now();
    test_numbers();
    test_names_and_double_frees();
    test_callbacks_free();
    fprintf(stderr, "  small cases: %.1f s\n", now() - t0);
    test_deep();
    fprintf(stderr, "  + deep: %.1f s\n", now() - t0);
    test_many_views();
    fprintf(stderr, "  + many views: %.1f s\n", now() - t0);
    test_big_text();
    fprintf(stderr, "test_hostile: %.1f s%s\n", now() - t0, small_mode ? " (small mode)" : "");
    return CHECK_DONE();
}
