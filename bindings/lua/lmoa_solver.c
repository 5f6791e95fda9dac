/*
** lmoa_solver.c -- moa.Solver, moa.Variable and moa.Constraint: Moa's raw constraint solver (moa_solver_*,
** moa_var_*, moa_cons_*), with the deferred freeing of collected variables. The arithmetic that builds the
** constraints (moa.Expression, moa.Relation, the operators of moa.Variable) is in lmoa_expr.c. Registers moa.solver.
** Reference: bindings/lua/README.md.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lmoa.h"

#define DEFAULT_EDIT_PRIORITY MOA_HIGH

/* ======================================================================================================== */
/* Helpers                                                                                                  */
/* ======================================================================================================== */

/* The solver of a child userdata at idx (user value 1), or NULL if it has none. Pushes nothing. The pointer
   stays valid while the child is reachable (the child keeps its solver alive). */
LSolver *lmoa_solver_of(lua_State *L, int idx) {
    LSolver *ls;
    lua_getiuservalue(L, idx, 1);
    ls = (LSolver *)luaL_testudata(L, -1, SOLVER_MT);
    lua_pop(L, 1);
    return ls;
}

/* Raises the error the progress function raised in the call that just returned, if any (it stopped the call,
   which failed with MOA_LIMIT). Call only after the moa_* call has returned. */
static void raise_progress_error(lua_State *L, LSolver *ls) {
    if (!ls || ls->errref == LUA_NOREF) return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ls->errref);
    luaL_unref(L, LUA_REGISTRYINDEX, ls->errref);
    ls->errref = LUA_NOREF;
    lua_error(L);
}

/* Raises with the solver's message for a failed call (lmoa_status_error). Call only after the moa_* call has
   returned. */
static int solver_error(lua_State *L, LSolver *ls, moa_status st, const char *what) {
    raise_progress_error(L, ls);
    return lmoa_status_error(L, ls && ls->s ? moa_solver_errmsg(ls->s) : NULL, st, what);
}

/* ======================================================================================================== */
/* Deferred freeing of collected variables                                                                  */
/* ======================================================================================================== */

static int push_id(moa_var **arr, size_t *n, size_t *cap, moa_var id) {
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        moa_var *p = (moa_var *)realloc(*arr, ncap * sizeof *p);
        if (!p) return 0; /* the variable then stays in the solver until it is freed: harmless */
        *arr = p;
        *cap = ncap;
    }
    (*arr)[(*n)++] = id;
    return 1;
}

static void drop_pending(LSolver *ls) {
    free(ls->fresh);
    free(ls->orphans);
    ls->fresh = ls->orphans = NULL;
    ls->nfresh = ls->capfresh = ls->norphans = ls->caporphans = 0;
    ls->dirty = 0;
}

/* Frees the collected variables that nothing uses any more. Called at the start of binding calls, before the
   call's own moa_* call (freeing records an outcome on the solver, so it must not come between a failing call
   and the reading of its message). With retry, the orphans are tried again too (when something went away). */
static void flush_vars(LSolver *ls, int retry) {
    size_t i, k;
    if (!ls->s) return;
    for (i = 0; i < ls->nfresh; i++) {
        if (moa_var_free(ls->s, ls->fresh[i]) == MOA_MISUSE) /* still used */
            push_id(&ls->orphans, &ls->norphans, &ls->caporphans, ls->fresh[i]);
    }
    ls->nfresh = 0;
    if (retry && ls->dirty) {
        for (i = k = 0; i < ls->norphans; i++)
            if (moa_var_free(ls->s, ls->orphans[i]) == MOA_MISUSE) ls->orphans[k++] = ls->orphans[i];
        ls->norphans = k;
        ls->dirty = 0;
    }
}

/* ======================================================================================================== */
/* Checking userdata                                                                                        */
/* ======================================================================================================== */

/* An open solver at idx; flushes the collected variables. */
static LSolver *check_solver(lua_State *L, int idx) {
    LSolver *ls = (LSolver *)luaL_checkudata(L, idx, SOLVER_MT);
    if (!ls->s) lmoa_closed_error(L, "solver");
    ls->cur = L;
    flush_vars(ls, 0);
    return ls;
}

/* A live variable at idx, of an open solver; *lsp receives its solver. If owner is given, the variable must
   belong to it. */
LVar *lmoa_check_var(lua_State *L, int idx, LSolver *owner, LSolver **lsp) {
    LVar *v = (LVar *)luaL_checkudata(L, idx, VAR_MT);
    LSolver *ls = lmoa_solver_of(L, idx);
    if (!ls || !ls->s) lmoa_closed_error(L, "solver");
    if (owner && ls != owner) luaL_argerror(L, idx, "variable belongs to another solver");
    if (v->generation != ls->generation) luaL_argerror(L, idx, "stale variable (created before s:reset())");
    if (v->id == 0) luaL_argerror(L, idx, "variable was collected");
    if (lsp) *lsp = ls;
    return v;
}

/* A live constraint at idx, of an open solver. */
static LCons *check_cons(lua_State *L, int idx, LSolver *owner, LSolver **lsp) {
    LCons *c = (LCons *)luaL_checkudata(L, idx, CONS_MT);
    LSolver *ls = lmoa_solver_of(L, idx);
    if (!ls || !ls->s) lmoa_closed_error(L, "solver");
    if (owner && ls != owner) luaL_argerror(L, idx, "constraint belongs to another solver");
    if (c->removed) luaL_error(L, "attempt to use a removed constraint");
    if (c->generation != ls->generation) luaL_error(L, "attempt to use a stale constraint (added before s:reset())");
    ls->cur = L;
    flush_vars(ls, 0);
    if (lsp) *lsp = ls;
    return c;
}

/* Pushes the Constraint object for id (the existing one if alive). solver_idx is the solver's stack index. */
static void push_cons(lua_State *L, int solver_idx, moa_cons id) {
    LSolver *ls = (LSolver *)lua_touserdata(L, solver_idx);
    LCons *c;
    lua_getiuservalue(L, solver_idx, 1); /* map */
    if (lua_rawgeti(L, -1, (lua_Integer)id) != LUA_TNIL) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    c = (LCons *)lua_newuserdatauv(L, sizeof *c, 1);
    c->id = id;
    c->generation = ls->generation;
    c->removed = 0;
    luaL_setmetatable(L, CONS_MT);
    lua_pushvalue(L, solver_idx);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)id); /* map[id] = c */
    lua_remove(L, -2);
}

/* After a failed call with status st (expected failure): pushes nil, message, details (lmoa_push_failure) with
   details.conflicts = { Constraint, ... }; returns 3. */
static int solver_failure(lua_State *L, LSolver *ls, int solver_idx, moa_status st) {
    size_t count = 0, i;
    moa_cons *ids = NULL;
    int details;
    raise_progress_error(L, ls);
    details = lmoa_push_failure(L, moa_solver_errmsg(ls->s), st, 3);
    if (moa_solver_conflicts(ls->s, NULL, 0, &count) == MOA_OK && count > 0) {
        ids = (moa_cons *)lua_newuserdatauv(L, count * sizeof *ids, 0);
        if (moa_solver_conflicts(ls->s, ids, count, &count) != MOA_OK) count = 0;
    } else {
        count = 0;
        lua_pushnil(L); /* placeholder for the buffer */
    }
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push_cons(L, solver_idx, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    lua_setfield(L, details, "conflicts");
    lua_pop(L, 1); /* the buffer */
    return 3;
}

/* ======================================================================================================== */
/* moa.Solver                                                                                               */
/* ======================================================================================================== */

/* moa.solver() -> Solver */
static int l_solver(lua_State *L) {
    LSolver *ls = (LSolver *)lua_newuserdatauv(L, sizeof *ls, 1);
    memset(ls, 0, sizeof *ls);
    luaL_setmetatable(L, SOLVER_MT);
    /* the weak map id -> Constraint */
    lmoa_new_weak_map(L);
    lua_setiuservalue(L, -2, 1);
    ls->progressref = ls->errref = LUA_NOREF;
    ls->s = moa_solver_new();
    if (!ls->s) return luaL_error(L, "moa.solver: out of memory");
    return 1;
}

/* s:close() -- frees the C solver now; idempotent. Also __gc and __close. */
static int solver_close(lua_State *L) {
    LSolver *ls = (LSolver *)luaL_checkudata(L, 1, SOLVER_MT);
    if (ls->s) {
        moa_solver_free(ls->s); /* from the progress function: freed when the call in progress returns */
        ls->s = NULL;
    }
    drop_pending(ls);
    if (ls->progressref != LUA_NOREF) { /* a running progress function is on its thread's stack: still safe */
        luaL_unref(L, LUA_REGISTRYINDEX, ls->progressref);
        ls->progressref = LUA_NOREF;
    }
    return 0;
}

/* tostring(s) -> "moa.Solver (0x...)" followed by the dump, or "moa.Solver (closed)". */
static int solver_tostring(lua_State *L) {
    LSolver *ls = (LSolver *)luaL_checkudata(L, 1, SOLVER_MT);
    const char *dump = NULL;
    if (!ls->s) {
        lua_pushliteral(L, "moa.Solver (closed)");
        return 1;
    }
    flush_vars(ls, 1);
    if (moa_solver_dump(ls->s, &dump) != MOA_OK) dump = "";
    lua_pushfstring(L, "moa.Solver (%p)\n%s", (void *)ls, dump);
    return 1;
}

/* s:dump() -> string: the solver's internal state, for debugging (the format may change). */
static int solver_dump(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    const char *dump = NULL;
    moa_status st;
    flush_vars(ls, 1);
    st = moa_solver_dump(ls->s, &dump);
    if (st != MOA_OK) return solver_error(L, ls, st, "dump");
    lua_pushstring(L, dump);
    return 1;
}

/* s:var([name]) -> Variable (value 0 until solved). Every call makes a new variable. */
static int solver_var(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    const char *name = lmoa_opt_text(L, 2, "name");
    moa_var id = 0;
    moa_status st;
    LVar *v = (LVar *)lua_newuserdatauv(L, sizeof *v, 1); /* allocate first: no memory error after the call */
    v->id = 0;
    v->generation = ls->generation;
    luaL_setmetatable(L, VAR_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    st = moa_var_new(ls->s, name, &id);
    if (st != MOA_OK) return solver_error(L, ls, st, "var");
    v->id = id;
    return 1;
}

/* Reads the constraint to add from s:add's arguments: pushes a Relation and returns the index of the first
   argument after it (priority). */
static int add_args(lua_State *L, int *opt_idx) {
    if (luaL_testudata(L, 2, REL_MT)) {
        lua_pushvalue(L, 2);
        *opt_idx = 3;
        return 1;
    }
    if (luaL_testudata(L, 2, VAR_MT) || luaL_testudata(L, 2, EXPR_MT)) {
        const char *op = lua_type(L, 3) == LUA_TSTRING ? lua_tostring(L, 3) : NULL;
        int rel = -1;
        if (op) {
            if (strcmp(op, "==") == 0) rel = MOA_EQ;
            else if (strcmp(op, "<=") == 0) rel = MOA_LE;
            else if (strcmp(op, ">=") == 0) rel = MOA_GE;
        }
        if (rel < 0 && op && strchr("=<>!~", op[0]))
            return luaL_argerror(L, 3, lua_pushfstring(L, "invalid relation operator '%s' (expected '==', '<=' "
                                                          "or '>=')", op));
        if (rel >= 0) {
            /* s:add(lhs, op, rhs, ...) */
            Operand a, b;
            luaL_checkany(L, 4);
            lmoa_get_operand(L, 2, &a, op);
            lmoa_get_operand(L, 4, &b, op);
            lmoa_push_combination(L, &a, 1, &b, -1, rel, op);
            *opt_idx = 5;
        } else {
            /* s:add(expr, ...) means expr == 0 */
            Operand a;
            lmoa_get_operand(L, 2, &a, "==");
            lmoa_push_combination(L, &a, 1, NULL, 0, MOA_EQ, "==");
            *opt_idx = 3;
        }
        return 1;
    }
    return luaL_typeerror(L, 2, "moa.Relation (from :eq, :le or :ge), moa.Variable or moa.Expression");
}

/* Why the Variable at idx cannot be used in a constraint of ls: NULL if it can, else the reason, to follow "a
   variable of the constraint". Pushes nothing. */
static const char *var_problem(lua_State *L, int idx, LSolver *ls) {
    LVar *v = (LVar *)lua_touserdata(L, idx);
    if (lmoa_solver_of(L, idx) != ls) return "belongs to another solver";
    if (v->generation != ls->generation) return "is stale: created before s:reset()";
    if (v->id == 0) return "was collected";
    return NULL;
}

/* The same for every variable of the Relation or Expression at idx (its user value 1: the Variable objects). */
static const char *rel_vars_problem(lua_State *L, int idx, LSolver *ls) {
    const LExpr *e = (const LExpr *)lua_touserdata(L, idx);
    const char *why = NULL;
    int i;
    lua_getiuservalue(L, idx, 1);
    for (i = 0; i < e->n && !why; i++) {
        lua_rawgeti(L, -1, i + 1);
        why = var_problem(L, lua_gettop(L), ls);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return why;
}

static int solver_progress_trampoline(moa_solver *s, uint64_t pivots, void *ud);

/* Removes constraint id with the pivots and time limits and the progress function lifted, then puts them back:
   taking out a constraint the binding has just added undoes a call, and must not be refused by those. */
static void remove_unlimited(LSolver *ls, moa_cons id) {
    double pivots = 0, seconds = 0;
    moa_solver_limit(ls->s, MOA_LIMIT_PIVOTS, &pivots);
    moa_solver_limit(ls->s, MOA_LIMIT_SECONDS, &seconds);
    moa_solver_set_limit(ls->s, MOA_LIMIT_PIVOTS, 9007199254740992.0); /* 2^53, the largest */
    moa_solver_set_limit(ls->s, MOA_LIMIT_SECONDS, 0);
    if (ls->progressref != LUA_NOREF) moa_solver_set_progress(ls->s, NULL, 1, NULL);
    moa_cons_remove(ls->s, id);
    moa_solver_set_limit(ls->s, MOA_LIMIT_PIVOTS, pivots);
    moa_solver_set_limit(ls->s, MOA_LIMIT_SECONDS, seconds);
    if (ls->progressref != LUA_NOREF)
        moa_solver_set_progress(ls->s, solver_progress_trampoline, ls->progress_every, ls);
}

/* Pushes a Constraint of ls (the solver at stack index 1) not added yet (id 0, marked removed): made before the
   library call that adds it, so that nothing can fail between the add and its bookkeeping. */
static LCons *push_unadded_cons(lua_State *L, LSolver *ls) {
    LCons *c = (LCons *)lua_newuserdatauv(L, sizeof *c, 1);
    c->id = 0;
    c->generation = ls->generation;
    c->removed = 1;
    luaL_setmetatable(L, CONS_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    return c;
}

/* s:add(relation [, priority [, weight [, tag]]])
   s:add(relation, {priority = p, weight = w, tag = "..."})
   s:add(lhs, "==" | "<=" | ">=", rhs [, priority [, weight [, tag]]])
   s:add(expr [, priority ...])                          -- expr == 0
   -> Constraint, or nil, message, details if a required constraint conflicts (code "UNSATISFIABLE") or the
   tableau is at a limit or the call reached its pivots or time limit (code "LIMIT"). Priority defaults to
   required. */
static int solver_add(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    int opt = 3, rel_idx, top;
    double priority, weight;
    const char *tag = NULL, *why;
    LExpr *e;
    LCons *c;
    moa_cons id = 0;
    moa_status st;

    lua_settop(L, 7); /* fixed argument slots: what is pushed from here on sits above them */
    add_args(L, &opt);
    rel_idx = lua_gettop(L);
    e = (LExpr *)lua_touserdata(L, rel_idx);
    if (lua_type(L, opt) == LUA_TTABLE) {
        top = lua_gettop(L);
        lua_getfield(L, opt, "priority");
        lua_getfield(L, opt, "weight");
        lua_getfield(L, opt, "tag");
        priority = lmoa_check_priority(L, top + 1, MOA_REQUIRED, 0, "priority");
        weight = lmoa_check_weight(L, top + 2, "weight");
        if (!lua_isnil(L, top + 3) && lua_type(L, top + 3) != LUA_TSTRING) lmoa_type_error(L, top + 3, "tag", "string");
        tag = lua_tostring(L, top + 3);
        if (!lua_isnoneornil(L, opt + 1)) return luaL_argerror(L, opt + 1, "no argument expected after an "
                                                                          "options table");
    } else {
        priority = lmoa_check_priority(L, opt, MOA_REQUIRED, 0, NULL);
        weight = lmoa_check_weight(L, opt + 1, NULL);
        tag = lmoa_opt_text(L, opt + 2, "tag");
    }
    /* every variable must belong to this solver */
    why = rel_vars_problem(L, rel_idx, ls);
    if (why) return luaL_error(L, "bad argument to 'add' (a variable of the constraint %s)", why);
    /* make room for the result first, so that nothing can fail between the add and its bookkeeping */
    lua_getiuservalue(L, 1, 1); /* map */
    c = push_unadded_cons(L, ls);
    lua_checkstack(L, 8);

    st = moa_solver_add(ls->s, e->t, (size_t)e->n, e->constant, (moa_relation)e->rel, priority, tag, &id);
    if (lmoa_is_failure(st)) return solver_failure(L, ls, 1, st);
    if (st != MOA_OK) return solver_error(L, ls, st, "add");
    c->id = id;
    c->removed = 0;
    if (weight != 1) {
        st = moa_cons_set_weight(ls->s, id, weight);
        if (st != MOA_OK) {
            /* A weight change re-optimises, so it can reach the pivots or time limit: the add then fails as a
               whole, as if the add itself had (the failure is pushed first: the removal resets the message). An
               error of the progress function is raised once the add is undone. */
            int n;
            if (ls->errref != LUA_NOREF) {
                remove_unlimited(ls, id);
                c->removed = 1;
                raise_progress_error(L, ls);
            }
            n = st == MOA_LIMIT ? solver_failure(L, ls, 1, st) : 0;
            remove_unlimited(ls, id);
            c->removed = 1;
            if (n) return n;
            return luaL_error(L, "add: could not set the weight (%s)", moa_errstr(st));
        }
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)id); /* map[id] = c */
    return 1;
}

/* The most constraints one s:add_many takes (moa_solver_add_many: 2^24). */
#define MAX_BATCH ((lua_Integer)1 << 24)

/* The constraint of list[i] of s:add_many, at idx (`where` is "" for the item itself, "[1]" for its first slot):
   a Relation, or a Variable or Expression meaning `expr == 0` (what s:add takes first), whose variables are all of
   ls and current. Pushes it as a Relation and returns it; raises naming list[i] otherwise. */
static LExpr *batch_relation(lua_State *L, int idx, LSolver *ls, lua_Integer i, const char *where) {
    int is_rel = luaL_testudata(L, idx, REL_MT) != NULL;
    const char *why;
    Operand a;
    if (is_rel || luaL_testudata(L, idx, EXPR_MT)) why = rel_vars_problem(L, idx, ls);
    else if (luaL_testudata(L, idx, VAR_MT)) why = var_problem(L, idx, ls);
    else {
        const char *got = luaL_getmetafield(L, idx, "__name") == LUA_TSTRING ? lua_tostring(L, -1)
                                                                              : luaL_typename(L, idx);
        luaL_error(L, "add_many: list[%I]%s is not a moa.Relation%s (got %s)", i, where,
                   where[0] ? "" : " or a table {relation, priority = p, weight = w, tag = \"...\"}", got);
        return NULL;
    }
    if (why) luaL_error(L, "add_many: list[%I]: a variable of the constraint %s", i, why);
    if (is_rel) {
        lua_pushvalue(L, idx);
    } else {
        lmoa_get_operand(L, idx, &a, "==");
        lmoa_push_combination(L, &a, 1, NULL, 0, MOA_EQ, "==");
    }
    return (LExpr *)lua_touserdata(L, -1);
}

/* Reads list[i] of s:add_many (at item) into *sp, the options of a table item included. Leaves its Relation on
   top of the stack and its tag (a string, or nil) below it: the caller anchors both. Raises naming list[i]. */
static void batch_item(lua_State *L, int item, LSolver *ls, lua_Integer i, moa_cons_spec *sp) {
    LExpr *e;
    int opts;
    memset(sp, 0, sizeof *sp);
    sp->priority = MOA_REQUIRED;
    sp->weight = 1;
    if (lua_type(L, item) != LUA_TTABLE) {
        lua_pushnil(L); /* no tag */
        e = batch_relation(L, item, ls, i, "");
    } else {
        opts = lua_gettop(L) + 1;
        lua_getfield(L, item, "priority"); /* opts */
        lua_getfield(L, item, "weight");   /* opts + 1 */
        lua_getfield(L, item, "tag");      /* opts + 2 */
        if (lua_geti(L, item, 2) != LUA_TNIL)
            luaL_error(L, "add_many: list[%I][2] is not expected (the options are priority =, weight =, tag =)", i);
        lua_pop(L, 1);
        if (!lua_isnil(L, opts))
            sp->priority = lmoa_check_priority(L, opts, MOA_REQUIRED, 0, lua_pushfstring(L, "list[%I].priority", i));
        if (!lua_isnil(L, opts + 1))
            sp->weight = lmoa_check_weight(L, opts + 1, lua_pushfstring(L, "list[%I].weight", i));
        if (!lua_isnil(L, opts + 2)) {
            size_t len;
            const char *field = lua_pushfstring(L, "list[%I].tag", i);
            if (lua_type(L, opts + 2) != LUA_TSTRING) lmoa_type_error(L, opts + 2, field, "string");
            sp->tag = lua_tolstring(L, opts + 2, &len);
            if (strlen(sp->tag) != len) lmoa_value_error(L, opts + 2, field, "tag contains a NUL byte");
        }
        lua_pushvalue(L, opts + 2); /* the tag */
        lua_geti(L, item, 1);
        e = batch_relation(L, lua_gettop(L), ls, i, "[1]");
        lua_replace(L, -2); /* the relation in place of list[i][1] */
    }
    sp->terms = e->n > 0 ? e->t : NULL;
    sp->nterms = (size_t)e->n;
    sp->constant = e->constant;
    sp->rel = (moa_relation)e->rel;
}

/* s:add_many(list) -> { Constraint, ... }: the constraints of a list in one call, all or nothing
   (moa_solver_add_many), in the list's order. Each item is what s:add takes first -- a Relation (or a Variable or
   Expression, meaning expr == 0) -- or a table {relation, priority = p, weight = w, tag = "..."} (priority
   defaults to required and takes the names s:add takes; weight defaults to 1). Unlike adding them one at a time,
   the tableau built does not depend on the order of the list or on the order the variables were made in (a chain
   numbered and listed at random builds what one added in order does: Include/moa.h).
   -> nil, message, details as s:add if a required constraint conflicts (code "UNSATISFIABLE") or the batch
   reaches a limit (code "LIMIT"), with details.index the position of the item that failed and
   details.batch_conflicts the positions of the list's other items in the conflicting set ({} if none;
   details.conflicts holds the constraints of the solver in it). Nothing is added then. A bad item (its type, a
   bad priority, weight or tag, a variable of another solver or a stale one) raises naming it (list[i]) before
   anything is added; so does a failure the library finds in an item (a coefficient out of range). */
static int solver_add_many(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    lua_Integer n, i;
    moa_cons_spec *specs;
    moa_cons *out;
    size_t failed;
    int base, result, map;
    moa_status st;

    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    n = luaL_len(L, 2);
    if (n < 0 || n > MAX_BATCH) return luaL_argerror(L, 2, "at most 2^24 constraints");
    failed = (size_t)n; /* no item at fault unless the library names one */
    /* Scratch in userdata (3, 4): collected even when an error below leaves the function. The terms are the
       relations' own, and the relations and tags are anchored in a table (5): an __index of the list may make
       each item, and the progress function may change the list while the library reads them. */
    specs = (moa_cons_spec *)lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *specs, 0);
    out = (moa_cons *)lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *out, 0);
    lua_createtable(L, (int)n, 0); /* anchors: [i] the relation of list[i], [n + i] its tag */
    base = lua_gettop(L);
    luaL_checkstack(L, 24, "add_many");
    for (i = 1; i <= n; i++) {
        lua_geti(L, 2, i);
        batch_item(L, base + 1, ls, i, &specs[i - 1]);
        lua_rawseti(L, base, i);     /* the relation */
        lua_rawseti(L, base, n + i); /* the tag, if any */
        lua_settop(L, base);
    }
    /* make room for the results first, so that nothing can fail between the add and its bookkeeping */
    lua_createtable(L, (int)n, 0);
    result = lua_gettop(L);
    for (i = 1; i <= n; i++) {
        push_unadded_cons(L, ls);
        lua_rawseti(L, result, i);
    }
    lua_getiuservalue(L, 1, 1); /* map */
    map = lua_gettop(L);
    lua_checkstack(L, 12);

    st = moa_solver_add_many(ls->s, n ? specs : NULL, (size_t)n, n ? out : NULL, &failed);
    if (lmoa_is_failure(st)) {
        size_t count = 0, cap = 0, k;
        size_t *idx = NULL;
        int details;
        solver_failure(L, ls, 1, st);
        details = lua_gettop(L);
        if (failed < (size_t)n) {
            lua_pushinteger(L, (lua_Integer)failed + 1);
            lua_setfield(L, details, "index");
        }
        if (ls->s && moa_solver_batch_conflicts(ls->s, NULL, 0, &cap) == MOA_OK && cap > 0) {
            idx = (size_t *)lua_newuserdatauv(L, cap * sizeof *idx, 0);
            if (moa_solver_batch_conflicts(ls->s, idx, cap, &count) != MOA_OK || count > cap) count = 0;
        } else {
            lua_pushnil(L); /* placeholder for the buffer */
        }
        lua_createtable(L, (int)count, 0);
        for (k = 0; k < count; k++) {
            lua_pushinteger(L, (lua_Integer)idx[k] + 1);
            lua_rawseti(L, -2, (lua_Integer)(k + 1));
        }
        lua_setfield(L, details, "batch_conflicts");
        lua_pop(L, 1); /* the buffer */
        return 3;
    }
    if (st != MOA_OK)
        return solver_error(L, ls, st, failed < (size_t)n ? lua_pushfstring(L, "add_many: list[%I]",
                                                                            (lua_Integer)failed + 1)
                                                          : "add_many");
    for (i = 1; i <= n; i++) {
        LCons *c;
        lua_rawgeti(L, result, i);
        c = (LCons *)lua_touserdata(L, -1);
        c->id = out[i - 1];
        c->removed = 0;
        lua_rawseti(L, map, (lua_Integer)c->id); /* map[id] = c */
    }
    lua_settop(L, result);
    return 1;
}

/* Removes the constraint c (stack index idx) of ls; raises on failure. */
static void remove_cons(lua_State *L, LSolver *ls, int solver_idx, LCons *c) {
    moa_status st = moa_cons_remove(ls->s, c->id);
    if (st != MOA_OK) solver_error(L, ls, st, "remove");
    c->removed = 1;
    ls->dirty = 1;
    lua_getiuservalue(L, solver_idx, 1);
    lua_pushnil(L);
    lua_rawseti(L, -2, (lua_Integer)c->id);
    lua_pop(L, 1);
}

/* s:remove(c) -- same as c:remove(). */
static int solver_remove(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LCons *c = check_cons(L, 2, ls, NULL);
    remove_cons(L, ls, 1, c);
    return 0;
}

/* s:edit(v [, priority]) -> s, or nil, message, details (code "DUPLICATE") if v is an edit variable already, or
   (code "LIMIT") if the tableau is at a limit or the call reached its pivots or time limit.
   The priority is below 1000; it defaults to "strong" (750). */
static int solver_edit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = lmoa_check_var(L, 2, ls, NULL);
    double p = lmoa_check_priority(L, 3, DEFAULT_EDIT_PRIORITY, 1, NULL);
    moa_status st = moa_solver_add_edit(ls->s, v->id, p);
    if (st == MOA_DUPLICATE || st == MOA_LIMIT) return solver_failure(L, ls, 1, st);
    if (st != MOA_OK) return solver_error(L, ls, st, "edit");
    lua_settop(L, 1);
    return 1;
}

/* s:unedit(v) -- v stops being an edit variable (an error if it is not one). */
static int solver_unedit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = lmoa_check_var(L, 2, ls, NULL);
    moa_status st = moa_solver_remove_edit(ls->s, v->id);
    if (st != MOA_OK) return solver_error(L, ls, st, "unedit");
    ls->dirty = 1;
    lua_settop(L, 1);
    return 1;
}

/* s:has_edit(v) -> boolean */
static int solver_has_edit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = lmoa_check_var(L, 2, ls, NULL);
    int out = 0;
    moa_status st = moa_solver_has_edit(ls->s, v->id, &out);
    if (st != MOA_OK) return solver_error(L, ls, st, "has_edit");
    lua_pushboolean(L, out);
    return 1;
}

/* s:suggest(v, value) -> s, or nil, message, details (code "LIMIT") if the call reached its pivots or time limit
   (the suggestion is not made). v must be an edit variable (s:edit). Visible after s:update(). */
static int solver_suggest(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = lmoa_check_var(L, 2, ls, NULL);
    double x = lmoa_check_finite(L, 3, "value", NULL);
    moa_status st = moa_solver_suggest(ls->s, v->id, x);
    if (st == MOA_NOTFOUND) return luaL_error(L, "suggest: not an edit variable (call s:edit(v) first)");
    if (st == MOA_LIMIT) return solver_failure(L, ls, 1, st);
    if (st != MOA_OK) return solver_error(L, ls, st, "suggest");
    lua_settop(L, 1);
    return 1;
}

/* s:update() -> s: copies the solution into the variables' values. */
static int solver_update(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    moa_status st;
    flush_vars(ls, 1);
    st = moa_solver_update(ls->s);
    if (st != MOA_OK) return solver_error(L, ls, st, "update");
    lua_settop(L, 1);
    return 1;
}

/* s:counts() -> number of variables, number of constraints (active or not). */
static int solver_counts(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    size_t nv = 0, nc = 0;
    moa_status st;
    flush_vars(ls, 1);
    st = moa_solver_counts(ls->s, &nv, &nc);
    if (st != MOA_OK) return solver_error(L, ls, st, "counts");
    lua_pushinteger(L, (lua_Integer)nv);
    lua_pushinteger(L, (lua_Integer)nc);
    return 2;
}

/* s:reset() -> s: drops every variable, constraint and edit; older Lua objects become stale (an error to
   use). */
static int solver_reset(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    moa_status st = moa_solver_reset(ls->s);
    if (st != MOA_OK) return solver_error(L, ls, st, "reset");
    ls->generation++;
    ls->nfresh = ls->norphans = 0;
    ls->dirty = 0;
    /* mark the live constraint objects removed, and start a new map */
    lua_getiuservalue(L, 1, 1);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        LCons *c = (LCons *)luaL_testudata(L, -1, CONS_MT);
        if (c) c->removed = 1;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lmoa_new_weak_map(L);
    lua_setiuservalue(L, 1, 1);
    lua_settop(L, 1);
    return 1;
}

/* The progress callback (moa_solver_progress_fn) of s:on_progress: calls the Lua function with the pivots the
   call has made, under lua_pcall, on the thread of the latest method call. It returns to the library, never
   raises: `false` stops the call (it fails with MOA_LIMIT and changes nothing), anything else goes on; an error
   stops it too and is kept (the first one) for raise_progress_error(). From the function every call on the
   solver fails (MOA_MISUSE: the method raises inside the function, which may catch it). */
static int solver_progress_trampoline(moa_solver *s, uint64_t pivots, void *ud) {
    LSolver *ls = (LSolver *)ud;
    (void)s;
    lua_State *cur = ls->cur;
    int go;
    if (ls->progressref == LUA_NOREF) return 0;
    go = lmoa_run_progress(cur, ls->progressref, pivots, &ls->errref);
    /* A method called from the function (it fails: MOA_MISUSE) made its own thread the current one, maybe a
       coroutine that is collected by the next call of the function: the call under way goes on on its own. */
    ls->cur = cur;
    return go;
}

/* s:on_progress(fn or nil [, every]) -> s: fn(pivots) is called every `every` pivots (an integer >= 1, default 256)
   inside one call that pivots that much; returning false stops that call, which then fails as at a limit
   (code "LIMIT"). nil removes the function. The function is held in the registry until replaced, removed, or
   the solver closed. */
static int solver_on_progress(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    lua_Integer every;
    int ref = lmoa_check_progress_args(L, 256, "every", &every);
    moa_status st = moa_solver_set_progress(ls->s, ref == LUA_NOREF ? NULL : solver_progress_trampoline, (uint64_t)every, ls);
    if (st != MOA_OK) { /* the function in use stays */
        luaL_unref(L, LUA_REGISTRYINDEX, ref);
        return solver_error(L, ls, st, "on_progress");
    }
    if (ls->progressref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, ls->progressref);
    ls->progressref = ref;
    ls->progress_every = (uint64_t)every;
    lua_settop(L, 1);
    return 1;
}

/* s:set_limit("rows" | "cells" | "seconds" | "pivots", value) -> s: the tableau's size (rows, cells) and the work
   of one call (pivots: whole numbers >= 1; seconds: >= 0, 0 for none), from the next call. A bad value raises
   with the library's message. */
static int solver_set_limit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    moa_limit which = lmoa_check_limit(L, 2);
    double value = lmoa_check_finite(L, 3, "limit", NULL);
    moa_status st = moa_solver_set_limit(ls->s, which, value);
    if (st != MOA_OK) return solver_error(L, ls, st, "set_limit");
    lua_settop(L, 1);
    return 1;
}

/* s:limit("rows" | "cells" | "seconds" | "pivots") -> number (rows, cells and pivots as integers) */
static int solver_limit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    moa_limit which = lmoa_check_limit(L, 2);
    double value = 0;
    moa_status st = moa_solver_limit(ls->s, which, &value);
    if (st != MOA_OK) return solver_error(L, ls, st, "limit");
    lmoa_push_limit(L, which, value);
    return 1;
}

/* s:usage() -> {rows=, cells=, variables=, constraints=, views=0}: what the solver has in use (the collected
   variables that nothing uses are freed first, as by s:counts()). */
static int solver_usage(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    moa_usage u;
    moa_status st;
    flush_vars(ls, 1);
    st = moa_solver_usage(ls->s, &u);
    if (st != MOA_OK) return solver_error(L, ls, st, "usage");
    lmoa_push_usage(L, &u);
    return 1;
}

/* ======================================================================================================== */
/* moa.Variable                                                                                             */
/* ======================================================================================================== */

/* v.value (number, as of the last s:update()), v.name (string; assignable), v.solver; methods eq, le, ge. */
static int var_index(lua_State *L) {
    const char *key = lua_tostring(L, 2);
    LSolver *ls;
    LVar *v;
    moa_status st;
    if (key && strcmp(key, "value") == 0) {
        double x = 0;
        v = lmoa_check_var(L, 1, NULL, &ls);
        st = moa_var_value(ls->s, v->id, &x);
        if (st != MOA_OK) return solver_error(L, ls, st, "value");
        lua_pushnumber(L, x);
        return 1;
    }
    if (key && strcmp(key, "name") == 0) {
        const char *name = NULL;
        v = lmoa_check_var(L, 1, NULL, &ls);
        st = moa_var_name(ls->s, v->id, &name);
        if (st != MOA_OK) return solver_error(L, ls, st, "name");
        lua_pushstring(L, name);
        return 1;
    }
    if (key && strcmp(key, "solver") == 0) {
        luaL_checkudata(L, 1, VAR_MT);
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    luaL_checkudata(L, 1, VAR_MT); /* the metamethod can be called with anything */
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

static int var_newindex(lua_State *L) {
    const char *key = lua_tostring(L, 2);
    if (key && strcmp(key, "name") == 0) {
        LSolver *ls;
        LVar *v = lmoa_check_var(L, 1, NULL, &ls);
        const char *name = lmoa_opt_text(L, 3, "name");
        moa_status st = moa_var_set_name(ls->s, v->id, name);
        if (st != MOA_OK) return solver_error(L, ls, st, "name");
        return 0;
    }
    return luaL_error(L, "cannot set field '%s' of a moa.Variable (only 'name' is assignable)",
                      key ? key : luaL_typename(L, 2));
}

/* tostring(v) -> "x = 10" ("moa.Variable (closed)" once its solver is closed). */
static int var_tostring(lua_State *L) {
    LVar *v = (LVar *)luaL_checkudata(L, 1, VAR_MT);
    LSolver *ls = lmoa_solver_of(L, 1);
    const char *name = NULL;
    double x = 0;
    if (!ls || !ls->s) lua_pushliteral(L, "moa.Variable (closed)");
    else if (v->generation != ls->generation || v->id == 0) lua_pushliteral(L, "moa.Variable (stale)");
    else if (moa_var_name(ls->s, v->id, &name) != MOA_OK) lua_pushliteral(L, "moa.Variable (stale)");
    else {
        if (moa_var_value(ls->s, v->id, &x) != MOA_OK) x = 0;
        char num[64];
        snprintf(num, sizeof num, "%.14g", x);
        lua_pushfstring(L, "%s = %s", name[0] ? name : "?", num);
    }
    return 1;
}

/* __gc: queues the C variable to be freed by the next call on its solver (no Swift call from a finalizer). */
static int var_gc(lua_State *L) {
    LVar *v = (LVar *)luaL_checkudata(L, 1, VAR_MT);
    LSolver *ls = lmoa_solver_of(L, 1);
    if (ls && ls->s && v->id != 0 && v->generation == ls->generation)
        push_id(&ls->fresh, &ls->nfresh, &ls->capfresh, v->id);
    v->id = 0;
    return 0;
}

/* ======================================================================================================== */
/* moa.Constraint                                                                                           */
/* ======================================================================================================== */

/* c:remove() -- removes the constraint from its solver; the object is dead afterwards. */
static int cons_remove(lua_State *L) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    lua_getiuservalue(L, 1, 1);
    remove_cons(L, ls, lua_gettop(L), c);
    return 0;
}

/* __close: removes the constraint if it is still there (a constraint scoped with `local c <close> = ...`). */
static int cons_close(lua_State *L) {
    LCons *c = (LCons *)luaL_checkudata(L, 1, CONS_MT);
    LSolver *ls = lmoa_solver_of(L, 1);
    if (c->removed || !ls || !ls->s || c->generation != ls->generation) return 0;
    return cons_remove(L);
}

static int set_constant(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    double k = lmoa_check_finite(L, assign ? 3 : 2, "constant", assign ? "constant" : NULL);
    moa_status st = moa_cons_set_constant(ls->s, c->id, k);
    if (lmoa_is_failure(st) && !assign) {
        lua_getiuservalue(L, 1, 1);
        return solver_failure(L, ls, lua_gettop(L), st);
    }
    if (st != MOA_OK) return solver_error(L, ls, st, "constant");
    lua_settop(L, 1);
    return 1;
}

static int set_priority(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    double p;
    moa_status st;
    if (lua_isnoneornil(L, assign ? 3 : 2))
        return lmoa_type_error(L, assign ? 3 : 2, assign ? "priority" : NULL, "priority (number or name)");
    p = lmoa_check_priority(L, assign ? 3 : 2, MOA_REQUIRED, 0, assign ? "priority" : NULL);
    st = moa_cons_set_priority(ls->s, c->id, p);
    if (lmoa_is_failure(st) && !assign) {
        lua_getiuservalue(L, 1, 1);
        return solver_failure(L, ls, lua_gettop(L), st);
    }
    if (st != MOA_OK) return solver_error(L, ls, st, "priority");
    lua_settop(L, 1);
    return 1;
}

static int set_weight(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    int idx = assign ? 3 : 2;
    double w;
    moa_status st;
    if (lua_isnoneornil(L, idx)) return lmoa_type_error(L, idx, assign ? "weight" : NULL, "number");
    w = lmoa_check_weight(L, idx, assign ? "weight" : NULL);
    st = moa_cons_set_weight(ls->s, c->id, w);
    if (st != MOA_OK) return solver_error(L, ls, st, "weight");
    lua_settop(L, 1);
    return 1;
}

static int set_active(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    int idx = assign ? 3 : 2, want, now = 0;
    moa_status st;
    if (lua_type(L, idx) != LUA_TBOOLEAN) return lmoa_type_error(L, idx, assign ? "active" : NULL, "boolean");
    want = lua_toboolean(L, idx);
    st = moa_cons_is_active(ls->s, c->id, &now);
    if (st != MOA_OK) return solver_error(L, ls, st, "active");
    if (now != want) {
        st = moa_cons_set_active(ls->s, c->id, want);
        if (lmoa_is_failure(st) && !assign) {
            lua_getiuservalue(L, 1, 1);
            return solver_failure(L, ls, lua_gettop(L), st);
        }
        if (st != MOA_OK) return solver_error(L, ls, st, "active");
    }
    lua_settop(L, 1);
    return 1;
}

/* c:set_constant(k), c:set_priority(p), c:set_active(b) -> c, or nil, message, details on a conflict or a limit;
   c:set_weight(w) -> c. */
static int cons_set_constant(lua_State *L) { return set_constant(L, 0); }
static int cons_set_priority(lua_State *L) { return set_priority(L, 0); }
static int cons_set_weight(lua_State *L) { return set_weight(L, 0); }
static int cons_set_active(lua_State *L) { return set_active(L, 0); }

/* c.constant, c.priority, c.weight, c.active, c.tag, c.removed, c.solver; methods. */
static int cons_index(lua_State *L) {
    const char *key = lua_tostring(L, 2);
    LSolver *ls;
    LCons *c;
    moa_status st = MOA_OK;
    double x = 0;
    if (!key) goto method;
    if (strcmp(key, "removed") == 0) {
        c = (LCons *)luaL_checkudata(L, 1, CONS_MT);
        ls = lmoa_solver_of(L, 1);
        lua_pushboolean(L, c->removed || (ls && c->generation != ls->generation));
        return 1;
    }
    if (strcmp(key, "solver") == 0) {
        luaL_checkudata(L, 1, CONS_MT);
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    if (strcmp(key, "constant") == 0) {
        c = check_cons(L, 1, NULL, &ls);
        st = moa_cons_constant(ls->s, c->id, &x);
    } else if (strcmp(key, "priority") == 0) {
        c = check_cons(L, 1, NULL, &ls);
        st = moa_cons_priority(ls->s, c->id, &x);
    } else if (strcmp(key, "weight") == 0) {
        c = check_cons(L, 1, NULL, &ls);
        st = moa_cons_weight(ls->s, c->id, &x);
    } else if (strcmp(key, "active") == 0) {
        int a = 0;
        c = check_cons(L, 1, NULL, &ls);
        st = moa_cons_is_active(ls->s, c->id, &a);
        if (st != MOA_OK) return solver_error(L, ls, st, key);
        lua_pushboolean(L, a);
        return 1;
    } else if (strcmp(key, "tag") == 0) {
        const char *tag = NULL;
        c = check_cons(L, 1, NULL, &ls);
        st = moa_cons_tag(ls->s, c->id, &tag);
        if (st != MOA_OK) return solver_error(L, ls, st, key);
        lua_pushstring(L, tag);
        return 1;
    } else {
        goto method;
    }
    if (st != MOA_OK) return solver_error(L, ls, st, key);
    lua_pushnumber(L, x);
    return 1;
method:
    luaL_checkudata(L, 1, CONS_MT); /* the metamethod can be called with anything */
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

/* c.constant = k, c.priority = p, c.weight = w, c.active = b: a conflict raises an error. */
static int cons_newindex(lua_State *L) {
    const char *key = lua_tostring(L, 2);
    if (key && strcmp(key, "constant") == 0) return set_constant(L, 1), 0;
    if (key && strcmp(key, "priority") == 0) return set_priority(L, 1), 0;
    if (key && strcmp(key, "weight") == 0) return set_weight(L, 1), 0;
    if (key && strcmp(key, "active") == 0) return set_active(L, 1), 0;
    return luaL_error(L, "cannot set field '%s' of a moa.Constraint (assignable: constant, priority, weight, "
                         "active)", key ? key : luaL_typename(L, 2));
}

/* tostring(c) / c:describe() -> e.g. "x + -1*y + 10 >= 0 @750 [tag]". */
static int cons_tostring(lua_State *L) {
    LCons *c = (LCons *)luaL_checkudata(L, 1, CONS_MT);
    LSolver *ls = lmoa_solver_of(L, 1);
    const char *d = NULL;
    if (!ls || !ls->s) lua_pushliteral(L, "moa.Constraint (closed solver)");
    else if (c->removed || c->generation != ls->generation) lua_pushliteral(L, "moa.Constraint (removed)");
    else if (moa_cons_describe(ls->s, c->id, &d) != MOA_OK) lua_pushliteral(L, "moa.Constraint (stale)");
    else lua_pushstring(L, d);
    return 1;
}

static int cons_describe(lua_State *L) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    const char *d = NULL;
    moa_status st = moa_cons_describe(ls->s, c->id, &d);
    if (st != MOA_OK) return solver_error(L, ls, st, "describe");
    lua_pushstring(L, d);
    return 1;
}

/* ======================================================================================================== */
/* Registration                                                                                             */
/* ======================================================================================================== */

static const luaL_Reg solver_meta[] = {
    {"__gc", solver_close},
    {"__close", solver_close},
    {"__tostring", solver_tostring},
    {NULL, NULL},
};

static const luaL_Reg solver_methods[] = {
    {"var", solver_var},
    {"add", solver_add},
    {"add_many", solver_add_many},
    {"remove", solver_remove},
    {"edit", solver_edit},
    {"unedit", solver_unedit},
    {"has_edit", solver_has_edit},
    {"suggest", solver_suggest},
    {"update", solver_update},
    {"counts", solver_counts},
    {"reset", solver_reset},
    {"dump", solver_dump},
    {"set_limit", solver_set_limit},
    {"on_progress", solver_on_progress},
    {"limit", solver_limit},
    {"usage", solver_usage},
    {"close", solver_close},
    {NULL, NULL},
};

static const luaL_Reg var_meta[] = {
    {"__index", var_index},
    {"__newindex", var_newindex},
    {"__tostring", var_tostring},
    {"__gc", var_gc},
    {NULL, NULL},
};

static const luaL_Reg cons_meta[] = {
    {"__index", cons_index},
    {"__newindex", cons_newindex},
    {"__tostring", cons_tostring},
    {"__close", cons_close},
    {NULL, NULL},
};

static const luaL_Reg cons_methods[] = {
    {"remove", cons_remove},
    {"describe", cons_describe},
    {"set_constant", cons_set_constant},
    {"set_priority", cons_set_priority},
    {"set_weight", cons_set_weight},
    {"set_active", cons_set_active},
    {NULL, NULL},
};

static const luaL_Reg solver_funcs[] = {
    {"solver", l_solver},
    {NULL, NULL},
};

/* moa.Solver, moa.Variable (its operators: lmoa_open_expr), moa.Constraint; moa.solver into the module table on
   top. */
void lmoa_open_solver(lua_State *L) {
    lmoa_create_meta(L, SOLVER_MT, solver_meta, solver_methods);
    lmoa_create_meta(L, VAR_MT, var_meta, NULL);
    lmoa_create_meta(L, CONS_MT, cons_meta, cons_methods);
    luaL_setfuncs(L, solver_funcs, 0);
}
