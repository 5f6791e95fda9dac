#!/usr/bin/env python3
"""A chat screen whose messages wrap (the Python twin of examples/lua/chat.lua).

Bubbles hug their text up to three quarters of the screen's width (incoming on the left, outgoing on the
right), stacked up from an input bar that rides on the keyboard. The text is measured in DejaVu Sans through
moafont when it can be loaded (``moa.has_font()``), else with the built-in measurer. Prints the bubbles' frames
in portrait, after a rotation, and after the keyboard came up; writes build/demo/chat-python.svg.

    make demo-python-chat
    # or, from the repository root after `make`:
    PYTHONPATH=bindings/python python3 examples/python/chat.py
"""
import os
import sys

# Run from a checkout without installing: the package lives in bindings/python.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bindings", "python"))

import moa  # noqa: E402

MESSAGES = [
    (False, "Are we still on for tonight?"),
    (True, "Yes! I booked the table by the window, the one with the view over the harbour you liked last time."),
    (False, "Perfect."),
    (False, "Should I bring the book I told you about? It is long, but the first chapters read like a thriller."),
    (True, "Please do. See you at eight."),
]


def show(L, when, bubbles, texts):
    L.solve()
    w, h = L.root_size
    print("%s (%g x %g)" % (when, w, h))
    for (outgoing, _), bubble, text in zip(MESSAGES, bubbles, texts):
        r = bubble.root_frame
        lines, _ = text.text_lines()
        print("  %-3s (%6.1f, %6.1f, %5.1f x %5.1f)  %d line%s" % ("me" if outgoing else "you", r.x, r.y, r.width,
                                                                  r.height, len(lines), "" if len(lines) == 1 else "s"))


def main():
    font = moa.Font() if moa.has_font() else None
    with moa.Layout(390, 844) as L:
        if font:
            L.set_font(font)
        print("chat: text measured with %s" % (font.family if font else "the built-in measurer"))
        L.view("transcript")
        L.view("input")
        L.eqs("""
            transcript.left == 0
            transcript.right == 0
            transcript.top == safeArea.top
            transcript.bottom == input.top
            input.left == 0
            input.right == 0
            input.height == 52
            input.bottom == keyboard.top
        """)
        bubbles, texts = [], []
        for i, (_, text) in enumerate(MESSAGES, 1):
            bubbles.append(L.view("bubble%d" % i, L.find("transcript")))
            texts.append(L.view("text%d" % i, bubbles[-1]))
            texts[-1].set_text(text, size=16, line_height=21)
        lines = []
        for i, (outgoing, _) in enumerate(MESSAGES, 1):
            lines += ["text%d.left == bubble%d.left + 12" % (i, i), "text%d.right == bubble%d.right - 12" % (i, i),
                      "text%d.top == bubble%d.top + 8" % (i, i), "text%d.bottom == bubble%d.bottom - 8" % (i, i),
                      "bubble%d.width <= transcript.width * 0.75" % i,
                      ("bubble%d.right == transcript.right - 10" if outgoing else "bubble%d.left == transcript.left + 10") % i]
            if i < len(MESSAGES):
                lines.append("bubble%d.bottom == bubble%d.top - 6" % (i, i + 1))
        lines.append("bubble%d.bottom == transcript.bottom - 10" % len(MESSAGES))
        L.eqs("\n".join(lines))

        show(L, "portrait", bubbles, texts)
        L.set_root_size(844, 390)
        show(L, "landscape", bubbles, texts)
        L.set_root_size(390, 844)
        L.show_keyboard(336, 0.25, curve="keyboard")
        while L.animating:
            L.advance(1 / 60)
        show(L, "keyboard up", bubbles, texts)
        stats = L.measure_stats()
        print("measured %d times, %d answers from the cache" % (stats["calls"], stats["cache_hits"]))
        out = os.path.join(HERE, "..", "..", "build", "demo")
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "chat-python.svg"), "w") as f:
            f.write(L.svg())
        print("wrote build/demo/chat-python.svg")
    if font:
        font.close()


if __name__ == "__main__":
    main()
