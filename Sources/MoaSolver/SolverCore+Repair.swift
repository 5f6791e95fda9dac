// Moa — numerical repair: rebuilding the tableau from the constraints when rounding has worn it out.

extension SolverCore {
    /// Runs a public operation; when it ends in an internal error (the simplex met rounding noise it cannot
    /// explain: an unbounded direction, a cycle, a dual simplex without a pivot), the call has changed nothing
    /// (each operation rolls back or takes its row out again), so the tableau is rebuilt from the constraints
    /// (`refactorize`) and the operation runs once more on the fresh tableau. Only a second failure reaches the
    /// caller, with the solver as it was before the call. Random call sequences with nice numbers met such errors about once in 20,000 calls:
    /// rows of a long-lived tableau carry the residue of every pivot (a coefficient of 2^-23 where the exact
    /// value is 0 became a pivot element, and 2^23 the coefficient after it), and a fresh factorisation of the
    /// same system has none of it. This is what LP codes do when they re-factorise the basis from the
    /// original matrix.
    ///
    /// The call's work budget (`SolverLimits.maxPivots`, `maxSeconds`, `callDeadline`) starts here and covers
    /// the retry; outside calls the tableau has none.
    mutating func repairing<T>(_ operation: (inout SolverCore) throws(SolverError) -> T) throws(SolverError) -> T {
        tab.budget = WorkBudget(limits: limits, pivots: tab.stats.pivots, deadline: callDeadline, progress: progress)
        defer { tab.budget = WorkBudget() }
        do {
            return try operation(&self)
        } catch {
            guard case .internalError = error, !tab.journal.isOpen else { throw SolverCore.reported(error) }
            let worn = self   // the failed call changed nothing; if the retry fails too, nothing changes either
            guard refactorize() else { throw SolverCore.reported(error) }
            do {
                return try operation(&self)
            } catch {
                self = worn
                throw SolverCore.reported(error)
            }
        }
    }

    /// The internal error of a required add that the tableau refused though a fresh solve of every required
    /// constraint connected to it holds (`conflict`): rounding, which a rebuild repairs.
    static let roundingConflict = "the tableau refused a constraint that a fresh solve accepts"

    /// The error a call reports: a refusal by rounding that a rebuild did not repair (or that came inside a
    /// transaction, where nothing is rebuilt) is reported as before, as a conflict that names no other constraint.
    static func reported(_ error: SolverError) -> SolverError {
        if case .internalError(let m) = error, m == roundingConflict { return .unsatisfiable(conflicts: []) }
        return error
    }

    /// Rebuilds the tableau from the active constraints and edits (in slot order), without the constraints
    /// `out` (left inactive), and optimises it. Handles, values, suggestions and the changed-variable list are
    /// kept; symbols, rows and levels are new. Returns false, changing nothing, when the rebuild itself fails
    /// (it cannot in exact arithmetic: the same system, or part of it, was feasible before).
    mutating func refactorize(leavingOut out: [Int] = []) -> Bool {
        // Rebuilt in place, with what a failure must put back kept aside: the old tableau, the symbols of the
        // variables and the records' tableau fields. A copy of the whole solver (`var fresh = self`) copied every
        // record (a retain and a release of its arrays) when the first one changed: a tenth of removing a large
        // container.
        var oldTab = Tableau()
        swap(&oldTab, &tab)
        let oldVarSym = varSym
        let oldState = (explainsConflicts, needsOptimize, addsSinceUpdate, pivotsSinceUpdate, deferring, levelCollectAt)
        var oldFields: [(slot: Int32, active: Bool, fields: (marker: Sym, other: Sym, markerCoef: Double, level: LevelID))] = []
        oldFields.reserveCapacity(liveConstraints)
        tab.stats = oldTab.stats
        tab.stats.refactorizations += 1
        tab.rowOrderMinimum = oldTab.rowOrderMinimum
        tab.renumberingCostFactor = oldTab.renumberingCostFactor
        for slot in varSym.indices where varLive[slot] {
            varSym[slot] = tab.newSymbol(.external, owner: Int32(slot))
        }
        var active: [Int] = []
        for slot in cons.indices where cons[slot].live {
            oldFields.append((Int32(slot), cons[slot].active, cons[slot].tableauFields))
            if cons[slot].active { active.append(slot) }
            // Symbols, levels and rows of the old tableau mean nothing in the new one, active or not.
            cons[slot].active = false
            cons[slot].marker = .none
            cons[slot].other = .none
            cons[slot].level = .none
        }
        if !out.isEmpty {
            var leaving = [Bool](repeating: false, count: cons.count)
            for slot in out { leaving[slot] = true }
            active.removeAll { leaving[$0] }
        }
        // The system was feasible: an insert that fails here is rounding, and explaining it as a conflict
        // (a deletion filter over scratch solvers) would only cost time.
        explainsConflicts = false
        needsOptimize = false
        addsSinceUpdate = 0
        pivotsSinceUpdate = 0
        deferring = false
        levelCollectAt = 16
        var failed = false
        do throws(SolverError) {
            for slot in active { try insert(slot) }
            needsOptimize = false
            try tab.optimize()
        } catch {
            failed = true
        }
        if failed {
            swap(&oldTab, &tab)
            varSym = oldVarSym
            for f in oldFields {
                cons[Int(f.slot)].active = f.active
                cons[Int(f.slot)].tableauFields = f.fields
            }
            (explainsConflicts, needsOptimize, addsSinceUpdate, pivotsSinceUpdate, deferring, levelCollectAt) = oldState
            return false
        }
        addsSinceUpdate = 0
        pivotsSinceUpdate = 0
        deferring = false
        explainsConflicts = oldState.0
        return true
    }

    /// Checks, after an update, that the required constraints hold with the values just computed, and rebuilds
    /// the tableau when one is off by more than `Tolerance.drift` of its largest term: every pivot leaves
    /// rounding residue in the rows, and on badly scaled coefficients (0.1 beside 10 is enough) it adds up to
    /// visible errors over thousands of calls. The rebuilt tableau is kept only if it does better (a fresh
    /// factorisation of an ill-conditioned system can be worse than the worn one); either way the drift found
    /// becomes the floor, and the next rebuild waits until the drift grows tenfold past it. The check is a
    /// pass over the required constraints, so it runs once the tableau has pivoted at least as many times as
    /// it has rows since the last one (its cost stays below theirs). Returns true when it rebuilt (and copied
    /// the values again).
    @discardableResult
    mutating func repairDrift() -> Bool {
        let pivots = tab.stats.pivots
        guard !tab.journal.isOpen, pivots - driftCheckedAt >= max(64, tab.rows.count) else { return false }
        driftCheckedAt = pivots
        let before = worstRequiredResidual()
        guard before > max(Tolerance.drift, 10 * driftFloor) else { return false }
        let worn = self
        guard refactorize() else { driftFloor = before; return false }
        copyValues()
        let after = worstRequiredResidual()
        if after >= before {
            self = worn
            driftFloor = before
            driftCheckedAt = pivots
            return false
        }
        tab.stats.driftRepairs += 1
        driftFloor = after
        driftCheckedAt = tab.stats.pivots
        return true
    }

    /// The largest violation of an active required constraint by `varValue`, relative to its largest term
    /// (or 1).
    func worstRequiredResidual() -> Double {
        var worst = 0.0
        for rec in cons where rec.live && rec.active && rec.isRequired {
            var r = rec.constant
            var scale = max(1, abs(rec.constant))
            for i in rec.terms.indices {
                let t = rec.terms[i].coef * varValue[Int(rec.terms[i].v)]
                r += t
                scale = max(scale, abs(t))
            }
            let off: Double
            switch rec.relation {
            case .equal: off = abs(r)
            case .lessOrEqual: off = max(0, r)
            case .greaterOrEqual: off = max(0, -r)
            }
            worst = max(worst, off / scale)
        }
        return worst
    }
}
