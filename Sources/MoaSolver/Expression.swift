// Moa — the solver's value types: handles, terms, expressions, relations, priorities.

/// A solver variable, as a checked handle.
///
/// The handle packs a dense slot index (low 32 bits) and the slot's generation (high 32 bits), so a handle to a
/// freed variable is detected and rejected as stale instead of reaching another variable that reused the slot.
/// The C type is `moa_var`.
public struct Variable: Hashable, Sendable, CustomStringConvertible {
    /// The raw 64-bit handle (never 0 for a live variable).
    public let rawValue: UInt64
    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }
    @inlinable var slot: Int { Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: rawValue)) }
    @inlinable var generation: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
    @inlinable init(slot: Int, generation: UInt32) {
        rawValue = UInt64(generation) << 32 | UInt64(UInt32(truncatingIfNeeded: slot))
    }
    public var description: String { "var#\(slot)" }
    /// A dense index of the variable in its solver (below the number of variables ever live at once), for tables
    /// kept in arrays beside the solver. A removed variable's index is reused by a later one.
    @inlinable public var index: Int { slot }
}

/// A constraint in a solver, as a checked handle (slot + generation, like `Variable`). The C type is `moa_cons`.
public struct Constraint: Hashable, Sendable, CustomStringConvertible {
    /// The raw 64-bit handle (never 0 for a live constraint).
    public let rawValue: UInt64
    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }
    @inlinable var slot: Int { Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: rawValue)) }
    @inlinable var generation: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
    @inlinable init(slot: Int, generation: UInt32) {
        rawValue = UInt64(generation) << 32 | UInt64(UInt32(truncatingIfNeeded: slot))
    }
    /// A dense index of the constraint in its solver (below the number of constraints ever live at once), for
    /// tables kept in arrays beside the solver. A removed constraint's index is reused by a later one.
    @inlinable public var index: Int { slot }
    public var description: String { "cons#\(slot)" }
}

/// `coefficient * variable`.
public struct Term: Sendable, Equatable {
    public var variable: Variable
    public var coefficient: Double
    @inlinable public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A linear expression: `sum(coefficient * variable) + constant`. A variable may occur in several terms; the
/// solver adds them up.
public struct Expression: Sendable, Equatable {
    public var terms: [Term]
    public var constant: Double
    @inlinable public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }
    @inlinable public init(_ variable: Variable) { self.init([Term(variable)]) }
}

/// How a constraint relates its expression to zero: `expression == 0`, `<= 0` or `>= 0`.
public enum Relation: Int32, Sendable, CustomStringConvertible {
    case equal = 0
    case lessOrEqual = 1
    case greaterOrEqual = 2
    public var description: String {
        switch self {
        case .equal: return "=="
        case .lessOrEqual: return "<="
        case .greaterOrEqual: return ">="
        }
    }
}

/// Auto Layout's priority scale. Priorities are **strict**: a constraint of a higher priority is never given up
/// to better satisfy any number of constraints of lower priorities. Within one priority, violations are summed,
/// each times its constraint's weight.
public enum Priority {
    /// Required: must hold, or the call that adds it fails.
    public static let required: Double = 1000
    public static let high: Double = 750
    public static let medium: Double = 500
    public static let low: Double = 250
    public static let fit: Double = 50
    /// True when `p` is a valid priority: finite, in `(0, 1000]`.
    @inlinable public static func isValid(_ p: Double) -> Bool { p > 0 && p <= 1000 }

    /// Every priority name Moa knows, with its value, in a stable order: the one table the equation language
    /// (`@ high`), the C API (`moa_priority_value`, `moa_priority_name`) and the Lua and Python bindings read.
    /// kiwi's strengths (`strong`, `medium`, `weak`), the RMExtensions names (`required`, `max`, `high`, `med`,
    /// `low`, `fit`) and the names of Swift's `LayoutPriority` (`minNonZero` ... `maxNonRequired`,
    /// `fittingSizeLevel`).
    public static let names: [(name: String, value: Double)] = [
        ("required", 1000), ("max", 1000),
        ("strong", 750), ("high", 750),
        ("medium", 500), ("med", 500),
        ("weak", 250), ("low", 250),
        ("fit", 50),
        ("minNonZero", 1), ("fittingSizeLevel", 50), ("belowDefaultLow", 249), ("defaultLow", 250),
        ("aboveDefaultLow", 251), ("belowDefaultHigh", 749), ("defaultHigh", 750), ("aboveDefaultHigh", 751),
        ("maxNonRequired", 999),
    ]

    /// The value of a priority name (`"high"` is 750), or nil. Names are case-sensitive.
    public static func value(named name: some StringProtocol) -> Double? {
        for entry in names where entry.name == name { return entry.value }
        return nil
    }
}

/// Moa's version: the one source the library (`moa_libversion`), the tools and the bindings report. Include/moa.h
/// repeats it as `MOA_VERSION` for C compilers; a test checks that the two agree.
public enum MoaVersion {
    public static let major = 0
    public static let minor = 1
    public static let patch = 0
    /// "X.Y.Z".
    public static let string: StaticString = "0.1.0"
    /// X * 1_000_000 + Y * 1_000 + Z.
    public static var number: Int { major * 1_000_000 + minor * 1_000 + patch }
}

// MARK: - Building expressions in Swift

public func * (v: Variable, k: Double) -> Expression { Expression([Term(v, k)]) }
public func * (k: Double, v: Variable) -> Expression { Expression([Term(v, k)]) }
public func + (a: Expression, b: Expression) -> Expression { Expression(a.terms + b.terms, constant: a.constant + b.constant) }
public func + (a: Expression, k: Double) -> Expression { Expression(a.terms, constant: a.constant + k) }
public func - (a: Expression, k: Double) -> Expression { Expression(a.terms, constant: a.constant - k) }
public prefix func - (a: Expression) -> Expression {
    Expression(a.terms.map { Term($0.variable, -$0.coefficient) }, constant: -a.constant)
}
public func - (a: Expression, b: Expression) -> Expression { a + -b }
public func + (a: Variable, b: Variable) -> Expression { Expression(a) + Expression(b) }
public func - (a: Variable, b: Variable) -> Expression { Expression(a) - Expression(b) }
public func + (a: Expression, b: Variable) -> Expression { a + Expression(b) }
public func - (a: Expression, b: Variable) -> Expression { a - Expression(b) }
public func + (a: Variable, k: Double) -> Expression { Expression(a) + k }
public func - (a: Variable, k: Double) -> Expression { Expression(a) - k }
public func + (a: Variable, b: Expression) -> Expression { Expression(a) + b }
public func - (a: Variable, b: Expression) -> Expression { Expression(a) - b }
public func * (a: Expression, k: Double) -> Expression {
    Expression(a.terms.map { Term($0.variable, $0.coefficient * k) }, constant: a.constant * k)
}
public func * (k: Double, a: Expression) -> Expression { a * k }
