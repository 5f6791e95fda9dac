// Moa — the solver's errors. Every failing call throws one of these and leaves the solver as it was.

/// Why a solver call failed. The C layer maps each case to one `moa_status`.
public enum SolverError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A required constraint cannot hold together with the existing required constraints.
    /// `conflicts` is a minimal set of existing required constraints that, with the new one, cannot all hold:
    /// drop any one of them and the rest can.
    case unsatisfiable(conflicts: [Constraint])
    /// The variable handle is unknown or stale (its variable was freed).
    case unknownVariable
    /// The constraint handle is unknown or stale (its constraint was removed).
    case unknownConstraint
    /// The constraint is already active (added twice).
    case duplicateConstraint
    /// The variable is already an edit variable.
    case duplicateEditVariable
    /// The variable is not an edit variable.
    case unknownEditVariable
    /// A number is NaN or infinite, or a priority is outside `(0, 1000]`, or a weight is not positive.
    case invalidArgument(String)
    /// The object is in a state where the call is not allowed (for instance freeing a variable still in use).
    case misuse(String)
    /// An internal invariant failed; the call was rolled back. Please report it.
    case internalError(String)
    /// A limit of `Solver.limits` was reached; nothing changed.
    case limit(String)

    public var description: String {
        switch self {
        case .unsatisfiable(let c):
            return "unsatisfiable required constraint (conflicts with \(c.count) existing required constraint\(c.count == 1 ? "" : "s"))"
        case .unknownVariable: return "unknown or stale variable"
        case .unknownConstraint: return "unknown or stale constraint"
        case .duplicateConstraint: return "constraint is already active"
        case .duplicateEditVariable: return "variable is already an edit variable"
        case .unknownEditVariable: return "variable is not an edit variable"
        case .invalidArgument(let m): return "invalid argument: \(m)"
        case .misuse(let m): return "misuse: \(m)"
        case .internalError(let m): return "internal error: \(m)"
        case .limit(let m): return "limit reached: \(m)"
        }
    }
}
