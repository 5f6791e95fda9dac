-- s:add_many(list): many constraints in one call, all or nothing (moa_solver_add_many). The tableau it builds does
-- not depend on the order of the list or of the variables; options per item; failures (a conflict, a limit)
-- return nil, message, details with the failing item's position and change nothing; bad items raise first.
local moa = require "moa"

-- A deterministic shuffle (an LCG: the same order on every run and every Lua build).
local function shuffled(n, seed)
  local t = {}
  for i = 1, n do t[i] = i end
  for i = n, 2, -1 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local j = seed % i + 1
    t[i], t[j] = t[j], t[i]
  end
  return t
end

-- The chain x[1] == 0, x[i+1] == x[i] + 10 (i = 1 ... n-1) on a new solver: the variables made in the order
-- `made` (a permutation of 1..n), the links listed in the order `listed` (a permutation of 1..n: k < n is the link
-- from x[k] to x[k+1], n is x[1] == 0), added by add_many or one s:add at a time. Checks every value and returns
-- the solver's usage.
local function chain(n, made, listed, many)
  local s <close> = moa.solver()
  local x = {}
  for _, i in ipairs(made) do x[i] = s:var("x" .. i) end
  local rels = {}
  for k, i in ipairs(listed) do rels[k] = i == n and x[1]:eq(0) or x[i + 1]:eq(x[i] + 10) end
  if many then
    local cs = assert(s:add_many(rels))
    assert.equal(n, #cs)
  else
    for _, r in ipairs(rels) do assert(s:add(r)) end
  end
  s:update()
  for i = 1, n do
    if x[i].value ~= 10 * (i - 1) then error(("x[%d] = %s, expected %d"):format(i, x[i].value, 10 * (i - 1))) end
  end
  return s:usage()
end

-- The number of constraints in s.
local function ncons(s)
  return select(2, s:counts())
end

describe("s:add_many", function()
  it("builds a shuffled chain as small as the ordered one, unlike s:add one at a time", function()
    local n = 2000
    local in_order = {}
    for i = 1, n do in_order[i] = i end
    local made, listed = shuffled(n, 12345), shuffled(n, 54321)
    local grown = { n } -- x[1] == 0 first, then the links from x[1] on: the chain grown from one end
    for k = 1, n - 1 do grown[#grown + 1] = k end
    local ordered = chain(n, in_order, grown, false)
    local batch = chain(n, made, listed, true)
    local one_by_one = chain(n, made, listed, false)
    -- 2,000 links: 3,999 cells ordered and in one shuffled add_many, 354,113 shuffled one s:add at a time
    assert.equal(n, batch.constraints)
    assert.is_true(batch.cells <= 1.1 * ordered.cells,
      ("add_many: %d cells, ordered: %d"):format(batch.cells, ordered.cells))
    assert.is_true(one_by_one.cells > 3 * ordered.cells,
      ("one at a time: %d cells, ordered: %d"):format(one_by_one.cells, ordered.cells))
  end)

  it("returns Constraint objects in the list's order, with their options", function()
    local s <close> = moa.solver()
    local x, y, z, w = s:var "x", s:var "y", s:var "z", s:var "w"
    local cs = assert(s:add_many {
      x:ge(0),
      { x:eq(5), priority = "weak", weight = 2, tag = "t" },
      { y:eq(x + 1), priority = 600 },
      { z:le(3), tag = "z" },
      w - 4,                    -- an expression: w - 4 == 0, as s:add takes it
      { z, priority = "strong" }, -- a variable: z == 0
    })
    assert.equal(6, #cs)
    for _, c in ipairs(cs) do assert.equal("moa.Constraint", getmetatable(c).__name) end
    assert.equal(1000, cs[1].priority)
    assert.equal(1, cs[1].weight)
    assert.equal("", cs[1].tag)
    assert.equal(250, cs[2].priority)
    assert.equal(2, cs[2].weight)
    assert.equal("t", cs[2].tag)
    assert.equal(600, cs[3].priority)
    assert.equal(1, cs[3].weight)
    assert.equal(1000, cs[4].priority)
    assert.equal("z", cs[4].tag)
    assert.equal(750, cs[6].priority)
    assert.matches("x %+ %-5 == 0 @250", tostring(cs[2]))
    assert.equal(s, cs[2].solver)
    assert.same({ 4, 6 }, { s:counts() })
    s:update()
    assert.equal(5, x.value)
    assert.equal(6, y.value)
    assert.equal(0, z.value)
    assert.equal(4, w.value)
  end)

  it("registers the constraints as s:add does: remove, and the same objects in a conflict", function()
    local s <close> = moa.solver()
    local x, y = s:var "x", s:var "y"
    local cs = assert(s:add_many { x:ge(10), y:eq(x), { y:le(20), tag = "y<=20" } })
    collectgarbage()
    local ok, _, details = s:add(x:ge(30))
    assert.is_nil(ok)
    assert.equal(2, #details.conflicts)
    local found = {}
    for _, c in ipairs(details.conflicts) do found[c] = true end
    assert.is_true(found[cs[2]] and found[cs[3]]) -- the objects add_many returned
    cs[3]:remove()
    assert.is_true(cs[3].removed)
    assert(s:add(x:ge(30)))
    s:remove(cs[1])
    assert.same({ 2, 2 }, { s:counts() })
    assert.error_matches(function() cs[1]:remove() end, "removed constraint")
    s:update()
    assert.equal(30, y.value)
  end)

  it("holds the items it reads: a list made by metamethods, or changed by the progress function", function()
    local s <close> = moa.solver()
    local xs = {}
    for i = 1, 6 do xs[i] = s:var("x" .. i) end
    -- items and tags made on demand: nothing but the call itself refers to them
    local made = setmetatable({}, {
      __len = function() return 6 end,
      __index = function(_, i) return { xs[i]:eq(i), tag = ("made %d"):format(i), priority = 900 - i } end,
    })
    local cs = assert(s:add_many(made))
    for i = 1, 6 do
      assert.equal(("made %d"):format(i), cs[i].tag)
      assert.equal(900 - i, cs[i].priority)
      cs[i]:remove()
    end
    -- a batch that pivots, whose list the progress function empties (then collects garbage) as the call goes
    local sum, list = nil, {}
    for i = 1, 6 do
      sum = sum and sum + xs[i] or xs[i] + 0
      list[#list + 1] = { xs[i]:ge(0), tag = ("ge %d"):format(i) }
      list[#list + 1] = { xs[i]:eq(10), priority = "weak", tag = ("pref %d"):format(i) }
    end
    list[#list + 1] = { sum:eq(0), priority = "weak", weight = 3, tag = "sum" }
    local calls = 0
    s:on_progress(function()
      calls = calls + 1
      for k in pairs(list) do list[k] = nil end
      collectgarbage()
    end, 1)
    cs = assert(s:add_many(list))
    s:on_progress(nil)
    assert.is_true(calls > 0)
    assert.equal(13, #cs)
    assert.equal("ge 1", cs[1].tag)
    assert.equal("pref 6", cs[12].tag)
    assert.equal("sum", cs[13].tag)
    assert.equal(3, cs[13].weight)
    s:update()
    for i = 1, 6 do assert.equal(0, xs[i].value) end
  end)

  it("returns an empty table for an empty list", function()
    local s <close> = moa.solver()
    local cs = s:add_many {}
    assert.same({}, cs)
    assert.same({ 0, 0 }, { s:counts() })
  end)

  it("fails as a whole on a conflict: the failing item, the batch's and the solver's constraints in it", function()
    local s <close> = moa.solver()
    local x, y, z = s:var "x", s:var "y", s:var "z"
    local ge10 = assert(s:add(x:ge(10), nil, nil, "x>=10"))
    local usage = s:usage()
    local ok, msg, details = s:add_many { y:eq(x), z:eq(y), z:le(5) }
    assert.is_nil(ok)
    assert.is_string(msg)
    assert.matches("unsatisfiable", msg)
    assert.equal("UNSATISFIABLE", details.code)
    assert.equal(7, details.status)
    assert.equal(3, details.index)
    assert.same({ 1, 2 }, details.batch_conflicts)
    assert.equal(1, #details.conflicts)
    assert.equal(ge10, details.conflicts[1])
    -- nothing was added
    assert.same({ 3, 1 }, { s:counts() })
    assert.same(usage, s:usage())
    assert(s:add(z:eq(1)))
    s:update()
    assert.equal(1, z.value)
    assert.equal(10, x.value)
  end)

  it("fails on a conflict within the batch alone: no constraint of the solver in it", function()
    local s <close> = moa.solver()
    local x = s:var "x"
    local ok, _, details = s:add_many { x:ge(0), x:eq(1), { x:eq(3), priority = "weak" }, x:eq(2) }
    assert.is_nil(ok)
    assert.equal(4, details.index)
    assert.same({ 2 }, details.batch_conflicts)
    assert.same({}, details.conflicts)
    assert.equal(0, ncons(s))
  end)

  describe("raises for a bad item, naming it, before anything is added", function()
    local s, x
    before_each(function()
      s = moa.solver()
      x = s:var "x"
    end)
    after_each(function()
      assert.equal(0, ncons(s))
      s:close()
    end)

    local function raises(list, pattern)
      local ok, err = pcall(s.add_many, s, list)
      assert.is_false(ok)
      assert.matches(pattern, err)
    end

    it("an item of the wrong type", function()
      raises({ x:eq(1), 42 }, "list%[2%] is not a moa.Relation or a table")
      raises({ x:eq(1), x:eq(2), "x == 3" }, "list%[3%] is not a moa.Relation")
      local other <close> = moa.solver()
      local c = other:add(other:var():ge(0))
      raises({ x:eq(1), c }, "list%[2%] is not a moa.Relation.*got moa.Constraint")
    end)

    it("a variable of another solver, or a stale one", function()
      local other <close> = moa.solver()
      local y = other:var "y"
      raises({ x:eq(1), y:eq(3) }, "list%[2%]: a variable of the constraint belongs to another solver")
      raises({ x:eq(1), { y + 1, priority = "weak" } }, "list%[2%]: a variable of the constraint belongs to another")
      raises({ y }, "list%[1%]: a variable of the constraint belongs to another solver")
      local old = x:eq(1)
      s:reset()
      x = s:var "x"
      raises({ x:eq(1), old }, "list%[2%]: a variable of the constraint is stale")
    end)

    it("a bad option", function()
      raises({ x:eq(1), { x:eq(2), weight = -1 } }, "list%[2%]%.weight.*weight must be in")
      raises({ x:eq(1), { x:eq(2), weight = "heavy" } }, "list%[2%]%.weight.*number expected")
      raises({ { x:eq(2), priority = 0 } }, "list%[1%]%.priority.*priority must be in")
      raises({ { x:eq(2), priority = "loud" } }, "list%[1%]%.priority.*unknown priority name 'loud'")
      raises({ x:eq(1), x:eq(1), { x:eq(2), tag = 7 } }, "list%[3%]%.tag.*string expected")
      raises({ { x:eq(2), tag = "a\0b" } }, "list%[1%]%.tag.*NUL byte")
      raises({ { x:eq(2), "weak" } }, "list%[1%]%[2%] is not expected")
      raises({ { priority = "weak" } }, "list%[1%]%[1%] is not a moa.Relation")
    end)

    it("a number the library refuses (raised once it has returned)", function()
      raises({ x:eq(1), (x * 1e13):eq(2) }, "add_many: list%[2%]:.*coefficient")
    end)

    it("not a table", function()
      assert.error_matches(function() s:add_many(x:eq(1)) end, "table expected")
    end)
  end)

  it("fails as a whole at a limit reached half way, and works once it is raised", function()
    local s <close> = moa.solver()
    local xs, rels = {}, {}
    for i = 1, 20 do
      xs[i] = s:var("x" .. i)
      rels[i] = xs[i]:eq(i)
    end
    s:set_limit("rows", 10)
    local ok, msg, details = s:add_many(rels)
    assert.is_nil(ok)
    assert.matches("limit", msg)
    assert.equal("LIMIT", details.code)
    assert.equal(10, details.status)
    assert.equal(11, details.index) -- one row per equality: the 11th does not fit
    assert.same({}, details.batch_conflicts)
    assert.same({}, details.conflicts)
    assert.equal(0, ncons(s))
    assert.equal(0, s:usage().rows)
    s:set_limit("rows", 1000)
    local cs = assert(s:add_many(rels))
    assert.equal(20, #cs)
    s:update()
    for i = 1, 20 do assert.equal(i, xs[i].value) end
  end)

  it("stops at the pivots limit or the progress function, and raises the function's error", function()
    local s <close> = moa.solver()
    local xs, rels, sum = {}, {}, nil
    for i = 1, 6 do
      xs[i] = s:var("x" .. i)
      sum = sum and sum + xs[i] or xs[i] + 0
      rels[#rels + 1] = xs[i]:ge(0)
      rels[#rels + 1] = { xs[i]:eq(10), priority = "weak" }
    end
    rels[#rels + 1] = { sum:eq(0), priority = "weak", weight = 3 }
    s:on_progress(function(pivots) error("stop at " .. pivots) end, 1)
    local ok, err = pcall(s.add_many, s, rels)
    assert.is_false(ok)
    assert.matches("stop at 1", err)
    assert.equal(0, ncons(s))
    s:on_progress(nil)
    s:set_limit("pivots", 1)
    local c, msg, details = s:add_many(rels)
    assert.is_nil(c)
    assert.matches("limit of 1 pivot", msg)
    assert.equal("LIMIT", details.code)
    assert.is_true(details.index >= 1 and details.index <= #rels)
    assert.equal(0, ncons(s))
    s:set_limit("pivots", 1e6)
    assert.equal(#rels, #assert(s:add_many(rels)))
    s:update()
    for i = 1, 6 do assert.equal(0, xs[i].value) end -- weight 3 on the sum beats the six weak preferences
  end)
end)
