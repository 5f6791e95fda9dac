/*
** check.h -- a tiny test framework for Moa's C tests.
**
** Each CHECK* macro counts one passed or failed check and prints failures to stderr with file and line.
** CHECK_DONE() prints "N passed, N failed" on its own line to stdout and evaluates to the exit status
** (nonzero if anything failed): end main() with `return CHECK_DONE();`.
*/
#ifndef MOA_TEST_CHECK_H
#define MOA_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "moa.h"

static int check_passed_ = 0;
static int check_failed_ = 0;

static inline void check_report_(int ok, const char *file, int line, const char *what) {
    if (ok) {
        check_passed_++;
    } else {
        check_failed_++;
        fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what);
    }
}

/* CHECK(cond): cond is true. */
#define CHECK(cond) check_report_((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* CHECK_STATUS(expr, want): expr returns the moa_status want. */
#define CHECK_STATUS(expr, want)                                                                          \
    do {                                                                                                  \
        moa_status got_ = (expr);                                                                         \
        moa_status want_ = (want);                                                                        \
        check_report_(got_ == want_, __FILE__, __LINE__, #expr " == " #want);                              \
        if (got_ != want_)                                                                                \
            fprintf(stderr, "    got %d (%s), want %d (%s)\n", got_, moa_errstr(got_), want_,               \
                    moa_errstr(want_));                                                                   \
    } while (0)

/* CHECK_OK(expr): expr returns MOA_OK. */
#define CHECK_OK(expr) CHECK_STATUS(expr, MOA_OK)

/* CHECK_NEAR(a, b): |a - b| <= 1e-6 (and neither is NaN). */
#define CHECK_NEAR(a, b)                                                                                  \
    do {                                                                                                  \
        double a_ = (a), b_ = (b);                                                                        \
        int ok_ = fabs(a_ - b_) <= 1e-6;                                                                  \
        check_report_(ok_, __FILE__, __LINE__, #a " ~= " #b);                                             \
        if (!ok_) fprintf(stderr, "    got %.17g, want %.17g\n", a_, b_);                                  \
    } while (0)

/* CHECK_STR(a, b): two non-NULL C strings are equal. */
#define CHECK_STR(a, b)                                                                                   \
    do {                                                                                                  \
        const char *a_ = (a), *b_ = (b);                                                                  \
        int ok_ = a_ != NULL && b_ != NULL && strcmp(a_, b_) == 0;                                        \
        check_report_(ok_, __FILE__, __LINE__, #a " == " #b);                                             \
        if (!ok_) fprintf(stderr, "    got \"%s\", want \"%s\"\n", a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
    } while (0)

/* CHECK_CONTAINS(hay, needle): hay is non-NULL and contains needle. */
#define CHECK_CONTAINS(hay, needle)                                                                       \
    do {                                                                                                  \
        const char *h_ = (hay), *n_ = (needle);                                                           \
        int ok_ = h_ != NULL && strstr(h_, n_) != NULL;                                                   \
        check_report_(ok_, __FILE__, __LINE__, #hay " contains " #needle);                                 \
        if (!ok_) fprintf(stderr, "    \"%s\" does not contain \"%s\"\n", h_ ? h_ : "(null)", n_);         \
    } while (0)

/* CHECK_DONE(): print the summary line; evaluates to 0 if all passed, 1 otherwise. */
#define CHECK_DONE() (printf("%d passed, %d failed\n", check_passed_, check_failed_), check_failed_ ? 1 : 0)

#endif /* MOA_TEST_CHECK_H */
