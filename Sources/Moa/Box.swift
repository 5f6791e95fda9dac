// Moa — C ABI: the box behind a `moa_solver *`, id translation, error recording and status mapping.
//
// Nothing here solves anything: the thunks in Exports+*.swift validate what C hands them, call `MoaSolver`,
// and record the outcome here. No trap may be reachable from C input: no `try!`, no force unwraps, no
// unchecked counts.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MoaSolver
import Synchronization

// MARK: - Status codes (must match Include/moa.h)

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

    /// The one place that maps a `SolverError` to a `moa_status`.
    static func of(_ failure: SolverError) -> Int32 {
        switch failure {
        case .unsatisfiable: return unsatisfiable
        case .unknownVariable, .unknownConstraint, .unknownEditVariable: return notFound
        case .duplicateConstraint, .duplicateEditVariable: return duplicate
        case .invalidArgument: return invalid
        case .misuse: return misuse
        case .internalError: return Status.error
        }
    }
}

/// A failure found by the C layer that `SolverError` has no case for.
enum BoundaryError: Error {
    case outOfMemory
}

/// Hands out id salts, so that ids of different solvers differ (see `SolverBox.salt`).
private let saltCounter = Atomic<UInt64>(0)

/// A pointer to a static, NUL-terminated literal.
@inline(__always)
func cString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

// MARK: - SolverBox

/// What a `moa_solver *` points to: the solver plus the C layer's per-solver state.
final class SolverBox {
    let solver = Solver()

    /// XORed into every id crossing the boundary (a bijection, so no table is needed):
    /// - bits 48-63 differ between solvers and change on reset, so the generation the solver decodes from a
    ///   foreign or pre-reset id does not match and the id is rejected as stale;
    /// - bit 31 keeps a real id (slot < 2^30) from ever becoming 0 in C;
    /// - bit 30 is set for constraints only, so a variable id passed as a constraint (or the reverse) decodes to
    ///   a slot >= 2^30, which no solver has, and is rejected.
    private(set) var salt: UInt64
    private var varSalt: UInt64 { salt | 0x8000_0000 }
    private var consSalt: UInt64 { salt | 0xC000_0000 }

    /// The last failure's message (malloc'd, NUL-terminated), or nil for "not an error".
    private var message: UnsafeMutablePointer<CChar>?
    /// The last failure's message is a static string (used when malloc failed).
    private var staticMessage: UnsafePointer<CChar>?
    /// The conflicts of the last MOA_UNSATISFIABLE, as C ids.
    private(set) var conflicts: [UInt64] = []
    /// The last string handed out through a `const char **out` (malloc'd, NUL-terminated).
    private var text: UnsafeMutablePointer<CChar>?

    init() { salt = SolverBox.nextSalt() }

    deinit {
        free(message)
        free(text)
    }

    static func nextSalt() -> UInt64 {
        let n = saltCounter.wrappingAdd(1, ordering: .relaxed).newValue
        return (n % 0xFFFF + 1) << 48
    }

    /// Unboxes a handle without retaining it.
    @inline(__always)
    static func from(_ handle: OpaquePointer) -> SolverBox {
        Unmanaged<SolverBox>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }

    /// Drops everything and re-salts, so every old id is stale.
    func reset() {
        solver.reset()
        salt = SolverBox.nextSalt()
        free(text)
        text = nil
    }

    // MARK: Ids

    @inline(__always)
    func variable(_ id: UInt64) throws(SolverError) -> Variable {
        guard id != 0 else { throw .unknownVariable }
        return Variable(rawValue: id ^ varSalt)
    }

    @inline(__always)
    func constraint(_ id: UInt64) throws(SolverError) -> Constraint {
        guard id != 0 else { throw .unknownConstraint }
        return Constraint(rawValue: id ^ consSalt)
    }

    @inline(__always) func id(_ v: Variable) -> UInt64 { v.rawValue ^ varSalt }
    @inline(__always) func id(_ c: Constraint) -> UInt64 { c.rawValue ^ consSalt }

    // MARK: Strings out

    /// Copies `string` into the box's string slot (freeing the previous one) and returns it.
    func keep(_ string: String) throws(BoundaryError) -> UnsafePointer<CChar> {
        guard let copy = SolverBox.mallocCString(string) else { throw .outOfMemory }
        free(text)
        text = copy
        return UnsafePointer(copy)
    }

    static func mallocCString(_ string: String) -> UnsafeMutablePointer<CChar>? {
        var string = string
        return string.withUTF8 { bytes -> UnsafeMutablePointer<CChar>? in
            guard let raw = malloc(bytes.count + 1) else { return nil }
            if let base = bytes.baseAddress { memcpy(raw, base, bytes.count) }
            let p = raw.assumingMemoryBound(to: CChar.self)
            p[bytes.count] = 0
            return p
        }
    }

    // MARK: Error state

    /// The message for `moa_solver_errmsg`.
    var errorMessage: UnsafePointer<CChar> {
        if let message { return UnsafePointer(message) }
        return staticMessage ?? cString("not an error")
    }

    /// Records a success: "not an error", no conflicts. Cheap when there was nothing to clear.
    @inline(__always)
    func succeeded() {
        if message != nil || staticMessage != nil || !conflicts.isEmpty { clearError() }
    }

    private func clearError() {
        free(message)
        message = nil
        staticMessage = nil
        conflicts.removeAll()
    }

    /// Records a failure and returns its status.
    func failed(_ error: any Error) -> Int32 {
        clearError()
        let status: Int32
        let text: String
        if let error = error as? SolverError {
            status = Status.of(error)
            if case .unsatisfiable(let list) = error {
                conflicts = list.map { id($0) }
                text = describeConflicts(error, list)
            } else {
                text = error.description
            }
        } else if error is BoundaryError {
            staticMessage = cString("out of memory")
            return Status.nomem
        } else {
            status = Status.error
            text = "internal error: unexpected error type"
        }
        message = SolverBox.mallocCString(text)
        if message == nil { staticMessage = cString("out of memory (while recording an error)") }
        return status
    }

    private func describeConflicts(_ error: SolverError, _ list: [Constraint]) -> String {
        var text = error.description
        let shown = 8
        for (i, c) in list.prefix(shown).enumerated() {
            let d = (try? solver.description(of: c)) ?? c.description
            text += i == 0 ? ": {" : "; {"
            text += d
            text += "}"
        }
        if list.count > shown { text += "; and \(list.count - shown) more" }
        return text
    }
}

// MARK: - Thunk helpers

/// Unboxes `handle` (MOA_MISUSE if NULL), runs `body`, records the outcome on the solver and returns the status.
@inline(__always)
func withSolver(_ handle: OpaquePointer?, _ body: (SolverBox) throws -> Void) -> Int32 {
    guard let handle else { return Status.misuse }
    let box = SolverBox.from(handle)
    do {
        try body(box)
        box.succeeded()
        return Status.ok
    } catch {
        return box.failed(error)
    }
}

/// A required out-pointer: MOA_MISUSE if NULL.
@inline(__always)
func required<T>(_ p: UnsafeMutablePointer<T>?, _ what: StaticString) throws(SolverError)
    -> UnsafeMutablePointer<T>
{
    guard let p else { throw .misuse("\(what) is NULL") }
    return p
}

/// An optional input string: NULL means "". Invalid UTF-8 is repaired, never trapped on.
@inline(__always)
func string(_ p: UnsafePointer<CChar>?) -> String {
    guard let p else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: strlen(p)), as: UTF8.self)
}

/// The most terms `moa_solver_add` accepts (documented in moa.h).
let maxTerms = 1 << 24

/// Byte layout of `moa_term` (checked against the header in MoaCTests).
let termStride = 16
let termCoefOffset = 8

/// Reads `n` C `moa_term`s into an expression.
func expression(_ box: SolverBox, _ terms: UnsafeRawPointer?, _ n: Int, _ constant: Double) throws(SolverError)
    -> Expression
{
    guard n >= 0, n <= maxTerms else { throw .invalidArgument("nterms must be at most \(maxTerms)") }
    guard n > 0 else { return Expression([], constant: constant) }
    guard let terms else { throw .misuse("terms is NULL but nterms is \(n)") }
    var list: [Term] = []
    list.reserveCapacity(n)
    for i in 0..<n {
        let at = i &* termStride
        let v = terms.loadUnaligned(fromByteOffset: at, as: UInt64.self)
        let k = terms.loadUnaligned(fromByteOffset: at &+ termCoefOffset, as: Double.self)
        list.append(Term(try box.variable(v), k))
    }
    return Expression(list, constant: constant)
}

/// A C relation value: MOA_INVALID if not one of MOA_EQ, MOA_LE, MOA_GE.
@inline(__always)
func relation(_ raw: UInt32) throws(SolverError) -> Relation {
    guard raw <= UInt32(Int32.max), let r = Relation(rawValue: Int32(raw)) else {
        throw .invalidArgument("relation \(raw) is not MOA_EQ, MOA_LE or MOA_GE")
    }
    return r
}
