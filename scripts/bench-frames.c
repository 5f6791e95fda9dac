/*
** bench-frames.c -- the screen of `moa-bench --frames N` (Sources/moa-bench/Frames.swift) built and animated
** through moa.h, the baseline the Lua and Python frames benchmarks (scripts/bench-frames.lua, .py) are measured
** against: the same views, equations and animations, and each frame made the way a C host would, with
** moa_layout_advance_frames() into an array the caller keeps (reading each moved view's root x).
**
**     build/bin/bench-frames N [--bulk] [--rounds R]     (make bench-frames builds it and runs all three)
**
** Prints, like moa-bench: `phase build ns=T` (views, intrinsic sizes, one moa_layout_eqs, first solve; --bulk
** makes the rows and their sizes in one moa_views_new call, as the Python script does; otherwise a call per
** view, as the Lua script does), then `phase CASE ns=T` per frame for each case (all: every view moves, eight,
** one): each case animates its constants there and back R times (default 5), 60 frames each way, and the
** fastest round counts (a round of 60 one-view frames is 0.1 ms: one alone is noise). CPU time
** (CLOCK_PROCESS_CPUTIME_ID), as Lua's os.clock. Exit status 1 on any failed call.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "moa.h"

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static moa_layout *layout;

static void check(moa_status st, const char *what) {
    if (st == MOA_OK) return;
    fprintf(stderr, "bench-frames: %s: %s\n", what, moa_layout_errmsg(layout));
    exit(1);
}

/* Appends to a growing text buffer. */
typedef struct { char *s; size_t len, cap; } Text;
static void put(Text *t, const char *line) {
    size_t n = strlen(line);
    if (t->len + n + 2 > t->cap) {
        t->cap = (t->len + n + 2) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) { fprintf(stderr, "bench-frames: out of memory\n"); exit(1); }
    }
    memcpy(t->s + t->len, line, n);
    t->len += n;
    t->s[t->len++] = '\n';
    t->s[t->len] = 0;
}

/* Ends the animations of the previous case, untimed (60 steps of 1/60 s add up to a hair under 1 s). */
static void settle(void) {
    int animating = 1;
    while (check(moa_layout_is_animating(layout, &animating), "is_animating"), animating)
        check(moa_layout_advance(layout, 1.0 / 60), "advance");
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 10000;
    int bulk = 0, rounds = 5;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--bulk") == 0) bulk = 1;
        else if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc) rounds = atoi(argv[++a]);
    }
    if (rounds < 1) rounds = 1;
    long rows = n - 3 > 1 ? n - 3 : 1, i, k;
    static const char *head[] = {
        "sidebar.left == 0", "sidebar.top == 0", "sidebar.bottom == 0", "sidebar.width == 240",
        "content.left == sidebar.right", "content.right == 0", "content.top == 0",
        "badge.top == content.top + 8", "badge.right == content.right - 8", "badge.width == 24",
        "badge.height == 24",
    };
    Text text = {0};
    char line[96];
    moa_view content, v, *ids;
    moa_lcons *cs;
    long *gaps, ngaps = 0, nlines = 11;
    size_t count = 0, cap;
    moa_frame *frames;
    double t0 = now_ns(), read = 0;

    layout = moa_layout_new(1024, 768);
    if (!layout) return 1;
    check(moa_view_new(layout, "sidebar", 0, &v), "view");
    check(moa_view_new(layout, "content", 0, &content), "view");
    check(moa_view_new(layout, "badge", content, &v), "view");
    for (i = 0; i < 11; i++) put(&text, head[i]);
    gaps = malloc(sizeof *gaps * (size_t)rows);
    if (bulk) {
        char **names = malloc(sizeof *names * (size_t)rows);
        double *sizes = malloc(sizeof *sizes * 2 * (size_t)rows);
        ids = malloc(sizeof *ids * (size_t)rows);
        for (i = 0; i < rows; i++) {
            snprintf(line, sizeof line, "row%ld", i);
            names[i] = strdup(line);
            sizes[2 * i] = 80 + i % 7 * 10;
            sizes[2 * i + 1] = 20;
        }
        check(moa_views_new(layout, (const char *const *)names, (size_t)rows, content, sizes, ids), "views");
        for (i = 0; i < rows; i++) free(names[i]);
        free(names);
        free(sizes);
        free(ids);
    }
    for (i = 0; i < rows; i++) {
        if (!bulk) {
            snprintf(line, sizeof line, "row%ld", i);
            check(moa_view_new(layout, line, content, &v), "view");
            check(moa_view_set_intrinsic_size(layout, v, 80 + i % 7 * 10, 20), "intrinsic size");
        }
        snprintf(line, sizeof line, "row%ld.left == content.left + 16", i);
        put(&text, line);
        if (i == 0) snprintf(line, sizeof line, "row0.top == content.top + 8");
        else snprintf(line, sizeof line, "row%ld.top == row%ld.bottom + 4", i, i - 1);
        put(&text, line);
        nlines += 2;
        if (i > 0) gaps[ngaps++] = nlines - 1;
    }
    snprintf(line, sizeof line, "content.bottom >= row%ld.bottom + 8", rows - 1);
    put(&text, line);
    nlines++;
    cs = malloc(sizeof *cs * (size_t)nlines);
    check(moa_layout_eqs(layout, text.s, cs, (size_t)nlines, &count), "eqs");
    check(moa_layout_solve(layout, NULL), "solve");
    printf("phase build ns=%.0f ops=%ld rep=0\n", now_ns() - t0, n);

    cap = (size_t)n + 16;
    frames = malloc(sizeof *frames * cap);
    {
        /* the cases of moa-bench: the sidebar's width to 0 (every view moves), eight row gaps + 12, the badge */
        moa_lcons targets[8];
        double to[8], from[8];
        long step = ngaps / 8 > 1 ? ngaps / 8 : 1;
        const char *names[3] = {"all", "eight", "one"};
        for (int c = 0; c < 3; c++) {
            int nt = 0;
            double best = 0;
            if (c == 0) targets[nt] = cs[0], to[nt++] = -240;
            if (c == 1)
                for (k = 0; k < ngaps && nt < 8; k += step) targets[nt] = cs[gaps[k]], to[nt++] = NAN;
            if (c == 2) targets[nt] = cs[7], to[nt++] = 200;
            for (k = 0; k < nt; k++) {
                check(moa_lcons_constant(layout, targets[k], &from[k]), "constant");
                if (to[k] != to[k]) to[k] = from[k] + 12;
            }
            for (int r = 0; r < rounds; r++) { /* there and back: the same views move in every round */
                double t;
                settle();
                for (k = 0; k < nt; k++)
                    check(moa_lcons_animate(layout, targets[k], r % 2 ? from[k] : to[k], 1.0, MOA_EASE_IN_OUT, 0,
                                            NULL, NULL, NULL), "animate");
                t0 = now_ns();
                for (k = 0; k < 60; k++) {
                    check(moa_layout_advance_frames(layout, 1.0 / 60, frames, cap, &count), "advance_frames");
                    for (size_t j = 0; j < count && j < cap; j++) read += frames[j].frame_in_root.x;
                }
                t = (now_ns() - t0) / 60;
                if (r == 0 || t < best) best = t;
            }
            printf("phase %s ns=%.0f ops=60 rep=0\n", names[c], best);
        }
    }
    if (read != read) fprintf(stderr, "warning: a frame read NaN\n");
    moa_layout_free(layout);
    free(frames);
    free(cs);
    free(gaps);
    free(text.s);
    return 0;
}
