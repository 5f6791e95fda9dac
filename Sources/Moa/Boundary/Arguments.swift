// Moa — C ABI toolkit: checks of what C hands in (NULL pointers, strings, counts, arrays out) and a salt per box.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A required pointer (an out-pointer or an input array): MOA_MISUSE if NULL.
@inline(__always)
func required<T>(_ p: UnsafeMutablePointer<T>?, _ what: StaticString) throws(BoundaryFailure)
    -> UnsafeMutablePointer<T>
{
    guard let p else { throw .misuse("\(what) is NULL") }
    return p
}

/// A required input pointer (a C string): MOA_MISUSE if NULL.
@inline(__always)
func required<T>(_ p: UnsafePointer<T>?, _ what: StaticString) throws(BoundaryFailure) -> UnsafePointer<T> {
    guard let p else { throw .misuse("\(what) is NULL") }
    return p
}

/// Writes `value()` through a required out-pointer (MOA_MISUSE if NULL, checked first): the body of a getter.
@inline(__always)
func output<T>(_ out: UnsafeMutablePointer<T>?, _ value: () throws -> T) throws {
    let out = try required(out, "out")
    out.pointee = try value()
}

/// An optional input string: NULL means "". Invalid UTF-8 is repaired, never trapped on.
@inline(__always)
func string(_ p: UnsafePointer<CChar>?) -> String {
    guard let p else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: strlen(p)), as: UTF8.self)
}

/// The offset into `bytes` of byte `repaired` of their repaired decoding (String(decoding:as: UTF8.self), which
/// replaces each error of the UTF-8 parser by U+FFFD).
func callerOffset(_ bytes: UnsafeRawBufferPointer, _ repaired: Int) -> Int {
    var parser = Unicode.UTF8.ForwardParser()
    var input = bytes.makeIterator()
    var original = 0, decoded = 0
    while decoded < repaired {
        switch parser.parseScalar(from: &input) {
        case .valid(let s): original += s.count; decoded += s.count
        case .error(let length): original += length; decoded += 3
        case .emptyInput: return original
        }
    }
    return original
}

/// A required input string (MOA_MISUSE if NULL). Invalid UTF-8 is repaired, never trapped on.
func requiredString(_ p: UnsafePointer<CChar>?, _ what: StaticString) throws(BoundaryFailure) -> String {
    guard let p else { throw .misuse("\(what) is NULL") }
    return string(p)
}

/// The checks of an array out (moa.h, CONVENTIONS, "Arrays out"): MOA_MISUSE if count is NULL or out is NULL
/// with cap > 0; MOA_INVALID if cap is not a signed size. Returns count.
func checkedListOut(_ outIsNull: Bool, _ cap: Int, _ count: UnsafeMutablePointer<Int>?) throws(BoundaryFailure)
    -> UnsafeMutablePointer<Int>
{
    guard let count else { throw .misuse("count is NULL") }
    guard cap >= 0 else { throw .invalid("cap does not fit in a ptrdiff_t") }
    guard cap == 0 || !outIsNull else { throw .misuse("out is NULL but cap is \(cap)") }
    return count
}

/// An array out, checked (`checkedListOut`) before anything is done.
struct ListOut<T> {
    let out: UnsafeMutablePointer<T>?
    let cap: Int
    let count: UnsafeMutablePointer<Int>

    /// MOA_MISUSE if count is NULL or out is NULL with cap > 0 (unless `outOptional`); MOA_INVALID if cap is not
    /// a signed size.
    init(_ out: UnsafeMutablePointer<T>?, _ cap: Int, _ count: UnsafeMutablePointer<Int>?, outOptional: Bool = false)
        throws(BoundaryFailure)
    {
        self.count = try checkedListOut(out == nil && !outOptional, cap, count)
        self.out = out
        self.cap = cap
    }

    /// Writes at most `cap` items and the full count.
    func write(_ items: [T]) {
        if let out {
            for (i, x) in items.prefix(cap).enumerated() { out[i] = x }
        }
        count.pointee = items.count
    }
}

/// `moa_solver_conflicts` and `moa_layout_conflicts`: the last conflict list into an array out. Reads the record
/// and records nothing (the caller's error stays readable), so the status is returned, not recorded.
func copyConflicts(_ record: ErrorRecord, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int,
                   _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    do {
        try ListOut(out, cap, count).write(record.conflicts)
        return Status.ok
    } catch {
        return error.status
    }
}

/// A finite duration or delay in 0...1e12 seconds (as `Animator.animate` takes).
func checkSeconds(_ d: Double, _ what: StaticString) throws(BoundaryFailure) {
    guard d.isFinite, d >= 0, d <= 1e12 else { throw .invalid("\(what) must be finite, 0...1e12 seconds") }
}

/// Bits 48-63 of the ids a box hands out: a tag that differs between boxes (solvers and layouts draw from one
/// counter; it repeats after 65535 boxes), so that an id of another box, or of the same solver before a reset,
/// is rejected as stale.
enum BoxSalt {
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return (n % 0xFFFF + 1) << 48
    }
}
