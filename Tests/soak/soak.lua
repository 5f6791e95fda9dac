-- soak.lua -- soak without growth (issue 18), from Lua: one long-lived layout driven by many random operations
-- through the Lua API must keep the Lua heap, the process's memory and the cost per operation flat.
--
-- The operations, drawn from a seeded xorshift generator: views added under random parents (a bounded pool, so
-- a steady state exists) with the equations that place them, views moved, views removed (leaves and small
-- subtrees), single equations added between random live views and removed again (c:remove(), or L:xeq with
-- tostring(c)), constants, priorities (named points and, sometimes, any value of the range) and activity
-- changed, constants and priorities animated and the clock advanced, collapsibles, pan gestures, root size
-- changes (at once and animated), the keyboard, text set and cleared, solves with the frames read back through
-- L:frame_values (one reused table) or L:changed_frames, traces, and rarely (they are O(layout)) L:svg,
-- L:describe, L:violations, L:ambiguities, L:fitting_size.
--
-- Expected failures come back as nil, message, details (details.code "UNSATISFIABLE" where a required
-- constraint may fail; a failed L:eq must then leave L:usage() as it was); misuse raises, and the only raises
-- expected are from a collapsible or pan whose view or constraint was removed (a stale id), which is then
-- freed, and from a move into a view's own subtree. Anything else -- another failure code, an error raised by a
-- valid call, a completion called twice or never, counts that do not match the bookkeeping -- is counted and
-- printed (the first 20). When two constraints have come to share their sides, relation and priority, L:xeq may
-- remove either: that is accepted and counted ("xeq twins").
--
-- At every tenth the garbage collector runs a full cycle (collectgarbage("collect"); a "step" runs every 1,000
-- operations in between), and the Lua heap (collectgarbage("count")), the resident set size (/proc/self/statm),
-- the CPU time per operation of that tenth (os.clock) and what the layout holds (views, equation constraints,
-- tableau rows and cells from L:usage()) are recorded. Criteria (exit status 1): nothing unexpected; the Lua
-- heap and the RSS at the end <= 1.10 x their values at the end of the second tenth + 4 MB. The time ratio
-- (last tenth / second) is reported, and checked (<= 2.0) only with --check-time. The checksum of everything
-- observed is printed: the same seed gives the same checksum.
--
-- Usage (from the repository root):
--   lua5.4 Tests/soak/soak.lua [ops] [--quick] [--seed S] [--check-time] [--without KIND,... | --only KIND,...]
--   ops defaults to 1,000,000 (at most 300 live views), or 100,000 with --quick (at most 100 views);
--   --without / --only: never draw those operation kinds / only those (add_view, set_priority,
--   animate_priority, rare, ...: the names in ops_table), to find which kind makes memory or time grow.
-- The module is looked up in build/lib/lua of the repository (from this file's path), or where MOA_LUA_CPATH
-- says (a package.cpath template).

local root = (arg and arg[0] or ""):match("^(.-)Tests/soak/soak%.lua$") or "./"
if root == "" then root = "./" end
package.cpath = (os.getenv("MOA_LUA_CPATH") or (root .. "build/lib/lua/?.so")) .. ";" .. package.cpath
local moa = require "moa"

local MAX_EXTRA, MAX_SUBTREE = 600, 16
local MAX_COLS, MAX_PANS, MAX_TRACE = 8, 4, 64
local RARE_EVERY, MAX_PRINTED = 4000, 20

-- arguments ---------------------------------------------------------------------------------------------------

local quick, check_time, ops, seed, without, only = false, false, nil, 1, nil, nil
local MAX_VIEWS, MIN_VIEWS
do
  local i = 1
  while i <= #arg do
    local a = arg[i]
    if a == "--quick" then quick = true
    elseif a == "--check-time" then check_time = true
    elseif a == "--seed" and arg[i + 1] then seed = math.tointeger(tonumber(arg[i + 1])); i = i + 1
    elseif a == "--without" and arg[i + 1] then without = arg[i + 1]; i = i + 1
    elseif a == "--only" and arg[i + 1] then only = arg[i + 1]; i = i + 1
    elseif tonumber(a) then ops = math.tointeger(tonumber(a))
    else
      io.stderr:write("usage: lua5.4 Tests/soak/soak.lua [ops] [--quick] [--seed S] [--check-time] " ..
        "[--without KIND,... | --only KIND,...]\n")
      os.exit(2)
    end
    i = i + 1
  end
  ops = ops or (quick and 100000 or 1000000)
  MAX_VIEWS = quick and 100 or 300 -- live views at most; below a third of it, removals turn into adds
  MIN_VIEWS = MAX_VIEWS // 3
  if not ops or ops < 10 or not seed then
    io.stderr:write("soak.lua: bad ops or seed\n")
    os.exit(2)
  end
end

-- generator and checksum --------------------------------------------------------------------------------------

local S = (seed * 0x9E3779B97F4A7C15) ~ 0x2545F4914F6CDD1D
if S == 0 then S = 1 end
local function rnext()
  S = S ~ (S << 13); S = S ~ (S >> 7); S = S ~ (S << 17)
  return S
end
local function below(n) return (rnext() >> 11) % n end
local function chance(p) return below(100) < p end
local function range(lo, hi) return lo + below(hi - lo + 1) end
local function frange(lo, hi) return lo + (hi - lo) * ((rnext() >> 11) / 9007199254740992.0) end

local H = 0xcbf29ce484222325 -- FNV-1a offset basis (a hex numeral wraps to an integer; products wrap too)
local function mix(x)
  if math.type(x) ~= "integer" then x = math.floor(x * 64 + 0.5) end
  H = (H ~ x) * 1099511628211
end

-- failures ----------------------------------------------------------------------------------------------------

local failures, printed, unsat, op_index = 0, 0, 0, 0
local function fail(msg)
  failures = failures + 1
  if printed < MAX_PRINTED then
    printed = printed + 1
    io.stderr:write(string.format("FAIL: operation %d: %s\n", op_index, msg))
  end
end

-- The result of a call that may fail with a conflict: r, or nil after an accepted UNSATISFIABLE.
local function result(what, may_conflict, r, msg, details)
  if r ~= nil or msg == nil then return r end
  local code = type(details) == "table" and details.code or "?"
  mix(#code)
  if may_conflict and code == "UNSATISFIABLE" then
    unsat = unsat + 1
    return nil
  end
  fail(string.format("%s failed with %s: %s", what, code, tostring(msg)))
  return nil
end

-- the layout and the bookkeeping ---------------------------------------------------------------------------

local L = moa.layout(390, 844)
local has_usage = pcall(function() return L.usage end) and type(L.usage) == "function" -- rows and cells: 0 without

local views, live_views = {}, {}   -- slot -> {v=, parent=slot|-1, nch=, xc=, yc=, text=, pos=}
local cons, live_cons = {}, {}     -- id -> {c=, va=, vb=, axis=, placement=, active=, pos=}
local nextra = 0
local cols, pans, recent = {}, {}, {}
local tracing, traced = false, 0
local done_given, done_calls, rest_given, rest_calls = 0, 0, 0, 0
local xeq_twins = 0
local frame_buf = {}
local stride = moa.frame_stride

local function done_fn(finished) done_calls = done_calls + 1; mix(finished and 1 or -1) end
local function rest_fn(rest, finished) rest_calls = rest_calls + 1; mix(rest); mix(finished and 1 or 0) end

local function live_add(list, item) list[#list + 1] = item; item.pos = #list end
local function live_del(list, item)
  local last = list[#list]
  list[item.pos] = last
  last.pos = item.pos
  list[#list] = nil
  item.pos = nil
end

local function rand_view() local n = #live_views; if n == 0 then return nil end return live_views[below(n) + 1] end
local function rand_cons() local n = #live_cons; if n == 0 then return nil end return live_cons[below(n) + 1] end

local function cons_add(c, va, vb, axis, placement)
  local e = { c = c, id = c.id, va = va, vb = vb, axis = axis, placement = placement, active = true }
  cons[e.id] = e
  live_add(live_cons, e)
  if not placement then nextra = nextra + 1 end
  return e
end
local function cons_drop(e)
  cons[e.id] = nil
  live_del(live_cons, e)
  if not e.placement then nextra = nextra - 1 end
  e.dead = true
  e.c, e.va, e.vb = nil, nil, nil -- a live view's xc/yc may still point here: keep no chain of dead objects
end

local function name_of(sv) return sv and ("v" .. sv.slot) or "root" end

local function check_counts(where)
  local nv, nc = #L:views(), #L:constraints()
  if nv ~= #live_views or nc ~= #live_cons then
    fail(string.format("%s: the layout has %d views and %d equation constraints, the bookkeeping %d and %d", where,
      nv, nc, #live_views, #live_cons))
  end
end

local soft = { "250", "high", "500", "999", "low", "defaultHigh - 1", "fit" }
local function rand_soft() return soft[below(#soft) + 1] end

-- operations --------------------------------------------------------------------------------------------------

local function free_slot()
  for s = 0, MAX_VIEWS - 1 do if not views[s] then return s end end
end

local function add_view()
  local slot = free_slot()
  if not slot then return end
  local parent = chance(15) and nil or rand_view()
  local name = "v" .. slot
  local v = L:view(name, parent and parent.v or nil)
  local sv = { v = v, slot = slot, parent = parent, nch = 0, text = false }
  views[slot] = sv
  live_add(live_views, sv)
  if parent then parent.nch = parent.nch + 1 end
  local ax = chance(70) and parent or rand_view()
  local ay = chance(70) and parent or rand_view()
  if ax == sv then ax = nil end
  if ay == sv then ay = nil end
  local lead = chance(20)
  local lines = {
    string.format("%s.%s == %s.%s + %d", name, lead and "leading" or "left", name_of(ax),
      lead and (chance(70) and "leading" or "trailing") or (chance(70) and "left" or "right"), below(120)),
    string.format("%s.top == %s.%s + %d", name, name_of(ay), chance(70) and "top" or "bottom", below(120)),
    string.format("%s.width == %d @ %s", name, 20 + below(200), chance(20) and "required" or rand_soft()),
    string.format("%s.height == %d @ %s", name, 10 + below(100), chance(20) and "required" or rand_soft()),
  }
  if chance(20) then
    lines[5] = string.format("%s.bottom <= keyboard.top - %d @ %s", name, below(20), rand_soft())
  end
  local cs = result("eqs (a new view)", false, L:eqs(table.concat(lines, "\n")))
  if not cs then return end
  if #cs ~= #lines then fail(string.format("eqs of %d lines gave %d constraints", #lines, #cs)) return end
  for i, c in ipairs(cs) do
    if cons[c.id] then fail("the equations of a new view returned an existing constraint") end
    local e = cons_add(c, sv, i == 1 and ax or i == 2 and ay or nil, (i == 1 or i == 3) and 0 or 1, true)
    if i == 1 then sv.xc = e elseif i == 2 then sv.yc = e end
  end
end

local mark = {}
local function remove_view(sv)
  for k in pairs(mark) do mark[k] = nil end
  mark[sv] = true
  local changed = true
  while changed do
    changed = false
    for _, x in ipairs(live_views) do
      if not mark[x] and x.parent and mark[x.parent] then mark[x] = true; changed = true end
    end
  end
  sv.v:remove()
  if sv.parent then sv.parent.nch = sv.parent.nch - 1 end
  for i = #live_cons, 1, -1 do
    local e = live_cons[i]
    if (e.va and mark[e.va]) or (e.vb and mark[e.vb]) then cons_drop(e) end
  end
  for i = #live_views, 1, -1 do
    local x = live_views[i]
    if mark[x] then
      live_del(live_views, x); views[x.slot] = nil
      x.dead, x.v, x.parent, x.xc, x.yc = true, nil, nil, nil, nil
    end
  end
end

local function remove_leaf()
  for _ = 1, 8 do
    local sv = rand_view()
    if sv and sv.nch == 0 then remove_view(sv) return end
  end
end

local function in_subtree(x, sv)
  while x do
    if x == sv then return true end
    x = x.parent
  end
  return false
end

-- A view with its subviews; subtrees of more than MAX_SUBTREE views are passed over (the pool stays near its cap).
local function remove_subtree()
  for _ = 1, 4 do
    local sv = rand_view()
    if not sv then return end
    local size = 0
    for _, x in ipairs(live_views) do
      if in_subtree(x, sv) then size = size + 1 end
      if size > MAX_SUBTREE then break end
    end
    if size <= MAX_SUBTREE then remove_view(sv) return end
  end
end

-- Moves a view under another superview (nil: the root); into its own subtree raises (a cycle: misuse).
local function move_view()
  local sv = rand_view()
  if not sv then return end
  local p = not chance(20) and rand_view() or nil
  if p and in_subtree(p, sv) then
    if pcall(sv.v.set_superview, sv.v, p.v) then fail("a move into the view's own subtree did not raise") end
    return
  end
  if not result("set_superview", false, sv.v:set_superview(p and p.v or nil)) then return end
  if sv.parent then sv.parent.nch = sv.parent.nch - 1 end
  sv.parent = p
  if p then p.nch = p.nch + 1 end
end

local hpos = { { "left", "right", "centerX" }, { "leading", "trailing", "leading" } }
local vpos = { "top", "bottom", "centerY" }
local rels = { "==", "<=", ">=" }

local function add_eq()
  local a = rand_view()
  if not a then return end
  local b = chance(85) and rand_view() or nil
  if b == a then b = nil end
  local nb = name_of(b)
  if not b and chance(30) then nb = chance(50) and "safeArea" or "margins" end
  local axis, required, kind = below(2), chance(35), below(10)
  local pri = required and "" or (" @ " .. rand_soft())
  local rel = rels[below(3) + 1]
  local line
  if kind < 6 then
    local fam = chance(25) and 2 or 1
    local x = axis == 1 and vpos[below(3) + 1] or hpos[fam][below(3) + 1]
    local y = axis == 1 and vpos[below(3) + 1] or hpos[fam][below(3) + 1]
    local k = below(161) - 80
    line = string.format("%s.%s %s %s.%s %s %d%s", name_of(a), x, rel, nb, y, k < 0 and "-" or "+", math.abs(k), pri)
  elseif kind < 9 then
    local d = axis == 1 and "height" or "width"
    local mul = ({ "", " * 0.5", " * 2", " / 3" })[below(4) + 1]
    local k = below(41) - 20
    line = string.format("%s.%s %s %s.%s%s %s %d%s", name_of(a), d, rel, nb, d, mul, k < 0 and "-" or "+",
      math.abs(k), pri)
  else
    line = string.format("%s.%s %s %d%s", name_of(a), axis == 1 and "height" or "width", rel, below(300), pri)
    b = nil
  end
  local before = has_usage and L:usage() or nil
  local c, msg, details = L:eq(line)
  if c == nil then
    result("eq `" .. line .. "`", required, c, msg, details)
    if has_usage then
      local after = L:usage()
      for _, k in ipairs { "rows", "cells", "variables", "constraints", "views" } do
        if before[k] ~= after[k] then
          fail(string.format("a failed `%s` changed %s: %d -> %d", line, k, before[k], after[k]))
        end
      end
    end
    return
  end
  if not cons[c.id] then cons_add(c, a, b, axis, false) end -- else re-issued: the constant was updated
end

local function remove_eq()
  local e = rand_cons()
  if not e then return end
  if e.placement and chance(70) then e = rand_cons() end
  if e.active and chance(40) then
    local line = tostring(e.c)
    local n = result("xeq `" .. line .. "`", false, L:xeq(line))
    if n == nil then return end
    if n ~= 1 then fail(string.format("xeq `%s` removed %d constraints", line, n)) end
    if not e.c.removed then
      -- a twin went instead (same sides, relation and priority: set_priority can make one): find it
      xeq_twins = xeq_twins + 1
      local twin
      for _, x in ipairs(live_cons) do if x.c.removed then twin = x break end end
      if not twin then fail("xeq removed a constraint, but none of those known is gone") return end
      e = twin
    end
  else
    e.c:remove()
  end
  if not e.c.removed then fail("a removed constraint is not reported removed") end
  cons_drop(e)
end

local function set_constant()
  local e = rand_cons()
  if not e then return end
  local req = e.active and e.c.priority == 1000
  local before = e.c.constant
  local r = result("set_constant", req, e.c:set_constant(range(-100, 300)))
  if r == nil and e.c.constant ~= before then fail("a failed set_constant changed the constant") end
end

local function set_priority()
  local e = rand_cons()
  if not e then return end
  -- sometimes any value of the range, not a named point
  local p = chance(10) and frange(1, 999) or ({ "required", "high", "low", 500, 999, 1, 251 })[below(7) + 1]
  local may = p == "required" and e.active and e.c.priority ~= 1000
  result("set_priority", may, e.c:set_priority(p))
end

local function set_active()
  local e = rand_cons()
  if not e then return end
  if e.c.active ~= e.active then fail("active differs from the bookkeeping") end
  if e.active then
    if result("set_active(false)", false, e.c:set_active(false)) then e.active = false end
  else
    if result("set_active(true)", e.c.priority == 1000, e.c:set_active(true)) then e.active = true end
  end
end

local curves = { "linear", "easeIn", "easeOut", "easeInOut", "spring", "keyboard", { 0.2, 1.4, 0.6, 1 },
  { damping = 0.7, response = 0.4 } }
local function rand_curve() return curves[below(#curves) + 1] end

local function remember(a) if a then recent[below(8) + 1] = a end end

-- Animates a constant (or, with priority, a priority) of a random constraint; sometimes stops its animations.
local function animate(priority)
  local e = rand_cons()
  if not e then return end
  local with_done = chance(50)
  local opts = { duration = frange(0.05, 0.8), curve = rand_curve(), delay = chance(20) and 0.1 or 0,
    done = with_done and done_fn or nil }
  local a
  if priority then
    a = e.c:animate_priority(({ "required", "high", "low", 1 })[below(4) + 1], opts)
  elseif chance(10) then
    e.c:stop_animating()
    return
  else
    a = e.c:animate(range(-100, 300), opts)
  end
  if with_done then done_given = done_given + 1 end
  remember(a)
end

local function cancel()
  if chance(5) then L:cancel_animations() return end
  local a = recent[below(8) + 1]
  if a then a:cancel() end
end

local function read_changed(expect, all)
  local _, n = L:frame_values(all and "all" or "changed", frame_buf)
  if expect and n ~= expect then fail(string.format("frame_values gave %d views, the frame said %d", n, expect)) end
  for k = 0, (n - 1) * stride, stride do
    mix(frame_buf[k + 6]); mix(frame_buf[k + 7]); mix(frame_buf[k + 8]); mix(frame_buf[k + 9])
  end
  return n
end

local function advance()
  local n
  if chance(10) then n = L:seek(L.time + 0.05, false)
  else n = L:advance(({ 1 / 60, 1 / 60, 1 / 30, 0.25 })[below(4) + 1], false) end
  read_changed(n)
  mix(L.animating and 1 or 0)
  if tracing then
    traced = traced + 1
    if traced >= MAX_TRACE then L:trace_stop(); tracing = false end
  end
end

local function col_alive(col) return not col.view.dead and not col.e.dead end

local function collapsible()
  for i, col in ipairs(cols) do
    if not col_alive(col) then
      local ok = pcall(col.col.collapse, col.col, { animated = false })
      if ok then fail("a collapsible whose view or constraint was removed did not raise") end
      col.col:free()
      table.remove(cols, i)
      return
    end
  end
  if #cols < MAX_COLS and (#cols == 0 or chance(15)) then
    local sv = rand_view()
    if not sv then return end
    local horizontal = chance(50)
    local e = horizontal and sv.xc or sv.yc
    if not e or e.dead then return end
    local dir = horizontal and (chance(50) and "left" or "right") or (chance(50) and "up" or "down")
    cols[#cols + 1] = { col = L:collapsible(sv.v, e.c, dir), view = sv, e = e }
    return
  end
  if #cols == 0 then return end
  local i = below(#cols) + 1
  local col = cols[i]
  if chance(5) then col.col:free(); table.remove(cols, i) return end
  local animated, with_done = chance(70), chance(50)
  local opts = { animated = animated, duration = frange(0.1, 0.5), curve = rand_curve(),
    done = with_done and done_fn or nil }
  local want = not col.col.collapsed
  local r, msg, details
  if chance(50) then r, msg, details = col.col:toggle(opts)
  elseif want then r, msg, details = col.col:collapse(opts)
  else r, msg, details = col.col:show(opts) end
  if r == nil and msg ~= nil then result("collapsible", not animated, r, msg, details) return end
  if with_done then done_given = done_given + 1 end
  remember(r)
  if col.col.collapsed ~= want then fail("collapsed is not what was set") end
end

local function pan()
  for i, p in ipairs(pans) do
    local alive = true
    for _, e in ipairs(p.es) do alive = alive and not e.dead end
    if not alive then
      local ok = pcall(p.p.began, p.p)
      if ok then fail("a pan whose constraint was removed did not raise") end
      p.p:free()
      table.remove(pans, i)
      return
    end
  end
  if #pans < MAX_PANS and (#pans == 0 or chance(10)) then
    local vertical, n = chance(50), 1 + below(3)
    local cs, es, seen = {}, {}, {}
    for _ = 1, 8 do
      if #cs >= n then break end
      local sv = rand_view()
      if not sv then break end
      local e = vertical and sv.yc or sv.xc
      if e and not e.dead and not seen[e] then seen[e] = true; cs[#cs + 1] = e.c; es[#es + 1] = e end
    end
    if #cs == 0 then return end
    pans[#pans + 1] = { p = L:pan(cs, vertical and "vertical" or "horizontal", { 0, -100, 100 }), es = es,
      dragging = false, t = 0 }
    return
  end
  if #pans == 0 then return end
  local i = below(#pans) + 1
  local p = pans[i]
  if chance(3) then
    if p.dragging then p.p:cancelled() end
    p.p:free()
    table.remove(pans, i)
    return
  end
  if not p.dragging then
    if chance(15) then
      local animated = chance(60)
      if result("pan move", not animated, p.p:move(range(-100, 100), animated, rest_fn)) then
        rest_given = rest_given + 1
      end
      return
    end
    if p.p:began() ~= true then fail("pan began not accepted") end
    p.dragging, p.t = true, 0
    return
  end
  local k = below(10)
  if k < 7 then
    local step = frange(-30, 30)
    p.t = p.t + step
    local acc = result("pan changed", true, p.p:changed(p.t, step * 60))
    if acc == false then fail("pan changed not accepted during a drag") end
  elseif k < 9 then
    local target = p.p:ended(frange(-1500, 1500), rest_fn)
    if target == false then fail("pan ended not accepted after a drag")
    else rest_given = rest_given + 1; mix(target) end
    p.dragging = false
  else
    if p.p:cancelled(rest_fn) ~= false then rest_given = rest_given + 1 end
    p.dragging = false
  end
end

local function root_size()
  local w, h = range(200, 1200), range(200, 1200)
  if chance(60) then
    result("set_root_size", true, L:set_root_size(w, h))
  else
    local with_done = chance(50)
    remember(L:animate_root_size(w, h, { duration = frange(0.1, 0.6), curve = rand_curve(),
      done = with_done and done_fn or nil }))
    if with_done then done_given = done_given + 1 end
  end
end

local function keyboard()
  local k, with_done = below(5), chance(50)
  if k < 2 then
    remember(L:show_keyboard(range(100, 400), 0.25, { curve = "keyboard", done = with_done and done_fn or nil }))
  elseif k < 4 then
    remember(L:hide_keyboard(0.25, { done = with_done and done_fn or nil }))
  else
    result("set_keyboard_height", true, L:set_keyboard_height(range(0, 300)))
    return
  end
  if with_done then done_given = done_given + 1 end
end

local words = { "Moa", "lays", "out", "text", "that", "wraps", "to", "the", "width", "it", "gets", "constraint",
  "soak", "without", "growth", "é", "日本語", "x" }
local function text()
  local sv = rand_view()
  if not sv then return end
  if sv.text and chance(30) then sv.v:set_text(nil); sv.text = false return end
  if sv.text and chance(20) then local lines = sv.v:text_lines(); mix(#lines) return end
  local parts = {}
  for i = 1, 1 + below(14) do parts[i] = words[below(#words) + 1] end
  local style = chance(50) and { size = 12 + below(9), max_lines = below(3) } or nil
  sv.v:set_text(table.concat(parts, chance(10) and "\n" or " "), style)
  sv.text = true
end

local function solve()
  local n = L:solve(false)
  if chance(10) then
    local m = read_changed(nil, true)
    if m ~= #live_views + 1 then
      fail(string.format("frame_values('all') gave %d, want %d views + the root", m, #live_views))
    end
  elseif chance(10) then
    for _, f in ipairs(L:changed_frames()) do mix(f.root_frame.x); mix(f.root_frame.width) end
  else
    read_changed(n)
  end
end

local function trace()
  if tracing then L:trace_stop(); tracing = false
  else L:trace_start { guides = chance(30) }; tracing, traced = true, 0 end
end

local function rare()
  local k = below(6)
  if k == 0 then mix(#L:violations())
  elseif k == 1 then mix(#L:ambiguities())
  elseif k == 2 then mix(#L:describe())
  elseif k == 3 then mix(#L:svg { constraints = chance(50), guides = chance(50) })
  elseif k == 4 then mix(#L:trace_csv())
  else
    local sv = rand_view()
    if sv then local w, h = L:fitting_size(sv.v, 320, 0); mix(w); mix(h) end
    check_counts("rare")
  end
end

local ops_table = {
  { "add_view", 9, add_view }, { "remove_leaf", 4, remove_leaf }, { "remove_subtree", 1, remove_subtree },
  { "move_view", 1, move_view },
  { "add_eq", 9, add_eq }, { "remove_eq", 5, remove_eq }, { "set_constant", 10, set_constant },
  { "set_priority", 3, set_priority }, { "set_active", 2, set_active },
  { "animate", 5, function() animate(false) end }, { "animate_priority", 1, function() animate(true) end },
  { "cancel", 1, cancel }, { "advance", 12, advance }, { "collapsible", 4, collapsible }, { "pan", 6, pan },
  { "root_size", 2, root_size }, { "keyboard", 2, keyboard }, { "text", 3, text }, { "solve", 12, solve },
  { "trace", 1, trace },
}
local rare_on = true
do -- --without a,b: never draw those kinds; --only a,b: only those (to find which kind makes something grow)
  local list, keep = without or only, {}
  if list then
    for name in list:gmatch("[^,]+") do
      local known = name == "rare"
      for _, o in ipairs(ops_table) do known = known or o[1] == name end
      if not known then io.stderr:write("soak.lua: unknown operation kind '" .. name .. "'\n"); os.exit(2) end
      keep[name] = true
    end
    for _, o in ipairs(ops_table) do
      if (keep[o[1]] or false) ~= (only ~= nil) then o[2] = 0 end
    end
    if (keep.rare or false) ~= (only ~= nil) then rare_on = false end
  end
end
local total = 0
for _, o in ipairs(ops_table) do total = total + o[2] end
local by_name = {}
for _, o in ipairs(ops_table) do by_name[o[1]] = o end
local counts = {}

local function pick()
  if (rare_on and below(RARE_EVERY) == 0) or total == 0 then return "rare", rare end
  local x = below(total)
  local o
  for _, e in ipairs(ops_table) do
    if x < e[2] then o = e break end
    x = x - e[2]
  end
  local name = o[1]
  if name == "add_view" and #live_views >= MAX_VIEWS then name = "remove_leaf"
  elseif (name == "remove_leaf" or name == "remove_subtree") and #live_views < MIN_VIEWS then name = "add_view" end
  if name == "add_eq" and nextra >= MAX_EXTRA then name = "remove_eq" end
  return name, by_name[name][3]
end

-- the run -----------------------------------------------------------------------------------------------------

local page = 4096
do
  local p = io.popen("getconf PAGESIZE 2>/dev/null")
  if p then page = tonumber(p:read("l") or "") or page; p:close() end
end
local function rss_mb()
  local f = io.open("/proc/self/statm")
  if not f then return 0 end
  local _, resident = f:read("n", "n")
  f:close()
  return (resident or 0) * page / (1024 * 1024)
end

print(string.format("soak.lua: moa %s, %s, %d operations, seed %d", moa.version or "?", quick and "quick" or "full",
  ops, seed))
local samples = {}
local done_ops = 0
local t_start = os.clock()
for tenth = 1, 10 do
  local stop = ops * tenth // 10
  local t0 = os.clock()
  while done_ops < stop do
    done_ops = done_ops + 1
    op_index = done_ops
    local name, fn = pick()
    counts[name] = (counts[name] or 0) + 1
    local ok, err = pcall(fn)
    if not ok then fail(string.format("%s raised: %s", name, tostring(err))) end
    if done_ops % 1000 == 0 then collectgarbage("step") end
  end
  local t1 = os.clock()
  collectgarbage("collect")
  check_counts("tenth " .. tenth)
  local u = has_usage and L:usage() or { rows = 0, cells = 0 }
  samples[tenth] = { us = (t1 - t0) * 1e6 / (stop - ops * (tenth - 1) // 10), heap = collectgarbage("count") / 1024,
    rss = rss_mb(), views = #live_views, cons = #live_cons, rows = u.rows, cells = u.cells }
end
local secs = os.clock() - t_start

print(string.format("%5s %10s %9s %9s %8s %6s %6s %6s %8s", "tenth", "ops", "us/op", "heap MB", "RSS MB", "views",
  "cons", "rows", "cells"))
for t, s in ipairs(samples) do
  print(string.format("%5d %10d %9.1f %9.2f %8.1f %6d %6d %6d %8d", t, ops * t // 10, s.us, s.heap, s.rss, s.views,
    s.cons, s.rows, s.cells))
end

local bad = 0
local function flat(what, base, last)
  local limit = base * 1.10 + 4
  local ok = last <= limit
  print(string.format("%s: at the end %.2f MB, after warm-up (tenth 2) %.2f MB; limit 1.10 x %.2f + 4 = %.2f MB: %s",
    what, last, base, base, limit, ok and "flat" or "GROWS"))
  if not ok then bad = bad + 1 end
end
flat("Lua heap", samples[2].heap, samples[10].heap)
flat("RSS", samples[2].rss, samples[10].rss)
local ratio = samples[2].us > 0 and samples[10].us / samples[2].us or 0
if check_time then
  print(string.format("time: us/op last tenth / second tenth = %.2f (limit 2.0): %s", ratio,
    ratio <= 2.0 and "flat" or "SLOWER"))
  if ratio > 2.0 then bad = bad + 1 end
else
  print(string.format("time: us/op last tenth / second tenth = %.2f (reported only; --check-time checks it)", ratio))
end

-- every completion given to a successful call is called exactly once, the last ones by the close
for _, col in ipairs(cols) do col.col:free() end
for _, p in ipairs(pans) do p.p:free() end
L:close()
if done_calls ~= done_given then fail(string.format("%d completions given, %d called", done_given, done_calls)) end
if rest_calls ~= rest_given then fail(string.format("%d pan rests given, %d called", rest_given, rest_calls)) end
if failures > 0 then bad = bad + 1 end

local names = {}
for _, o in ipairs(ops_table) do names[#names + 1] = o[1] .. " " .. (counts[o[1]] or 0) end
names[#names + 1] = "rare " .. (counts.rare or 0)
print("operations: " .. table.concat(names, ", "))
print(string.format("checksum %016x, %d unexpected, %d unsatisfiable (accepted), completions %d/%d, " ..
  "pan rests %d/%d, " ..
  "xeq twins %d, %.1f s CPU", H, failures, unsat, done_calls, done_given, rest_calls, rest_given, xeq_twins, secs))
if bad > 0 then
  print(string.format("soak.lua: FAILED (%d broken criteria)", bad))
  os.exit(1)
end
print("soak.lua: ok")
