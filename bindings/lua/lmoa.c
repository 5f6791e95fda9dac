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
**
** THE LAYOUT LEVEL
**
**   local L <close> = moa.layout(320, 480)
**   local sidebar, content = L:view "sidebar", L:view "content"
**   local cs = assert(L:eqs [[
**     sidebar.left == 0
**     sidebar.top == 0
**     sidebar.bottom == 0
**     sidebar.width == 200
**     content.left == sidebar.right
**     content.right == 0
**     content.top == 0
**     content.bottom == 0
**   ]])
**   L:solve()                              --> { root, sidebar, content } (the views whose frame changed)
**   print(content.frame.x)                 --> 200
**   local col = L:collapsible(sidebar, cs[1], "left")
**   col:toggle { duration = 0.3, curve = "easeInOut", done = function(finished) end }
**   L:advance(0.15); print(sidebar.frame.x)  --> -100
**
**   moa.Layout      owns a moa_layout. __gc, __close and L:close() free it (idempotent); L.closed. Fields:
**                   L.root, L.time, L.animating, L.width, L.height. Methods: view(name [, parent]),
**                   find(name), guide(name), set_root_size(w, h), root_size(), set_safe_area(t, l, b, r),
**                   set_keyboard_height(h), eq(line), eqs(text [, source [, first_line]]), xeq(line),
**                   on_debug(fn | nil), solve(), views(), constraints(), describe(), violations(),
**                   ambiguities(), frames([guides]), changed_frames(), svg([{constraints=, guides=, labels=}]);
**                   motion:
**                   advance(dt), seek(t), cancel_animations(), animate_root_size(w, h [, opts]),
**                   show_keyboard(h [, duration [, opts]]), hide_keyboard([duration [, opts]]),
**                   collapsible(view, constraint, "left"|"right"|"up"|"down"),
**                   pan({constraints}, "horizontal"|"vertical", {rest positions}), trace_start([{guides=}]),
**                   trace_stop(), trace_csv(), trace_json(), trace_svg_strip([max_frames [, svg opts]]).
**                   User values: weak maps id -> View and id -> LayoutConstraint (one object per id).
**   moa.View        a view, the root or a guide. v.frame (in the superview), v.root_frame: {x, y, width,
**                   height}; v.name, v.superview, v.layout, v.id; set_margins(t, l, b, r | all),
**                   set_direction("inherit"|"ltr"|"rtl"), set_intrinsic_size(w|nil, h|nil),
**                   set_content_priority(axis, hug, compress), set_baseline(offset|nil [, first]),
**                   set_superview(view|nil), remove().
**   moa.LayoutConstraint  c.constant, c.priority, c.active (get and assign), c.line, c.removed, c.id,
**                   tostring(c) (its equation); set_constant/set_priority/set_active (return c, or nil, msg,
**                   details on a conflict), remove(), animate(to [, opts]), animate_priority(to [, opts]),
**                   stop_animating(). No finalizer: a constraint stays in its layout until removed.
**   moa.Animation   returned by the animate calls; a:cancel().
**   moa.Collapsible col:collapse(opts), col:show(opts), col:toggle(opts) -> Animation or nil (not animated),
**                   opts {animated = true, duration = 0.3, curve = "easeInOut", done = fn}; col.collapsed;
**                   col:free().
**   moa.Pan         p:began() -> accepted, p:changed(translation, velocity) -> accepted,
**                   p:ended(velocity [, fn(rest, finished)]) -> rest position (false when ignored),
**                   p:cancelled([fn]), p:move(offset [, animated [, fn]]), p:set_options{fast_velocity=,
**                   fast_step=, drag_limit= (number or "auto"), snap_duration=, snap_curve=},
**                   p:set_rest_positions{...}, p.enabled (get, assign; p:set_enabled(b)), p.offset,
**                   p.rest_position, p:free().
**
**   Animation options: {duration = 0.3, curve = "linear"|"easeIn"|"easeOut"|"easeInOut"|"spring" or a
**   Bezier {x1, y1, x2, y2} or a spring {damping=, response=, velocity=}, spring = {...} (same), delay = 0,
**   done = function(finished) end}.
**
**   Children (views, constraints, animations, collapsibles, pans) hold their layout (user value 1), so any
**   collection order is safe; after L:close() using them raises "attempt to use a closed layout". A stale id
**   (a removed view or constraint) raises the library's message.
**
**   Errors: misuse raises; a parse error, a bad number or priority in equation text (INVALID at a token: see
**   is_text_failure) or a conflict returns nil, message, details = {code, status, kind,
**   message, line, offset, text_offset, length, source_line, expected, suggestion, source, conflicts =
**   {{constraint=, equation=, line=}, ...}} (eq, eqs, xeq also for NOTFOUND, the constraint and view setters,
**   set_root_size, pan:changed, collapsible calls without animation). Assignments raise on a conflict.
**
**   Callbacks (done, rest, on_debug) run under lua_pcall inside the moa_* call, on the thread that made the
**   call (LLayout.cur). The first error one raises is kept in the registry and raised after the moa_* call
**   has returned; the other completions of that call still run. A completion's function is held in the
**   registry until the library calls it (exactly once: also with finished = false when the layout is closed
**   or collected; errors from a finalizer are dropped). A callback may close the layout: the library defers
**   the free to the end of the outer call, and the outer binding call then returns nothing.
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

/* A weight in [1e-6, 1e6] (moa.h); 1 when nil or absent. */
static double check_weight(lua_State *L, int idx, const char *field) {
    double w;
    if (lua_isnoneornil(L, idx)) return 1;
    if (lua_type(L, idx) != LUA_TNUMBER) return type_error(L, idx, field, "number"), 0;
    w = lua_tonumber(L, idx);
    if (!(w >= 1e-6 && w <= 1e6))
        return value_error(L, idx, field,
                           lua_pushfstring(L, "weight must be in [1e-6, 1e6], got %s", push_numstr(L, w))), 0;
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
/* THE LAYOUT LEVEL: moa.Layout, moa.View, moa.LayoutConstraint, moa.Animation, moa.Collapsible, moa.Pan     */
/* ======================================================================================================== */

#define LAYOUT_MT "moa.Layout"
#define VIEW_MT "moa.View"
#define LCONS_MT "moa.LayoutConstraint"
#define ANIM_MT "moa.Animation"
#define COLL_MT "moa.Collapsible"
#define PAN_MT "moa.Pan"

/* moa.Layout. User values: 1 weak map id -> View, 2 weak map id -> LayoutConstraint. */
typedef struct LLayout {
    moa_layout *m;        /* NULL once closed */
    lua_State *cur;       /* the thread of the binding call in progress: where callbacks run */
    int errref;           /* registry ref of the first error a callback raised in this call, or LUA_NOREF */
    int debugref;         /* registry ref of the `?` report function, or LUA_NOREF */
    int finalizing;       /* freed from __gc */
} LLayout;

/* moa.View, moa.LayoutConstraint, moa.Animation, moa.Collapsible: an id. User value 1: the layout. */
typedef struct LId {
    uint64_t id;
} LId;

/* moa.Pan: an id and the options last set (the C API has no getters for them). User value 1: the layout. */
typedef struct LPan {
    uint64_t id;
    double fast_velocity, fast_step, drag_limit, snap_duration;
    moa_curve snap_curve;
    int enabled;
} LPan;

/* The `ud` of a completion: the layout and the registry ref of the Lua function. */
typedef struct LCallback {
    LLayout *ll;
    int ref;
} LCallback;

/* Swaps in the calling thread for a moa_* call that may call back. Needs `moa_status st` in scope. */
#define CALLBACK_CALL(ll, L, expr)                                                                           \
    do {                                                                                                     \
        lua_State *prev_ = (ll)->cur;                                                                        \
        (ll)->cur = (L);                                                                                     \
        st = (expr);                                                                                         \
        (ll)->cur = prev_;                                                                                   \
    } while (0)

static int layout_closed_error(lua_State *L) {
    return luaL_error(L, "attempt to use a closed layout");
}

static LLayout *check_layout(lua_State *L, int idx) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, idx, LAYOUT_MT);
    if (!ll->m) layout_closed_error(L);
    return ll;
}

/* The open layout of a child userdata at idx (user value 1). */
static LLayout *layout_of(lua_State *L, int idx) {
    LLayout *ll;
    lua_getiuservalue(L, idx, 1);
    ll = (LLayout *)luaL_testudata(L, -1, LAYOUT_MT);
    lua_pop(L, 1);
    if (!ll || !ll->m) layout_closed_error(L);
    return ll;
}

static LId *check_child(lua_State *L, int idx, const char *mt, LLayout **llp) {
    LId *x = (LId *)luaL_checkudata(L, idx, mt);
    *llp = layout_of(L, idx);
    return x;
}

/* Raises the error a callback left, if any. Call after the moa_* call returned. */
static void raise_pending(lua_State *L, LLayout *ll) {
    if (ll->errref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ll->errref);
        luaL_unref(L, LUA_REGISTRYINDEX, ll->errref);
        ll->errref = LUA_NOREF;
        lua_error(L);
    }
}

/* Raises with the layout's message for a failed call (call right after it). */
static int lstatus_error(lua_State *L, LLayout *ll, moa_status st, const char *what) {
    const char *msg = ll->m ? moa_layout_errmsg(ll->m) : moa_errstr(st);
    raise_pending(L, ll);
    return luaL_error(L, "%s: %s", what, msg);
}

/* Pushes the object of an id from the map in user value `uv` of the layout at layout_idx, creating it. */
static void push_child(lua_State *L, int layout_idx, int uv, const char *mt, uint64_t id) {
    LId *x;
    layout_idx = lua_absindex(L, layout_idx);
    lua_getiuservalue(L, layout_idx, uv);
    if (lua_rawgeti(L, -1, (lua_Integer)id) != LUA_TNIL) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    x = (LId *)lua_newuserdatauv(L, sizeof *x, 1);
    x->id = id;
    luaL_setmetatable(L, mt);
    lua_pushvalue(L, layout_idx);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)id);
    lua_remove(L, -2);
}

static void push_view(lua_State *L, int layout_idx, moa_view id) { push_child(L, layout_idx, 1, VIEW_MT, id); }
static void push_lcons(lua_State *L, int layout_idx, moa_lcons id) { push_child(L, layout_idx, 2, LCONS_MT, id); }

/* A new child object (not mapped): Animation or Collapsible. */
static void *new_child(lua_State *L, int layout_idx, const char *mt, size_t size) {
    void *x;
    layout_idx = lua_absindex(L, layout_idx);
    x = lua_newuserdatauv(L, size, 1);
    memset(x, 0, size);
    luaL_setmetatable(L, mt);
    lua_pushvalue(L, layout_idx);
    lua_setiuservalue(L, -2, 1);
    return x;
}

static void push_rect(lua_State *L, const moa_rect *r) {
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, r->x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, r->y);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, r->width);
    lua_setfield(L, -2, "width");
    lua_pushnumber(L, r->height);
    lua_setfield(L, -2, "height");
}

/* After an expected failure (parse error, conflict) of a call on the layout at layout_idx: pushes nil,
   message, details = {code, status, kind, message, line, offset, text_offset, length, source_line, expected,
   suggestion, source, conflicts = { {constraint=, equation=, line=}, ... }}. Returns 3. Reads every string of
   the failure before the next moa_* call (which would clear them). */
static int push_lfailure(lua_State *L, LLayout *ll, int layout_idx, moa_status st) {
    moa_error_info info;
    size_t count = 0, i;
    moa_lcons *ids;
    int details;
    layout_idx = lua_absindex(L, layout_idx);
    lua_pushnil(L);
    lua_pushstring(L, moa_layout_errmsg(ll->m));
    lua_createtable(L, 0, 14);
    details = lua_gettop(L);
    lua_pushstring(L, status_name(st));
    lua_setfield(L, details, "code");
    lua_pushinteger(L, st);
    lua_setfield(L, details, "status");
    if (moa_layout_error_info(ll->m, &info) == MOA_OK) {
        lua_pushstring(L, info.kind);
        lua_setfield(L, details, "kind");
        lua_pushstring(L, info.message);
        lua_setfield(L, details, "message");
        lua_pushinteger(L, info.line);
        lua_setfield(L, details, "line");
        lua_pushinteger(L, info.offset);
        lua_setfield(L, details, "offset");
        lua_pushinteger(L, info.text_offset);
        lua_setfield(L, details, "text_offset");
        lua_pushinteger(L, info.length);
        lua_setfield(L, details, "length");
        lua_pushstring(L, info.source_line);
        lua_setfield(L, details, "source_line");
        lua_pushstring(L, info.expected);
        lua_setfield(L, details, "expected");
        lua_pushstring(L, info.suggestion);
        lua_setfield(L, details, "suggestion");
        lua_pushstring(L, info.source);
        lua_setfield(L, details, "source");
    }
    if (moa_layout_conflicts(ll->m, NULL, 0, &count) != MOA_OK) count = 0;
    ids = (moa_lcons *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *ids, 0);
    if (count && moa_layout_conflicts(ll->m, ids, count, &count) != MOA_OK) count = 0;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) { /* the describe calls clear the record: everything above is read already */
        const char *text = NULL;
        int line = 0;
        lua_createtable(L, 0, 3);
        push_lcons(L, layout_idx, ids[i]);
        lua_setfield(L, -2, "constraint");
        if (moa_lcons_describe(ll->m, ids[i], &text) == MOA_OK && text) lua_pushstring(L, text);
        else lua_pushliteral(L, "?");
        lua_setfield(L, -2, "equation");
        if (moa_lcons_line(ll->m, ids[i], &line) != MOA_OK) line = 0;
        lua_pushinteger(L, line);
        lua_setfield(L, -2, "line");
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    lua_setfield(L, details, "conflicts");
    lua_pop(L, 1); /* ids */
    return 3;
}

static int is_expected_failure(moa_status st) {
    return st == MOA_PARSE || st == MOA_UNSATISFIABLE;
}

/* eq/eqs/xeq: a MOA_INVALID the text is to blame for, located at one of its tokens with what would have been
   accepted there (a number above 1e12, division by zero, a priority outside 1...1000, attributes of two axes),
   is a failure of the text like a parse error: nil, message, details, not a raise. Still raised as misuse:
   a blank line (its source line is blank), several lines or size/pin given to eq, a content priority given
   to xeq (they name no expected token). Call right after the failing call. */
static int is_text_failure(LLayout *ll, moa_status st) {
    moa_error_info info;
    const char *p;
    if (st != MOA_INVALID || !ll->m || moa_layout_error_info(ll->m, &info) != MOA_OK) return 0;
    if (info.line < 1 || info.text_offset < 0 || info.length < 1 || !info.expected[0]) return 0;
    for (p = info.source_line; *p == ' ' || *p == '\t' || *p == '\r'; p++) {}
    return *p != '\0' && *p != '#';
}

/* ---------------------------------------------------------------------------------------- callbacks */

/* Calls the function of cb (popped from the registry) with the nargs values on top of the thread's stack,
   under lua_pcall; the first error is kept for raise_pending(). Never raises. */
static void run_callback(LLayout *ll, lua_State *L, int ref, int nargs) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    lua_insert(L, -(nargs + 1));
    if (lua_pcall(L, nargs, 0, 0) != LUA_OK) {
        if (ll->errref == LUA_NOREF && !ll->finalizing) ll->errref = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_pop(L, 1);
    }
}

static void done_trampoline(moa_layout *m, moa_animation a, int finished, void *ud) {
    LCallback *cb = (LCallback *)ud;
    LLayout *ll = cb->ll;
    lua_State *L = ll->cur;
    int ref = cb->ref;
    (void)m;
    (void)a;
    free(cb);
    if (!L) return; /* cannot happen: every call that may call back sets cur */
    if (!lua_checkstack(L, 4)) {
        luaL_unref(L, LUA_REGISTRYINDEX, ref);
        return;
    }
    lua_pushboolean(L, finished);
    run_callback(ll, L, ref, 1);
}

static void rest_trampoline(moa_layout *m, moa_pan p, double rest, int finished, void *ud) {
    LCallback *cb = (LCallback *)ud;
    LLayout *ll = cb->ll;
    lua_State *L = ll->cur;
    int ref = cb->ref;
    (void)m;
    (void)p;
    free(cb);
    if (!L) return;
    if (!lua_checkstack(L, 4)) {
        luaL_unref(L, LUA_REGISTRYINDEX, ref);
        return;
    }
    lua_pushnumber(L, rest);
    lua_pushboolean(L, finished);
    run_callback(ll, L, ref, 2);
}

static void debug_trampoline(const char *text, void *ud) {
    LLayout *ll = (LLayout *)ud;
    lua_State *L = ll->cur;
    if (!L || ll->debugref == LUA_NOREF || !lua_checkstack(L, 4)) return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ll->debugref);
    lua_pushstring(L, text);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        if (ll->errref == LUA_NOREF) ll->errref = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_pop(L, 1);
    }
}

/* A completion at idx (a function or nil): a malloc'ed LCallback holding a registry ref, or NULL. Free it
   with drop_callback() when the moa_* call fails (the C side then never calls it). */
static LCallback *make_callback(lua_State *L, LLayout *ll, int idx, const char *field) {
    LCallback *cb;
    if (lua_isnoneornil(L, idx)) return NULL;
    if (lua_type(L, idx) != LUA_TFUNCTION) return type_error(L, idx, field, "function"), NULL;
    cb = (LCallback *)malloc(sizeof *cb);
    if (!cb) return luaL_error(L, "not enough memory"), NULL;
    cb->ll = ll;
    lua_pushvalue(L, idx);
    cb->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return cb;
}

static void drop_callback(lua_State *L, LCallback *cb) {
    if (!cb) return;
    luaL_unref(L, LUA_REGISTRYINDEX, cb->ref);
    free(cb);
}

/* ---------------------------------------------------------------------------------------- options */

static const struct { const char *name; moa_curve curve; } curve_names[] = {
    {"linear", MOA_LINEAR}, {"easeIn", MOA_EASE_IN}, {"easeOut", MOA_EASE_OUT}, {"easeInOut", MOA_EASE_IN_OUT},
    {"spring", MOA_SPRING}, {NULL, 0},
};

/* Field `name` of the table at idx as a number (dflt when absent). */
static double opt_number(lua_State *L, int idx, const char *name, double dflt) {
    double x = dflt;
    if (lua_isnoneornil(L, idx)) return dflt;
    if (lua_getfield(L, idx, name) != LUA_TNIL) x = check_finite(L, -1, name, name);
    lua_pop(L, 1);
    return x;
}

static int opt_bool(lua_State *L, int idx, const char *name, int dflt) {
    int b = dflt;
    if (lua_isnoneornil(L, idx)) return dflt;
    if (lua_getfield(L, idx, name) != LUA_TNIL) {
        if (!lua_isboolean(L, -1)) type_error(L, lua_gettop(L), name, "boolean");
        b = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    return b;
}

/* A curve from the value at idx: a name, or a table {damping=, response=, velocity=} (a spring) or
   {x1, y1, x2, y2} (a cubic Bézier). dflt when nil. */
static moa_curve check_curve(lua_State *L, LLayout *ll, int idx, moa_curve dflt, const char *field) {
    int t = lua_type(L, idx), i;
    moa_curve c = dflt;
    moa_status st;
    idx = lua_absindex(L, idx);
    if (t == LUA_TNONE || t == LUA_TNIL) return dflt;
    if (t == LUA_TSTRING) {
        const char *name = lua_tostring(L, idx);
        for (i = 0; curve_names[i].name; i++)
            if (strcmp(curve_names[i].name, name) == 0) return curve_names[i].curve;
        return value_error(L, idx, field,
                           lua_pushfstring(L, "unknown curve '%s' (expected linear, easeIn, easeOut, easeInOut or "
                                              "spring)", name)), 0;
    }
    if (t != LUA_TTABLE) return type_error(L, idx, field, "curve (name or table)"), 0;
    if (lua_rawgeti(L, idx, 1) != LUA_TNIL) { /* {x1, y1, x2, y2} */
        double p[4];
        lua_pop(L, 1);
        for (i = 0; i < 4; i++) {
            lua_rawgeti(L, idx, i + 1);
            p[i] = check_finite(L, -1, "control point", field ? field : "curve");
            lua_pop(L, 1);
        }
        st = moa_layout_bezier_curve(ll->m, p[0], p[1], p[2], p[3], &c);
    } else {
        double damping, response, velocity;
        int hasv;
        lua_pop(L, 1);
        damping = opt_number(L, idx, "damping", 1);
        response = opt_number(L, idx, "response", 0.5);
        lua_getfield(L, idx, "velocity");
        hasv = !lua_isnil(L, -1);
        lua_pop(L, 1);
        velocity = opt_number(L, idx, "velocity", 0);
        st = moa_layout_spring_curve(ll->m, damping, response, hasv ? &velocity : NULL, &c);
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, field ? field : "curve"), 0;
    return c;
}

/* Animation options at idx (a table or nil): duration, curve (or spring = {...}), delay, done. */
typedef struct AnimOpts {
    double duration, delay;
    moa_curve curve;
    int done_idx; /* stack index of the done function, 0 if none */
} AnimOpts;

static void check_anim_opts(lua_State *L, LLayout *ll, int idx, double dflt_duration, moa_curve dflt_curve,
                            AnimOpts *o) {
    o->duration = dflt_duration;
    o->delay = 0;
    o->curve = dflt_curve;
    o->done_idx = 0;
    if (lua_isnoneornil(L, idx)) return;
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    o->duration = opt_number(L, idx, "duration", dflt_duration);
    o->delay = opt_number(L, idx, "delay", 0);
    if (lua_getfield(L, idx, "spring") != LUA_TNIL) {
        if (!lua_istable(L, -1)) type_error(L, lua_gettop(L), "spring", "table");
        o->curve = check_curve(L, ll, -1, dflt_curve, "spring");
        lua_pop(L, 1);
    } else {
        lua_pop(L, 1);
        lua_getfield(L, idx, "curve");
        o->curve = check_curve(L, ll, -1, dflt_curve, "curve");
        lua_pop(L, 1);
    }
    lua_getfield(L, idx, "done"); /* stays on the stack while the call runs */
    if (!lua_isnil(L, -1)) {
        if (!lua_isfunction(L, -1)) type_error(L, lua_gettop(L), "done", "function");
        o->done_idx = lua_gettop(L);
    } else {
        lua_pop(L, 1);
    }
}

/* ---------------------------------------------------------------------------------------- moa.layout */

static int l_layout(lua_State *L) {
    double w = check_finite(L, 1, "width", NULL), h = check_finite(L, 2, "height", NULL);
    LLayout *ll = (LLayout *)lua_newuserdatauv(L, sizeof *ll, 2);
    ll->m = NULL;
    ll->cur = NULL;
    ll->errref = LUA_NOREF;
    ll->debugref = LUA_NOREF;
    ll->finalizing = 0;
    luaL_setmetatable(L, LAYOUT_MT);
    for (int uv = 1; uv <= 2; uv++) {
        lua_createtable(L, 0, 0);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "v");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_setiuservalue(L, -2, uv);
    }
    ll->m = moa_layout_new(w, h);
    if (!ll->m) return luaL_error(L, "moa.layout: bad size %f x %f (0 to 1e9) or out of memory", w, h);
    return 1;
}

/* Frees the C layout (every pending completion is called with finished = false, under pcall). */
static void free_layout(lua_State *L, LLayout *ll, int finalizing) {
    moa_layout *m = ll->m;
    lua_State *prev = ll->cur;
    if (!m) return;
    ll->m = NULL;
    ll->finalizing = finalizing;
    ll->cur = L;
    moa_layout_free(m); /* deferred by the library when called from one of its callbacks */
    ll->cur = prev;
    if (ll->debugref != LUA_NOREF) {
        luaL_unref(L, LUA_REGISTRYINDEX, ll->debugref);
        ll->debugref = LUA_NOREF;
    }
}

static int layout_gc(lua_State *L) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, 1, LAYOUT_MT);
    free_layout(L, ll, 1);
    if (ll->errref != LUA_NOREF) {
        luaL_unref(L, LUA_REGISTRYINDEX, ll->errref);
        ll->errref = LUA_NOREF;
    }
    return 0;
}

static int layout_close(lua_State *L) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, 1, LAYOUT_MT);
    int inside = ll->cur != NULL; /* closed from a callback: the outer call raises pending errors */
    free_layout(L, ll, 0);
    if (!inside) raise_pending(L, ll);
    return 0;
}

static int layout_tostring(lua_State *L) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, 1, LAYOUT_MT);
    double w = 0, h = 0;
    size_t nviews = 0;
    if (!ll->m) {
        lua_pushfstring(L, "moa.Layout (closed): %p", (void *)ll);
        return 1;
    }
    moa_layout_root_size(ll->m, &w, &h);
    moa_layout_views(ll->m, NULL, 0, &nviews);
    lua_pushfstring(L, "moa.Layout (%s x %s, %d views): %p", push_numstr(L, w), push_numstr(L, h), (int)nviews,
                    (void *)ll);
    return 1;
}

static const char *check_name(lua_State *L, int idx) {
    return luaL_checkstring(L, idx);
}

/* L:view(name [, parent]) -> View */
static int layout_view(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    const char *name = check_name(L, 2);
    moa_view parent = 0, out = 0;
    moa_status st;
    if (!lua_isnoneornil(L, 3)) {
        LLayout *pl;
        LId *p = check_child(L, 3, VIEW_MT, &pl);
        if (pl != ll) return luaL_argerror(L, 3, "view belongs to another layout");
        parent = p->id;
    }
    st = moa_view_new(ll->m, name, parent, &out);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "view");
    push_view(L, 1, out);
    return 1;
}

/* L:find(name) -> View or nil */
static int layout_find(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    const char *name = check_name(L, 2);
    moa_view out = 0;
    moa_status st = moa_view_find(ll->m, name, &out);
    if (st == MOA_NOTFOUND) {
        lua_pushnil(L);
        return 1;
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, "find");
    push_view(L, 1, out);
    return 1;
}

/* L:guide(name) -> View (safeArea, margins, keyboard) */
static int layout_guide(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    const char *name = check_name(L, 2);
    moa_view out = 0;
    moa_status st = moa_layout_guide(ll->m, name, &out);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "guide");
    push_view(L, 1, out);
    return 1;
}

static int layout_set_root_size(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    double w = check_finite(L, 2, "width", NULL), h = check_finite(L, 3, "height", NULL);
    moa_status st = moa_layout_set_root_size(ll->m, w, h);
    if (st == MOA_UNSATISFIABLE) return push_lfailure(L, ll, 1, st);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "set_root_size");
    lua_settop(L, 1);
    return 1;
}

static int layout_root_size(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    double w = 0, h = 0;
    moa_layout_root_size(ll->m, &w, &h);
    lua_pushnumber(L, w);
    lua_pushnumber(L, h);
    return 2;
}

static int layout_set_safe_area(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    double t = check_finite(L, 2, "top", NULL), l = check_finite(L, 3, "left", NULL),
           b = check_finite(L, 4, "bottom", NULL), r = check_finite(L, 5, "right", NULL);
    moa_status st = moa_layout_set_safe_area(ll->m, t, l, b, r);
    if (st == MOA_UNSATISFIABLE) return push_lfailure(L, ll, 1, st);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "set_safe_area");
    lua_settop(L, 1);
    return 1;
}

static int layout_set_keyboard_height(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    double h = check_finite(L, 2, "height", NULL);
    moa_status st = moa_layout_set_keyboard_height(ll->m, h);
    if (st == MOA_UNSATISFIABLE) return push_lfailure(L, ll, 1, st);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "set_keyboard_height");
    lua_settop(L, 1);
    return 1;
}

/* L:eq(line) -> LayoutConstraint, or nil, message, details */
static int layout_eq(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    const char *line = luaL_checkstring(L, 2);
    moa_lcons out = 0;
    moa_status st;
    CALLBACK_CALL(ll, L, moa_layout_eq(ll->m, line, &out));
    if (!ll->m) { /* closed by the debug callback */
        raise_pending(L, ll);
        return layout_closed_error(L);
    }
    if (is_expected_failure(st) || is_text_failure(ll, st)) {
        int n = push_lfailure(L, ll, 1, st);
        raise_pending(L, ll);
        return n;
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, "eq");
    raise_pending(L, ll);
    push_lcons(L, 1, out);
    return 1;
}

/* L:eqs(text [, source [, first_line]]) -> { LayoutConstraint, ... } (all or nothing), or nil, msg, details */
static int layout_eqs(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    size_t len, lines = 1, i, count = 0;
    const char *text = luaL_checklstring(L, 2, &len);
    const char *source = luaL_optstring(L, 3, NULL);
    int first = (int)luaL_optinteger(L, 4, 1);
    moa_lcons *ids;
    moa_status st;
    for (i = 0; i < len; i++)
        if (text[i] == '\n') lines++;
    ids = (moa_lcons *)lua_newuserdatauv(L, 4 * lines * sizeof *ids, 0);
    if (source || first != 1)
        CALLBACK_CALL(ll, L, moa_layout_eqs_source(ll->m, text, source, first, ids, 4 * lines, &count));
    else
        CALLBACK_CALL(ll, L, moa_layout_eqs(ll->m, text, ids, 4 * lines, &count));
    if (!ll->m) {
        raise_pending(L, ll);
        return layout_closed_error(L);
    }
    if (is_expected_failure(st) || is_text_failure(ll, st)) {
        int n = push_lfailure(L, ll, 1, st);
        raise_pending(L, ll);
        return n;
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, "eqs");
    raise_pending(L, ll);
    if (count > 4 * lines) count = 4 * lines;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push_lcons(L, 1, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

/* L:xeq(line) -> number removed, or nil, message, details (parse error, nothing matches) */
static int layout_xeq(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    const char *line = luaL_checkstring(L, 2);
    size_t removed = 0;
    moa_status st;
    CALLBACK_CALL(ll, L, moa_layout_xeq(ll->m, line, &removed));
    if (!ll->m) {
        raise_pending(L, ll);
        return layout_closed_error(L);
    }
    if (is_expected_failure(st) || is_text_failure(ll, st) || st == MOA_NOTFOUND) {
        int n = push_lfailure(L, ll, 1, st);
        raise_pending(L, ll);
        return n;
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, "xeq");
    raise_pending(L, ll);
    lua_pushinteger(L, (lua_Integer)removed);
    return 1;
}

/* L:on_debug(fn or nil): where the `?` reports go (nil: standard error). */
static int layout_on_debug(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    if (ll->debugref != LUA_NOREF) {
        luaL_unref(L, LUA_REGISTRYINDEX, ll->debugref);
        ll->debugref = LUA_NOREF;
    }
    if (lua_isnoneornil(L, 2)) {
        moa_layout_set_debug_callback(ll->m, NULL, NULL);
    } else {
        lua_pushvalue(L, 2);
        ll->debugref = luaL_ref(L, LUA_REGISTRYINDEX);
        moa_layout_set_debug_callback(ll->m, debug_trampoline, ll);
    }
    lua_settop(L, 1);
    return 1;
}

/* Pushes the list of the views whose frame changed at the last solve or frame. */
static void push_changed(lua_State *L, LLayout *ll, int layout_idx) {
    size_t count = 0, i;
    moa_view *ids;
    moa_layout_changed_views(ll->m, NULL, 0, &count);
    ids = (moa_view *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *ids, 0);
    if (count && moa_layout_changed_views(ll->m, ids, count, &count) != MOA_OK) count = 0;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push_view(L, layout_idx, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    lua_remove(L, -2);
}

/* L:solve() -> { View whose frame changed, ... } */
static int layout_solve(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    moa_status st = moa_layout_solve(ll->m, NULL);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "solve");
    push_changed(L, ll, 1);
    return 1;
}

/* Lists of ids: L:views(), L:constraints() */
static int layout_views(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    size_t count = 0, i;
    moa_view *ids;
    moa_layout_views(ll->m, NULL, 0, &count);
    ids = (moa_view *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *ids, 0);
    if (count && moa_layout_views(ll->m, ids, count, &count) != MOA_OK) count = 0;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push_view(L, 1, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

static int layout_constraints(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    size_t count = 0, i;
    moa_lcons *ids;
    moa_layout_constraints(ll->m, NULL, 0, &count);
    ids = (moa_lcons *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *ids, 0);
    if (count && moa_layout_constraints(ll->m, ids, count, &count) != MOA_OK) count = 0;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push_lcons(L, 1, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

static int layout_describe(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    const char *s = NULL;
    moa_status st = moa_layout_describe(ll->m, &s);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "describe");
    lua_pushstring(L, s);
    return 1;
}

/* L:violations() -> { {constraint=, amount=}, ... } */
static int layout_violations(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    size_t count = 0, i;
    moa_lcons *ids;
    double *amounts;
    moa_layout_violations(ll->m, NULL, NULL, 0, &count);
    ids = (moa_lcons *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *ids, 0);
    amounts = (double *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *amounts, 0);
    if (count && moa_layout_violations(ll->m, ids, amounts, count, &count) != MOA_OK) count = 0;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        lua_createtable(L, 0, 2);
        push_lcons(L, 1, ids[i]);
        lua_setfield(L, -2, "constraint");
        lua_pushnumber(L, amounts[i]);
        lua_setfield(L, -2, "amount");
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

/* L:ambiguities() -> { {view=, var="minX"|"minY"|"width"|"height"}, ... } */
static int layout_ambiguities(lua_State *L) {
    static const char *const var_names[] = {"minX", "minY", "width", "height"};
    LLayout *ll = check_layout(L, 1);
    size_t count = 0, i;
    moa_view *ids;
    int *vars;
    moa_layout_ambiguities(ll->m, NULL, NULL, 0, &count);
    ids = (moa_view *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *ids, 0);
    vars = (int *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *vars, 0);
    if (count && moa_layout_ambiguities(ll->m, ids, vars, count, &count) != MOA_OK) count = 0;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        lua_createtable(L, 0, 2);
        push_view(L, 1, ids[i]);
        lua_setfield(L, -2, "view");
        lua_pushstring(L, vars[i] >= 0 && vars[i] <= 3 ? var_names[vars[i]] : "?");
        lua_setfield(L, -2, "var");
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

/* Pushes one frame as {view=, name=, superview=name|nil, frame=, root_frame=, depth=, guide=}. */
static void push_frame(lua_State *L, LLayout *ll, int layout_idx, const moa_frame *f) {
    const char *name = NULL;
    lua_createtable(L, 0, 7);
    push_view(L, layout_idx, f->view);
    lua_setfield(L, -2, "view");
    if (moa_view_name(ll->m, f->view, &name) == MOA_OK && name) lua_pushstring(L, name);
    else lua_pushliteral(L, "?");
    lua_setfield(L, -2, "name");
    if (f->superview && moa_view_name(ll->m, f->superview, &name) == MOA_OK && name) {
        lua_pushstring(L, name);
        lua_setfield(L, -2, "superview");
    }
    push_rect(L, &f->frame);
    lua_setfield(L, -2, "frame");
    push_rect(L, &f->frame_in_root);
    lua_setfield(L, -2, "root_frame");
    lua_pushinteger(L, f->depth);
    lua_setfield(L, -2, "depth");
    lua_pushboolean(L, f->is_guide);
    lua_setfield(L, -2, "guide");
}

/* L:frames([include_guides]) -> { {view=, name=, superview=name|nil, frame=, root_frame=, depth=, guide=} }
** L:changed_frames() -> the same for the views whose frame changed at the last solve or frame */
static int frames_call(lua_State *L, int changed_only) {
    LLayout *ll = check_layout(L, 1);
    int guides = changed_only ? 0 : lua_toboolean(L, 2);
    size_t count = 0, i;
    moa_frame *fr;
    moa_status st = changed_only ? moa_layout_changed_frames(ll->m, NULL, 0, &count)
                                 : moa_layout_frames(ll->m, guides, NULL, 0, &count);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "frames");
    fr = (moa_frame *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *fr, 0);
    if (count) {
        st = changed_only ? moa_layout_changed_frames(ll->m, fr, count, &count)
                          : moa_layout_frames(ll->m, guides, fr, count, &count);
        if (st != MOA_OK) return lstatus_error(L, ll, st, "frames");
    }
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push_frame(L, ll, 1, &fr[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

static int layout_frames(lua_State *L) { return frames_call(L, 0); }
static int layout_changed_frames(lua_State *L) { return frames_call(L, 1); }

/* SVG flags from an options table {constraints=, guides=, labels=}. */
static int svg_flags(lua_State *L, int idx, int allow_constraints) {
    int flags = 0;
    if (lua_isnoneornil(L, idx)) return 0;
    luaL_checktype(L, idx, LUA_TTABLE);
    if (allow_constraints && opt_bool(L, idx, "constraints", 0)) flags |= MOA_SVG_CONSTRAINTS;
    if (opt_bool(L, idx, "guides", 0)) flags |= MOA_SVG_GUIDES;
    if (!opt_bool(L, idx, "labels", 1)) flags |= MOA_SVG_NO_LABELS;
    return flags;
}

/* L:svg([{constraints=, guides=, labels=}]) -> string */
static int layout_svg(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    int flags = svg_flags(L, 2, 1);
    const char *s = NULL;
    moa_status st = moa_layout_svg(ll->m, flags, &s);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "svg");
    lua_pushstring(L, s);
    return 1;
}

/* ---------------------------------------------------------------------------------------- clock */

/* L:advance(dt) / L:seek(t) -> { View whose frame changed, ... } (nothing if a callback closed the layout) */
static int clock_call(lua_State *L, int seek) {
    LLayout *ll = check_layout(L, 1);
    double x = check_finite(L, 2, seek ? "time" : "dt", NULL);
    moa_status st;
    if (seek) CALLBACK_CALL(ll, L, moa_layout_seek(ll->m, x));
    else CALLBACK_CALL(ll, L, moa_layout_advance(ll->m, x));
    if (!ll->m) {
        raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, seek ? "seek" : "advance");
    raise_pending(L, ll);
    push_changed(L, ll, 1);
    return 1;
}

static int layout_advance(lua_State *L) { return clock_call(L, 0); }
static int layout_seek(lua_State *L) { return clock_call(L, 1); }

static int layout_cancel_animations(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    moa_status st = moa_layout_cancel_animations(ll->m);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "cancel_animations");
    return 0;
}

/* Pushes an Animation object for id (or nil for 0). */
static void push_animation(lua_State *L, int layout_idx, moa_animation id) {
    if (!id) {
        lua_pushnil(L);
        return;
    }
    ((LId *)new_child(L, layout_idx, ANIM_MT, sizeof(LId)))->id = id;
}

/* L:animate_root_size(w, h [, opts]) -> Animation */
static int layout_animate_root_size(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    double w = check_finite(L, 2, "width", NULL), h = check_finite(L, 3, "height", NULL);
    AnimOpts o;
    LCallback *cb;
    moa_animation a = 0;
    moa_status st;
    check_anim_opts(L, ll, 4, 0.3, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? make_callback(L, ll, o.done_idx, "done") : NULL;
    st = moa_layout_animate_root_size(ll->m, w, h, o.duration, o.curve, o.delay, cb ? done_trampoline : NULL, cb,
                                      &a);
    if (st != MOA_OK) {
        drop_callback(L, cb);
        return lstatus_error(L, ll, st, "animate_root_size");
    }
    push_animation(L, 1, a);
    return 1;
}

/* L:show_keyboard(height [, duration [, opts]]) / L:hide_keyboard([duration [, opts]]) -> Animation */
static int keyboard_call(lua_State *L, int show) {
    LLayout *ll = check_layout(L, 1);
    int a0 = show ? 3 : 2;
    double h = show ? check_finite(L, 2, "height", NULL) : 0;
    double duration = lua_isnoneornil(L, a0) ? 0.25 : check_finite(L, a0, "duration", NULL);
    AnimOpts o;
    LCallback *cb;
    moa_animation a = 0;
    moa_status st;
    check_anim_opts(L, ll, a0 + 1, duration, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? make_callback(L, ll, o.done_idx, "done") : NULL;
    if (show)
        st = moa_layout_show_keyboard(ll->m, h, o.duration, o.curve, cb ? done_trampoline : NULL, cb, &a);
    else
        st = moa_layout_hide_keyboard(ll->m, o.duration, o.curve, cb ? done_trampoline : NULL, cb, &a);
    if (st != MOA_OK) {
        drop_callback(L, cb);
        return lstatus_error(L, ll, st, show ? "show_keyboard" : "hide_keyboard");
    }
    push_animation(L, 1, a);
    return 1;
}

static int layout_show_keyboard(lua_State *L) { return keyboard_call(L, 1); }
static int layout_hide_keyboard(lua_State *L) { return keyboard_call(L, 0); }

/* Traces */
static int layout_trace_start(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    int guides = lua_istable(L, 2) ? opt_bool(L, 2, "guides", 0) : lua_toboolean(L, 2);
    moa_status st = moa_layout_trace_start(ll->m, guides);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "trace_start");
    return 0;
}

static int layout_trace_stop(lua_State *L) {
    LLayout *ll = check_layout(L, 1);
    moa_status st = moa_layout_trace_stop(ll->m);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "trace_stop");
    return 0;
}

static int trace_text(lua_State *L, int kind) {
    LLayout *ll = check_layout(L, 1);
    const char *s = NULL;
    moa_status st;
    if (kind == 0) st = moa_layout_trace_csv(ll->m, &s);
    else if (kind == 1) st = moa_layout_trace_json(ll->m, &s);
    else {
        lua_Integer n = luaL_optinteger(L, 2, 0);
        int flags = svg_flags(L, 3, 0);
        if (n < 0) return luaL_argerror(L, 2, "frame count must be 0 or more");
        st = moa_layout_trace_svg_strip(ll->m, (size_t)n, flags, &s);
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, "trace");
    lua_pushstring(L, s);
    return 1;
}

static int layout_trace_csv(lua_State *L) { return trace_text(L, 0); }
static int layout_trace_json(lua_State *L) { return trace_text(L, 1); }
static int layout_trace_svg_strip(lua_State *L) { return trace_text(L, 2); }

/* L:collapsible(view, constraint, direction) -> Collapsible */
static int layout_collapsible(lua_State *L) {
    static const char *const dirs[] = {"left", "right", "up", "down", NULL};
    LLayout *ll = check_layout(L, 1), *vl, *cl;
    LId *v = check_child(L, 2, VIEW_MT, &vl);
    LId *c = check_child(L, 3, LCONS_MT, &cl);
    int dir = luaL_checkoption(L, 4, NULL, dirs);
    moa_collapsible out = 0;
    moa_status st;
    if (vl != ll) return luaL_argerror(L, 2, "view belongs to another layout");
    if (cl != ll) return luaL_argerror(L, 3, "constraint belongs to another layout");
    st = moa_collapsible_new(ll->m, v->id, c->id, (moa_collapse_direction)dir, &out);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "collapsible");
    ((LId *)new_child(L, 1, COLL_MT, sizeof(LId)))->id = out;
    return 1;
}

/* L:pan({constraints...}, axis, {rest positions}) -> Pan */
static int layout_pan(lua_State *L) {
    static const char *const axes[] = {"horizontal", "vertical", NULL};
    LLayout *ll = check_layout(L, 1);
    lua_Integer n, nrest, i;
    moa_lcons *cons;
    double *rest;
    int axis;
    moa_pan out = 0;
    moa_status st;
    LPan *p;
    luaL_checktype(L, 2, LUA_TTABLE);
    axis = luaL_checkoption(L, 3, "horizontal", axes);
    if (!lua_isnoneornil(L, 4)) luaL_checktype(L, 4, LUA_TTABLE);
    n = luaL_len(L, 2);
    if (n < 1) return luaL_argerror(L, 2, "at least one constraint expected");
    nrest = lua_isnoneornil(L, 4) ? 0 : luaL_len(L, 4);
    cons = (moa_lcons *)lua_newuserdatauv(L, (size_t)n * sizeof *cons, 0);
    rest = (double *)lua_newuserdatauv(L, (size_t)(nrest ? nrest : 1) * sizeof *rest, 0);
    for (i = 1; i <= n; i++) {
        LLayout *cl;
        LId *c;
        lua_geti(L, 2, i);
        c = (LId *)luaL_testudata(L, -1, LCONS_MT);
        if (!c) return luaL_argerror(L, 2, lua_pushfstring(L, "item %d is not a layout constraint", (int)i));
        cl = layout_of(L, lua_gettop(L));
        if (cl != ll) return luaL_argerror(L, 2, "constraint belongs to another layout");
        cons[i - 1] = c->id;
        lua_pop(L, 1);
    }
    for (i = 1; i <= nrest; i++) {
        lua_geti(L, 4, i);
        rest[i - 1] = check_finite(L, -1, "rest position", "rest position");
        lua_pop(L, 1);
    }
    st = moa_pan_new(ll->m, cons, (size_t)n, (moa_axis)axis, nrest ? rest : NULL, (size_t)nrest, &out);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "pan");
    p = (LPan *)new_child(L, 1, PAN_MT, sizeof(LPan));
    p->id = out;
    p->fast_velocity = 400;
    p->fast_step = 20;
    p->drag_limit = MOA_AUTO;
    p->snap_duration = 0.3;
    p->snap_curve = MOA_EASE_OUT;
    p->enabled = 1;
    return 1;
}

static int layout_index(lua_State *L) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, 1, LAYOUT_MT);
    const char *key = lua_tostring(L, 2);
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, -2) != LUA_TNIL) return 1;
    if (!key) return 0;
    if (strcmp(key, "closed") == 0) {
        lua_pushboolean(L, ll->m == NULL);
        return 1;
    }
    if (!ll->m) return layout_closed_error(L);
    if (strcmp(key, "root") == 0) {
        moa_view r = 0;
        moa_layout_root(ll->m, &r);
        push_view(L, 1, r);
        return 1;
    }
    if (strcmp(key, "time") == 0) {
        double t = 0;
        moa_layout_time(ll->m, &t);
        lua_pushnumber(L, t);
        return 1;
    }
    if (strcmp(key, "animating") == 0) {
        int a = 0;
        moa_layout_is_animating(ll->m, &a);
        lua_pushboolean(L, a);
        return 1;
    }
    if (strcmp(key, "width") == 0 || strcmp(key, "height") == 0) {
        double w = 0, h = 0;
        moa_layout_root_size(ll->m, &w, &h);
        lua_pushnumber(L, key[0] == 'w' ? w : h);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- moa.View */

static LId *check_view(lua_State *L, int idx, LLayout **llp) {
    return check_child(L, idx, VIEW_MT, llp);
}

static int view_index(lua_State *L) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    const char *key = luaL_checkstring(L, 2);
    moa_status st = MOA_OK;
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    if (strcmp(key, "frame") == 0 || strcmp(key, "root_frame") == 0) {
        moa_rect r;
        st = key[0] == 'f' ? moa_view_frame(ll->m, v->id, &r) : moa_view_frame_in_root(ll->m, v->id, &r);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        push_rect(L, &r);
        return 1;
    }
    if (strcmp(key, "name") == 0) {
        const char *name = NULL;
        st = moa_view_name(ll->m, v->id, &name);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        lua_pushstring(L, name);
        return 1;
    }
    if (strcmp(key, "superview") == 0) {
        moa_view s = 0;
        st = moa_view_superview(ll->m, v->id, &s);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        if (!s) return 0;
        lua_getiuservalue(L, 1, 1);
        push_view(L, -1, s);
        return 1;
    }
    if (strcmp(key, "layout") == 0) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    if (strcmp(key, "id") == 0) {
        lua_pushinteger(L, (lua_Integer)v->id);
        return 1;
    }
    return luaL_error(L, "moa.View has no field '%s'", key);
}

/* Ends a view setter: conflicts give nil, msg, details; other failures raise. */
static int view_result(lua_State *L, LLayout *ll, moa_status st, const char *what) {
    if (st == MOA_UNSATISFIABLE) {
        lua_getiuservalue(L, 1, 1);
        return push_lfailure(L, ll, lua_gettop(L), st);
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, what);
    lua_settop(L, 1);
    return 1;
}

/* v:set_margins(top, left, bottom, right) or v:set_margins(all) */
static int view_set_margins(lua_State *L) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    double t = check_finite(L, 2, "margin", NULL), l = t, b = t, r = t;
    if (!lua_isnoneornil(L, 3)) {
        l = check_finite(L, 3, "margin", NULL);
        b = check_finite(L, 4, "margin", NULL);
        r = check_finite(L, 5, "margin", NULL);
    }
    return view_result(L, ll, moa_view_set_margins(ll->m, v->id, t, l, b, r), "set_margins");
}

static int view_set_direction(lua_State *L) {
    static const char *const dirs[] = {"inherit", "ltr", "rtl", NULL};
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    int d = luaL_checkoption(L, 2, NULL, dirs);
    return view_result(L, ll, moa_view_set_direction(ll->m, v->id, (moa_layout_direction)d), "set_direction");
}

/* v:set_intrinsic_size(w, h): nil (or false) on an axis for none */
static int view_set_intrinsic_size(lua_State *L) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    double w = lua_toboolean(L, 2) ? check_finite(L, 2, "width", NULL) : MOA_NO_INTRINSIC;
    double h = lua_toboolean(L, 3) ? check_finite(L, 3, "height", NULL) : MOA_NO_INTRINSIC;
    return view_result(L, ll, moa_view_set_intrinsic_size(ll->m, v->id, w, h), "set_intrinsic_size");
}

/* v:set_content_priority(axis, hugging, compression) */
static int view_set_content_priority(lua_State *L) {
    static const char *const axes[] = {"horizontal", "vertical", NULL};
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    int axis = luaL_checkoption(L, 2, NULL, axes);
    double hug = check_priority(L, 3, 250, 0, NULL), comp = check_priority(L, 4, 750, 0, NULL);
    return view_result(L, ll, moa_view_set_content_priority(ll->m, v->id, (moa_axis)axis, hug, comp),
                       "set_content_priority");
}

/* v:set_baseline(offset [, first]): nil for none */
static int view_set_baseline(lua_State *L) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    double o = 0, f = 0;
    int has_o = !lua_isnoneornil(L, 2), has_f = !lua_isnoneornil(L, 3);
    if (has_o) o = check_finite(L, 2, "offset", NULL);
    if (has_f) f = check_finite(L, 3, "offset", NULL);
    return view_result(L, ll, moa_view_set_baseline(ll->m, v->id, has_o ? &o : NULL, has_f ? &f : NULL),
                       "set_baseline");
}

static int view_set_superview(lua_State *L) {
    LLayout *ll, *pl;
    LId *v = check_view(L, 1, &ll);
    moa_view parent = 0;
    if (!lua_isnoneornil(L, 2)) {
        LId *p = check_view(L, 2, &pl);
        if (pl != ll) return luaL_argerror(L, 2, "view belongs to another layout");
        parent = p->id;
    }
    return view_result(L, ll, moa_view_set_superview(ll->m, v->id, parent), "set_superview");
}

/* v:remove(): the view, its subviews and their constraints */
static int view_remove(lua_State *L) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    moa_status st = moa_view_free(ll->m, v->id);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "remove");
    return 0;
}

static int view_tostring(lua_State *L) {
    LId *v = (LId *)luaL_checkudata(L, 1, VIEW_MT);
    LLayout *ll;
    const char *name = NULL;
    moa_rect r;
    lua_getiuservalue(L, 1, 1);
    ll = (LLayout *)luaL_testudata(L, -1, LAYOUT_MT);
    if (!ll || !ll->m) {
        lua_pushliteral(L, "moa.View (closed layout)");
        return 1;
    }
    if (moa_view_name(ll->m, v->id, &name) != MOA_OK) {
        lua_pushliteral(L, "moa.View (removed)");
        return 1;
    }
    lua_pushstring(L, name); /* keep a copy: the next call may reuse the storage */
    name = lua_tostring(L, -1);
    if (moa_view_frame(ll->m, v->id, &r) != MOA_OK) r.x = r.y = r.width = r.height = 0;
    lua_pushfstring(L, "moa.View %s (%s, %s, %s, %s)", name, push_numstr(L, r.x), push_numstr(L, r.y),
                    push_numstr(L, r.width), push_numstr(L, r.height));
    return 1;
}

/* ---------------------------------------------------------------------------------------- moa.LayoutConstraint */

static LId *check_lcons(lua_State *L, int idx, LLayout **llp) {
    return check_child(L, idx, LCONS_MT, llp);
}

/* Ends a constraint setter: with assign, a conflict raises (an assignment cannot return a failure). */
static int lcons_result(lua_State *L, LLayout *ll, moa_status st, int assign, const char *what) {
    if (st == MOA_UNSATISFIABLE && !assign) {
        lua_getiuservalue(L, 1, 1);
        return push_lfailure(L, ll, lua_gettop(L), st);
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, what);
    lua_settop(L, 1);
    return 1;
}

static int lcons_set_constant_(lua_State *L, int assign) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    double k = check_finite(L, assign ? 3 : 2, "constant", assign ? "constant" : NULL);
    return lcons_result(L, ll, moa_lcons_set_constant(ll->m, c->id, k), assign, "constant");
}

static int lcons_set_priority_(lua_State *L, int assign) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    int idx = assign ? 3 : 2;
    double p;
    if (lua_isnoneornil(L, idx)) return type_error(L, idx, assign ? "priority" : NULL, "priority (number or name)");
    p = check_priority(L, idx, MOA_REQUIRED, 0, assign ? "priority" : NULL);
    return lcons_result(L, ll, moa_lcons_set_priority(ll->m, c->id, p), assign, "priority");
}

static int lcons_set_active_(lua_State *L, int assign) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    int idx = assign ? 3 : 2;
    if (lua_type(L, idx) != LUA_TBOOLEAN) return type_error(L, idx, assign ? "active" : NULL, "boolean");
    return lcons_result(L, ll, moa_lcons_set_active(ll->m, c->id, lua_toboolean(L, idx)), assign, "active");
}

static int lcons_set_constant(lua_State *L) { return lcons_set_constant_(L, 0); }
static int lcons_set_priority(lua_State *L) { return lcons_set_priority_(L, 0); }
static int lcons_set_active(lua_State *L) { return lcons_set_active_(L, 0); }

static int lcons_remove(lua_State *L) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    moa_status st = moa_lcons_remove(ll->m, c->id);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "remove");
    return 0;
}

/* c:animate(to [, opts]) / c:animate_priority(to [, opts]) -> Animation */
static int lcons_animate_(lua_State *L, int priority) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    double to = priority ? check_priority(L, 2, MOA_REQUIRED, 0, NULL) : check_finite(L, 2, "target", NULL);
    AnimOpts o;
    LCallback *cb;
    moa_animation a = 0;
    moa_status st;
    if (lua_isnoneornil(L, 2)) return type_error(L, 2, NULL, "number");
    check_anim_opts(L, ll, 3, 0.3, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? make_callback(L, ll, o.done_idx, "done") : NULL;
    if (priority)
        st = moa_lcons_animate_priority(ll->m, c->id, to, o.duration, o.curve, o.delay, cb ? done_trampoline : NULL,
                                        cb, &a);
    else
        st = moa_lcons_animate(ll->m, c->id, to, o.duration, o.curve, o.delay, cb ? done_trampoline : NULL, cb, &a);
    if (st != MOA_OK) {
        drop_callback(L, cb);
        return lstatus_error(L, ll, st, "animate");
    }
    lua_getiuservalue(L, 1, 1);
    push_animation(L, -1, a);
    return 1;
}

static int lcons_animate(lua_State *L) { return lcons_animate_(L, 0); }
static int lcons_animate_priority(lua_State *L) { return lcons_animate_(L, 1); }

static int lcons_stop_animating(lua_State *L) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    moa_status st = moa_lcons_stop_animating(ll->m, c->id);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "stop_animating");
    lua_settop(L, 1);
    return 1;
}

static int lcons_describe(lua_State *L) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    const char *s = NULL;
    moa_status st = moa_lcons_describe(ll->m, c->id, &s);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "describe");
    lua_pushstring(L, s);
    return 1;
}

static int lcons_index(lua_State *L) {
    LLayout *ll;
    LId *c;
    const char *key;
    moa_status st = MOA_OK;
    luaL_checkudata(L, 1, LCONS_MT);
    key = luaL_checkstring(L, 2);
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    c = check_lcons(L, 1, &ll);
    if (strcmp(key, "constant") == 0 || strcmp(key, "priority") == 0) {
        double x = 0;
        st = key[0] == 'c' ? moa_lcons_constant(ll->m, c->id, &x) : moa_lcons_priority(ll->m, c->id, &x);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        if (key[0] == 'p' && x == floor(x)) lua_pushinteger(L, (lua_Integer)x);
        else lua_pushnumber(L, x);
        return 1;
    }
    if (strcmp(key, "active") == 0) {
        int a = 0;
        st = moa_lcons_active(ll->m, c->id, &a);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        lua_pushboolean(L, a);
        return 1;
    }
    if (strcmp(key, "line") == 0) {
        int line = 0;
        st = moa_lcons_line(ll->m, c->id, &line);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        lua_pushinteger(L, line);
        return 1;
    }
    if (strcmp(key, "removed") == 0) {
        int a = 0;
        lua_pushboolean(L, moa_lcons_active(ll->m, c->id, &a) == MOA_NOTFOUND);
        return 1;
    }
    if (strcmp(key, "id") == 0) {
        lua_pushinteger(L, (lua_Integer)c->id);
        return 1;
    }
    if (strcmp(key, "layout") == 0) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    return luaL_error(L, "moa.LayoutConstraint has no field '%s'", key);
}

static int lcons_newindex(lua_State *L) {
    const char *key = luaL_checkstring(L, 2);
    if (strcmp(key, "constant") == 0) return lcons_set_constant_(L, 1), 0;
    if (strcmp(key, "priority") == 0) return lcons_set_priority_(L, 1), 0;
    if (strcmp(key, "active") == 0) return lcons_set_active_(L, 1), 0;
    return luaL_error(L, "cannot set field '%s' of a moa.LayoutConstraint (constant, priority, active)", key);
}

static int lcons_tostring(lua_State *L) {
    LId *c = (LId *)luaL_checkudata(L, 1, LCONS_MT);
    LLayout *ll;
    const char *s = NULL;
    lua_getiuservalue(L, 1, 1);
    ll = (LLayout *)luaL_testudata(L, -1, LAYOUT_MT);
    if (!ll || !ll->m) lua_pushliteral(L, "moa.LayoutConstraint (closed layout)");
    else if (moa_lcons_describe(ll->m, c->id, &s) != MOA_OK || !s) lua_pushliteral(L, "moa.LayoutConstraint (removed)");
    else lua_pushstring(L, s);
    return 1;
}

/* ---------------------------------------------------------------------------------------- moa.Animation */

static int anim_cancel(lua_State *L) {
    LLayout *ll;
    LId *a = check_child(L, 1, ANIM_MT, &ll);
    moa_status st = moa_animation_cancel(ll->m, a->id);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "cancel");
    return 0;
}

static int anim_tostring(lua_State *L) {
    LId *a = (LId *)luaL_checkudata(L, 1, ANIM_MT);
    lua_pushfstring(L, "moa.Animation %d", (int)(a->id & 0xffffffffu));
    return 1;
}

/* ---------------------------------------------------------------------------------------- moa.Collapsible */

/* col:collapse(opts) / col:show(opts) / col:toggle(opts): opts {animated=true, duration=0.3, curve=easeInOut,
   done=fn} -> Animation or nil (not animated); nil, msg, details on a conflict (not animated). */
static int coll_call(lua_State *L, int what) {
    LLayout *ll;
    LId *col = check_child(L, 1, COLL_MT, &ll);
    AnimOpts o;
    LCallback *cb;
    int animated;
    moa_animation a = 0;
    moa_status st;
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
    animated = opt_bool(L, 2, "animated", 1);
    check_anim_opts(L, ll, 2, 0.3, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? make_callback(L, ll, o.done_idx, "done") : NULL;
    if (what == 2)
        st = moa_collapsible_toggle(ll->m, col->id, animated, o.duration, o.curve, cb ? done_trampoline : NULL, cb,
                                    &a);
    else
        st = moa_collapsible_set(ll->m, col->id, what == 0, animated, o.duration, o.curve,
                                 cb ? done_trampoline : NULL, cb, &a);
    if (st != MOA_OK) {
        drop_callback(L, cb);
        if (st == MOA_UNSATISFIABLE) {
            lua_getiuservalue(L, 1, 1);
            return push_lfailure(L, ll, lua_gettop(L), st);
        }
        return lstatus_error(L, ll, st, "collapsible");
    }
    lua_getiuservalue(L, 1, 1);
    push_animation(L, -1, a);
    return 1;
}

static int coll_collapse(lua_State *L) { return coll_call(L, 0); }
static int coll_show(lua_State *L) { return coll_call(L, 1); }
static int coll_toggle(lua_State *L) { return coll_call(L, 2); }

static int coll_free(lua_State *L) {
    LLayout *ll;
    LId *col = check_child(L, 1, COLL_MT, &ll);
    moa_status st = moa_collapsible_free(ll->m, col->id);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "free");
    return 0;
}

static int coll_index(lua_State *L) {
    LLayout *ll;
    LId *col;
    const char *key = luaL_checkstring(L, 2);
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    col = check_child(L, 1, COLL_MT, &ll);
    if (strcmp(key, "collapsed") == 0) {
        int c = 0;
        moa_status st = moa_collapsible_is_collapsed(ll->m, col->id, &c);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        lua_pushboolean(L, c);
        return 1;
    }
    return luaL_error(L, "moa.Collapsible has no field '%s'", key);
}

/* ---------------------------------------------------------------------------------------- moa.Pan */

static LPan *check_pan(lua_State *L, int idx, LLayout **llp) {
    LPan *p = (LPan *)luaL_checkudata(L, idx, PAN_MT);
    *llp = layout_of(L, idx);
    return p;
}

/* p:began() -> accepted */
static int pan_began(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    int acc = 0;
    moa_status st = moa_pan_began(ll->m, p->id, &acc);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "began");
    lua_pushboolean(L, acc);
    return 1;
}

/* p:changed(translation, velocity) -> accepted; nil, msg, details on a conflict */
static int pan_changed(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    double tr = check_finite(L, 2, "translation", NULL), vel = lua_isnoneornil(L, 3) ? 0 : check_finite(L, 3, "velocity", NULL);
    int acc = 0;
    moa_status st = moa_pan_changed(ll->m, p->id, tr, vel, &acc);
    if (st == MOA_UNSATISFIABLE) {
        lua_getiuservalue(L, 1, 1);
        return push_lfailure(L, ll, lua_gettop(L), st);
    }
    if (st != MOA_OK) return lstatus_error(L, ll, st, "changed");
    lua_pushboolean(L, acc);
    return 1;
}

/* p:ended(velocity [, fn(rest, finished)]) / p:cancelled([fn]) -> rest position, or false when ignored */
static int pan_end_(lua_State *L, int cancelled) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    double vel = cancelled ? 0 : (lua_isnoneornil(L, 2) ? 0 : check_finite(L, 2, "velocity", NULL));
    LCallback *cb = make_callback(L, ll, cancelled ? 2 : 3, NULL);
    double target = 0;
    int acc = 0;
    moa_status st;
    if (cancelled)
        st = moa_pan_cancelled(ll->m, p->id, cb ? rest_trampoline : NULL, cb, &target, &acc);
    else
        st = moa_pan_ended(ll->m, p->id, vel, cb ? rest_trampoline : NULL, cb, &target, &acc);
    if (st != MOA_OK || !acc) drop_callback(L, cb); /* ignored: never called */
    if (st != MOA_OK) return lstatus_error(L, ll, st, cancelled ? "cancelled" : "ended");
    if (!acc) lua_pushboolean(L, 0);
    else lua_pushnumber(L, target);
    return 1;
}

static int pan_ended(lua_State *L) { return pan_end_(L, 0); }
static int pan_cancelled(lua_State *L) { return pan_end_(L, 1); }

/* p:move(offset [, animated [, fn]]) */
static int pan_move(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    double off = check_finite(L, 2, "offset", NULL);
    int animated = lua_toboolean(L, 3);
    LCallback *cb = make_callback(L, ll, 4, NULL);
    moa_status st = moa_pan_move(ll->m, p->id, off, animated, cb ? rest_trampoline : NULL, cb);
    if (st != MOA_OK) {
        drop_callback(L, cb);
        if (st == MOA_UNSATISFIABLE) {
            lua_getiuservalue(L, 1, 1);
            return push_lfailure(L, ll, lua_gettop(L), st);
        }
        return lstatus_error(L, ll, st, "move");
    }
    lua_settop(L, 1);
    return 1;
}

/* p:set_options{fast_velocity=, fast_step=, drag_limit= (number or "auto"), snap_duration=, snap_curve=} */
static int pan_set_options(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    double fv, fs, dl, sd;
    moa_curve sc;
    moa_status st;
    luaL_checktype(L, 2, LUA_TTABLE);
    fv = opt_number(L, 2, "fast_velocity", p->fast_velocity);
    fs = opt_number(L, 2, "fast_step", p->fast_step);
    lua_getfield(L, 2, "drag_limit");
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "auto") == 0) dl = MOA_AUTO;
    else if (lua_isnil(L, -1)) dl = p->drag_limit;
    else dl = check_finite(L, -1, "drag_limit", "drag_limit");
    lua_pop(L, 1);
    sd = opt_number(L, 2, "snap_duration", p->snap_duration);
    lua_getfield(L, 2, "snap_curve");
    sc = check_curve(L, ll, -1, p->snap_curve, "snap_curve");
    lua_pop(L, 1);
    st = moa_pan_set_options(ll->m, p->id, fv, fs, dl, sd, sc);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "set_options");
    p->fast_velocity = fv;
    p->fast_step = fs;
    p->drag_limit = dl;
    p->snap_duration = sd;
    p->snap_curve = sc;
    lua_settop(L, 1);
    return 1;
}

static int pan_set_rest_positions(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    lua_Integer n, i;
    double *rest;
    moa_status st;
    luaL_checktype(L, 2, LUA_TTABLE);
    n = luaL_len(L, 2);
    if (n < 1) return luaL_argerror(L, 2, "at least one rest position expected");
    rest = (double *)lua_newuserdatauv(L, (size_t)n * sizeof *rest, 0);
    for (i = 1; i <= n; i++) {
        lua_geti(L, 2, i);
        rest[i - 1] = check_finite(L, -1, "rest position", "rest position");
        lua_pop(L, 1);
    }
    st = moa_pan_set_rest_positions(ll->m, p->id, rest, (size_t)n);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "set_rest_positions");
    lua_settop(L, 1);
    return 1;
}

static int pan_set_enabled_(lua_State *L, int assign) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    int idx = assign ? 3 : 2;
    moa_status st;
    if (lua_type(L, idx) != LUA_TBOOLEAN) return type_error(L, idx, assign ? "enabled" : NULL, "boolean");
    st = moa_pan_set_enabled(ll->m, p->id, lua_toboolean(L, idx));
    if (st != MOA_OK) return lstatus_error(L, ll, st, "enabled");
    p->enabled = lua_toboolean(L, idx);
    lua_settop(L, 1);
    return 1;
}

static int pan_set_enabled(lua_State *L) { return pan_set_enabled_(L, 0); }

static int pan_free(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    moa_status st = moa_pan_free(ll->m, p->id);
    if (st != MOA_OK) return lstatus_error(L, ll, st, "free");
    return 0;
}

static int pan_index(lua_State *L) {
    LLayout *ll;
    LPan *p;
    const char *key = luaL_checkstring(L, 2);
    moa_status st;
    double x = 0;
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    p = check_pan(L, 1, &ll);
    if (strcmp(key, "enabled") == 0) {
        lua_pushboolean(L, p->enabled);
        return 1;
    }
    if (strcmp(key, "offset") == 0 || strcmp(key, "rest_position") == 0) {
        st = key[0] == 'o' ? moa_pan_offset(ll->m, p->id, &x) : moa_pan_rest_position(ll->m, p->id, &x);
        if (st != MOA_OK) return lstatus_error(L, ll, st, key);
        lua_pushnumber(L, x);
        return 1;
    }
    return luaL_error(L, "moa.Pan has no field '%s'", key);
}

static int pan_newindex(lua_State *L) {
    const char *key = luaL_checkstring(L, 2);
    if (strcmp(key, "enabled") == 0) return pan_set_enabled_(L, 1), 0;
    return luaL_error(L, "cannot set field '%s' of a moa.Pan (enabled)", key);
}

/* ---------------------------------------------------------------------------------------- tables */

static const luaL_Reg layout_meta[] = {
    {"__index", layout_index},
    {"__gc", layout_gc},
    {"__close", layout_close},
    {"__tostring", layout_tostring},
    {NULL, NULL},
};

static const luaL_Reg layout_methods[] = {
    {"close", layout_close},
    {"view", layout_view},
    {"find", layout_find},
    {"guide", layout_guide},
    {"set_root_size", layout_set_root_size},
    {"root_size", layout_root_size},
    {"set_safe_area", layout_set_safe_area},
    {"set_keyboard_height", layout_set_keyboard_height},
    {"eq", layout_eq},
    {"eqs", layout_eqs},
    {"xeq", layout_xeq},
    {"on_debug", layout_on_debug},
    {"solve", layout_solve},
    {"views", layout_views},
    {"constraints", layout_constraints},
    {"describe", layout_describe},
    {"violations", layout_violations},
    {"ambiguities", layout_ambiguities},
    {"frames", layout_frames},
    {"changed_frames", layout_changed_frames},
    {"svg", layout_svg},
    {"advance", layout_advance},
    {"seek", layout_seek},
    {"cancel_animations", layout_cancel_animations},
    {"animate_root_size", layout_animate_root_size},
    {"show_keyboard", layout_show_keyboard},
    {"hide_keyboard", layout_hide_keyboard},
    {"collapsible", layout_collapsible},
    {"pan", layout_pan},
    {"trace_start", layout_trace_start},
    {"trace_stop", layout_trace_stop},
    {"trace_csv", layout_trace_csv},
    {"trace_json", layout_trace_json},
    {"trace_svg_strip", layout_trace_svg_strip},
    {NULL, NULL},
};

static const luaL_Reg view_meta[] = {
    {"__index", view_index},
    {"__tostring", view_tostring},
    {NULL, NULL},
};

static const luaL_Reg view_methods[] = {
    {"set_margins", view_set_margins},
    {"set_direction", view_set_direction},
    {"set_intrinsic_size", view_set_intrinsic_size},
    {"set_content_priority", view_set_content_priority},
    {"set_baseline", view_set_baseline},
    {"set_superview", view_set_superview},
    {"remove", view_remove},
    {NULL, NULL},
};

static const luaL_Reg lcons_meta[] = {
    {"__index", lcons_index},
    {"__newindex", lcons_newindex},
    {"__tostring", lcons_tostring},
    {NULL, NULL},
};

static const luaL_Reg lcons_methods[] = {
    {"set_constant", lcons_set_constant},
    {"set_priority", lcons_set_priority},
    {"set_active", lcons_set_active},
    {"remove", lcons_remove},
    {"animate", lcons_animate},
    {"animate_priority", lcons_animate_priority},
    {"stop_animating", lcons_stop_animating},
    {"describe", lcons_describe},
    {NULL, NULL},
};

static const luaL_Reg anim_meta[] = {
    {"__tostring", anim_tostring},
    {NULL, NULL},
};

static const luaL_Reg anim_methods[] = {
    {"cancel", anim_cancel},
    {NULL, NULL},
};

static const luaL_Reg coll_meta[] = {
    {"__index", coll_index},
    {NULL, NULL},
};

static const luaL_Reg coll_methods[] = {
    {"collapse", coll_collapse},
    {"show", coll_show},
    {"toggle", coll_toggle},
    {"free", coll_free},
    {NULL, NULL},
};

static const luaL_Reg pan_meta[] = {
    {"__index", pan_index},
    {"__newindex", pan_newindex},
    {NULL, NULL},
};

static const luaL_Reg pan_methods[] = {
    {"began", pan_began},
    {"changed", pan_changed},
    {"ended", pan_ended},
    {"cancelled", pan_cancelled},
    {"move", pan_move},
    {"set_options", pan_set_options},
    {"set_rest_positions", pan_set_rest_positions},
    {"set_enabled", pan_set_enabled},
    {"free", pan_free},
    {NULL, NULL},
};

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
    {"layout", l_layout},
    {NULL, NULL},
};

int luaopen_moa(lua_State *L) {
    int i;
    create_meta(L, SOLVER_MT, solver_meta, solver_methods);
    create_meta(L, VAR_MT, var_meta, var_methods);
    create_meta(L, EXPR_MT, expr_meta, expr_methods);
    create_meta(L, REL_MT, rel_meta, rel_methods);
    create_meta(L, CONS_MT, cons_meta, cons_methods);
    create_meta(L, LAYOUT_MT, layout_meta, layout_methods);
    create_meta(L, VIEW_MT, view_meta, view_methods);
    create_meta(L, LCONS_MT, lcons_meta, lcons_methods);
    create_meta(L, ANIM_MT, anim_meta, anim_methods);
    create_meta(L, COLL_MT, coll_meta, coll_methods);
    create_meta(L, PAN_MT, pan_meta, pan_methods);

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
