-- calculator.lua -- the calculator scene: a display above a keypad whose "basic" and "advanced" button panels
-- (grids of buttons built from stacks) sit side by side (advanced off-screen to the right) and slide with a pan
-- gesture that snaps when released.
--
--   +--------------------+
--   |      display       |
--   +--------------------+--------------------+
--   |   basic (4 x 4)    |  advanced (3 x 4)  |   <- off-screen at first; both panels move by one offset
--   +--------------------+--------------------+
--
-- A scripted gesture sequence drives the pan (no wall clock: the script advances time at 60 fps):
--   1. a slow drag left by 100, released slowly          -> snaps back to the basic panel (rest 0)
--   2. a drag left past half the width, released slowly  -> snaps over to the advanced panel (rest -width)
--   3. a fast swipe right                                 -> snaps back to the basic panel
-- Then the display collapses (slides up; the keypad and its buttons take the whole screen) and shows again,
-- each an animated change of one constraint's constant (0.3 s, ease in and out).
-- It prints the panels' frames at chosen times and writes build/demo/calculator.svg (the final layout),
-- build/demo/calculator-strip.svg (a strip of the animation), build/demo/calculator.csv (the frame trace) and
-- build/demo/calculator.html (the inspector: the layout, its constraints and the recorded scene on a timeline).
--
-- Run from the repository root:   make demo-calculator      (or: make lua && lua5.4 examples/lua/calculator.lua)

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.cpath = here .. "/../../build/lib/lua/?.so;" .. package.cpath
local moa = require "moa"

local outdir = os.getenv("MOA_DEMO_DIR") or (here .. "/../../build/demo")
os.execute("mkdir -p '" .. outdir .. "'")

local W, H = 320, 480
local L <close> = moa.layout(W, H)

-- Views: the display, the keypad, and the two panels inside the keypad, each a grid of buttons made of stacks.
local display = L:view "display"
local keypad = L:view "keypad"

local basic_keys = { { "7", "8", "9", "div" }, { "4", "5", "6", "mul" }, { "1", "2", "3", "sub" },
                     { "0", "dot", "eq", "add" } }
local advanced_keys = { { "sin", "cos", "tan" }, { "ln", "log", "sqrt" }, { "pow", "pi", "e" },
                        { "lp", "rp", "inv" } }

-- A panel of buttons: a vertical stack of rows of equal heights, each row a horizontal stack of buttons of
-- equal widths, 6 points apart and 6 points inside the panel (its margins). The stacks keep those constraints.
local function grid(name, rows, prefix)
  local panel = L:stack(name, keypad, { axis = "vertical", distribution = "fillEqually", spacing = 6,
                                        margins_relative = true })
  panel.view:set_margins(6)
  for r, row in ipairs(rows) do
    local line = L:stack(string.format("%srow%d", prefix, r), panel.view,
                         { axis = "horizontal", distribution = "fillEqually", spacing = 6 })
    for _, key in ipairs(row) do line:add(L:view(prefix .. key, line.view)) end
    panel:add(line.view)
  end
  return panel.view
end
local basic = grid("basic", basic_keys, "b_")
local advanced = grid("advanced", advanced_keys, "a_")

local cs = assert(L:eqs [[
  # the display: the top third of the screen
  display.left == 0
  display.right == 0
  display.top == 0
  display.height == root.height / 3
  # the keypad: everything below it
  keypad.left == 0
  keypad.right == 0
  keypad.top == display.bottom
  keypad.bottom == 0
  # the panels: as wide as the screen, side by side; basic.left carries the pan offset
  basic.left == keypad.left
  advanced.left == basic.right
  basic.width == keypad.width
  advanced.width == keypad.width
  basic.top == keypad.top
  advanced.top == keypad.top
  basic.bottom == keypad.bottom
  advanced.bottom == keypad.bottom
]])
local panels_x = cs[9] -- basic.left == keypad.left: advanced follows through advanced.left == basic.right
assert(tostring(panels_x) == "basic.left == keypad.left", tostring(panels_x))

L:solve()

local nviews = #L:views()
print(string.format("%s: calculator %dx%d, %d views, %d equations (and the stacks' own constraints)", moa._VERSION,
                    W, H, nviews, #L:constraints()))

local function num(x)
  return (string.format("%.1f", x):gsub("%.0$", ""))
end

local function fmt(r)
  return string.format("(%s, %s, %s, %s)", num(r.x), num(r.y), num(r.width), num(r.height))
end

local function show(label)
  print(string.format("  t=%.3f  %-22s basic %-22s advanced %-22s key 7 at x=%s", L.time, label, fmt(basic.frame),
                      fmt(advanced.frame), num(L:find("b_7").root_frame.x)))
end

-- The pan driver over the panels' horizontal constraint, rest positions {0, -width}.
local pan = L:pan({ panels_x }, "horizontal", { 0, -W })

local function rest_reported(rest, finished)
  print(string.format("  t=%.3f  snap done: rest %g (finished: %s)", L.time, rest, tostring(finished)))
end

-- Advances the clock at 60 fps until nothing animates, printing every `every`-th frame.
local function settle(every)
  local n = 0
  while L.animating do
    L:advance(1 / 60)
    n = n + 1
    if n % every == 0 and L.animating then show("snapping") end
  end
  show("at rest")
end

-- One gesture: events of {translation, velocity}, then a release velocity.
local function gesture(title, events, release)
  print(title)
  pan:began()
  for _, e in ipairs(events) do
    assert(pan:changed(e[1], e[2]))
    L:advance(1 / 60) -- a frame per touch event
  end
  show("dragged")
  local target = pan:ended(release, rest_reported)
  print(string.format("  released at %g points/s -> snapping to %g", release, target))
  settle(6)
end

-- The trace: one recording of the whole scene (every gesture and the collapse), for the CSV, the strip and the
-- inspector's timeline.
show("start")
L:trace_start()

gesture("1. slow drag left by 100, slow release: snaps back",
        { { -20, -120 }, { -45, -150 }, { -70, -150 }, { -100, -120 } }, -60)
gesture("2. drag left past half the width, slow release: snaps over to the advanced panel",
        { { -50, -200 }, { -100, -200 }, { -150, -200 }, { -180, -150 } }, -100)
gesture("3. fast swipe right: snaps back to the basic panel",
        { { 20, 900 }, { 60, 1500 }, { 110, 1800 } }, 1600)

assert(pan.rest_position == 0 and basic.frame.x == 0 and advanced.frame.x == W)

-- 4. The display collapses upwards through its top constraint (display.top == 0), then shows again.
local display_top = cs[3]
local function show_display(label)
  print(string.format("  t=%.3f  %-22s display %-22s keypad %-22s key 7 %s", L.time, label, fmt(display.frame),
                      fmt(keypad.frame), fmt(L:find("b_7").root_frame)))
end
do
  print("4. the display collapses (the keypad takes the whole screen), then shows again")
  local col = L:collapsible(display, display_top, "up")
  for _, step in ipairs { "collapse", "show" } do
    col[step](col, { duration = 0.3, curve = "easeInOut", done = function(finished)
      print(string.format("  t=%.3f  %s done (finished: %s)", L.time, step, tostring(finished)))
    end })
    local n = 0
    while L.animating do
      L:advance(1 / 60)
      n = n + 1
      if n % 6 == 0 and L.animating then show_display(step == "collapse" and "collapsing" or "showing") end
    end
    show_display(col.collapsed and "collapsed" or "shown")
    if step == "collapse" then assert(display.frame.y == -H / 3 and keypad.frame.height == H) end
  end
end
L:trace_stop()
assert(display.frame.y == 0 and keypad.frame.height == H - H / 3)

local function write(name, text)
  local path = outdir .. "/" .. name
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  print(string.format("wrote %s (%d bytes)", path, #text))
end

-- The final layout (with the advanced panel off-screen to the right, as the pictures clip to the root).
-- 5. A required equation that cannot hold fails, names what it fights, and changes nothing; the inspector
-- lists it among its conflicts.
local refused, message, details = L:eq("display.height == 200")
assert(refused == nil and details.code == "UNSATISFIABLE")
print("5. a conflicting equation is refused: " .. message)

write("calculator.svg", L:svg())
write("calculator-strip.svg", L:trace_svg_strip(9))
write("calculator.csv", L:trace_csv())
-- The inspector: hover a view for its frames and constraints, play the recorded scene on the timeline.
L:html(outdir .. "/calculator.html", "Moa calculator")
print(string.format("wrote %s/calculator.html (the inspector; open it in a browser)", outdir))
