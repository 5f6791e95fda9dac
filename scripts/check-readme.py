#!/usr/bin/env python3
"""Runs the README's examples so they cannot rot.

    check-readme.py README.md build/lib

The ```c block is compiled against Include/ and the library and run; the ```lua block is run with lua5.4 and
the module in LIBDIR/lua; the ```python block with this Python, bindings/python on PYTHONPATH and
MOA_LIBRARY=LIBDIR/libmoa.so; the ```swift block is the main.swift of a small package that depends on this
repository by path (build/readme-swift, kept between runs so that rebuilds are incremental; skipped when
`swift` is not on the PATH; callers serialise Swift builds, e.g. `flock /tmp/moa-swift.lock make test-readme`).
In each, a comment `/* a, b */` (C), `--> a b` (Lua, Python `# -->`, Swift `// -->`) after a print gives the
values that print must show: the numbers printed, in order, must equal the numbers in those comments.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def note_skip(what):
    """Prints a skipped check, and appends it to $MOA_SKIP_LOG (make test lists them at the end)."""
    print("skip " + what)
    log = os.environ.get("MOA_SKIP_LOG")
    if log:
        with open(log, "a") as f:
            f.write(what + "\n")


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

        py = block(text, "python")
        src = os.path.join(tmp, "example.py")
        open(src, "w").write(py)
        env = dict(os.environ, PYTHONPATH=os.path.abspath(os.path.join("bindings", "python")),
                   MOA_LIBRARY=os.path.join(os.path.abspath(libdir), "libmoa.so"), PYTHONDONTWRITEBYTECODE="1")
        out = subprocess.run([sys.executable, src], stdout=subprocess.PIPE, text=True, check=True, env=env,
                             cwd=tmp).stdout
        ok &= check("Python", out, expected(py, "-->"))

    ok &= check_swift(text)
    return 0 if ok else 1


SWIFT_PACKAGE = """// swift-tools-version:6.0
// Written by scripts/check-readme.py: the README's ```swift block as the main.swift of a dependent package.
import PackageDescription


let package = Package(
    name: "ReadmeExample",
    dependencies: [.package(name: "Moa", path: %s)],
    targets: [.executableTarget(name: "ReadmeExample", dependencies: [.product(name: "MoaLayout", package: "Moa")])]
)
"""


def check_swift(text):
    """Builds and runs the ```swift block in build/readme-swift (a package depending on this checkout)."""
    swift = shutil.which("swift")
    if not swift:
        note_skip("README Swift example (no swift on the PATH)")
        return True
    code = block(text, "swift")
    pkg = os.path.abspath(os.path.join("build", "readme-swift"))
    srcdir = os.path.join(pkg, "Sources", "ReadmeExample")
    os.makedirs(srcdir, exist_ok=True)
    manifest = SWIFT_PACKAGE % ('"%s"' % os.path.abspath(".").replace("\\", "\\\\").replace('"', '\\"'))
    for path, content in ((os.path.join(pkg, "Package.swift"), manifest), (os.path.join(srcdir, "main.swift"), code)):
        old = open(path).read() if os.path.exists(path) else None
        if old != content:  # unchanged files keep their timestamps: the rebuild stays incremental
            open(path, "w").write(content)
    build = subprocess.run([swift, "build", "--package-path", pkg], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    if build.returncode != 0:  # SwiftPM keeps the path dependency's file list in .build: once more from empty
        shutil.rmtree(os.path.join(pkg, ".build"), ignore_errors=True)
        build = subprocess.run([swift, "build", "--package-path", pkg], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    if build.returncode != 0:
        print("FAIL README Swift example: swift build failed:\n" + build.stdout)
        return False
    run = subprocess.run([swift, "run", "--skip-build", "--package-path", pkg, "ReadmeExample"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        print("FAIL README Swift example: exit status %d:\n%s%s" % (run.returncode, run.stdout, run.stderr))
        return False
    return check("Swift", run.stdout, expected(code, "-->"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
