// moa-fuzz: what every target shares: the byte decoder, number classes, and the failure report.

import CMoa

#if canImport(Glibc)
import Glibc
#endif

/// Reports a broken invariant and aborts, so that libFuzzer (or the replay loop) records the input.
func violation(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    var text = "moa-fuzz: INVARIANT VIOLATED (\(file):\(line)): \(message)\n"
    if let log = currentLog, !log.isEmpty { text += "operations so far:\n" + log.joined(separator: "\n") + "\n" }
    printError(text)
    abort()
}

/// Writes to standard error (fd 2: the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ text: String) {
    var bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + done, $0.count - done) }
        if n <= 0 { return }
        done += n
    }
}

/// The operations of the current input, kept only when MOA_FUZZ_TRACE is set (replaying a crash), so that a
/// failure prints what led to it.
nonisolated(unsafe) var currentLog: [String]? = nil

func trace(_ s: @autoclosure () -> String) {
    if currentLog != nil { currentLog!.append(s()) }
}

func expect(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
            line: UInt = #line) {
    if !condition { violation(message(), file: file, line: line) }
}

/// How a number relates to the API's limits (finite and within +-1e12): `nice` numbers keep the system well
/// conditioned, so exact invariants apply; `wild` ones are valid but may be numerically bad; `invalid` ones must
/// be refused.
enum NumClass: Int, Comparable {
    case nice, wild, invalid
    static func < (a: NumClass, b: NumClass) -> Bool { a.rawValue < b.rawValue }
}

struct Num {
    var value: Double
    var kind: NumClass
}

func classify(_ x: Double) -> NumClass {
    guard x.isFinite, abs(x) <= 1e12 else { return .invalid }
    return .wild
}

/// The fuzz input, read front to back; past its end every read gives zeros (so a short input is a short run).
struct FuzzInput {
    let bytes: [UInt8]
    var pos = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { pos >= bytes.count }

    mutating func byte() -> UInt8 {
        guard pos < bytes.count else { return 0 }
        defer { pos += 1 }
        return bytes[pos]
    }

    /// 0 ..< n (n <= 256).
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(byte()) % n }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func u64() -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<8 { v = v << 8 | UInt64(byte()) }
        return v
    }

    /// Mostly small integers and halves (nice); sometimes values at or near the API's limits (wild), raw bit
    /// patterns, or NaN, infinities and too-large values (invalid).
    mutating func number() -> Num {
        let b = byte()
        switch b % 16 {
        case 0..<7: return Num(value: Double(Int(byte()) - 128), kind: .nice)
        case 7..<9: return Num(value: Double(Int(byte()) - 128) / 2, kind: .nice)
        case 9: return Num(value: [0, 1, -1, 8, 20, 44, 320, 480, 1000, 10000, -10000, 2048][below(12)], kind: .nice)
        case 10, 11:
            let table: [Double] = [1e12, -1e12, 1e-300, -Double.leastNonzeroMagnitude, 1e9, 123456.789, 1.0 / 3, 1e-9, 999_999_999_999.5,
                                   -0.0, 1e6 + 0.1, 7e11]
            return Num(value: table[below(table.count)], kind: .wild)
        case 12:
            let x = Double(bitPattern: u64())
            return Num(value: x, kind: classify(x))
        default:
            let table: [Double] = [.nan, .infinity, -.infinity, 1.000001e12, -1e13, 1e308, -Double.greatestFiniteMagnitude,
                                   Double(bitPattern: 0x7FF8_0000_0000_0001)]
            return Num(value: table[below(table.count)], kind: .invalid)
        }
    }

    /// A number in 0 ... limit that is mostly nice (for sizes and durations).
    mutating func size(_ limit: Double = 1000) -> Num {
        let n = number()
        if n.kind == .nice { return Num(value: abs(n.value).truncatingRemainder(dividingBy: limit + 1), kind: .nice) }
        return n
    }
}

/// A C string for the duration of `body`.
func withCString<R>(_ s: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
    s.withCString(body)
}

/// Raw bytes (not necessarily UTF-8) as a NUL-terminated C string; bytes after an embedded NUL are cut off, as C
/// would see them.
func withBytesCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    var copy = bytes.map { CChar(bitPattern: $0) }
    copy.append(0)
    return copy.withUnsafeBufferPointer { body($0.baseAddress!) }
}

func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

/// Relative tolerance for "a required constraint holds": the residual against the size of what was summed.
func holds(_ residual: Double, _ rel: Int, scale: Double, tolerance: Double = 1e-7) -> Bool {
    let tol = tolerance * (1 + scale)
    switch rel {
    case 0: return abs(residual) <= tol
    case 1: return residual <= tol  // expr <= 0
    default: return residual >= -tol  // expr >= 0
    }
}
