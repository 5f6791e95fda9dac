-- A small layout with something in every diagnostics panel and no recorded motion, written as an inspector
-- page for scripts/test-inspector.py: `lua5.4 Tests/inspector/diagnostics.lua OUT.html`.
package.cpath = "build/lib/lua/?.so;" .. package.cpath
local moa = require "moa"

local L <close> = moa.layout(320, 200)
L:view "title"
L:view "subtitle"
L:view "loose" -- no constraints: ambiguous in every variable
L:eqs [[
  title.left == 16
  title.top == 16
  title.size == 200x24
  title.width == 400 @ 250
  subtitle.left == title.left
  subtitle.top == title.bottom + 8
]] -- subtitle's size is left open: ambiguous too; title.width == 400 is given up
local refused, _, details = L:eq("title.right == 100") -- fails and is listed among the conflicts
assert(refused == nil and details.code == "UNSATISFIABLE")
assert(#L:violations() == 1 and #L:ambiguities() > 0)
assert(L:html(arg[1], "diagnostics"))
