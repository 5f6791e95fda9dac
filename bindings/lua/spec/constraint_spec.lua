-- moa.Constraint: fields, setters, remove, describe, <close>.
local moa = require "moa"

describe("moa.Constraint", function()
  local s, x
  before_each(function()
    s = moa.solver()
    x = s:var "x"
  end)

  local function value()
    s:update()
    return x.value
  end

  it("reads constant, priority, weight, active, tag, removed, solver", function()
    local c = s:add((x + 2):le(10), "medium", 4, "cap")
    assert.equal(-8, c.constant)
    assert.equal(500, c.priority)
    assert.equal(4, c.weight)
    assert.is_true(c.active)
    assert.equal("cap", c.tag)
    assert.is_false(c.removed)
    assert.equal(s, c.solver)
    assert.is_nil(c.nonsense)
  end)

  it("describes itself", function()
    local c = s:add(x:ge(3), "weak", 1, "low bound")
    assert.equal("x + -3 >= 0 @250 [low bound]", tostring(c))
    assert.equal(tostring(c), c:describe())
  end)

  it("changes its constant (c.constant = k and c:set_constant(k))", function()
    local c = s:add(x:eq(10))
    assert.equal(10, value())
    c.constant = -20
    assert.equal(20, value())
    assert.equal(c, c:set_constant(-30))
    assert.equal(30, value())
    assert.equal(-30, c.constant)
  end)

  it("refuses bad constants", function()
    local c = s:add(x:eq(10))
    assert.error_matches(function() c.constant = 0 / 0 end, "bad value for 'constant' %(constant must be finite, got nan%)")
    assert.error_matches(function() c.constant = "a" end, "bad value for 'constant' %(number expected, got string%)")
    assert.error_matches(function() c:set_constant(math.huge) end, "constant must be finite, got inf")
    assert.error_matches(function() c:set_constant() end, "number expected, got no value")
    assert.error_matches(function() c.constant = 1e13 end, "constant: invalid argument")
    assert.equal(-10, c.constant)
  end)

  it("changes its priority, also across required", function()
    s:add(x:eq(5), "medium")
    local c = s:add(x:eq(8), "weak")
    assert.equal(5, value())
    c.priority = "strong"
    assert.equal(750, c.priority)
    assert.equal(8, value())
    c.priority = 1000
    assert.equal(8, value())
    assert.equal(c, c:set_priority(100))
    assert.equal(5, value())
    assert.error_matches(function() c.priority = "nope" end, "bad value for 'priority' %(unknown priority name 'nope'")
    assert.error_matches(function() c.priority = 0 end, "bad value for 'priority' %(priority must be in")
    assert.error_matches(function() c.priority = nil end, "bad value for 'priority' %(priority %(number or name%) expected, got nil%)")
    assert.error_matches(function() c:set_priority() end, "priority %(number or name%) expected, got no value")
    assert.error_matches(function() c:set_priority(2000) end, "got 2000")
  end)

  it("changes its weight", function()
    local a = s:add(x:eq(0), "weak")
    local b = s:add(x:eq(10), "weak")
    b.weight = 3
    assert.equal(3, b.weight)
    assert.equal(10, value())
    assert.equal(a, a:set_weight(5))
    assert.equal(0, value())
    assert.error_matches(function() a.weight = 0 end, "bad value for 'weight' %(weight must be in")
    assert.error_matches(function() a.weight = "3" end, "bad value for 'weight' %(number expected, got string%)")
    assert.error_matches(function() a:set_weight() end, "number expected, got no value")
    assert.error_matches(function() a:set_weight(0 / 0) end, "got nan")
  end)

  it("is activated and deactivated, idempotently", function()
    s:add(x:eq(1), "weak")
    local c = s:add(x:eq(7))
    assert.equal(7, value())
    c.active = false
    assert.is_false(c.active)
    assert.matches("inactive", tostring(c))
    assert.equal(1, value())
    c.active = false -- already inactive: no error
    assert.equal(c, c:set_active(false))
    c.active = true
    assert.is_true(c.active)
    assert.equal(7, value())
    assert.equal(c, c:set_active(true)) -- already active
    assert.error_matches(function() c.active = 1 end, "bad value for 'active' %(boolean expected, got number%)")
    assert.error_matches(function() c:set_active() end, "boolean expected, got no value")
  end)

  it("refuses to set other fields", function()
    local c = s:add(x:eq(7))
    assert.error_matches(function() c.tag = "t" end, "cannot set field 'tag'")
    assert.error_matches(function() c.removed = true end, "cannot set field 'removed'")
    assert.error_matches(function() c[1] = true end, "cannot set field '1'")
  end)

  it("is removed by c:remove(); using it afterwards raises", function()
    s:add(x:eq(1), "weak")
    local c = s:add(x:eq(7))
    c:remove()
    assert.is_true(c.removed)
    assert.equal(s, c.solver)
    assert.equal("moa.Constraint (removed)", tostring(c))
    assert.equal(1, value())
    assert.same({ 1, 1 }, { s:counts() })
    local removed = "attempt to use a removed constraint"
    assert.error_matches(function() c:remove() end, removed)
    assert.error_matches(function() return c.constant end, removed)
    assert.error_matches(function() return c.priority end, removed)
    assert.error_matches(function() return c.weight end, removed)
    assert.error_matches(function() return c.active end, removed)
    assert.error_matches(function() return c.tag end, removed)
    assert.error_matches(function() c.constant = 1 end, removed)
    assert.error_matches(function() c.priority = 1 end, removed)
    assert.error_matches(function() c.weight = 1 end, removed)
    assert.error_matches(function() c.active = true end, removed)
    assert.error_matches(function() c:describe() end, removed)
    assert.error_matches(function() c:set_constant(1) end, removed)
  end)

  it("is removed at the end of a <close> scope", function()
    s:add(x:eq(1), "weak")
    do
      local c <close> = s:add(x:eq(9))
      assert.equal(9, value())
    end
    assert.equal(1, value())
    assert.same({ 1, 1 }, { s:counts() })
    do -- removed already: nothing happens
      local c <close> = s:add(x:eq(9))
      c:remove()
    end
    do -- closed solver: nothing happens
      local t = moa.solver()
      local c <close> = t:add(t:var():eq(1))
      t:close()
    end
  end)

  it("refuses a non-constraint self", function()
    local c = s:add(x:eq(7))
    assert.error_matches(function() c.remove(x) end, "moa.Constraint expected, got moa.Variable")
    assert.error_matches(function() c.set_constant({}, 1) end, "moa.Constraint expected, got table")
  end)
end)
