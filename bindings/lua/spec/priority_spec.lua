-- Strict priorities and edit variables through the binding.
local moa = require "moa"

describe("priorities", function()
  it("are strict: one constraint at 751 beats 1000 at 750", function()
    local s = moa.solver()
    local y = s:var "y"
    s:add(y:eq(0), 751)
    for _ = 1, 1000 do s:add(y:eq(100), 750) end
    s:update()
    assert.equal(0, y.value)
  end)

  it("are strict with names: strong beats many weak", function()
    local s = moa.solver()
    local y = s:var "y"
    s:add(y:eq(10), "strong")
    for _ = 1, 500 do s:add(y:eq(-10), "weak", 1e6) end
    s:update()
    assert.equal(10, y.value)
  end)

  it("weights count within one priority", function()
    local s = moa.solver()
    local y = s:var "y"
    s:add(y:eq(0), "medium", 3)
    s:add(y:eq(100), "medium", 2)
    s:update()
    assert.equal(0, y.value)
  end)

  it("a strong edit moves what a weak constraint holds, not what a required one holds", function()
    local s = moa.solver()
    local left, width, right = s:var "left", s:var "width", s:var "right"
    s:add(right:eq(left + width))
    s:add(left:ge(10))
    s:add(width:eq(200), "weak")
    s:edit(right, "strong")
    s:suggest(right, 150)
    s:update()
    assert.equal(10, left.value)
    assert.equal(140, width.value)
    s:suggest(right, 5)
    s:update()
    assert.equal(10, left.value)
    assert.equal(-5, width.value)
  end)
end)
