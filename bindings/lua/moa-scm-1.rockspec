-- LuaRocks spec for the Lua 5.4 binding of Moa, for a local build from a checkout (luarocks make).
--
-- libmoa.so must be built (or installed) first. From the repository root:
--
--   make lib
--   luarocks --lua-version=5.4 --tree=build/rocks make bindings/lua/moa-scm-1.rockspec \
--       MOA_INCDIR=$PWD/Include MOA_LIBDIR=$PWD/build/lib
--
-- After `make install` (libmoa.so and moa.h under /usr/local) the MOA_* variables can be left out.
-- `make lua` builds the same module without LuaRocks, into build/lib/lua/moa.so.
rockspec_format = "3.0"
package = "moa"
version = "scm-1"

source = {
   url = "git+file://.", -- not fetched by `luarocks make`, which builds the checkout it is run from
}

description = {
   summary = "Lua binding of Moa, a Cassowary-style constraint layout engine",
   detailed = [[
      require "moa" gives Moa's incremental constraint solver to Lua 5.4 scripts: variables with arithmetic
      operators, relations with :eq/:le/:ge, strict priorities (Auto Layout's 1...1000 scale), edit variables
      and suggested values, constraint objects whose constant, priority, weight and active state can be changed
      in place, and conflict reports that name the conflicting constraints.
   ]],
}

dependencies = {
   "lua >= 5.4, < 5.5",
}

external_dependencies = {
   MOA = {
      header = "moa.h",
      library = "moa",
   },
}

build = {
   type = "builtin",
   modules = {
      moa = {
         -- every .c file of bindings/lua (lmoa.h, their private header, is found beside them)
         sources = {
            "bindings/lua/lmoa.c",
            "bindings/lua/lmoa_util.c",
            "bindings/lua/lmoa_solver.c",
            "bindings/lua/lmoa_expr.c",
            "bindings/lua/lmoa_layout.c",
            "bindings/lua/lmoa_view.c",
            "bindings/lua/lmoa_motion.c",
            "bindings/lua/lmoa_content.c",
            "bindings/lua/lmoa_arrange.c",
         },
         libraries = { "moa" },
         incdirs = { "$(MOA_INCDIR)" },
         libdirs = { "$(MOA_LIBDIR)" },
      },
   },
   copy_directories = { "bindings/lua/spec" },
}

test_dependencies = {
   "busted",
}

test = {
   type = "busted",
}
