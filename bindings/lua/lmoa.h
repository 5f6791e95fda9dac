/*
** lmoa.h -- internal header of the Lua 5.4 module "moa" (not installed): the userdata types, metatable names and
** helpers that the binding's files share. Reference: bindings/lua/README.md.
**
**   lmoa.c         luaopen_moa: calls the lmoa_open_* function of each file
**   lmoa_util.c    priority and status names (the library's tables: the binding keeps no copy), numbers,
**                  argument checks, option tables, errors and failures, limit names and usage tables,
**                  metatables; moa.priority
**   lmoa_solver.c  moa.Solver, moa.Variable, moa.Constraint (the raw solver, its limits and usage)
**   lmoa_expr.c    moa.Expression, moa.Relation: linear arithmetic on variables
**   lmoa_layout.c  moa.Layout: views, equations, solving, queries, frames (also in bulk), SVG, limits and the
**                  progress function
**   lmoa_view.c    moa.View, moa.LayoutConstraint
**   lmoa_motion.c  callbacks, animation options and curves (names from moa_curve_name), the clock, the keyboard,
**                  traces; moa.Animation, moa.Collapsible, moa.Pan; moa.curve
**   lmoa_content.c content that sizes itself: measure functions (run under lua_pcall), text, fitting sizes,
**                  measure statistics; with LMOA_WITH_FONT, moa.Font (moafont) and L:set_font
**   lmoa_arrange.c arrangements: user layout guides, moa.Stack, moa.Chain, moa.Barrier, the visual format
**                  language (L:vfl)
**
** The rule every file keeps: no Lua error (luaL_error, lua_error, luaL_argerror, ...) is raised while a moa_* call
** is on the stack; callbacks from the library run under lua_pcall (lmoa_motion.c, lmoa_layout.c: `?` reports and
** the progress function, lmoa_content.c).
*/
#ifndef lmoa_h
#define lmoa_h

#include <stddef.h>
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "moa.h"

/* Functions shared between the binding's files: hidden, so that the module exports luaopen_moa only. */
#if defined(__GNUC__)
#define LMOA_FUNC __attribute__((visibility("hidden"))) extern
#else
#define LMOA_FUNC extern
#endif

/* ======================================================================================================== */
/* Metatable names                                                                                          */
/* ======================================================================================================== */

#define SOLVER_MT "moa.Solver"
#define VAR_MT "moa.Variable"
#define EXPR_MT "moa.Expression"
#define REL_MT "moa.Relation"
#define CONS_MT "moa.Constraint"

#define LAYOUT_MT "moa.Layout"
#define VIEW_MT "moa.View"
#define LCONS_MT "moa.LayoutConstraint"
#define ANIM_MT "moa.Animation"
#define COLL_MT "moa.Collapsible"
#define PAN_MT "moa.Pan"
#define FONT_MT "moa.Font"
#define STACK_MT "moa.Stack"
#define CHAIN_MT "moa.Chain"
#define BARRIER_MT "moa.Barrier"

/* ======================================================================================================== */
/* Userdata layouts: the solver level                                                                       */
/* ======================================================================================================== */

#define NO_REL (-1)

/* moa.Solver. User value 1: the weak-valued table id -> Constraint object. */
typedef struct LSolver {
    moa_solver *s;        /* NULL once closed */
    unsigned generation;  /* bumped by s:reset(): older variables and constraints are stale */
    moa_var *fresh;       /* variables whose Lua object was collected, not yet tried */
    size_t nfresh, capfresh;
    moa_var *orphans;     /* collected variables still used by a constraint or an edit */
    size_t norphans, caporphans;
    int dirty;            /* a constraint or an edit went away since the orphans were last tried */
    lua_State *cur;       /* the thread of the latest method call: where the progress function runs */
    int progressref;      /* s:on_progress's function in the registry, or LUA_NOREF */
    uint64_t progress_every; /* and its interval in pivots */
    int errref;           /* the first error the progress function raised in the call in progress, or LUA_NOREF */
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

/* ======================================================================================================== */
/* Userdata layouts: the layout level                                                                       */
/* ======================================================================================================== */

/* moa.Layout. User values: 1 weak map id -> View, 2 weak map id -> LayoutConstraint, 3 the scratch array of
   moa_frame of L:frame_values (nil until first needed), 4 the content table (LAYOUT_CONTENT_UV, lmoa_content.c:
   view id -> measure function, "font" -> the Font in use; nil until first needed), 5 the weak map id -> Stack,
   Chain or Barrier (LAYOUT_ARRANGE_UV, lmoa_arrange.c; nil until first needed). */
#define LAYOUT_CONTENT_UV 4
#define LAYOUT_ARRANGE_UV 5
#define LAYOUT_NUV 5

typedef struct LLayout {
    moa_layout *m;        /* NULL once closed */
    lua_State *cur;       /* the thread of the binding call in progress: where callbacks run */
    lua_State *main;      /* the main thread: where a measure function runs if no call set cur (none should) */
    int measuring;        /* measure functions running (lmoa_content.c) */
    int errref;           /* registry ref of the first error a callback raised in this call, or LUA_NOREF */
    int debugref;         /* registry ref of the `?` report function, or LUA_NOREF */
    int progressref;      /* registry ref of the L:on_progress function, or LUA_NOREF */
    uint64_t progress_interval; /* its interval */
    int progressing;      /* the progress function is running (lmoa_layout.c) */
    int finalizing;       /* freed from __gc */
} LLayout;

/* moa.View, moa.LayoutConstraint, moa.Animation, moa.Collapsible, moa.Stack (its view's id), moa.Chain,
   moa.Barrier (its guide's id): an id. User value 1: the layout. */
typedef struct LId {
    uint64_t id;
} LId;

/* Swaps in the calling thread for a moa_* call that may call back. Needs `moa_status st` in scope. */
#define CALLBACK_CALL(ll, L, expr)                                                                           \
    do {                                                                                                     \
        lua_State *prev_ = (ll)->cur;                                                                        \
        (ll)->cur = (L);                                                                                     \
        st = (expr);                                                                                         \
        (ll)->cur = prev_;                                                                                   \
    } while (0)

/* ======================================================================================================== */
/* lmoa_util.c                                                                                              */
/* ======================================================================================================== */

LMOA_FUNC const char *lmoa_push_numstr(lua_State *L, double x);
LMOA_FUNC int lmoa_value_error(lua_State *L, int idx, const char *field, const char *msg);
LMOA_FUNC int lmoa_type_error(lua_State *L, int idx, const char *field, const char *expected);
LMOA_FUNC const char *lmoa_check_text(lua_State *L, int idx, const char *what, size_t *len);
LMOA_FUNC const char *lmoa_opt_text(lua_State *L, int idx, const char *what);
LMOA_FUNC double lmoa_check_finite(lua_State *L, int idx, const char *what, const char *field);
LMOA_FUNC double lmoa_check_priority(lua_State *L, int idx, double dflt, int edit, const char *field);
LMOA_FUNC double lmoa_check_weight(lua_State *L, int idx, const char *field);
LMOA_FUNC double lmoa_opt_number(lua_State *L, int idx, const char *name, double dflt);
LMOA_FUNC int lmoa_opt_bool(lua_State *L, int idx, const char *name, int dflt);
LMOA_FUNC int lmoa_closed_error(lua_State *L, const char *what);
LMOA_FUNC int lmoa_status_error(lua_State *L, const char *msg, moa_status st, const char *what);
LMOA_FUNC int lmoa_push_failure(lua_State *L, const char *msg, moa_status st, int nrec);
LMOA_FUNC int lmoa_is_failure(moa_status st);
LMOA_FUNC moa_limit lmoa_check_limit(lua_State *L, int idx);
LMOA_FUNC void lmoa_push_limit(lua_State *L, moa_limit which, double value);
LMOA_FUNC void lmoa_push_usage(lua_State *L, const moa_usage *u);
LMOA_FUNC void lmoa_new_weak_map(lua_State *L);
LMOA_FUNC void lmoa_create_meta(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods);
LMOA_FUNC void lmoa_extend_meta(lua_State *L, const char *name, const luaL_Reg *meta, const luaL_Reg *methods);
LMOA_FUNC void lmoa_open_util(lua_State *L);

/* ======================================================================================================== */
/* lmoa_solver.c                                                                                            */
/* ======================================================================================================== */

LMOA_FUNC LSolver *lmoa_solver_of(lua_State *L, int idx);
LMOA_FUNC LVar *lmoa_check_var(lua_State *L, int idx, LSolver *owner, LSolver **lsp);
LMOA_FUNC void lmoa_open_solver(lua_State *L);

/* ======================================================================================================== */
/* lmoa_expr.c                                                                                              */
/* ======================================================================================================== */

LMOA_FUNC void lmoa_get_operand(lua_State *L, int idx, Operand *o, const char *op);
LMOA_FUNC void lmoa_push_combination(lua_State *L, const Operand *a, double ka, const Operand *b, double kb, int rel,
                                     const char *op);
LMOA_FUNC void lmoa_open_expr(lua_State *L);

/* ======================================================================================================== */
/* lmoa_layout.c                                                                                            */
/* ======================================================================================================== */

LMOA_FUNC LLayout *lmoa_check_layout(lua_State *L, int idx);
LMOA_FUNC LLayout *lmoa_layout_of(lua_State *L, int idx);
LMOA_FUNC LId *lmoa_check_child(lua_State *L, int idx, const char *mt, LLayout **llp);
LMOA_FUNC void lmoa_raise_pending(lua_State *L, LLayout *ll);
LMOA_FUNC int lmoa_run_progress(lua_State *L, int fn_ref, uint64_t n, int *errref);
LMOA_FUNC int lmoa_check_progress_args(lua_State *L, lua_Integer dflt, const char *interval_name,
                                       lua_Integer *interval);
LMOA_FUNC int lmoa_layout_error(lua_State *L, LLayout *ll, moa_status st, const char *what);
/* The pivot and time limits of a layout, kept while lifted (lmoa_layout_lift_limits). */
typedef struct LLimits {
    double pivots, seconds;
} LLimits;
LMOA_FUNC void lmoa_layout_lift_limits(LLayout *ll, LLimits *saved);
LMOA_FUNC void lmoa_layout_restore_limits(LLayout *ll, const LLimits *saved);
LMOA_FUNC int lmoa_layout_failure(lua_State *L, LLayout *ll, int layout_idx, moa_status st);
LMOA_FUNC void lmoa_push_view(lua_State *L, int layout_idx, moa_view id);
LMOA_FUNC void lmoa_push_lcons(lua_State *L, int layout_idx, moa_lcons id);
LMOA_FUNC void *lmoa_new_child(lua_State *L, int layout_idx, const char *mt, size_t size);
LMOA_FUNC void lmoa_push_rect(lua_State *L, const moa_rect *r);
LMOA_FUNC int lmoa_opt_views(lua_State *L, int idx);
LMOA_FUNC void lmoa_push_changed(lua_State *L, LLayout *ll, int layout_idx, int views);
LMOA_FUNC int lmoa_svg_flags(lua_State *L, int idx, int allow_constraints);
LMOA_FUNC void lmoa_open_layout(lua_State *L);

/* ======================================================================================================== */
/* lmoa_view.c, lmoa_motion.c, lmoa_content.c, lmoa_arrange.c                                               */
/* ======================================================================================================== */

/* A completion's `ud` (lmoa_motion.c): the layout and the registry ref of the Lua function. */
typedef struct LCallback LCallback;

/* Animation options (lmoa_check_anim_opts): duration, curve (or spring = {...}), delay, done. */
typedef struct AnimOpts {
    double duration, delay;
    moa_curve curve;
    int done_idx; /* stack index of the done function, 0 if none */
} AnimOpts;

LMOA_FUNC void lmoa_open_view(lua_State *L);
LMOA_FUNC void lmoa_done_trampoline(moa_layout *m, moa_animation a, int finished, void *ud);
LMOA_FUNC LCallback *lmoa_make_callback(lua_State *L, LLayout *ll, int idx, const char *field);
LMOA_FUNC void lmoa_drop_callback(lua_State *L, LCallback *cb);
LMOA_FUNC void lmoa_check_anim_opts(lua_State *L, LLayout *ll, int idx, double dflt_duration, moa_curve dflt_curve,
                                    AnimOpts *o);
LMOA_FUNC void lmoa_push_animation(lua_State *L, int layout_idx, moa_animation id);
LMOA_FUNC void lmoa_open_motion(lua_State *L);
LMOA_FUNC void lmoa_prune_content(lua_State *L, LLayout *ll, int layout_idx);
LMOA_FUNC void lmoa_release_content(lua_State *L, int layout_idx);
LMOA_FUNC void lmoa_open_content(lua_State *L);
LMOA_FUNC void lmoa_open_arrange(lua_State *L);

#endif
