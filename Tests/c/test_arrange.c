/*
** test_arrange.c -- guides, stacks, chains, barriers and the visual format language through moa.h: frames for
** every stack distribution and alignment (a 300 x 50 row of 40 x 20, 60 x 30 and 80 x 40 views, spacing 10),
** hiding and its animation (golden frames at 0, 0.5 and 1 s, the completion), margins-relative and custom
** spacing, nested stacks, inserting, moving and removing arranged views, conflicts that name the stack's rule,
** constraints the stack owns refusing changes by id, user guides, chain styles, bias, gap and weights, a
** barrier following the widest label as texts change, VFL forms, metrics, options and errors with their
** offsets, and hostile arguments to every new function (each failed call changes nothing).
*/
#include <float.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define CHECK_RECT(r, X, Y, W, H) \
    do {                          \
        moa_rect r_ = (r);        \
        CHECK_NEAR(r_.x, X);      \
        CHECK_NEAR(r_.y, Y);      \
        CHECK_NEAR(r_.width, W);  \
        CHECK_NEAR(r_.height, H); \
    } while (0)

/* x and width of view v (along a horizontal stack or chain). */
#define CHECK_XW(L, v, X, W)          \
    do {                              \
        moa_rect q_ = frame_v(L, v);  \
        CHECK_NEAR(q_.x, X);          \
        CHECK_NEAR(q_.width, W);      \
    } while (0)

/* y and height of view v. */
#define CHECK_YH(L, v, Y, H)          \
    do {                              \
        moa_rect q_ = frame_v(L, v);  \
        CHECK_NEAR(q_.y, Y);          \
        CHECK_NEAR(q_.height, H);     \
    } while (0)

static moa_rect frame_v(moa_layout *L, moa_view v) {
    moa_rect r = {NAN, NAN, NAN, NAN};
    CHECK_OK(moa_view_frame(L, v, &r));
    return r;
}

static moa_view view_named(moa_layout *L, const char *name) {
    moa_view v = 0;
    CHECK_OK(moa_view_find(L, name, &v));
    return v;
}

static moa_view superview_of(moa_layout *L, moa_view v) {
    moa_view s = 0;
    CHECK_OK(moa_view_superview(L, v, &s));
    return s;
}

static size_t count_frames(moa_layout *L, int guides) {
    size_t n = 0;
    CHECK_OK(moa_layout_frames(L, guides, NULL, 0, &n));
    return n;
}

static size_t count_constraints(moa_layout *L) {
    size_t n = 0;
    CHECK_OK(moa_layout_constraints(L, NULL, 0, &n));
    return n;
}

static const char *describe_lcons(moa_layout *L, moa_lcons c) {
    const char *d = NULL;
    CHECK_OK(moa_lcons_describe(L, c, &d));
    return d ? d : "(null)";
}

/* Prints which case of a table-driven test failed (after the checks of that case). */
static void note_case(int failed_before, const char *what) {
    if (check_failed_ > failed_before) fprintf(stderr, "    ^ in case: %s\n", what);
}

/* Completions: how many, the last id and `finished`. */
typedef struct {
    int calls;
    int finished;
    moa_animation last;
} done_count;

static void on_done(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L;
    done_count *d = ud;
    d->calls++;
    d->finished = finished;
    d->last = a;
}

/* ------------------------------------------------------------------------------------------ state checks */

/* What a failed call must not change: every frame (guides and spacers too), the equations, every stack's
** properties, arranged views and hidden states, the clock and whether anything animates. */
typedef struct state {
    moa_frame *frames;
    size_t nframes;
    char *described;
    char stacks[4096];
    size_t nconstraints;
    double time;
    int animating;
} state;

static char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* Appends to a signature string (cut off at its size). */
#define APPEND(buf, ...)                                                                \
    do {                                                                                \
        size_t used_ = strlen(buf);                                                     \
        if (used_ + 1 < sizeof(buf)) snprintf((buf) + used_, sizeof(buf) - used_, __VA_ARGS__); \
    } while (0)

/* Solves first: "the layout still solves". */
static state capture(moa_layout *L) {
    state st;
    memset(&st, 0, sizeof st);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_layout_frames(L, 1, NULL, 0, &st.nframes));
    st.frames = calloc(st.nframes + 1, sizeof *st.frames);
    CHECK(st.frames != NULL);
    size_t again = 0;
    CHECK_OK(moa_layout_frames(L, 1, st.frames, st.nframes, &again));
    CHECK(again == st.nframes);
    const char *d = NULL;
    CHECK_OK(moa_layout_describe(L, &d));
    st.described = copy_string(d ? d : "");
    st.nconstraints = count_constraints(L);
    CHECK_OK(moa_layout_time(L, &st.time));
    CHECK_OK(moa_layout_is_animating(L, &st.animating));
    /* Every stack: its properties, arranged views and their hidden states. */
    moa_view views[64];
    size_t nv = 0;
    CHECK_OK(moa_layout_views(L, views, 64, &nv));
    for (size_t i = 0; i < nv && i < 64; i++) {
        int axis = -1, dist = -1, align = -1, margins = -1;
        double spacing = NAN;
        if (moa_stack_get(L, views[i], &axis, &dist, &align, &spacing, &margins) != MOA_OK) continue;
        APPEND(st.stacks, "[%llu:%d:%d:%d:%.17g:%d:", (unsigned long long)views[i], axis, dist, align, spacing,
               margins);
        moa_view arranged[16];
        size_t na = 0;
        CHECK_OK(moa_stack_views(L, views[i], arranged, 16, &na));
        for (size_t k = 0; k < na && k < 16; k++) {
            int hidden = -1;
            CHECK_OK(moa_stack_is_hidden(L, views[i], arranged[k], &hidden));
            APPEND(st.stacks, " %llu/%d", (unsigned long long)arranged[k], hidden);
        }
        APPEND(st.stacks, "]");
    }
    return st;
}

static int same_state(const state *a, const state *b) {
    if (a->nframes != b->nframes) return 0;
    for (size_t i = 0; i < a->nframes; i++) {
        const moa_frame *x = &a->frames[i], *y = &b->frames[i];
        if (x->view != y->view || x->superview != y->superview || x->depth != y->depth ||
            x->is_guide != y->is_guide || x->frame.x != y->frame.x || x->frame.y != y->frame.y ||
            x->frame.width != y->frame.width || x->frame.height != y->frame.height ||
            x->frame_in_root.x != y->frame_in_root.x || x->frame_in_root.y != y->frame_in_root.y)
            return 0;
    }
    return strcmp(a->described, b->described) == 0 && strcmp(a->stacks, b->stacks) == 0 &&
           a->nconstraints == b->nconstraints && a->time == b->time && a->animating == b->animating;
}

static void release(state *s) {
    free(s->frames);
    free(s->described);
}

/* expr must fail with `want`, record it (a message and the code in the error info), and change nothing. */
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
        release(&before_);                                                                                 \
        release(&after_);                                                                                  \
    } while (0)

/* As CHECK_FAILS, and the failure's message contains `needle`. */
#define CHECK_FAILS_MSG(L, expr, want, needle)                                                             \
    do {                                                                                                   \
        state before_ = capture(L);                                                                        \
        CHECK_STATUS(expr, want);                                                                          \
        CHECK_CONTAINS(moa_layout_errmsg(L), needle);                                                      \
        moa_error_info info_;                                                                              \
        CHECK_OK(moa_layout_error_info(L, &info_));                                                        \
        CHECK(info_.code == (want));                                                                       \
        state after_ = capture(L);                                                                         \
        check_report_(same_state(&before_, &after_), __FILE__, __LINE__, "nothing changed after " #expr);  \
        release(&before_);                                                                                 \
        release(&after_);                                                                                  \
    } while (0)

/* ------------------------------------------------------------------------------------------------- stacks */

/* A 300 x 50 horizontal stack `row` at the root's top-left (root 400 x 300) arranging a (40 x 20), b (60 x 30)
** and c (80 x 40) with spacing 10; solved. */
static moa_layout *make_row(moa_stack_distribution dist, moa_stack_alignment align, moa_view *row, moa_view v[3]) {
    static const char *names[3] = {"a", "b", "c"};
    static const double w[3] = {40, 60, 80}, h[3] = {20, 30, 40};
    moa_layout *L = moa_layout_new(400, 300);
    CHECK(L != NULL);
    CHECK_OK(moa_stack_new(L, "row", 0, MOA_HORIZONTAL, row));
    CHECK(*row != 0);
    moa_lcons cs[4];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, "row.left == 0\nrow.top == 0\nrow.width == 300\nrow.height == 50", cs, 4, &n));
    CHECK(n == 4);
    for (int i = 0; i < 3; i++) {
        CHECK_OK(moa_view_new(L, names[i], *row, &v[i]));
        CHECK_OK(moa_view_set_intrinsic_size(L, v[i], w[i], h[i]));
        CHECK_OK(moa_stack_insert(L, *row, v[i], -1));
    }
    CHECK_OK(moa_stack_set_distribution(L, *row, dist));
    CHECK_OK(moa_stack_set_alignment(L, *row, align));
    CHECK_OK(moa_stack_set_spacing(L, *row, 10));
    CHECK_OK(moa_layout_solve(L, NULL));
    return L;
}

static void test_distributions(void) {
    moa_view row, v[3];

    /* fillEqually: (300 - 20) / 3 each. */
    moa_layout *L = make_row(MOA_DISTRIBUTION_FILL_EQUALLY, MOA_ALIGN_FILL, &row, v);
    CHECK_RECT(frame_v(L, row), 0, 0, 300, 50);
    CHECK_XW(L, v[0], 0, 280.0 / 3);
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    CHECK(superview_of(L, v[1]) == row);
    int axis = -1, dist = -1, align = -1, margins = -1;
    double spacing = -1;
    CHECK_OK(moa_stack_get(L, row, &axis, &dist, &align, &spacing, &margins));
    CHECK(axis == MOA_HORIZONTAL && dist == MOA_DISTRIBUTION_FILL_EQUALLY && align == MOA_ALIGN_FILL);
    CHECK_NEAR(spacing, 10);
    CHECK(margins == 0);
    CHECK_OK(moa_stack_get(L, row, NULL, NULL, NULL, NULL, NULL)); /* every out may be NULL */
    size_t na = 0;
    CHECK_OK(moa_layout_ambiguities(L, NULL, NULL, 0, &na));
    CHECK(na == 0);

    /* The axis: vertical, the same views fill 50 high equally ((50 - 20) / 3), spanning the width. */
    CHECK_OK(moa_stack_set_axis(L, row, MOA_VERTICAL));
    CHECK_OK(moa_stack_get(L, row, &axis, NULL, NULL, NULL, NULL));
    CHECK(axis == MOA_VERTICAL);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, v[0]), 0, 0, 300, 10);
    CHECK_RECT(frame_v(L, v[1]), 0, 20, 300, 10);
    CHECK_RECT(frame_v(L, v[2]), 0, 40, 300, 10);
    CHECK_OK(moa_stack_set_axis(L, row, MOA_HORIZONTAL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    CHECK_YH(L, v[2], 0, 50);
    moa_layout_free(L);

    /* fillProportionally: 280 shared 40 : 60 : 80. */
    L = make_row(MOA_DISTRIBUTION_FILL_PROPORTIONALLY, MOA_ALIGN_FILL, &row, v);
    CHECK_XW(L, v[0], 0, 560.0 / 9);
    CHECK_XW(L, v[1], 650.0 / 9, 280.0 / 3);
    CHECK_XW(L, v[2], 1580.0 / 9, 1120.0 / 9);
    /* The proportions follow intrinsic size changes (spacing 0: 300 shared 120 : 60 : 80). */
    CHECK_OK(moa_stack_set_spacing(L, row, 0));
    CHECK_OK(moa_view_set_intrinsic_size(L, v[0], 120, 20));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 300.0 * 120 / 260);
    CHECK_XW(L, v[1], 300.0 * 120 / 260, 300.0 * 60 / 260);
    CHECK_XW(L, v[2], 300.0 * 180 / 260, 300.0 * 80 / 260);
    moa_layout_free(L);

    /* equalSpacing: the views keep their sizes, two equal gaps of 60, held by two spacer guides. */
    L = make_row(MOA_DISTRIBUTION_EQUAL_SPACING, MOA_ALIGN_FILL, &row, v);
    CHECK_XW(L, v[0], 0, 40);
    CHECK_XW(L, v[1], 100, 60);
    CHECK_XW(L, v[2], 220, 80);
    CHECK(count_frames(L, 0) == 5);      /* root, row, a, b, c */
    CHECK(count_frames(L, 1) == 5 + 3 + 2); /* + safeArea, margins, keyboard + 2 spacers */
    size_t nviews = 0;
    CHECK_OK(moa_layout_views(L, NULL, 0, &nviews));
    CHECK(nviews == 4);
    moa_frame frames[16];
    size_t nf = 0;
    CHECK_OK(moa_layout_frames(L, 1, frames, 16, &nf));
    int spacers = 0;
    for (size_t i = 0; i < nf && i < 16; i++) {
        if (frames[i].is_guide && frames[i].superview == row) {
            spacers++;
            CHECK_NEAR(frames[i].frame.width, 60);
        }
    }
    CHECK(spacers == 2);
    moa_layout_free(L);

    /* equalCentering: centres 20, 140, 260. */
    L = make_row(MOA_DISTRIBUTION_EQUAL_CENTERING, MOA_ALIGN_FILL, &row, v);
    CHECK_XW(L, v[0], 0, 40);
    CHECK_XW(L, v[1], 110, 60);
    CHECK_XW(L, v[2], 220, 80);
    moa_layout_free(L);

    /* fill: the view that hugs least takes the room. */
    L = make_row(MOA_DISTRIBUTION_FILL, MOA_ALIGN_FILL, &row, v);
    CHECK_OK(moa_view_set_content_priority(L, v[2], MOA_HORIZONTAL, 200, 750));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 40);
    CHECK_XW(L, v[1], 50, 60);
    CHECK_XW(L, v[2], 120, 180);
    CHECK_OK(moa_stack_get(L, row, NULL, &dist, NULL, NULL, NULL));
    CHECK(dist == MOA_DISTRIBUTION_FILL);
    moa_layout_free(L);
}

static void test_alignments(void) {
    static const struct {
        moa_stack_alignment align;
        const char *name;
        double y[3], h[3];
    } cases[] = {
        {MOA_ALIGN_FILL, "fill", {0, 0, 0}, {50, 50, 50}},
        {MOA_ALIGN_TOP, "top", {0, 0, 0}, {20, 30, 40}},
        {MOA_ALIGN_LEADING, "leading", {0, 0, 0}, {20, 30, 40}},
        {MOA_ALIGN_CENTER, "center", {15, 10, 5}, {20, 30, 40}},
        {MOA_ALIGN_BOTTOM, "bottom", {30, 20, 10}, {20, 30, 40}},
        {MOA_ALIGN_TRAILING, "trailing", {30, 20, 10}, {20, 30, 40}},
    };
    moa_view row, v[3];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int failed = check_failed_;
        moa_layout *L = make_row(MOA_DISTRIBUTION_EQUAL_SPACING, cases[k].align, &row, v);
        for (int i = 0; i < 3; i++) CHECK_YH(L, v[i], cases[k].y[i], cases[k].h[i]);
        CHECK_XW(L, v[1], 100, 60);
        int align = -1;
        CHECK_OK(moa_stack_get(L, row, NULL, NULL, &align, NULL, NULL));
        CHECK(align == (int)cases[k].align);
        note_case(failed, cases[k].name);
        moa_layout_free(L);
    }

    /* Baselines: first baselines 15, 20, 30 from the tops line up at 30 (the tallest baseline on top). */
    moa_layout *L = make_row(MOA_DISTRIBUTION_EQUAL_SPACING, MOA_ALIGN_FIRST_BASELINE, &row, v);
    static const double offsets[3] = {15, 20, 30};
    for (int i = 0; i < 3; i++) CHECK_OK(moa_view_set_baseline(L, v[i], NULL, &offsets[i]));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_YH(L, v[0], 15, 20);
    CHECK_YH(L, v[1], 10, 30);
    CHECK_YH(L, v[2], 0, 40);
    moa_layout_free(L);
    L = make_row(MOA_DISTRIBUTION_EQUAL_SPACING, MOA_ALIGN_LAST_BASELINE, &row, v);
    for (int i = 0; i < 3; i++) CHECK_OK(moa_view_set_baseline(L, v[i], &offsets[i], NULL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_YH(L, v[0], 15, 20);
    CHECK_YH(L, v[1], 10, 30);
    CHECK_YH(L, v[2], 0, 40);
    moa_layout_free(L);

    /* Not filling, with nothing else sizing it, the stack hugs its tallest view (40). */
    L = make_row(MOA_DISTRIBUTION_EQUAL_SPACING, MOA_ALIGN_CENTER, &row, v);
    CHECK_OK(moa_layout_xeq(L, "row.height == 0", NULL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, row), 0, 0, 300, 40);
    CHECK_YH(L, v[0], 10, 20);
    CHECK_YH(L, v[1], 5, 30);
    CHECK_YH(L, v[2], 0, 40);
    moa_layout_free(L);
}

/* Hiding b in the fillEqually row over 1 s, linearly: b's width and the gap before it go to 0. */
static void test_hidden(void) {
    moa_view row, v[3];
    moa_layout *L = make_row(MOA_DISTRIBUTION_FILL_EQUALLY, MOA_ALIGN_FILL, &row, v);
    done_count hide = {0, -1, 0}, show = {0, -1, 0};
    moa_animation an = 0;
    int hidden = -1;
    CHECK_OK(moa_stack_is_hidden(L, row, v[1], &hidden));
    CHECK(hidden == 0);
    CHECK_OK(moa_stack_set_hidden(L, row, v[1], 1, 1, 1.0, MOA_LINEAR, on_done, &hide, &an));
    CHECK(an != 0);
    CHECK_OK(moa_stack_is_hidden(L, row, v[1], &hidden));
    CHECK(hidden == 1); /* at the call */
    int animating = 0;
    CHECK_OK(moa_layout_is_animating(L, &animating));
    CHECK(animating == 1);

    /* t = 0: nothing moved yet. */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 280.0 / 3);
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    CHECK_OK(moa_layout_advance(L, 0));
    CHECK_XW(L, v[0], 0, 280.0 / 3);
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    CHECK(hide.calls == 0);

    /* t = 0.5: b 140/3 wide, the gap before it 5, a and c share the rest. */
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_XW(L, v[0], 0, 715.0 / 6);
    CHECK_XW(L, v[1], 745.0 / 6, 140.0 / 3);
    CHECK_XW(L, v[2], 1085.0 / 6, 715.0 / 6);
    CHECK(hide.calls == 0);

    /* t = 1: b is gone (0 wide, parked after a), its spacing with it. */
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_XW(L, v[0], 0, 145);
    CHECK_XW(L, v[1], 145, 0);
    CHECK_XW(L, v[2], 155, 145);
    CHECK(hide.calls == 1 && hide.finished == 1 && hide.last == an);
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK(hide.calls == 1); /* exactly once */
    CHECK_XW(L, v[2], 155, 145); /* parked: nothing moves after the end */
    CHECK_OK(moa_layout_is_animating(L, &animating));
    CHECK(animating == 0);
    CHECK_OK(moa_stack_is_hidden(L, row, v[1], &hidden));
    CHECK(hidden == 1);
    moa_view list[4];
    size_t n = 0;
    CHECK_OK(moa_stack_views(L, row, list, 4, &n));
    CHECK(n == 3 && list[1] == v[1]); /* hidden views stay arranged */

    /* Showing again animates back to the first frames. */
    moa_animation an2 = 0;
    CHECK_OK(moa_stack_set_hidden(L, row, v[1], 0, 1, 1.0, MOA_LINEAR, on_done, &show, &an2));
    CHECK(an2 != 0 && an2 != an);
    CHECK_OK(moa_stack_is_hidden(L, row, v[1], &hidden));
    CHECK(hidden == 0);
    /* t = 0: nothing moved (the gap before b grows from 0 with b, it does not jump to 10). */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 145);
    CHECK_XW(L, v[1], 145, 0);
    CHECK_XW(L, v[2], 155, 145);
    CHECK_OK(moa_layout_advance(L, 0));
    CHECK_XW(L, v[0], 0, 145);
    CHECK_XW(L, v[1], 145, 0);
    CHECK_XW(L, v[2], 155, 145);
    /* t = 0.5: the hide's frames at t = 0.5 (linear both ways). */
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_XW(L, v[0], 0, 715.0 / 6);
    CHECK_XW(L, v[1], 745.0 / 6, 140.0 / 3);
    CHECK_XW(L, v[2], 1085.0 / 6, 715.0 / 6);
    CHECK(show.calls == 0);
    CHECK_OK(moa_layout_advance(L, 0.6));
    CHECK_XW(L, v[0], 0, 280.0 / 3);
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    CHECK(show.calls == 1 && show.finished == 1 && show.last == an2);
    CHECK(hide.calls == 1);

    /* Hiding, then showing half-way: the hide is taken over (finished = 0), the show ends where it began. */
    done_count taken = {0, -1, 0}, back = {0, -1, 0};
    CHECK_OK(moa_stack_set_hidden(L, row, v[1], 1, 1, 1.0, MOA_LINEAR, on_done, &taken, NULL));
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_XW(L, v[1], 745.0 / 6, 140.0 / 3);
    CHECK_OK(moa_stack_set_hidden(L, row, v[1], 0, 1, 1.0, MOA_LINEAR, on_done, &back, NULL));
    CHECK_OK(moa_layout_advance(L, 0)); /* retargeted smoothly: nothing jumps */
    CHECK_XW(L, v[0], 0, 715.0 / 6);
    CHECK_XW(L, v[1], 745.0 / 6, 140.0 / 3);
    CHECK_OK(moa_layout_advance(L, 1.0)); /* the show's last frame is the shown layout */
    CHECK(taken.calls == 1 && taken.finished == 0);
    CHECK(back.calls == 1 && back.finished == 1);
    CHECK_XW(L, v[0], 0, 280.0 / 3);
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK_XW(L, v[0], 0, 280.0 / 3);
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    CHECK_OK(moa_stack_is_hidden(L, row, v[1], &hidden));
    CHECK(hidden == 0);

    /* Without animation: at once (at the next solve); the first and last hidden leave b all the room. */
    moa_animation none = 99;
    CHECK_OK(moa_stack_set_hidden(L, row, v[0], 1, 0, 0, MOA_LINEAR, NULL, NULL, &none));
    CHECK(none == 0);
    done_count later = {0, -1, 0};
    moa_animation carrier = 0;
    CHECK_OK(moa_stack_set_hidden(L, row, v[2], 1, 0, 0, MOA_LINEAR, on_done, &later, &carrier));
    CHECK(carrier != 0); /* a zero-length animation carries the completion */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 0);
    CHECK_XW(L, v[1], 0, 300);
    CHECK_XW(L, v[2], 300, 0);
    CHECK(later.calls == 0); /* at the next frame */
    CHECK_OK(moa_layout_advance(L, 0));
    CHECK(later.calls == 1 && later.finished == 1 && later.last == carrier);
    CHECK_OK(moa_stack_is_hidden(L, row, v[0], &hidden));
    CHECK(hidden == 1);
    /* Hiding a hidden view again is a no-op; showing everything restores the first frames. */
    CHECK_OK(moa_stack_set_hidden(L, row, v[0], 1, 0, 0, MOA_LINEAR, NULL, NULL, NULL));
    CHECK_OK(moa_stack_set_hidden(L, row, v[0], 0, 0, 0, MOA_LINEAR, NULL, NULL, NULL));
    CHECK_OK(moa_stack_set_hidden(L, row, v[2], 0, 0, 0, MOA_LINEAR, NULL, NULL, NULL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 280.0 / 3);
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[2], 620.0 / 3, 280.0 / 3);
    moa_layout_free(L);
    CHECK(hide.calls == 1 && show.calls == 1 && later.calls == 1); /* nothing left to complete at the free */

    /* A completion still due when the layout is freed is called then, with finished = 0. */
    L = make_row(MOA_DISTRIBUTION_FILL_EQUALLY, MOA_ALIGN_FILL, &row, v);
    done_count pending = {0, -1, 0};
    CHECK_OK(moa_stack_set_hidden(L, row, v[1], 1, 1, 1.0, MOA_EASE_IN_OUT, on_done, &pending, NULL));
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK(pending.calls == 0);
    moa_layout_free(L);
    CHECK(pending.calls == 1 && pending.finished == 0);
}

/* A vertical stack arranged within its margins (10), spacing 4, custom spacing 12 after a. */
static void test_vertical_margins_spacing(void) {
    moa_layout *L = moa_layout_new(400, 300);
    moa_view col, v[3];
    static const char *names[3] = {"a", "b", "c"};
    CHECK_OK(moa_stack_new(L, "col", 0, MOA_VERTICAL, &col));
    moa_lcons cs[3];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, "col.left == 0\ncol.top == 0\ncol.width == 100", cs, 3, &n));
    CHECK_OK(moa_view_set_margins(L, col, 10, 10, 10, 10));
    CHECK_OK(moa_stack_set_margins_relative(L, col, 1));
    CHECK_OK(moa_stack_set_spacing(L, col, 4));
    for (int i = 0; i < 3; i++) {
        CHECK_OK(moa_view_new(L, names[i], 0, &v[i])); /* under the root: inserting moves it into the stack */
        CHECK_OK(moa_view_set_intrinsic_size(L, v[i], 30, 20));
        CHECK_OK(moa_stack_insert(L, col, v[i], -1));
        CHECK(superview_of(L, v[i]) == col);
    }
    CHECK_OK(moa_stack_set_custom_spacing(L, col, v[0], 12));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, v[0]), 10, 10, 80, 20);
    CHECK_RECT(frame_v(L, v[1]), 10, 42, 80, 20);
    CHECK_RECT(frame_v(L, v[2]), 10, 66, 80, 20);
    CHECK_RECT(frame_v(L, col), 0, 0, 100, 96); /* the stack's height follows its views */
    int axis = -1, margins = -1;
    double spacing = 0;
    CHECK_OK(moa_stack_get(L, col, &axis, NULL, NULL, &spacing, &margins));
    CHECK(axis == MOA_VERTICAL && margins == 1);
    CHECK_NEAR(spacing, 4);

    /* MOA_SPACING_DEFAULT goes back to the stack's spacing. */
    CHECK_OK(moa_stack_set_custom_spacing(L, col, v[0], MOA_SPACING_DEFAULT));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_YH(L, v[0], 10, 20);
    CHECK_YH(L, v[1], 34, 20);
    CHECK_YH(L, v[2], 58, 20);
    CHECK_RECT(frame_v(L, col), 0, 0, 100, 88);

    /* Across a vertical stack: centred in the margins; the baseline alignments are fill there. */
    CHECK_OK(moa_stack_set_alignment(L, col, MOA_ALIGN_CENTER));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[1], 35, 30);
    CHECK_OK(moa_stack_set_alignment(L, col, MOA_ALIGN_LEADING));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[1], 10, 30);
    CHECK_OK(moa_stack_set_alignment(L, col, MOA_ALIGN_TRAILING));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[1], 60, 30);
    CHECK_OK(moa_stack_set_alignment(L, col, MOA_ALIGN_FIRST_BASELINE));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[1], 10, 80);

    /* Edges instead of margins. */
    CHECK_OK(moa_stack_set_margins_relative(L, col, 0));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, v[0]), 0, 0, 100, 20);
    CHECK_RECT(frame_v(L, v[1]), 0, 24, 100, 20);
    CHECK_RECT(frame_v(L, v[2]), 0, 48, 100, 20);
    CHECK_OK(moa_stack_get(L, col, NULL, NULL, NULL, NULL, &margins));
    CHECK(margins == 0);
    moa_layout_free(L);
}

/* A horizontal fillEqually stack inside a vertical fillEqually one. */
static void test_nested(void) {
    moa_layout *L = moa_layout_new(400, 300);
    moa_view col, inner, p, q, r;
    CHECK_OK(moa_stack_new(L, "col", 0, MOA_VERTICAL, &col));
    moa_lcons cs[4];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, "col.left == 0\ncol.top == 0\ncol.width == 200\ncol.height == 200", cs, 4, &n));
    CHECK_OK(moa_stack_set_distribution(L, col, MOA_DISTRIBUTION_FILL_EQUALLY));
    CHECK_OK(moa_stack_new(L, "inner", col, MOA_HORIZONTAL, &inner));
    CHECK_OK(moa_stack_set_distribution(L, inner, MOA_DISTRIBUTION_FILL_EQUALLY));
    CHECK_OK(moa_view_new(L, "p", inner, &p));
    CHECK_OK(moa_view_new(L, "q", inner, &q));
    CHECK_OK(moa_stack_insert(L, inner, p, -1));
    CHECK_OK(moa_stack_insert(L, inner, q, -1));
    CHECK_OK(moa_view_new(L, "r", col, &r));
    CHECK_OK(moa_stack_insert(L, col, inner, -1));
    CHECK_OK(moa_stack_insert(L, col, r, -1));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, inner), 0, 0, 200, 100);
    CHECK_RECT(frame_v(L, r), 0, 100, 200, 100);
    CHECK_RECT(frame_v(L, p), 0, 0, 100, 100);
    CHECK_RECT(frame_v(L, q), 100, 0, 100, 100);
    moa_rect qr = {0, 0, 0, 0};
    CHECK_OK(moa_view_frame_in_root(L, q, &qr));
    CHECK_RECT(qr, 100, 0, 100, 100);
    size_t na = 9;
    CHECK_OK(moa_layout_ambiguities(L, NULL, NULL, 0, &na));
    CHECK(na == 0);
    /* A stack cannot arrange an ancestor of itself, nor itself. */
    CHECK_STATUS(moa_stack_insert(L, inner, col, -1), MOA_INVALID);
    CHECK_STATUS(moa_stack_insert(L, inner, inner, -1), MOA_INVALID);
    /* Hiding the inner stack gives r the whole column. */
    CHECK_OK(moa_stack_set_hidden(L, col, inner, 1, 0, 0, MOA_LINEAR, NULL, NULL, NULL));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, r), 0, 0, 200, 200);
    CHECK_NEAR(frame_v(L, inner).height, 0);
    moa_layout_free(L);
}

/* Inserting at -1 and at an index, moving, removing, listing; removing views and the stack itself. */
static void test_insert_remove(void) {
    moa_view row, v[3];
    moa_layout *L = make_row(MOA_DISTRIBUTION_FILL_EQUALLY, MOA_ALIGN_FILL, &row, v);
    moa_view list[8];
    size_t n = 0;
    CHECK_OK(moa_stack_views(L, row, list, 8, &n));
    CHECK(n == 3 && list[0] == v[0] && list[1] == v[1] && list[2] == v[2]);
    CHECK_OK(moa_stack_views(L, row, list, 1, &n)); /* a short buffer: the full count */
    CHECK(n == 3);
    CHECK_OK(moa_stack_views(L, row, NULL, 0, &n));
    CHECK(n == 3);

    /* An arranged view moves to the index. */
    CHECK_OK(moa_stack_insert(L, row, v[2], 0));
    CHECK_OK(moa_stack_views(L, row, list, 8, &n));
    CHECK(n == 3 && list[0] == v[2] && list[1] == v[0] && list[2] == v[1]);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[2], 0, 280.0 / 3);
    CHECK_XW(L, v[0], 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, v[1], 620.0 / 3, 280.0 / 3);
    CHECK_OK(moa_stack_insert(L, row, v[2], -1)); /* -1: to the end */
    CHECK_OK(moa_stack_views(L, row, list, 8, &n));
    CHECK(n == 3 && list[0] == v[0] && list[1] == v[1] && list[2] == v[2]);
    CHECK_STATUS(moa_stack_insert(L, row, v[2], 3), MOA_INVALID); /* 0 ... 2 others */

    /* A new view from the root inserted at 1: it moves into the stack; four equal widths. */
    moa_view d;
    CHECK_OK(moa_view_new(L, "d", 0, &d));
    CHECK_OK(moa_stack_insert(L, row, d, 1));
    CHECK(superview_of(L, d) == row);
    CHECK_OK(moa_stack_views(L, row, list, 8, &n));
    CHECK(n == 4 && list[1] == d && list[2] == v[1]);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 67.5);
    CHECK_XW(L, d, 77.5, 67.5);
    CHECK_XW(L, v[1], 155, 67.5);
    CHECK_XW(L, v[2], 232.5, 67.5);
    CHECK_OK(moa_stack_remove(L, row, d));
    CHECK(superview_of(L, d) == row); /* stays a subview */
    CHECK_STATUS(moa_stack_remove(L, row, d), MOA_NOTFOUND);
    CHECK_STATUS(moa_stack_is_hidden(L, row, d, &(int){0}), MOA_NOTFOUND);
    CHECK_OK(moa_view_free(L, d));

    /* Removing a view from the layout takes it out of the stack: the gap closes. */
    CHECK_OK(moa_view_free(L, v[1]));
    CHECK_OK(moa_stack_views(L, row, list, 8, &n));
    CHECK(n == 2 && list[0] == v[0] && list[1] == v[2]);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 145);
    CHECK_XW(L, v[2], 155, 145);
    CHECK_OK(moa_stack_remove(L, row, v[2]));
    CHECK(superview_of(L, v[2]) == row);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 300);
    CHECK_OK(moa_stack_insert(L, row, v[2], 0));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[2], 0, 145);
    CHECK_XW(L, v[0], 155, 145);

    /* Several views in one call: in order at the index, an arranged one moving with them. */
    moa_view e, f;
    CHECK_OK(moa_view_new(L, "e", 0, &e));
    CHECK_OK(moa_view_new(L, "f", 0, &f));
    moa_view batch[3] = {e, v[0], f};
    CHECK_OK(moa_stack_insert_views(L, row, batch, 3, 1)); /* v[0] is not counted: 0 ... 1 others */
    CHECK_OK(moa_stack_views(L, row, list, 8, &n));
    CHECK(n == 4 && list[0] == v[2] && list[1] == e && list[2] == v[0] && list[3] == f);
    CHECK(superview_of(L, e) == row && superview_of(L, f) == row);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[2], 0, 67.5);
    CHECK_XW(L, f, 232.5, 67.5);
    CHECK_OK(moa_stack_insert_views(L, row, NULL, 0, -1)); /* nothing to arrange */
    CHECK_OK(moa_stack_remove(L, row, e));
    CHECK_OK(moa_stack_remove(L, row, f));
    CHECK_OK(moa_view_free(L, e));
    CHECK_OK(moa_view_free(L, f));
    CHECK_OK(moa_stack_views(L, row, list, 8, &n));
    CHECK(n == 2 && list[0] == v[2] && list[1] == v[0]);

    /* Removing the stack's view ends the stack (and its subviews, and the equations naming it). */
    CHECK_OK(moa_view_free(L, row));
    CHECK_STATUS(moa_stack_views(L, row, list, 8, &n), MOA_NOTFOUND);
    CHECK_STATUS(moa_stack_set_spacing(L, row, 3), MOA_NOTFOUND);
    CHECK_STATUS(moa_stack_get(L, row, NULL, NULL, NULL, NULL, NULL), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_frame(L, v[0], &(moa_rect){0, 0, 0, 0}), MOA_NOTFOUND);
    CHECK(count_constraints(L) == 0);
    CHECK(count_frames(L, 1) == 4); /* root and the three layout guides */
    /* The name is free: a new stack of that name is another stack. */
    moa_view row2;
    CHECK_OK(moa_stack_new(L, "row", 0, MOA_HORIZONTAL, &row2));
    CHECK(row2 != row);
    CHECK_STATUS(moa_stack_views(L, row, NULL, 0, &n), MOA_NOTFOUND);
    CHECK_OK(moa_stack_views(L, row2, NULL, 0, &n));
    CHECK(n == 0);
    moa_layout_free(L);
}

/* A conflict names the stack and its rule; the constraints the stack owns cannot be changed by id. */
static void test_conflicts_and_ownership(void) {
    moa_view row, v[3];
    moa_layout *L = make_row(MOA_DISTRIBUTION_FILL_EQUALLY, MOA_ALIGN_FILL, &row, v);
    size_t users = count_constraints(L);
    CHECK(users == 4); /* the stack's constraints are not the user's */
    moa_lcons bad = 0;
    CHECK_STATUS(moa_layout_eq(L, "a.width == 50", &bad), MOA_UNSATISFIABLE);
    CHECK(bad == 0);
    CHECK_CONTAINS(moa_layout_errmsg(L), "stack 'row': fill equally");
    moa_error_info info;
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unsatisfiable");

    /* The conflict list names constraints the stack owns: those not among the user's. */
    moa_lcons conf[32], mine[8];
    size_t nc = 0, nm = 0;
    CHECK_OK(moa_layout_conflicts(L, conf, 32, &nc));
    CHECK(nc >= 2 && nc <= 32);
    CHECK_OK(moa_layout_constraints(L, mine, 8, &nm));
    moa_lcons owned = 0;
    int owned_count = 0;
    for (size_t i = 0; i < nc && i < 32; i++) {
        int is_user = 0;
        for (size_t k = 0; k < nm && k < 8; k++) is_user |= conf[i] == mine[k];
        if (!is_user) {
            owned_count++;
            if (!owned) owned = conf[i];
        }
    }
    CHECK(owned_count >= 2); /* at least the two `fill equally` rules */
    CHECK(owned != 0);
    if (owned) {
        double k = NAN, p = NAN;
        int active = -1;
        CHECK_OK(moa_lcons_constant(L, owned, &k)); /* readable */
        CHECK_OK(moa_lcons_priority(L, owned, &p));
        CHECK_NEAR(p, 1000);
        CHECK_OK(moa_lcons_active(L, owned, &active));
        CHECK(active == 1);
        const char *d = describe_lcons(L, owned);
        CHECK(d[0] != '\0');
        /* ... but not to be changed, animated or removed by id. */
        done_count never = {0, -1, 0};
        moa_animation an = 0;
        CHECK_FAILS_MSG(L, moa_lcons_set_constant(L, owned, k + 3), MOA_INVALID, "stack 'row'");
        CHECK_FAILS(L, moa_lcons_set_priority(L, owned, 500), MOA_INVALID);
        CHECK_FAILS(L, moa_lcons_set_active(L, owned, 0), MOA_INVALID);
        CHECK_FAILS(L, moa_lcons_remove(L, owned), MOA_INVALID);
        CHECK_FAILS(L, moa_lcons_animate(L, owned, k + 3, 1, MOA_LINEAR, 0, on_done, &never, &an), MOA_INVALID);
        CHECK_FAILS(L, moa_lcons_animate_priority(L, owned, 500, 1, MOA_LINEAR, 0, on_done, &never, &an),
                    MOA_INVALID);
        CHECK(an == 0);
        CHECK_OK(moa_layout_advance(L, 2));
        CHECK(never.calls == 0);
        CHECK_OK(moa_lcons_constant(L, owned, &p));
        CHECK(p == k);
    }
    /* Frames are as before the failures. */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[1], 310.0 / 3, 280.0 / 3);
    CHECK(count_constraints(L) == 4);
    moa_layout_free(L);

    /* Changing a property that cannot hold: all or nothing, named by the stack. A fill row with a 100 wide
    ** (required), b and c at least 0; c hugs least and takes the room: a 0...100, b 110...170, c 180...300. */
    L = make_row(MOA_DISTRIBUTION_FILL, MOA_ALIGN_FILL, &row, v);
    moa_lcons cs3[3];
    size_t n3 = 0;
    CHECK_OK(moa_layout_eqs(L, "a.width == 100\nb.width >= 0\nc.width >= 0", cs3, 3, &n3));
    CHECK_OK(moa_view_set_content_priority(L, v[2], MOA_HORIZONTAL, 200, 750));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 100);
    CHECK_XW(L, v[1], 110, 60);
    CHECK_XW(L, v[2], 180, 120);
    size_t na = 9;
    CHECK_OK(moa_layout_ambiguities(L, NULL, NULL, 0, &na));
    CHECK(na == 0);
    /* Equal widths would be 3 x 100 + 20 > 300. */
    CHECK_FAILS_MSG(L, moa_stack_set_distribution(L, row, MOA_DISTRIBUTION_FILL_EQUALLY), MOA_UNSATISFIABLE,
                    "stack 'row'");
    int dist = -1;
    CHECK_OK(moa_stack_get(L, row, NULL, &dist, NULL, NULL, NULL));
    CHECK(dist == MOA_DISTRIBUTION_FILL);
    CHECK_FAILS_MSG(L, moa_stack_set_spacing(L, row, 150), MOA_UNSATISFIABLE, "stack 'row'"); /* 100 + 300 */
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, row, v[0], 200), MOA_UNSATISFIABLE);      /* 100 + 200 + 10 */
    moa_view big;
    CHECK_OK(moa_view_new(L, "big", 0, &big));
    CHECK_OK(moa_layout_eqs(L, "big.width == 200\nbig.left == 0\nbig.top == 100\nbig.height == 10", cs3, 3,
                            &n3));
    CHECK_FAILS(L, moa_stack_insert(L, row, big, -1), MOA_UNSATISFIABLE); /* 100 + 200 + 3 x 10 > 300 */
    CHECK(superview_of(L, big) != row);                                   /* not moved */
    /* In one call with a view that fits: neither is arranged, neither moved. */
    moa_view small;
    CHECK_OK(moa_view_new(L, "small", 0, &small));
    moa_view both[2] = {small, big};
    CHECK_FAILS(L, moa_stack_insert_views(L, row, both, 2, 0), MOA_UNSATISFIABLE);
    CHECK(superview_of(L, small) != row && superview_of(L, big) != row);
    CHECK_OK(moa_view_free(L, small));
    moa_view list[8];
    size_t nl = 0;
    CHECK_OK(moa_stack_views(L, row, list, 8, &nl));
    CHECK(nl == 3);
    done_count never = {0, -1, 0};
    /* a.width == 100 cannot become 0: hiding a fails, with or without animation, and a stays shown. */
    CHECK_FAILS(L, moa_stack_set_hidden(L, row, v[0], 1, 0, 0, MOA_LINEAR, on_done, &never, NULL),
                MOA_UNSATISFIABLE);
    CHECK_FAILS(L, moa_stack_set_hidden(L, row, v[0], 1, 1, 1, MOA_LINEAR, on_done, &never, NULL),
                MOA_UNSATISFIABLE);
    int hidden = -1;
    CHECK_OK(moa_stack_is_hidden(L, row, v[0], &hidden));
    CHECK(hidden == 0);
    CHECK_OK(moa_layout_advance(L, 2));
    CHECK(never.calls == 0);
    CHECK_XW(L, v[0], 0, 100);
    CHECK_XW(L, v[1], 110, 60);
    CHECK_XW(L, v[2], 180, 120);
    moa_layout_free(L);
}

/* ------------------------------------------------------------------------------------------------ guides */

static void test_user_guide(void) {
    moa_layout *L = moa_layout_new(400, 300);
    moa_view a, b, g, found = 0, box, g2;
    CHECK_OK(moa_view_new(L, "a", 0, &a));
    CHECK_OK(moa_view_new(L, "b", 0, &b));
    CHECK_OK(moa_guide_new(L, "gap", 0, &g));
    CHECK(g != 0 && g != a && g != b);
    moa_lcons cs[16];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L,
                            "a.left == 10\n"
                            "a.width == 50\n"
                            "gap.left == a.right\n"
                            "gap.width == 30\n"
                            "b.left == gap.right\n"
                            "b.width == a.width\n"
                            "gap.top == 0\n"
                            "gap.height == 10\n"
                            "a.top == 0\n"
                            "a.height == 10\n"
                            "b.top == 0\n"
                            "b.height == 10\n",
                            cs, 16, &n));
    CHECK(n == 12);
    size_t changed = 0;
    CHECK_OK(moa_layout_solve(L, &changed));
    CHECK_RECT(frame_v(L, b), 90, 0, 50, 10);
    CHECK_RECT(frame_v(L, g), 60, 0, 30, 10);
    moa_view list[8];
    size_t nl = 0;
    CHECK_OK(moa_layout_changed_views(L, list, 8, &nl));
    CHECK(nl == changed && nl == 3); /* root, a, b: not the guide */
    for (size_t i = 0; i < nl && i < 8; i++) CHECK(list[i] != g);
    CHECK_OK(moa_layout_views(L, list, 8, &nl));
    CHECK(nl == 2);

    /* Found by name; a guide in the frames only with guides. */
    CHECK_OK(moa_layout_guide(L, "gap", &found));
    CHECK(found == g);
    CHECK(view_named(L, "gap") == g);
    const char *name = NULL;
    CHECK_OK(moa_view_name(L, g, &name));
    CHECK_STR(name, "gap");
    moa_frame frames[16];
    size_t nf = 0;
    CHECK_OK(moa_layout_frames(L, 0, frames, 16, &nf));
    CHECK(nf >= 3 && nf <= 4); /* root, a, b (and the user guide: the header leaves it open) */
    for (size_t i = 0; i < nf && i < 16; i++) CHECK(frames[i].is_guide == (frames[i].view == g));
    CHECK_OK(moa_layout_frames(L, 1, frames, 16, &nf));
    CHECK(nf == 7);
    int seen = 0;
    for (size_t i = 0; i < nf && i < 16; i++) {
        if (frames[i].view == g) {
            seen++;
            CHECK(frames[i].is_guide == 1);
            CHECK_RECT(frames[i].frame, 60, 0, 30, 10);
        }
    }
    CHECK(seen == 1);
    const char *svg = NULL;
    CHECK_OK(moa_layout_svg(L, MOA_SVG_GUIDES, &svg));
    CHECK_CONTAINS(svg, "data-view=\"gap\"");

    /* It holds no views. */
    moa_view x = 777;
    CHECK_STATUS(moa_view_new(L, "x", g, &x), MOA_INVALID);
    CHECK_STATUS(moa_guide_new(L, "x", g, &x), MOA_INVALID);
    CHECK(x == 777);
    CHECK_STATUS(moa_guide_new(L, "a", 0, &x), MOA_DUPLICATE);

    /* In a view: its superview is the view. */
    CHECK_OK(moa_view_new(L, "box", 0, &box));
    CHECK_OK(moa_guide_new(L, "inside", box, &g2));
    CHECK(superview_of(L, g2) == box);
    CHECK_OK(moa_layout_guide(L, "inside", &found));
    CHECK(found == g2);

    /* moa_view_free removes it and the equations naming it; the name is free again. */
    CHECK_OK(moa_view_free(L, g));
    CHECK_STATUS(moa_layout_guide(L, "gap", &found), MOA_NOTFOUND);
    CHECK_STATUS(moa_view_find(L, "gap", &found), MOA_NOTFOUND);
    CHECK(count_constraints(L) == 12 - 5);
    CHECK_OK(moa_guide_new(L, "gap", 0, &found));
    CHECK(found != g);
    moa_layout_free(L);
}

/* ------------------------------------------------------------------------------------------------ chains */

/* Root 400 x 300; a, b, c at the top, 10 high, widths 40, 60, 80 at priority 500. */
static moa_layout *chain_layout(moa_view v[3]) {
    static const char *eqs[3] = {"a.top == 0\na.height == 10\na.width == 40 @ 500",
                                 "b.top == 0\nb.height == 10\nb.width == 60 @ 500",
                                 "c.top == 0\nc.height == 10\nc.width == 80 @ 500"};
    static const char *names[3] = {"a", "b", "c"};
    moa_layout *L = moa_layout_new(400, 300);
    CHECK(L != NULL);
    for (int i = 0; i < 3; i++) {
        moa_lcons cs[3];
        size_t n = 0;
        CHECK_OK(moa_view_new(L, names[i], 0, &v[i]));
        CHECK_OK(moa_layout_eqs(L, eqs[i], cs, 3, &n));
    }
    return L;
}

static void test_chains(void) {
    static const struct {
        moa_chain_style style;
        double bias;
        double x[3];
        const char *name;
    } cases[] = {
        {MOA_CHAIN_SPREAD, 0.5, {55, 150, 265}, "spread"},
        {MOA_CHAIN_SPREAD_INSIDE, 0.5, {0, 150, 320}, "spread inside"},
        {MOA_CHAIN_PACKED, 0.5, {110, 150, 210}, "packed 0.5"},
        {MOA_CHAIN_PACKED, 0.25, {55, 95, 155}, "packed 0.25"},
        {MOA_CHAIN_PACKED, 0, {0, 40, 100}, "packed 0"},
        {MOA_CHAIN_PACKED, 1, {220, 260, 320}, "packed 1"},
    };
    static const double widths[3] = {40, 60, 80};
    moa_view v[3];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int failed = check_failed_;
        moa_layout *L = chain_layout(v);
        size_t before = count_frames(L, 1);
        moa_chain ch = 0;
        CHECK_OK(moa_chain_new(L, v, 3, MOA_HORIZONTAL, cases[k].style, 0, cases[k].bias, NULL, &ch));
        CHECK(ch != 0);
        CHECK_OK(moa_layout_solve(L, NULL));
        for (int i = 0; i < 3; i++) CHECK_XW(L, v[i], cases[k].x[i], widths[i]);
        size_t na = 9;
        CHECK_OK(moa_layout_ambiguities(L, NULL, NULL, 0, &na));
        CHECK(na == 0);
        CHECK(count_constraints(L) == 9); /* the chain's constraints are its own */
        /* Freed: its constraints and spacers go, the views stay. */
        CHECK_OK(moa_chain_free(L, ch));
        CHECK(count_frames(L, 1) == before);
        CHECK(count_constraints(L) == 9);
        CHECK_STATUS(moa_chain_free(L, ch), MOA_NOTFOUND);
        note_case(failed, cases[k].name);
        moa_layout_free(L);
    }

    /* Weights share the room left (400 - 60 - 2 x 10) 1 : 3; gaps are the gap, the ends on the edges. */
    moa_layout *L = chain_layout(v);
    size_t guides_before = count_frames(L, 1);
    static const double weights[3] = {1, MOA_NO_WEIGHT, 3};
    moa_chain ch = 0;
    CHECK_OK(moa_chain_new(L, v, 3, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 10, 0.5, weights, &ch));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 80);
    CHECK_XW(L, v[1], 90, 60);
    CHECK_XW(L, v[2], 160, 240);

    /* Weights taken away, spread inside; then packed, bias, gap; then a weight on b alone. */
    CHECK_OK(moa_chain_set_weight(L, ch, v[0], MOA_NO_WEIGHT));
    CHECK_OK(moa_chain_set_weight(L, ch, v[2], MOA_NO_WEIGHT));
    CHECK_OK(moa_chain_set_style(L, ch, MOA_CHAIN_SPREAD_INSIDE));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 40);
    CHECK_XW(L, v[1], 150, 60);
    CHECK_XW(L, v[2], 320, 80);
    CHECK_OK(moa_chain_set_style(L, ch, MOA_CHAIN_PACKED));
    CHECK_OK(moa_chain_set_bias(L, ch, 0.25));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 50, 40); /* 200 wide with the two gaps of 10: (400 - 200) / 4 */
    CHECK_XW(L, v[1], 100, 60);
    CHECK_XW(L, v[2], 170, 80);
    CHECK_OK(moa_chain_set_gap(L, ch, 0));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 55, 40);
    CHECK_XW(L, v[1], 95, 60);
    CHECK_XW(L, v[2], 155, 80);
    CHECK_OK(moa_chain_set_style(L, ch, MOA_CHAIN_SPREAD));
    CHECK_OK(moa_chain_set_gap(L, ch, 10)); /* the equal gaps (55) are more than the gap */
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 55, 40);
    CHECK_XW(L, v[1], 150, 60);
    CHECK_XW(L, v[2], 265, 80);
    CHECK_OK(moa_chain_set_weight(L, ch, v[1], 2));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 0, 40); /* b takes the room left: 400 - 40 - 80 - 2 x 10 */
    CHECK_XW(L, v[1], 50, 260);
    CHECK_XW(L, v[2], 320, 80);

    /* A view is in one chain per axis. */
    moa_chain other = 0;
    CHECK_STATUS(moa_chain_new(L, &v[1], 1, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &other), MOA_INVALID);
    CHECK(other == 0);

    /* moa_chain_free: the id is stale, the spacers gone; the views can be chained again. */
    CHECK_OK(moa_chain_free(L, ch));
    CHECK(count_frames(L, 1) == guides_before);
    CHECK_STATUS(moa_chain_free(L, ch), MOA_NOTFOUND);
    CHECK_STATUS(moa_chain_set_bias(L, ch, 0.5), MOA_NOTFOUND);
    CHECK_STATUS(moa_chain_set_style(L, ch, MOA_CHAIN_PACKED), MOA_NOTFOUND);
    CHECK_STATUS(moa_chain_set_gap(L, ch, 1), MOA_NOTFOUND);
    CHECK_STATUS(moa_chain_set_weight(L, ch, v[0], 1), MOA_NOTFOUND);
    CHECK_OK(moa_chain_new(L, v, 3, MOA_HORIZONTAL, MOA_CHAIN_PACKED, 0, 1, NULL, &other));
    CHECK(other != 0 && other != ch);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 220, 40);
    /* Removing a member from the layout closes the chain around it. */
    CHECK_OK(moa_view_free(L, v[1]));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, v[0], 280, 40);
    CHECK_XW(L, v[2], 320, 80);
    moa_layout_free(L);
}

/* ----------------------------------------------------------------------------------------------- barriers */

static void test_barrier(void) {
    moa_layout *L = moa_layout_new(400, 300);
    moa_view name, email, field, labels;
    CHECK_OK(moa_view_new(L, "name", 0, &name));
    CHECK_OK(moa_view_new(L, "email", 0, &email));
    CHECK_OK(moa_view_new(L, "field", 0, &field));
    moa_text_style st;
    memset(&st, 0, sizeof st);
    st.font_size = 10;
    CHECK_OK(moa_view_set_text(L, name, "Name", &st));
    CHECK_OK(moa_view_set_text(L, email, "Email", &st));
    moa_lcons cs[8];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L,
                            "name.left == 10\n"
                            "name.top == 10\n"
                            "email.left == 10\n"
                            "email.top == 40\n"
                            "field.top == 10\n"
                            "field.height == 20\n"
                            "field.right == root.right - 10\n",
                            cs, 8, &n));
    moa_view members[2] = {name, email};
    CHECK_OK(moa_barrier_new(L, "labels", 0, MOA_SIDE_TRAILING, members, 2, 0, &labels));
    CHECK(labels != 0);
    CHECK(view_named(L, "labels") == labels);
    moa_lcons attach = 0;
    CHECK_OK(moa_layout_eq(L, "field.leading == labels.trailing + 8", &attach));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, name, 10, 24); /* 4 characters x 0.6 x 10 */
    CHECK_XW(L, email, 10, 30);
    CHECK_RECT(frame_v(L, labels), 40, 0, 0, 300); /* zero thickness, spanning the root */
    CHECK_XW(L, field, 48, 342);

    /* The longer text wins. */
    CHECK_OK(moa_view_set_text(L, name, "Full name", &st));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, name, 10, 54);
    CHECK_NEAR(frame_v(L, labels).x, 64);
    CHECK_XW(L, field, 72, 318);
    CHECK_XW(L, email, 10, 30); /* no member moved */
    CHECK_OK(moa_view_set_text(L, name, "N", &st));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(frame_v(L, field).x, 48); /* back to the other label */

    /* A margin; other members. */
    CHECK_OK(moa_barrier_set_margin(L, labels, 4));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(frame_v(L, field).x, 52);
    CHECK_OK(moa_barrier_set_views(L, labels, &name, 1));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(frame_v(L, field).x, 10 + 6 + 4 + 8);
    CHECK_OK(moa_barrier_set_views(L, labels, members, 2));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(frame_v(L, field).x, 52);
    /* A member removed from the layout leaves the barrier. */
    CHECK_OK(moa_view_free(L, email));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_NEAR(frame_v(L, field).x, 28);

    /* A leading barrier: at or before its members' left edges. */
    moa_view lead;
    CHECK_OK(moa_barrier_new(L, "starts", 0, MOA_SIDE_LEADING, &name, 1, 0, &lead));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, lead), 10, 0, 0, 300);

    /* moa_view_free removes a barrier: its id is stale, the equation attached to it goes. */
    CHECK_OK(moa_view_free(L, labels));
    CHECK_STATUS(moa_barrier_set_margin(L, labels, 1), MOA_NOTFOUND);
    CHECK_STATUS(moa_barrier_set_views(L, labels, &name, 1), MOA_NOTFOUND);
    CHECK_STATUS(moa_lcons_constant(L, attach, &(double){0}), MOA_NOTFOUND);
    moa_layout_free(L);
}

/* -------------------------------------------------------------------------------------------------- VFL */

static moa_layout *vfl_layout(void) {
    moa_layout *L = moa_layout_new(400, 300);
    moa_view v;
    CHECK_OK(moa_view_new(L, "a", 0, &v));
    CHECK_OK(moa_view_new(L, "b", 0, &v));
    CHECK_OK(moa_view_new(L, "c", 0, &v));
    return L;
}

static void check_described(moa_layout *L, const moa_lcons *ids, size_t n, const char *const *want, size_t nwant,
                            const char *what) {
    int failed = check_failed_;
    CHECK(n == nwant);
    for (size_t i = 0; i < n && i < nwant; i++) CHECK_STR(describe_lcons(L, ids[i]), want[i]);
    note_case(failed, what);
}

static void test_vfl(void) {
    moa_layout *L = vfl_layout();
    moa_lcons ids[16];
    size_t n = 0;
    CHECK_OK(moa_layout_vfl(L, "H:|-[a]-[b(==a)]-|", NULL, NULL, 0, 0, ids, 16, &n));
    CHECK(n == 4);
    static const char *const std[] = {"b.width == a.width", "a.leading == root.leading + 20",
                                      "b.leading == a.trailing + 8", "root.trailing == b.trailing + 20"};
    check_described(L, ids, n, std, 4, "standard spacing");
    CHECK(count_constraints(L) == 4); /* equations */
    moa_lcons more[4];
    size_t nm = 0;
    CHECK_OK(moa_layout_eqs(L, "a.top == 0\na.height == 10\nb.top == 0\nb.height == 10", more, 4, &nm));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_v(L, view_named(L, "a")), 20, 0, 176, 10);
    CHECK_RECT(frame_v(L, view_named(L, "b")), 204, 0, 176, 10);
    /* Re-issuing updates the same constraints. */
    moa_lcons again[16];
    CHECK_OK(moa_layout_vfl(L, "H:|-[a]-[b(==a)]-|", NULL, NULL, 0, 0, again, 16, &n));
    CHECK(n == 4 && memcmp(again, ids, 4 * sizeof ids[0]) == 0);
    CHECK(count_constraints(L) == 8);
    /* A short buffer: the full count; no buffer at all. */
    CHECK_OK(moa_layout_vfl(L, "H:|-[a]-[b(==a)]-|", NULL, NULL, 0, 0, again, 1, &n));
    CHECK(n == 4 && again[0] == ids[0]);
    CHECK_OK(moa_layout_vfl(L, "H:|-[a]-[b(==a)]-|", NULL, NULL, 0, 0, NULL, 0, &n));
    CHECK(n == 4);
    moa_layout_free(L);

    /* Vertical, flush. */
    L = vfl_layout();
    CHECK_OK(moa_layout_vfl(L, "V:|[a][b]|", NULL, NULL, 0, 0, ids, 16, &n));
    static const char *const flush[] = {"a.top == root.top", "b.top == a.bottom", "root.bottom == b.bottom"};
    check_described(L, ids, n, flush, 3, "vertical flush");
    moa_layout_free(L);

    /* Metrics, predicates and priorities. */
    L = vfl_layout();
    const char *names[3] = {"pad", "w", "gap"};
    double values[3] = {12, 30, 6};
    CHECK_OK(moa_layout_vfl(L, "H:|-pad-[a(w)]-(>=gap@750)-[b(>=50,<=100@500)]", names, values, 3, 0, ids, 16, &n));
    static const char *const metrics[] = {"a.width == 30", "b.width >= 50", "b.width <= 100 @ 500",
                                          "a.leading == root.leading + 12", "b.leading >= a.trailing + 6 @ 750"};
    check_described(L, ids, n, metrics, 5, "metrics");
    /* Another metric value updates the constant in place. */
    values[0] = 30;
    moa_lcons again2[16];
    CHECK_OK(moa_layout_vfl(L, "H:|-pad-[a(w)]", names, values, 3, 0, again2, 16, &n));
    CHECK(n == 2 && again2[0] == ids[0] && again2[1] == ids[3]);
    double k = 0;
    CHECK_OK(moa_lcons_constant(L, ids[3], &k));
    CHECK_NEAR(k, 30);
    CHECK(count_constraints(L) == 5);
    moa_layout_free(L);

    /* Options: alignments in order after the gaps. */
    L = vfl_layout();
    CHECK_OK(moa_layout_vfl(L, "[a]-10-[b]-(-5)-[c]", NULL, NULL, 0, MOA_VFL_ALIGN_ALL_TOP | MOA_VFL_ALIGN_ALL_BOTTOM,
                            ids, 16, &n));
    static const char *const aligned[] = {"b.leading == a.trailing + 10", "c.leading == b.trailing - 5",
                                          "b.top == a.top",  "c.top == b.top",
                                          "b.bottom == a.bottom", "c.bottom == b.bottom"};
    check_described(L, ids, n, aligned, 6, "align all top and bottom");
    moa_layout_free(L);
    L = vfl_layout();
    CHECK_OK(moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, MOA_VFL_ALIGN_ALL_TOP, ids, 16, &n));
    static const char *const top[] = {"b.leading == a.trailing", "b.top == a.top"};
    check_described(L, ids, n, top, 2, "align all top");
    moa_layout_free(L);
    L = vfl_layout();
    CHECK_OK(moa_layout_vfl(L, "H:|-[b]-[c]-|", NULL, NULL, 0, MOA_VFL_DIRECTION_RIGHT_TO_LEFT, ids, 16, &n));
    static const char *const rtl[] = {"root.right == b.right + 20", "b.left == c.right + 8", "c.left == root.left + 20"};
    check_described(L, ids, n, rtl, 3, "right to left");
    moa_layout_free(L);
    L = vfl_layout();
    CHECK_OK(moa_layout_vfl(L, "H:[b]-[c]", NULL, NULL, 0, MOA_VFL_DIRECTION_LEFT_TO_RIGHT, ids, 16, &n));
    static const char *const ltr[] = {"c.left == b.right + 8"};
    check_described(L, ids, n, ltr, 1, "left to right");
    moa_layout_free(L);
    /* Several lines, blank ones skipped. */
    L = vfl_layout();
    CHECK_OK(moa_layout_vfl(L, "H:|-[a]-|\n\nV:|-(==8@999)-[a(==40)]", NULL, NULL, 0, 0, ids, 16, &n));
    CHECK(n == 4);
    moa_layout_free(L);

    /* Option words. */
    L = vfl_layout();
    unsigned bits = 0;
    CHECK_OK(moa_layout_vfl_options(L, "alignAllTop alignAllBottom", &bits));
    CHECK(bits == ((1u << 3) | (1u << 4)));
    CHECK(bits == (MOA_VFL_ALIGN_ALL_TOP | MOA_VFL_ALIGN_ALL_BOTTOM));
    CHECK_OK(moa_layout_vfl_options(L, "alignAllLeft, alignAllCenterY|directionRightToLeft", &bits));
    CHECK(bits == (MOA_VFL_ALIGN_ALL_LEFT | MOA_VFL_ALIGN_ALL_CENTER_Y | MOA_VFL_DIRECTION_RIGHT_TO_LEFT));
    CHECK_OK(moa_layout_vfl_options(L, "alignAllBaseline alignAllFirstBaseline", &bits));
    CHECK(bits == (MOA_VFL_ALIGN_ALL_LAST_BASELINE | MOA_VFL_ALIGN_ALL_FIRST_BASELINE));
    bits = 77;
    CHECK_STATUS(moa_layout_vfl_options(L, "alignAllTop alignAllTopp", &bits), MOA_INVALID);
    CHECK(bits == 77);
    CHECK_CONTAINS(moa_layout_errmsg(L), "alignAllTop");

    /* Errors point at the character; nothing is added. */
    moa_error_info info;
    n = 99;
    CHECK_STATUS(moa_layout_vfl(L, "H:|-[a(>=50]-|", NULL, NULL, 0, 0, ids, 16, &n), MOA_PARSE);
    CHECK(n == 99);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.code == MOA_PARSE);
    CHECK(info.line == 1);
    CHECK(info.offset == 11);
    CHECK_STR(info.source_line, "H:|-[a(>=50]-|");
    CHECK_CONTAINS(info.message, "expected `)`");
    CHECK_CONTAINS(moa_layout_errmsg(L), "\n    H:|-[a(>=50]-|\n               ^");

    CHECK_STATUS(moa_layout_vfl(L, "H:|-[zz]", NULL, NULL, 0, 0, ids, 16, &n), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unknownView");
    CHECK(info.offset == 5);
    CHECK_STATUS(moa_layout_vfl(L, "H:[a(==zz)]", NULL, NULL, 0, 0, ids, 16, &n), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK_STR(info.kind, "unknownView");
    CHECK(info.offset == 7);
    CHECK_STATUS(moa_layout_vfl(L, "H:[a]-gap-[b]", NULL, NULL, 0, 0, ids, 16, &n), MOA_PARSE); /* unknown metric */
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.offset == 6);
    CHECK_STATUS(moa_layout_vfl(L, "H:[a]-8[b]", NULL, NULL, 0, 0, ids, 16, &n), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.offset == 7);
    CHECK_STATUS(moa_layout_vfl(L, "H:[a(==50@2000)]", NULL, NULL, 0, 0, ids, 16, &n), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.offset == 10);
    /* An error on line 2 of a block: line 1 does not stay either. */
    CHECK_STATUS(moa_layout_vfl(L, "H:|-[a]-|\nV:|-[zz]", NULL, NULL, 0, 0, ids, 16, &n), MOA_PARSE);
    CHECK_OK(moa_layout_error_info(L, &info));
    CHECK(info.line == 2 && info.offset == 5);
    /* An alignment on the format's own axis; unknown option bits; a metric that is not finite. */
    CHECK_STATUS(moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, MOA_VFL_ALIGN_ALL_LEFT, ids, 16, &n), MOA_INVALID);
    CHECK_STATUS(moa_layout_vfl(L, "V:[a][b]", NULL, NULL, 0, MOA_VFL_ALIGN_ALL_TOP, ids, 16, &n), MOA_INVALID);
    CHECK_STATUS(moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, 1u << 7, ids, 16, &n), MOA_INVALID);
    const char *gapname[1] = {"gap"};
    double nan_value[1] = {NAN};
    CHECK_STATUS(moa_layout_vfl(L, "H:[a]-gap-[b]", gapname, nan_value, 1, 0, ids, 16, &n), MOA_INVALID);
    CHECK(n == 99);
    CHECK(count_constraints(L) == 0); /* after all those failures nothing was added */
    moa_layout_free(L);
}

/* -------------------------------------------------------------------------------------------- hostile */

typedef struct scene {
    moa_layout *L;
    moa_view row, a, b, c, p, g, x, y, z, m1, m2, l1, l2, bar, f, root, stale_view, stale_stack;
    moa_chain ch, stale_chain;
} scene;

static moa_layout *hostile_scene(scene *s) {
    moa_layout *L = moa_layout_new(400, 300);
    moa_lcons cs[32];
    size_t n = 0;
    memset(s, 0, sizeof *s);
    s->L = L;
    CHECK_OK(moa_layout_root(L, &s->root));
    /* A fillEqually row of a, b, c. */
    CHECK_OK(moa_stack_new(L, "row", 0, MOA_HORIZONTAL, &s->row));
    CHECK_OK(moa_view_new(L, "a", s->row, &s->a));
    CHECK_OK(moa_view_new(L, "b", s->row, &s->b));
    CHECK_OK(moa_view_new(L, "c", s->row, &s->c));
    CHECK_OK(moa_view_set_intrinsic_size(L, s->a, 40, 20));
    CHECK_OK(moa_view_set_intrinsic_size(L, s->b, 60, 30));
    CHECK_OK(moa_view_set_intrinsic_size(L, s->c, 80, 40));
    CHECK_OK(moa_stack_insert(L, s->row, s->a, -1));
    CHECK_OK(moa_stack_insert(L, s->row, s->b, -1));
    CHECK_OK(moa_stack_insert(L, s->row, s->c, -1));
    CHECK_OK(moa_stack_set_distribution(L, s->row, MOA_DISTRIBUTION_FILL_EQUALLY));
    CHECK_OK(moa_stack_set_spacing(L, s->row, 10));
    /* A plain view, a user guide, a chain of x, y, z, two free views m1, m2 (m2 pinned right at 100). */
    CHECK_OK(moa_view_new(L, "p", 0, &s->p));
    CHECK_OK(moa_guide_new(L, "g", 0, &s->g));
    CHECK_OK(moa_view_new(L, "x", 0, &s->x));
    CHECK_OK(moa_view_new(L, "y", 0, &s->y));
    CHECK_OK(moa_view_new(L, "z", 0, &s->z));
    CHECK_OK(moa_view_new(L, "m1", 0, &s->m1));
    CHECK_OK(moa_view_new(L, "m2", 0, &s->m2));
    /* Two labels, a barrier after them and a field attached to it. */
    CHECK_OK(moa_view_new(L, "l1", 0, &s->l1));
    CHECK_OK(moa_view_new(L, "l2", 0, &s->l2));
    CHECK_OK(moa_view_new(L, "f", 0, &s->f));
    moa_text_style st;
    memset(&st, 0, sizeof st);
    st.font_size = 10;
    CHECK_OK(moa_view_set_text(L, s->l1, "Name", &st));
    CHECK_OK(moa_view_set_text(L, s->l2, "Email", &st));
    moa_view labels[2] = {s->l1, s->l2};
    CHECK_OK(moa_barrier_new(L, "bar", 0, MOA_SIDE_TRAILING, labels, 2, 0, &s->bar));
    CHECK_OK(moa_layout_eqs(L,
                            "row.left == 0\nrow.top == 0\nrow.width == 300\nrow.height == 50\n"
                            "p.left == 0\np.top == 100\np.size == 20x20\n"
                            "g.left == 0\ng.top == 0\ng.size == 10x10\n"
                            "x.top == 200\nx.height == 10\nx.width == 40\n"
                            "y.top == 200\ny.height == 10\ny.width == 60\n"
                            "z.top == 200\nz.height == 10\nz.width == 80\n"
                            "m1.top == 250\nm1.size == 10x10\nm1.left == 0\n"
                            "m2.top == 250\nm2.size == 10x10\nm2.right == root.left + 100\n"
                            "l1.left == 10\nl1.top == 130\nl2.left == 10\nl2.top == 160\n"
                            "f.leading == bar.trailing + 8\nf.top == 130\nf.size == 50x20\nf.right <= root.left + 200\n"
                            "l1.width >= 0\nl2.width >= 0\n",
                            cs, 32, &n));
    moa_view chained[3] = {s->x, s->y, s->z};
    CHECK_OK(moa_chain_new(L, chained, 3, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &s->ch));
    /* Stale ids: a freed view, a freed stack, a freed chain. */
    moa_view tmp;
    CHECK_OK(moa_view_new(L, "gone", 0, &s->stale_view));
    CHECK_OK(moa_view_free(L, s->stale_view));
    CHECK_OK(moa_stack_new(L, "gone_stack", 0, MOA_VERTICAL, &s->stale_stack));
    CHECK_OK(moa_view_new(L, "tmp", s->stale_stack, &tmp));
    CHECK_OK(moa_stack_insert(L, s->stale_stack, tmp, -1));
    CHECK_OK(moa_view_free(L, s->stale_stack));
    moa_view lone;
    CHECK_OK(moa_view_new(L, "lone", 0, &lone));
    CHECK_OK(moa_chain_new(L, &lone, 1, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &s->stale_chain));
    CHECK_OK(moa_chain_free(L, s->stale_chain));
    CHECK_OK(moa_view_free(L, lone));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, s->b, 310.0 / 3, 280.0 / 3);
    CHECK_XW(L, s->y, 150, 60);
    CHECK_NEAR(frame_v(L, s->f).x, 48);
    return L;
}

static void test_hostile_stacks(scene *s, moa_layout *L2, moa_view other_row) {
    moa_layout *L = s->L;
    moa_view out = 12345;
    moa_view buf[8];
    size_t n = 4242;
    int iv = -7;
    double dv = -7;

    /* moa_guide_new */
    CHECK_STATUS(moa_guide_new(NULL, "g2", 0, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_guide_new(L, NULL, 0, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_guide_new(L, "g2", 0, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_guide_new(L, "2g", 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_guide_new(L, "", 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_guide_new(L, "root", 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_guide_new(L, "p", 0, &out), MOA_DUPLICATE);
    CHECK_FAILS(L, moa_guide_new(L, "g2", s->g, &out), MOA_INVALID); /* a guide holds nothing */
    CHECK_FAILS(L, moa_guide_new(L, "g2", s->stale_view, &out), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_guide_new(L, "g2", other_row, &out), MOA_NOTFOUND); /* another layout's view */
    CHECK(out == 12345);

    /* moa_stack_new */
    CHECK_STATUS(moa_stack_new(NULL, "s2", 0, MOA_HORIZONTAL, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_new(L, NULL, 0, MOA_HORIZONTAL, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_new(L, "s2", 0, MOA_HORIZONTAL, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_new(L, "s2", 0, (moa_axis)99, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_new(L, "s2", 0, (moa_axis)2, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_new(L, "s2", 0, (moa_axis)-1, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_new(L, "row", 0, MOA_HORIZONTAL, &out), MOA_DUPLICATE);
    CHECK_FAILS(L, moa_stack_new(L, "a b", 0, MOA_HORIZONTAL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_new(L, "s2", s->g, MOA_HORIZONTAL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_new(L, "s2", s->stale_view, MOA_HORIZONTAL, &out), MOA_NOTFOUND);
    CHECK(out == 12345);

    /* moa_stack_insert */
    CHECK_STATUS(moa_stack_insert(NULL, s->row, s->p, -1), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_insert(L, s->p, s->a, -1), MOA_NOTFOUND);           /* not a stack */
    CHECK_FAILS(L, moa_stack_insert(L, s->g, s->a, -1), MOA_NOTFOUND);           /* a guide is not a stack */
    CHECK_FAILS(L, moa_stack_insert(L, s->bar, s->a, -1), MOA_NOTFOUND);         /* nor a barrier */
    CHECK_FAILS(L, moa_stack_insert(L, 0, s->p, -1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_insert(L, s->stale_stack, s->p, -1), MOA_NOTFOUND); /* a removed stack */
    CHECK_FAILS(L, moa_stack_insert(L, (moa_view)s->ch, s->p, -1), MOA_NOTFOUND); /* a chain id */
    CHECK_FAILS(L, moa_stack_insert(L, other_row, s->p, -1), MOA_NOTFOUND);      /* another layout's stack */
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->stale_view, -1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_insert(L, s->row, 0, -1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_insert(L, s->row, (moa_view)0x7fffffffffffULL, -1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->p, 4), MOA_INVALID);  /* 0 ... 3 */
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->p, -2), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->p, PTRDIFF_MAX), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->p, PTRDIFF_MIN), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->a, 3), MOA_INVALID);  /* arranged already: 0 ... 2 */
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->row, -1), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->root, -1), MOA_INVALID); /* an ancestor */
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->g, -1), MOA_INVALID);    /* a guide */
    CHECK_FAILS(L, moa_stack_insert(L, s->row, s->bar, -1), MOA_INVALID);  /* a barrier's guide */
    moa_view safe = 0;
    CHECK_OK(moa_layout_guide(L, "safeArea", &safe));
    CHECK_FAILS(L, moa_stack_insert(L, s->row, safe, -1), MOA_INVALID);
    CHECK(superview_of(L, s->p) == s->root);

    /* moa_stack_insert_views: checked as moa_stack_insert, and the list itself; nothing changes */
    moa_view two[2] = {s->p, s->p};
    CHECK_STATUS(moa_stack_insert_views(NULL, s->row, two, 1, -1), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_insert_views(L, s->row, NULL, 1, -1), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_insert_views(L, s->row, two, 2, -1), MOA_INVALID); /* listed twice */
    CHECK_FAILS(L, moa_stack_insert_views(L, s->row, two, (size_t)PTRDIFF_MAX + 1, -1), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_insert_views(L, s->p, two, 1, -1), MOA_NOTFOUND); /* not a stack */
    moa_view mixed[2] = {s->p, s->stale_view};
    CHECK_FAILS(L, moa_stack_insert_views(L, s->row, mixed, 2, -1), MOA_NOTFOUND);
    mixed[1] = s->g;
    CHECK_FAILS(L, moa_stack_insert_views(L, s->row, mixed, 2, -1), MOA_INVALID); /* a guide */
    CHECK_FAILS(L, moa_stack_insert_views(L, s->row, mixed, 1, 4), MOA_INVALID);  /* 0 ... 3 */
    CHECK_FAILS(L, moa_stack_insert_views(L, s->row, mixed, 1, -2), MOA_INVALID);
    CHECK(superview_of(L, s->p) == s->root);

    /* moa_stack_remove */
    CHECK_STATUS(moa_stack_remove(NULL, s->row, s->a), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_remove(L, s->row, s->p), MOA_NOTFOUND); /* not arranged */
    CHECK_FAILS(L, moa_stack_remove(L, s->p, s->a), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_remove(L, s->stale_stack, s->a), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_remove(L, s->row, s->stale_view), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_remove(L, s->row, 0), MOA_NOTFOUND);

    /* moa_stack_views */
    CHECK_STATUS(moa_stack_views(NULL, s->row, buf, 8, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_views(L, s->row, buf, 8, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_views(L, s->row, NULL, 3, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_views(L, s->p, buf, 8, &n), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_views(L, s->stale_stack, buf, 8, &n), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_views(L, (moa_view)s->ch, buf, 8, &n), MOA_NOTFOUND);
    CHECK(n == 4242);

    /* The property setters. */
    CHECK_STATUS(moa_stack_set_axis(NULL, s->row, MOA_VERTICAL), MOA_MISUSE);
    CHECK_STATUS(moa_stack_set_distribution(NULL, s->row, MOA_DISTRIBUTION_FILL), MOA_MISUSE);
    CHECK_STATUS(moa_stack_set_alignment(NULL, s->row, MOA_ALIGN_FILL), MOA_MISUSE);
    CHECK_STATUS(moa_stack_set_spacing(NULL, s->row, 1), MOA_MISUSE);
    CHECK_STATUS(moa_stack_set_margins_relative(NULL, s->row, 1), MOA_MISUSE);
    CHECK_STATUS(moa_stack_set_custom_spacing(NULL, s->row, s->a, 1), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_set_axis(L, s->row, (moa_axis)99), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_axis(L, s->row, (moa_axis)2), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_axis(L, s->row, (moa_axis)-1), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_axis(L, s->p, MOA_VERTICAL), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_axis(L, s->stale_stack, MOA_VERTICAL), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_distribution(L, s->row, (moa_stack_distribution)99), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_distribution(L, s->row, (moa_stack_distribution)5), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_distribution(L, s->row, (moa_stack_distribution)-1), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_distribution(L, s->p, MOA_DISTRIBUTION_FILL), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_alignment(L, s->row, (moa_stack_alignment)99), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_alignment(L, s->row, (moa_stack_alignment)8), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_alignment(L, s->row, (moa_stack_alignment)-1), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_alignment(L, s->g, MOA_ALIGN_CENTER), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_spacing(L, s->row, NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_spacing(L, s->row, INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_spacing(L, s->row, -INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_spacing(L, s->row, 2e9), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_spacing(L, s->row, -1e300), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_spacing(L, s->row, DBL_MAX), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_spacing(L, s->p, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_margins_relative(L, s->p, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_margins_relative(L, s->stale_stack, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, s->row, s->a, INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, s->row, s->a, -INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, s->row, s->a, NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, s->row, s->a, DBL_MAX), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, s->row, s->p, 5), MOA_NOTFOUND); /* not arranged */
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, s->row, s->stale_view, 5), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_custom_spacing(L, s->p, s->a, 5), MOA_NOTFOUND);

    /* moa_stack_get */
    CHECK_STATUS(moa_stack_get(NULL, s->row, &iv, NULL, NULL, &dv, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_get(L, s->p, &iv, NULL, NULL, &dv, NULL), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_get(L, s->stale_stack, &iv, NULL, NULL, &dv, NULL), MOA_NOTFOUND);
    CHECK(iv == -7 && dv == -7);

    /* moa_stack_set_hidden / moa_stack_is_hidden: no failure starts anything or calls done. */
    done_count never = {0, -1, 0};
    moa_animation an = 4242;
    CHECK_STATUS(moa_stack_set_hidden(NULL, s->row, s->b, 1, 1, 1, MOA_LINEAR, on_done, &never, &an), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->p, 1, 1, 1, MOA_LINEAR, on_done, &never, &an), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->p, s->b, 1, 1, 1, MOA_LINEAR, on_done, &never, &an), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->stale_stack, s->b, 1, 0, 0, MOA_LINEAR, on_done, &never, &an),
                MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->stale_view, 1, 0, 0, MOA_LINEAR, on_done, &never, &an),
                MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->b, 1, 1, NAN, MOA_LINEAR, on_done, &never, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->b, 1, 1, INFINITY, MOA_LINEAR, on_done, &never, &an),
                MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->b, 1, 1, -1, MOA_LINEAR, on_done, &never, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->b, 1, 1, 2e12, MOA_LINEAR, on_done, &never, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->b, 1, 1, 1, 99, on_done, &never, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->b, 1, 1, 1, -1, on_done, &never, &an), MOA_INVALID);
    CHECK_FAILS(L, moa_stack_set_hidden(L, s->row, s->b, 1, 1, 1, MOA_CURVE_CUSTOM, on_done, &never, &an),
                MOA_INVALID); /* no custom curve was made */
    CHECK(an == 4242);
    CHECK_STATUS(moa_stack_is_hidden(NULL, s->row, s->b, &iv), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_is_hidden(L, s->row, s->b, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_stack_is_hidden(L, s->row, s->p, &iv), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_is_hidden(L, s->p, s->b, &iv), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_stack_is_hidden(L, s->stale_stack, s->b, &iv), MOA_NOTFOUND);
    CHECK(iv == -7);
    CHECK_OK(moa_layout_advance(L, 2));
    CHECK(never.calls == 0);
    CHECK_XW(L, s->b, 310.0 / 3, 280.0 / 3);
    size_t n2 = 9;
    CHECK_OK(moa_stack_views(L2, other_row, NULL, 0, &n2)); /* the other layout's stack is untouched */
    CHECK(n2 == 0);
}

static void test_hostile_chains(scene *s, moa_layout *L2, moa_chain other_chain) {
    moa_layout *L = s->L;
    moa_chain out = 4242;
    moa_view v2[2] = {s->m1, s->m2};
    const double w_nan[2] = {NAN, 1}, w_neg[2] = {-1, 1}, w_inf[2] = {INFINITY, 1}, w_big[2] = {1e300, 1};

    CHECK_STATUS(moa_chain_new(NULL, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_chain_new(L, NULL, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_chain_new(L, NULL, 0, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 0, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, SIZE_MAX, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out),
                MOA_INVALID); /* n does not fit in a ptrdiff_t */
    moa_view stale[2] = {s->m1, s->stale_view};
    CHECK_FAILS(L, moa_chain_new(L, stale, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_NOTFOUND);
    moa_view zero[2] = {s->m1, 0};
    CHECK_FAILS(L, moa_chain_new(L, zero, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_NOTFOUND);
    moa_view apart[2] = {s->m1, s->a}; /* a is in row */
    CHECK_FAILS(L, moa_chain_new(L, apart, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    moa_view twice[2] = {s->m1, s->m1};
    CHECK_FAILS(L, moa_chain_new(L, twice, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    moa_view chained[2] = {s->m1, s->y}; /* y is in a horizontal chain */
    CHECK_FAILS(L, moa_chain_new(L, chained, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    moa_view guide[2] = {s->m1, s->g};
    CHECK_FAILS(L, moa_chain_new(L, guide, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    moa_view root[1] = {s->root};
    CHECK_FAILS(L, moa_chain_new(L, root, 1, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, (moa_axis)99, MOA_CHAIN_SPREAD, 0, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, (moa_chain_style)3, 0, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, (moa_chain_style)99, 0, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, (moa_chain_style)-1, 0, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, NAN, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, -1, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, INFINITY, 0.5, NULL, &out),
                MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 2e9, 0.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_PACKED, 0, NAN, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_PACKED, 0, -0.1, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_PACKED, 0, 1.5, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_PACKED, 0, INFINITY, NULL, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, w_nan, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, w_neg, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, w_inf, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD, 0, 0.5, w_big, &out), MOA_INVALID);
    /* m2.right == 100 cannot hold with m2 on the right edge. */
    CHECK_FAILS(L, moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD_INSIDE, 0, 0.5, NULL, &out),
                MOA_UNSATISFIABLE);
    CHECK(out == 4242);

    /* The existing chain's setters. */
    moa_view outsider = s->p;
    CHECK_STATUS(moa_chain_set_style(NULL, s->ch, MOA_CHAIN_PACKED), MOA_MISUSE);
    CHECK_STATUS(moa_chain_set_bias(NULL, s->ch, 0.5), MOA_MISUSE);
    CHECK_STATUS(moa_chain_set_gap(NULL, s->ch, 1), MOA_MISUSE);
    CHECK_STATUS(moa_chain_set_weight(NULL, s->ch, s->x, 1), MOA_MISUSE);
    CHECK_STATUS(moa_chain_free(NULL, s->ch), MOA_MISUSE);
    CHECK_FAILS(L, moa_chain_set_style(L, s->ch, (moa_chain_style)3), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_style(L, s->ch, (moa_chain_style)99), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_bias(L, s->ch, NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_bias(L, s->ch, -1), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_bias(L, s->ch, 2), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_bias(L, s->ch, -INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_gap(L, s->ch, NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_gap(L, s->ch, -0.5), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_gap(L, s->ch, INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_gap(L, s->ch, 1e10), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_weight(L, s->ch, s->x, NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_weight(L, s->ch, s->x, -2), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_weight(L, s->ch, s->x, INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_chain_set_weight(L, s->ch, outsider, 1), MOA_NOTFOUND); /* not in the chain */
    CHECK_FAILS(L, moa_chain_set_weight(L, s->ch, s->stale_view, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_chain_set_gap(L, s->ch, 200), MOA_UNSATISFIABLE); /* required widths 180 + 2 x 200 > 400 */
    /* Stale and foreign chain ids, ids of another kind. */
    CHECK_FAILS(L, moa_chain_set_style(L, s->stale_chain, MOA_CHAIN_PACKED), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_chain_set_bias(L, s->stale_chain, 0.5), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_chain_set_gap(L, s->stale_chain, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_chain_set_weight(L, s->stale_chain, s->m1, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_chain_free(L, s->stale_chain), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_chain_free(L, 0), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_chain_free(L, (moa_chain)s->row), MOA_NOTFOUND); /* a view id */
    CHECK_FAILS(L, moa_chain_free(L, other_chain), MOA_NOTFOUND);       /* another layout's chain */
    CHECK_FAILS(L, moa_chain_set_bias(L, other_chain, 0.5), MOA_NOTFOUND);
    CHECK_OK(moa_chain_set_bias(L2, other_chain, 0.25)); /* the other layout's chain is alive */

    /* The failed UNSATISFIABLE chain left m1 and m2 free: with m2's pin gone they chain. */
    CHECK_OK(moa_layout_xeq(L, "m2.right == root.left", NULL));
    moa_chain fresh = 0;
    CHECK_OK(moa_chain_new(L, v2, 2, MOA_HORIZONTAL, MOA_CHAIN_SPREAD_INSIDE, 0, 0.5, NULL, &fresh));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, s->m2, 390, 10); /* kept: the scene stays fully determined */
}

static void test_hostile_barriers(scene *s) {
    moa_layout *L = s->L;
    moa_view out = 4242;
    moa_view two[2] = {s->l1, s->l2};
    moa_view twice[2] = {s->l1, s->l1};
    moa_view stale[2] = {s->l1, s->stale_view};

    CHECK_STATUS(moa_barrier_new(NULL, "b2", 0, MOA_SIDE_LEFT, two, 2, 0, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_barrier_new(L, NULL, 0, MOA_SIDE_LEFT, two, 2, 0, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, two, 2, 0, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, NULL, 2, 0, &out), MOA_MISUSE);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, (moa_barrier_side)6, two, 2, 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, (moa_barrier_side)99, two, 2, 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, (moa_barrier_side)-1, two, 2, 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, two, 2, NAN, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, two, 2, INFINITY, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, two, 2, -INFINITY, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, two, 2, 1e300, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, twice, 2, 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", 0, MOA_SIDE_LEFT, stale, 2, 0, &out), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_barrier_new(L, "p", 0, MOA_SIDE_LEFT, two, 2, 0, &out), MOA_DUPLICATE);
    CHECK_FAILS(L, moa_barrier_new(L, "9x", 0, MOA_SIDE_LEFT, two, 2, 0, &out), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", s->stale_view, MOA_SIDE_LEFT, two, 2, 0, &out), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_barrier_new(L, "b2", s->g, MOA_SIDE_LEFT, two, 2, 0, &out), MOA_INVALID);
    CHECK(out == 4242);

    CHECK_STATUS(moa_barrier_set_views(NULL, s->bar, two, 2), MOA_MISUSE);
    CHECK_FAILS(L, moa_barrier_set_views(L, s->bar, NULL, 2), MOA_MISUSE);
    CHECK_FAILS(L, moa_barrier_set_views(L, s->p, two, 2), MOA_NOTFOUND);   /* a view */
    CHECK_FAILS(L, moa_barrier_set_views(L, s->row, two, 2), MOA_NOTFOUND); /* a stack */
    CHECK_FAILS(L, moa_barrier_set_views(L, s->g, two, 2), MOA_NOTFOUND);   /* a user guide */
    CHECK_FAILS(L, moa_barrier_set_views(L, s->stale_view, two, 2), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_barrier_set_views(L, (moa_view)s->ch, two, 2), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_barrier_set_views(L, s->bar, stale, 2), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_barrier_set_views(L, s->bar, twice, 2), MOA_INVALID);

    CHECK_STATUS(moa_barrier_set_margin(NULL, s->bar, 1), MOA_MISUSE);
    CHECK_FAILS(L, moa_barrier_set_margin(L, s->bar, NAN), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_set_margin(L, s->bar, INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_set_margin(L, s->bar, -INFINITY), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_set_margin(L, s->bar, -1e300), MOA_INVALID);
    CHECK_FAILS(L, moa_barrier_set_margin(L, s->p, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_barrier_set_margin(L, s->row, 1), MOA_NOTFOUND);
    CHECK_FAILS(L, moa_barrier_set_margin(L, s->bar, 200), MOA_UNSATISFIABLE); /* f.right <= 200 */
    CHECK_NEAR(frame_v(L, s->f).x, 48);
}

static void test_hostile_vfl(scene *s) {
    moa_layout *L = s->L;
    moa_lcons ids[8];
    size_t n = 4242;
    unsigned bits = 4242;
    const char *names[1] = {"m"};
    const double values[1] = {4};
    const double bad_values[1] = {INFINITY};
    const char *null_name[1] = {NULL};

    CHECK_STATUS(moa_layout_vfl(NULL, "H:[a][b]", NULL, NULL, 0, 0, ids, 8, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl(L, NULL, NULL, NULL, 0, 0, ids, 8, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, 0, ids, 8, NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, 0, NULL, 8, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a]-m-[b]", NULL, values, 1, 0, ids, 8, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a]-m-[b]", names, NULL, 1, 0, ids, 8, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a]-m-[b]", null_name, values, 1, 0, ids, 8, &n), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a]-m-[b]", names, bad_values, 1, 0, ids, 8, &n), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, 1u << 7, ids, 8, &n), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, 1u << 31, ids, 8, &n), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, MOA_VFL_ALIGN_ALL_LEFT, ids, 8, &n), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a][b]", NULL, NULL, 0, MOA_VFL_ALIGN_ALL_LEADING, ids, 8, &n),
                MOA_INVALID);
    CHECK_FAILS(L, moa_layout_vfl(L, "V:[a][b]", NULL, NULL, 0, MOA_VFL_ALIGN_ALL_BOTTOM, ids, 8, &n), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:|-[a(>=50]-|", NULL, NULL, 0, 0, ids, 8, &n), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:|-[nobody]-|", NULL, NULL, 0, 0, ids, 8, &n), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:|-[a]-|x", NULL, NULL, 0, 0, ids, 8, &n), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a]-", NULL, NULL, 0, 0, ids, 8, &n), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "X:[a]", NULL, NULL, 0, 0, ids, 8, &n), MOA_PARSE);
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[a]-[p]", NULL, NULL, 0, 0, ids, 8, &n), MOA_INVALID); /* other superviews */
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[p(>=30)]", NULL, NULL, 0, 0, ids, 8, &n), MOA_UNSATISFIABLE); /* p is 20 */
    CHECK_FAILS(L, moa_layout_vfl(L, "H:[p(<=40)]\nH:|-[p]", NULL, NULL, 0, 0, ids, 8, &n), MOA_UNSATISFIABLE);
    CHECK(n == 4242);

    CHECK_STATUS(moa_layout_vfl_options(NULL, "alignAllTop", &bits), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl_options(L, NULL, &bits), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl_options(L, "alignAllTop", NULL), MOA_MISUSE);
    CHECK_FAILS(L, moa_layout_vfl_options(L, "alignAllTopp", &bits), MOA_INVALID);
    CHECK_FAILS(L, moa_layout_vfl_options(L, "alignAllTop nonsense", &bits), MOA_INVALID);
    CHECK(bits == 4242);
}

static void test_hostile(void) {
    /* Another layout: its ids are not this layout's. */
    moa_layout *L2 = moa_layout_new(100, 100);
    moa_view other_row = 0, o1 = 0, o2 = 0;
    moa_chain other_chain = 0;
    CHECK_OK(moa_stack_new(L2, "row", 0, MOA_HORIZONTAL, &other_row));
    CHECK_OK(moa_view_new(L2, "o1", 0, &o1));
    CHECK_OK(moa_view_new(L2, "o2", 0, &o2));
    moa_view os[2] = {o1, o2};
    CHECK_OK(moa_chain_new(L2, os, 2, MOA_HORIZONTAL, MOA_CHAIN_PACKED, 0, 0.5, NULL, &other_chain));

    scene s;
    moa_layout *L = hostile_scene(&s);
    test_hostile_stacks(&s, L2, other_row);
    test_hostile_chains(&s, L2, other_chain);
    test_hostile_barriers(&s);
    test_hostile_vfl(&s);
    /* This layout's ids are not the other's either. */
    CHECK_STATUS(moa_stack_insert(L2, s.row, o1, -1), MOA_NOTFOUND);
    CHECK_STATUS(moa_chain_free(L2, s.ch), MOA_NOTFOUND);
    CHECK_STATUS(moa_barrier_set_margin(L2, s.bar, 1), MOA_NOTFOUND);
    /* Everything still works after all that. */
    CHECK_OK(moa_stack_set_hidden(L, s.row, s.b, 1, 0, 0, MOA_LINEAR, NULL, NULL, NULL));
    CHECK_OK(moa_chain_set_style(L, s.ch, MOA_CHAIN_PACKED));
    CHECK_OK(moa_barrier_set_margin(L, s.bar, 2));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_XW(L, s.a, 0, 145);
    CHECK_XW(L, s.x, 110, 40);
    CHECK_NEAR(frame_v(L, s.f).x, 50);
    moa_layout_free(L);
    moa_layout_free(L2);
}

int main(void) {
    test_distributions();
    test_alignments();
    test_hidden();
    test_vertical_margins_spacing();
    test_nested();
    test_insert_remove();
    test_conflicts_and_ownership();
    test_user_guide();
    test_chains();
    test_barrier();
    test_vfl();
    test_hostile();
    return CHECK_DONE();
}
