// Moa — layout geometry: rectangles, insets, axes and layout directions.

/// A rectangle: origin (`x`, `y`) and size (`width`, `height`), y growing downwards as in UIKit.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width (may be negative if the constraints say so; Moa does not normalise).
    public var width: Double
    /// The height (may be negative if the constraints say so).
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The zero rectangle.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// `x`.
    public var minX: Double { x }
    /// `y`.
    public var minY: Double { y }
    /// `x + width`.
    public var maxX: Double { x + width }
    /// `y + height`.
    public var maxY: Double { y + height }
    /// `x + width / 2`.
    public var midX: Double { x + width / 2 }
    /// `y + height / 2`.
    public var midY: Double { y + height / 2 }

    /// True when every component of `self` is within `tolerance` of `other`'s.
    public func isClose(to other: Rect, tolerance: Double = 1e-9) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance
            && abs(width - other.width) <= tolerance && abs(height - other.height) <= tolerance
    }

    /// `(x, y, width, height)` with integral numbers printed without a fraction, e.g. `(7, 200, 306, 280)`.
    public var description: String {
        "(\(formatNumber(x)), \(formatNumber(y)), \(formatNumber(width)), \(formatNumber(height)))"
    }
}

/// Insets from the four edges of a rectangle (UIKit's `UIEdgeInsets`), in points. Used for layout margins and
/// the safe area. Edges are physical (left/right), not leading/trailing.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// Inset from the top edge.
    public var top: Double
    /// Inset from the left edge.
    public var left: Double
    /// Inset from the bottom edge.
    public var bottom: Double
    /// Inset from the right edge.
    public var right: Double

    /// Creates insets.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The same inset on all four edges.
    public init(all inset: Double) { self.init(top: inset, left: inset, bottom: inset, right: inset) }

    /// No inset.
    public static let zero = EdgeInsets(all: 0)

    /// `(top, left, bottom, right)`.
    public var description: String {
        "(\(formatNumber(top)), \(formatNumber(left)), \(formatNumber(bottom)), \(formatNumber(right)))"
    }

    /// Every edge is a length a call may take (`Layout.isLength`).
    var areLengths: Bool { [top, left, bottom, right].allSatisfy(Layout.isLength) }
}

/// Insets by leading and trailing edges instead of left and right (UIKit's `NSDirectionalEdgeInsets`): a view's
/// effective layout direction decides which side each one is on.
public struct DirectionalEdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// Inset from the top edge.
    public var top: Double
    /// Inset from the leading edge (left in left-to-right, right in right-to-left).
    public var leading: Double
    /// Inset from the bottom edge.
    public var bottom: Double
    /// Inset from the trailing edge.
    public var trailing: Double

    /// Creates insets.
    public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }

    /// The insets by left and right for a direction.
    public func resolved(rightToLeft: Bool) -> EdgeInsets {
        EdgeInsets(top: top, left: rightToLeft ? trailing : leading, bottom: bottom, right: rightToLeft ? leading : trailing)
    }

    /// `(top, leading, bottom, trailing)`.
    public var description: String {
        "(\(formatNumber(top)), \(formatNumber(leading)), \(formatNumber(bottom)), \(formatNumber(trailing)))"
    }

    /// Every edge is a length a call may take (`Layout.isLength`).
    var areLengths: Bool { [top, leading, bottom, trailing].allSatisfy(Layout.isLength) }
}

extension Layout {
    /// The largest length, in points, a call takes as a margin, an inset, a baseline offset or a pan offset
    /// (1e9, as measured sizes and chain gaps). Constraints add a few lengths into constants the solver holds
    /// to ±1e12, so a wild value fails in the call that gives it, not in a later, unrelated one.
    public static let maxLength = 1e9
    /// Whether `x` is finite and within ±`maxLength`.
    public static func isLength(_ x: Double) -> Bool { x.isFinite && abs(x) <= maxLength }
    /// The longest animation duration or delay, in seconds (1e12): beyond it a double no longer resolves a
    /// frame's step. (The clock itself takes any finite time; see `Animator.seek(to:)`.)
    public static let maxTime = 1e12
}

/// A layout axis: horizontal (x, width) or vertical (y, height).
public enum LayoutAxis: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// x positions and widths.
    case horizontal = 0
    /// y positions and heights.
    case vertical = 1

    /// `"horizontal"` or `"vertical"`.
    public var description: String { self == .horizontal ? "horizontal" : "vertical" }
}

/// The direction in which a view's content flows, which decides what `leading` and `trailing` mean.
public enum LayoutDirection: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Use the superview's effective direction (the root's default is left-to-right).
    case inherit = 0
    /// Leading is left, trailing is right.
    case leftToRight = 1
    /// Leading is right, trailing is left, and constraints written with leading/trailing are mirrored.
    case rightToLeft = 2

    /// `"inherit"`, `"leftToRight"` or `"rightToLeft"`.
    public var description: String {
        switch self {
        case .inherit: return "inherit"
        case .leftToRight: return "leftToRight"
        case .rightToLeft: return "rightToLeft"
        }
    }
}

/// How a relation compares the left side of an equation with its right side.
public enum LayoutRelation: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `==`
    case equal = "=="
    /// `<=`
    case lessOrEqual = "<="
    /// `>=`
    case greaterOrEqual = ">="

    /// The relation as written in equations: `==`, `<=` or `>=`.
    public var description: String { rawValue }

    /// The relation with its sides swapped (`<=` becomes `>=`).
    var flipped: LayoutRelation {
        switch self {
        case .equal: return .equal
        case .lessOrEqual: return .greaterOrEqual
        case .greaterOrEqual: return .lessOrEqual
        }
    }
}

/// A number as equations print it: integral values without a fraction (`8`, `-7`), others in Swift's shortest
/// round-tripping form (`0.5`, `0.3333333333333333`).
func formatNumber(_ d: Double) -> String {
    if d == 0 { return "0" }  // also folds -0
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return String(d)
}

/// A layout's orientation, from its root size (`Layout.orientation`): landscape when wider than tall, otherwise
/// portrait, as an app sees its interface orientation.
public enum Orientation: Sendable, CustomStringConvertible {
    case portrait
    case landscape

    /// The set holding just this orientation.
    public var mask: Orientations { self == .portrait ? .portrait : .landscape }

    /// `"portrait"` or `"landscape"`.
    public var description: String { self == .portrait ? "portrait" : "landscape" }
}

/// A set of orientations, e.g. the ones a pan driver takes events in (`PanDriver.orientations`).
public struct Orientations: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let portrait = Orientations(rawValue: 1)
    public static let landscape = Orientations(rawValue: 2)
    /// Both.
    public static let all: Orientations = [.portrait, .landscape]
}
