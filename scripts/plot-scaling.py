#!/usr/bin/env python3
"""Scaling plots from scripts/bench.py --json results: time against size, log-log, Moa beside kiwi.

    scripts/plot-scaling.py [--outdir build/bench] (DIR | RESULTS.json ...)

A DIR stands for its bench.json, bench-full.json and compare.json (those that exist). Entries of the same driver
and workload from several files are merged (fastest run per phase). Writes one SVG per family into --outdir
(chain, grid, enaml, animate, churn, drag, layout-chain, layout-grid, layout-nested, layout-labels) and
scaling.svg with every panel. x: constraints in the build phase (drag: boxes; layout scenarios: views).
Drag panels show time per 1-pixel drag step (phase ns / 300) and per jump (ns / 100). A run that hit its
timeout is drawn as an open triangle at the timeout ("> T s": the whole run took longer; marked on the build
line, for drag files on the jump line as T / 100).
Hand-written SVG, Python 3 standard library only.
"""
import argparse
import json
import math
import os
import sys

LIN_FAMILIES = ["chain", "grid", "enaml", "animate", "churn", "drag"]
LAYOUT_FAMILIES = ["layout-chain", "layout-grid", "layout-nested", "layout-labels"]
# Phases drawn per family kind, and the divisor that makes a per-step time.
LIN_PHASES = [("build", 1), ("edit", 1), ("churn", 1)]
DRAG_PHASES = [("drag", 300), ("jump", 100)]
LAYOUT_PHASES = [("parse", 1), ("build", 1), ("solve", 1), ("edit", 1), ("remove", 1)]
COLORS = {"build": "#1f77b4", "edit": "#d62728", "churn": "#2ca02c", "drag": "#1f77b4", "jump": "#d62728",
          "parse": "#9467bd", "solve": "#8c564b", "remove": "#ff7f0e"}
DASH = {"moa": "", "kiwi": "6,4", "moa shuffled": "2,3", "kiwi shuffled": "8,3,2,3"}
FAMILY_COLORS = {"chain": "#1f77b4", "grid": "#d62728", "enaml": "#2ca02c", "animate": "#9467bd",
                 "churn": "#ff7f0e"}
W, H = 460, 330          # one panel
ML, MR, MT, MB = 62, 14, 30, 44


def load(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, n) for n in ("bench.json", "bench-full.json", "compare.json")
                      if os.path.exists(os.path.join(p, n))]
        else:
            files.append(p)
    if not files:
        raise SystemExit("plot-scaling.py: no results (run make bench or make bench-compare first)")
    merged = {}
    for f in files:
        with open(f) as fh:
            for e in json.load(fh):
                if "family" not in e:
                    continue
                key = (e["driver"], e["file"])
                old = merged.get(key)
                if old is None or (old["status"] != "ok" and e["status"] == "ok"):
                    merged[key] = json.loads(json.dumps(e))
                elif old["status"] == "ok" and e["status"] == "ok":
                    for ph, v in e["phases"].items():
                        if ph not in old["phases"] or v["min"] < old["phases"][ph]["min"]:
                            old["phases"][ph] = v
                elif old["status"] == "timeout" and e["status"] == "timeout":
                    old["timeout_s"] = max(old.get("timeout_s") or 0, e.get("timeout_s") or 0)
    return list(merged.values()), files


def xval(e):
    if e["family"] == "drag" or e["kind"] == "scenario":
        return e["n"]
    return e.get("build_c") or e["n"]


def series(entries, family):
    """{(driver, phase): {"pts": [(x, seconds)], "missing": [(x, seconds lower bound)]}}"""
    phases = DRAG_PHASES if family == "drag" else LAYOUT_PHASES if family.startswith("layout-") else LIN_PHASES
    out = {}
    for e in entries:
        # Shuffled twins (scripts/bench.py --shuffle) go into their family's panel as "DRIVER shuffled".
        if e["family"] == family + "-shuffled":
            driver = e["driver"] + " shuffled"
        elif e["family"] == family:
            driver = e["driver"]
        else:
            continue
        if not xval(e):
            continue
        for ph, div in phases:
            s = out.setdefault((driver, ph), {"pts": [], "missing": []})
            if e["status"] == "ok" and ph in e["phases"]:
                s["pts"].append((xval(e), e["phases"][ph]["min"] / 1e9 / div))
            elif e["status"] == "timeout" and e.get("timeout_s"):
                # The whole run took longer than the timeout. Marked on the phase that dominates such runs
                # (build; drag files: the jumps, per jump), as "more than timeout / frames".
                if ph == ("jump" if family == "drag" else "build"):
                    s["missing"].append((xval(e), e["timeout_s"] / div))
    return {k: v for k, v in out.items() if v["pts"] or v["missing"]}


def ratio_series(entries):
    """{("moa", family): {"pts": [(x, shuffled / in-order build time)]}} from shuffled twins and their files."""
    by = {(e["driver"], e["family"], e["n"]): e for e in entries if e["status"] == "ok"}
    out = {}
    for (drv, fam, n), e in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or 0)):
        if drv != "moa" or not fam.endswith("-shuffled"):
            continue
        base = by.get((drv, fam[:-len("-shuffled")], n))
        if not base or "build" not in base["phases"] or "build" not in e["phases"]:
            continue
        r = e["phases"]["build"]["min"] / base["phases"]["build"]["min"]
        out.setdefault((drv, fam[:-len("-shuffled")]), {"pts": [], "missing": []})["pts"].append((xval(base), r))
    return out


def fmt_time(s):
    for unit, f in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= f * 0.999:
            v = s / f
            return ("%g" % v) + " " + unit
    return "%g s" % s


def fmt_n(n):
    if n >= 1e6:
        return "%gM" % (n / 1e6)
    if n >= 1e3:
        return "%gk" % (n / 1e3)
    return "%g" % n


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def panel(family, ser, ox, oy):
    """SVG elements of one panel at offset (ox, oy)."""
    xs = [x for s in ser.values() for x, _ in s["pts"] + s["missing"]]
    ys = [y for s in ser.values() for _, y in s["pts"] + s["missing"]]
    el = ['<g transform="translate(%d,%d)">' % (ox, oy),
          '<rect x="0" y="0" width="%d" height="%d" fill="white" stroke="#ccc"/>' % (W, H)]
    title = {"drag": "drag (per step / per jump)",
             "shuffled": "Moa build: shuffled / in order (goal <= 2)"}.get(family, family)
    el.append('<text x="%d" y="18" font-size="14" font-weight="bold" text-anchor="middle">%s</text>'
              % (W // 2, esc(title)))
    if not xs:
        el.append('<text x="%d" y="%d" text-anchor="middle" fill="#888">no data</text></g>' % (W // 2, H // 2))
        return el
    # Ranges padded so that no point sits on the frame; ticks at the decades inside.
    x0, x1 = math.log10(min(xs)) - 0.2, math.log10(max(xs)) + 0.2
    y0, y1 = math.log10(min(ys)) - 0.3, math.log10(max(ys)) + 0.4
    if x1 - x0 < 1:
        x0, x1 = (x0 + x1) / 2 - 0.5, (x0 + x1) / 2 + 0.5
    if y1 - y0 < 1:
        y0, y1 = (y0 + y1) / 2 - 0.5, (y0 + y1) / 2 + 0.5
    pw, ph = W - ML - MR, H - MT - MB

    def px(x):
        return ML + (math.log10(x) - x0) / (x1 - x0) * pw

    def py(y):
        return MT + ph - (math.log10(y) - y0) / (y1 - y0) * ph

    # Grid and ticks: every decade, labelled.
    for d in range(math.ceil(x0), math.floor(x1) + 1):
        X = px(10 ** d)
        el.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (X, MT, X, MT + ph))
        el.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>' % (X, MT + ph + 14,
                                                                                       fmt_n(10 ** d)))
    ystep = 1 if y1 - y0 <= 8 else 2
    for d in range(math.ceil(y0), math.floor(y1) + 1, ystep):
        Y = py(10 ** d)
        el.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>' % (ML, Y, ML + pw, Y))
        el.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>' % (
            ML - 4, Y + 4, ("%gx" % 10 ** d) if family == "shuffled" else fmt_time(10 ** d)))
    el.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (ML, MT, pw, ph))
    xlabel = "boxes" if family == "drag" else "views" if family.startswith("layout-") else "constraints (build)"
    el.append('<text x="%d" y="%d" font-size="12" text-anchor="middle">%s</text>' % (ML + pw // 2, H - 8, xlabel))
    el.append('<text transform="translate(14,%d) rotate(-90)" font-size="12" text-anchor="middle">%s</text>'
              % (MT + ph // 2, "ratio" if family == "shuffled" else "time"))
    # Lines and points.
    legend = []
    for (drv, phase), s in sorted(ser.items(), key=lambda kv: (kv[0][0] != "moa", kv[0][1])):
        col = COLORS.get(phase, FAMILY_COLORS.get(phase, "#333"))
        pts = sorted(s["pts"])
        if len(pts) > 1:
            d = " ".join("%s%.1f,%.1f" % ("M" if i == 0 else "L", px(x), py(y)) for i, (x, y) in enumerate(pts))
            el.append('<path d="%s" fill="none" stroke="%s" stroke-width="1.8" stroke-dasharray="%s"/>'
                      % (d, col, DASH.get(drv, "2,2")))
        for x, y in pts:
            if drv == "moa":
                el.append('<circle cx="%.1f" cy="%.1f" r="3.2" fill="%s"><title>%s %s %s: %s</title></circle>'
                          % (px(x), py(y), col, drv, phase, fmt_n(x), fmt_time(y)))
            else:
                el.append('<rect x="%.1f" y="%.1f" width="6" height="6" fill="white" stroke="%s" stroke-width="1.5">'
                          '<title>%s %s %s: %s</title></rect>' % (px(x) - 3, py(y) - 3, col, drv, phase, fmt_n(x),
                                                                  fmt_time(y)))
        for x, y in s["missing"]:
            X, Y = px(x), py(y)
            el.append('<path d="M%.1f,%.1f l-5,8 h10 z" fill="none" stroke="%s" stroke-width="1.5">'
                      '<title>%s %s %s: timed out, &gt; %s</title></path>' % (X, Y - 5, col, drv, phase, fmt_n(x),
                                                                             fmt_time(y)))
            el.append('<text x="%.1f" y="%.1f" font-size="10" fill="%s" text-anchor="middle">&gt; %s</text>'
                      % (X, Y - 8, col, fmt_time(y)))
        legend.append((drv, phase, col))
    # Legend, bottom right inside the plot area (log-log scaling lines rarely go there).
    lx, ly = ML + pw - 124, MT + ph - 14 * len(legend) - 8
    el.append('<rect x="%d" y="%d" width="120" height="%d" fill="white" fill-opacity="0.85" stroke="#ddd"/>'
              % (lx - 4, ly - 2, 14 * len(legend) + 4))
    for i, (drv, phase, col) in enumerate(legend):
        y = ly + 8 + 14 * i
        el.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.8" stroke-dasharray="%s"/>'
                  % (lx, y, lx + 22, y, col, DASH.get(drv, "2,2")))
        el.append('<text x="%d" y="%d" font-size="11">%s %s</text>' % (lx + 28, y + 4, drv, phase))
    el.append("</g>")
    return el


def svg(elements, w, h):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif">\n%s\n</svg>\n' % (w, h, w, h, "\n".join(elements)))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--outdir", default="build/bench")
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args(argv)
    entries, files = load(a.inputs)
    os.makedirs(a.outdir, exist_ok=True)
    fams = LIN_FAMILIES + LAYOUT_FAMILIES
    panels = []
    for fam in fams:
        ser = series(entries, fam)
        if not ser:
            continue
        el = panel(fam, ser, 0, 0)
        path = os.path.join(a.outdir, fam + ".svg")
        with open(path, "w") as f:
            f.write(svg(el, W, H))
        panels.append((fam, ser))
        print("wrote %s (%d series)" % (path, len(ser)))
    ratios = ratio_series(entries)
    if ratios:
        el = panel("shuffled", ratios, 0, 0)
        path = os.path.join(a.outdir, "shuffled.svg")
        with open(path, "w") as f:
            f.write(svg(el, W, H))
        panels.append(("shuffled", ratios))
        print("wrote %s (%d series)" % (path, len(ratios)))
    cols = 3
    rows = (len(panels) + cols - 1) // cols
    el = ['<text x="10" y="20" font-size="15" font-weight="bold">Moa (solid, dots) and kiwi (dashed, squares): '
          'time against size, log-log</text>',
          '<text x="10" y="38" font-size="11" fill="#555">%s</text>' % esc(", ".join(files))]
    for i, (fam, ser) in enumerate(panels):
        el += panel(fam, ser, (i % cols) * (W + 10) + 10, (i // cols) * (H + 10) + 50)
    path = os.path.join(a.outdir, "scaling.svg")
    with open(path, "w") as f:
        f.write(svg(el, cols * (W + 10) + 10, rows * (H + 10) + 60))
    print("wrote %s (%d panels)" % (path, len(panels)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
