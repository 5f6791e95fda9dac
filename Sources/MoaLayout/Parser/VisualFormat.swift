// Moa — Auto Layout's visual format language (VFL): `H:|-[a(>=50)]-8-[b(==a)]-|` parsed into ordinary
// equation constraints, with metrics, an options word, Apple's standard spacing and errors that point at the
// character.
//
// Grammar (Apple's "Visual Format Syntax"; whitespace between tokens is allowed):
//
//     format     := [ ('H' | 'V') ':' ] [ '|' connection ] view { connection view } [ connection '|' ]
//     connection := ''                                   -- flush: 0
//                 | '-'                                  -- standard: 8 between views, 20 to the superview
//                 | '-' predicates '-'
//     predicates := simple | '(' predicate { ',' predicate } ')'
//     simple     := metric | number
//     view       := '[' name [ '(' predicate { ',' predicate } ')' ] ']'
//     predicate  := [ '==' | '<=' | '>=' ] ( metric | number | view name ) [ '@' ( metric | number ) ]
//
// A view predicate sizes the view along the orientation (`[a(>=50)]`: a.width >= 50; `[a(==b)]`: a.width ==
// b.width); a connection's predicates are the gap. `|` is the superview of the views (they must share it).
// Horizontal formats use leading and trailing (or left and right with a direction option).

/// Options of a visual format (Apple's `NSLayoutConstraint.FormatOptions`, same bit values).
public struct VisualFormatOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alignAllLeft = VisualFormatOptions(rawValue: 1 << 1)
    public static let alignAllRight = VisualFormatOptions(rawValue: 1 << 2)
    public static let alignAllTop = VisualFormatOptions(rawValue: 1 << 3)
    public static let alignAllBottom = VisualFormatOptions(rawValue: 1 << 4)
    public static let alignAllLeading = VisualFormatOptions(rawValue: 1 << 5)
    public static let alignAllTrailing = VisualFormatOptions(rawValue: 1 << 6)
    public static let alignAllCenterX = VisualFormatOptions(rawValue: 1 << 9)
    public static let alignAllCenterY = VisualFormatOptions(rawValue: 1 << 10)
    public static let alignAllLastBaseline = VisualFormatOptions(rawValue: 1 << 11)
    public static let alignAllFirstBaseline = VisualFormatOptions(rawValue: 1 << 12)
    /// Same as `alignAllLastBaseline`.
    public static let alignAllBaseline = alignAllLastBaseline
    /// Horizontal formats run left to right (left and right attributes).
    public static let directionLeftToRight = VisualFormatOptions(rawValue: 1 << 16)
    /// Horizontal formats run right to left.
    public static let directionRightToLeft = VisualFormatOptions(rawValue: 2 << 16)

    /// The alignment options with their attributes, and their names (`alignAllTop`), in bit order.
    static let alignments: [(VisualFormatOptions, LayoutAttribute, String)] = [
        (.alignAllLeft, .left, "alignAllLeft"), (.alignAllRight, .right, "alignAllRight"),
        (.alignAllTop, .top, "alignAllTop"), (.alignAllBottom, .bottom, "alignAllBottom"),
        (.alignAllLeading, .leading, "alignAllLeading"), (.alignAllTrailing, .trailing, "alignAllTrailing"),
        (.alignAllCenterX, .centerX, "alignAllCenterX"), (.alignAllCenterY, .centerY, "alignAllCenterY"),
        (.alignAllLastBaseline, .lastBaseline, "alignAllLastBaseline"),
        (.alignAllFirstBaseline, .firstBaseline, "alignAllFirstBaseline"),
    ]

    /// Every option by name (also `alignAllBaseline`, `directionLeadingToTrailing` = none).
    public static let names: [(String, VisualFormatOptions)] =
        alignments.map { ($0.2, $0.0) } + [("alignAllBaseline", .alignAllBaseline),
                                           ("directionLeadingToTrailing", []),
                                           ("directionLeftToRight", .directionLeftToRight),
                                           ("directionRightToLeft", .directionRightToLeft)]

    /// Parses an options word: names separated by spaces, commas or `|` (`"alignAllTop alignAllBottom"`).
    /// - Throws: `.invalid` naming an unknown option (with the nearest name).
    public init(parsing text: String) throws(LayoutError) {
        var r: VisualFormatOptions = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "|" || $0 == "\t" }) {
            guard let o = VisualFormatOptions.names.first(where: { $0.0 == word })?.1 else {
                let near = nearestName(String(word), among: VisualFormatOptions.names.map(\.0))
                throw LayoutError(.invalid, "unknown visual format option `\(word)`" + (near.map { " (did you mean `\($0)`?)" } ?? ""),
                                  suggestion: near)
            }
            r.formUnion(o)
        }
        self = r
    }
}

/// Apple's standard spacing: between sibling views, and between a view and its superview's edge.
public enum StandardSpacing {
    /// Between siblings: 8.
    public static let siblings: Double = 8
    /// To the superview's edge: 20.
    public static let superview: Double = 20
}

/// One predicate as written: relation, a number or a name, a priority.
struct VFLPredicate {
    var relation: LayoutRelation
    var value: Double?
    var view: NameRef?
    var priority: Double
    var offset: Int
}

/// A format as parsed: orientation, the items (views and `|`) and the connection before each.
struct VFLFormat {
    enum Item { case superview(offset: Int), view(NameRef, [VFLPredicate]) }
    struct Connection { var predicates: [VFLPredicate]; var standard: Bool; var offset: Int }
    var vertical: Bool
    var items: [Item] = []
    /// `connections[i]` joins `items[i]` and `items[i + 1]`.
    var connections: [Connection] = []
}

/// The parser of one format line; errors carry byte offsets into the line.
struct VFLParser {
    let b: [UInt8]
    let metrics: [String: Double]
    var i = 0

    init(_ text: String, metrics: [String: Double]) {
        b = Array(text.utf8)
        self.metrics = metrics
    }

    func error(_ msg: String, at o: Int? = nil, length: Int = 1, expected: [String] = []) -> LayoutError {
        LayoutError(.parse, msg, offset: min(o ?? i, b.count), length: length, expected: expected)
    }

    mutating func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D { i += 1 } }
    func peek() -> UInt8? { i < b.count ? b[i] : nil }
    mutating func eat(_ c: Character) -> Bool {
        skipSpace()
        if i < b.count, b[i] == c.asciiValue! { i += 1; return true }
        return false
    }
    mutating func expect(_ c: Character, _ what: String) throws(LayoutError) {
        guard eat(c) else { throw error("expected `\(c)` \(what)", expected: ["`\(c)`"]) }
    }

    mutating func name() -> NameRef? {
        skipSpace()
        guard i < b.count, Lexer.isIdentStart(b[i]) else { return nil }
        let s = i
        while i < b.count, Lexer.isIdentBody(b[i]) { i += 1 }
        return NameRef(name: String(decoding: b[s ..< i], as: UTF8.self), offset: s, length: i - s)
    }

    mutating func number() -> (Double, Int, Int)? {
        skipSpace()
        let s = i
        var j = i
        if j < b.count, b[j] == 0x2D || b[j] == 0x2B { j += 1 }   // - +
        let digits = j
        while j < b.count, Lexer.isDigit(b[j]) || b[j] == 0x2E { j += 1 }
        guard j > digits else { return nil }
        if j < b.count, b[j] == 0x65 || b[j] == 0x45 {   // e E
            var k = j + 1
            if k < b.count, b[k] == 0x2D || b[k] == 0x2B { k += 1 }
            if k < b.count, Lexer.isDigit(b[k]) { while k < b.count, Lexer.isDigit(b[k]) { k += 1 }; j = k }
        }
        guard let v = Double(String(decoding: b[s ..< j], as: UTF8.self)), v.isFinite else { return nil }
        i = j
        return (v, s, j - s)
    }

    /// A metric or a number (a constant or a priority).
    mutating func constant(_ what: String, allowView: Bool) throws(LayoutError) -> (Double?, NameRef?, Int) {
        skipSpace()
        let at = i
        if let (v, _, _) = number() { return (v, nil, at) }
        guard let n = name() else {
            throw error("expected a number or a metric name for \(what)", expected: ["a number", "a metric"])
        }
        if let m = metrics[n.name] {
            guard m.isFinite else { throw error("metric `\(n.name)` is not finite", at: n.offset, length: n.length) }
            return (m, nil, at)
        }
        if allowView { return (nil, n, at) }
        let near = nearestName(n.name, among: Array(metrics.keys))
        throw LayoutError(.parse, "unknown metric `\(n.name)`" + (near.map { " (did you mean `\($0)`?)" } ?? ""),
                          offset: n.offset, length: n.length, expected: ["a metric"], suggestion: near)
    }

    mutating func predicate(allowView: Bool) throws(LayoutError) -> VFLPredicate {
        skipSpace()
        let at = i
        var rel = LayoutRelation.equal
        if i + 1 < b.count, b[i + 1] == 0x3D, b[i] == 0x3D || b[i] == 0x3C || b[i] == 0x3E {   // == <= >=
            rel = b[i] == 0x3C ? .lessOrEqual : b[i] == 0x3E ? .greaterOrEqual : .equal
            i += 2
        }
        let (v, view, _) = try constant(allowView ? "a size" : "a gap", allowView: allowView)
        var p = LayoutPriority.required
        if eat("@") {
            let pAt = i
            let (pv, _, _) = try constant("a priority", allowView: false)
            guard let pv, LayoutPriority.isValid(pv) else {
                throw error("priority must be within 1...1000", at: pAt, length: max(1, i - pAt))
            }
            p = pv
        }
        return VFLPredicate(relation: rel, value: v, view: view, priority: p, offset: at)
    }

    mutating func predicateList(allowView: Bool) throws(LayoutError) -> [VFLPredicate] {
        var out = [try predicate(allowView: allowView)]
        while eat(",") { out.append(try predicate(allowView: allowView)) }
        try expect(")", "to close the predicate list")
        return out
    }

    /// A connection after an item; nil when the format ends there.
    mutating func connection() throws(LayoutError) -> VFLFormat.Connection {
        skipSpace()
        let at = i
        guard eat("-") else { return .init(predicates: [], standard: false, offset: at) }
        skipSpace()
        if peek() == 0x5B || peek() == 0x7C { return .init(predicates: [], standard: true, offset: at) }   // [ |
        var preds: [VFLPredicate]
        if eat("(") {
            preds = try predicateList(allowView: false)
        } else {
            let (v, _, o) = try constant("a gap", allowView: false)
            preds = [VFLPredicate(relation: .equal, value: v, view: nil, priority: LayoutPriority.required, offset: o)]
        }
        guard eat("-") else { throw error("expected `-` after the gap", expected: ["`-`"]) }
        return .init(predicates: preds, standard: false, offset: at)
    }

    mutating func view() throws(LayoutError) -> VFLFormat.Item {
        guard eat("[") else { throw error("expected a view (`[name]`)", expected: ["`[`"]) }
        guard let n = name() else { throw error("expected a view name after `[`", expected: ["a view name"]) }
        var preds: [VFLPredicate] = []
        if eat("(") { preds = try predicateList(allowView: true) }
        guard eat("]") else { throw error("expected `]` to close view `\(n.name)`", expected: ["`]`"]) }
        return .view(n, preds)
    }

    mutating func parse() throws(LayoutError) -> VFLFormat {
        skipSpace()
        var f = VFLFormat(vertical: false)
        if i + 1 < b.count, b[i] == 0x48 || b[i] == 0x56 {   // H V
            var j = i + 1
            while j < b.count, b[j] == 0x20 { j += 1 }
            if j < b.count, b[j] == 0x3A {   // :
                f.vertical = b[i] == 0x56
                i = j + 1
            }
        }
        skipSpace()
        if peek() == 0x7C {
            f.items.append(.superview(offset: i))
            i += 1
            f.connections.append(try connection())
        }
        f.items.append(try view())
        while true {
            skipSpace()
            if i >= b.count { break }
            let c = try connection()
            skipSpace()
            if peek() == 0x7C {
                f.connections.append(c)
                f.items.append(.superview(offset: i))
                i += 1
                skipSpace()
                guard i >= b.count else { throw error("unexpected text after the closing `|`") }
                break
            }
            if i >= b.count { throw error("expected a view or `|` after `-`", expected: ["`[`", "`|`"]) }
            f.connections.append(c)
            f.items.append(try view())
        }
        return f
    }
}

extension Layout {
    /// Adds the constraints of visual format strings (Auto Layout's VFL), all or nothing.
    ///
    /// - Parameters:
    ///   - text: one format per line (`H:|-[name]-8-[field(>=100)]-|`); blank lines are skipped.
    ///   - metrics: names usable for gaps, sizes and priorities.
    ///   - options: alignment of every neighbouring pair of views on the other axis, and the direction of
    ///     horizontal formats (see `VisualFormatOptions`).
    /// - Returns: the constraints, in the order of the text (a format re-issued returns existing handles with
    ///   their constants updated, as `eqs` does). They are equations: remove them with `Layout.remove`.
    /// - Throws: `.parse` with the byte offset of the offending character (`description` draws a caret under
    ///   it), `.unknownView`, `.invalid` (views in different superviews, an alignment on the format's own axis),
    ///   `.unsatisfiable`. Nothing changes on error.
    @discardableResult
    public func vfl(_ text: String, metrics: [String: Double] = [:], options: VisualFormatOptions = [])
        throws(LayoutError) -> [LayoutConstraint] {
        var resolved: [ResolvedLine] = []
        var actions: [Action] = []
        for (k, l) in _splitLines(text).enumerated() where !l.text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
            do throws(LayoutError) {
                var p = VFLParser(l.text, metrics: metrics)
                let f = try p.parse()
                let specs = try _vflSpecs(f, options: options)
                let first = actions.count
                actions += specs.map { .constraint($0) }
                resolved.append(ResolvedLine(debug: false, actions: first..<actions.count, line: k + 1,
                                             source: LineText(l.text), start: l.start))
            } catch {
                throw _locate(error, line: k + 1, text: l.text, start: l.start, source: nil)
            }
        }
        return try _transaction { (j: inout Journal) throws(LayoutError) in
            try _applyLines(resolved, actions, source: nil, &j)
        }
    }

    func _vflSpecs(_ f: VFLFormat, options: VisualFormatOptions) throws(LayoutError) -> [Spec] {
        var views: [View?] = []
        for item in f.items {
            switch item {
            case .superview: views.append(nil)
            case .view(let n, _):
                guard let v = byName[n.name], v.kind != .root else {
                    let near = nearestName(n.name, among: _viewNames())
                    throw LayoutError(.unknownView, "unknown view `\(n.name)`" + (near.map { " (did you mean `\($0)`?)" } ?? ""),
                                      offset: n.offset, length: n.length, expected: ["a view name"], suggestion: near)
                }
                views.append(v)
            }
        }
        let real = views.compactMap { $0 }
        let parent = real[0].superview
        for (k, item) in f.items.enumerated() {
            if case .view(let n, _) = item, views[k]!.superview !== parent {
                throw LayoutError(.invalid, "`\(n.name)` is not in `\(parent?.name ?? "root")` like `\(real[0].name)`; the views of a format share one superview",
                                  offset: n.offset, length: n.length)
            }
            if case .superview(let o) = item, parent == nil {
                throw LayoutError(.invalid, "`\(real[0].name)` has no superview for `|`", offset: o)
            }
        }
        let ltr = options.contains(.directionLeftToRight), rtl = options.contains(.directionRightToLeft)
        let lead: LayoutAttribute = f.vertical ? .top : ltr ? .left : rtl ? .right : .leading
        let trail: LayoutAttribute = f.vertical ? .bottom : ltr ? .right : rtl ? .left : .trailing
        let size: LayoutAttribute = f.vertical ? .height : .width
        // Right to left, a gap runs the other way: `[a]-8-[b]` is a.left == b.right + 8.
        let flip = rtl && !f.vertical
        var out: [Spec] = []
        func spec(_ a: View, _ aa: LayoutAttribute, _ r: LayoutRelation, _ b: View?, _ ba: LayoutAttribute?,
                  _ k: Double, _ p: Double) -> Spec {
            Spec(first: a, firstAttribute: aa, relation: r, second: b, secondAttribute: ba, multiplier: 1,
                 divisor: nil, constant: k, priority: p)
        }
        // Sizes.
        for (k, item) in f.items.enumerated() {
            guard case .view(_, let preds) = item, let v = views[k] else { continue }
            for p in preds {
                if let n = p.view {
                    guard let other = byName[n.name] else {
                        let near = nearestName(n.name, among: _viewNames())
                        throw LayoutError(.unknownView, "`\(n.name)` is not a view or a metric" + (near.map { " (did you mean `\($0)`?)" } ?? ""),
                                          offset: n.offset, length: n.length, expected: ["a number", "a metric", "a view name"],
                                          suggestion: near)
                    }
                    out.append(spec(v, size, p.relation, other, size, 0, p.priority))
                } else {
                    out.append(spec(v, size, p.relation, nil, nil, p.value ?? 0, p.priority))
                }
            }
        }
        // Gaps.
        for (k, c) in f.connections.enumerated() {
            let a = views[k], b = views[k + 1]
            let toSuperview = a == nil || b == nil
            var preds = c.predicates
            if preds.isEmpty {
                let g = c.standard ? (toSuperview ? StandardSpacing.superview : StandardSpacing.siblings) : 0
                preds = [VFLPredicate(relation: .equal, value: g, view: nil, priority: LayoutPriority.required, offset: c.offset)]
            }
            for p in preds {
                let g = p.value ?? 0
                // later.lead REL earlier.trail + g, with the superview's edges as the ends.
                switch (a, b) {
                case (nil, let v?):
                    out.append(flip ? spec(parent!, lead, p.relation, v, lead, g, p.priority)
                                    : spec(v, lead, p.relation, parent!, lead, g, p.priority))
                case (let v?, nil):
                    out.append(flip ? spec(v, trail, p.relation, parent!, trail, g, p.priority)
                                    : spec(parent!, trail, p.relation, v, trail, g, p.priority))
                case (let v?, let w?):
                    out.append(flip ? spec(v, trail, p.relation, w, lead, g, p.priority)
                                    : spec(w, lead, p.relation, v, trail, g, p.priority))
                default: break
                }
            }
        }
        // Alignment of neighbours on the other axis.
        for (o, attr, name) in VisualFormatOptions.alignments where options.contains(o) {
            let vertical = attr.axis == .vertical
            guard vertical != f.vertical else {
                throw LayoutError(.invalid, "option `\(name)` aligns on the \(attr.axis) axis, the axis of the format itself")
            }
            for k in real.indices.dropFirst() { out.append(spec(real[k], attr, .equal, real[k - 1], attr, 0, LayoutPriority.required)) }
        }
        return out
    }
}
