/*
** lmoa_motion.c -- what moves a layout: completions and their callbacks (run under lua_pcall), animation options
** and curves (the curve names are the library's: moa_curve_name), the clock (L:advance, L:seek), root-size and
** constraint animations, the keyboard, traces; moa.Animation, moa.Collapsible, moa.Pan; moa.curve. The completions
** and animation options (lmoa_make_callback, lmoa_done_trampoline, lmoa_check_anim_opts, ...) are shared with the
** stacks of lmoa_arrange.c. Reference: bindings/lua/README.md.
*/
#include <stdlib.h>
#include <string.h>

#include "lmoa.h"

/* ======================================================================================================== */
/* Userdata layouts                                                                                         */
/* ======================================================================================================== */

/* moa.Pan: an id and whether it is enabled (the C API has no getter for that; the options are read back with
   moa_pan_options). User value 1: the layout. */
typedef struct LPan {
    uint64_t id;
    int enabled;
} LPan;

/* The `ud` of a completion: the layout and the registry ref of the Lua function (lmoa.h: LCallback). */
struct LCallback {
    LLayout *ll;
    int ref;
};

/* ======================================================================================================== */
/* Callbacks                                                                                                */
/* ======================================================================================================== */

/* Calls the function of cb (popped from the registry) with the nargs values on top of the thread's stack,
   under lua_pcall; the first error is kept for lmoa_raise_pending(). Never raises. */
static void run_callback(LLayout *ll, lua_State *L, int ref, int nargs) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    lua_insert(L, -(nargs + 1));
    if (lua_pcall(L, nargs, 0, 0) != LUA_OK) {
        if (ll->errref == LUA_NOREF && !ll->finalizing) ll->errref = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_pop(L, 1);
    }
}

void lmoa_done_trampoline(moa_layout *m, moa_animation a, int finished, void *ud) {
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

/* A completion at idx (a function or nil): a malloc'ed LCallback holding a registry ref, or NULL. Free it
   with lmoa_drop_callback() when the moa_* call fails (the C side then never calls it). */
LCallback *lmoa_make_callback(lua_State *L, LLayout *ll, int idx, const char *field) {
    LCallback *cb;
    if (lua_isnoneornil(L, idx)) return NULL;
    if (lua_type(L, idx) != LUA_TFUNCTION) return lmoa_type_error(L, idx, field, "function"), NULL;
    cb = (LCallback *)malloc(sizeof *cb);
    if (!cb) return luaL_error(L, "not enough memory"), NULL;
    cb->ll = ll;
    lua_pushvalue(L, idx);
    cb->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return cb;
}

void lmoa_drop_callback(lua_State *L, LCallback *cb) {
    if (!cb) return;
    luaL_unref(L, LUA_REGISTRYINDEX, cb->ref);
    free(cb);
}

/* ======================================================================================================== */
/* Animation options                                                                                        */
/* ======================================================================================================== */

/* The curve names are the library's (moa_curve_name for 0, 1, ... until NULL): the binding keeps no copy. */

/* The predefined curve called name, or -1. */
static moa_curve curve_by_name(const char *name) {
    const char *n;
    moa_curve c;
    for (c = 0; (n = moa_curve_name(c)) != NULL; c++)
        if (strcmp(n, name) == 0) return c;
    return -1;
}

/* Pushes the library's curve names as "linear, easeIn, ..." and returns the string. */
static const char *push_curve_names(lua_State *L) {
    luaL_Buffer b;
    const char *n;
    moa_curve c;
    luaL_buffinit(L, &b);
    for (c = 0; (n = moa_curve_name(c)) != NULL; c++) {
        if (c) luaL_addstring(&b, ", ");
        luaL_addstring(&b, n);
    }
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

/* Pushes a curve as its name, or as its number when it has none (a custom curve). */
static void push_curve(lua_State *L, moa_curve c) {
    const char *n = moa_curve_name(c);
    if (n) lua_pushstring(L, n);
    else lua_pushinteger(L, c);
}

/* A curve from the value at idx: a name, a curve number (moa.curve.*, or a custom curve as p.options gives it),
   or a table {damping=, response=, velocity=} (a spring) or {x1, y1, x2, y2} (a cubic Bézier). dflt when nil.
   Everything is checked before a table makes a curve (moa_layout_spring_curve / moa_layout_bezier_curve), so a
   bad value makes none; callers read the curve after their other options for the same reason. */
static moa_curve check_curve(lua_State *L, LLayout *ll, int idx, moa_curve dflt, const char *field) {
    int t = lua_type(L, idx), i;
    moa_curve c = dflt;
    moa_status st;
    idx = lua_absindex(L, idx);
    if (t == LUA_TNONE || t == LUA_TNIL) return dflt;
    if (t == LUA_TSTRING) {
        const char *name = lua_tostring(L, idx);
        const char *names;
        c = curve_by_name(name);
        if (c >= 0) return c;
        names = push_curve_names(L);
        return lmoa_value_error(L, idx, field,
                                lua_pushfstring(L, "unknown curve '%s' (expected %s, a Bezier {x1, y1, x2, y2} or "
                                                   "a spring {damping=, response=, velocity=})", name, names)), 0;
    }
    if (t == LUA_TNUMBER) { /* checked by the library: an unknown curve gives INVALID */
        int isint = 0;
        lua_Integer n = lua_tointegerx(L, idx, &isint);
        if (!isint) return lmoa_value_error(L, idx, field, "a curve number must be a whole number"), 0;
        if (n < 0 || n > 0x7fffffff)
            return lmoa_value_error(L, idx, field, lua_pushfstring(L, "unknown curve %I", n)), 0;
        return (moa_curve)n;
    }
    if (t != LUA_TTABLE) return lmoa_type_error(L, idx, field, "curve (name, number or table)"), 0;
    if (lua_rawgeti(L, idx, 1) != LUA_TNIL) { /* {x1, y1, x2, y2} */
        double p[4];
        lua_pop(L, 1);
        for (i = 0; i < 4; i++) {
            lua_rawgeti(L, idx, i + 1);
            p[i] = lmoa_check_finite(L, -1, "control point", field ? field : "curve");
            lua_pop(L, 1);
        }
        st = moa_layout_bezier_curve(ll->m, p[0], p[1], p[2], p[3], &c);
    } else {
        double damping, response, velocity;
        int hasv;
        lua_pop(L, 1);
        damping = lmoa_opt_number(L, idx, "damping", 1);
        response = lmoa_opt_number(L, idx, "response", 0.5);
        lua_getfield(L, idx, "velocity");
        hasv = !lua_isnil(L, -1);
        lua_pop(L, 1);
        velocity = lmoa_opt_number(L, idx, "velocity", 0);
        st = moa_layout_spring_curve(ll->m, damping, response, hasv ? &velocity : NULL, &c);
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, field ? field : "curve"), 0;
    return c;
}

/* Animation options at idx (a table or nil): duration, curve (or spring = {...}), delay, done (AnimOpts: lmoa.h). */
void lmoa_check_anim_opts(lua_State *L, LLayout *ll, int idx, double dflt_duration, moa_curve dflt_curve,
                            AnimOpts *o) {
    o->duration = dflt_duration;
    o->delay = 0;
    o->curve = dflt_curve;
    o->done_idx = 0;
    if (lua_isnoneornil(L, idx)) return;
    idx = lua_absindex(L, idx);
    luaL_checktype(L, idx, LUA_TTABLE);
    o->duration = lmoa_opt_number(L, idx, "duration", dflt_duration);
    o->delay = lmoa_opt_number(L, idx, "delay", 0);
    lua_getfield(L, idx, "done"); /* stays on the stack while the call runs */
    if (!lua_isnil(L, -1)) {
        if (!lua_isfunction(L, -1)) lmoa_type_error(L, lua_gettop(L), "done", "function");
        o->done_idx = lua_gettop(L);
    } else {
        lua_pop(L, 1);
    }
    /* the curve last: a table makes a curve, which no later bad option should leave behind */
    if (lua_getfield(L, idx, "spring") != LUA_TNIL) {
        if (!lua_istable(L, -1)) lmoa_type_error(L, lua_gettop(L), "spring", "table");
        o->curve = check_curve(L, ll, -1, dflt_curve, "spring");
        lua_pop(L, 1);
    } else {
        lua_pop(L, 1);
        lua_getfield(L, idx, "curve");
        o->curve = check_curve(L, ll, -1, dflt_curve, "curve");
        lua_pop(L, 1);
    }
}

/* ======================================================================================================== */
/* The clock; root-size animations                                                                          */
/* ======================================================================================================== */

/* L:advance(dt [, views]) / L:seek(t [, views]) -> { View whose frame changed, ... }, or their number when views
   is false (nothing if a callback closed the layout) */
static int clock_call(lua_State *L, int seek) {
    LLayout *ll = lmoa_check_layout(L, 1);
    double x = lmoa_check_finite(L, 2, seek ? "time" : "dt", NULL);
    int views = lmoa_opt_views(L, 3);
    moa_status st;
    if (seek) CALLBACK_CALL(ll, L, moa_layout_seek(ll->m, x));
    else CALLBACK_CALL(ll, L, moa_layout_advance(ll->m, x));
    if (!ll->m) {
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, seek ? "seek" : "advance");
    lmoa_raise_pending(L, ll);
    lmoa_push_changed(L, ll, 1, views);
    return 1;
}

static int layout_advance(lua_State *L) { return clock_call(L, 0); }
static int layout_seek(lua_State *L) { return clock_call(L, 1); }

static int layout_cancel_animations(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_status st = moa_layout_cancel_animations(ll->m);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "cancel_animations");
    return 0;
}

/* Pushes an Animation object for id (or nil for 0). */
void lmoa_push_animation(lua_State *L, int layout_idx, moa_animation id) {
    if (!id) {
        lua_pushnil(L);
        return;
    }
    ((LId *)lmoa_new_child(L, layout_idx, ANIM_MT, sizeof(LId)))->id = id;
}

/* L:animate_root_size(w, h [, opts]) -> Animation */
static int layout_animate_root_size(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    double w = lmoa_check_finite(L, 2, "width", NULL), h = lmoa_check_finite(L, 3, "height", NULL);
    AnimOpts o;
    LCallback *cb;
    moa_animation a = 0;
    moa_status st;
    lmoa_check_anim_opts(L, ll, 4, 0.3, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? lmoa_make_callback(L, ll, o.done_idx, "done") : NULL;
    st = moa_layout_animate_root_size(ll->m, w, h, o.duration, o.curve, o.delay, cb ? lmoa_done_trampoline : NULL, cb,
                                      &a);
    if (st != MOA_OK) {
        lmoa_drop_callback(L, cb);
        return lmoa_layout_error(L, ll, st, "animate_root_size");
    }
    lmoa_push_animation(L, 1, a);
    return 1;
}

/* ======================================================================================================== */
/* The keyboard                                                                                             */
/* ======================================================================================================== */

/* L:show_keyboard(height [, duration [, opts]]) / L:hide_keyboard([duration [, opts]]) -> Animation */
static int keyboard_call(lua_State *L, int show) {
    LLayout *ll = lmoa_check_layout(L, 1);
    int a0 = show ? 3 : 2;
    double h = show ? lmoa_check_finite(L, 2, "height", NULL) : 0;
    double duration = lua_isnoneornil(L, a0) ? 0.25 : lmoa_check_finite(L, a0, "duration", NULL);
    AnimOpts o;
    LCallback *cb;
    moa_animation a = 0;
    moa_status st;
    lmoa_check_anim_opts(L, ll, a0 + 1, duration, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? lmoa_make_callback(L, ll, o.done_idx, "done") : NULL;
    if (show)
        st = moa_layout_show_keyboard(ll->m, h, o.duration, o.curve, cb ? lmoa_done_trampoline : NULL, cb, &a);
    else
        st = moa_layout_hide_keyboard(ll->m, o.duration, o.curve, cb ? lmoa_done_trampoline : NULL, cb, &a);
    if (st != MOA_OK) {
        lmoa_drop_callback(L, cb);
        return lmoa_layout_error(L, ll, st, show ? "show_keyboard" : "hide_keyboard");
    }
    lmoa_push_animation(L, 1, a);
    return 1;
}

static int layout_show_keyboard(lua_State *L) { return keyboard_call(L, 1); }
static int layout_hide_keyboard(lua_State *L) { return keyboard_call(L, 0); }

/* ======================================================================================================== */
/* Traces                                                                                                   */
/* ======================================================================================================== */

static int layout_trace_start(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    int guides = lua_istable(L, 2) ? lmoa_opt_bool(L, 2, "guides", 0) : lua_toboolean(L, 2);
    moa_status st;
    CALLBACK_CALL(ll, L, moa_layout_trace_start(ll->m, guides)); /* solves first if needed */
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "trace_start");
    return 0;
}

static int layout_trace_stop(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_status st = moa_layout_trace_stop(ll->m);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "trace_stop");
    return 0;
}

static int trace_text(lua_State *L, int kind) {
    LLayout *ll = lmoa_check_layout(L, 1);
    const char *s = NULL;
    moa_status st;
    if (kind == 0) st = moa_layout_trace_csv(ll->m, &s);
    else if (kind == 1) st = moa_layout_trace_json(ll->m, &s);
    else {
        lua_Integer n = luaL_optinteger(L, 2, 0);
        int flags = lmoa_svg_flags(L, 3, 0);
        if (n < 0) return luaL_argerror(L, 2, "frame count must be 0 or more");
        st = moa_layout_trace_svg_strip(ll->m, (size_t)n, flags, &s);
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "trace");
    lua_pushstring(L, s);
    return 1;
}

static int layout_trace_csv(lua_State *L) { return trace_text(L, 0); }
static int layout_trace_json(lua_State *L) { return trace_text(L, 1); }
static int layout_trace_svg_strip(lua_State *L) { return trace_text(L, 2); }

/* ======================================================================================================== */
/* moa.LayoutConstraint: animations                                                                         */
/* ======================================================================================================== */

/* c:animate(to [, opts]) / c:animate_priority(to [, opts]) -> Animation */
static int lcons_animate_(lua_State *L, int priority) {
    LLayout *ll;
    LId *c = lmoa_check_child(L, 1, LCONS_MT, &ll);
    double to = priority ? lmoa_check_priority(L, 2, MOA_REQUIRED, 0, NULL) : lmoa_check_finite(L, 2, "target", NULL);
    AnimOpts o;
    LCallback *cb;
    moa_animation a = 0;
    moa_status st;
    if (lua_isnoneornil(L, 2)) return lmoa_type_error(L, 2, NULL, "number");
    lmoa_check_anim_opts(L, ll, 3, 0.3, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? lmoa_make_callback(L, ll, o.done_idx, "done") : NULL;
    if (priority)
        st = moa_lcons_animate_priority(ll->m, c->id, to, o.duration, o.curve, o.delay,
                                        cb ? lmoa_done_trampoline : NULL, cb, &a);
    else
        st = moa_lcons_animate(ll->m, c->id, to, o.duration, o.curve, o.delay, cb ? lmoa_done_trampoline : NULL, cb,
                               &a);
    if (st != MOA_OK) {
        lmoa_drop_callback(L, cb);
        return lmoa_layout_error(L, ll, st, "animate");
    }
    lua_getiuservalue(L, 1, 1);
    lmoa_push_animation(L, -1, a);
    return 1;
}

static int lcons_animate(lua_State *L) { return lcons_animate_(L, 0); }
static int lcons_animate_priority(lua_State *L) { return lcons_animate_(L, 1); }

static int lcons_stop_animating(lua_State *L) {
    LLayout *ll;
    LId *c = lmoa_check_child(L, 1, LCONS_MT, &ll);
    moa_status st = moa_lcons_stop_animating(ll->m, c->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "stop_animating");
    lua_settop(L, 1);
    return 1;
}

/* ======================================================================================================== */
/* moa.Animation                                                                                            */
/* ======================================================================================================== */

static int anim_cancel(lua_State *L) {
    LLayout *ll;
    LId *a = lmoa_check_child(L, 1, ANIM_MT, &ll);
    moa_status st = moa_animation_cancel(ll->m, a->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "cancel");
    return 0;
}

static int anim_tostring(lua_State *L) {
    LId *a = (LId *)luaL_checkudata(L, 1, ANIM_MT);
    lua_pushfstring(L, "moa.Animation %d", (int)(a->id & 0xffffffffu));
    return 1;
}

/* ======================================================================================================== */
/* moa.Collapsible                                                                                          */
/* ======================================================================================================== */

/* L:collapsible(view, constraint, direction) -> Collapsible */
static int layout_collapsible(lua_State *L) {
    static const char *const dirs[] = {"left", "right", "up", "down", NULL};
    LLayout *ll = lmoa_check_layout(L, 1), *vl, *cl;
    LId *v = lmoa_check_child(L, 2, VIEW_MT, &vl);
    LId *c = lmoa_check_child(L, 3, LCONS_MT, &cl);
    int dir = luaL_checkoption(L, 4, NULL, dirs);
    moa_collapsible out = 0;
    moa_status st;
    if (vl != ll) return luaL_argerror(L, 2, "view belongs to another layout");
    if (cl != ll) return luaL_argerror(L, 3, "constraint belongs to another layout");
    st = moa_collapsible_new(ll->m, v->id, c->id, (moa_collapse_direction)dir, &out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "collapsible");
    ((LId *)lmoa_new_child(L, 1, COLL_MT, sizeof(LId)))->id = out;
    return 1;
}

/* col:collapse(opts) / col:show(opts) / col:toggle(opts): opts {animated=true, duration=0.3, curve=easeInOut,
   done=fn} -> Animation or nil (not animated); nil, msg, details on a conflict (not animated). */
static int coll_call(lua_State *L, int what) {
    LLayout *ll;
    LId *col = lmoa_check_child(L, 1, COLL_MT, &ll);
    AnimOpts o;
    LCallback *cb;
    int animated;
    moa_animation a = 0;
    moa_status st;
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
    animated = lmoa_opt_bool(L, 2, "animated", 1);
    lmoa_check_anim_opts(L, ll, 2, 0.3, MOA_EASE_IN_OUT, &o);
    cb = o.done_idx ? lmoa_make_callback(L, ll, o.done_idx, "done") : NULL;
    /* solves first if needed (the collapsed constant uses the view's size): measure functions run in it */
    if (what == 2)
        CALLBACK_CALL(ll, L, moa_collapsible_toggle(ll->m, col->id, animated, o.duration, o.curve,
                                                    cb ? lmoa_done_trampoline : NULL, cb, &a));
    else
        CALLBACK_CALL(ll, L, moa_collapsible_set(ll->m, col->id, what == 0, animated, o.duration, o.curve,
                                                 cb ? lmoa_done_trampoline : NULL, cb, &a));
    if (!ll->m) { /* closed by a measure function: an unanimated change called its completion (if any) */
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
        return lmoa_layout_error(L, ll, st, "collapsible");
    }
    lua_getiuservalue(L, 1, 1);
    lmoa_push_animation(L, -1, a);
    return 1;
}

static int coll_collapse(lua_State *L) { return coll_call(L, 0); }
static int coll_show(lua_State *L) { return coll_call(L, 1); }
static int coll_toggle(lua_State *L) { return coll_call(L, 2); }

static int coll_free(lua_State *L) {
    LLayout *ll;
    LId *col = lmoa_check_child(L, 1, COLL_MT, &ll);
    moa_status st = moa_collapsible_free(ll->m, col->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "free");
    return 0;
}

static int coll_index(lua_State *L) {
    LLayout *ll;
    LId *col;
    const char *key = luaL_checkstring(L, 2);
    luaL_checkudata(L, 1, COLL_MT); /* the metamethod can be called with anything */
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    col = lmoa_check_child(L, 1, COLL_MT, &ll);
    if (strcmp(key, "collapsed") == 0) {
        int c = 0;
        moa_status st = moa_collapsible_is_collapsed(ll->m, col->id, &c);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
        lua_pushboolean(L, c);
        return 1;
    }
    return luaL_error(L, "moa.Collapsible has no field '%s'", key);
}

/* ======================================================================================================== */
/* moa.Pan                                                                                                  */
/* ======================================================================================================== */

/* L:pan({constraints...}, axis, {rest positions}) -> Pan */
static int layout_pan(lua_State *L) {
    static const char *const axes[] = {"horizontal", "vertical", NULL};
    LLayout *ll = lmoa_check_layout(L, 1);
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
        cl = lmoa_layout_of(L, lua_gettop(L));
        if (cl != ll) return luaL_argerror(L, 2, "constraint belongs to another layout");
        cons[i - 1] = c->id;
        lua_pop(L, 1);
    }
    for (i = 1; i <= nrest; i++) {
        lua_geti(L, 4, i);
        rest[i - 1] = lmoa_check_finite(L, -1, "rest position", "rest position");
        lua_pop(L, 1);
    }
    st = moa_pan_new(ll->m, cons, (size_t)n, (moa_axis)axis, nrest ? rest : NULL, (size_t)nrest, &out);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "pan");
    p = (LPan *)lmoa_new_child(L, 1, PAN_MT, sizeof(LPan));
    p->id = out;
    p->enabled = 1;
    return 1;
}

static LPan *check_pan(lua_State *L, int idx, LLayout **llp) {
    LPan *p = (LPan *)luaL_checkudata(L, idx, PAN_MT);
    *llp = lmoa_layout_of(L, idx);
    return p;
}

/* p:began() -> accepted */
static int pan_began(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    int acc = 0;
    moa_status st = moa_pan_began(ll->m, p->id, &acc);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "began");
    lua_pushboolean(L, acc);
    return 1;
}

/* p:changed(translation, velocity) -> accepted; nil, msg, details on a conflict */
static int pan_changed(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    double tr = lmoa_check_finite(L, 2, "translation", NULL),
           vel = lua_isnoneornil(L, 3) ? 0 : lmoa_check_finite(L, 3, "velocity", NULL);
    int acc = 0;
    moa_status st = moa_pan_changed(ll->m, p->id, tr, vel, &acc);
    if (lmoa_is_failure(st)) {
        lua_getiuservalue(L, 1, 1);
        return lmoa_layout_failure(L, ll, lua_gettop(L), st);
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "changed");
    lua_pushboolean(L, acc);
    return 1;
}

/* p:ended(velocity [, fn(rest, finished)]) / p:cancelled([fn]) -> rest position, or false when ignored */
static int pan_end_(lua_State *L, int cancelled) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    double vel = cancelled ? 0 : (lua_isnoneornil(L, 2) ? 0 : lmoa_check_finite(L, 2, "velocity", NULL));
    LCallback *cb = lmoa_make_callback(L, ll, cancelled ? 2 : 3, NULL);
    double target = 0;
    int acc = 0;
    moa_status st;
    if (cancelled)
        st = moa_pan_cancelled(ll->m, p->id, cb ? rest_trampoline : NULL, cb, &target, &acc);
    else
        st = moa_pan_ended(ll->m, p->id, vel, cb ? rest_trampoline : NULL, cb, &target, &acc);
    if (st != MOA_OK || !acc) lmoa_drop_callback(L, cb); /* ignored: never called */
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, cancelled ? "cancelled" : "ended");
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
    double off = lmoa_check_finite(L, 2, "offset", NULL);
    int animated = lua_toboolean(L, 3);
    LCallback *cb = lmoa_make_callback(L, ll, 4, NULL);
    moa_status st = moa_pan_move(ll->m, p->id, off, animated, cb ? rest_trampoline : NULL, cb);
    if (st != MOA_OK) {
        lmoa_drop_callback(L, cb);
        if (lmoa_is_failure(st)) {
            lua_getiuservalue(L, 1, 1);
            return lmoa_layout_failure(L, ll, lua_gettop(L), st);
        }
        return lmoa_layout_error(L, ll, st, "move");
    }
    lua_settop(L, 1);
    return 1;
}

static const char *const orientation_names[] = {"portrait", "landscape", "any", NULL};
static const int orientation_values[] = {MOA_PORTRAIT, MOA_LANDSCAPE, MOA_ANY_ORIENTATION};

/* Option `name` of the table at idx as a finite number, stored in *x when given; returns whether it was. */
static int pan_opt_number(lua_State *L, int idx, const char *name, double *x) {
    int given = lua_getfield(L, idx, name) != LUA_TNIL;
    if (given) *x = lmoa_check_finite(L, -1, name, name);
    lua_pop(L, 1);
    return given;
}

/* p:set_options{fast_velocity=, fast_step=, drag_limit= (number or "auto"), snap_duration=, snap_curve=,
   orientations= "portrait" | "landscape" | "any"} -> p. The options not named keep their values: they are read
   from the library (moa_pan_options), the named ones changed, and all passed back (moa_pan_set_options). The
   orientations and the numbers are checked before any moa_* call, the curve after the read-back and before
   anything changes; all change, or none. */
static int pan_set_options(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    double fv = 0, fs = 0, dl = 0, sd = 0, old[4] = {0, 0, 0, 0};
    moa_curve sc = 0, old_sc = 0;
    int has_fv, has_fs, has_dl = 0, has_sd, has_sc, orient = 0;
    moa_status st;
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_getfield(L, 2, "orientations") != LUA_TNIL) {
        int i;
        const char *name;
        if (lua_type(L, -1) != LUA_TSTRING) return lmoa_type_error(L, 3, "orientations", "string");
        name = lua_tostring(L, -1);
        for (i = 0; orientation_names[i]; i++)
            if (strcmp(orientation_names[i], name) == 0) break;
        if (!orientation_names[i])
            return lmoa_value_error(L, 3, "orientations",
                                    lua_pushfstring(L, "unknown orientations '%s' (expected portrait, landscape or "
                                                       "any)", name));
        orient = orientation_values[i];
    }
    lua_pop(L, 1);
    has_fv = pan_opt_number(L, 2, "fast_velocity", &fv);
    has_fs = pan_opt_number(L, 2, "fast_step", &fs);
    if (lua_getfield(L, 2, "drag_limit") != LUA_TNIL) {
        has_dl = 1;
        if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "auto") == 0) {
            dl = MOA_AUTO;
        } else {
            dl = lmoa_check_finite(L, -1, "drag_limit", "drag_limit");
            if (dl < 0) /* MOA_AUTO is -1: a negative limit is refused rather than taken for "auto" */
                return lmoa_value_error(L, 3, "drag_limit",
                                        lua_pushfstring(L, "drag limit must be 0 or more or \"auto\", got %s",
                                                        lmoa_push_numstr(L, dl)));
        }
    }
    lua_pop(L, 1);
    has_sd = pan_opt_number(L, 2, "snap_duration", &sd);
    has_sc = lua_getfield(L, 2, "snap_curve") != LUA_TNIL;
    lua_pop(L, 1);
    if (has_fv || has_fs || has_dl || has_sd || has_sc) {
        st = moa_pan_options(ll->m, p->id, &old[0], &old[1], &old[2], &old[3], &old_sc);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_options");
        if (!has_fv) fv = old[0];
        if (!has_fs) fs = old[1];
        if (!has_dl) dl = old[2];
        if (!has_sd) sd = old[3];
        lua_getfield(L, 2, "snap_curve"); /* last: a table makes a curve */
        sc = check_curve(L, ll, -1, old_sc, "snap_curve");
        lua_pop(L, 1);
        st = moa_pan_set_options(ll->m, p->id, fv, fs, dl, sd, sc);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_options");
    }
    if (orient) {
        st = moa_pan_set_orientations(ll->m, p->id, orient);
        if (st != MOA_OK) {
            /* cannot happen (the value was checked, p was found): put the options back, so that none change */
            if (has_fv || has_fs || has_dl || has_sd || has_sc)
                moa_pan_set_options(ll->m, p->id, old[0], old[1], old[2], old[3], old_sc);
            return lmoa_layout_error(L, ll, st, "set_options");
        }
    }
    lua_settop(L, 1);
    return 1;
}

/* p.options -> {fast_velocity=, fast_step=, drag_limit= (number or "auto"), snap_duration=, snap_curve= (a name,
   or the number of a custom curve)}: as the library has them (its defaults until set). */
static int pan_push_options(lua_State *L, LLayout *ll, LPan *p) {
    double fv = 0, fs = 0, dl = 0, sd = 0;
    moa_curve sc = 0;
    moa_status st = moa_pan_options(ll->m, p->id, &fv, &fs, &dl, &sd, &sc);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "options");
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, fv);
    lua_setfield(L, -2, "fast_velocity");
    lua_pushnumber(L, fs);
    lua_setfield(L, -2, "fast_step");
    if (dl == MOA_AUTO) lua_pushliteral(L, "auto");
    else lua_pushnumber(L, dl);
    lua_setfield(L, -2, "drag_limit");
    lua_pushnumber(L, sd);
    lua_setfield(L, -2, "snap_duration");
    push_curve(L, sc);
    lua_setfield(L, -2, "snap_curve");
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
        rest[i - 1] = lmoa_check_finite(L, -1, "rest position", "rest position");
        lua_pop(L, 1);
    }
    st = moa_pan_set_rest_positions(ll->m, p->id, rest, (size_t)n);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_rest_positions");
    lua_settop(L, 1);
    return 1;
}

static int pan_set_enabled_(lua_State *L, int assign) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    int idx = assign ? 3 : 2;
    moa_status st;
    if (lua_type(L, idx) != LUA_TBOOLEAN) return lmoa_type_error(L, idx, assign ? "enabled" : NULL, "boolean");
    st = moa_pan_set_enabled(ll->m, p->id, lua_toboolean(L, idx));
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "enabled");
    p->enabled = lua_toboolean(L, idx);
    lua_settop(L, 1);
    return 1;
}

static int pan_set_enabled(lua_State *L) { return pan_set_enabled_(L, 0); }

static int pan_free(lua_State *L) {
    LLayout *ll;
    LPan *p = check_pan(L, 1, &ll);
    moa_status st = moa_pan_free(ll->m, p->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "free");
    return 0;
}

static int pan_index(lua_State *L) {
    LLayout *ll;
    LPan *p;
    const char *key = luaL_checkstring(L, 2);
    moa_status st;
    double x = 0;
    luaL_checkudata(L, 1, PAN_MT); /* the metamethod can be called with anything */
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    p = check_pan(L, 1, &ll);
    if (strcmp(key, "enabled") == 0) {
        lua_pushboolean(L, p->enabled);
        return 1;
    }
    if (strcmp(key, "options") == 0) return pan_push_options(L, ll, p);
    if (strcmp(key, "offset") == 0 || strcmp(key, "rest_position") == 0) {
        st = key[0] == 'o' ? moa_pan_offset(ll->m, p->id, &x) : moa_pan_rest_position(ll->m, p->id, &x);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, key);
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

/* ======================================================================================================== */
/* Registration                                                                                             */
/* ======================================================================================================== */

/* The motion methods of moa.Layout and moa.LayoutConstraint (lmoa_layout.c, lmoa_view.c). */
static const luaL_Reg layout_methods[] = {
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

static const luaL_Reg lcons_methods[] = {
    {"animate", lcons_animate},
    {"animate_priority", lcons_animate_priority},
    {"stop_animating", lcons_stop_animating},
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

/* moa.Animation, moa.Collapsible, moa.Pan; the motion methods of moa.Layout and moa.LayoutConstraint; moa.curve
   (the predefined curves by name, from moa_curve_name) into the module table on top. */
void lmoa_open_motion(lua_State *L) {
    const char *name;
    moa_curve c;
    lua_newtable(L);
    for (c = 0; (name = moa_curve_name(c)) != NULL; c++) {
        lua_pushinteger(L, c);
        lua_setfield(L, -2, name);
    }
    lua_setfield(L, -2, "curve");
    lmoa_extend_meta(L, LAYOUT_MT, NULL, layout_methods);
    lmoa_extend_meta(L, LCONS_MT, NULL, lcons_methods);
    lmoa_create_meta(L, ANIM_MT, anim_meta, anim_methods);
    lmoa_create_meta(L, COLL_MT, coll_meta, coll_methods);
    lmoa_create_meta(L, PAN_MT, pan_meta, pan_methods);
}
