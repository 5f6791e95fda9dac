// Moa — C ABI: the layout level (lifecycle, errors, root and guides, views, equations and constraints,
// solving and reading).
//
// Each export: unbox (MOA_MISUSE on NULL), check ids and what Swift cannot take as is, call MoaLayout, record
// the outcome (see LayoutBox.swift). Parameter types are what the Swift importer makes of Include/moa.h
// (size_t → Int, int → Int32, C enums → UInt32, struct pointers → raw pointers); MoaCTests checks them with
// `same(_:_:)`.

import MoaLayout

// MARK: - Lifecycle and errors

@_cdecl("moa_layout_new")
public func moa_layout_new(_ width: Double, _ height: Double) -> OpaquePointer? {
    guard let layout = try? Layout(width: width, height: height) else { return nil }
    return OpaquePointer(Unmanaged.passRetained(LayoutBox(layout)).toOpaque())
}

@_cdecl("moa_layout_free")
public func moa_layout_free(_ L: OpaquePointer?) {
    guard let L else { return }
    let box = LayoutBox.from(L)
    guard !box.freePending, !box.closing else { return }
    if box.depth > 0 {
        box.freePending = true  // from a callback: runs when the outermost call returns
        return
    }
    box.performFree()
}

@_cdecl("moa_layout_errmsg")
public func moa_layout_errmsg(_ L: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let L else { return cString("NULL layout handle (was moa_layout_new() called, and did it succeed?)") }
    return LayoutBox.from(L).record.text
}

@_cdecl("moa_layout_error_info")
public func moa_layout_error_info(_ L: OpaquePointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    guard let L, let out else { return Status.misuse }
    LayoutBox.from(L).writeInfo(to: out)
    return Status.ok
}

@_cdecl("moa_layout_conflicts")
public func moa_layout_conflicts(
    _ L: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let L else { return Status.misuse }
    return copyConflicts(LayoutBox.from(L).record, out, cap, count)
}

// MARK: - Root and guides

@_cdecl("moa_layout_set_root_size")
public func moa_layout_set_root_size(_ L: OpaquePointer?, _ width: Double, _ height: Double) -> Int32 {
    withLayout(L) { box in try box.layout.setRootSize(width: width, height: height) }
}

@_cdecl("moa_layout_root_size")
public func moa_layout_root_size(
    _ L: OpaquePointer?, _ width: UnsafeMutablePointer<Double>?, _ height: UnsafeMutablePointer<Double>?
) -> Int32 {
    withLayout(L) { box in
        width?.pointee = box.layout.rootWidth
        height?.pointee = box.layout.rootHeight
    }
}

@_cdecl("moa_layout_orientation")
public func moa_layout_orientation(_ L: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { Int32(box.layout.orientation.mask.rawValue) }
    }
}

@_cdecl("moa_layout_root")
public func moa_layout_root(_ L: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { box.id(box.layout.root) }
    }
}

@_cdecl("moa_layout_guide")
public func moa_layout_guide(_ L: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?)
    -> Int32
{
    withLayout(L) { box in
        let name = try requiredString(name, "name")
        let out = try required(out, "out")
        guard let g = box.layout.view(named: name), g.isGuide, !g.isOwned else {
            throw BoundaryFailure.notFound("`\(name)` is not a layout guide (safeArea, margins, keyboard, or one made with moa_guide_new)")
        }
        out.pointee = box.id(g)
    }
}

@_cdecl("moa_layout_set_safe_area")
public func moa_layout_set_safe_area(
    _ L: OpaquePointer?, _ top: Double, _ left: Double, _ bottom: Double, _ right: Double
) -> Int32 {
    withLayout(L) { box in
        try box.layout.setSafeAreaInsets(EdgeInsets(top: top, left: left, bottom: bottom, right: right))
    }
}

@_cdecl("moa_layout_set_keyboard_height")
public func moa_layout_set_keyboard_height(_ L: OpaquePointer?, _ height: Double) -> Int32 {
    withLayout(L) { box in try box.layout.setKeyboardHeight(height) }
}

// MARK: - Views

@_cdecl("moa_view_new")
public func moa_view_new(
    _ L: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ parent: UInt64, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayout(L) { box in
        let name = try requiredString(name, "name")
        let out = try required(out, "out")
        let v = try box.layout.addView(name, in: box.parent(parent))
        out.pointee = box.id(v)
    }
}

/// An intrinsic size from C: MOA_NO_INTRINSIC (-1) exactly means none; other negative values reach Swift, which
/// refuses them.
func intrinsicSize(_ x: Double) -> Double? { x == -1 ? nil : x }

/// The most views one `moa_views_new` call makes.
let maxViewsPerCall = 1 << 26

@_cdecl("moa_views_new")
public func moa_views_new(
    _ L: OpaquePointer?, _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ n: Int, _ parent: UInt64,
    _ sizes: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayout(L) { box in
        guard n >= 0, n <= maxViewsPerCall else { throw BoundaryFailure.invalid("n must be within 0...\(maxViewsPerCall)") }
        guard n > 0 else { return }
        guard let names else { throw BoundaryFailure.misuse("names is NULL") }
        let out = try required(out, "out")
        var list: [String] = []
        list.reserveCapacity(min(n, 1 << 16))   // grown as the names check out (a bad one fails first)
        for i in 0..<n {
            guard let p = names[i] else { throw BoundaryFailure.misuse("names[\(i)] is NULL") }
            list.append(string(p))
        }
        let intrinsic = sizes.map { s in (0..<n).map { i in (width: intrinsicSize(s[2 * i]), height: intrinsicSize(s[2 * i + 1])) } }
        let made = try box.layout.addViews(list, in: box.parent(parent), intrinsicSizes: intrinsic)
        for (i, v) in made.enumerated() { out[i] = box.id(v) }
    }
}

@_cdecl("moa_view_free")
public func moa_view_free(_ L: OpaquePointer?, _ v: UInt64) -> Int32 {
    withLayout(L) { box in
        try box.layout.removeView(box.view(v))
    }
}

@_cdecl("moa_view_find")
public func moa_view_find(_ L: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?)
    -> Int32
{
    withLayout(L) { box in
        let name = try requiredString(name, "name")
        let out = try required(out, "out")
        guard let v = box.layout.view(named: name) else { throw BoundaryFailure.notFound("no view named `\(name)`") }
        out.pointee = box.id(v)
    }
}

@_cdecl("moa_view_name")
public func moa_view_name(_ L: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    -> Int32
{
    withLayout(L) { box in
        try output(out) { try box.text.keep(box.view(v).name) }
    }
}

@_cdecl("moa_view_superview")
public func moa_view_superview(_ L: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.view(v).superview.map { box.id($0) } ?? 0 }
    }
}

@_cdecl("moa_view_set_superview")
public func moa_view_set_superview(_ L: OpaquePointer?, _ v: UInt64, _ parent: UInt64) -> Int32 {
    withLayout(L) { box in try box.view(v).setSuperview(box.parent(parent)) }
}

@_cdecl("moa_view_set_margins")
public func moa_view_set_margins(
    _ L: OpaquePointer?, _ v: UInt64, _ top: Double, _ left: Double, _ bottom: Double, _ right: Double
) -> Int32 {
    withLayout(L) { box in
        try box.view(v).setLayoutMargins(EdgeInsets(top: top, left: left, bottom: bottom, right: right))
    }
}

@_cdecl("moa_view_set_directional_margins")
public func moa_view_set_directional_margins(
    _ L: OpaquePointer?, _ v: UInt64, _ top: Double, _ leading: Double, _ bottom: Double, _ trailing: Double
) -> Int32 {
    withLayout(L) { box in
        try box.view(v).setDirectionalLayoutMargins(
            DirectionalEdgeInsets(top: top, leading: leading, bottom: bottom, trailing: trailing))
    }
}

@_cdecl("moa_view_set_direction")
public func moa_view_set_direction(_ L: OpaquePointer?, _ v: UInt64, _ dir: UInt32) -> Int32 {
    withLayout(L) { box in
        let view = try box.view(v)
        try view.setLayoutDirection(layoutDirection(dir))
    }
}

@_cdecl("moa_view_set_intrinsic_size")
public func moa_view_set_intrinsic_size(_ L: OpaquePointer?, _ v: UInt64, _ width: Double, _ height: Double) -> Int32 {
    withLayout(L) { box in
        try box.view(v).setIntrinsicSize(width: intrinsicSize(width), height: intrinsicSize(height))
    }
}

@_cdecl("moa_view_set_content_priority")
public func moa_view_set_content_priority(
    _ L: OpaquePointer?, _ v: UInt64, _ axis: UInt32, _ hugging: Double, _ compression: Double
) -> Int32 {
    withLayout(L) { box in
        let view = try box.view(v)
        let a = try layoutAxis(axis)
        for p in [hugging, compression] where !LayoutPriority.isValid(p) {
            throw BoundaryFailure.invalid("priority \(p) is outside 1...1000")
        }
        let oldHugging = view.contentHuggingPriority(for: a)
        try view.setContentHuggingPriority(hugging, for: a)
        do {
            try view.setCompressionResistancePriority(compression, for: a)
        } catch {
            try? view.setContentHuggingPriority(oldHugging, for: a)  // held before, so it holds again
            throw error
        }
    }
}

@_cdecl("moa_view_set_baseline")
public func moa_view_set_baseline(
    _ L: OpaquePointer?, _ v: UInt64, _ offset: UnsafePointer<Double>?, _ first: UnsafePointer<Double>?
) -> Int32 {
    withLayout(L) { box in try box.view(v).setBaselineOffset(offset?.pointee, first: first?.pointee) }
}

@_cdecl("moa_view_frame")
public func moa_view_frame(_ L: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutableRawPointer?) -> Int32 {
    withLayout(L) { box in
        guard let out else { throw BoundaryFailure.misuse("out is NULL") }
        storeRect(try box.view(v).frame, out)
    }
}

@_cdecl("moa_view_frame_in_root")
public func moa_view_frame_in_root(_ L: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutableRawPointer?) -> Int32 {
    withLayout(L) { box in
        guard let out else { throw BoundaryFailure.misuse("out is NULL") }
        storeRect(try box.view(v).frameInRoot, out)
    }
}

// MARK: - Equations

@_cdecl("moa_layout_eq")
public func moa_layout_eq(_ L: OpaquePointer?, _ line: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?)
    -> Int32
{
    withLayout(L) { box in
        let line = try required(line, "line")
        try output(out) { box.id(try withCallerOffsets(line) { try box.layout.eq($0) }) }
    }
}

@_cdecl("moa_layout_eqs")
public func moa_layout_eqs(
    _ L: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    moa_layout_eqs_source(L, text, nil, 1, out, cap, count)
}

@_cdecl("moa_layout_eqs_source")
public func moa_layout_eqs_source(
    _ L: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ source: UnsafePointer<CChar>?, _ firstLine: Int32,
    _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let text = try required(text, "text")
        let list = try ListOut(out, cap, count)
        guard firstLine >= 1 else { throw BoundaryFailure.invalid("first_line must be 1 or more") }
        let cs = try withCallerOffsets(text) {
            try box.layout.eqs($0, source: source.map { string($0) }, firstLine: Int(firstLine))
        }
        list.write(cs.map { box.id($0) })
    }
}

@_cdecl("moa_layout_xeq")
public func moa_layout_xeq(_ L: OpaquePointer?, _ line: UnsafePointer<CChar>?, _ removed: UnsafeMutablePointer<Int>?)
    -> Int32
{
    withLayout(L) { box in
        let line = try required(line, "line")
        let gone = try withCallerOffsets(line) { try box.layout.xeq($0) }
        removed?.pointee = gone.count
    }
}

@_cdecl("moa_layout_constraints")
public func moa_layout_constraints(
    _ L: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let list = try ListOut(out, cap, count)
        list.write(box.layout.constraints.map { box.id($0) })
    }
}

@_cdecl("moa_layout_describe")
public func moa_layout_describe(_ L: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.text.keep(box.layout.describeConstraints()) }
    }
}

@_cdecl("moa_layout_set_debug_callback")
public func moa_layout_set_debug_callback(_ L: OpaquePointer?, _ cb: TextFn?, _ ud: UnsafeMutableRawPointer?) -> Int32 {
    withLayout(L) { box in box.setDebugCallback(cb, ud) }
}

// MARK: - Constraints

@_cdecl("moa_lcons_constant")
public func moa_lcons_constant(_ L: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.constraint(c).constant }
    }
}

@_cdecl("moa_lcons_set_constant")
public func moa_lcons_set_constant(_ L: OpaquePointer?, _ c: UInt64, _ k: Double) -> Int32 {
    withLayout(L) { box in try box.constraint(c).setConstant(k) }
}

@_cdecl("moa_lcons_priority")
public func moa_lcons_priority(_ L: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.constraint(c).priority }
    }
}

@_cdecl("moa_lcons_set_priority")
public func moa_lcons_set_priority(_ L: OpaquePointer?, _ c: UInt64, _ p: Double) -> Int32 {
    withLayout(L) { box in try box.constraint(c).setPriority(p) }
}

@_cdecl("moa_lcons_active")
public func moa_lcons_active(_ L: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.constraint(c).isActive ? 1 : 0 }
    }
}

@_cdecl("moa_lcons_set_active")
public func moa_lcons_set_active(_ L: OpaquePointer?, _ c: UInt64, _ active: Int32) -> Int32 {
    withLayout(L) { box in try box.constraint(c).setActive(active != 0) }
}

@_cdecl("moa_lcons_describe")
public func moa_lcons_describe(_ L: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    -> Int32
{
    withLayout(L) { box in
        try output(out) { try box.text.keep(box.constraint(c).description) }
    }
}

@_cdecl("moa_lcons_line")
public func moa_lcons_line(_ L: OpaquePointer?, _ c: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { Int32(clamping: try box.constraint(c).line ?? 0) }
    }
}

@_cdecl("moa_lcons_remove")
public func moa_lcons_remove(_ L: OpaquePointer?, _ c: UInt64) -> Int32 {
    withLayout(L) { box in try box.layout.remove(box.constraint(c)) }
}

// MARK: - Solving and reading

@_cdecl("moa_layout_solve")
public func moa_layout_solve(_ L: OpaquePointer?, _ changed: UnsafeMutablePointer<Int>?) -> Int32 {
    withLayout(L) { box in
        try box.layout._solve()
        box.lastChanged = box.layout.changed
        changed?.pointee = box.lastChanged.count
    }
}

@_cdecl("moa_layout_changed_views")
public func moa_layout_changed_views(
    _ L: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let list = try ListOut(out, cap, count)
        var ids: [UInt64] = []
        box.forEachChangedView { serial, _ in ids.append(box.id(viewSerial: serial)) }
        list.write(ids)
    }
}

@_cdecl("moa_layout_views")
public func moa_layout_views(
    _ L: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let list = try ListOut(out, cap, count)
        list.write(box.layout.views.map { box.id($0) })
    }
}

@_cdecl("moa_layout_frames")
public func moa_layout_frames(
    _ L: OpaquePointer?, _ includeGuides: Int32, _ out: UnsafeMutableRawPointer?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let count = try checkedListOut(out == nil, cap, count)
        try box.solveIfNeeded()
        var n = 0
        box.layout.forEachSlotInHierarchy(includeGuides: includeGuides != 0) { slots, slot in
            if n < cap, let out { box.writeFrame(slots, slot, out + n * frameStride) }
            n += 1
        }
        count.pointee = n
    }
}

@_cdecl("moa_layout_changed_frames")
public func moa_layout_changed_frames(
    _ L: OpaquePointer?, _ out: UnsafeMutableRawPointer?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let count = try checkedListOut(out == nil, cap, count)
        count.pointee = box.writeChangedFrames(out, cap)
    }
}

@_cdecl("moa_layout_violations")
public func moa_layout_violations(
    _ L: OpaquePointer?, _ out: UnsafeMutablePointer<UInt64>?, _ amount: UnsafeMutablePointer<Double>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let ids = try ListOut(out, cap, count, outOptional: true)
        let amounts = try ListOut(amount, cap, count, outOptional: true)
        let list = box.layout.violatedConstraints()
        ids.write(list.map { box.id($0.constraint) })
        amounts.write(list.map(\.amount))
    }
}

@_cdecl("moa_layout_ambiguities")
public func moa_layout_ambiguities(
    _ L: OpaquePointer?, _ views: UnsafeMutablePointer<UInt64>?, _ vars: UnsafeMutablePointer<Int32>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let vs = try ListOut(views, cap, count, outOptional: true)
        let xs = try ListOut(vars, cap, count, outOptional: true)
        let list = box.layout.ambiguities()
        vs.write(list.map { box.id($0.view) })
        xs.write(list.map { Int32($0.variable.rawValue) })
    }
}

@_cdecl("moa_layout_svg")
public func moa_layout_svg(_ L: OpaquePointer?, _ flags: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?)
    -> Int32
{
    withLayout(L) { box in
        let out = try required(out, "out")
        let options = try svgOptions(flags)
        try box.solveIfNeeded()
        out.pointee = try box.text.keep(box.layout.svg(options))
    }
}

@_cdecl("moa_layout_html")
public func moa_layout_html(_ L: OpaquePointer?, _ title: UnsafePointer<CChar>?,
                            _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
{
    withLayout(L) { box in
        let out = try required(out, "out")
        try box.solveIfNeeded()
        let trace = box.currentTrace
        out.pointee = try box.text.keep(box.layout.html(title: title == nil ? "Moa layout" : string(title),
                                                        trace: trace.snapshots.isEmpty ? nil : trace))
    }
}
