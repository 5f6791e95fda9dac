// Moa — C ABI: motion (the clock, animations and curves, collapse, keyboard, pan, frame traces).
//
// Completion callbacks are Swift closures that hold the layout box weakly and call C through
// `LayoutBox.callDone` / `restClosure`, which count the callback depth: moa_layout_advance/seek refuse to run
// inside a callback, and moa_layout_free from one is deferred (LayoutBox.swift, `withLayout`).

import MoaLayout

// MARK: - The clock

@_cdecl("moa_layout_advance")
public func moa_layout_advance(_ L: OpaquePointer?, _ dt: Double) -> Int32 {
    withLayoutChange(L) { box in
        try box.checkNotInCallback("moa_layout_advance")
        box.lastChanged = try box.layout.animator._advance(by: dt)
        try box.throwMeasureFailure()
    }
}

@_cdecl("moa_layout_advance_frames")
public func moa_layout_advance_frames(
    _ L: OpaquePointer?, _ dt: Double, _ out: UnsafeMutableRawPointer?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayoutChange(L) { box in
        let count = try checkedListOut(out == nil, cap, count)
        try box.checkNotInCallback("moa_layout_advance_frames")
        box.lastChanged = try box.layout.animator._advance(by: dt)
        try box.throwMeasureFailure()
        count.pointee = box.writeChangedFrames(out, cap)
    }
}

@_cdecl("moa_layout_seek")
public func moa_layout_seek(_ L: OpaquePointer?, _ t: Double) -> Int32 {
    withLayoutChange(L) { box in
        try box.checkNotInCallback("moa_layout_seek")
        box.lastChanged = try box.layout.animator._seek(to: t)
        try box.throwMeasureFailure()
    }
}

@_cdecl("moa_layout_time")
public func moa_layout_time(_ L: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { box.layout.animator.time }
    }
}

@_cdecl("moa_layout_is_animating")
public func moa_layout_is_animating(_ L: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { box.layout.animator.isAnimating ? 1 : 0 }
    }
}

// MARK: - Curves

@_cdecl("moa_layout_spring_curve")
public func moa_layout_spring_curve(
    _ L: OpaquePointer?, _ dampingRatio: Double, _ response: Double, _ velocity: UnsafePointer<Double>?,
    _ out: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withLayoutChange(L) { box in
        let out = try required(out, "out")
        let spring = Spring(dampingRatio: dampingRatio, response: response, initialVelocity: velocity?.pointee)
        guard spring.isValid else {
            throw BoundaryFailure.invalid("spring damping ratio and response must be finite and above 0, the velocity finite")
        }
        out.pointee = try box.register(.spring(spring))
    }
}

@_cdecl("moa_layout_bezier_curve")
public func moa_layout_bezier_curve(
    _ L: OpaquePointer?, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ out: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withLayoutChange(L) { box in
        let out = try required(out, "out")
        let b = CubicBezier(x1, y1, x2, y2)
        guard b.isValid else {
            throw BoundaryFailure.invalid("cubic-bezier control points must be finite, with x1 and x2 in 0...1")
        }
        out.pointee = try box.register(.cubicBezier(b))
    }
}

@_cdecl("moa_curve_name")
public func moa_curve_name(_ curve: Int32) -> UnsafePointer<CChar>? {
    switch curve {
    case 0: return cString("linear")
    case 1: return cString("easeIn")
    case 2: return cString("easeOut")
    case 3: return cString("easeInOut")
    case 4: return cString("spring")
    case 5: return cString("keyboard")
    default: return nil
    }
}

// MARK: - Animations

/// Starts an animation through `start` with a completion that calls `done`, and writes its id to `out`.
private func startAnimation(
    _ box: LayoutBox, _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?,
    _ start: (((Bool) -> Void)?) throws -> Animation
) throws {
    let cell = AnimationCell()
    let a = try start(box.doneClosure(done, ud, cell))
    cell.id = a.id
    let id = box.id(a)
    out?.pointee = id
}

@_cdecl("moa_lcons_animate")
public func moa_lcons_animate(
    _ L: OpaquePointer?, _ c: UInt64, _ to: Double, _ duration: Double, _ curve: Int32, _ delay: Double,
    _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let c = try box.constraint(c)
        let curve = try box.curve(curve)
        try startAnimation(box, done, ud, out) { completion in
            try box.layout.animator.animate(c, to: to, duration: duration, curve: curve, delay: delay,
                                            completion: completion)
        }
    }
}

@_cdecl("moa_lcons_animate_priority")
public func moa_lcons_animate_priority(
    _ L: OpaquePointer?, _ c: UInt64, _ to: Double, _ duration: Double, _ curve: Int32, _ delay: Double,
    _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let c = try box.constraint(c)
        let curve = try box.curve(curve)
        try startAnimation(box, done, ud, out) { completion in
            try box.layout.animator.animate(c, priority: to, duration: duration, curve: curve, delay: delay,
                                            completion: completion)
        }
    }
}

@_cdecl("moa_layout_animate_root_size")
public func moa_layout_animate_root_size(
    _ L: OpaquePointer?, _ width: Double, _ height: Double, _ duration: Double, _ curve: Int32, _ delay: Double,
    _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let curve = try box.curve(curve)
        try startAnimation(box, done, ud, out) { completion in
            try box.layout.animator.animateRootSize(width: width, height: height, duration: duration, curve: curve,
                                                    delay: delay, completion: completion)
        }
    }
}

@_cdecl("moa_animation_cancel")
public func moa_animation_cancel(_ L: OpaquePointer?, _ a: UInt64) -> Int32 {
    withLayoutChange(L) { box in try box.animation(a)?.cancel() }
}

@_cdecl("moa_lcons_stop_animating")
public func moa_lcons_stop_animating(_ L: OpaquePointer?, _ c: UInt64) -> Int32 {
    withLayoutChange(L) { box in box.layout.animator.stopAnimating(try box.constraint(c)) }
}

@_cdecl("moa_layout_cancel_animations")
public func moa_layout_cancel_animations(_ L: OpaquePointer?) -> Int32 {
    withLayoutChange(L) { box in box.layout.animator.cancelAll() }
}

// MARK: - Collapse

@_cdecl("moa_collapsible_new")
public func moa_collapsible_new(
    _ L: OpaquePointer?, _ v: UInt64, _ c: UInt64, _ dir: UInt32, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let out = try required(out, "out")
        let view = try box.view(v)
        let constraint = try box.constraint(c)
        let col = try box.layout.collapsible(view, constraint: constraint, direction: collapseDirection(dir))
        out.pointee = box.add(col)
    }
}

@_cdecl("moa_collapsible_free")
public func moa_collapsible_free(_ L: OpaquePointer?, _ id: UInt64) -> Int32 {
    withLayoutChange(L) { box in try box.removeCollapsible(id) }
}

/// Collapses or shows; the completion of an unanimated change is a zero-length timer made here, so that its
/// id is known.
private func setCollapsed(
    _ box: LayoutBox, _ col: Collapsible, _ collapsed: Bool, _ animated: Bool, _ duration: Double, _ curve: Int32,
    _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) throws {
    let curve = try box.curve(curve)
    try checkSeconds(duration, "duration")
    try box.solveIfNeeded()  // the collapsed constant uses the view's solved size
    if animated {
        try startAnimation(box, done, ud, out) { completion in
            guard let a = try col.setCollapsed(collapsed, animated: true, duration: duration, curve: curve,
                                               completion: completion) else {
                throw BoundaryFailure(status: Status.error, kind: "internalError", message: "no animation was made")
            }
            return a
        }
        return
    }
    try col.setCollapsed(collapsed, animated: false, duration: duration, curve: curve, completion: nil)
    if done != nil {
        try startAnimation(box, done, ud, nil) { completion in
            try box.layout.animator.animate([], duration: 0, completion: completion)
        }
    }
    out?.pointee = 0
}

@_cdecl("moa_collapsible_set")
public func moa_collapsible_set(
    _ L: OpaquePointer?, _ id: UInt64, _ collapsed: Int32, _ animated: Int32, _ duration: Double, _ curve: Int32,
    _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let col = try box.collapsible(id)
        try setCollapsed(box, col, collapsed != 0, animated != 0, duration, curve, done, ud, out)
    }
}

@_cdecl("moa_collapsible_toggle")
public func moa_collapsible_toggle(
    _ L: OpaquePointer?, _ id: UInt64, _ animated: Int32, _ duration: Double, _ curve: Int32, _ done: DoneFn?,
    _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let col = try box.collapsible(id)
        try setCollapsed(box, col, !col.isCollapsed, animated != 0, duration, curve, done, ud, out)
    }
}

@_cdecl("moa_collapsible_is_collapsed")
public func moa_collapsible_is_collapsed(_ L: OpaquePointer?, _ id: UInt64, _ out: UnsafeMutablePointer<Int32>?)
    -> Int32
{
    withLayout(L) { box in
        try output(out) { try box.collapsible(id).isCollapsed ? 1 : 0 }
    }
}

// MARK: - Keyboard

@_cdecl("moa_layout_show_keyboard")
public func moa_layout_show_keyboard(
    _ L: OpaquePointer?, _ height: Double, _ duration: Double, _ curve: Int32, _ done: DoneFn?,
    _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let curve = try box.curve(curve)
        try startAnimation(box, done, ud, out) { completion in
            try box.layout.showKeyboard(height: height, duration: duration, curve: curve, completion: completion)
        }
    }
}

@_cdecl("moa_layout_hide_keyboard")
public func moa_layout_hide_keyboard(
    _ L: OpaquePointer?, _ duration: Double, _ curve: Int32, _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let curve = try box.curve(curve)
        try startAnimation(box, done, ud, out) { completion in
            try box.layout.hideKeyboard(duration: duration, curve: curve, completion: completion)
        }
    }
}

// MARK: - Pan

/// The most constraints or rest positions a pan driver takes (documented in moa.h).
let maxPanItems = 65536

/// `n` finite rest positions (MOA_MISUSE for NULL with n > 0, MOA_INVALID for too many or non-finite ones).
private func restPositions(_ rest: UnsafePointer<Double>?, _ n: Int) throws -> [Double] {
    guard n >= 0, n <= maxPanItems else { throw BoundaryFailure.invalid("at most \(maxPanItems) rest positions") }
    guard n > 0 else { return [] }
    guard let rest else { throw BoundaryFailure.misuse("rest is NULL but nrest is \(n)") }
    let list = Array(UnsafeBufferPointer(start: rest, count: n))
    if let bad = list.first(where: { !Layout.isLength($0) }) {
        throw BoundaryFailure.invalid("rest position \(bad) must be finite, within ±1e9")
    }
    return list
}

@_cdecl("moa_pan_new")
public func moa_pan_new(
    _ L: OpaquePointer?, _ cons: UnsafePointer<UInt64>?, _ n: Int, _ axis: UInt32, _ rest: UnsafePointer<Double>?,
    _ nrest: Int, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayoutChange(L) { box in
        let out = try required(out, "out")
        guard let cons else { throw BoundaryFailure.misuse("cons is NULL") }
        guard n > 0, n <= maxPanItems else { throw BoundaryFailure.invalid("a pan driver takes 1...\(maxPanItems) constraints") }
        let constraints = try UnsafeBufferPointer(start: cons, count: n).map { try box.constraint($0) }
        let axis = try layoutAxis(axis)
        var rests = try restPositions(rest, nrest)
        if rests.isEmpty { rests = [0] }
        let pan = try PanDriver(constraints: constraints, axis: axis, restPositions: rests)
        out.pointee = box.add(pan)
    }
}

@_cdecl("moa_pan_free")
public func moa_pan_free(_ L: OpaquePointer?, _ p: UInt64) -> Int32 {
    withLayoutChange(L) { box in try box.removePan(p) }
}

@_cdecl("moa_pan_began")
public func moa_pan_began(_ L: OpaquePointer?, _ p: UInt64, _ accepted: UnsafeMutablePointer<Int32>?) -> Int32 {
    withLayoutChange(L) { box in
        let (pan, _) = try box.pan(p)
        let ok = try pan.began()  // not on the right of `accepted?.pointee =`: skipped when accepted is NULL
        accepted?.pointee = ok ? 1 : 0
    }
}

@_cdecl("moa_pan_changed")
public func moa_pan_changed(
    _ L: OpaquePointer?, _ p: UInt64, _ translation: Double, _ velocity: Double,
    _ accepted: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withLayoutChange(L) { box in
        let (pan, _) = try box.pan(p)
        let ok = try pan.changed(translation: translation, velocity: velocity)
        accepted?.pointee = ok ? 1 : 0
    }
}

@_cdecl("moa_pan_ended")
public func moa_pan_ended(
    _ L: OpaquePointer?, _ p: UInt64, _ velocity: Double, _ done: RestFn?, _ ud: UnsafeMutableRawPointer?,
    _ target: UnsafeMutablePointer<Double>?, _ accepted: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withLayoutChange(L) { box in
        let (pan, n) = try box.pan(p)
        let t = try pan.ended(velocity: velocity, completion: box.restClosure(done, ud, n))
        if let t { target?.pointee = t }
        accepted?.pointee = t == nil ? 0 : 1
    }
}

@_cdecl("moa_pan_cancelled")
public func moa_pan_cancelled(
    _ L: OpaquePointer?, _ p: UInt64, _ done: RestFn?, _ ud: UnsafeMutableRawPointer?,
    _ target: UnsafeMutablePointer<Double>?, _ accepted: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withLayoutChange(L) { box in
        let (pan, n) = try box.pan(p)
        let t = try pan.cancelled(completion: box.restClosure(done, ud, n))
        if let t { target?.pointee = t }
        accepted?.pointee = t == nil ? 0 : 1
    }
}

@_cdecl("moa_pan_move")
public func moa_pan_move(
    _ L: OpaquePointer?, _ p: UInt64, _ offset: Double, _ animated: Int32, _ done: RestFn?,
    _ ud: UnsafeMutableRawPointer?
) -> Int32 {
    withLayoutChange(L) { box in
        let (pan, n) = try box.pan(p)
        try pan.move(to: offset, animated: animated != 0, completion: box.restClosure(done, ud, n))
    }
}

@_cdecl("moa_pan_set_enabled")
public func moa_pan_set_enabled(_ L: OpaquePointer?, _ p: UInt64, _ enabled: Int32) -> Int32 {
    withLayoutChange(L) { box in try box.pan(p).0.isEnabled = enabled != 0 }
}

@_cdecl("moa_pan_set_options")
public func moa_pan_set_options(
    _ L: OpaquePointer?, _ p: UInt64, _ fastVelocity: Double, _ fastStep: Double, _ dragLimit: Double,
    _ snapDuration: Double, _ snapCurve: Int32
) -> Int32 {
    withLayoutChange(L) { box in
        let (pan, _) = try box.pan(p)
        for (x, what) in [(fastVelocity, "fast_velocity"), (fastStep, "fast_step")] where !(x.isFinite && x >= 0) {
            throw BoundaryFailure.invalid("\(what) must be finite and >= 0")
        }
        guard snapDuration.isFinite, snapDuration >= 0, snapDuration <= 1e12 else {   // as every duration
            throw BoundaryFailure.invalid("snap_duration must be finite, 0...1e12 seconds")
        }
        guard dragLimit == -1 || (dragLimit.isFinite && dragLimit >= 0) else {
            throw BoundaryFailure.invalid("drag_limit must be finite and >= 0, or MOA_AUTO")
        }
        let curve = try box.curve(snapCurve)
        pan.fastSwipeVelocity = fastVelocity
        pan.fastSwipeStep = fastStep
        pan.dragLimit = dragLimit == -1 ? nil : dragLimit
        pan.snapDuration = snapDuration
        pan.snapCurve = curve
    }
}

@_cdecl("moa_pan_options")
public func moa_pan_options(
    _ L: OpaquePointer?, _ p: UInt64, _ fastVelocity: UnsafeMutablePointer<Double>?,
    _ fastStep: UnsafeMutablePointer<Double>?, _ dragLimit: UnsafeMutablePointer<Double>?,
    _ snapDuration: UnsafeMutablePointer<Double>?, _ snapCurve: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withLayout(L) { box in
        let (pan, _) = try box.pan(p)
        let curve = try box.code(of: pan.snapCurve)   // the only step that can fail: before any write
        fastVelocity?.pointee = pan.fastSwipeVelocity
        fastStep?.pointee = pan.fastSwipeStep
        dragLimit?.pointee = pan.dragLimit ?? -1
        snapDuration?.pointee = pan.snapDuration
        snapCurve?.pointee = curve
    }
}

@_cdecl("moa_pan_set_orientations")
public func moa_pan_set_orientations(_ L: OpaquePointer?, _ p: UInt64, _ orientations: Int32) -> Int32 {
    withLayoutChange(L) { box in
        let (pan, _) = try box.pan(p)
        guard (1...3).contains(orientations) else {
            throw BoundaryFailure.invalid("orientations must be MOA_PORTRAIT, MOA_LANDSCAPE or MOA_ANY_ORIENTATION, got \(orientations)")
        }
        pan.orientations = Orientations(rawValue: Int(orientations))
    }
}

@_cdecl("moa_pan_set_rest_positions")
public func moa_pan_set_rest_positions(_ L: OpaquePointer?, _ p: UInt64, _ rest: UnsafePointer<Double>?, _ n: Int)
    -> Int32
{
    withLayoutChange(L) { box in
        let (pan, _) = try box.pan(p)
        guard rest != nil else { throw BoundaryFailure.misuse("rest is NULL") }
        let list = try restPositions(rest, n)
        guard !list.isEmpty else { throw BoundaryFailure.invalid("a pan driver needs at least one rest position") }
        pan.restPositions = list
    }
}

@_cdecl("moa_pan_offset")
public func moa_pan_offset(_ L: OpaquePointer?, _ p: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withLayout(L) { box in
        let out = try required(out, "out")
        let (pan, _) = try box.pan(p)
        guard pan.constraints[0].isValid else {
            throw BoundaryFailure.notFound("the pan driver's first constraint was removed")
        }
        out.pointee = pan.offset
    }
}

@_cdecl("moa_pan_rest_position")
public func moa_pan_rest_position(_ L: OpaquePointer?, _ p: UInt64, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.pan(p).0.restPosition }
    }
}

// MARK: - Frame traces

@_cdecl("moa_layout_trace_start")
public func moa_layout_trace_start(_ L: OpaquePointer?, _ includeGuides: Int32) -> Int32 {
    withLayoutChange(L) { box in
        try box.solveIfNeeded()
        box.lastTrace = nil
        box.layout.animator.startRecording(includeGuides: includeGuides != 0)
    }
}

@_cdecl("moa_layout_trace_stop")
public func moa_layout_trace_stop(_ L: OpaquePointer?) -> Int32 {
    withLayoutChange(L) { box in
        let animator = box.layout.animator
        if animator.isRecording { box.lastTrace = animator.stopRecording() }
    }
}

extension LayoutBox {
    /// The trace being recorded, else the one kept by the last stop, else an empty one.
    var currentTrace: FrameTrace {
        let animator = layout.animator
        if animator.isRecording { return animator.recording }
        return lastTrace ?? FrameTrace([])
    }
}

@_cdecl("moa_layout_trace_csv")
public func moa_layout_trace_csv(_ L: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.text.keep(box.currentTrace.csv()) }
    }
}

@_cdecl("moa_layout_trace_json")
public func moa_layout_trace_json(_ L: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    withLayout(L) { box in
        try output(out) { try box.text.keep(box.currentTrace.json()) }
    }
}

@_cdecl("moa_layout_trace_svg_strip")
public func moa_layout_trace_svg_strip(
    _ L: OpaquePointer?, _ maxFrames: Int, _ flags: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    withLayout(L) { box in
        let out = try required(out, "out")
        guard maxFrames >= 0, maxFrames <= 100_000 else { throw BoundaryFailure.invalid("max_frames must be 0...100000") }
        let options = try svgOptions(flags, allowConstraints: false)
        let all = box.currentTrace.snapshots
        var picked = all
        if maxFrames > 0, all.count > maxFrames {
            // Evenly spaced, first and last included.
            picked = maxFrames == 1 ? [all[0]]
                : (0..<maxFrames).map { all[$0 * (all.count - 1) / (maxFrames - 1)] }
        }
        out.pointee = try box.text.keep(FrameTrace(picked).stripSVG(options))
    }
}
