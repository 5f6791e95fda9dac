#!/usr/bin/env python3
"""Moa's benchmark harness (behind `make bench`, `make bench-full`, `make bench-compare`).

    scripts/bench.py [--full] [--runs N] [--json FILE] [--only REGEX] [--timeout S]
    scripts/bench.py --compare [--kiwi-timeout S] [--full] [--runs N] [--json FILE] [FILE.lin ...]
    scripts/bench.py --smoke [--views N] FILE.lin            (make test-bench: shape only, no timings)

Default (quick, a few minutes): the kit's 1k and 10k workloads, drag-50 ... drag-1600, and the layout-level
scenarios (`moa-bench --scenario NAME --views N`, Sources/moa-bench/Scenarios.swift) at 1k and 10k views.
--full adds 100k workloads (generated once with SHARED/bench/gen.py into build/bench/) and the scenarios at 100k
views. Scenarios above --remove-max views run without their `remove` phase (removeView is quadratic today:
chain-10k ~30 s), unless --remove-max is raised.

--compare runs kiwi (SHARED/bench/anchors/kiwi/run.sh) and Moa on the same .lin workloads (default: 1k, 10k and
drag-50..400; FILE arguments replace them), stops with exit status 1 if a checkpoint checksum differs (every
generated workload has a unique optimum, so a difference is a wrong answer), and prints kiwi/Moa per phase and
workload and the peak-RSS ratio. --kiwi-timeout caps each kiwi process (enaml-10k takes kiwi ~250 s); such a
cell reads "kiwi > T s". --scenario-lin adds the layout scenarios' solver systems (moa-bench --lin) as .lin
workloads, so kiwi and Moa are compared on them too.

Processes are run by SHARED/bench/bench.py's `run_once` (fresh process under /usr/bin/time -v, address-space
limit, timeout); a phase's time is the minimum over the replays inside the process, and the table gives the
minimum and median over --runs processes. Progress goes to stderr, the table to stdout, everything to --json
(bench.py's entry format plus kind/family/n) for scripts/plot-scaling.py.
Python 3 standard library only.
"""
import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SCENARIOS = ["chain", "grid", "nested", "labels"]
LIN_FAMILIES = ["animate", "chain", "churn", "enaml", "grid"]
DRAG_SIZES = [50, 100, 200, 400, 800, 1600]
# Phases of a drag file and the number of frames in each (DRAG.md): per-step times are ns / frames.
DRAG_STEPS = {"drag": 300, "jump": 100}


def load_shared(shared):
    """SHARED/bench/bench.py as a module (imported by path: this script is also called bench.py)."""
    path = os.path.join(shared, "bench", "bench.py")
    spec = importlib.util.spec_from_file_location("shared_bench", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Progress:
    """One status line on stderr: what runs and for how long (redrawn each second on a terminal)."""

    def __init__(self):
        self.tty = sys.stderr.isatty()
        self.label = None
        self.t0 = 0.0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        if self.tty:
            threading.Thread(target=self._tick, daemon=True).start()

    def _line(self, extra=""):
        return "[%6.1f s] %s%s" % (time.monotonic() - self.t0, self.label, extra)

    def _tick(self):
        while not self.stop.wait(1.0):
            with self.lock:
                if self.label:
                    sys.stderr.write("\r\033[K" + self._line())
                    sys.stderr.flush()

    def start(self, label):
        with self.lock:
            self.label = label
            self.t0 = time.monotonic()
            if self.tty:
                sys.stderr.write("\r\033[K" + self._line())
            else:
                sys.stderr.write("... %s\n" % label)
            sys.stderr.flush()

    def done(self, status):
        with self.lock:
            line = self._line(" -> %s" % status)
            self.label = None
            sys.stderr.write(("\r\033[K" if self.tty else "") + line + "\n")
            sys.stderr.flush()


def size_tag(n):
    return "%dk" % (n // 1000) if n % 1000 == 0 else str(n)


def lin_item(path, sb):
    base = os.path.basename(path).replace(".lin", "")
    m = re.match(r"^(.*?)-(\d+)(k?)$", base)
    fam, n = (m.group(1), int(m.group(2)) * (1000 if m.group(3) else 1)) if m else (base, None)
    return {"kind": "lin", "name": base, "family": fam, "n": n, "path": path,
            "build_c": sb.build_constraints(path)}


def scenario_item(name, views, remove_max):
    cmd_extra = [] if views <= remove_max else ["--no-remove"]
    return {"kind": "scenario", "name": "layout-%s-%s" % (name, size_tag(views)), "family": "layout-" + name,
            "n": views, "scenario": name, "extra": cmd_extra}


def gen_100k(shared, outdir, progress):
    """The kit's families at 100k constraints, generated once (gen.py output is a function of its arguments)."""
    os.makedirs(outdir, exist_ok=True)
    gen = os.path.join(shared, "bench", "gen.py")
    paths = []
    for fam in LIN_FAMILIES:
        path = os.path.join(outdir, "%s-100k.lin" % fam)
        if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(gen):
            progress.start("generating %s" % path)
            subprocess.run([sys.executable, gen, fam, "--size", "100000", "-o", path + ".tmp"], check=True)
            os.replace(path + ".tmp", path)
            progress.done("ok")
        paths.append(path)
    return paths


def reps_for(item):
    # Several replays in one process for the small cases (less noise); one for the rest (time).
    if item["kind"] == "scenario":
        return 3 if item["n"] <= 1000 else 1
    return 3 if item["build_c"] < 2000 else 1


def run_item(sb, item, driver, cmd, runs, timeout, mem_gb, progress):
    """Runs one (workload, driver) `runs` times; bench.py's entry format plus kind/family/n, and `sums`."""
    reps = reps_for(item)
    results = []
    for r in range(runs):
        progress.start("%s  %s  run %d/%d (x%d)" % (item["name"], driver, r + 1, runs, reps))
        if item["kind"] == "scenario":
            res = sb.run_once(cmd + ["--scenario", item["scenario"]] + item["extra"] + ["--views"],
                              str(item["n"]), reps, timeout, mem_gb)
        else:
            res = sb.run_once(cmd, item["path"], reps, timeout, mem_gb)
        progress.done(res["status"])
        results.append(res)
        if res["status"] != "ok":
            break
    ok = [r for r in results if r["status"] == "ok"]
    entry = {"file": item["name"] + (".lin" if item["kind"] == "lin" else ""), "driver": driver, "reps": reps,
             "build_c": item.get("build_c"), "kind": item["kind"], "family": item["family"], "n": item["n"],
             "status": "ok" if ok else results[-1]["status"], "timeout_s": timeout,
             "phases": {}, "rss_kb": None, "warnings": [], "sums": []}
    if ok:
        for ph in ok[0]["phases"]:
            vals = [r["phases"][ph] for r in ok if ph in r["phases"]]
            entry["phases"][ph] = {"min": min(vals), "median": statistics.median(vals)}
        entry["rss_kb"] = max(r["rss_kb"] or 0 for r in ok)
        entry["sums"] = ok[0]["sums"]
        for r in ok:
            entry["warnings"] += r["warnings"]
        if any(r["sums"] != entry["sums"] for r in ok):
            entry["warnings"].append("checksums differ between runs")
        entry["warnings"] = sorted(set(entry["warnings"]))
    else:
        entry["stderr"] = results[-1].get("stderr")
    return entry


def fmt_ns(ns):
    if ns is None:
        return "-"
    if ns >= 1e9:
        return "%.2f s" % (ns / 1e9)
    if ns >= 1e6:
        return "%.1f ms" % (ns / 1e6)
    if ns >= 1e3:
        return "%.1f us" % (ns / 1e3)
    return "%d ns" % ns


def status_cell(e):
    if e["status"] == "timeout":
        return "> %g s" % e["timeout_s"]
    return e["status"]


def print_table(entries, out=sys.stdout):
    """workload, phase, min, median, per step (drag/jump phases), peak RSS."""
    out.write("%-22s %-7s %-8s %10s %10s %10s %7s\n" % ("workload", "driver", "phase", "min", "median",
                                                       "per step", "rss"))
    for e in entries:
        rss = "%dM" % (e["rss_kb"] // 1024) if e["rss_kb"] else "-"
        if e["status"] != "ok":
            out.write("%-22s %-7s %-8s %10s\n" % (e["file"], e["driver"], "-", status_cell(e)))
            continue
        first = True
        for ph, v in e["phases"].items():
            step = fmt_ns(v["min"] / DRAG_STEPS[ph]) if e["family"] == "drag" and ph in DRAG_STEPS else ""
            out.write("%-22s %-7s %-8s %10s %10s %10s %7s\n" % (e["file"] if first else "", e["driver"], ph,
                                                             fmt_ns(v["min"]), fmt_ns(v["median"]), step,
                                                             rss if first else ""))
            first = False
        for w in e["warnings"]:
            out.write("%-22s %s\n" % ("", w))
    out.flush()


def print_ratios(entries, out=sys.stdout):
    """kiwi / Moa per phase of every workload, and the peak-RSS ratio."""
    by = {}
    for e in entries:
        by.setdefault(e["file"], {})[e["driver"]] = e
    out.write("\n%-18s %-8s %12s %12s %10s\n" % ("workload", "phase", "kiwi", "moa", "kiwi/moa"))
    for f, d in by.items():
        k, m = d.get("kiwi"), d.get("moa")
        if not k or not m:
            continue
        phases = [p for p in (m["phases"] if m["status"] == "ok" else k["phases"])]
        if m["status"] != "ok" and k["status"] != "ok":
            phases = []
        for ph in phases + ["rss"]:
            if ph == "rss":
                kv = k["rss_kb"] * 1024 if k["status"] == "ok" and k["rss_kb"] else None
                mv = m["rss_kb"] * 1024 if m["status"] == "ok" and m["rss_kb"] else None
                cell = lambda v: "%.0f MB" % (v / 2 ** 20) if v else "-"
            else:
                kv = k["phases"].get(ph, {}).get("min") if k["status"] == "ok" else None
                mv = m["phases"].get(ph, {}).get("min") if m["status"] == "ok" else None
                cell = fmt_ns
            kc = cell(kv) if k["status"] == "ok" else "kiwi " + status_cell(k)
            mc = cell(mv) if m["status"] == "ok" else "moa " + status_cell(m)
            if kv and mv:
                ratio = "%.1fx" % (kv / mv)
            elif k["status"] == "timeout" and mv:
                ratio = "> %.0fx" % (k["timeout_s"] * 1e9 / mv) if ph == "total" else ""
            else:
                ratio = "-"
            out.write("%-18s %-8s %12s %12s %10s\n" % (f.replace(".lin", ""), ph, kc, mc, ratio))
    out.flush()


def compare_sums(ref, other):
    """None when the checkpoint checksums agree, else what differs."""
    if len(ref) != len(other):
        return "checkpoint count %d vs %d" % (len(other), len(ref))
    diff = [i for i, (a, b) in enumerate(zip(ref, other)) if a != b]
    if diff:
        return "%d of %d checkpoints differ, first u %d" % (len(diff), len(ref), diff[0])
    return None


def smoke(a, sb, bench_bin):
    """make test-bench: every scenario at a small size and one .lin file; exit status and output shape only."""
    failures = []
    want = ["views", "parse", "build", "solve", "edit", "remove"]
    for name in SCENARIOS:
        cmd = [bench_bin, "--scenario", name, "--views", str(a.views), "-r", "2"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        lines = p.stdout.splitlines()
        phases = [ln.split()[1] for ln in lines if ln.startswith("phase ") and ln.endswith("rep=0")]
        us = [ln for ln in lines if re.match(r"^u \d+ n=\d+ sum=-?\d+ hash=[0-9a-f]{16}$", ln)]
        totals = [ln for ln in lines if re.match(r"^total ns=\d+ rep=[01]$", ln)]
        bad = [ln for ln in lines if ln.startswith("warning")]
        if p.returncode != 0 or phases != want or len(us) != 2 or len(totals) != 2 or bad:
            failures.append("%s: exit %d, phases %s, %d u lines, %d totals, %s %s" % (
                " ".join(cmd), p.returncode, phases, len(us), len(totals), bad, p.stderr.strip()[-300:]))
        else:
            print("ok: scenario %-7s %s views: %s" % (name, a.views, ", ".join(
                "%s %s" % (ln.split()[1], fmt_ns(int(ln.split()[2][3:]))) for ln in lines
                if ln.startswith("phase ") and ln.endswith("rep=0"))))
    # The harness itself on one file (a subprocess: its own exit status, table and JSON are checked).
    for path in a.files:
        js = os.path.join(a.outdir, "smoke.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--bench", bench_bin, "--shared", a.shared, "--runs", "1",
               "--json", js, "--files", path]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        try:
            with open(js) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            data = None
            failures.append("%s: no JSON (%s)" % (" ".join(cmd), e))
        if p.returncode != 0 or not data or data[0]["status"] != "ok" or "build" not in data[0]["phases"] \
                or not data[0]["sums"] or os.path.basename(path) not in p.stdout:
            failures.append("%s: exit %d, output %r %s" % (" ".join(cmd), p.returncode, p.stdout[-300:],
                                                          p.stderr[-300:]))
        else:
            print("ok: scripts/bench.py on %s: %d checkpoints, phases %s" % (
                os.path.basename(path), len(data[0]["sums"]), ", ".join(data[0]["phases"])))
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=os.path.join(ROOT, "build", "bin", "moa-bench"))
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    ap.add_argument("--outdir", default=os.path.join(ROOT, "build", "bench"),
                    help="generated 100k workloads and the smoke test's JSON")
    ap.add_argument("--full", action="store_true", help="add 100k workloads and 100k-view scenarios")
    ap.add_argument("--compare", action="store_true", help="kiwi beside Moa, checksums cross-checked")
    ap.add_argument("--smoke", action="store_true", help="make test-bench: shape checks only")
    ap.add_argument("--views", type=int, default=200, help="--smoke: scenario size")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per Moa process")
    ap.add_argument("--kiwi-timeout", type=float, default=60, help="seconds per kiwi process")
    ap.add_argument("--mem-gb", type=float, default=16)
    ap.add_argument("--remove-max", type=int, default=10000,
                    help="scenarios with more views skip the remove phase (quadratic today)")
    ap.add_argument("--no-scenarios", action="store_true")
    ap.add_argument("--scenario-lin", action="store_true",
                    help="also export the scenarios' systems as .lin files (1k, 10k; 100k with --full) and "
                         "replay them like the kit's workloads (with --compare: kiwi too)")
    ap.add_argument("--only", help="run only workloads whose name matches this regular expression")
    ap.add_argument("--json")
    ap.add_argument("--files", nargs="*", default=None, help=".lin files instead of the default set")
    ap.add_argument("rest", nargs="*", help=".lin files (same as --files)")
    a = ap.parse_args(argv)
    files = (a.files or []) + a.rest or None
    a.files = files
    sb = load_shared(a.shared)
    bench_bin = os.path.abspath(a.bench)
    if not os.access(bench_bin, os.X_OK):
        print("bench.py: %s not built (make bench-bin)" % bench_bin, file=sys.stderr)
        return 2
    if a.smoke:
        if not files:
            print("bench.py --smoke: give one small .lin file", file=sys.stderr)
            return 2
        os.makedirs(a.outdir, exist_ok=True)
        return smoke(a, sb, bench_bin)

    progress = Progress()
    wl = os.path.join(a.shared, "bench", "workloads")
    if files:
        paths = files
    else:
        paths = [os.path.join(wl, "%s-%s.lin" % (f, s)) for s in ("1k", "10k") for f in LIN_FAMILIES]
        drags = [n for n in DRAG_SIZES if not a.compare or n <= 400]  # kiwi: drag-800 runs ~40 min
        paths += [os.path.join(wl, "drag-%d.lin" % n) for n in drags]
        if a.full:
            paths += gen_100k(a.shared, a.outdir, progress)
    if a.scenario_lin:
        # The scenarios' solver systems as .lin files (moa-bench --lin), so kiwi can replay them too.
        for n in [1000, 10000] + ([100000] if a.full else []):
            for name in SCENARIOS:
                path = os.path.join(a.outdir, "layout-%s-%s.lin" % (name, size_tag(n)))
                progress.start("writing " + path)
                os.makedirs(a.outdir, exist_ok=True)
                p = subprocess.run([bench_bin, "--scenario", name, "--views", str(n), "--no-remove", "--lin", path],
                                   stdout=subprocess.DEVNULL)
                progress.done("ok" if p.returncode == 0 else "error %d" % p.returncode)
                if p.returncode == 0:
                    paths.append(path)
    items = [lin_item(p, sb) for p in paths]
    if not files and not a.compare and not a.no_scenarios:
        sizes = [1000, 10000] + ([100000] if a.full else [])
        items += [scenario_item(s, n, a.remove_max) for n in sizes for s in SCENARIOS]
    if a.only:
        items = [it for it in items if re.search(a.only, it["name"])]

    drivers = [("moa", [bench_bin], a.timeout)]
    if a.compare:
        drivers.insert(0, ("kiwi", [os.path.join(a.shared, "bench", "anchors", "kiwi", "run.sh")], a.kiwi_timeout))
        # Build kiwi's driver now (first use only), not inside a timed, time-limited run.
        subprocess.run(drivers[0][1], check=True, stdout=subprocess.DEVNULL)

    t_start = time.monotonic()
    entries = []
    mismatches = []
    for i, it in enumerate(items):
        ref = None
        for name, cmd, timeout in drivers:
            e = run_item(sb, it, name, cmd, a.runs, timeout, a.mem_gb, progress)
            if e["status"] == "ok":
                if ref is None:
                    ref, e["agree"] = e, "ref"
                else:
                    why = compare_sums(ref["sums"], e["sums"])
                    e["agree"] = "yes" if why is None else "DIFF " + why
                    if why:
                        mismatches.append("%s: %s vs %s: %s" % (e["file"], e["driver"], ref["driver"], why))
            entries.append(e)
            if e["status"] not in ("ok", "timeout"):
                print("%s %s: %s %s" % (e["file"], name, e["status"], "; ".join(e.get("stderr") or [])),
                      file=sys.stderr)
    elapsed = time.monotonic() - t_start
    print_table(entries)
    if a.compare:
        print_ratios(entries)
    print("\n%d runs in %.0f s (%s)" % (len(entries), elapsed, "full" if a.full else "quick"))
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:
            json.dump(entries, f, indent=1)
    status = 0
    if mismatches:
        print("\nCHECKSUM MISMATCH: the solvers disagree (a wrong answer; run `moa-bench FILE -d` and "
              "SHARED/bench/lincheck.py):", file=sys.stderr)
        for m in mismatches:
            print("  " + m, file=sys.stderr)
        status = 1
    timeouts = [e for e in entries if e["status"] == "timeout"]
    if timeouts:  # expected for kiwi (and Moa on some 100k files): shown as "> T s", not a failure
        print("timed out: %s" % ", ".join("%s %s" % (e["file"], e["driver"]) for e in timeouts), file=sys.stderr)
    failed = [e for e in entries if e["status"] not in ("ok", "timeout")]
    if failed:
        print("FAILED: %s" % ", ".join("%s %s %s" % (e["file"], e["driver"], e["status"]) for e in failed),
              file=sys.stderr)
        status = 1
    # moa-bench checks the required constraints of every scenario checkpoint: a break is a wrong answer.
    broken = [e for e in entries if any("required constraints broken" in w for w in e["warnings"])]
    if broken:
        print("WRONG ANSWER: required constraints broken in %s" % ", ".join(e["file"] for e in broken),
              file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
