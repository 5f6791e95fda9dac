// Moa — the lexer of the equation language: one line of UTF-8 bytes in, tokens with byte offsets out.

/// A token of one equation line. `start`/`end` are byte offsets into the line; the text stays in the line's
/// bytes (`Parser.text(_:)`), so a token costs no string.
struct Token {
    enum Kind: Equatable {
        case identifier
        case number
        /// `30x40`: a width and a height in one token.
        case size
        case dot
        case relation(LayoutRelation)
        /// `=`, `<`, `>` alone: not a relation, reported with a hint.
        case badRelation
        case star, slash, plus, minus, at, question
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
    /// The value of a `number`; the width of a `size`.
    var value: Double = 0
    /// The height of a `size`.
    var value2: Double = 0

    var length: Int { max(1, end - start) }
}

/// Splits one line into tokens. `#` starts a comment that runs to the end of the line. Spaces, tabs and a
/// trailing carriage return separate tokens.
///
/// Numbers are `digits [. digits] [e|E [+|-] digits]`; a sign is a separate token. A size is two numbers joined
/// by `x` with no space: `30x40`, `12.5x20`. A number that runs into a letter (`30px`) is an error.
struct Lexer {
    /// The line, borrowed from the caller's text for the call (`Parser.parse(line:tokens:)`).
    let bytes: UnsafeBufferPointer<UInt8>

    static func isIdentStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }
    static func isIdentBody(_ b: UInt8) -> Bool { isIdentStart(b) || isDigit(b) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    func text(_ a: Int, _ b: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self)
    }

    /// All tokens of the line into `out` (emptied first, its storage kept: one buffer serves every line of a
    /// text), ending with `.end` (at the comment or the end of the line).
    func tokenize(into out: inout [Token]) throws(LayoutError) {
        out.removeAll(keepingCapacity: true)
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0D { i += 1; continue }
            if b == 0x23 { break }  // '#': comment to the end of the line
            let start = i
            if Lexer.isIdentStart(b) {
                while i < n, Lexer.isIdentBody(bytes[i]) { i += 1 }
                out.append(Token(kind: .identifier, start: start, end: i))
                continue
            }
            if Lexer.isDigit(b) {
                let (v, e) = try number(at: i)
                i = e
                if i < n, bytes[i] == 0x78 || bytes[i] == 0x58 {  // 'x' / 'X': a size
                    let xAt = i
                    guard i + 1 < n, Lexer.isDigit(bytes[i + 1]) else {
                        var j = i + 1
                        while j < n, Lexer.isIdentBody(bytes[j]) || bytes[j] == 0x2E { j += 1 }
                        throw LayoutError(.parse, "bad size `\(text(start, j))`: expected a height after `x`",
                                          offset: min(xAt + 1, n), length: 1,
                                          expected: ["a number (the height)"])
                    }
                    let (h, e2) = try number(at: i + 1)
                    i = e2
                    try checkNoTrailingLetters(start, i)
                    out.append(Token(kind: .size, start: start, end: i, value: v, value2: h))
                    continue
                }
                try checkNoTrailingLetters(start, i)
                out.append(Token(kind: .number, start: start, end: i, value: v))
                continue
            }
            func op(_ k: Token.Kind, _ length: Int) {
                out.append(Token(kind: k, start: start, end: start + length))
                i = start + length
            }
            let next: UInt8 = i + 1 < n ? bytes[i + 1] : 0
            switch b {
            case 0x3D: next == 0x3D ? op(.relation(.equal), 2) : op(.badRelation, 1)
            case 0x3C: next == 0x3D ? op(.relation(.lessOrEqual), 2) : op(.badRelation, 1)
            case 0x3E: next == 0x3D ? op(.relation(.greaterOrEqual), 2) : op(.badRelation, 1)
            case 0x2E: op(.dot, 1)
            case 0x2A: op(.star, 1)
            case 0x2F: op(.slash, 1)
            case 0x2B: op(.plus, 1)
            case 0x2D: op(.minus, 1)
            case 0x40: op(.at, 1)
            case 0x3F: op(.question, 1)
            default:
                // One whole UTF-8 scalar, for the message.
                var j = i + 1
                while j < n, bytes[j] & 0xC0 == 0x80 { j += 1 }
                throw LayoutError(.parse, "unexpected character `\(text(i, j))`", offset: i, length: j - i,
                                  expected: ["a view name, a number, an operator, `#` or the end of the line"])
            }
        }
        out.append(Token(kind: .end, start: i, end: i))
    }

    /// A number starting at `i` (a digit): returns its value and the offset after it.
    func number(at i0: Int) throws(LayoutError) -> (Double, Int) {
        var i = i0
        let n = bytes.count
        while i < n, Lexer.isDigit(bytes[i]) { i += 1 }
        if i + 1 < n, bytes[i] == 0x2E, Lexer.isDigit(bytes[i + 1]) {
            i += 1
            while i < n, Lexer.isDigit(bytes[i]) { i += 1 }
        }
        if i < n, bytes[i] == 0x65 || bytes[i] == 0x45 {  // e / E
            var j = i + 1
            if j < n, bytes[j] == 0x2B || bytes[j] == 0x2D { j += 1 }
            if j < n, Lexer.isDigit(bytes[j]) {
                while j < n, Lexer.isDigit(bytes[j]) { j += 1 }
                i = j
            }
        }
        if let v = Lexer.exactDecimal(UnsafeBufferPointer(rebasing: bytes[i0..<i])) { return (v, i) }
        let s = text(i0, i)
        guard let v = Double(s), v.isFinite, v <= 1e12 else {
            throw LayoutError(.invalid, "number `\(s)` is too large (the limit is 1e12)", offset: i0,
                              length: i - i0, expected: ["a number up to 1e12"])
        }
        return (v, i)
    }

    /// `digits [. digits]` with at most 15 digits, without `Double(String)`: the digits as an integer are exact,
    /// and so is a power of ten up to 1e15, so the one division rounds as `strtod` does (Clinger's fast path).
    /// Nil for anything else (exponents, longer numbers).
    static func exactDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0, fraction = 0, seenDot = false
        for c in b {
            if c == 0x2E { if seenDot { return nil }; seenDot = true; continue }
            guard isDigit(c) else { return nil }
            digits += 1
            guard digits <= 15 else { return nil }   // before the multiplication: 19 digits overflow Int64
            mantissa = mantissa * 10 + Int64(c - 0x30)
            if seenDot { fraction += 1 }
        }
        guard digits > 0 else { return nil }
        let v = Double(mantissa) / Lexer.powersOfTen[fraction]
        return v <= 1e12 ? v : nil
    }

    static let powersOfTen: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    func checkNoTrailingLetters(_ start: Int, _ i: Int) throws(LayoutError) {
        let n = bytes.count
        guard i < n, Lexer.isIdentBody(bytes[i]) || bytes[i] == 0x2E && i + 1 < n && Lexer.isDigit(bytes[i + 1])
        else { return }
        var j = i
        while j < n, Lexer.isIdentBody(bytes[j]) || bytes[j] == 0x2E { j += 1 }
        throw LayoutError(.parse, "bad number `\(text(start, j))`", offset: start, length: j - start,
                          expected: ["a number followed by a space or an operator"])
    }
}
