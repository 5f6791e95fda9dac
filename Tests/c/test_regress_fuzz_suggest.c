/* Regression (found by moa-fuzz, target solver; input Tests/fuzz/corpus/solver/regress-suggest-rollback):
   suggesting a value the required constraints cannot reach, with a coefficient of 1e-9, made the dual simplex
   give up (no pivot above its epsilon) on the edit constraint, which is optional. The call returned
   MOA_UNSATISFIABLE (not a status of moa_solver_suggest) and left the tableau half changed (a row constant of
   -572 on a slack, a different value for v). Now the change is journaled and rolled back: the call succeeds
   or fails with MOA_ERROR, and a failure leaves moa_solver_dump() exactly as it was. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void) {
    moa_solver *s = moa_solver_new();
    moa_var v = 0;
    moa_cons c = 0;
    CHECK_STATUS(moa_var_new(s, "v0", &v), MOA_OK);
    moa_term t = {v, 1e-9};
    CHECK_STATUS(moa_solver_add(s, &t, 1, -128, MOA_LE, MOA_REQUIRED, NULL, &c), MOA_OK); /* v <= 1.28e11 */
    CHECK_STATUS(moa_solver_add_edit(s, v, 250), MOA_OK);
    moa_status again = moa_solver_add_edit(s, v, 1000); /* already an edit variable, and a bad priority */
    CHECK(again == MOA_DUPLICATE || again == MOA_INVALID);
    CHECK_STATUS(moa_solver_suggest(s, v, 127999999999.99998), MOA_OK);

    const char *text = NULL;
    CHECK_STATUS(moa_solver_dump(s, &text), MOA_OK);
    size_t len = strlen(text) + 1;
    char *before = malloc(len);
    memcpy(before, text, len);
    moa_status st = moa_solver_suggest(s, v, 7e11);
    CHECK(st == MOA_OK || st == MOA_ERROR);
    if (st != MOA_OK) {
        CHECK_STATUS(moa_solver_dump(s, &text), MOA_OK);
        CHECK(strcmp(before, text) == 0);
    }
    free(before);

    /* Either way the required constraint holds. */
    double x = 0;
    CHECK_STATUS(moa_solver_update(s), MOA_OK);
    CHECK_STATUS(moa_var_value(s, v, &x), MOA_OK);
    CHECK(x * 1e-9 - 128 <= 1e-6);
    moa_solver_free(s);
    return CHECK_DONE();
}
