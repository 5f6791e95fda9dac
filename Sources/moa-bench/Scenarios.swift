// moa-bench --scenario: layouts built from equation text through MoaLayout (the path users take), timed per step.
//
//     moa-bench --scenario NAME --views N [-r REPS] [-d] [--lin FILE] [--no-remove]
//                                                              NAME: chain, grid, nested, labels, wrapping
//
// Each replay makes a fresh Layout and times, like the .lin driver's phases (output in its format, so
// ../shared/bench/bench.py's `run_once` reads it):
//
//     views   addView for every view (and, for labels, setIntrinsicSize and baseline offsets); the maker writes the
//             equation text as it goes, and that time is left out
//     parse   the whole equation text through `eqs` with a bad last line: eqs parses and resolves every line
//             before it applies any, so it throws having added nothing (MoaLayout has no public parse-only call)
//     build   `eqs` on the text: parse + resolve again, then add every constraint (add alone ~ build - parse)
//     solve   the first `solve()`: read every variable and compute every frame
//     edit    root resize (both constants change in place), then `solve()`
//     height  (wrapping only) a root resize that changes only the height, then `solve()`
//     ambig   `ambiguities()` (a warning when the layout has any: every scenario is fully determined)
//     violated `violatedConstraints()`
//     leaf    `removeView` of one leaf (the middle view without subviews in creation order), then `solve()`
//     remove  `removeView` of the top container (its subtree and every constraint mentioning it), then `solve()`
//             (leaf and remove are left out with --no-remove)
//
//     solver moa VERSION
//     file scenario:NAME views=V constraints=C lines=L
//     u K n=4(V+1) sum=S hash=H    K = 0 after the first solve, 1 after the edit (checksum of all frames)
//     warning: checkpoint K: B required constraints broken, worst ...   (a wrong answer; checked untimed)
//     phase NAME ns=T ops=M u=U rep=R
//     measure NAME calls=C hits=H views=V    after a solving phase of a layout with measured content: measure
//             calls and cache hits in it, out of V measured views (from replay 0)
//     total ns=T rep=R
//     d K VIEW X Y WIDTH HEIGHT    with -d: every frame (root space) at checkpoint K, from replay 0
//
// Checksums use FORMAT.md's rule over (x, y, width, height) in root space of the root and every view in creation order, so two
// builds of Moa can be compared. Every layout is built so that its optimum is unique (distinct priorities where
// preferences compete, slack given to one designated lowest-priority constraint), so a different pivot order
// must give the same checksum. Scales are linear: the equation count grows with the view count.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MoaLayout
import MoaSolver

/// The equation text a maker writes while it adds views. Writing it is the benchmark's work, not the layout's:
/// the time spent here (the line included, made inside `add`) is left out of the `views` phase.
struct ScenarioText {
    var text = ""
    var lines = 0
    var ns: UInt64 = 0
    mutating func add(_ s: @autoclosure () -> String) {
        let t0 = nowNS()
        text += s()
        text += "\n"
        lines += 1
        ns &+= nowNS() &- t0
    }
}

/// A scenario: views made (untimed setup excluded), the equation text, and the sizes before and after the edit.
struct Scenario {
    var top: View                // removed in the `remove` phase
    var eqs: ScenarioText
    var size0: (Double, Double)  // root size while building
    var size1: (Double, Double)  // root size after the edit
}

/// Preferred widths cycle through a few values so rows are not uniform (deterministic: no RNG).
@inline(__always) func pref(_ i: Int, _ base: Int, _ spread: Int) -> Int { base + (i &* 37) % spread }

// MARK: - chain: one row of N-1 cells in a container filling the root

/// `c_i.left == c_{i-1}.right + 8`; every width prefers its size @250, at least 20; one middle cell prefers 60 @200
/// and takes the resize (the only lowest-priority preference: unique). Heights follow the root (every cell moves
/// in the edit).
func makeChain(_ layout: Layout, _ n: Int) throws(LayoutError) -> Scenario {
    let cells = max(2, n - 1)
    let row = try layout.addView("row")
    for i in 0 ..< cells { try layout.addView("c\(i)", in: row) }
    var t = ScenarioText()
    t.add("row.left == 0")
    t.add("row.right == 0")
    t.add("row.top == 0")
    t.add("row.bottom == 0")
    let flex = cells / 2
    var natural = 8
    for i in 0 ..< cells {
        t.add(i == 0 ? "c0.left == row.left + 8" : "c\(i).left == c\(i - 1).right + 8")
        t.add("c\(i).top == row.top + 4")
        t.add("c\(i).bottom == row.bottom - 4")
        t.add("c\(i).width >= 20")
        if i == flex {
            t.add("c\(i).width == 60 @ 200")
            natural += 60 + 8
        } else {
            let w = pref(i, 40, 61)
            t.add("c\(i).width == \(w) @ low")
            natural += w + 8
        }
    }
    t.add("row.right == c\(cells - 1).right + 8")
    return Scenario(top: row, eqs: t, size0: (Double(natural), 600), size1: (Double(natural + 37), 500))
}

// MARK: - grid: R x C cells, lefts/tops chained, equal widths per column and heights per row

/// Column heads prefer a width @250, row heads a height @250; the last column and the last row prefer theirs @200
/// and absorb the container's size (pinned to the root), so the resize has one optimum.
func makeGrid(_ layout: Layout, _ n: Int) throws(LayoutError) -> Scenario {
    let side = max(2, Int(Double(max(1, n - 1)).squareRoot().rounded()))
    let grid = try layout.addView("grid")
    for r in 0 ..< side { for c in 0 ..< side { try layout.addView("g\(r)_\(c)", in: grid) } }
    var t = ScenarioText()
    t.add("grid.left == 0")
    t.add("grid.right == 0")
    t.add("grid.top == 0")
    t.add("grid.bottom == 0")
    var width = 8, height = 8
    for r in 0 ..< side {
        for c in 0 ..< side {
            let v = "g\(r)_\(c)"
            t.add(c == 0 ? "\(v).left == grid.left + 8" : "\(v).left == g\(r)_\(c - 1).right + 4")
            t.add(r == 0 ? "\(v).top == grid.top + 8" : "\(v).top == g\(r - 1)_\(c).bottom + 4")
            if r > 0 { t.add("\(v).width == g0_\(c).width") }
            if c > 0 { t.add("\(v).height == g\(r)_0.height") }
        }
    }
    for c in 0 ..< side {
        let w = c == side - 1 ? 50 : pref(c, 30, 41)
        t.add("g0_\(c).width >= 10")
        t.add("g0_\(c).width == \(w) @ \(c == side - 1 ? 200 : 250)")
        width += w + 4
    }
    for r in 0 ..< side {
        let h = r == side - 1 ? 30 : pref(r, 18, 13)
        t.add("g\(r)_0.height >= 10")
        t.add("g\(r)_0.height == \(h) @ \(r == side - 1 ? 200 : 250)")
        height += h + 4
    }
    t.add("grid.right == g0_\(side - 1).right + 8")
    t.add("grid.bottom == g\(side - 1)_0.bottom + 8")
    width += 4; height += 4  // the last gap is 8, not 4
    return Scenario(top: grid, eqs: t, size0: (Double(width), Double(height)),
                    size1: (Double(width + 37), Double(height + 23)))
}

// MARK: - nested: enaml-like forms (label + field rows) inside padded boxes, 3 per section, sections stacked

/// window (scroll content: at least the root's height) > sections stacked > 3 equal-width forms with padding >
/// 4 rows of label + field. Field widths follow the window width, so the resize moves every field.
func makeNested(_ layout: Layout, _ n: Int) throws(LayoutError) -> Scenario {
    let rowsPerForm = 4, formsPerSection = 3
    let perSection = 1 + formsPerSection * (1 + 2 * rowsPerForm)
    let sections = max(1, (n - 1) / perSection)
    let window = try layout.addView("window")
    var t = ScenarioText()
    t.add("window.left == 0")
    t.add("window.right == 0")
    t.add("window.top == 0")
    t.add("window.bottom == 0 @ low")  // fills the root unless the content is taller (then it grows: scrolling)
    for s in 0 ..< sections {
        let sec = "s\(s)"
        let secView = try layout.addView(sec, in: window)
        t.add("\(sec).left == window.left + 10")
        t.add("\(sec).right == window.right - 10")
        t.add(s == 0 ? "\(sec).top == window.top + 10" : "\(sec).top == s\(s - 1).bottom + 10")
        for f in 0 ..< formsPerSection {
            let form = "\(sec)f\(f)"
            let formView = try layout.addView(form, in: secView)
            t.add("\(form).top == \(sec).top + 10")
            t.add(f == 0 ? "\(form).left == \(sec).left + 10" : "\(form).left == \(sec)f\(f - 1).right + 10")
            if f > 0 { t.add("\(form).width == \(sec)f0.width") }
            if f == formsPerSection - 1 { t.add("\(form).right == \(sec).right - 10") }
            for r in 0 ..< rowsPerForm {
                let label = "\(form)l\(r)", field = "\(form)e\(r)"
                try layout.addView(label, in: formView)
                try layout.addView(field, in: formView)
                t.add("\(label).left == \(form).left + 10")
                t.add(r == 0 ? "\(label).top == \(form).top + 10" : "\(label).top == \(form)e\(r - 1).bottom + 6")
                t.add("\(label).width == \(pref(r, 64, 33))")
                t.add("\(label).height == 20")
                t.add("\(field).left == \(label).right + 8")
                t.add("\(field).right == \(form).right - 10")
                t.add("\(field).centerY == \(label).centerY")
                t.add("\(field).height == 24")
                t.add("\(field).width >= 40")
            }
            t.add("\(form).bottom == \(form)e\(rowsPerForm - 1).bottom + 10")
        }
        t.add("\(sec).bottom == \(sec)f0.bottom + 10")
    }
    t.add("window.bottom >= s\(sections - 1).bottom + 10")
    return Scenario(top: window, eqs: t, size0: (1020, 768), size1: (900, 700))  // (W - 60) / 3 forms: whole pixels
}

// MARK: - labels: a sidebar column of labels beside rows of labels, intrinsic sizes, hugging and compression

/// Sidebar (200 wide): a column of labels, each at most the column's width (long ones compress). Content: rows of
/// 8 labels chained left to right, top-aligned; each row starts below the tallest label of the row above (`>=`
/// every one, pulled up @100). Compression resistance differs per position in a row (700 + 5j), so when the
/// resize makes a row too narrow the least resistant label gives first, down to 12: one optimum.
func makeLabels(_ layout: Layout, _ n: Int) throws(LayoutError) -> Scenario {
    let perRow = 8
    let total = max(perRow + 1, n - 3)
    let column = max(1, total / 5)
    let rows = max(1, (total - column) / perRow)
    let screen = try layout.addView("screen")
    let sidebar = try layout.addView("sidebar", in: screen)
    let content = try layout.addView("content", in: screen)
    var t = ScenarioText()
    t.add("screen.left == 0")
    t.add("screen.right == 0")
    t.add("screen.top == 0")
    t.add("screen.bottom == 0")
    t.add("sidebar.left == screen.left")
    t.add("sidebar.top == screen.top")
    t.add("sidebar.bottom == screen.bottom")
    t.add("sidebar.width == 200")
    t.add("content.left == sidebar.right")
    t.add("content.right == screen.right")
    t.add("content.top == screen.top")
    t.add("content.bottom == screen.bottom")
    for i in 0 ..< column {
        let l = "sl\(i)"
        let v = try layout.addView(l, in: sidebar)
        try v.setIntrinsicSize(width: Double(pref(i, 60, 191)), height: Double(pref(i, 16, 9)))
        try v.setBaselineOffset(12)
        t.add("\(l).left == sidebar.left + 8")
        t.add("\(l).right <= sidebar.right - 8")
        t.add(i == 0 ? "\(l).top == sidebar.top + 8" : "\(l).top == sl\(i - 1).bottom + 2")
    }
    for r in 0 ..< rows {
        for j in 0 ..< perRow {
            let l = "r\(r)_\(j)"
            let v = try layout.addView(l, in: content)
            let k = r * perRow + j
            try v.setIntrinsicSize(width: Double(pref(k, 30, 91)), height: Double(pref(k, 16, 9)))
            t.add("\(l).resistH == \(700 + 5 * j)")
            t.add("\(l).width >= 12")
            t.add(j == 0 ? "\(l).left == content.left + 8" : "\(l).left == r\(r)_\(j - 1).right + 6")
            if j > 0 { t.add("\(l).top == r\(r)_0.top") }
            if r == 0 {
                if j == 0 { t.add("\(l).top == content.top + 8") }
            } else {
                if j == 0 { t.add("\(l).top == r\(r - 1)_0.top @ 100") }
                t.add("r\(r)_0.top >= r\(r - 1)_\(j).bottom + 4")
            }
        }
        t.add("content.right >= r\(r)_\(perRow - 1).right + 8")
    }
    // 8 labels average ~75 px + gaps: ~660 px of content at 1024 - 200; at 700 - 200 most rows compress.
    return Scenario(top: screen, eqs: t, size0: (1024, 768), size1: (700, 768))
}

// MARK: - wrapping: a column of wrapping text (a chat transcript), measured with the built-in text measurer

/// A column as wide as the root; in it, labels with text of 3 to 60 words, each from 12 points off the left
/// edge to at most 12 points off the right one (short texts hug their natural width, long ones wrap), stacked
/// 6 points apart. The edit rotates the screen (390 x 844 -> 844 x 390): the labels that wrap get a new width
/// and are measured again; the short ones keep theirs and are not.
func makeWrapping(_ layout: Layout, _ n: Int) throws(LayoutError) -> Scenario {
    let words = ["moa", "lays", "out", "text", "that", "wraps", "to", "the", "width", "it", "gets", "and",
                 "bubbles", "grow", "when", "messages", "are", "long"]
    let column = try layout.addView("column")
    var t = ScenarioText()
    t.add("column.left == 0")
    t.add("column.right == root.right")
    t.add("column.top == 0")
    for i in 0 ..< max(1, n - 1) {
        let l = "m\(i)"
        let v = try layout.addView(l, in: column)
        let count = pref(i, 3, 58)
        var text = ""
        for k in 0 ..< count { text += (k == 0 ? "" : " ") + words[(i &* 7 &+ k &* 5) % words.count] }
        try v.setText(TextContent(text, style: TextStyle(fontSize: 15, lineHeight: 20)))
        t.add("\(l).left == column.left + 12")
        t.add("\(l).right <= column.right - 12")
        t.add(i == 0 ? "\(l).top == column.top + 6" : "\(l).top == m\(i - 1).bottom + 6")
    }
    t.add("column.bottom == m\(max(1, n - 1) - 1).bottom + 6")
    return Scenario(top: column, eqs: t, size0: (390, 844), size1: (844, 390))
}

let scenarioNames = ["chain", "grid", "nested", "labels", "wrapping"]

func makeScenario(_ name: String, _ layout: Layout, _ n: Int) throws(LayoutError) -> Scenario? {
    switch name {
    case "chain": return try makeChain(layout, n)
    case "grid": return try makeGrid(layout, n)
    case "nested": return try makeNested(layout, n)
    case "labels": return try makeLabels(layout, n)
    case "wrapping": return try makeWrapping(layout, n)
    default: return nil
    }
}

// MARK: - Running

/// Every view's (x, y, width, height) in root space: the root, then the views in creation order.
func frameChecksum(_ layout: Layout) -> Checksum {
    var vals: [Double] = []
    for v in [layout.root] + layout.views {
        let f = v.frameInRoot
        vals += [f.x, f.y, f.width, f.height]
    }
    return vals.withUnsafeBufferPointer { checksum($0) }
}

/// The active required constraints that the solved values break by more than 1e-6 (a wrong answer, not a tie),
/// with the worst one. Checked outside the timed phases at every checkpoint; a break is printed as a warning.
func requiredViolations(_ layout: Layout) -> (count: Int, worst: String) {
    func value(_ v: View, _ a: LayoutAttribute) -> Double {
        let e = v.expression(for: a)
        return e.terms.reduce(e.constant) { $0 + $1.coefficient * ((try? layout.solver.value(of: $1.variable)) ?? .nan) }
    }
    var count = 0, worst = 0.0, what = ""
    for c in layout.allConstraints where c.isActive && c.isRequired {
        var r = value(c.firstView, c.firstAttribute) - c.constant
        if let s = c.secondView, let a = c.secondAttribute { r -= c.multiplier * value(s, a) }
        let bad = c.relation == .equal ? abs(r) : c.relation == .lessOrEqual ? r : -r
        guard bad > 1e-6 || bad.isNaN else { continue }
        count += 1
        if !(bad <= worst) { worst = bad; what = "\(c) off by \(fmtG9(bad))" }
    }
    return (count, what)
}

/// `--lin FILE`: the built layout as a `.lin` workload (FORMAT.md), so other drivers (kiwi) can replay the same
/// system and a wrong answer can be reproduced on the bare solver. Variables: width, height, x, y of the root,
/// the guides and every view, in that order (the order the layout makes them, so that the replay's solver ranks
/// them as the layout's does: a definition goes to the variable made last); `p build` adds every active constraint in creation order (the root
/// size at its first value), `p edit` re-adds the root's width and height constraints at the new size.
func writeLin(_ layout: Layout, _ sc: Scenario, name: String, views: Int, to path: String) throws(LayoutError) {
    let items = [layout.root, layout.safeArea, layout.margins, layout.keyboard] + layout.views
    var index: [Variable: Int] = [:]
    for (i, v) in items.enumerated() { for (k, x) in v.variables.enumerated() { index[x] = 4 * i + (k + 2) % 4 } }  // x, y, w, h -> 2, 3, 0, 1
    let cons = layout.allConstraints.filter(\.isActive)
    func line(_ id: Int, _ c: LayoutConstraint, constant: Double) -> String {
        var coef: [Int: Double] = [:]
        var k = -constant
        func add(_ e: Expression, _ m: Double) {
            for t in e.terms { coef[index[t.variable]!, default: 0] += m * t.coefficient }
            k += m * e.constant
        }
        add(c.firstView.expression(for: c.firstAttribute), 1)
        if let v = c.secondView, let a = c.secondAttribute { add(v.expression(for: a), -c.multiplier) }
        let op = c.relation == .equal ? "==" : c.relation == .lessOrEqual ? "<=" : ">="
        let strength = c.isRequired ? "required" : fmtG9(c.priority)
        var s = "c \(id) \(op) \(strength) \(fmtG9(k))"
        for (v, x) in coef.sorted(by: { $0.key < $1.key }) where x != 0 { s += " \(fmtG9(x)) \(v)" }
        return s
    }
    var text = "# moa-bench --scenario \(name) --views \(views): \(cons.count) constraints (build_c=\(cons.count))\n"
    text += "v \(4 * items.count)\np build\n"
    for (i, c) in cons.enumerated() { text += line(i, c, constant: c.constant) + "\n" }
    text += "u\np edit\n"
    for (i, c) in cons.enumerated() where c.origin == .rootSize && (c.firstAttribute == .width || c.firstAttribute == .height) {
        text += "r \(i)\n" + line(i, c, constant: c.firstAttribute == .width ? sc.size1.0 : sc.size1.1) + "\n"
    }
    text += "u\n"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw LayoutError(.invalid, "cannot write \(path)") }
    Array(text.utf8).withUnsafeBytes { writeAll(fd, $0) }
    close(fd)
}

struct ScenarioRun {
    var phases: [(String, UInt64, Int, Int)] = []  // name, ns, ops, checkpoints
    var sums: [Checksum] = []
    var dumps: [String]? = nil  // -d: every view's frame at every checkpoint
    var warnings: [String] = []
    var nvalues = 0
    var views = 0
    var constraints = 0
    var lines = 0
    var measures: [String] = []  // `measure` lines
}

func runScenarioOnce(_ name: String, _ n: Int, dump: Bool, lin: String?, remove: Bool, buildOnly: Bool = false) throws
    -> ScenarioRun {
    var run = ScenarioRun()
    if dump { run.dumps = [] }
    func record(_ layout: Layout) {
        run.sums.append(frameChecksum(layout))
        let (bad, worst) = requiredViolations(layout)
        if bad > 0 {
            run.warnings.append("warning: checkpoint \(run.sums.count - 1): \(bad) required constraints broken, worst \(worst)")
        }
        guard run.dumps != nil else { return }
        let k = run.sums.count - 1
        for v in [layout.root] + layout.views {
            let f = v.frameInRoot
            run.dumps!.append("d \(k) \(v.name) \(fmtG9(f.x)) \(fmtG9(f.y)) \(fmtG9(f.width)) \(fmtG9(f.height))")
        }
    }
    let layout = Layout()
    do throws(LayoutError) {
        var t0 = nowNS()
        guard let sc = try makeScenario(name, layout, n) else { throw LayoutError(.invalid, "unknown scenario") }
        try layout.setRootSize(width: sc.size0.0, height: sc.size0.1)
        run.phases.append(("views", nowNS() &- t0 &- sc.eqs.ns, layout.views.count, 0))
        // The text is made in the maker; only this pass and the next ones are in the phases.
        let probe = sc.eqs.text + "@ not an equation\n"
        t0 = nowNS()
        var probeError: LayoutError? = nil
        do throws(LayoutError) { try layout.eqs(probe) } catch { probeError = error }
        run.phases.append(("parse", nowNS() &- t0, sc.eqs.lines, 0))
        // Expected: a parse error on the probe line, after every line before it was parsed and resolved.
        guard let probeError, probeError.kind == .parse, probeError.line == sc.eqs.lines + 1,
              layout.constraints.isEmpty else {
            throw LayoutError(.internalError, "the parse probe did not fail on its last line: \(probeError.map { "\($0)" } ?? "accepted")")
        }

        t0 = nowNS()
        try layout.eqs(sc.eqs.text)
        run.phases.append(("build", nowNS() &- t0, sc.eqs.lines, 0))
        run.constraints = layout.allConstraints.count
        run.views = layout.views.count
        run.lines = sc.eqs.lines
        if let lin { try writeLin(layout, sc, name: name, views: n, to: lin) }
        if buildOnly {   // --build-only: for profiling the build; the solver's counters go to stderr
            let st = layout.solver._statistics, re = layout.solver._swaps
            eprint("solver pivots=\(st.pivots) rows=\(st.rows) cells=\(st.cells) swaps=\(re.definitions) downstream_visits=\(re.downstreamVisits)")
            return run
        }

        let measured = layout.views.filter(\.isMeasured).count
        var before = layout.measureStatistics
        func noteMeasures(_ phase: String) {
            let now = layout.measureStatistics
            if measured > 0 {
                run.measures.append("measure \(phase) calls=\(now.calls - before.calls) hits=\(now.cacheHits - before.cacheHits) views=\(measured)")
            }
            before = now
        }
        t0 = nowNS()
        try layout.solve()
        run.phases.append(("solve", nowNS() &- t0, 1, 1))
        noteMeasures("solve")
        record(layout)

        t0 = nowNS()
        try layout.setRootSize(width: sc.size1.0, height: sc.size1.1)
        try layout.solve()
        run.phases.append(("edit", nowNS() &- t0, 2, 1))
        noteMeasures("edit")
        record(layout)
        run.nvalues = 4 * (run.views + 1)
        if measured > 0 {
            t0 = nowNS()
            try layout.setRootSize(width: sc.size1.0, height: sc.size1.1 + 100)
            try layout.solve()
            run.phases.append(("height", nowNS() &- t0, 2, 0))
            noteMeasures("height")
        }

        t0 = nowNS()
        let ambiguous = layout.ambiguities().count
        run.phases.append(("ambig", nowNS() &- t0, 1, 0))
        if ambiguous > 0 { run.warnings.append("warning: \(ambiguous) ambiguous view variables") }
        t0 = nowNS()
        _ = layout.violatedConstraints()
        run.phases.append(("violated", nowNS() &- t0, 1, 0))

        guard remove else { return run }
        // One leaf (a view without subviews, the middle one in creation order) with its constraints, then the
        // top container with everything left in it.
        let leaves = layout.views.filter { $0.subviews.isEmpty }
        let leaf = leaves[leaves.count / 2]
        t0 = nowNS()
        try layout.removeView(leaf)
        try layout.solve()
        run.phases.append(("leaf", nowNS() &- t0, 1, 0))

        t0 = nowNS()
        try layout.removeView(sc.top)
        try layout.solve()
        run.phases.append(("remove", nowNS() &- t0, 1, 0))
        guard layout.views.isEmpty, layout.constraints.isEmpty else {
            throw LayoutError(.internalError, "views or constraints left after removing the top view")
        }
    } catch {
        throw BenchError(message: "\(name) with \(n) views: \(error)")
    }
    return run
}

func scenarioUsage() -> Int32 {
    eprint("usage: moa-bench --scenario NAME --views N [-r REPS] [-d] [--lin FILE] [--no-remove] [--build-only]   (NAME: \(scenarioNames.joined(separator: ", ")))")
    return 2
}

func runScenario(_ args: [String]) -> Int32 {
    var name: String? = nil
    var views = 0
    var reps = 1
    var dump = false
    var lin: String? = nil
    var remove = true
    var buildOnly = false
    var i = 1
    while i < args.count {
        let a = args[i]
        if a == "-d" { dump = true; i += 1; continue }
        if a == "--no-remove" { remove = false; i += 1; continue }
        if a == "--build-only" { buildOnly = true; i += 1; continue }
        if a == "--lin", i + 1 < args.count { lin = args[i + 1]; i += 2; continue }
        guard i + 1 < args.count else { return scenarioUsage() }
        switch a {
        case "--scenario": name = args[i + 1]
        case "--views": views = Int(args[i + 1]) ?? 0
        case "-r": reps = Int(args[i + 1]) ?? 0
        default: return scenarioUsage()
        }
        i += 2
    }
    guard let name, scenarioNames.contains(name), views >= 2, reps >= 1 else { return scenarioUsage() }

    var out = Out()
    var runs: [ScenarioRun] = []
    for r in 0 ..< reps {
        do {
            let run = try runScenarioOnce(name, views, dump: dump && r == 0, lin: r == 0 ? lin : nil, remove: remove,
                                          buildOnly: buildOnly)
            if r > 0 && run.sums != runs[0].sums {
                out.line("warning: replay \(r) checksums differ from replay 0")
            }
            runs.append(run)
            for w in run.warnings { out.line(w) }
        } catch let e as BenchError {
            out.flush()
            eprint("moa error: \(e.message)")
            return 3
        } catch {
            out.flush()
            eprint("moa error: \(error)")
            return 3
        }
    }
    let first = runs[0]
    out.line("solver \(solverName) \(solverVersion)")
    out.line("file scenario:\(name) views=\(first.views) constraints=\(first.constraints) lines=\(first.lines)")
    for (k, c) in first.sums.enumerated() {
        out.line("u \(k) n=\(first.nvalues) sum=\(c.sum) hash=\(hex16(c.hash))")
    }
    for (r, run) in runs.enumerated() {
        var total: UInt64 = 0
        for (ph, ns, ops, us) in run.phases {
            out.line("phase \(ph) ns=\(ns) ops=\(ops) u=\(us) rep=\(r)")
            total &+= ns
        }
        out.line("total ns=\(total) rep=\(r)")
    }
    for m in first.measures { out.line(m) }
    for d in first.dumps ?? [] {
        out.line(d)
        if out.bytes.count > 1 << 20 { out.flush() }
    }
    out.flush()
    return 0
}
