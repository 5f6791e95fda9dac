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

/// Parses one line. Errors carry byte offsets into the line; the caller adds the line number.
struct Parser {
    var tokens: [Token]
    var pos = 0

    init(tokens: [Token]) { self.tokens = tokens }

    /// Tokenizes and parses `line`. Returns nil for a blank or comment-only line.
    static func parse(line: String) throws(LayoutError) -> ParsedEquation? {
        var p = Parser(tokens: try Lexer(line).tokenize())
        return try p.parseLine()
    }

    var current: Token { tokens[pos] }
    mutating func advance() { if pos < tokens.count - 1 { pos += 1 } }

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
            throw fail("expected a view name at the start of the equation, found \(current.quoted)", current,
                       expected: ["a view name"])
        }
        let view = NameRef(name: current.text, offset: current.start, length: current.length)
        advance()
        guard current.kind == .dot else {
            throw fail("expected `.` and an attribute after `\(view.name)`, found \(current.quoted)", current,
                       expected: ["`.`"])
        }
        advance()
        guard current.kind == .identifier else {
            throw fail("expected an attribute name after `\(view.name).`, found \(current.quoted)", current,
                       expected: ["an attribute name"])
        }
        let attribute = NameRef(name: current.text, offset: current.start, length: current.length)
        advance()
        // REL
        let relTok = current
        let relation: LayoutRelation
        switch current.kind {
        case .relation(let r):
            relation = r
        case .badRelation:
            let hint = current.text == "=" ? "==" : current.text + "="
            throw fail("expected a relation (`==`, `<=` or `>=`), found `\(current.text)` (did you mean `\(hint)`?)",
                       current, expected: ["`==`", "`<=`", "`>=`"])
        default:
            throw fail("expected a relation (`==`, `<=` or `>=`) after `\(view.name).\(attribute.name)`, found \(current.quoted)",
                       current, expected: ["`==`", "`<=`", "`>=`"])
        }
        advance()

        let rhsOffset = current.start
        var rhs: RightSide
        var priority: Double?
        var expectedAfter: [String]
        if contentPriorityAttributes.contains(attribute.name) {
            // view.hugH == priority
            guard relation == .equal else {
                throw fail("`\(attribute.name)` sets a priority and takes `==`, not `\(relTok.text)`", relTok,
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
                expectedAfter.append("`@`")
            }
        }
        var debug = false
        if current.kind == .question {
            debug = true
            advance()
        } else {
            expectedAfter.append("`?`")
        }
        guard current.kind == .end else {
            throw fail("unexpected \(current.quoted) after the equation", current,
                       expected: expectedAfter + ["`#`", "the end of the line"])
        }
        return ParsedEquation(view: view, attribute: attribute, relation: relation, relationOffset: relTok.start,
                              rhs: rhs, rhsOffset: rhsOffset, priority: priority, debug: debug)
    }

    /// The right side, and what could still follow it (for the trailing-token message).
    mutating func parseRightSide() throws(LayoutError) -> (RightSide, [String]) {
        let t = current
        switch t.kind {
        case .plus, .minus, .number:
            let v = try signedNumber(after: "the relation")
            return (.constant(v, offset: t.start, length: max(1, tokens[pos - 1].end - t.start)), [])
        case .size:
            advance()
            return (.size(width: t.value, height: t.value2, offset: t.start, length: t.length), [])
        case .identifier:
            let view = NameRef(name: t.text, offset: t.start, length: t.length)
            advance()
            var attribute: NameRef?
            if current.kind == .dot {
                advance()
                guard current.kind == .identifier else {
                    throw fail("expected an attribute name after `\(view.name).`, found \(current.quoted)", current,
                               expected: ["an attribute name"])
                }
                attribute = NameRef(name: current.text, offset: current.start, length: current.length)
                advance()
            }
            var multiplier = 1.0
            var divisor: Double?
            var more: [String] = []
            if current.kind == .star || current.kind == .slash {
                let op = current
                advance()
                let v = try signedNumber(after: "`\(op.text)`")
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
                if attribute == nil { more.append("`.`") }
                more += ["`*`", "`/`"]
            }
            var constant = 0.0
            if current.kind == .plus || current.kind == .minus {
                let op = current
                advance()
                guard current.kind == .number else {
                    throw fail("expected a number after `\(op.text)`, found \(current.quoted)", current,
                               expected: ["a number"])
                }
                constant = op.kind == .minus ? -current.value : current.value
                advance()
                more = []  // nothing of the right side can follow its constant
            } else {
                more += ["`+`", "`-`"]
            }
            return (.item(view: view, attribute: attribute, multiplier: multiplier, divisor: divisor,
                          constant: constant), more)
        default:
            throw fail("expected a view, a number or a size after the relation, found \(t.quoted)", t,
                       expected: ["a view name", "a number", "a size such as `30x40`"])
        }
    }

    /// `[+|-] NUMBER`.
    mutating func signedNumber(after what: String) throws(LayoutError) -> Double {
        var sign = 1.0
        if current.kind == .plus || current.kind == .minus {
            if current.kind == .minus { sign = -1 }
            advance()
        }
        guard current.kind == .number else {
            throw fail("expected a number after \(what), found \(current.quoted)", current, expected: ["a number"])
        }
        let v = sign * current.value
        advance()
        return v
    }

    /// `atom { (+|-) atom }`, checked to be in 1...1000. Returns the value and its byte range.
    mutating func parsePriority(after what: String) throws(LayoutError) -> (Double, Int, Int) {
        let start = current.start
        var value = try priorityAtom(after: what)
        while current.kind == .plus || current.kind == .minus {
            let op = current
            advance()
            let v = try priorityAtom(after: "`\(op.text)`")
            value += op.kind == .minus ? -v : v
        }
        let end = tokens[pos - 1].end
        guard LayoutPriority.isValid(value) else {
            throw LayoutError(.invalid, "priority \(formatNumber(value)) is outside 1...1000", offset: start,
                              length: max(1, end - start), expected: ["a priority in 1...1000"])
        }
        return (value, start, end)
    }

    mutating func priorityAtom(after what: String) throws(LayoutError) -> Double {
        let t = current
        switch t.kind {
        case .number:
            advance()
            return t.value
        case .identifier:
            guard let v = LayoutPriority.value(named: t.text) else {
                let names = LayoutPriority.names.map(\.name)
                let near = nearestName(t.text, among: names)
                var msg = "unknown priority `\(t.text)`"
                if let near { msg += " (did you mean `\(near)`?)" }
                var e = fail(msg, t, expected: ["a number in 1...1000"] + names.map { "`\($0)`" })
                e.suggestion = near
                throw e
            }
            advance()
            return v
        default:
            throw fail("expected a priority (a number or a name such as `high`) after \(what), found \(t.quoted)", t,
                       expected: ["a number in 1...1000", "a priority name such as `required`, `high`, `low`"])
        }
    }
}
