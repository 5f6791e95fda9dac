-- Names that cross layers (priorities, curves, status codes) come from the library's one table each
-- (moa_priority_name, moa_curve_name, moa_status_name): the binding keeps no copy. Mirrors Python's
-- test_name_tables_come_from_the_library (bindings/python/tests/test_layout.py).
local moa = require "moa"

-- The names the header documents for moa_priority_value (Include/moa.h), with their values.
local documented = {
  required = 1000, max = 1000, strong = 750, high = 750, medium = 500, med = 500, weak = 250, low = 250, fit = 50,
  minNonZero = 1, fittingSizeLevel = 50, belowDefaultLow = 249, defaultLow = 250, aboveDefaultLow = 251,
  belowDefaultHigh = 749, defaultHigh = 750, aboveDefaultHigh = 751, maxNonRequired = 999,
}

local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- The names an unknown-name error lists: "(expected one of a, b, c, or a number ...)".
local function listed_priorities()
  local s = moa.solver()
  local ok, err = pcall(s.add, s, s:var("x"):eq(0), "no-such-priority")
  assert.is_false(ok)
  local list = assert(err:match("expected one of (.-), or a number"), err)
  local out = {}
  for name in list:gmatch("[^, ]+") do out[#out + 1] = name end
  table.sort(out)
  return out
end

-- cubic-bezier(x1, y1, x2, y2) at time fraction x: solve x(s) = x by bisection, return y(s).
local function bezier(x1, y1, x2, y2, x)
  local function b(p1, p2, s) return 3 * (1 - s) ^ 2 * s * p1 + 3 * (1 - s) * s ^ 2 * p2 + s ^ 3 end
  local lo, hi = 0, 1
  for _ = 1, 100 do
    local mid = (lo + hi) / 2
    if b(x1, x2, mid) < x then lo = mid else hi = mid end
  end
  return b(y1, y2, (lo + hi) / 2)
end

local function near(expected, got, eps)
  assert(math.abs(expected - got) <= (eps or 1e-6), string.format("expected %.9g, got %.9g", expected, got))
end

describe("priority names", function()
  it("moa.priority is the library's table: the names an unknown-name error lists, all of them", function()
    assert.same(listed_priorities(), keys(moa.priority))
    assert.same(keys(documented), keys(moa.priority))
    for name, value in pairs(documented) do assert.equal(value, moa.priority[name], name) end
    assert.equal(500, moa.priority.medium)
    assert.equal(50, moa.priority.fittingSizeLevel)
    assert.equal(moa.priority, moa.strength)
  end)

  it("every name means the same in equation text (`@ NAME`) as in moa.priority", function()
    local L <close> = moa.layout(100, 100)
    L:view "a"
    local n = 0
    for name, value in pairs(moa.priority) do
      local c = assert(L:eq("a.width == 5 @ " .. name))
      assert.equal(value, c.priority, name)
      c:remove()
      -- and the binding takes the name where a priority is an argument
      c = assert(L:eq "a.width == 5 @ 1")
      c.priority = name
      assert.equal(value, c.priority, name)
      c:remove()
      n = n + 1
    end
    assert.equal(18, n)
  end)

  it("the solver takes every name, fittingSizeLevel included", function()
    local s = moa.solver()
    local x = s:var "x"
    assert.equal(50, s:add(x:ge(1), "fittingSizeLevel").priority)
    assert.equal(500, s:add(x:ge(1), "medium").priority)
    for name, value in pairs(moa.priority) do
      assert.equal(value, s:add(x:ge(1), name).priority, name)
    end
  end)

  it("an unknown name fails with a message that names valid ones", function()
    local s = moa.solver()
    local x = s:var "x"
    local ok, err = pcall(s.add, s, x:eq(0), "urgent")
    assert.is_false(ok)
    assert.matches("unknown priority name 'urgent'", err, 1, true)
    assert.matches("required", err, 1, true)
    assert.matches("fittingSizeLevel", err, 1, true)
    assert.matches("maxNonRequired", err, 1, true)
    local L <close> = moa.layout(100, 100)
    L:view "a"
    local c = assert(L:eq "a.width == 5 @ 300")
    ok, err = pcall(function() c.priority = "Medium" end) -- case-sensitive
    assert.is_false(ok)
    assert.matches("medium", err, 1, true)
    assert.equal(300, c.priority)
  end)
end)

describe("curve names", function()
  it("moa.curve is the library's table, keyboard (5) included", function()
    assert.same({ linear = 0, easeIn = 1, easeOut = 2, easeInOut = 3, spring = 4, keyboard = 5 }, moa.curve)
  end)

  it("every name is taken as an animation curve; keyboard is cubic-bezier(0.38, 0.7, 0.125, 1)", function()
    local L <close> = moa.layout(320, 480)
    L:view "box"
    local cs = assert(L:eqs "box.left == 0\nbox.top == 0\nbox.height == 10\nbox.width == 0")
    for name in pairs(moa.curve) do
      local a = cs[4]:animate(100, { duration = 1, curve = name })
      assert.equal("moa.Animation", getmetatable(a).__name)
      L:advance(10)
      assert.equal(100, cs[4].constant)
      cs[4].constant = 0
    end
    cs[4]:animate(100, { duration = 1, curve = "keyboard" })
    L:advance(0.25)
    near(100 * bezier(0.38, 0.7, 0.125, 1, 0.25), cs[4].constant, 1e-3)
    L:advance(1)
    cs[4].constant = 0
    cs[4]:animate(100, { duration = 1, curve = moa.curve.keyboard }) -- the number works too
    L:advance(0.25)
    near(100 * bezier(0.38, 0.7, 0.125, 1, 0.25), cs[4].constant, 1e-3)
    L:advance(1)
    -- the keyboard moves with it
    local a = L:show_keyboard(216, 0.25, { curve = "keyboard" })
    assert.is_not_nil(a)
    L:advance(0.25)
  end)

  it("an unknown curve fails with a message that names the library's curves", function()
    local L <close> = moa.layout(320, 480)
    L:view "box"
    local c = assert(L:eq "box.width == 0")
    local ok, err = pcall(c.animate, c, 100, { curve = "bouncy" })
    assert.is_false(ok)
    assert.matches("unknown curve 'bouncy'", err, 1, true)
    assert.matches("easeInOut", err, 1, true)
    assert.matches("keyboard", err, 1, true)
    assert.is_false(L.animating)
    assert.has_error(function() c:animate(100, { curve = 6 }) end) -- no such predefined curve
    assert.has_error(function() c:animate(100, { curve = 1.5 }) end)
    assert.is_false(L.animating)
  end)
end)

describe("status names", function()
  it("details.code is the library's status name", function()
    local s = moa.solver()
    local x = s:var "x"
    s:add(x:eq(1))
    local c, _, d = s:add(x:eq(2))
    assert.is_nil(c)
    assert.equal("UNSATISFIABLE", d.code)
    s:edit(x, "strong")
    c, _, d = s:edit(x, "strong")
    assert.is_nil(c)
    assert.equal("DUPLICATE", d.code)
    local L <close> = moa.layout(100, 100)
    L:view "a"
    assert(L:eq "a.width == 10")
    c, _, d = L:eq "a.width >= 20" -- (a.width == 20 would update the first one's constant)
    assert.is_nil(c)
    assert.equal("UNSATISFIABLE", d.code)
    c, _, d = L:eq "a.width =="
    assert.is_nil(c)
    assert.equal("PARSE", d.code)
  end)
end)
