-- Hostile input through the Lua binding (issue 6): NaN, infinities and 1e300 as arguments and in equation
-- text, a 10 MB equation, 100,000 views, a 20,000-deep hierarchy, unknown names, a view made its own
-- ancestor, stale objects and double removes, and callbacks that raise, yield, or close the layout they run
-- in. Each bad call raises or returns nil, message, details; afterwards the layout still solves to exactly
-- the frames it had, with the same equations.
--
-- The big cases shrink under valgrind (`make test-lua-valgrind` runs every spec there; valgrind's preload
-- library shows in LD_PRELOAD) or when MOA_HOSTILE_SMALL is set: 1 MB of text, 5,000 views, 1,000 deep.
local moa = require "moa"

local preload = os.getenv("LD_PRELOAD") or ""
local SMALL = os.getenv("MOA_HOSTILE_SMALL") ~= nil or preload:find("vgpreload", 1, true) ~= nil
local MB = SMALL and 1024 * 1024 or 10 * 1024 * 1024
local SMALL_MB = 1024 * 1024 -- the secondary text cases: the cost per byte is the same, the file stays fast
local MANY = SMALL and 5000 or 100000
local DEEP = SMALL and 1000 or 20000

-- A card with a label inside it, solved.
local function scene()
  local L = moa.layout(320, 480)
  local card = L:view "card"
  local label = L:view("label", card)
  local cs = assert(L:eqs [[
    card.left == 20
    card.top == safeArea.top + 10
    card.width == 200 @ high
    card.height == 100
    card.right <= margins.right
    label.left == card.leftMargin
    label.top == card.top + 8
    label.width == 60
    label.height == 20
  ]])
  L:solve()
  return L, card, label, cs
end

-- Everything a failed call must leave alone: frames (guides too), equations, root size, clock.
local function state(L)
  L:solve()
  local s = { L:describe(), L.width, L.height, L.time }
  for _, f in ipairs(L:frames(true)) do
    s[#s + 1] = table.concat({ f.name, f.frame.x, f.frame.y, f.frame.width, f.frame.height,
      f.root_frame.x, f.root_frame.y }, " ")
  end
  return s
end

-- fn(...) must raise (with `pattern` in the message when given) and change nothing.
local function raises(L, pattern, fn, ...)
  local before = state(L)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok, "expected an error")
  if pattern then assert.matches(pattern, tostring(err), 1, true) end
  assert.same(before, state(L))
  return err
end

-- fn(...) must return nil, message, details with details.code == code, and change nothing.
local function fails(L, code, fn, ...)
  local before = state(L)
  local r, msg, details = fn(...)
  assert.is_nil(r)
  assert.is_string(msg)
  assert.is_table(details)
  assert.equal(code, details.code)
  assert.same(before, state(L))
  return msg, details
end

describe("hostile numbers", function()
  it("NaN, infinities and 1e300 as arguments raise and change nothing", function()
    local L, card, label, cs = scene()
    for _, bad in ipairs { 0 / 0, math.huge, -math.huge, 1e300, -1e300 } do
      raises(L, nil, L.set_root_size, L, bad, 100)
      raises(L, nil, L.set_keyboard_height, L, bad)
      if bad ~= 1e300 then raises(L, nil, L.advance, L, bad) end -- a 1e300-second step is allowed
      raises(L, nil, card.set_intrinsic_size, card, bad, nil)
      raises(L, nil, function() cs[1].constant = bad end)
      raises(L, nil, function() cs[3].priority = bad end)
      raises(L, nil, cs[1].animate, cs[1], bad)
      raises(L, nil, cs[1].animate, cs[1], 1, { duration = bad ~= bad and bad or -1 })
      raises(L, nil, L.animate_root_size, L, bad, 10)
    end
    -- Lengths beyond ±1e9 are refused where they are given, used or not (no constraint uses label's
    -- margins or baseline; they used to be stored and fail in a later call).
    raises(L, "1e+300", L.set_safe_area, L, 1e300, 0, 0, 0)
    raises(L, "1e+300", card.set_margins, card, 0, 1e300, 0, 0)
    raises(L, "1e+300", label.set_margins, label, 1e300, 0, 0, 0)
    raises(L, "within ±1e9", label.set_margins, label, 0, 0, 0, -2e9)
    raises(L, "1e+300", label.set_baseline, label, 1e300)
    raises(L, "1e+300", L.pan, L, { cs[1] }, "horizontal", { 0, 1e300 })
    local pan = L:pan({ cs[1] }, "horizontal", { 0, -100 })
    raises(L, "within ±1e9", pan.move, pan, -1e10)
    pan:free()
    label:set_margins(1e9, 0, 0, 0) -- the bound itself is a length
    label:set_margins(8, 8, 8, 8)
    raises(L, nil, card.set_content_priority, card, "horizontal", 1e-300, 750)
    -- Tiny numbers and -0 are ordinary.
    cs[1].constant = -0.0
    L:solve()
    assert.equal(0, card.frame.x)
    cs[1].constant = 20
  end)

  it("bad numbers in equation text return nil, message, details (they used to raise)", function()
    local L = scene()
    for _, line in ipairs {
      "card.left == 1e300", "card.left == -1e300", "card.left == 1e309", "card.left == 1e13",
      "card.left == root.left * 1e300", "card.left == root.left / 0", "card.left == 5 @ 1e300",
      "card.left == 5 @ 0", "card.left == 5 @ 1001", "card.left == 5 @ high + 1e300",
      "card.hugH == 1e300", "card.left == card.top",
    } do
      local msg, d = fails(L, "INVALID", L.eq, L, line)
      assert.equal(1, d.line)
      assert.is_true(d.offset > 0 and d.length > 0, line)
      assert.equal(line, d.source_line)
      assert.is_true(#d.expected > 0, line)
      assert.matches("line 1, byte " .. d.offset, msg, 1, true)
      fails(L, "INVALID", L.xeq, L, line)
    end
    -- eqs: all or nothing, the bad line named.
    local msg, d = fails(L, "INVALID", L.eqs, L, "label.width == 70\n\ncard.top == 1e20\n", "screen.eqs", 10)
    assert.equal(12, d.line)
    assert.equal(12, d.offset)
    assert.equal("screen.eqs", d.source)
    assert.matches("1e20", msg, 1, true)
    -- `nan` and `inf` are names, not numbers.
    fails(L, "PARSE", L.eq, L, "card.left == nan")
    fails(L, "PARSE", L.eq, L, "card.left == inf")
    -- A wrong call stays misuse: a blank line, several lines or size/pin for eq, a content priority for xeq.
    raises(L, "no equation", L.eq, L, "   # only a comment")
    raises(L, "use eqs", L.eq, L, "card.size == 10x10")
    raises(L, "use eqs", L.eq, L, "card.left == 1\ncard.top == 2")
    raises(L, "no constraint to remove", L.xeq, L, "card.hugH == low")
    raises(L, "first_line", L.eqs, L, "card.left == 1", "f", 0)
  end)

  it("the raw solver refuses NaN, infinities and 1e300 and keeps its solution", function()
    local s = moa.solver()
    local x, y = s:var "x", s:var "y"
    s:add((x - y):eq(5))
    s:edit(x, "strong")
    s:suggest(x, 7)
    s:update()
    for _, bad in ipairs { 0 / 0, math.huge, 1e300 } do
      assert.has_error(function() s:add(x:eq(bad)) end)
      assert.has_error(function() s:add((x * bad):eq(1)) end)
      assert.has_error(function() s:suggest(x, bad) end)
      assert.has_error(function() s:add(x:eq(1), bad) end)
    end
    s:update()
    assert.same({ 7, 2 }, { x.value, y.value })
    assert.same({ 2, 1 }, { s:counts() })
  end)
end)

describe("hostile sizes", function()
  it("a 10 MB equation: numbers, unknown names, blanks, an eqs block; quickly, nothing changes", function()
    local L, card = scene()
    local t0 = os.clock()
    local _, d = fails(L, "INVALID", L.eq, L, "card.left == " .. string.rep("9", MB))
    assert.equal(13, d.offset)
    _, d = fails(L, "PARSE", L.eq, L, string.rep("x", MB) .. ".left == 0")
    assert.equal("unknownView", d.kind)
    assert.equal(MB, d.length)
    -- A 10 MB name is a valid view name; a near miss of it gets no suggestion (that table ran out of memory).
    _, d = fails(L, "INVALID", L.eqs, L, string.rep("# comment\n", MB // 10) .. "label.top == 1e300")
    assert.equal(MB // 10 + 1, d.line)
    local long = L:view(string.rep("v", SMALL_MB))
    _, d = fails(L, "PARSE", L.eq, L, string.rep("v", SMALL_MB - 1) .. "w.left == 0")
    assert.equal("", d.suggestion)
    long:remove()
    assert.equal(L:eq "card.left == 20", L:eq(string.rep(" ", SMALL_MB) .. "card.left == 20"))
    fails(L, "PARSE", L.eq, L, string.rep("(", SMALL_MB))
    fails(L, "PARSE", L.eq, L, string.rep("\255", SMALL_MB))
    raises(L, nil, L.view, L, string.rep("\255", SMALL_MB))
    local ids = assert(L:eqs(string.rep("card.left == 20\n", SMALL_MB // 16)))
    assert.equal(SMALL_MB // 16, #ids)
    assert.equal(ids[1], ids[#ids])
    assert.equal(9, #L:constraints())
    if not SMALL then assert.is_true(os.clock() - t0 < 20, "took " .. (os.clock() - t0) .. " s") end
  end)

  it("100,000 views in a row, with failures on the big layout", function()
    local L = moa.layout(1000, 1000)
    local views, lines = {}, { "v1.left == 0" }
    for i = 1, MANY do
      views[i] = L:view("v" .. i)
      if i > 1 then lines[#lines + 1] = ("v%d.left == v%d.right"):format(i, i - 1) end
      lines[#lines + 1] = ("v%d.width == 1"):format(i)
    end
    assert.equal(2 * MANY, #assert(L:eqs(table.concat(lines, "\n"))))
    L:solve()
    assert.same({ MANY - 1, 1 }, { views[MANY].frame.x, views[MANY].frame.width })
    assert.has_error(function() L:view("v" .. (MANY // 2)) end) -- duplicate
    local _, _, d = L:eq "v2.left == 5"
    assert.equal("UNSATISFIABLE", d.code)
    assert.is_true(#d.conflicts >= 1)
    _, _, d = L:eq "v1.left == v99999999.rigth"
    assert.equal("PARSE", d.code)
    assert.equal(MANY + 4, #L:frames(true))
    views[1]:remove()
    L:solve()
    assert.equal(1, views[MANY].frame.width)
    L:close()
  end)

  it("a 20,000-deep hierarchy: cycles refused, walks and removal work", function()
    local L = moa.layout(320, 480)
    local chain = {}
    for i = 1, DEEP do chain[i] = L:view("d" .. i, chain[i - 1]) end
    assert(L:eqs(("d1.left == 10\nd1.top == 10\nd1.size == 100x100\nd%d.left == d1.left + 5"):format(DEEP)))
    L:solve()
    raises(L, "cycle", chain[1].set_superview, chain[1], chain[DEEP])
    -- (state() walks all 20,000 frames: the other cases check the error and the superview only)
    assert.has_error(function() chain[DEEP]:set_superview(chain[DEEP]) end)
    assert.has_error(function() chain[2]:set_superview(chain[DEEP - 1]) end)
    assert.has_error(function() L.root:set_superview(chain[DEEP]) end)
    assert.has_error(function() chain[3]:set_superview(L:guide "keyboard") end)
    assert.equal(chain[1], chain[2].superview)
    local frames = L:frames(true)
    assert.equal(DEEP + 4, #frames)
    assert.equal(DEEP, frames[#frames].depth)
    assert.is_string(L:svg { constraints = true, guides = true })
    assert.equal(15, chain[DEEP].root_frame.x)
    chain[DEEP]:set_superview(nil)
    chain[2]:set_superview(chain[DEEP])
    chain[DEEP]:set_direction "rtl"
    L:solve()
    chain[DEEP]:remove()
    assert.has_error(function() return chain[DEEP // 2].frame end)
    assert.has_error(function() chain[2]:remove() end)
    assert.equal(L:view("d2", chain[1]).superview, chain[1])
    L:solve()
    L:close()
  end)
end)

describe("hostile names and handles", function()
  it("unknown names: nil from find, raises from guide, nil, msg, details with a suggestion from eq", function()
    local L = scene()
    assert.is_nil(L:find "nope")
    assert.is_nil(L:find "")
    raises(L, "not a layout guide", L.guide, L, "card")
    local _, d = fails(L, "PARSE", L.eq, L, "crad.left == 5")
    assert.same({ "unknownView", "card" }, { d.kind, d.suggestion })
    _, d = fails(L, "PARSE", L.eq, L, "card.lfet == 5")
    assert.equal("unknownAttribute", d.kind)
    fails(L, "PARSE", L.eq, L, "card.left == 5 @ hihg")
    fails(L, "NOTFOUND", L.xeq, L, "card.left == label.left")
    fails(L, "INVALID", L.eq, L, "root.left == 5") -- the root has no superview
    for _, bad in ipairs { "view", "9lives", "a b", "keyboard", "card", "" } do raises(L, nil, L.view, L, bad) end
  end)

  it("stale objects and double removes raise; closed layouts and solvers raise; nothing changes", function()
    local L, card, label, cs = scene()
    local extra = L:view "extra"
    local c = L:eq "extra.left == 3"
    c:remove()
    assert.is_true(c.removed)
    raises(L, "not a constraint id", c.remove, c)
    raises(L, "not a constraint id", function() c.constant = 1 end)
    extra:remove()
    raises(L, "not a view id", extra.remove, extra)
    raises(L, "not a view id", function() return extra.frame end)
    fails(L, "PARSE", L.eq, L, "extra.left == 3")
    local col = L:collapsible(card, cs[1], "left")
    col:free()
    raises(L, nil, col.free, col)
    raises(L, nil, col.toggle, col)
    local pan = L:pan({ cs[1] }, "horizontal", { 0, -100 })
    pan:free()
    raises(L, nil, pan.free, pan)
    raises(L, nil, pan.began, pan)
    local a = cs[2]:animate(30, { duration = 0.1 })
    a:cancel()
    a:cancel() -- cancelling an ended animation is a no-op
    L:advance(0.2)
    a:cancel()
    L:close()
    L:close()
    assert.has_error(function() L:solve() end, "attempt to use a closed layout")
    assert.has_error(function() card:remove() end, "attempt to use a closed layout")
    assert.has_error(function() a:cancel() end, "attempt to use a closed layout")
    local s = moa.solver()
    local x = s:var "x"
    local k = s:add(x:eq(3))
    k:remove()
    assert.has_error(function() k:remove() end)
    s:reset()
    assert.has_error(function() s:add(x:eq(1)) end)
    s:close()
    s:close()
    assert.has_error(function() s:update() end)
  end)
end)

describe("hostile callbacks", function()
  it("errors from every kind of callback surface after the call; the layout stays usable", function()
    local L, card, label, cs = scene()
    local col = L:collapsible(card, cs[1], "left")
    local log = {}
    col:collapse { duration = 0.1, done = function() error("collapse failed") end }
    cs[7]:animate(30, { duration = 0.1, done = function(f) log[#log + 1] = f end })
    local ok, err = pcall(L.advance, L, 0.1)
    assert.is_false(ok)
    assert.matches("collapse failed", err)
    assert.same({ true }, log)
    assert.is_true(col.collapsed)
    L:show_keyboard(200, 0.1, { done = function() error(string.rep("k", MB), 0) end })
    ok, err = pcall(L.advance, L, 0.2)
    assert.is_false(ok)
    assert.equal(MB, #err) -- a 10 MB error value arrives whole
    L:animate_root_size(300, 400, { duration = 0.1, done = function() error({ code = 42 }) end })
    ok, err = pcall(L.advance, L, 0.2)
    assert.is_false(ok)
    assert.same({ code = 42 }, err)
    assert.same({ 300, 400 }, { L:root_size() })
    L:on_debug(function() error("debug failed") end)
    ok, err = pcall(L.eq, L, "label.width == 61 @ low ?")
    assert.is_false(ok)
    assert.matches("debug failed", err)
    assert.matches("label.width == 61 @ 250", L:describe(), 1, true) -- the equation itself was applied
    L:on_debug(nil)
    L:solve()
    assert.equal(60, label.frame.width)
  end)

  it("a callback that yields across the C boundary gets an error, not a crash", function()
    local L, card, label, cs = scene()
    cs[1]:animate(40, { duration = 0.1, done = function() coroutine.yield(1) end })
    local co = coroutine.create(function() return L:advance(0.1) end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.matches("yield", err)
    assert.equal("dead", coroutine.status(co))
    L:solve()
    assert.equal(40, card.frame.x)
    assert.is_table(L:advance(0.1))
  end)

  it("callbacks that close their layout: pan rests, collapsibles, completions, keyboard", function()
    local L, card, label, cs = scene()
    local pan = L:pan({ cs[1] }, "horizontal", { 0, -100 })
    local log = {}
    pan:began()
    pan:changed(-80, -10)
    pan:ended(0, function(rest, finished)
      log[#log + 1] = ("%g:%s"):format(rest, tostring(finished))
      L:close()
      log[#log + 1] = tostring(pcall(L.solve, L))
    end)
    assert.is_nil(L:advance(1))
    assert.is_true(L.closed)
    assert.same({ "-100:true", "false" }, log)

    L, card, label, cs = scene()
    local col = L:collapsible(card, cs[1], "left")
    col:toggle { animated = false, done = function() L:close(); error("and then failed") end }
    local ok, err = pcall(L.advance, L, 0)
    assert.is_false(ok)
    assert.matches("and then failed", err)
    assert.is_true(L.closed)

    -- Closing from a completion run by close itself (finished = false): nothing more happens.
    L, card, label, cs = scene()
    local calls = 0
    cs[1]:animate(50, { duration = 5, done = function(f)
      calls = calls + 1
      assert.is_false(f)
      L:close()
    end })
    L:advance(0.1)
    L:close()
    assert.equal(1, calls)

    -- A completion of one layout drives and closes another whose completion calls back into the first.
    local A, acard, _, acs = scene()
    local B, _, _, bcs = scene()
    local seen = {}
    bcs[1]:animate(60, { duration = 0.1, done = function()
      seen[#seen + 1] = tostring(pcall(A.advance, A, 0.1)) -- A is inside advance: refused
      acs[2].constant = 77 -- allowed
    end })
    acs[1]:animate(40, { duration = 0.1, done = function()
      B:advance(0.2)
      B:close()
    end })
    A:advance(0.1)
    assert.is_true(B.closed)
    assert.same({ "false" }, seen)
    A:solve()
    assert.same({ 40, 77 }, { acard.frame.x, acard.frame.y })
    A:close()
  end)
end)
