/*
** lmoa.c -- the Lua 5.4 module "moa": Moa's constraint solver and layout engine over the C API of Include/moa.h.
** luaopen_moa only: each file of the binding registers its own types (lmoa.h lists them). Reference:
** bindings/lua/README.md.
*/
#include "lmoa.h"

int luaopen_moa(lua_State *L) {
    luaL_checkversion(L);
    lua_createtable(L, 0, 2); /* the module table: moa.solver, moa.layout */
    lmoa_open_solver(L);      /* moa.solver; moa.Solver, moa.Variable, moa.Constraint */
    lmoa_open_expr(L);        /* moa.Expression, moa.Relation; the operators of moa.Variable */
    lmoa_open_layout(L);      /* moa.layout; moa.Layout */
    lmoa_open_view(L);        /* moa.View, moa.LayoutConstraint */
    lmoa_open_motion(L);      /* moa.Animation, moa.Collapsible, moa.Pan; the motion methods of Layout and
                                 LayoutConstraint; moa.curve */
    lmoa_open_content(L);     /* the content methods of View and Layout (measure, text, fitting sizes);
                                 moa.MAX_MEASURE_ROUNDS, moa.has_font; with LMOA_WITH_FONT moa.font, moa.Font */
    lmoa_open_arrange(L);     /* moa.Stack, moa.Chain, moa.Barrier; the arrangement methods of Layout (layout_guide,
                                 stack, stack_of, chain, barrier, vfl, vfl_options) */
    lua_pushliteral(L, "moa " MOA_VERSION);
    lua_setfield(L, -2, "_VERSION");
    lua_pushstring(L, moa_libversion());
    lua_setfield(L, -2, "version");
    lmoa_open_util(L);        /* moa.priority, moa.strength */
    return 1;
}
