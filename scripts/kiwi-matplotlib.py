#!/usr/bin/env python3
"""Lay out matplotlib constrained_layout figures with kiwisolver and with moa.kiwi, and compare every axes.

    python3 scripts/kiwi-matplotlib.py [--tol 1e-6] [--mode levels|weighted] [--venv build/venv-mpl] [--json]

Creates (or reuses) a venv at build/venv-mpl with matplotlib and kiwisolver from PyPI, then runs this same
script twice in that venv as a worker, in separate processes so the two solvers never share one:

- ``--worker kiwi``: matplotlib as shipped, on the real kiwisolver;
- ``--worker moa``: ``moa.kiwi.install()`` (sys.modules["kiwisolver"] = moa.kiwi) before matplotlib is imported,
  with bindings/python on PYTHONPATH and MOA_LIBRARY pointing at build/lib/libmoa.so.

Each worker draws the same figures (Agg, no rendering) and prints every axes' ``get_position().bounds`` (figure
fractions), including colorbars and the axes of subfigures. The parent prints the largest difference per figure
and overall and exits 1 if it is above the tolerance. The draw columns time the first layout pass of each figure
(draw_without_rendering: text extents, tight bboxes and the solver together), for orientation only.

Tolerance: 1e-6 of the figure (default). constrained_layout only uses required constraints and "strong" ones
(edit variables for the margins, equal-ratio widths and heights, cell adjacency), which moa.kiwi maps onto ONE
Moa priority with weight 1, i.e. the very objective kiwisolver minimises; where that optimum is unique both
solvers land on the same vertex and positions agree to floating-point noise (~1e-12 measured). 1e-6 of a
figure is 0.01 px even for a 10-inch figure at 1000 dpi, so anything above it is a real difference in the
layout, not rounding. Exit status: 0 within tolerance, 1 above it, 2 if a worker failed.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINDINGS = os.path.join(ROOT, "bindings", "python")
LIBRARY = os.environ.get("MOA_LIBRARY") or os.path.join(ROOT, "build", "lib", "libmoa.so")


# ---------------------------------------------------------------------------------------------- worker


def worker(which, mode):
    caught = []
    if which == "moa":
        import warnings
        import moa.kiwi
        moa.kiwi.install()
        moa.kiwi.strength_mode = mode
        warnings.simplefilter("always")
        orig = warnings.showwarning
        warnings.showwarning = lambda m, c, *a, **k: (caught.append("%s: %s" % (c.__name__, m)), orig(m, c, *a, **k))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import kiwisolver
    assert (which == "moa") == hasattr(kiwisolver, "__moa_version__"), "wrong kiwisolver in the %s run" % which

    rng = np.random.default_rng(12345)
    data = rng.random((20, 30))

    def grid2x2(size, dpi=100):
        fig, axs = plt.subplots(2, 2, layout="constrained", figsize=size, dpi=dpi)
        for i, ax in enumerate(axs.flat):
            im = ax.pcolormesh(data * (i + 1))
            ax.set_title("Title %d" % i + (" with a longer text" if i == 1 else ""))
            ax.set_xlabel("x label %d" % i)
            ax.set_ylabel("y label" if i % 2 == 0 else "a much longer y label %d" % i)
            if i != 2:
                fig.colorbar(im, ax=ax, location="right" if i != 3 else "bottom", shrink=0.8)
        return fig

    def subfigures():
        fig = plt.figure(layout="constrained", figsize=(10, 5))
        left, right = fig.subfigures(1, 2, wspace=0.07, width_ratios=[2, 1])
        axs = left.subplots(2, 2)
        for i, ax in enumerate(axs.flat):
            pc = ax.pcolormesh(data, vmin=0, vmax=1)
            ax.set_title("left %d" % i)
        left.colorbar(pc, ax=axs, location="bottom", shrink=0.6)
        left.suptitle("Left subfigure")
        left.set_facecolor("0.9")
        top, bottom = right.subfigures(2, 1, height_ratios=[1, 2])  # nested
        ax = top.subplots()
        ax.plot(np.arange(10))
        ax.set_ylabel("nested top")
        top.suptitle("Nested top")
        axs = bottom.subplots(3, 1, sharex=True)
        for i, ax in enumerate(axs):
            ax.plot(np.sin(np.linspace(0, 6, 50) * (i + 1)))
            ax.set_ylabel("row %d" % i)
        bottom.supxlabel("time (s)")
        fig.suptitle("Figure with nested subfigures", fontsize="x-large")
        return fig

    def mosaic():
        fig, axd = plt.subplot_mosaic([["A", "A", "B"], ["C", "D", "B"], ["E", "E", "E"]], layout="constrained",
                                      figsize=(8, 6), width_ratios=[1, 2, 1], height_ratios=[2, 1, 1])
        for k, ax in axd.items():
            ax.set_title("axes " + k)
            ax.set_xlabel("x of " + k)
        axd["B"].set_ylabel("spanning two rows")
        im = axd["D"].imshow(data)
        fig.colorbar(im, ax=[axd["C"], axd["D"]], location="left")
        axd["E"].plot(np.arange(100) ** 2)
        axd["E"].set_ylabel("big ticks")
        return fig

    def suptitle_legend():
        fig, axs = plt.subplots(1, 3, layout="constrained", figsize=(9, 3.5), sharey=True)
        x = np.linspace(0, 2 * np.pi, 64)
        for i, ax in enumerate(axs):
            for k in range(3):
                ax.plot(x, np.sin(x * (k + 1) + i), label="harmonic %d" % (k + 1))
            ax.set_title("phase %d" % i)
        axs[0].legend(loc="lower left", fontsize="small")
        fig.legend(*axs[1].get_legend_handles_labels(), loc="outside right upper")
        fig.suptitle("A suptitle over three axes with a figure legend outside")
        fig.supxlabel("angle (rad)")
        fig.supylabel("amplitude")
        return fig

    def gridspec_pads():
        fig = plt.figure(layout="constrained", figsize=(7, 7))
        gs = fig.add_gridspec(3, 3, width_ratios=[3, 1, 1], height_ratios=[1, 1, 3])
        ax0 = fig.add_subplot(gs[0, :])
        ax1 = fig.add_subplot(gs[1:, 0])
        ax2 = fig.add_subplot(gs[1, 1:])
        ax3 = fig.add_subplot(gs[2, 1])
        ax4 = fig.add_subplot(gs[2, 2])
        for i, ax in enumerate((ax0, ax1, ax2, ax3, ax4)):
            ax.set_title("gs %d" % i)
        fig.colorbar(ax1.imshow(data.T), ax=ax1)
        fig.get_layout_engine().set(w_pad=0.1, h_pad=0.08, hspace=0.05, wspace=0.1)
        return fig

    figures = [
        ("grid2x2 6x5", lambda: grid2x2((6, 5))),
        ("grid2x2 3x2.5", lambda: grid2x2((3, 2.5))),
        ("grid2x2 12x4 dpi150", lambda: grid2x2((12, 4), 150)),
        ("grid2x2 4x9", lambda: grid2x2((4, 9))),
        ("subfigures nested", subfigures),
        ("mosaic spanning", mosaic),
        ("suptitle legend", suptitle_legend),
        ("gridspec pads", gridspec_pads),
    ]

    def all_axes(fig):
        out = list(fig.axes)
        for sf in fig.subfigs:
            out += all_axes(sf)
        return out

    result = {"kiwisolver": getattr(kiwisolver, "__version__", "?"), "matplotlib": matplotlib.__version__,
              "figures": {}, "warnings": caught}
    for name, make in figures:
        fig = make()
        t0 = time.perf_counter()
        fig.draw_without_rendering()
        dt = time.perf_counter() - t0
        # Draw a second time: matplotlib keeps the solver and edits the margins again.
        fig.draw_without_rendering()
        axes = []
        for ax in all_axes(fig):
            label = ax.get_label() or ax.get_title() or type(ax).__name__
            axes.append([label, list(ax.get_position().bounds)])
        result["figures"][name] = {"axes": axes, "seconds": dt}
        plt.close(fig)
    json.dump(result, sys.stdout)


# ---------------------------------------------------------------------------------------------- driver


def venv_python(venv):
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        print("creating %s" % venv, file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    if subprocess.call([py, "-c", "import matplotlib, kiwisolver, numpy"], stderr=subprocess.DEVNULL) != 0:
        print("installing matplotlib and kiwisolver into %s" % venv, file=sys.stderr)
        subprocess.check_call([py, "-m", "pip", "install", "-q", "matplotlib", "kiwisolver"])
    return py


def run(py, which, mode):
    env = dict(os.environ)
    env["MPLBACKEND"] = "Agg"
    env["MPLCONFIGDIR"] = os.path.join(ROOT, "build", "mplconfig")  # no writes to the home directory
    if which == "moa":
        env["PYTHONPATH"] = BINDINGS + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["MOA_LIBRARY"] = LIBRARY
    p = subprocess.run([py, os.path.abspath(__file__), "--worker", which, "--mode", mode], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("kiwi-matplotlib: the %s worker failed (exit %d)" % (which, p.returncode))
    if p.stderr.strip():
        sys.stderr.write("[%s worker stderr]\n%s\n" % (which, p.stderr.strip()))
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", choices=("kiwi", "moa"), help=argparse.SUPPRESS)
    ap.add_argument("--tol", type=float, default=1e-6, help="largest allowed difference, in figure fractions")
    ap.add_argument("--venv", default=os.path.join(ROOT, "build", "venv-mpl"))
    ap.add_argument("--mode", choices=("levels", "weighted"), default="levels",
                    help="moa.kiwi.strength_mode for the moa run (default levels)")
    ap.add_argument("--json", action="store_true", help="also print both runs' positions as JSON")
    a = ap.parse_args()
    if a.worker:
        worker(a.worker, a.mode)
        return 0
    if not os.path.exists(LIBRARY):
        raise SystemExit("kiwi-matplotlib: %s is missing (build libmoa first)" % LIBRARY)
    py = venv_python(a.venv)
    try:
        ref = run(py, "kiwi", a.mode)
        got = run(py, "moa", a.mode)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    print("matplotlib %s; kiwisolver %s vs moa.kiwi %s (strength mode %s); tolerance %g of the figure"
          % (ref["matplotlib"], ref["kiwisolver"], got["kiwisolver"], a.mode, a.tol))
    print("%-22s %5s %12s %13s %13s" % ("figure", "axes", "max |diff|", "kiwi draw ms", "moa draw ms"))
    overall = 0.0
    bad = []
    for name, r in ref["figures"].items():
        g = got["figures"].get(name)
        if g is None or len(g["axes"]) != len(r["axes"]):
            bad.append("%s: different axes (%s vs %s)" % (name, len(r["axes"]), g and len(g["axes"])))
            continue
        worst = 0.0
        for (lr, br), (lg, bg) in zip(r["axes"], g["axes"]):
            if lr != lg:
                bad.append("%s: axes %r vs %r" % (name, lr, lg))
            worst = max(worst, max(abs(x - y) for x, y in zip(br, bg)))
        overall = max(overall, worst)
        print("%-22s %5d %12.3g %13.1f %13.1f" % (name, len(r["axes"]), worst, r["seconds"] * 1e3,
                                                  g["seconds"] * 1e3))
        if worst > a.tol:
            bad.append("%s: largest difference %.3g > %g" % (name, worst, a.tol))
    print("overall largest difference: %.3g (figure fraction)" % overall)
    if got["warnings"]:
        print("moa.kiwi warnings: %d (first: %s)" % (len(got["warnings"]), got["warnings"][0]))
    else:
        print("moa.kiwi warnings: none")
    if a.json:
        print(json.dumps({"kiwisolver": ref, "moa": got}))
    for b in bad:
        print("FAIL " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
