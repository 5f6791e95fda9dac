-- Content that sizes itself through the Lua binding (Include/moa.h, "Layout: content that sizes itself"):
-- measure functions (v:set_measure, v:invalidate), their failures and re-entrant calls, content that does not
-- settle, text (v:set_text, v:text_lines) with the built-in measurer, nested wrapping content, fitting sizes,
-- measure statistics, and a real font (moa.font, L:set_font) when the module was built with LMOA_WITH_FONT.
local moa = require "moa"

-- A measure function modelling text of n characters 10 points wide on lines of 20 points; every call is
-- counted in log.calls and its arguments kept in log.args.
local function wrapping(n, log)
  log = log or {}
  log.calls, log.args = 0, {}
  return function(width, width_mode, height, height_mode)
    log.calls = log.calls + 1
    log.args[#log.args + 1] = { width, width_mode, height, height_mode }
    if width_mode == "undefined" then return n * 10, 20 end -- natural size: one line
    local per_line = math.max(1, math.floor(width / 10))
    return math.min(n, per_line) * 10, math.ceil(n / per_line) * 20
  end, log
end

local function rect(f) return { f.x, f.y, f.width, f.height } end

-- A label pinned left and right to the root with 8-point margins.
local function label_scene(width)
  local L = moa.layout(width or 320, 480)
  local label = L:view "label"
  assert(L:eqs "label.left == 8\nlabel.right == root.right - 8\nlabel.top == 8")
  return L, label
end

describe("measure functions", function()
  it("size a label: its height follows the width it gets", function()
    local L <close>, label = label_scene(320)
    local fn, log = wrapping(50)
    assert.equal(label, label:set_measure(fn))
    L:solve()
    assert.same({ 8, 8, 304, 40 }, rect(label.frame)) -- 30 characters a line: 2 lines
    assert.same({ math.huge, "undefined", math.huge, "undefined" }, log.args[1]) -- the natural size first
    assert.same({ 304, "at_most", math.huge, "undefined" }, log.args[2]) -- then at most the solved width
    assert.equal(2, log.calls)
    L:set_root_size(200, 480)
    L:solve()
    assert.same({ 8, 8, 184, 60 }, rect(label.frame)) -- 18 a line: 3 lines
    L:set_root_size(100, 480)
    L:solve()
    assert.same({ 8, 8, 84, 140 }, rect(label.frame)) -- 8 a line: 7 lines
    assert.equal(4, log.calls)
    assert.equal(log.calls, L:measure_stats().calls)
  end)

  it("are not called when the width stays, and answer a width seen before from the cache", function()
    local L <close>, label = label_scene(320)
    local fn, log = wrapping(50)
    label:set_measure(fn)
    L:solve()
    L:set_root_size(200, 480)
    L:solve()
    local calls, stats = log.calls, L:measure_stats()
    assert.equal(3, calls)
    assert.same({ calls = 3, cache_hits = stats.cache_hits, last_calls = 1, last_rounds = stats.last_rounds }, stats)
    -- a height-only resize: no call
    L:set_root_size(200, 600)
    L:solve()
    assert.equal(calls, log.calls)
    assert.equal(0, L:measure_stats().last_calls)
    assert.same({ 8, 8, 184, 60 }, rect(label.frame))
    -- back to a width seen before: a cache hit, no call
    L:set_root_size(320, 600)
    L:solve()
    assert.equal(calls, log.calls)
    assert.is_true(L:measure_stats().cache_hits > stats.cache_hits)
    assert.same({ 8, 8, 304, 40 }, rect(label.frame))
  end)

  it("measure again after v:invalidate(), and stop with set_measure(nil)", function()
    local L <close>, label = label_scene(320)
    local n = 50
    local calls = 0
    label:set_measure(function(width, mode)
      calls = calls + 1
      if mode == "undefined" then return n * 10, 20 end
      local per_line = math.floor(width / 10)
      return math.min(n, per_line) * 10, math.ceil(n / per_line) * 20
    end)
    L:solve()
    assert.equal(40, label.frame.height)
    n = 100 -- the content changed; the layout does not know yet
    L:solve()
    assert.equal(2, calls)
    assert.equal(40, label.frame.height)
    assert.equal(label, label:invalidate())
    L:solve()
    assert.equal(4, calls) -- natural size and height again
    assert.equal(80, label.frame.height)
    label:set_measure(nil)
    L:solve()
    assert.equal(0, label.frame.height) -- no intrinsic height any more
    assert.equal(4, calls)
    assert.has_error(function() label:invalidate() end) -- nothing measured
  end)

  it("give baselines", function()
    local L <close>, label = label_scene(320)
    local other = L:view "other"
    assert(L:eqs "other.left == 0\nother.size == 10x10\nother.bottom == label.firstBaseline")
    label:set_measure(function(_, mode) return mode == "undefined" and 500 or 300, 40, 35, 15 end)
    L:solve()
    assert.equal(8 + 15 - 10, other.frame.y)
    label:set_measure(function() return 300, 40, 35 end) -- no first baseline: the same as the baseline
    L:solve()
    assert.equal(8 + 35 - 10, other.frame.y)
  end)

  it("take functions or nil only, on views (not the root or a guide)", function()
    local L <close>, label = label_scene(320)
    assert.has_error(function() label:set_measure(42) end)
    assert.has_error(function() label:set_measure({}) end)
    assert.has_error(function() L.root:set_measure(function() return 1, 1 end) end)
    assert.has_error(function() L:guide("safeArea"):set_measure(function() return 1, 1 end) end)
    L:solve()
    assert.same({ 8, 8, 304, 0 }, rect(label.frame)) -- nothing was set
  end)

  it("run on the coroutine that solves", function()
    local L <close>, label = label_scene(320)
    local seen
    label:set_measure(function()
      seen = coroutine.running()
      return 10, 10
    end)
    local co = coroutine.create(function() L:solve() end)
    assert(coroutine.resume(co))
    assert.equal(co, seen)
    label:invalidate()
    L:solve()
    assert.equal(coroutine.running(), seen)
  end)

  it("are held by the layout only: a layout whose function refers to it is collected", function()
    local weak = setmetatable({}, { __mode = "k" })
    do
      local L = moa.layout(320, 480)
      local label = L:view "label"
      assert(L:eqs "label.left == 0\nlabel.top == 0")
      local fn = function() return L.width / 10, 10 end
      label:set_measure(fn)
      L:solve()
      assert.equal(32, label.frame.width)
      weak[L], weak[fn] = true, true
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(next(weak))
  end)

  it("of removed views are dropped; text replaces a function", function()
    local L <close> = moa.layout(320, 480)
    local box = L:view "box"
    local inner = L:view("inner", box)
    local text = L:view "text"
    local weak = setmetatable({}, { __mode = "k" })
    do
      local f1, f2, f3 = function() return 1, 1 end, function() return 2, 2 end, function() return 3, 3 end
      box:set_measure(f1)
      inner:set_measure(f2)
      text:set_measure(f3)
      weak[f1], weak[f2], weak[f3] = true, true, true
    end
    L:solve()
    collectgarbage()
    local n = 0
    for _ in pairs(weak) do n = n + 1 end
    assert.equal(3, n)
    box:remove() -- box and inner
    text:set_text("hello")
    collectgarbage()
    collectgarbage()
    assert.is_nil(next(weak))
    L:solve()
    assert.same({ "hello" }, (text:text_lines()))
  end)
end)

describe("a failing measure function", function()
  -- A label whose function does what `mode` says, solved once with a good answer.
  local function failing_scene()
    local L, label = label_scene(320)
    local state = { mode = "ok" }
    label:set_measure(function(width, mode)
      local m = state.mode
      if m == "error" then error("the label cannot be measured") end
      if m == "table" then error(setmetatable({}, { __tostring = function() return "a table error" end })) end
      if m == "string" then return "wide", 10 end
      if m == "nan" then return 0 / 0, 10 end
      if m == "nothing" then return end
      if m == "eq" then L:eq "label.height >= 1" end
      if m == "solve" then L:solve() end
      if m == "pcall" then
        local ok, err = pcall(L.eq, L, "label.height >= 1")
        state.inner_ok, state.inner_err = ok, err
        ok, err = pcall(L.solve, L)
        state.solve_ok, state.solve_err = ok, err
      end
      if m == "close" then L:close() end
      if mode == "undefined" then return 500, 20 end
      return math.min(width, 500), 40
    end)
    L:solve()
    assert.same({ 8, 8, 304, 40 }, rect(label.frame))
    return L, label, state
  end

  -- pcall(L:solve()) after invalidating, with state.mode = mode.
  local function solve_with(L, label, state, mode)
    state.mode = mode
    label:invalidate()
    L:set_root_size(300, 480)
    return pcall(L.solve, L)
  end

  it("fails the solve with its error text, and nothing changes", function()
    local L <close>, label, state = failing_scene()
    local ok, err = solve_with(L, label, state, "error")
    assert.is_false(ok)
    assert.matches("the label cannot be measured", err, 1, true)
    assert.matches("`label`", err, 1, true)
    assert.matches("^solve: ", err)
    assert.same({ 8, 8, 304, 40 }, rect(label.frame)) -- the frames of the last solve
    ok, err = solve_with(L, label, state, "table")
    assert.is_false(ok)
    assert.matches("a table error", err, 1, true) -- tostring of the error value
    -- the layout still works: a good answer solves at the new size
    state.mode = "ok"
    L:solve()
    assert.same({ 8, 8, 284, 40 }, rect(label.frame))
  end)

  it("fails cleanly when it answers with something else than numbers", function()
    local L <close>, label, state = failing_scene()
    local ok, err = solve_with(L, label, state, "string")
    assert.is_false(ok)
    assert.matches("returned string for the width (a number expected)", err, 1, true)
    ok, err = solve_with(L, label, state, "nothing")
    assert.is_false(ok)
    assert.matches("returned nil for the width", err, 1, true)
    ok, err = solve_with(L, label, state, "nan")
    assert.is_false(ok)
    assert.matches("nan", err, 1, true)
    assert.same({ 8, 8, 304, 40 }, rect(label.frame))
    state.mode = "ok"
    L:solve()
    assert.same({ 8, 8, 284, 40 }, rect(label.frame))
  end)

  it("cannot change or solve its layout: the call raises inside it", function()
    local L <close>, label, state = failing_scene()
    local n = #L:constraints()
    -- uncaught: the solve fails with that message
    local ok, err = solve_with(L, label, state, "eq")
    assert.is_false(ok)
    assert.matches("eq: the layout cannot be changed or solved from inside one of its measure functions", err, 1,
                   true)
    ok, err = solve_with(L, label, state, "solve")
    assert.is_false(ok)
    assert.matches("solve: the layout cannot be changed or solved from inside one of its measure functions", err,
                   1, true)
    assert.same({ 8, 8, 304, 40 }, rect(label.frame))
    assert.equal(n, #L:constraints())
    -- caught with pcall: the solve succeeds
    ok, err = solve_with(L, label, state, "pcall")
    assert.is_true(ok, err)
    assert.is_false(state.inner_ok)
    assert.matches("cannot be changed or solved from inside", state.inner_err, 1, true)
    assert.is_false(state.solve_ok)
    assert.matches("cannot be changed or solved from inside", state.solve_err, 1, true)
    assert.same({ 8, 8, 284, 40 }, rect(label.frame))
    assert.equal(n, #L:constraints())
  end)

  it("may close its layout: the solve then returns nothing", function()
    local L, label, state = failing_scene()
    state.mode = "close"
    label:invalidate()
    assert.equal(0, select("#", L:solve()))
    assert.is_true(L.closed)
    assert.has_error(function() return label.frame end, "attempt to use a closed layout")
    collectgarbage()
  end)
end)

describe("content that does not settle", function()
  it("fails the solve: height = width + 10 with width == height", function()
    local L <close> = moa.layout(320, 480)
    local v = L:view "v"
    assert(L:eqs "v.left == 0\nv.top == 0\nv.width == v.height")
    local calls = 0
    v:set_measure(function(width, mode)
      calls = calls + 1
      if mode == "undefined" then return 100, 110 end
      return width, width + 10
    end)
    local ok, err = pcall(L.solve, L)
    assert.is_false(ok)
    assert.matches("did not settle", err, 1, true)
    assert.matches(tostring(moa.MAX_MEASURE_ROUNDS), err, 1, true)
    assert.equal(8, moa.MAX_MEASURE_ROUNDS)
    assert.is_true(calls > moa.MAX_MEASURE_ROUNDS)
    assert.same({ 0, 0, 0, 0 }, rect(v.frame)) -- never solved
    v:set_measure(function() return 50, 50 end)
    L:solve()
    assert.same({ 0, 0, 50, 50 }, rect(v.frame))
  end)
end)

describe("text", function()
  local TEXT = "Moa lays out text that wraps to the width it gets"

  local function text_scene(style)
    local L = moa.layout(160, 480)
    local label = L:view "label"
    assert(L:eqs "label.left == 10\nlabel.right <= root.right - 10\nlabel.top == 10")
    assert.equal(label, label:set_text(TEXT, style))
    return L, label
  end

  it("wraps by words at the width the label gets (built-in measurer: 0.6 em, lines 1.2 em)", function()
    local L <close>, label = text_scene { size = 10 }
    L:solve()
    local lines, m = label:text_lines()
    assert.same({ "Moa lays out text that", "wraps to the width it", "gets" }, lines)
    assert.same({ lines = 3, font_size = 10, line_height = 12, first_baseline = m.first_baseline, width = 132,
                  height = 36 }, m)
    assert.same({ 10, 10, 140, 36 }, rect(label.frame))
    -- wider: fewer lines
    L:set_root_size(250, 480)
    L:solve()
    assert.same({ "Moa lays out text that wraps to the", "width it gets" }, (label:text_lines()))
    assert.equal(24, label.frame.height)
    L:set_root_size(320, 480) -- 294 points on one line
    assert.same({ TEXT }, (label:text_lines()))
    assert.equal(12, label.frame.height)
    -- text_lines solves first if needed
    L:set_root_size(160, 480)
    assert.equal(3, #label:text_lines())
    assert.equal(36, label.frame.height)
  end)

  it("stops at max_lines with an ellipsis", function()
    local L <close>, label = text_scene { size = 10, max_lines = 2 }
    local lines, m = label:text_lines()
    assert.same({ "Moa lays out text that", "wraps to the width it…" }, lines)
    assert.equal(2, m.lines)
    assert.equal(24, label.frame.height)
  end)

  it("follows the root's width with an adaptive size (reference_width)", function()
    local L <close>, label = text_scene { size = 10, reference_width = 375 }
    L:set_root_size(375, 480)
    local _, m = label:text_lines()
    assert.equal(10, m.font_size)
    assert.equal(12, label.frame.height)
    L:set_root_size(750, 480)
    _, m = label:text_lines()
    assert.equal(20, m.font_size)
    assert.equal(24, label.frame.height)
    L:set_root_size(160, 480)
    _, m = label:text_lines()
    assert.near(10 * 160 / 375, m.font_size, 1e-9)
    -- limits
    label:set_text(TEXT, { size = 10, reference_width = 375, min_size = 8, max_size = 16 })
    _, m = label:text_lines()
    assert.equal(8, m.font_size)
    L:set_root_size(750, 480)
    _, m = label:text_lines()
    assert.equal(16, m.font_size)
  end)

  it("takes a line height; the default style is 17 points; nil takes the text away", function()
    local L <close>, label = text_scene { size = 10, line_height = 20 }
    local _, m = label:text_lines()
    assert.equal(20, m.line_height)
    assert.equal(60, label.frame.height)
    label:set_text("Moa")
    _, m = label:text_lines()
    assert.equal(17, m.font_size)
    label:set_text(nil)
    assert.has_error(function() label:text_lines() end)
    L:solve()
    assert.equal(0, label.frame.height)
  end)

  it("refuses bad styles before anything changes", function()
    local L <close>, label = text_scene { size = 10 }
    L:solve()
    assert.has_error(function() label:set_text("x", { font_size = 10 }) end) -- an unknown field
    assert.has_error(function() label:set_text("x", { size = 0 / 0 }) end)
    assert.has_error(function() label:set_text("x", { size = 0.1 }) end) -- below 0.5 (the library's range)
    assert.has_error(function() label:set_text("x", { max_lines = -1 }) end)
    assert.has_error(function() label:set_text("x", { max_lines = 1.5 }) end)
    assert.has_error(function() label:set_text("x", 10) end)
    assert.has_error(function() label:set_text("a\0b") end)
    assert.has_error(function() label:set_text() end)
    assert.has_error(function() L.root:set_text("x") end)
    assert.equal(3, #label:text_lines())
  end)
end)

describe("nested wrapping content", function()
  it("a container's height is the sum of its labels' heights and gaps, at every width", function()
    local L <close> = moa.layout(320, 480)
    local box = L:view "box"
    local a, b, c = L:view("a", box), L:view("b", box), L:view("c", box)
    assert(L:eqs [[
      box.left == 10
      box.right == root.right - 10
      box.top == 20
      a.left == box.left + 5
      a.right == box.right - 5
      b.left == box.left + 5
      b.right == box.right - 5
      c.left == box.left + 5
      c.right == box.right - 5
      a.top == box.top + 6
      b.top == a.bottom + 4
      c.top == b.bottom + 4
      box.bottom == c.bottom + 6
    ]])
    local n = { a = 40, b = 75, c = 12 }
    a:set_measure((wrapping(n.a)))
    b:set_measure((wrapping(n.b)))
    c:set_measure((wrapping(n.c)))
    local function lines(chars, width) return math.ceil(chars / math.floor(width / 10)) end
    for _, w in ipairs { 320, 200, 130, 480, 320 } do
      L:set_root_size(w, 480)
      L:solve()
      local inner = w - 20 - 10
      local ha, hb, hc = 20 * lines(n.a, inner), 20 * lines(n.b, inner), 20 * lines(n.c, inner)
      assert.equal(ha, a.frame.height, "a at " .. w)
      assert.equal(hb, b.frame.height, "b at " .. w)
      assert.equal(hc, c.frame.height, "c at " .. w)
      assert.equal(6 + ha + 4 + hb + 4 + hc + 6, box.frame.height, "box at " .. w)
      assert.equal(a.frame.y + ha + 4, b.frame.y)
    end
  end)
end)

describe("fitting sizes", function()
  local function cell_scene()
    local L = moa.layout(320, 480)
    local cell = L:view "cell"
    local label = L:view("label", cell)
    assert(L:eqs [[
      cell.left == 0
      cell.top == 0
      cell.width == root.width
      label.left == cell.left + 10
      label.right == cell.right - 10
      label.top == cell.top + 5
      cell.bottom == label.bottom + 5
    ]])
    label:set_measure((wrapping(50)))
    return L, cell, label
  end

  it("gives a cell's height for a width (required width, fit height); the live frames do not change", function()
    local L <close>, cell, label = cell_scene()
    L:solve()
    assert.same({ 0, 0, 320, 50 }, rect(cell.frame)) -- label 300 wide: 2 lines
    local w, h = L:fitting_size(cell, 200, 0, "required", "fit")
    assert.equal(200, w)
    assert.equal(5 + 60 + 5, h) -- label 180 wide: 3 lines
    assert.same({ 200, 70 }, { L:fitting_size(cell, 200, 0, moa.priority.required) }) -- fit by default
    assert.same({ 200, 70 }, { L:fitting_size(cell, 200, 0, 1000, 50) })
    assert.same({ 0, 0, 320, 50 }, rect(cell.frame))
    assert.same({ 10, 5, 300, 40 }, rect(label.frame))
    assert.same({}, L:solve()) -- nothing to change
    -- the smallest and the natural size
    assert.same({ 500, 20 }, { L:fitting_size(label, 0, 0) })
  end)

  it("returns nil, message, details when a required target cannot hold; raises on misuse", function()
    local L <close>, cell = cell_scene()
    local fixed = L:view "fixed"
    assert(L:eqs "fixed.width == 100\nfixed.height == 10")
    local w, msg, details = L:fitting_size(fixed, 200, 0, "required", "fit")
    assert.is_nil(w)
    assert.matches("fitting size", msg, 1, true)
    assert.equal("UNSATISFIABLE", details.code)
    assert.has_error(function() L:fitting_size(cell, 200, 0, "urgent") end)
    assert.has_error(function() L:fitting_size(cell, 0 / 0, 0) end)
    assert.has_error(function() L:fitting_size(cell, -1, 0) end)
    local other <close> = moa.layout(10, 10)
    assert.has_error(function() other:fitting_size(cell, 10, 10) end,
                     "bad argument #1 to 'fitting_size' (view belongs to another layout)")
  end)

  it("fail with the measure function's error", function()
    local L <close>, cell, label = cell_scene()
    label:set_measure(function() error("no size today") end)
    local ok, err = pcall(L.fitting_size, L, cell, 200, 0, "required")
    assert.is_false(ok)
    assert.matches("^fitting_size: .*no size today", err)
  end)
end)

describe("a real font (moafont)", function()
  local font_it = moa.has_font and it or function(name)
    pending(name .. " (the module was built without LMOA_WITH_FONT)")
  end

  it("is there exactly when the module was built with it", function()
    assert.is_boolean(moa.has_font)
    assert.equal(moa.has_font, moa.font ~= nil)
    local L <close> = moa.layout(10, 10)
    assert.equal(moa.has_font, L.set_font ~= nil)
  end)

  font_it("measures with DejaVu Sans: \"Hello\" at 16 points is 40.5546875", function()
    local f <close> = assert(moa.font())
    assert.equal("DejaVu Sans", f.family)
    assert.equal(40.5546875, f:advance("Hello", 16))
    assert.equal(2 * f:advance("Hello", 8), f:advance("Hello", 16))
    local ascent, descent, gap = f:metrics()
    assert.equal(1901 / 2048, ascent)
    assert.equal(483 / 2048, descent)
    assert.equal(0, gap)
    assert.has_error(function() f:advance("\255", 10) end)
    assert.has_error(function() f:advance("x", -1) end)
    local none, msg = moa.font("/nonexistent/font.ttf")
    assert.is_nil(none)
    assert.matches("/nonexistent/font.ttf", msg, 1, true)
  end)

  font_it("L:set_font changes a text view's natural width; nil goes back to the built-in measurer", function()
    local L <close> = moa.layout(320, 480)
    local t = L:view "t"
    assert(L:eqs "t.left == 0\nt.top == 0")
    t:set_text("Hello", { size = 16 })
    L:solve()
    assert.equal(5 * 0.6 * 16, t.frame.width)
    local f = assert(moa.font())
    assert.equal(L, L:set_font(f))
    L:solve()
    assert.equal(40.5546875, t.frame.width)
    assert.equal(40.5546875, select(2, t:text_lines()).width)
    -- closing the font while the layout uses it only marks it closed
    f:close()
    assert.is_true(f.closed)
    assert.has_error(function() f:advance("x", 1) end, "attempt to use a closed font")
    assert.has_error(function() L:set_font(f) end, "attempt to use a closed font")
    t:set_text("Hello world", { size = 16 })
    L:solve()
    assert.is_true(t.frame.width > 40.5546875 and t.frame.width < 11 * 0.6 * 16)
    L:set_font(nil)
    L:solve()
    assert.equal(11 * 0.6 * 16, t.frame.width)
  end)

  font_it("stays alive while a layout uses it, whatever is collected first", function()
    for _ = 1, 3 do
      local L = moa.layout(320, 480)
      local t = L:view "t"
      assert(L:eqs "t.left == 0\nt.top == 0")
      t:set_text("Hello", { size = 16 })
      L:set_font(moa.font())
      collectgarbage() -- the font is the layout's
      L:solve()
      assert.equal(40.5546875, t.frame.width)
      local c = assert(L:eq "t.left == 0")
      c:animate(100, { duration = 1 }) -- the layout is animating when it is collected
      L:advance(0.5)
    end
    collectgarbage()
    collectgarbage()
  end)
end)
