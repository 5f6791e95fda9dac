/*
** solver.c -- three boxes in a row inside a window, with the raw Moa solver.
**
**   | 10 | box a | 10 | box b | 10 | box c | 10 |      window width W (an edit variable, 320 at first)
**
** Required: the left padding, the gaps, every box at least 50 wide. High: the right padding. Medium: equal
** widths. Low: box b would like to be 120 wide. Then the window is resized by suggesting new widths: at 150 the
** boxes cannot shrink below 50, so the (high) right padding gives way and the row overflows.
**
** Build (from the repository root, after `make`):
**   cc -std=c11 -Wall -Wextra -IInclude examples/c/solver.c -Lbuild/lib -lmoa -Wl,-rpath,$PWD/build/lib
*/
#include <stdio.h>
#include <stdlib.h>

#include "moa.h"

/* Stop with the solver's message if a call fails. */
#define TRY(s, call)                                                                                  \
    do {                                                                                              \
        moa_status st_ = (call);                                                                      \
        if (st_ != MOA_OK) {                                                                          \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call, moa_errstr(st_),       \
                    moa_solver_errmsg(s));                                                            \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

/* Adds sum(terms) + constant REL 0 and returns the constraint. */
static moa_cons add(moa_solver *s, const moa_term *terms, size_t n, double constant, moa_relation rel,
                    double priority, const char *tag) {
    moa_cons c = 0;
    TRY(s, moa_solver_add(s, terms, n, constant, rel, priority, tag, &c));
    return c;
}

static double get(moa_solver *s, moa_var v) {
    double x = 0;
    TRY(s, moa_var_value(s, v, &x));
    return x;
}

int main(void) {
    if (moa_libversion_number() != MOA_VERSION_NUMBER) {
        fprintf(stderr, "header %s does not match library %s\n", MOA_VERSION, moa_libversion());
        return 1;
    }
    moa_solver *s = moa_solver_new();
    if (s == NULL) return 1;

    moa_var window, left[3], width[3];
    const char *names[3][2] = {{"a.left", "a.width"}, {"b.left", "b.width"}, {"c.left", "c.width"}};
    TRY(s, moa_var_new(s, "window.width", &window));
    for (int i = 0; i < 3; i++) {
        TRY(s, moa_var_new(s, names[i][0], &left[i]));
        TRY(s, moa_var_new(s, names[i][1], &width[i]));
    }

    /* a.left == 10 */
    add(s, (moa_term[]){{left[0], 1}}, 1, -10, MOA_EQ, MOA_REQUIRED, "left padding");
    for (int i = 0; i < 3; i++) {
        /* width >= 50 */
        add(s, (moa_term[]){{width[i], 1}}, 1, -50, MOA_GE, MOA_REQUIRED, "min width");
        if (i < 2) /* next.left == left + width + 10 */
            add(s, (moa_term[]){{left[i + 1], 1}, {left[i], -1}, {width[i], -1}}, 3, -10, MOA_EQ, MOA_REQUIRED,
                "gap");
    }
    /* c.left + c.width + 10 == window.width, high */
    add(s, (moa_term[]){{left[2], 1}, {width[2], 1}, {window, -1}}, 3, 10, MOA_EQ, MOA_HIGH, "right padding");
    /* equal widths, medium */
    add(s, (moa_term[]){{width[0], 1}, {width[1], -1}}, 2, 0, MOA_EQ, MOA_MEDIUM, "a.width == b.width");
    add(s, (moa_term[]){{width[1], 1}, {width[2], -1}}, 2, 0, MOA_EQ, MOA_MEDIUM, "b.width == c.width");
    /* b.width == 120, low */
    add(s, (moa_term[]){{width[1], 1}}, 1, -120, MOA_EQ, MOA_LOW, "b prefers 120");

    /* The window width is an edit variable, stronger than anything but required constraints. */
    TRY(s, moa_solver_add_edit(s, window, 999));

    const double sizes[] = {320, 200, 150};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        TRY(s, moa_solver_suggest(s, window, sizes[k]));
        TRY(s, moa_solver_update(s));
        printf("window %.0f:", get(s, window));
        for (int i = 0; i < 3; i++) printf("  %c [%6.2f, %6.2f]", 'a' + i, get(s, left[i]), get(s, width[i]));
        double right = get(s, left[2]) + get(s, width[2]);
        printf("  right edge %.2f%s\n", right, right + 10 > get(s, window) + 1e-9 ? " (overflows)" : "");
    }

    size_t nvars = 0, ncons = 0;
    TRY(s, moa_solver_counts(s, &nvars, &ncons));
    printf("%zu variables, %zu constraints\n", nvars, ncons);

    /* A required constraint that cannot hold is refused, and the solver says why. */
    moa_cons c = 0;
    moa_status st =
        moa_solver_add(s, (moa_term[]){{width[0], 1}}, 1, -10, MOA_EQ, MOA_REQUIRED, "a.width == 10", &c);
    printf("adding a.width == 10 (required): %s\n  %s\n", moa_errstr(st), moa_solver_errmsg(s));

    moa_solver_free(s);
    return 0;
}
