// Moa — C ABI toolkit: status codes and the one mapping of each engine error to a `moa_status`.

import MoaLayout
import MoaSolver

/// The `moa_status` codes (must match Include/moa.h; MoaCTests checks them).
enum Status {
    static let ok: Int32 = 0
    static let error: Int32 = 1
    static let misuse: Int32 = 2
    static let nomem: Int32 = 3
    static let invalid: Int32 = 4
    static let notFound: Int32 = 5
    static let duplicate: Int32 = 6
    static let unsatisfiable: Int32 = 7
    static let parse: Int32 = 8
    static let callback: Int32 = 9
    static let limit: Int32 = 10

    /// The one place that maps a `SolverError` to a `moa_status`.
    static func of(_ failure: SolverError) -> Int32 {
        switch failure {
        case .unsatisfiable: return unsatisfiable
        case .unknownVariable, .unknownConstraint, .unknownEditVariable: return notFound
        case .duplicateConstraint, .duplicateEditVariable: return duplicate
        case .invalidArgument: return invalid
        case .misuse: return misuse
        case .internalError: return Status.error
        case .limit: return limit
        }
    }

    /// The one place that maps a `LayoutError.Kind` to a `moa_status` (documented in moa.h, "THE LAYOUT LEVEL").
    static func of(_ kind: LayoutError.Kind) -> Int32 {
        switch kind {
        case .parse, .unknownView, .unknownAttribute: return parse
        case .unsatisfiable: return unsatisfiable
        case .invalid, .cycle: return invalid
        case .duplicateName: return duplicate
        case .notFound, .stale: return notFound
        case .internalError: return Status.error
        case .callback: return callback
        case .misuse: return misuse
        case .limit: return limit
        }
    }
}

/// A pointer to a static, NUL-terminated literal.
@inline(__always)
func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}
