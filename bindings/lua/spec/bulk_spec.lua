-- Frames in bulk: L:frame_values (one flat table of numbers), L:view_by_id, and solve / advance / seek with
-- views = false (the count, no View objects). Each is checked against the per-view calls.
local moa = require "moa"

-- sidebar | content, a badge in the content, and `rows` rows stacked in the content.
local function screen(rows)
  local L = moa.layout(320, 480)
  L:view "sidebar"
  local content = L:view "content"
  L:view("badge", content)
  local lines = {
    "sidebar.left == 0", "sidebar.top == 0", "sidebar.bottom == 0", "sidebar.width == 100",
    "content.left == sidebar.right", "content.right == 0", "content.top == 0", "content.bottom == 0",
    "badge.top == content.top + 8", "badge.right == content.right - 8", "badge.size == 24x24",
  }
  for i = 1, rows or 0 do
    L:view("row" .. i, content)
    lines[#lines + 1] = ("row%d.left == content.left + 4"):format(i)
    lines[#lines + 1] = ("row%d.size == %dx10"):format(i, 40 + i % 5)
    lines[#lines + 1] = i == 1 and "row1.top == content.top + 40" or ("row%d.top == row%d.bottom + 2"):format(i, i - 1)
  end
  local cs = assert(L:eqs(table.concat(lines, "\n")))
  L:solve()
  return L, cs
end

-- The values frame_values must give for a list of frames (L:frames(), L:changed_frames()).
local function expected(frames)
  local t = {}
  for _, f in ipairs(frames) do
    local r, q = f.frame, f.root_frame
    for _, x in ipairs { f.view.id, r.x, r.y, r.width, r.height, q.x, q.y, q.width, q.height } do t[#t + 1] = x end
  end
  return t
end

-- The values frame_values(which, t, "root") must give: id and root frame only.
local function expected_root(frames)
  local t = {}
  for _, f in ipairs(frames) do
    local q = f.root_frame
    for _, x in ipairs { f.view.id, q.x, q.y, q.width, q.height } do t[#t + 1] = x end
  end
  return t
end

local function same_values(frames, t, count)
  assert.equal(#frames, count)
  assert.equal(#frames * moa.frame_stride, #t)
  assert.same(expected(frames), { table.unpack(t, 1, #t) }) -- the array items only
  for i = 1, count do assert.equal("integer", math.type(t[(i - 1) * moa.frame_stride + 1])) end
end

local function near(expected, got)
  assert(math.abs(expected - got) <= 1e-9, ("expected %.17g, got %.17g"):format(expected, got))
end

describe("frame_values", function()
  it("has a stride of 9: id, frame x, y, width, height, root x, y, width, height", function()
    assert.equal(9, moa.frame_stride)
    local L = screen()
    local t, n = L:frame_values "all"
    local badge = L:find "badge"
    local k = 3 * moa.frame_stride -- root, sidebar, content, badge: the 4th in hierarchy order
    assert.equal(4, n)
    assert.same({ badge.id, 188, 8, 24, 24, 288, 8, 24, 24 }, { table.unpack(t, k + 1, k + 9) })
  end)

  it("gives the values of frames(), frames(true) and changed_frames()", function()
    local L, cs = screen(5)
    local t, n = L:frame_values "all"
    same_values(L:frames(), t, n)
    t, n = L:frame_values "all+guides"
    same_values(L:frames(true), t, n)
    assert.equal(#L:frames() + 3, n)
    -- the first solve: every view changed
    t, n = L:frame_values "changed"
    same_values(L:changed_frames(), t, n)
    assert.equal(#L:frames(), n)
    cs[4].constant = 150 -- sidebar.width: everything but the root moves
    L:solve()
    t, n = L:frame_values() -- "changed" is the default
    same_values(L:changed_frames(), t, n)
    assert.equal(#L:frames() - 1, n)
    L:solve()
    t, n = L:frame_values "changed"
    assert.same({}, t)
    assert.equal(0, n)
  end)

  it("gives ids that view_by_id maps back to the views", function()
    local L = screen(3)
    local t, n = L:frame_values "all+guides"
    local frames = L:frames(true)
    for i = 1, n do
      local v = L:view_by_id(t[(i - 1) * moa.frame_stride + 1])
      assert.equal(frames[i].view, v) -- the same object
      assert.equal(frames[i].name, v.name)
    end
    assert.equal(L.root, L:view_by_id(L.root.id))
    assert.equal(L:guide "safeArea", L:view_by_id(L:guide("safeArea").id))
  end)

  it("refills the table it is given: the same table, items past the new end cleared, other keys kept", function()
    local L, cs = screen(4)
    local t = { "stale", n = "kept" }
    for i = 2, 500 do t[i] = i end
    local t2, n = L:frame_values("all", t)
    assert.equal(t, t2)
    assert.equal(n * moa.frame_stride, #t)
    assert.is_nil(t[n * moa.frame_stride + 1])
    for k in pairs(t) do assert(k == "n" or math.type(k) == "integer" and k >= 1 and k <= #t, tostring(k)) end
    assert.equal("kept", t.n)
    same_values(L:frames(), t, n)
    -- shrinks, then grows again
    cs[9].constant = 20 -- badge.top: only the badge moves
    L:solve()
    t2, n = L:frame_values("changed", t)
    assert.equal(t, t2)
    assert.equal(1, n)
    assert.equal(moa.frame_stride, #t)
    same_values(L:changed_frames(), t, n)
    t2, n = L:frame_values("all+guides", t)
    same_values(L:frames(true), t, n)
    assert.equal("kept", t.n)
    -- nil for the table: a new one
    local t3 = L:frame_values("all", nil)
    assert.are_not.equal(t, t3)
    assert.same(expected(L:frames()), t3)
  end)

  it("follows an animation frame by frame, as advance and changed_frames do, as the count grows", function()
    local L, cs = screen(60)
    cs[9].constant = 12 -- one view moves: a small scratch array first
    L:solve()
    local _, n = L:frame_values()
    assert.equal(1, n)
    local twin, tcs = screen(60) -- the same screen, followed by the per-view calls
    tcs[9].constant = 12
    twin:solve()
    cs[1]:animate(-100, { duration = 0.5, curve = "easeInOut" }) -- sidebar.left: every view moves
    tcs[1]:animate(-100, { duration = 0.5, curve = "easeInOut" })
    local t = {}
    for frame = 1, 35 do
      local count = L:advance(1 / 60, false)
      local views = twin:advance(1 / 60)
      assert.equal("number", type(count))
      assert.equal(#views, count)
      local _, got = L:frame_values("changed", t)
      assert.equal(count, got)
      local want = expected(twin:changed_frames())
      for i = 1, #t, moa.frame_stride do -- the ids differ between the layouts; the frames do not
        for j = 1, moa.frame_stride - 1 do assert.equal(want[i + j], t[i + j]) end
        assert.equal(twin:view_by_id(want[i]).name, L:view_by_id(t[i]).name)
      end
      if frame <= 29 then assert.equal(#L:frames() - 1, count) elseif frame >= 32 then assert.equal(0, count) end
    end
    assert.same(expected(L:changed_frames()), t)
  end)

  it("gives the id and root frame only with fields 'root', in the same table as the full form", function()
    assert.equal(5, moa.root_frame_stride)
    local L, cs = screen(5)
    local t, n = L:frame_values("all", nil, "root")
    assert.equal(#L:frames(), n)
    assert.same(expected_root(L:frames()), t)
    local badge = L:find "badge"
    local k = 3 * moa.root_frame_stride
    assert.same({ badge.id, 288, 8, 24, 24 }, { table.unpack(t, k + 1, k + 5) })
    assert.equal("integer", math.type(t[k + 1]))
    -- one table from the full form to the root form and back: the items past the new end cleared each time
    local full = L:frame_values("all+guides", t, "full")
    assert.equal(t, full)
    same_values(L:frames(true), t, #L:frames(true))
    L:frame_values("all+guides", t, "root")
    assert.same(expected_root(L:frames(true)), t)
    cs[4].constant = 120 -- the sidebar widens: the sidebar, content, badge and rows move
    L:solve(false)
    local got, moved = L:frame_values("changed", t, "root")
    assert.equal(#L:changed_frames(), moved)
    assert.same(expected_root(L:changed_frames()), got)
    assert.same(L:frame_values("changed", {}, "full"), L:frame_values("changed", {})) -- "full" is the default
  end)

  it("raises on misuse and leaves the table as it was", function()
    local L = screen(2)
    local t = { 1, 2, 3 }
    assert.has_error(function() L:frame_values("all", t, "roots") end,
      "bad argument #3 to 'frame_values' (invalid option 'roots')")
    assert.has_error(function() L:frame_values("all", t, 5) end)
    assert.has_error(function() L:frame_values("some", t) end,
      "bad argument #1 to 'frame_values' (invalid option 'some')")
    assert.has_error(function() L:frame_values(true, t) end)
    assert.has_error(function() L:frame_values("all", "t") end)
    assert.has_error(function() L:frame_values("all", 7) end)
    assert.same({ 1, 2, 3 }, t)
    assert.has_error(function() L.frame_values({}, "all") end)
    L:close()
    assert.has_error(function() L:frame_values("all", t) end, "attempt to use a closed layout")
    assert.has_error(function() L:frame_values() end, "attempt to use a closed layout")
    assert.same({ 1, 2, 3 }, t)
  end)
end)

describe("view_by_id", function()
  it("gives the view of an id, or nil for an id of no view of this layout", function()
    local L, cs = screen(1)
    local badge = L:find "badge"
    assert.equal(badge, L:view_by_id(badge.id))
    -- a float with an integer value: ids carry the layout's tag in their high bits, so once a process has made
    -- some 32 layouts (as the specs that run before this one do) an id is above 2^53 and `id + 0.0` rounds to
    -- another integer; check it only where the float is the id
    local fid = badge.id + 0.0
    if math.tointeger(fid) == badge.id then assert.equal(badge, L:view_by_id(fid)) end
    assert.is_nil(L:view_by_id(0))
    assert.is_nil(L:view_by_id(-1))
    assert.is_nil(L:view_by_id(math.maxinteger))
    assert.is_nil(L:view_by_id(cs[1].id)) -- a constraint's id
    local other = screen(1)
    assert.is_nil(L:view_by_id(other:find("badge").id)) -- another layout's
    local id = badge.id
    badge:remove()
    assert.is_nil(L:view_by_id(id)) -- removed
    assert.has_error(function() L:view_by_id "x" end)
    assert.has_error(function() L:view_by_id(1.5) end)
    assert.has_error(function() L:view_by_id() end)
    L:close()
    assert.has_error(function() L:view_by_id(id) end, "attempt to use a closed layout")
  end)
end)

describe("views = false", function()
  it("solve, advance and seek return the count of the views that changed, and still move them", function()
    local L, cs = screen(3)
    local twin, tcs = screen(3)
    cs[4].constant = 150
    tcs[4].constant = 150
    assert.equal(#twin:solve(), L:solve(false))
    assert.equal(0, L:solve(false))
    cs[1]:animate(-50, { duration = 1 })
    tcs[1]:animate(-50, { duration = 1 })
    local n = L:advance(0.5, false)
    assert.equal("integer", math.type(n))
    assert.equal(#twin:advance(0.5), n)
    assert.equal(#L:frames() - 1, n) -- every view but the root
    local a, b = L:frames(), twin:frames()
    for i = 1, #a do assert.same(b[i].root_frame, a[i].root_frame) end
    near(-25, L:find("sidebar").frame.x)
    assert.equal(#twin:seek(1), L:seek(1, false))
    near(-50, L:find("sidebar").frame.x)
    assert.equal(0, L:advance(0.1, false))
    assert.equal(0, L:seek(L.time, false))
    -- true and nil: the list, as without the flag
    assert.same({}, L:advance(0.1, true))
    assert.same({}, L:advance(0.1, nil))
    assert.same({}, L:solve(true))
  end)

  it("raises on a flag that is not a boolean, before the clock moves", function()
    local L, cs = screen(1)
    cs[1]:animate(-50, { duration = 1 })
    for _, bad in ipairs { 0, 1, "false", {} } do
      assert.has_error(function() L:advance(0.5, bad) end)
      assert.has_error(function() L:seek(0.5, bad) end)
      assert.has_error(function() L:solve(bad) end)
    end
    assert.equal(0, L.time)
    assert.equal(0, L:find("sidebar").frame.x)
    L:close()
    assert.has_error(function() L:advance(0.1, false) end, "attempt to use a closed layout")
    assert.has_error(function() L:seek(1, false) end, "attempt to use a closed layout")
    assert.has_error(function() L:solve(false) end, "attempt to use a closed layout")
  end)

  it("returns nothing when a callback closed the layout, and raises a callback's error after the frame", function()
    local L, cs = screen(1)
    cs[4]:animate(150, { duration = 0.1, done = function() L:close() end })
    assert.is_nil(L:advance(0.1, false))
    assert.is_true(L.closed)
    local L2, cs2 = screen(1)
    cs2[4]:animate(150, { duration = 0.1, done = function() error "boom" end })
    local ok, err = pcall(L2.advance, L2, 0.1, false)
    assert.is_false(ok)
    assert.matches("boom$", err)
    assert.equal(150, L2:find("sidebar").frame.width) -- the frame was made
    assert.equal(0, L2:advance(0.1, false))
  end)
end)

describe("advance_frames", function()
  it("is advance(dt, false) then frame_values('changed', t), as the count grows and shrinks", function()
    local L, cs = screen(60)
    local twin, tcs = screen(60) -- the same screen, followed by advance and frame_values
    local t, tw = { "old" }, {}
    cs[9]:animate(12, { duration = 0.25 }) -- one view moves first: the scratch array starts small
    tcs[9]:animate(12, { duration = 0.25 })
    for frame = 1, 60 do
      if frame == 20 then -- then every view
        cs[1]:animate(-100, { duration = 0.5, curve = "easeInOut" })
        tcs[1]:animate(-100, { duration = 0.5, curve = "easeInOut" })
      end
      local got, count = L:advance_frames(1 / 60, t)
      assert.equal(t, got)
      assert.equal(twin:advance(1 / 60, false), count)
      local _, want = twin:frame_values("changed", tw)
      assert.equal(want, count)
      assert.equal(#tw, #t)
      for i = 1, #t, moa.frame_stride do -- the ids differ between the layouts; the frames do not
        for j = 1, moa.frame_stride - 1 do assert.equal(tw[i + j], t[i + j]) end
        assert.equal(twin:view_by_id(tw[i]).name, L:view_by_id(t[i]).name)
      end
      assert.same(expected(L:changed_frames()), t)
    end
    local fresh, n = L:advance_frames(0) -- no table: a new one
    assert.equal(0, n)
    assert.same({}, fresh)
  end)

  it("gives the id and root frame only with fields 'root'", function()
    local L, cs = screen(30)
    local twin, tcs = screen(30)
    local t = {}
    cs[1]:animate(-100, { duration = 0.5 })
    tcs[1]:animate(-100, { duration = 0.5 })
    for _ = 1, 40 do
      local got, count = L:advance_frames(1 / 60, t, "root")
      assert.equal(t, got)
      assert.equal(twin:advance(1 / 60, false), count)
      assert.equal(count * moa.root_frame_stride, #t)
      assert.same(expected_root(L:changed_frames()), t)
    end
    local _, n = L:advance_frames(0, t, "full") -- back to the full form: nothing moved, the table emptied
    assert.equal(0, n)
    assert.same({}, t)
  end)

  it("raises on misuse before the clock moves, and leaves the table as it was", function()
    local L, cs = screen(2)
    cs[1]:animate(-50, { duration = 1 })
    local t = { 1, 2, 3 }
    for _, bad in ipairs { -1, 0 / 0, math.huge, "x" } do
      assert.has_error(function() L:advance_frames(bad, t) end)
    end
    assert.has_error(function() L:advance_frames(0.1, "t") end)
    assert.has_error(function() L:advance_frames(0.1, 7) end)
    assert.has_error(function() L:advance_frames(0.1, t, "roots") end,
      "bad argument #3 to 'advance_frames' (invalid option 'roots')")
    assert.has_error(function() L:advance_frames(0.1, t, false) end)
    assert.has_error(function() L.advance_frames({}, 0.1) end)
    assert.equal(0, L.time)
    assert.same({ 1, 2, 3 }, t)
    L:close()
    assert.has_error(function() L:advance_frames(0.1, t) end, "attempt to use a closed layout")
    assert.same({ 1, 2, 3 }, t)
  end)

  it("returns nothing when a callback closed the layout, and raises a callback's error after the frame", function()
    local L, cs = screen(1)
    cs[4]:animate(150, { duration = 0.1, done = function() L:close() end })
    assert.is_nil(L:advance_frames(0.1, {}))
    assert.is_true(L.closed)
    local L2, cs2 = screen(1)
    cs2[4]:animate(150, { duration = 0.1, done = function() error "boom" end })
    local ok, err = pcall(L2.advance_frames, L2, 0.1, {})
    assert.is_false(ok)
    assert.matches("boom$", err)
    assert.equal(150, L2:find("sidebar").frame.width) -- the frame was made
    local _, n = L2:advance_frames(0.1)
    assert.equal(0, n)
  end)
end)
