#!/usr/bin/env python3
"""Time moa.kiwi against kiwisolver from Python on the shared .lin workloads, with the same driver.

    python3 scripts/bench-kiwi.py [WORKLOAD.lin ...] [--reps N] [--reps-10k N] [--mode levels|weighted|both]
                                  [--with-slow] [--python PY] [--json]

Both runs use the shared kiwisolver-py driver unchanged (../shared/bench/anchors/kiwisolver-py/driver.py, see
../shared/bench/FORMAT.md), in the same interpreter, in separate processes:

- kiwisolver: ``PY driver.py FILE -r N``;
- moa.kiwi:   ``PY -c 'moa.kiwi.install(); run driver.py' FILE -r N`` with bindings/python on PYTHONPATH and
  MOA_LIBRARY=build/lib/libmoa.so, so the driver's ``import kiwisolver as kw`` gets moa.kiwi.

PY is build/venv-mpl/bin/python (created with kiwisolver from PyPI if missing; scripts/kiwi-matplotlib.py uses
the same venv). Per workload and phase the table shows the fastest replay of each (ms) and the ratio
moa.kiwi / kiwisolver (below 1: moa.kiwi is faster), and whether the checkpoint checksums the driver prints
agree ("ok"; "DIFF" otherwise, which makes the exit status 1). The "warn" column says whether moa.kiwi emitted
its MoaKiwiWarning (strengths of different bands in one solver; the workloads are built so that no soft
constraints of different priorities trade off, so the checksums agree anyway).

Default workloads: every *-1k.lin, drag-100.lin, and chain/grid/churn/animate-10k.lin. --with-slow adds
drag-200.lin and enaml-10k.lin, where kiwisolver is slow (drag-200: ~25 s a replay, its drag cliff, see
DRAG.md; enaml-10k: about four minutes for the build phase, moa.kiwi 0.2 s); drag-400 and up take kiwisolver
many minutes (pass them explicitly).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench"))
DRIVER = os.path.join(BENCH, "anchors", "kiwisolver-py", "driver.py")
BINDINGS = os.path.join(ROOT, "bindings", "python")
LIBRARY = os.environ.get("MOA_LIBRARY") or os.path.join(ROOT, "build", "lib", "libmoa.so")

WRAPPER = r"""
import runpy, sys, warnings
import moa.kiwi
moa.kiwi.install()
moa.kiwi.strength_mode = sys.argv[1]
warned = []
warnings.showwarning = lambda m, c, *a, **k: warned.append(c.__name__)
sys.argv = sys.argv[2:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
finally:
    sys.stdout.flush()
    sys.stderr.write("moa.kiwi warnings: %d %s\n" % (len(warned), ",".join(sorted(set(warned)))))
"""


def venv_python(venv):
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        print("creating %s" % venv, file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    if subprocess.call([py, "-c", "import kiwisolver"], stderr=subprocess.DEVNULL) != 0:
        print("installing kiwisolver into %s" % venv, file=sys.stderr)
        subprocess.check_call([py, "-m", "pip", "install", "-q", "kiwisolver"])
    return py


def parse(out):
    """(checksum lines, {phase: min ns}, phase order, replay warnings)."""
    sums, phases, order, warns = [], {}, [], []
    for line in out.splitlines():
        if line.startswith("u "):
            sums.append(line)
        elif line.startswith("phase "):
            m = re.match(r"phase (\S+) ns=(\d+)", line)
            name, ns = m.group(1), int(m.group(2))
            if name not in phases:
                order.append(name)
                phases[name] = ns
            phases[name] = min(phases[name], ns)
        elif line.startswith("warning:"):
            warns.append(line)
    return sums, phases, order, warns


def run(cmd, env):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("bench-kiwi: %s failed (exit %d)" % (" ".join(cmd[:3]), p.returncode))
    return p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workloads", nargs="*")
    ap.add_argument("--reps", type=int, default=3, help="replays per process for the smaller files (default 3)")
    ap.add_argument("--reps-10k", type=int, default=1, help="replays for *-10k files (default 1)")
    ap.add_argument("--mode", choices=("levels", "weighted", "both"), default="levels",
                    help="moa.kiwi.strength_mode (default levels)")
    ap.add_argument("--with-slow", action="store_true", help="add drag-200 and enaml-10k (kiwisolver: ~5 min)")
    ap.add_argument("--python", help="interpreter with kiwisolver (default: build/venv-mpl, created if missing)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON too")
    a = ap.parse_args()
    if not os.path.exists(LIBRARY):
        raise SystemExit("bench-kiwi: %s is missing (build libmoa first)" % LIBRARY)
    if not os.path.exists(DRIVER):
        raise SystemExit("bench-kiwi: %s is missing" % DRIVER)
    files = a.workloads
    if not files:
        w = os.path.join(BENCH, "workloads")
        files = sorted(glob.glob(os.path.join(w, "*-1k.lin"))) + [os.path.join(w, "drag-100.lin")]
        files += [os.path.join(w, n + "-10k.lin") for n in ("chain", "grid", "churn", "animate")]
        if a.with_slow:
            files += [os.path.join(w, "drag-200.lin"), os.path.join(w, "enaml-10k.lin")]
    py = a.python or venv_python(os.path.join(ROOT, "build", "venv-mpl"))
    modes = ("levels", "weighted") if a.mode == "both" else (a.mode,)

    env_kiwi = dict(os.environ)
    env_kiwi.pop("PYTHONPATH", None)
    env_moa = dict(os.environ)
    env_moa["PYTHONPATH"] = BINDINGS
    env_moa["MOA_LIBRARY"] = LIBRARY

    kv = subprocess.run([py, "-c", "import kiwisolver; print(kiwisolver.__version__)"], env=env_kiwi,
                        capture_output=True, text=True).stdout.strip()
    print("kiwisolver %s vs moa.kiwi (%s), driver %s, %s" % (kv, "/".join(modes), os.path.relpath(DRIVER, ROOT), py))
    head = "%-14s %-8s %-6s %10s %10s %8s %5s %5s" % ("workload", "mode", "phase", "kiwi ms", "moa ms",
                                                        "moa/kiwi", "sums", "warn")
    print(head)
    print("-" * len(head))
    results = []
    failed = False
    for f in files:
        reps = a.reps_10k if "-10k" in os.path.basename(f) else a.reps
        kout, _ = run([py, DRIVER, f, "-r", str(reps)], env_kiwi)
        ksums, kph, order, kwarn = parse(kout)
        for mode in modes:
            mout, merr = run([py, "-c", WRAPPER, mode, DRIVER, f, "-r", str(reps)], env_moa)
            msums, mph, _, mwarn = parse(mout)
            m = re.search(r"moa.kiwi warnings: (\d+)", merr)
            warned = bool(m and int(m.group(1)))
            same = ksums == msums and bool(ksums) and not kwarn and not mwarn
            failed |= not same
            name = os.path.basename(f)[:-4]
            for ph in order:
                k, mo = kph[ph] / 1e6, mph.get(ph, float("nan")) / 1e6
                print("%-14s %-8s %-6s %10.2f %10.2f %8.2f %5s %5s" % (name, mode, ph, k, mo, mo / k if k else 0,
                                                                     "ok" if same else "DIFF",
                                                                     "yes" if warned else "no"))
                results.append({"workload": name, "mode": mode, "phase": ph, "kiwi_ms": k, "moa_ms": mo,
                                "ratio": mo / k if k else None, "checksums_agree": same, "warned": warned,
                                "reps": reps})
            if not same:
                print("  checksums differ: kiwisolver %d lines, moa.kiwi %d lines; first difference: %s"
                      % (len(ksums), len(msums), next((f"{x} | {y}" for x, y in zip(ksums, msums) if x != y),
                                                       "; ".join(kwarn + mwarn) or "count")))
            sys.stdout.flush()
    if a.json:
        print(json.dumps(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
