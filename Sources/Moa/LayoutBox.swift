// Moa — C ABI: the box behind a `moa_layout *`: the layout, id translation (views, constraints, animations,
// collapsibles, pan drivers), timing curves, the error record, returned strings, and the callback rules
// (re-entrancy guard, deferred free, every completion called exactly once).
//
// Nothing here lays anything out: the thunks in Exports+Layout.swift and Exports+Motion.swift validate what C
// hands them, call `MoaLayout`, and record the outcome here. No trap may be reachable from C input.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MoaLayout

/// The C callback types of moa.h (`moa_done_fn`, `moa_rest_fn`, `moa_text_fn`); public because the thunks are.
public typealias DoneFn = @convention(c) (OpaquePointer?, UInt64, Int32, UnsafeMutableRawPointer?) -> Void
public typealias RestFn = @convention(c) (OpaquePointer?, UInt64, Double, Int32, UnsafeMutableRawPointer?) -> Void
public typealias TextFn = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void

/// The kinds of id a layout hands out (bits 40-47 of an id).
enum IdKind: UInt64 {
    case view = 1, constraint, animation, collapsible, pan, chain

    var name: String {
        switch self {
        case .view: return "view"
        case .constraint: return "constraint"
        case .animation: return "animation"
        case .collapsible: return "collapsible"
        case .pan: return "pan driver"
        case .chain: return "chain"
        }
    }
}

/// Holds an animation's id for its completion closure, which is made before the animation exists.
final class AnimationCell {
    var id = 0
}

/// The most custom curves one layout keeps (documented in moa.h).
let maxCustomCurves = 4096
/// The first custom curve value (MOA_CURVE_CUSTOM).
let customCurveBase: Int32 = 256

// MARK: - LayoutBox

/// What a `moa_layout *` points to: the layout plus the C layer's per-layout state.
final class LayoutBox {
    let layout: Layout

    /// Bits 48-63 of every id: a tag that differs between layouts (it repeats after 65535 layouts).
    let salt: UInt64

    // Ids
    private var collapsibles: [Int: Collapsible] = [:]
    private var nextCollapsible = 1
    private var pans: [Int: PanDriver] = [:]
    private var nextPan = 1
    /// The largest animation number handed out (through an id or a callback); cancelling one at or below it
    /// that is no longer running is a no-op.
    private var maxAnimation = 0

    // Curves: MOA_CURVE_CUSTOM + i is customCurves[i].
    private var customCurves: [AnimationCurve] = []
    private var curveCodes: [AnimationCurve: Int32] = [:]

    /// The views the last solve, advance or seek changed, by serial and frame slot (numbers, not references:
    /// see `Layout.changedSerials`): `moa_layout_changed_views`, `moa_layout_changed_frames`.
    var lastChanged: [ChangedView] = []
    /// The trace kept by `moa_layout_trace_stop`.
    var lastTrace: FrameTrace?

    // The `?` reports: buffered while Swift works, delivered by `flushDebug` once it returned.
    private let defaultDebugOutput: (String) -> Void
    private var debugFn: TextFn?
    private var debugUD: UnsafeMutableRawPointer?
    private var pendingDebug: [String] = []

    // Re-entrancy (see moa.h, "Callbacks").
    /// The moa_* calls on this layout in progress (nested through callbacks).
    var depth = 0
    /// The C callbacks in progress.
    var callbackDepth = 0
    /// The message a measure callback left with moa_measure_error() before failing.
    var measureMessage: String?
    /// moa_layout_free was called while calls were in progress; it runs when the outermost returns.
    var freePending = false
    /// The free is running (pending completions are being called): every call is refused.
    var closing = false

    /// The outcome of the last call (`moa_layout_errmsg`, `moa_layout_error_info`, `moa_layout_conflicts`).
    let record = ErrorRecord()
    /// The last string handed out through a `const char **out`.
    let text = TextSlot()

    init(_ layout: Layout) {
        self.layout = layout
        salt = BoxSalt.next()
        defaultDebugOutput = layout.debugOutput
        // Stable low numbers for the root and the guides.
        for v in [layout.root, layout.safeArea, layout.margins, layout.keyboard] { _ = id(v) }
    }

    /// Unboxes a handle without retaining it.
    @inline(__always)
    static func from(_ handle: OpaquePointer) -> LayoutBox {
        Unmanaged<LayoutBox>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }

    /// The handle C knows this box by.
    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    // MARK: Ids

    @inline(__always)
    func id(_ kind: IdKind, _ number: Int) -> UInt64 { salt | kind.rawValue << 40 | UInt64(number) }

    /// The number inside `id` if it is an id of this layout and of `kind`.
    @inline(__always)
    func number(_ id: UInt64, _ kind: IdKind) -> Int? {
        guard id >> 40 == (salt | kind.rawValue << 40) >> 40 else { return nil }
        let n = id & 0xFF_FFFF_FFFF
        return n == 0 ? nil : Int(n)
    }

    private func unknown(_ kind: IdKind, _ id: UInt64) -> BoundaryFailure {
        .notFound("\(id) is not a \(kind.name) id of this layout (0, removed or freed, of another layout, or of another kind)")
    }

    /// A view's id: its serial (never reused in a layout) + 1.
    func id(_ v: View) -> UInt64 { id(viewSerial: v.serial) }
    /// The C id of the view with that serial.
    func id(viewSerial serial: Int) -> UInt64 { id(.view, serial + 1) }

    func view(_ id: UInt64) throws -> View {
        guard let n = number(id, .view), let v = layout.view(serial: n - 1), v.isValid else { throw unknown(.view, id) }
        return v
    }

    /// A superview argument: 0 means the root.
    func parent(_ id: UInt64) throws -> View { id == 0 ? layout.root : try view(id) }

    func id(_ c: LayoutConstraint) -> UInt64 { id(.constraint, c.id) }

    func constraint(_ id: UInt64) throws -> LayoutConstraint {
        guard let n = number(id, .constraint), let c = layout.constraint(id: n), c.isValid else {
            throw unknown(.constraint, id)
        }
        return c
    }

    func id(_ a: Animation) -> UInt64 { animationID(a.id) }

    func animationID(_ n: Int) -> UInt64 {
        maxAnimation = max(maxAnimation, n)
        return id(.animation, n)
    }

    /// The running or scheduled animation `id`, nil for one that has ended; MOA_NOTFOUND for an id never handed out.
    func animation(_ id: UInt64) throws -> Animation? {
        guard let n = number(id, .animation), n <= maxAnimation else { throw unknown(.animation, id) }
        return layout.animator.animation(id: n)
    }

    func add(_ c: Collapsible) -> UInt64 {
        let n = nextCollapsible
        nextCollapsible += 1
        collapsibles[n] = c
        return id(.collapsible, n)
    }

    func collapsible(_ id: UInt64) throws -> Collapsible {
        guard let n = number(id, .collapsible), let c = collapsibles[n] else { throw unknown(.collapsible, id) }
        return c
    }

    func removeCollapsible(_ id: UInt64) throws {
        guard let n = number(id, .collapsible), collapsibles.removeValue(forKey: n) != nil else {
            throw unknown(.collapsible, id)
        }
    }

    func add(_ p: PanDriver) -> UInt64 {
        let n = nextPan
        nextPan += 1
        pans[n] = p
        return id(.pan, n)
    }

    /// The pan driver `id` and its number.
    func pan(_ id: UInt64) throws -> (PanDriver, Int) {
        guard let n = number(id, .pan), let p = pans[n] else { throw unknown(.pan, id) }
        return (p, n)
    }

    func removePan(_ id: UInt64) throws {
        guard let n = number(id, .pan), pans.removeValue(forKey: n) != nil else { throw unknown(.pan, id) }
    }

    // MARK: Curves

    func curve(_ code: Int32) throws -> AnimationCurve {
        switch code {
        case 0: return .linear
        case 1: return .easeIn
        case 2: return .easeOut
        case 3: return .easeInOut
        case 4: return .spring(Spring())
        case 5: return .keyboard
        default:
            let i = Int(code) - Int(customCurveBase)
            guard i >= 0, i < customCurves.count else {
                throw BoundaryFailure.invalid("\(code) is not a curve of this layout (MOA_LINEAR ... MOA_KEYBOARD_CURVE, or a value from moa_layout_spring_curve / moa_layout_bezier_curve)")
            }
            return customCurves[i]
        }
    }

    /// The value of a curve: a predefined one's constant, or the custom value it was registered with.
    func code(of c: AnimationCurve) throws -> Int32 {
        for code: Int32 in 0...5 where try curve(code) == c { return code }
        return try register(c)
    }

    /// The value for a custom curve (the same for the same parameters).
    func register(_ c: AnimationCurve) throws -> Int32 {
        if let code = curveCodes[c] { return code }
        guard customCurves.count < maxCustomCurves else {
            throw BoundaryFailure.invalid("a layout keeps at most \(maxCustomCurves) different custom curves")
        }
        let code = customCurveBase + Int32(customCurves.count)
        customCurves.append(c)
        curveCodes[c] = code
        return code
    }

    // MARK: Solving

    /// Solves if anything changed since the last solve, noting the changed views as a solve does.
    func solveIfNeeded() throws {
        if try layout._layoutIfNeeded() { lastChanged = layout.changed }
    }

    // MARK: Callbacks

    /// A completion closure that calls `fn` with the animation in `cell` (nil when fn is NULL).
    func doneClosure(_ fn: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ cell: AnimationCell) -> ((Bool) -> Void)? {
        guard let fn else { return nil }
        return { [weak self] finished in self?.callDone(fn, ud, cell.id, finished) }
    }

    func callDone(_ fn: DoneFn, _ ud: UnsafeMutableRawPointer?, _ animation: Int, _ finished: Bool) {
        let a = animationID(animation)
        callbackDepth += 1
        fn(handle, a, finished ? 1 : 0, ud)
        callbackDepth -= 1
    }

    /// A pan completion closure that calls `fn` (nil when fn is NULL).
    func restClosure(_ fn: RestFn?, _ ud: UnsafeMutableRawPointer?, _ pan: Int) -> ((Double, Bool) -> Void)? {
        guard let fn else { return nil }
        return { [weak self] rest, finished in
            guard let self else { return }
            let p = self.id(.pan, pan)
            self.callbackDepth += 1
            fn(self.handle, p, rest, finished ? 1 : 0, ud)
            self.callbackDepth -= 1
        }
    }

    /// Sends `?` reports to `fn` (NULL: standard error, Swift's default).
    func setDebugCallback(_ fn: TextFn?, _ ud: UnsafeMutableRawPointer?) {
        debugFn = fn
        debugUD = ud
        if fn == nil {
            layout.debugOutput = defaultDebugOutput
        } else {
            layout.debugOutput = { [weak self] s in self?.pendingDebug.append(s) }
        }
    }

    /// Delivers the buffered `?` reports, now that no layout frame is on the stack.
    func flushDebug() {
        guard !pendingDebug.isEmpty else { return }
        let texts = pendingDebug
        pendingDebug = []
        guard let fn = debugFn else {
            for t in texts { defaultDebugOutput(t) }
            return
        }
        let ud = debugUD
        for t in texts {
            callbackDepth += 1
            t.withCString { fn($0, ud) }
            callbackDepth -= 1
        }
    }

    /// The C rule for the clock: not from a callback.
    func checkNotInCallback(_ what: StaticString) throws {
        guard callbackDepth == 0 else {
            throw BoundaryFailure.misuse("\(what) cannot be called from a callback (completion, pan rest or debug report) of the same layout")
        }
    }

    // MARK: Free

    /// Calls every completion not called yet (finished = 0), then drops the box (the caller's reference keeps it
    /// alive until it returns).
    func performFree() {
        closing = true
        let animator = layout.animator
        if animator.isAnimating {
            animator.cancelAll()
            _ = try? animator.seek(to: animator.time)
        }
        layout.debugOutput = defaultDebugOutput
        Unmanaged.passUnretained(self).release()
    }

    // MARK: Error record

    /// Records a failure and returns its status.
    func failed(_ error: any Error) -> Int32 {
        guard let e = error as? LayoutError else { return record.failed(other: error) }
        func clamp(_ n: Int?, _ none: Int32) -> Int32 { n.map { Int32(clamping: $0) } ?? none }
        let conflicts = e.kind == .unsatisfiable
            ? e.conflicts.compactMap { info in layout.constraint(id: info.id).map { id($0) } } : []
        return record.failed(Status.of(e.kind), e.description,
                             info: [e.kind.rawValue, e.message, e.sourceLine ?? "", e.expected.joined(separator: ", "),
                                    e.suggestion ?? "", e.source ?? ""],
                             position: (clamp(e.line, 0), clamp(e.offset, -1), clamp(e.textOffset, -1),
                                        clamp(e.length, 0)),
                             conflicts: conflicts)
    }

    // MARK: moa_error_info

    /// Byte layout of `moa_error_info` (checked against the header in MoaCTests): five ints, then six pointers.
    static let infoPointerStart: Int = {
        let a = MemoryLayout<UnsafePointer<CChar>?>.alignment
        return (5 * 4 + a - 1) / a * a
    }()
    static let infoPointerStride = MemoryLayout<UnsafePointer<CChar>?>.stride

    /// Writes the record to a C `moa_error_info`.
    func writeInfo(to out: UnsafeMutableRawPointer) {
        for (i, v) in [record.status, record.line, record.offset, record.textOffset, record.length].enumerated() {
            out.storeBytes(of: v, toByteOffset: i * 4, as: Int32.self)
        }
        for (i, p) in record.infoStrings.enumerated() {
            let s: UnsafePointer<CChar>? = p.map { UnsafePointer($0) } ?? cString("")
            out.storeBytes(of: s, toByteOffset: LayoutBox.infoPointerStart + i * LayoutBox.infoPointerStride,
                           as: UnsafePointer<CChar>?.self)
        }
    }
}

// MARK: - Thunk helpers

/// Unboxes `handle` (MOA_MISUSE if NULL, or while its free is pending), runs `body`, delivers the `?` reports,
/// records the outcome on the layout and returns the status. The outermost call on a layout runs a deferred
/// free.
func withLayout(_ handle: OpaquePointer?, _ body: (LayoutBox) throws -> Void) -> Int32 {
    guard let handle else { return Status.misuse }
    let box = LayoutBox.from(handle)
    guard !box.freePending, !box.closing else { return Status.misuse }
    box.depth += 1
    var failure: (any Error)?
    if box.layout.isReportingProgressInsideSolver {
        // The progress function runs between two pivots of a solver operation: nothing may read or change the
        // layout until the operation goes on (moa_layout_free is deferred as from any callback).
        failure = BoundaryFailure.misuse("the layout cannot be used from its progress function while a solver operation is under way")
    } else {
        do {
            try body(box)
        } catch {
            failure = error
        }
    }
    box.flushDebug()
    let status: Int32
    if let failure {
        status = box.failed(failure)
    } else {
        box.record.succeeded()
        status = Status.ok
    }
    box.depth -= 1
    if box.depth == 0, box.freePending { box.performFree() }
    return status
}

/// Runs `body` on the text of a call whose errors point into it (`eq`, `eqs`, `xeq`, `vfl`): when invalid UTF-8
/// was repaired (each bad sequence became U+FFFD, three bytes), the error's offsets are moved back onto the
/// caller's bytes (moa.h: "the byte offset into the whole text given to the call"); its `source_line` stays the
/// repaired line.
func withCallerOffsets<T>(_ text: UnsafePointer<CChar>, _ body: (String) throws -> T) throws -> T {
    let s = string(text)
    let count = strlen(text)
    do {
        return try body(s)
    } catch var e as LayoutError {
        // Each repair adds 3 - (its length) bytes: equal lengths mean every offset is the caller's already.
        guard s.utf8.count != count, let at = e.textOffset else { throw e }
        let bytes = UnsafeRawBufferPointer(start: text, count: count)
        let lineStart = at - (e.offset ?? 0)
        let start = callerOffset(bytes, at)
        e.textOffset = start
        if e.offset != nil { e.offset = start - callerOffset(bytes, lineStart) }
        if let n = e.length { e.length = callerOffset(bytes, at + n) - start }
        throw e
    }
}

/// `withLayout` for a call that changes the layout (animations, pans, collapsibles, the clock, limits): refused
/// with MOA_MISUSE from inside a measure function, a font's advance function or the progress function, as the
/// changes that go through the layout's own checks are (moa.h, Callbacks).
func withLayoutChange(_ handle: OpaquePointer?, _ body: (LayoutBox) throws -> Void) -> Int32 {
    withLayout(handle) { box in
        try box.layout._checkCanChange()
        try body(box)
    }
}

/// Byte layout of `moa_rect` (four doubles) and `moa_frame` (checked against the header in MoaCTests).
let rectSize = 32
let frameViewOffset = 0
let frameSuperviewOffset = 8
let frameFrameOffset = 16
let frameRootFrameOffset = 48
let frameDepthOffset = 80
let frameIsGuideOffset = 84
let frameStride = 88

extension LayoutBox {
    /// Writes the frames of the view in slot `slot` (a live one) of the layout's frame table as a C `moa_frame`
    /// at `p` (no view object is read).
    func writeFrame(_ slots: UnsafeBufferPointer<FrameSlot>, _ slot: Int, _ p: UnsafeMutableRawPointer) {
        let e = slots[slot]
        p.storeBytes(of: id(viewSerial: e.serial), toByteOffset: frameViewOffset, as: UInt64.self)
        let superview = e.superSlot < 0 ? 0 : id(viewSerial: slots[Int(e.superSlot)].serial)
        p.storeBytes(of: superview, toByteOffset: frameSuperviewOffset, as: UInt64.self)
        storeRect(e.rel, p, frameFrameOffset)
        storeRect(e.root, p, frameRootFrameOffset)
        p.storeBytes(of: e.depth, toByteOffset: frameDepthOffset, as: Int32.self)
        p.storeBytes(of: e.guide ? 1 : 0, toByteOffset: frameIsGuideOffset, as: Int32.self)
    }

    /// The changed views of `lastChanged` that are still there, as (serial, frame slot) pairs.
    func forEachChangedView(_ body: (_ serial: Int, _ slot: Int) -> Void) {
        let slots = layout.frames.slots
        for c in lastChanged {
            let slot = Int(c.slot)
            // A slot is a view's while it is live with its serial (a removed view's slot may be another's now).
            guard slot < slots.count, slots[slot].live, slots[slot].serial == c.serial else { continue }
            body(c.serial, slot)
        }
    }

    /// Writes the frames of the views that changed at the last solve or frame (`lastChanged`, those still
    /// there) as C `moa_frame`s, at most `cap` of them; returns how many there are. From the layout's frame
    /// table: no view object is read.
    func writeChangedFrames(_ out: UnsafeMutableRawPointer?, _ cap: Int) -> Int {
        var n = 0
        layout.frames.slots.withUnsafeBufferPointer { slots in
            forEachChangedView { _, slot in
                if n < cap, let out { writeFrame(slots, slot, out + n * frameStride) }
                n += 1
            }
        }
        return n
    }
}

/// Writes a `Rect` as a C `moa_rect` at `p + offset`.
func storeRect(_ r: Rect, _ p: UnsafeMutableRawPointer, _ offset: Int = 0) {
    p.storeBytes(of: r.x, toByteOffset: offset, as: Double.self)
    p.storeBytes(of: r.y, toByteOffset: offset + 8, as: Double.self)
    p.storeBytes(of: r.width, toByteOffset: offset + 16, as: Double.self)
    p.storeBytes(of: r.height, toByteOffset: offset + 24, as: Double.self)
}

/// A C `moa_layout_direction`.
func layoutDirection(_ raw: UInt32) throws -> LayoutDirection {
    guard raw <= 2, let d = LayoutDirection(rawValue: Int(raw)) else {
        throw BoundaryFailure.invalid("direction \(raw) is not MOA_INHERIT, MOA_LTR or MOA_RTL")
    }
    return d
}

/// A C `moa_axis`.
func layoutAxis(_ raw: UInt32) throws -> LayoutAxis {
    guard raw <= 1, let a = LayoutAxis(rawValue: Int(raw)) else {
        throw BoundaryFailure.invalid("axis \(raw) is not MOA_HORIZONTAL or MOA_VERTICAL")
    }
    return a
}

/// A C `moa_collapse_direction`.
func collapseDirection(_ raw: UInt32) throws -> CollapseDirection {
    switch raw {
    case 0: return .left
    case 1: return .right
    case 2: return .up
    case 3: return .down
    default: throw BoundaryFailure.invalid("collapse direction \(raw) is not MOA_LEFT, MOA_RIGHT, MOA_UP or MOA_DOWN")
    }
}

/// SVG flags (MOA_SVG_*).
func svgOptions(_ flags: Int32, allowConstraints: Bool = true) throws -> SVGOptions {
    let known: Int32 = allowConstraints ? 7 : 6
    guard flags & ~known == 0 else { throw BoundaryFailure.invalid("unknown SVG flags \(flags)") }
    return SVGOptions(includeGuides: flags & 2 != 0, showConstraints: flags & 1 != 0, labels: flags & 4 == 0)
}
