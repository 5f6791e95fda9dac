// Moa — the attributes a view offers to equations, each a linear expression over its four variables.

/// An attribute of a view or layout guide, as written in equations (`calendar.bottom`, `label.leadingMargin`).
///
/// Each is a linear expression over the item's variables `minX`, `minY`, `width`, `height` (root space):
///
/// | attribute | expression |
/// |---|---|
/// | `left`, `right`, `centerX` | `minX`, `minX + width`, `minX + width/2` |
/// | `top`, `bottom`, `centerY` | `minY`, `minY + height`, `minY + height/2` |
/// | `width`, `height` | `width`, `height` |
/// | `leading`, `trailing` | `left`, `right` (left-to-right) or mirrored (right-to-left, see `Layout`) |
/// | `baseline`, `lastBaseline` | `top + baselineOffset` (`bottom` when the view has no baseline offset) |
/// | `firstBaseline` | `top + firstBaselineOffset` (falls back to the baseline) |
/// | `leftMargin`, `rightMargin` | `left + margins.left`, `right - margins.right` |
/// | `topMargin`, `bottomMargin` | `top + margins.top`, `bottom - margins.bottom` |
/// | `leadingMargin`, `trailingMargin` | `leftMargin`, `rightMargin` (or mirrored) |
/// | `centerXWithinMargins` | `(leftMargin + rightMargin) / 2` |
/// | `centerYWithinMargins` | `(topMargin + bottomMargin) / 2` |
public enum LayoutAttribute: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The left edge.
    case left
    /// The right edge.
    case right
    /// The top edge.
    case top
    /// The bottom edge.
    case bottom
    /// The leading edge: left in left-to-right layouts, right in right-to-left ones.
    case leading
    /// The trailing edge: right in left-to-right layouts, left in right-to-left ones.
    case trailing
    /// The width.
    case width
    /// The height.
    case height
    /// The horizontal centre.
    case centerX
    /// The vertical centre.
    case centerY
    /// The (last) baseline: `top + baselineOffset`.
    case baseline
    /// The first baseline: `top + firstBaselineOffset`.
    case firstBaseline
    /// The last baseline (same as `baseline`).
    case lastBaseline
    /// The left edge inset by the left layout margin.
    case leftMargin
    /// The right edge inset by the right layout margin.
    case rightMargin
    /// The top edge inset by the top layout margin.
    case topMargin
    /// The bottom edge inset by the bottom layout margin.
    case bottomMargin
    /// The leading edge inset by its margin.
    case leadingMargin
    /// The trailing edge inset by its margin.
    case trailingMargin
    /// The horizontal centre between the left and right margins.
    case centerXWithinMargins
    /// The vertical centre between the top and bottom margins.
    case centerYWithinMargins

    /// The name used in equations, e.g. `centerXWithinMargins`.
    public var description: String { rawValue }

    /// Attributes by name: one hash lookup (`init(rawValue:)` compares the name with each case in turn).
    static let named: NameTable<LayoutAttribute> = {
        var t = NameTable<LayoutAttribute>(minimumCapacity: allCases.count)
        for a in allCases { t[a.rawValue] = a }
        return t
    }()

    /// The axis the attribute measures along (`width` is horizontal, `height` vertical).
    public var axis: LayoutAxis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX, .leftMargin, .rightMargin, .leadingMargin,
             .trailingMargin, .centerXWithinMargins:
            return .horizontal
        case .top, .bottom, .height, .centerY, .baseline, .firstBaseline, .lastBaseline, .topMargin, .bottomMargin,
             .centerYWithinMargins:
            return .vertical
        }
    }

    /// True for `width` and `height`: a size, not a position. A lone number on the right of a size is absolute.
    public var isSize: Bool { self == .width || self == .height }

    /// True for the attributes whose meaning depends on the layout direction: `leading`, `trailing`,
    /// `leadingMargin`, `trailingMargin`.
    public var isDirectional: Bool {
        self == .leading || self == .trailing || self == .leadingMargin || self == .trailingMargin
    }

    /// True for `left`, `right`, `leftMargin`, `rightMargin`, which may not be mixed with directional attributes
    /// in one constraint (Auto Layout's rule).
    var isAbsoluteHorizontalEdge: Bool {
        self == .left || self == .right || self == .leftMargin || self == .rightMargin
    }
}

/// One of a view's four solver variables, as named by ambiguity reports.
public enum LayoutVariable: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// The left edge in root space.
    case minX = 0
    /// The top edge in root space.
    case minY = 1
    /// The width.
    case width = 2
    /// The height.
    case height = 3

    /// `minX`, `minY`, `width` or `height`.
    public var description: String {
        switch self {
        case .minX: return "minX"
        case .minY: return "minY"
        case .width: return "width"
        case .height: return "height"
        }
    }

    /// What is missing, in words: `horizontal position`, `vertical position`, `width`, `height`.
    public var meaning: String {
        switch self {
        case .minX: return "horizontal position"
        case .minY: return "vertical position"
        case .width: return "width"
        case .height: return "height"
        }
    }

    /// The axis of the variable.
    public var axis: LayoutAxis { self == .minX || self == .width ? .horizontal : .vertical }
}
