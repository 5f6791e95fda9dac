// Moa — pictures: a layout (or a snapshot) as SVG text, views as labelled rectangles nested by hierarchy,
// optionally with constraints as lines; and a strip of several snapshots side by side with time labels.

import MoaSolver

/// How `Layout.svg`, `FrameSnapshot.svg` and `FrameTrace.stripSVG` draw.
public struct SVGOptions: Hashable, Sendable {
    /// Also draw the guides `safeArea`, `margins`, `keyboard` (dashed, unfilled). Default false.
    public var includeGuides: Bool
    /// Draw constraints as lines between their anchor points (`Layout.svg` only). Default false.
    public var showConstraints: Bool
    /// Label each view with its name. Default true.
    public var labels: Bool
    /// Space around the drawing, in points. Default 10.
    public var padding: Double
    /// Pixels per point of the `width`/`height` of the picture (the `viewBox` stays in points). Default 1.
    public var scale: Double
    /// Decimals of the numbers written (`NumberText.fixed`). Default 2.
    public var decimals: Int
    /// Frames per row in a strip; nil (the default) fits as many as go in 1,200 pixels (at least two).
    public var columns: Int?

    /// Creates options; every parameter has the default described on its property.
    public init(includeGuides: Bool = false, showConstraints: Bool = false, labels: Bool = true,
                padding: Double = 10, scale: Double = 1, decimals: Int = 2, columns: Int? = nil) {
        self.includeGuides = includeGuides
        self.showConstraints = showConstraints
        self.labels = labels
        self.padding = padding
        self.scale = scale
        self.decimals = decimals
        self.columns = columns
    }
}

/// A line for a constraint: two points in root space and the equation.
struct ConstraintLine {
    var x1, y1, x2, y2: Double
    var equation: String
    var isRequired: Bool
}

extension Layout {
    /// The layout as an SVG document (solving first if needed).
    ///
    /// The drawing is in root coordinates (points, y down). The `viewBox` covers the root and every view's frame
    /// (so views moved off screen, like a collapsed sidebar, are still seen) plus `padding`. Each view is a
    /// `<g data-view="name" transform="translate(x,y)">` holding one `<rect>` at its frame relative to its
    /// superview, a `<text>` label and its subviews' groups, so the nesting of the elements is the hierarchy.
    /// The root is white; views take translucent colours in hierarchy order from a fixed palette (the same
    /// view gets the same colour in every frame of a strip); guides are dashed outlines. The root (the screen) is
    /// outlined, and whatever lies off it is veiled (`<path class="offscreen">`). A name label goes at its view's
    /// top-left unless an earlier label is there (a superview's), then lower down the view or to the right. With
    /// `showConstraints`, each active equation between two items is a `<line class="constraint">` from the
    /// first item's attribute anchor to the second's, with a dot at each end, dashed when not required, with
    /// the equation in a `<title>`. An anchor lies on the attribute's line (an edge, a centre line, a margin,
    /// a baseline) at the middle of where the two items overlap across it (so `title.left == content.left +
    /// 8` is an 8-point horizontal line), or at the item's own middle when they do not overlap; size
    /// attributes anchor at the item's centre. Coinciding anchors give a dot.
    public func svg(_ options: SVGOptions = SVGOptions()) -> String {
        let snap = snapshot(includeGuides: options.includeGuides)
        return snap.svg(options, lines: options.showConstraints ? constraintLines() : [])
    }

    func constraintLines() -> [ConstraintLine] {
        func value(_ e: Expression) -> Double {
            var s = e.constant
            for t in e.terms { s += t.coefficient * ((try? solver.value(of: t.variable)) ?? 0) }
            return s
        }
        /// The middle of the overlap of two spans, or nil when they do not overlap.
        func sharedMiddle(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double? {
            let lo = max(min(a0, a1), min(b0, b1)), hi = min(max(a0, a1), max(b0, b1))
            return lo <= hi ? (lo + hi) / 2 : nil
        }
        func anchor(_ v: View, _ a: LayoutAttribute, _ other: View) -> (Double, Double) {
            let f = v.frameInRoot, g = other.frameInRoot
            if a.isSize { return (f.midX, f.midY) }
            let p = value(v.expression(for: a))
            if a.axis == .horizontal {
                return (p, sharedMiddle(f.minY, f.maxY, g.minY, g.maxY) ?? f.midY)
            }
            return (sharedMiddle(f.minX, f.maxX, g.minX, g.maxX) ?? f.midX, p)
        }
        var out: [ConstraintLine] = []
        for c in userConstraints.live where c.isActive {
            guard let second = c.secondView, let a2 = c.secondAttribute else { continue }
            let p = anchor(c.firstView, c.firstAttribute, second), q = anchor(second, a2, c.firstView)
            out.append(ConstraintLine(x1: p.0, y1: p.1, x2: q.0, y2: q.1, equation: c.description,
                                      isRequired: c.isRequired))
        }
        return out
    }
}

extension FrameSnapshot {
    /// The snapshot as an SVG document, drawn as `Layout.svg` draws (without constraints: a snapshot does not
    /// hold them). The views must be in hierarchy order with depths, as `Layout.snapshot` makes them.
    public func svg(_ options: SVGOptions = SVGOptions()) -> String { svg(options, lines: []) }

    func svg(_ options: SVGOptions, lines: [ConstraintLine]) -> String {
        let b = svgBounds([self], options)
        let k = options.decimals
        func n(_ d: Double) -> String { NumberText.fixed(d, decimals: k) }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(b.width * options.scale))\" "
        s += "height=\"\(n(b.height * options.scale))\" viewBox=\"\(n(b.x)) \(n(b.y)) \(n(b.width)) \(n(b.height))\" "
        s += "font-family=\"sans-serif\" font-size=\"10\">\n"
        s += svgBody(options, indent: "  ")
        s += offscreenVeil(b, indent: "  ", n)
        if !lines.isEmpty {
            s += "  <g class=\"constraints\" stroke=\"#d62728\" stroke-width=\"1\">\n"
            for l in lines {
                s += "    <line class=\"constraint\" x1=\"\(n(l.x1))\" y1=\"\(n(l.y1))\" x2=\"\(n(l.x2))\" y2=\"\(n(l.y2))\""
                if !l.isRequired { s += " stroke-dasharray=\"3 2\"" }
                s += "><title>\(xmlEscape(l.equation))</title></line>\n"
                s += "    <circle cx=\"\(n(l.x1))\" cy=\"\(n(l.y1))\" r=\"1.5\" fill=\"#d62728\"/>\n"
                s += "    <circle cx=\"\(n(l.x2))\" cy=\"\(n(l.y2))\" r=\"1.5\" fill=\"#d62728\"/>\n"
            }
            s += "  </g>\n"
        }
        return s + "</svg>\n"
    }

    /// Where each view's name label goes, relative to its frame's top-left corner (nil: no label): at (3, 11)
    /// unless an earlier label (a superview's, a sibling's) is there; then lower down the view, or to the right
    /// of the label in the way, while it stays inside the view. Greedy in hierarchy order, in root space, with a
    /// grid of buckets so that a large layout stays near-linear.
    func labelOffsets(_ options: SVGOptions) -> [(Double, Double)?] {
        let charWidth = 5.6, lineHeight = 11.0, cell = 64.0
        var placed: [Int: [Rect]] = [:]
        func key(_ x: Int, _ y: Int) -> Int { x &* 1_000_003 &+ y }
        func buckets(_ r: Rect) -> [Int] {
            guard r.minX.isFinite, r.maxX.isFinite, r.minY.isFinite, r.maxY.isFinite,
                  abs(r.minX) < 1e7, abs(r.minY) < 1e7, r.width < 1e4 else { return [] }
            var out: [Int] = []
            for bx in Int((r.minX / cell).rounded(.down))...Int((r.maxX / cell).rounded(.down)) {
                for by in Int((r.minY / cell).rounded(.down))...Int((r.maxY / cell).rounded(.down)) { out.append(key(bx, by)) }
            }
            return out
        }
        func blocker(_ r: Rect) -> Rect? {
            for b in buckets(r) {
                for o in placed[b] ?? [] where o.minX < r.maxX && r.minX < o.maxX && o.minY < r.maxY && r.minY < o.maxY {
                    return o
                }
            }
            return nil
        }
        var out: [(Double, Double)?] = []
        for v in views {
            guard options.labels, v.text == nil, !v.isGuide || v.isUserGuide || options.includeGuides else {
                out.append(nil)
                continue
            }
            let f = v.frameInRoot
            let fx = min(f.x, f.x + f.width), fy = min(f.y, f.y + f.height)
            let w = Double(v.name.count) * charWidth, fw = abs(f.width), fh = abs(f.height)
            var dx = 3.0, dy = 11.0
            for _ in 0 ..< 8 {
                let box = Rect(x: fx + dx, y: fy + dy - 9, width: w, height: 10)
                guard let o = blocker(box) else { break }
                if dy + lineHeight <= fh - 2 {
                    dy += lineHeight
                } else if o.maxX + 4 - fx + w <= fw {
                    dx = o.maxX + 4 - fx
                } else {
                    break   // no free place inside the view: keep this one
                }
            }
            let box = Rect(x: fx + dx, y: fy + dy - 9, width: w, height: 10)
            for b in buckets(box) { placed[b, default: []].append(box) }
            out.append((dx + min(0, f.width), dy + min(0, f.height)))
        }
        return out
    }

    /// Everything of the drawing off the root (the screen) is veiled, and the root outlined: views moved off screen
    /// (a collapsed sidebar, the next panel) are seen, but not as if they were on it.
    func offscreenVeil(_ b: Rect, indent: String, _ n: (Double) -> String) -> String {
        guard let root = views.first(where: { $0.depth == 0 })?.frameInRoot else { return "" }
        let inside = views.allSatisfy { v in
            let f = v.frameInRoot
            let x0 = min(f.minX, f.maxX), x1 = max(f.minX, f.maxX), y0 = min(f.minY, f.maxY), y1 = max(f.minY, f.maxY)
            return !(x0.isFinite && x1.isFinite && y0.isFinite && y1.isFinite)
                || (x0 >= root.minX - 1e-9 && y0 >= root.minY - 1e-9 && x1 <= root.maxX + 1e-9 && y1 <= root.maxY + 1e-9)
        }
        var s = ""
        if !inside {
            s += indent + "<path class=\"offscreen\" d=\"M\(n(b.minX)) \(n(b.minY))H\(n(b.maxX))V\(n(b.maxY))H\(n(b.minX))Z "
            s += "M\(n(root.minX)) \(n(root.minY))V\(n(root.maxY))H\(n(root.maxX))V\(n(root.minY))Z\" "
            s += "fill=\"#ffffff\" fill-opacity=\"0.6\" fill-rule=\"evenodd\"/>\n"
        }
        s += indent + "<rect class=\"screen\" x=\"\(n(root.minX))\" y=\"\(n(root.minY))\" width=\"\(n(root.width))\" "
        s += "height=\"\(n(root.height))\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1.5\"/>\n"
        return s
    }

    /// The nested groups of the views (no `<svg>` element around them).
    func svgBody(_ options: SVGOptions, indent: String) -> String {
        let k = options.decimals
        func n(_ d: Double) -> String { NumberText.fixed(d, decimals: k) }
        let fills = ["#9ecae1", "#fdd0a2", "#a1d99b", "#dadaeb", "#fcbba1", "#c7e9c0", "#fdae6b", "#bcbddc"]
        let labelAt = labelOffsets(options)
        var s = ""
        var index = 0
        var open = 0
        var baseDepth: Int?
        for (i, v) in views.enumerated() {
            if v.isGuide && !v.isUserGuide && !options.includeGuides { continue }
            let depth = v.depth - (baseDepth ?? v.depth)
            if baseDepth == nil { baseDepth = v.depth }
            while open > depth {
                open -= 1
                s += indent + String(repeating: "  ", count: min(open, 16)) + "</g>\n"
            }
            let pad = indent + String(repeating: "  ", count: min(open, 16))
            let f = v.frame
            // A negative size is drawn as the rectangle it spans.
            let rx = min(0, f.width), ry = min(0, f.height)
            s += pad + "<g data-view=\(xmlAttribute(v.name)) transform=\"translate(\(n(f.x)),\(n(f.y)))\">\n"
            s += pad + "  <rect x=\"\(n(rx))\" y=\"\(n(ry))\" width=\"\(n(abs(f.width)))\" height=\"\(n(abs(f.height)))\" "
            if v.isGuide {
                s += "fill=\"none\" stroke=\"#2ca02c\" stroke-dasharray=\"4 2\"/>\n"
            } else {
                let fill = v.depth == 0 ? "#ffffff" : fills[index % fills.count]
                if v.depth != 0 { index += 1 }
                s += "fill=\"\(fill)\" fill-opacity=\"\(v.depth == 0 ? "1" : "0.6")\" stroke=\"#333333\" stroke-width=\"1\"/>\n"
            }
            if let text = v.text, !text.lines.isEmpty {
                // The text in its font, one tspan per measured line, on its baselines.
                s += pad + "  <text class=\"content\" font-family=\(xmlAttribute(v.fontFamily ?? "sans-serif")) "
                s += "font-size=\"\(n(text.fontSize))\" fill=\"#000000\">"
                for (i, line) in text.lines.enumerated() {
                    let y = ry + text.firstBaseline + Double(i) * text.lineHeight
                    s += "<tspan x=\"\(n(rx))\" y=\"\(n(y))\">\(xmlEscape(line))</tspan>"
                }
                s += "</text>\n"
            } else if let (dx, dy) = labelAt[i] {
                s += pad + "  <text x=\"\(n(dx))\" y=\"\(n(dy))\" fill=\"\(v.isGuide ? "#2ca02c" : "#000000")\">"
                s += xmlEscape(v.name) + "</text>\n"
            }
            open += 1
        }
        while open > 0 {
            open -= 1
            s += indent + String(repeating: "  ", count: min(open, 16)) + "</g>\n"
        }
        return s
    }
}

/// The rectangle (root space) that holds every drawn view of every snapshot, plus the padding.
func svgBounds(_ snaps: [FrameSnapshot], _ options: SVGOptions) -> Rect {
    var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
    var first = true
    for snap in snaps {
        for v in snap.views where !v.isGuide || v.isUserGuide || options.includeGuides {
            let r = v.frameInRoot
            let x0 = min(r.x, r.x + r.width), x1 = max(r.x, r.x + r.width)
            let y0 = min(r.y, r.y + r.height), y1 = max(r.y, r.y + r.height)
            guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else { continue }
            if first {
                minX = x0; maxX = x1; minY = y0; maxY = y1
                first = false
            } else {
                minX = min(minX, x0); maxX = max(maxX, x1); minY = min(minY, y0); maxY = max(maxY, y1)
            }
        }
    }
    let p = options.padding.isFinite ? max(0, options.padding) : 0
    return Rect(x: minX - p, y: minY - p, width: max(1, maxX - minX + 2 * p), height: max(1, maxY - minY + 2 * p))
}

extension FrameTrace {
    /// The snapshots side by side as one SVG document (a strip), `options.columns` per row (by default as many as
    /// fit in 1,200 pixels, at least two), each under a label `t = 0.15 s`. Every frame is a nested `<svg>` with the same `viewBox` (the
    /// union of all frames, plus padding), so positions compare across frames; its content is drawn as
    /// `FrameSnapshot.svg` draws.
    public func stripSVG(_ options: SVGOptions = SVGOptions()) -> String {
        let k = options.decimals
        func n(_ d: Double) -> String { NumberText.fixed(d, decimals: k) }
        let b = svgBounds(snapshots, options)
        let scale = options.scale.isFinite && options.scale > 0 ? options.scale : 1
        let cellW = b.width * scale, cellH = b.height * scale
        let gap = 10.0, label = 16.0
        let count = max(snapshots.count, 1)
        // By default as many frames a row as fit in 1,200 pixels (at least two), so a strip stays readable at
        // a page's width instead of shrinking to a line.
        let fit = max(2, Int(1200 / (cellW + gap)))
        let cols = max(1, min(options.columns ?? fit, count))
        let rows = (count + cols - 1) / cols
        let totalW = Double(cols) * cellW + Double(cols + 1) * gap
        let totalH = Double(rows) * (cellH + label) + Double(rows + 1) * gap
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(totalW))\" height=\"\(n(totalH))\" "
        s += "viewBox=\"0 0 \(n(totalW)) \(n(totalH))\" font-family=\"sans-serif\" font-size=\"10\">\n"
        for (i, snap) in snapshots.enumerated() {
            let x = gap + Double(i % cols) * (cellW + gap)
            let y = gap + Double(i / cols) * (cellH + label + gap)
            s += "  <g class=\"frame\" data-time=\"\(NumberText.fixed(snap.time, decimals: 6))\" transform=\"translate(\(n(x)),\(n(y)))\">\n"
            s += "    <text x=\"0\" y=\"12\" font-size=\"12\">t = \(NumberText.fixed(snap.time, decimals: 3)) s</text>\n"
            s += "    <svg x=\"0\" y=\"\(n(label))\" width=\"\(n(cellW))\" height=\"\(n(cellH))\" "
            s += "viewBox=\"\(n(b.x)) \(n(b.y)) \(n(b.width)) \(n(b.height))\">\n"
            s += snap.svgBody(options, indent: "      ")
            s += snap.offscreenVeil(b, indent: "      ", n)
            s += "    </svg>\n  </g>\n"
        }
        return s + "</svg>\n"
    }
}

/// Text with `&`, `<`, `>`, `"` and `'` escaped for XML.
func xmlEscape(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
        switch u {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\t", "\n", "\r": out.unicodeScalars.append(u)
        // Characters XML does not allow at all (not even as references: C0 controls, U+FFFE, U+FFFF) would
        // make the picture unreadable: U+FFFD stands for them.
        case "\u{0}" ..< "\u{20}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
        default: out.unicodeScalars.append(u)
        }
    }
    return out
}

/// `s` as a quoted XML attribute value.
func xmlAttribute(_ s: String) -> String { "\"" + xmlEscape(s) + "\"" }
