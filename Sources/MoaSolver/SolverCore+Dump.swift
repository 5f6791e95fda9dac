// Moa — readable text forms of constraints and of the whole solver.

extension SolverCore {
    /// A number without a useless ".0".
    static func format(_ x: Double) -> String {
        if abs(x) < 1e15, Double(Int64(x)) == x { return String(Int64(x)) }
        return String(x)
    }

    mutating func variableName(_ slot: Int) -> String {
        varName[slot].isEmpty ? "v\(slot)" : varName[slot]
    }

    mutating func describe(_ slot: Int) -> String {
        let r = cons[slot]
        var parts: [String] = []
        for i in r.terms.indices {
            let name = variableName(Int(r.terms[i].v))
            let c = r.terms[i].coef
            parts.append(c == 1 ? name : "\(SolverCore.format(c))*\(name)")
        }
        if r.constant != 0 || parts.isEmpty { parts.append(SolverCore.format(r.constant)) }
        var text = parts.joined(separator: " + ") + " \(r.relation) 0"
        if !r.isRequired { text += " @\(SolverCore.format(r.priority))" }
        if r.weight != 1 { text += " w=\(SolverCore.format(r.weight))" }
        let tag = tag(slot)
        if !tag.isEmpty { text += " [\(tag)]" }
        if !r.active { text += " (inactive)" }
        return text
    }

    mutating func symbolName(_ s: Sym) -> String {
        switch tab.kind[s] {
        case .external: return variableName(Int(tab.owner[s]))
        case .slack: return "s\(s.raw)"
        case .error: return "e\(s.raw)"
        case .dummy: return "d\(s.raw)"
        case .unused: return "?\(s.raw)"
        }
    }

    mutating func rowText(_ constant: Double, _ terms: [(Sym, Double)]) -> String {
        var text = SolverCore.format(constant)
        for (s, c) in terms.sorted(by: { $0.0 < $1.0 }) {
            text += c < 0 ? " - " : " + "
            let a = abs(c)
            text += (a == 1 ? "" : "\(SolverCore.format(a))*") + symbolName(s)
        }
        return text
    }

    /// The whole solver as text: variables with values, constraints with tags, edits, the tableau rows with their
    /// constants, and the objective per priority level. Symbols: variable names, `s` slack, `e` error, `d` dummy.
    /// C: `moa_solver_dump`.
    mutating func dump() -> String {
        ensureOptimal()
        var out = "Variables (\(liveVariables)):\n"
        for slot in varSym.indices where varLive[slot] {
            let basic = tab.rowOf[varSym[slot]].isValid
            out += "  \(variableName(slot)) = \(SolverCore.format(currentValue(slot)))\(basic ? "" : " (parametric)")\n"
        }
        out += "Constraints (\(liveConstraints)):\n"
        for slot in cons.indices where cons[slot].live && !cons[slot].isEdit {
            out += "  #\(slot) \(describe(slot))\n"
        }
        out += "Edits:\n"
        for slot in varSym.indices where varLive[slot] && varEdit[slot] >= 0 {
            let e = cons[Int(varEdit[slot])]
            out += "  \(variableName(slot)) @\(SolverCore.format(e.priority)) suggested \(SolverCore.format(-e.constant))\n"
        }
        out += "Rows:\n"
        var basics: [Sym] = []
        for r in tab.rows.indices where tab.rows[r].basic.isValid { basics.append(tab.rows[r].basic) }
        for b in basics.sorted() {
            let row = tab.rows[tab.rowOf[b]]
            let text = rowText(row.constant, row.cells.map { ($0.sym, $0.coef) })
            out += "  \(symbolName(b)) \(row.passive ? ":=" : "=") \(text)\n"
        }
        out += "Objective:\n"
        for l in tab.levelOrder {
            let level = tab.levels[l]
            var terms: [(Sym, Double)] = []
            for s in level.coef.indices where level.coef[s] != 0 { terms.append((Sym(s), level.coef[s])) }
            out += "  @\(SolverCore.format(level.priority)): \(rowText(level.constant, terms))\n"
        }
        return out
    }
}

extension SolverCore {
    /// Debugging aid (not API): checks that the tableau's solution satisfies every active constraint's own
    /// equation with its markers, that basic slacks and errors are non-negative, that active rows hold only
    /// non-basic symbols and that the objective holds only non-basic symbols. Returns the first problem found.
    mutating func consistencyProblem() -> String? {
        // The list of changed rows is kept for the next update: evaluating consumes it, and that update would
        // then miss the values that changed (a check between calls made later values stale).
        let pending = tab.changes
        tab.evaluate()
        defer { tab.changes = pending }
        func value(_ s: Sym) -> Double { tab.rowOf[s].isValid ? tab.symValue[s] : 0 }
        for r in tab.rows.indices where tab.rows[r].basic.isValid {
            let row = tab.rows[r]
            if tab.kind[row.basic] == .unused { return "row \(r) has a released basic \(row.basic.index)" }
            for c in row.cells where tab.kind[c.sym] == .unused {
                return "row \(r) (basic \(symbolName(row.basic))) holds released symbol \(c.sym.index)"
            }
            if !row.passive {
                for c in row.cells where tab.rowOf[c.sym].isValid {
                    return "active row \(r) (basic \(symbolName(row.basic))) holds basic \(symbolName(c.sym))"
                }
                let k = tab.kind[row.basic]
                if (k == .slack || k == .error) && row.constant < -1e-7 {
                    return "row \(r): basic \(symbolName(row.basic)) = \(row.constant) < 0"
                }
            }
        }
        if let p = tab.columnIndexProblem() { return p }
        if let p = tab.rankProblem() { return p }
        for l in tab.levels.indices {
            for s in tab.levels[l].coef.indices where tab.levels[l].coef[s] != 0 && tab.rowOf[s].isValid {
                return "objective level \(l) holds basic \(symbolName(Sym(s)))"
            }
        }
        if let p = objectiveProblem() { return p }
        // The optimum's bookkeeping: a symbol that improves the objective is listed (`optimize` looks at the
        // list only; `dropCandidates` must not drop one).
        for s in tab.kind.indices where !tab.rowOf[s].isValid && tab.kind[s] != .unused && !tab.isCandidate[s] {
            if tab.improvingDirection(Sym(Int32(s))) != 0 {
                return "\(symbolName(Sym(Int32(s)))) improves the objective and is not a candidate"
            }
        }
        for slot in cons.indices where cons[slot].live && cons[slot].active {
            let rec = cons[slot]
            var res = rec.constant
            for i in rec.terms.indices { res += rec.terms[i].coef * value(varSym[Int(rec.terms[i].v)]) }
            for (m, c) in markerTerms(rec) { res += c * value(m) }
            var scale = abs(rec.constant)
            for i in rec.terms.indices { scale = max(scale, abs(rec.terms[i].coef * value(varSym[Int(rec.terms[i].v)]))) }
            if abs(res) > 1e-6 * max(1, scale) { return "constraint #\(slot) \(describe(slot)): residual \(res)" }
        }
        return nil
    }
}

extension SolverCore {
    /// Debugging aid (not API): checks each objective level against its definition, the weighted sum of the
    /// errors of the active soft constraints at that level, each written in non-basic symbols (an error is
    /// non-basic or basic in an active row).
    mutating func objectiveProblem() -> String? {
        var expected = [[Double]](repeating: [Double](repeating: 0, count: tab.kind.count), count: tab.levels.count)
        for slot in cons.indices where cons[slot].live && cons[slot].active && !cons[slot].isRequired {
            let rec = cons[slot]
            guard rec.level.isValid else { return "soft constraint #\(slot) without a level" }
            let l = Int(rec.level.index)
            for e in [rec.marker, rec.other] where e.isValid && tab.kind[e] == .error {
                let r = tab.rowOf[e]
                if !r.isValid { expected[l][e.index] += rec.weight; continue }
                if tab.rows[r].passive { return "error \(symbolName(e)) is basic in passive row \(r)" }
                for c in tab.rows[r].cells { expected[l][c.sym.index] += rec.weight * c.coef }
            }
        }
        for l in tab.levels.indices {
            for s in expected[l].indices {
                let have = tab.levels[l].coef[s], want = expected[l][s]
                if abs(have - want) > 1e-6 * max(1, abs(want)) {
                    return "objective level \(l) (@\(SolverCore.format(tab.levels[l].priority))): \(symbolName(Sym(Int32(s)))) has \(have), its errors give \(want)"
                }
            }
        }
        return nil
    }

    /// Debugging aid (not API): `consistencyProblem()` after a trial shift of each active constraint's constant,
    /// each undone. Finds tableaus whose dummy content is wrong though their values are right.
    mutating func deepConsistencyProblem() -> String? {
        if let p = consistencyProblem() { return p }
        for slot in cons.indices where cons[slot].live && cons[slot].active {
            let saved = cons[slot]
            let savedNeeds = needsOptimize
            tab.begin()
            let old = cons[slot].constant
            var problem: String? = nil
            if (try? changeConstant(slot, to: old + 0.5)) != nil {
                if let p = consistencyProblem() { problem = "shifting #\(slot) \(describe(slot)): \(p)" }
            }
            tab.rollback()
            cons[slot] = saved
            needsOptimize = savedNeeds
            if let problem { return problem }
        }
        return nil
    }
}
