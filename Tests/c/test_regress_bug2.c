/* Regression (found by test_stress.c's random call sequences): this sequence once made the simplex cycle
   forever or pivot on rounding noise (values of 1e13, a required constraint broken). It must end; a call
   may fail with MOA_ERROR ("internal error"), which leaves the solver consistent. */
#include <stdio.h>
#include "moa.h"
#define ADD(slot, rel, prio, k, ...) do { moa_term t_[] = {__VA_ARGS__}; \
    moa_status st_ = moa_solver_add(s, t_, sizeof t_ / sizeof t_[0], k, rel, prio, #slot, &c[slot]); \
    if (st_) printf("add %s: %s\n", #slot, moa_errstr(st_)); } while (0)
int main(void) {
    moa_solver *s = moa_solver_new();
    moa_var v[32] = {0};
    moa_cons c[64] = {0};
    moa_var_new(s, "v15", &v[15]);
    moa_var_new(s, "v0", &v[0]);
    ADD(40, MOA_LE, 500, -150, {v[15], 9});
    moa_var_new(s, "v20", &v[20]);
    moa_var_new(s, "v21", &v[21]);
    ADD(5, MOA_LE, 999, 90, {v[15], 8}, {v[0], -19}, {v[20], -3});
    moa_var_new(s, "v11", &v[11]);
    ADD(37, MOA_GE, 1000, -160, {v[0], -19}, {v[11], -3}, {v[20], -17});
    moa_solver_add_edit(s, v[11], 750);
    ADD(35, MOA_EQ, 1000, 110, {v[20], 1}, {v[11], -17});
    ADD(18, MOA_EQ, 1000, -120, {v[0], 7}, {v[21], 13}, {v[11], -9});
    moa_var_new(s, "v5", &v[5]);
    ADD(14, MOA_LE, 500, -40, {v[20], 16}, {v[11], -16}, {v[5], -1});
    moa_var_new(s, "v13", &v[13]);
    moa_cons_set_priority(s, c[35], 500.5);
    ADD(17, MOA_EQ, 1000, 30, {v[13], 1}, {v[5], 17});
    ADD(38, MOA_LE, 1000, 160, {v[13], 1}, {v[21], 4});
    moa_solver_update(s);
    for (int i = 0; i < 32; i++) if (v[i]) { double x; moa_var_value(s, v[i], &x); printf("v%d = %.10g\n", i, x);
        if (x != x || x > 1e12 || x < -1e12) { printf("FAIL: v%d = %g is out of range\n", i, x); return 1; } }
    moa_solver_free(s);
    return 0;
}
