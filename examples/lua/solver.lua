-- solver.lua -- three boxes in a row inside a window, with Moa's raw solver from Lua.
--
--   | 10 | box a | 10 | box b | 10 | box c | 10 |      window width W (an edit variable, 320 at first)
--
-- Required: the left padding, the gaps, every box at least 50 wide. High: the right padding. Medium: equal
-- widths. Low: box b would like to be 120 wide. Then the window is resized by suggesting new widths: at 150 the
-- boxes cannot shrink below 50, so the (high) right padding gives way and the row overflows.
--
-- Run from the repository root:   make lua && lua5.4 examples/lua/solver.lua
-- (or: make demo-lua). The same program in C is examples/c/solver.c.

-- Find the freshly built module (build/lib/lua/moa.so) from wherever this script is run.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.cpath = here .. "/../../build/lib/lua/?.so;" .. package.cpath

local moa = require "moa"
print(moa._VERSION .. " (library " .. moa.version .. ")")

local s <close> = moa.solver()

local window = s:var "window.width"
local boxes = {}
for _, name in ipairs { "a", "b", "c" } do
  boxes[#boxes + 1] = { name = name, left = s:var(name .. ".left"), width = s:var(name .. ".width") }
end
local a, b, c = boxes[1], boxes[2], boxes[3]

-- Relations are built with :eq, :le, :ge; s:add(relation, priority, weight, tag) adds them (required by default).
s:add(a.left:eq(10), nil, nil, "left padding")
for i, box in ipairs(boxes) do
  s:add(box.width:ge(50), nil, nil, "min width")
  local next = boxes[i + 1]
  if next then s:add(next.left:eq(box.left + box.width + 10), nil, nil, "gap") end
end
s:add((c.left + c.width + 10):eq(window), "high", 1, "right padding")
s:add(a.width:eq(b.width), "medium", 1, "a.width == b.width")
s:add(b.width:eq(c.width), "medium", 1, "b.width == c.width")
s:add(b.width, "==", 120, "low", 1, "b prefers 120") -- the same, written as lhs, op, rhs

-- The window width is an edit variable, stronger than anything but required constraints.
s:edit(window, 999)

for _, size in ipairs { 320, 200, 150 } do
  s:suggest(window, size)
  s:update()
  local line = { string.format("window %3.0f:", window.value) }
  for _, box in ipairs(boxes) do
    line[#line + 1] = string.format("%s [%6.2f, %6.2f]", box.name, box.left.value, box.width.value)
  end
  local right = c.left.value + c.width.value
  line[#line + 1] = string.format("right edge %.2f%s", right, right + 10 > window.value + 1e-9 and " (overflows)" or "")
  print(table.concat(line, "  "))
end

local nvars, ncons = s:counts()
print(nvars .. " variables, " .. ncons .. " constraints")

-- A required constraint that cannot hold is refused (nil, message, details); the solver is unchanged.
local ok, msg, details = s:add(a.width:eq(10), nil, nil, "a.width == 10")
if not ok then
  print("adding a.width == 10 (required): " .. details.code)
  print("  " .. msg)
  for _, con in ipairs(details.conflicts) do print("  conflicts with: " .. tostring(con)) end
end

-- Constraints are objects: change them in place.
local pref = s:add(a.width:eq(60), "fit", 1, "a prefers 60")
pref.priority = "required" -- now a must be 60 wide...
s:update()
print(string.format("a.width is now %.2f (%s)", a.width.value, tostring(pref)))
pref:remove()
