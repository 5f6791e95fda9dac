// Moa — frames as data: a snapshot of every view's frame at one time, a trace of snapshots, and the trace as
// CSV or JSON text. Strings only; the caller writes files.

/// One view's frames at one moment.
public struct ViewFrame: Hashable, Sendable {
    /// The view's name (`root` for the root; guides by their names).
    public var name: String
    /// The superview's name, nil for the root.
    public var superview: String?
    /// The depth in the hierarchy: 0 for the root, 1 for its subviews and guides, ...
    public var depth: Int
    /// True for a layout guide (`safeArea`, `margins`, `keyboard`, or one made with `Layout.addGuide`).
    public var isGuide: Bool
    /// True for a guide made with `Layout.addGuide` (or a barrier's): drawn dashed even when the layout's own
    /// guides are left out.
    public var isUserGuide: Bool = false
    /// The frame relative to the superview (UIKit's `frame`).
    public var frame: Rect
    /// The frame in the root's coordinate space.
    public var frameInRoot: Rect
    /// The view's text as drawn at this frame's width (broken where it was measured), or nil.
    public var text: TextLines?
    /// The font family the text is drawn in (the layout's `textMeasurer`), or nil.
    public var fontFamily: String?

    /// Creates a view frame.
    public init(name: String, superview: String?, depth: Int, isGuide: Bool = false, frame: Rect, frameInRoot: Rect,
                text: TextLines? = nil, fontFamily: String? = nil) {
        self.name = name
        self.superview = superview
        self.depth = depth
        self.isGuide = isGuide
        self.frame = frame
        self.frameInRoot = frameInRoot
        self.text = text
        self.fontFamily = fontFamily
    }
}

/// The frames of a layout's views at one moment: the root first, then the hierarchy depth first (each view
/// before its subviews, subviews in the order they were added).
public struct FrameSnapshot: Hashable, Sendable {
    /// The clock time of the snapshot, in seconds.
    public var time: Double
    /// The views' frames, in hierarchy order (a view's subviews follow it, deeper by one).
    public var views: [ViewFrame]

    /// Creates a snapshot.
    public init(time: Double, views: [ViewFrame]) {
        self.time = time
        self.views = views
    }

    /// The frames of the view with this name, or nil.
    public subscript(name: String) -> ViewFrame? { views.first { $0.name == name } }
}

extension Layout {
    /// The frames of the root and every view (and, optionally, the guides), solving first if needed.
    /// - Parameters:
    ///   - time: the time to stamp the snapshot with; by default the animator's clock (0 before it exists).
    ///   - includeGuides: also list `safeArea`, `margins`, `keyboard` and the spacers of stacks and chains
    ///     (guides made with `addGuide` and barriers are always listed).
    public func snapshot(time: Double? = nil, includeGuides: Bool = false) -> FrameSnapshot {
        var out: [ViewFrame] = []
        forEachViewInHierarchy(includeGuides: includeGuides) { v in
            let text = v.text == nil ? nil : try? textLines(of: v)
            out.append(ViewFrame(name: v.name, superview: v.superview?.name, depth: v.depth, isGuide: v.isGuide,
                                 frame: v.frame, frameInRoot: v.frameInRoot, text: text,
                                 fontFamily: text == nil ? nil : textMeasurer.family))
            out[out.count - 1].isUserGuide = v.kind == .layoutGuide && !v.isOwned
        }
        return FrameSnapshot(time: time ?? _animator?.time ?? 0, views: out)
    }

    /// Calls `body` with the root and every view (and, optionally, the guides) in hierarchy order (each view
    /// before its subviews, subviews in the order they were added), solving first if needed. Nothing is
    /// copied: read `frame`, `frameInRoot`, `depth` from the view.
    public func forEachViewInHierarchy(includeGuides: Bool = false, _ body: (View) throws -> Void) rethrows {
        _ = try? layoutIfNeeded()   // a failing measure keeps the last frames
        // An explicit stack: hierarchies may be deeper than the thread's stack allows for recursion.
        var stack: [View] = [root]
        while let v = stack.popLast() {
            if (v.kind == .guide || v.isOwned) && !includeGuides { continue }
            try body(v)
            for s in v.subviews.reversed() { stack.append(s) }
        }
    }

    /// `forEachViewInHierarchy` by frame slot: the same views in the same order, each as the frame table
    /// (`frames.slots`) and its slot, read from an order kept between changes of the hierarchy (a host reading
    /// every frame of 100,000 views reads two arrays, no view object). `body` must not change the layout.
    package func forEachSlotInHierarchy(includeGuides: Bool = false,
                                        _ body: (_ slots: UnsafeBufferPointer<FrameSlot>, _ slot: Int) -> Void) {
        _ = try? layoutIfNeeded()
        if !frames.hierarchyKnown {
            var order: [Int32] = []
            order.reserveCapacity(frames.slots.count)
            forEachViewInHierarchy(includeGuides: true) { v in
                order.append((v.kind == .guide || v.isOwned) ? ~Int32(v.slot) : Int32(v.slot))
            }
            frames.hierarchy = order
            frames.hierarchyKnown = true
        }
        frames.slots.withUnsafeBufferPointer { slots in
            frames.hierarchy.withUnsafeBufferPointer { order in
                for s in order {
                    if s >= 0 { body(slots, Int(s)) } else if includeGuides { body(slots, Int(~s)) }
                }
            }
        }
    }
}

/// A sequence of snapshots: an animation sampled or recorded (`Animator.trace`, `Animator.startRecording`).
public struct FrameTrace: Hashable, Sendable {
    /// The snapshots, in time order.
    public var snapshots: [FrameSnapshot]

    /// Creates a trace.
    public init(_ snapshots: [FrameSnapshot]) { self.snapshots = snapshots }

    /// The snapshot with this time exactly, or nil.
    public func snapshot(at time: Double) -> FrameSnapshot? { snapshots.first { $0.time == time } }

    /// The values of one view over the trace: (time, frame in root), or nothing for an unknown name.
    public func track(of name: String) -> [(time: Double, frameInRoot: Rect)] {
        snapshots.compactMap { s in s[name].map { (s.time, $0.frameInRoot) } }
    }

    /// The trace as CSV: a header line, then one line per view per snapshot:
    ///
    /// ```
    /// time,view,superview,x,y,width,height,rootX,rootY
    /// 0.15,sidebar,root,-100,0,200,480,-100,0
    /// ```
    ///
    /// `x,y,width,height` is the frame in the superview, `rootX,rootY` the origin in root space (the size is
    /// the same). The root's superview is empty. Times are written with up to 6 decimals, geometry with up to
    /// `decimals` (`NumberText.fixed`); lines end with `\n`.
    public func csv(decimals: Int = 3) -> String {
        var s = "time,view,superview,x,y,width,height,rootX,rootY\n"
        for snap in snapshots {
            let t = NumberText.fixed(snap.time, decimals: 6)
            for v in snap.views {
                let f = v.frame, r = v.frameInRoot
                s += t + "," + v.name + "," + (v.superview ?? "") + ","
                s += [f.x, f.y, f.width, f.height, r.x, r.y].map { NumberText.fixed($0, decimals: decimals) }
                    .joined(separator: ",")
                s += "\n"
            }
        }
        return s
    }

    /// The trace as JSON:
    ///
    /// ```
    /// {"frames":[
    /// {"time":0.15,"views":[{"name":"root","superview":null,"frame":{"x":0,"y":0,"width":320,"height":480},
    ///   "rootFrame":{"x":0,"y":0,"width":320,"height":480}}, ...]},
    /// ...]}
    /// ```
    ///
    /// One snapshot per line. Numbers as in `csv(decimals:)`; a non-finite number is written as `null`.
    public func json(decimals: Int = 3) -> String {
        func num(_ d: Double, _ k: Int) -> String { jsonNumber(d, decimals: k) }
        func rect(_ r: Rect) -> String {
            "{\"x\":\(num(r.x, decimals)),\"y\":\(num(r.y, decimals)),\"width\":\(num(r.width, decimals)),\"height\":\(num(r.height, decimals))}"
        }
        var lines: [String] = []
        for snap in snapshots {
            let views = snap.views.map { v in
                "{\"name\":\(jsonString(v.name)),\"superview\":\(jsonOptional(v.superview)),"
                    + "\"frame\":\(rect(v.frame)),\"rootFrame\":\(rect(v.frameInRoot))}"
            }
            lines.append("{\"time\":\(num(snap.time, 6)),\"views\":[" + views.joined(separator: ",") + "]}")
        }
        return "{\"frames\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
    }
}

/// `d` as a JSON number with up to `decimals` places, `null` when not finite.
func jsonNumber(_ d: Double, decimals: Int = 3) -> String {
    d.isFinite ? NumberText.fixed(d, decimals: decimals) : "null"
}

/// `s` as a JSON string literal, or `null`.
func jsonOptional(_ s: String?) -> String { s.map(jsonString) ?? "null" }

/// `[x, y, width, height]` as a JSON array.
func jsonRect(_ r: Rect) -> String {
    "[\(jsonNumber(r.x)),\(jsonNumber(r.y)),\(jsonNumber(r.width)),\(jsonNumber(r.height))]"
}

/// `s` as a JSON string literal, escaping quotes, backslashes and control characters.
func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if u.value < 0x20 {
                let hex = Array("0123456789abcdef")
                out += "\\u00" + String(hex[Int(u.value >> 4)]) + String(hex[Int(u.value & 15)])
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// Deterministic number text without Foundation, for traces and pictures.
public enum NumberText {
    /// `value` rounded to `decimals` places (0...9, half away from zero), without trailing zeros or a trailing
    /// point, and without a minus sign on zero: `fixed(1.5)` is `1.5`, `fixed(2.0004)` is `2`,
    /// `fixed(-0.0001)` is `0`, `fixed(-31.25)` is `-31.25`, `fixed(1/3, decimals: 2)` is `0.33`. Non-finite
    /// values give `nan`, `inf`, `-inf`; magnitudes of 9e15 and more (beyond exact integers at that scale)
    /// give Swift's shortest round-trip form.
    public static func fixed(_ value: Double, decimals: Int = 3) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        let k = min(max(decimals, 0), 9)
        var scale: UInt64 = 1
        for _ in 0..<k { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let n = UInt64(scaled)
        if n == 0 { return "0" }
        var s = value < 0 ? "-" : ""
        s += String(n / scale)
        var frac = n % scale
        if frac != 0 {
            var digits = k
            while frac % 10 == 0 { frac /= 10; digits -= 1 }
            let f = String(frac)
            s += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return s
    }
}
