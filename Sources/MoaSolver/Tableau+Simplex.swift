// Moa — the simplex on the tableau: the lexicographic objective, pivoting, phase one, primal and dual simplex.

extension Tableau {
    // MARK: - Objective

    /// The sign of a symbol's lexicographic objective coefficient: -1, 0 or +1.
    func lexSign(_ s: Sym) -> Int {
        for l in levelOrder {
            let c = levels[l].coef[s]
            if c < -Tolerance.objectiveEpsilon { return -1 }
            if c > Tolerance.objectiveEpsilon { return 1 }
        }
        return 0
    }

    /// Zeroes the objective coefficients of entering symbol `s` that `lexSign` counted as 0 (below
    /// `objectiveEpsilon`, at levels above the one that decided). Left in, the pivot would divide them by its
    /// element and hand them to the leaving symbol, where they can pass the threshold: that symbol then enters
    /// back to "improve" the higher level and the two swap forever (a random sequence with nice numbers did:
    /// 7.4e-8 at a higher level became -1.5e-7 after a pivot on 0.5). Dropping them changes the objective by less
    /// than the tolerance the choice already used.
    mutating func dropIgnoredCoefficients(_ s: Sym) {
        for l in levelOrder {
            let c = levels[l].coef[s]
            if abs(c) > Tolerance.objectiveEpsilon { return }
            if c != 0 { objAdd(l, s, -c) }
        }
    }

    /// The direction in which increasing a non-basic symbol improves the objective: +1, -1 (externals only) or 0.
    func improvingDirection(_ s: Sym) -> Int {
        switch kind[s] {
        case .dummy, .unused: return 0
        case .external: return -lexSign(s)
        case .slack, .error: return lexSign(s) < 0 ? 1 : 0
        }
    }

    mutating func objAdd(_ l: LevelID, _ s: Sym, _ delta: Double) {
        let old = levels[l].coef[s]
        var v = old + delta
        if abs(v) < Tolerance.coefEpsilon { v = 0 }
        if journal.isOpen {
            journal.objective.append((l, s, old))
            if journal.objective.count > journal.objectiveCompactAt { journal.compactObjective() }
        }
        levels[l].coef[s] = v
        noteObjectiveChange(s)
    }

    /// Lists `s` as a candidate after one of its objective coefficients moved, whether or not it improves now:
    /// `popCandidate` looks once, where a look here would be one per level and per pivot that moves it (the dual
    /// simplex's pivots keep every symbol from improving).
    @inline(__always) mutating func noteObjectiveChange(_ s: Sym) {
        if !isCandidate[s] && !rowOf[s].isValid {
            isCandidate[s] = true
            pushCandidate(s)
        }
    }

    /// `objAdd(l, s, factor * c)` for each cell (s, c) of the pivot scratch (`loadPivot`): the level's
    /// coefficients moved out into a local for the loop, as `mergePivot` does with a row (a wide pivot row made
    /// the nested arrays' uniqueness checks a tenth of a jump across a row of 400 boxes).
    mutating func objAddPivot(_ l: LevelID, _ factor: Double) {
        var coef: [Double] = []
        swap(&coef, &levels[l].coef)
        let journaling = journal.isOpen
        coef.withUnsafeMutableBufferPointer { coef in
            for j in scratch.pivotSyms.indices {
                let s = scratch.pivotSyms[j]
                let old = coef[s.index]
                var v = old + factor * scratch.pivotCoefs[j]
                if abs(v) < Tolerance.coefEpsilon { v = 0 }
                if journaling { journal.objective.append((l, s, old)) }
                coef[s.index] = v
                noteObjectiveChange(s)
            }
        }
        swap(&coef, &levels[l].coef)
        if journaling && journal.objective.count > journal.objectiveCompactAt { journal.compactObjective() }
    }

    /// objective[l] += factor * row r (constant and terms).
    mutating func objAddRow(_ l: LevelID, _ r: RowID, _ factor: Double) {
        levels[l].constant += factor * rows[r].constant
        for c in rows[r].cells { objAdd(l, c.sym, factor * c.coef) }
    }

    mutating func level(for priority: Double) -> LevelID {
        for l in levels.indices where levels[l].priority == priority { return LevelID(l) }
        levels.append(Level(priority: priority, coef: [Double](repeating: 0, count: kind.count)))
        let id = LevelID(levels.count - 1)
        let at = levelOrder.firstIndex { levels[$0].priority < priority } ?? levelOrder.count
        levelOrder.insert(id, at: at)
        return id
    }

    // MARK: - Pivoting

    /// Makes `entering` basic in row `r` (whose basic symbol leaves) and substitutes it everywhere else.
    mutating func pivot(_ r: RowID, entering: Sym) {
        stats.pivots += 1
        stats.pivotsByKind[stats.pivotKind] += 1
        touch(r)
        let leaving = rows[r].basic
        guard let i = cellIndex(r, entering) else { return }
        let a = rows[r].cells[i].coef
        removeCell(r, i)
        let f = -1 / a
        rows[r].constant = Tableau.clean(rows[r].constant * f)
        for j in rows[r].cells.indices { rows[r].cells[j].coef *= f }
        cellEpoch &+= 1
        if leaving.isValid {
            rowOf[leaving] = .none
            appendCell(r, leaving, 1 / a)
        }
        rows[r].basic = entering
        rowOf[entering] = r
        evaluation.invalidate()
        substitute(entering, r)
        if leaving.isValid, !isCandidate[leaving], improvingDirection(leaving) != 0 {
            isCandidate[leaving] = true
            pushCandidate(leaving)
        }
    }

    /// Replaces the non-basic symbol `s` by row `r`'s right-hand side in every other row and the objectives.
    mutating func substitute(_ s: Sym, _ r: RowID) {
        loadPivot(r)
        let k = rows[r].constant
        while let ref = cols.last(s) {
            let rr = ref.row
            touch(rr)
            let c = rows[rr].cells[Int(ref.cell)].coef
            removeCell(rr, Int(ref.cell))
            rows[rr].constant = Tableau.clean(rows[rr].constant + c * k)
            mergePivot(into: rr, factor: c)
            let b = rows[rr].basic
            if b.isValid && kind[b] != .external && rows[rr].constant < 0 { infeasible.append(b) }
        }
        for l in levels.indices {
            let d = levels[l].coef[s]
            if d == 0 { continue }
            objAdd(LevelID(l), s, -d)
            levels[l].constant += d * k
            objAddPivot(LevelID(l), d)
        }
        if phaseOne.isActive, phaseOne.index[s] >= 0 {
            let i = Int(phaseOne.index[s])
            let d = phaseOne.coefs[i]
            removeArtificialTerm(i)
            phaseOne.constant += d * k
            for j in scratch.pivotSyms.indices { artAdd(scratch.pivotSyms[j], d * scratch.pivotCoefs[j]) }
        }
    }

    /// Phase one's objective starts as row `r` (whose basic symbol is the artificial variable).
    mutating func startArtificial(_ r: RowID) {
        phaseOne.isActive = true
        phaseOne.syms.removeAll(keepingCapacity: true)
        phaseOne.coefs.removeAll(keepingCapacity: true)
        for c in rows[r].cells {
            phaseOne.index[c.sym] = Int32(phaseOne.syms.count)
            phaseOne.syms.append(c.sym); phaseOne.coefs.append(c.coef)
        }
        phaseOne.constant = rows[r].constant
    }

    /// Ends phase one; `phaseOne.syms` keeps the final objective's symbols (the certificate of a failure).
    mutating func stopArtificial() {
        for s in phaseOne.syms where s.index < phaseOne.index.count { phaseOne.index[s] = -1 }
        phaseOne.isActive = false
    }

    /// Swap-removes a term of the artificial objective (its order does not matter: the entering choice takes
    /// the lowest id).
    mutating func removeArtificialTerm(_ i: Int) {
        phaseOne.index[phaseOne.syms[i]] = -1
        let last = phaseOne.syms.count - 1
        if i < last { phaseOne.index[phaseOne.syms[last]] = Int32(i) }
        phaseOne.syms.swapAt(i, last); phaseOne.syms.removeLast()
        phaseOne.coefs.swapAt(i, last); phaseOne.coefs.removeLast()
    }

    mutating func artAdd(_ s: Sym, _ delta: Double) {
        let i = Int(phaseOne.index[s])
        if i >= 0 {
            let v = phaseOne.coefs[i] + delta
            if abs(v) < Tolerance.coefEpsilon { removeArtificialTerm(i) } else { phaseOne.coefs[i] = v }
        } else if abs(delta) >= Tolerance.coefEpsilon {
            phaseOne.index[s] = Int32(phaseOne.syms.count)
            phaseOne.syms.append(s); phaseOne.coefs.append(delta)
        }
    }

    /// Whether non-basic `s` can take the value `value` (>= 0) with every restricted row holding it (but `skip`)
    /// staying feasible.
    func canEnter(_ s: Sym, upTo value: Double, besides skip: RowID) -> Bool {
        for ref in cols[s] where ref.row != skip {
            let k = kind[rows[ref.row].basic]
            guard k == .slack || k == .error else {
                if k == .dummy { return false }
                continue
            }
            let c = rows[ref.row].cells[Int(ref.cell)].coef
            if rows[ref.row].constant + c * value < -Tolerance.constantEpsilon { return false }
        }
        return true
    }

    /// The row to leave when `entering` moves in `direction`: the restricted row that first hits zero.
    ///
    /// Pivot elements below `pivotEpsilon` are ignored (a pivot on rounding noise blows the row up), and among
    /// rows that tie on the ratio `betterTie` decides; with `bland`, the lowest basic id alone (Bland's rule
    /// needs its leaving half too: with the entering half only, a run of degenerate pivots could still cycle,
    /// and did on a 60-step random sequence).
    func leavingRow(for entering: Sym, direction: Int, bland: Bool = false) -> RowID? {
        leavingRow(for: entering, direction: direction, minimumPivot: Tolerance.pivotEpsilon, bland: bland)
    }

    func leavingRow(for entering: Sym, direction: Int, minimumPivot: Double, bland: Bool = false) -> RowID? {
        var best: RowID? = nil
        var bestRatio = Double.infinity
        var bestBasic = Sym(Int32.max)
        var bestMagnitude = 0.0
        var bestLength = Int.max
        // Fields are read through `rows[...]` one at a time: a copy of the row would retain its cells.
        for ref in cols[entering] {
            let b = rows[ref.row].basic
            if !b.isValid || kind[b] == .external { continue }
            let c = rows[ref.row].cells[Int(ref.cell)].coef
            if abs(c) <= minimumPivot && minimumPivot > 0 { continue }
            let ratio: Double
            if direction > 0 {
                if c >= 0 { continue }
                ratio = -rows[ref.row].constant / c
            } else {
                if c <= 0 { continue }
                ratio = rows[ref.row].constant / c
            }
            let magnitude = abs(c)
            let length = rows[ref.row].cells.count
            let wins = bland ? b < bestBasic
                : Tableau.betterTie(magnitude, length, b, than: bestMagnitude, bestLength, bestBasic)
            if ratio < bestRatio || (ratio == bestRatio && wins) {
                best = ref.row; bestRatio = ratio; bestBasic = b; bestMagnitude = magnitude; bestLength = length
            }
        }
        return best
    }

    /// Among leaving rows that tie on the ratio: a pivot element ten times larger wins (stability), otherwise
    /// the shorter row (the pivot substitutes it into every row of the entering column: less work, less fill,
    /// Markowitz's idea again), then the larger element, then the lowest basic id.
    @inline(__always)
    static func betterTie(_ magnitude: Double, _ length: Int, _ basic: Sym,
                          than bestMagnitude: Double, _ bestLength: Int, _ bestBasic: Sym) -> Bool {
        if magnitude > 10 * bestMagnitude { return true }
        if bestMagnitude > 10 * magnitude { return false }
        if length != bestLength { return length < bestLength }
        if magnitude != bestMagnitude { return magnitude > bestMagnitude }
        return basic < bestBasic
    }

    /// Forgets the listed candidates without a look at their objective coefficients. For a dual simplex that
    /// began at an optimum (nothing listed) and whose call is committed: its pivots keep every level optimal, so
    /// what they listed improves nothing, and the next optimisation would look at each (a resize of 10k
    /// wrapping labels listed 25,775 symbols, about 140 ns a look at 100k views: cache misses on every level).
    mutating func dropCandidates() {
        for s in candidates { isCandidate[s] = false }
        candidates.removeAll(keepingCapacity: true)
        candidatesByID = false
    }

    mutating func pushCandidate(_ s: Sym) {
        candidates.append(s)
        if candidatesByID { siftUpCandidate(candidates.count - 1) }
    }

    /// Orders `candidates` as a binary min-heap by id, for Bland's rule (`popCandidate(bland: true)` then takes
    /// the lowest id in O(log n), not by a look at every candidate); `pushCandidate` keeps the order until
    /// `candidatesByID` is cleared.
    mutating func orderCandidatesByID() {
        candidatesByID = true
        var i = candidates.count / 2
        while i > 0 { i -= 1; siftDownCandidate(i) }
    }

    private mutating func siftUpCandidate(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard candidates[i] < candidates[parent] else { return }
            candidates.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDownCandidate(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < candidates.count && candidates[l] < candidates[m] { m = l }
            if r < candidates.count && candidates[r] < candidates[m] { m = r }
            if m == i { return }
            candidates.swapAt(i, m)
            i = m
        }
    }

    /// The root of the heap of candidates (`orderCandidatesByID`), removed.
    private mutating func popLowestCandidate() -> Sym {
        let s = candidates[0]
        candidates[0] = candidates[candidates.count - 1]
        candidates.removeLast()
        if !candidates.isEmpty { siftDownCandidate(0) }
        return s
    }

    /// Takes the entering symbol out of the candidates: among those that improve the objective, the one in the
    /// fewest rows (the pivot rewrites the fewest rows and fills in least: Markowitz's idea), ties to the lowest
    /// id. With `bland` it is the lowest id (Bland's rule), which cannot cycle: the candidates are then a heap by
    /// id (`orderCandidatesByID`), since a compressed chain of 10,000 views ran most of its build under Bland's
    /// rule with thousands of candidates improving, and a look at every one before each pivot made it
    /// quadratic. Either way the choice does not depend on the order in which cells or candidates happen to be
    /// stored. Candidates that no longer improve are dropped as they are met.
    mutating func popCandidate(bland: Bool) -> Sym? {
        if bland {
            if !candidatesByID { orderCandidatesByID() }
            while !candidates.isEmpty {
                let s = popLowestCandidate()
                isCandidate[s] = false
                stats.candidateLooks += 1
                if !rowOf[s].isValid && improvingDirection(s) != 0 { return s }
            }
            return nil
        }
        var best = -1
        var bestLen = Int.max
        var i = 0
        while i < candidates.count {
            let s = candidates[i]
            stats.candidateLooks += 1
            if rowOf[s].isValid || improvingDirection(s) == 0 {
                isCandidate[s] = false
                candidates[i] = candidates[candidates.count - 1]
                candidates.removeLast()
                continue
            }
            let len = cols.count(s)
            if best < 0 || len < bestLen || (len == bestLen && s < candidates[best]) { best = i; bestLen = len }
            i += 1
        }
        guard best >= 0 else { return nil }
        let s = candidates[best]
        candidates[best] = candidates[candidates.count - 1]
        candidates.removeLast()
        isCandidate[s] = false
        return s
    }

    /// Consecutive degenerate pivots (the objective does not move) after which the entering choice falls back
    /// to Bland's rule for the rest of the call: only degenerate pivots can cycle.
    static let blandAfter = 50
    /// Pivots of one dual simplex after which its leaving choice follows Bland's rule (see `dualOptimize`).
    static let dualBlandAfter = 1000

    /// A bound on pivots per call: far above what a layout needs (about one per row), low enough that a cycle
    /// caused by rounding ends in an error rather than a hang of the host.
    var iterationLimit: Int { 100 * (rows.count + kind.count) + 10_000 }

    /// Checks the call's budget before a pivot of a simplex loop: throws `.limit` when it is spent (the caller
    /// undoes the call as for any failure).
    @inline(__always) mutating func spend() throws(SolverError) {
        if stats.pivots >= budget.nextCheck { try budget.check(pivots: stats.pivots) }
    }

    /// Primal simplex on the lexicographic objective, from the candidate queue.
    mutating func optimize() throws(SolverError) {
        stats.pivotKind = 1; defer { stats.pivotKind = 0; candidatesByID = false }
        var guardCount = 0
        var degenerate = 0
        while let s = popCandidate(bland: degenerate >= Tableau.blandAfter) {
            let dir = improvingDirection(s)
            guard let r = leavingRow(for: s, direction: dir, bland: degenerate >= Tableau.blandAfter) else {
                // The objective (a sum of non-negative errors) is bounded, so a symbol that improves it without
                // limit carries rounding noise: drop the noise; a real coefficient is an internal error.
                var noise = false
                for l in levels.indices where abs(levels[l].coef[s]) < Tolerance.objectiveNoise {
                    if levels[l].coef[s] != 0 { objAdd(LevelID(l), s, -levels[l].coef[s]); noise = true }
                }
                if noise { continue }
                throw .internalError("the objective is unbounded")
            }
            if degenerate < Tableau.blandAfter {
                degenerate = abs(rows[r].constant) <= Tolerance.constantEpsilon ? degenerate + 1 : 0
            }
            do throws(SolverError) { try spend() } catch {
                // `s` still improves the objective: it stays a candidate for whatever optimises next.
                if !isCandidate[s] { isCandidate[s] = true; pushCandidate(s) }
                throw error
            }
            dropIgnoredCoefficients(s)
            pivot(r, entering: s)
            guardCount += 1
            if guardCount > iterationLimit { throw .internalError("the simplex did not terminate") }
        }
    }

    /// Phase one: minimises the artificial objective. Returns its final value.
    mutating func optimizeArtificial() throws(SolverError) {
        stats.pivotKind = 2; defer { stats.pivotKind = 0 }
        var guardCount = 0
        var degenerate = 0
        while true {
            // Markowitz as in `popCandidate` (fewest rows to rewrite), Bland's lowest id after a run of
            // degenerate pivots.
            let bland = degenerate >= Tableau.blandAfter
            var entering = Sym.none
            var enteringLen = Int.max
            var dir = 0
            for i in phaseOne.syms.indices {
                let s = phaseOne.syms[i], c = phaseOne.coefs[i]
                let k = kind[s]
                if k == .dummy { continue }
                let d: Int
                if c < -Tolerance.coefEpsilon { d = 1 } else if k == .external && c > Tolerance.coefEpsilon { d = -1 } else { continue }
                let len = bland ? 0 : cols.count(s)
                if !entering.isValid || len < enteringLen || (len == enteringLen && s < entering) {
                    entering = s; dir = d; enteringLen = len
                }
            }
            if !entering.isValid { return }
            guard let r = leavingRow(for: entering, direction: dir, bland: bland) else {
                // As in `optimize`: the artificial objective is bounded below by 0, so a coefficient that
                // improves it without limit is rounding noise (a random sequence with nice numbers left
                // -9.5e-9 where the exact value is 0): drop it.
                let i = Int(phaseOne.index[entering])
                if abs(phaseOne.coefs[i]) < Tolerance.objectiveNoise { removeArtificialTerm(i); continue }
                throw .internalError("the artificial objective is unbounded")
            }
            if !bland { degenerate = abs(rows[r].constant) <= Tolerance.constantEpsilon ? degenerate + 1 : 0 }
            try spend()
            pivot(r, entering: entering)
            guardCount += 1
            if guardCount > iterationLimit { throw .internalError("phase one did not terminate") }
        }
    }

    /// Lexicographic comparison of objective(s1)/c1 and objective(s2)/c2.
    func lexRatioLess(_ s1: Sym, _ c1: Double, _ s2: Sym, _ c2: Double) -> Bool {
        for l in levelOrder {
            let a = levels[l].coef[s1] / c1
            let b = levels[l].coef[s2] / c2
            if a < b - Tolerance.objectiveEpsilon { return true }
            if a > b + Tolerance.objectiveEpsilon { return false }
        }
        return s1 < s2
    }

    /// Whether making restricted symbol `c` basic in row `r` (being placed: `0 = constant + cells`, `c`'s
    /// coefficient negative) leaves every objective level optimal: each other restricted symbol of the row keeps
    /// a cost that is not negative (lexicographically) once `c`'s cost is carried onto it. Rows then driven
    /// negative are the dual simplex's to repair. False when the row holds an external symbol.
    func keepsOptimal(basic c: Sym, in r: RowID) -> Bool {
        guard let i = cellIndex(r, c) else { return false }
        let a = -rows[r].cells[i].coef
        guard a > 0 else { return false }
        for cell in rows[r].cells where cell.sym != c {
            switch kind[cell.sym] {
            case .dummy: continue
            case .slack, .error: break
            case .external, .unused: return false
            }
            for l in levelOrder {
                let v = levels[l].coef[cell.sym] + levels[l].coef[c] * cell.coef / a
                if v < -Tolerance.objectiveEpsilon { return false }
                if v > Tolerance.objectiveEpsilon { break }
            }
        }
        return true
    }

    /// Dual simplex: restores feasibility of the rows in `infeasible`. Returns the row that cannot be made
    /// feasible (a required conflict), or nil. Throws `.limit` when the call's budget is spent.
    mutating func dualOptimize() throws(SolverError) -> RowID? {
        stats.pivotKind = 3; defer { stats.pivotKind = 0 }
        var guardCount = 0
        // A long run of pivots (a cycle on degenerate rows) re-lists rows without end: past `dualBlandAfter`
        // pivots (or four per row) the list drops its repeats as it grows, and the leaving row is the infeasible
        // one with the lowest basic (Bland's rule, with the entering tie-break by symbol id in `lexRatioLess`),
        // so the dual simplex cannot cycle (an `ambiguities()` probe ran ~100,000 pivots).
        let blandAfter = max(Tableau.dualBlandAfter, 4 * rows.count)
        while var leaving = infeasible.popLast() {
            guardCount += 1
            if guardCount > blandAfter {
                infeasible.append(leaving)
                if infeasible.count > 2 * rows.count + 64 {
                    infeasible.sort()
                    var unique = 0
                    for i in infeasible.indices where i == 0 || infeasible[i] != infeasible[i - 1] {
                        infeasible[unique] = infeasible[i]
                        unique += 1
                    }
                    infeasible.removeLast(infeasible.count - unique)
                }
                var m = 0
                for i in infeasible.indices where infeasible[i] < infeasible[m] { m = i }
                leaving = infeasible[m]
                infeasible.swapAt(m, infeasible.count - 1)
                infeasible.removeLast()
            }
            if guardCount > iterationLimit {
                // Rounding made the dual simplex cycle: report the row instead of hanging the host.
                infeasible.removeAll()
                return rowOf[leaving].isValid ? rowOf[leaving] : nil
            }
            let r = rowOf[leaving]
            if !r.isValid || rows[r].constant >= 0 { continue }
            var entering = Sym.none
            var enteringCoef = 0.0
            for c in rows[r].cells where c.coef > Tolerance.pivotEpsilon && kind[c.sym] != .dummy {
                if !entering.isValid || lexRatioLess(c.sym, c.coef, entering, enteringCoef) {
                    entering = c.sym; enteringCoef = c.coef
                }
            }
            if !entering.isValid {
                infeasible.removeAll()
                return r
            }
            do throws(SolverError) { try spend() } catch { infeasible.removeAll(); throw error }
            pivot(r, entering: entering)
        }
        return nil
    }
}
