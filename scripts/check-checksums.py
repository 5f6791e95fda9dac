#!/usr/bin/env python3
"""Checks moa-bench's checkpoint checksums against golden `u` lines.

    check-checksums.py [--bench build/bin/moa-bench] [--golden Tests/bench] [--workloads DIR]
                       [--shared ../shared] [--outdir build/shuffled] [--shuffle "FAMILIES"]
                       (--all | NAME [NAME ...])

A NAME that is not in the workloads folder but reads FAMILY-N (enaml-5000) is generated with gen.py.

Golden files: Tests/bench/kiwi/NAME.u (the `u` lines kiwi 1.5.1 printed for workloads/NAME.lin) and, where
kiwi cannot finish, Tests/bench/expect/NAME.u (drag-N: the closed-form optimum of gen_drag.py --expect).
Moa must print the same lines: every generated workload (except enaml-orig) has a unique optimum.

--shuffle "animate chain ... drag-200": regenerates each family's 1k file (drag-N: that size) with a shuffled
build order (gen.py / gen_drag.py --shuffle 1, into --outdir) and compares Moa's checksums with the unshuffled
golden file: same optimum, different pivot order. The unshuffled file is regenerated first and must equal the
committed workload byte for byte, or the golden lines would not apply.

On a difference, the checkpoint numbers are printed; run `moa-bench FILE -d > dump` and
`python3 SHARED/bench/lincheck.py FILE dump` to tell a tie from a wrong answer.
Exit status: 0 all agree, 1 a difference or a failed run, 2 usage or set-up error.
"""
import argparse
import os
import subprocess
import sys
import time


def note_skip(what):
    """Prints a skipped check, and appends it to $MOA_SKIP_LOG (make test lists them at the end)."""
    print("skip " + what)
    log = os.environ.get("MOA_SKIP_LOG")
    if log:
        with open(log, "a") as f:
            f.write(what + "\n")


def golden_path(golden_dir, name):
    for sub in ("kiwi", "expect"):
        p = os.path.join(golden_dir, sub, name + ".u")
        if os.path.exists(p):
            return p
    return None


def read_u(path):
    with open(path) as f:
        return [ln.rstrip("\n") for ln in f if ln.startswith("u ")]


def run_bench(bench, lin, timeout):
    t = time.monotonic()
    try:
        p = subprocess.run([bench, lin], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout, time.monotonic() - t
    dt = time.monotonic() - t
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip()[-500:]), dt
    return [ln for ln in p.stdout.splitlines() if ln.startswith("u ")], None, dt


def compare(label, got, want):
    """Returns an error string or None."""
    if got == want:
        return None
    diff = [i for i in range(min(len(got), len(want))) if got[i] != want[i]]
    msg = []
    if len(got) != len(want):
        msg.append("%d checkpoints, expected %d" % (len(got), len(want)))
    if diff:
        msg.append("%d of %d checkpoints differ (u %s%s)" % (
            len(diff), len(want), " ".join(str(i) for i in diff[:12]), " ..." if len(diff) > 12 else ""))
        i = diff[0]
        msg.append("first:\n      moa:    %s\n      golden: %s" % (got[i], want[i]))
    return "; ".join(msg)


def check(bench, lin, name, gpath, timeout, label=None):
    label = label or name
    want = read_u(gpath)
    got, err, dt = run_bench(bench, lin, timeout)
    if err:
        print("FAIL %-20s %s" % (label, err))
        return False
    e = compare(label, got, want)
    if e:
        print("DIFF %-20s %s" % (label, e))
        print("     (golden %s; try: moa-bench %s -d > dump && lincheck.py %s dump)" % (gpath, lin, lin))
        return False
    print("ok   %-20s %4d checkpoints agree  %6.2f s" % (label, len(want), dt))
    return True


def generate(shared, family, outdir):
    """Writes the unshuffled and shuffled file of a family; returns (unshuffled, shuffled, golden name)."""
    bench_dir = os.path.join(shared, "bench")
    if family.startswith("drag-"):
        size = family.split("-", 1)[1]
        gen = [sys.executable, os.path.join(bench_dir, "gen_drag.py"), "--size", size]
        name = family
    else:
        gen = [sys.executable, os.path.join(bench_dir, "gen.py"), family, "--size", "1000"]
        name = family + "-1k"
    plain = os.path.join(outdir, name + ".lin")
    shuffled = os.path.join(outdir, name + "-shuffle1.lin")
    subprocess.run(gen + ["-o", plain], check=True)
    subprocess.run(gen + ["--shuffle", "1", "-o", shuffled], check=True)
    return plain, shuffled, name


def generated(shared, name, outdir):
    """FAMILY-N with N a plain number (enaml-5000): generates gen.py FAMILY --size N into outdir."""
    family, _, size = name.rpartition("-")
    if not family or not size.isdigit():
        return None
    os.makedirs(outdir, exist_ok=True)
    out = os.path.join(outdir, name + ".lin")
    gen = [sys.executable, os.path.join(shared, "bench", "gen.py"), family, "--size", size, "-o", out]
    if subprocess.run(gen).returncode != 0:
        return None
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="workload names (workloads/NAME.lin)")
    ap.add_argument("--all", action="store_true", help="every workload that has a golden file")
    ap.add_argument("--bench", default="build/bin/moa-bench")
    ap.add_argument("--golden", default="Tests/bench")
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--workloads", default=None, help="default: SHARED/bench/workloads")
    ap.add_argument("--outdir", default="build/shuffled")
    ap.add_argument("--shuffle", default="", help="space-separated families to check shuffled")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per moa-bench run")
    a = ap.parse_args(argv)
    workloads = a.workloads or os.path.join(a.shared, "bench", "workloads")
    if not os.access(a.bench, os.X_OK):
        print("check-checksums: %s is not built" % a.bench, file=sys.stderr)
        return 2
    if not os.path.isdir(workloads):
        print("check-checksums: no workloads at %s (set SHARED)" % workloads, file=sys.stderr)
        return 2

    names = list(a.names)
    if a.all:
        for f in sorted(os.listdir(workloads)):
            if f.endswith(".lin") and f[:-4] not in names:
                names.append(f[:-4])
    ok = True
    n_ok = 0
    n_checked = 0
    for name in names:
        lin = os.path.join(workloads, name + ".lin")
        gpath = golden_path(a.golden, name)
        if gpath is None:
            if a.all:
                note_skip("%-20s no golden file (see scripts/make-golden.sh)" % name)
                continue
            print("FAIL %-20s no golden file under %s" % (name, a.golden))
            n_checked += 1
            ok = False
            continue
        if not os.path.exists(lin):
            lin = generated(a.shared, name, a.outdir)
        if lin is None:
            print("FAIL %-20s %s not found" % (name, os.path.join(workloads, name + ".lin")))
            n_checked += 1
            ok = False
            continue
        n_checked += 1
        if check(a.bench, lin, name, gpath, a.timeout):
            n_ok += 1
        else:
            ok = False

    families = a.shuffle.split()
    if families:
        os.makedirs(a.outdir, exist_ok=True)
    for fam in families:
        try:
            plain, shuffled, name = generate(a.shared, fam, a.outdir)
        except (subprocess.CalledProcessError, OSError) as e:
            print("FAIL %-20s generator: %s" % (fam + " shuffled", e))
            n_checked += 1
            ok = False
            continue
        committed = os.path.join(workloads, name + ".lin")
        with open(plain, "rb") as f1, open(committed, "rb") as f2:
            if f1.read() != f2.read():
                print("FAIL %-20s regenerated %s differs from %s: golden lines do not apply"
                      % (name + " shuffled", plain, committed))
                n_checked += 1
                ok = False
                continue
        gpath = golden_path(a.golden, name)
        if gpath is None:
            print("FAIL %-20s no golden file for %s" % (name + " shuffled", name))
            n_checked += 1
            ok = False
            continue
        n_checked += 1
        if check(a.bench, shuffled, name, gpath, a.timeout, label=name + " shuffled"):
            n_ok += 1
        else:
            ok = False

    print("checksums: %d of %d files agree with the golden checksums%s"
          % (n_ok, n_checked, "" if ok else " -- FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
