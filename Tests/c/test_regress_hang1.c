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
    moa_var_new(s, "v4", &v[4]);
    moa_var_new(s, "v8", &v[8]);
    moa_var_new(s, "v21", &v[21]);
    ADD(23, MOA_LE, 999, 10, {v[4], -13}, {v[8], -14}, {v[21], 1});
    moa_solver_add_edit(s, v[4], 999);
    ADD(30, MOA_LE, 500, -190, {v[21], 17}, {v[21], 16}, {v[8], 15});
    moa_var_new(s, "v10", &v[10]);
    ADD(42, MOA_EQ, 999, 30, {v[21], 1}, {v[8], -11}, {v[21], -17});
    moa_var_new(s, "v7", &v[7]);
    moa_solver_add_edit(s, v[21], 750);
    ADD(45, MOA_GE, 1000, 30, {v[7], -19}, {v[21], -5}, {v[21], 11});
    moa_solver_remove_edit(s, v[21]);
    moa_var_new(s, "v3", &v[3]);
    moa_solver_add_edit(s, v[21], 999);
    ADD(19, MOA_EQ, 250, 200, {v[8], -12}, {v[3], -9});
    moa_var_new(s, "v23", &v[23]);
    moa_solver_remove_edit(s, v[21]);
    ADD(49, MOA_LE, 1, -70, {v[10], -19}, {v[21], 3}, {v[10], 1});
    ADD(20, MOA_LE, 500.5, 30, {v[23], -4}, {v[10], -5}, {v[7], 15});
    moa_var_new(s, "v17", &v[17]);
    moa_var_new(s, "v12", &v[12]);
    moa_cons_set_weight(s, c[42], 0.5);
    ADD(54, MOA_EQ, 500, 70, {v[23], 20}, {v[17], -3}, {v[21], 12});
    ADD(62, MOA_EQ, 750, -40, {v[10], 8}, {v[23], 7}, {v[12], -1});
    moa_cons_set_constant(s, c[19], -100);
    ADD(35, MOA_EQ, 250, 60, {v[23], -10}, {v[3], -18}, {v[17], -7});
    ADD(46, MOA_EQ, 1000, -200, {v[7], -10}, {v[12], -15}, {v[7], 14});
    ADD(48, MOA_EQ, 750, -80, {v[12], -3}, {v[8], -9});
    moa_cons_remove(s, c[23]);
    ADD(15, MOA_GE, 500.5, 140, {v[12], 14}, {v[21], -13}, {v[10], -20});
    printf("update\n"); moa_solver_update(s);
    for (int i = 0; i < 32; i++) if (v[i]) { double x; moa_var_value(s, v[i], &x); printf("v%d = %.10g\n", i, x);
        if (x != x || x > 1e12 || x < -1e12) { printf("FAIL: v%d = %g is out of range\n", i, x); return 1; } }
    moa_solver_free(s);
    return 0;
}
