// moa-fuzz target `layout`: the fuzz input is a stream of layout-level C calls: views, equations (built from
// the bytes, sometimes corrupted), constants, priorities, activation, removal, root size, guides, view
// properties, animations, the clock, collapsibles, pan drivers, stacks, guides, chains, barriers, visual format
// strings, pictures and traces, freeing the layout (also from inside a completion callback), with stale ids,
// NULL pointers, NaN and huge numbers mixed in.
//
// Checked after every step:
//   - a failed call changed nothing: a snapshot read through the API (root size, clock, views with names,
//     superviews and frames, every constraint's equation, constant, priority, active flag and line, the
//     optional constraints the current solution violates and by how much) is identical before and after;
//   - stale ids (removed views and constraints, ids of another layout) are MOA_NOTFOUND; NaN is never accepted;
//   - removing a view removes exactly it, its subviews and the constraints that mention them;
//   - after a solve (moa_layout_solve, advance, seek): every active required equation constraint the harness
//     can evaluate (edges, centers, sizes in root space) holds, and the root's frame is its size;
//   - completion callbacks: each one given to a call that succeeded runs exactly once (at the latest when the
//     layout is freed), one given to a call that failed never; advance/seek from a callback are MOA_MISUSE.

import CMoa
#if canImport(Glibc)
import Glibc
#endif

/// An equation constraint the harness wrote, with what it needs to evaluate it from frames.
private struct Tracked {
    var id: moa_lcons
    var first: moa_view
    var attr1: String
    var rel: Int  // 0 ==, 1 <=, 2 >=
    var second: moa_view?  // nil: an absolute width or height
    var attr2: String
    var multiplier: Double
    /// Only edges, centers and sizes with `*` are evaluated (margins, baselines and leading/trailing depend on
    /// state the harness does not mirror).
    var checkable: Bool
}

private let checkableAttributes: Set<String> = ["left", "right", "top", "bottom", "width", "height", "centerX", "centerY"]
private let attributes = ["left", "right", "top", "bottom", "width", "height", "centerX", "centerY", "leading", "trailing",
                          "leftMargin", "rightMargin", "topMargin", "bottomMargin", "leadingMargin", "trailingMargin",
                          "centerXWithinMargins", "centerYWithinMargins", "baseline", "firstBaseline", "lastBaseline",
                          "size", "pin", "hugH", "hugV", "resistH", "resistV", "compressH", "compressV", "lft", "x"]
private let priorityWords = ["required", "max", "high", "med", "low", "fit", "minNonZero", "belowDefaultLow", "defaultLow",
                             "aboveDefaultLow", "belowDefaultHigh", "defaultHigh", "aboveDefaultHigh", "maxNonRequired",
                             "defaultHigh - 1", "low + 1", "high + 300", "1", "1000", "0", "1001", "999.5", "bogus"]

// MARK: - Callback accounting (C callbacks cannot capture: global state)

/// How often each completion was called, by the index passed as `ud`.
nonisolated(unsafe) private var calls: [Int] = []
/// Completions given to calls that succeeded (each must run exactly once) and to calls that failed (never).
nonisolated(unsafe) private var promised: Set<Int> = []
nonisolated(unsafe) private var refused: Set<Int> = []
/// The completion with this index frees the layout from inside the callback (a deferred free).
nonisolated(unsafe) private var freeFromCallback = -1
nonisolated(unsafe) private var freedInCallback = false

private func newUD() -> (Int, UnsafeMutableRawPointer) {
    calls.append(0)
    return (calls.count - 1, UnsafeMutableRawPointer(bitPattern: calls.count)!)
}

private func callbackEntered(_ L: OpaquePointer?, _ ud: UnsafeMutableRawPointer?) {
    let i = Int(bitPattern: ud) - 1
    expect(i >= 0 && i < calls.count, "a completion was called with a ud never given: \(String(describing: ud))")
    calls[i] += 1
    expect(calls[i] == 1, "completion \(i) was called \(calls[i]) times")
    expect(!refused.contains(i), "completion \(i) of a call that failed was called")
    // Inside a callback the clock cannot move.
    expect(moa_layout_advance(L, 0) == MOA_MISUSE && moa_layout_seek(L, 0) == MOA_MISUSE,
           "advance/seek from a callback was not MOA_MISUSE")
    if i == freeFromCallback && !freedInCallback {
        freedInCallback = true
        moa_layout_free(L)
        var v: moa_view = 0
        expect(moa_layout_root(L, &v) == MOA_MISUSE, "a call after a deferred free was not MOA_MISUSE")
    }
}

private let doneCallback: moa_done_fn = { L, _, finished, ud in
    expect(finished == 0 || finished == 1, "finished is \(finished)")
    callbackEntered(L, ud)
}

private let restCallback: moa_rest_fn = { L, _, rest, finished, ud in
    expect(rest.isFinite && (finished == 0 || finished == 1), "rest callback got \(rest), \(finished)")
    callbackEntered(L, ud)
}

private let textCallback: moa_text_fn = { text, _ in
    expect(text != nil && String(cString: text!).hasSuffix("\n"), "a `?` report that does not end in a newline")
}

// MARK: - The model

private final class LayoutModel {
    var L: OpaquePointer
    var root: moa_view = 0
    var guides: [moa_view] = []
    var views: [moa_view] = []
    var names: [moa_view: String] = [:]
    var tracked: [Tracked] = []
    /// Layout-made constraints the harness got ids of (intrinsic sizes from content-priority lines).
    var other: [moa_lcons] = []
    var animations: [moa_animation] = []
    var collapsibles: [moa_collapsible] = []
    var pans: [moa_pan] = []
    /// Stacks (their views' ids), chains, barriers (their guides' ids) and guides made by the harness.
    var stacks: [moa_view] = []
    var chains: [moa_chain] = []
    var barriers: [moa_view] = []
    var curves: [moa_curve] = [MOA_LINEAR, MOA_EASE_IN, MOA_EASE_OUT, MOA_EASE_IN_OUT, MOA_SPRING, MOA_KEYBOARD_CURVE]
    /// Ids that must be MOA_NOTFOUND from now on.
    var dead: [UInt64] = []
    var nameCounter = 0
    /// The layout was given a wild (valid but extreme) number: the solve check is off.
    var wild = false
    /// Limits or a progress callback that stops calls are set: any call that adds constraints may fail with
    /// MOA_LIMIT (and must then change nothing), solves included.
    var limited = false

    init(_ inp: inout FuzzInput) {
        var w = inp.size(2000), h = inp.size(2000)
        if w.kind == .invalid || h.kind == .invalid || w.value < 0 || h.value < 0 || w.value > 1e9 || h.value > 1e9 {
            expect(moa_layout_new(w.value, h.value) == nil, "moa_layout_new accepted \(w.value) x \(h.value)")
            w = Num(value: 320, kind: .nice)
            h = Num(value: 480, kind: .nice)
        }
        L = moa_layout_new(w.value, h.value)!
        if w.kind != .nice || h.kind != .nice { wild = true }
        setUp()
    }

    func setUp() {
        expect(moa_layout_root(L, &root) == MOA_OK, "moa_layout_root")
        guides = ["safeArea", "margins", "keyboard"].map { name in
            var g: moa_view = 0
            expect(moa_layout_guide(L, name, &g) == MOA_OK, "moa_layout_guide \(name)")
            names[g] = name
            return g
        }
        names[root] = "root"
        expect(moa_layout_set_debug_callback(L, textCallback, nil) == MOA_OK, "set_debug_callback")
    }

    func bury(_ id: UInt64) {
        dead.append(id)
        if dead.count > 64 { dead.removeFirst() }
    }

    /// Everything a failed call must leave as it was, read through the API without solving.
    func snapshot() -> String {
        var out = ""
        var w = 0.0, h = 0.0, t = 0.0
        var anim: Int32 = 0
        _ = moa_layout_root_size(L, &w, &h)
        _ = moa_layout_time(L, &t)
        _ = moa_layout_is_animating(L, &anim)
        out += "root \(w)x\(h) t=\(t) animating=\(anim)\n"
        var n = 0
        expect(moa_layout_views(L, nil, 0, &n) == MOA_OK, "moa_layout_views")
        var vs = [moa_view](repeating: 0, count: n)
        if n > 0 { _ = moa_layout_views(L, &vs, n, &n) }
        for v in [root] + guides + vs {
            var name: UnsafePointer<CChar>? = nil
            var sup: moa_view = 0
            var f = moa_rect(), r = moa_rect()
            _ = moa_view_name(L, v, &name)
            let nm = string(name) ?? "?"
            _ = moa_view_superview(L, v, &sup)
            _ = moa_view_frame(L, v, &f)
            _ = moa_view_frame_in_root(L, v, &r)
            out += "view \(v) \(nm) in \(sup): \(f.x),\(f.y),\(f.width),\(f.height) / \(r.x),\(r.y),\(r.width),\(r.height)\n"
        }
        expect(moa_layout_constraints(L, nil, 0, &n) == MOA_OK, "moa_layout_constraints")
        var cs = [moa_lcons](repeating: 0, count: n)
        if n > 0 { _ = moa_layout_constraints(L, &cs, n, &n) }
        for c in cs + other {
            var k = 0.0, p = 0.0
            var a: Int32 = 0, line: Int32 = 0
            var text: UnsafePointer<CChar>? = nil
            let st = moa_lcons_describe(L, c, &text)
            let desc = string(text) ?? "-"
            _ = moa_lcons_constant(L, c, &k)
            _ = moa_lcons_priority(L, c, &p)
            _ = moa_lcons_active(L, c, &a)
            _ = moa_lcons_line(L, c, &line)
            out += "cons \(c) [\(st)] \(desc) k=\(k) p=\(p) active=\(a) line=\(line)\n"
        }
        var text: UnsafePointer<CChar>? = nil
        if moa_layout_describe(L, &text) == MOA_OK { out += string(text) ?? "" }
        expect(moa_layout_violations(L, nil, nil, 0, &n) == MOA_OK, "moa_layout_violations")
        var ids = [moa_lcons](repeating: 0, count: n)
        var amounts = [Double](repeating: 0, count: n)
        if n > 0 { _ = moa_layout_violations(L, &ids, &amounts, n, &n) }
        out += "violated: \(zip(ids, amounts).map { "\($0)=\($1)" })\n"
        for p in pans {
            var off = 0.0, rest = 0.0
            _ = moa_pan_offset(L, p, &off)
            _ = moa_pan_rest_position(L, p, &rest)
            out += "pan \(p) \(off) \(rest)\n"
        }
        for c in collapsibles {
            var state: Int32 = -1
            _ = moa_collapsible_is_collapsed(L, c, &state)
            out += "collapsible \(c) \(state)\n"
        }
        return out
    }

    /// Solves, then checks that the active required constraints hold.
    func solveAndCheck() {
        let st = moa_layout_solve(L, nil)
        if limited && st == MOA_LIMIT { return }
        expect(st == MOA_OK, "moa_layout_solve")
        checkRequired()
    }

    func rect(_ v: moa_view) -> moa_rect? {
        var r = moa_rect()
        return moa_view_frame_in_root(L, v, &r) == MOA_OK ? r : nil
    }

    func checkRequired() {
        guard !wild else { return }
        var animating: Int32 = 1
        _ = moa_layout_is_animating(L, &animating)
        if animating == 0, let r = rect(root) {
            var w = 0.0, h = 0.0
            _ = moa_layout_root_size(L, &w, &h)
            expect(r.x == 0 && r.y == 0 && abs(r.width - w) <= 1e-7 * (1 + w) && abs(r.height - h) <= 1e-7 * (1 + h),
                   "root frame \(r) is not its size \(w)x\(h)")
        }
        for t in tracked where t.checkable {
            var a: Int32 = 0, p = 0.0, k = 0.0
            guard moa_lcons_active(L, t.id, &a) == MOA_OK, a != 0,
                  moa_lcons_priority(L, t.id, &p) == MOA_OK, p == 1000,
                  moa_lcons_constant(L, t.id, &k) == MOA_OK else { continue }
            guard let r1 = rect(t.first) else { violation("view \(t.first) of live constraint \(t.id) is gone") }
            let lhs = value(r1, t.attr1)
            var rhs = k
            var scale = abs(lhs) + abs(k)
            if let s = t.second {
                guard let r2 = rect(s) else { violation("view \(s) of live constraint \(t.id) is gone") }
                let v2 = value(r2, t.attr2)
                rhs += t.multiplier * v2
                scale += abs(t.multiplier * v2)
            }
            if !holds(lhs - rhs, t.rel, scale: scale, tolerance: 1e-6) {
                var text: UnsafePointer<CChar>? = nil
                _ = moa_lcons_describe(L, t.id, &text)
                violation("required `\(string(text) ?? "?")` does not hold after a solve: \(lhs) vs \(rhs)")
            }
        }
    }

    func value(_ r: moa_rect, _ attr: String) -> Double {
        switch attr {
        case "left": return r.x
        case "right": return r.x + r.width
        case "top": return r.y
        case "bottom": return r.y + r.height
        case "width": return r.width
        case "height": return r.height
        case "centerX": return r.x + r.width / 2
        default: return r.y + r.height / 2  // centerY
        }
    }

    func superview(_ v: moa_view) -> moa_view? {
        var s: moa_view = 0
        return moa_view_superview(L, v, &s) == MOA_OK ? s : nil
    }

    /// Frees the layout and checks the completion accounting.
    func free() {
        freeFromCallback = -1  // this free runs the completions; none of them frees again
        moa_layout_free(L)
        checkCallbacks()
    }
}

private func checkCallbacks() {
    for i in promised { expect(calls[i] == 1, "completion \(i) of a call that succeeded ran \(calls[i]) times") }
    for i in refused { expect(calls[i] == 0, "completion \(i) of a call that failed ran") }
    calls = []
    promised = []
    refused = []
    freeFromCallback = -1
}

// MARK: - Picking ids and numbers

private func pickView(_ m: LayoutModel, _ inp: inout FuzzInput) -> (moa_view, Bool) {
    let k = inp.byte()
    if k < 160, !m.views.isEmpty { return (m.views[Int(k) % m.views.count], true) }
    if k < 200 { return (([m.root] + m.guides)[Int(k) % 4], true) }
    switch k % 4 {
    case 0: return (0, false)
    case 1: if !m.dead.isEmpty { return (m.dead[Int(inp.byte()) % m.dead.count], false) }
    case 2: if let c = m.tracked.first { return (c.id, false) }  // a constraint id as a view id
    default: break
    }
    return (m.root, true)
}

private func pickCons(_ m: LayoutModel, _ inp: inout FuzzInput) -> (moa_lcons, Int?) {
    let k = inp.byte()
    if k < 200, !m.tracked.isEmpty { let i = Int(k) % m.tracked.count; return (m.tracked[i].id, i) }
    switch k % 4 {
    case 0: return (0, nil)
    case 1: if !m.dead.isEmpty { return (m.dead[Int(inp.byte()) % m.dead.count], nil) }
    case 2: if !m.other.isEmpty { return (m.other[Int(inp.byte()) % m.other.count], -1) }
    default: break
    }
    return (m.root, nil)  // a view id as a constraint id
}

private func pickCurve(_ m: LayoutModel, _ inp: inout FuzzInput) -> moa_curve {
    let k = inp.below(16)
    if k < 12 { return m.curves[k % m.curves.count] }
    return [-1, MOA_KEYBOARD_CURVE + 1, MOA_CURVE_CUSTOM + 4095, Int32.max][k - 12]
}

/// Text for a number in an equation: nice ones as the printer writes them, others in Swift's shortest form.
private func numberText(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return String(x)
}

private func itemName(_ m: LayoutModel, _ inp: inout FuzzInput) -> (String, moa_view?) {
    let k = inp.byte()
    if k < 150, !m.views.isEmpty { let v = m.views[Int(k) % m.views.count]; return (m.names[v]!, v) }
    switch k % 8 {
    case 0: return ("root", m.root)
    case 1: return ("safeArea", m.guides[0])
    case 2: return ("margins", m.guides[1])
    case 3: return ("keyboard", m.guides[2])
    case 4: return ("view", nil)
    case 5: return ("superview", nil)
    case 6: return ("nosuchview", nil)
    default: return (m.views.isEmpty ? "root" : m.names[m.views[0]]!, m.views.isEmpty ? m.root : m.views[0])
    }
}

/// One equation built from the bytes, and what the harness knows about its meaning (nil: not evaluated).
private func makeEquation(_ m: LayoutModel, _ inp: inout FuzzInput) -> (String, Tracked?) {
    let (n1, v1) = itemName(m, &inp)
    let a1 = attributes[inp.below(attributes.count)]
    let relIndex = inp.below(3)
    var text = "\(n1).\(a1) \(["==", "<=", ">="][relIndex]) "
    var second: moa_view? = nil
    var a2 = a1
    var multiplier = 1.0
    var checkable = checkableAttributes.contains(a1) && v1 != nil
    var wild = false
    let form = inp.below(8)
    if form < 2 {
        let k = inp.number()
        wild = wild || k.kind != .nice
        text += k.value < 0 ? "-\(numberText(-k.value))" : numberText(k.value)
        if a1 != "width" && a1 != "height" {
            // `a.left == 8` means the superview's left + 8, resolved now (a later move keeps the old item).
            if let v1, let s = m.superview(v1), s != 0 { second = s } else { checkable = false }
        }
    } else if form == 2 {
        text += "\(inp.below(100))x\(inp.below(100))"
        checkable = false
    } else {
        let (n2, v2) = itemName(m, &inp)
        text += n2
        if n2 == "view" || n2 == "superview" { second = v1.flatMap { m.superview($0) } } else { second = v2 }
        if second == nil || second == 0 { checkable = false }
        if inp.bool() {
            a2 = attributes[inp.below(attributes.count)]
            text += ".\(a2)"
        }
        checkable = checkable && checkableAttributes.contains(a2)
        switch inp.below(6) {
        case 0:
            let mm = inp.number()
            wild = wild || mm.kind != .nice
            multiplier = mm.value
            text += " * " + (mm.value < 0 ? "-" + numberText(-mm.value) : numberText(mm.value))
        case 1:
            text += " / \(1 + inp.below(8))"
            checkable = false
        default: break
        }
        if inp.bool() {
            let k = inp.number()
            wild = wild || k.kind != .nice
            text += k.value < 0 ? " - \(numberText(-k.value))" : " + \(numberText(k.value))"
        }
    }
    if inp.below(3) == 0 { text += " @ " + priorityWords[inp.below(priorityWords.count)] }
    if inp.below(16) == 0 { text += " ?" }
    if inp.below(16) == 0 { text += "  # a comment" }
    // Sometimes a corrupted line: a byte replaced or inserted, to reach the parser's error paths.
    if inp.below(8) == 0 {
        var bytes = Array(text.utf8)
        let at = inp.below(bytes.count + 1)
        let b = [UInt8(ascii: "."), UInt8(ascii: "="), UInt8(ascii: "*"), UInt8(ascii: "@"), 0xFF, 0xC3, UInt8(ascii: "x"),
                 UInt8(ascii: "9"), UInt8(ascii: "e"), UInt8(ascii: "\n"), UInt8(ascii: "<")][inp.below(11)]
        if inp.bool(), at < bytes.count { bytes[at] = b } else { bytes.insert(b, at: at) }
        return (String(decoding: bytes, as: UTF8.self), nil)
    }
    if wild { m.wild = true }
    guard let v1 else { return (text, nil) }
    return (text, Tracked(id: 0, first: v1, attr1: a1, rel: relIndex, second: second, attr2: a2,
                          multiplier: multiplier, checkable: checkable && !wild))
}

// MARK: - The run

func runLayout(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    var inp = FuzzInput(data, size)
    checkCallbacks()
    freedInCallback = false
    var m = LayoutModel(&inp)
    var steps = 0
    while !inp.atEnd && steps < 300 {
        steps += 1
        layoutStep(m, &inp)
        if freedInCallback {
            // The layout freed itself from a completion: all its completions have run by now.
            checkCallbacks()
            freedInCallback = false
            m = LayoutModel(&inp)
        }
    }
    m.solveAndCheck()
    m.free()
}

/// Registers a completion's outcome.
private func settle(_ st: moa_status, _ ud: Int) {
    if st == MOA_OK { promised.insert(ud) } else { refused.insert(ud) }
}

private func layoutStep(_ m: LayoutModel, _ inp: inout FuzzInput) {
    let L = m.L
    var before = m.snapshot()
    var st: moa_status = MOA_OK
    var what = ""
    /// Set when the arguments are certainly bad (a NaN, a stale id): the call must fail.
    var mustFail = false
    let op = inp.below(33)
    switch op {
    case 0, 1:  // a view
        let (parent, _) = pickView(m, &inp)
        var name: String
        switch inp.below(12) {
        case 0: name = ""
        case 1: name = "1abc"
        case 2: name = ["root", "view", "superview", "safeArea", "margins", "keyboard"][inp.below(6)]
        case 3: name = "a b"
        case 4: name = m.views.isEmpty ? "v" : m.names[m.views[0]]!  // taken
        case 5: name = String(decoding: [0xC3, 0x28, UInt8(ascii: "x")], as: UTF8.self)
        default: m.nameCounter += 1; name = "v\(m.nameCounter)"
        }
        var v: moa_view = 0
        st = inp.below(16) == 0 ? moa_view_new(L, name, parent, nil) : moa_view_new(L, name, parent, &v)
        what = "view_new \(name) in \(parent)"
        if st == MOA_OK {
            expect(v != 0 && !m.dead.contains(v) && !m.views.contains(v), "view_new gave a used id")
            m.views.append(v)
            m.names[v] = name
        }

    case 2:  // remove a view: exactly it, its subviews and their constraints go
        let (v, _) = pickView(m, &inp)
        var gone: Set<moa_view> = [v]
        var grew = true
        while grew {
            grew = false
            for w in m.views where !gone.contains(w) {
                if let s = m.superview(w), gone.contains(s) { gone.insert(w); grew = true }
            }
        }
        st = moa_view_free(L, v)
        what = "view_free \(v)"
        if st == MOA_OK {
            for w in m.views {
                var s: moa_view = 0
                let there = moa_view_superview(L, w, &s) == MOA_OK
                expect(there != gone.contains(w), "view \(w) \(there ? "survived" : "vanished") removing \(v)")
            }
            for t in m.tracked {
                var a: Int32 = 0
                let there = moa_lcons_active(L, t.id, &a) == MOA_OK
                let mentions = gone.contains(t.first) || t.second.map { gone.contains($0) } ?? false
                if t.checkable || mentions { expect(there != mentions, "constraint \(t.id) \(there ? "survived" : "vanished")") }
            }
            m.views.removeAll { gone.contains($0) }
            for w in gone { m.bury(w) }
            resync(m)
        }

    case 3, 4, 5, 6, 7, 29, 30:  // one equation
        let (text, t) = makeEquation(m, &inp)
        var id: moa_lcons = 0
        st = moa_layout_eq(L, text, &id)
        what = "eq `\(text)`"
        if st == MOA_OK { adopt(m, id, t) }
        if st == MOA_PARSE { checkErrorInfo(m, text, st) }

    case 8:  // several equations, all or nothing
        var lines: [String] = []
        var metas: [Tracked?] = []
        for _ in 0..<(1 + inp.below(4)) {
            let (text, t) = makeEquation(m, &inp)
            lines.append(text)
            metas.append(text.contains("\n") || text.contains("size") || text.contains("pin") ? nil : t)
        }
        let text = lines.joined(separator: "\n")
        var ids = [moa_lcons](repeating: 0, count: 32)
        var n = 0
        st = moa_layout_eqs(L, text, &ids, ids.count, &n)
        what = "eqs `\(text)`"
        if st == MOA_OK {
            // One id per line unless a line made several (size, pin) or none: track only the simple case.
            if n == lines.count { for (i, t) in metas.enumerated() { adopt(m, ids[i], t) } }
            else { for id in ids.prefix(n) { adopt(m, id, nil) } }
        }

    case 9:  // xeq
        let (text, _) = makeEquation(m, &inp)
        var removed = 0
        st = moa_layout_xeq(L, text, &removed)
        what = "xeq `\(text)`"
        if st == MOA_OK {
            expect(removed >= 1, "xeq succeeded removing \(removed)")
            resync(m)
        }

    case 10:  // constant
        let (c, i) = pickCons(m, &inp)
        let k = inp.number()
        st = moa_lcons_set_constant(L, c, k.value)
        what = "set_constant \(c) \(k.value)"
        mustFail = i == nil || k.kind == .invalid
        if st == MOA_OK && k.kind != .nice { m.wild = true }

    case 11:  // priority
        let (c, i) = pickCons(m, &inp)
        let p = inp.below(4) == 0 ? inp.number() : Num(value: Double([1, 250, 500, 750, 999, 1000][inp.below(6)]), kind: .nice)
        st = moa_lcons_set_priority(L, c, p.value)
        what = "set_priority \(c) \(p.value)"
        mustFail = i == nil || !(p.value >= 1 && p.value <= 1000)

    case 12:  // active
        let (c, i) = pickCons(m, &inp)
        st = moa_lcons_set_active(L, c, Int32(inp.below(3)))
        what = "set_active \(c)"
        mustFail = i == nil

    case 13:  // remove
        let (c, i) = pickCons(m, &inp)
        st = moa_lcons_remove(L, c)
        what = "remove \(c)"
        mustFail = i == nil || i == -1
        if st == MOA_OK {
            expect(i != nil && i! >= 0, "remove accepted \(c)")
            m.tracked.remove(at: i!)
            m.bury(c)
        }

    case 14:  // root size
        let w = inp.size(4000), h = inp.size(4000)
        st = moa_layout_set_root_size(L, w.value, h.value)
        what = "set_root_size \(w.value) \(h.value)"
        mustFail = w.kind == .invalid || h.kind == .invalid || w.value < 0 || h.value < 0 || w.value > 1e9 || h.value > 1e9
        if st == MOA_OK && (w.kind != .nice || h.kind != .nice) { m.wild = true }

    case 15:  // guides
        let a = inp.number(), b = inp.number(), c = inp.number(), d = inp.number()
        if inp.bool() {
            st = moa_layout_set_safe_area(L, a.value, b.value, c.value, d.value)
            what = "set_safe_area"
            mustFail = [a, b, c, d].contains { !$0.value.isFinite }
            if st == MOA_OK && [a, b, c, d].contains(where: { $0.kind != .nice }) { m.wild = true }
        } else {
            st = moa_layout_set_keyboard_height(L, a.value)
            what = "set_keyboard_height \(a.value)"
            mustFail = !a.value.isFinite || a.value < 0
            if st == MOA_OK && a.kind != .nice { m.wild = true }
        }

    case 16:  // view properties
        let (v, known) = pickView(m, &inp)
        let a = inp.size(200), b = inp.size(200)
        switch inp.below(7) {
        case 0:
            st = moa_view_set_margins(L, v, a.value, b.value, a.value, b.value)
            what = "set_margins"
            mustFail = !a.value.isFinite || !b.value.isFinite
        case 1:
            st = moa_view_set_direction(L, v, moa_layout_direction(rawValue: UInt32(inp.below(4))))
            what = "set_direction"
        case 2:
            st = moa_view_set_intrinsic_size(L, v, inp.bool() ? MOA_NO_INTRINSIC : a.value, b.value)
            what = "set_intrinsic_size"
            mustFail = !b.value.isFinite
        case 3:
            st = moa_view_set_content_priority(L, v, moa_axis(rawValue: UInt32(inp.below(3))), a.value, b.value)
            what = "set_content_priority \(a.value) \(b.value)"
            mustFail = !(a.value >= 1 && a.value <= 1000) || !(b.value >= 1 && b.value <= 1000)
        case 4:
            var x = a.value, y = b.value
            let which = inp.below(4)
            st = withUnsafeMutablePointer(to: &x) { px in
                withUnsafeMutablePointer(to: &y) { py in
                    moa_view_set_baseline(L, v, which & 1 == 0 ? nil : px, which & 2 == 0 ? nil : py)
                }
            }
            what = "set_baseline"
        case 5:
            let (p, _) = pickView(m, &inp)
            st = moa_view_set_superview(L, v, inp.below(4) == 0 ? 0 : p)
            what = "set_superview \(v) -> \(p)"
        default:
            var out = moa_rect()
            st = moa_view_frame(L, v, &out)
            what = "frame"
        }
        if !known { mustFail = true }
        if st == MOA_OK && (a.kind != .nice || b.kind != .nice) { m.wild = true }

    case 17:  // animate a constant
        let (c, i) = pickCons(m, &inp)
        let to = inp.number(), dur = inp.size(2), delay = inp.size(1)
        let (ud, p) = newUD()
        var anim: moa_animation = 0
        st = moa_lcons_animate(L, c, to.value, dur.value, pickCurve(m, &inp), delay.value, doneCallback, p, &anim)
        what = "animate \(c) to \(to.value) over \(dur.value) after \(delay.value)"
        settle(st, ud)
        if inp.below(8) == 0 { freeFromCallback = ud }
        mustFail = i == nil || to.kind == .invalid || dur.kind == .invalid || delay.kind == .invalid
        if st == MOA_OK {
            m.animations.append(anim)
            if [to, dur, delay].contains(where: { $0.kind != .nice }) { m.wild = true }
        }

    case 18:  // animate a priority, the root size, the keyboard
        let (ud, p) = newUD()
        var anim: moa_animation = 0
        let a = inp.size(1000), dur = inp.size(2)
        switch inp.below(4) {
        case 0:
            let (c, i) = pickCons(m, &inp)
            st = moa_lcons_animate_priority(L, c, a.value, dur.value, pickCurve(m, &inp), 0, doneCallback, p, &anim)
            what = "animate_priority \(c) to \(a.value)"
            mustFail = i == nil
        case 1:
            st = moa_layout_animate_root_size(L, a.value, inp.size(1000).value, dur.value, pickCurve(m, &inp), 0, doneCallback, p, &anim)
            what = "animate_root_size"
        case 2:
            st = moa_layout_show_keyboard(L, a.value, dur.value, pickCurve(m, &inp), doneCallback, p, &anim)
            what = "show_keyboard \(a.value)"
        default:
            st = moa_layout_hide_keyboard(L, dur.value, pickCurve(m, &inp), doneCallback, p, &anim)
            what = "hide_keyboard"
        }
        settle(st, ud)
        if st == MOA_OK {
            m.animations.append(anim)
            if a.kind != .nice || dur.kind != .nice { m.wild = true }
        }

    case 19:  // stop animations
        switch inp.below(3) {
        case 0:
            let a = m.animations.isEmpty || inp.below(4) == 0 ? UInt64(inp.below(3)) : m.animations[inp.below(m.animations.count)]
            st = moa_animation_cancel(L, a)
            what = "cancel \(a)"
        case 1:
            let (c, i) = pickCons(m, &inp)
            st = moa_lcons_stop_animating(L, c)
            what = "stop_animating \(c)"
            mustFail = i == nil
        default:
            st = moa_layout_cancel_animations(L)
            what = "cancel_animations"
        }

    case 20, 21, 31:  // the clock
        let dt = inp.below(4) == 0 ? inp.number() : Num(value: Double(inp.below(40)) / 60, kind: .nice)
        if inp.below(4) == 0 {
            var t = 0.0
            _ = moa_layout_time(L, &t)
            st = moa_layout_seek(L, t + dt.value)
            what = "seek \(t) + \(dt.value)"
            mustFail = !(t + dt.value).isFinite || t + dt.value < t  // at 1e308, t - 3.5 is t
        } else {
            st = moa_layout_advance(L, dt.value)
            what = "advance \(dt.value)"
            mustFail = !dt.value.isFinite || dt.value < 0
        }
        if st == MOA_OK && dt.kind != .nice { m.wild = true }
        if st == MOA_OK && !freedInCallback { m.checkRequired() }

    case 22:  // solve
        what = "solve"
        m.solveAndCheck()

    case 23:  // collapsibles
        switch inp.below(4) {
        case 0:
            let (v, _) = pickView(m, &inp)
            let (c, _) = pickCons(m, &inp)
            var id: moa_collapsible = 0
            st = moa_collapsible_new(L, v, c, moa_collapse_direction(rawValue: UInt32(inp.below(5))), &id)
            what = "collapsible_new \(v) \(c)"
            if st == MOA_OK { m.collapsibles.append(id) }
        case 1, 2:
            let c = m.collapsibles.isEmpty ? 0 : m.collapsibles[inp.below(m.collapsibles.count)]
            let (ud, p) = newUD()
            let animated = Int32(inp.below(2))
            let dur = inp.size(1)
            var anim: moa_animation = 0
            // Collapsing solves first when the layout needs it (to find the edge), and that solve stands when
            // the call then fails (moa.h): compare with the layout as solved.
            if moa_layout_solve(L, nil) == MOA_OK { before = m.snapshot() }
            if inp.bool() {
                st = moa_collapsible_set(L, c, Int32(inp.below(2)), animated, dur.value, pickCurve(m, &inp), doneCallback, p, &anim)
            } else {
                st = moa_collapsible_toggle(L, c, animated, dur.value, pickCurve(m, &inp), doneCallback, p, &anim)
            }
            what = "collapsible_set/toggle \(c) animated \(animated)"
            settle(st, ud)
        default:
            let c = m.collapsibles.isEmpty ? 0 : m.collapsibles[inp.below(m.collapsibles.count)]
            st = moa_collapsible_free(L, c)
            what = "collapsible_free \(c)"
            if st == MOA_OK { m.collapsibles.removeAll { $0 == c }; m.bury(c) }
        }

    case 24:  // pan drivers
        let p = m.pans.isEmpty ? 0 : m.pans[inp.below(m.pans.count)]
        var accepted: Int32 = -1
        var target = 0.0
        switch inp.below(9) {
        case 0:
            var cs: [moa_lcons] = []
            for _ in 0..<(1 + inp.below(3)) { cs.append(pickCons(m, &inp).0) }
            let rest: [Double] = [0, -Double(inp.below(400)), Double(inp.below(400))]
            let nrest = inp.below(4)
            var id: moa_pan = 0
            let axis = moa_axis(rawValue: UInt32(inp.below(3)))
            st = rest.withUnsafeBufferPointer { moa_pan_new(L, cs, cs.count, axis, nrest == 0 ? nil : $0.baseAddress, nrest, &id) }
            what = "pan_new \(cs)"
            if st == MOA_OK { m.pans.append(id) }
        case 1: st = moa_pan_began(L, p, &accepted); what = "pan_began"
        case 2, 3:
            let t = inp.number(), v = inp.number()
            st = moa_pan_changed(L, p, t.value, v.value, &accepted)
            what = "pan_changed \(t.value) \(v.value)"
            mustFail = !t.value.isFinite || !v.value.isFinite
            if st == MOA_OK && (t.kind != .nice || v.kind != .nice) { m.wild = true }
        case 4:
            let (ud, u) = newUD()
            let v = inp.number()
            st = moa_pan_ended(L, p, v.value, restCallback, u, &target, &accepted)
            what = "pan_ended \(v.value)"
            if st == MOA_OK && accepted == 0 { refused.insert(ud) } else { settle(st, ud) }
        case 5:
            let (ud, u) = newUD()
            st = moa_pan_cancelled(L, p, restCallback, u, &target, &accepted)
            what = "pan_cancelled"
            if st == MOA_OK && accepted == 0 { refused.insert(ud) } else { settle(st, ud) }
        case 6:
            let (ud, u) = newUD()
            let off = inp.number()
            st = moa_pan_move(L, p, off.value, Int32(inp.below(2)), restCallback, u)
            what = "pan_move \(off.value)"
            settle(st, ud)
            if st == MOA_OK && off.kind != .nice { m.wild = true }
        case 7:
            st = moa_pan_set_options(L, p, inp.size(800).value, inp.size(40).value, inp.bool() ? MOA_AUTO : inp.size(400).value,
                                     inp.size(1).value, pickCurve(m, &inp))
            what = "pan_set_options"
        default:
            if inp.bool() {
                st = moa_pan_set_enabled(L, p, Int32(inp.below(2)))
                what = "pan_set_enabled"
            } else {
                st = moa_pan_free(L, p)
                what = "pan_free \(p)"
                if st == MOA_OK { m.pans.removeAll { $0 == p }; m.bury(p) }
            }
        }
        if p == 0 && !what.hasPrefix("pan_new") { mustFail = true }

    case 25:  // pictures, traces, lists: reads (they may solve)
        var text: UnsafePointer<CChar>? = nil
        var n = 0
        switch inp.below(10) {
        case 0: st = moa_layout_svg(L, Int32(inp.below(9)), &text); what = "svg"
        case 1: st = moa_layout_trace_start(L, Int32(inp.below(2))); what = "trace_start"
        case 2: st = moa_layout_trace_stop(L); what = "trace_stop"
        case 3: st = moa_layout_trace_csv(L, &text); what = "trace_csv"
        case 4: st = moa_layout_trace_json(L, &text); what = "trace_json"
        case 5: st = moa_layout_trace_svg_strip(L, inp.below(5), Int32(inp.below(8)), &text); what = "trace_svg_strip"
        case 6:
            var views = [moa_view](repeating: 0, count: 4)
            var vars = [Int32](repeating: 0, count: 4)
            st = moa_layout_ambiguities(L, &views, &vars, 4, &n)
            what = "ambiguities"
        case 7:
            var frames = [moa_frame](repeating: moa_frame(), count: 8)
            st = moa_layout_frames(L, Int32(inp.below(2)), &frames, frames.count, &n)
            what = "frames"
            if st == MOA_OK { m.checkRequired() }  // frames solve first
        case 8: st = moa_layout_html(L, inp.bool() ? nil : "</script>", &text); what = "html"
        default:
            var vs = [moa_view](repeating: 0, count: 4)
            st = moa_layout_changed_views(L, &vs, 4, &n)
            what = "changed_views"
        }
        if st == MOA_OK && text != nil { _ = String(cString: text!) }  // readable to its NUL

    case 26:  // custom curves
        var curve: moa_curve = 0
        if inp.bool() {
            let r = inp.number(), resp = inp.size(2)
            var v = inp.number().value
            let keep = inp.bool()
            st = withUnsafePointer(to: &v) { pv in moa_layout_spring_curve(L, r.value, resp.value, keep ? nil : pv, &curve) }
            what = "spring_curve"
        } else {
            st = moa_layout_bezier_curve(L, Double(inp.below(11)) / 10, inp.number().value, Double(inp.below(11)) / 10,
                                         inp.number().value, &curve)
            what = "bezier_curve"
        }
        if st == MOA_OK {
            expect(curve >= MOA_CURVE_CUSTOM, "a custom curve below MOA_CURVE_CUSTOM: \(curve)")
            m.curves.append(curve)
        }

    case 32:  // limits and the progress callback: calls that reach them fail with MOA_LIMIT and change nothing
        switch inp.below(4) {
        case 0:
            let which = Int32(inp.below(5))   // rows, cells, seconds, pivots, and one unknown
            let n = inp.number()
            let value = inp.bool() ? Double(inp.below(which == MOA_LIMIT_PIVOTS ? 40 : 400)) : n.value
            st = moa_layout_set_limit(L, which, value)
            what = "set_limit \(which) \(value)"
            let whole = value.isFinite && value >= 1 && value <= 9_007_199_254_740_992 && value.rounded() == value
            mustFail = which > MOA_LIMIT_PIVOTS || (which != MOA_LIMIT_SECONDS && !whole)
                || (which == MOA_LIMIT_SECONDS && !(value.isFinite && value >= 0))
            if st == MOA_OK { m.limited = true }
        case 1:
            progressStop.pointee = UInt64(inp.below(300))
            let interval = UInt64(inp.below(40))
            st = moa_layout_set_progress(L, fuzzProgress, interval, progressStop)
            what = "set_progress every \(interval), stop at \(progressStop.pointee)"
            mustFail = interval == 0
            if st == MOA_OK { m.limited = true }
        case 2:
            st = moa_layout_set_progress(L, nil, 0, nil)
            what = "set_progress NULL"
        default:
            st = moa_layout_set_limit(L, MOA_LIMIT_ROWS, 10_000_000)
            if st == MOA_OK { st = moa_layout_set_limit(L, MOA_LIMIT_CELLS, 100_000_000) }
            if st == MOA_OK { st = moa_layout_set_limit(L, MOA_LIMIT_SECONDS, 0) }
            if st == MOA_OK { st = moa_layout_set_limit(L, MOA_LIMIT_PIVOTS, 10_000_000) }
            what = "default limits"
        }

    case 28:  // stacks, guides, chains, barriers, visual format
        arrangeStep(m, &inp, &st, &what, &mustFail)

    case 27:  // a fresh layout (rarely): the old one's completions all run now
        if inp.below(4) != 0 { return }
        trace("free layout")
        m.free()
        m.replace(with: &inp)
        return

    default:  // NULL handles and pointers: MOA_MISUSE, nothing changes
        var out: moa_view = 0
        var n = 0
        expect(moa_layout_root(nil, &out) == MOA_MISUSE && moa_layout_eq(nil, "a.left == 0", nil) == MOA_MISUSE
               && moa_layout_advance(nil, 1) == MOA_MISUSE && moa_layout_views(nil, nil, 0, &n) == MOA_MISUSE,
               "a NULL layout was not MOA_MISUSE")
        st = inp.bool() ? moa_layout_eq(L, nil, &out) : moa_layout_views(L, nil, 3, &n)
        what = "NULL argument"
        mustFail = true
        moa_layout_free(nil)
    }
    if freedInCallback {
        // A completion freed the layout (deferred to the end of this call): nothing left to compare.
        trace("\(what) -> \(st) (the layout freed itself from a callback)")
        return
    }
    trace("\(what) -> \(st)")
    if mustFail { expect(st != MOA_OK, "\(what) succeeded with bad arguments") }
    if st != MOA_OK {
        var info = moa_error_info()
        expect(moa_layout_error_info(L, &info) == MOA_OK && info.code == st, "error_info code \(info.code) for status \(st)")
        expect(info.kind != nil && info.message != nil && String(cString: info.kind!) != "", "error_info without a kind")
        let after = m.snapshot()
        if after != before {
            violation("\(what) failed with \(st) (\(String(cString: moa_layout_errmsg(L)))) but changed the layout\n"
                + "--- before\n\(before)--- after\n\(after)")
        }
    }
}

extension LayoutModel {
    fileprivate func replace(with inp: inout FuzzInput) {
        let fresh = LayoutModel(&inp)  // owns nothing itself: the handle moves to self
        L = fresh.L
        root = fresh.root
        guides = fresh.guides
        names = fresh.names
        for v in views { bury(v) }
        for t in tracked { bury(t.id) }
        views = []
        tracked = []
        other = []
        animations = []
        collapsibles = []
        pans = []
        for x in stacks + chains + barriers { bury(x) }
        stacks = []
        chains = []
        barriers = []
        curves = [MOA_LINEAR, MOA_EASE_IN, MOA_EASE_OUT, MOA_EASE_IN_OUT, MOA_SPRING]
        wild = fresh.wild
        limited = false
    }
}

/// A successful eq: a new id is tracked, a re-issued one is already known.
private func adopt(_ m: LayoutModel, _ id: moa_lcons, _ t: Tracked?) {
    expect(id != 0 && !m.dead.contains(id), "eq gave a stale id \(id)")
    if m.tracked.contains(where: { $0.id == id }) || m.other.contains(id) { return }
    var n = 0
    _ = moa_layout_constraints(m.L, nil, 0, &n)
    var cs = [moa_lcons](repeating: 0, count: n)
    if n > 0 { _ = moa_layout_constraints(m.L, &cs, n, &n) }
    guard cs.contains(id) else { m.other.append(id); return }  // an intrinsic constraint (content priority line)
    if var t {
        t.id = id
        m.tracked.append(t)
    } else {
        m.tracked.append(Tracked(id: id, first: m.root, attr1: "", rel: 0, second: nil, attr2: "", multiplier: 1, checkable: false))
    }
}

/// After a call that may remove constraints as a side effect: forget the ones that are gone (they stay gone).
private func resync(_ m: LayoutModel) {
    var keep: [Tracked] = []
    for t in m.tracked {
        var a: Int32 = 0
        if moa_lcons_active(m.L, t.id, &a) == MOA_OK { keep.append(t) } else { m.bury(t.id) }
    }
    m.tracked = keep
    m.other.removeAll { id in
        var a: Int32 = 0
        return moa_lcons_active(m.L, id, &a) != MOA_OK
    }
}

/// A parse error names a location inside the text.
private func checkErrorInfo(_ m: LayoutModel, _ text: String, _ st: moa_status) {
    var info = moa_error_info()
    expect(moa_layout_error_info(m.L, &info) == MOA_OK, "error_info")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    expect(info.line >= 1 && Int(info.line) <= lines.count, "parse error on line \(info.line) of \(lines.count)")
    let lineBytes = lines[Int(info.line) - 1].utf8.count
    expect(info.offset >= 0 && Int(info.offset) <= lineBytes, "parse error offset \(info.offset) in a line of \(lineBytes) bytes")
    expect(info.length >= 0 && Int(info.offset) + Int(info.length) <= lineBytes + 1,
           "parse error token \(info.offset)+\(info.length) past the line (\(lineBytes) bytes)")
}

/// One call of the arrangement API with arguments good, wild or bad.
private func arrangeStep(_ m: LayoutModel, _ inp: inout FuzzInput, _ st: inout moa_status, _ what: inout String,
                         _ mustFail: inout Bool) {
    let L = m.L
    func pickStack() -> moa_view {
        if !m.stacks.isEmpty, inp.below(8) != 0 { return m.stacks[inp.below(m.stacks.count)] }
        return pickView(m, &inp).0
    }
    func someViews() -> [moa_view] { (0 ..< inp.below(5)).map { _ in pickView(m, &inp).0 } }
    func newName() -> String {
        if inp.below(10) == 0 { return ["", "root", "1x", "a b"][inp.below(4)] }
        m.nameCounter += 1
        return "v\(m.nameCounter)"
    }
    switch inp.below(16) {
    case 0:
        let (parent, _) = pickView(m, &inp)
        let name = newName()
        var v: moa_view = 0
        st = moa_stack_new(L, name, parent, moa_axis(rawValue: UInt32(inp.below(3))), &v)
        what = "stack_new \(name)"
        if st == MOA_OK { m.stacks.append(v); m.views.append(v); m.names[v] = name }
    case 1, 2:
        let s = pickStack(), (v, _) = pickView(m, &inp)
        let index = [-1, 0, 1, 2, 50, -7][inp.below(6)]
        st = moa_stack_insert(L, s, v, index)
        what = "stack_insert \(v) in \(s) at \(index)"
    case 3:
        let s = pickStack(), (v, _) = pickView(m, &inp)
        st = moa_stack_remove(L, s, v)
        what = "stack_remove \(v) from \(s)"
    case 4:
        let s = pickStack()
        switch inp.below(5) {
        case 0: st = moa_stack_set_axis(L, s, moa_axis(rawValue: UInt32(inp.below(3)))); what = "stack_set_axis"
        case 1: st = moa_stack_set_distribution(L, s, moa_stack_distribution(rawValue: UInt32(inp.below(6)))); what = "stack_set_distribution"
        case 2: st = moa_stack_set_alignment(L, s, moa_stack_alignment(rawValue: UInt32(inp.below(9)))); what = "stack_set_alignment"
        case 3:
            let x = inp.number()
            st = moa_stack_set_spacing(L, s, x.value)
            what = "stack_set_spacing \(x.value)"
            mustFail = !x.value.isFinite
            if st == MOA_OK && x.kind != .nice { m.wild = true }
        default: st = moa_stack_set_margins_relative(L, s, Int32(inp.below(2))); what = "stack_set_margins_relative"
        }
    case 5:
        let s = pickStack(), (v, _) = pickView(m, &inp)
        let x = inp.bool() ? MOA_SPACING_DEFAULT : inp.number().value
        st = moa_stack_set_custom_spacing(L, s, v, x)
        what = "stack_set_custom_spacing \(x)"
        if st == MOA_OK && abs(x) > 1e6 && x != MOA_SPACING_DEFAULT { m.wild = true }
    case 6, 7:
        let s = pickStack(), (v, _) = pickView(m, &inp)
        let (ud, p) = newUD()
        let dur = inp.size(1)
        var anim: moa_animation = 0
        st = moa_stack_set_hidden(L, s, v, Int32(inp.below(2)), Int32(inp.below(2)), dur.value, pickCurve(m, &inp),
                                  doneCallback, p, &anim)
        what = "stack_set_hidden \(v) in \(s)"
        settle(st, ud)
    case 8:
        var n = 0, axis: Int32 = 0, d: Int32 = 0, a: Int32 = 0, sp = 0.0, mr: Int32 = 0, hidden: Int32 = 0
        let s = pickStack()
        st = inp.bool() ? moa_stack_views(L, s, nil, 0, &n) : moa_stack_get(L, s, &axis, &d, &a, &sp, &mr)
        if st == MOA_OK, inp.bool() { st = moa_stack_is_hidden(L, s, pickView(m, &inp).0, &hidden) }
        what = "stack reads"
    case 9:
        let vs = someViews()
        var ws = vs.map { _ in [0, 1, 2, -1, .nan][inp.below(5)] }
        let style = moa_chain_style(rawValue: UInt32(inp.below(4)))
        let gap = [0, 8, -1, .infinity][inp.below(4)], bias = [0.5, 0, 1, 2, .nan][inp.below(5)]
        var c: moa_chain = 0
        st = ws.withUnsafeMutableBufferPointer { w in
            moa_chain_new(L, vs, vs.count, moa_axis(rawValue: UInt32(inp.below(3))), style, gap, bias,
                          inp.bool() ? nil : w.baseAddress, &c)
        }
        what = "chain_new \(vs)"
        if st == MOA_OK { m.chains.append(c) }
    case 10:
        let c = m.chains.isEmpty || inp.below(8) == 0 ? pickView(m, &inp).0 : m.chains[inp.below(m.chains.count)]
        switch inp.below(5) {
        case 0: st = moa_chain_set_style(L, c, moa_chain_style(rawValue: UInt32(inp.below(4)))); what = "chain_set_style"
        case 1: st = moa_chain_set_bias(L, c, [0.25, 1, -1, .nan][inp.below(4)]); what = "chain_set_bias"
        case 2: st = moa_chain_set_gap(L, c, [4, 0, -3, .infinity][inp.below(4)]); what = "chain_set_gap"
        case 3: st = moa_chain_set_weight(L, c, pickView(m, &inp).0, [0, 1, 3, -2, .nan][inp.below(5)]); what = "chain_set_weight"
        default:
            st = moa_chain_free(L, c)
            what = "chain_free \(c)"
            if st == MOA_OK { m.chains.removeAll { $0 == c }; m.bury(c) }
        }
    case 11:
        let name = newName(), vs = someViews()
        var g: moa_view = 0
        let parent = inp.bool() ? 0 : pickView(m, &inp).0
        st = moa_barrier_new(L, name, parent, moa_barrier_side(rawValue: UInt32(inp.below(7))), vs, vs.count,
                             [0, 8, -4, .nan][inp.below(4)], &g)
        what = "barrier_new \(name) \(vs)"
        if st == MOA_OK { m.barriers.append(g); m.names[g] = name }
    case 12:
        let b = m.barriers.isEmpty || inp.below(8) == 0 ? pickView(m, &inp).0 : m.barriers[inp.below(m.barriers.count)]
        if inp.bool() {
            let vs = someViews()
            st = moa_barrier_set_views(L, b, vs, vs.count)
            what = "barrier_set_views \(vs)"
        } else {
            st = moa_barrier_set_margin(L, b, [2, 0, .nan, 1e300][inp.below(4)])
            what = "barrier_set_margin"
        }
    case 13:
        let (parent, _) = pickView(m, &inp)
        let name = newName()
        var g: moa_view = 0
        st = moa_guide_new(L, name, parent, &g)
        what = "guide_new \(name)"
        if st == MOA_OK { m.names[g] = name }
    default:
        // A format from pieces, right or wrong.
        let pieces = ["H:", "V:", "|", "-", "-8-", "-(>=4@750)-", "(", ")", "[", "]", "==", "@", ",", "m", " ", "-(-3)-"]
        var text = ""
        for _ in 0 ..< inp.below(12) {
            if inp.below(3) == 0 {
                let (name, _) = itemName(m, &inp)
                text += "[\(name)" + (inp.bool() ? "(>=\(inp.below(90)),<=m@\(inp.below(1100)))" : "") + "]"
            } else {
                text += pieces[inp.below(pieces.count)]
            }
        }
        var out = [moa_lcons](repeating: 0, count: 16)
        var n = 0
        var bits: UInt32 = 0
        if inp.bool() {
            st = moa_layout_vfl_options(L, ["alignAllTop", "alignAllLeft alignAllRight", "nope", ""][inp.below(4)], &bits)
        }
        let names: [String] = ["m"], values: [Double] = [[10, .nan][inp.below(2)]]
        st = names.withCStringArray { ns in
            moa_layout_vfl(L, text, ns, values, inp.below(3) == 0 ? 0 : 1, inp.bool() ? bits : UInt32(inp.byte()) << 3,
                           &out, out.count, &n)
        }
        what = "vfl \(text)"
        if st == MOA_OK { for id in out.prefix(min(n, out.count)) { adopt(m, id, nil) } }
        if st == MOA_PARSE { checkErrorInfo(m, text, st) }
    }
}

extension Array where Element == String {
    /// Calls `body` with the strings as a C array of `const char *`.
    func withCStringArray<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let ptrs: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        return ptrs.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// Where the fuzzer's progress callback stops a call (the `ud` it is given).
nonisolated(unsafe) private let progressStop = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)

/// A progress callback that stops a call once it has added `*ud` constraints.
private let fuzzProgress: moa_progress_fn = { _, steps, ud in
    steps >= ud!.assumingMemoryBound(to: UInt64.self).pointee ? 1 : 0
}
