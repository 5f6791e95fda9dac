#!/usr/bin/env python3
"""Checks an inspector page (`Layout.html`, Sources/MoaLayout/Inspector/InspectorPage.swift) in headless Chromium.

    scripts/test-inspector.py PAGE.html [--view NAME] [--screenshot OUT.png]

Drives Debian's `chromium` through Selenium (`python3-selenium`, `chromium-driver`): opens the page from file://,
fails on any console error or warning, checks that the drawing has a `g[data-view]` per view of the embedded data,
hovers a view (--view, default the first non-root view with a constraint) and checks the details panel lists its
constraints, clicks the first of them and checks its views are highlighted, and, when the page has a trace of two
snapshots or more, pins a view that moves, moves the slider and checks the label, the drawing and the panel follow.
Prints one summary line and exits 0, or prints what failed and exits 1.
"""

import argparse
import os
import sys
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    # Debian's python3-selenium lives in the system Python; another `python3` (pyenv, venv) may come first on PATH.
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    sys.exit("test-inspector: needs selenium (apt-get install python3-selenium chromium-driver)")


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


# A point (viewport pixels) inside the view's rect where that view is the topmost thing under the mouse, or null.
POINT_IN_VIEW = """
const g = [...document.querySelectorAll('#canvas g[data-view]')].find(g => g.dataset.view === arguments[0]);
if (!g) return null;
const rect = g.querySelector('rect');
rect.scrollIntoView({block: 'center', inline: 'center'});
const b = rect.getBoundingClientRect(), n = 12, points = [[b.left + b.width / 2, b.top + b.height / 2]];
for (let i = 0; i < n * n; i++) {
  points.push([b.left + (i % n + 0.5) / n * b.width, b.top + (Math.floor(i / n) + 0.5) / n * b.height]);
}
// A guide has no fill: only its outline takes the mouse.
for (let i = 1; i < n; i++) for (const d of [-1, 0, 1]) {
  const x = b.left + i / n * b.width, y = b.top + i / n * b.height;
  points.push([x, b.top + d], [x, b.bottom + d], [b.left + d, y], [b.right + d, y]);
}
for (const [px, py] of points) {
  const x = Math.round(px), y = Math.round(py);
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
  const hit = document.elementFromPoint(x, y);
  if (hit && hit.closest('g[data-view]') === g) return [x, y];
}
return null;
"""

DISPATCH = """
const g = [...document.querySelectorAll('#canvas g[data-view]')].find(g => g.dataset.view === arguments[0]);
g.querySelector('rect').dispatchEvent(new MouseEvent(arguments[1], {bubbles: true}));
"""

TEXT = "return document.getElementById(arguments[0]).textContent"

VIEW_STATE = """
const g = [...document.querySelectorAll('#canvas g[data-view]')].find(g => g.dataset.view === arguments[0]);
const r = g.querySelector('rect');
return [g.getAttribute('transform'), r.getAttribute('width'), r.getAttribute('height'), g.getAttribute('class')];
"""


class Page:
    def __init__(self, driver):
        self.d = driver
        self.logs = []
        self.real_mouse = True

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def text(self, element_id):
        return self.js(TEXT, element_id)

    def drain_logs(self):
        self.logs += self.d.get_log("browser")

    def pointer(self, name, click=False):
        """Moves the real mouse over the view (and clicks); falls back to dispatched events when it is covered."""
        xy = self.js(POINT_IN_VIEW, name)
        if xy:
            ab = ActionBuilder(self.d)
            ab.pointer_action.move_to_location(int(xy[0]), int(xy[1]))
            if click:
                ab.pointer_action.click()
            ab.perform()
        else:
            self.real_mouse = False
            self.js(DISPATCH, name, "mouseover")
            if click:
                self.js(DISPATCH, name, "click")

    def wait_for(self, cond, what, timeout=3.0):
        end = time.time() + timeout
        while time.time() < end:
            if cond():
                return
            time.sleep(0.05)
        raise Failure(what)


def run(args):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        # --window-size counts the window's frame: make the page itself 1280 x 900.
        w, h = driver.execute_script("return [innerWidth, innerHeight]")
        if (w, h) != (1280, 900):
            driver.set_window_size(2 * 1280 - w, 2 * 900 - h)
        page = Page(driver)
        try:
            return inspect(page, args)
        except Failure as e:
            # A script error usually explains a failed check: say it too.
            page.drain_logs()
            raise Failure("; ".join([str(e)] + console_problems(page))) from None
    finally:
        driver.quit()


def console_problems(p):
    return [f"console {e['level']}: {e['message']}" for e in p.logs if e.get("level") in ("SEVERE", "WARNING")][:5]


def inspect(p, args):
    url = "file://" + os.path.abspath(args.page)
    t0 = time.time()
    p.d.get(url)
    load = time.time() - t0
    data = p.js("return JSON.parse(document.getElementById('moa-data').textContent)")
    views, constraints, trace = data["views"], data["constraints"], data.get("trace") or []
    by_id = {c["id"]: c for c in constraints}

    # One group per view (and per view only the trace knows), no duplicates.
    drawn = p.js("return [...document.querySelectorAll('#canvas g[data-view]')].map(g => g.dataset.view)")
    names = [v["name"] for v in views]
    trace_names = {f["name"] for s in trace for f in s["frames"]}
    check(len(drawn) == len(set(drawn)), "a view is drawn twice")
    missing = set(names) - set(drawn)
    check(not missing, f"views not drawn: {sorted(missing)[:10]}")
    check(set(drawn) == set(names) | trace_names, "the drawing has views the data does not have")

    # Hover a view: the panel shows it and every constraint that touches it.
    name = args.view
    if name is None:
        name = next((v["name"] for v in views if v["kind"] != "root" and v["constraints"]), None)
    if name is None and views:
        name = views[-1]["name"]
    if name is not None:
        view = next((v for v in views if v["name"] == name), None)
        check(view is not None, f"no view named {name!r}")
        p.pointer(name)
        p.wait_for(lambda: name in p.text("details"), f"hovering {name!r}: #details does not show its name")
        details = p.text("details")
        for cid in view["constraints"]:
            check(cid in by_id, f"view {name!r} names constraint {cid}, which the data does not have")
            eq = by_id[cid]["equation"]
            check(eq in details, f"hovering {name!r}: #details lacks constraint {cid} `{eq}`")

        # Click the first constraint in the panel: its views are highlighted; clicking again clears.
        items = p.d.find_elements(By.CSS_SELECTOR, "#details li.constraint")
        if view["constraints"]:
            check(items, f"#details has no li.constraint for {name!r}")
            item = items[0]
            c = by_id[int(item.get_attribute("data-id"))]
            item.click()
            classes = p.js("""return Object.fromEntries([...document.querySelectorAll('#canvas g[data-view]')]
                              .map(g => [g.dataset.view, g.getAttribute('class') || '']))""")
            for v in c["views"]:
                check("highlight" in classes.get(v, "").split(), f"constraint {c['id']}: view {v!r} not highlighted")
            check("selected" in item.get_attribute("class").split(), "the clicked constraint is not marked selected")
            item.click()
            check(not p.js("return document.querySelectorAll('#canvas g.highlight').length"),
                  "a second click does not clear the highlight")
    p.drain_logs()

    if len(trace) >= 2:
        check_timeline(p, views, trace)
    else:
        check(not p.d.find_elements(By.ID, "timeline"), "a timeline without a trace")
        check("no recorded motion" in p.text("stage"), "no trace, and no 'no recorded motion'")

    if args.screenshot:
        p.d.save_screenshot(args.screenshot)
    p.drain_logs()
    check(not console_problems(p), "the console is not clean")
    how = "" if p.real_mouse else " (some hovers dispatched)"
    print(f"inspector: {args.page} ok: {len(views)} views, {len(constraints)} constraints, "
          f"trace {len(trace)} snapshots; loaded in {load:.2f} s{how}")
    return 0


def check_timeline(p, views, trace):
    # The snapshot farthest from the first (a scene may end where it began), and a view that moves between them.
    first = {f["name"]: f["rootFrame"] for f in trace[0]["frames"]}
    live = {v["name"] for v in views}

    def moved(k):
        frames = {f["name"]: f["rootFrame"] for f in trace[k]["frames"]}
        return {n: sum(abs((a or 0) - (b or 0)) for a, b in zip(first[n], frames[n]))
                for n in first if n in frames and first[n] != frames[n]}

    far = max(range(1, len(trace)), key=lambda k: sum(moved(k).values()))
    movers = moved(far)
    check(movers, "the trace has two snapshots or more but no view moves in it")
    name = max(movers, key=lambda n: (n in live, movers[n]))

    # Pin the mover (at "now" when it is live, else at the far snapshot) so the panel follows it.
    slider = p.d.find_element(By.ID, "timeline")
    check(slider.get_attribute("max") == str(len(trace)), "the slider does not end at 'now' (index = trace length)")
    check(p.text("time-label") == "now", "the page does not open at 'now'")
    if name not in live:
        set_slider(p, far)
    p.pointer(name, click=True)
    p.wait_for(lambda: name in p.text("details") and "pinned" in p.text("details"),
               f"clicking {name!r} does not pin it")

    set_slider(p, 0)
    before = (p.text("time-label"), p.js(VIEW_STATE, name), p.text("details"))
    check(name in before[2], f"at snapshot 0 the panel no longer shows {name!r}")
    set_slider(p, far)
    after = (p.text("time-label"), p.js(VIEW_STATE, name), p.text("details"))
    check(before[0] != after[0], f"time-label did not change ({before[0]!r})")
    check(after[0] == f"{trace[far]['time']:.3f} s", f"time-label {after[0]!r}, expected {trace[far]['time']:.3f} s")
    check(before[1][:3] != after[1][:3], f"{name!r} was not redrawn: {before[1]} then {after[1]}")
    check(before[2] != after[2], "the details panel did not follow the slider")
    set_slider(p, len(trace) - 1)

    # The keyboard moves the slider too, and play runs to the last snapshot.
    slider.send_keys(Keys.ARROW_RIGHT)
    check(p.text("time-label") == "now", "ArrowRight from the last snapshot does not reach 'now'")
    p.d.find_element(By.ID, "play").click()
    duration = trace[-1]["time"] - trace[0]["time"]
    p.wait_for(lambda: p.text("time-label") == f"{trace[-1]['time']:.3f} s" and "play" in p.text("play"),
               "play does not end at the last snapshot", timeout=duration + 3)
    ActionChains(p.d).send_keys(Keys.ESCAPE).perform()
    check("pinned" not in p.text("details"), "Escape does not unpin")


def set_slider(p, index):
    p.js("""const r = document.getElementById('timeline'); r.value = arguments[0];
            r.dispatchEvent(new Event('input', {bubbles: true}));""", index)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("page")
    ap.add_argument("--view", help="the view to hover (default: the first non-root view with a constraint)")
    ap.add_argument("--screenshot", metavar="OUT.png")
    args = ap.parse_args()
    try:
        return run(args)
    except Failure as e:
        print(f"inspector: {args.page} FAILED: {e}")
        return 1
    except Exception as e:   # a WebDriver error (no such element, timeout, a crashed page): a failure too
        first = (str(e).strip().splitlines() or [""])[0]
        print(f"inspector: {args.page} FAILED: {type(e).__name__}: {first}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
