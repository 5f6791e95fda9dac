/*
** lmoa_arrange.c -- arrangements (Include/moa.h, "Layout: guides, stacks, chains, barriers and the visual format
** language"): user layout guides (L:layout_guide), moa.Stack (L:stack, L:stack_of), moa.Chain (L:chain),
** moa.Barrier (L:barrier) and the visual format language (L:vfl, L:vfl_options). The constraints they make are the
** library's, kept current by their owner: the binding holds ids only (a stack is named by its view's id, a barrier
** by its guide's id, a chain by an id of its own), one Lua object per id (the layout's user value
** LAYOUT_ARRANGE_UV, a weak map). Stack animations use the completions and animation options of lmoa_motion.c.
** Reference: bindings/lua/README.md.
*/
#include <math.h>
#include <string.h>

#include "lmoa.h"

/* ======================================================================================================== */
/* Names                                                                                                    */
/* ======================================================================================================== */

/* The library has no name functions for these enums: the names are UIKit's and ConstraintLayout's (Swift's case
   names), in the order of the enum values of moa.h, so a name's index is its value. */
static const char *const axis_names[] = {"horizontal", "vertical", NULL};
static const char *const distribution_names[] = {"fill", "fillEqually", "fillProportionally", "equalSpacing",
                                                 "equalCentering", NULL};
static const char *const alignment_names[] = {"fill", "leading", "top", "center", "trailing", "bottom",
                                              "firstBaseline", "lastBaseline", NULL};
static const char *const style_names[] = {"spread", "spreadInside", "packed", NULL};
static const char *const side_names[] = {"left", "right", "top", "bottom", "leading", "trailing", NULL};

_Static_assert(MOA_HORIZONTAL == 0 && MOA_VERTICAL == 1, "axis_names");
_Static_assert(MOA_DISTRIBUTION_FILL == 0 && MOA_DISTRIBUTION_FILL_EQUALLY == 1 &&
                   MOA_DISTRIBUTION_FILL_PROPORTIONALLY == 2 && MOA_DISTRIBUTION_EQUAL_SPACING == 3 &&
                   MOA_DISTRIBUTION_EQUAL_CENTERING == 4,
               "distribution_names");
_Static_assert(MOA_ALIGN_FILL == 0 && MOA_ALIGN_LEADING == 1 && MOA_ALIGN_TOP == 2 && MOA_ALIGN_CENTER == 3 &&
                   MOA_ALIGN_TRAILING == 4 && MOA_ALIGN_BOTTOM == 5 && MOA_ALIGN_FIRST_BASELINE == 6 &&
                   MOA_ALIGN_LAST_BASELINE == 7,
               "alignment_names");
_Static_assert(MOA_CHAIN_SPREAD == 0 && MOA_CHAIN_SPREAD_INSIDE == 1 && MOA_CHAIN_PACKED == 2, "style_names");
_Static_assert(MOA_SIDE_LEFT == 0 && MOA_SIDE_RIGHT == 1 && MOA_SIDE_TOP == 2 && MOA_SIDE_BOTTOM == 3 &&
                   MOA_SIDE_LEADING == 4 && MOA_SIDE_TRAILING == 5,
               "side_names");

/* Pushes "a, b or c" and returns it. */
static const char *push_names(lua_State *L, const char *const names[]) {
    luaL_Buffer b;
    int i;
    luaL_buffinit(L, &b);
    for (i = 0; names[i]; i++) {
        if (i) luaL_addstring(&b, names[i + 1] ? ", " : " or ");
        luaL_addstring(&b, names[i]);
    }
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

/* The name of an enum value, or NULL for a value newer than this binding. */
static const char *enum_name(const char *const names[], int value) {
    int i;
    for (i = 0; names[i]; i++)
        if (i == value) return names[i];
    return NULL;
}

/* Pushes an enum value as its name (its number if newer than this binding). */
static void push_enum(lua_State *L, const char *const names[], int value) {
    const char *name = enum_name(names, value);
    if (name) lua_pushstring(L, name);
    else lua_pushinteger(L, value);
}

/* The name at idx as its index in names (what: "axis", "distribution", ... for messages); dflt when nil or absent,
   which raises when dflt < 0. field != NULL for an option (lmoa_value_error). */
static int check_enum(lua_State *L, int idx, const char *const names[], int dflt, const char *what,
                      const char *field) {
    const char *name;
    int i;
    idx = lua_absindex(L, idx);
    if (lua_isnoneornil(L, idx) && dflt >= 0) return dflt;
    if (lua_type(L, idx) != LUA_TSTRING) /* the type's name first: idx may be above the top */
        return lmoa_value_error(L, idx, field, lua_pushfstring(L, "%s name (string) expected, got %s", what,
                                                               luaL_typename(L, idx))), 0;
    name = lua_tostring(L, idx);
    for (i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0) return i;
    return lmoa_value_error(L, idx, field, lua_pushfstring(L, "unknown %s '%s' (expected %s)", what, name,
                                                           push_names(L, names))), 0;
}

/* Option `name` of the table at idx as an enum (dflt when absent; -1 too, for "not given"). */
static int opt_enum(lua_State *L, int idx, const char *name, const char *const names[], int dflt, const char *what) {
    int v = dflt;
    if (lua_getfield(L, idx, name) != LUA_TNIL) v = check_enum(L, -1, names, 0, what, name);
    lua_pop(L, 1);
    return v;
}

/* Raises for a key of the options table at idx that is not in `fields` (a misspelt option would otherwise be a
   default without a word). */
static void check_fields(lua_State *L, int idx, const char *const fields[]) {
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        const char *key;
        int i;
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) luaL_argerror(L, idx, "option names are strings");
        key = lua_tostring(L, -1);
        for (i = 0; fields[i]; i++)
            if (strcmp(fields[i], key) == 0) break;
        if (!fields[i]) {
            const char *names = push_names(L, fields);
            luaL_argerror(L, idx, lua_pushfstring(L, "unknown option '%s' (expected %s)", key, names));
        }
    }
}

/* An options table at idx (or nil: 0); returns idx, or 0 when absent. */
static int opt_table(lua_State *L, int idx, const char *const fields[]) {
    if (lua_isnoneornil(L, idx)) return 0;
    luaL_checktype(L, idx, LUA_TTABLE);
    check_fields(L, idx, fields);
    return lua_absindex(L, idx);
}

/* ======================================================================================================== */
/* Views and objects                                                                                        */
/* ======================================================================================================== */

/* The View at idx, of layout ll. */
static moa_view check_view_of(lua_State *L, int idx, LLayout *ll, const char *field) {
    LId *v;
    idx = lua_absindex(L, idx);
    v = (LId *)luaL_testudata(L, idx, VIEW_MT);
    if (!v) return lmoa_type_error(L, idx, field, "moa.View"), 0;
    if (lmoa_layout_of(L, idx) != ll) return lmoa_value_error(L, idx, field, "view belongs to another layout"), 0;
    return v->id;
}

/* An optional parent View at idx (0: the root). */
static moa_view opt_parent(lua_State *L, int idx, LLayout *ll, const char *field) {
    if (lua_isnoneornil(L, idx)) return 0;
    return check_view_of(L, idx, ll, field);
}

/* The array of Views at idx (field != NULL for an option): their ids in a userdata buffer pushed on the stack,
   *n of them. With unique, a view given twice raises. */
static moa_view *check_views(lua_State *L, int idx, LLayout *ll, const char *field, int unique, size_t *n) {
    lua_Integer len, i;
    moa_view *ids;
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) return lmoa_type_error(L, idx, field, "array of moa.View"), NULL;
    len = luaL_len(L, idx);
    if (len < 0 || (lua_Unsigned)len > (1u << 24)) return lmoa_value_error(L, idx, field, "too many views"), NULL;
    ids = (moa_view *)lua_newuserdatauv(L, (size_t)(len ? len : 1) * sizeof *ids, 0);
    if (unique) lua_createtable(L, 0, (int)len);
    for (i = 1; i <= len; i++) {
        LId *v;
        lua_geti(L, idx, i);
        v = (LId *)luaL_testudata(L, -1, VIEW_MT);
        if (!v)
            return lmoa_value_error(L, idx, field, lua_pushfstring(L, "item %d is not a moa.View (got %s)", (int)i,
                                                                   luaL_typename(L, -1))), NULL;
        if (lmoa_layout_of(L, lua_gettop(L)) != ll)
            return lmoa_value_error(L, idx, field, lua_pushfstring(L, "item %d belongs to another layout", (int)i)),
                   NULL;
        ids[i - 1] = v->id;
        lua_pop(L, 1);
        if (unique) {
            if (lua_rawgeti(L, -1, (lua_Integer)v->id) != LUA_TNIL)
                return lmoa_value_error(L, idx, field, lua_pushfstring(L, "item %d repeats item %d", (int)i,
                                                                       (int)lua_tointeger(L, -1))),
                       NULL;
            lua_pop(L, 1);
            lua_pushinteger(L, i);
            lua_rawseti(L, -2, (lua_Integer)v->id);
        }
    }
    if (unique) lua_pop(L, 1);
    *n = (size_t)len;
    return ids;
}

/* Pushes the Stack, Chain or Barrier object (metatable mt) of an id, one per id: the weak map of the layout at
   layout_idx (user value LAYOUT_ARRANGE_UV, made the first time). */
static void push_arranged(lua_State *L, int layout_idx, const char *mt, uint64_t id) {
    LId *x;
    layout_idx = lua_absindex(L, layout_idx);
    if (lua_getiuservalue(L, layout_idx, LAYOUT_ARRANGE_UV) != LUA_TTABLE) {
        lua_pop(L, 1);
        lmoa_new_weak_map(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, layout_idx, LAYOUT_ARRANGE_UV);
    }
    if (lua_rawgeti(L, -1, (lua_Integer)id) != LUA_TNIL && luaL_testudata(L, -1, mt)) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    x = (LId *)lmoa_new_child(L, layout_idx, mt, sizeof(LId));
    x->id = id;
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)id);
    lua_remove(L, -2);
}

/* Ends a call on the object at 1 that changes it: a conflict or a limit gives nil, msg, details; another failure
   raises; success returns the object. */
static int object_result(lua_State *L, LLayout *ll, moa_status st, const char *what) {
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

/* The arranged views of a stack as a Lua array of Views; the ids go through a userdata buffer (taken off the
   stack). Returns the status of the first moa_stack_views call: the caller raises, after it returned. */
static moa_status push_stack_views(lua_State *L, LLayout *ll, int layout_idx, moa_view stack) {
    size_t count = 0, cap, i;
    moa_view *ids;
    moa_status st;
    layout_idx = lua_absindex(L, layout_idx);
    st = moa_stack_views(ll->m, stack, NULL, 0, &count);
    if (st != MOA_OK) return st;
    cap = count;
    ids = (moa_view *)lua_newuserdatauv(L, (cap ? cap : 1) * sizeof *ids, 0);
    if (cap == 0 || moa_stack_views(ll->m, stack, ids, cap, &count) != MOA_OK) count = 0;
    if (count > cap) count = cap;
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        lmoa_push_view(L, layout_idx, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    lua_remove(L, -2);
    return MOA_OK;
}

/* ======================================================================================================== */
/* L:layout_guide                                                                                           */
/* ======================================================================================================== */

/* L:layout_guide(name [, parent]) -> View: a user layout guide (L:guide(name) finds it) */
static int layout_layout_guide(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *name = lmoa_check_text(L, 2, "name", NULL);
    moa_view parent = opt_parent(L, 3, ll, NULL), out = 0;
    moa_status st = moa_guide_new(ll->m, name, parent, &out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "layout_guide");
    lmoa_push_view(L, 1, out);
    return 1;
}

/* ======================================================================================================== */
/* moa.Stack                                                                                                */
/* ======================================================================================================== */

static const char *const stack_fields[] = {"axis", "distribution", "alignment", "spacing", "margins_relative", "views",
                                           NULL};

/* A spacing: finite and within +-1e9 (moa.h), checked before anything is made. */
static double check_spacing(lua_State *L, int idx, const char *field) {
    double s = lmoa_check_finite(L, idx, "spacing", field);
    if (fabs(s) > 1e9)
        return lmoa_value_error(L, idx, field, lua_pushfstring(L, "spacing must be within +-1e9, got %s",
                                                               lmoa_push_numstr(L, s))), 0;
    return s;
}

/* After a failed L:stack: removes the stack view (the views were not arranged: moa_stack_insert_views is all or
   nothing), with the limits and the progress function lifted (they would stop the removal). No error can be
   raised. */
static void undo_stack(LLayout *ll, moa_view stack) {
    LLimits saved;
    lmoa_layout_lift_limits(ll, &saved);
    moa_view_free(ll->m, stack);
    lmoa_layout_restore_limits(ll, &saved);
}

/* L:stack(name [, parent] [, {axis=, distribution=, alignment=, spacing=, margins_relative=, views=}]) -> Stack;
   nil, msg, details when a view cannot be arranged (conflict, limit): the stack is not made. Everything is
   checked before the first moa_* call; a failure after the stack was made undoes it (undo_stack). */
static int layout_stack(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *name = lmoa_check_text(L, 2, "name", NULL);
    int oi = 4, axis = 0, dist = -1, align = -1, margins = -1, has_spacing = 0;
    double spacing = 0;
    moa_view parent = 0, out = 0, *views = NULL;
    size_t nviews = 0;
    moa_status st = MOA_OK;
    if (lua_istable(L, 3)) {
        oi = 3;
        if (!lua_isnone(L, 4)) return luaL_argerror(L, 4, "no argument expected after the options");
    } else {
        parent = opt_parent(L, 3, ll, NULL);
    }
    lua_settop(L, 4); /* the buffers go above */
    if (opt_table(L, oi, stack_fields)) {
        axis = opt_enum(L, oi, "axis", axis_names, 0, "axis");
        dist = opt_enum(L, oi, "distribution", distribution_names, -1, "distribution");
        align = opt_enum(L, oi, "alignment", alignment_names, -1, "alignment");
        if (lua_getfield(L, oi, "spacing") != LUA_TNIL) {
            spacing = check_spacing(L, -1, "spacing");
            has_spacing = 1;
        }
        lua_pop(L, 1);
        if (lua_getfield(L, oi, "margins_relative") != LUA_TNIL) margins = lmoa_opt_bool(L, oi, "margins_relative", 0);
        lua_pop(L, 1);
        if (lua_getfield(L, oi, "views") != LUA_TNIL) {
            int t = lua_gettop(L);
            views = check_views(L, t, ll, "views", 1, &nviews); /* the buffer stays on the stack */
        }
    }
    st = moa_stack_new(ll->m, name, parent, (moa_axis)axis, &out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "stack");
    if (st == MOA_OK && dist >= 0) st = moa_stack_set_distribution(ll->m, out, (moa_stack_distribution)dist);
    if (st == MOA_OK && align >= 0) st = moa_stack_set_alignment(ll->m, out, (moa_stack_alignment)align);
    if (st == MOA_OK && has_spacing) st = moa_stack_set_spacing(ll->m, out, spacing);
    if (st == MOA_OK && margins >= 0) st = moa_stack_set_margins_relative(ll->m, out, margins);
    if (st == MOA_OK && nviews > 0) st = moa_stack_insert_views(ll->m, out, views, nviews, -1);
    if (st != MOA_OK) {
        int n = 0;
        if (ll->errref != LUA_NOREF || !ll->m) { /* a progress function raised or closed the layout */
            if (ll->m) undo_stack(ll, out);
            lmoa_raise_pending(L, ll);
            return lmoa_closed_error(L, "layout");
        }
        /* read the failure before undoing clears it */
        if (lmoa_is_failure(st)) n = lmoa_layout_failure(L, ll, 1, st);
        else lua_pushfstring(L, "stack: %s", moa_layout_errmsg(ll->m));
        undo_stack(ll, out);
        lmoa_raise_pending(L, ll); /* what a progress function raised while undoing */
        if (n) return n;
        return lua_error(L);
    }
    push_arranged(L, 1, STACK_MT, out);
    return 1;
}

/* L:stack_of(view) -> the Stack whose view it is, or nil */
static int layout_stack_of(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_view v = check_view_of(L, 2, ll, NULL);
    if (moa_stack_get(ll->m, v, NULL, NULL, NULL, NULL, NULL) != MOA_OK) {
        lua_pushnil(L);
        return 1;
    }
    push_arranged(L, 1, STACK_MT, v);
    return 1;
}

static LId *check_stack(lua_State *L, int idx, LLayout **llp) {
    return lmoa_check_child(L, idx, STACK_MT, llp);
}

/* s:add(v) -> s */
static int stack_add(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    moa_view v = check_view_of(L, 2, ll, NULL);
    return object_result(L, ll, moa_stack_insert(ll->m, s->id, v, -1), "add");
}

/* s:insert(v, i) -> s: i from 1 (first) to the number of the other arranged views + 1 (last) */
static int stack_insert(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    moa_view v = check_view_of(L, 2, ll, NULL), *ids;
    lua_Integer i = luaL_checkinteger(L, 3);
    size_t count = 0, others, k;
    moa_status st = moa_stack_views(ll->m, s->id, NULL, 0, &count);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "insert");
    ids = (moa_view *)lua_newuserdatauv(L, (count ? count : 1) * sizeof *ids, 0);
    if (count && moa_stack_views(ll->m, s->id, ids, count, &count) != MOA_OK) count = 0;
    for (k = 0, others = count; k < count; k++)
        if (ids[k] == v) others--;
    if (i < 1 || (lua_Unsigned)i > (lua_Unsigned)others + 1)
        return luaL_argerror(L, 3, lua_pushfstring(L, "index %I out of range (1 to %I)", i, (lua_Integer)others + 1));
    return object_result(L, ll, moa_stack_insert(ll->m, s->id, v, (ptrdiff_t)(i - 1)), "insert");
}

/* s:remove(v) -> s: v stays a subview of the stack view */
static int stack_remove(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    moa_view v = check_view_of(L, 2, ll, NULL);
    return object_result(L, ll, moa_stack_remove(ll->m, s->id, v), "remove");
}

/* s:views() -> { View, ... } (hidden ones included) */
static int stack_views(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    moa_status st;
    lua_getiuservalue(L, 1, 1);
    st = push_stack_views(L, ll, -1, s->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "views");
    return 1;
}

static int stack_set_axis(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    int a = check_enum(L, 2, axis_names, -1, "axis", NULL);
    return object_result(L, ll, moa_stack_set_axis(ll->m, s->id, (moa_axis)a), "set_axis");
}

static int stack_set_distribution(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    int d = check_enum(L, 2, distribution_names, -1, "distribution", NULL);
    return object_result(L, ll, moa_stack_set_distribution(ll->m, s->id, (moa_stack_distribution)d),
                         "set_distribution");
}

static int stack_set_alignment(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    int a = check_enum(L, 2, alignment_names, -1, "alignment", NULL);
    return object_result(L, ll, moa_stack_set_alignment(ll->m, s->id, (moa_stack_alignment)a), "set_alignment");
}

static int stack_set_spacing(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    double sp = lmoa_check_finite(L, 2, "spacing", NULL);
    return object_result(L, ll, moa_stack_set_spacing(ll->m, s->id, sp), "set_spacing");
}

static int stack_set_margins_relative(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    if (lua_type(L, 2) != LUA_TBOOLEAN) return lmoa_type_error(L, 2, NULL, "boolean");
    return object_result(L, ll, moa_stack_set_margins_relative(ll->m, s->id, lua_toboolean(L, 2)),
                         "set_margins_relative");
}

/* s:set_custom_spacing(after, n | nil) -> s: nil goes back to the stack's spacing (MOA_SPACING_DEFAULT) */
static int stack_set_custom_spacing(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    moa_view after = check_view_of(L, 2, ll, NULL);
    double sp = lua_isnoneornil(L, 3) ? MOA_SPACING_DEFAULT : lmoa_check_finite(L, 3, "spacing", NULL);
    return object_result(L, ll, moa_stack_set_custom_spacing(ll->m, s->id, after, sp), "set_custom_spacing");
}

/* s:get() -> {axis=, distribution=, alignment=, spacing=, margins_relative=} */
static int stack_get(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    int axis = 0, dist = 0, align = 0, margins = 0;
    double sp = 0;
    moa_status st = moa_stack_get(ll->m, s->id, &axis, &dist, &align, &sp, &margins);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "get");
    lua_createtable(L, 0, 5);
    push_enum(L, axis_names, axis);
    lua_setfield(L, -2, "axis");
    push_enum(L, distribution_names, dist);
    lua_setfield(L, -2, "distribution");
    push_enum(L, alignment_names, align);
    lua_setfield(L, -2, "alignment");
    lua_pushnumber(L, sp);
    lua_setfield(L, -2, "spacing");
    lua_pushboolean(L, margins);
    lua_setfield(L, -2, "margins_relative");
    return 1;
}

static const char *const hide_fields[] = {"animated", "duration", "curve", "spring", "done", NULL};

/* s:set_hidden(v, hidden [, opts]) / s:hide(v [, opts]) / s:show(v [, opts]): opts {animated = false, duration =
   0.3, curve = "easeInOut" (or spring = {...}), done = fn} -> Animation, or nil (not animated and no done); nil,
   msg, details on a conflict. No delay: the library takes none. */
static int hidden_call(lua_State *L, int hidden, int oi) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    moa_view v = check_view_of(L, 2, ll, NULL);
    int animated;
    AnimOpts o;
    LCallback *cb;
    moa_animation a = 0;
    moa_status st;
    opt_table(L, oi, hide_fields);
    lua_settop(L, oi);
    animated = lmoa_opt_bool(L, oi, "animated", 0);
    lmoa_check_anim_opts(L, ll, oi, 0.3, MOA_EASE_IN_OUT, &o); /* the curve last: a table makes a curve */
    cb = o.done_idx ? lmoa_make_callback(L, ll, o.done_idx, "done") : NULL;
    /* an animated change solves first: measure functions run in it */
    CALLBACK_CALL(ll, L, moa_stack_set_hidden(ll->m, s->id, v, hidden, animated, o.duration, o.curve,
                                              cb ? lmoa_done_trampoline : NULL, cb, &a));
    if (!ll->m) { /* closed by a measure function */
        if (st != MOA_OK) lmoa_drop_callback(L, cb);
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) {
        lmoa_drop_callback(L, cb);
        if (lmoa_is_failure(st)) {
            lua_getiuservalue(L, 1, 1);
            return lmoa_layout_failure(L, ll, lua_gettop(L), st);
        }
        return lmoa_layout_error(L, ll, st, hidden ? "hide" : "show");
    }
    lmoa_raise_pending(L, ll);
    lua_getiuservalue(L, 1, 1);
    lmoa_push_animation(L, -1, a);
    return 1;
}

static int stack_set_hidden(lua_State *L) {
    if (lua_type(L, 3) != LUA_TBOOLEAN) return lmoa_type_error(L, 3, NULL, "boolean");
    return hidden_call(L, lua_toboolean(L, 3), 4);
}

static int stack_hide(lua_State *L) { return hidden_call(L, 1, 3); }
static int stack_show(lua_State *L) { return hidden_call(L, 0, 3); }

/* s:is_hidden(v) -> boolean (hidden or hiding) */
static int stack_is_hidden(lua_State *L) {
    LLayout *ll;
    LId *s = check_stack(L, 1, &ll);
    moa_view v = check_view_of(L, 2, ll, NULL);
    int h = 0;
    moa_status st = moa_stack_is_hidden(ll->m, s->id, v, &h);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "is_hidden");
    lua_pushboolean(L, h);
    return 1;
}

/* s.view, s.id, s.layout, s.removed */
static int stack_index(lua_State *L) {
    LLayout *ll;
    LId *s;
    const char *key;
    luaL_checkudata(L, 1, STACK_MT);
    key = luaL_checkstring(L, 2);
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    s = check_stack(L, 1, &ll);
    if (strcmp(key, "view") == 0) {
        lua_getiuservalue(L, 1, 1);
        lmoa_push_view(L, -1, s->id);
        return 1;
    }
    if (strcmp(key, "id") == 0) {
        lua_pushinteger(L, (lua_Integer)s->id);
        return 1;
    }
    if (strcmp(key, "layout") == 0) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    if (strcmp(key, "removed") == 0) {
        lua_pushboolean(L, moa_stack_get(ll->m, s->id, NULL, NULL, NULL, NULL, NULL) == MOA_NOTFOUND);
        return 1;
    }
    return luaL_error(L, "moa.Stack has no field '%s'", key);
}

static int stack_tostring(lua_State *L) {
    LId *s = (LId *)luaL_checkudata(L, 1, STACK_MT);
    LLayout *ll;
    const char *name = NULL, *axis_name, *dist_name;
    int axis = 0, dist = 0;
    size_t count = 0;
    lua_getiuservalue(L, 1, 1);
    ll = (LLayout *)luaL_testudata(L, -1, LAYOUT_MT);
    if (!ll || !ll->m) {
        lua_pushliteral(L, "moa.Stack (closed layout)");
        return 1;
    }
    if (moa_stack_get(ll->m, s->id, &axis, &dist, NULL, NULL, NULL) != MOA_OK ||
        moa_stack_views(ll->m, s->id, NULL, 0, &count) != MOA_OK || moa_view_name(ll->m, s->id, &name) != MOA_OK) {
        lua_pushliteral(L, "moa.Stack (removed)");
        return 1;
    }
    axis_name = enum_name(axis_names, axis);
    dist_name = enum_name(distribution_names, dist);
    lua_pushfstring(L, "moa.Stack %s (%s, %s, %d views)", name, axis_name ? axis_name : "?",
                    dist_name ? dist_name : "?", (int)count);
    return 1;
}

/* ======================================================================================================== */
/* moa.Chain                                                                                                */
/* ======================================================================================================== */

static const char *const chain_fields[] = {"axis", "style", "gap", "bias", "weights", NULL};

/* A chain's weight at idx: nil, false or 0 for none (MOA_NO_WEIGHT), else a finite number > 0. */
static double check_chain_weight(lua_State *L, int idx, const char *field) {
    double w;
    if (lua_isnoneornil(L, idx) || (lua_isboolean(L, idx) && !lua_toboolean(L, idx))) return MOA_NO_WEIGHT;
    w = lmoa_check_finite(L, idx, "weight", field);
    if (w < 0)
        return lmoa_value_error(L, idx, field, lua_pushfstring(L, "weight must be 0 (none) or more, got %s",
                                                               lmoa_push_numstr(L, w))), 0;
    return w;
}

/* L:chain(views [, {axis=, style=, gap=, bias=, weights=}]) -> Chain; nil, msg, details on a conflict */
static int layout_chain(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    size_t n = 0, i;
    moa_view *views;
    int oi, axis = 0, style = 0;
    double gap = 0, bias = 0.5, *weights = NULL;
    moa_chain out = 0;
    moa_status st;
    lua_settop(L, 3); /* the buffers go above */
    views = check_views(L, 2, ll, NULL, 0, &n);
    oi = opt_table(L, 3, chain_fields);
    if (n == 0) return luaL_argerror(L, 2, "at least one view expected");
    if (oi) {
        axis = opt_enum(L, oi, "axis", axis_names, 0, "axis");
        style = opt_enum(L, oi, "style", style_names, 0, "style");
        gap = lmoa_opt_number(L, oi, "gap", 0);
        bias = lmoa_opt_number(L, oi, "bias", 0.5);
        if (lua_getfield(L, oi, "weights") != LUA_TNIL) {
            int wi = lua_gettop(L);
            if (!lua_istable(L, wi)) return lmoa_type_error(L, wi, "weights", "array of numbers");
            weights = (double *)lua_newuserdatauv(L, n * sizeof *weights, 0);
            for (i = 0; i < n; i++) {
                lua_geti(L, wi, (lua_Integer)(i + 1));
                weights[i] = check_chain_weight(L, lua_gettop(L), "weights");
                lua_pop(L, 1);
            }
            if (luaL_len(L, wi) > (lua_Integer)n)
                return lmoa_value_error(L, wi, "weights", "more weights than views");
        }
    }
    st = moa_chain_new(ll->m, views, n, (moa_axis)axis, (moa_chain_style)style, gap, bias, weights, &out);
    if (lmoa_is_failure(st)) return lmoa_layout_failure(L, ll, 1, st);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "chain");
    push_arranged(L, 1, CHAIN_MT, out);
    return 1;
}

static LId *check_chain(lua_State *L, int idx, LLayout **llp) {
    return lmoa_check_child(L, idx, CHAIN_MT, llp);
}

static int chain_set_style(lua_State *L) {
    LLayout *ll;
    LId *c = check_chain(L, 1, &ll);
    int style = check_enum(L, 2, style_names, -1, "style", NULL);
    return object_result(L, ll, moa_chain_set_style(ll->m, c->id, (moa_chain_style)style), "set_style");
}

static int chain_set_bias(lua_State *L) {
    LLayout *ll;
    LId *c = check_chain(L, 1, &ll);
    double bias = lmoa_check_finite(L, 2, "bias", NULL);
    return object_result(L, ll, moa_chain_set_bias(ll->m, c->id, bias), "set_bias");
}

static int chain_set_gap(lua_State *L) {
    LLayout *ll;
    LId *c = check_chain(L, 1, &ll);
    double gap = lmoa_check_finite(L, 2, "gap", NULL);
    return object_result(L, ll, moa_chain_set_gap(ll->m, c->id, gap), "set_gap");
}

/* c:set_weight(v, w | nil) -> c: nil, false or 0 takes v's weight away */
static int chain_set_weight(lua_State *L) {
    LLayout *ll;
    LId *c = check_chain(L, 1, &ll);
    moa_view v = check_view_of(L, 2, ll, NULL);
    double w = check_chain_weight(L, 3, NULL);
    return object_result(L, ll, moa_chain_set_weight(ll->m, c->id, v, w), "set_weight");
}

/* c:free(): the chain's constraints and spacers go; the views stay */
static int chain_free(lua_State *L) {
    LLayout *ll;
    LId *c = check_chain(L, 1, &ll);
    moa_status st = moa_chain_free(ll->m, c->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "free");
    return 0;
}

static int chain_index(lua_State *L) {
    LId *c;
    LLayout *ll;
    const char *key;
    luaL_checkudata(L, 1, CHAIN_MT);
    key = luaL_checkstring(L, 2);
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    c = check_chain(L, 1, &ll);
    if (strcmp(key, "id") == 0) {
        lua_pushinteger(L, (lua_Integer)c->id);
        return 1;
    }
    if (strcmp(key, "layout") == 0) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    return luaL_error(L, "moa.Chain has no field '%s'", key);
}

static int chain_tostring(lua_State *L) {
    LId *c = (LId *)luaL_checkudata(L, 1, CHAIN_MT);
    lua_pushfstring(L, "moa.Chain %d", (int)(c->id & 0xffffffffu));
    return 1;
}

/* ======================================================================================================== */
/* moa.Barrier                                                                                              */
/* ======================================================================================================== */

static const char *const barrier_fields[] = {"margin", "parent", NULL};

/* L:barrier(name, side, views [, {margin=, parent=}]) -> Barrier; nil, msg, details on a conflict */
static int layout_barrier(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *name = lmoa_check_text(L, 2, "name", NULL);
    int side = check_enum(L, 3, side_names, -1, "side", NULL), oi;
    size_t n = 0;
    moa_view *views, parent = 0, out = 0;
    double margin = 0;
    moa_status st;
    lua_settop(L, 5); /* the buffer goes above */
    views = check_views(L, 4, ll, NULL, 0, &n);
    if ((oi = opt_table(L, 5, barrier_fields)) != 0) {
        margin = lmoa_opt_number(L, oi, "margin", 0);
        lua_getfield(L, oi, "parent");
        parent = opt_parent(L, -1, ll, "parent");
        lua_pop(L, 1);
    }
    st = moa_barrier_new(ll->m, name, parent, (moa_barrier_side)side, views, n, margin, &out);
    if (lmoa_is_failure(st)) return lmoa_layout_failure(L, ll, 1, st);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "barrier");
    push_arranged(L, 1, BARRIER_MT, out);
    return 1;
}

static LId *check_barrier(lua_State *L, int idx, LLayout **llp) {
    return lmoa_check_child(L, idx, BARRIER_MT, llp);
}

/* b:set_views({View, ...}) -> b */
static int barrier_set_views(lua_State *L) {
    LLayout *ll;
    LId *b = check_barrier(L, 1, &ll);
    size_t n = 0;
    moa_view *views;
    lua_settop(L, 2);
    views = check_views(L, 2, ll, NULL, 0, &n);
    return object_result(L, ll, moa_barrier_set_views(ll->m, b->id, n ? views : NULL, n), "set_views");
}

/* b:set_margin(n) -> b */
static int barrier_set_margin(lua_State *L) {
    LLayout *ll;
    LId *b = check_barrier(L, 1, &ll);
    double m = lmoa_check_finite(L, 2, "margin", NULL);
    return object_result(L, ll, moa_barrier_set_margin(ll->m, b->id, m), "set_margin");
}

/* b.guide, b.id, b.layout */
static int barrier_index(lua_State *L) {
    LId *b;
    LLayout *ll;
    const char *key;
    luaL_checkudata(L, 1, BARRIER_MT);
    key = luaL_checkstring(L, 2);
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    b = check_barrier(L, 1, &ll);
    if (strcmp(key, "guide") == 0) {
        lua_getiuservalue(L, 1, 1);
        lmoa_push_view(L, -1, b->id);
        return 1;
    }
    if (strcmp(key, "id") == 0) {
        lua_pushinteger(L, (lua_Integer)b->id);
        return 1;
    }
    if (strcmp(key, "layout") == 0) {
        lua_getiuservalue(L, 1, 1);
        return 1;
    }
    return luaL_error(L, "moa.Barrier has no field '%s'", key);
}

static int barrier_tostring(lua_State *L) {
    LId *b = (LId *)luaL_checkudata(L, 1, BARRIER_MT);
    LLayout *ll;
    const char *name = NULL;
    lua_getiuservalue(L, 1, 1);
    ll = (LLayout *)luaL_testudata(L, -1, LAYOUT_MT);
    if (!ll || !ll->m) lua_pushliteral(L, "moa.Barrier (closed layout)");
    else if (moa_view_name(ll->m, b->id, &name) != MOA_OK || !name) lua_pushliteral(L, "moa.Barrier (removed)");
    else lua_pushfstring(L, "moa.Barrier %s", name);
    return 1;
}

/* ======================================================================================================== */
/* The visual format language: L:vfl, L:vfl_options                                                        */
/* ======================================================================================================== */

static const char *const vfl_fields[] = {"metrics", "options", NULL};

/* vfl: a MOA_INVALID located in the format (a line; the caret under the offending part in the message: views in
   different superviews, an alignment on the format's own axis) is a failure of the text like a parse error: nil,
   message, details, not a raise. The binding checks the options and metrics before the call, so no other
   INVALID is expected. Call right after the failing call. */
static int is_text_invalid(LLayout *ll, moa_status st) {
    moa_error_info info;
    if (st != MOA_INVALID || moa_layout_error_info(ll->m, &info) != MOA_OK) return 0;
    return info.line >= 1 && info.offset >= 0;
}

/* L:vfl_options(words) -> the MOA_VFL_* bits of option names ("alignAllTop alignAllBottom") */
static int layout_vfl_options(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *words = lmoa_check_text(L, 2, "options", NULL);
    unsigned out = 0;
    moa_status st = moa_layout_vfl_options(ll->m, words, &out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "vfl_options");
    lua_pushinteger(L, (lua_Integer)out);
    return 1;
}

/* The alignment bits of the MOA_VFL_* options. */
#define VFL_ALIGN_BITS                                                                                          \
    (MOA_VFL_ALIGN_ALL_LEFT | MOA_VFL_ALIGN_ALL_RIGHT | MOA_VFL_ALIGN_ALL_TOP | MOA_VFL_ALIGN_ALL_BOTTOM |      \
     MOA_VFL_ALIGN_ALL_LEADING | MOA_VFL_ALIGN_ALL_TRAILING | MOA_VFL_ALIGN_ALL_CENTER_X |                       \
     MOA_VFL_ALIGN_ALL_CENTER_Y | MOA_VFL_ALIGN_ALL_LAST_BASELINE | MOA_VFL_ALIGN_ALL_FIRST_BASELINE)

/* An upper bound on the number of constraints of a format (the grammar of moa.h): a size per predicate of a view
   and a gap per predicate of a connection (predicates are counted by their `(` and `,`), a gap per connection
   without predicates (one before each view or `|` at most), and one per alignment option for each view. If the
   library ever made more, layout_vfl asks again with room for all (re-issuing a format returns the same
   constraints). */
static size_t vfl_cap(const char *format, unsigned options) {
    size_t parens = 0, commas = 0, items = 0, views = 0, aligns = 0;
    unsigned bits = options & VFL_ALIGN_BITS;
    const char *p;
    for (p = format; *p; p++) {
        if (*p == '(') parens++;
        else if (*p == ',') commas++;
        else if (*p == '|') items++;
        else if (*p == '[') views++, items++;
    }
    for (; bits; bits &= bits - 1) aligns++;
    return parens + commas + items + views * aligns + 1;
}

/* L:vfl(format [, {metrics = {name = number, ...}, options = "alignAllTop ..." | bits}]) -> { LayoutConstraint,
   ... } (all or nothing, in the order of the text: sizes, gaps, alignments), or nil, msg, details for a parse
   error (an unknown view or metric too) or a conflict */
static int layout_vfl(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    size_t nm = 0, cap, count = 0, i;
    const char *format = lmoa_check_text(L, 2, "format", NULL);
    const char **names = NULL;
    double *values = NULL;
    moa_lcons *ids;
    unsigned options = 0;
    const char *words = NULL;
    moa_status st;
    int oi;
    oi = opt_table(L, 3, vfl_fields);
    lua_settop(L, 3);
    if (oi) {
        lua_getfield(L, 3, "metrics"); /* 4 */
        if (!lua_isnil(L, 4)) {
            if (!lua_istable(L, 4)) return lmoa_type_error(L, 4, "metrics", "table of numbers by name");
            lua_pushnil(L);
            while (lua_next(L, 4) != 0) {
                lua_pop(L, 1);
                nm++;
            }
            names = (const char **)lua_newuserdatauv(L, (nm ? nm : 1) * sizeof *names, 0);   /* 5 */
            values = (double *)lua_newuserdatauv(L, (nm ? nm : 1) * sizeof *values, 0);       /* 6 */
            i = 0;
            lua_pushnil(L);
            while (i < nm && lua_next(L, 4) != 0) { /* the same keys as the count: the table is not changed */
                size_t klen;
                if (lua_type(L, -2) != LUA_TSTRING)
                    return lmoa_value_error(L, 4, "metrics", lua_pushfstring(L, "metric names are strings, got %s",
                                                                             luaL_typename(L, -2)));
                names[i] = lua_tolstring(L, -2, &klen); /* the key stays in the table: the pointer stays valid */
                if (strlen(names[i]) != klen)
                    return lmoa_value_error(L, 4, "metrics", "a metric name contains a NUL byte");
                if (lua_type(L, -1) != LUA_TNUMBER)
                    return lmoa_value_error(L, 4, "metrics", lua_pushfstring(L, "metric '%s' is %s (a number expected)",
                                                                             names[i], luaL_typename(L, -1)));
                values[i] = lua_tonumber(L, -1);
                if (!isfinite(values[i]))
                    return lmoa_value_error(L, 4, "metrics", lua_pushfstring(L, "metric '%s' must be finite, got %s",
                                                                             names[i], lmoa_push_numstr(L, values[i])));
                lua_pop(L, 1);
                i++;
            }
            nm = i;
        }
        lua_settop(L, 6);
        lua_getfield(L, 3, "options"); /* 7 */
        if (lua_type(L, 7) == LUA_TSTRING) {
            words = lua_tostring(L, 7);
        } else if (lua_type(L, 7) == LUA_TNUMBER) {
            int isint = 0;
            lua_Integer bits = lua_tointegerx(L, 7, &isint);
            if (!isint || bits < 0 || bits > 0xffffffffLL)
                return lmoa_value_error(L, 7, "options", "option bits must be a whole number from 0 to 2^32-1");
            options = (unsigned)bits;
        } else if (!lua_isnil(L, 7)) {
            return lmoa_type_error(L, 7, "options", "string of option names or number");
        }
    }
    if (words) {
        st = moa_layout_vfl_options(ll->m, words, &options);
        if (st != MOA_OK) return luaL_error(L, "bad value for 'options' (%s)", moa_layout_errmsg(ll->m));
    }
    cap = vfl_cap(format, options);
    ids = (moa_lcons *)lua_newuserdatauv(L, cap * sizeof *ids, 0);
    st = moa_layout_vfl(ll->m, format, names, values, nm, options, ids, cap, &count);
    if (st == MOA_PARSE || lmoa_is_failure(st) || is_text_invalid(ll, st))
        return lmoa_layout_failure(L, ll, 1, st);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "vfl");
    if (count > cap) { /* not expected (vfl_cap): the same format again lists the same constraints */
        cap = count;
        ids = (moa_lcons *)lua_newuserdatauv(L, cap * sizeof *ids, 0);
        st = moa_layout_vfl(ll->m, format, names, values, nm, options, ids, cap, &count);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "vfl");
        if (count > cap) count = cap;
    }
    lua_createtable(L, (int)count, 0);
    for (i = 0; i < count; i++) {
        lmoa_push_lcons(L, 1, ids[i]);
        lua_rawseti(L, -2, (lua_Integer)(i + 1));
    }
    return 1;
}

/* ======================================================================================================== */
/* Registration                                                                                             */
/* ======================================================================================================== */

static const luaL_Reg layout_methods[] = {
    {"layout_guide", layout_layout_guide},
    {"stack", layout_stack},
    {"stack_of", layout_stack_of},
    {"chain", layout_chain},
    {"barrier", layout_barrier},
    {"vfl", layout_vfl},
    {"vfl_options", layout_vfl_options},
    {NULL, NULL},
};

static const luaL_Reg stack_meta[] = {
    {"__index", stack_index},
    {"__tostring", stack_tostring},
    {NULL, NULL},
};

static const luaL_Reg stack_methods[] = {
    {"add", stack_add},
    {"insert", stack_insert},
    {"remove", stack_remove},
    {"views", stack_views},
    {"set_axis", stack_set_axis},
    {"set_distribution", stack_set_distribution},
    {"set_alignment", stack_set_alignment},
    {"set_spacing", stack_set_spacing},
    {"set_margins_relative", stack_set_margins_relative},
    {"set_custom_spacing", stack_set_custom_spacing},
    {"get", stack_get},
    {"set_hidden", stack_set_hidden},
    {"hide", stack_hide},
    {"show", stack_show},
    {"is_hidden", stack_is_hidden},
    {NULL, NULL},
};

static const luaL_Reg chain_meta[] = {
    {"__index", chain_index},
    {"__tostring", chain_tostring},
    {NULL, NULL},
};

static const luaL_Reg chain_methods[] = {
    {"set_style", chain_set_style},
    {"set_bias", chain_set_bias},
    {"set_gap", chain_set_gap},
    {"set_weight", chain_set_weight},
    {"free", chain_free},
    {NULL, NULL},
};

static const luaL_Reg barrier_meta[] = {
    {"__index", barrier_index},
    {"__tostring", barrier_tostring},
    {NULL, NULL},
};

static const luaL_Reg barrier_methods[] = {
    {"set_views", barrier_set_views},
    {"set_margin", barrier_set_margin},
    {NULL, NULL},
};

/* moa.Stack, moa.Chain, moa.Barrier; the arrangement methods of moa.Layout (lmoa_layout.c). */
void lmoa_open_arrange(lua_State *L) {
    lmoa_extend_meta(L, LAYOUT_MT, NULL, layout_methods);
    lmoa_create_meta(L, STACK_MT, stack_meta, stack_methods);
    lmoa_create_meta(L, CHAIN_MT, chain_meta, chain_methods);
    lmoa_create_meta(L, BARRIER_MT, barrier_meta, barrier_methods);
}
