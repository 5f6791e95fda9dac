-- Reproducer (not part of the tests) for the empty conflict set in Known gaps (docs/NOTES.md, seventeenth session):
-- a stack of N views moved around at random. Usage: LUA_CPATH="build/lib/lua/?.so;;" lua5.4 scripts/repro/stack-moves.lua
-- N SEED DISTRIBUTION MOVES; e.g. 400 25 equalCentering 300 fails at move 159. Prints nothing and exits 0 when every move
-- succeeds; on a refused move prints it and exits 3.
local moa = require "moa"
local N, seed, dist, iters = tonumber(arg[1]), tonumber(arg[2]), arg[3] or "fillEqually", tonumber(arg[4] or 200)
math.randomseed(seed)
local L = moa.layout(100000, 1000)
local s = L:stack("s", { distribution = dist, spacing = 1 })
assert(L:eqs "s.left == 0\ns.top == 0\ns.width == 50000\ns.height == 40")
local vs = {}
for i = 1, N do vs[i] = L:view("v" .. i, s.view); vs[i]:set_intrinsic_size(10 + i % 7, 10) end
for i = 1, N do assert(s:insert(vs[i], i)) end
L:solve()
local ops = {}
for i = 1, iters do
  local all = s:views()
  local v = all[math.random(#all)]
  local p = math.random(#all)
  ops[#ops + 1] = v.name .. "->" .. p
  local r, m = s:remove(v)
  if r then r, m = s:insert(v, p) end
  if not r then print("FAIL N", N, "seed", seed, "iter", i, m); os.exit(3) end
end
