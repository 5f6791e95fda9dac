/*
** soak.c -- soak without growth (issue 18): one long-lived layout per thread, driven by millions of random
** operations, must keep its memory and its cost per operation flat.
**
** Each thread owns a layout (and a raw solver, driven lightly) and runs N operations drawn from its own seeded
** xorshift generator: views added under random parents (a bounded pool, --views, so a steady state exists) with
** the equations that place them, views removed (leaves and small subtrees) and moved, single equations added
** between random live views and removed again (by id, or through moa_layout_xeq() with the text
** moa_lcons_describe() gives), constants, priorities (named points and, sometimes, any value of the range) and
** activity changed, constants and priorities animated with the clock advanced, collapsibles collapsed and shown,
** pan gestures (began / changed / ended with velocities, cancelled, moved), root size changes (at once and
** animated), the keyboard shown and hidden, text set and cleared, solves with the changed frames read back,
** traces started and stopped, and, rarely (they are O(layout)), violations, ambiguities, describe, svg, html and
** fitting sizes. The raw solver gets adds, removals, constants, priorities, edit variables and suggestions,
** updates with the values read back, and variables freed and made again.
**
** Every status must be one moa.h documents for that situation: MOA_UNSATISFIABLE where a required constraint
** may fail (and it must change nothing: moa_layout_usage() / moa_solver_usage() and the constant are compared
** around it), MOA_NOTFOUND where an id is known to be stale, MOA_INVALID for a move that would make a cycle,
** MOA_MISUSE for freeing a solver variable still in use. Anything else (above all MOA_ERROR, or MOA_MISUSE from a
** valid call) is a failure, counted and printed (the first 20); after a MOA_ERROR the raw solver is replaced by
** a new one (counted). Every completion callback given to a successful call must be called exactly once
** (checked after the layout is freed), and the library's counts (views, equation constraints, the solver's
** constraints and variables) must match this program's bookkeeping at every check. When two constraints have
** come to share their sides, relation and priority (a priority change can do that), xeq may remove either:
** that is accepted and counted ("xeq twins").
**
** Every observed number (frames, statuses, callbacks) is folded into a per-thread FNV-1a checksum: the same
** seed gives the same checksums (every random choice is its own statement, so the compiler cannot reorder
** them).
**
** Sampling: the run is cut into tenths; at the end of each, thread 0 reads the heap in use (mallinfo2, every
** arena), hands free memory back to the system (malloc_trim: raw RSS is the allocator's high-water mark, which
** creeps up with rare large blocks long after the live memory is flat) and reads the resident set size
** (/proc/self/statm, before and after the trim); every thread records the wall time of that tenth per operation
** and what its layout and solver hold (views, equation constraints, tableau rows and cells from
** moa_layout_usage() and moa_solver_usage(): costs that do not depend on timing). The time spent in each kind
** of operation in the second and the last tenth is printed too. Criteria (exit status 1):
**   - no unexpected status, no lost or repeated callback, no bookkeeping mismatch;
**   - memory flat: RSS (after the trim) at the end of the last tenth <= 1.10 x that at the end of the second
**     tenth (after warm-up) + 4 MB;
**   - with --check-time only: ns/op of the last tenth <= 2.0 x that of the second (every thread). Without it
**     the ratio is reported, not checked (`make test` runs --quick without it: no timing thresholds in tests).
** With T threads they run at once, each with its own layout, generator and timings; memory is per process and
** is sampled at thread 0's tenth boundaries.
**
** Usage: soak [--ops N] [--threads T] [--seed S] [--views V] [--quick] [--check-time]
**             [--without KIND,... | --only KIND,...]
**   default: 10,000,000 operations on one thread, then 4 threads x 1,000,000 (`make test-soak`);
**   --quick: 200,000 on one thread, then 2 threads x 50,000, at most 100 views (`make test-soak-quick`, in
**     `make test`);
**   --ops / --threads: one run of N operations per thread on T threads (T 1: the main thread) instead;
**   --views V: at most V live views per layout (3 ... 300; default 300, with --quick 100);
**   --without KIND,... / --only KIND,...: never draw those operation kinds / only those (add_view, set_priority,
**     animate_priority, solver, rare, ...; the usage message lists them), to find which kind makes memory or
**     time grow.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime, sysconf */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h> /* mallinfo2, malloc_trim */
#endif

#include "moa.h"

/* ----------------------------------------------------------------------------------------------- limits */

#define MAX_VIEWS 300   /* live views per layout at most (--views); adds turn into removals at the cap */
#define MAX_SUBTREE 16  /* the largest subtree one removal takes */
#define MAX_CONS 4096   /* equation constraints this program tracks (placement + extra) */
#define MAX_EXTRA 600   /* extra equations: adds turn into removals above it */
#define MAP_CAP 16384   /* id -> slot map, a power of two above 2 x MAX_CONS */
#define MAX_COLS 8      /* collapsibles */
#define MAX_PANS 4      /* pan drivers */
#define MAX_TRACE 64    /* frames recorded before a trace is stopped */
#define FRAME_CAP 512   /* frame buffer (views + root) */
#define SVARS 32        /* raw solver: variables */
#define SCONS 64        /* raw solver: constraints */
#define RARE_EVERY 4000 /* about one O(layout) query per this many operations */
#define MAX_PRINTED 20  /* failures printed */

/* ------------------------------------------------------------------------------------------- generator */

static uint64_t splitmix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

typedef struct {
    uint64_t s;
} rng;

static uint64_t rnext(rng *r) { /* xorshift64* */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dULL;
}
static int rbelow(rng *r, int n) { return (int)((rnext(r) >> 33) % (uint64_t)n); }
static int rchance(rng *r, int percent) { return rbelow(r, 100) < percent; }
static double rrange(rng *r, double lo, double hi) {
    return lo + (hi - lo) * (double)(rnext(r) >> 11) * (1.0 / 9007199254740992.0);
}
static double rint_range(rng *r, int lo, int hi) { return (double)(lo + rbelow(r, hi - lo + 1)); }

/* -------------------------------------------------------------------------------------------- bookkeeping */

typedef struct {
    moa_view id;
    int parent;    /* slot of the superview, -1 for the root */
    int nchildren;
    int xc, yc;    /* cons slots of the placement constraints left/top (-1: none) */
    moa_lcons xid, yid;
    int has_text;
    int pos;       /* index in the live list, -1 when the slot is free */
} sview;

typedef struct {
    moa_lcons id;
    int va, vb;         /* view slots the equation names (-1: root, a guide, or none) */
    signed char axis;   /* 0 horizontal, 1 vertical, -1 not known */
    unsigned char active;
    unsigned char placement;
    int pos;            /* index in the live list, -1 when free */
} scons_l;

typedef struct {
    moa_collapsible id;
    int vslot, cslot;
    moa_view vid;
    moa_lcons cid;
} scol;

typedef struct {
    moa_pan id;
    int n;
    int cslot[3];
    moa_lcons cid[3];
    int dragging;
    double translation;
} span;

typedef struct {
    moa_var v;
    int uses;
    int edit;
} ssvar;

typedef struct {
    moa_cons c;
    int vars[3];
    int n;
    double priority;
} sscons;

typedef struct {
    double ns_per_op;
    double rss_mb, raw_rss_mb, heap_mb;
    size_t views, cons, rows, cells;
    size_t srows, scells, svars, scons; /* the raw solver */
} sample;

enum {
    OP_ADD_VIEW, OP_REMOVE_LEAF, OP_REMOVE_SUBTREE, OP_MOVE_VIEW, OP_ADD_EQ, OP_REMOVE_EQ, OP_SET_CONSTANT,
    OP_SET_PRIORITY, OP_SET_ACTIVE, OP_ANIMATE, OP_ANIMATE_PRIORITY, OP_CANCEL, OP_ADVANCE, OP_COLLAPSIBLE, OP_PAN,
    OP_ROOT_SIZE, OP_KEYBOARD, OP_TEXT, OP_SOLVE, OP_SOLVER, OP_TRACE, OP_RARE, OP_COUNT
};
static const char *const op_names[OP_COUNT] = {
    "add_view", "remove_leaf", "remove_subtree", "move_view", "add_eq", "remove_eq", "set_constant", "set_priority",
    "set_active", "animate", "animate_priority", "cancel", "advance", "collapsible", "pan", "root_size", "keyboard",
    "text", "solve", "solver", "trace", "rare"};
/* Weights of the operations (OP_RARE is not drawn: it comes about once per RARE_EVERY operations). */
static int op_weights[OP_COUNT] = {9, 4, 1, 1, 9, 5, 10, 3, 2, 5, 1, 1, 12, 4, 6, 2, 2, 3, 12, 6, 1, 0};
static int rare_on = 1; /* --without rare turns the O(layout) queries off */

typedef struct worker {
    int id;
    uint64_t seed;
    long long ops;
    rng r;
    uint64_t h;        /* checksum */
    long long op;      /* current operation */
    int failures;
    long long unsat;   /* accepted MOA_UNSATISFIABLE */
    long long xeq_twins; /* xeq removed a twin of the constraint described */
    int solver_broken;   /* the raw solver answered MOA_ERROR: it is replaced after the operation */
    long long solver_resets;
    long long opcount[OP_COUNT];
    double opns[2][OP_COUNT]; /* time spent in each kind: in the second tenth, in the last */
    /* callbacks */
    long long done_given, done_calls, rest_given, rest_calls;
    /* the layout */
    moa_layout *L;
    sview views[MAX_VIEWS];
    int live_views[MAX_VIEWS];
    int nviews;
    scons_l cons[MAX_CONS];
    int live_cons[MAX_CONS];
    int ncons, nextra;
    uint64_t map_key[MAP_CAP];
    int map_val[MAP_CAP];
    scol cols[MAX_COLS];
    int ncols;
    span pans[MAX_PANS];
    int npans;
    moa_animation recent[8];
    int tracing, traced;
    moa_curve custom[4];
    moa_frame frames[FRAME_CAP];
    unsigned char mark[MAX_VIEWS];
    /* the raw solver */
    moa_solver *S;
    ssvar svars[SVARS];
    sscons scons[SCONS];
    int nscons;
    /* sampling */
    sample samples[10];
    int sample_rss; /* thread 0 samples RSS */
    pthread_t tid;
} worker;

static atomic_int g_printed;

/* ------------------------------------------------------------------------------------------- helpers */

static void mix(worker *w, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) w->h = (w->h ^ b[i]) * 1099511628211ULL;
}
static void mixd(worker *w, double d) { mix(w, &d, sizeof d); }
static void mixi(worker *w, long long i) { mix(w, &i, sizeof i); }

static void fail(worker *w, int line, const char *fmt, ...) {
    va_list ap;
    w->failures++;
    if (atomic_fetch_add(&g_printed, 1) >= MAX_PRINTED) return;
    fprintf(stderr, "FAIL: thread %d, operation %lld (soak.c:%d): ", w->id, w->op, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define M(st) (1u << (st))
#define OKM M(MOA_OK)
#define UNSM M(MOA_UNSATISFIABLE)

/* Checks a layout call's status against the allowed set; mixes it into the checksum. */
static moa_status chk_(worker *w, moa_status st, unsigned allowed, const char *what, int line, int layout) {
    mixi(w, st);
    if (st < 0 || st > 31 || !(allowed & M(st)))
        fail(w, line, "%s returned %s (%s): %s", what, moa_status_name(st), moa_errstr(st),
             layout ? moa_layout_errmsg(w->L) : moa_solver_errmsg(w->S));
    else if (st == MOA_UNSATISFIABLE)
        w->unsat++;
    if (st == MOA_ERROR && !layout) w->solver_broken = 1;
    return st;
}
#define CHK(call, allowed) chk_(w, (call), (allowed), #call, __LINE__, 1)
#define SCHK(call, allowed) chk_(w, (call), (allowed), #call, __LINE__, 0)

/* Heap in use (glibc: every arena), and free memory handed back to the system before RSS is read: RSS alone is
   the allocator's high-water mark, which creeps up with rare large blocks (an SVG or HTML string) long after the
   live memory is flat. */
static double heap_mb(void) {
#ifdef __GLIBC__
    struct mallinfo2 mi = mallinfo2();
    return (double)(mi.uordblks + mi.hblkhd) / (1024.0 * 1024.0);
#else
    return 0;
#endif
}

static void trim(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

static double rss_mb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (!f) return 0;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void done_cb(moa_layout *L, moa_animation a, int finished, void *ud) {
    worker *w = ud;
    (void)L, (void)a;
    w->done_calls++;
    mixi(w, finished ? 1 : -1);
}

static void rest_cb(moa_layout *L, moa_pan p, double rest, int finished, void *ud) {
    worker *w = ud;
    (void)L, (void)p;
    w->rest_calls++;
    mixd(w, rest);
    mixi(w, finished);
}

/* id -> cons slot (open addressing, linear probing, deletion by backward shift) */
static uint32_t map_hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (uint32_t)k & (MAP_CAP - 1);
}
static int map_get(worker *w, uint64_t k) {
    for (uint32_t i = map_hash(k);; i = (i + 1) & (MAP_CAP - 1)) {
        if (w->map_key[i] == 0) return -1;
        if (w->map_key[i] == k) return w->map_val[i];
    }
}
static void map_put(worker *w, uint64_t k, int v) {
    uint32_t i = map_hash(k);
    while (w->map_key[i] != 0 && w->map_key[i] != k) i = (i + 1) & (MAP_CAP - 1);
    w->map_key[i] = k;
    w->map_val[i] = v;
}
static void map_del(worker *w, uint64_t k) {
    uint32_t i = map_hash(k);
    while (w->map_key[i] != k) {
        if (w->map_key[i] == 0) return;
        i = (i + 1) & (MAP_CAP - 1);
    }
    for (uint32_t j = i;;) {
        w->map_key[i] = 0;
        for (;;) {
            j = (j + 1) & (MAP_CAP - 1);
            if (w->map_key[j] == 0) return;
            uint32_t home = map_hash(w->map_key[j]);
            /* move j back to i unless its home lies cyclically in (i, j] */
            if (i <= j ? (i < home && home <= j) : (i < home || home <= j)) continue;
            break;
        }
        w->map_key[i] = w->map_key[j];
        w->map_val[i] = w->map_val[j];
        i = j;
    }
}

/* views */
static int view_alloc(worker *w) {
    for (int s = 0; s < MAX_VIEWS; s++)
        if (w->views[s].pos < 0) return s;
    return -1;
}
static void view_link(worker *w, int s) {
    w->views[s].pos = w->nviews;
    w->live_views[w->nviews++] = s;
}
static void view_unlink(worker *w, int s) {
    int p = w->views[s].pos, last = w->live_views[--w->nviews];
    w->live_views[p] = last;
    w->views[last].pos = p;
    w->views[s].pos = -1;
}
static int rand_view(worker *w) { return w->nviews ? w->live_views[rbelow(&w->r, w->nviews)] : -1; }
static int view_alive(worker *w, int s, moa_view id) { return s >= 0 && w->views[s].pos >= 0 && w->views[s].id == id; }

/* constraints */
static int cons_add(worker *w, moa_lcons id, int va, int vb, int axis, int placement) {
    for (int s = 0; s < MAX_CONS; s++) {
        if (w->cons[s].pos >= 0) continue;
        w->cons[s] = (scons_l){id, va, vb, (signed char)axis, 1, (unsigned char)placement, w->ncons};
        w->live_cons[w->ncons++] = s;
        if (!placement) w->nextra++;
        map_put(w, id, s);
        return s;
    }
    return -1;
}
static void cons_drop(worker *w, int s) {
    int p = w->cons[s].pos, last = w->live_cons[--w->ncons];
    w->live_cons[p] = last;
    w->cons[last].pos = p;
    w->cons[s].pos = -1;
    if (!w->cons[s].placement) w->nextra--;
    map_del(w, w->cons[s].id);
}
static int rand_cons(worker *w) { return w->ncons ? w->live_cons[rbelow(&w->r, w->ncons)] : -1; }
static int cons_alive(worker *w, int s, moa_lcons id) { return s >= 0 && w->cons[s].pos >= 0 && w->cons[s].id == id; }

static void view_name(int s, char *buf, size_t n) {
    if (s < 0) snprintf(buf, n, "root");
    else snprintf(buf, n, "v%d", s);
}

static int same_usage(const moa_usage *a, const moa_usage *b) {
    return a->rows == b->rows && a->cells == b->cells && a->variables == b->variables &&
           a->constraints == b->constraints && a->views == b->views;
}

/* The library's counts must match the bookkeeping. */
static void check_counts(worker *w, int line) {
    size_t nv = 0, nc = 0;
    moa_usage u;
    CHK(moa_layout_views(w->L, NULL, 0, &nv), OKM);
    CHK(moa_layout_constraints(w->L, NULL, 0, &nc), OKM);
    CHK(moa_layout_usage(w->L, &u), OKM);
    if (nv != (size_t)w->nviews || nc != (size_t)w->ncons || u.views != (size_t)w->nviews + 4)
        fail(w, line, "counts: library %zu views (usage %zu with root and guides), %zu equation constraints; "
                      "bookkeeping %d views, %d constraints", nv, u.views, nc, w->nviews, w->ncons);
}

/* Reads the changed frames after a solve or a frame; their number must be what the call said. */
static void read_changed(worker *w, long long expect) {
    size_t n = 0;
    CHK(moa_layout_changed_frames(w->L, w->frames, FRAME_CAP, &n), OKM);
    if (expect >= 0 && (long long)n != expect) fail(w, __LINE__, "changed_frames gave %zu, solve said %lld", n, expect);
    for (size_t i = 0; i < n && i < FRAME_CAP; i++) {
        const moa_rect *f = &w->frames[i].frame_in_root;
        mixd(w, f->x);
        mixd(w, f->y);
        mixd(w, f->width);
        mixd(w, f->height);
    }
}

/* ---------------------------------------------------------------------------------------------- views */

static const char *const pri_names[] = {"250", "high", "500", "999", "low", "defaultHigh - 1", "fit"};

static const char *rand_soft(worker *w) { return pri_names[rbelow(&w->r, 7)]; }

/* A new view under a random parent, with the equations that place it: left and top required (the
   collapsibles and pans use them), width and height of mixed priorities, sometimes the keyboard. All name
   the new view's fresh variables, so they must all be accepted. */
static void op_add_view(worker *w) {
    char name[16], px[16], py[16], text[512];
    int s = view_alloc(w), parent = rchance(&w->r, 15) ? -1 : rand_view(w), ax, ay;
    moa_view id = 0, pid = parent >= 0 ? w->views[parent].id : 0;
    moa_lcons ids[8];
    size_t n = 0;
    int len, lines = 4;
    if (s < 0) return;
    view_name(s, name, sizeof name);
    if (CHK(moa_view_new(w->L, name, pid, &id), OKM) != MOA_OK) return;
    w->views[s] = (sview){id, parent, 0, -1, -1, 0, 0, 0, -1};
    view_link(w, s);
    if (parent >= 0) w->views[parent].nchildren++;
    /* anchors: the parent mostly, else any live view (not this one) or the root */
    ax = rchance(&w->r, 70) ? parent : rand_view(w);
    ay = rchance(&w->r, 70) ? parent : rand_view(w);
    if (ax == s) ax = -1;
    if (ay == s) ay = -1;
    view_name(ax, px, sizeof px);
    view_name(ay, py, sizeof py);
    /* every random choice in its own statement: the order in which a call's arguments are evaluated is
       unspecified in C, and the checksums must not depend on the compiler */
    int lead = rchance(&w->r, 20), near = rchance(&w->r, 70), kx = rbelow(&w->r, 120);
    int top = rchance(&w->r, 70), ky = rbelow(&w->r, 120), width = 20 + rbelow(&w->r, 200);
    const char *wpri = rchance(&w->r, 20) ? "required" : rand_soft(w);
    int height = 10 + rbelow(&w->r, 100), hreq = rchance(&w->r, 20);
    const char *hpri = hreq ? "" : rand_soft(w);
    const char *xattr = lead ? "leading" : "left", *xanchor = lead ? (near ? "leading" : "trailing")
                                                                    : (near ? "left" : "right");
    len = snprintf(text, sizeof text,
                   "%s.%s == %s.%s + %d\n%s.top == %s.%s + %d\n%s.width == %d @ %s\n%s.height == %d%s%s\n", name,
                   xattr, px, xanchor, kx, name, py, top ? "top" : "bottom", ky, name, width, wpri, name, height,
                   hreq ? "" : " @ ", hpri);
    if (rchance(&w->r, 20)) {
        int gap = rbelow(&w->r, 20);
        const char *kpri = rand_soft(w);
        snprintf(text + len, sizeof text - (size_t)len, "%s.bottom <= keyboard.top - %d @ %s\n", name, gap, kpri);
        lines = 5;
    }
    if (CHK(moa_layout_eqs(w->L, text, ids, 8, &n), OKM) != MOA_OK) return;
    if (n != (size_t)lines) {
        fail(w, __LINE__, "eqs of %d lines gave %zu ids", lines, n);
        return;
    }
    for (int i = 0; i < lines; i++) {
        if (map_get(w, ids[i]) >= 0) {
            fail(w, __LINE__, "the equations of a new view returned an existing constraint id (line %d)", i + 1);
            continue;
        }
        int c = cons_add(w, ids[i], s, i == 0 ? ax : i == 1 ? ay : -1, i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 0 : 1, 1);
        if (i == 0) w->views[s].xc = c, w->views[s].xid = ids[0];
        if (i == 1) w->views[s].yc = c, w->views[s].yid = ids[1];
    }
}

/* Is slot d in the subtree of slot s? */
static int in_subtree(worker *w, int d, int s) {
    for (int k = d; k >= 0; k = w->views[k].parent)
        if (k == s) return 1;
    return 0;
}

/* Removes view slot s and its subtree: the library drops every constraint naming any of them. */
static void remove_view(worker *w, int s) {
    int changed = 1;
    memset(w->mark, 0, sizeof w->mark);
    w->mark[s] = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < w->nviews; i++) {
            int v = w->live_views[i];
            if (!w->mark[v] && w->views[v].parent >= 0 && w->mark[w->views[v].parent]) w->mark[v] = 1, changed = 1;
        }
    }
    if (CHK(moa_view_free(w->L, w->views[s].id), OKM) != MOA_OK) return;
    CHK(moa_view_free(w->L, w->views[s].id), M(MOA_NOTFOUND)); /* stale at once */
    if (w->views[s].parent >= 0) w->views[w->views[s].parent].nchildren--;
    for (int i = w->ncons - 1; i >= 0; i--) {
        int c = w->live_cons[i];
        if ((w->cons[c].va >= 0 && w->mark[w->cons[c].va]) || (w->cons[c].vb >= 0 && w->mark[w->cons[c].vb]))
            cons_drop(w, c);
    }
    for (int i = w->nviews - 1; i >= 0; i--) {
        int v = w->live_views[i];
        if (w->mark[v]) view_unlink(w, v);
    }
    check_counts(w, __LINE__);
}

static void op_remove_leaf(worker *w) {
    for (int tries = 0; tries < 8; tries++) {
        int s = rand_view(w);
        if (s >= 0 && w->views[s].nchildren == 0) {
            remove_view(w, s);
            return;
        }
    }
}

/* A view with its subviews; subtrees of more than MAX_SUBTREE views are passed over, so that the pool stays
   near its cap (a random tree's big subtrees would empty it now and then). */
static void op_remove_subtree(worker *w) {
    for (int tries = 0; tries < 4; tries++) {
        int s = rand_view(w), size = 0;
        if (s < 0) return;
        for (int i = 0; i < w->nviews && size <= MAX_SUBTREE; i++) size += in_subtree(w, w->live_views[i], s);
        if (size <= MAX_SUBTREE) {
            remove_view(w, s);
            return;
        }
    }
}

/* Moves a view under another superview; into its own subtree must fail with MOA_INVALID (a cycle). */
static void op_move_view(worker *w) {
    int s = rand_view(w), p = rchance(&w->r, 20) ? -1 : rand_view(w);
    if (s < 0) return;
    if (p >= 0 && in_subtree(w, p, s)) {
        CHK(moa_view_set_superview(w->L, w->views[s].id, w->views[p].id), M(MOA_INVALID));
        return;
    }
    if (CHK(moa_view_set_superview(w->L, w->views[s].id, p >= 0 ? w->views[p].id : 0), OKM) != MOA_OK) return;
    if (w->views[s].parent >= 0) w->views[w->views[s].parent].nchildren--;
    w->views[s].parent = p;
    if (p >= 0) w->views[p].nchildren++;
}

/* ------------------------------------------------------------------------------------------ equations */

/* horizontal positions in two families that do not mix: left/right (and centerX), leading/trailing */
static const char *const hpos[2][3] = {{"left", "right", "centerX"}, {"leading", "trailing", "leading"}};
static const char *const vpos[] = {"top", "bottom", "centerY"};
static const char *const rels[] = {"==", "<=", ">="};

/* One equation between two random live views (or a view and the root or a guide). Required ones may fail
   with MOA_UNSATISFIABLE, which must change nothing. */
static void op_add_eq(worker *w) {
    char na[16], nb[32], line[160], pri[32];
    int a = rand_view(w), b = rchance(&w->r, 85) ? rand_view(w) : -1, axis = rbelow(&w->r, 2);
    int required = rchance(&w->r, 35), kind = rbelow(&w->r, 10);
    moa_lcons id = 0;
    moa_usage before, after;
    if (a < 0) return;
    if (a == b) b = -1;
    view_name(a, na, sizeof na);
    view_name(b, nb, sizeof nb);
    if (b < 0 && rchance(&w->r, 30)) snprintf(nb, sizeof nb, "%s", rchance(&w->r, 50) ? "safeArea" : "margins");
    if (required) snprintf(pri, sizeof pri, "%s", "");
    else snprintf(pri, sizeof pri, " @ %s", rand_soft(w));
    const char *rel = rels[rbelow(&w->r, 3)];
    if (kind < 6) { /* positions */
        int fam = rchance(&w->r, 25), k = rbelow(&w->r, 161) - 80;
        const char *x = axis ? vpos[rbelow(&w->r, 3)] : hpos[fam][rbelow(&w->r, 3)];
        const char *y = axis ? vpos[rbelow(&w->r, 3)] : hpos[fam][rbelow(&w->r, 3)];
        snprintf(line, sizeof line, "%s.%s %s %s.%s %c %d%s", na, x, rel, nb, y, k < 0 ? '-' : '+', abs(k), pri);
    } else if (kind < 9) { /* sizes, relative */
        static const char *const mul[] = {"", " * 0.5", " * 2", " / 3"};
        const char *d = axis ? "height" : "width";
        int k = rbelow(&w->r, 41) - 20;
        snprintf(line, sizeof line, "%s.%s %s %s.%s%s %c %d%s", na, d, rel, nb, d, mul[rbelow(&w->r, 4)],
                 k < 0 ? '-' : '+', abs(k), pri);
    } else { /* sizes, absolute */
        snprintf(line, sizeof line, "%s.%s %s %d%s", na, axis ? "height" : "width", rel, rbelow(&w->r, 300), pri);
        b = -1;
    }
    CHK(moa_layout_usage(w->L, &before), OKM);
    moa_status st = CHK(moa_layout_eq(w->L, line, &id), required ? OKM | UNSM : OKM);
    if (st == MOA_UNSATISFIABLE) {
        size_t nconf = 0;
        CHK(moa_layout_conflicts(w->L, NULL, 0, &nconf), OKM);
        mixi(w, (long long)nconf);
        CHK(moa_layout_usage(w->L, &after), OKM);
        if (!same_usage(&before, &after))
            fail(w, __LINE__, "a failed `%s` changed the layout: rows %zu -> %zu, cells %zu -> %zu, constraints "
                              "%zu -> %zu", line, before.rows, after.rows, before.cells, after.cells,
                 before.constraints, after.constraints);
        return;
    }
    if (st != MOA_OK) return;
    if (map_get(w, id) >= 0) return; /* re-issued: the existing constraint took the new constant */
    cons_add(w, id, a, b, axis, 0);
}

/* Removes one equation: by id, or by its description through xeq (which must find exactly it). */
static void op_remove_eq(worker *w) {
    int c = rand_cons(w);
    if (c < 0) return;
    if (w->cons[c].placement && rchance(&w->r, 70)) c = rand_cons(w); /* placement ones less often */
    moa_lcons id = w->cons[c].id;
    if (w->cons[c].active && rchance(&w->r, 40)) {
        const char *d = NULL;
        char line[256];
        size_t removed = 0;
        if (CHK(moa_lcons_describe(w->L, id, &d), OKM) != MOA_OK) return;
        snprintf(line, sizeof line, "%s", d);
        if (CHK(moa_layout_xeq(w->L, line, &removed), OKM) != MOA_OK) return;
        if (removed != 1) fail(w, __LINE__, "xeq `%s` removed %zu constraints", line, removed);
        int a = 0;
        if (moa_lcons_active(w->L, id, &a) == MOA_OK) {
            /* A twin went instead: another constraint with the same sides, relation and priority (set_priority
               and priority animations can make one after both were created). Find it. */
            w->xeq_twins++;
            c = -1;
            for (int i = 0; i < w->ncons && c < 0; i++)
                if (moa_lcons_active(w->L, w->cons[w->live_cons[i]].id, &a) == MOA_NOTFOUND) c = w->live_cons[i];
            if (c < 0) {
                fail(w, __LINE__, "xeq `%s` removed 1 constraint, but none of those known is gone", line);
                return;
            }
            id = w->cons[c].id;
        }
    } else if (CHK(moa_lcons_remove(w->L, id), OKM) != MOA_OK) {
        return;
    }
    CHK(moa_lcons_remove(w->L, id), M(MOA_NOTFOUND));
    cons_drop(w, c);
}

/* Whether a constraint is required now (its priority may be animating). */
static int is_required(worker *w, moa_lcons id) {
    double p = 0;
    CHK(moa_lcons_priority(w->L, id, &p), OKM);
    return p == MOA_REQUIRED;
}

static void op_set_constant(worker *w) {
    int c = rand_cons(w);
    if (c < 0) return;
    moa_lcons id = w->cons[c].id;
    double k = rint_range(&w->r, -100, 300), before = 0, after = 0;
    int req = is_required(w, id) && w->cons[c].active;
    CHK(moa_lcons_constant(w->L, id, &before), OKM);
    if (CHK(moa_lcons_set_constant(w->L, id, k), req ? OKM | UNSM : OKM) == MOA_UNSATISFIABLE) {
        CHK(moa_lcons_constant(w->L, id, &after), OKM);
        if (after != before) fail(w, __LINE__, "a failed set_constant changed the constant %g -> %g", before, after);
    }
}

static void op_set_priority(worker *w) {
    static const double ps[] = {MOA_REQUIRED, MOA_HIGH, MOA_LOW, MOA_MEDIUM, 999, 1, 251};
    int c = rand_cons(w);
    if (c < 0) return;
    moa_lcons id = w->cons[c].id;
    /* sometimes any value of the range (moa.h: "Any value in the range may be used"), not a named point */
    double p = rchance(&w->r, 10) ? rrange(&w->r, 1, 999) : ps[rbelow(&w->r, 7)];
    int may_fail = p == MOA_REQUIRED && w->cons[c].active && !is_required(w, id);
    CHK(moa_lcons_set_priority(w->L, id, p), may_fail ? OKM | UNSM : OKM);
}

static void op_set_active(worker *w) {
    int c = rand_cons(w);
    if (c < 0) return;
    moa_lcons id = w->cons[c].id;
    int a = 0;
    CHK(moa_lcons_active(w->L, id, &a), OKM);
    if (a != w->cons[c].active) fail(w, __LINE__, "active %d, bookkeeping %d", a, w->cons[c].active);
    if (a) {
        if (CHK(moa_lcons_set_active(w->L, id, 0), OKM) == MOA_OK) w->cons[c].active = 0;
    } else {
        if (CHK(moa_lcons_set_active(w->L, id, 1), is_required(w, id) ? OKM | UNSM : OKM) == MOA_OK)
            w->cons[c].active = 1;
    }
}

/* ----------------------------------------------------------------------------------------------- motion */

static moa_curve rand_curve(worker *w) {
    int k = rbelow(&w->r, 10);
    if (k < 6) return (moa_curve)k; /* MOA_LINEAR ... MOA_KEYBOARD_CURVE */
    return w->custom[k - 6];
}

static void remember(worker *w, moa_animation a) {
    if (a) w->recent[rbelow(&w->r, 8)] = a;
}

/* Animates a constant (or, priority != 0, a priority) of a random constraint; sometimes stops its animations. */
static void animate(worker *w, int priority) {
    int c = rand_cons(w), with_done = rchance(&w->r, 50);
    moa_animation a = 0;
    if (c < 0) return;
    moa_lcons id = w->cons[c].id;
    double dur = rrange(&w->r, 0.05, 0.8), delay = rchance(&w->r, 20) ? 0.1 : 0;
    moa_status st;
    moa_curve curve = rand_curve(w);
    if (priority) {
        static const double ps[] = {MOA_REQUIRED, MOA_HIGH, MOA_LOW, 1};
        double to = ps[rbelow(&w->r, 4)];
        st = CHK(moa_lcons_animate_priority(w->L, id, to, dur, curve, delay, with_done ? done_cb : NULL, w, &a), OKM);
    } else if (rchance(&w->r, 10)) {
        CHK(moa_lcons_stop_animating(w->L, id), OKM);
        return;
    } else {
        double to = rint_range(&w->r, -100, 300);
        st = CHK(moa_lcons_animate(w->L, id, to, dur, curve, delay, with_done ? done_cb : NULL, w, &a), OKM);
    }
    if (st == MOA_OK && with_done) w->done_given++;
    if (st == MOA_OK) remember(w, a);
}

static void op_animate(worker *w) { animate(w, 0); }
static void op_animate_priority(worker *w) { animate(w, 1); }

static void op_cancel(worker *w) {
    if (rchance(&w->r, 5)) {
        CHK(moa_layout_cancel_animations(w->L), OKM);
        return;
    }
    moa_animation a = w->recent[rbelow(&w->r, 8)];
    if (a) CHK(moa_animation_cancel(w->L, a), OKM); /* an animation that ended: a no-op */
}

static void op_advance(worker *w) {
    static const double dts[] = {1.0 / 60, 1.0 / 60, 1.0 / 30, 0.25};
    double t = 0;
    int animating = 0;
    size_t nchanged = 0;
    if (rchance(&w->r, 10)) {
        CHK(moa_layout_time(w->L, &t), OKM);
        CHK(moa_layout_seek(w->L, t + 0.05), OKM);
    } else {
        CHK(moa_layout_advance(w->L, dts[rbelow(&w->r, 4)]), OKM);
    }
    CHK(moa_layout_changed_views(w->L, NULL, 0, &nchanged), OKM);
    read_changed(w, (long long)nchanged);
    CHK(moa_layout_is_animating(w->L, &animating), OKM);
    mixi(w, animating);
    if (w->tracing && ++w->traced >= MAX_TRACE) {
        CHK(moa_layout_trace_stop(w->L), OKM);
        w->tracing = 0;
    }
}

static void drop_col(worker *w, int i) { w->cols[i] = w->cols[--w->ncols]; }

static void op_collapsible(worker *w) {
    /* one whose view or constraint is gone answers MOA_NOTFOUND, then is freed */
    for (int i = 0; i < w->ncols; i++) {
        scol *c = &w->cols[i];
        if (view_alive(w, c->vslot, c->vid) && cons_alive(w, c->cslot, c->cid)) continue;
        CHK(moa_collapsible_set(w->L, c->id, 1, 0, 0.3, MOA_LINEAR, NULL, NULL, NULL), M(MOA_NOTFOUND));
        CHK(moa_collapsible_free(w->L, c->id), OKM);
        CHK(moa_collapsible_free(w->L, c->id), M(MOA_NOTFOUND));
        drop_col(w, i);
        return;
    }
    if (w->ncols < MAX_COLS && (w->ncols == 0 || rchance(&w->r, 15))) {
        int s = rand_view(w), horizontal = rchance(&w->r, 50);
        if (s < 0) return;
        int cs = horizontal ? w->views[s].xc : w->views[s].yc;
        moa_lcons cid = horizontal ? w->views[s].xid : w->views[s].yid;
        if (!cons_alive(w, cs, cid)) return;
        moa_collapse_direction dir = horizontal ? (rchance(&w->r, 50) ? MOA_LEFT : MOA_RIGHT)
                                                : (rchance(&w->r, 50) ? MOA_UP : MOA_DOWN);
        moa_collapsible id = 0;
        if (CHK(moa_collapsible_new(w->L, w->views[s].id, cid, dir, &id), OKM) == MOA_OK)
            w->cols[w->ncols++] = (scol){id, s, cs, w->views[s].id, cid};
        return;
    }
    if (w->ncols == 0) return;
    int i = rbelow(&w->r, w->ncols);
    scol *c = &w->cols[i];
    if (rchance(&w->r, 5)) {
        CHK(moa_collapsible_free(w->L, c->id), OKM);
        drop_col(w, i);
        return;
    }
    int animated = rchance(&w->r, 70), with_done = rchance(&w->r, 50), collapsed = 0, want = rchance(&w->r, 50);
    moa_animation a = 0;
    moa_status st;
    double dur = rrange(&w->r, 0.1, 0.5);
    moa_curve curve = rand_curve(w);
    if (rchance(&w->r, 50)) {
        CHK(moa_collapsible_is_collapsed(w->L, c->id, &want), OKM);
        want = !want;
        st = CHK(moa_collapsible_toggle(w->L, c->id, animated, dur, curve, with_done ? done_cb : NULL, w, &a),
                 animated ? OKM : OKM | UNSM);
    } else {
        st = CHK(moa_collapsible_set(w->L, c->id, want, animated, dur, curve, with_done ? done_cb : NULL, w, &a),
                 animated ? OKM : OKM | UNSM);
    }
    if (st != MOA_OK) return;
    if (with_done) w->done_given++;
    remember(w, a);
    CHK(moa_collapsible_is_collapsed(w->L, c->id, &collapsed), OKM);
    if (collapsed != want) fail(w, __LINE__, "is_collapsed %d after setting %d", collapsed, want);
}

static void drop_pan(worker *w, int i) { w->pans[i] = w->pans[--w->npans]; }

static void op_pan(worker *w) {
    for (int i = 0; i < w->npans; i++) { /* one whose constraint is gone: MOA_NOTFOUND, then freed */
        span *p = &w->pans[i];
        int alive = 1;
        for (int k = 0; k < p->n; k++) alive &= cons_alive(w, p->cslot[k], p->cid[k]);
        if (alive) continue;
        CHK(moa_pan_began(w->L, p->id, NULL), M(MOA_NOTFOUND));
        CHK(moa_pan_free(w->L, p->id), OKM);
        drop_pan(w, i);
        return;
    }
    if (w->npans < MAX_PANS && (w->npans == 0 || rchance(&w->r, 10))) {
        int vertical = rchance(&w->r, 50), n = 1 + rbelow(&w->r, 3), k = 0;
        moa_lcons cids[3];
        int slots[3];
        for (int tries = 0; tries < 8 && k < n; tries++) {
            int s = rand_view(w), dup = 0;
            if (s < 0) break;
            int cs = vertical ? w->views[s].yc : w->views[s].xc;
            moa_lcons cid = vertical ? w->views[s].yid : w->views[s].xid;
            if (!cons_alive(w, cs, cid)) continue;
            for (int j = 0; j < k; j++) dup |= cids[j] == cid;
            if (dup) continue;
            cids[k] = cid, slots[k] = cs, k++;
        }
        if (k == 0) return;
        double rest[3] = {0, -100, 100};
        moa_pan id = 0;
        if (CHK(moa_pan_new(w->L, cids, (size_t)k, vertical ? MOA_VERTICAL : MOA_HORIZONTAL, rest, 3, &id), OKM) !=
            MOA_OK)
            return;
        span *p = &w->pans[w->npans++];
        *p = (span){id, k, {0, 0, 0}, {0, 0, 0}, 0, 0};
        for (int j = 0; j < k; j++) p->cslot[j] = slots[j], p->cid[j] = cids[j];
        return;
    }
    if (w->npans == 0) return;
    int i = rbelow(&w->r, w->npans), accepted = -1;
    span *p = &w->pans[i];
    if (rchance(&w->r, 3)) {
        if (p->dragging) CHK(moa_pan_cancelled(w->L, p->id, NULL, NULL, NULL, NULL), OKM);
        CHK(moa_pan_free(w->L, p->id), OKM);
        drop_pan(w, i);
        return;
    }
    if (!p->dragging) {
        if (rchance(&w->r, 15)) {
            int animated = rchance(&w->r, 60);
            if (CHK(moa_pan_move(w->L, p->id, rint_range(&w->r, -100, 100), animated, rest_cb, w),
                    animated ? OKM : OKM | UNSM) == MOA_OK)
                w->rest_given++;
            return;
        }
        if (CHK(moa_pan_began(w->L, p->id, &accepted), OKM) != MOA_OK) return;
        if (accepted != 1) fail(w, __LINE__, "pan began not accepted");
        p->dragging = 1;
        p->translation = 0;
        return;
    }
    int k = rbelow(&w->r, 10);
    if (k < 7) {
        double step = rrange(&w->r, -30, 30), vel = step * 60;
        p->translation += step;
        if (CHK(moa_pan_changed(w->L, p->id, p->translation, vel, &accepted), OKM | UNSM) == MOA_OK && accepted != 1)
            fail(w, __LINE__, "pan changed not accepted during a drag");
    } else if (k < 9) {
        double target = 0;
        if (CHK(moa_pan_ended(w->L, p->id, rrange(&w->r, -1500, 1500), rest_cb, w, &target, &accepted), OKM) ==
            MOA_OK) {
            if (accepted) w->rest_given++, mixd(w, target);
            else fail(w, __LINE__, "pan ended not accepted after a drag");
        }
        p->dragging = 0;
    } else {
        if (CHK(moa_pan_cancelled(w->L, p->id, rest_cb, w, NULL, &accepted), OKM) == MOA_OK && accepted)
            w->rest_given++;
        p->dragging = 0;
    }
}

static void op_root_size(worker *w) {
    double width = rint_range(&w->r, 200, 1200), height = rint_range(&w->r, 200, 1200);
    if (rchance(&w->r, 60)) {
        CHK(moa_layout_set_root_size(w->L, width, height), OKM | UNSM);
    } else {
        int with_done = rchance(&w->r, 50);
        double dur = rrange(&w->r, 0.1, 0.6);
        moa_curve curve = rand_curve(w);
        moa_animation a = 0;
        if (CHK(moa_layout_animate_root_size(w->L, width, height, dur, curve, 0, with_done ? done_cb : NULL, w, &a),
                OKM) == MOA_OK) {
            if (with_done) w->done_given++;
            remember(w, a);
        }
    }
}

static void op_keyboard(worker *w) {
    int k = rbelow(&w->r, 5), with_done = rchance(&w->r, 50);
    moa_animation a = 0;
    moa_status st;
    if (k < 2)
        st = CHK(moa_layout_show_keyboard(w->L, rint_range(&w->r, 100, 400), 0.25, MOA_KEYBOARD_CURVE,
                                          with_done ? done_cb : NULL, w, &a), OKM);
    else if (k < 4)
        st = CHK(moa_layout_hide_keyboard(w->L, 0.25, MOA_EASE_IN_OUT, with_done ? done_cb : NULL, w, &a), OKM);
    else {
        CHK(moa_layout_set_keyboard_height(w->L, rint_range(&w->r, 0, 300)), OKM | UNSM);
        return;
    }
    if (st == MOA_OK && with_done) w->done_given++;
    if (st == MOA_OK) remember(w, a);
}

static const char *const words[] = {"Moa", "lays", "out", "text", "that", "wraps", "to", "the", "width", "it",
                                    "gets", "constraint", "soak", "without", "growth", "é", "日本語", "x"};

static void op_text(worker *w) {
    int s = rand_view(w);
    if (s < 0) return;
    if (w->views[s].has_text && rchance(&w->r, 30)) {
        if (CHK(moa_view_set_text(w->L, w->views[s].id, NULL, NULL), OKM) == MOA_OK) w->views[s].has_text = 0;
        return;
    }
    if (w->views[s].has_text && rchance(&w->r, 20)) {
        const char *lines = NULL;
        moa_text_metrics m;
        if (CHK(moa_view_text_lines(w->L, w->views[s].id, &lines, &m), OKM) == MOA_OK) mixd(w, m.lines);
        return;
    }
    char text[256];
    size_t len = 0;
    int n = 1 + rbelow(&w->r, 14);
    text[0] = 0;
    for (int i = 0; i < n; i++) {
        const char *sep = i ? (rchance(&w->r, 10) ? "\n" : " ") : "";
        int k = snprintf(text + len, sizeof text - len, "%s%s", sep, words[rbelow(&w->r, 18)]);
        if (k < 0 || (size_t)k >= sizeof text - len) break;
        len += (size_t)k;
    }
    moa_text_style style = {0};
    style.font_size = 12 + rbelow(&w->r, 9);
    style.max_lines = rbelow(&w->r, 3);
    if (CHK(moa_view_set_text(w->L, w->views[s].id, text, rchance(&w->r, 50) ? &style : NULL), OKM) == MOA_OK)
        w->views[s].has_text = 1;
}

static void op_solve(worker *w) {
    size_t changed = 0, n = 0;
    if (CHK(moa_layout_solve(w->L, &changed), OKM) != MOA_OK) return;
    read_changed(w, (long long)changed);
    if (rchance(&w->r, 10)) {
        if (CHK(moa_layout_frames(w->L, 0, w->frames, FRAME_CAP, &n), OKM) != MOA_OK) return;
        if (n != (size_t)w->nviews + 1) fail(w, __LINE__, "frames listed %zu, want %d views + the root", n, w->nviews);
        for (size_t i = 0; i < n && i < FRAME_CAP; i++) mixd(w, w->frames[i].frame.width);
    }
}

static void op_trace(worker *w) {
    if (!w->tracing) {
        CHK(moa_layout_trace_start(w->L, rchance(&w->r, 30)), OKM);
        w->tracing = 1;
        w->traced = 0;
    } else {
        CHK(moa_layout_trace_stop(w->L), OKM);
        w->tracing = 0;
    }
}

/* The O(layout) queries, one at a time. */
static void op_rare(worker *w) {
    const char *s = NULL;
    size_t n = 0;
    switch (rbelow(&w->r, 8)) {
    case 0:
        CHK(moa_layout_violations(w->L, NULL, NULL, 0, &n), OKM);
        mixi(w, (long long)n);
        break;
    case 1:
        CHK(moa_layout_ambiguities(w->L, NULL, NULL, 0, &n), OKM);
        mixi(w, (long long)n);
        break;
    case 2:
        if (CHK(moa_layout_describe(w->L, &s), OKM) == MOA_OK) mixi(w, (long long)strlen(s));
        break;
    case 3:
        if (CHK(moa_layout_svg(w->L, rbelow(&w->r, 8), &s), OKM) == MOA_OK) mixi(w, (long long)strlen(s));
        break;
    case 4:
        if (CHK(moa_layout_html(w->L, NULL, &s), OKM) == MOA_OK) mixi(w, (long long)strlen(s));
        break;
    case 5:
        if (CHK(moa_layout_trace_csv(w->L, &s), OKM) == MOA_OK) mixi(w, (long long)strlen(s));
        if (CHK(moa_layout_trace_svg_strip(w->L, 8, 0, &s), OKM) == MOA_OK) mixi(w, (long long)strlen(s));
        break;
    case 6: {
        int v = rand_view(w);
        double fw = 0, fh = 0;
        if (v >= 0 && CHK(moa_layout_fitting_size(w->L, w->views[v].id, 320, 0, MOA_FIT, MOA_FIT, &fw, &fh), OKM) ==
                          MOA_OK)
            mixd(w, fw), mixd(w, fh);
        break;
    }
    default: {
        moa_measure_stats ms;
        CHK(moa_layout_measure_stats(w->L, &ms), OKM);
        check_counts(w, __LINE__);
        break;
    }
    }
}

/* ------------------------------------------------------------------------------------------ raw solver */

static void solver_init(worker *w) {
    w->S = moa_solver_new();
    for (int i = 0; i < SVARS; i++) {
        w->svars[i] = (ssvar){0, 0, 0};
        SCHK(moa_var_new(w->S, NULL, &w->svars[i].v), OKM);
    }
    w->nscons = 0;
}

static void scons_drop(worker *w, int i) {
    for (int k = 0; k < w->scons[i].n; k++) w->svars[w->scons[i].vars[k]].uses--;
    w->scons[i] = w->scons[--w->nscons];
}

static void op_solver_(worker *w);

/* One operation on the raw solver. After a MOA_ERROR (a failure, counted) the solver is replaced by a new one:
   a solver in that state has answered every later call slowly (an iteration cap each time) and wrongly. */
static void op_solver(worker *w) {
    op_solver_(w);
    if (w->solver_broken) {
        moa_solver_free(w->S);
        solver_init(w);
        w->solver_broken = 0;
        w->solver_resets++;
    }
}

static void op_solver_(worker *w) {
    moa_solver *S = w->S;
    int k = rbelow(&w->r, 12);
    if ((k < 4 && w->nscons < SCONS) || w->nscons == 0) { /* add */
        moa_term t[3];
        int n = 1 + rbelow(&w->r, 3), vars[3];
        static const double coefs[] = {1, -1, 2, 0.5, -3};
        static const double pris[] = {MOA_REQUIRED, MOA_REQUIRED, MOA_HIGH, MOA_LOW, 1, 999};
        for (int i = 0; i < n; i++) {
            vars[i] = rbelow(&w->r, SVARS);
            t[i] = (moa_term){w->svars[vars[i]].v, coefs[rbelow(&w->r, 5)]};
        }
        double p = pris[rbelow(&w->r, 6)];
        moa_usage before, after;
        moa_cons c = 0;
        SCHK(moa_solver_usage(S, &before), OKM);
        double k0 = rint_range(&w->r, -200, 200);
        moa_relation rel = (moa_relation)rbelow(&w->r, 3);
        moa_status st =
            SCHK(moa_solver_add(S, t, (size_t)n, k0, rel, p, "soak", &c), p == MOA_REQUIRED ? OKM | UNSM : OKM);
        if (st == MOA_UNSATISFIABLE) {
            size_t nconf = 0;
            SCHK(moa_solver_conflicts(S, NULL, 0, &nconf), OKM);
            SCHK(moa_solver_usage(S, &after), OKM);
            if (!same_usage(&before, &after)) fail(w, __LINE__, "a failed moa_solver_add changed the solver");
            mixi(w, (long long)nconf);
        } else if (st == MOA_OK) {
            sscons *sc = &w->scons[w->nscons++];
            sc->c = c, sc->n = n, sc->priority = p;
            for (int i = 0; i < n; i++) sc->vars[i] = vars[i], w->svars[vars[i]].uses++;
        }
    } else if (k < 6 || w->nscons == SCONS) { /* remove */
        int i = rbelow(&w->r, w->nscons);
        if (SCHK(moa_cons_remove(S, w->scons[i].c), OKM) == MOA_OK) scons_drop(w, i);
    } else if (k < 7) { /* constant */
        int i = rbelow(&w->r, w->nscons);
        SCHK(moa_cons_set_constant(S, w->scons[i].c, rint_range(&w->r, -200, 200)),
             w->scons[i].priority == MOA_REQUIRED ? OKM | UNSM : OKM);
    } else if (k < 8) { /* priority */
        int i = rbelow(&w->r, w->nscons);
        double p = rchance(&w->r, 30)   ? MOA_REQUIRED
                   : rchance(&w->r, 10) ? rrange(&w->r, 1, 999) /* any value of the range, sometimes */
                                        : rint_range(&w->r, 1, 999);
        if (SCHK(moa_cons_set_priority(S, w->scons[i].c, p),
                 p == MOA_REQUIRED && w->scons[i].priority != MOA_REQUIRED ? OKM | UNSM : OKM) == MOA_OK)
            w->scons[i].priority = p;
    } else if (k < 10) { /* edit variables */
        int v = rbelow(&w->r, SVARS);
        ssvar *sv = &w->svars[v];
        if (!sv->edit) {
            if (SCHK(moa_solver_add_edit(S, sv->v, MOA_HIGH), OKM) == MOA_OK) sv->edit = 1;
        } else if (rchance(&w->r, 80)) {
            SCHK(moa_solver_suggest(S, sv->v, rint_range(&w->r, -300, 300)), OKM);
        } else if (SCHK(moa_solver_remove_edit(S, sv->v), OKM) == MOA_OK) {
            sv->edit = 0;
        }
    } else if (k < 11) { /* update and read */
        moa_var vs[SVARS];
        double xs[SVARS];
        for (int i = 0; i < SVARS; i++) vs[i] = w->svars[i].v;
        SCHK(moa_solver_update(S), OKM);
        if (SCHK(moa_solver_values(S, vs, SVARS, xs), OKM) == MOA_OK)
            for (int i = 0; i < SVARS; i++) mixd(w, xs[i]);
    } else { /* recycle a variable; one in use must be refused with MOA_MISUSE */
        int v = rbelow(&w->r, SVARS);
        ssvar *sv = &w->svars[v];
        if (sv->uses || sv->edit) {
            SCHK(moa_var_free(S, sv->v), M(MOA_MISUSE));
        } else if (SCHK(moa_var_free(S, sv->v), OKM) == MOA_OK) {
            SCHK(moa_var_value(S, sv->v, &(double){0}), M(MOA_NOTFOUND));
            SCHK(moa_var_new(S, NULL, &sv->v), OKM);
        }
    }
}

/* --------------------------------------------------------------------------------------------- the run */

static void worker_init(worker *w) {
    w->r.s = splitmix(w->seed) | 1;
    w->h = 14695981039346656037ULL;
    w->L = moa_layout_new(390, 844);
    for (int s = 0; s < MAX_VIEWS; s++) w->views[s].pos = -1;
    for (int s = 0; s < MAX_CONS; s++) w->cons[s].pos = -1;
    /* custom curves: the same parameters must give the same value every time (4096 different ones at most) */
    CHK(moa_layout_spring_curve(w->L, 0.7, 0.4, NULL, &w->custom[0]), OKM);
    CHK(moa_layout_spring_curve(w->L, 1.2, 0.3, &(double){300}, &w->custom[1]), OKM);
    CHK(moa_layout_bezier_curve(w->L, 0.2, 1.4, 0.6, 1, &w->custom[2]), OKM);
    CHK(moa_layout_bezier_curve(w->L, 0.3, 0, 0.7, 1, &w->custom[3]), OKM);
    solver_init(w);
}

static void check_curves(worker *w) {
    moa_curve c[4];
    CHK(moa_layout_spring_curve(w->L, 0.7, 0.4, NULL, &c[0]), OKM);
    CHK(moa_layout_spring_curve(w->L, 1.2, 0.3, &(double){300}, &c[1]), OKM);
    CHK(moa_layout_bezier_curve(w->L, 0.2, 1.4, 0.6, 1, &c[2]), OKM);
    CHK(moa_layout_bezier_curve(w->L, 0.3, 0, 0.7, 1, &c[3]), OKM);
    if (memcmp(c, w->custom, sizeof c) != 0) fail(w, __LINE__, "the same curve parameters gave another curve");
}

static int op_total;              /* the sum of op_weights, set by main() before any thread starts */
static int max_views = 0;         /* --views: the cap of the pool (default 300, --quick 100); below a third of it,
                                     removals turn into adds */

static int pick_op(worker *w) {
    int total = op_total;
    if ((rbelow(&w->r, RARE_EVERY) == 0 && rare_on) || total == 0) return OP_RARE;
    int x = rbelow(&w->r, total), k = 0;
    while (x >= op_weights[k]) x -= op_weights[k++];
    /* keep the pool between a third of max_views and max_views, and the extra equations under MAX_EXTRA */
    if (k == OP_ADD_VIEW && w->nviews >= max_views) k = op_weights[OP_REMOVE_LEAF] ? OP_REMOVE_LEAF : OP_REMOVE_SUBTREE;
    else if ((k == OP_REMOVE_LEAF || k == OP_REMOVE_SUBTREE) && w->nviews < max_views / 3) k = OP_ADD_VIEW;
    if (k == OP_ADD_EQ && w->nextra >= MAX_EXTRA) k = OP_REMOVE_EQ;
    return k;
}

static void run_op(worker *w, int k) {
    w->opcount[k]++;
    switch (k) {
    case OP_ADD_VIEW: op_add_view(w); break;
    case OP_REMOVE_LEAF: op_remove_leaf(w); break;
    case OP_REMOVE_SUBTREE: op_remove_subtree(w); break;
    case OP_MOVE_VIEW: op_move_view(w); break;
    case OP_ADD_EQ: op_add_eq(w); break;
    case OP_REMOVE_EQ: op_remove_eq(w); break;
    case OP_SET_CONSTANT: op_set_constant(w); break;
    case OP_SET_PRIORITY: op_set_priority(w); break;
    case OP_SET_ACTIVE: op_set_active(w); break;
    case OP_ANIMATE: op_animate(w); break;
    case OP_ANIMATE_PRIORITY: op_animate_priority(w); break;
    case OP_CANCEL: op_cancel(w); break;
    case OP_ADVANCE: op_advance(w); break;
    case OP_COLLAPSIBLE: op_collapsible(w); break;
    case OP_PAN: op_pan(w); break;
    case OP_ROOT_SIZE: op_root_size(w); break;
    case OP_KEYBOARD: op_keyboard(w); break;
    case OP_TEXT: op_text(w); break;
    case OP_SOLVE: op_solve(w); break;
    case OP_SOLVER: op_solver(w); break;
    case OP_TRACE: op_trace(w); break;
    default: op_rare(w); break;
    }
}

static void *worker_main(void *arg) {
    worker *w = arg;
    worker_init(w);
    long long done = 0;
    for (int tenth = 0; tenth < 10; tenth++) {
        long long end = w->ops * (tenth + 1) / 10;
        double t0 = now_ns();
        int slot = tenth == 1 ? 0 : tenth == 9 ? 1 : -1;
        for (; done < end; done++) {
            int k = pick_op(w);
            w->op = done;
            if (slot < 0) {
                run_op(w, k);
            } else {
                double a = now_ns();
                run_op(w, k);
                w->opns[slot][k] += now_ns() - a;
            }
        }
        double t1 = now_ns();
        long long n = end - w->ops * tenth / 10;
        sample *s = &w->samples[tenth];
        moa_usage u;
        s->ns_per_op = n ? (t1 - t0) / (double)n : 0;
        if (w->sample_rss) {
            s->raw_rss_mb = rss_mb();
            s->heap_mb = heap_mb();
            trim();
            s->rss_mb = rss_mb();
        }
        check_counts(w, __LINE__);
        check_curves(w);
        CHK(moa_layout_usage(w->L, &u), OKM);
        s->views = (size_t)w->nviews;
        s->cons = (size_t)w->ncons;
        s->rows = u.rows;
        s->cells = u.cells;
        SCHK(moa_solver_usage(w->S, &u), OKM);
        s->srows = u.rows, s->scells = u.cells, s->svars = u.variables, s->scons = u.constraints;
        if (u.constraints != (size_t)w->nscons || u.variables != SVARS)
            fail(w, __LINE__, "solver usage: %zu constraints, %zu variables; bookkeeping %d, %d", u.constraints,
                 u.variables, w->nscons, SVARS);
    }
    moa_layout_free(w->L); /* calls the completions still due */
    w->L = NULL;
    if (w->done_given != w->done_calls)
        fail(w, __LINE__, "%lld completions given, %lld called", w->done_given, w->done_calls);
    if (w->rest_given != w->rest_calls)
        fail(w, __LINE__, "%lld pan rests given, %lld called", w->rest_given, w->rest_calls);
    moa_solver_free(w->S);
    return NULL;
}

/* One run: T threads (T 1: the main thread) of N operations each. Returns the number of broken criteria. */
static int run_phase(int phase, int nthreads, long long ops, uint64_t seed, int check_time) {
    worker *ws = calloc((size_t)nthreads, sizeof *ws);
    int bad = 0, failures = 0;
    double t0 = now_ns();
    if (!ws) {
        fprintf(stderr, "soak: out of memory\n");
        return 1;
    }
    printf("soak: run %d: %d thread%s x %lld operations, seed %llu\n", phase, nthreads, nthreads > 1 ? "s" : "",
           ops, (unsigned long long)seed);
    fflush(stdout);
    for (int i = 0; i < nthreads; i++) {
        ws[i].id = i;
        ws[i].ops = ops;
        ws[i].seed = seed * 1000003ULL + (uint64_t)phase * 7919ULL + (uint64_t)i;
        ws[i].sample_rss = i == 0;
    }
    if (nthreads == 1) {
        worker_main(&ws[0]);
    } else {
        for (int i = 0; i < nthreads; i++)
            if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]) != 0) {
                fprintf(stderr, "soak: pthread_create failed\n");
                exit(1);
            }
        for (int i = 0; i < nthreads; i++) pthread_join(ws[i].tid, NULL);
    }
    double secs = (now_ns() - t0) * 1e-9;
    worker *w0 = &ws[0];
    printf("%5s %10s %9s%s %8s %8s %8s %6s %6s %6s %8s %6s %6s\n", "tenth", "ops", "ns/op",
           nthreads > 1 ? " ns/op(all)" : "", "RSS MB", "raw RSS", "heap MB", "views", "cons", "rows", "cells",
           "s.rows", "s.cells");
    for (int t = 0; t < 10; t++) {
        sample *s = &w0->samples[t];
        double all = 0;
        for (int i = 0; i < nthreads; i++) all += ws[i].samples[t].ns_per_op;
        printf("%5d %10lld %9.0f", t + 1, ops * (t + 1) / 10, s->ns_per_op);
        if (nthreads > 1) printf(" %10.0f", all / nthreads);
        printf(" %8.1f %8.1f %8.1f %6zu %6zu %6zu %8zu %6zu %6zu\n", s->rss_mb, s->raw_rss_mb, s->heap_mb, s->views,
               s->cons, s->rows, s->cells, s->srows, s->scells);
    }
    /* memory */
    double base = w0->samples[1].rss_mb, last = w0->samples[9].rss_mb, limit = base * 1.10 + 4.0;
    int flat = last <= limit;
    printf("memory: RSS (after malloc_trim) at the end %.1f MB, after warm-up (tenth 2) %.1f MB; limit 1.10 x %.1f + 4 "
           "= %.1f MB: %s\n", last, base, base, limit, flat ? "flat" : "GROWS");
    if (!flat) bad++;
    /* time */
    double worst = 0;
    for (int i = 0; i < nthreads; i++) {
        double r = ws[i].samples[1].ns_per_op > 0 ? ws[i].samples[9].ns_per_op / ws[i].samples[1].ns_per_op : 0;
        if (r > worst) worst = r;
    }
    if (check_time) {
        printf("time: ns/op last tenth / second tenth = %.2f%s (limit 2.0): %s\n", worst,
               nthreads > 1 ? " (worst thread)" : "", worst <= 2.0 ? "flat" : "SLOWER");
        if (worst > 2.0) bad++;
    } else {
        printf("time: ns/op last tenth / second tenth = %.2f%s (reported only; --check-time checks it)\n", worst,
               nthreads > 1 ? " (worst thread)" : "");
    }
    /* per thread */
    for (int i = 0; i < nthreads; i++) {
        worker *w = &ws[i];
        long long unsat = w->unsat;
        printf("thread %d: checksum %016llx, %d unexpected, %lld unsatisfiable (accepted), completions %lld/%lld, "
               "pan rests %lld/%lld, xeq twins %lld, solver replaced after MOA_ERROR %lld times\n", i,
               (unsigned long long)w->h, w->failures, unsat, w->done_calls, w->done_given, w->rest_calls, w->rest_given,
               w->xeq_twins, w->solver_resets);
        failures += w->failures;
    }
    printf("operations (thread 0):");
    for (int k = 0; k < OP_COUNT; k++) printf(" %s %lld%s", op_names[k], w0->opcount[k], k + 1 < OP_COUNT ? "," : "\n");
    /* where the time goes: each kind's share of the ns/op of the second and of the last tenth (thread 0) */
    printf("ns/op by kind (thread 0), second tenth -> last tenth:");
    for (int k = 0, first = 1; k < OP_COUNT; k++) {
        double a = w0->opns[0][k] * 10.0 / (double)ops, b = w0->opns[1][k] * 10.0 / (double)ops;
        if (a + b < 0.02 * (w0->samples[1].ns_per_op + w0->samples[9].ns_per_op)) continue;
        printf("%s %s %.0f -> %.0f", first ? "" : ",", op_names[k], a, b);
        first = 0;
    }
    printf("\n");
    if (failures) bad++;
    printf("run %d: %.1f s, %s\n\n", phase, secs, bad ? "FAILED" : "ok");
    fflush(stdout);
    free(ws);
    return bad;
}

static void usage(void) {
    fprintf(stderr, "usage: soak [--ops N] [--threads T] [--seed S] [--views V] [--quick] [--check-time] "
                    "[--without KIND,... | --only KIND,...]\n"
                    "kinds:");
    for (int k = 0; k < OP_COUNT; k++) fprintf(stderr, " %s", op_names[k]);
    fputc('\n', stderr);
    exit(2);
}

/* --without a,b: those operation kinds are never drawn; --only a,b: only those are (to find which kind makes
   something grow). */
static void without(const char *list, int only) {
    int keep[OP_COUNT] = {0};
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < OP_COUNT && strcmp(op_names[k], t) != 0) k++;
        if (k == OP_COUNT) usage();
        keep[k] = 1;
    }
    for (int k = 0; k < OP_COUNT; k++) {
        if (keep[k] == only) continue;
        if (k == OP_RARE) rare_on = 0;
        op_weights[k] = 0;
    }
}

int main(int argc, char **argv) {
    long long ops = 0;
    int threads = 0, quick = 0, check_time = 0, bad = 0;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--check-time") == 0) check_time = 1;
        else if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc) ops = atoll(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--without") == 0 && i + 1 < argc) without(argv[++i], 0);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) without(argv[++i], 1);
        else if (strcmp(argv[i], "--views") == 0 && i + 1 < argc) max_views = atoi(argv[++i]);
        else usage();
    }
    if (!max_views) max_views = quick ? 100 : MAX_VIEWS;
    if (ops < 0 || threads < 0 || threads > 64 || (ops > 0 && ops < 10) || max_views < 3 || max_views > MAX_VIEWS)
        usage();
    for (int k = 0; k < OP_COUNT; k++) op_total += op_weights[k];
    if (op_total == 0 && !rare_on) usage(); /* nothing left to draw */
    printf("soak: libmoa %s, %s, at most %d views per layout%s\n", moa_libversion(), quick ? "quick" : "full",
           max_views, check_time ? ", checking time" : "");
    if (ops || threads) {
        if (!threads) threads = 1;
        if (!ops) ops = quick ? (threads == 1 ? 200000 : 50000) : (threads == 1 ? 10000000 : 1000000);
        bad += run_phase(1, threads, ops, seed, check_time);
    } else if (quick) {
        bad += run_phase(1, 1, 200000, seed, check_time);
        bad += run_phase(2, 2, 50000, seed, check_time);
    } else {
        bad += run_phase(1, 1, 10000000, seed, check_time);
        bad += run_phase(2, 4, 1000000, seed, check_time);
    }
    if (bad) {
        printf("soak: FAILED (%d broken criteria)\n", bad);
        return 1;
    }
    printf("soak: ok\n");
    return 0;
}
