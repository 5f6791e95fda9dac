// moa-bench — the `.lin` workload parser (../shared/bench/FORMAT.md).
//
// Mirrors `lin::parse` in ../shared/bench/anchors/lin_common.h: the whole file is read into memory and parsed
// into flat arrays before any solver exists, so parsing is never timed.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum OpKind: UInt8 { case c, r, e, x, s, u, p }
enum OpRel: UInt8 { case eq, le, ge }

/// One line of the script. `id` is the constraint id (c, r), the variable (e, x, s) or the phase index (p).
struct Op {
    var kind: OpKind
    var rel: OpRel = .eq
    var required = false
    var id: Int = 0
    var prio: Double = 0      // priority (c, e)
    var value: Double = 0     // constant (c), suggested value (s)
    var tbeg: Int32 = 0       // terms (c): coef[tbeg ..< tbeg + tlen], var[...]
    var tlen: Int32 = 0
}

struct Workload {
    var nvars = 0
    var maxID = -1
    var ops: [Op] = []
    var coef: [Double] = []
    var vars: [Int32] = []
    var phases: [String] = []
}

struct ParseError: Error {
    var message: String
    var line: Int
}

/// Reads a whole file; nil (with errno set) if it cannot be opened or read.
func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var buf: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
        if n > 0 { buf.append(contentsOf: chunk[0 ..< n]) }
        if n < chunk.count {
            if ferror(f) != 0 { return nil }
            break
        }
    }
    return buf
}

private let SP = UInt8(ascii: " "), TAB = UInt8(ascii: "\t"), CR = UInt8(ascii: "\r"), NL = UInt8(ascii: "\n")

/// Parses `.lin` text. `bytes` is modified (line ends become NUL, as in the C parser).
func parseWorkload(_ bytes: inout [UInt8]) throws(ParseError) -> Workload {
    bytes.append(0)
    let r: Result<Workload, ParseError> = bytes.withUnsafeMutableBufferPointer { bufRef in
        let buf = bufRef  // the pointer itself (not inout), so nested functions can capture it
        var w = Workload()
        let count = buf.count - 1  // the appended NUL
        let base = UnsafeMutableRawPointer(buf.baseAddress!).assumingMemoryBound(to: CChar.self)
        var haveV = false
        var lineno = 0
        var pos = 0
        while pos < count {
            var eol = pos
            while eol < count && buf[eol] != NL { eol += 1 }
            buf[eol] = 0  // eol == count hits the appended NUL
            lineno += 1
            var s = pos
            pos = eol + 1
            @inline(__always) func fail(_ m: String) -> Result<Workload, ParseError> {
                .failure(ParseError(message: m, line: lineno))
            }
            while buf[s] == SP || buf[s] == TAB || buf[s] == CR { s += 1 }
            if buf[s] == 0 || buf[s] == UInt8(ascii: "#") { continue }
            let k = buf[s]
            s += 1
            if buf[s] != SP && buf[s] != TAB && buf[s] != 0 && buf[s] != CR { return fail("bad op") }

            // Number and integer readers (strtod / strtol skip leading white space, like the C driver).
            func num() -> Double? {
                var e: UnsafeMutablePointer<CChar>? = nil
                let v = strtod(base + s, &e)
                let n = base.distance(to: e!)
                if n == s { return nil }
                s = n
                return v
            }
            func integer() -> Int? {
                var e: UnsafeMutablePointer<CChar>? = nil
                let v = strtol(base + s, &e, 10)
                let n = base.distance(to: e!)
                if n == s { return nil }
                s = n
                return Int(truncatingIfNeeded: Int32(truncatingIfNeeded: v))  // (int)v, as in C
            }
            /// The next word as a byte range.
            func word() -> Range<Int> {
                while buf[s] == SP || buf[s] == TAB { s += 1 }
                let b = s
                while buf[s] != 0 && buf[s] != SP && buf[s] != TAB && buf[s] != CR { s += 1 }
                return b ..< s
            }
            func wordIs(_ r: Range<Int>, _ lit: StaticString) -> Bool {
                guard r.count == lit.utf8CodeUnitCount else { return false }
                let p = lit.utf8Start
                for i in 0 ..< r.count where buf[r.lowerBound + i] != p[i] { return false }
                return true
            }
            /// `required` or a priority in (0, 1000).
            func strength(_ op: inout Op) -> Bool {
                let t = word()
                if wordIs(t, "required") { op.required = true; op.prio = 1000; return true }
                let save = buf[t.upperBound]
                buf[t.upperBound] = 0
                defer { buf[t.upperBound] = save }
                var e: UnsafeMutablePointer<CChar>? = nil
                op.prio = strtod(base + t.lowerBound, &e)
                return base.distance(to: e!) == t.upperBound && t.count > 0 && op.prio > 0 && op.prio < 1000
            }

            if k == UInt8(ascii: "v") {
                guard let n = integer() else { return fail("integer expected") }
                w.nvars = n
                haveV = true
                continue
            }
            if !haveV { return fail("`v N` must come first") }
            var op = Op(kind: .u)
            switch k {
            case UInt8(ascii: "c"):
                op.kind = .c
                guard let id = integer() else { return fail("integer expected") }
                op.id = id
                let rw = word()
                if wordIs(rw, "==") { op.rel = .eq }
                else if wordIs(rw, "<=") { op.rel = .le }
                else if wordIs(rw, ">=") { op.rel = .ge }
                else { return fail("bad relation") }
                if !strength(&op) { return fail("bad strength") }
                guard let c0 = num() else { return fail("number expected") }
                op.value = c0
                op.tbeg = Int32(truncatingIfNeeded: w.coef.count)
                while true {
                    while buf[s] == SP || buf[s] == TAB || buf[s] == CR { s += 1 }
                    if buf[s] == 0 { break }
                    guard let c = num() else { return fail("number expected") }
                    guard let v = integer() else { return fail("integer expected") }
                    if v < 0 || v >= w.nvars { return fail("variable out of range") }
                    w.coef.append(c)
                    w.vars.append(Int32(v))
                }
                op.tlen = Int32(truncatingIfNeeded: w.coef.count) - op.tbeg
                if op.tlen == 0 { return fail("constraint without terms") }
                if op.id < 0 { return fail("constraint id must be non-negative") }
                if op.id > w.maxID { w.maxID = op.id }
            case UInt8(ascii: "r"):
                op.kind = .r
                guard let id = integer() else { return fail("integer expected") }
                op.id = id
            case UInt8(ascii: "e"):
                op.kind = .e
                guard let id = integer() else { return fail("integer expected") }
                op.id = id
                if !strength(&op) { return fail("bad strength") }
                if op.required { return fail("edit strength must be < 1000") }
            case UInt8(ascii: "x"):
                op.kind = .x
                guard let id = integer() else { return fail("integer expected") }
                op.id = id
            case UInt8(ascii: "s"):
                op.kind = .s
                guard let id = integer() else { return fail("integer expected") }
                op.id = id
                guard let v = num() else { return fail("number expected") }
                op.value = v
            case UInt8(ascii: "u"):
                op.kind = .u
            case UInt8(ascii: "p"):
                op.kind = .p
                op.id = w.phases.count
                let t = word()
                w.phases.append(String(decoding: UnsafeBufferPointer(rebasing: buf[t]), as: UTF8.self))
            default:
                return fail("unknown op")
            }
            if (op.kind == .e || op.kind == .x || op.kind == .s) && (op.id < 0 || op.id >= w.nvars) {
                return fail("variable out of range")
            }
            w.ops.append(op)
        }
        return .success(w)
    }
    switch r {
    case .success(let w): return w
    case .failure(let e): throw e
    }
}
