-- chat.lua -- a chat screen whose messages wrap: bubbles hug their text up to three quarters of the screen's
-- width (incoming on the left, outgoing on the right), stacked up from an input bar that rides on the keyboard.
--
-- The text is measured with DejaVu Sans through moafont (FreeType + HarfBuzz) when the module was built with it
-- (`moa.has_font`), else with the built-in measurer (0.6 em a character). The script prints the bubbles' frames
-- in portrait, after a rotation to landscape (long messages take fewer lines), while the keyboard comes up, and
-- after a message arrives mid-animation (its bubble grows in at once); then writes build/demo/chat.svg (text
-- drawn in the font it was measured with, broken where it was measured) and chat-strip.svg (the keyboard
-- animation).
--
-- Run from the repository root:   make demo-chat      (or: make lua && lua5.4 examples/lua/chat.lua)

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.cpath = here .. "/../../build/lib/lua/?.so;" .. package.cpath
local moa = require "moa"

local outdir = os.getenv("MOA_DEMO_DIR") or (here .. "/../../build/demo")
os.execute("mkdir -p '" .. outdir .. "'")

local L <close> = moa.layout(390, 844)
local font
if moa.has_font then
  font = moa.font()
  L:set_font(font)
end
print(string.format("chat: text measured with %s", font and font.family or "the built-in measurer"))

local transcript = L:view "transcript"
local input = L:view "input"
assert(L:eqs [[
  transcript.left == 0
  transcript.right == 0
  transcript.top == safeArea.top
  transcript.bottom == input.top
  input.left == 0
  input.right == 0
  input.height == 52
  input.bottom == keyboard.top
]])

local messages = {
  { false, "Are we still on for tonight?" },
  { true, "Yes! I booked the table by the window, the one with the view over the harbour you liked last time." },
  { false, "Perfect." },
  { false, "Should I bring the book I told you about? It is long, but the first chapters read like a thriller." },
  { true, "Please do. See you at eight." },
}
local bubbles, texts = {}, {}
local last_bottom -- the constraint that pins the newest bubble to the bottom

-- Adds a message: a bubble with a text view inside, below the previous bubble, the newest at the bottom.
local function add_message(outgoing, text)
  local i = #bubbles + 1
  local bubble = L:view("bubble" .. i, transcript)
  local label = L:view("text" .. i, bubble)
  label:set_text(text, { size = 16, line_height = 21 })
  bubbles[i], texts[i] = bubble, label
  local eqs = {
    ("text%d.left == bubble%d.left + 12"):format(i, i),
    ("text%d.right == bubble%d.right - 12"):format(i, i),
    ("text%d.top == bubble%d.top + 8"):format(i, i),
    ("text%d.bottom == bubble%d.bottom - 8"):format(i, i),
    ("bubble%d.width <= transcript.width * 0.75"):format(i),
    outgoing and ("bubble%d.right == transcript.right - 10"):format(i)
      or ("bubble%d.left == transcript.left + 10"):format(i),
  }
  if i > 1 then
    eqs[#eqs + 1] = ("bubble%d.bottom == bubble%d.top - 6"):format(i - 1, i)
    last_bottom:remove()
  end
  assert(L:eqs(table.concat(eqs, "\n")))
  last_bottom = assert(L:eq(("bubble%d.bottom == transcript.bottom - 10"):format(i)))
end

for _, m in ipairs(messages) do add_message(m[1], m[2]) end

local function show(when)
  L:solve()
  local w, h = L:root_size()
  print(string.format("%s (%d x %d)", when, w, h))
  for i, b in ipairs(bubbles) do
    local r = b.root_frame
    local lines = texts[i]:text_lines()
    print(string.format("  %-3s (%6.1f, %6.1f, %5.1f x %5.1f)  %d line%s", messages[i] and (messages[i][1] and "me" or "you") or "me",
                        r.x, r.y, r.width, r.height, #lines, #lines == 1 and "" or "s"))
  end
end

show("portrait")
L:set_root_size(844, 390)
show("landscape")
L:set_root_size(390, 844)
show("portrait again (answers from the cache)")

L:trace_start()
L:show_keyboard(336, 0.25, { curve = "keyboard" })
for frame = 1, 15 do
  L:advance(1 / 60)
  if frame == 8 then
    add_message(true, "On my way, the tram is running late but I will be there by ten past.")
    show("a message arrives at frame 8, mid-animation")
  end
end
show("keyboard up")
local stats = L:measure_stats()
print(string.format("measured %d times, %d answers from the cache", stats.calls, stats.cache_hits))

local svg = io.open(outdir .. "/chat.svg", "w")
svg:write(L:svg())
svg:close()
local strip = io.open(outdir .. "/chat-strip.svg", "w")
strip:write(L:trace_svg_strip(6))
strip:close()
print("wrote " .. outdir .. "/chat.svg and chat-strip.svg")
