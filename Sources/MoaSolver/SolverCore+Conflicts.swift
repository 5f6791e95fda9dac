// Moa — explaining a failed required constraint with a minimal set of existing required constraints.
//
// The simplex run that failed leaves a certificate: the row that could not be made feasible is a linear
// combination of the original rows of exactly those constraints whose marker symbols it holds (Farkas). That set
// is small but not always minimal; a deletion filter over scratch solvers makes it minimal: a constraint is
// dropped from the set when the rest, with the new constraint, still cannot hold.

extension SolverCore {
    /// The error for a failed required constraint `slot`, with a minimal conflict set built from `certificate`.
    mutating func conflict(_ slot: Int, _ certificate: [Int]) -> SolverError {
        guard explainsConflicts else { return .unsatisfiable(conflicts: []) }
        var candidates = requiredOthers(slot, certificate)
        if feasible(candidates, with: slot) {
            // The certificate was not enough (rounding): fall back on everything connected to the constraint.
            candidates = connectedRequired(slot)
            // A fresh solve of all of it holds: the tableau's rounding refused the constraint, not the system
            // (a 400-view stack whose equal widths were chained view to view, moved around, drifted by 1e-9 a
            // coefficient until an add failed). `repairing` rebuilds the tableau and tries the call again.
            if feasible(candidates, with: slot) { return .internalError(SolverCore.roundingConflict) }
        }
        var i = 0
        while i < candidates.count {
            var trial = candidates
            trial.remove(at: i)
            if feasible(trial, with: slot) { i += 1 } else { candidates = trial }
        }
        return .unsatisfiable(conflicts: candidates.map { handle($0) })
    }

    /// Active required user constraints among `slots`, without `slot`, sorted and unique.
    mutating func requiredOthers(_ slot: Int, _ slots: [Int]) -> [Int] {
        var out: [Int] = []
        for s in slots where s >= 0 && s != slot && s < cons.count {
            let r = cons[s]
            if r.live && r.active && !r.isEdit && r.isRequired { out.append(s) }
        }
        out.sort()
        var unique: [Int] = []
        for s in out where unique.last != s { unique.append(s) }
        return unique
    }

    /// Active required constraints that share variables, directly or through others, with constraint `slot`.
    mutating func connectedRequired(_ slot: Int) -> [Int] {
        var byVar = [[Int]](repeating: [], count: varSym.count)
        for s in cons.indices where s != slot && cons[s].live && cons[s].active && !cons[s].isEdit && cons[s].isRequired {
            for t in cons[s].terms { byVar[Int(t.v)].append(s) }
        }
        var seenVar = [Bool](repeating: false, count: varSym.count)
        var seenCons = [Bool](repeating: false, count: cons.count)
        var stack = cons[slot].terms.map { Int($0.v) }
        var out: [Int] = []
        while let v = stack.popLast() {
            if seenVar[v] { continue }
            seenVar[v] = true
            for c in byVar[v] where !seenCons[c] {
                seenCons[c] = true
                out.append(c)
                stack.append(contentsOf: cons[c].terms.map { Int($0.v) })
            }
        }
        return out.sorted()
    }

    /// Whether the required constraints `slots` and constraint `slot` (taken as required) can all hold.
    mutating func feasible(_ slots: [Int], with slot: Int) -> Bool {
        let scratch = Solver()
        scratch.core.explainsConflicts = false
        var vars = [Int32: Variable]()
        func add(_ r: ConstraintRecord) -> Bool {
            var terms: [Term] = []
            for i in r.terms.indices {
                let key = r.terms[i].v
                let v = vars[key] ?? scratch.addVariable()
                vars[key] = v
                terms.append(Term(v, r.terms[i].coef))
            }
            return (try? scratch.add(Expression(terms, constant: r.constant), r.relation)) != nil
        }
        for s in slots where !add(cons[s]) { return false }
        return add(cons[slot])
    }
}
