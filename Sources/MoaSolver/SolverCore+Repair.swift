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
            guard case .internalError = error, !tab.journal.isOpen else { throw error }
            let worn = self   // the failed call changed nothing; if the retry fails too, nothing changes either
            guard refactorize() else { throw error }
            do {
                return try operation(&self)
            } catch {
                self = worn
                throw error
            }
        }
    }

    /// Rebuilds the tableau from the active constraints and edits (in slot order), without the constraints
    /// `out` (left inactive), and optimises it. Handles, values, suggestions and the changed-variable list are
    /// kept; symbols, rows and levels are new. Returns false, changing nothing, when the rebuild itself fails
    /// (it cannot in exact arithmetic: the same system, or part of it, was feasible before).
    mutating func refactorize(leavingOut out: [Int] = []) -> Bool {
        var fresh = self
        for slot in out { fresh.cons[slot].active = false }   // the one copy of the records
        fresh.tab = Tableau()
        fresh.tab.stats = tab.stats
        fresh.tab.stats.refactorizations += 1
        for slot in varSym.indices where varLive[slot] {
            fresh.varSym[slot] = fresh.tab.newSymbol(.external, owner: Int32(slot))
        }
        var active: [Int] = []
        for slot in cons.indices where cons[slot].live {
            if fresh.cons[slot].active { active.append(slot) }
            // Symbols, levels and rows of the old tableau mean nothing in the new one, active or not.
            fresh.cons[slot].active = false
            fresh.cons[slot].marker = .none
            fresh.cons[slot].other = .none
            fresh.cons[slot].level = .none
        }
        // The system was feasible: an insert that fails here is rounding, and explaining it as a conflict
        // (a deletion filter over scratch solvers) would only cost time.
        fresh.explainsConflicts = false
        fresh.needsOptimize = false
        fresh.addsSinceUpdate = 0
        fresh.pivotsSinceUpdate = 0
        fresh.deferring = false
        fresh.levelCollectAt = 16
        do throws(SolverError) {
            for slot in active { try fresh.insert(slot) }
            fresh.needsOptimize = false
            try fresh.tab.optimize()
        } catch {
            return false
        }
        fresh.addsSinceUpdate = 0
        fresh.pivotsSinceUpdate = 0
        fresh.deferring = false
        fresh.explainsConflicts = explainsConflicts
        self = fresh
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
            for i in rec.vars.indices {
                let t = rec.coefs[i] * varValue[Int(rec.vars[i])]
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
