// Moa — C ABI: content that sizes itself (measure callbacks, text, the font that measures it, fitting sizes).
//
// The measure closure calls the C function with the layout handle and the view's id; the callback may read
// the layout (frames, names) but every change or solve of the same layout fails with MOA_MISUSE (the layout's
// `isMeasuring`, and `callbackDepth` for the clock). A callback's failure message comes from
// moa_measure_error().

import MoaLayout

public typealias MeasureFn = @convention(c) (
    OpaquePointer?, UInt64, Double, UInt32, Double, UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
) -> Int32
public typealias AdvanceFn = @convention(c) (UnsafePointer<CChar>?, Int, Double, UnsafeMutableRawPointer?) -> Double


/// A failure a C measure callback reported: its status and the message it left with moa_measure_error().
struct CallbackFailure: Error, CustomStringConvertible {
    var description: String
}

extension LayoutBox {
    /// The measure closure for a C callback: proposal in, size out; a status other than MOA_OK, or numbers the
    /// layout cannot take, throw.
    func measureClosure(_ fn: MeasureFn, _ ud: UnsafeMutableRawPointer?, _ view: UInt64) -> MeasureFunction {
        return { [unowned self] p in
            var out = (Double(0), Double(0), Double.nan, Double.nan)
            self.callbackDepth += 1
            self.measureMessage = nil
            let status = withUnsafeMutableBytes(of: &out) { raw in
                fn(self.handle, view, p.width, UInt32(p.widthMode.rawValue), p.height, UInt32(p.heightMode.rawValue),
                   raw.baseAddress, ud)
            }
            self.callbackDepth -= 1
            guard status == Status.ok else {
                let name = String(cString: moa_status_name(status)!)
                throw CallbackFailure(description: self.measureMessage ?? "the callback returned MOA_\(name)")
            }
            return MeasuredSize(width: out.0, height: out.1, baseline: out.2.isNaN ? nil : out.2,
                                firstBaseline: out.3.isNaN ? nil : out.3)
        }
    }
}

/// A font measured by a C function (a real-font measurer such as moafont, or the caller's own).
final class CallbackTextMeasurer: TextMeasurer {
    let family: String
    let ascent: Double
    let descent: Double
    let fn: AdvanceFn
    let ud: UnsafeMutableRawPointer?

    init(family: String, ascent: Double, descent: Double, fn: @escaping AdvanceFn, ud: UnsafeMutableRawPointer?) {
        self.family = family
        self.ascent = ascent
        self.descent = descent
        self.fn = fn
        self.ud = ud
    }

    func advance(_ text: Substring, fontSize: Double) throws -> Double {
        var s = String(text)
        let w = s.withUTF8 { b in
            b.withMemoryRebound(to: CChar.self) { fn($0.baseAddress, $0.count, fontSize, ud) }
        }
        guard w.isFinite, w >= 0 else {
            throw CallbackFailure(description: "the font's advance function gave \(w) for \"\(text)\" at \(fontSize) pt")
        }
        return w
    }
}

extension LayoutBox {
    /// After a frame: its measured content's failure or limit, if any (the clock moved; the frames stayed).
    func throwMeasureFailure() throws {
        if let e = layout.animator.frameErrors.first(where: { $0.kind == .callback || $0.kind == .limit }) { throw e }
    }
}

// MARK: - Measure callbacks

@_cdecl("moa_view_set_measure")
public func moa_view_set_measure(
    _ L: OpaquePointer?, _ v: UInt64, _ fn: MeasureFn?, _ ud: UnsafeMutableRawPointer?
) -> Int32 {
    withLayout(L) { box in
        let view = try box.view(v)
        try view.setMeasure(fn.map { box.measureClosure($0, ud, v) })
    }
}

@_cdecl("moa_view_invalidate")
public func moa_view_invalidate(_ L: OpaquePointer?, _ v: UInt64) -> Int32 {
    withLayout(L) { box in try box.view(v).invalidateMeasure() }
}

@_cdecl("moa_measure_error")
public func moa_measure_error(_ L: OpaquePointer?, _ message: UnsafePointer<CChar>?) -> Int32 {
    guard let L else { return Status.misuse }
    let box = LayoutBox.from(L)
    guard box.layout.isMeasuring else { return Status.misuse }
    box.measureMessage = string(message)
    return Status.ok
}

@_cdecl("moa_layout_measure_stats")
public func moa_layout_measure_stats(_ L: OpaquePointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    withLayout(L) { box in
        guard let out else { throw BoundaryFailure.misuse("out is NULL") }
        let s = box.layout.measureStatistics
        for (i, n) in [s.calls, s.cacheHits, s.lastCalls, s.lastRounds].enumerated() {
            out.storeBytes(of: n, toByteOffset: i * MemoryLayout<Int>.stride, as: Int.self)
        }
    }
}

// MARK: - Text

@_cdecl("moa_view_set_text")
public func moa_view_set_text(
    _ L: OpaquePointer?, _ v: UInt64, _ text: UnsafePointer<CChar>?, _ style: UnsafeRawPointer?
) -> Int32 {
    withLayout(L) { box in
        let view = try box.view(v)
        guard let text else { return try view.setText(nil) }
        var s = TextStyle()
        if let style {
            let size = style.load(fromByteOffset: 0, as: Double.self)
            if size != 0 { s.fontSize = size }   // zero fields take their defaults (moa.h)
            let lh = style.load(fromByteOffset: 8, as: Double.self)
            s.lineHeight = lh == 0 ? nil : lh
            s.maxLines = Int(style.load(fromByteOffset: 16, as: Int32.self))
            let reference = style.load(fromByteOffset: 24, as: Double.self)
            s.referenceWidth = reference == 0 ? nil : reference
            s.minimumFontSize = style.load(fromByteOffset: 32, as: Double.self)
            s.maximumFontSize = style.load(fromByteOffset: 40, as: Double.self)
        }
        try view.setText(TextContent(string(text), style: s))
    }
}

@_cdecl("moa_view_text_lines")
public func moa_view_text_lines(
    _ L: OpaquePointer?, _ v: UInt64, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ lines: UnsafeMutableRawPointer?
) -> Int32 {
    withLayout(L) { box in
        let view = try box.view(v)
        let out = try required(out, "out")
        // Checked before the solve: a failed call leaves the frames as they were.
        guard view.text != nil else { throw BoundaryFailure.invalid("`\(view.name)` has no text") }
        try box.solveIfNeeded()
        guard let t = try box.layout.textLines(of: view) else { throw BoundaryFailure.invalid("`\(view.name)` has no text") }
        out.pointee = try box.text.keep(t.lines.joined(separator: "\n"))
        if let lines {
            for (i, x) in [Double(t.lines.count), t.fontSize, t.lineHeight, t.firstBaseline, t.width, t.height].enumerated() {
                lines.storeBytes(of: x, toByteOffset: i * 8, as: Double.self)
            }
        }
    }
}

@_cdecl("moa_layout_set_font")
public func moa_layout_set_font(
    _ L: OpaquePointer?, _ family: UnsafePointer<CChar>?, _ fn: AdvanceFn?, _ ud: UnsafeMutableRawPointer?,
    _ ascent: Double, _ descent: Double
) -> Int32 {
    withLayout(L) { box in
        guard let fn else { return try box.layout.setTextMeasurer(SimpleTextMeasurer()) }
        for (name, x) in [("ascent", ascent), ("descent", descent)] where !(x.isFinite && x >= 0 && x <= 10) {
            throw BoundaryFailure.invalid("\(name) \(x) must be a fraction of the font size in 0...10")
        }
        try box.layout.setTextMeasurer(CallbackTextMeasurer(family: string(family), ascent: ascent, descent: descent,
                                                            fn: fn, ud: ud))
    }
}

// MARK: - Fitting size

@_cdecl("moa_layout_fitting_size")
public func moa_layout_fitting_size(
    _ L: OpaquePointer?, _ v: UInt64, _ width: Double, _ height: Double, _ horizontalPriority: Double,
    _ verticalPriority: Double, _ outWidth: UnsafeMutablePointer<Double>?, _ outHeight: UnsafeMutablePointer<Double>?
) -> Int32 {
    withLayout(L) { box in
        let view = try box.view(v)
        let ow = try required(outWidth, "out_width"), oh = try required(outHeight, "out_height")
        let size = try box.layout.fittingSize(of: view, width: width, height: height,
                                              horizontalPriority: horizontalPriority, verticalPriority: verticalPriority)
        ow.pointee = size.width
        oh.pointee = size.height
    }
}
