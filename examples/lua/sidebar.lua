-- sidebar.lua -- a collapsible sidebar: a 200-wide sidebar on the left of a 320 x 480 screen, the content
-- filling the rest. Tapping the (imaginary) button toggles the sidebar, animated over 0.3 s with easeInOut:
-- it slides off to the left by its own width and the content grows; tapping again brings it back.
--
-- Run from the repository root:   make lua && lua5.4 examples/lua/sidebar.lua

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.cpath = here .. "/../../build/lib/lua/?.so;" .. package.cpath
local moa = require "moa"

local L <close> = moa.layout(320, 480)
local sidebar, content = L:view "sidebar", L:view "content"
local title = L:view("title", content)

local cs = assert(L:eqs [[
  sidebar.left == 0       # the collapse constraint: its constant moves the sidebar
  sidebar.top == 0
  sidebar.bottom == 0
  sidebar.width == 200
  content.left == sidebar.right
  content.right == 0
  content.top == 0
  content.bottom == 0
  title.leading == content.leadingMargin
  title.trailing == content.trailingMargin
  title.top == content.topMargin
  title.height == 44
]])
L:solve()

local col = L:collapsible(sidebar, cs[1], "left")

local function num(x) return (string.format("%.1f", x):gsub("%.0$", "")) end
local function rect(r) return string.format("(%s, %s, %s, %s)", num(r.x), num(r.y), num(r.width), num(r.height)) end
local function show()
  print(string.format("  t=%.2f  sidebar %-20s content %-20s title %s", L.time, rect(sidebar.frame),
                      rect(content.frame), rect(title.root_frame)))
end

local function tap(label)
  print(label)
  local t0 = L.time
  col:toggle { animated = true, duration = 0.3, curve = "easeInOut",
               done = function(finished) print(string.format("  done at t=%.2f (finished: %s)", L.time,
                                                             tostring(finished))) end }
  for _, dt in ipairs { 0, 0.15, 0.3 } do
    L:seek(t0 + dt)
    show()
  end
  print("  collapsed: " .. tostring(col.collapsed))
end

print("sidebar: 320 x 480, toggled with a 0.3 s easeInOut animation (frames at 0, 0.15 and 0.3 s)")
tap("tap 1: collapse")
assert(sidebar.frame.x == -200 and content.frame.width == 320)
tap("tap 2: show")
assert(sidebar.frame.x == 0 and content.frame.x == 200)
