/*
** lmoa_layout.c -- moa.Layout: a layout (moa_layout_*) and its views, equations (eq, eqs, xeq), solving, queries,
** frames (per view, and in bulk: frame_values, view_by_id), SVG, limits and usage, the progress function
** (on_progress); the helpers its children share (lmoa_view.c, lmoa_motion.c, lmoa_content.c): layout and child
** checks, the layout's errors and failures, the View and LayoutConstraint objects of ids. Registers moa.layout
** and moa.frame_stride.
** Reference: bindings/lua/README.md.
*/
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lmoa.h"

/* ======================================================================================================== */
/* Helpers: the layout and its children                                                                     */
/* ======================================================================================================== */

LLayout *lmoa_check_layout(lua_State *L, int idx) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, idx, LAYOUT_MT);
    if (!ll->m) lmoa_closed_error(L, "layout");
    return ll;
}

/* The open layout of a child userdata at idx (user value 1). */
LLayout *lmoa_layout_of(lua_State *L, int idx) {
    LLayout *ll;
    lua_getiuservalue(L, idx, 1);
    ll = (LLayout *)luaL_testudata(L, -1, LAYOUT_MT);
    lua_pop(L, 1);
    if (!ll || !ll->m) lmoa_closed_error(L, "layout");
    return ll;
}

LId *lmoa_check_child(lua_State *L, int idx, const char *mt, LLayout **llp) {
    LId *x = (LId *)luaL_checkudata(L, idx, mt);
    *llp = lmoa_layout_of(L, idx);
    return x;
}

/* Raises the error a callback left, if any. Call after the moa_* call returned. */
void lmoa_raise_pending(lua_State *L, LLayout *ll) {
    if (ll->errref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ll->errref);
        luaL_unref(L, LUA_REGISTRYINDEX, ll->errref);
        ll->errref = LUA_NOREF;
        lua_error(L);
    }
}

/* Raises with the layout's message for a failed call (lmoa_status_error), or the error a callback left (call
   right after the failed call). */
int lmoa_layout_error(lua_State *L, LLayout *ll, moa_status st, const char *what) {
    const char *msg = ll->m ? moa_layout_errmsg(ll->m) : NULL;
    lmoa_raise_pending(L, ll);
    return lmoa_status_error(L, msg, st, what);
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

void lmoa_push_view(lua_State *L, int layout_idx, moa_view id) { push_child(L, layout_idx, 1, VIEW_MT, id); }
void lmoa_push_lcons(lua_State *L, int layout_idx, moa_lcons id) { push_child(L, layout_idx, 2, LCONS_MT, id); }

/* A new child object (not mapped): Animation or Collapsible. */
void *lmoa_new_child(lua_State *L, int layout_idx, const char *mt, size_t size) {
    void *x;
    layout_idx = lua_absindex(L, layout_idx);
    x = lua_newuserdatauv(L, size, 1);
    memset(x, 0, size);
    luaL_setmetatable(L, mt);
    lua_pushvalue(L, layout_idx);
    lua_setiuservalue(L, -2, 1);
    return x;
}

void lmoa_push_rect(lua_State *L, const moa_rect *r) {
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

/* ======================================================================================================== */
/* Failures                                                                                                 */
/* ======================================================================================================== */

/* After an expected failure (parse error, conflict, limit) of a call on the layout at layout_idx: pushes nil,
   message, details = {code, status, kind, message, line, offset, text_offset, length, source_line, expected,
   suggestion, source, conflicts = { {constraint=, equation=, line=}, ... }}. Returns 3. Reads every string of
   the failure before the next moa_* call (which would clear them). Raises instead the error a callback left
   (a progress function that raised stops the call with MOA_LIMIT), or if a callback closed the layout. */
int lmoa_layout_failure(lua_State *L, LLayout *ll, int layout_idx, moa_status st) {
    moa_error_info info;
    size_t count = 0, i;
    moa_lcons *ids;
    int details;
    lmoa_raise_pending(L, ll); /* a callback's error wins: a progress function that raised stopped the call */
    if (!ll->m) return lmoa_closed_error(L, "layout"); /* closed by a callback */
    layout_idx = lua_absindex(L, layout_idx);
    details = lmoa_push_failure(L, moa_layout_errmsg(ll->m), st, 14);
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
        lmoa_push_lcons(L, layout_idx, ids[i]);
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
    return st == MOA_PARSE || lmoa_is_failure(st);
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

/* ======================================================================================================== */
/* moa.layout: creating and closing                                                                         */
/* ======================================================================================================== */

static int l_layout(lua_State *L) {
    double w = lmoa_check_finite(L, 1, "width", NULL), h = lmoa_check_finite(L, 2, "height", NULL);
    LLayout *ll = (LLayout *)lua_newuserdatauv(L, sizeof *ll, LAYOUT_NUV);
    ll->m = NULL;
    ll->cur = NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    ll->main = lua_tothread(L, -1);
    lua_pop(L, 1);
    ll->measuring = 0;
    ll->errref = LUA_NOREF;
    ll->debugref = LUA_NOREF;
    ll->progressref = LUA_NOREF;
    ll->progressing = 0;
    ll->finalizing = 0;
    luaL_setmetatable(L, LAYOUT_MT);
    for (int uv = 1; uv <= 2; uv++) {
        lmoa_new_weak_map(L);
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
    if (ll->progressref != LUA_NOREF) { /* a running progress function is on its thread's stack: still safe */
        luaL_unref(L, LUA_REGISTRYINDEX, ll->progressref);
        ll->progressref = LUA_NOREF;
    }
}

static int layout_gc(lua_State *L) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, 1, LAYOUT_MT);
    free_layout(L, ll, 1);
    lmoa_release_content(L, 1);
    if (ll->errref != LUA_NOREF) {
        luaL_unref(L, LUA_REGISTRYINDEX, ll->errref);
        ll->errref = LUA_NOREF;
    }
    return 0;
}

static int layout_close(lua_State *L) {
    LLayout *ll = (LLayout *)luaL_checkudata(L, 1, LAYOUT_MT);
    /* closed from a callback: the outer call raises pending errors, and the library, which frees the layout when
       that call returns, may still measure: the measure functions and the font stay until the layout is collected */
    int inside = ll->cur != NULL || ll->measuring || ll->progressing;
    free_layout(L, ll, 0);
    if (!inside) {
        lmoa_release_content(L, 1);
        lmoa_raise_pending(L, ll);
    }
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
    lua_pushfstring(L, "moa.Layout (%s x %s, %d views): %p", lmoa_push_numstr(L, w), lmoa_push_numstr(L, h),
                    (int)nviews, (void *)ll);
    return 1;
}

/* ======================================================================================================== */
/* Views, guides, sizes                                                                                     */
/* ======================================================================================================== */

static const char *check_name(lua_State *L, int idx) {
    return lmoa_check_text(L, idx, "name", NULL);
}

/* L:view(name [, parent]) -> View */
static int layout_view(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *name = check_name(L, 2);
    moa_view parent = 0, out = 0;
    moa_status st;
    if (!lua_isnoneornil(L, 3)) {
        LLayout *pl;
        LId *p = lmoa_check_child(L, 3, VIEW_MT, &pl);
        if (pl != ll) return luaL_argerror(L, 3, "view belongs to another layout");
        parent = p->id;
    }
    st = moa_view_new(ll->m, name, parent, &out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "view");
    lmoa_push_view(L, 1, out);
    return 1;
}

/* L:add_views(names [, parent [, sizes]]) -> { View, ... }: the views of a list of names in one call, all or
   nothing; sizes[i] = { width, height } (nil or false on an axis for none) as v:set_intrinsic_size. The bulk form
   of L:view and v:set_intrinsic_size (moa_views_new). */
static int layout_add_views(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_view parent = 0;
    lua_Integer n, i;
    const char **names;
    double *sizes = NULL;
    moa_view *out;
    moa_status st;
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 4); /* parent and sizes at 3 and 4 (nil when absent): the scratch goes above them */
    if (!lua_isnoneornil(L, 3)) {
        LLayout *pl;
        LId *p = lmoa_check_child(L, 3, VIEW_MT, &pl);
        if (pl != ll) return luaL_argerror(L, 3, "view belongs to another layout");
        parent = p->id;
    }
    if (!lua_isnoneornil(L, 4)) luaL_checktype(L, 4, LUA_TTABLE);
    n = luaL_len(L, 2);
    if (n < 0 || n > ((lua_Integer)1 << 26)) return luaL_argerror(L, 2, "at most 2^26 names");
    if (!lua_isnoneornil(L, 4) && luaL_len(L, 4) != n) return luaL_argerror(L, 4, "one size per name");
    /* Scratch in userdata: collected even when an error below leaves the function. */
    names = (const char **)lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *names, 0);
    out = (moa_view *)lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *out, 0);
    if (!lua_isnoneornil(L, 4)) sizes = (double *)lua_newuserdatauv(L, (size_t)(n ? 2 * n : 1) * sizeof *sizes, 0);
    /* The names, anchored in a table of their own: an __index of the names (or of the sizes) may make each
       string, or change the names table, and nothing else would keep them alive until the library reads them. */
    lua_createtable(L, (int)n, 0);
    for (i = 1; i <= n; i++) {
        size_t len;
        if (lua_geti(L, 2, i) != LUA_TSTRING) return luaL_error(L, "add_views: names[%d] is not a string", (int)i);
        names[i - 1] = lua_tolstring(L, -1, &len);
        if (strlen(names[i - 1]) != len) return luaL_error(L, "add_views: names[%d] contains a NUL byte", (int)i);
        lua_rawseti(L, -2, i);
        if (sizes) {
            int k;
            if (lua_geti(L, 4, i) != LUA_TTABLE) return luaL_error(L, "add_views: sizes[%d] is not a table", (int)i);
            for (k = 0; k < 2; k++) {
                lua_geti(L, -1, k + 1);
                sizes[2 * (i - 1) + k] = lua_toboolean(L, -1) ? lmoa_check_finite(L, -1, k ? "height" : "width", NULL)
                                                              : MOA_NO_INTRINSIC;
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
    }
    st = moa_views_new(ll->m, names, (size_t)n, parent, sizes, out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "add_views");
    lua_createtable(L, (int)n, 0);
    for (i = 0; i < n; i++) {
        lmoa_push_view(L, 1, out[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* L:find(name) -> View or nil */
static int layout_find(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *name = check_name(L, 2);
    moa_view out = 0;
    moa_status st = moa_view_find(ll->m, name, &out);
    if (st == MOA_NOTFOUND) {
        lua_pushnil(L);
        return 1;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "find");
    lmoa_push_view(L, 1, out);
    return 1;
}

/* L:guide(name) -> View (safeArea, margins, keyboard) */
static int layout_guide(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *name = check_name(L, 2);
    moa_view out = 0;
    moa_status st = moa_layout_guide(ll->m, name, &out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "guide");
    lmoa_push_view(L, 1, out);
    return 1;
}

static int layout_set_root_size(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    double w = lmoa_check_finite(L, 2, "width", NULL), h = lmoa_check_finite(L, 3, "height", NULL);
    moa_status st = moa_layout_set_root_size(ll->m, w, h);
    if (lmoa_is_failure(st)) return lmoa_layout_failure(L, ll, 1, st);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_root_size");
    lua_settop(L, 1);
    return 1;
}

static int layout_root_size(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    double w = 0, h = 0;
    moa_layout_root_size(ll->m, &w, &h);
    lua_pushnumber(L, w);
    lua_pushnumber(L, h);
    return 2;
}

static int layout_set_safe_area(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    double t = lmoa_check_finite(L, 2, "top", NULL), l = lmoa_check_finite(L, 3, "left", NULL),
           b = lmoa_check_finite(L, 4, "bottom", NULL), r = lmoa_check_finite(L, 5, "right", NULL);
    moa_status st = moa_layout_set_safe_area(ll->m, t, l, b, r);
    if (lmoa_is_failure(st)) return lmoa_layout_failure(L, ll, 1, st);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_safe_area");
    lua_settop(L, 1);
    return 1;
}

static int layout_set_keyboard_height(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    double h = lmoa_check_finite(L, 2, "height", NULL);
    moa_status st = moa_layout_set_keyboard_height(ll->m, h);
    if (lmoa_is_failure(st)) return lmoa_layout_failure(L, ll, 1, st);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_keyboard_height");
    lua_settop(L, 1);
    return 1;
}

/* ======================================================================================================== */
/* Equations: eq, eqs, xeq, on_debug                                                                        */
/* ======================================================================================================== */

/* The outcome of an equation call (eq, eqs, xeq), which may have run the debug callback: raises if that
   callback closed the layout or the call failed by misuse; for an expected failure (a parse error, a bad
   number in the text, a conflict; NOTFOUND too when notfound_expected) pushes nil, message, details and
   returns 3; returns 0 on success (the caller pushes its results). A pending callback error is raised once
   the outcome is known. */
static int equation_outcome(lua_State *L, LLayout *ll, moa_status st, int notfound_expected, const char *what) {
    if (!ll->m) { /* closed by the debug callback */
        lmoa_raise_pending(L, ll);
        return lmoa_closed_error(L, "layout");
    }
    if (is_expected_failure(st) || is_text_failure(ll, st) || (notfound_expected && st == MOA_NOTFOUND)) {
        int n = lmoa_layout_failure(L, ll, 1, st);
        lmoa_raise_pending(L, ll);
        return n;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, what);
    lmoa_raise_pending(L, ll);
    return 0;
}

/* L:eq(line) -> LayoutConstraint, or nil, message, details */
static int layout_eq(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *line = lmoa_check_text(L, 2, "line", NULL);
    moa_lcons out = 0;
    moa_status st;
    int n;
    CALLBACK_CALL(ll, L, moa_layout_eq(ll->m, line, &out));
    if ((n = equation_outcome(L, ll, st, 0, "eq")) != 0) return n;
    lmoa_push_lcons(L, 1, out);
    return 1;
}

/* L:eqs(text [, source [, first_line]]) -> { LayoutConstraint, ... } (all or nothing), or nil, msg, details */
static int layout_eqs(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    size_t len, lines = 1, i, count = 0;
    const char *text = lmoa_check_text(L, 2, "text", &len);
    const char *source = lmoa_opt_text(L, 3, "source");
    lua_Integer first = luaL_optinteger(L, 4, 1);
    moa_lcons *ids;
    moa_status st;
    int n;
    if (first < 1 || first > INT_MAX) return luaL_argerror(L, 4, "first_line must be in 1 ... 2^31 - 1");
    for (i = 0; i < len; i++)
        if (text[i] == '\n') lines++;
    ids = (moa_lcons *)lua_newuserdatauv(L, 4 * lines * sizeof *ids, 0);
    if (source || first != 1)
        CALLBACK_CALL(ll, L, moa_layout_eqs_source(ll->m, text, source, (int)first, ids, 4 * lines, &count));
    else
        CALLBACK_CALL(ll, L, moa_layout_eqs(ll->m, text, ids, 4 * lines, &count));
    if ((n = equation_outcome(L, ll, st, 0, "eqs")) != 0) return n;
    if (count > 4 * lines) count = 4 * lines;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        lmoa_push_lcons(L, 1, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

/* L:xeq(line) -> number removed, or nil, message, details (parse error, nothing matches) */
static int layout_xeq(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *line = lmoa_check_text(L, 2, "line", NULL);
    size_t removed = 0;
    moa_status st;
    int n;
    CALLBACK_CALL(ll, L, moa_layout_xeq(ll->m, line, &removed));
    if ((n = equation_outcome(L, ll, st, 1, "xeq")) != 0) return n;
    lua_pushinteger(L, (lua_Integer)removed);
    return 1;
}

/* The `?` reports of eq, eqs and xeq go to the L:on_debug function, called under lua_pcall; the first error is
   kept for lmoa_raise_pending(). */
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

/* L:on_debug(fn or nil): where the `?` reports go (nil: standard error). */
static int layout_on_debug(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
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

/* ======================================================================================================== */
/* Limits, usage, the progress function                                                                     */
/* ======================================================================================================== */

/* The progress callback (moa_progress_fn) of L:on_progress: calls the Lua function with the number of constraints
   the call has added, under lua_pcall, on the thread of the binding call in progress (ll->cur; the main thread
   for the calls that set none). It returns to the library, never raises: `false` stops the call (it fails with
   MOA_LIMIT and changes nothing), anything else goes on; an error stops it too and is kept (the first one) for
   lmoa_raise_pending(), which raises it once the moa_* call has returned. A layout closed by the function, or
   a function that cannot be called, stops the call. The function must not change or solve the layout: the
   library refuses that (MOA_MISUSE: the binding call raises inside the function, which may catch it). */
static int progress_trampoline(moa_layout *m, uint64_t steps, void *ud) {
    LLayout *ll = (LLayout *)ud;
    int stop;
    (void)m;
    if (!ll->m) return 1;
    if (ll->progressref == LUA_NOREF) return 0;
    ll->progressing++;
    stop = lmoa_run_progress(ll->cur ? ll->cur : ll->main, ll->progressref, steps, &ll->errref);
    ll->progressing--;
    return stop || !ll->m;
}

/* L:on_progress(fn or nil [, interval]) -> L: fn(steps) is called every `interval` constraints (an integer >= 1,
   default 1000) a call adds; returning false stops that call, which then returns nil, message, details (code
   "LIMIT") or, for a call without failures, raises. nil removes the function. Refused (raises) from inside the
   progress function. The function is held in the registry until replaced, removed, or the layout closed. */
static int layout_on_progress(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    lua_Integer interval;
    int ref = lmoa_check_progress_args(L, 1000, "interval", &interval);
    moa_status st = moa_layout_set_progress(ll->m, ref == LUA_NOREF ? NULL : progress_trampoline, (uint64_t)interval, ll);
    if (st != MOA_OK) { /* the function in use stays */
        luaL_unref(L, LUA_REGISTRYINDEX, ref);
        return lmoa_layout_error(L, ll, st, "on_progress");
    }
    if (ll->progressref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, ll->progressref);
    ll->progressref = ref;
    ll->progress_interval = (uint64_t)interval;
    lua_settop(L, 1);
    return 1;
}

/* Lifts the layout's pivot and time limits and its progress function, keeping the limits in *saved: the calls
   that undo a failed binding call (a half-made stack taken apart) must not be stopped by them, or the call
   would leave a change behind. lmoa_layout_restore_limits puts them back. */
void lmoa_layout_lift_limits(LLayout *ll, LLimits *saved) {
    saved->pivots = saved->seconds = 0;
    moa_layout_limit(ll->m, MOA_LIMIT_PIVOTS, &saved->pivots);
    moa_layout_limit(ll->m, MOA_LIMIT_SECONDS, &saved->seconds);
    moa_layout_set_limit(ll->m, MOA_LIMIT_PIVOTS, 9007199254740992.0); /* 2^53, the largest */
    moa_layout_set_limit(ll->m, MOA_LIMIT_SECONDS, 0);
    if (ll->progressref != LUA_NOREF) moa_layout_set_progress(ll->m, NULL, 1, NULL);
}

void lmoa_layout_restore_limits(LLayout *ll, const LLimits *saved) {
    if (!ll->m) return;
    moa_layout_set_limit(ll->m, MOA_LIMIT_PIVOTS, saved->pivots);
    moa_layout_set_limit(ll->m, MOA_LIMIT_SECONDS, saved->seconds);
    if (ll->progressref != LUA_NOREF) moa_layout_set_progress(ll->m, progress_trampoline, ll->progress_interval, ll);
}

/* L:set_limit("rows" | "cells" | "seconds" | "pivots", value) -> L. Rows, cells (the layout's solver) and pivots
   (each solver operation of a call): whole numbers >= 1; seconds (one call): >= 0, 0 for none. A bad value
   raises with the library's message. */
static int layout_set_limit(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_limit which = lmoa_check_limit(L, 2);
    double value = lmoa_check_finite(L, 3, "limit", NULL);
    moa_status st = moa_layout_set_limit(ll->m, which, value);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_limit");
    lua_settop(L, 1);
    return 1;
}

/* L:limit("rows" | "cells" | "seconds" | "pivots") -> number (rows, cells and pivots as integers) */
static int layout_limit(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_limit which = lmoa_check_limit(L, 2);
    double value = 0;
    moa_status st = moa_layout_limit(ll->m, which, &value);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "limit");
    lmoa_push_limit(L, which, value);
    return 1;
}

/* L:usage() -> {rows=, cells=, variables=, constraints=, views=} */
static int layout_usage(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_usage u;
    moa_status st = moa_layout_usage(ll->m, &u);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "usage");
    lmoa_push_usage(L, &u);
    return 1;
}

/* ======================================================================================================== */
/* Solving and queries                                                                                      */
/* ======================================================================================================== */

/* An id list of the layout (moa_layout_views, moa_layout_constraints, moa_layout_changed_views: the same C
   signature) as a Lua array of the objects push(L, layout_idx, id) makes. The ids go through a userdata buffer,
   so a memory error never leaks it; the buffer is taken off the stack, the array is left on it. */
typedef moa_status (*id_list_fn)(moa_layout *, uint64_t *, size_t, size_t *);

static void push_id_list(lua_State *L, LLayout *ll, int layout_idx, id_list_fn list,
                         void (*push)(lua_State *, int, uint64_t)) {
    size_t count = 0, cap, i;
    uint64_t *ids;
    layout_idx = lua_absindex(L, layout_idx);
    list(ll->m, NULL, 0, &count);
    cap = count;
    ids = (uint64_t *)lua_newuserdatauv(L, (cap ? cap : 1) * sizeof *ids, 0);
    if (cap == 0 || list(ll->m, ids, cap, &count) != MOA_OK) count = 0;
    if (count > cap) count = cap;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        push(L, layout_idx, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    lua_remove(L, -2);
}

/* The optional `views` flag of solve, advance and seek at idx: true (the default, also for nil) or false. Call
   before the moa_* call (it may raise). */
int lmoa_opt_views(lua_State *L, int idx) {
    if (lua_isnoneornil(L, idx)) return 1;
    luaL_checktype(L, idx, LUA_TBOOLEAN);
    return lua_toboolean(L, idx);
}

/* Pushes the list of the views whose frame changed at the last solve or frame or, when views is 0, their
   number (no View object is made: the fast path of an animation loop, see L:frame_values). */
void lmoa_push_changed(lua_State *L, LLayout *ll, int layout_idx, int views) {
    size_t count = 0;
    if (views) {
        push_id_list(L, ll, layout_idx, moa_layout_changed_views, lmoa_push_view);
        return;
    }
    /* the same views as moa_layout_changed_views, whose count alone costs more */
    if (moa_layout_changed_frames(ll->m, NULL, 0, &count) != MOA_OK) count = 0;
    lua_pushinteger(L, (lua_Integer)count);
}

/* L:solve([views]) -> { View whose frame changed, ... }, or their number when views is false */
static int layout_solve(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    int views = lmoa_opt_views(L, 2);
    moa_status st;
    CALLBACK_CALL(ll, L, moa_layout_solve(ll->m, NULL)); /* measure functions run in it */
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "solve");
    lmoa_push_changed(L, ll, 1, views);
    return 1;
}

/* Lists of ids: L:views(), L:constraints() */
static int layout_views(lua_State *L) {
    push_id_list(L, lmoa_check_layout(L, 1), 1, moa_layout_views, lmoa_push_view);
    return 1;
}

static int layout_constraints(lua_State *L) {
    push_id_list(L, lmoa_check_layout(L, 1), 1, moa_layout_constraints, lmoa_push_lcons);
    return 1;
}

static int layout_describe(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *s = NULL;
    moa_status st = moa_layout_describe(ll->m, &s);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "describe");
    lua_pushstring(L, s);
    return 1;
}

/* L:violations() -> { {constraint=, amount=}, ... } */
static int layout_violations(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
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
        lmoa_push_lcons(L, 1, ids[i]);
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
    LLayout *ll = lmoa_check_layout(L, 1);
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
        lmoa_push_view(L, 1, ids[i]);
        lua_setfield(L, -2, "view");
        lua_pushstring(L, vars[i] >= 0 && vars[i] <= 3 ? var_names[vars[i]] : "?");
        lua_setfield(L, -2, "var");
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

/* ======================================================================================================== */
/* Frames and SVG                                                                                           */
/* ======================================================================================================== */

/* Pushes one frame as {view=, name=, superview=name|nil, frame=, root_frame=, depth=, guide=}. */
static void push_frame(lua_State *L, LLayout *ll, int layout_idx, const moa_frame *f) {
    const char *name = NULL;
    lua_createtable(L, 0, 7);
    lmoa_push_view(L, layout_idx, f->view);
    lua_setfield(L, -2, "view");
    if (moa_view_name(ll->m, f->view, &name) == MOA_OK && name) lua_pushstring(L, name);
    else lua_pushliteral(L, "?");
    lua_setfield(L, -2, "name");
    if (f->superview && moa_view_name(ll->m, f->superview, &name) == MOA_OK && name) {
        lua_pushstring(L, name);
        lua_setfield(L, -2, "superview");
    }
    lmoa_push_rect(L, &f->frame);
    lua_setfield(L, -2, "frame");
    lmoa_push_rect(L, &f->frame_in_root);
    lua_setfield(L, -2, "root_frame");
    lua_pushinteger(L, f->depth);
    lua_setfield(L, -2, "depth");
    lua_pushboolean(L, f->is_guide);
    lua_setfield(L, -2, "guide");
}

/* L:frames([include_guides]) -> { {view=, name=, superview=name|nil, frame=, root_frame=, depth=, guide=} }
** L:changed_frames() -> the same for the views whose frame changed at the last solve or frame */
static int frames_call(lua_State *L, int changed_only) {
    LLayout *ll = lmoa_check_layout(L, 1);
    int guides = changed_only ? 0 : lua_toboolean(L, 2);
    size_t count = 0, i;
    moa_frame *fr;
    moa_status st;
    if (changed_only) st = moa_layout_changed_frames(ll->m, NULL, 0, &count);
    else CALLBACK_CALL(ll, L, moa_layout_frames(ll->m, guides, NULL, 0, &count)); /* solves first if needed */
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "frames");
    fr = (moa_frame *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *fr, 0);
    if (count) {
        if (changed_only) st = moa_layout_changed_frames(ll->m, fr, count, &count);
        else CALLBACK_CALL(ll, L, moa_layout_frames(ll->m, guides, fr, count, &count)); /* again if it failed */
        if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
            lmoa_raise_pending(L, ll);
            return 0;
        }
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "frames");
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

/* The numbers of one view in L:frame_values(): id, frame x, y, width, height, root_frame x, y, width, height
   (moa.frame_stride; README.md, "Frames in bulk"); with "root" fields, id, root_frame x, y, width, height
   (moa.root_frame_stride: the numbers a renderer that draws in root space reads, about half the cost). */
#define FRAME_STRIDE 9
#define ROOT_FRAME_STRIDE 5

/* The `fields` argument of L:frame_values and L:advance_frames at index `arg`: 1 for "root", 0 for "full" (the
   default). Raises on anything else: call it before any moa_* call. */
static int check_root_fields(lua_State *L, int arg) {
    static const char *const fields[] = {"full", "root", NULL};
    return luaL_checkoption(L, arg, "full", fields);
}

/* The layout's scratch array of frames (user value 3), grown to hold `need` when it holds fewer, kept for the
   next call: L:frame_values reads into it, without a new buffer per frame. Sets *cap to its capacity; NULL (cap
   0) while none is needed. The array (or nil) is left on the stack, so that it stays alive through the moa_*
   call that fills it: a callback in that call may read frames too and replace the layout's array. May raise
   a memory error: call it with no moa_* call on the stack. */
static moa_frame *scratch_frames(lua_State *L, int layout_idx, size_t need, size_t *cap) {
    moa_frame *fr;
    size_t n;
    lua_getiuservalue(L, layout_idx, 3);
    fr = (moa_frame *)lua_touserdata(L, -1);
    *cap = fr ? lua_rawlen(L, -1) / sizeof *fr : 0;
    if (*cap >= need) return fr; /* left on the stack */
    lua_pop(L, 1);
    if (need > (SIZE_MAX / sizeof *fr - 16) / 9 * 8) luaL_error(L, "frame_values: too many views");
    n = need + need / 8 + 16; /* room for a few more views */
    fr = (moa_frame *)lua_newuserdatauv(L, n * sizeof *fr, 0);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, layout_idx, 3);
    *cap = n;
    return fr; /* left on the stack */
}

/* moa_layout_frames solves first if needed: measure functions run on this thread. */
static moa_status read_frames(lua_State *L, LLayout *ll, int which, moa_frame *out, size_t cap, size_t *count) {
    moa_status st;
    if (which == 0) return moa_layout_changed_frames(ll->m, out, cap, count);
    CALLBACK_CALL(ll, L, moa_layout_frames(ll->m, which == 2, out, cap, count));
    return st;
}

/* Pushes the result of L:frame_values and L:advance_frames: the table at index 3 (its array items replaced by
   the count frames' values, those past the new end cleared) or a new table, then count. `root`: the root
   fields only (ROOT_FRAME_STRIDE per view). */
static void push_values(lua_State *L, const moa_frame *fr, size_t count, int root) {
    size_t i, j;
    lua_Integer k, old = 0;
    if (lua_istable(L, 3)) {
        old = (lua_Integer)lua_rawlen(L, 3);
        lua_pushvalue(L, 3);
    } else {
        lua_createtable(L, (int)(count * (root ? ROOT_FRAME_STRIDE : FRAME_STRIDE)), 0);
    }
    for (i = 0, k = 0; i < count; i++) {
        const moa_frame *f = &fr[i];
        const double v[FRAME_STRIDE - 1] = {f->frame_in_root.x, f->frame_in_root.y, f->frame_in_root.width,
                                            f->frame_in_root.height, f->frame.x, f->frame.y, f->frame.width,
                                            f->frame.height};
        const double *first = root ? v : v + 4; /* full: the frame, then the root frame */
        lua_pushinteger(L, (lua_Integer)f->view);
        lua_rawseti(L, -2, ++k);
        for (j = 0; j < 4; j++) {
            lua_pushnumber(L, first[j]);
            lua_rawseti(L, -2, ++k);
        }
        if (root) continue;
        for (j = 0; j < 4; j++) {
            lua_pushnumber(L, v[j]);
            lua_rawseti(L, -2, ++k);
        }
    }
    for (; old > k; old--) { /* from the end: t stays a sequence at every step */
        lua_pushnil(L);
        lua_rawseti(L, -2, old);
    }
    lua_pushinteger(L, (lua_Integer)count);
}

/* After a first read of count frames of `which` into the scratch array fr (cap frames): reads them again into
   a larger one when they did not fit, then pushes them as push_values. Returns the number of results. */
static int push_read_values(lua_State *L, LLayout *ll, int which, moa_frame *fr, size_t cap, size_t count,
                            int root, const char *fn) {
    if (count > cap) {
        moa_status st;
        if (count > (size_t)(INT_MAX / FRAME_STRIDE)) return luaL_error(L, "%s: too many views", fn);
        fr = scratch_frames(L, 1, count, &cap);
        st = read_frames(L, ll, which, fr, cap, &count);
        if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
            lmoa_raise_pending(L, ll);
            return 0;
        }
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, fn);
        if (count > cap) count = cap;
    }
    push_values(L, fr, count, root);
    return 2;
}

/* L:frame_values([which [, t [, fields]]]) -> t, count: the frames of `which` ("changed": changed_frames(), the
   default; "all": frames(); "all+guides": frames(true)) as one flat array of numbers, FRAME_STRIDE per view
   (fields "full", the default) or ROOT_FRAME_STRIDE ("root"), into t (its array items are replaced, those past
   the new end cleared) or a new table. The frames are read (one moa_* call, two when the scratch array must
   grow) before t is touched, so a failed call leaves t as it was; no View object, table or string per view. */
static int layout_frame_values(lua_State *L) {
    static const char *const whichs[] = {"changed", "all", "all+guides", NULL};
    LLayout *ll = lmoa_check_layout(L, 1);
    int which = luaL_checkoption(L, 2, "changed", whichs);
    int root = check_root_fields(L, 4);
    size_t count = 0, cap;
    moa_frame *fr;
    moa_status st;
    if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    fr = scratch_frames(L, 1, 0, &cap);
    st = read_frames(L, ll, which, fr, cap, &count);
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "frame_values");
    return push_read_values(L, ll, which, fr, cap, count, root, "frame_values");
}

/* L:advance_frames(dt [, t [, fields]]) -> t, count: L:advance(dt, false), then L:frame_values("changed", t,
   fields), in one C call (moa_layout_advance_frames into the scratch array; a second, moa_layout_changed_frames,
   when it must grow): the way to follow an animation frame by frame. Completions run inside; the first error
   one raised is raised after the frame, as L:advance. Nothing returned when a callback closed the layout. */
static int layout_advance_frames(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    double dt = lmoa_check_finite(L, 2, "dt", NULL);
    int root = check_root_fields(L, 4);
    size_t count = 0, cap;
    moa_frame *fr;
    moa_status st;
    if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    fr = scratch_frames(L, 1, 0, &cap);
    CALLBACK_CALL(ll, L, moa_layout_advance_frames(ll->m, dt, fr, cap, &count));
    if (!ll->m) {
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "advance_frames");
    lmoa_raise_pending(L, ll);
    return push_read_values(L, ll, 0, fr, cap, count, root, "advance_frames"); /* the frame is made: its frames */
}

/* L:view_by_id(id) -> View or nil: the view, root or guide of that id (v.id, the ids of L:frame_values) */
static int layout_view_by_id(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    lua_Integer id = luaL_checkinteger(L, 2);
    const char *name = NULL;
    moa_status st = moa_view_name(ll->m, (moa_view)id, &name);
    if (st == MOA_NOTFOUND) {
        lua_pushnil(L);
        return 1;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "view_by_id");
    lmoa_push_view(L, 1, (moa_view)id);
    return 1;
}

/* SVG flags from an options table {constraints=, guides=, labels=}. */
int lmoa_svg_flags(lua_State *L, int idx, int allow_constraints) {
    int flags = 0;
    if (lua_isnoneornil(L, idx)) return 0;
    luaL_checktype(L, idx, LUA_TTABLE);
    if (allow_constraints && lmoa_opt_bool(L, idx, "constraints", 0)) flags |= MOA_SVG_CONSTRAINTS;
    if (lmoa_opt_bool(L, idx, "guides", 0)) flags |= MOA_SVG_GUIDES;
    if (!lmoa_opt_bool(L, idx, "labels", 1)) flags |= MOA_SVG_NO_LABELS;
    return flags;
}

/* L:svg([{constraints=, guides=, labels=}]) -> string */
static int layout_svg(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    int flags = lmoa_svg_flags(L, 2, 1);
    const char *s = NULL;
    moa_status st;
    CALLBACK_CALL(ll, L, moa_layout_svg(ll->m, flags, &s)); /* solves first if needed */
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "svg");
    lua_pushstring(L, s);
    return 1;
}

/* L:html([path [, title]]) -> true (the page written to path) | string (no path): the inspector page */
static int layout_html(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *path = lmoa_opt_text(L, 2, "path");
    const char *title = lmoa_opt_text(L, 3, "title");
    const char *s = NULL;
    moa_status st;
    CALLBACK_CALL(ll, L, moa_layout_html(ll->m, title, &s)); /* solves first if needed */
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "html");
    if (!path) {
        lua_pushstring(L, s);
        return 1;
    }
    FILE *f = fopen(path, "wb");
    size_t n = strlen(s);
    int ok = f != NULL && fwrite(s, 1, n, f) == n;
    if (f != NULL && fclose(f) != 0) ok = 0;
    if (!ok) return luaL_error(L, "html: cannot write %s", path);
    lua_pushboolean(L, 1);
    return 1;
}

/* ======================================================================================================== */
/* Fields: L.closed, L.root, L.time, L.animating, L.width, L.height, L.orientation                         */
/* ======================================================================================================== */

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
    if (!ll->m) return lmoa_closed_error(L, "layout");
    if (strcmp(key, "root") == 0) {
        moa_view r = 0;
        moa_layout_root(ll->m, &r);
        lmoa_push_view(L, 1, r);
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
    if (strcmp(key, "orientation") == 0) {
        int o = 0;
        moa_status st = moa_layout_orientation(ll->m, &o);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
        lua_pushstring(L, o == MOA_LANDSCAPE ? "landscape" : "portrait");
        return 1;
    }
    return 0;
}

/* ======================================================================================================== */
/* Registration                                                                                             */
/* ======================================================================================================== */

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
    {"add_views", layout_add_views},
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
    {"on_progress", layout_on_progress},
    {"set_limit", layout_set_limit},
    {"limit", layout_limit},
    {"usage", layout_usage},
    {"solve", layout_solve},
    {"views", layout_views},
    {"constraints", layout_constraints},
    {"describe", layout_describe},
    {"violations", layout_violations},
    {"ambiguities", layout_ambiguities},
    {"frames", layout_frames},
    {"changed_frames", layout_changed_frames},
    {"frame_values", layout_frame_values},
    {"advance_frames", layout_advance_frames},
    {"view_by_id", layout_view_by_id},
    {"svg", layout_svg},
    {"html", layout_html},
    {NULL, NULL},
};

static const luaL_Reg layout_funcs[] = {
    {"layout", l_layout},
    {NULL, NULL},
};

/* moa.Layout (its motion methods: lmoa_open_motion); moa.layout into the module table on top. */
void lmoa_open_layout(lua_State *L) {
    lmoa_create_meta(L, LAYOUT_MT, layout_meta, layout_methods);
    luaL_setfuncs(L, layout_funcs, 0);
    lua_pushinteger(L, FRAME_STRIDE);
    lua_setfield(L, -2, "frame_stride");
    lua_pushinteger(L, ROOT_FRAME_STRIDE);
    lua_setfield(L, -2, "root_frame_stride");
}
