-- Expected failures: nil, message, details with the conflicting constraints; the solver is left as it was.
local moa = require "moa"

describe("conflicts", function()
  it("a failed add names the conflict; remove and re-add works", function()
    local s = moa.solver()
    local x = s:var "x"
    s:edit(x, "strong")
    s:suggest(x, 5)
    local ge2 = s:add(x:ge(2), nil, nil, "x>=2")

    local ok, msg, details = s:add(x:le(1), nil, nil, "x<=1")
    assert.is_nil(ok)
    assert.matches("unsatisfiable", msg)
    assert.matches("x>=2", msg)
    assert.equal("UNSATISFIABLE", details.code)
    assert.equal(7, details.status)
    assert.equal(1, #details.conflicts)
    assert.equal(ge2, details.conflicts[1]) -- the very object the script holds
    assert.equal("x>=2", details.conflicts[1].tag)
    assert.matches("x %+ %-2 >= 0", tostring(details.conflicts[1]))

    -- nothing changed
    assert.same({ 1, 1 }, { s:counts() })
    s:update()
    assert.equal(5, x.value)

    ge2:remove()
    local le1 = s:add(x:le(1), nil, nil, "x<=1")
    assert.equal("moa.Constraint", getmetatable(le1).__name)
    s:update()
    assert.equal(1, x.value)

    ok, msg, details = s:add(x:ge(2), nil, nil, "x>=2 again")
    assert.is_nil(ok)
    assert.equal(le1, details.conflicts[1])
    le1:remove()
    assert.is_not_nil(s:add(x:ge(2)))
    s:update()
    assert.equal(5, x.value)
  end)

  it("returns a new Constraint object for a conflict whose object was collected", function()
    local s = moa.solver()
    local x = s:var "x"
    s:add(x:ge(2), nil, nil, "lost handle")
    collectgarbage()
    collectgarbage()
    local _, _, details = s:add(x:le(1))
    local c = details.conflicts[1]
    assert.equal("lost handle", c.tag)
    assert.equal(c, select(3, s:add(x:le(0))).conflicts[1]) -- same object while it lives
    c:remove()
    assert.is_not_nil(s:add(x:le(1)))
  end)

  it("lists several conflicting constraints", function()
    local s = moa.solver()
    local a, b, c = s:var "a", s:var "b", s:var "c"
    local c1 = s:add(a:eq(b + 1), nil, nil, "a=b+1")
    local c2 = s:add(b:eq(c + 1), nil, nil, "b=c+1")
    s:add(a:ge(-100), nil, nil, "unrelated")
    local ok, msg, details = s:add(a:eq(c), nil, nil, "a=c")
    assert.is_nil(ok)
    local tags = {}
    for _, k in ipairs(details.conflicts) do tags[#tags + 1] = k.tag end
    table.sort(tags)
    assert.same({ "a=b+1", "b=c+1" }, tags)
    assert.matches("a=b%+1", msg)
    assert.truthy(c1 and c2)
  end)

  it("the message is not lost to a collection between the failing call and the report", function()
    local s = moa.solver()
    local x = s:var "x"
    s:add(x:ge(2), nil, nil, "keep")
    for i = 1, 50 do s:var("garbage" .. i) end -- collected while the report is built
    collectgarbage("step", 0)
    local ok, msg, details = s:add(x:le(1))
    assert.is_nil(ok)
    assert.matches("keep", msg)
    assert.equal("keep", details.conflicts[1].tag)
  end)

  it("c:set_constant returns the conflict; c.constant = k raises it", function()
    local s = moa.solver()
    local x = s:var "x"
    local lo = s:add(x:ge(0), nil, nil, "x>=0")
    local hi = s:add(x:le(10), nil, nil, "x<=10")
    local ok, msg, details = lo:set_constant(-20) -- x >= 20
    assert.is_nil(ok)
    assert.equal("UNSATISFIABLE", details.code)
    assert.equal(hi, details.conflicts[1])
    assert.equal(0, lo.constant) -- unchanged
    assert.error_matches(function() lo.constant = -20 end, "constant: unsatisfiable.*x<=10")
    assert.equal(0, lo.constant)
  end)

  it("c:set_priority to required returns the conflict; c.priority = 1000 raises it", function()
    local s = moa.solver()
    local x = s:var "x"
    local req = s:add(x:eq(1), nil, nil, "x=1")
    local soft = s:add(x:eq(2), "weak", nil, "x=2")
    local ok, _, details = soft:set_priority("required")
    assert.is_nil(ok)
    assert.equal(req, details.conflicts[1])
    assert.equal(250, soft.priority)
    assert.error_matches(function() soft.priority = 1000 end, "priority: unsatisfiable.*x=1")
    assert.equal(250, soft.priority)
  end)

  it("c:set_active(true) returns the conflict; c.active = true raises it", function()
    local s = moa.solver()
    local x = s:var "x"
    local a = s:add(x:eq(1), nil, nil, "x=1")
    local b = s:add(x:eq(2), "weak")
    b.active = false
    b.priority = "required" -- inactive: no conflict yet
    local ok, _, details = b:set_active(true)
    assert.is_nil(ok)
    assert.equal(a, details.conflicts[1])
    assert.is_false(b.active)
    assert.error_matches(function() b.active = true end, "active: unsatisfiable")
    assert.is_false(b.active)
  end)

  it("a conflict leaves the layout as it was (no trace)", function()
    local s = moa.solver()
    local vars = {}
    for i = 1, 20 do vars[i] = s:var("v" .. i) end
    s:add(vars[1]:eq(0))
    for i = 2, 20 do s:add(vars[i]:eq(vars[i - 1] + 1)) end
    s:update()
    local before = {}
    for i = 1, 20 do before[i] = vars[i].value end
    for i = 2, 20 do
      assert.is_nil((s:add(vars[i]:eq(vars[1]))))
    end
    s:update()
    for i = 1, 20 do assert.equal(before[i], vars[i].value) end
    assert.same({ 20, 20 }, { s:counts() })
  end)
end)
