-- settings.lua -- a settings form built from stacks, the visual format language and a barrier, with a row that
-- collapses and comes back animated.
--
--   +--------------------------------------+
--   | Account                              |   <- a section title
--   | Name            [..................] |   each row: a view laid out by one VFL line, its label's text
--   | Email           [..................] |   measured; the fields start at a barrier past the widest label
--   | Notifications                  (==) |
--   | Sync every      [..................] |   <- hidden and shown again (the form's stack animates it)
--   | [   Cancel   ]  [      Save      ]   |   <- a stack of two buttons, equal widths
--   +--------------------------------------+
--
-- The script prints the fields' frames, renames a label (the barrier, and every field with it, moves to the new
-- widest label), hides the "Sync every" row (0.3 s) and shows it again, printing frames at the start, halfway
-- and the end, and writes build/demo/settings.svg and settings-strip.svg.
--
-- Run from the repository root:   make demo-settings      (or: make lua && lua5.4 examples/lua/settings.lua)

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.cpath = here .. "/../../build/lib/lua/?.so;" .. package.cpath
local moa = require "moa"

local outdir = os.getenv("MOA_DEMO_DIR") or (here .. "/../../build/demo")
os.execute("mkdir -p '" .. outdir .. "'")

local L <close> = moa.layout(360, 640)
if moa.has_font then L:set_font(moa.font()) end

-- The form: a vertical stack under the safe area's top, 12 points between rows, inset 20 on the sides (its
-- margins: the rows span the width between them).
local form = L:stack("form", nil, { axis = "vertical", spacing = 12, margins_relative = true })
form.view:set_margins(0, 20, 0, 20)
assert(L:eqs [[
  form.top == safeArea.top + 20
  form.left == 0
  form.right == 0
]])

local title = L:view("title", form.view)
title:set_text("Account", { size = 22 })
form:add(title)

-- One row: a label and a control side by side, centred on each other (one VFL line with an option).
local rows, labels = {}, {}
local function row(id, text, control)
  local r = L:view(id, form.view)
  local label = L:view(id .. "_label", r)
  label:set_text(text, { size = 17 })
  local c = L:view(id .. "_" .. control, r)
  if control == "field" then c:set_intrinsic_size(moa.NO_INTRINSIC or -1, 34) else c:set_intrinsic_size(51, 31) end
  assert(L:vfl(string.format("H:|[%s_label]-(>=12)-[%s_%s]|", id, id, control), { options = "alignAllCenterY" }))
  assert(L:vfl(string.format("V:|-(>=4)-[%s_%s]-(>=4)-|\nV:|-(>=4)-[%s_label]-(>=4)-|", id, control, id)))
  assert(L:eq(string.format("%s.height == 0 @ 49", id)))   -- rows hug their content
  form:add(r)
  rows[id] = { view = r, label = label, control = c }
  if control == "field" then labels[#labels + 1] = label end
end
row("name", "Name", "field")
row("email", "Email", "field")
row("notify", "Notifications", "switch")
row("interval", "Sync every", "field")

-- The fields start 12 points past the widest label: a barrier at the labels' trailing edges.
assert(L:barrier("labels_end", "trailing", labels, { margin = 12 }))
for _, id in ipairs { "name", "email", "interval" } do
  assert(L:eq(string.format("%s_field.leading == labels_end.trailing", id)))
end

-- Two buttons of equal width with a 12-point gap, in a horizontal stack as wide as the form.
local buttons = L:stack("buttons", form.view, { axis = "horizontal", distribution = "fillEqually", spacing = 12 })
for _, name in ipairs { "cancel", "save" } do
  local b = L:view(name, buttons.view)
  b:set_intrinsic_size(80, 44)
  buttons:add(b)
end
form:add(buttons.view)
L:solve()

local function num(x) return (string.format("%.1f", x):gsub("%.0$", "")) end
local function fmt(r) return string.format("(%s, %s, %s, %s)", num(r.x), num(r.y), num(r.width), num(r.height)) end
local function show(label)
  print(string.format("  t=%.3f  %-10s name_field %-24s interval %-24s buttons %s", L.time, label,
                      fmt(rows.name.control.root_frame), fmt(rows.interval.view.frame), fmt(buttons.view.frame)))
end

print(string.format("%s: settings form, %d views, %d constraints (the stacks' and the barrier's not counted)",
                    moa._VERSION, #L:views(), #L:constraints()))
show("start")

-- A longer label: the barrier moves to it, and every field with it.
print("the email label becomes \"Email address\": the fields move right with the barrier")
rows.email.label:set_text("Email address", { size = 17 })
L:solve()
show("renamed")
assert(rows.name.control.root_frame.x == rows.email.control.root_frame.x)

-- The "Sync every" row collapses (0.3 s, ease in and out) and comes back; the rows below slide up and down.
L:trace_start()
for _, hide in ipairs { true, false } do
  print(hide and "the Sync every row hides" or "and shows again")
  form:set_hidden(rows.interval.view, hide, { animated = true, duration = 0.3, done = function(finished)
    print(string.format("  t=%.3f  %s done (finished: %s)", L.time, hide and "hide" or "show", tostring(finished)))
  end })
  local t0 = L.time
  show("t0")
  for _, dt in ipairs { 0.15, 0.15 } do
    L:advance(dt)
    show(L.time - t0 < 0.2 and "halfway" or "end")
  end
  L:advance(1 / 60)
end
L:trace_stop()
assert(rows.interval.view.frame.height > 0)

local function write(name, text)
  local path = outdir .. "/" .. name
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  print(string.format("wrote %s (%d bytes)", path, #text))
end
write("settings.svg", L:svg())
write("settings-strip.svg", L:trace_svg_strip(5))
L:html(outdir .. "/settings.html", "Moa settings") -- the inspector, with the hide/show on its timeline
