#!/usr/bin/env python3
"""The frames benchmark from C, Lua and Python side by side (behind `make bench-frames`).

    scripts/bench-bindings.py --c BIN --lua-cpath CPATH --pythonpath DIR [--views N] [--runs R] [--rounds K]
                              [--smoke]

Runs the one screen of `moa-bench --frames N` from the three drivers, each R times as a fresh process:
scripts/bench-frames.c (BIN; a call per view as the Lua script makes them, and again with --bulk, the rows
in one call as the Python script makes them), scripts/bench-frames.lua and scripts/bench-frames.py. Prints, per
phase (build; a frame in which every view, eight rows or one view moves), the fastest of the runs in each
language and the binding / C ratio against the C run built the same way (the issue's goal: at most 1.5x). Lua's
frames are read as ids and root frames (`advance_frames(dt, t, "root")`), and again with both frames a view.

--smoke (make test-bench): 200 views, one run, one round; checks that every driver prints every phase, no
timings judged. Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PHASES = ["build", "all", "eight", "one"]


def run(cmd, env=None):
    """The `phase NAME ns=T` lines of one process, as {name: ns}."""
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^phase (\S+) ns=(\d+)", out, re.M)}


def fmt(ns):
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    return "%.2f us" % (ns / 1e3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--c", required=True, help="the built scripts/bench-frames.c")
    ap.add_argument("--lua", default="lua5.4")
    ap.add_argument("--lua-cpath", required=True, help="LUA_CPATH that finds the moa module")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--pythonpath", required=True, help="the directory holding the moa package")
    ap.add_argument("--views", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.views, a.runs, a.rounds = 200, 1, 1
    n, k = str(a.views), str(a.rounds)
    lua_env = dict(os.environ, LUA_CPATH=a.lua_cpath)
    py_env = dict(os.environ, PYTHONPATH=a.pythonpath)
    drivers = [
        ("C", [a.c, n, "--rounds", k], None),
        ("C --bulk", [a.c, n, "--bulk", "--rounds", k], None),
        ("Lua", [a.lua, os.path.join(HERE, "bench-frames.lua"), n, k], lua_env),
        ("Python", [a.python, os.path.join(HERE, "bench-frames.py"), n, k], py_env),
    ]
    best = {}
    for r in range(a.runs):
        for name, cmd, env in drivers:  # one after the other in each run: the machine's drift hits all alike
            print("bench-bindings: run %d/%d %s" % (r + 1, a.runs, name), file=sys.stderr)
            got = run(cmd, env)
            missing = [p for p in PHASES if p not in got]
            if missing:
                sys.exit("bench-bindings: %s printed no phase %s" % (name, ", ".join(missing)))
            for p, ns in got.items():
                best[name, p] = min(best.get((name, p), float("inf")), ns)
    if a.smoke:
        print("bench-bindings: smoke ok (%s views; every driver printed every phase)" % n)
        return
    print("Frames benchmark at %s views: fastest of %d runs (%d rounds of 60 frames per case)" % (n, a.runs, a.rounds))
    print()
    print("| phase | C | Lua | Lua / C | Lua, both frames | / C | C --bulk | Python | Python / C --bulk |")
    print("|---|---|---|---|---|---|---|---|---|")
    for p in PHASES:
        c, cb, lua, py = (best[d, p] for d in ("C", "C --bulk", "Lua", "Python"))
        full = best.get(("Lua", p + "-full"))
        both = ("%s | %.2fx" % (fmt(full), full / c)) if full else "- | -"
        print("| %s | %s | %s | %.2fx | %s | %s | %s | %.2fx |"
              % (p, fmt(c), fmt(lua), lua / c, both, fmt(cb), fmt(py), py / cb))


if __name__ == "__main__":
    main()
