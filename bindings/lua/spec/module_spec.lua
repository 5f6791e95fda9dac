-- The module table: versions, priority names.
local moa = require "moa"

describe("moa module", function()
  it("has a version string and the library version", function()
    assert.equal("moa 0.1.0", moa._VERSION)
    assert.is_string(moa.version)
    assert.matches("^%d+%.%d+%.%d+$", moa.version)
    assert.equal(moa._VERSION, "moa " .. moa.version) -- header and library match in this build
  end)

  it("names the priorities on Auto Layout's scale", function()
    local p = moa.strength
    assert.equal(1000, p.required)
    assert.equal(750, p.strong)
    assert.equal(750, p.high)
    assert.equal(500, p.medium)
    assert.equal(250, p.weak)
    assert.equal(250, p.low)
    assert.equal(50, p.fit)
    assert.equal(1000, p.max)
    assert.equal(500, p.med)
    assert.equal(751, p.aboveDefaultHigh)
    assert.equal(999, p.maxNonRequired)
    assert.equal(1, p.minNonZero)
    assert.equal("integer", math.type(p.required))
  end)

  it("exposes the same table as moa.priority", function()
    assert.equal(moa.strength, moa.priority)
  end)

  it("uses the names of the table for priorities given as strings", function()
    local s = moa.solver()
    local x = s:var "x"
    for name, value in pairs(moa.strength) do
      local c = s:add(x:eq(1), name)
      assert.equal(value, c.priority)
      c:remove()
    end
  end)

  it("is unaffected by scripts that change moa.strength", function()
    local s = moa.solver()
    local x = s:var "x"
    local saved = moa.strength.weak
    moa.strength.weak = 900
    local c = s:add(x:eq(1), "weak")
    moa.strength.weak = saved
    assert.equal(250, c.priority)
  end)

  it("registers one metatable per type", function()
    local s = moa.solver()
    local x = s:var "x"
    local e = x + 1
    local r = e:eq(0)
    local c = s:add(r)
    assert.equal(debug.getregistry()["moa.Solver"], getmetatable(s))
    assert.equal(debug.getregistry()["moa.Variable"], getmetatable(x))
    assert.equal(debug.getregistry()["moa.Expression"], getmetatable(e))
    assert.equal(debug.getregistry()["moa.Relation"], getmetatable(r))
    assert.equal(debug.getregistry()["moa.Constraint"], getmetatable(c))
  end)
end)
