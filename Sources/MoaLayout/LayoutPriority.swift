// Moa — the priority names of the equation language.

/// Priorities of layout constraints: numbers in `1...1000`, 1000 being required. Priorities are strict: a
/// constraint of a higher priority is never given up to better satisfy any number of lower ones.
///
/// The equation language accepts the RMExtensions names (`required`, `max`, `high`, `med`, `low`, `fit`) and
/// the Swift `LayoutPriority` names (`minNonZero` ... `required`), with `+`/`-` arithmetic: `defaultHigh - 1`.
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

    /// Every priority name the equation language knows, with its value, in a stable order.
    public static let names: [(name: String, value: Double)] = [
        ("required", 1000), ("max", 1000), ("high", 750), ("med", 500), ("low", 250), ("fit", 50),
        ("minNonZero", 1), ("belowDefaultLow", 249), ("defaultLow", 250), ("aboveDefaultLow", 251),
        ("belowDefaultHigh", 749), ("defaultHigh", 750), ("aboveDefaultHigh", 751), ("maxNonRequired", 999),
    ]

    /// The value of a priority name (`"high"` is 750), or nil.
    public static func value(named name: String) -> Double? {
        for entry in names where entry.name == name { return entry.value }
        return nil
    }

    /// True when `p` is a valid layout priority: a finite number in `1...1000`.
    public static func isValid(_ p: Double) -> Bool { p.isFinite && p >= 1 && p <= 1000 }
}
