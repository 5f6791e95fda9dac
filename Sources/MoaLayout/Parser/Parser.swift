// Moa — the parser of the equation language: one line of tokens in, one equation's syntax out.
//
// Grammar (one line; `#` starts a comment; whitespace separates tokens):
//
//     line      := [ equation ] [ '?' ] END
//     equation  := NAME '.' NAME REL rhs [ '@' priority ]       -- view.attribute, == <= >=
//                | NAME '.' PRIOATTR '==' priority              -- resistH resistV hugH hugV compressH compressV
//     rhs       := [ '+' | '-' ] NUMBER                         -- lone constant
//                | SIZE                                         -- 30x40, for `size`
//                | NAME [ '.' NAME ] [ ('*' | '/') [ '+' | '-' ] NUMBER ] [ ('+' | '-') NUMBER ]
//     priority  := atom { ('+' | '-') atom }                    -- 1...1000 after the arithmetic
//     atom      := NUMBER | PRIORITYNAME

/// A name in the text: a view or an attribute, with where it is.
struct NameRef: Equatable {
    var name: String
    var offset: Int
    var length: Int
}

/// The right side of an equation, as written.
enum RightSide: Equatable {
    /// A lone number: `== 8`, `== -7`.
    case constant(Double, offset: Int, length: Int)
    /// `30x40`.
    case size(width: Double, height: Double, offset: Int, length: Int)
    /// `view2[.attr2] [* m | / d] [+ c | - c]`.
    case item(view: NameRef, attribute: NameRef?, multiplier: Double, divisor: Double?, constant: Double)
    /// The priority value of a `hugH == low`-style line.
    case priority(Double, offset: Int, length: Int)
}

/// One parsed equation line (syntax only: names are not resolved yet).
struct ParsedEquation: Equatable {
    var view: NameRef
    var attribute: NameRef
    var relation: LayoutRelation
    var relationOffset: Int
    var rhs: RightSide
    var rhsOffset: Int
    /// The priority after `@`, already checked to be in 1...1000.
    var priority: Double?
    /// A trailing `?`: print how the line was interpreted.
    var debug: Bool
}

/// The attribute names that set content priorities instead of making a constraint.
let contentPriorityAttributes: [String] = ["resistH", "resistV", "compressH", "compressV", "hugH", "hugV"]

/// The compound attribute names that expand into several constraints.
let compoundAttributes: [String] = ["size", "pin"]

/// The tokens that may still follow a parsed part of a line, for the message when something else does: a set
/// while parsing (no strings made for lines that parse), words only on failure.
struct Follow: OptionSet {
    let rawValue: UInt8
    static let dot = Follow(rawValue: 1), star = Follow(rawValue: 2), slash = Follow(rawValue: 4)
    static let plus = Follow(rawValue: 8), minus = Follow(rawValue: 16), at = Follow(rawValue: 32)
    static let question = Follow(rawValue: 64)

    /// As the messages list them, in this order.
    var words: [String] {
        let all: [(Follow, String)] = [(.dot, "`.`"), (.star, "`*`"), (.slash, "`/`"), (.plus, "`+`"),
                                       (.minus, "`-`"), (.at, "`@`"), (.question, "`?`")]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// Parses one line. Errors carry byte offsets into the line; the caller adds the line number.
struct Parser {
    /// The line, borrowed for the call.
    let bytes: UnsafeBufferPointer<UInt8>
    var tokens: [Token] = []
    var pos = 0

    /// Tokenizes and parses one line of bytes. Returns nil for a blank or comment-only line. `tokens` is a
    /// scratch buffer the caller keeps across lines (one allocation for a whole text).
    static func parse(line: UnsafeBufferPointer<UInt8>, tokens: inout [Token]) throws(LayoutError) -> ParsedEquation? {
        var p = Parser(bytes: line)
        swap(&p.tokens, &tokens)
        defer { swap(&p.tokens, &tokens) }
        try Lexer(bytes: line).tokenize(into: &p.tokens)
        return try p.parseLine()
    }

    /// Tokenizes and parses `line` (one equation: `eq`, `xeq`).
    static func parse(line: String) throws(LayoutError) -> ParsedEquation? {
        var line = line
        var tokens: [Token] = []
        return try line.withUTF8 { b in Result { () throws(LayoutError) in try parse(line: b, tokens: &tokens) } }.get()
    }

    var current: Token { tokens[pos] }
    mutating func advance() { if pos < tokens.count - 1 { pos += 1 } }

    /// The token's text, as written.
    func text(_ t: Token) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[t.start..<t.end]), as: UTF8.self)
    }

    /// How errors quote a token: `` `foo` `` or `the end of the line`.
    func quoted(_ t: Token) -> String { t.kind == .end ? "the end of the line" : "`\(text(t))`" }

    /// A name token as a reference.
    func name(_ t: Token) -> NameRef { NameRef(name: text(t), offset: t.start, length: t.length) }

    func fail(_ message: String, _ t: Token, expected: [String], kind: LayoutError.Kind = .parse) -> LayoutError {
        LayoutError(kind, message, offset: t.start, length: t.length, expected: expected)
    }

    mutating func parseLine() throws(LayoutError) -> ParsedEquation? {
        if current.kind == .end { return nil }
        if current.kind == .question, tokens[pos + 1].kind == .end {
            throw fail("expected an equation before `?`", current, expected: ["a view name"])
        }
        // view1 . attr1
        guard current.kind == .identifier else {
            throw fail("expected a view name at the start of the equation, found \(quoted(current))", current,
                       expected: ["a view name"])
        }
        let view = name(current)
        advance()
        guard current.kind == .dot else {
            throw fail("expected `.` and an attribute after `\(view.name)`, found \(quoted(current))", current,
                       expected: ["`.`"])
        }
        advance()
        guard current.kind == .identifier else {
            throw fail("expected an attribute name after `\(view.name).`, found \(quoted(current))", current,
                       expected: ["an attribute name"])
        }
        let attribute = name(current)
        advance()
        // REL
        let relTok = current
        let relation: LayoutRelation
        switch current.kind {
        case .relation(let r):
            relation = r
        case .badRelation:
            let found = text(current)
            let hint = found == "=" ? "==" : found + "="
            throw fail("expected a relation (`==`, `<=` or `>=`), found `\(found)` (did you mean `\(hint)`?)",
                       current, expected: ["`==`", "`<=`", "`>=`"])
        default:
            throw fail("expected a relation (`==`, `<=` or `>=`) after `\(view.name).\(attribute.name)`, found \(quoted(current))",
                       current, expected: ["`==`", "`<=`", "`>=`"])
        }
        advance()

        let rhsOffset = current.start
        var rhs: RightSide
        var priority: Double?
        var expectedAfter: Follow
        if contentPriorityAttributes.contains(attribute.name) {
            // view.hugH == priority
            guard relation == .equal else {
                throw fail("`\(attribute.name)` sets a priority and takes `==`, not `\(text(relTok))`", relTok,
                           expected: ["`==`"], kind: .invalid)
            }
            let (p, start, end) = try parsePriority(after: "`==`")
            rhs = .priority(p, offset: start, length: max(1, end - start))
            expectedAfter = []
        } else {
            (rhs, expectedAfter) = try parseRightSide()
            if current.kind == .at {
                advance()
                let (p, _, _) = try parsePriority(after: "`@`")
                priority = p
                expectedAfter = []
            } else {
                expectedAfter.insert(.at)
            }
        }
        var debug = false
        if current.kind == .question {
            debug = true
            advance()
        } else {
            expectedAfter.insert(.question)
        }
        guard current.kind == .end else {
            throw fail("unexpected \(quoted(current)) after the equation", current,
                       expected: expectedAfter.words + ["`#`", "the end of the line"])
        }
        return ParsedEquation(view: view, attribute: attribute, relation: relation, relationOffset: relTok.start,
                              rhs: rhs, rhsOffset: rhsOffset, priority: priority, debug: debug)
    }

    /// The right side, and what could still follow it (for the trailing-token message).
    mutating func parseRightSide() throws(LayoutError) -> (RightSide, Follow) {
        let t = current
        switch t.kind {
        case .plus, .minus, .number:
            let v = try signedNumber(after: "the relation")
            return (.constant(v, offset: t.start, length: max(1, tokens[pos - 1].end - t.start)), [])
        case .size:
            advance()
            return (.size(width: t.value, height: t.value2, offset: t.start, length: t.length), [])
        case .identifier:
            let view = name(t)
            advance()
            var attribute: NameRef?
            if current.kind == .dot {
                advance()
                guard current.kind == .identifier else {
                    throw fail("expected an attribute name after `\(view.name).`, found \(quoted(current))", current,
                               expected: ["an attribute name"])
                }
                attribute = name(current)
                advance()
            }
            var multiplier = 1.0
            var divisor: Double?
            var more: Follow = []
            if current.kind == .star || current.kind == .slash {
                let op = current
                advance()
                let v = try signedNumber(after: op.kind == .slash ? "`/`" : "`*`")
                if op.kind == .slash {
                    guard v != 0 else {
                        throw fail("division by zero", tokens[pos - 1], expected: ["a number other than 0"],
                                   kind: .invalid)
                    }
                    divisor = v
                    multiplier = 1 / v
                } else {
                    multiplier = v
                }
            } else {
                if attribute == nil { more.insert(.dot) }
                more.formUnion([.star, .slash])
            }
            var constant = 0.0
            if current.kind == .plus || current.kind == .minus {
                let op = current
                advance()
                guard current.kind == .number else {
                    throw fail("expected a number after `\(text(op))`, found \(quoted(current))", current,
                               expected: ["a number"])
                }
                constant = op.kind == .minus ? -current.value : current.value
                advance()
                more = []  // nothing of the right side can follow its constant
            } else {
                more.formUnion([.plus, .minus])
            }
            return (.item(view: view, attribute: attribute, multiplier: multiplier, divisor: divisor,
                          constant: constant), more)
        default:
            throw fail("expected a view, a number or a size after the relation, found \(quoted(t))", t,
                       expected: ["a view name", "a number", "a size such as `30x40`"])
        }
    }

    /// `[+|-] NUMBER`.
    mutating func signedNumber(after what: @autoclosure () -> String) throws(LayoutError) -> Double {
        var sign = 1.0
        if current.kind == .plus || current.kind == .minus {
            if current.kind == .minus { sign = -1 }
            advance()
        }
        guard current.kind == .number else {
            throw fail("expected a number after \(what()), found \(quoted(current))", current, expected: ["a number"])
        }
        let v = sign * current.value
        advance()
        return v
    }

    /// `atom { (+|-) atom }`, checked to be in 1...1000. Returns the value and its byte range.
    mutating func parsePriority(after what: @autoclosure () -> String) throws(LayoutError) -> (Double, Int, Int) {
        let start = current.start
        var value = try priorityAtom(after: what())
        while current.kind == .plus || current.kind == .minus {
            let op = current
            advance()
            let v = try priorityAtom(after: op.kind == .minus ? "`-`" : "`+`")
            value += op.kind == .minus ? -v : v
        }
        let end = tokens[pos - 1].end
        guard LayoutPriority.isValid(value) else {
            throw LayoutError(.invalid, "priority \(formatNumber(value)) is outside 1...1000", offset: start,
                              length: max(1, end - start), expected: ["a priority in 1...1000"])
        }
        return (value, start, end)
    }

    mutating func priorityAtom(after what: @autoclosure () -> String) throws(LayoutError) -> Double {
        let t = current
        switch t.kind {
        case .number:
            advance()
            return t.value
        case .identifier:
            let word = text(t)
            guard let v = LayoutPriority.value(named: word) else {
                let names = LayoutPriority.names.map(\.name)
                let near = nearestName(word, among: names)
                var msg = "unknown priority `\(word)`"
                if let near { msg += " (did you mean `\(near)`?)" }
                var e = fail(msg, t, expected: ["a number in 1...1000"] + names.map { "`\($0)`" })
                e.suggestion = near
                throw e
            }
            advance()
            return v
        default:
            throw fail("expected a priority (a number or a name such as `high`) after \(what()), found \(quoted(t))", t,
                       expected: ["a number in 1...1000", "a priority name such as `required`, `high`, `low`"])
        }
    }
}
