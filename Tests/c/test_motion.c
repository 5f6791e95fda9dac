/*
** test_motion.c -- motion through moa.h: collapse golden frames at 0, 0.15 and 0.3 s with easeInOut, the
** completion order, callbacks that re-enter (allowed calls work; advance/seek give MOA_MISUSE; a free from a
** callback is deferred; every completion is called exactly once, also at free), a pan sequence (slow drag
** snapping back, fast swipe snapping over, gating), the keyboard, root-size and priority animations, custom
** curves, cancelling, and frame traces (CSV, JSON, SVG strip).
*/
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

static moa_rect frame_of(moa_layout *L, const char *name) {
    moa_view v = 0;
    moa_rect r = {NAN, NAN, NAN, NAN};
    CHECK_OK(moa_view_find(L, name, &v));
    CHECK_OK(moa_view_frame(L, v, &r));
    return r;
}

static size_t count_of(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* A log of completions: "name:finished" entries, and the animation ids. */
typedef struct {
    char text[512];
    moa_animation ids[16];
    int count;
} done_log;

typedef struct {
    done_log *log;
    const char *name;
} done_tag;

static void on_done(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L;
    done_tag *tag = ud;
    done_log *log = tag->log;
    size_t used = strlen(log->text);
    snprintf(log->text + used, sizeof log->text - used, "%s%s:%d", used ? " " : "", tag->name, finished);
    if (log->count < 16) log->ids[log->count] = a;
    log->count++;
}

/* ---------------------------------------------------------------------------------------------- collapse */

/* Root 320 x 480; a 200-wide sidebar on the left, content filling the rest. */
static const char *sidebar_eqs =
    "sidebar.left == 0\n"
    "sidebar.top == 0\n"
    "sidebar.bottom == 0\n"
    "sidebar.width == 200\n"
    "content.left == sidebar.right\n"
    "content.right == 0\n"
    "content.top == 0\n"
    "content.bottom == 0\n";

static moa_layout *make_sidebar(moa_collapsible *col) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view sidebar, content;
    CHECK_OK(moa_view_new(L, "sidebar", 0, &sidebar));
    CHECK_OK(moa_view_new(L, "content", 0, &content));
    moa_lcons cs[8];
    size_t n = 0;
    CHECK_OK(moa_layout_eqs(L, sidebar_eqs, cs, 8, &n));
    CHECK(n == 8);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_OK(moa_collapsible_new(L, sidebar, cs[0], MOA_LEFT, col));
    return L;
}

/* Collapse left over 0.3 s with easeInOut: sidebar.x = -200 p, content = (200 - 200 p, 0, 120 + 200 p, 480)
** with p = easeInOut(t / 0.3): 0 at t = 0, exactly 0.5 at t = 0.15 (the curve is symmetric), 1 at t = 0.3;
** at t = 0.0823125 (x = 0.274375, the curve at parameter 0.25) p = 0.15625. */
static void test_collapse_golden(void) {
    moa_collapsible col = 0;
    moa_layout *L = make_sidebar(&col);
    done_log log = {"", {0}, 0};
    done_tag tag = {&log, "collapse"};
    moa_animation a = 0;
    int collapsed = -1;
    CHECK_OK(moa_collapsible_set(L, col, 1, 1, 0.3, MOA_EASE_IN_OUT, on_done, &tag, &a));
    CHECK(a != 0);
    CHECK_OK(moa_collapsible_is_collapsed(L, col, &collapsed));
    CHECK(collapsed == 1); /* at the call */
    int animating = 0;
    CHECK_OK(moa_layout_is_animating(L, &animating));
    CHECK(animating == 1);

    CHECK_OK(moa_layout_advance(L, 0));
    CHECK_RECT(frame_of(L, "sidebar"), 0, 0, 200, 480);
    CHECK_RECT(frame_of(L, "content"), 200, 0, 120, 480);
    size_t nchanged = 9;
    CHECK_OK(moa_layout_changed_views(L, NULL, 0, &nchanged));
    CHECK(nchanged == 0);

    CHECK_OK(moa_layout_advance(L, 0.15));
    CHECK_RECT(frame_of(L, "sidebar"), -100, 0, 200, 480);
    CHECK_RECT(frame_of(L, "content"), 100, 0, 220, 480);
    CHECK_OK(moa_layout_changed_views(L, NULL, 0, &nchanged));
    CHECK(nchanged == 2);
    CHECK(log.count == 0);

    CHECK_OK(moa_layout_advance(L, 0.15));
    double t = 0;
    CHECK_OK(moa_layout_time(L, &t));
    CHECK_NEAR(t, 0.3);
    CHECK_RECT(frame_of(L, "sidebar"), -200, 0, 200, 480);
    CHECK_RECT(frame_of(L, "content"), 0, 0, 320, 480);
    CHECK_STR(log.text, "collapse:1");
    CHECK(log.ids[0] == a);
    CHECK_OK(moa_layout_advance(L, 1));
    CHECK(log.count == 1); /* exactly once */
    CHECK_OK(moa_layout_is_animating(L, &animating));
    CHECK(animating == 0);
    CHECK_STATUS(moa_animation_cancel(L, a), MOA_OK); /* ended: a no-op */

    /* Show again, then toggle without animation: the constant changes at once, done fires at the next frame. */
    log.text[0] = '\0';
    log.count = 0;
    CHECK_OK(moa_collapsible_toggle(L, col, 1, 0.3, MOA_LINEAR, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance(L, 0.3));
    CHECK_RECT(frame_of(L, "sidebar"), 0, 0, 200, 480);
    moa_animation none = 99;
    CHECK_OK(moa_collapsible_toggle(L, col, 0, 0, MOA_LINEAR, on_done, &tag, &none));
    CHECK(none == 0);
    CHECK_OK(moa_collapsible_is_collapsed(L, col, &collapsed));
    CHECK(collapsed == 1);
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "sidebar"), -200, 0, 200, 480);
    CHECK(log.count == 0);
    CHECK_OK(moa_layout_advance(L, 0));
    CHECK_STR(log.text, "collapse:1");
    moa_layout_free(L);

    /* The quarter point, by seeking; and moa_layout_frames there. */
    L = make_sidebar(&col);
    CHECK_OK(moa_collapsible_set(L, col, 1, 1, 0.3, MOA_EASE_IN_OUT, NULL, NULL, NULL));
    CHECK_OK(moa_layout_seek(L, 0.0823125));
    moa_frame frames[4];
    size_t n = 0;
    CHECK_OK(moa_layout_frames(L, 0, frames, 4, &n));
    CHECK(n == 3);
    CHECK_RECT(frames[1].frame, -31.25, 0, 200, 480);
    CHECK_RECT(frames[2].frame, 168.75, 0, 151.25, 480);
    moa_layout_free(L);

    /* The same animation with a custom curve equal to easeInOut gives the same frames, bit for bit. */
    L = make_sidebar(&col);
    moa_curve same = 0;
    CHECK_OK(moa_layout_bezier_curve(L, 0.42, 0, 0.58, 1, &same));
    CHECK_OK(moa_collapsible_set(L, col, 1, 1, 0.3, same, NULL, NULL, NULL));
    CHECK_OK(moa_layout_seek(L, 0.0823125));
    moa_rect r = frame_of(L, "sidebar");
    CHECK(r.x == frames[1].frame.x);
    moa_layout_free(L);
}

/* ------------------------------------------------------------------------------------- completion order */

static moa_layout *make_four(moa_lcons cs[4]) {
    moa_layout *L = moa_layout_new(100, 100);
    const char *names[4] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++) {
        moa_view v;
        char line[32];
        CHECK_OK(moa_view_new(L, names[i], 0, &v));
        snprintf(line, sizeof line, "%s.left == 0", names[i]);
        CHECK_OK(moa_layout_eq(L, line, &cs[i]));
    }
    return L;
}

/* Completions that fire in one frame fire in the order of the moment each animation ended, then of creation;
** an animation taken over ends (finished = 0) at that moment. */
static void test_completion_order(void) {
    moa_lcons cs[4];
    moa_layout *L = make_four(cs);
    done_log log = {"", {0}, 0};
    done_tag ta = {&log, "a"}, tb = {&log, "b"}, tc = {&log, "c"}, td = {&log, "d"};
    moa_animation ids[4];
    CHECK_OK(moa_lcons_animate(L, cs[0], 10, 0.2, MOA_EASE_IN_OUT, 0, on_done, &ta, &ids[0]));
    CHECK_OK(moa_lcons_animate(L, cs[1], 10, 0.1, MOA_EASE_IN_OUT, 0, on_done, &tb, &ids[1]));
    CHECK_OK(moa_lcons_animate(L, cs[2], 10, 0.1, MOA_LINEAR, 0, on_done, &tc, &ids[2]));
    CHECK_OK(moa_lcons_animate(L, cs[3], 10, 0.05, MOA_EASE_IN_OUT, 0.05, on_done, &td, &ids[3]));
    CHECK(ids[0] != ids[1] && ids[1] != ids[2] && ids[2] != ids[3]);
    CHECK_OK(moa_layout_advance(L, 0.05));
    CHECK(log.count == 0);
    CHECK_OK(moa_layout_advance(L, 1));
    CHECK_STR(log.text, "b:1 c:1 d:1 a:1");
    CHECK(log.ids[0] == ids[1] && log.ids[1] == ids[2] && log.ids[2] == ids[3] && log.ids[3] == ids[0]);

    /* Retargeting: the first animation ends when it is taken over, before one that ends later. */
    log.text[0] = '\0';
    log.count = 0;
    done_tag first = {&log, "first"}, other = {&log, "other"}, retarget = {&log, "retarget"};
    CHECK_OK(moa_lcons_animate(L, cs[2], 50, 1, MOA_EASE_IN_OUT, 0, on_done, &first, NULL));
    CHECK_OK(moa_lcons_animate(L, cs[3], 50, 0.5, MOA_EASE_IN_OUT, 0, on_done, &other, NULL));
    CHECK_OK(moa_layout_advance(L, 0.25));
    double before = 0, after = 0;
    CHECK_OK(moa_lcons_constant(L, cs[2], &before));
    CHECK_OK(moa_lcons_animate(L, cs[2], 0, 0.1, MOA_EASE_IN_OUT, 0, on_done, &retarget, NULL));
    CHECK_OK(moa_layout_advance(L, 0));
    CHECK_OK(moa_lcons_constant(L, cs[2], &after));
    CHECK_NEAR(after, before); /* no jump */
    CHECK_OK(moa_layout_advance(L, 1));
    CHECK_STR(log.text, "first:0 retarget:1 other:1");

    /* Cancel: the completion fires with 0 at the next frame; values stay where they are. */
    log.text[0] = '\0';
    log.count = 0;
    moa_animation x;
    CHECK_OK(moa_lcons_animate(L, cs[0], 100, 1, MOA_LINEAR, 0, on_done, &ta, &x));
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_OK(moa_animation_cancel(L, x));
    CHECK(log.count == 0);
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_STR(log.text, "a:0");
    double k = 0;
    CHECK_OK(moa_lcons_constant(L, cs[0], &k));
    CHECK_NEAR(k, 55); /* from 10 to 100, halfway */
    /* stop_animating makes set_constant stick; cancel_animations cancels the rest (delayed ones too). */
    log.text[0] = '\0';
    log.count = 0;
    CHECK_OK(moa_lcons_animate(L, cs[0], 0, 1, MOA_LINEAR, 0, on_done, &ta, NULL));
    CHECK_OK(moa_lcons_animate(L, cs[1], 0, 1, MOA_LINEAR, 2, on_done, &tb, NULL));
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK_OK(moa_lcons_stop_animating(L, cs[0]));
    CHECK_OK(moa_lcons_set_constant(L, cs[0], 7));
    CHECK_OK(moa_layout_cancel_animations(L));
    CHECK_OK(moa_layout_advance(L, 3));
    CHECK_STR(log.text, "a:0 b:0");
    CHECK_OK(moa_lcons_constant(L, cs[0], &k));
    CHECK_NEAR(k, 7);
    CHECK_OK(moa_lcons_constant(L, cs[1], &k));
    CHECK_NEAR(k, 10);
    moa_layout_free(L);
}

/* ---------------------------------------------------------------------------- callbacks that re-enter */

typedef struct {
    moa_lcons c;
    int calls;
    moa_status advance;
    moa_status seek;
    moa_status animate;
    moa_status read;
    moa_rect frame;
    int chained_done;
} reentry;

static void on_chained(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L, (void)a;
    reentry *r = ud;
    r->chained_done = finished ? 1 : -1;
}

static void on_reenter(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)a, (void)finished;
    reentry *r = ud;
    r->calls++;
    r->advance = moa_layout_advance(L, 0.1);
    r->seek = moa_layout_seek(L, 10);
    moa_view v = 0;
    CHECK_OK(moa_view_find(L, "a", &v));
    r->read = moa_view_frame(L, v, &r->frame); /* sees this frame, solved */
    r->animate = moa_lcons_animate(L, r->c, 0, 0.2, MOA_LINEAR, 0, on_chained, r, NULL);
}

typedef struct {
    int calls;
    int finished;
    moa_status after_free;
    int *order;
    int *norder;
    int tag;
} freeing;

static void on_free(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)a;
    freeing *f = ud;
    f->calls++;
    f->finished = finished;
    if (f->order) f->order[(*f->norder)++] = f->tag;
    if (f->tag == 1) {
        moa_layout_free(L); /* deferred until moa_layout_advance returns */
        moa_layout_free(L); /* a second free while pending is ignored */
        double t;
        f->after_free = moa_layout_time(L, &t);
    } else {
        double t;
        f->after_free = moa_layout_time(L, &t);
    }
}

static void test_reentry(void) {
    moa_lcons cs[4];
    moa_layout *L = make_four(cs);
    reentry r = {cs[0], 0, -1, -1, -1, -1, {0, 0, 0, 0}, 0};
    CHECK_OK(moa_lcons_animate(L, cs[0], 40, 0.1, MOA_LINEAR, 0, on_reenter, &r, NULL));
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK(r.calls == 1);
    CHECK(r.advance == MOA_MISUSE);
    CHECK(r.seek == MOA_MISUSE);
    CHECK(r.read == MOA_OK);
    CHECK_NEAR(r.frame.x, 40);
    CHECK(r.animate == MOA_OK);
    CHECK_STR(moa_layout_errmsg(L), "not an error"); /* the outer call's outcome */
    double t = 0;
    CHECK_OK(moa_layout_time(L, &t));
    CHECK_NEAR(t, 0.1); /* the refused seek did not move the clock */
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK_RECT(frame_of(L, "a"), 20, 0, 0, 0); /* the chained animation started at the frame's time */
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK(r.chained_done == 1);
    CHECK_RECT(frame_of(L, "a"), 0, 0, 0, 0);
    moa_layout_free(L);

    /* A completion frees the layout: the free waits for moa_layout_advance to return; completions due in the
    ** same frame are still called; completions not due yet are called at the free, with finished = 0; calls
    ** on the layout from then on give MOA_MISUSE. Nothing crashes (valgrind/ASan-clean by design). */
    L = make_four(cs);
    int order[8];
    int norder = 0;
    freeing f1 = {0, -1, -1, order, &norder, 1}, f2 = {0, -1, -1, order, &norder, 2};
    freeing f3 = {0, -1, -1, order, &norder, 3};
    CHECK_OK(moa_lcons_animate(L, cs[0], 10, 0.1, MOA_LINEAR, 0, on_free, &f1, NULL));
    CHECK_OK(moa_lcons_animate(L, cs[1], 10, 0.1, MOA_LINEAR, 0, on_free, &f2, NULL)); /* same frame */
    CHECK_OK(moa_lcons_animate(L, cs[2], 10, 5.0, MOA_LINEAR, 0, on_free, &f3, NULL)); /* not due */
    CHECK_OK(moa_layout_advance(L, 0.2)); /* the free happens as this returns */
    CHECK(f1.calls == 1 && f1.finished == 1 && f1.after_free == MOA_MISUSE);
    CHECK(f2.calls == 1 && f2.finished == 1 && f2.after_free == MOA_MISUSE);
    CHECK(f3.calls == 1 && f3.finished == 0 && f3.after_free == MOA_MISUSE);
    CHECK(norder == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3);

    /* A plain free with animations pending calls their completions (finished = 0), once each. */
    L = make_four(cs);
    freeing g = {0, -1, -1, NULL, NULL, 2};
    done_log log = {"", {0}, 0};
    done_tag delayed = {&log, "delayed"};
    CHECK_OK(moa_lcons_animate(L, cs[0], 10, 1, MOA_LINEAR, 0, on_free, &g, NULL));
    CHECK_OK(moa_lcons_animate(L, cs[1], 10, 1, MOA_LINEAR, 3, on_done, &delayed, NULL));
    CHECK_OK(moa_layout_advance(L, 0.5));
    moa_layout_free(L);
    CHECK(g.calls == 1 && g.finished == 0 && g.after_free == MOA_MISUSE);
    CHECK_STR(log.text, "delayed:0");
}

/* A debug callback that frees its layout: deferred too. */
static void on_debug_free(const char *text, void *ud) {
    (void)text;
    moa_layout *L = ud;
    moa_layout_free(L);
    moa_lcons c = 0;
    CHECK_STATUS(moa_layout_eq(L, "a.top == 0", &c), MOA_MISUSE);
}

static void test_debug_free(void) {
    moa_layout *L = moa_layout_new(10, 10);
    moa_view v;
    CHECK_OK(moa_view_new(L, "a", 0, &v));
    CHECK_OK(moa_layout_set_debug_callback(L, on_debug_free, L));
    moa_lcons c = 0;
    CHECK_OK(moa_layout_eq(L, "a.left == 0 ?", &c)); /* frees L as it returns */
    CHECK(c != 0);
}

/* ----------------------------------------------------------------------------------------------- pan */

typedef struct {
    double rest[8];
    int finished[8];
    int count;
    moa_pan pan;
} rest_log;

static void on_rest(moa_layout *L, moa_pan p, double rest, int finished, void *ud) {
    (void)L;
    rest_log *log = ud;
    if (log->count < 8) {
        log->rest[log->count] = rest;
        log->finished[log->count] = finished;
    }
    log->count++;
    log->pan = p;
}

/* The calculator: two 320-wide panels side by side below a display, both moved by one offset; rest positions
** 0 (basic shown) and -320 (advanced shown). */
static moa_layout *make_calculator(moa_pan *pan) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view v;
    CHECK_OK(moa_view_new(L, "display", 0, &v));
    CHECK_OK(moa_view_new(L, "basic", 0, &v));
    CHECK_OK(moa_view_new(L, "advanced", 0, &v));
    moa_lcons cs[16];
    size_t n;
    CHECK_OK(moa_layout_eqs(L,
                            "display.left == 0\ndisplay.right == 0\ndisplay.top == 0\ndisplay.height == 160\n"
                            "basic.left == 0\nadvanced.left == 320\n"
                            "basic.width == root.width\nadvanced.width == root.width\n"
                            "basic.top == display.bottom\nadvanced.top == display.bottom\n"
                            "basic.bottom == 0\nadvanced.bottom == 0\n",
                            cs, 16, &n));
    CHECK_OK(moa_layout_solve(L, NULL));
    double rest[2] = {0, -320};
    CHECK_OK(moa_pan_new(L, &cs[4], 2, MOA_HORIZONTAL, rest, 2, pan));
    return L;
}

static void check_offset(moa_layout *L, double offset) {
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "basic"), offset, 160, 320, 320);
    CHECK_RECT(frame_of(L, "advanced"), 320 + offset, 160, 320, 320);
}

static void test_pan(void) {
    moa_pan pan = 0;
    moa_layout *L = make_calculator(&pan);
    rest_log log = {{0}, {0}, 0, 0};
    int accepted = -1;
    double target = NAN, x = NAN;

    /* Drag slowly left by 100 and release slowly: follows the finger, then snaps back to 0 with the default
    ** curve, easeInOut (UIKit's default), over 0.3 s; at 0.15 s (half the duration) the offset is halfway. */
    CHECK_OK(moa_pan_began(L, pan, &accepted));
    CHECK(accepted == 1);
    CHECK_OK(moa_pan_changed(L, pan, -30, -100, &accepted));
    check_offset(L, -30);
    CHECK_OK(moa_pan_changed(L, pan, -80, -150, NULL));
    check_offset(L, -80);
    CHECK_OK(moa_pan_changed(L, pan, -100, -50, NULL));
    check_offset(L, -100);
    CHECK_OK(moa_pan_offset(L, pan, &x));
    CHECK_NEAR(x, -100);
    CHECK_OK(moa_pan_ended(L, pan, -50, on_rest, &log, &target, &accepted));
    CHECK(accepted == 1);
    CHECK_NEAR(target, 0);
    CHECK_OK(moa_layout_seek(L, 0.15));
    CHECK_RECT(frame_of(L, "basic"), -50, 160, 320, 320);
    CHECK_RECT(frame_of(L, "advanced"), 270, 160, 320, 320);
    CHECK(log.count == 0);
    CHECK_OK(moa_layout_seek(L, 0.3));
    check_offset(L, 0);
    CHECK(log.count == 1 && log.finished[0] == 1 && log.pan == pan);
    CHECK_NEAR(log.rest[0], 0);
    CHECK_OK(moa_pan_rest_position(L, pan, &x));
    CHECK_NEAR(x, 0);

    /* A fast swipe (> 400 points/s) moves at most 20 per event, and on release snaps over to -320. */
    CHECK_OK(moa_pan_began(L, pan, NULL));
    CHECK_OK(moa_pan_changed(L, pan, -60, -900, NULL));
    check_offset(L, -20);
    CHECK_OK(moa_pan_changed(L, pan, -150, -1200, NULL));
    check_offset(L, -40);
    CHECK_OK(moa_pan_changed(L, pan, -45, -300, NULL)); /* slow again: follows the finger */
    check_offset(L, -45);
    CHECK_OK(moa_pan_ended(L, pan, -1200, on_rest, &log, &target, NULL));
    CHECK_NEAR(target, -320);
    CHECK_OK(moa_layout_advance(L, 0.15));
    CHECK(log.count == 1);
    CHECK_OK(moa_layout_advance(L, 0.15));
    check_offset(L, -320);
    CHECK(log.count == 2 && log.finished[1] == 1);
    CHECK_NEAR(log.rest[1], -320);
    CHECK_OK(moa_pan_rest_position(L, pan, &x));
    CHECK_NEAR(x, -320);

    /* Drag limit: half the root width from where the drag began. */
    CHECK_OK(moa_pan_began(L, pan, NULL));
    CHECK_OK(moa_pan_changed(L, pan, 400, 100, NULL));
    check_offset(L, -160);
    /* A new drag catches a running snap where it is; the interrupted snap reports finished = 0. */
    CHECK_OK(moa_pan_ended(L, pan, 0, on_rest, &log, &target, NULL));
    CHECK_NEAR(target, 0); /* a tie at half the width goes the way it was dragged */
    CHECK_OK(moa_layout_advance(L, 0.1));
    CHECK_OK(moa_pan_began(L, pan, NULL));
    CHECK_OK(moa_layout_advance(L, 0));
    CHECK(log.count == 3 && log.finished[2] == 0);
    CHECK_NEAR(log.rest[2], 0);
    CHECK_OK(moa_pan_cancelled(L, pan, on_rest, &log, &target, &accepted));
    CHECK(accepted == 1);
    CHECK_NEAR(target, 0); /* nearest to where that drag began */
    CHECK_OK(moa_layout_advance(L, 0.3));
    check_offset(L, 0);
    CHECK(log.count == 4 && log.finished[3] == 1);

    /* Gating: disabled, events are ignored (accepted = 0) and nothing moves. */
    CHECK_OK(moa_pan_set_enabled(L, pan, 0));
    CHECK_OK(moa_pan_began(L, pan, &accepted));
    CHECK(accepted == 0);
    CHECK_OK(moa_pan_changed(L, pan, -100, -100, &accepted));
    CHECK(accepted == 0);
    target = 123;
    CHECK_OK(moa_pan_ended(L, pan, -1000, on_rest, &log, &target, &accepted));
    CHECK(accepted == 0 && target == 123);
    CHECK_OK(moa_layout_advance(L, 1));
    check_offset(L, 0);
    CHECK(log.count == 4); /* an ignored release never calls back */
    CHECK_OK(moa_pan_set_enabled(L, pan, 1));

    /* Options: a 50-point drag limit, a 0.1 s linear snap; move outside a gesture. */
    CHECK_OK(moa_pan_set_options(L, pan, 400, 20, 50, 0.1, MOA_LINEAR));
    CHECK_OK(moa_pan_began(L, pan, NULL));
    CHECK_OK(moa_pan_changed(L, pan, -100, -100, NULL));
    check_offset(L, -50);
    CHECK_OK(moa_pan_ended(L, pan, 0, NULL, NULL, &target, NULL));
    CHECK_NEAR(target, 0);
    CHECK_OK(moa_layout_advance(L, 0.05));
    check_offset(L, -25);
    CHECK_OK(moa_layout_advance(L, 0.05));
    CHECK_OK(moa_pan_move(L, pan, -320, 0, on_rest, &log));
    check_offset(L, -320);
    CHECK(log.count == 4);
    CHECK_OK(moa_layout_advance(L, 0));
    CHECK(log.count == 5 && log.finished[4] == 1);
    CHECK_NEAR(log.rest[4], -320);
    /* New rest positions: a slow release snaps to the nearest of them. */
    double rests[3] = {0, -160, -320};
    CHECK_OK(moa_pan_set_rest_positions(L, pan, rests, 3));
    CHECK_OK(moa_pan_set_options(L, pan, 400, 20, MOA_AUTO, 0.3, MOA_EASE_OUT));
    CHECK_OK(moa_pan_began(L, pan, NULL));
    CHECK_OK(moa_pan_changed(L, pan, 130, 10, NULL));
    CHECK_OK(moa_pan_ended(L, pan, 0, NULL, NULL, &target, NULL));
    CHECK_NEAR(target, -160);
    CHECK_OK(moa_pan_free(L, pan));
    CHECK_OK(moa_layout_advance(L, 0.3)); /* the snap runs on after the driver is freed */
    check_offset(L, -160);
    moa_layout_free(L);
}

/* Options read back (the defaults first, so a binding can change one and keep the rest), orientation gating
** (the calculator pans in portrait only) and a rotation that ends a drag. */
static void test_pan_options_and_orientations(void) {
    moa_pan pan = 0;
    moa_layout *L = make_calculator(&pan);
    double fv = NAN, fs = NAN, dl = NAN, sd = NAN;
    moa_curve sc = -1, spring = -1;
    int accepted = -1, orientation = 0;

    CHECK_OK(moa_pan_options(L, pan, &fv, &fs, &dl, &sd, &sc));
    CHECK(fv == 400 && fs == 20 && dl == MOA_AUTO && sd == 0.3 && sc == MOA_EASE_IN_OUT);
    CHECK_OK(moa_pan_options(L, pan, NULL, NULL, NULL, NULL, NULL));
    CHECK_OK(moa_layout_spring_curve(L, 0.7, 0.4, NULL, &spring));
    CHECK_OK(moa_pan_set_options(L, pan, 500, 10, 100, 0.5, spring));
    CHECK_OK(moa_pan_options(L, pan, &fv, &fs, &dl, &sd, &sc));
    CHECK(fv == 500 && fs == 10 && dl == 100 && sd == 0.5 && sc == spring);
    CHECK_OK(moa_pan_set_options(L, pan, 400, 20, MOA_AUTO, 0.3, MOA_KEYBOARD_CURVE));
    CHECK_OK(moa_pan_options(L, pan, NULL, NULL, &dl, NULL, &sc));
    CHECK(dl == MOA_AUTO && sc == MOA_KEYBOARD_CURVE);
    CHECK_STATUS(moa_pan_options(L, pan + 1000, &fv, NULL, NULL, NULL, NULL), MOA_NOTFOUND);
    CHECK_STATUS(moa_pan_options(NULL, pan, &fv, NULL, NULL, NULL, NULL), MOA_MISUSE);

    CHECK_OK(moa_layout_orientation(L, &orientation));
    CHECK(orientation == MOA_PORTRAIT);
    CHECK_STATUS(moa_layout_orientation(L, NULL), MOA_MISUSE);
    CHECK_STATUS(moa_pan_set_orientations(L, pan, 0), MOA_INVALID);
    CHECK_STATUS(moa_pan_set_orientations(L, pan, 4), MOA_INVALID);
    CHECK_OK(moa_pan_set_orientations(L, pan, MOA_PORTRAIT));
    CHECK_OK(moa_layout_set_root_size(L, 480, 320));
    CHECK_OK(moa_layout_orientation(L, &orientation));
    CHECK(orientation == MOA_LANDSCAPE);
    CHECK_OK(moa_pan_began(L, pan, &accepted));
    CHECK(accepted == 0);
    CHECK_OK(moa_layout_set_root_size(L, 320, 480));
    CHECK_OK(moa_pan_began(L, pan, &accepted));
    CHECK(accepted == 1);
    CHECK_OK(moa_pan_changed(L, pan, -200, -100, &accepted));
    check_offset(L, -160);
    CHECK_OK(moa_layout_set_root_size(L, 480, 320)); /* rotated mid-drag: the next event ends it */
    CHECK_OK(moa_pan_changed(L, pan, -10, 0, &accepted));
    CHECK(accepted == 0);
    /* Ignored events still check their numbers (found by the fuzzer). */
    CHECK_STATUS(moa_pan_changed(L, pan, NAN, 0, &accepted), MOA_INVALID);
    CHECK_STATUS(moa_pan_ended(L, pan, INFINITY, NULL, NULL, NULL, &accepted), MOA_INVALID);
    CHECK_OK(moa_layout_set_root_size(L, 320, 480));
    CHECK_OK(moa_layout_advance(L, 0.3));
    check_offset(L, -320); /* released slowly past half the width: over to the second panel */
    CHECK_OK(moa_pan_set_orientations(L, pan, MOA_ANY_ORIENTATION));
    CHECK_OK(moa_layout_set_root_size(L, 480, 320));
    CHECK_OK(moa_pan_began(L, pan, &accepted));
    CHECK(accepted == 1);
    moa_layout_free(L);
}

/* ------------------------------------------------------------------------------- keyboard, root, priority */

static void test_keyboard_and_root(void) {
    moa_layout *L = moa_layout_new(320, 480);
    moa_view form;
    CHECK_OK(moa_view_new(L, "form", 0, &form));
    moa_lcons cs[4];
    size_t n;
    CHECK_OK(moa_layout_eqs(L, "form.left == 0\nform.right == 0\nform.top == 0\nform.bottom == keyboard.top - 8\n",
                            cs, 4, &n));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "form"), 0, 0, 320, 472);
    done_log log = {"", {0}, 0};
    done_tag shown = {&log, "shown"}, hidden = {&log, "hidden"};
    moa_animation a = 0;
    CHECK_OK(moa_layout_show_keyboard(L, 216, 0.25, MOA_EASE_IN_OUT, on_done, &shown, &a));
    CHECK(a != 0);
    CHECK_OK(moa_layout_advance(L, 0.125));
    CHECK_RECT(frame_of(L, "form"), 0, 0, 320, 364); /* halfway: 472 - 108 */
    CHECK_OK(moa_layout_advance(L, 0.125));
    CHECK_RECT(frame_of(L, "form"), 0, 0, 320, 256);
    CHECK_RECT(frame_of(L, "keyboard"), 0, 264, 320, 216);
    CHECK_STR(log.text, "shown:1");
    CHECK_OK(moa_layout_hide_keyboard(L, 0.25, MOA_EASE_IN_OUT, on_done, &hidden, NULL));
    CHECK_OK(moa_layout_advance(L, 0.25));
    CHECK_RECT(frame_of(L, "form"), 0, 0, 320, 472);
    CHECK_STR(log.text, "shown:1 hidden:1");

    /* Root size: 320 x 480 to 480 x 320, linear over 1 s; halfway 400 x 400. */
    CHECK_OK(moa_layout_animate_root_size(L, 480, 320, 1, MOA_LINEAR, 0, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance(L, 0.5));
    CHECK_RECT(frame_of(L, "root"), 0, 0, 400, 400);
    CHECK_RECT(frame_of(L, "form"), 0, 0, 400, 392);
    CHECK_OK(moa_layout_advance(L, 0.5));
    double w = 0, h = 0;
    CHECK_OK(moa_layout_root_size(L, &w, &h));
    CHECK_NEAR(w, 480);
    CHECK_NEAR(h, 320);

    /* Priority: of two optional widths the higher priority wins; animate the lower one past the other. */
    moa_view chip;
    CHECK_OK(moa_view_new(L, "chip", 0, &chip));
    moa_lcons narrow, wide;
    CHECK_OK(moa_layout_eqs(L, "chip.left == 0\nchip.top == 0\nchip.height == 10\n", cs, 4, &n));
    CHECK_OK(moa_layout_eq(L, "chip.width == 100 @ 200", &narrow));
    CHECK_OK(moa_layout_eq(L, "chip.width == 300 @ 300", &wide));
    CHECK_OK(moa_layout_solve(L, NULL));
    CHECK_RECT(frame_of(L, "chip"), 0, 0, 300, 10);
    done_tag prio = {&log, "priority"};
    CHECK_OK(moa_lcons_animate_priority(L, narrow, 400, 1, MOA_LINEAR, 0, on_done, &prio, NULL));
    CHECK_OK(moa_layout_advance(L, 0.25)); /* 250 */
    CHECK_RECT(frame_of(L, "chip"), 0, 0, 300, 10);
    CHECK_OK(moa_layout_advance(L, 0.5)); /* 350 */
    CHECK_RECT(frame_of(L, "chip"), 0, 0, 100, 10);
    double p = 0;
    CHECK_OK(moa_lcons_priority(L, narrow, &p));
    CHECK_NEAR(p, 350);
    CHECK_OK(moa_layout_advance(L, 0.25));
    CHECK_OK(moa_lcons_priority(L, narrow, &p));
    CHECK_NEAR(p, 400);
    CHECK_STR(log.text, "shown:1 hidden:1 priority:1");
    moa_layout_free(L);
}

/* A spring settles on its target (its duration is ignored); the completion fires once. */
static void test_spring(void) {
    moa_lcons cs[4];
    moa_layout *L = make_four(cs);
    moa_curve bouncy = 0;
    double v0 = 0;
    CHECK_OK(moa_layout_spring_curve(L, 0.5, 0.3, &v0, &bouncy));
    done_log log = {"", {0}, 0};
    done_tag tag = {&log, "spring"};
    CHECK_OK(moa_lcons_animate(L, cs[0], 100, 0, bouncy, 0, on_done, &tag, NULL));
    double maxk = 0;
    int frames = 0, animating = 1;
    while (animating && frames < 6000) {
        CHECK_OK(moa_layout_advance(L, 1.0 / 60));
        double k = 0;
        CHECK_OK(moa_lcons_constant(L, cs[0], &k));
        if (k > maxk) maxk = k;
        CHECK_OK(moa_layout_is_animating(L, &animating));
        frames++;
    }
    CHECK(frames > 10 && frames < 6000);
    CHECK(maxk > 100); /* damping ratio 0.5 overshoots */
    CHECK_RECT(frame_of(L, "a"), 100, 0, 0, 0);
    CHECK_STR(log.text, "spring:1");
    /* MOA_SPRING: the default spring. */
    CHECK_OK(moa_lcons_animate(L, cs[1], 50, 123, MOA_SPRING, 0, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance(L, 30));
    CHECK_RECT(frame_of(L, "b"), 50, 0, 0, 0);
    moa_layout_free(L);
}

/* ------------------------------------------------------------------------------------------------ traces */

static void test_trace(void) {
    moa_collapsible col = 0;
    moa_layout *L = make_sidebar(&col);
    const char *s = NULL;
    CHECK_OK(moa_layout_trace_csv(L, &s)); /* nothing recorded: the header only */
    CHECK_STR(s, "time,view,superview,x,y,width,height,rootX,rootY\n");
    CHECK_OK(moa_layout_trace_start(L, 0));
    CHECK_OK(moa_collapsible_set(L, col, 1, 1, 0.3, MOA_EASE_IN_OUT, NULL, NULL, NULL));
    CHECK_OK(moa_layout_advance(L, 0.15));
    CHECK_OK(moa_layout_advance(L, 0.15));
    CHECK_OK(moa_layout_advance(L, 0.15));
    CHECK_OK(moa_layout_trace_csv(L, &s)); /* while recording */
    CHECK(count_of(s, "\n") == 1 + 4 * 3);
    CHECK_OK(moa_layout_trace_stop(L));
    CHECK_OK(moa_layout_advance(L, 0.15)); /* not recorded */
    CHECK_OK(moa_layout_trace_csv(L, &s));
    CHECK(count_of(s, "\n") == 1 + 4 * 3); /* 4 frames (start + 3 advances) x root, sidebar, content */
    CHECK_CONTAINS(s, "time,view,superview,x,y,width,height,rootX,rootY\n0,root,,0,0,320,480,0,0\n");
    CHECK_CONTAINS(s, "0.15,sidebar,root,-100,0,200,480,-100,0\n");
    CHECK_CONTAINS(s, "0.3,content,root,0,0,320,480,0,0\n");
    CHECK_OK(moa_layout_trace_json(L, &s));
    CHECK(strncmp(s, "{\"frames\":[\n", 12) == 0);
    CHECK(count_of(s, "\"time\":") == 4);
    CHECK_CONTAINS(s, "{\"name\":\"sidebar\",\"superview\":\"root\",\"frame\":{\"x\":-100,\"y\":0,\"width\":200,\"height\":480}");
    CHECK_OK(moa_layout_trace_svg_strip(L, 0, 0, &s));
    CHECK(strncmp(s, "<svg", 4) == 0);
    CHECK(count_of(s, "class=\"frame\"") == 4);
    CHECK_CONTAINS(s, "t = 0.15 s");
    CHECK_OK(moa_layout_trace_svg_strip(L, 2, MOA_SVG_NO_LABELS, &s));
    CHECK(count_of(s, "class=\"frame\"") == 2);
    CHECK_CONTAINS(s, "data-time=\"0\"");
    CHECK_CONTAINS(s, "data-time=\"0.45\"");
    CHECK(count_of(s, "</text>") == 2); /* the time labels only */
    /* With guides, from a restart. */
    CHECK_OK(moa_layout_trace_start(L, 1));
    CHECK_OK(moa_layout_trace_csv(L, &s));
    CHECK(count_of(s, "\n") == 1 + 6);
    CHECK_CONTAINS(s, ",keyboard,root,0,480,320,0,0,480\n");
    moa_layout_free(L);
}

int main(void) {
    test_collapse_golden();
    test_completion_order();
    test_reentry();
    test_debug_free();
    test_pan();
    test_pan_options_and_orientations();
    test_keyboard_and_root();
    test_spring();
    test_trace();
    return CHECK_DONE();
}
