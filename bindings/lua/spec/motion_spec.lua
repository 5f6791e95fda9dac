-- Motion: the clock, animations with completions, collapse, keyboard, pan, traces; callbacks that raise or
-- close the layout.
local moa = require "moa"

local function sidebar_layout()
  local L = moa.layout(320, 480)
  local sidebar, content = L:view "sidebar", L:view "content"
  local cs = assert(L:eqs [[
    sidebar.left == 0
    sidebar.top == 0
    sidebar.bottom == 0
    sidebar.width == 200
    content.left == sidebar.right
    content.right == 0
    content.top == 0
    content.bottom == 0
  ]])
  L:solve()
  return L, sidebar, content, cs
end

-- The calculator of Tests/c/test_motion.c: two 320-wide panels below a 160-high display, one offset.
local function calculator()
  local L = moa.layout(320, 480)
  local display, basic, advanced = L:view "display", L:view "basic", L:view "advanced"
  local cs = assert(L:eqs [[
    display.left == 0
    display.right == 0
    display.top == 0
    display.height == 160
    basic.left == 0
    advanced.left == 320
    basic.width == root.width
    advanced.width == root.width
    basic.top == display.bottom
    advanced.top == display.bottom
    basic.bottom == 0
    advanced.bottom == 0
  ]])
  L:solve()
  local pan = L:pan({ cs[5], cs[6] }, "horizontal", { 0, -320 })
  return L, pan, basic, advanced
end

local function near(expected, got, eps)
  assert(math.abs(expected - got) <= (eps or 1e-6), string.format("expected %.9g, got %.9g", expected, got))
end

local function rect(expected, r)
  near(expected[1], r.x)
  near(expected[2], r.y)
  near(expected[3], r.width)
  near(expected[4], r.height)
end

-- cubic-bezier(0.42, 0, 0.58, 1) at time fraction x: solve x(s) = x by bisection, return y(s).
local function ease_in_out(x)
  local function bez(p1, p2, s) return 3 * (1 - s) ^ 2 * s * p1 + 3 * (1 - s) * s ^ 2 * p2 + s ^ 3 end
  local lo, hi = 0, 1
  for _ = 1, 100 do
    local mid = (lo + hi) / 2
    if bez(0.42, 0.58, mid) < x then lo = mid else hi = mid end
  end
  return bez(0, 1, (lo + hi) / 2)
end

describe("the clock", function()
  it("advances and seeks; never goes back; refuses bad numbers", function()
    local L = sidebar_layout()
    assert.equal(0, L.time)
    L:advance(0.25)
    near(0.25, L.time)
    L:seek(1)
    assert.equal(1, L.time)
    assert.has_error(function() L:seek(0.5) end)
    assert.has_error(function() L:advance(-1) end)
    assert.has_error(function() L:advance(0 / 0) end)
    assert.has_error(function() L:advance "x" end)
    assert.same({}, L:advance(0)) -- nothing changed
  end)
end)

describe("collapse", function()
  it("golden frames at 0, 0.15 and 0.3 s with easeInOut (Tests/c/test_motion.c)", function()
    local L, sidebar, content, cs = sidebar_layout()
    local col = L:collapsible(sidebar, cs[1], "left")
    assert.is_false(col.collapsed)
    local log = {}
    local anim = col:collapse { duration = 0.3, curve = "easeInOut", done = function(f) log[#log + 1] = f end }
    assert.equal("moa.Animation", getmetatable(anim).__name)
    assert.is_true(col.collapsed) -- at the call
    assert.is_true(L.animating)
    assert.same({}, L:advance(0))
    rect({ 0, 0, 200, 480 }, sidebar.frame)
    rect({ 200, 0, 120, 480 }, content.frame)
    local changed = L:advance(0.15)
    assert.same({ sidebar, content }, changed)
    rect({ -100, 0, 200, 480 }, sidebar.frame)
    rect({ 100, 0, 220, 480 }, content.frame)
    assert.same({}, log)
    L:advance(0.15)
    near(0.3, L.time)
    rect({ -200, 0, 200, 480 }, sidebar.frame)
    rect({ 0, 0, 320, 480 }, content.frame)
    assert.same({ true }, log)
    L:advance(1)
    assert.same({ true }, log) -- exactly once
    assert.is_false(L.animating)
  end)

  it("matches the easeInOut curve computed here at other times", function()
    local L, sidebar, content, cs = sidebar_layout()
    local col = L:collapsible(sidebar, cs[1], "left")
    col:collapse { duration = 0.3 } -- easeInOut is the default
    for _, t in ipairs { 0.03, 0.0823125, 0.1, 0.2, 0.27 } do
      L:seek(t)
      near(-200 * ease_in_out(t / 0.3), sidebar.frame.x, 1e-6)
      near(320 - (200 - 200 * ease_in_out(t / 0.3)), content.frame.width, 1e-6)
      if t == 0.0823125 then near(-200 * 0.15625, sidebar.frame.x, 1e-9) end -- the curve at parameter 0.25
    end
  end)

  it("shows, toggles, and works without animation", function()
    local L, sidebar, content, cs = sidebar_layout()
    local col = L:collapsible(sidebar, cs[1], "left")
    local log = {}
    assert.is_nil(col:collapse { animated = false, done = function(f) log[#log + 1] = f end })
    assert.is_true(col.collapsed)
    L:solve()
    rect({ -200, 0, 200, 480 }, sidebar.frame)
    assert.same({}, log)
    L:advance(0)
    assert.same({ true }, log) -- at the next frame
    col:show { duration = 0.2, curve = "linear" }
    L:advance(0.1)
    rect({ -100, 0, 200, 480 }, sidebar.frame)
    col:toggle() -- mid-animation: retargets from where it is
    assert.is_true(col.collapsed)
    L:advance(0.3)
    rect({ -200, 0, 200, 480 }, sidebar.frame)
    col:toggle { animated = false }
    assert.is_false(col.collapsed)
    col:free()
    assert.has_error(function() col:toggle() end)
    assert.has_error(function() L:collapsible(sidebar, cs[1], "sideways") end)
    assert.has_error(function() L:collapsible(sidebar, cs[2], "left") end) -- a vertical constraint
    assert.has_error(function() return col.nope end)
  end)
end)

describe("animate", function()
  it("animates a constant with curves, delay and a done callback", function()
    local L, sidebar, content, cs = sidebar_layout()
    local done = {}
    cs[4]:animate(100, { duration = 1, curve = "linear", delay = 0.5, done = function(f) done[#done + 1] = f end })
    L:advance(0.5)
    near(200, sidebar.frame.width)
    L:advance(0.25)
    near(175, sidebar.frame.width)
    near(175, cs[4].constant)
    L:advance(0.75)
    near(100, sidebar.frame.width)
    assert.same({ true }, done)
    -- springs, bezier curves
    cs[4]:animate(200, { spring = { damping = 1, response = 0.3 } })
    while L.animating do L:advance(1 / 60) end
    near(200, sidebar.frame.width, 1e-3)
    cs[4]:animate(150, { duration = 0.2, curve = { 0.25, 0.1, 0.25, 1 } })
    L:advance(0.2)
    near(150, sidebar.frame.width)
    cs[4]:animate(100, { curve = "spring" })
    while L.animating do L:advance(1 / 60) end
    near(100, sidebar.frame.width, 1e-3)
  end)

  it("raises on bad options", function()
    local L, sidebar, content, cs = sidebar_layout()
    assert.has_error(function() cs[4]:animate() end)
    assert.has_error(function() cs[4]:animate(1 / 0) end)
    assert.has_error(function() cs[4]:animate(1, { duration = -1 }) end)
    assert.has_error(function() cs[4]:animate(1, { curve = "bouncy" }) end)
    assert.has_error(function() cs[4]:animate(1, { done = 42 }) end)
    assert.has_error(function() cs[4]:animate(1, { spring = { damping = 0 } }) end)
    assert.has_error(function() cs[4]:animate(1, "fast") end)
    assert.is_false(L.animating)
  end)

  it("calls completions in order: by end time, then creation; a retargeted animation ends unfinished", function()
    local L, sidebar, content, cs = sidebar_layout()
    local log = {}
    local function tag(name) return function(f) log[#log + 1] = name .. ":" .. tostring(f) end end
    cs[4]:animate(150, { duration = 0.5, curve = "linear", done = tag "long" })
    cs[2]:animate(10, { duration = 0.2, curve = "linear", done = tag "short" })
    cs[3]:animate(-10, { duration = 0.2, curve = "linear", done = tag "short2" })
    cs[4]:animate(120, { duration = 0.1, curve = "linear", done = tag "retarget" }) -- takes over "long"
    L:advance(0)
    assert.same({ "long:false" }, log)
    L:advance(0.1)
    assert.same({ "long:false", "retarget:true" }, log)
    L:advance(0.1)
    assert.same({ "long:false", "retarget:true", "short:true", "short2:true" }, log)
    near(120, sidebar.frame.width)
  end)

  it("cancels animations; stop_animating keeps a constant set by hand", function()
    local L, sidebar, content, cs = sidebar_layout()
    local log = {}
    local a = cs[4]:animate(100, { duration = 1, curve = "linear", done = function(f) log[#log + 1] = f end })
    L:advance(0.5)
    a:cancel()
    L:advance(0)
    assert.same({ false }, log)
    near(150, sidebar.frame.width)
    cs[4]:animate(0, { duration = 1 })
    L:advance(0.1)
    cs[4]:stop_animating()
    cs[4].constant = 180
    L:advance(1)
    near(180, sidebar.frame.width)
    cs[4]:animate(0, { duration = 1 })
    L:cancel_animations()
    L:advance(1)
    assert.is_false(L.animating)
  end)

  it("animates the root size and a priority", function()
    local L, sidebar, content, cs = sidebar_layout()
    L:animate_root_size(400, 480, { duration = 0.2, curve = "linear" })
    L:advance(0.1)
    near(160, content.frame.width)
    L:advance(0.1)
    near(200, content.frame.width)
    local c = assert(L:eq "content.width == 50 @ 1")
    c:animate_priority(999, { duration = 0.1 })
    L:advance(0.1)
    assert.equal(999, c.priority)
  end)

  it("follows the keyboard", function()
    local L = moa.layout(320, 480)
    local form = L:view "form"
    assert(L:eqs "form.left == 0\nform.right == 0\nform.top == 0\nform.bottom == keyboard.top - 8")
    L:solve()
    local log = {}
    L:show_keyboard(200, 0.25, { done = function(f) log[#log + 1] = f end })
    L:advance(0.125)
    near(480 - 8 - 100, form.frame.height) -- easeInOut: halfway at half the duration
    L:advance(0.125)
    near(480 - 8 - 200, form.frame.height)
    assert.same({ true }, log)
    L:hide_keyboard(0.1, { curve = "linear" })
    L:advance(0.05)
    near(480 - 8 - 100, form.frame.height)
    L:advance(0.05)
    near(472, form.frame.height)
    assert.has_error(function() L:show_keyboard(-1) end)
  end)
end)

describe("pan", function()
  it("follows the finger, snaps back, snaps over on a fast swipe (Tests/c/test_motion.c)", function()
    local L, pan, basic, advanced = calculator()
    local function at(offset)
      L:solve()
      rect({ offset, 160, 320, 320 }, basic.frame)
      rect({ 320 + offset, 160, 320, 320 }, advanced.frame)
    end
    local rests = {}
    local function on_rest(rest, finished) rests[#rests + 1] = { rest, finished } end
    assert.is_true(pan:began())
    assert.is_true(pan:changed(-30, -100))
    at(-30)
    pan:changed(-80, -150)
    at(-80)
    pan:changed(-100, -50)
    at(-100)
    near(-100, pan.offset)
    assert.equal(0, pan:ended(-50, on_rest))
    L:seek(0.15) -- the default snap curve is easeInOut (UIKit's default): halfway at half the duration
    rect({ -50, 160, 320, 320 }, basic.frame)
    assert.same({}, rests)
    L:seek(0.3)
    at(0)
    assert.same({ { 0, true } }, rests)
    assert.equal(0, pan.rest_position)
    -- a fast swipe moves at most 20 per event and snaps over
    pan:began()
    pan:changed(-60, -900)
    at(-20)
    pan:changed(-150, -1200)
    at(-40)
    pan:changed(-45, -300)
    at(-45)
    assert.equal(-320, pan:ended(-1200, on_rest))
    L:advance(0.15)
    assert.equal(1, #rests)
    L:advance(0.15)
    at(-320)
    assert.same({ -320, true }, rests[2])
    assert.equal(-320, pan.rest_position)
    -- the drag limit, an interrupted snap, cancel
    pan:began()
    pan:changed(400, 100)
    at(-160)
    assert.equal(0, pan:ended(0, on_rest))
    L:advance(0.1)
    pan:began()
    L:advance(0)
    assert.same({ 0, false }, rests[3])
    assert.equal(0, pan:cancelled(on_rest))
    L:advance(0.3)
    at(0)
    assert.same({ 0, true }, rests[4])
  end)

  it("is gated by enabled; has options, rest positions and move", function()
    local L, pan, basic = calculator()
    local rests = {}
    pan.enabled = false
    assert.is_false(pan.enabled)
    assert.is_false(pan:began())
    assert.is_false(pan:changed(-100, -100))
    assert.is_false(pan:ended(-1000, function() rests[#rests + 1] = "called" end))
    L:advance(1)
    L:solve()
    assert.equal(0, basic.frame.x)
    assert.same({}, rests)
    pan:set_enabled(true)
    assert.is_true(pan.enabled)
    pan:set_options { drag_limit = 50, snap_duration = 0.1, snap_curve = "linear" }
    pan:began()
    pan:changed(-100, -100)
    L:solve()
    assert.equal(-50, basic.frame.x)
    assert.equal(0, pan:ended(0))
    L:advance(0.05)
    near(-25, basic.frame.x)
    L:advance(0.05)
    pan:move(-320, false, function(rest, f) rests[#rests + 1] = { rest, f } end)
    L:solve()
    assert.equal(-320, basic.frame.x)
    L:advance(0)
    assert.same({ { -320, true } }, rests)
    pan:set_rest_positions { 0, -160, -320 }
    pan:set_options { drag_limit = "auto", snap_duration = 0.3, snap_curve = "easeOut" }
    pan:began()
    pan:changed(130, 10)
    assert.equal(-160, pan:ended(0))
    pan:free()
    L:advance(0.3) -- the snap runs on after the driver is freed
    assert.equal(-160, basic.frame.x)
    assert.has_error(function() pan:began() end)
    assert.has_error(function() return pan.offset end)
    assert.has_error(function() pan.nope = 1 end)
  end)

  it("reads its options back from the library; set_options keeps the ones it does not name", function()
    local L, pan = calculator()
    assert.same({ fast_velocity = 400, fast_step = 20, drag_limit = "auto", snap_duration = 0.3,
                  snap_curve = "easeInOut" }, pan.options)
    pan:set_options { fast_velocity = 500 }
    assert.same({ fast_velocity = 500, fast_step = 20, drag_limit = "auto", snap_duration = 0.3,
                  snap_curve = "easeInOut" }, pan.options) -- the default curve kept, not replaced by a copy
    pan:set_options { snap_curve = "keyboard", drag_limit = 70 }
    local o = pan.options
    assert.equal("keyboard", o.snap_curve)
    assert.equal(70, o.drag_limit)
    assert.equal(0.3, o.snap_duration)
    assert.equal(500, o.fast_velocity)
    -- a custom curve comes back as its number, which set_options takes again
    assert.equal(pan, pan:set_options { snap_curve = { 0.1, 0.2, 0.3, 0.4 } })
    local custom = pan.options.snap_curve
    assert.equal("integer", math.type(custom))
    assert.is_true(custom >= 256)
    pan:set_options { snap_curve = "linear" }
    pan:set_options { snap_curve = custom }
    assert.equal(custom, pan.options.snap_curve)
    pan:set_options { snap_curve = moa.curve.easeOut }
    assert.equal("easeOut", pan.options.snap_curve)
    -- a failed call changes nothing
    local before = pan.options
    assert.has_error(function() pan:set_options { fast_step = 5, snap_duration = -1 } end)
    assert.has_error(function() pan:set_options { fast_step = 5, drag_limit = -1 } end) -- -1 is not "auto"
    assert.has_error(function() pan:set_options { fast_step = 5, snap_curve = "bouncy" } end)
    assert.has_error(function() pan:set_options { fast_step = 5, snap_curve = 9999 } end)
    assert.has_error(function() pan:set_options { fast_step = 5, orientations = "upside-down" } end)
    assert.has_error(function() pan:set_options { fast_step = 5, orientations = 1 } end)
    assert.same(before, pan.options)
    assert.has_error(function() pan.options = {} end)
    pan:free()
    assert.has_error(function() return pan.options end)
    L:close()
  end)

  it("takes events only in the orientations given; a rotation mid-drag ends the drag", function()
    local L, pan, basic = calculator()
    assert.equal("portrait", L.orientation)
    pan:set_options { orientations = "portrait" }
    L:set_root_size(480, 320)
    assert.equal("landscape", L.orientation)
    assert.is_false(pan:began())
    assert.is_false(pan:changed(-10, 0))
    L:set_root_size(320, 480)
    assert.equal("portrait", L.orientation)
    assert.is_true(pan:began())
    assert.is_true(pan:changed(-200, -100))
    L:solve()
    assert.equal(-160, basic.frame.x) -- the automatic drag limit: half the width
    L:set_root_size(480, 320) -- rotated mid-drag: the next event ends the drag as a slow release
    assert.is_false(pan:changed(-10, 0))
    L:set_root_size(320, 480)
    assert.is_false(pan:changed(-20, 0)) -- the drag is over
    L:advance(0.3)
    L:solve()
    assert.equal(-320, basic.frame.x) -- released past half the width: over to the second panel
    assert.equal(-320, pan.rest_position)
    pan:set_options { orientations = "landscape" }
    assert.is_false(pan:began())
    pan:set_options { orientations = "any" }
    L:set_root_size(480, 320)
    assert.is_true(pan:began())
    assert.same({ fast_velocity = 400, fast_step = 20, drag_limit = "auto", snap_duration = 0.3,
                  snap_curve = "easeInOut" }, pan.options) -- orientations alone leave the options alone
    assert.has_error(function() pan:set_options { orientations = "sideways" } end)
  end)

  it("raises on misuse", function()
    local L, pan = calculator()
    assert.has_error(function() L:pan({}, "horizontal", { 0 }) end)
    assert.has_error(function() L:pan({ 1 }, "horizontal", { 0 }) end)
    assert.has_error(function() L:pan({ L:constraints()[1] }, "diagonal", { 0 }) end)
    assert.has_error(function() L:pan({ L:constraints()[3] }, "horizontal", { 0 }) end) -- display.top: vertical
    assert.has_error(function() pan:changed(0 / 0, 0) end)
    assert.has_error(function() pan:set_options { fast_step = -1 } end)
    assert.has_error(function() pan:set_options { drag_limit = -5 } end)
    assert.has_error(function() pan:set_options { drag_limit = "far" } end)
    assert.has_error(function() pan:set_rest_positions {} end)
    assert.has_error(function() pan:ended(0, 42) end)
  end)
end)

describe("callbacks", function()
  it("an error in a completion surfaces after the call; the layout stays usable", function()
    local L, sidebar, content, cs = sidebar_layout()
    local after = {}
    cs[4]:animate(100, { duration = 0.1, done = function() error("boom in done") end })
    cs[2]:animate(5, { duration = 0.1, done = function(f) after[#after + 1] = f end })
    local ok, err = pcall(L.advance, L, 0.1)
    assert.is_false(ok)
    assert.matches("boom in done", err)
    assert.same({ true }, after) -- the other completions of that frame still ran
    near(100, sidebar.frame.width)
    assert.is_false(L.animating)
    -- usable: a new animation runs and completes
    cs[4]:animate(200, { duration = 0.1, done = function(f) after[#after + 1] = f end })
    L:advance(0.1)
    assert.same({ true, true }, after)
    -- error values other than strings are kept as they are
    local obj = {}
    cs[4]:animate(150, { duration = 0.1, done = function() error(obj) end })
    local ok2, err2 = pcall(L.advance, L, 0.1)
    assert.is_false(ok2)
    assert.equal(obj, err2)
  end)

  it("a pan rest callback that errors is raised after the call", function()
    local L, pan = calculator()
    pan:began()
    pan:changed(-10, -10)
    pan:ended(0, function() error("rest failed") end)
    assert.has_error(function() L:advance(0.3) end)
    assert.is_table(L:advance(0.1))
  end)

  it("advance from a callback is refused (the error surfaces after the call)", function()
    local L, sidebar, content, cs = sidebar_layout()
    cs[4]:animate(100, { duration = 0.1, done = function() L:advance(1) end })
    assert.has_error(function() L:advance(0.1) end)
    L:advance(0.1)
  end)

  it("a callback that closes the layout: no crash, later completions get finished = false", function()
    local L, sidebar, content, cs = sidebar_layout()
    local log = {}
    cs[4]:animate(100, { duration = 0.1, done = function(f) log[#log + 1] = "first:" .. tostring(f); L:close() end })
    cs[2]:animate(5, { duration = 0.1, done = function(f) log[#log + 1] = "second:" .. tostring(f) end })
    cs[3]:animate(5, { duration = 5, done = function(f) log[#log + 1] = "later:" .. tostring(f) end })
    assert.is_nil(L:advance(0.1))
    assert.is_true(L.closed)
    assert.same({ "first:true", "second:true", "later:false" }, log)
    assert.has_error(function() L:advance(0.1) end, "attempt to use a closed layout")
    assert.has_error(function() return sidebar.frame end)
  end)

  it("calls pending completions with finished = false when the layout is closed or collected", function()
    local L, sidebar, content, cs = sidebar_layout()
    local log = {}
    cs[4]:animate(100, { duration = 1, done = function(f) log[#log + 1] = f end })
    L:close()
    assert.same({ false }, log)
    -- collected: the completion runs from the finalizer; its error is dropped
    local count = 0
    do
      local L2 = sidebar_layout()
      L2:constraints()[4]:animate(1, { duration = 1, done = function(f) count = count + 1; error("ignored") end })
    end
    collectgarbage()
    collectgarbage()
    assert.equal(1, count)
  end)

  it("a completion that starts new animations and adds views", function()
    local L, sidebar, content, cs = sidebar_layout()
    local log = {}
    cs[4]:animate(100, { duration = 0.1, done = function()
      L:view "late"
      assert(L:eqs "late.size == 10x10")
      cs[4]:animate(200, { duration = 0.1, done = function(f) log[#log + 1] = f end })
    end })
    L:advance(0.1)
    L:advance(0.1)
    assert.same({ true }, log)
    assert.is_not_nil(L:find "late")
  end)
end)

describe("traces and pictures", function()
  it("records frames as CSV, JSON and an SVG strip", function()
    local L, sidebar, content, cs = sidebar_layout()
    local col = L:collapsible(sidebar, cs[1], "left")
    L:trace_start()
    col:collapse { duration = 0.3, curve = "linear" }
    L:advance(0.15)
    L:advance(0.15)
    L:advance(0.15)
    L:trace_stop()
    L:advance(0.15) -- not recorded
    local csv = L:trace_csv()
    assert.matches("^time,view,superview,x,y,width,height,rootX,rootY\n", csv)
    assert.matches("0.15,sidebar,root,-100,0,200,480,-100,0\n", csv, 1, true)
    assert.not_matches("\n0.6,", csv)
    local json = L:trace_json()
    assert.matches('^{"frames":', json)
    local strip = L:trace_svg_strip(3)
    assert.matches("^<svg", strip)
    assert.matches("t = 0.15 s", strip, 1, true)
    assert.is_string(L:trace_svg_strip())
    assert.has_error(function() L:trace_svg_strip(-1) end)
    L:trace_start { guides = true }
    L:advance(0)
    assert.matches("keyboard", L:trace_csv())
  end)
end)
