-- The screen of `moa-bench --frames N` (Sources/moa-bench/Frames.swift) built and animated from Lua, so that the
-- binding's cost can be set beside the Swift driver's: the same views, equations and animations, one process.
--
--     LUA_CPATH='build/lib/lua/?.so;;' lua5.4 scripts/bench-frames.lua N
--
-- Prints, like moa-bench: `phase build ns=T` (views, intrinsic sizes, one L:eqs, first solve), then per frame,
-- for each case (all, eight, one: the cases of moa-bench), two phases:
--
--   phase CASE ns=T          the bulk path: L:advance(dt, false) (the count, no View objects) and
--                            L:frame_values("changed", t) into one reused table, reading each root x
--   phase CASE-objects ns=T  the per-view path: L:advance(dt) (a list of View objects) and L:changed_frames()
--                            (tables and names per view), reading each root_frame.x
--
-- The bulk phases come first, in moa-bench's order and with its animations; then the per-view phases animate
-- each case's constants back to where they were (the same views move), so that no bulk phase pays for the
-- garbage of a per-view phase. CPU time (os.clock), not wall time.
local moa = require "moa"

local n = tonumber(arg[1]) or 10000
local function now() return os.clock() * 1e9 end

local t0 = now()
local L = moa.layout(1024, 768)
L:view "sidebar"
local content = L:view "content"
L:view("badge", content)
local lines = {
  "sidebar.left == 0", "sidebar.top == 0", "sidebar.bottom == 0", "sidebar.width == 240",
  "content.left == sidebar.right", "content.right == 0", "content.top == 0",
  "badge.top == content.top + 8", "badge.right == content.right - 8", "badge.width == 24", "badge.height == 24",
}
local rows = math.max(1, n - 3)
local gaps = {}
for i = 0, rows - 1 do
  local row = L:view("row" .. i, content)
  row:set_intrinsic_size(80 + i % 7 * 10, 20)
  lines[#lines + 1] = ("row%d.left == content.left + 16"):format(i)
  lines[#lines + 1] = i == 0 and "row0.top == content.top + 8" or ("row%d.top == row%d.bottom + 4"):format(i, i - 1)
  if i > 0 then gaps[#gaps + 1] = #lines end
end
lines[#lines + 1] = ("content.bottom >= row%d.bottom + 8"):format(rows - 1)
local cs = assert(L:eqs(table.concat(lines, "\n")))
L:solve()
print(("phase build ns=%d ops=%d rep=0"):format((now() - t0) // 1, n))

local chosen = {}
local step = math.max(1, #gaps // 8)
for k = 1, #gaps, step do
  if #chosen == 8 then break end
  chosen[#chosen + 1] = cs[gaps[k]]
end
local cases = {
  { "all", { { cs[1], -240 } } },
  { "eight", (function()
      local t = {}
      for _, c in ipairs(chosen) do t[#t + 1] = { c, c.constant + 12 } end
      return t
    end)() },
  { "one", { { cs[8], 200 } } },
}
local stride = moa.frame_stride
-- The previous case's animations end first, untimed: 60 steps of 1/60 s add up to a hair under its 1 s, and
-- its last step would otherwise land in the next case's first frame.
local function settle()
  while L.animating do L:advance(1 / 60, false) end
end
local moved, back = {}, {}
collectgarbage() -- the build's garbage
for k, case in ipairs(cases) do
  local values, read = {}, 0 -- one table, refilled at every frame
  moved[k], back[k] = 0, {}
  settle()
  for _, target in ipairs(case[2]) do
    table.insert(back[k], { target[1], target[1].constant })
    target[1]:animate(target[2], { duration = 1.0, curve = "easeInOut" })
  end
  t0 = now()
  for _ = 1, 60 do
    moved[k] = moved[k] + L:advance(1 / 60, false)
    local _, count = L:frame_values("changed", values)
    for i = 6, count * stride, stride do read = read + values[i] end -- root x
  end
  print(("phase %s ns=%d ops=60 rep=0"):format(case[1], (now() - t0) // 60))
  if read ~= read then io.stderr:write("warning: a frame read NaN\n") end
end
for k, case in ipairs(cases) do
  local n2, read = 0, 0
  settle()
  for _, target in ipairs(back[k]) do target[1]:animate(target[2], { duration = 1.0, curve = "easeInOut" }) end
  t0 = now()
  for _ = 1, 60 do
    n2 = n2 + #L:advance(1 / 60)
    for _, f in ipairs(L:changed_frames()) do read = read + f.root_frame.x end
  end
  print(("phase %s-objects ns=%d ops=60 rep=0"):format(case[1], (now() - t0) // 60))
  if n2 ~= moved[k] then
    io.stderr:write(("warning: %s: %d views moved, %d on the way back\n"):format(case[1], moved[k], n2))
  end
  if read ~= read then io.stderr:write("warning: a frame read NaN\n") end
end
