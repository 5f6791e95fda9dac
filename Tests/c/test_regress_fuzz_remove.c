/* Regression (found by moa-fuzz, target solver; input Tests/fuzz/corpus/solver/regress-remove-rollback):
   removing an optional constraint whose coefficients are extreme (1e-9 beside -103 and an edit at 513) made
   the re-optimization after the withdrawal fail (MOA_ERROR, "internal error"), which is allowed, but the
   constraint stayed withdrawn and the tableau re-pivoted: a failed call changed the solver. Now the
   withdrawal is journaled and rolled back, so a failure leaves moa_solver_dump() exactly as it was. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void) {
    moa_solver *s = moa_solver_new();
    moa_var v = 0;
    moa_cons c0 = 0, c1 = 0;
    CHECK_STATUS(moa_var_new(s, "v0", &v), MOA_OK);
    moa_term t0 = {v, 1e-9};
    CHECK_STATUS(moa_solver_add(s, &t0, 1, 0.3333333333333333, MOA_GE, 250, NULL, &c0), MOA_OK);
    CHECK_STATUS(moa_solver_add_edit(s, v, 513), MOA_OK);
    moa_term t1 = {v, -103};
    CHECK_STATUS(moa_solver_add(s, &t1, 1, 1e-9, MOA_LE, 21, NULL, &c1), MOA_OK);

    const char *text = NULL;
    CHECK_STATUS(moa_solver_dump(s, &text), MOA_OK);
    size_t len = strlen(text) + 1;
    char *before = malloc(len);
    memcpy(before, text, len);
    moa_status st = moa_cons_remove(s, c0);
    CHECK(st == MOA_OK || st == MOA_ERROR);
    if (st != MOA_OK) {
        CHECK_STATUS(moa_solver_dump(s, &text), MOA_OK);
        CHECK(strcmp(before, text) == 0);
        int active = 0;
        CHECK_STATUS(moa_cons_is_active(s, c0, &active), MOA_OK);
        CHECK(active == 1);
    } else {
        double k = 0;
        CHECK_STATUS(moa_cons_constant(s, c0, &k), MOA_NOTFOUND);
    }
    free(before);
    CHECK_STATUS(moa_solver_update(s), MOA_OK);
    moa_solver_free(s);
    return CHECK_DONE();
}
