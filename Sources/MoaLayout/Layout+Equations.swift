// Moa — the equation language on a layout: names resolved to views and attributes, shorthands expanded,
// `eq`/`eqs`/`xeq`, the re-issue rule and the `?` report.

import MoaSolver

/// What one equation line does once its names are resolved.
enum Action {
    /// Make (or update) one constraint.
    case constraint(Spec)
    /// Set a hugging or compression-resistance priority.
    case contentPriority(View, LayoutAxis, ContentRole, Double)
}

/// One line of text, parsed and resolved, with where it is.
struct ResolvedLine {
    /// The line ends with `?`: report how it was interpreted.
    var debug: Bool
    /// The line's actions: a range of the array that `_resolve(_:into:)` filled for the whole text.
    var actions: Range<Int>
    var line: Int?
    var source: LineText
    /// The line's byte offset in the text given to the call (for error offsets).
    var start: Int
    /// The line as written.
    var text: String { source.string }
}

/// A line of an equation text, kept as the whole text and the line's bytes in it: the lines of one `eqs` text
/// share it, and a constraint keeps its line (`LayoutConstraint.sourceText`) without a string of its own. A
/// string per line was an allocation per equation, and copying it into each constraint cost a cache miss (its
/// storage made long before, when the text was split): a tenth of a 100,000-view build. The text stays in
/// memory while a constraint made from it does.
struct LineText {
    let all: String
    let start: Int
    let count: Int

    /// A whole string as one line.
    init(_ line: String) { all = line; start = 0; count = line.utf8.count }

    /// Bytes `start ..< start + count` of `all` (UTF-8), which must lie on character boundaries (lines do).
    init(_ all: String, start: Int, count: Int) { self.all = all; self.start = start; self.count = count }

    var string: String {
        let u = all.utf8
        let a = u.index(u.startIndex, offsetBy: start), b = u.index(a, offsetBy: count)
        return String(decoding: u[a ..< b], as: UTF8.self)
    }
}

extension Layout {
    // MARK: - Public API

    /// Adds (or updates) the constraint one equation line describes.
    ///
    /// - Parameter line: one equation, e.g. `"table.top == calendar.bottom + 8 @ high"`, or a content
    ///   priority (`"label.hugH == low"`, which returns the hugging constraint of that axis).
    /// - Returns: the constraint's handle. Re-issuing an equation with the same left side, relation, right side
    ///   and priority updates the existing constraint's constant and returns the same handle.
    /// - Throws: `.parse`, `.unknownView`, `.unknownAttribute`, `.invalid` (also for blank lines and for
    ///   `size`/`pin`, which make several constraints: use `eqs`), `.unsatisfiable` with the conflicting
    ///   constraints. Errors report the line within `line` (1 unless blank lines come first) and the byte
    ///   offset into it. A failure changes nothing.
    @discardableResult
    public func eq(_ line: String) throws(LayoutError) -> LayoutConstraint {
        let lines = _splitLines(line)
        let nonBlank = lines.indices.filter { !_isBlank(lines[$0].text) }
        guard nonBlank.count <= 1 else {
            throw LayoutError(.invalid, "eq takes one equation; use eqs for several lines", line: nonBlank[1] + 1)
        }
        let index = nonBlank.first ?? 0
        let first = lines.isEmpty ? (text: "", start: 0) : lines[index]
        let r: ResolvedLine
        var actions: [Action] = []
        do throws(LayoutError) {
            guard let p = try Parser.parse(line: first.text) else {
                throw LayoutError(.invalid, "no equation in the line (it is blank or a comment)",
                                  expected: ["an equation such as `a.left == 8`"])
            }
            try _resolve(p, into: &actions)
            if actions.count != 1 {
                throw LayoutError(.invalid, "`\(p.attribute.name)` makes \(actions.count) constraints; use eqs",
                                  offset: p.attribute.offset, length: p.attribute.length)
            }
            r = ResolvedLine(debug: p.debug, actions: 0..<1, line: nil, source: LineText(first.text), start: first.start)
        } catch {
            throw _locate(error, line: index + 1, text: first.text, start: first.start, source: nil)
        }
        do throws(LayoutError) {
            return try _transaction { (j: inout Journal) throws(LayoutError) in
                try _applyLines([r], actions, source: nil, &j)[0]
            }
        } catch {
            // Applying locates a failure (a conflict) on the equation's own line, which `eq` numbers from 1
            // within `line` (its `ResolvedLine` has none: an eq constraint has no line of an eqs text).
            var e = error
            if e.textOffset != nil { e.line = index + 1 }
            throw e
        }
    }

    /// Adds (or updates) the constraints of many equation lines, all or nothing.
    ///
    /// - Parameters:
    ///   - text: equations separated by newlines; blank lines and `#` comments are skipped.
    ///   - source: a name for the text (a file name), shown in errors and reports as `source:line`.
    ///   - firstLine: the number of the text's first line (default 1), for text cut out of a larger file.
    /// - Returns: the handles in line order (`size` gives 2, `pin` 4, a content priority its intrinsic
    ///   constraint). A re-issued equation returns its existing handle.
    /// - Throws: the first error, with its line and byte offset (into the line and into `text`); nothing from
    ///   the call stays: every line is parsed and resolved before any is applied, and a constraint that cannot
    ///   hold undoes the lines before it.
    @discardableResult
    public func eqs(_ text: String, source: String? = nil, firstLine: Int = 1) throws(LayoutError)
        -> [LayoutConstraint] {
        var lines: [ResolvedLine] = []
        var actions: [Action] = []
        var text = text
        text.makeContiguousUTF8()   // (the lines keep `text`: their byte offsets are into this form of it)
        let shared = text
        try text.withUTF8 { all in
            Result { () throws(LayoutError) in
                try _resolveLines(all, shared, source: source, firstLine: firstLine, into: &lines, &actions)
            }
        }.get()
        return try _transaction { (j: inout Journal) throws(LayoutError) in
            try _applyLines(lines, actions, source: source, &j)
        }
    }

    /// Parses and resolves every line of `text` (the UTF-8 of `shared`) into `lines`, their actions into
    /// `actions`; throws the first error, located. The lines are read in place, one token buffer serving them all.
    func _resolveLines(_ text: UnsafeBufferPointer<UInt8>, _ shared: String, source: String?, firstLine: Int,
                       into lines: inout [ResolvedLine], _ actions: inout [Action]) throws(LayoutError) {
        var tokens: [Token] = []
        tokens.reserveCapacity(16)   // an equation has about ten tokens
        let ranges = Layout.lineRanges(text)
        lines.reserveCapacity(ranges.count)
        actions.reserveCapacity(ranges.count)
        for (i, range) in ranges.enumerated() {
            let n = firstLine + i
            let bytes = UnsafeBufferPointer(rebasing: text[range])
            do throws(LayoutError) {
                guard let p = try Parser.parse(line: bytes, tokens: &tokens) else { continue }
                let first = actions.count
                try _resolve(p, into: &actions)
                lines.append(ResolvedLine(debug: p.debug, actions: first..<actions.count, line: n,
                                          source: LineText(shared, start: range.lowerBound, count: range.count),
                                          start: range.lowerBound))
            } catch {
                throw _locate(error, line: n, text: String(decoding: bytes, as: UTF8.self), start: range.lowerBound,
                              source: source)
            }
        }
    }

    /// Removes the constraint(s) an equation names: same left side, relation, right side and priority; the
    /// constant is ignored (RMExtensions' `xeq`). `pin` and `size` lines remove all their constraints.
    /// - Returns: the removed handles (now stale).
    /// - Throws: `.notFound` when no constraint matches (nothing is removed), `.invalid` for content-priority
    ///   lines, and the parse and name errors of `eq`.
    @discardableResult
    public func xeq(_ line: String) throws(LayoutError) -> [LayoutConstraint] {
        let first = _splitLines(line).first ?? (text: "", start: 0)
        var found: [LayoutConstraint] = []
        let p: ParsedEquation
        do throws(LayoutError) {
            guard let parsed = try Parser.parse(line: first.text) else {
                throw LayoutError(.invalid, "no equation in the line (it is blank or a comment)",
                                  expected: ["an equation such as `a.left == 8`"])
            }
            p = parsed
            var actions: [Action] = []
            try _resolve(p, into: &actions)
            for a in actions {
                switch a {
                case .contentPriority:
                    throw LayoutError(.invalid, "`\(p.attribute.name)` sets a priority; there is no constraint to remove",
                                      offset: p.attribute.offset, length: p.attribute.length)
                case .constraint(let s):
                    guard let c = byKey[s.key], c.isValid else {
                        let probe = LayoutConstraint(id: 0, layout: self, first: s.first, firstAttribute: s.firstAttribute,
                                                     relation: s.relation, second: s.second,
                                                     secondAttribute: s.secondAttribute, multiplier: s.multiplier,
                                                     divisor: s.divisor, constant: 0, priority: s.priority,
                                                     origin: .equation)
                        throw LayoutError(.notFound, "no constraint `\(probe)` to remove (the constant is not compared)",
                                          offset: p.view.offset,
                                          length: max(1, first.text.utf8.count - p.view.offset))
                    }
                    found.append(c)
                }
            }
        } catch {
            throw _locate(error, line: 1, text: first.text, start: first.start, source: nil)
        }
        try checkNotMeasuring()
        userConstraints.compact()   // as `remove(_:)` does: equations added and taken out by xeq, never solved
        _ = try _transaction { (j: inout Journal) throws(LayoutError) in
            for c in found where c.isValid { _discard(c, &j) }
        }
        if p.debug {
            var s = "? xeq: \(first.text.trimmed)\n"
            for c in found { s += "  removed:     \(c) (constraint #\(c.id))\n" }
            debugOutput(s)
        }
        return found
    }

    // MARK: - Lines

    /// True for a line with nothing but spaces and a comment.
    func _isBlank(_ line: String) -> Bool {
        let t = line.trimmed
        return t.isEmpty || t.hasPrefix("#")
    }

    /// The lines of `text` (split at `\n`, a trailing `\r` dropped) with their byte offsets.
    func _splitLines(_ text: String) -> [(text: String, start: Int)] {
        var text = text
        return text.withUTF8 { b in
            Layout.lineRanges(b).map { r in
                (String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self), r.lowerBound)
            }
        }
    }

    /// The byte ranges of the lines of `bytes`: split at `\n`, a trailing `\r` left out; a final `\n` ends the
    /// last line (it does not start an empty one); an empty text is one empty line.
    static func lineRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var s = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == 0x0A {
                var e = i
                if e > s, bytes[e - 1] == 0x0D { e -= 1 }
                out.append(s..<e)
                s = i + 1
            }
            i += 1
        }
        if out.count > 1, out.last!.isEmpty, bytes.last == 0x0A { out.removeLast() }
        return out
    }

    /// Adds the line's location to an error: line number, source, line text and offsets. Errors without an
    /// offset (conflicts) point at the whole equation.
    func _locate(_ error: LayoutError, line: Int, text: String, start: Int, source: String?) -> LayoutError {
        var e = error
        if e.line == nil { e.line = line }
        if e.source == nil { e.source = source }
        e.sourceLine = text
        if e.offset == nil {
            let b = Array(text.utf8)
            var s = 0
            while s < b.count, b[s] == 0x20 || b[s] == 0x09 { s += 1 }
            var end = b.firstIndex(of: 0x23) ?? b.count
            while end > s, b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0x0D { end -= 1 }
            e.offset = s
            e.length = max(1, end - s)
        }
        e.textOffset = start + (e.offset ?? 0)
        return e
    }

    // MARK: - Applying

    /// Applies resolved lines as one change. Re-issued equations get their new constants first (as a group,
    /// see `_refreshGroup`), then new constraints go in, in line order: constraints are only added, so if the
    /// whole set can hold, no step fails on the way, and a failure names the first constraint that cannot hold.
    /// Content priorities are set as their lines come. The `?` reports are written once the outcome is known.
    func _applyLines(_ lines: [ResolvedLine], _ actions: [Action], source: String?, _ j: inout Journal)
        throws(LayoutError) -> [LayoutConstraint] {
        var out: [LayoutConstraint] = []
        var updated: [LayoutConstraint] = []
        var fresh: [LayoutConstraint] = []   // registered without journal entries: one undo step for all below
        var displaced: [LayoutConstraint?] = []   // what each fresh constraint's key named before
        let firstFreshID = nextConstraintID   // ids only grow: a constraint made by this call has one at least this
        let reporting = lines.contains { $0.debug }
        var perLine: [[(LayoutConstraint, LineOutcome)]] = []   // for the `?` reports only
        var outcomes: [LineOutcome] = []   // beside `out`, for the reports only
        out.reserveCapacity(lines.count)
        fresh.reserveCapacity(lines.count)
        displaced.reserveCapacity(lines.count)
        // One growth of the table for the whole text, not a rehash at every doubling.
        byKey.reserveCapacity(byKey.count + lines.count)
        do throws(LayoutError) {
            for r in lines {
                let lineStart = out.count
                func done(_ c: LayoutConstraint, _ outcome: LineOutcome) {
                    out.append(c)
                    if reporting { outcomes.append(outcome) }
                }
                do throws(LayoutError) {
                    for a in actions[r.actions] {
                        switch a {
                        case .constraint(let s):
                            // One lookup of the key: a valid constraint there is updated, else a new one takes
                            // the slot (only `nextConstraintID` is touched meanwhile, not `byKey`).
                            var existing: LayoutConstraint? = nil, made: LayoutConstraint? = nil
                            var previous: LayoutConstraint? = nil
                            Self.update(&byKey[s.key]) { slot in
                                if let c = slot, c.isValid { existing = c; return }
                                previous = slot
                                made = makeConstraint(s, origin: .equation)
                                slot = made
                            }
                            if let c = existing {
                                let old = (c.line, c.source, c.sourceLine)
                                c.line = r.line; c.source = source; c.sourceLine = r.source
                                j.record { (c.line, c.source, c.sourceLine) = old }
                                try _setConstant(c, s.constant, &j, refresh: false)
                                if c.id < firstFreshID { updated.append(c) }
                                done(c, .updated)
                            } else if let c = made {
                                c.line = r.line; c.source = source; c.sourceLine = r.source
                                _listNow(c)
                                displaced.append(previous)
                                fresh.append(c)
                                done(c, .created)
                            }
                        case .contentPriority(let v, let axis, let role, let p):
                            done(try _setContentPriority(v, axis, role, p, &j), .set)
                        }
                    }
                } catch {
                    _unregisterNow(fresh, displaced)
                    throw _locate(error, line: r.line ?? 1, text: r.text, start: r.start, source: source)
                }
                if reporting { perLine.append(Array(zip(out[lineStart...], outcomes[lineStart...]))) }
            }
            j.record { [unowned self, fresh, displaced] in self._unregisterNow(fresh, displaced) }
            try _refreshGroup(updated, &j)
            // The new constraints' variables that nothing holds yet ranked by the batch's equalities, so that
            // the build does not depend on the order views were made and lines written in.
            let batch = fresh.map { c in (expression: _expression(c), relation: c.relation.solverRelation,
                                          priority: c.priority) }
            let ranks = solver.rankFreshVariables(for: batch)
            var installed = 0
            do throws(LayoutError) {
                for (c, b) in zip(fresh, batch) {
                    try _installNow(c, b.expression, priority: c.priority)
                    installed += 1
                }
            } catch {
                for c in fresh[..<installed].reversed() { _uninstallNow(c) }
                solver.restoreRanks(ranks)
                throw error
            }
            j.record { [unowned self, fresh] in
                for c in fresh.reversed() { self._uninstallNow(c) }
                self.solver.restoreRanks(ranks)
            }
        } catch {
            // Point at the line of the constraint that failed.
            var e = error
            if e.sourceLine == nil {
                let failing = e.constraint.flatMap { info in lines.firstIndex { $0.line == info.line && info.line != nil } }
                let r = lines[failing ?? (lines.count == 1 ? 0 : lines.count - 1)]
                e = _locate(e, line: r.line ?? 1, text: r.text, start: r.start, source: source)
            }
            _report(lines, actions, perLine, source: source, failure: e)
            throw e
        }
        _report(lines, actions, perLine, source: source, failure: nil)
        return out
    }

    /// Calls `body` on a slot in place (a dictionary's slot: one hash for a lookup and an insert).
    static func update<T>(_ slot: inout T, _ body: (inout T) -> Void) { body(&slot) }

    /// Undoes the registrations of `fresh` (latest first); `displaced` is what `_registerNow` returned for each.
    func _unregisterNow(_ fresh: [LayoutConstraint], _ displaced: [LayoutConstraint?]) {
        for i in fresh.indices.reversed() { _unregisterNow(fresh[i], previous: displaced[i]) }
    }

    /// What applying an equation did to one of its constraints (for the `?` reports, written only when asked for).
    enum LineOutcome {
        case created, updated, set
        func text(_ c: LayoutConstraint) -> String {
            switch self {
            case .created: return "created constraint #\(c.id)"
            case .updated: return "updated the constant of constraint #\(c.id)"
            case .set: return "set"
            }
        }
    }

    /// Writes the `?` reports of `lines` to `debugOutput`: how each constraint was interpreted and what
    /// happened to it (or why nothing did).
    func _report(_ lines: [ResolvedLine], _ actions: [Action], _ perLine: [[(LayoutConstraint, LineOutcome)]],
                 source: String?, failure: LayoutError?) {
        for (i, r) in lines.enumerated() where r.debug {
            var s = _debugHeader(r, source)
            let done = i < perLine.count ? perLine[i] : []
            for (k, (c, status)) in done.enumerated() {
                if case .contentPriority(let v, let axis, let role, let p) = actions[r.actions.lowerBound + k] {
                    s += "  interpreted: \(role) of \(v.name), \(axis) = \(formatNumber(p))\n"
                        + "  constraint:  \(c)\(c.isActive ? "" : " (inactive: no intrinsic \(axis == .horizontal ? "width" : "height"))")\n"
                } else {
                    s += _interpretation(c)
                }
                if failure == nil { s += "  status:      \(status.text(c))\n" }
            }
            if let failure {
                s += failure.line == (r.line ?? 1) ? "  status:      failed: \(failure.message)\n"
                    : "  status:      not applied (line \(failure.line.map(String.init) ?? "?") failed)\n"
            }
            debugOutput(s)
        }
    }

    func _debugHeader(_ r: ResolvedLine, _ source: String?) -> String {
        let at = r.line.map { n in source.map { "\($0):\(n)" } ?? "line \(n)" } ?? "eq"
        return "? \(at): \(r.text.trimmed)\n"
    }

    /// The `?` report for one constraint: the explicit form, the solver form and what happened.
    func _interpretation(_ c: LayoutConstraint) -> String {
        var explicit = "\(c.firstView.name).\(c.firstAttribute) \(c.relation) "
        if let s = c.secondView, let a = c.secondAttribute {
            explicit += "\(s.name).\(a) * \(formatNumber(c.multiplier)) + \(formatNumber(c.constant))"
        } else {
            explicit += formatNumber(c.constant)
        }
        explicit += " @ \(formatNumber(c.priority))"
        if c.isDirectional {
            explicit += c.firstView.effectiveLayoutDirection == .rightToLeft ? "  (right-to-left: mirrored)"
                : "  (left-to-right)"
        }
        return "  interpreted: \(explicit)\n  solver:      \(_describeSolverForm(c))\n"
    }

    // MARK: - Resolving names

    func _viewNames() -> [String] {
        allViews.live.map(\.name) + ["view", "superview"]
    }

    /// A view named on the right side (`view`/`superview` are the left view's superview).
    func _lookupView(_ ref: NameRef, leftView: View?) throws(LayoutError) -> View {
        if ref.name == "view" || ref.name == "superview" {
            guard let leftView else {
                throw LayoutError(.invalid, "`\(ref.name)` names the superview of the left view and cannot be the left view itself",
                                  offset: ref.offset, length: ref.length, expected: ["a view name"])
            }
            return try _superview(of: leftView, at: ref)
        }
        guard let v = byName[ref.name] else {
            let near = nearestName(ref.name, among: _viewNames())
            var msg = "unknown view `\(ref.name)`"
            if let near { msg += " (did you mean `\(near)`?)" }
            throw LayoutError(.unknownView, msg, offset: ref.offset, length: ref.length,
                              expected: ["a view name"], suggestion: near)
        }
        return v
    }

    func _superview(of v: View, at ref: NameRef) throws(LayoutError) -> View {
        guard let s = v.superview else {
            throw LayoutError(.invalid, "`\(v.name)` has no superview, so the right side must name a view",
                              offset: ref.offset, length: ref.length, expected: ["a view name"])
        }
        return s
    }

    func _attribute(_ ref: NameRef, candidates extra: @autoclosure () -> [String]) throws(LayoutError) -> LayoutAttribute {
        if let a = LayoutAttribute.named[ref.name] { return a }
        let names = LayoutAttribute.allCases.map(\.rawValue) + extra()
        let near = nearestName(ref.name, among: names)
        var msg = "unknown attribute `\(ref.name)`"
        if let near { msg += " (did you mean `\(near)`?)" }
        throw LayoutError(.unknownAttribute, msg, offset: ref.offset, length: ref.length,
                          expected: ["an attribute: " + LayoutAttribute.allCases.map(\.rawValue).joined(separator: ", ")],
                          suggestion: near)
    }

    /// Checks that `a1` and `a2` may be related (Auto Layout's pairing rules, except that sizes of different
    /// axes may be related for aspect ratios, and a position may be related to a size of its axis).
    func _checkPair(_ a1: LayoutAttribute, _ a2: LayoutAttribute, at ref: NameRef) throws(LayoutError) {
        if a1.axis != a2.axis, !(a1.isSize && a2.isSize) {
            throw LayoutError(.invalid, "cannot relate `\(a1)` (\(a1.axis)) to `\(a2)` (\(a2.axis))",
                              offset: ref.offset, length: ref.length,
                              expected: ["a \(a1.axis) attribute"])
        }
        if (a1.isDirectional && a2.isAbsoluteHorizontalEdge) || (a2.isDirectional && a1.isAbsoluteHorizontalEdge) {
            throw LayoutError(.invalid, "cannot relate `\(a1)` to `\(a2)`: leading/trailing and left/right don't mix",
                              offset: ref.offset, length: ref.length,
                              expected: [a1.isDirectional ? "leading/trailing or centerX" : "left/right or centerX"])
        }
    }

    /// Resolves names and expands shorthands.
    func _resolve(_ p: ParsedEquation, into actions: inout [Action]) throws(LayoutError) {
        let first = try _lookupView(p.view, leftView: nil)
        let priority = p.priority ?? LayoutPriority.required
        let attrName = p.attribute.name
        let ordinary = LayoutAttribute.named[attrName]   // else a shorthand, a content priority or unknown

        // Content priorities: view.hugH == low
        if ordinary == nil, let i = contentPriorityAttributes.firstIndex(of: attrName) {
            guard case .priority(let value, _, _) = p.rhs else { return }
            let axis: LayoutAxis = attrName.hasSuffix("H") ? .horizontal : .vertical
            let role: ContentRole = i >= 4 ? .hugging : .compressionResistance
            return actions.append(.contentPriority(first, axis, role, value))
        }

        // size: width and height
        if ordinary == nil, attrName == "size" {
            switch p.rhs {
            case .size(let w, let h, _, _):
                return actions += [
                    .constraint(Spec(first: first, firstAttribute: .width, relation: p.relation, second: nil,
                                     secondAttribute: nil, multiplier: 1, divisor: nil, constant: w, priority: priority)),
                    .constraint(Spec(first: first, firstAttribute: .height, relation: p.relation, second: nil,
                                     secondAttribute: nil, multiplier: 1, divisor: nil, constant: h, priority: priority))]
            case .constant(let k, _, _):
                return actions += [
                    .constraint(Spec(first: first, firstAttribute: .width, relation: p.relation, second: nil,
                                     secondAttribute: nil, multiplier: 1, divisor: nil, constant: k, priority: priority)),
                    .constraint(Spec(first: first, firstAttribute: .height, relation: p.relation, second: nil,
                                     secondAttribute: nil, multiplier: 1, divisor: nil, constant: k, priority: priority))]
            case .item(let vref, let aref, let m, let d, let k):
                let second = try _lookupView(vref, leftView: first)
                if let aref, aref.name != "size" {
                    throw LayoutError(.invalid, "`size` relates to another view's `size`, not `\(aref.name)`",
                                      offset: aref.offset, length: aref.length, expected: ["`size`"])
                }
                return actions += [LayoutAttribute.width, .height].map {
                    .constraint(Spec(first: first, firstAttribute: $0, relation: p.relation, second: second,
                                     secondAttribute: $0, multiplier: m, divisor: d, constant: k, priority: priority))
                }
            case .priority:
                return
            }
        }

        // pin: four edges
        if ordinary == nil, attrName == "pin" {
            let target: View
            let inset: Double
            switch p.rhs {
            case .constant(let k, _, _):
                target = try _superview(of: first, at: p.view)
                inset = k
            case .item(let vref, let aref, let m, _, let k):
                target = try _lookupView(vref, leftView: first)
                if let aref, aref.name != "pin" {
                    throw LayoutError(.invalid, "`pin` pins to another view's edges: write `\(first.name).pin == \(vref.name) + 8`",
                                      offset: aref.offset, length: aref.length, expected: ["`+`", "`-`", "the end of the line"])
                }
                guard m == 1 else {
                    throw LayoutError(.invalid, "`pin` takes no multiplier", offset: p.rhsOffset,
                                      length: max(1, vref.length), expected: ["`+`", "`-`"])
                }
                inset = k
            case .size(_, _, let off, let len):
                throw LayoutError(.invalid, "`pin` takes an inset such as `8`, not a size", offset: off, length: len,
                                  expected: ["a number", "a view name"])
            case .priority:
                return
            }
            func edge(_ a: LayoutAttribute, _ k: Double, _ r: LayoutRelation) -> Action {
                .constraint(Spec(first: first, firstAttribute: a, relation: r, second: target, secondAttribute: a,
                                 multiplier: 1, divisor: nil, constant: k, priority: priority))
            }
            return actions += [edge(.top, inset, p.relation), edge(.left, inset, p.relation),
                    edge(.bottom, -inset, p.relation.flipped), edge(.right, -inset, p.relation.flipped)]
        }

        // An ordinary attribute.
        let a1: LayoutAttribute
        if let ordinary { a1 = ordinary } else {
            a1 = try _attribute(p.attribute, candidates: compoundAttributes + contentPriorityAttributes)
        }
        switch p.rhs {
        case .constant(let k, _, _):
            if a1.isSize {
                return actions.append(.constraint(Spec(first: first, firstAttribute: a1, relation: p.relation, second: nil,
                                         secondAttribute: nil, multiplier: 1, divisor: nil, constant: k, priority: priority)))
            }
            let sv = try _superview(of: first, at: p.view)
            return actions.append(.constraint(Spec(first: first, firstAttribute: a1, relation: p.relation, second: sv,
                                     secondAttribute: a1, multiplier: 1, divisor: nil, constant: k, priority: priority)))
        case .size(_, _, let off, let len):
            throw LayoutError(.invalid, "a size such as `30x40` goes with `.size`, not `.\(a1)`", offset: off,
                              length: len, expected: ["a number", "a view name"])
        case .item(let vref, let aref, let m, let d, let k):
            let second = try _lookupView(vref, leftView: first)
            var a2 = a1
            if let aref, let a = LayoutAttribute.named[aref.name] {
                a2 = a
                try _checkPair(a1, a2, at: aref)
            } else if let aref {
                if compoundAttributes.contains(aref.name) || contentPriorityAttributes.contains(aref.name) {
                    throw LayoutError(.invalid, "`\(aref.name)` cannot be on the right of `.\(a1)`",
                                      offset: aref.offset, length: aref.length, expected: ["an attribute"])
                }
                a2 = try _attribute(aref, candidates: [])
                try _checkPair(a1, a2, at: aref)
            }
            return actions.append(.constraint(Spec(first: first, firstAttribute: a1, relation: p.relation, second: second,
                                     secondAttribute: a2, multiplier: m, divisor: d, constant: k, priority: priority)))
        case .priority:
            return
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
