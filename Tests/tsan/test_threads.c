/*
** test_threads.c -- separate layouts and solvers on separate threads share nothing (moa.h, "Threads").
**
** Each worker thread creates its own layout and solver, drives them (equations, solve, conflicts, animations
** with completions, advance, pan, remove, raw-solver edits) and frees them, many rounds over; every observed
** number is folded into a checksum. The same work is first done on the main thread alone; each thread's
** checksum must equal that reference bit for bit, and no error message may leak between handles.
**
** `make test-threads` runs this against build/lib/libmoa.so; `make test-tsan` against a libmoa built with
** ThreadSanitizer (swift build --sanitize=thread), where any data race in the library fails the run.
**
** Usage: test_threads [threads [rounds]] (defaults 4 and 6); test_threads --race-canary (TSan builds only: a
** deliberate race on one layout that ThreadSanitizer must report).
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moa.h"

/* FNV-1a over the bytes of what was observed. */
typedef struct {
    uint64_t h;
    int errors; /* unexpected statuses and messages seen by this thread */
    int id;
} run;

static void mix(run *r, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) r->h = (r->h ^ b[i]) * 1099511628211ULL;
}
static void mixd(run *r, double d) { mix(r, &d, sizeof d); }
static void mixs(run *r, const char *s) { mix(r, s, strlen(s) + 1); }

static void expect(run *r, moa_status got, moa_status want, const char *what, int line) {
    if (got != want) {
        r->errors++;
        fprintf(stderr, "thread %d: line %d: %s returned %d (%s), want %d\n", r->id, line, what, got,
                moa_errstr(got), want);
    }
    mix(r, &got, sizeof got);
}
#define EXPECT(r, call, want) expect((r), (call), (want), #call, __LINE__)

static void done_count(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L, (void)a;
    run *r = ud;
    mixd(r, finished ? 1.0 : -1.0);
}

static void rest_count(moa_layout *L, moa_pan p, double rest, int finished, void *ud) {
    (void)L, (void)p;
    run *r = ud;
    mixd(r, rest);
    mixd(r, finished);
}

static void mix_frames(run *r, moa_layout *L) {
    moa_frame f[32];
    size_t n = 0;
    EXPECT(r, moa_layout_frames(L, 1, f, 32, &n), MOA_OK);
    for (size_t i = 0; i < n && i < 32; i++) {
        mixd(r, f[i].frame_in_root.x);
        mixd(r, f[i].frame_in_root.y);
        mixd(r, f[i].frame_in_root.width);
        mixd(r, f[i].frame_in_root.height);
    }
}

/* One round of layout work; `k` varies the numbers so rounds differ. */
static void layout_round(run *r, int k) {
    moa_layout *L = moa_layout_new(320 + k, 480);
    moa_view side, content, row;
    moa_lcons cs[16], c;
    size_t n = 0;
    char eq[64];
    EXPECT(r, moa_view_new(L, "side", 0, &side), MOA_OK);
    EXPECT(r, moa_view_new(L, "content", 0, &content), MOA_OK);
    EXPECT(r, moa_view_new(L, "row", content, &row), MOA_OK);
    EXPECT(r, moa_layout_eqs(L,
                             "side.left == 0\nside.top == 0\nside.bottom == 0\nside.width == 120 @ high\n"
                             "content.left == side.right + 8\ncontent.right == 0\ncontent.top == safeArea.top\n"
                             "content.bottom == keyboard.top\nrow.left == 8\nrow.right == -8\nrow.top == 8\n"
                             "row.height >= 44\nrow.width >= 400 @ low",
                             cs, 16, &n),
           MOA_OK);
    EXPECT(r, moa_layout_solve(L, NULL), MOA_OK);
    mix_frames(r, L);
    /* Failures: their messages belong to this layout alone. */
    EXPECT(r, moa_layout_eq(L, "side.height == 900", &c), MOA_UNSATISFIABLE);
    mixs(r, moa_layout_errmsg(L));
    EXPECT(r, moa_layout_eq(L, "sied.left == 0", &c), MOA_PARSE);
    if (!strstr(moa_layout_errmsg(L), "sied")) r->errors++;
    snprintf(eq, sizeof eq, "side.width == %d @ high", 100 + k);
    EXPECT(r, moa_layout_eq(L, eq, &c), MOA_OK);
    if (c != cs[3]) r->errors++; /* the re-issued equation updates its constraint */
    /* Motion: an animation with a completion, the keyboard, a pan with a snap. */
    EXPECT(r, moa_lcons_animate(L, cs[3], 60, 0.3, MOA_EASE_IN_OUT, 0, done_count, r, NULL), MOA_OK);
    EXPECT(r, moa_layout_show_keyboard(L, 200 + k, 0.25, MOA_EASE_IN_OUT, done_count, r, NULL), MOA_OK);
    for (int i = 0; i < 8; i++) {
        EXPECT(r, moa_layout_advance(L, 1.0 / 60), MOA_OK);
        mix_frames(r, L);
    }
    moa_pan pan;
    double rest[2] = {0, -100};
    EXPECT(r, moa_pan_new(L, &cs[0], 1, MOA_HORIZONTAL, rest, 2, &pan), MOA_OK);
    EXPECT(r, moa_pan_began(L, pan, NULL), MOA_OK);
    EXPECT(r, moa_pan_changed(L, pan, -30 - k, -50, NULL), MOA_OK);
    EXPECT(r, moa_pan_ended(L, pan, -900, rest_count, r, NULL, NULL), MOA_OK);
    for (int i = 0; i < 30; i++) EXPECT(r, moa_layout_advance(L, 1.0 / 60), MOA_OK);
    mix_frames(r, L);
    /* Remove and re-add. */
    EXPECT(r, moa_view_free(L, row), MOA_OK);
    EXPECT(r, moa_view_free(L, row), MOA_NOTFOUND);
    EXPECT(r, moa_lcons_remove(L, cs[5]), MOA_OK);
    EXPECT(r, moa_view_new(L, "row", side, &row), MOA_OK);
    EXPECT(r, moa_layout_eqs(L, "row.pin == 4", NULL, 0, &n), MOA_OK);
    EXPECT(r, moa_layout_solve(L, NULL), MOA_OK);
    mix_frames(r, L);
    const char *svg = NULL;
    EXPECT(r, moa_layout_svg(L, MOA_SVG_GUIDES, &svg), MOA_OK);
    mixs(r, svg);
    /* A pending completion is called by the free. */
    EXPECT(r, moa_lcons_animate(L, cs[0], 10, 5, MOA_LINEAR, 0, done_count, r, NULL), MOA_OK);
    moa_layout_free(L);
}

/* One round of raw-solver work: a chain with an edit variable dragged around. */
static void solver_round(run *r, int k) {
    moa_solver *s = moa_solver_new();
    moa_var v[12];
    moa_cons c;
    for (int i = 0; i < 12; i++) EXPECT(r, moa_var_new(s, NULL, &v[i]), MOA_OK);
    moa_term t0 = {v[0], 1};
    EXPECT(r, moa_solver_add(s, &t0, 1, 0, MOA_GE, MOA_REQUIRED, NULL, &c), MOA_OK);
    for (int i = 1; i < 12; i++) {
        moa_term t[2] = {{v[i], 1}, {v[i - 1], -1}};
        EXPECT(r, moa_solver_add(s, t, 2, -10, MOA_GE, MOA_REQUIRED, NULL, &c), MOA_OK);
        EXPECT(r, moa_solver_add(s, t, 2, -(10.0 + i + k), MOA_EQ, MOA_LOW, NULL, &c), MOA_OK);
    }
    moa_term tl = {v[11], 1};
    EXPECT(r, moa_solver_add(s, &tl, 1, -300, MOA_LE, MOA_REQUIRED, "limit", &c), MOA_OK);
    EXPECT(r, moa_solver_add(s, &tl, 1, -100, MOA_LE, MOA_REQUIRED, NULL, &c), MOA_UNSATISFIABLE);
    mixs(r, moa_solver_errmsg(s));
    EXPECT(r, moa_solver_add_edit(s, v[5], MOA_HIGH), MOA_OK);
    for (int step = 0; step < 40; step++) {
        EXPECT(r, moa_solver_suggest(s, v[5], (double)(step * 7 % 200)), MOA_OK);
        EXPECT(r, moa_solver_update(s), MOA_OK);
        for (int i = 0; i < 12; i++) {
            double x = 0;
            EXPECT(r, moa_var_value(s, v[i], &x), MOA_OK);
            mixd(r, x);
        }
    }
    EXPECT(r, moa_var_value(s, 0, &(double){0}), MOA_NOTFOUND);
    mixs(r, moa_solver_errmsg(s));
    moa_solver_free(s);
}

typedef struct {
    run r;
    int rounds;
    pthread_t tid;
} worker;

static void work(run *r, int rounds) {
    for (int k = 0; k < rounds; k++) {
        layout_round(r, k);
        solver_round(r, k);
        mixs(r, moa_errstr(MOA_PARSE)); /* static strings, read from every thread */
    }
}

static void *thread_main(void *arg) {
    worker *w = arg;
    work(&w->r, w->rounds);
    return NULL;
}

/* The canary for `make test-tsan`: two threads on ONE layout, the misuse moa.h calls undefined. Only for a
   ThreadSanitizer build, which must report it (proving the library is instrumented); never run it otherwise. */
static void *race_main(void *arg) {
    moa_layout *L = arg;
    moa_lcons c = 0;
    for (int i = 0; i < 200; i++) {
        moa_layout_eq(L, i % 2 ? "a.left == 10" : "a.left == 20", &c);
        moa_layout_solve(L, NULL);
    }
    return NULL;
}

static int race(void) {
    moa_layout *L = moa_layout_new(100, 100);
    moa_view a;
    pthread_t t1, t2;
    moa_view_new(L, "a", 0, &a);
    pthread_create(&t1, NULL, race_main, L);
    pthread_create(&t2, NULL, race_main, L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    moa_layout_free(L);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--race-canary") == 0) return race();
    int nthreads = argc > 1 ? atoi(argv[1]) : 4;
    int rounds = argc > 2 ? atoi(argv[2]) : 6;
    if (nthreads < 1 || nthreads > 64 || rounds < 1) {
        fprintf(stderr, "usage: test_threads [threads (1-64) [rounds]]\n");
        return 2;
    }
    run ref = {14695981039346656037ULL, 0, -1};
    work(&ref, rounds);
    if (ref.errors) {
        fprintf(stderr, "FAIL: the single-threaded reference run saw %d unexpected results\n", ref.errors);
        return 1;
    }
    worker *ws = calloc((size_t)nthreads, sizeof *ws);
    if (!ws) return 1;
    for (int i = 0; i < nthreads; i++) {
        ws[i].r = (run){14695981039346656037ULL, 0, i};
        ws[i].rounds = rounds;
        if (pthread_create(&ws[i].tid, NULL, thread_main, &ws[i]) != 0) {
            fprintf(stderr, "FAIL: pthread_create\n");
            return 1;
        }
    }
    int bad = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(ws[i].tid, NULL);
        if (ws[i].r.errors || ws[i].r.h != ref.h) {
            fprintf(stderr, "FAIL: thread %d: checksum %016llx, reference %016llx, %d unexpected results\n", i,
                    (unsigned long long)ws[i].r.h, (unsigned long long)ref.h, ws[i].r.errors);
            bad++;
        }
    }
    free(ws);
    if (bad) return 1;
    printf("ok: %d threads x %d rounds, each its own layouts and solvers, all equal to the single-threaded run "
           "(checksum %016llx)\n", nthreads, rounds, (unsigned long long)ref.h);
    return 0;
}
