/*
** lmoa_expr.c -- moa.Expression and moa.Relation: linear expressions built with + - * / and unary minus from
** variables, expressions and numbers, and the relations :eq/:le/:ge make of them (constraints not yet added: see
** s:add in lmoa_solver.c). Gives moa.Variable its operators too. Reference: bindings/lua/README.md.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lmoa.h"

static const char *const rel_symbols[] = {"==", "<=", ">="};

/* ======================================================================================================== */
/* Linear operands: numbers, variables, expressions                                                         */
/* ======================================================================================================== */

static const char *operand_name(lua_State *L, int idx) {
    if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1); /* still referenced by the metatable */
        lua_pop(L, 1);
        return name;
    }
    return luaL_typename(L, idx);
}

/* Reads an operand of `op` or raises (Relation, Constraint, strings, ... are refused). */
void lmoa_get_operand(lua_State *L, int idx, Operand *o, const char *op) {
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
            luaL_error(L, "bad operand to '%s' (number must be finite, got %s)", op, lmoa_push_numstr(L, o->constant));
        return;
    }
    if ((ud = luaL_testudata(L, idx, VAR_MT)) != NULL) {
        LVar *v = lmoa_check_var(L, idx, NULL, &o->solver);
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
            if (!o->solver || !o->solver->s) lmoa_closed_error(L, "solver");
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
void lmoa_push_combination(lua_State *L, const Operand *a, double ka, const Operand *b, double kb, int rel,
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
    lmoa_get_operand(L, 1, &a, "+");
    lmoa_get_operand(L, 2, &b, "+");
    lmoa_push_combination(L, &a, 1, &b, 1, NO_REL, "+");
    return 1;
}

static int arith_sub(lua_State *L) {
    Operand a, b;
    lmoa_get_operand(L, 1, &a, "-");
    lmoa_get_operand(L, 2, &b, "-");
    lmoa_push_combination(L, &a, 1, &b, -1, NO_REL, "-");
    return 1;
}

static int arith_mul(lua_State *L) {
    Operand a, b;
    lmoa_get_operand(L, 1, &a, "*");
    lmoa_get_operand(L, 2, &b, "*");
    if (a.n > 0 && b.n > 0)
        return luaL_error(L, "bad operands to '*' (cannot multiply two non-constant expressions: the result "
                             "would not be linear)");
    if (a.n == 0) lmoa_push_combination(L, &b, a.constant, NULL, 0, NO_REL, "*");
    else lmoa_push_combination(L, &a, b.constant, NULL, 0, NO_REL, "*");
    return 1;
}

static int arith_div(lua_State *L) {
    Operand a, b;
    lmoa_get_operand(L, 1, &a, "/");
    lmoa_get_operand(L, 2, &b, "/");
    if (b.n > 0)
        return luaL_error(L, "bad operands to '/' (cannot divide by a non-constant expression: the result would "
                             "not be linear)");
    if (b.constant == 0) return luaL_error(L, "bad operands to '/' (division by zero)");
    lmoa_push_combination(L, &a, 1 / b.constant, NULL, 0, NO_REL, "/");
    return 1;
}

static int arith_unm(lua_State *L) {
    Operand a;
    lmoa_get_operand(L, 1, &a, "unary -");
    lmoa_push_combination(L, &a, -1, NULL, 0, NO_REL, "unary -");
    return 1;
}

/* lhs:eq(rhs) / :le / :ge, lhs a Variable or Expression, rhs a number, Variable or Expression. */
static int make_relation(lua_State *L, int rel) {
    Operand a, b;
    const char *op = rel_symbols[rel];
    if (!luaL_testudata(L, 1, VAR_MT) && !luaL_testudata(L, 1, EXPR_MT))
        return luaL_typeerror(L, 1, "moa.Variable or moa.Expression");
    luaL_checkany(L, 2);
    lmoa_get_operand(L, 1, &a, op);
    lmoa_get_operand(L, 2, &b, op);
    lmoa_push_combination(L, &a, 1, &b, -1, rel, op);
    return 1;
}

static int rel_eq(lua_State *L) { return make_relation(L, MOA_EQ); }
static int rel_le(lua_State *L) { return make_relation(L, MOA_LE); }
static int rel_ge(lua_State *L) { return make_relation(L, MOA_GE); }

/* ======================================================================================================== */
/* moa.Expression and moa.Relation                                                                          */
/* ======================================================================================================== */

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
        ls = lmoa_solver_of(L, -1); /* the Variable stays reachable from the expression */
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
    /* The metamethod can be called with anything (getmetatable(e).__index(0, k)). */
    LExpr *e = (LExpr *)luaL_testudata(L, 1, EXPR_MT);
    if (!e) e = (LExpr *)luaL_checkudata(L, 1, REL_MT);
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
/* Registration                                                                                             */
/* ======================================================================================================== */

/* The operators of every operand type: moa.Variable, moa.Expression and moa.Relation (there only to say clearly
   that a relation is not an expression). */
static const luaL_Reg arith_meta[] = {
    {"__add", arith_add},
    {"__sub", arith_sub},
    {"__mul", arith_mul},
    {"__div", arith_div},
    {"__unm", arith_unm},
    {NULL, NULL},
};

static const luaL_Reg linear_meta[] = {
    {"__index", linear_index},
    {"__tostring", linear_tostring},
    {NULL, NULL},
};

static const luaL_Reg var_methods[] = {
    {"eq", rel_eq},
    {"le", rel_le},
    {"ge", rel_ge},
    {NULL, NULL},
};

static const luaL_Reg expr_methods[] = {
    {"eq", rel_eq},
    {"le", rel_le},
    {"ge", rel_ge},
    {"terms", linear_terms},
    {NULL, NULL},
};

static const luaL_Reg rel_methods[] = {
    {"terms", linear_terms},
    {NULL, NULL},
};

/* moa.Expression, moa.Relation; the operators and the eq/le/ge methods of moa.Variable (made by
   lmoa_open_solver). */
void lmoa_open_expr(lua_State *L) {
    lmoa_create_meta(L, EXPR_MT, linear_meta, expr_methods);
    lmoa_extend_meta(L, EXPR_MT, arith_meta, NULL);
    lmoa_create_meta(L, REL_MT, linear_meta, rel_methods);
    lmoa_extend_meta(L, REL_MT, arith_meta, NULL);
    lmoa_extend_meta(L, VAR_MT, arith_meta, var_methods);
}
