/*
** lmoa_content.c -- content that sizes itself (Include/moa.h, "Layout: content that sizes itself"): measure
** functions (v:set_measure, v:invalidate; run under lua_pcall), text (v:set_text, v:text_lines), fitting sizes
** (L:fitting_size), measure statistics (L:measure_stats); moa.MAX_MEASURE_ROUNDS, moa.has_font. Built with
** LMOA_WITH_FONT (and linked with libmoafont), also moa.font, moa.Font and L:set_font: text measured in a real
** font by bindings/font/moafont.h. Reference: bindings/lua/README.md.
**
** Where things are kept. The layout's content table (user value LAYOUT_CONTENT_UV of the layout) holds, by view
** id, the Lua function of each measured view, and under "font" the Font the layout measures text with. Nothing of
** it is in the registry, so a measure function that refers to its layout (the usual closure) does not keep the
** layout alive. The C callback gets the LLayout as its `ud` and finds the layout object through a weak-valued
** registry table, lightuserdata(LLayout) -> layout (MEASURE_LAYOUTS), then the function by the view id it is
** given.
*/
#include <math.h>
#include <string.h>

#include "lmoa.h"

#ifdef LMOA_WITH_FONT
#include "moafont.h"
#endif

/* The registry key of the weak table lightuserdata(LLayout) -> layout object (values weak). */
static const char MEASURE_LAYOUTS = 0;

/* ======================================================================================================== */
/* The content table                                                                                        */
/* ======================================================================================================== */

/* Pushes the content table of the layout at layout_idx, creating it (and entering the layout in
   MEASURE_LAYOUTS) the first time. */
static void push_content(lua_State *L, int layout_idx) {
    layout_idx = lua_absindex(L, layout_idx);
    if (lua_getiuservalue(L, layout_idx, LAYOUT_CONTENT_UV) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &MEASURE_LAYOUTS);
    lua_pushvalue(L, layout_idx);
    lua_rawsetp(L, -2, lua_touserdata(L, layout_idx));
    lua_pop(L, 1);
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, layout_idx, LAYOUT_CONTENT_UV);
}

/* ======================================================================================================== */
/* moa.Font (LMOA_WITH_FONT)                                                                                */
/* ======================================================================================================== */

#ifdef LMOA_WITH_FONT

/* moa.Font: a moafont, and the number of layouts measuring with it. Closing it (f:close(), __close, __gc) while a
   layout uses it only marks it closed: the moafont is freed when the last layout lets it go (L:set_font, the
   layout closed or collected), so the library never calls moafont_advance on a freed font. No user value. */
typedef struct LFont {
    moafont *f;  /* NULL once freed */
    int users;   /* layouts whose font this is */
    int closed;
} LFont;

static void font_free_if_unused(LFont *lf) {
    if (lf->closed && lf->users == 0 && lf->f) {
        moafont_close(lf->f);
        lf->f = NULL;
    }
}

/* A layout lets the font go. */
static void font_unuse(LFont *lf) {
    if (lf->users > 0) lf->users--;
    font_free_if_unused(lf);
}

static LFont *check_font(lua_State *L, int idx) {
    LFont *lf = (LFont *)luaL_checkudata(L, idx, FONT_MT);
    if (lf->closed || !lf->f) luaL_error(L, "attempt to use a closed font");
    return lf;
}

/* moa.font([path]) -> Font, or nil, message (a file that cannot be opened or read as a font; no default font) */
static int l_font(lua_State *L) {
    const char *path = lmoa_opt_text(L, 1, "path");
    char err[512];
    LFont *lf;
    if (!path) path = moafont_default_path();
    if (!path) {
        lua_pushnil(L);
        lua_pushliteral(L, "moa.font: no default font installed (DejaVu Sans, Liberation Sans, Noto Sans, FreeSans)");
        return 2;
    }
    lf = (LFont *)lua_newuserdatauv(L, sizeof *lf, 0); /* first: a memory error then leaks no font */
    lf->f = NULL;
    lf->users = 0;
    lf->closed = 0;
    luaL_setmetatable(L, FONT_MT);
    err[0] = '\0';
    lf->f = moafont_open(path, err, sizeof err);
    if (!lf->f) {
        lf->closed = 1;
        lua_pushnil(L);
        lua_pushstring(L, err[0] ? err : "moa.font: cannot open the font");
        return 2;
    }
    return 1;
}

/* f:advance(text, size) -> points: the advance width of one line of UTF-8 text at size points */
static int font_advance(lua_State *L) {
    LFont *lf = check_font(L, 1);
    size_t len;
    const char *s = luaL_checklstring(L, 2, &len);
    double size = lmoa_check_finite(L, 3, "size", NULL), w;
    if (size < 0) return luaL_argerror(L, 3, "size must be 0 or more");
    w = moafont_advance(s, len, size, lf->f);
    if (isnan(w)) return luaL_argerror(L, 2, "text is not valid UTF-8 (or too long to shape)");
    lua_pushnumber(L, w);
    return 1;
}

/* f:metrics() -> ascent, descent, line_gap (fractions of the font size) */
static int font_metrics(lua_State *L) {
    LFont *lf = check_font(L, 1);
    double a = 0, d = 0, g = 0;
    moafont_metrics(lf->f, &a, &d, &g);
    lua_pushnumber(L, a);
    lua_pushnumber(L, d);
    lua_pushnumber(L, g);
    return 3;
}

/* f:close(), __close, __gc: idempotent */
static int font_close(lua_State *L) {
    LFont *lf = (LFont *)luaL_checkudata(L, 1, FONT_MT);
    lf->closed = 1;
    font_free_if_unused(lf);
    return 0;
}

static int font_index(lua_State *L) {
    LFont *lf = (LFont *)luaL_checkudata(L, 1, FONT_MT);
    const char *key = luaL_checkstring(L, 2);
    lua_getmetatable(L, 1);
    lua_getfield(L, -1, "methods");
    if (lua_getfield(L, -1, key) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    if (strcmp(key, "closed") == 0) {
        lua_pushboolean(L, lf->closed);
        return 1;
    }
    if (strcmp(key, "family") == 0) {
        lua_pushstring(L, moafont_family(check_font(L, 1)->f));
        return 1;
    }
    return luaL_error(L, "moa.Font has no field '%s'", key);
}

static int font_tostring(lua_State *L) {
    LFont *lf = (LFont *)luaL_checkudata(L, 1, FONT_MT);
    if (lf->closed || !lf->f) lua_pushfstring(L, "moa.Font (closed): %p", (void *)lf);
    else lua_pushfstring(L, "moa.Font %s: %p", moafont_family(lf->f), (void *)lf);
    return 1;
}

/* L:set_font(font | nil) -> L: measure the layout's text with the font (its family named in pictures), or with
   the built-in measurer again. The layout keeps the font (content table) while it is set. */
static int layout_set_font(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    LFont *lf = lua_isnoneornil(L, 2) ? NULL : check_font(L, 2), *old;
    moa_status st;
    lua_settop(L, 2);
    push_content(L, 1);          /* 3 */
    lua_getfield(L, 3, "font");  /* 4: the font in use, or nil */
    old = (LFont *)luaL_testudata(L, 4, FONT_MT);
    if (lf) {
        double ascent = 0, descent = 0;
        lua_pushvalue(L, 2);
        lua_setfield(L, 3, "font"); /* before the call (it may raise a memory error); put back if the call fails */
        moafont_metrics(lf->f, &ascent, &descent, NULL);
        /* the library takes [0, 10]: a font with a negative descent (all above the baseline) is taken as 0 */
        ascent = ascent < 0 ? 0 : ascent > 10 ? 10 : ascent;
        descent = descent < 0 ? 0 : descent > 10 ? 10 : descent;
        st = moa_layout_set_font(ll->m, moafont_family(lf->f), moafont_advance, lf->f, ascent, descent);
        if (st != MOA_OK) {
            lua_pushvalue(L, 4);
            lua_setfield(L, 3, "font"); /* the key is there: no allocation */
            return lmoa_layout_error(L, ll, st, "set_font");
        }
        lf->users++;
    } else {
        st = moa_layout_set_font(ll->m, NULL, NULL, NULL, 0, 0);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_font");
        lua_pushnil(L);
        lua_setfield(L, 3, "font");
    }
    if (old) font_unuse(old); /* after users++: setting the same font again keeps it */
    lua_settop(L, 1);
    return 1;
}

#endif /* LMOA_WITH_FONT */

/* Lets go of what the content table of the closed layout at layout_idx holds (its measure functions, its font):
   called when the C layout is freed, not while the library may still measure (layout_close, layout_gc). */
void lmoa_release_content(lua_State *L, int layout_idx) {
    layout_idx = lua_absindex(L, layout_idx);
    if (lua_getiuservalue(L, layout_idx, LAYOUT_CONTENT_UV) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
#ifdef LMOA_WITH_FONT
    lua_getfield(L, -1, "font");
    {
        LFont *lf = (LFont *)luaL_testudata(L, -1, FONT_MT);
        if (lf) font_unuse(lf);
    }
    lua_pop(L, 1);
#endif
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setiuservalue(L, layout_idx, LAYOUT_CONTENT_UV);
}

/* After views were removed: drops the measure functions of the views that are gone (v:remove() removes the
   subviews too). */
void lmoa_prune_content(lua_State *L, LLayout *ll, int layout_idx) {
    layout_idx = lua_absindex(L, layout_idx);
    if (lua_getiuservalue(L, layout_idx, LAYOUT_CONTENT_UV) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        const char *name = NULL;
        lua_pop(L, 1); /* the value */
        if (lua_type(L, -1) == LUA_TNUMBER &&
            moa_view_name(ll->m, (moa_view)lua_tointeger(L, -1), &name) == MOA_NOTFOUND) {
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, -4); /* clearing a field during the traversal is allowed */
        }
    }
    lua_pop(L, 1);
}

/* ======================================================================================================== */
/* Measure functions                                                                                        */
/* ======================================================================================================== */

/* One call of a measure callback, handed to measure_protected as a light userdata. */
typedef struct MeasureCall {
    LLayout *ll;
    moa_view view;
    double width, height;
    moa_measure_mode width_mode, height_mode;
    moa_measured_size *out;
} MeasureCall;

static void push_mode(lua_State *L, moa_measure_mode mode) {
    static const char *const names[] = {"undefined", "exactly", "at_most"};
    if ((int)mode >= 0 && (int)mode <= 2) lua_pushstring(L, names[mode]);
    else lua_pushinteger(L, (lua_Integer)mode); /* a mode newer than this binding */
}

/* The measure function's result at idx: a number, or (optional) nil for none. */
static double result_number(lua_State *L, int idx, const char *what, int optional) {
    int t = lua_type(L, idx);
    if (optional && t == LUA_TNIL) return NAN;
    if (t != LUA_TNUMBER)
        return luaL_error(L, "the measure function returned %s for the %s (a number%s expected)", luaL_typename(L, idx),
                          what, optional ? " or nil" : ""), 0;
    return lua_tonumber(L, idx);
}

/* Under lua_pcall (measure_trampoline): finds the view's function, calls it, checks and stores its answer. Every
   Lua error of a measure call, memory errors included, is raised here, inside the pcall. */
static int measure_protected(lua_State *L) {
    MeasureCall *mc = (MeasureCall *)lua_touserdata(L, 1);
    lua_settop(L, 0);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &MEASURE_LAYOUTS);
    if (lua_rawgetp(L, 1, mc->ll) != LUA_TUSERDATA) /* only while the layout is being collected */
        return luaL_error(L, "the layout is being collected: its measure functions are gone");
    if (lua_getiuservalue(L, 2, LAYOUT_CONTENT_UV) != LUA_TTABLE ||
        lua_rawgeti(L, 3, (lua_Integer)mc->view) != LUA_TFUNCTION)
        return luaL_error(L, "the view has no measure function");
    lua_replace(L, 1);
    lua_settop(L, 1);
    lua_pushnumber(L, mc->width); /* INFINITY (math.huge) when undefined */
    push_mode(L, mc->width_mode);
    lua_pushnumber(L, mc->height);
    push_mode(L, mc->height_mode);
    lua_call(L, 4, 4); /* inside the pcall: no C frame of the library between here and it */
    mc->out->width = result_number(L, 1, "width", 0);
    mc->out->height = result_number(L, 2, "height", 0);
    mc->out->baseline = result_number(L, 3, "baseline", 1);
    mc->out->first_baseline = result_number(L, 4, "first baseline", 1);
    return 0;
}

/* Under lua_pcall: the error value on top as text (luaL_tolstring: __tostring, "(error object is a table
   value)", ...). */
static int error_text(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

/* The moa_measure_fn of every measure function: runs it on the thread of the binding call that is solving
   (ll->cur), under lua_pcall, and never lets a Lua error cross the library. A Lua error or a bad answer becomes
   the message of the failing call (moa_measure_error) and MOA_ERROR, which fails the solve with MOA_CALLBACK; the
   binding call then raises it (lmoa_layout_error). */
static moa_status measure_trampoline(moa_layout *m, moa_view view, double width, moa_measure_mode width_mode,
                                     double height, moa_measure_mode height_mode, moa_measured_size *out, void *ud) {
    LLayout *ll = (LLayout *)ud;
    lua_State *L = ll->cur ? ll->cur : ll->main;
    MeasureCall mc;
    int top, rc;
    if (!L || !lua_checkstack(L, LUA_MINSTACK)) {
        moa_measure_error(m, "no room on the Lua stack to call the measure function");
        return MOA_NOMEM;
    }
    mc.ll = ll;
    mc.view = view;
    mc.width = width;
    mc.height = height;
    mc.width_mode = width_mode;
    mc.height_mode = height_mode;
    mc.out = out;
    top = lua_gettop(L);
    ll->measuring++;
    lua_pushcfunction(L, measure_protected);
    lua_pushlightuserdata(L, &mc);
    rc = lua_pcall(L, 1, 0, 0);
    ll->measuring--;
    if (rc == LUA_OK) {
        lua_settop(L, top);
        return MOA_OK;
    }
    lua_pushcfunction(L, error_text);
    lua_insert(L, -2);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) moa_measure_error(m, lua_tostring(L, -1));
    else moa_measure_error(m, "the measure function failed (and its error could not be turned into text)");
    lua_settop(L, top);
    return MOA_ERROR;
}

/* v:set_measure(fn | nil) -> v: fn(width, width_mode, height, height_mode) -> width, height [, baseline [,
   first_baseline]]; nil takes it away. Kept in the layout's content table while set. */
static int view_set_measure(lua_State *L) {
    LLayout *ll;
    LId *v = lmoa_check_child(L, 1, VIEW_MT, &ll);
    int set = !lua_isnoneornil(L, 2);
    moa_status st;
    if (set && lua_type(L, 2) != LUA_TFUNCTION) return lmoa_type_error(L, 2, NULL, "function or nil");
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);                /* 3: the layout */
    push_content(L, 3);                        /* 4: its content table */
    lua_rawgeti(L, 4, (lua_Integer)v->id);     /* 5: the function it had */
    if (set) {
        /* in the table before the call (which may raise a memory error); put back if the call fails */
        lua_pushvalue(L, 2);
        lua_rawseti(L, 4, (lua_Integer)v->id);
        st = moa_view_set_measure(ll->m, v->id, measure_trampoline, ll);
        if (st != MOA_OK) {
            lua_pushvalue(L, 5);
            lua_rawseti(L, 4, (lua_Integer)v->id); /* the key is there: no allocation */
            return lmoa_layout_error(L, ll, st, "set_measure");
        }
    } else {
        st = moa_view_set_measure(ll->m, v->id, NULL, NULL);
        if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_measure");
        lua_pushnil(L);
        lua_rawseti(L, 4, (lua_Integer)v->id);
    }
    lua_settop(L, 1);
    return 1;
}

/* v:invalidate() -> v */
static int view_invalidate(lua_State *L) {
    LLayout *ll;
    LId *v = lmoa_check_child(L, 1, VIEW_MT, &ll);
    moa_status st = moa_view_invalidate(ll->m, v->id);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "invalidate");
    lua_settop(L, 1);
    return 1;
}

/* ======================================================================================================== */
/* Text                                                                                                     */
/* ======================================================================================================== */

static const char *const style_fields[] = {"size", "line_height", "max_lines", "reference_width", "min_size",
                                           "max_size", NULL};

/* The style table at idx as a moa_text_style (an absent field: 0, the library's default). Unknown fields raise
   (a misspelt field would otherwise be a default without a word). */
static void check_style(lua_State *L, int idx, moa_text_style *s) {
    memset(s, 0, sizeof *s);
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        int i;
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) luaL_argerror(L, idx, "text style fields are names");
        for (i = 0; style_fields[i]; i++)
            if (strcmp(style_fields[i], lua_tostring(L, -1)) == 0) break;
        if (!style_fields[i])
            luaL_argerror(L, idx, lua_pushfstring(L, "unknown text style field '%s' (expected size, line_height, "
                                                     "max_lines, reference_width, min_size, max_size)",
                                                  lua_tostring(L, -1)));
    }
    s->font_size = lmoa_opt_number(L, idx, "size", 0);
    s->line_height = lmoa_opt_number(L, idx, "line_height", 0);
    s->reference_width = lmoa_opt_number(L, idx, "reference_width", 0);
    s->min_font_size = lmoa_opt_number(L, idx, "min_size", 0);
    s->max_font_size = lmoa_opt_number(L, idx, "max_size", 0);
    if (lua_getfield(L, idx, "max_lines") != LUA_TNIL) {
        int isint = 0;
        lua_Integer n = lua_tointegerx(L, -1, &isint);
        if (!isint || n < 0 || n > 0x7fffffff)
            lmoa_value_error(L, lua_gettop(L), "max_lines", "a whole number from 0 (no limit) to 2^31-1 expected");
        s->max_lines = (int)n;
    }
    lua_pop(L, 1);
}

/* v:set_text(text | nil [, style]) -> v */
static int view_set_text(lua_State *L) {
    LLayout *ll;
    LId *v = lmoa_check_child(L, 1, VIEW_MT, &ll);
    const char *text = NULL;
    moa_text_style style;
    int has_style = !lua_isnoneornil(L, 3);
    moa_status st;
    if (!lua_isnil(L, 2)) text = lmoa_check_text(L, 2, "text", NULL);
    if (has_style) {
        luaL_checktype(L, 3, LUA_TTABLE);
        check_style(L, 3, &style);
    }
    lua_settop(L, 3);
    st = moa_view_set_text(ll->m, v->id, text, has_style ? &style : NULL);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "set_text");
    /* text replaces a measure function, and nil takes both away */
    lua_getiuservalue(L, 1, 1);
    if (lua_getiuservalue(L, -1, LAYOUT_CONTENT_UV) == LUA_TTABLE) {
        lua_pushnil(L);
        lua_rawseti(L, -2, (lua_Integer)v->id);
    }
    lua_settop(L, 1);
    return 1;
}

/* v:text_lines() -> { line, ... }, {lines=, font_size=, line_height=, first_baseline=, width=, height=}: the text
   as drawn at the view's solved width (solving first if needed) */
static int view_text_lines(lua_State *L) {
    LLayout *ll;
    LId *v = lmoa_check_child(L, 1, VIEW_MT, &ll);
    const char *s = NULL, *p, *nl;
    moa_text_metrics tm;
    lua_Integer i, n;
    moa_status st;
    CALLBACK_CALL(ll, L, moa_view_text_lines(ll->m, v->id, &s, &tm));
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "text_lines");
    lua_settop(L, 1);
    lua_pushstring(L, s); /* 2: a copy, before anything else runs */
    s = lua_tostring(L, 2);
    n = (lua_Integer)tm.lines;
    lua_createtable(L, (int)n, 0); /* 3 */
    for (i = 1, p = s; i <= n; i++) {
        nl = strchr(p, '\n');
        if (!nl || i == n) nl = p + strlen(p);
        lua_pushlstring(L, p, (size_t)(nl - p));
        lua_rawseti(L, 3, i);
        p = *nl ? nl + 1 : nl;
    }
    lua_createtable(L, 0, 6);
    lua_pushinteger(L, n);
    lua_setfield(L, -2, "lines");
    lua_pushnumber(L, tm.font_size);
    lua_setfield(L, -2, "font_size");
    lua_pushnumber(L, tm.line_height);
    lua_setfield(L, -2, "line_height");
    lua_pushnumber(L, tm.first_baseline);
    lua_setfield(L, -2, "first_baseline");
    lua_pushnumber(L, tm.width);
    lua_setfield(L, -2, "width");
    lua_pushnumber(L, tm.height);
    lua_setfield(L, -2, "height");
    return 2;
}

/* ======================================================================================================== */
/* Fitting sizes, statistics                                                                                */
/* ======================================================================================================== */

/* L:fitting_size(v, width, height [, hpri [, vpri]]) -> width, height; nil, msg, details when a required target
   cannot hold. Priorities: numbers or names, "fit" by default. */
static int layout_fitting_size(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1), *vl;
    LId *v = lmoa_check_child(L, 2, VIEW_MT, &vl);
    double w = lmoa_check_finite(L, 3, "width", NULL), h = lmoa_check_finite(L, 4, "height", NULL);
    double hpri = lmoa_check_priority(L, 5, MOA_FIT, 0, NULL), vpri = lmoa_check_priority(L, 6, MOA_FIT, 0, NULL);
    double ow = 0, oh = 0;
    moa_status st;
    if (vl != ll) return luaL_argerror(L, 2, "view belongs to another layout");
    CALLBACK_CALL(ll, L, moa_layout_fitting_size(ll->m, v->id, w, h, hpri, vpri, &ow, &oh));
    if (!ll->m) { /* closed by a callback: what a callback raised, else nothing */
        lmoa_raise_pending(L, ll);
        return 0;
    }
    if (lmoa_is_failure(st)) return lmoa_layout_failure(L, ll, 1, st);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "fitting_size");
    lua_pushnumber(L, ow);
    lua_pushnumber(L, oh);
    return 2;
}

/* L:measure_stats() -> {calls=, cache_hits=, last_calls=, last_rounds=} */
static int layout_measure_stats(lua_State *L) {
    LLayout *ll = lmoa_check_layout(L, 1);
    moa_measure_stats ms;
    moa_status st = moa_layout_measure_stats(ll->m, &ms);
    if (st != MOA_OK) return lmoa_layout_error(L, ll, st, "measure_stats");
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, (lua_Integer)ms.calls);
    lua_setfield(L, -2, "calls");
    lua_pushinteger(L, (lua_Integer)ms.cache_hits);
    lua_setfield(L, -2, "cache_hits");
    lua_pushinteger(L, (lua_Integer)ms.last_calls);
    lua_setfield(L, -2, "last_calls");
    lua_pushinteger(L, (lua_Integer)ms.last_rounds);
    lua_setfield(L, -2, "last_rounds");
    return 1;
}

/* ======================================================================================================== */
/* Registration                                                                                             */
/* ======================================================================================================== */

static const luaL_Reg view_methods[] = {
    {"set_measure", view_set_measure},
    {"invalidate", view_invalidate},
    {"set_text", view_set_text},
    {"text_lines", view_text_lines},
    {NULL, NULL},
};

static const luaL_Reg layout_methods[] = {
    {"fitting_size", layout_fitting_size},
    {"measure_stats", layout_measure_stats},
#ifdef LMOA_WITH_FONT
    {"set_font", layout_set_font},
#endif
    {NULL, NULL},
};

#ifdef LMOA_WITH_FONT
static const luaL_Reg font_meta[] = {
    {"__index", font_index},
    {"__gc", font_close},
    {"__close", font_close},
    {"__tostring", font_tostring},
    {NULL, NULL},
};

static const luaL_Reg font_methods[] = {
    {"advance", font_advance},
    {"metrics", font_metrics},
    {"close", font_close},
    {NULL, NULL},
};
#endif

/* The content methods of moa.View and moa.Layout (lmoa_view.c, lmoa_layout.c); MEASURE_LAYOUTS; with
   LMOA_WITH_FONT moa.Font; moa.MAX_MEASURE_ROUNDS, moa.has_font (and moa.font) into the module table on top. */
void lmoa_open_content(lua_State *L) {
    lmoa_new_weak_map(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &MEASURE_LAYOUTS);
    lmoa_extend_meta(L, VIEW_MT, NULL, view_methods);
    lmoa_extend_meta(L, LAYOUT_MT, NULL, layout_methods);
    lua_pushinteger(L, MOA_MAX_MEASURE_ROUNDS);
    lua_setfield(L, -2, "MAX_MEASURE_ROUNDS");
#ifdef LMOA_WITH_FONT
    lmoa_create_meta(L, FONT_MT, font_meta, font_methods);
    lua_pushcfunction(L, l_font);
    lua_setfield(L, -2, "font");
    lua_pushboolean(L, 1);
#else
    lua_pushboolean(L, 0);
#endif
    lua_setfield(L, -2, "has_font");
}
