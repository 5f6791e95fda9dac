-- Limits and progress (Include/moa.h, "Limits and progress"): L:set_limit / L:limit / L:usage, the same on a
-- solver (the same names: rows, cells, seconds, pivots), and L:on_progress. A call stopped by a limit or by the
-- progress function returns nil, message, details (code "LIMIT") and changes nothing; an error raised by the
-- progress function stops the call and is raised by it once the library has returned; the progress function
-- cannot change the layout.
local moa = require "moa"

-- A layout of n views in a row, and the text of 3 equations per view (left, top, width): 3n constraints.
local function row_scene(n)
  local L = moa.layout(320, 480)
  local lines = {}
  for i = 1, n do
    L:view("v" .. i)
    local prev = i == 1 and "root.left" or ("v" .. (i - 1) .. ".right")
    lines[#lines + 1] = ("v%d.left == %s + 1"):format(i, prev)
    lines[#lines + 1] = ("v%d.top == 0"):format(i)
    lines[#lines + 1] = ("v%d.width == 10"):format(i)
  end
  return L, table.concat(lines, "\n")
end

-- Every view's frame as of the last solve, by name.
local function frames(L)
  local t = {}
  for _, v in ipairs(L:views()) do
    local f = v.frame
    t[v.name] = { f.x, f.y, f.width, f.height }
  end
  return t
end

-- A call's results are a limit failure: nil, message, details with code "LIMIT" (and a layout's kind "limit").
local function assert_limit(ok, msg, details)
  assert.is_nil(ok)
  assert.is_string(msg)
  assert.equal("LIMIT", details.code)
  assert.equal(10, details.status)
  if details.kind ~= nil then assert.equal("limit", details.kind) end
  assert.same({}, details.conflicts)
end

-- The drag row (shared/bench/DRAG.md) on a raw solver: n boxes 8 apart, each >= 20 wide and preferring 40.5 to
-- 72.75 at one of seven soft priorities with distinct weights; the trailing space prefers 8 (@325); the container's
-- right edge is an edit (@750) at the natural width. Suggesting the minimum width takes a pivot per box.
-- Returns s, the edit variable, every variable (container left and right, then left and width of each box), the
-- natural and the minimum width.
local prefs = { 40.5, 50.25, 60.125, 72.75 }

local function drag_row(n)
  local s = moa.solver()
  local cl, cr = s:var "container.left", s:var "container.right"
  local vars, natural = { cl, cr }, 8 * n + 8
  assert(s:add(cl:eq(0)))
  local prev
  for i = 0, n - 1 do
    local left, width = s:var("left" .. i), s:var("width" .. i)
    vars[#vars + 1], vars[#vars + 2] = left, width
    assert(s:add(left:eq(prev and prev + 8 or cl + 8)))
    assert(s:add(width:ge(20)))
    local pref = prefs[i % 4 + 1]
    natural = natural + pref
    assert(s:add(width:eq(pref), 250 + 8 * (i % 7), 1 + i / 1024))
    prev = left + width
  end
  assert(s:add(cr:ge(prev + 8)))
  assert(s:add((prev + 8):eq(cr), 325))
  assert(s:edit(cr, 750))
  s:suggest(cr, natural):update()
  return s, cr, vars, natural, 28 * n + 8
end

-- The values of vars as of the last update.
-- Views b0 ... b(n-1) in a row 8 apart from x = 8, each at least `min` wide and preferring a `prefs` width at its
-- own priority: their equations.
local function box_row(L, n, min)
  local lines = {}
  for i = 0, n - 1 do
    L:view("b" .. i)
    lines[#lines + 1] = i == 0 and "b0.left == 8" or ("b%d.left == b%d.right + 8"):format(i, i - 1)
    lines[#lines + 1] = ("b%d.top == 0\nb%d.height == 20\nb%d.width >= %g"):format(i, i, i, min)
    lines[#lines + 1] = ("b%d.width == %s @ %d"):format(i, prefs[i % 4 + 1], 250 + 8 * (i % 7))
  end
  return table.concat(lines, "\n")
end

local function values(vars)
  local t = {}
  for i, v in ipairs(vars) do t[i] = v.value end
  return t
end

describe("layout limits", function()
  it("has readable defaults", function()
    local L <close> = moa.layout(320, 480)
    assert.equal(10000000, L:limit "rows")
    assert.equal(100000000, L:limit "cells")
    assert.equal(0, L:limit "seconds")
    assert.equal(10000000, L:limit "pivots")
    assert.equal("integer", math.type(L:limit "rows"))
    assert.equal("integer", math.type(L:limit "pivots"))
    assert.equal("float", math.type(L:limit "seconds"))
  end)

  it("sets and reads each limit", function()
    local L <close> = moa.layout(320, 480)
    assert.equal(L, L:set_limit("rows", 1234))
    assert.equal(1234, L:limit "rows")
    L:set_limit("cells", 5678)
    assert.equal(5678, L:limit "cells")
    L:set_limit("seconds", 0.25)
    assert.equal(0.25, L:limit "seconds")
    L:set_limit("seconds", 0)
    assert.equal(0, L:limit "seconds")
    L:set_limit("pivots", 42)
    assert.equal(42, L:limit "pivots")
  end)

  it("raises for an unknown name or a bad value", function()
    local L <close> = moa.layout(320, 480)
    assert.error_matches(function() L:limit "bogus" end, "unknown limit 'bogus' %(expected 'rows', 'cells', "
      .. "'seconds' or 'pivots'%)")
    assert.error_matches(function() L:set_limit("bogus", 1) end, "unknown limit 'bogus'")
    assert.error_matches(function() L:set_limit("rows") end, "number expected")
    assert.error_matches(function() L:set_limit("rows", 0) end, "set_limit:")
    assert.error_matches(function() L:set_limit("cells", 2.5) end, "set_limit:")
    assert.error_matches(function() L:set_limit("seconds", -1) end, "set_limit:")
    assert.error_matches(function() L:set_limit("seconds", math.huge) end, "must be finite")
    assert.error_matches(function() L:set_limit("pivots", 0) end, "set_limit:")
    assert.error_matches(function() L:set_limit("pivots", 2.5) end, "set_limit:")
    assert.equal(10000000, L:limit "rows") -- unchanged
    assert.equal(10000000, L:limit "pivots")
  end)

  it("refuses a big eqs block past the cell limit, changes nothing, and works again once raised", function()
    local L <close>, text = row_scene(100)
    assert(L:eqs "v1.height == 20")
    L:solve()
    local before, before_frames, before_usage = L:describe(), frames(L), L:usage()
    L:set_limit("cells", 50)
    local ok, msg, details = L:eqs(text)
    assert_limit(ok, msg, details)
    assert.matches("the limit is 50", msg)
    assert.is_true(details.line >= 1)
    assert.equal(before, L:describe())
    assert.same(before_usage, L:usage())
    L:solve()
    assert.same(before_frames, frames(L))

    L:set_limit("cells", 1e8)
    local cs = assert(L:eqs(text))
    assert.equal(300, #cs)
    L:solve()
    assert.equal(12, frames(L).v2[1])
  end)

  it("a row limit refuses a single eq", function()
    local L <close> = moa.layout(320, 480)
    L:view "a"
    L:set_limit("rows", L:usage().rows)
    assert_limit(L:eq "a.left == 10")
    assert.equal("", L:describe())
    L:set_limit("rows", L:usage().rows + 10)
    assert.is_not_nil(L:eq "a.left == 10")
  end)

  it("limits a call's time", function()
    local L <close>, text = row_scene(1000)
    L:set_limit("seconds", 1e-9)
    local ok, msg, details = L:eqs(text)
    assert_limit(ok, msg, details)
    assert.matches("limit of 1e%-09 s", msg)
    assert.equal("", L:describe())
    L:set_limit("seconds", 0)
    assert.equal(3000, #assert(L:eqs(text)))
  end)

  it("limits the pivots of each solver operation: a block that must shrink a row fails, no frame moves", function()
    local L <close> = moa.layout(320, 480)
    assert(L:eqs(box_row(L, 10, 20)))
    L:solve()
    local before, before_frames, before_usage = L:describe(), frames(L), L:usage()
    L:set_limit("pivots", 1)
    local block = "b9.right == root.left + 300" -- every box but one gives way: a pivot each
    local ok, msg, details = L:eqs(block)
    assert_limit(ok, msg, details)
    assert.matches("limit of 1 pivot", msg)
    assert.equal(1, details.line)
    assert.equal(before, L:describe())
    assert.same(before_usage, L:usage())
    L:solve()
    assert.same(before_frames, frames(L))
    L:set_limit("pivots", 1e7)
    assert(L:eqs(block))
    L:solve()
    local f = L:find("b9").frame
    assert.near(300, f.x + f.width, 1e-9)
  end)

  it("returns a limit from the other calls that report failures", function()
    local L <close> = moa.layout(320, 480)
    local views = {}
    for i = 1, 20 do views[i] = L:view("s" .. i) end
    L:set_limit("cells", L:usage().cells + 10)
    assert_limit(L:stack("st", { views = views }))
    assert.is_nil(L:find "st") -- the stack is not made
    L:set_limit("cells", 1e8)
    assert.is_not_nil(L:stack("st", { views = views }))
  end)
end)

describe("layout usage", function()
  it("grows with views and equations and shrinks back when they go", function()
    local L <close> = moa.layout(320, 480)
    local u0 = L:usage()
    for _, k in ipairs { "rows", "cells", "variables", "constraints", "views" } do
      assert.equal("integer", math.type(u0[k]), k)
    end
    assert.is_true(u0.views >= 1) -- the root (and guides)
    local a, b = L:view "a", L:view "b"
    local u1 = L:usage()
    assert.equal(u0.views + 2, u1.views)
    assert.equal(u0.variables + 8, u1.variables)
    assert(L:eqs "a.left == 0\na.width == 10\nb.left == a.right\nb.width == 20")
    local u2 = L:usage()
    assert.equal(u1.constraints + 4, u2.constraints)
    assert.is_true(u2.rows > u1.rows)
    assert.is_true(u2.cells > u1.cells)
    b:remove()
    a:remove()
    assert.same(u0, L:usage())
  end)
end)

describe("the progress function", function()
  it("is called with growing step counts during a long eqs", function()
    local L <close>, text = row_scene(1000)
    local steps = {}
    assert.equal(L, L:on_progress(function(n) steps[#steps + 1] = n end, 100))
    assert.equal(3000, #assert(L:eqs(text)))
    assert.equal(30, #steps)
    for i, n in ipairs(steps) do
      assert.equal(100 * i, n)
      assert.equal("integer", math.type(n))
    end
  end)

  it("defaults to every 1000 constraints and is removed by nil", function()
    local L <close>, text = row_scene(1000)
    local steps = {}
    L:on_progress(function(n) steps[#steps + 1] = n end)
    assert(L:eqs(text))
    assert.same({ 1000, 2000, 3000 }, steps)
    L:on_progress(nil)
    local L2 <close>, text2 = row_scene(1000)
    L2:on_progress(function() error "not this one" end, 1)
    L2:on_progress(nil)
    assert(L2:eqs(text2))
  end)

  it("checks its arguments", function()
    local L <close> = moa.layout(320, 480)
    assert.error_matches(function() L:on_progress(42) end, "function expected")
    assert.error_matches(function() L:on_progress(function() end, 0) end, "interval must be 1 or more")
    assert.error_matches(function() L:on_progress(function() end, 1.5) end, "number has no integer representation")
  end)

  it("stops the call by returning false: nothing changes", function()
    local L <close>, text = row_scene(1000)
    assert(L:eqs "v1.left == 5\nv1.top == 5\nv1.width == 5\nv1.height == 5")
    L:solve()
    local before, before_frames, before_usage = L:describe(), frames(L), L:usage()
    local last
    L:on_progress(function(n)
      last = n
      return n < 500
    end, 100)
    local ok, msg, details = L:eqs(text)
    assert_limit(ok, msg, details)
    assert.equal(500, last)
    assert.matches("progress handler stopped the call after 500 constraints", msg)
    assert.equal(before, L:describe())
    assert.same(before_usage, L:usage())
    L:solve()
    assert.same(before_frames, frames(L))
    -- nil and other values go on
    L:on_progress(function() return nil end, 100)
    assert(L:eqs(text))
  end)

  it("is called inside one long solver operation, where the layout cannot be used", function()
    -- a row of 600 boxes between their minimum and their preferences: one edge moves every box, a pivot each
    local L <close> = moa.layout(2000, 100)
    assert(L:eqs(box_row(L, 600, 1)))
    L:solve()
    local before, calls, inner = L:describe(), 0, nil
    L:on_progress(function(n)
      calls = calls + 1
      inner = select(2, pcall(L.describe, L))
      return false
    end, 1000000)
    local ok, msg, details = L:eqs "b599.right == 8000" -- x = 10000: between the minimum and the preferences
    assert_limit(ok, msg, details)
    assert.matches("progress", msg)
    assert.equal(1, calls)
    assert.matches("solver operation is under way", inner)
    assert.equal(before, L:describe())
    L:on_progress(function() calls = calls + 1 end, 1000000)
    assert(L:eqs "b599.right == 8000")
    assert.is_true(calls >= 3)
    L:solve()
    local f = L:find("b599").frame
    assert.is_true(math.abs(f.x + f.width - 10000) < 1e-6)
  end)

  it("stops the call when it raises; the error reaches the caller", function()
    local L <close>, text = row_scene(300)
    L:on_progress(function(n) error("stop at " .. n) end, 50)
    local ok, err = pcall(L.eqs, L, text)
    assert.is_false(ok)
    assert.matches("stop at 50", err)
    assert.equal("", L:describe())
    -- a non-string error value comes through as it is
    local value = { reason = "mine" }
    L:on_progress(function() error(value) end, 50)
    ok, err = pcall(L.eqs, L, text)
    assert.is_false(ok)
    assert.equal(value, err)
    -- nothing is left pending: the next call is not disturbed
    L:on_progress(nil)
    assert.equal(900, #assert(L:eqs(text)))
  end)

  it("raises from the other calls too (not a returned failure)", function()
    local L <close> = moa.layout(320, 480)
    local views = {}
    for i = 1, 20 do views[i] = L:view("s" .. i) end
    L:on_progress(function() error "no stacks today" end, 1)
    local ok, err = pcall(L.stack, L, "st", { views = views })
    assert.is_false(ok)
    assert.matches("no stacks today", err)
    assert.is_nil(L:find "st")
  end)

  it("cannot change the layout from inside: misuse is raised there, and the call goes on", function()
    local L <close>, text = row_scene(100)
    local errors, described = {}, nil
    L:on_progress(function()
      for _, f in ipairs {
        function() L:solve() end,
        function() L:eq "v1.height == 1" end,
        function() L:on_progress(nil) end,
        function() L:set_limit("rows", 5) end,
      } do
        local ok, err = pcall(f)
        errors[#errors + 1] = not ok and err or "no error"
      end
      described = described or L:describe() -- reading is allowed
    end, 100)
    assert.equal(300, #assert(L:eqs(text)))
    assert.equal(12, #errors) -- 3 calls of the function, 4 attempts each
    for _, err in ipairs(errors) do
      assert.matches("progress handler", err)
    end
    assert.is_string(described)
    assert.equal(10000000, L:limit "rows")
    L:solve()
    assert.equal(12, L:find("v2").frame.x)
  end)

  it("may close the layout: the call then raises", function()
    local L, text = row_scene(100)
    L:on_progress(function() L:close() end, 10)
    local ok, err = pcall(L.eqs, L, text)
    assert.is_false(ok)
    assert.matches("closed layout", err)
    assert.is_true(L.closed)
  end)

  it("runs on the coroutine that made the call, and cannot yield", function()
    local L <close>, text = row_scene(100)
    local threads = {}
    L:on_progress(function() threads[#threads + 1] = coroutine.running() end, 100)
    local co = coroutine.create(function() return L:eqs(text) end)
    local ok, cs = coroutine.resume(co)
    assert.is_true(ok)
    assert.equal(300, #cs)
    assert.same({ co, co, co }, threads)

    local L2 <close>, text2 = row_scene(100)
    L2:on_progress(function() coroutine.yield() end, 10)
    co = coroutine.create(function() return L2:eqs(text2) end)
    local ok2, err = coroutine.resume(co)
    assert.is_false(ok2)
    assert.matches("yield across", err)
    assert.equal("", L2:describe())
  end)
end)

describe("solver limits", function()
  it("has readable defaults and the layout's limit names", function()
    local s <close> = moa.solver()
    assert.equal(10000000, s:limit "rows")
    assert.equal(100000000, s:limit "cells")
    assert.equal(0, s:limit "seconds")
    assert.equal(10000000, s:limit "pivots")
    assert.equal("float", math.type(s:limit "seconds"))
    assert.equal("integer", math.type(s:limit "pivots"))
    assert.equal(s, s:set_limit("cells", 999))
    assert.equal(999, s:limit "cells")
    assert.equal(s, s:set_limit("seconds", 0.5))
    assert.equal(0.5, s:limit "seconds")
    assert.equal(s, s:set_limit("pivots", 2 ^ 53))
    assert.equal(2 ^ 53, s:limit "pivots")
    assert.equal("integer", math.type(s:limit "pivots"))
    assert.error_matches(function() s:limit "bogus" end, "unknown limit 'bogus' %(expected 'rows', 'cells', "
      .. "'seconds' or 'pivots'%)")
    assert.error_matches(function() s:set_limit("rows", 0) end, "set_limit:")
    assert.error_matches(function() s:set_limit("pivots", 0) end, "set_limit:")
    assert.error_matches(function() s:set_limit("pivots", 2.5) end, "set_limit:")
    assert.error_matches(function() s:set_limit("pivots", -1) end, "set_limit:")
    assert.error_matches(function() s:set_limit("seconds", -1) end, "set_limit:")
    assert.error_matches(function() s:set_limit("seconds", math.huge) end, "must be finite")
    assert.error_matches(function() s:set_limit("seconds", 0 / 0) end, "must be finite")
    assert.equal(0.5, s:limit "seconds") -- unchanged
    assert.equal(2 ^ 53, s:limit "pivots")
  end)

  it("stops a suggestion at the pivots limit: nil, message, details, and the values stay", function()
    local s <close>, cr, vars, natural, min = drag_row(40)
    local before = values(vars)
    assert.equal(natural, cr.value)
    s:set_limit("pivots", 3)
    local ok, msg, details = s:suggest(cr, min)
    assert_limit(ok, msg, details)
    assert.matches("limit of 3 pivots", msg)
    s:update()
    assert.same(before, values(vars))
    s:set_limit("pivots", 1e7)
    assert.equal(s, s:suggest(cr, min))
    s:update()
    assert.equal(min, cr.value)
    for i = 4, #vars, 2 do assert.near(20, vars[i].value, 1e-9) end
  end)

  it("calls the progress function inside a suggestion: false stops it, an error stops it and comes through", function()
    local s <close>, cr, vars, natural, min = drag_row(400)
    local before, seen = values(vars), {}
    assert.equal(s, s:on_progress(function(pivots)
      seen[#seen + 1] = pivots
      local ok, err = pcall(s.counts, s)
      assert.is_false(ok)
      assert.matches("progress function", err)
      return false
    end, 100))
    local ok, msg, details = s:suggest(cr, min)
    assert_limit(ok, msg, details)
    assert.matches("progress", msg)
    assert.same({ 100 }, seen)
    s:update()
    assert.same(before, values(vars))
    s:on_progress(function(pivots) error("stop at " .. pivots) end, 50)
    local ok2, err = pcall(s.suggest, s, cr, min)
    assert.is_false(ok2)
    assert.matches("stop at 50", err)
    s:update()
    assert.same(before, values(vars))
    seen = {}
    s:on_progress(function(pivots) seen[#seen + 1] = pivots end, 100) -- nil goes on
    assert.equal(s, s:suggest(cr, min))
    s:update()
    assert.equal(min, cr.value)
    assert.same({ 100, 200, 300 }, { seen[1], seen[2], seen[3] })
    s:on_progress(nil)
    local n = #seen
    s:suggest(cr, natural)
    assert.equal(n, #seen)
    assert.error_matches(function() s:on_progress(42) end, "function expected")
    assert.error_matches(function() s:on_progress(function() end, 0) end, "every must be 1 or more")
  end)

  it("lets the progress function close its solver: the call ends first", function()
    local s, cr, _, _, min = drag_row(400)
    s:on_progress(function() s:close() end, 100)
    local ok = s:suggest(cr, min) -- closed mid-call: the call went on, then the solver went
    assert.is_true(s == ok or ok == nil)
    assert.is_true(s.closed or not pcall(s.counts, s))
  end)

  it("stops a suggestion at the time limit (the clock is read every 64 pivots)", function()
    local s <close>, cr, vars, _, min = drag_row(400)
    local before = values(vars)
    s:set_limit("seconds", 1e-9)
    local ok, msg, details = s:suggest(cr, min)
    assert_limit(ok, msg, details)
    assert.matches("limit of 1e%-09 s", msg)
    s:update()
    assert.same(before, values(vars))
    s:set_limit("seconds", 0)
    assert.equal(s, s:suggest(cr, min))
    s:update()
    assert.equal(min, cr.value)
  end)

  it("refuses an add that needs pivots past the limit, weight change included, and is left unchanged", function()
    local s <close> = moa.solver()
    local xs, sum = {}, nil
    for i = 1, 6 do
      xs[i] = s:var("x" .. i)
      assert(s:add(xs[i]:ge(0)))
      assert(s:add(xs[i]:eq(10), "weak"))
      sum = sum and sum + xs[i] or xs[i] + 0
    end
    s:update()
    local before_dump, before_usage, before = s:dump(), s:usage(), values(xs)
    s:set_limit("pivots", 1)
    -- at weight 3 the sum wins over the six preferences: every x goes to 0, a pivot each (at weight 1 it does
    -- not: the add alone goes through, and the weight set after it is what reaches the limit)
    local c, msg, details = s:add(sum:eq(0), "weak", 3)
    assert_limit(c, msg, details)
    assert.matches("limit of 1 pivot", msg)
    assert.equal(before_dump, s:dump())
    assert.same(before_usage, s:usage())
    s:update()
    assert.same(before, values(xs))
    assert.equal(1, s:limit "pivots") -- put back after the binding took the constraint out
    local light = assert(s:add(sum:eq(0), "weak")) -- weight 1: within the limit
    s:set_limit("pivots", 1e7)
    light:remove()
    c = assert(s:add(sum:eq(0), "weak", 3))
    assert.equal(3, c.weight)
    s:update()
    for _, x in ipairs(xs) do assert.near(0, x.value, 1e-9) end
  end)

  it("refuses an add past the row limit and is left unchanged", function()
    local s <close> = moa.solver()
    local x, y, z = s:var "x", s:var "y", s:var "z"
    s:set_limit("rows", 3)
    local added = 0
    for i = 1, 5 do
      local before_dump, before_usage = s:dump(), s:usage()
      local c, msg, details = s:add((x + i):le(y + z * i), "weak")
      if c then
        added = added + 1
      else
        assert_limit(c, msg, details)
        assert.matches("the limit is 3", msg)
        assert.equal(before_dump, s:dump())
        assert.same(before_usage, s:usage())
      end
    end
    assert.equal(3, added)
    assert.equal(3, s:usage().rows)
    assert.equal(3, s:usage().constraints)
    assert_limit(s:edit(x, "strong"))
    s:set_limit("rows", 100)
    assert.is_not_nil(s:add((x + 9):le(y), "weak"))
    assert.equal(s, s:edit(x, "strong"))
  end)

  it("reports its usage", function()
    local s <close> = moa.solver()
    assert.same({ rows = 0, cells = 0, variables = 0, constraints = 0, views = 0 }, s:usage())
    local x, y = s:var "x", s:var "y"
    local c = s:add((x + 10):le(y))
    local u = s:usage()
    assert.equal(2, u.variables)
    assert.equal(1, u.constraints)
    assert.is_true(u.rows >= 1 and u.cells >= 1)
    assert.equal(0, u.views)
    c:remove()
    assert.equal(0, s:usage().constraints)
  end)
end)
