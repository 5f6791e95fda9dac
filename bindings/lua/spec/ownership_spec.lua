-- Ownership and collection order: amoeba's Lua binding lost constraints whose handle was collected, crashed
-- after delete-then-collect, and crashed when a solver was collected with its variables (prior-art §5 E3).
local moa = require "moa"

local full = function()
  collectgarbage()
  collectgarbage()
end

-- Runs `code` in a fresh lua5.4 process (so that lua_close runs the finalizers in its own order); returns
-- its exit status and output.
local function run_child(code)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write("package.cpath = ", string.format("%q", package.cpath), "\n", code)
  f:close()
  local p = io.popen("lua5.4 " .. path .. " 2>&1")
  local out = p:read("a")
  local ok, how, status = p:close()
  os.remove(path)
  return ok, out, how, status
end

describe("ownership", function()
  it("keeps a constraint whose Lua object was collected (amoeba dropped it)", function()
    local s = moa.solver()
    local z = s:var "z"
    s:add(z:ge(50)) -- no handle kept
    full()
    s:edit(z, "strong")
    s:suggest(z, 10)
    s:update()
    assert.equal(50, z.value)
    assert.same({ 1, 1 }, { s:counts() })
  end)

  it("keeps many unreferenced constraints through many collections", function()
    local s = moa.solver()
    local v = {}
    for i = 1, 200 do v[i] = s:var("v" .. i) end
    s:add(v[1]:eq(1))
    for i = 2, 200 do s:add(v[i]:eq(v[i - 1] + 1)) end
    for _ = 1, 3 do full() end
    s:update()
    for i = 1, 200 do assert.equal(i, v[i].value) end
  end)

  it("remove, drop the object, collect: no crash (amoeba: NULL dereference)", function()
    local s = moa.solver()
    local x = s:var "x"
    local c = s:add(x:eq(1))
    c:remove()
    c = nil
    full()
    s:add(x:eq(2))
    s:update()
    assert.equal(2, x.value)
  end)

  it("remove, close the solver, collect everything: no crash", function()
    local s = moa.solver()
    local x = s:var "x"
    local c = s:add(x:eq(1))
    c:remove()
    s:close()
    c, x, s = nil, nil, nil
    full()
  end)

  it("a solver dropped with all its variables and constraints is collected without a crash", function()
    for _ = 1, 20 do
      (function()
        local s = moa.solver()
        local vars = {}
        for i = 1, 30 do vars[i] = s:var("v" .. i) end
        for i = 2, 30 do s:add(vars[i]:ge(vars[i - 1] + 1)) end
        s:edit(vars[1])
        s:suggest(vars[1], 3)
        s:update()
      end)()
      full()
    end
  end)

  it("a variable keeps its solver alive", function()
    local x
    do
      local s = moa.solver()
      x = s:var "x"
      s:add(x:eq(42))
      s:update()
    end
    full()
    assert.equal(42, x.value)
    assert.equal("x = 42", tostring(x))
    x.solver:add(x:le(100)) -- the solver is still usable through the variable
  end)

  it("a constraint keeps its solver alive", function()
    local c
    do
      local s = moa.solver()
      c = s:add(s:var("x"):eq(42), "weak", 1, "kept")
    end
    full()
    assert.equal(-42, c.constant)
    c.constant = -7
    assert.equal("kept", c.tag)
    c.solver:update()
    c:remove()
    full()
  end)

  it("an expression keeps its variables (and their solver) alive", function()
    local e, r
    do
      local s = moa.solver()
      e = s:var "a" + s:var "b" * 2
      r = (s:var "c"):eq(5)
    end
    full()
    assert.equal("a + 2*b", tostring(e))
    local s = e:terms()[1].var.solver
    s:add(e:eq(10))
    s:add(r)
    s:add(e:terms()[1].var:eq(4))
    s:update()
    assert.equal(3, e:terms()[2].var.value)
    assert.equal(5, r:terms()[1].var.value)
  end)

  it("collects variables in every order relative to their solver", function()
    -- keep a random subset of the objects, drop the rest, collect, use what is kept, drop all, collect
    math.randomseed(1234)
    for _ = 1, 60 do
      local keep = {}
      do
        local s = moa.solver()
        local objs = { s }
        local vars = {}
        for i = 1, 8 do
          vars[i] = s:var("v" .. i)
          objs[#objs + 1] = vars[i]
        end
        for i = 2, 8 do objs[#objs + 1] = s:add(vars[i]:eq(vars[i - 1] + 1), "strong") end
        objs[#objs + 1] = vars[3] + vars[5]
        if math.random() < 0.3 then s:close() end
        for _, o in ipairs(objs) do
          if math.random() < 0.3 then keep[#keep + 1] = o end
        end
      end
      full()
      for _, o in ipairs(keep) do
        local ok = pcall(function()
          local mt = getmetatable(o).__name
          if mt == "moa.Variable" then
            return o.value
          elseif mt == "moa.Constraint" then
            o.constant = 3
            return o.constant
          elseif mt == "moa.Solver" then
            return o:update()
          else
            return tostring(o)
          end
        end)
        assert.is_boolean(ok) -- errors (closed solver) are fine; crashes are not
      end
      keep = nil
      full()
    end
  end)

  it("frees the C variables of collected Variable objects", function()
    local s = moa.solver()
    for i = 1, 100 do s:var("tmp" .. i) end
    full()
    assert.same({ 0, 0 }, { s:counts() })
  end)

  it("keeps a collected variable while a constraint uses it, frees it after", function()
    local s = moa.solver()
    local c = s:add(s:var("gone"):ge(5))
    full()
    assert.same({ 1, 1 }, { s:counts() })
    assert.matches("gone", tostring(c)) -- its name is still known
    c:remove()
    assert.same({ 0, 0 }, { s:counts() })
  end)

  it("keeps a collected variable while it is an edit variable, frees it after", function()
    local s = moa.solver()
    local x = s:var "x"
    s:edit(x)
    local id_holder = setmetatable({ x }, { __mode = "v" })
    x = nil
    full()
    assert.is_nil(id_holder[1])
    assert.same({ 1, 0 }, { s:counts() })
    s:reset()
    assert.same({ 0, 0 }, { s:counts() })
  end)

  it("closes the state with everything alive, in a fresh process (lua_close order)", function()
    local ok, out = run_child [[
      local moa = require "moa"
      local solvers = {}
      for k = 1, 10 do
        local s = moa.solver()
        local a, b = s:var "a", s:var "b"
        local c = s:add((a + b):eq(10))
        s:edit(a); s:suggest(a, k); s:update()
        solvers[k] = { s, a, b, c, a + b, a:le(b) }
      end
      -- a few closed, a few with removed constraints
      solvers[2][1]:close()
      solvers[3][4]:remove()
      print("done")
    ]]
    assert.is_true(ok, out)
    assert.equal("done\n", out)
  end)

  it("closes the state with only children alive, in a fresh process", function()
    local ok, out = run_child [[
      local moa = require "moa"
      X = moa.solver():var "x"
      local t = moa.solver(); C = t:add(t:var():eq(1))
      local s = moa.solver()
      G = setmetatable({}, { __gc = function() assert(not pcall(function() return s:counts() end) or true) end })
      print("done")
    ]]
    assert.is_true(ok, out)
    assert.equal("done\n", out)
  end)

  it("a variable resurrected by a finalizer is an error to use, not a crash", function()
    local s = moa.solver()
    local saved
    do
      local x = s:var "x"
      setmetatable({}, { __gc = function() saved = x end })
    end
    full()
    full()
    if saved then
      assert.error_matches(function() return saved.value end, "collected")
    end
    assert.same({ 0, 0 }, { s:counts() })
  end)
end)
