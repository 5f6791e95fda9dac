/*
** lmoa_view.c -- moa.View and moa.LayoutConstraint: the views and constraints of a layout (moa_view_*,
** moa_lcons_*). The animations of a constraint (c:animate, ...) are in lmoa_motion.c; measured content and text
** (v:set_measure, v:set_text, ...) in lmoa_content.c.
** Reference: bindings/lua/README.md.
*/
#include <math.h>
#include <string.h>

#include "lmoa.h"

/* ======================================================================================================== */
/* moa.View                                                                                                 */
/* ======================================================================================================== */

static LId *check_view(lua_State *L, int idx, LLayout **llp) {
    return lmoa_check_child(L, idx, VIEW_MT, llp);
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
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
        lmoa_push_rect(L, &r);
        return 1;
    }
    if (strcmp(key, "name") == 0) {
        const char *name = NULL;
        st = moa_view_name(ll->m, v->id, &name);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
        lua_pushstring(L, name);
        return 1;
    }
    if (strcmp(key, "superview") == 0) {
        moa_view s = 0;
        st = moa_view_superview(ll->m, v->id, &s);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
        if (!s) return 0;
        lua_getiuservalue(L, 1, 1);
        lmoa_push_view(L, -1, s);
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

/* Ends a view setter: conflicts and limits (lmoa_is_failure) give nil, msg, details; other failures
   raise. */
static int view_result(lua_State *L, LLayout *ll, moa_status st, const char *what) {
    if (lmoa_is_failure(st)) {
        lua_getiuservalue(L, 1, 1);
        return lmoa_layout_failure(L, ll, lua_gettop(L), st);
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, what);
    lmoa_raise_pending(L, ll); /* what a progress function raised in a call it could not stop */
    if (!ll->m) return lmoa_closed_error(L, "layout");
    lua_settop(L, 1);
    return 1;
}

/* v:set_margins(top, left, bottom, right) or v:set_margins(all);
   v:set_directional_margins(top, leading, bottom, trailing) or v:set_directional_margins(all): leading and
   trailing follow the view's effective direction (UIKit's directionalLayoutMargins). */
static int margins_call(lua_State *L, int directional) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    double t = lmoa_check_finite(L, 2, "margin", NULL), l = t, b = t, r = t;
    if (!lua_isnoneornil(L, 3)) {
        l = lmoa_check_finite(L, 3, "margin", NULL);
        b = lmoa_check_finite(L, 4, "margin", NULL);
        r = lmoa_check_finite(L, 5, "margin", NULL);
    }
    if (directional)
        return view_result(L, ll, moa_view_set_directional_margins(ll->m, v->id, t, l, b, r),
                           "set_directional_margins");
    return view_result(L, ll, moa_view_set_margins(ll->m, v->id, t, l, b, r), "set_margins");
}

static int view_set_margins(lua_State *L) { return margins_call(L, 0); }
static int view_set_directional_margins(lua_State *L) { return margins_call(L, 1); }

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
    double w = lua_toboolean(L, 2) ? lmoa_check_finite(L, 2, "width", NULL) : MOA_NO_INTRINSIC;
    double h = lua_toboolean(L, 3) ? lmoa_check_finite(L, 3, "height", NULL) : MOA_NO_INTRINSIC;
    return view_result(L, ll, moa_view_set_intrinsic_size(ll->m, v->id, w, h), "set_intrinsic_size");
}

/* v:set_content_priority(axis, hugging, compression) */
static int view_set_content_priority(lua_State *L) {
    static const char *const axes[] = {"horizontal", "vertical", NULL};
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    int axis = luaL_checkoption(L, 2, NULL, axes);
    double hug = lmoa_check_priority(L, 3, 250, 0, NULL), comp = lmoa_check_priority(L, 4, 750, 0, NULL);
    return view_result(L, ll, moa_view_set_content_priority(ll->m, v->id, (moa_axis)axis, hug, comp),
                       "set_content_priority");
}

/* v:set_baseline(offset [, first]): nil for none */
static int view_set_baseline(lua_State *L) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    double o = 0, f = 0;
    int has_o = !lua_isnoneornil(L, 2), has_f = !lua_isnoneornil(L, 3);
    if (has_o) o = lmoa_check_finite(L, 2, "offset", NULL);
    if (has_f) f = lmoa_check_finite(L, 3, "offset", NULL);
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

/* v:remove(): the view, its subviews and their constraints (and their measure functions) */
static int view_remove(lua_State *L) {
    LLayout *ll;
    LId *v = check_view(L, 1, &ll);
    moa_status st = moa_view_free(ll->m, v->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "remove");
    if (ll->m) {
        lua_getiuservalue(L, 1, 1);
        lmoa_prune_content(L, ll, -1);
    }
    lmoa_raise_pending(L, ll); /* what a progress function raised in the removal (which it cannot stop) */
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
    lua_pushfstring(L, "moa.View %s (%s, %s, %s, %s)", name, lmoa_push_numstr(L, r.x), lmoa_push_numstr(L, r.y),
                    lmoa_push_numstr(L, r.width), lmoa_push_numstr(L, r.height));
    return 1;
}

/* ======================================================================================================== */
/* moa.LayoutConstraint                                                                                     */
/* ======================================================================================================== */

static LId *check_lcons(lua_State *L, int idx, LLayout **llp) {
    return lmoa_check_child(L, idx, LCONS_MT, llp);
}

/* Ends a constraint setter: with assign, a conflict or a limit raises (an assignment cannot return a
   failure). */
static int lcons_result(lua_State *L, LLayout *ll, moa_status st, int assign, const char *what) {
    if (lmoa_is_failure(st) && !assign) {
        lua_getiuservalue(L, 1, 1);
        return lmoa_layout_failure(L, ll, lua_gettop(L), st);
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, what);
    lmoa_raise_pending(L, ll); /* what a progress function raised in a call it could not stop */
    if (!ll->m) return lmoa_closed_error(L, "layout");
    lua_settop(L, 1);
    return 1;
}

static int lcons_set_constant_(lua_State *L, int assign) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    double k = lmoa_check_finite(L, assign ? 3 : 2, "constant", assign ? "constant" : NULL);
    return lcons_result(L, ll, moa_lcons_set_constant(ll->m, c->id, k), assign, "constant");
}

static int lcons_set_priority_(lua_State *L, int assign) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    int idx = assign ? 3 : 2;
    double p;
    if (lua_isnoneornil(L, idx))
        return lmoa_type_error(L, idx, assign ? "priority" : NULL, "priority (number or name)");
    p = lmoa_check_priority(L, idx, MOA_REQUIRED, 0, assign ? "priority" : NULL);
    return lcons_result(L, ll, moa_lcons_set_priority(ll->m, c->id, p), assign, "priority");
}

static int lcons_set_active_(lua_State *L, int assign) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    int idx = assign ? 3 : 2;
    if (lua_type(L, idx) != LUA_TBOOLEAN) return lmoa_type_error(L, idx, assign ? "active" : NULL, "boolean");
    return lcons_result(L, ll, moa_lcons_set_active(ll->m, c->id, lua_toboolean(L, idx)), assign, "active");
}

static int lcons_set_constant(lua_State *L) { return lcons_set_constant_(L, 0); }
static int lcons_set_priority(lua_State *L) { return lcons_set_priority_(L, 0); }
static int lcons_set_active(lua_State *L) { return lcons_set_active_(L, 0); }

static int lcons_remove(lua_State *L) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    moa_status st = moa_lcons_remove(ll->m, c->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "remove");
    lmoa_raise_pending(L, ll); /* what a progress function raised in the removal (which it cannot stop) */
    return 0;
}

static int lcons_describe(lua_State *L) {
    LLayout *ll;
    LId *c = check_lcons(L, 1, &ll);
    const char *s = NULL;
    moa_status st = moa_lcons_describe(ll->m, c->id, &s);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "describe");
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
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
        if (key[0] == 'p' && x == floor(x)) lua_pushinteger(L, (lua_Integer)x);
        else lua_pushnumber(L, x);
        return 1;
    }
    if (strcmp(key, "active") == 0) {
        int a = 0;
        st = moa_lcons_active(ll->m, c->id, &a);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
        lua_pushboolean(L, a);
        return 1;
    }
    if (strcmp(key, "line") == 0) {
        int line = 0;
        st = moa_lcons_line(ll->m, c->id, &line);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
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

/* ======================================================================================================== */
/* Registration                                                                                             */
/* ======================================================================================================== */

static const luaL_Reg view_meta[] = {
    {"__index", view_index},
    {"__tostring", view_tostring},
    {NULL, NULL},
};

static const luaL_Reg view_methods[] = {
    {"set_margins", view_set_margins},
    {"set_directional_margins", view_set_directional_margins},
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
    {"describe", lcons_describe},
    {NULL, NULL},
};

/* moa.View, moa.LayoutConstraint (its animation methods: lmoa_open_motion). */
void lmoa_open_view(lua_State *L) {
    lmoa_create_meta(L, VIEW_MT, view_meta, view_methods);
    lmoa_create_meta(L, LCONS_MT, lcons_meta, lcons_methods);
}
