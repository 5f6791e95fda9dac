/*
** layout.c -- a screen laid out from an `eqs` block of equations, with the Moa layout API.
**
** The calendar screen of the RMExtensions README: a calendar on top, a table below it inset by 7 points on
** each side, and a 3-point shadow image along the table's top edge (only its height comes from its content:
** an intrinsic height). The frames are printed at 320 x 480, after the calendar opens to 200 points, after a
** rotation to 480 x 320, and while the calendar closes again (animated over 0.3 s, easeInOut).
**
** Build (from the repository root, after `make`):
**   cc -std=c11 -Wall -Wextra -IInclude examples/c/layout.c -Lbuild/lib -lmoa -Wl,-rpath,$PWD/build/lib
*/
#include <stdio.h>
#include <stdlib.h>

#include "moa.h"

/* Stop with the layout's message if a call fails. */
#define TRY(L, call)                                                                                  \
    do {                                                                                              \
        moa_status st_ = (call);                                                                      \
        if (st_ != MOA_OK) {                                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n%s\n", __FILE__, __LINE__, #call, moa_errstr(st_),        \
                    moa_layout_errmsg(L));                                                            \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

static const char *screen =
    "# calendar screen (RMExtensions README)\n"
    "calendar.left == 0\n"
    "calendar.right == 0\n"
    "table.left == 7\n"
    "table.right == -7\n"
    "shadow.left == 0\n"
    "shadow.right == 0\n"
    "\n"
    "calendar.top == 0\n"
    "table.top == calendar.bottom\n"
    "table.bottom == 0\n"
    "shadow.top == table.top\n";

/* Prints every view's frame (relative to its superview), indented by depth. */
static void print_frames(moa_layout *L, const char *title) {
    moa_frame frames[16];
    size_t n = 0;
    double t = 0;
    TRY(L, moa_layout_frames(L, 0, frames, 16, &n));
    TRY(L, moa_layout_time(L, &t));
    printf("%s (t = %.3f s)\n", title, t);
    for (size_t i = 0; i < n && i < 16; i++) {
        const char *name = NULL;
        TRY(L, moa_view_name(L, frames[i].view, &name));
        moa_rect r = frames[i].frame;
        int indent = 2 * frames[i].depth;
        printf("  %*s%-*s x %7.2f  y %7.2f  w %7.2f  h %7.2f\n", indent, "", 12 - indent, name, r.x, r.y, r.width,
               r.height);
    }
}

static void on_closed(moa_layout *L, moa_animation a, int finished, void *ud) {
    (void)L, (void)a, (void)ud;
    printf("  -- the calendar %s\n", finished ? "closed" : "was interrupted");
}

int main(void) {
    moa_layout *L = moa_layout_new(320, 480);
    if (L == NULL) return 1;
    moa_view calendar, table, shadow;
    TRY(L, moa_view_new(L, "calendar", 0, &calendar));
    TRY(L, moa_view_new(L, "table", 0, &table));
    TRY(L, moa_view_new(L, "shadow", 0, &shadow));
    /* The shadow is a stretchable 1 x 3 image: no intrinsic width, an intrinsic height of 3. */
    TRY(L, moa_view_set_intrinsic_size(L, shadow, MOA_NO_INTRINSIC, 3));

    moa_lcons ids[16];
    size_t n = 0;
    TRY(L, moa_layout_eqs(L, screen, ids, 16, &n));
    moa_lcons height;
    TRY(L, moa_layout_eq(L, "calendar.height == 0", &height));
    printf("%zu constraints from the eqs block, plus `calendar.height == 0`\n\n", n);

    TRY(L, moa_layout_solve(L, NULL));
    print_frames(L, "320 x 480, calendar closed");

    TRY(L, moa_lcons_set_constant(L, height, 200));
    TRY(L, moa_layout_solve(L, NULL));
    print_frames(L, "calendar open (200)");

    TRY(L, moa_layout_set_root_size(L, 480, 320));
    TRY(L, moa_layout_solve(L, NULL));
    print_frames(L, "rotated to 480 x 320");

    TRY(L, moa_lcons_animate(L, height, 0, 0.3, MOA_EASE_IN_OUT, 0, on_closed, NULL, NULL));
    for (int i = 1; i <= 2; i++) {
        TRY(L, moa_layout_advance(L, 0.15));
        print_frames(L, i == 1 ? "closing" : "closed");
    }

    /* A typo is reported with its line, offset and a suggestion, and changes nothing. */
    moa_lcons c;
    if (moa_layout_eq(L, "calender.top == 10", &c) != MOA_OK) printf("\nexpected error:\n%s\n", moa_layout_errmsg(L));
    moa_layout_free(L);
    return 0;
}
