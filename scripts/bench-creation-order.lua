-- A column of N views made in order, reversed or at random, its equations given in one `L:eqs` call in order
-- or shuffled: how the build depends on the order views are made and equations come (docs/NOTES.md,
-- "Twenty-fifth session"). A program that iterates a table with `pairs` makes both orders arbitrary.
--
--   LUA_CPATH="build/lib/lua/?.so;;" lua5.4 scripts/bench-creation-order.lua [N] [order|reverse|random]
--       [order|shuffled]
local moa = require "moa"

local N = tonumber(arg[1]) or 10000
local make, give = arg[2] or "order", arg[3] or "order"

local function shuffle(t, seed)
  math.randomseed(seed)
  for i = #t, 2, -1 do
    local j = math.random(i)
    t[i], t[j] = t[j], t[i]
  end
  return t
end

local L <close> = moa.layout(400, 100000)
local made = {}
for i = 1, N do made[i] = (make == "reverse") and N + 1 - i or i end
if make == "random" then shuffle(made, 7) end
local views = {}
local t0 = os.clock()
for _, i in ipairs(made) do views[i] = L:view("v" .. i) end
local t1 = os.clock()

local lines = {}
for i = 1, N do
  lines[#lines + 1] = string.format("v%d.left == 8", i)
  lines[#lines + 1] = string.format("v%d.width == %d", i, 100 + i % 7)
  lines[#lines + 1] = (i == 1) and "v1.top == 8" or string.format("v%d.top == v%d.bottom + 4", i, i - 1)
  lines[#lines + 1] = string.format("v%d.height >= 10", i)
  lines[#lines + 1] = string.format("v%d.height == %d @ low", i, 20 + i % 5)
end
if give == "shuffled" then shuffle(lines, 11) end
local text = table.concat(lines, "\n")
local t2 = os.clock()
assert(L:eqs(text))
local t3 = os.clock()
L:solve()
local t4 = os.clock()
local last = views[N].frame
print(string.format("views made %-7s equations %-8s  views %6.1f ms  eqs %8.1f ms  solve %6.1f ms  last y=%g h=%g",
  make, give, (t1 - t0) * 1e3, (t3 - t2) * 1e3, (t4 - t3) * 1e3, last.y, last.height))
