#!/usr/bin/env python3
"""The screen of `moa-bench --frames N` (Sources/moa-bench/Frames.swift) built and animated from Python, so that
the binding's cost can be set beside the Swift driver's (and scripts/bench-frames.lua's).

    PYTHONPATH=bindings/python python3 scripts/bench-frames.py N [ROUNDS]

Prints, like moa-bench: `phase build ns=T` (views, intrinsic sizes (the rows' in one add_views call), one eqs,
first solve), then per frame, for
each case (all, eight, one: the cases of moa-bench), two phases:

    phase CASE ns=T          the bulk path: advance_frames(dt, out=cols) (one C call: the frame and the
                             frames of the views that moved, by column, into one FrameColumns refilled at
                             every frame), reading each root x
    phase CASE-objects ns=T  the per-view path: advance(dt) (a list of View objects) and
                             frame_buffer(changed=True) read item by item (f.frame_in_root.x)

Each case animates its constants there and back ROUNDS times (default 5), 60 frames each way, and the fastest
round counts, as in scripts/bench-frames.c (the C baseline, built with --bulk as here); the per-view phases,
ten times slower, once. The bulk phases come
first. CPU time (process_time_ns), as the C and Lua scripts.

The frame calls go through moa._speedups when it is built (`make python-ext`), else ctypes; standard error says
which (MOA_PYTHON_SPEEDUPS=0 forces ctypes).
"""
import gc
import sys
import time

import moa

print("bench-frames.py: frame calls through %s" % (
    "moa._speedups" if sys.modules["moa._lib"].speedups is not None else "ctypes"), file=sys.stderr)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
now = time.process_time_ns
t0 = now()
L = moa.Layout(1024, 768)
L.view("sidebar")
content = L.view("content")
L.view("badge", content)
lines = ["sidebar.left == 0", "sidebar.top == 0", "sidebar.bottom == 0", "sidebar.width == 240",
         "content.left == sidebar.right", "content.right == 0", "content.top == 0",
         "badge.top == content.top + 8", "badge.right == content.right - 8", "badge.width == 24", "badge.height == 24"]
rows = max(1, n - 3)
gaps = []
# The rows and their intrinsic sizes in one call (add_views: a ctypes call per view costs more than the view).
L.add_views(["row%d" % i for i in range(rows)], content, [(80 + i % 7 * 10, 20) for i in range(rows)])
for i in range(rows):
    lines.append("row%d.left == content.left + 16" % i)
    lines.append("row0.top == content.top + 8" if i == 0 else "row%d.top == row%d.bottom + 4" % (i, i - 1))
    if i > 0:
        gaps.append(len(lines) - 1)
lines.append("content.bottom >= row%d.bottom + 8" % (rows - 1))
cs = L.eqs("\n".join(lines))
L.solve(views=False)  # the count, no View objects
print("phase build ns=%d ops=%d rep=0" % (now() - t0, n))
chosen = [cs[gaps[k]] for k in range(0, len(gaps), max(1, len(gaps) // 8))][:8]
cases = [("all", [(cs[0], -240)]), ("eight", [(c, c.constant + 12) for c in chosen]), ("one", [(cs[7], 200)])]
start = {c.id: c.constant for _, targets in cases for c, _ in targets}  # where each constant goes back to
gc.collect()  # the build's garbage


def settle():
    """The previous round's animations end first, untimed: 60 steps of 1/60 s add up to a hair under its 1 s,
    and its last step would otherwise land in the next round's first frame."""
    while L.animating:
        L.advance(1 / 60, views=False)


def run(targets, frame, times):
    """A case's constants there and back `times` times, 60 frames each way: the fastest round (ns per frame)
    and the views moved in all rounds. frame() makes one frame and returns how many views moved."""
    best, moved = float("inf"), 0
    for _ in range(times):
        settle()
        for c, to in targets:
            was = start[c.id]
            c.animate(to if c.constant == was else was, duration=1.0, curve="easeInOut")
        t0 = now()
        for _ in range(60):
            moved += frame()
        best = min(best, (now() - t0) / 60)
    return best, moved


read = 0.0
cols = moa.FrameColumns()  # one, refilled at every frame


def bulk_frame():
    global read
    L.advance_frames(1 / 60, out=cols)
    xs = cols.root_x
    for x in xs:
        read += x
    return len(xs)


def objects_frame():
    global read
    n = len(L.advance(1 / 60))
    for f in L.frame_buffer(changed=True):
        read += f.frame_in_root.x
    return n


moved = []
for name, targets in cases:
    ns, count = run(targets, bulk_frame, rounds)
    moved.append(count)
    print("phase %s ns=%d ops=60 rep=0" % (name, ns))
for (name, targets), count in zip(cases, moved):
    ns, count2 = run(targets, objects_frame, 1)
    print("phase %s-objects ns=%d ops=60 rep=0" % (name, ns))
    if count2 * rounds != count:  # (one round against `rounds`)
        print("warning: %s: %d views moved in %d rounds, %d in one per-view round" % (name, count, rounds, count2),
              file=sys.stderr)
if read != read:
    print("warning: a frame read NaN", file=sys.stderr)
