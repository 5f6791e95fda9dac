// Moa — content that sizes itself: a view's measure function (Yoga's idea), its proposals, answers and cache.

/// How a proposed length binds the content, as in Yoga's measure function.
public enum MeasureMode: Int, Hashable, Sendable, CaseIterable {
    /// No length is proposed (the length is `.infinity`): the content says the size it wants.
    case undefined = 0
    /// The content gets exactly this length.
    case exactly = 1
    /// The content may take up to this length (a wrapping text answers with its widest line).
    case atMost = 2
}

/// What a solve proposes to a view's content: a width and a height, each with a mode. An undefined length is
/// `.infinity`.
public struct MeasureProposal: Hashable, Sendable, CustomStringConvertible {
    /// The proposed width (`.infinity` when `widthMode` is `.undefined`).
    public var width: Double
    /// How `width` binds.
    public var widthMode: MeasureMode
    /// The proposed height (`.infinity` when `heightMode` is `.undefined`).
    public var height: Double
    /// How `height` binds.
    public var heightMode: MeasureMode

    /// Creates a proposal; a length whose mode is `.undefined` is stored as `.infinity`.
    public init(width: Double, widthMode: MeasureMode, height: Double, heightMode: MeasureMode) {
        self.width = widthMode == .undefined ? .infinity : width
        self.widthMode = widthMode
        self.height = heightMode == .undefined ? .infinity : height
        self.heightMode = heightMode
    }

    /// Nothing proposed: the content's natural size (a text on one line per paragraph).
    public static let natural = MeasureProposal(width: .infinity, widthMode: .undefined,
                                                height: .infinity, heightMode: .undefined)

    /// Height for width: at most `width` wide, any height.
    public static func width(_ width: Double) -> MeasureProposal {
        MeasureProposal(width: width, widthMode: .atMost, height: .infinity, heightMode: .undefined)
    }

    public var description: String {
        func side(_ x: Double, _ m: MeasureMode) -> String {
            switch m {
            case .undefined: return "undefined"
            case .exactly: return "exactly \(formatNumber(x))"
            case .atMost: return "at most \(formatNumber(x))"
            }
        }
        return "width \(side(width, widthMode)), height \(side(height, heightMode))"
    }
}

/// A measure function's answer: the content's size and, optionally, its baselines (from the top).
public struct MeasuredSize: Hashable, Sendable {
    /// The content's width, 0...1e9.
    public var width: Double
    /// The content's height, 0...1e9.
    public var height: Double
    /// The last baseline's distance from the top (the view's `lastBaseline`), or nil.
    public var baseline: Double?
    /// The first baseline's distance from the top (the view's `firstBaseline`), or nil (then `baseline`).
    public var firstBaseline: Double?

    /// Creates an answer.
    public init(width: Double, height: Double, baseline: Double? = nil, firstBaseline: Double? = nil) {
        self.width = width
        self.height = height
        self.baseline = baseline
        self.firstBaseline = firstBaseline
    }

    /// Nil when every number is finite and within 0...1e9 (baselines: ±1e9), else what is wrong.
    var problem: String? {
        for (name, x) in [("width", width), ("height", height)] where !(x.isFinite && x >= 0 && x <= 1e9) {
            return "\(name) \(formatNumber(x)) is not a finite number in 0...1e9"
        }
        for (name, x) in [("baseline", baseline), ("first baseline", firstBaseline)] {
            if let x, !(x.isFinite && abs(x) <= 1e9) { return "\(name) \(formatNumber(x)) is not a finite number within ±1e9" }
        }
        return nil
    }
}

/// A view's measure function: given the proposal, the content's size. It may throw to fail the solve (the
/// error's description becomes the solve's message); it may read the layout but not change it.
public typealias MeasureFunction = (MeasureProposal) throws -> MeasuredSize

/// How many times measure functions were called, and how often the cache answered instead
/// (`Layout.measureStatistics`).
public struct MeasureStatistics: Hashable, Sendable {
    /// Calls of measure functions since the layout was made.
    public var calls = 0
    /// Proposals answered from a view's cache.
    public var cacheHits = 0
    /// Rounds (re-solves after measuring) of the last solve that measured anything.
    public var lastRounds = 0
    /// Calls of measure functions in the last solve.
    public var lastCalls = 0
    /// Measured views the last solve looked at (those whose width or content may have changed; all of them
    /// after a change of content, text measurer or root width).
    public var lastExamined = 0

    /// All zero.
    public init() {}
}

/// A view's measured content: its function, its cache (the last answers, by proposal) and what the layout
/// took from it.
final class MeasuredContent {
    var measure: MeasureFunction
    /// The last answers, newest last; at most `capacity` (Yoga keeps a handful per node too).
    var cache: [(MeasureProposal, MeasuredSize)] = []
    static let capacity = 8
    /// The width the intrinsic height was measured for (nil: not yet, or invalidated).
    var measuredForWidth: Double?
    /// The natural size taken as the intrinsic width (nil: not yet, or invalidated).
    var natural: MeasuredSize?
    /// An adaptive text's size follows the root's width: a new root width invalidates the answers.
    var followsRootWidth = false
    /// The root width the answers were given for (adaptive content only).
    var rootWidth: Double?

    init(_ measure: @escaping MeasureFunction) { self.measure = measure }

    func cached(_ p: MeasureProposal) -> MeasuredSize? {
        for (q, size) in cache.reversed() where q == p { return size }
        return nil
    }

    func store(_ p: MeasureProposal, _ size: MeasuredSize) {
        if cache.count == MeasuredContent.capacity { cache.removeFirst() }
        cache.append((p, size))
    }

    /// Forgets every answer: the content changed.
    func invalidate() {
        cache.removeAll()
        measuredForWidth = nil
        natural = nil
    }
}
