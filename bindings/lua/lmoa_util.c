/*
** lmoa_util.c -- the helpers both halves of the Lua module "moa" share: priority and status names (looked up in
** the library's tables, never copied), numbers as text, argument checks and their errors, option tables, the
** closed-object, status and failure helpers, limit names and usage tables, and the creation of metatables.
** Registers moa.priority and moa.strength (built from moa_priority_name). Reference: bindings/lua/README.md.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lmoa.h"

/* ======================================================================================================== */
/* Names: priorities, status codes                                                                          */
/* ======================================================================================================== */

/* The binding keeps no name tables of its own: priority names come from moa_priority_value() and
   moa_priority_name(), status names from moa_status_name(), curve names (lmoa_motion.c) from moa_curve_name(). */

/* Pushes a number as an integer when it is one (priorities are whole numbers), else as a float. */
static void push_whole(lua_State *L, double x) {
    if (x == floor(x) && x >= -9007199254740992.0 && x <= 9007199254740992.0) lua_pushinteger(L, (lua_Integer)x);
    else lua_pushnumber(L, x);
}

/* Pushes the library's priority names as "required, max, strong, ..." and returns the string. */
static const char *push_priority_names(lua_State *L) {
    luaL_Buffer b;
    const char *name;
    int i;
    luaL_buffinit(L, &b);
    for (i = 0; (name = moa_priority_name(i, NULL)) != NULL; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, name);
    }
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

/* ======================================================================================================== */
/* Numbers and argument checks                                                                              */
/* ======================================================================================================== */

/* Pushes a number as text: "nan", "inf", "-inf" or %.14g. Returns the string. */
const char *lmoa_push_numstr(lua_State *L, double x) {
    char num[64];
    if (isnan(x)) return lua_pushliteral(L, "nan");
    if (isinf(x)) return lua_pushstring(L, x > 0 ? "inf" : "-inf");
    snprintf(num, sizeof num, "%.14g", x);
    return lua_pushstring(L, num);
}

/* Raises for a bad value at idx: "bad argument #n to 'f' (msg)" for an argument, or "bad value for 'field'
   (msg)" for an assigned field or an option (field != NULL). */
int lmoa_value_error(lua_State *L, int idx, const char *field, const char *msg) {
    if (field) return luaL_error(L, "bad value for '%s' (%s)", field, msg);
    return luaL_argerror(L, idx, msg);
}

int lmoa_type_error(lua_State *L, int idx, const char *field, const char *expected) {
    return lmoa_value_error(L, idx, field, lua_pushfstring(L, "%s expected, got %s", expected, luaL_typename(L, idx)));
}

/* A string for the library (luaL_checklstring), without NUL bytes: the library reads C strings, and a NUL
   would silently cut the text there. Sets *len when len is given. */
const char *lmoa_check_text(lua_State *L, int idx, const char *what, size_t *len) {
    size_t n;
    const char *s = luaL_checklstring(L, idx, &n);
    if (strlen(s) != n) luaL_argerror(L, idx, lua_pushfstring(L, "%s contains a NUL byte", what));
    if (len) *len = n;
    return s;
}

/* lmoa_check_text, or NULL for none or nil. */
const char *lmoa_opt_text(lua_State *L, int idx, const char *what) {
    return lua_isnoneornil(L, idx) ? NULL : lmoa_check_text(L, idx, what, NULL);
}

/* A finite number (numeric strings are accepted, as by luaL_checknumber). */
double lmoa_check_finite(lua_State *L, int idx, const char *what, const char *field) {
    int isnum = 0;
    double x = lua_tonumberx(L, idx, &isnum);
    if (!isnum) return lmoa_type_error(L, idx, field, "number"), 0;
    if (!isfinite(x))
        return lmoa_value_error(L, idx, field,
                                lua_pushfstring(L, "%s must be finite, got %s", what, lmoa_push_numstr(L, x))), 0;
    return x;
}

/* A priority: a number in (0, 1000] or a name; dflt when nil or absent. If edit, 1000 is refused too. */
double lmoa_check_priority(lua_State *L, int idx, double dflt, int edit, const char *field) {
    double p;
    int t = lua_type(L, idx);
    if (t == LUA_TNONE || t == LUA_TNIL) return dflt;
    if (t == LUA_TSTRING) {
        const char *name = lua_tostring(L, idx);
        moa_status st = moa_priority_value(name, &p);
        if (st == MOA_NOTFOUND) {
            const char *names = push_priority_names(L);
            return lmoa_value_error(L, idx, field,
                                    lua_pushfstring(L, "unknown priority name '%s' (expected one of %s, or a number in "
                                                       "(0, 1000])", name, names)), 0;
        }
        if (st != MOA_OK) return lmoa_status_error(L, NULL, st, "priority"), 0;
    } else if (t == LUA_TNUMBER) {
        p = lua_tonumber(L, idx);
        if (!(p > 0 && p <= 1000))
            return lmoa_value_error(L, idx, field, lua_pushfstring(L, "priority must be in (0, 1000], got %s",
                                                                   lmoa_push_numstr(L, p))), 0;
    } else {
        return lmoa_type_error(L, idx, field, "priority (number or name)"), 0;
    }
    if (edit && p >= 1000)
        return lmoa_value_error(L, idx, field, "an edit variable cannot be required (use a priority below 1000)"), 0;
    return p;
}

/* A weight in [1e-6, 1e6] (moa.h); 1 when nil or absent. */
double lmoa_check_weight(lua_State *L, int idx, const char *field) {
    double w;
    if (lua_isnoneornil(L, idx)) return 1;
    if (lua_type(L, idx) != LUA_TNUMBER) return lmoa_type_error(L, idx, field, "number"), 0;
    w = lua_tonumber(L, idx);
    if (!(w >= 1e-6 && w <= 1e6))
        return lmoa_value_error(L, idx, field,
                                lua_pushfstring(L, "weight must be in [1e-6, 1e6], got %s", lmoa_push_numstr(L, w))), 0;
    return w;
}

/* ======================================================================================================== */
/* Option tables                                                                                            */
/* ======================================================================================================== */

/* Field `name` of the table at idx as a number (dflt when absent). */
double lmoa_opt_number(lua_State *L, int idx, const char *name, double dflt) {
    double x = dflt;
    if (lua_isnoneornil(L, idx)) return dflt;
    if (lua_getfield(L, idx, name) != LUA_TNIL) x = lmoa_check_finite(L, -1, name, name);
    lua_pop(L, 1);
    return x;
}

int lmoa_opt_bool(lua_State *L, int idx, const char *name, int dflt) {
    int b = dflt;
    if (lua_isnoneornil(L, idx)) return dflt;
    if (lua_getfield(L, idx, name) != LUA_TNIL) {
        if (!lua_isboolean(L, -1)) lmoa_type_error(L, lua_gettop(L), name, "boolean");
        b = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    return b;
}

/* ======================================================================================================== */
/* Errors and failures                                                                                      */
/* ======================================================================================================== */

/* Raises "attempt to use a closed <what>" (what: "solver" or "layout"). */
int lmoa_closed_error(lua_State *L, const char *what) {
    return luaL_error(L, "attempt to use a closed %s", what);
}

/* Raises "what: message" for a failed moa_* call, message being the library's message for it (msg: from
   moa_solver_errmsg or moa_layout_errmsg), or moa_errstr(st) when msg is NULL (the object is closed). Call only
   after the moa_* call has returned. */
int lmoa_status_error(lua_State *L, const char *msg, moa_status st, const char *what) {
    return luaL_error(L, "%s: %s", what, msg ? msg : moa_errstr(st));
}

/* After an expected failure with status st: pushes nil, msg and details = {code = name of st, status = st} (room
   for nrec fields), and returns the stack index of details, where the caller adds what its object reports (the
   conflicts, a parse error's position) before it returns the 3 values. */
int lmoa_push_failure(lua_State *L, const char *msg, moa_status st, int nrec) {
    int details;
    lua_pushnil(L);
    lua_pushstring(L, msg);
    lua_createtable(L, 0, nrec);
    details = lua_gettop(L);
    lua_pushstring(L, moa_status_name(st));
    lua_setfield(L, details, "code");
    lua_pushinteger(L, st);
    lua_setfield(L, details, "status");
    return details;
}

/* Whether a failed call that reports its expected failures (nil, message, details) reports this status so: a
   conflict (UNSATISFIABLE) or a limit reached (LIMIT: rows, cells, pivots, time, or a progress function that
   stopped the call). Other statuses are misuse, raised. */
int lmoa_is_failure(moa_status st) {
    return st == MOA_UNSATISFIABLE || st == MOA_LIMIT;
}

/* ======================================================================================================== */
/* Limits and usage                                                                                         */
/* ======================================================================================================== */

/* The moa_limit named at idx: "rows", "cells", "seconds" or "pivots" (the same names for solvers and layouts).
   Raises for anything else. */
moa_limit lmoa_check_limit(lua_State *L, int idx) {
    const char *name = luaL_checkstring(L, idx);
    if (strcmp(name, "rows") == 0) return MOA_LIMIT_ROWS;
    if (strcmp(name, "cells") == 0) return MOA_LIMIT_CELLS;
    if (strcmp(name, "seconds") == 0) return MOA_LIMIT_SECONDS;
    if (strcmp(name, "pivots") == 0) return MOA_LIMIT_PIVOTS;
    return luaL_argerror(L, idx, lua_pushfstring(L, "unknown limit '%s' (expected 'rows', 'cells', 'seconds' or "
                                                    "'pivots')", name));
}

/* Pushes the value of limit `which`: the counts (rows, cells, pivots) as integers, seconds as a number. */
void lmoa_push_limit(lua_State *L, moa_limit which, double value) {
    if (which == MOA_LIMIT_SECONDS) lua_pushnumber(L, value);
    else lua_pushinteger(L, (lua_Integer)value);
}

/* Pushes a moa_usage as {rows=, cells=, variables=, constraints=, views=} (integers). */
void lmoa_push_usage(lua_State *L, const moa_usage *u) {
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, (lua_Integer)u->rows);
    lua_setfield(L, -2, "rows");
    lua_pushinteger(L, (lua_Integer)u->cells);
    lua_setfield(L, -2, "cells");
    lua_pushinteger(L, (lua_Integer)u->variables);
    lua_setfield(L, -2, "variables");
    lua_pushinteger(L, (lua_Integer)u->constraints);
    lua_setfield(L, -2, "constraints");
    lua_pushinteger(L, (lua_Integer)u->views);
    lua_setfield(L, -2, "views");
}

/* ======================================================================================================== */
/* Metatables and weak maps                                                                                 */
/* ======================================================================================================== */

/* Pushes a new table with weak values: a map id -> object, which keeps one Lua object per id while it lives. */
void lmoa_new_weak_map(lua_State *L) {
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
}

/* Creates metatable `name` with the metamethods `meta` and a `methods` table (reached by __index: either a
   function given in meta, or the methods table itself). methods may be NULL: an empty table, for
   lmoa_extend_meta to fill. */
void lmoa_create_meta(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods) {
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, meta, 0);
    lua_createtable(L, 0, 8);
    if (methods) luaL_setfuncs(L, methods, 0);
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

/* Adds metamethods `meta` (or none: NULL) and methods `methods` (or none: NULL) to metatable `name`, made by
   lmoa_create_meta (possibly in another file: the motion methods of moa.Layout, the operators of moa.Variable). */
void lmoa_extend_meta(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods) {
    luaL_getmetatable(L, name);
    if (meta) luaL_setfuncs(L, meta, 0);
    if (methods) {
        lua_getfield(L, -1, "methods");
        luaL_setfuncs(L, methods, 0);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ======================================================================================================== */
/* Registration                                                                                             */
/* ======================================================================================================== */

/* moa.priority and moa.strength (the same table): the library's priority names (moa_priority_name), into the
   module table on top. */
void lmoa_open_util(lua_State *L) {
    const char *name;
    double value;
    int i;
    lua_newtable(L);
    for (i = 0; (name = moa_priority_name(i, &value)) != NULL; i++) {
        push_whole(L, value);
        lua_setfield(L, -2, name);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "priority");
    lua_setfield(L, -2, "strength");
}

/* ======================================================================================================== */
/* Progress functions (L:on_progress, s:on_progress)                                                         */
/* ======================================================================================================== */

/* Calls the progress function held at registry ref `fn_ref` with n, under lua_pcall on L (from a library
   callback: nothing may be raised). Returns nonzero to stop the call in progress: the function returned false,
   or raised (the first error is kept at *errref for the binding to raise once the call has returned), or L has
   no room. */
int lmoa_run_progress(lua_State *L, int fn_ref, uint64_t n, int *errref) {
    int stop;
    if (!L || !lua_checkstack(L, 4)) return 1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, fn_ref);
    lua_pushinteger(L, (lua_Integer)n);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        if (*errref == LUA_NOREF) *errref = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_pop(L, 1);
        return 1;
    }
    stop = lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1);
    lua_pop(L, 1);
    return stop;
}

/* The arguments of on_progress(fn or nil [, interval]) at 2 and 3: the interval into *interval (default dflt,
   at least 1), and fn in the registry (LUA_NOREF for nil). Raises on a bad argument, before anything changes. */
int lmoa_check_progress_args(lua_State *L, lua_Integer dflt, const char *interval_name, lua_Integer *interval) {
    *interval = dflt;
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    if (!lua_isnoneornil(L, 3)) {
        *interval = luaL_checkinteger(L, 3);
        if (*interval < 1) return luaL_argerror(L, 3, lua_pushfstring(L, "%s must be 1 or more", interval_name));
    }
    if (lua_isnoneornil(L, 2)) return LUA_NOREF;
    lua_pushvalue(L, 2);
    return luaL_ref(L, LUA_REGISTRYINDEX); /* before the library call: it may raise a memory error */
}
