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
        for i in r.vars.indices {
            let name = variableName(Int(r.vars[i]))
            let c = r.coefs[i]
            parts.append(c == 1 ? name : "\(SolverCore.format(c))*\(name)")
        }
        if r.constant != 0 || parts.isEmpty { parts.append(SolverCore.format(r.constant)) }
        var text = parts.joined(separator: " + ") + " \(r.relation) 0"
        if !r.isRequired { text += " @\(SolverCore.format(r.priority))" }
        if r.weight != 1 { text += " w=\(SolverCore.format(r.weight))" }
        if !r.tag.isEmpty { text += " [\(r.tag)]" }
        if !r.active { text += " (inactive)" }
        return text
    }

    mutating func symbolName(_ s: Int32) -> String {
        switch tab.kind[Int(s)] {
        case .external: return variableName(Int(tab.owner[Int(s)]))
        case .slack: return "s\(s)"
        case .error: return "e\(s)"
        case .dummy: return "d\(s)"
        case .unused: return "?\(s)"
        }
    }

    mutating func rowText(_ constant: Double, _ terms: [(Int32, Double)]) -> String {
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
            let basic = tab.rowOf[Int(varSym[slot])] >= 0
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
        var basics: [Int32] = []
        for r in tab.rows.indices where tab.rows[r].basic >= 0 { basics.append(tab.rows[r].basic) }
        for b in basics.sorted() {
            let row = tab.rows[Int(tab.rowOf[Int(b)])]
            let text = rowText(row.constant, row.cells.map { ($0.sym, $0.coef) })
            out += "  \(symbolName(b)) \(row.passive ? ":=" : "=") \(text)\n"
        }
        out += "Objective:\n"
        for l in tab.levelOrder {
            let level = tab.levels[Int(l)]
            var terms: [(Int32, Double)] = []
            for s in level.coef.indices where level.coef[s] != 0 { terms.append((Int32(s), level.coef[s])) }
            out += "  @\(SolverCore.format(level.priority)): \(rowText(level.constant, terms))\n"
        }
        return out
    }
}
