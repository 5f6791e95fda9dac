-- Arithmetic on variables and expressions, relations.
local moa = require "moa"

-- terms of an expression or relation as { name = coef }
local function terms(e)
  local t = {}
  for _, term in ipairs(e:terms()) do t[term.var.name] = term.coef end
  return t
end

describe("expressions", function()
  local s, x, y
  before_each(function()
    s = moa.solver()
    x, y = s:var "x", s:var "y"
  end)

  it("adds, subtracts, multiplies and divides with numbers on either side", function()
    local e = 2 * x + y * 3 - 4 + 10 / 2
    assert.equal("moa.Expression", getmetatable(e).__name)
    assert.same({ x = 2, y = 3 }, terms(e))
    assert.equal(1, e.constant)
    e = 1 + x
    assert.same({ x = 1 }, terms(e))
    assert.equal(1, e.constant)
    e = 10 - x
    assert.same({ x = -1 }, terms(e))
    assert.equal(10, e.constant)
    e = (x + y) / 4
    assert.same({ x = 0.25, y = 0.25 }, terms(e))
    e = (x + 8) * 0.5
    assert.same({ x = 0.5 }, terms(e))
    assert.equal(4, e.constant)
  end)

  it("merges like terms and drops those that cancel", function()
    local e = x + x + y - x
    assert.same({ x = 1, y = 1 }, terms(e))
    e = x - x
    assert.equal(0, #e:terms())
    assert.equal("0", tostring(e))
    e = (x - x) * y -- a constant expression may multiply
    assert.equal(0, #e:terms())
    e = y * (x - x + 3)
    assert.same({ y = 3 }, terms(e))
  end)

  it("supports unary minus (amoeba registered __neg, so -x failed there)", function()
    local e = -x
    assert.same({ x = -1 }, terms(e))
    e = -(x + 2 * y - 3)
    assert.same({ x = -1, y = -2 }, terms(e))
    assert.equal(3, e.constant)
    s:add((-x):eq(-5))
    s:add((-y):le(-7)) -- y >= 7
    s:add(y:eq(0), "weak")
    s:update()
    assert.equal(5, x.value)
    assert.equal(7, y.value)
  end)

  it("keeps operands unchanged (expressions are immutable)", function()
    local a = x + 1
    local b = a + y
    assert.same({ x = 1 }, terms(a))
    assert.same({ x = 1, y = 1 }, terms(b))
  end)

  it("prints readable text", function()
    assert.equal("2*x - y + 10", tostring(2 * x - y + 10))
    assert.equal("-x", tostring(-x))
    assert.equal("-x - 2.5", tostring(-x - 2.5))
    assert.equal("0.5*x", tostring(x / 2))
    assert.equal("x - y + 10 <= 0", tostring((x + 10):le(y)))
    assert.equal("x - 3 == 0", tostring(x:eq(3)))
    assert.equal("x - y >= 0", tostring(x:ge(y)))
  end)

  it("refuses non-linear and undefined arithmetic", function()
    assert.error_matches(function() return x * y end, "not be linear")
    assert.error_matches(function() return (x + 1) * (y + 1) end, "not be linear")
    assert.error_matches(function() return 1 / x end, "divide by a non%-constant")
    assert.error_matches(function() return x / 0 end, "division by zero")
    assert.error_matches(function() return x / (y - y) end, "division by zero")
    assert.error_matches(function() return x % 2 end, "arithmetic on a moa.Variable")
    assert.error_matches(function() return x ^ 2 end, "arithmetic on a moa.Variable")
    assert.error_matches(function() return x // 2 end, "arithmetic on a moa.Variable")
  end)

  it("refuses NaN, infinities and overflow", function()
    assert.error_matches(function() return x + 0 / 0 end, "must be finite, got nan")
    assert.error_matches(function() return x * math.huge end, "must be finite, got inf")
    assert.error_matches(function() return -math.huge + x end, "got %-inf")
    assert.error_matches(function() return (x * 1e200) * 1e200 end, "non%-finite coefficient")
    assert.error_matches(function() return (x + 1e300) * 1e300 end, "non%-finite constant")
    assert.error_matches(function() return x:eq(0 / 0) end, "must be finite")
  end)

  it("refuses operands of other types", function()
    assert.error_matches(function() return x + "1" end, "got string")
    assert.error_matches(function() return x + {} end, "got table")
    assert.error_matches(function() return x + true end, "got boolean")
    assert.error_matches(function() return x + s end, "got moa.Solver")
    assert.error_matches(function() return x + x:eq(1) end, "moa.Relation is not an expression")
    local c = s:add(x:eq(1))
    assert.error_matches(function() return x + c end, "got moa.Constraint")
    assert.error_matches(function() return -x:eq(1) end, "moa.Relation is not an expression")
  end)

  it("refuses to mix variables of different solvers", function()
    local other = moa.solver():var "z"
    assert.error_matches(function() return x + other end, "different solvers")
    assert.error_matches(function() return x:eq(other) end, "different solvers")
    assert.error_matches(function() return (x + 1) - (other * 2) end, "different solvers")
  end)

  it("builds relations with :eq, :le and :ge from variables and expressions", function()
    for _, lhs in ipairs { x, x + 0, 2 * x - 3 } do
      for _, rhs in ipairs { 5, y, y + 1 } do
        for _, op in ipairs { "eq", "le", "ge" } do
          local r = lhs[op](lhs, rhs)
          assert.equal("moa.Relation", getmetatable(r).__name)
          assert.equal(({ eq = "==", le = "<=", ge = ">=" })[op], r.op)
        end
      end
    end
    local r = (2 * x + 1):le(y - 4)
    assert.same({ x = 2, y = -1 }, terms(r))
    assert.equal(5, r.constant)
    assert.is_nil(r.eq) -- relations do not chain
    assert.is_nil((x + 1).op)
  end)

  it("refuses bad relation operands", function()
    assert.error_matches(function() return x:eq() end, "value expected")
    assert.error_matches(function() return x:eq "5" end, "got string")
    assert.error_matches(function() return x:le(x:eq(1)) end, "moa.Relation is not an expression")
    assert.error_matches(function() return x.eq(5, x) end, "moa.Variable or moa.Expression expected")
  end)

  it("says clearly that a relation is not an expression", function()
    local r = x:eq(1)
    for _, f in ipairs {
      function() return r + 1 end, function() return 1 - r end, function() return r * 2 end,
      function() return r / 2 end, function() return -r end,
    } do
      assert.error_matches(f, "a moa.Relation is not an expression")
    end
  end)

  it("prints '?' for variables once their solver is closed", function()
    local r = (x + y):le(3)
    s:close()
    assert.equal("? + ? - 3 <= 0", tostring(r))
    assert.equal(3, #r:terms() + 1)
  end)

  it("lists terms with their Variable objects", function()
    local t = (3 * x - y):terms()
    assert.equal(2, #t)
    assert.equal(x, t[1].var)
    assert.equal(3, t[1].coef)
    assert.equal(y, t[2].var)
    assert.equal(-1, t[2].coef)
  end)

  it("works for a long sum", function()
    local vars, e = {}, 0
    for i = 1, 300 do
      vars[i] = s:var("v" .. i)
      e = e + vars[i]
    end
    assert.equal(300, #e:terms())
    s:add(e:eq(600))
    for i = 2, 300 do s:add(vars[i]:eq(vars[1])) end
    s:update()
    assert.near(2, vars[150].value, 1e-9)
  end)
end)
