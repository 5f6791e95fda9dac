-- The layout level: moa.layout, views, equations (eq / eqs / xeq), constraints, frames, errors, ownership.
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

local function same_rect(expected, r)
  assert.same(expected, { r.x, r.y, r.width, r.height })
end

describe("moa.layout", function()
  it("makes a layout with a root of the given size", function()
    local L = moa.layout(320, 480)
    assert.equal("moa.Layout", getmetatable(L).__name)
    assert.matches("^moa.Layout %(320 x 480, 0 views%)", tostring(L))
    assert.equal(320, L.width)
    assert.equal(480, L.height)
    local w, h = L:root_size()
    assert.same({ 320, 480 }, { w, h })
    assert.equal("root", L.root.name)
    L:solve()
    same_rect({ 0, 0, 320, 480 }, L.root.frame)
    assert.equal(0, L.time)
    assert.is_false(L.animating)
    assert.is_false(L.closed)
  end)

  it("refuses bad sizes and non-numbers", function()
    assert.has_error(function() moa.layout(-1, 10) end)
    assert.has_error(function() moa.layout(0 / 0, 10) end)
    assert.has_error(function() moa.layout("x", 10) end)
    assert.has_error(function() moa.layout(1e10, 10) end)
  end)

  it("closes with :close(), __close and __gc; a closed layout raises on use", function()
    local L = moa.layout(10, 10)
    local v = L:view "v"
    L:close()
    L:close() -- idempotent
    assert.is_true(L.closed)
    assert.matches("closed", tostring(L))
    assert.has_error(function() L:view "w" end, "attempt to use a closed layout")
    assert.has_error(function() return v.frame end, "attempt to use a closed layout")
    assert.has_error(function() return L.root end, "attempt to use a closed layout")
    assert.equal("moa.View (closed layout)", tostring(v))
    do
      local L2 <close> = moa.layout(10, 10)
      L2:view "x"
      L = L2
    end
    assert.is_true(L.closed)
    moa.layout(1, 1)
    collectgarbage()
    collectgarbage()
  end)
end)

describe("views", function()
  it("adds views and subviews, finds them by name, keeps one object per view", function()
    local L = moa.layout(320, 480)
    local a = L:view "a"
    local b = L:view("b", a)
    assert.equal("moa.View", getmetatable(a).__name)
    assert.equal(a, L:find "a")
    assert.equal(b, L:find "b")
    assert.is_nil(L:find "nope")
    assert.equal(a, b.superview)
    assert.equal(L.root, a.superview)
    assert.is_nil(L.root.superview)
    assert.equal(L, a.layout)
    assert.same({ a, b }, L:views())
    assert.is_number(a.id)
  end)

  it("reports frames in the superview and in root space", function()
    local L = moa.layout(320, 480)
    local a = L:view "a"
    local b = L:view("b", a)
    assert(L:eqs "a.left == 10\na.top == 20\na.size == 100x100\nb.left == a.left + 5\nb.top == a.top + 5\nb.size == 10x10")
    local changed = L:solve()
    assert.equal(3, #changed) -- the root, a and b
    assert.equal(L.root, changed[1])
    same_rect({ 10, 20, 100, 100 }, a.frame)
    same_rect({ 5, 5, 10, 10 }, b.frame)
    same_rect({ 15, 25, 10, 10 }, b.root_frame)
    assert.same({}, L:solve()) -- nothing changed since
    assert.equal("moa.View b (5, 5, 10, 10)", (tostring(b):gsub("%.0", "")))
  end)

  it("raises on misuse: duplicate or bad names, foreign parents, unknown fields", function()
    local L = moa.layout(320, 480)
    local a = L:view "a"
    assert.has_error(function() L:view "a" end)
    assert.has_error(function() L:view "" end)
    assert.has_error(function() L:view(1 == 1) end)
    local other = moa.layout(10, 10)
    local x = other:view "x"
    assert.has_error(function() L:view("c", x) end, "bad argument #2 to 'view' (view belongs to another layout)")
    assert.has_error(function() return a.nope end, "moa.View has no field 'nope'")
    assert.has_error(function() L:guide "nope" end)
  end)

  it("adds many views in one call (add_views), all or nothing", function()
    local L = moa.layout(320, 480)
    local box = L:view "box"
    local vs = L:add_views({ "a", "b", "c" }, box, { { 10, 20 }, { 30 }, { nil, 5 } })
    assert.equal(3, #vs)
    assert.equal(L:find "a", vs[1])
    assert.equal(box, vs[3].superview)
    assert(L:eqs "a.left == 0\na.top == 0\nb.left == a.right\nb.top == 0\nb.height == 7\nc.left == 0\nc.top == a.bottom\nc.width == 3")
    L:solve()
    same_rect({ 0, 0, 10, 20 }, vs[1].frame)
    same_rect({ 10, 0, 30, 7 }, vs[2].frame)
    same_rect({ 0, 20, 3, 5 }, vs[3].frame)
    local count = #L:views()
    assert.has_error(function() L:add_views { "x", "a" } end)           -- in use
    assert.has_error(function() L:add_views { "x", "y", "x" } end)      -- given twice
    assert.has_error(function() L:add_views { "x", 2 } end)             -- not a string
    assert.has_error(function() L:add_views({ "x", "y" }, nil, { { 1, 1 } }) end)
    assert.has_error(function() L:add_views({ "x" }, nil, { { 1 / 0, 1 } }) end)
    assert.has_error(function() L:add_views({ "x" }, nil, { { 1e300, 1 } }) end)
    assert.has_error(function() L:add_views({ "x" }, L:guide "keyboard") end)
    assert.equal(count, #L:views())
    assert.is_nil(L:find "x")
    assert.equal(0, #L:add_views {})
    assert.equal(2, #L:add_views { "x", "y" }) -- the names were left free
  end)

  it("has the guides safeArea, margins and keyboard", function()
    local L = moa.layout(320, 480)
    local kb = L:guide "keyboard"
    assert.equal("keyboard", kb.name)
    assert.equal(kb, L:find "keyboard")
    L:set_keyboard_height(200)
    L:solve()
    same_rect({ 0, 280, 320, 200 }, kb.frame)
    L:set_safe_area(20, 0, 34, 0)
    L:solve()
    same_rect({ 0, 20, 320, 426 }, L:guide("safeArea").frame)
    same_rect({ 8, 8, 304, 464 }, L:guide("margins").frame)
  end)

  it("sets margins, direction, intrinsic size, content priorities, baseline, superview; removes views", function()
    local L = moa.layout(320, 480)
    local box = L:view "box"
    local label = L:view("label", box)
    assert(L:eqs [[
      box.left == 0
      box.top == 0
      box.size == 200x100
      label.leading == box.leadingMargin
      label.top == box.topMargin
    ]])
    box:set_margins(10, 12, 10, 14)
    label:set_intrinsic_size(50, 20)
    L:solve()
    same_rect({ 12, 10, 50, 20 }, label.frame)
    box:set_direction "rtl"
    L:solve()
    same_rect({ 200 - 14 - 50, 10, 50, 20 }, label.frame)
    assert.has_error(function() box:set_direction "sideways" end)
    box:set_direction "inherit"
    box:set_margins(4)
    L:solve()
    same_rect({ 4, 4, 50, 20 }, label.frame)
    -- content priorities: a weak width wish beats a lower hugging priority
    assert(L:eq "label.width == 120 @ 200")
    L:solve()
    assert.equal(50, label.frame.width) -- hugging 250 > 200
    label:set_content_priority("horizontal", 150, 750)
    L:solve()
    assert.equal(120, label.frame.width)
    assert.has_error(function() label:set_content_priority("diagonal", 1, 1) end)
    label:set_intrinsic_size(nil, 20) -- no intrinsic width
    local text = L:view "text"
    assert(L:eqs "text.left == 0\ntext.size == 10x20")
    text:set_baseline(15)
    assert(L:eq "text.firstBaseline == root.top + 30")
    L:solve()
    assert.equal(15, text.frame.y)
    text:set_baseline(nil) -- baseline = bottom
    L:solve()
    assert.equal(10, text.frame.y)
    -- move the label to the root, then remove the box with its constraints
    local n = #L:constraints()
    label:set_superview(nil)
    box:remove()
    assert.is_nil(L:find "box")
    assert.has_error(function() return box.frame end)
    assert.is_true(#L:constraints() < n)
    assert.has_error(function() L.root:remove() end)
  end)

  it("sets directional margins that follow the view's direction; L.orientation", function()
    local L <close> = moa.layout(320, 480)
    assert.equal("portrait", L.orientation)
    local box = L:view "box"
    local a = L:view("a", box)
    assert(L:eqs [[
      box.pin == 0
      a.left == box.leftMargin
      a.right == box.rightMargin
      a.top == 0
      a.height == 10
    ]])
    assert.equal(box, box:set_directional_margins(0, 20, 0, 50))
    L:solve()
    same_rect({ 20, 0, 250, 10 }, a.frame) -- left to right: leading is the left margin
    box:set_direction "rtl"
    L:solve()
    same_rect({ 50, 0, 250, 10 }, a.frame) -- right to left: leading is the right margin
    assert.has_error(function() box:set_directional_margins(0, 0 / 0, 0, 0) end)
    assert.has_error(function() box:set_directional_margins(0, 1, 0) end)
    assert.has_error(function() box:set_directional_margins "wide" end)
    L:solve()
    same_rect({ 50, 0, 250, 10 }, a.frame) -- a failed call changes nothing
    box:set_direction "ltr"
    L:solve()
    same_rect({ 20, 0, 250, 10 }, a.frame) -- and back
    box:set_directional_margins(6)
    L:solve()
    same_rect({ 6, 0, 308, 10 }, a.frame)
    box:set_margins(0, 30, 0, 10) -- by left and right again: no longer follows the direction
    box:set_direction "rtl"
    L:solve()
    same_rect({ 30, 0, 280, 10 }, a.frame)
    L:set_root_size(480, 320)
    assert.equal("landscape", L.orientation)
    L:set_root_size(400, 400)
    assert.equal("portrait", L.orientation) -- landscape only when wider than tall
  end)
end)

describe("equations", function()
  it("eq returns a constraint object with constant, priority, active, line and text", function()
    local L = sidebar_layout()
    local sidebar = L:view("box", L:find "content")
    assert(L:eqs "box.left == 0\nbox.top == 0\nbox.width == 10\nbox.height == 480 @ low")
    local c = assert(L:eq "box.height <= 400 @ high")
    assert.equal("moa.LayoutConstraint", getmetatable(c).__name)
    assert.equal("box.height <= 400 @ 750", tostring(c))
    assert.equal(400, c.constant)
    assert.equal(750, c.priority)
    assert.is_true(c.active)
    assert.equal(0, c.line)
    assert.equal(c, L:eq "box.height <= 300 @ high") -- re-issued: the same constraint, new constant
    assert.equal(300, c.constant)
    L:solve()
    assert.equal(300, sidebar.frame.height)
    c.constant = 350
    L:solve()
    assert.equal(350, sidebar.frame.height)
    c.priority = "low"
    assert.equal(250, c.priority)
    c.active = false
    L:solve()
    assert.equal(480, sidebar.frame.height)
    assert.is_false(c.active)
    assert.equal(c, c:set_active(true))
    assert.equal(c, c:set_constant(100))
    assert.equal(c, c:set_priority(800))
    L:solve()
    assert.equal(100, sidebar.frame.height)
    assert.has_error(function() return c.nope end, "moa.LayoutConstraint has no field 'nope'")
    assert.has_error(function() c.nope = 1 end)
    assert.has_error(function() c.constant = "x" end)
    assert.has_error(function() c.constant = 1 / 0 end)
    assert.has_error(function() c.priority = 0 end)
    assert.has_error(function() c.priority = "enormous" end)
    assert.has_error(function() c.active = 1 end)
    assert.equal(c, L:constraints()[#L:constraints()])
    assert.matches("box.height <= 100 @ 800", L:describe(), 1, true)
  end)

  it("eqs returns every constraint in line order with its line, all or nothing", function()
    local L = moa.layout(320, 480)
    L:view "a"
    local cs = assert(L:eqs "a.left == 0\n\n# a comment\na.top == 0\na.size == 10x20\na.pin == 4 @ low")
    assert.equal(8, #cs) -- 1 + 1 + size 2 + pin 4
    assert.equal(1, cs[1].line)
    assert.equal(4, cs[2].line)
    assert.equal(5, cs[3].line)
    local before = #L:constraints()
    local r, msg, d = L:eqs "a.right == 100\na.bottom == 50\na.widht == 3"
    assert.is_nil(r)
    assert.matches("line 3", msg)
    assert.equal("PARSE", d.code)
    assert.equal(3, d.line)
    assert.equal(2, d.offset)
    assert.equal("width", d.suggestion)
    assert.equal("a.widht == 3", d.source_line)
    assert.equal(before, #L:constraints()) -- nothing from the failing call stays
    -- a source name and a first line number
    r, msg, d = L:eqs("a.left == b.left", "screen.moa", 10)
    assert.is_nil(r)
    assert.equal("screen.moa", d.source)
    assert.equal(10, d.line)
    assert.equal("unknownView", d.kind)
  end)

  it("a parse error returns nil, message, details with line, offset and what was expected", function()
    local L = moa.layout(320, 480)
    L:view "a"
    local r, msg, d = L:eq "a.left = 10"
    assert.is_nil(r)
    assert.is_string(msg)
    assert.equal("PARSE", d.code)
    assert.equal(moa.layout and 8, d.status)
    assert.equal(1, d.line)
    assert.equal(7, d.offset)
    assert.matches("==", d.expected, 1, true)
    assert.same({}, d.conflicts)
    r, msg, d = L:eq "calender.left == 0"
    assert.equal("unknownView", d.kind)
    assert.equal(0, d.offset)
    -- a blank line or a size line in eq is misuse: raises
    assert.has_error(function() L:eq "" end)
    assert.has_error(function() L:eq "a.size == 10x10" end)
    assert.has_error(function() L:eq(nil) end)
  end)

  it("a conflict returns nil, message, details listing the conflicting equations and their lines", function()
    local L, sidebar, content, cs = sidebar_layout()
    local r, msg, d = L:eq "sidebar.right == 150"
    assert.is_nil(r)
    assert.matches("cannot hold", msg)
    assert.equal("UNSATISFIABLE", d.code)
    assert.is_true(#d.conflicts >= 2)
    local seen = {}
    for _, c in ipairs(d.conflicts) do
      assert.is_string(c.equation)
      assert.is_number(c.line)
      seen[c.equation] = c.line
      if c.equation == "sidebar.width == 200" then assert.equal(cs[4], c.constraint) end
    end
    assert.equal(4, seen["sidebar.width == 200"])
    assert.equal(1, seen["sidebar.left == root.left"])
    -- eqs: the failing line and the conflicts
    r, msg, d = L:eqs "content.width >= 10\nsidebar.right == 150"
    assert.is_nil(r)
    assert.equal(2, d.line)
    assert.is_true(#d.conflicts >= 2)
    -- constraint setters return the failure; assignments raise
    local c = assert(L:eq "sidebar.right == root.left + 150 @ 500")
    r, msg, d = c:set_priority(1000)
    assert.is_nil(r)
    assert.equal("UNSATISFIABLE", d.code)
    assert.equal(500, c.priority)
    assert.has_error(function() c.priority = 1000 end)
    assert.equal(150, c.constant)
    c:set_constant(200)
    assert.equal(c, c:set_priority("required")) -- holds now
    r, msg, d = cs[4]:set_constant(10)
    assert.is_nil(r)
    assert.has_error(function() cs[4].constant = 10 end)
    -- the layout is still usable
    L:solve()
    assert.equal(200, sidebar.frame.width)
  end)

  it("xeq removes the constraint an equation names", function()
    local L, sidebar, content, cs = sidebar_layout()
    assert.equal(1, L:xeq "sidebar.width == 999") -- the constant is not compared
    assert.is_true(cs[4].removed)
    assert.has_error(function() return cs[4].constant end)
    assert.equal("moa.LayoutConstraint (removed)", tostring(cs[4]))
    local r, msg, d = L:xeq "sidebar.width == 200"
    assert.is_nil(r)
    assert.equal("NOTFOUND", d.code)
    r, msg, d = L:xeq "sidebar.widht == 1"
    assert.equal("PARSE", d.code)
    local box = L:view "box"
    assert(L:eqs "box.size == 10x20")
    assert.equal(2, L:xeq "box.size == 0x0") -- a size line removes both of its constraints
  end)

  it("removes constraints with c:remove(); a removed constraint raises", function()
    local L, sidebar, content, cs = sidebar_layout()
    cs[4]:remove()
    assert.has_error(function() cs[4]:remove() end)
    assert.has_error(function() cs[4].constant = 1 end)
    assert(L:eq "sidebar.width == 50")
    L:solve()
    assert.equal(50, sidebar.frame.width)
  end)

  it("sends `?` reports to on_debug, and raises a reporter's error after the call", function()
    local L = sidebar_layout()
    local got = {}
    L:on_debug(function(text) got[#got + 1] = text end)
    local c = assert(L:eq "content.height <= 1000 ?")
    assert.matches("content.height <= 1000", got[1], 1, true)
    assert(L:eqs "content.width >= 10 ?\ncontent.width >= 20 ?")
    assert.equal(3, #got)
    L:on_debug(function() error("reporter failed") end)
    assert.has_error(function() L:eq "content.width >= 30 ?" end)
    -- the equation was applied (the error came after the work), and the layout is usable
    assert.is_table(L:solve())
    assert.equal(1, select(2, pcall(L.xeq, L, "content.width >= 0")))
    L:on_debug(function() L:close() end) -- closing from the reporter: no crash
    assert.has_error(function() L:eq "content.width >= 40 ?" end, "attempt to use a closed layout")
    assert.is_true(L.closed)
    assert.equal(c, c) -- the objects survive
  end)

  it("lists violations and ambiguities", function()
    local L = moa.layout(100, 100)
    L:view "a"
    assert(L:eqs "a.left == 0\na.top == 0\na.height == 10\na.width == 50 @ low\na.width == 80 @ high")
    L:solve()
    local v = L:violations()
    assert.equal(1, #v)
    assert.equal("a.width == 50 @ 250", tostring(v[1].constraint))
    assert.equal(30, v[1].amount)
    L:view "b"
    local amb = L:ambiguities()
    assert.equal(4, #amb)
    assert.equal("b", amb[1].view.name)
    assert.equal("minX", amb[1].var)
  end)

  it("set_root_size changes the root; an impossible size returns the conflict", function()
    local L, sidebar, content = sidebar_layout()
    L:set_root_size(400, 300)
    L:solve()
    same_rect({ 200, 0, 200, 300 }, content.frame)
    assert(L:eq "content.width >= 150")
    local r, msg, d = L:set_root_size(300, 300)
    assert.is_nil(r)
    assert.equal("UNSATISFIABLE", d.code)
    assert.equal(400, L.width)
    assert.has_error(function() L:set_root_size(-1, 1) end)
  end)

  it("lists frames in hierarchy order, with guides on request", function()
    local L = sidebar_layout()
    local f = L:frames()
    assert.equal(3, #f)
    assert.equal("root", f[1].name)
    assert.equal(0, f[1].depth)
    assert.equal("sidebar", f[2].name)
    assert.equal("root", f[2].superview)
    same_rect({ 0, 0, 200, 480 }, f[2].frame)
    same_rect({ 200, 0, 120, 480 }, f[3].root_frame)
    assert.equal(L:find "content", f[3].view)
    assert.equal(6, #L:frames(true))
  end)

  it("lists the frames that changed at the last solve", function()
    local L, sidebar, content, cs = sidebar_layout()
    assert.equal(3, #L:changed_frames()) -- the first solve: root, sidebar, content
    cs[4].constant = 150 -- sidebar.width: the sidebar and the content change, the root does not
    L:solve()
    local f = L:changed_frames()
    assert.equal(2, #f)
    assert.equal("sidebar", f[1].name)
    assert.equal(sidebar, f[1].view)
    same_rect({ 0, 0, 150, 480 }, f[1].frame)
    same_rect({ 150, 0, 170, 480 }, f[2].root_frame)
    L:solve()
    assert.same({}, L:changed_frames())
    assert.equal(0, #L:changed_frames())
  end)

  it("draws the layout as SVG", function()
    local L = sidebar_layout()
    local s = L:svg()
    assert.matches("^<svg", s)
    assert.matches("sidebar", s)
    assert.matches(">content<", s)
    assert.not_matches(">content<", L:svg { labels = false })
    assert.is_true(#L:svg { constraints = true, guides = true } > #s)
    assert.has_error(function() L:svg "x" end)
  end)
end)

describe("ownership", function()
  it("keeps a constraint in its layout when its Lua object is collected", function()
    local L = moa.layout(320, 480)
    local a = L:view "a"
    L:eqs "a.left == 0\na.top == 0\na.size == 30x40"
    collectgarbage()
    collectgarbage()
    L:solve()
    same_rect({ 0, 0, 30, 40 }, a.frame)
    assert.equal(4, #L:constraints())
  end)

  it("survives any collection order: layout dropped before its views and constraints", function()
    for _ = 1, 20 do
      local L = moa.layout(100, 100)
      local v = L:view "v"
      local c = L:eq "v.width == 10"
      local col = L:collapsible(v, L:eq "v.left == 0", "left")
      local p = L:pan({ c }, "horizontal", { 0, 10 })
      L = nil
      collectgarbage()
      -- the children keep their layout alive
      assert.equal(10, c.constant)
      assert.equal("v", v.name)
      assert.is_false(col.collapsed)
      assert.equal(0, p.offset)
      v, c = nil, nil
      collectgarbage()
      col, p = nil, nil
      collectgarbage()
    end
    -- closed first, children used later: errors, no crash
    local L = moa.layout(100, 100)
    local v, c = L:view "v", L:eq "root.width >= 0"
    L:close()
    assert.has_error(function() return c.constant end, "attempt to use a closed layout")
    assert.has_error(function() v:set_margins(1) end, "attempt to use a closed layout")
    L, v, c = nil, nil, nil
    collectgarbage()
    collectgarbage()
  end)

  it("rejects objects of another layout", function()
    local A, B = moa.layout(10, 10), moa.layout(10, 10)
    local va = A:view "v"
    local cb = B:eq "root.width >= 0"
    assert.has_error(function() A:collapsible(va, cb, "left") end)
    assert.has_error(function() A:pan({ cb }, "horizontal", { 0 }) end)
    assert.has_error(function() A:pan({ va }, "horizontal", { 0 }) end)
  end)
end)

describe("the examples", function()
  local function run(script)
    local dir = os.tmpname()
    os.remove(dir)
    local cmd = string.format("MOA_DEMO_DIR=%s lua5.4 examples/lua/%s > %s.out 2>&1", dir, script, dir)
    local ok, how, code = os.execute(cmd)
    local f = io.open(dir .. ".out")
    local out = f and f:read("a") or ""
    if f then f:close() end
    os.remove(dir .. ".out")
    return ok, code, out, dir
  end

  for _, script in ipairs { "solver.lua", "sidebar.lua", "keyboard.lua" } do
    it("runs examples/lua/" .. script .. " (exit status 0)", function()
      local ok, code, out = run(script)
      assert.is_true(ok, out)
      assert.equal(0, code)
    end)
  end

  it("runs examples/lua/calculator.lua: prints frames, writes the SVGs and the CSV", function()
    local ok, code, out, dir = run("calculator.lua")
    assert.is_true(ok, out)
    assert.equal(0, code)
    assert.matches("snaps over", out)
    assert.matches("rest %-320", out)
    for _, name in ipairs { "calculator.svg", "calculator-strip.svg", "calculator.csv" } do
      local f = assert(io.open(dir .. "/" .. name))
      local text = f:read("a")
      f:close()
      assert.is_true(#text > 1000)
      os.remove(dir .. "/" .. name)
    end
    os.remove(dir)
  end)
end)

-- The inspector page: L:html() returns it, L:html(path [, title]) writes it; the data block holds the frames,
-- the equations with their lines, recent conflicts and the recorded trace.
describe("L:html", function()
  it("returns the page with every view and every equation with its line", function()
    local L <close> = sidebar_layout()
    local page = L:html()
    assert.is_string(page)
    assert.truthy(page:find("<!doctype html>", 1, true) == 1)
    assert.truthy(page:find('<script id="moa-data" type="application/json">{"title":"Moa layout"', 1, true))
    assert.truthy(page:find('"name":"sidebar","superview":"root","depth":1,"kind":"view","frame":[0,0,200,480]', 1, true))
    assert.truthy(page:find('"equation":"content.left == sidebar.right","line":5', 1, true))
    assert.is_nil(page:find("__MOA_DATA__", 1, true))
  end)

  it("writes the file, with a title, the recent conflicts and the recorded trace", function()
    local L <close>, _, _, cs = sidebar_layout()
    assert.is_nil((L:eq "sidebar.right == 100"))
    L:trace_start()
    local col = L:collapsible(L:find "sidebar", cs[1], "left")
    col:collapse { duration = 0.2 }
    while L.animating do L:advance(1 / 60) end
    L:trace_stop()
    local path = os.tmpname()
    assert.is_true(L:html(path, "scene"))
    local f = assert(io.open(path, "rb"))
    local page = f:read "a"
    f:close()
    os.remove(path)
    assert.equal(L:html(nil, "scene"), page)
    assert.truthy(page:find('{"title":"scene"', 1, true))
    assert.truthy(page:find('"conflicts":[{"message":"required constraint `sidebar.right == root.right + 100`', 1, true))
    assert.truthy(page:find('{"name":"sidebar","rootFrame":[-200,0,200,480]}', 1, true))
  end)

  it("raises for a path it cannot write, after Moa returned", function()
    local L <close> = sidebar_layout()
    assert.has_error(function() L:html("/nonexistent-dir/x.html") end, "html: cannot write /nonexistent-dir/x.html")
  end)
end)

describe("equations in any order", function()
  -- A column made in a random order with its lines shuffled (a program iterating `pairs` for both) builds the
  -- column written in order: `L:eqs` ranks the new variables by the batch's equalities (without it, 300 views
  -- held 13-14x the cells) and the frames are the same.
  local n = 300
  local function build(shuffled)
    local order, lines = {}, {}
    for i = 1, n do
      order[i] = i
      lines[#lines + 1] = ("v%d.left == 8"):format(i)
      lines[#lines + 1] = ("v%d.width == %d"):format(i, 100 + i % 7)
      lines[#lines + 1] = i == 1 and "v1.top == 8" or ("v%d.top == v%d.bottom + 4"):format(i, i - 1)
      lines[#lines + 1] = ("v%d.height >= 10"):format(i)
      lines[#lines + 1] = ("v%d.height == %d @ low"):format(i, 20 + i % 5)
    end
    if shuffled then
      local seed = 12345
      local function rand(k) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k + 1 end
      for _, t in ipairs { order, lines } do
        for i = #t, 2, -1 do
          local j = rand(i)
          t[i], t[j] = t[j], t[i]
        end
      end
    end
    local L = moa.layout(400, 20000)
    for _, i in ipairs(order) do L:view("v" .. i) end
    assert(L:eqs(table.concat(lines, "\n")))
    L:solve()
    return L
  end

  it("builds the tableau and the frames of the ordered column", function()
    local ordered, shuffled = build(false), build(true)
    local a, b = ordered:usage().cells, shuffled:usage().cells
    assert.is_true(b <= a + a // 10, ("%d cells shuffled, %d in order"):format(b, a))
    for i = 1, n do
      local f, g = ordered:find("v" .. i).frame, shuffled:find("v" .. i).frame
      for _, k in ipairs { "x", "y", "width", "height" } do
        assert.is_true(math.abs(f[k] - g[k]) < 1e-6, ("v%d.%s: %g against %g"):format(i, k, g[k], f[k]))
      end
    end
  end)
end)
