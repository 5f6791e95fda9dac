#!/usr/bin/env python3
"""Runs the README's examples so they cannot rot.

    check-readme.py README.md build/lib

The ```c block is compiled against Include/ and the library and run; the ```lua block is run with lua5.4 and
the module in LIBDIR/lua. In both, a comment `/* a, b */` (C) or `--> a b` (Lua) after a print gives the values
that print must show: the numbers printed, in order, must equal the numbers in those comments.
"""
import os
import re
import subprocess
import sys
import tempfile

NUM = re.compile(r"-?\d+(?:\.\d+)?")


def block(text, lang):
    m = re.search(r"```%s\n(.*?)```" % lang, text, re.S)
    if not m:
        sys.exit("check-readme: no ```%s block" % lang)
    return m.group(1)


def expected(code, marker):
    want = []
    for line in code.splitlines():
        if "print" not in line or marker not in line:
            continue
        comment = line.split(marker, 1)[1]
        comment = comment.split("(", 1)[0]          # "(then ...)" is prose
        want += [float(x) for x in NUM.findall(comment)]
    return want


def printed(out, count):
    got = [float(x) for x in NUM.findall(out)]
    return got


def check(name, out, want):
    got = printed(out, len(want))
    # Every expected number must appear, in order, among the printed ones.
    i = 0
    for g in got:
        if i < len(want) and abs(g - want[i]) < 1e-9:
            i += 1
    if i != len(want):
        print("FAIL README %s example: expected %s in order, output was:\n%s" % (name, want, out))
        return False
    print("ok   README %s example (%d values)" % (name, len(want)))
    return True


def main(readme, libdir):
    text = open(readme).read()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        c = block(text, "c")
        src = os.path.join(tmp, "example.c")
        exe = os.path.join(tmp, "example")
        open(src, "w").write(c)
        subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-IInclude", src, "-L" + libdir, "-lmoa",
                        "-Wl,-rpath," + os.path.abspath(libdir), "-o", exe], check=True)
        out = subprocess.run([exe], stdout=subprocess.PIPE, text=True, check=True).stdout
        ok &= check("C", out, expected(c, "/*"))

        lua = block(text, "lua")
        src = os.path.join(tmp, "example.lua")
        open(src, "w").write(lua)
        env = dict(os.environ, LUA_CPATH=os.path.join(os.path.abspath(libdir), "lua", "?.so") + ";;")
        out = subprocess.run(["lua5.4", src], stdout=subprocess.PIPE, text=True, check=True, env=env).stdout
        ok &= check("Lua", out, expected(lua, "-->"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
