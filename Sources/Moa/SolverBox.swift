// Moa — C ABI: the box behind a `moa_solver *`: the solver, its id codec, its error record and the helpers of the
// solver's thunks (terms and relations from C). The checks and records both boxes share are in Boundary/.
//
// Nothing here solves anything: the thunks in Exports+Solver.swift validate what C hands them, call
// `MoaSolver`, and record the outcome here. No trap may be reachable from C input: no `try!`, no force unwraps,
// no unchecked counts.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MoaSolver

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

    /// The outcome of the last call (`moa_solver_errmsg`, `moa_solver_conflicts`).
    let record = ErrorRecord()
    /// The last string handed out through a `const char **out`.
    let text = TextSlot()
    /// The calls in progress (`withSolver`), whether the progress function runs (every call is refused then),
    /// and whether `moa_solver_free` came from it (the free then waits for the calls to return).
    var depth = 0
    var inProgress = false
    var freePending = false

    init() { salt = BoxSalt.next() }

    /// Unboxes a handle without retaining it.
    @inline(__always)
    static func from(_ handle: OpaquePointer) -> SolverBox {
        Unmanaged<SolverBox>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }

    /// Drops everything and re-salts, so every old id is stale.
    func reset() {
        solver.reset()
        salt = BoxSalt.next()
        text.clear()
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

    // MARK: Error record

    /// Records a failure and returns its status.
    func failed(_ error: any Error) -> Int32 {
        if let batch = error as? BatchError { return failed(batch) }
        guard let error = error as? SolverError else { return record.failed(other: error) }
        if case .unsatisfiable(let list) = error {
            return record.failed(Status.of(error), describeConflicts(error.description, list),
                                 conflicts: list.map { id($0) })
        }
        return record.failed(Status.of(error), error.description)
    }

    /// A failed `moa_solver_add_many`: the failing item's status, the item named in the message, and for a
    /// conflict the batch's own items beside the constraints that were there.
    private func failed(_ batch: BatchError) -> Int32 {
        guard case .unsatisfiable(let list) = batch.error else {
            return record.failed(Status.of(batch.error), batch.description)
        }
        return record.failed(Status.of(batch.error), describeConflicts(batch.description, list),
                             conflicts: list.map { id($0) }, batchConflicts: batch.batchConflicts)
    }

    private func describeConflicts(_ description: String, _ list: [Constraint]) -> String {
        var text = description
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
    guard !box.freePending else { return Status.misuse }
    if box.inProgress {
        // The progress function runs between two pivots of a call: the solver is half way through a change.
        return box.failed(BoundaryFailure.misuse("the solver cannot be used from its progress function"))
    }
    box.depth += 1
    let status: Int32
    do {
        try body(box)
        box.record.succeeded()
        status = Status.ok
    } catch {
        status = box.failed(error)
    }
    box.depth -= 1
    if box.depth == 0, box.freePending { Unmanaged.passUnretained(box).release() }
    return status
}

/// The most terms `moa_solver_add` accepts (documented in moa.h).
let maxTerms = 1 << 24

/// Byte layout of `moa_term` (checked against the header in MoaCTests).
let termStride = 16
let termCoefOffset = 8

/// Byte layout of `moa_cons_spec` (checked against the header in MoaCTests).
enum SpecLayout {
    static let stride = 56
    static let terms = 0, nterms = 8, constant = 16, priority = 24, weight = 32, tag = 40, rel = 48
}

/// Reads the `n` C `moa_cons_spec`s at `specs` into a batch; `at` is set to the index of each spec as it is read
/// (the one at fault when a check throws).
func constraintSpecs(_ box: SolverBox, _ specs: UnsafeRawPointer, _ n: Int, at: inout Int) throws -> [ConstraintSpec] {
    var batch: [ConstraintSpec] = []
    batch.reserveCapacity(min(n, 1 << 16))   // grown as the specs check out (a bad one fails first)
    for i in 0..<n {
        at = i
        let p = specs + i &* SpecLayout.stride
        let terms = UnsafeRawPointer(bitPattern: p.loadUnaligned(fromByteOffset: SpecLayout.terms, as: UInt.self))
        let nterms = p.loadUnaligned(fromByteOffset: SpecLayout.nterms, as: UInt.self)
        guard nterms <= UInt(maxTerms) else { throw SolverError.invalidArgument("nterms must be at most \(maxTerms)") }
        let constant = p.loadUnaligned(fromByteOffset: SpecLayout.constant, as: Double.self)
        let priority = p.loadUnaligned(fromByteOffset: SpecLayout.priority, as: Double.self)
        let weight = p.loadUnaligned(fromByteOffset: SpecLayout.weight, as: Double.self)
        let tag = UnsafePointer<CChar>(bitPattern: p.loadUnaligned(fromByteOffset: SpecLayout.tag, as: UInt.self))
        let rel = try relation(p.loadUnaligned(fromByteOffset: SpecLayout.rel, as: UInt32.self))
        let e = try expression(box, terms, Int(nterms), constant)
        batch.append(ConstraintSpec(e, rel, priority: priority, weight: weight == 0 ? 1 : weight, tag: string(tag)))
    }
    return batch
}

/// Reads `n` C `moa_term`s into an expression.
func expression(_ box: SolverBox, _ terms: UnsafeRawPointer?, _ n: Int, _ constant: Double) throws(SolverError)
    -> Expression
{
    guard n >= 0, n <= maxTerms else { throw .invalidArgument("nterms must be at most \(maxTerms)") }
    guard n > 0 else { return Expression([], constant: constant) }
    guard let terms else { throw .misuse("terms is NULL but nterms is \(n)") }
    var list: [Term] = []
    list.reserveCapacity(min(n, 1 << 16))   // grown as the ids check out (a bad one fails first)
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
