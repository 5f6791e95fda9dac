/*
** lmoa.c -- the Lua 5.4 module "moa": Moa's raw constraint solver, over the C API of Include/moa.h.
**
**   local moa = require "moa"
**   local s = moa.solver()
**   local x, y = s:var "x", s:var "y"
**   s:add((x + 10):le(y))                 -- required
**   s:add(x:eq(100), "weak")              -- or a number in (0, 1000]
**   s:edit(y, "strong"); s:suggest(y, 50); s:update()
**   print(x.value, y.value)               --> 40  50
**
** TYPES (one metatable each)
**
**   moa.Solver      owns a moa_solver. __gc and __close free it (also s:close()); closing is idempotent.
**   moa.Variable    a moa_var of one solver. Keeps its solver alive (user value 1).
**   moa.Expression  an immutable linear expression: terms (Variable, coefficient) plus a constant. Built by
**                   + - * / and unary minus from variables, expressions and numbers; like terms are merged.
**                   Keeps its Variable objects alive (user value 1: an array parallel to the terms).
**   moa.Relation    `expression REL 0`, REL one of == <= >=: a constraint not yet added. Built by
**                   lhs:eq(rhs), lhs:le(rhs), lhs:ge(rhs) (Lua 5.4 turns the results of __eq/__le into
**                   booleans, so relations are methods). Added with s:add(relation, ...).
**   moa.Constraint  a moa_cons of one solver. Keeps its solver alive (user value 1). A constraint stays in its
**                   solver until c:remove() / s:remove(c), whatever happens to the Lua object: it has no
**                   finalizer. The solver keeps a weak map id -> Constraint, so the object the script holds is
**                   the one a conflict report returns.
**
** OWNERSHIP
**
**   Children (variables, constraints) hold their solver, so a solver is collected only when nothing refers to
**   it. s:close() frees the C solver at once; any later use of it or of its children raises "attempt to use a
**   closed solver". When a Variable object is collected, its C variable is freed later, from a binding call on
**   that solver (never from a finalizer, so a finalizer never enters Swift): at the next call if no constraint
**   or edit uses it, otherwise after the constraints that use it are removed (checked at s:update(),
**   s:counts(), s:dump()). Expressions and relations hold their Variable objects, so the variables they name
**   stay valid.
**
** ERRORS
**
**   Misuse raises a Lua error: a wrong type, a closed solver, a removed or stale constraint, a variable of
**   another solver, an unknown priority name, NaN or an infinite number, a number out of range. Expected
**   failures return `nil, message, details` where details = { code = "UNSATISFIABLE" | "DUPLICATE",
**   status = <moa_status number>, conflicts = { Constraint, ... } }: a required constraint that conflicts
**   (s:add, c:set_constant, c:set_priority, c:set_active), an edit variable added twice (s:edit). Assignments
**   (c.constant = k, c.priority = p, c.active = b) cannot return a failure, so there a conflict raises an
**   error whose message names the conflicting constraints.
**
**   Every moa_* call returns before any Lua error is raised: errors come only from this file's C frames, never
**   across a Swift frame (toolchain.md, "longjmp rule"). Temporary buffers are Lua userdata, so an error or a
**   memory error never leaks them.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "moa.h"

#define SOLVER_MT "moa.Solver"
#define VAR_MT "moa.Variable"
#define EXPR_MT "moa.Expression"
#define REL_MT "moa.Relation"
#define CONS_MT "moa.Constraint"

#define NO_REL (-1)
#define DEFAULT_EDIT_PRIORITY MOA_HIGH

/* ======================================================================================================== */
/* Userdata layouts                                                                                         */
/* ======================================================================================================== */

/* moa.Solver. User value 1: the weak-valued table id -> Constraint object. */
typedef struct LSolver {
    moa_solver *s;        /* NULL once closed */
    unsigned generation;  /* bumped by s:reset(): older variables and constraints are stale */
    moa_var *fresh;       /* variables whose Lua object was collected, not yet tried */
    size_t nfresh, capfresh;
    moa_var *orphans;     /* collected variables still used by a constraint or an edit */
    size_t norphans, caporphans;
    int dirty;            /* a constraint or an edit went away since the orphans were last tried */
} LSolver;

/* moa.Variable. User value 1: the solver. */
typedef struct LVar {
    moa_var id;
    unsigned generation;
} LVar;

/* moa.Constraint. User value 1: the solver. */
typedef struct LCons {
    moa_cons id;
    unsigned generation;
    int removed;
} LCons;

/* moa.Expression and moa.Relation. User value 1: array of Variable objects (terms order); 2: the solver. */
typedef struct LExpr {
    int rel;              /* NO_REL for an expression, else a moa_relation */
    int n;
    double constant;
    moa_term t[];
} LExpr;

/* ======================================================================================================== */
/* Names: priorities, status codes, relations                                                               */
/* ======================================================================================================== */

static const struct { const char *name; double value; } priority_names[] = {
    {"required", 1000}, {"max", 1000},
    {"strong", 750}, {"high", 750},
    {"medium", 500}, {"med", 500},
    {"weak", 250}, {"low", 250},
    {"fit", 50},
    /* Swift's LayoutPriority names */
    {"minNonZero", 1}, {"belowDefaultLow", 249}, {"defaultLow", 250}, {"aboveDefaultLow", 251},
    {"belowDefaultHigh", 749}, {"defaultHigh", 750}, {"aboveDefaultHigh", 751}, {"maxNonRequired", 999},
    {NULL, 0},
};

static const char *status_name(moa_status st) {
    switch (st) {
    case MOA_OK: return "OK";
    case MOA_ERROR: return "ERROR";
    case MOA_MISUSE: return "MISUSE";
    case MOA_NOMEM: return "NOMEM";
    case MOA_INVALID: return "INVALID";
    case MOA_NOTFOUND: return "NOTFOUND";
    case MOA_DUPLICATE: return "DUPLICATE";
    case MOA_UNSATISFIABLE: return "UNSATISFIABLE";
    case MOA_PARSE: return "PARSE";
    default: return "UNKNOWN";
    }
}

static const char *const rel_symbols[] = {"==", "<=", ">="};

/* ======================================================================================================== */
/* Helpers                                                                                                  */
/* ======================================================================================================== */

/* The solver of a child userdata at idx (user value 1), or NULL if it has none. Pushes nothing. The pointer
   stays valid while the child is reachable (the child keeps its solver alive). */
static LSolver *solver_of(lua_State *L, int idx) {
    LSolver *ls;
    lua_getiuservalue(L, idx, 1);
    ls = (LSolver *)luaL_testudata(L, -1, SOLVER_MT);
    lua_pop(L, 1);
    return ls;
}

static int closed_error(lua_State *L) {
    return luaL_error(L, "attempt to use a closed solver");
}

/* Raises with the solver's message for a failed call. Call only after the moa_* call has returned. */
static int status_error(lua_State *L, LSolver *ls, moa_status st, const char *what) {
    const char *msg = ls && ls->s ? moa_solver_errmsg(ls->s) : moa_errstr(st);
    return luaL_error(L, "%s: %s", what, msg);
}

/* Pushes a number as text: "nan", "inf", "-inf" or %.14g. Returns the string. */
static const char *push_numstr(lua_State *L, double x) {
    char num[64];
    if (isnan(x)) return lua_pushliteral(L, "nan");
    if (isinf(x)) return lua_pushstring(L, x > 0 ? "inf" : "-inf");
    snprintf(num, sizeof num, "%.14g", x);
    return lua_pushstring(L, num);
}

/* Raises for a bad value at idx: "bad argument #n to 'f' (msg)" for an argument, or "bad value for 'field'
   (msg)" for an assigned field or an option (field != NULL). */
static int value_error(lua_State *L, int idx, const char *field, const char *msg) {
    if (field) return luaL_error(L, "bad value for '%s' (%s)", field, msg);
    return luaL_argerror(L, idx, msg);
}

static int type_error(lua_State *L, int idx, const char *field, const char *expected) {
    return value_error(L, idx, field, lua_pushfstring(L, "%s expected, got %s", expected, luaL_typename(L, idx)));
}

/* A finite number (numeric strings are accepted, as by luaL_checknumber). */
static double check_finite(lua_State *L, int idx, const char *what, const char *field) {
    int isnum = 0;
    double x = lua_tonumberx(L, idx, &isnum);
    if (!isnum) return type_error(L, idx, field, "number"), 0;
    if (!isfinite(x))
        return value_error(L, idx, field, lua_pushfstring(L, "%s must be finite, got %s", what, push_numstr(L, x))),
               0;
    return x;
}

/* A priority: a number in (0, 1000] or a name; dflt when nil or absent. If edit, 1000 is refused too. */
static double check_priority(lua_State *L, int idx, double dflt, int edit, const char *field) {
    double p;
    int t = lua_type(L, idx);
    if (t == LUA_TNONE || t == LUA_TNIL) return dflt;
    if (t == LUA_TSTRING) {
        const char *name = lua_tostring(L, idx);
        int i;
        for (i = 0; priority_names[i].name; i++)
            if (strcmp(priority_names[i].name, name) == 0) break;
        if (!priority_names[i].name)
            return value_error(L, idx, field,
                               lua_pushfstring(L, "unknown priority name '%s' (expected required, strong/high, "
                                                  "medium, weak/low, fit, ... or a number in (0, 1000])", name)), 0;
        p = priority_names[i].value;
    } else if (t == LUA_TNUMBER) {
        p = lua_tonumber(L, idx);
        if (!(p > 0 && p <= 1000))
            return value_error(L, idx, field,
                               lua_pushfstring(L, "priority must be in (0, 1000], got %s", push_numstr(L, p))), 0;
    } else {
        return type_error(L, idx, field, "priority (number or name)"), 0;
    }
    if (edit && p >= 1000)
        return value_error(L, idx, field, "an edit variable cannot be required (use a priority below 1000)"), 0;
    return p;
}

/* A weight in (0, 1e12]; 1 when nil or absent. */
static double check_weight(lua_State *L, int idx, const char *field) {
    double w;
    if (lua_isnoneornil(L, idx)) return 1;
    if (lua_type(L, idx) != LUA_TNUMBER) return type_error(L, idx, field, "number"), 0;
    w = lua_tonumber(L, idx);
    if (!(w > 0 && w <= 1e12))
        return value_error(L, idx, field,
                           lua_pushfstring(L, "weight must be in (0, 1e12], got %s", push_numstr(L, w))), 0;
    return w;
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
    if (!ls->s) closed_error(L);
    flush_vars(ls, 0);
    return ls;
}

/* A live variable at idx, of an open solver; *lsp receives its solver. If owner is given, the variable must
   belong to it. */
static LVar *check_var(lua_State *L, int idx, LSolver *owner, LSolver **lsp) {
    LVar *v = (LVar *)luaL_checkudata(L, idx, VAR_MT);
    LSolver *ls = solver_of(L, idx);
    if (!ls || !ls->s) closed_error(L);
    if (owner && ls != owner) luaL_argerror(L, idx, "variable belongs to another solver");
    if (v->generation != ls->generation) luaL_argerror(L, idx, "stale variable (created before s:reset())");
    if (v->id == 0) luaL_argerror(L, idx, "variable was collected");
    if (lsp) *lsp = ls;
    return v;
}

/* A live constraint at idx, of an open solver. */
static LCons *check_cons(lua_State *L, int idx, LSolver *owner, LSolver **lsp) {
    LCons *c = (LCons *)luaL_checkudata(L, idx, CONS_MT);
    LSolver *ls = solver_of(L, idx);
    if (!ls || !ls->s) closed_error(L);
    if (owner && ls != owner) luaL_argerror(L, idx, "constraint belongs to another solver");
    if (c->removed) luaL_error(L, "attempt to use a removed constraint");
    if (c->generation != ls->generation) luaL_error(L, "attempt to use a stale constraint (added before s:reset())");
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

/* After a failed call with status st (expected failure): pushes nil, message, details; returns 3. */
static int push_failure(lua_State *L, LSolver *ls, int solver_idx, moa_status st) {
    size_t count = 0, i;
    moa_cons *ids = NULL;
    lua_pushnil(L);
    lua_pushstring(L, moa_solver_errmsg(ls->s));
    if (moa_solver_conflicts(ls->s, NULL, 0, &count) == MOA_OK && count > 0) {
        ids = (moa_cons *)lua_newuserdatauv(L, count * sizeof *ids, 0);
        if (moa_solver_conflicts(ls->s, ids, count, &count) != MOA_OK) count = 0;
    } else {
        count = 0;
        lua_pushnil(L); /* placeholder for the buffer */
    }
    lua_createtable(L, 0, 3);
    lua_pushstring(L, status_name(st));
    lua_setfield(L, -2, "code");
    lua_pushinteger(L, st);
    lua_setfield(L, -2, "status");
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push_cons(L, solver_idx, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    lua_setfield(L, -2, "conflicts");
    lua_remove(L, -2); /* the buffer */
    return 3;
}

/* ======================================================================================================== */
/* Linear operands: numbers, variables, expressions                                                         */
/* ======================================================================================================== */

/* A view of an arithmetic operand. */
typedef struct Operand {
    int kind;             /* 0 number, 1 variable, 2 expression */
    int idx;              /* stack index */
    double constant;
    int n;
    moa_term one;         /* the term of a variable */
    const moa_term *t;
    LSolver *solver;      /* NULL for a number or an expression without terms */
} Operand;

static const char *operand_name(lua_State *L, int idx) {
    if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1); /* still referenced by the metatable */
        lua_pop(L, 1);
        return name;
    }
    return luaL_typename(L, idx);
}

/* Reads an operand of `op` or raises (Relation, Constraint, strings, ... are refused). */
static void get_operand(lua_State *L, int idx, Operand *o, const char *op) {
    void *ud;
    o->idx = idx;
    o->constant = 0;
    o->n = 0;
    o->t = NULL;
    o->solver = NULL;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        o->kind = 0;
        o->constant = lua_tonumber(L, idx);
        if (!isfinite(o->constant))
            luaL_error(L, "bad operand to '%s' (number must be finite, got %s)", op, push_numstr(L, o->constant));
        return;
    }
    if ((ud = luaL_testudata(L, idx, VAR_MT)) != NULL) {
        LVar *v = check_var(L, idx, NULL, &o->solver);
        o->kind = 1;
        o->one.var = v->id;
        o->one.coef = 1;
        o->t = &o->one;
        o->n = 1;
        return;
    }
    if ((ud = luaL_testudata(L, idx, EXPR_MT)) != NULL) {
        LExpr *e = (LExpr *)ud;
        o->kind = 2;
        o->constant = e->constant;
        o->n = e->n;
        o->t = e->t;
        if (e->n > 0) {
            lua_getiuservalue(L, idx, 2);
            o->solver = (LSolver *)lua_touserdata(L, -1);
            lua_pop(L, 1);
            if (!o->solver || !o->solver->s) closed_error(L);
        }
        return;
    }
    if (luaL_testudata(L, idx, REL_MT))
        luaL_error(L, "bad operand to '%s' (a moa.Relation is not an expression: build the expression first, then "
                      "call :eq/:le/:ge)", op);
    luaL_error(L, "bad operand to '%s' (number, moa.Variable or moa.Expression expected, got %s)", op,
               operand_name(L, idx));
}

/* Pushes the Variable object of term i of operand o. */
static void push_operand_var(lua_State *L, const Operand *o, int i) {
    if (o->kind == 1) lua_pushvalue(L, o->idx);
    else {
        lua_getiuservalue(L, o->idx, 1);
        lua_rawgeti(L, -1, i + 1);
        lua_remove(L, -2);
    }
}

/* Pushes a new Expression (rel == NO_REL) or Relation: ka*A + kb*B (B may be NULL), like terms merged and
   zero terms dropped. */
static void push_combination(lua_State *L, const Operand *a, double ka, const Operand *b, double kb, int rel,
                             const char *op) {
    int cap = a->n + (b ? b->n : 0), n = 0, i, j, vars;
    LSolver *solver = a->solver;
    LExpr *e;
    int *from; /* for each result term: operand (0 a, 1 b) * 2^30 + index, to find its Variable object */
    double k;

    if (b && b->solver) {
        if (solver && solver != b->solver)
            luaL_error(L, "bad operands to '%s' (variables of different solvers)", op);
        solver = b->solver;
    }
    k = ka * a->constant + (b ? kb * b->constant : 0);
    if (!isfinite(k)) luaL_error(L, "'%s' gives a non-finite constant", op);

    from = (int *)lua_newuserdatauv(L, (size_t)(cap > 0 ? cap : 1) * sizeof(int), 0);
    e = (LExpr *)lua_newuserdatauv(L, sizeof(LExpr) + (size_t)cap * sizeof(moa_term), 2);
    e->rel = rel;
    e->constant = k;
    for (i = 0; i < cap; i++) {
        const Operand *src = i < a->n ? a : b;
        int si = i < a->n ? i : i - a->n;
        double c = (src == a ? ka : kb) * src->t[si].coef;
        if (!isfinite(c)) luaL_error(L, "'%s' gives a non-finite coefficient", op);
        for (j = 0; j < n; j++)
            if (e->t[j].var == src->t[si].var) break;
        if (j < n) e->t[j].coef += c;
        else {
            e->t[n].var = src->t[si].var;
            e->t[n].coef = c;
            from[n] = (src == a ? 0 : 1 << 30) + si;
            n++;
        }
    }
    /* drop the terms that cancelled */
    for (i = j = 0; i < n; i++) {
        if (!isfinite(e->t[i].coef)) luaL_error(L, "'%s' gives a non-finite coefficient", op);
        if (e->t[i].coef != 0) {
            e->t[j] = e->t[i];
            from[j] = from[i];
            j++;
        }
    }
    e->n = n = j;
    luaL_setmetatable(L, rel == NO_REL ? EXPR_MT : REL_MT);
    lua_createtable(L, n, 0);
    vars = lua_gettop(L);
    for (i = 0; i < n; i++) {
        const Operand *src = from[i] >= (1 << 30) ? b : a;
        push_operand_var(L, src, from[i] & ((1 << 30) - 1));
        lua_rawseti(L, vars, i + 1);
    }
    lua_setiuservalue(L, -2, 1);
    if (n > 0 && solver) {
        /* push the solver userdata: from any term's Variable */
        lua_getiuservalue(L, -1, 1);
        lua_rawgeti(L, -1, 1);
        lua_getiuservalue(L, -1, 1);
        lua_setiuservalue(L, -4, 2);
        lua_pop(L, 2);
    }
    lua_remove(L, -2); /* from */
}

static int arith_add(lua_State *L) {
    Operand a, b;
    get_operand(L, 1, &a, "+");
    get_operand(L, 2, &b, "+");
    push_combination(L, &a, 1, &b, 1, NO_REL, "+");
    return 1;
}

static int arith_sub(lua_State *L) {
    Operand a, b;
    get_operand(L, 1, &a, "-");
    get_operand(L, 2, &b, "-");
    push_combination(L, &a, 1, &b, -1, NO_REL, "-");
    return 1;
}

static int arith_mul(lua_State *L) {
    Operand a, b;
    get_operand(L, 1, &a, "*");
    get_operand(L, 2, &b, "*");
    if (a.n > 0 && b.n > 0)
        return luaL_error(L, "bad operands to '*' (cannot multiply two non-constant expressions: the result "
                             "would not be linear)");
    if (a.n == 0) push_combination(L, &b, a.constant, NULL, 0, NO_REL, "*");
    else push_combination(L, &a, b.constant, NULL, 0, NO_REL, "*");
    return 1;
}

static int arith_div(lua_State *L) {
    Operand a, b;
    get_operand(L, 1, &a, "/");
    get_operand(L, 2, &b, "/");
    if (b.n > 0)
        return luaL_error(L, "bad operands to '/' (cannot divide by a non-constant expression: the result would "
                             "not be linear)");
    if (b.constant == 0) return luaL_error(L, "bad operands to '/' (division by zero)");
    push_combination(L, &a, 1 / b.constant, NULL, 0, NO_REL, "/");
    return 1;
}

static int arith_unm(lua_State *L) {
    Operand a;
    get_operand(L, 1, &a, "unary -");
    push_combination(L, &a, -1, NULL, 0, NO_REL, "unary -");
    return 1;
}

/* lhs:eq(rhs) / :le / :ge, lhs a Variable or Expression, rhs a number, Variable or Expression. */
static int make_relation(lua_State *L, int rel) {
    Operand a, b;
    const char *op = rel_symbols[rel];
    if (!luaL_testudata(L, 1, VAR_MT) && !luaL_testudata(L, 1, EXPR_MT))
        return luaL_typeerror(L, 1, "moa.Variable or moa.Expression");
    luaL_checkany(L, 2);
    get_operand(L, 1, &a, op);
    get_operand(L, 2, &b, op);
    push_combination(L, &a, 1, &b, -1, rel, op);
    return 1;
}

static int rel_eq(lua_State *L) { return make_relation(L, MOA_EQ); }
static int rel_le(lua_State *L) { return make_relation(L, MOA_LE); }
static int rel_ge(lua_State *L) { return make_relation(L, MOA_GE); }

/* Appends a readable form of an Expression/Relation at idx, e.g. "2*x - y + 10" or "x - y + 10 >= 0".
   Keeps the stack balanced around every buffer operation (Lua 5.4's luaL_Buffer rule). */
static void format_linear(lua_State *L, int idx, luaL_Buffer *b) {
    LExpr *e = (LExpr *)lua_touserdata(L, idx);
    int i;
    char num[64];
    for (i = 0; i < e->n; i++) {
        double c = e->t[i].coef;
        const char *name = NULL;
        LSolver *ls;
        lua_getiuservalue(L, idx, 1);
        lua_rawgeti(L, -1, i + 1);
        ls = solver_of(L, -1); /* the Variable stays reachable from the expression */
        lua_pop(L, 2);
        if (i > 0) luaL_addstring(b, c < 0 ? " - " : " + ");
        else if (c < 0) luaL_addchar(b, '-');
        if (fabs(c) != 1) {
            snprintf(num, sizeof num, "%.14g*", fabs(c));
            luaL_addstring(b, num);
        }
        if (!ls || !ls->s || moa_var_name(ls->s, e->t[i].var, &name) != MOA_OK || !name[0]) name = "?";
        luaL_addstring(b, name);
    }
    if (e->n == 0 || e->constant != 0) {
        if (e->n == 0) snprintf(num, sizeof num, "%.14g", e->constant);
        else snprintf(num, sizeof num, " %s %.14g", e->constant < 0 ? "-" : "+", fabs(e->constant));
        luaL_addstring(b, num);
    }
    if (e->rel != NO_REL) {
        luaL_addchar(b, ' ');
        luaL_addstring(b, rel_symbols[e->rel]);
        luaL_addstring(b, " 0");
    }
}

static int linear_tostring(lua_State *L) {
    luaL_Buffer b;
    if (!luaL_testudata(L, 1, EXPR_MT)) luaL_checkudata(L, 1, REL_MT);
    luaL_buffinit(L, &b);
    format_linear(L, 1, &b);
    luaL_pushresult(&b);
    return 1;
}

/* e.constant, e.relation ("==" ...) for relations, methods otherwise. */
static int linear_index(lua_State *L) {
    LExpr *e = (LExpr *)lua_touserdata(L, 1);
    const char *key = lua_tostring(L, 2);
    if (key && strcmp(key, "constant") == 0) {
        lua_pushnumber(L, e->constant);
        return 1;
    }
    if (key && strcmp(key, "op") == 0 && e->rel != NO_REL) {
        lua_pushstring(L, rel_symbols[e->rel]);
        return 1;
    }
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

/* e:terms() -> { {var = Variable, coef = number}, ... } (also for relations). */
static int linear_terms(lua_State *L) {
    LExpr *e = (LExpr *)luaL_testudata(L, 1, EXPR_MT);
    int i;
    if (!e) e = (LExpr *)luaL_checkudata(L, 1, REL_MT);
    lua_createtable(L, e->n, 0);
    lua_getiuservalue(L, 1, 1);
    for (i = 0; i < e->n; i++) {
        lua_createtable(L, 0, 2);
        lua_rawgeti(L, -2, i + 1);
        lua_setfield(L, -2, "var");
        lua_pushnumber(L, e->t[i].coef);
        lua_setfield(L, -2, "coef");
        lua_rawseti(L, -3, i + 1);
    }
    lua_pop(L, 1);
    return 1;
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
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setiuservalue(L, -2, 1);
    ls->s = moa_solver_new();
    if (!ls->s) return luaL_error(L, "moa.solver: out of memory");
    return 1;
}

/* s:close() -- frees the C solver now; idempotent. Also __gc and __close. */
static int solver_close(lua_State *L) {
    LSolver *ls = (LSolver *)luaL_checkudata(L, 1, SOLVER_MT);
    if (ls->s) {
        moa_solver_free(ls->s);
        ls->s = NULL;
    }
    drop_pending(ls);
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
    if (st != MOA_OK) return status_error(L, ls, st, "dump");
    lua_pushstring(L, dump);
    return 1;
}

/* s:var([name]) -> Variable (value 0 until solved). Every call makes a new variable. */
static int solver_var(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    const char *name = luaL_optstring(L, 2, NULL);
    moa_var id = 0;
    moa_status st;
    LVar *v = (LVar *)lua_newuserdatauv(L, sizeof *v, 1); /* allocate first: no memory error after the call */
    v->id = 0;
    v->generation = ls->generation;
    luaL_setmetatable(L, VAR_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    st = moa_var_new(ls->s, name, &id);
    if (st != MOA_OK) return status_error(L, ls, st, "var");
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
            get_operand(L, 2, &a, op);
            get_operand(L, 4, &b, op);
            push_combination(L, &a, 1, &b, -1, rel, op);
            *opt_idx = 5;
        } else {
            /* s:add(expr, ...) means expr == 0 */
            Operand a;
            get_operand(L, 2, &a, "==");
            push_combination(L, &a, 1, NULL, 0, MOA_EQ, "==");
            *opt_idx = 3;
        }
        return 1;
    }
    return luaL_typeerror(L, 2, "moa.Relation (from :eq, :le or :ge), moa.Variable or moa.Expression");
}

/* s:add(relation [, priority [, weight [, tag]]])
   s:add(relation, {priority = p, weight = w, tag = "..."})
   s:add(lhs, "==" | "<=" | ">=", rhs [, priority [, weight [, tag]]])
   s:add(expr [, priority ...])                          -- expr == 0
   -> Constraint, or nil, message, details if a required constraint conflicts. Priority defaults to required. */
static int solver_add(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    int opt = 3, rel_idx, i, top;
    double priority, weight;
    const char *tag = NULL;
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
        priority = check_priority(L, top + 1, MOA_REQUIRED, 0, "priority");
        weight = check_weight(L, top + 2, "weight");
        if (!lua_isnil(L, top + 3) && lua_type(L, top + 3) != LUA_TSTRING) type_error(L, top + 3, "tag", "string");
        tag = lua_tostring(L, top + 3);
        if (!lua_isnoneornil(L, opt + 1)) return luaL_argerror(L, opt + 1, "no argument expected after an "
                                                                          "options table");
    } else {
        priority = check_priority(L, opt, MOA_REQUIRED, 0, NULL);
        weight = check_weight(L, opt + 1, NULL);
        tag = luaL_optstring(L, opt + 2, NULL);
    }
    /* every variable must belong to this solver */
    lua_getiuservalue(L, rel_idx, 1);
    for (i = 0; i < e->n; i++) {
        LSolver *owner;
        lua_rawgeti(L, -1, i + 1);
        owner = solver_of(L, -1);
        if (owner != ls) return luaL_error(L, "bad argument to 'add' (a variable of the constraint belongs to "
                                              "another solver)");
        if (((LVar *)lua_touserdata(L, -1))->generation != ls->generation)
            return luaL_error(L, "bad argument to 'add' (a variable of the constraint is stale: created before "
                                 "s:reset())");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    /* make room for the result first, so that nothing can fail between the add and its bookkeeping */
    lua_getiuservalue(L, 1, 1); /* map */
    c = (LCons *)lua_newuserdatauv(L, sizeof *c, 1);
    c->id = 0;
    c->generation = ls->generation;
    c->removed = 1;
    luaL_setmetatable(L, CONS_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    lua_checkstack(L, 8);

    st = moa_solver_add(ls->s, e->t, (size_t)e->n, e->constant, (moa_relation)e->rel, priority, tag, &id);
    if (st == MOA_UNSATISFIABLE) return push_failure(L, ls, 1, st);
    if (st != MOA_OK) return status_error(L, ls, st, "add");
    c->id = id;
    c->removed = 0;
    if (weight != 1) {
        st = moa_cons_set_weight(ls->s, id, weight);
        if (st != MOA_OK) {
            moa_cons_remove(ls->s, id);
            c->removed = 1;
            return luaL_error(L, "add: could not set the weight (%s)", moa_errstr(st));
        }
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)id); /* map[id] = c */
    return 1;
}

/* Removes the constraint c (stack index idx) of ls; raises on failure. */
static void remove_cons(lua_State *L, LSolver *ls, int solver_idx, LCons *c) {
    moa_status st = moa_cons_remove(ls->s, c->id);
    if (st != MOA_OK) status_error(L, ls, st, "remove");
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

/* s:edit(v [, priority]) -> s, or nil, message, details (code "DUPLICATE") if v is an edit variable already.
   The priority is below 1000; it defaults to "strong" (750). */
static int solver_edit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = check_var(L, 2, ls, NULL);
    double p = check_priority(L, 3, DEFAULT_EDIT_PRIORITY, 1, NULL);
    moa_status st = moa_solver_add_edit(ls->s, v->id, p);
    if (st == MOA_DUPLICATE) return push_failure(L, ls, 1, st);
    if (st != MOA_OK) return status_error(L, ls, st, "edit");
    lua_settop(L, 1);
    return 1;
}

/* s:unedit(v) -- v stops being an edit variable (an error if it is not one). */
static int solver_unedit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = check_var(L, 2, ls, NULL);
    moa_status st = moa_solver_remove_edit(ls->s, v->id);
    if (st != MOA_OK) return status_error(L, ls, st, "unedit");
    ls->dirty = 1;
    lua_settop(L, 1);
    return 1;
}

/* s:has_edit(v) -> boolean */
static int solver_has_edit(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = check_var(L, 2, ls, NULL);
    int out = 0;
    moa_status st = moa_solver_has_edit(ls->s, v->id, &out);
    if (st != MOA_OK) return status_error(L, ls, st, "has_edit");
    lua_pushboolean(L, out);
    return 1;
}

/* s:suggest(v, value) -> s. v must be an edit variable (s:edit). Visible after s:update(). */
static int solver_suggest(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    LVar *v = check_var(L, 2, ls, NULL);
    double x = check_finite(L, 3, "value", NULL);
    moa_status st = moa_solver_suggest(ls->s, v->id, x);
    if (st == MOA_NOTFOUND) return luaL_error(L, "suggest: not an edit variable (call s:edit(v) first)");
    if (st != MOA_OK) return status_error(L, ls, st, "suggest");
    lua_settop(L, 1);
    return 1;
}

/* s:update() -> s: copies the solution into the variables' values. */
static int solver_update(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    moa_status st;
    flush_vars(ls, 1);
    st = moa_solver_update(ls->s);
    if (st != MOA_OK) return status_error(L, ls, st, "update");
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
    if (st != MOA_OK) return status_error(L, ls, st, "counts");
    lua_pushinteger(L, (lua_Integer)nv);
    lua_pushinteger(L, (lua_Integer)nc);
    return 2;
}

/* s:reset() -> s: drops every variable, constraint and edit; older Lua objects become stale (an error to
   use). */
static int solver_reset(lua_State *L) {
    LSolver *ls = check_solver(L, 1);
    moa_status st = moa_solver_reset(ls->s);
    if (st != MOA_OK) return status_error(L, ls, st, "reset");
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
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setiuservalue(L, 1, 1);
    lua_settop(L, 1);
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
        v = check_var(L, 1, NULL, &ls);
        st = moa_var_value(ls->s, v->id, &x);
        if (st != MOA_OK) return status_error(L, ls, st, "value");
        lua_pushnumber(L, x);
        return 1;
    }
    if (key && strcmp(key, "name") == 0) {
        const char *name = NULL;
        v = check_var(L, 1, NULL, &ls);
        st = moa_var_name(ls->s, v->id, &name);
        if (st != MOA_OK) return status_error(L, ls, st, "name");
        lua_pushstring(L, name);
        return 1;
    }
    if (key && strcmp(key, "solver") == 0) {
        luaL_checkudata(L, 1, VAR_MT);
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
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
        LVar *v = check_var(L, 1, NULL, &ls);
        const char *name = luaL_optstring(L, 3, NULL);
        moa_status st = moa_var_set_name(ls->s, v->id, name);
        if (st != MOA_OK) return status_error(L, ls, st, "name");
        return 0;
    }
    return luaL_error(L, "cannot set field '%s' of a moa.Variable (only 'name' is assignable)",
                      key ? key : luaL_typename(L, 2));
}

/* tostring(v) -> "x = 10" ("moa.Variable (closed)" once its solver is closed). */
static int var_tostring(lua_State *L) {
    LVar *v = (LVar *)luaL_checkudata(L, 1, VAR_MT);
    LSolver *ls = solver_of(L, 1);
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
    LSolver *ls = solver_of(L, 1);
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
    LSolver *ls = solver_of(L, 1);
    if (c->removed || !ls || !ls->s || c->generation != ls->generation) return 0;
    return cons_remove(L);
}

static int set_constant(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    double k = check_finite(L, assign ? 3 : 2, "constant", assign ? "constant" : NULL);
    moa_status st = moa_cons_set_constant(ls->s, c->id, k);
    if (st == MOA_UNSATISFIABLE && !assign) {
        lua_getiuservalue(L, 1, 1);
        return push_failure(L, ls, lua_gettop(L), st);
    }
    if (st != MOA_OK) return status_error(L, ls, st, "constant");
    lua_settop(L, 1);
    return 1;
}

static int set_priority(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    double p;
    moa_status st;
    if (lua_isnoneornil(L, assign ? 3 : 2))
        return type_error(L, assign ? 3 : 2, assign ? "priority" : NULL, "priority (number or name)");
    p = check_priority(L, assign ? 3 : 2, MOA_REQUIRED, 0, assign ? "priority" : NULL);
    st = moa_cons_set_priority(ls->s, c->id, p);
    if (st == MOA_UNSATISFIABLE && !assign) {
        lua_getiuservalue(L, 1, 1);
        return push_failure(L, ls, lua_gettop(L), st);
    }
    if (st != MOA_OK) return status_error(L, ls, st, "priority");
    lua_settop(L, 1);
    return 1;
}

static int set_weight(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    int idx = assign ? 3 : 2;
    double w;
    moa_status st;
    if (lua_isnoneornil(L, idx)) return type_error(L, idx, assign ? "weight" : NULL, "number");
    w = check_weight(L, idx, assign ? "weight" : NULL);
    st = moa_cons_set_weight(ls->s, c->id, w);
    if (st != MOA_OK) return status_error(L, ls, st, "weight");
    lua_settop(L, 1);
    return 1;
}

static int set_active(lua_State *L, int assign) {
    LSolver *ls;
    LCons *c = check_cons(L, 1, NULL, &ls);
    int idx = assign ? 3 : 2, want, now = 0;
    moa_status st;
    if (lua_type(L, idx) != LUA_TBOOLEAN) return type_error(L, idx, assign ? "active" : NULL, "boolean");
    want = lua_toboolean(L, idx);
    st = moa_cons_is_active(ls->s, c->id, &now);
    if (st != MOA_OK) return status_error(L, ls, st, "active");
    if (now != want) {
        st = moa_cons_set_active(ls->s, c->id, want);
        if (st == MOA_UNSATISFIABLE && !assign) {
            lua_getiuservalue(L, 1, 1);
            return push_failure(L, ls, lua_gettop(L), st);
        }
        if (st != MOA_OK) return status_error(L, ls, st, "active");
    }
    lua_settop(L, 1);
    return 1;
}

/* c:set_constant(k), c:set_priority(p), c:set_active(b) -> c, or nil, message, details on a conflict;
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
        ls = solver_of(L, 1);
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
        if (st != MOA_OK) return status_error(L, ls, st, key);
        lua_pushboolean(L, a);
        return 1;
    } else if (strcmp(key, "tag") == 0) {
        const char *tag = NULL;
        c = check_cons(L, 1, NULL, &ls);
        st = moa_cons_tag(ls->s, c->id, &tag);
        if (st != MOA_OK) return status_error(L, ls, st, key);
        lua_pushstring(L, tag);
        return 1;
    } else {
        goto method;
    }
    if (st != MOA_OK) return status_error(L, ls, st, key);
    lua_pushnumber(L, x);
    return 1;
method:
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
    LSolver *ls = solver_of(L, 1);
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
    if (st != MOA_OK) return status_error(L, ls, st, "describe");
    lua_pushstring(L, d);
    return 1;
}

/* ======================================================================================================== */
/* Module                                                                                                   */
/* ======================================================================================================== */

/* Creates metatable `name` with the metamethods `meta` and a `methods` table (reached by __index: either a
   function given in meta, or the methods table itself). */
static void create_meta(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods) {
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, meta, 0);
    lua_createtable(L, 0, 8);
    luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "methods");
    lua_getfield(L, -2, "__index");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_setfield(L, -2, "__index");
    } else {
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

static const luaL_Reg solver_meta[] = {
    {"__gc", solver_close},
    {"__close", solver_close},
    {"__tostring", solver_tostring},
    {NULL, NULL},
};

static const luaL_Reg solver_methods[] = {
    {"var", solver_var},
    {"add", solver_add},
    {"remove", solver_remove},
    {"edit", solver_edit},
    {"unedit", solver_unedit},
    {"has_edit", solver_has_edit},
    {"suggest", solver_suggest},
    {"update", solver_update},
    {"counts", solver_counts},
    {"reset", solver_reset},
    {"dump", solver_dump},
    {"close", solver_close},
    {NULL, NULL},
};

static const luaL_Reg var_meta[] = {
    {"__index", var_index},
    {"__newindex", var_newindex},
    {"__tostring", var_tostring},
    {"__gc", var_gc},
    {"__add", arith_add},
    {"__sub", arith_sub},
    {"__mul", arith_mul},
    {"__div", arith_div},
    {"__unm", arith_unm},
    {NULL, NULL},
};

static const luaL_Reg var_methods[] = {
    {"eq", rel_eq},
    {"le", rel_le},
    {"ge", rel_ge},
    {NULL, NULL},
};

static const luaL_Reg expr_meta[] = {
    {"__index", linear_index},
    {"__tostring", linear_tostring},
    {"__add", arith_add},
    {"__sub", arith_sub},
    {"__mul", arith_mul},
    {"__div", arith_div},
    {"__unm", arith_unm},
    {NULL, NULL},
};

static const luaL_Reg expr_methods[] = {
    {"eq", rel_eq},
    {"le", rel_le},
    {"ge", rel_ge},
    {"terms", linear_terms},
    {NULL, NULL},
};

static const luaL_Reg rel_meta[] = {
    {"__index", linear_index},
    {"__tostring", linear_tostring},
    /* only to say clearly that a relation is not an expression */
    {"__add", arith_add},
    {"__sub", arith_sub},
    {"__mul", arith_mul},
    {"__div", arith_div},
    {"__unm", arith_unm},
    {NULL, NULL},
};

static const luaL_Reg rel_methods[] = {
    {"terms", linear_terms},
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

static const luaL_Reg module_funcs[] = {
    {"solver", l_solver},
    {NULL, NULL},
};

int luaopen_moa(lua_State *L) {
    int i;
    create_meta(L, SOLVER_MT, solver_meta, solver_methods);
    create_meta(L, VAR_MT, var_meta, var_methods);
    create_meta(L, EXPR_MT, expr_meta, expr_methods);
    create_meta(L, REL_MT, rel_meta, rel_methods);
    create_meta(L, CONS_MT, cons_meta, cons_methods);

    luaL_newlib(L, module_funcs);
    lua_pushliteral(L, "moa " MOA_VERSION);
    lua_setfield(L, -2, "_VERSION");
    lua_pushstring(L, moa_libversion());
    lua_setfield(L, -2, "version");
    lua_newtable(L);
    for (i = 0; priority_names[i].name; i++) {
        lua_pushinteger(L, (lua_Integer)priority_names[i].value);
        lua_setfield(L, -2, priority_names[i].name);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "priority");
    lua_setfield(L, -2, "strength");
    return 1;
}
