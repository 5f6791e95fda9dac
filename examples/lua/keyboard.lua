-- keyboard.lua -- a form whose bottom follows the keyboard: a text area that fills the screen down to 8 points
-- above the keyboard guide, and a send button pinned just above the keyboard. The keyboard appears (260
-- points, UIKit's 0.25 s easeInOut) and hides again; the form follows frame by frame.
--
-- Run from the repository root:   make lua && lua5.4 examples/lua/keyboard.lua

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.cpath = here .. "/../../build/lib/lua/?.so;" .. package.cpath
local moa = require "moa"

local L <close> = moa.layout(320, 568)
local form, text, send = L:view "form", nil, nil
text = L:view("text", form)
send = L:view("send", form)

assert(L:eqs [[
  form.left == 0
  form.right == 0
  form.top == 20
  form.bottom == keyboard.top - 8     # follows the keyboard
  send.right == form.right - 8
  send.bottom == form.bottom
  send.size == 80x36
  text.left == form.left + 8
  text.right == form.right - 8
  text.top == form.top
  text.bottom == send.top - 8
]])
L:solve()

local function num(x) return (string.format("%.1f", x):gsub("%.0$", "")) end
local function rect(r) return string.format("(%s, %s, %s, %s)", num(r.x), num(r.y), num(r.width), num(r.height)) end
local function show()
  print(string.format("  t=%.3f  keyboard.top %-6s form %-22s send %s", L.time, num(L:guide("keyboard").frame.y),
                      rect(form.frame), rect(send.root_frame)))
end

local function settle()
  while L.animating do
    L:advance(1 / 60)
    if math.floor(L.time * 60 + 0.5) % 5 == 0 then show() end
  end
  show()
end

print("keyboard: a 320 x 568 form above the keyboard guide")
show()
print("show_keyboard(260, 0.25)")
L:show_keyboard(260, 0.25, { done = function(f) print("  keyboard shown (finished: " .. tostring(f) .. ")") end })
settle()
assert(form.frame.height == 568 - 260 - 8 - 20)
print("hide_keyboard(0.25)")
L:hide_keyboard(0.25)
settle()
assert(form.frame.height == 568 - 8 - 20)
