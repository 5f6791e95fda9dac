-- The screen of `moa-bench --frames N` (Sources/moa-bench/Frames.swift) built and animated from Lua, so that the
-- binding's cost can be set beside the Swift driver's: the same views, equations and animations, one process.
--
--     LUA_CPATH='build/lib/lua/?.so;;' lua5.4 scripts/bench-frames.lua N [ROUNDS]
--
-- Prints, like moa-bench: `phase build ns=T` (views, intrinsic sizes, one L:eqs, first solve), then per frame,
-- for each case (all, eight, one: the cases of moa-bench), three phases:
--
--   phase CASE ns=T          the bulk path: L:advance_frames(dt, t, "root") (one C call: the frame, and the id
--                            and root frame of each view it moved into one reused table), reading each root x
--   phase CASE-full ns=T     the same with both frames of each view (L:advance_frames(dt, t): nine numbers a
--                            view against five)
--   phase CASE-objects ns=T  the per-view path: L:advance(dt) (a list of View objects) and L:changed_frames()
--                            (tables and names per view), reading each root_frame.x
--
-- Each case animates its constants there and back ROUNDS times (default 5), 60 frames each way, and the fastest
-- round counts, as in scripts/bench-frames.c (the C baseline); the per-view phases, ten times slower, once. The bulk phases come first, so that none pays for
-- the garbage of a per-view phase. CPU time (os.clock), not wall time.
local moa = require "moa"

local n = tonumber(arg[1]) or 10000
local rounds = tonumber(arg[2]) or 5
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
-- The previous round's animations end first, untimed: 60 steps of 1/60 s add up to a hair under its 1 s, and
-- its last step would otherwise land in the next round's first frame.
local function settle()
  while L.animating do L:advance(1 / 60, false) end
end
-- A case's constants there and back `times` times, 60 frames each way: the fastest round, ns per frame, and the
-- views moved in all rounds. frame() makes one frame and returns how many views moved.
local function run(case, frame, times)
  local best, moved = math.huge, 0
  for _, target in ipairs(case[2]) do target.from = target.from or target[1].constant end
  for _ = 1, times do
    settle()
    for _, target in ipairs(case[2]) do
      local c = target[1]
      c:animate(c.constant == target.from and target[2] or target.from, { duration = 1.0, curve = "easeInOut" })
    end
    local t0 = now()
    for _ = 1, 60 do moved = moved + frame() end
    best = math.min(best, (now() - t0) / 60)
  end
  return best, moved
end
local values, read = {}, 0 -- one table, refilled at every frame
local root_stride = moa.root_frame_stride
local function bulk_frame() -- what a host that draws in root space reads: id and root frame
  local _, count = L:advance_frames(1 / 60, values, "root")
  for i = 2, count * root_stride, root_stride do read = read + values[i] end -- root x
  return count
end
local function full_frame() -- both frames of each view
  local _, count = L:advance_frames(1 / 60, values)
  for i = 6, count * stride, stride do read = read + values[i] end -- root x
  return count
end
local function objects_frame()
  local changed = L:advance(1 / 60)
  for _, f in ipairs(L:changed_frames()) do read = read + f.root_frame.x end
  return #changed
end
collectgarbage() -- the build's garbage
local moved = {}
for k, case in ipairs(cases) do
  local ns
  ns, moved[k] = run(case, bulk_frame, rounds)
  print(("phase %s ns=%d ops=60 rep=0"):format(case[1], ns // 1))
end
for _, case in ipairs(cases) do
  print(("phase %s-full ns=%d ops=60 rep=0"):format(case[1], run(case, full_frame, rounds) // 1))
end
for k, case in ipairs(cases) do
  local ns, n2 = run(case, objects_frame, 1)
  print(("phase %s-objects ns=%d ops=60 rep=0"):format(case[1], ns // 1))
  if n2 * rounds ~= moved[k] then -- (one round against `rounds`)
    io.stderr:write(("warning: %s: %d views moved in %d rounds, %d in one per-view round\n")
      :format(case[1], moved[k], rounds, n2))
  end
end
if read ~= read then io.stderr:write("warning: a frame read NaN\n") end
