// Moa — text content: a string in a style, wrapped by words at the width the layout gives it, measured by a
// `TextMeasurer` (a simple built-in one, or a real font behind the same interface).

/// Measures runs of text in one font: the advance width of a run at a size, and the font's vertical metrics.
/// A measurer is called from solves only (one thread at a time per layout).
public protocol TextMeasurer: AnyObject {
    /// The font family pictures draw the text in, e.g. `DejaVu Sans`.
    var family: String { get }
    /// Ascent above the baseline, as a fraction of the font size.
    var ascent: Double { get }
    /// Descent below the baseline, as a fraction of the font size.
    var descent: Double { get }
    /// The advance width, in points, of `text` (one line, no newline) at `fontSize` points.
    /// - Throws: any error; the solve that asked fails with its description.
    func advance(_ text: Substring, fontSize: Double) throws -> Double
}

/// A measurer that needs no font file: each character advances by a fixed fraction of the font size, or by
/// its entry in a per-character table. The default (0.6 em, every character) matches monospaced fonts such as
/// DejaVu Sans Mono, which the pictures name, so tests and examples give the same breaks everywhere.
public final class SimpleTextMeasurer: TextMeasurer {
    public let family: String
    public let ascent: Double
    public let descent: Double
    /// The advance of a character not in `widths`, in em (fractions of the font size).
    public let defaultAdvance: Double
    /// Advances by character, in em.
    public let widths: [Character: Double]

    /// Creates a measurer. Advances are in em (multiplied by the font size).
    public init(defaultAdvance: Double = 0.6, widths: [Character: Double] = [:],
                family: String = "DejaVu Sans Mono, monospace", ascent: Double = 0.76, descent: Double = 0.24) {
        self.defaultAdvance = defaultAdvance
        self.widths = widths
        self.family = family
        self.ascent = ascent
        self.descent = descent
    }

    public func advance(_ text: Substring, fontSize: Double) -> Double {
        if widths.isEmpty { return Double(text.count) * defaultAdvance * fontSize }
        var em = 0.0
        for ch in text { em += widths[ch] ?? defaultAdvance }
        return em * fontSize
    }
}

/// How a view's text is set: size, line height, a limit on lines, and an optional size that follows the root.
public struct TextStyle: Hashable, Sendable {
    /// The font size in points (17 by default, UIKit's body text), 0.5...1e4.
    public var fontSize: Double
    /// The distance between baselines, in points; nil (the default) is 1.2 x the font size.
    public var lineHeight: Double?
    /// At most this many lines (the last one ends in `…` when text is cut); 0 (the default) is no limit.
    public var maxLines: Int
    /// When set, the font size follows the root's width: `fontSize * rootWidth / referenceWidth` (the
    /// AdaptiveFontLabel of iOS projects, done by the layout: re-measured whenever the root's width changes, as
    /// on rotation), then kept within `minimumFontSize...maximumFontSize`. Nil (the default): a fixed size.
    public var referenceWidth: Double?
    /// The smallest size an adaptive font takes (0: no limit).
    public var minimumFontSize: Double
    /// The largest size an adaptive font takes (0: no limit).
    public var maximumFontSize: Double

    /// Creates a style; every parameter has the default described on its property.
    public init(fontSize: Double = 17, lineHeight: Double? = nil, maxLines: Int = 0, referenceWidth: Double? = nil,
                minimumFontSize: Double = 0, maximumFontSize: Double = 0) {
        self.fontSize = fontSize
        self.lineHeight = lineHeight
        self.maxLines = maxLines
        self.referenceWidth = referenceWidth
        self.minimumFontSize = minimumFontSize
        self.maximumFontSize = maximumFontSize
    }

    /// Nil when the style can be used, else what is wrong with it.
    var problem: String? {
        if !(fontSize.isFinite && fontSize >= 0.5 && fontSize <= 1e4) {
            return "font size \(formatNumber(fontSize)) must be in 0.5...1e4"
        }
        if let h = lineHeight, !(h.isFinite && h > 0 && h <= 1e5) {
            return "line height \(formatNumber(h)) must be in (0, 1e5]"
        }
        if maxLines < 0 { return "max lines \(maxLines) must be >= 0 (0: no limit)" }
        if let w = referenceWidth, !(w.isFinite && w > 0 && w <= 1e9) {
            return "reference width \(formatNumber(w)) must be in (0, 1e9]"
        }
        for (name, x) in [("minimum", minimumFontSize), ("maximum", maximumFontSize)] where !(x.isFinite && x >= 0 && x <= 1e4) {
            return "\(name) font size \(formatNumber(x)) must be in 0...1e4 (0: no limit)"
        }
        if minimumFontSize > 0 && maximumFontSize > 0 && minimumFontSize > maximumFontSize {
            return "minimum font size \(formatNumber(minimumFontSize)) is above the maximum \(formatNumber(maximumFontSize))"
        }
        return nil
    }

    /// The font size for a root of width `rootWidth`.
    public func effectiveFontSize(rootWidth: Double) -> Double {
        guard let reference = referenceWidth else { return fontSize }
        var size = fontSize * rootWidth / reference
        if minimumFontSize > 0 { size = max(size, minimumFontSize) }
        if maximumFontSize > 0 { size = min(size, maximumFontSize) }
        // Within the sizes a style may give: a tiny reference width would make it infinite.
        return min(max(size, 0.5), 1e4)
    }
}

/// A view's text: the string and its style.
public struct TextContent: Hashable, Sendable {
    /// The text; `\n` starts a new paragraph.
    public var string: String
    /// How it is set.
    public var style: TextStyle

    /// Creates text content.
    public init(_ string: String, style: TextStyle = TextStyle()) {
        self.string = string
        self.style = style
    }
}

/// Text broken into lines for one width: each line's text and width, and the metrics to place them.
public struct TextLines: Hashable, Sendable {
    /// The lines, top to bottom (the last one ends in `…` when `maxLines` cut the text).
    public var lines: [String]
    /// Each line's advance width.
    public var widths: [Double]
    /// The font size used (an adaptive style's size for the root's width).
    public var fontSize: Double
    /// The distance between baselines.
    public var lineHeight: Double
    /// The first baseline's distance from the top.
    public var firstBaseline: Double

    /// The widest line.
    public var width: Double { widths.max() ?? 0 }
    /// The height of all lines (0 for no text).
    public var height: Double { Double(lines.count) * lineHeight }
    /// The last baseline's distance from the top.
    public var lastBaseline: Double { firstBaseline + Double(max(lines.count - 1, 0)) * lineHeight }

    /// Breaks `text` into lines at most `width` wide (`.infinity`: one line per paragraph), by words: a line
    /// takes words while they fit; a word wider than the width on its own is broken between characters. Spaces
    /// at a break are dropped. At most `maxLines` lines (of `style`, or `heightLimit / lineHeight` when smaller),
    /// the last one shortened to end in `…`.
    public static func wrap(_ text: TextContent, width: Double, heightLimit: Double = .infinity, rootWidth: Double,
                            measurer: TextMeasurer) throws -> TextLines {
        let size = text.style.effectiveFontSize(rootWidth: rootWidth)
        let lineHeight = text.style.lineHeight ?? (1.2 * size)
        let glyphHeight = (measurer.ascent + measurer.descent) * size
        var out = TextLines(lines: [], widths: [], fontSize: size, lineHeight: lineHeight,
                            firstBaseline: (lineHeight - glyphHeight) / 2 + measurer.ascent * size)
        guard !text.string.isEmpty else { return out }
        var maxLines = text.style.maxLines > 0 ? text.style.maxLines : Int.max
        if heightLimit.isFinite {
            // (a tiny line height over a tall limit is beyond Int: converting it would trap)
            let fit = (heightLimit / lineHeight).rounded(.down)
            maxLines = min(maxLines, fit >= Double(Int32.max) ? Int(Int32.max) : max(1, Int(fit)))
        }
        let space = try measurer.advance(" ", fontSize: size)
        let limit = width + 1e-9   // a line exactly as wide as the width fits
        var lines: [String] = [], widths: [Double] = []
        for paragraph in text.string.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = "", lineWidth = 0.0
            func finish() {
                lines.append(line); widths.append(lineWidth)
                line = ""; lineWidth = 0
            }
            for word in paragraph.split(separator: " ") {
                let w = try measurer.advance(word, fontSize: size)
                if line.isEmpty && w <= limit {
                    line = String(word); lineWidth = w
                } else if !line.isEmpty && lineWidth + space + w <= limit {
                    line += " " + word; lineWidth += space + w
                } else if w <= limit {
                    finish()
                    line = String(word); lineWidth = w
                } else {
                    // Too wide on its own: as many characters as fit on each line (at least one).
                    if !line.isEmpty { finish() }
                    for ch in word {
                        let cw = try measurer.advance(Substring(String(ch)), fontSize: size)
                        if !line.isEmpty && lineWidth + cw > limit { finish() }
                        line.append(ch); lineWidth += cw
                    }
                }
            }
            finish()
        }
        if lines.count > maxLines {
            lines.removeLast(lines.count - maxLines)
            widths.removeLast(widths.count - maxLines)
            var last = lines[maxLines - 1]
            let ellipsis = try measurer.advance("…", fontSize: size)
            var w = widths[maxLines - 1]
            while !last.isEmpty && w + ellipsis > limit {
                last.removeLast()
                while last.last == " " { last.removeLast() }
                w = try measurer.advance(Substring(last), fontSize: size)
            }
            lines[maxLines - 1] = last + "…"
            widths[maxLines - 1] = w + ellipsis
        }
        out.lines = lines
        out.widths = widths
        return out
    }
}
