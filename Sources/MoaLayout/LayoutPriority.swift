// Moa — the priority names of the equation language.

import MoaSolver

/// Priorities of layout constraints: numbers in `1...1000`, 1000 being required. Priorities are strict: a
/// constraint of a higher priority is never given up to better satisfy any number of lower ones.
///
/// The equation language accepts every name of `Priority.names` (kiwi's `strong`/`medium`/`weak`, the
/// RMExtensions names `required`, `max`, `high`, `med`, `low`, `fit`, and the Swift `LayoutPriority` names
/// `minNonZero` ... `maxNonRequired`, `fittingSizeLevel`), with `+`/`-` arithmetic: `defaultHigh - 1`.
public enum LayoutPriority {
    /// 1000: must hold.
    public static let required: Double = 1000
    /// 999: the highest optional priority.
    public static let maxNonRequired: Double = 999
    /// 751.
    public static let aboveDefaultHigh: Double = 751
    /// 750: compression resistance by default.
    public static let defaultHigh: Double = 750
    /// 749.
    public static let belowDefaultHigh: Double = 749
    /// 500.
    public static let medium: Double = 500
    /// 251.
    public static let aboveDefaultLow: Double = 251
    /// 250: hugging by default.
    public static let defaultLow: Double = 250
    /// 249.
    public static let belowDefaultLow: Double = 249
    /// 50: Auto Layout's fitting-size level.
    public static let fittingSizeLevel: Double = 50
    /// 1: the lowest priority.
    public static let minNonZero: Double = 1

    /// Every priority name the equation language knows, with its value: the solver's one table (`Priority.names`).
    public static var names: [(name: String, value: Double)] { Priority.names }

    /// The value of a priority name (`"high"` is 750), or nil.
    public static func value(named name: some StringProtocol) -> Double? { Priority.value(named: name) }

    /// True when `p` is a valid layout priority: a finite number in `1...1000`.
    public static func isValid(_ p: Double) -> Bool { p.isFinite && p >= 1 && p <= 1000 }
}
