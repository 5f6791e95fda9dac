// Moa — the incremental Cassowary-style solver with strict priorities.

/// What the solver keeps for each constraint.
/// A constraint's marker symbols (`marker`, and `other` for a soft one), or the symbols `makeMarkers` made;
/// `.none` where there is none.
struct MarkerPair {
    var first: Sym
    var second: Sym
}

/// A term of a constraint as given: a variable slot and its coefficient (a record keeps one array of them: one
/// block to make and free per constraint, not two).
struct RecordTerm {
    var v: Int32
    var coef: Double
}

struct ConstraintRecord {
    var generation: UInt32 = 0
    var live = false
    var active = false
    var isEdit = false
    var terms: [RecordTerm] = []    // merged: each variable slot at most once
    var constant: Double = 0
    var relation: Relation = .equal
    var priority: Double = Priority.required
    var weight: Double = 1
    var tag: String = ""
    // Tableau symbols while active
    var marker: Sym = .none
    var other: Sym = .none
    var markerCoef: Double = 1      // the marker's coefficient in the constraint's own row, before any sign flip
    var level: LevelID = .none

    var isRequired: Bool { priority >= Priority.required }

    /// The fields an insert sets (its markers and level), to put back when the insert fails.
    var tableauFields: (marker: Sym, other: Sym, markerCoef: Double, level: LevelID) {
        get { (marker, other, markerCoef, level) }
        set { (marker, other, markerCoef, level) = newValue }
    }
}

/// The solver's state and algorithms, kept in one struct so that a public call makes one exclusive access
/// (per-property dynamic exclusivity checks on a class cost half the time of a suggest). `Solver` wraps it.
struct SolverCore {
    var tab = Tableau()

    // Variables, by slot
    var varSym: [Sym] = []
    var varGeneration: [UInt32] = []
    var varLive: [Bool] = []
    var varName: [String] = []
    var varUses: [Int32] = []
    var varValue: [Double] = []
    var varEdit: [Int32] = []           // the edit constraint's slot, or -1
    var varChanged: [Bool] = []         // listed in `changedSlots`
    var changedSlots: [Int32] = []      // variables whose value changed since `takeChangedVariables()`
    var termIndex: [Int32] = []         // scratch of `makeRecord`: by variable slot, its term's index + 1, or 0
    var freeVarSlots: [Int32] = []
    var liveVariables = 0

    // Constraints, by slot
    var cons: [ConstraintRecord] = []
    /// Names constraints added without a tag, in dumps and descriptions (see `Solver.tagProvider`).
    var tagProvider: ((Constraint) -> String)?
    var freeConsSlots: [Int32] = []
    var liveConstraints = 0

    /// Whether a failed required add computes a minimal conflict set (scratch solvers used for that don't).
    var explainsConflicts = true
    /// Deferred re-optimisation after adds (see `optimizeAfterAdd`).
    var limits = SolverLimits()
    /// A deadline from outside for the calls being made (`monotonicSeconds()`; 0: none): a layout's time limit
    /// covers the solver calls it makes (`Solver.callDeadline`).
    var callDeadline = 0.0
    /// Called between pivots inside a call (`Solver.setProgressCheck`); nil: none.
    var progress: ProgressCheck?
    /// Whether a call may be stopped before its end (a pivot or time limit, a deadline, a progress check): its
    /// adds are then journaled and never deferred, so that a stopped call leaves the tableau as it was.
    var workIsBounded: Bool { limits.boundsWork || callDeadline > 0 || progress != nil }
    /// Work buffers of `changeConstants` (the old constants, the rows shifted), empty between calls.
    var constantBuffers: (saved: [Double], changed: [RowID], single: [(slot: Int, value: Double)]) = ([], [], [])
    /// `collectUnusedLevels` runs when the objective has this many priority levels (doubling after each run).
    var levelCollectAt = 16
    var needsOptimize = false
    var addsSinceUpdate = 0
    var pivotsSinceUpdate = 0
    var deferring = false
    /// A batch (`add(_: [ConstraintSpec], failure:)`) holds the tableau's transaction open: its adds still
    /// optimise or defer as adds outside one do (`optimizeAfterAdd`).
    var batchOpen = false
    /// Pivot count at the last drift check, and the drift a fresh tableau still had (`repairDrift`).
    var driftCheckedAt = 0
    var driftFloor = 0.0

    /// Creates an empty solver.
    init() {}

    mutating func reset() {
        let oldVarGenerations = varGeneration
        let oldConsGenerations = cons.map(\.generation)
        let rowOrder = (tab.rowOrderMinimum, tab.renumberingCostFactor)
        tab = Tableau()
        (tab.rowOrderMinimum, tab.renumberingCostFactor) = rowOrder
        varSym = []; varLive = []; varName = []; varUses = []; varValue = []; varEdit = []
        freeVarSlots = []; liveVariables = 0; changedSlots = []; varChanged = []
        cons = []; freeConsSlots = []; liveConstraints = 0
        needsOptimize = false; addsSinceUpdate = 0; pivotsSinceUpdate = 0; deferring = false; levelCollectAt = 16
        driftCheckedAt = 0; driftFloor = 0
        // Keep generations so that old handles stay stale.
        varGeneration = oldVarGenerations
        for _ in varGeneration.indices {
            varSym.append(.none); varLive.append(false); varName.append(""); varUses.append(0)
            varValue.append(0); varEdit.append(-1); varChanged.append(false)
        }
        freeVarSlots = (0..<Int32(varGeneration.count)).reversed()
        for g in oldConsGenerations { var r = ConstraintRecord(); r.generation = g; cons.append(r) }
        freeConsSlots = (0..<Int32(cons.count)).reversed()
    }

    // MARK: - Variables

    /// The number of live variables.
    var variableCount: Int { liveVariables }

    /// The number of live constraints (active or not), not counting edit variables.
    var constraintCount: Int { liveConstraints }

    /// See `Solver.placeRank(of:justAbove:)`.
    mutating func placeRank(of v: Variable, justAbove w: Variable) throws(SolverError) -> Bool {
        let a = try checked(v), b = try checked(w)
        return tab.placeRank(varSym[a], below: Sym(varSym[b].index + 1))
    }

    /// See `Solver.placeRank(of:justBelow:)`.
    mutating func placeRank(of v: Variable, justBelow w: Variable) throws(SolverError) -> Bool {
        let a = try checked(v), b = try checked(w)
        return tab.placeRank(varSym[a], below: varSym[b])
    }

    /// See `Solver.ranks(_:above:)`.
    mutating func ranks(_ v: Variable, above w: Variable) throws(SolverError) -> Bool {
        let a = try checked(v), b = try checked(w)
        return tab.ranksAbove(varSym[a], varSym[b])
    }

    mutating func addVariable(name: String = "") -> Variable {
        if freeVarSlots.isEmpty { growVariableSlots() }
        let slot = Int(freeVarSlots.removeLast())
        varGeneration[slot] &+= 1
        if varGeneration[slot] == 0 { varGeneration[slot] = 1 }
        varLive[slot] = true
        varName[slot] = name
        varUses[slot] = 0
        varValue[slot] = 0
        varEdit[slot] = -1
        varSym[slot] = tab.newSymbol(.external, owner: Int32(slot))
        liveVariables += 1
        return Variable(slot: slot, generation: varGeneration[slot])
    }

    /// Makes `Tableau.symbolChunk` variable slots, free, the lowest on top (as `Tableau.growSymbols`: a run per
    /// per-variable array rather than eight appends per variable).
    mutating func growVariableSlots() {
        let n = Tableau.symbolChunk, first = varSym.count
        varSym.append(contentsOf: repeatElement(.none, count: n))
        varGeneration.append(contentsOf: repeatElement(0, count: n))
        varLive.append(contentsOf: repeatElement(false, count: n))
        varName.append(contentsOf: repeatElement("", count: n))
        varUses.append(contentsOf: repeatElement(0, count: n))
        varValue.append(contentsOf: repeatElement(0, count: n))
        varEdit.append(contentsOf: repeatElement(-1, count: n))
        varChanged.append(contentsOf: repeatElement(false, count: n))
        for i in stride(from: first + n - 1, through: first, by: -1) { freeVarSlots.append(Int32(i)) }
    }

    mutating func removeVariable(_ v: Variable) throws(SolverError) {
        let slot = try checked(v)
        guard varEdit[slot] < 0 else { throw .misuse("variable '\(varName[slot])' is an edit variable") }
        guard varUses[slot] == 0 else {
            throw .misuse("variable '\(varName[slot])' is still used by \(varUses[slot]) constraint(s)")
        }
        tab.releaseSymbol(varSym[slot])
        varSym[slot] = .none
        varLive[slot] = false
        varName[slot] = ""
        freeVarSlots.append(Int32(slot))
        liveVariables -= 1
    }

    mutating func contains(_ v: Variable) -> Bool { (try? checked(v)) != nil }

    mutating func name(of v: Variable) throws(SolverError) -> String { varName[try checked(v)] }

    mutating func setName(_ name: String, of v: Variable) throws(SolverError) { varName[try checked(v)] = name }

    mutating func value(of v: Variable) throws(SolverError) -> Double { varValue[try checked(v)] }

    mutating func values(of vars: UnsafeBufferPointer<Variable>,
                         into out: UnsafeMutableBufferPointer<Double>) throws(SolverError) {
        guard out.count >= vars.count else {
            throw .invalidArgument("room for \(out.count) values, but \(vars.count) variables")
        }
        // Every handle first (a failed call writes nothing), through raw buffers: a frame reads every variable.
        let valid = varLive.withUnsafeBufferPointer { live in
            varGeneration.withUnsafeBufferPointer { generation in
                vars.allSatisfy { v in
                    let s = v.slot
                    return v.rawValue != 0 && s < live.count && live[s] && generation[s] == v.generation
                }
            }
        }
        guard valid else { throw .unknownVariable }
        varValue.withUnsafeBufferPointer { value in
            for i in vars.indices { out[i] = value[vars[i].slot] }
        }
    }

    mutating func checked(_ v: Variable) throws(SolverError) -> Int {
        let s = v.slot
        guard v.rawValue != 0, s < varLive.count, varLive[s], varGeneration[s] == v.generation else {
            throw .unknownVariable
        }
        return s
    }

    mutating func checked(_ c: Constraint) throws(SolverError) -> Int {
        let s = c.slot
        guard c.rawValue != 0, s < cons.count, cons[s].live, !cons[s].isEdit, cons[s].generation == c.generation else {
            throw .unknownConstraint
        }
        return s
    }

    mutating func handle(_ slot: Int) -> Constraint { Constraint(slot: slot, generation: cons[slot].generation) }

    // MARK: - Constraints

    @discardableResult
    mutating func add(_ expression: Expression, _ relation: Relation, priority: Double = Priority.required,
                    weight: Double = 1, tag: String = "") throws(SolverError) -> Constraint {
        try checkLimits()
        collectUnusedLevels()
        readyInsertion(of: expression)
        var rec = try makeRecord(expression, relation, priority: priority, weight: weight, tag: tag)
        rec.live = true
        let slot = allocConstraintSlot()
        rec.generation = cons[slot].generation
        let generation = rec.generation
        cons[slot] = rec
        do {
            try insertUndoably(slot)
        } catch {
            // An internal error after the row went in: take it out again so that the tableau stays consistent.
            if cons[slot].active { try? withdraw(slot) }
            cons[slot] = ConstraintRecord()
            cons[slot].generation = generation
            freeConsSlots.append(Int32(slot))
            throw error
        }
        for t in cons[slot].terms { varUses[Int(t.v)] += 1 }
        liveConstraints += 1
        return handle(slot)
    }

    /// Refuses a new row when the tableau is at a limit (`SolverLimits`): checked before anything changes.
    func checkLimits() throws(SolverError) {
        let rows = tab.rows.count - tab.freeRows.count
        if rows >= limits.maxRows {
            throw .limit("the tableau has \(rows) rows, the limit is \(limits.maxRows)")
        }
        if tab.cellCount >= limits.maxCells {
            throw .limit("the tableau has \(tab.cellCount) cells, the limit is \(limits.maxCells)")
        }
    }

    /// Drops the objective's priority levels that no active constraint uses any more, once there are
    /// `levelCollectAt` of them (then twice what is left, at least 16). Without it every priority ever used
    /// kept a level, a coefficient per symbol, and a place in every lexicographic comparison: an animated
    /// priority (a new value each frame) or a long run of random priorities grew memory and slowed every call
    /// (found by the soak test). A level nothing uses holds only rounding residue. Runs between calls only (no
    /// transaction open): it renumbers levels, which a journal or a caller might hold.
    mutating func collectUnusedLevels() {
        guard tab.levels.count >= levelCollectAt, !tab.journal.isOpen else { return }
        var used = [Bool](repeating: false, count: tab.levels.count)
        for c in cons where c.live && c.level.isValid { used[c.level.index] = true }
        var newID = [Int32](repeating: -1, count: tab.levels.count)
        var kept: [Level] = []
        for l in tab.levels.indices where used[l] {
            newID[l] = Int32(kept.count)
            kept.append(tab.levels[l])
        }
        levelCollectAt = max(16, 2 * kept.count)
        guard kept.count < tab.levels.count else { return }
        tab.levels = kept
        tab.levelOrder = tab.levelOrder.compactMap { newID[$0.index] >= 0 ? LevelID(newID[$0.index]) : nil }
        for i in cons.indices where cons[i].level.isValid { cons[i].level = LevelID(newID[cons[i].level.index]) }
    }

    /// What the solver has in use.
    var usage: SolverUsage {
        SolverUsage(rows: tab.rows.count - tab.freeRows.count, cells: tab.cellCount, variables: liveVariables,
                    constraints: liveConstraints)
    }

    mutating func makeRecord(_ e: Expression, _ relation: Relation, priority: Double, weight: Double,
                    tag: String) throws(SolverError) -> ConstraintRecord {
        guard Priority.isValid(priority) else { throw .invalidArgument("priority \(priority) is outside (0, 1000]") }
        guard weight >= Tolerance.minWeight, weight <= Tolerance.maxWeight else {
            throw .invalidArgument("weight \(weight) must be in [1e-6, 1e6]")
        }
        guard e.constant.isFinite, abs(e.constant) <= Tolerance.maxMagnitude else {
            throw .invalidArgument("constant \(e.constant) is not a finite number within ±1e12")
        }
        var rec = ConstraintRecord()
        rec.constant = e.constant
        rec.relation = relation
        rec.priority = priority
        rec.weight = weight
        rec.tag = tag
        // Terms of the same variable are merged: by a linear search in short expressions, through `termIndex`
        // in long ones (a search per term made a 40,000-term probe of `ambiguities()` quadratic).
        let indexed = e.terms.count > 16
        if indexed && termIndex.count < varSym.count {
            termIndex += [Int32](repeating: 0, count: varSym.count - termIndex.count)
        }
        defer { if indexed { for t in rec.terms { termIndex[Int(t.v)] = 0 } } }
        rec.terms.reserveCapacity(e.terms.count)
        for t in e.terms {
            let slot = Int32(try checked(t.variable))
            guard t.coefficient.isFinite, abs(t.coefficient) <= Tolerance.maxMagnitude else {
                throw .invalidArgument("coefficient \(t.coefficient) is not a finite number within ±1e12")
            }
            let i = indexed ? Int(termIndex[Int(slot)]) - 1 : rec.terms.firstIndex(where: { $0.v == slot }) ?? -1
            if i >= 0 {
                rec.terms[i].coef += t.coefficient
            } else {
                rec.terms.append(RecordTerm(v: slot, coef: t.coefficient))
                if indexed { termIndex[Int(slot)] = Int32(rec.terms.count) }
            }
        }
        return rec
    }

    mutating func allocConstraintSlot() -> Int {
        let slot: Int
        if let f = freeConsSlots.popLast() {
            slot = Int(f)
        } else {
            slot = cons.count
            cons.append(ConstraintRecord())
        }
        cons[slot].generation &+= 1
        if cons[slot].generation == 0 { cons[slot].generation = 1 }
        return slot
    }

    mutating func remove(_ c: Constraint) throws(SolverError) {
        let slot = try checked(c)
        try release(slot)
        liveConstraints -= 1
    }

    mutating func release(_ slot: Int) throws(SolverError) {
        if cons[slot].active { try withdraw(slot) }
        forget(slot)
    }

    /// The smallest batch that `remove(_: [Constraint])` may take out by rebuilding what stays.
    static let rebuildBatch = 8

    /// Frees the record of a withdrawn constraint.
    mutating func forget(_ slot: Int) {
        for t in cons[slot].terms { varUses[Int(t.v)] -= 1 }
        let g = cons[slot].generation
        cons[slot] = ConstraintRecord()
        cons[slot].generation = g
        freeConsSlots.append(Int32(slot))
    }

    /// Removes several constraints (see `Solver.remove(_:)` for an array): the ordinary rows first, then the
    /// definitions from the highest-ranked variable down, so that a definition's variable is held by no row
    /// left in the batch when it goes (`isUnusedDefinition`: dropped as it is, not activated and expanded).
    /// One transaction and one optimisation for all.
    mutating func remove(_ cs: [Constraint]) throws(SolverError) {
        var slots: [Int] = []
        slots.reserveCapacity(cs.count)
        for c in cs { slots.append(try checked(c)) }
        let sorted = slots.sorted()
        for i in sorted.indices.dropFirst() where sorted[i] == sorted[i - 1] {
            throw .invalidArgument("constraint \(cs[slots.firstIndex(of: sorted[i])!]) is listed twice")
        }
        var plain: [Int] = []
        var defining: [(subject: Sym, slot: Int)] = []
        for slot in slots where cons[slot].active {
            let p = passiveRow(slot)
            if p.isValid { defining.append((tab.rows[p].basic, slot)) } else { plain.append(slot) }
        }
        defining.sort { tab.ranksAbove($0.subject, $1.subject) }
        let order = plain + defining.map(\.slot)
        // Most of the system going (a layout's main container): building what stays costs less than taking
        // the rest down, where definitions still used inside the batch (inequalities, soft constraints: see
        // `isUnusedDefinition`) are written out first. Same optimum; with several optima, possibly another.
        if order.count >= SolverCore.rebuildBatch, order.count * 2 >= liveConstraints,   // a count, not a scan
           refactorize(leavingOut: order) {
            for slot in slots { forget(slot) }
            liveConstraints -= slots.count
            return
        }
        for (_, slot) in defining { readyWithdrawal(slot) }
        let saved = order.map { cons[$0] }
        let began = !tab.journal.isOpen
        if began { tab.begin() }
        do throws(SolverError) {
            for slot in order { try withdrawUnjournaled(slot, optimizing: false) }
            try tab.optimize()
        } catch {
            if began {
                tab.rollback()
                for (slot, rec) in zip(order, saved) { cons[slot] = rec }
            }
            throw error
        }
        if began { tab.commit() }
        for slot in slots { forget(slot) }
        liveConstraints -= slots.count
    }

    mutating func contains(_ c: Constraint) -> Bool { (try? checked(c)) != nil }

    mutating func isActive(_ c: Constraint) throws(SolverError) -> Bool { cons[try checked(c)].active }

    mutating func activate(_ c: Constraint) throws(SolverError) {
        let slot = try checked(c)
        guard !cons[slot].active else { throw .duplicateConstraint }
        try checkLimits()
        collectUnusedLevels()
        try insertUndoably(slot)
    }

    mutating func deactivate(_ c: Constraint) throws(SolverError) {
        let slot = try checked(c)
        guard cons[slot].active else { throw .misuse("constraint is not active") }
        try withdraw(slot)
    }

    mutating func constant(of c: Constraint) throws(SolverError) -> Double { cons[try checked(c)].constant }

    mutating func setConstant(_ value: Double, of c: Constraint) throws(SolverError) {
        let slot = try checked(c)
        try changeConstant(slot, to: value)
    }

    mutating func setConstants(_ changes: [(Constraint, Double)]) throws(SolverError) {
        var items: [(slot: Int, value: Double)] = []
        items.reserveCapacity(changes.count)
        for (c, value) in changes { items.append((try checked(c), value)) }
        try changeConstants(items)
    }

    mutating func priority(of c: Constraint) throws(SolverError) -> Double { cons[try checked(c)].priority }

    mutating func setPriority(_ p: Double, of c: Constraint) throws(SolverError) {
        let slot = try checked(c)
        guard Priority.isValid(p) else { throw .invalidArgument("priority \(p) is outside (0, 1000]") }
        try changeStrength(slot, priority: p, weight: cons[slot].weight)
    }

    mutating func weight(of c: Constraint) throws(SolverError) -> Double { cons[try checked(c)].weight }

    mutating func setWeight(_ w: Double, of c: Constraint) throws(SolverError) {
        let slot = try checked(c)
        guard w >= Tolerance.minWeight, w <= Tolerance.maxWeight else {
            throw .invalidArgument("weight \(w) must be in [1e-6, 1e6]")
        }
        try changeStrength(slot, priority: cons[slot].priority, weight: w)
    }

    mutating func tag(of c: Constraint) throws(SolverError) -> String { tag(try checked(c)) }

    /// The constraint's tag, or the tag provider's name for it.
    mutating func tag(_ slot: Int) -> String {
        let t = cons[slot].tag
        guard t.isEmpty, let tagProvider else { return t }
        return tagProvider(handle(slot))
    }

    mutating func expression(of c: Constraint) throws(SolverError) -> Expression {
        let r = cons[try checked(c)]
        var terms: [Term] = []
        for i in r.terms.indices {
            let v = Int(r.terms[i].v)
            terms.append(Term(Variable(slot: v, generation: varGeneration[v]), r.terms[i].coef))
        }
        return Expression(terms, constant: r.constant)
    }

    mutating func compare(_ c: Constraint, terms: [Term]) throws(SolverError) -> (sameTerms: Bool, constant: Double) {
        let slot = try checked(c)
        let n = cons[slot].terms.count
        guard n == terms.count else { return (false, cons[slot].constant) }
        for i in 0 ..< n {
            let v = Int(cons[slot].terms[i].v)
            if terms[i] != Term(Variable(slot: v, generation: varGeneration[v]), cons[slot].terms[i].coef) {
                return (false, cons[slot].constant)
            }
        }
        return (true, cons[slot].constant)
    }

    mutating func relation(of c: Constraint) throws(SolverError) -> Relation { cons[try checked(c)].relation }

    mutating func description(of c: Constraint) throws(SolverError) -> String { describe(try checked(c)) }

    // MARK: - Edit variables

    mutating func addEditVariable(_ v: Variable, priority: Double) throws(SolverError) {
        let vs = try checked(v)
        guard varEdit[vs] < 0 else { throw .duplicateEditVariable }
        guard Priority.isValid(priority), priority < Priority.required else {
            throw .invalidArgument("edit priority \(priority) must be in (0, 1000)")
        }
        try checkLimits()
        collectUnusedLevels()
        var rec = ConstraintRecord()
        rec.live = true
        rec.isEdit = true
        rec.terms = [RecordTerm(v: Int32(vs), coef: 1)]
        rec.constant = -currentValue(vs)
        rec.relation = .equal
        rec.priority = priority
        let slot = allocConstraintSlot()
        rec.generation = cons[slot].generation
        cons[slot] = rec
        do {
            try insertUndoably(slot)
        } catch {
            cons[slot] = ConstraintRecord(); cons[slot].generation = rec.generation
            freeConsSlots.append(Int32(slot))
            throw error
        }
        varEdit[vs] = Int32(slot)
    }

    mutating func removeEditVariable(_ v: Variable) throws(SolverError) {
        let vs = try checked(v)
        guard varEdit[vs] >= 0 else { throw .unknownEditVariable }
        let slot = Int(varEdit[vs])
        try withdraw(slot)
        let g = cons[slot].generation
        cons[slot] = ConstraintRecord(); cons[slot].generation = g
        freeConsSlots.append(Int32(slot))
        varEdit[vs] = -1
    }

    mutating func hasEditVariable(_ v: Variable) -> Bool {
        guard let vs = try? checked(v) else { return false }
        return varEdit[vs] >= 0
    }

    mutating func suggestValue(_ value: Double, for v: Variable) throws(SolverError) {
        let vs = try checked(v)
        guard varEdit[vs] >= 0 else { throw .unknownEditVariable }
        guard value.isFinite, abs(value) <= Tolerance.maxMagnitude else {
            throw .invalidArgument("suggested value \(value) is not a finite number within ±1e12")
        }
        try changeConstant(Int(varEdit[vs]), to: -value)
    }

    // MARK: - Values

    mutating func updateVariables() {
        copyValues()
        repairDrift()
    }

    /// Optimises, evaluates and copies the external values that changed into `varValue`.
    mutating func copyValues() {
        ensureOptimal()
        tab.evaluate()
        tab.renumberRowsIfScattered()
        if !tab.changes.evaluatedAll {
            for s in tab.changes.externals {
                let slot = Int(tab.owner[s])
                guard slot >= 0 && slot < varValue.count && varLive[slot] && varSym[slot] == s else { continue }
                setValue(slot, tab.rowOf[s].isValid ? tab.symValue[s] : 0)
            }
            return
        }
        // Every live variable, through raw buffers (`setValue` and `Tableau.value(_:)` inlined): after a full
        // pass this runs every frame of a drag.
        var listed: [Int32] = []
        swap(&listed, &changedSlots)
        defer { swap(&listed, &changedSlots) }
        varSym.withUnsafeBufferPointer { sym in
        varLive.withUnsafeBufferPointer { live in
        tab.rowOf.withUnsafeBufferPointer { rowOf in
        tab.symValue.withUnsafeBufferPointer { symValue in
        varValue.withUnsafeMutableBufferPointer { value in
        varChanged.withUnsafeMutableBufferPointer { changed in
            for slot in 0 ..< sym.count where live[slot] {
                let s = sym[slot].index
                let x = rowOf[s].isValid ? symValue[s] : 0
                guard x != value[slot] else { continue }
                value[slot] = x
                if !changed[slot] { changed[slot] = true; listed.append(Int32(slot)) }
            }
        }}}}}}
    }

    /// Stores a variable's new value; a change lists it in `changedSlots` (once).
    @inline(__always)
    mutating func setValue(_ slot: Int, _ x: Double) {
        guard x != varValue[slot] else { return }
        varValue[slot] = x
        if !varChanged[slot] { varChanged[slot] = true; changedSlots.append(Int32(slot)) }
    }

    /// What `takeChangedVariables()` would return, leaving the list as it is.
    func changedVariablesSoFar() -> [Variable] {
        var out: [Variable] = []
        out.reserveCapacity(changedSlots.count)
        for s in changedSlots where varLive[Int(s)] { out.append(Variable(slot: Int(s), generation: varGeneration[Int(s)])) }
        return out
    }

    /// The live variables whose value changed since the last call, each once; the list starts again empty.
    mutating func takeChangedVariables() -> [Variable] {
        let out = changedVariablesSoFar()
        forgetChangedVariables()
        return out
    }

    /// Empties the list of changed variables.
    mutating func forgetChangedVariables() {
        for s in changedSlots { varChanged[Int(s)] = false }
        changedSlots.removeAll(keepingCapacity: true)
    }

    /// The live variables that depend on a non-basic symbol whose objective coefficient is zero at every level
    /// ("costless"): only they can move without breaking a constraint or worsening a priority level (any other
    /// move changes the lexicographic objective, every other reduced cost being positive at the optimum).
    /// `moved` are those that the costless symbols no row stops alone, moved together a step that keeps every
    /// row feasible, were seen to change: ambiguous for certain. `maybe` are the others, a superset of the
    /// remaining ambiguous variables (a degenerate row, at 0, may stop a symbol alone where a combination of
    /// symbols could move).
    ///
    /// - Complexity: time proportional to what depends on costless symbols (twice). Only when a passive row
    ///   that is not an external's would move is each symbol's downstream walked alone, within a budget of 64
    ///   times the tableau's cells and rows plus 10 million; what the budget leaves out stays in `maybe`.
    mutating func freeDirections() -> (moved: [Variable], maybe: [Variable]) {
        ensureOptimal()
        // The non-basic symbols with no objective cost (dummies never move).
        var isZero = [Bool](repeating: false, count: tab.kind.count)
        var zero: [Sym] = []
        for i in tab.kind.indices {
            let s = Sym(Int32(i))
            switch tab.kind[s] {
            case .dummy, .unused: continue
            case .external, .slack, .error: break
            }
            guard !tab.rowOf[s].isValid, tab.lexSign(s) == 0 else { continue }
            isZero[i] = true
            zero.append(s)
        }
        /// Whether moving `s` by `d` (+1 or -1) breaks a row that must stay as it is (a restricted row at 0 going
        /// negative, a dummy row leaving 0) with no other costless symbol in that row able to make up for it. A
        /// symbol in a feasible costless direction is never blocked so (its partners are costless too), so
        /// skipping blocked ones keeps every variable that can move.
        func blocked(_ s: Sym, _ d: Double) -> Bool {
            for ref in tab.cols[s] {
                let row = tab.rows[ref.row]
                let change = row.cells[Int(ref.cell)].coef * d
                let k = tab.kind[row.basic]
                let mustHold: Bool
                switch k {
                case .dummy: mustHold = abs(change) > Tolerance.coefEpsilon
                case .slack, .error: mustHold = abs(row.constant) <= Tolerance.constantEpsilon && change < 0
                case .external, .unused: mustHold = false
                }
                guard mustHold else { continue }
                let partner = row.cells.contains { c in
                    guard c.sym != s, isZero[c.sym.index] else { return false }
                    if tab.kind[c.sym] == .external { return abs(c.coef) > Tolerance.coefEpsilon }
                    return change < 0 ? c.coef > Tolerance.coefEpsilon : c.coef < -Tolerance.coefEpsilon
                }
                if !partner { return true }
            }
            return false
        }
        var marked = [Bool](repeating: false, count: tab.kind.count)
        var queue: [Sym] = []
        func mark(_ s: Sym) {
            guard !marked[s.index] else { return }
            marked[s.index] = true
            queue.append(s)
        }
        var directions: [(sym: Sym, sign: Double)] = []
        for s in zero {
            let up = !blocked(s, 1), down = tab.kind[s] == .external && !blocked(s, -1)
            guard up || down else { continue }
            directions.append((s, up ? 1 : -1))
            mark(s)
            for ref in tab.cols[s] { mark(tab.rows[ref.row].basic) }
        }
        // What changes with them: the passive rows that hold a changed symbol, and so on downstream.
        var i = 0
        while i < queue.count {
            let s = queue[i]
            i += 1
            for ref in tab.pcols[s] { mark(tab.rows[ref.row].basic) }
        }
        // The directions that no row stops alone, all at once with pseudo-random weights in [1, 2): a sum of
        // feasible directions, each costless, is feasible and costless, and what any of them moves the sum moves
        // (but for an exact cancellation of the weights). If a passive row stops the sum, each alone.
        var walk = MoveWalk(symbols: tab.kind.count)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var sum: [(sym: Sym, rate: Double)] = []
        for (s, sign) in directions where stepAlone(s, sign) > Tolerance.constantEpsilon {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            sum.append((s, sign * (1 + Double(seed >> 11) / Double(1 << 53))))
        }
        if !sum.isEmpty && !markMoved(along: sum, &walk) {
            walk.budget = 64 * (tab.rows.reduce(0) { $0 + $1.cells.count } + tab.rows.count) + 10_000_000
            for d in sum where walk.budget > 0 { _ = markMoved(along: [(d.sym, d.rate < 0 ? -1 : 1)], &walk) }
        }
        let isMoved = walk.isMoved
        var moved: [Variable] = [], maybe: [Variable] = []
        for s in queue where tab.kind[s] == .external {
            let slot = Int(tab.owner[s])
            guard slot >= 0, slot < varSym.count, varLive[slot], varSym[slot] == s else { continue }
            let v = Variable(slot: slot, generation: varGeneration[slot])
            if isMoved[s.index] { moved.append(v) } else { maybe.append(v) }
        }
        return (moved, maybe)
    }

    /// The scratch of `markMoved`: rates of change per symbol (zero but for `touched`), the externals seen to
    /// move, the passive rows to visit, and the work left.
    struct MoveWalk {
        var rate: [Double]
        var touched: [Sym] = []
        var isMoved: [Bool]
        var queue = RankQueue()
        var budget = 0
        init(symbols: Int) {
            rate = [Double](repeating: 0, count: symbols)
            isMoved = [Bool](repeating: false, count: symbols)
        }
        mutating func set(_ t: Sym, _ r: Double) {
            if rate[t.index] == 0 { touched.append(t) }
            rate[t.index] = r
        }
    }

    /// The largest step (up to 1) that the non-basic symbol `s` can move alone in the direction `sign` (+1 or -1)
    /// keeping every active row feasible: 0 when a restricted row at 0 or a dummy row stops it.
    private func stepAlone(_ s: Sym, _ sign: Double) -> Double {
        var step = 1.0
        for ref in tab.cols[s] {
            let row = tab.rows[ref.row]
            let r = row.cells[Int(ref.cell)].coef * sign
            switch tab.kind[row.basic] {
            case .dummy, .unused: if abs(r) > Tolerance.coefEpsilon { return 0 }
            case .slack, .error: if r < -Tolerance.coefEpsilon { step = min(step, row.constant / -r) }
            case .external: break
            }
        }
        return max(step, 0)
    }

    /// Moves the costless non-basic symbols `seeds` together, each at its rate, by the largest step up to 1 that
    /// keeps every active row feasible, and sets `walk.isMoved` for the external symbols that step changes by
    /// more than 1e-7 (the probes' threshold in `Layout.ambiguities`). Returns false, marking nothing, when a row
    /// stops the step (a restricted row at 0, a dummy row) or a passive row with a basic other than an external
    /// would move. The objective does not change (the symbols are costless at every level), so the moved point
    /// is optimal too. `walk.budget` counts the rows and cells visited.
    private func markMoved(along seeds: [(sym: Sym, rate: Double)], _ walk: inout MoveWalk) -> Bool {
        defer {
            for t in walk.touched { walk.rate[t.index] = 0 }
            walk.touched.removeAll(keepingCapacity: true)
            while walk.queue.popFirst() != nil {}
        }
        let byID = tab.placedRanks.isEmpty
        func queueDependants(_ t: Sym, _ walk: inout MoveWalk) {
            for ref in tab.pcols[t] {
                let b = tab.rows[ref.row].basic
                walk.queue.insert(byID ? b.index : tab.rankPlace(b))
            }
        }
        for (s, rate) in seeds {
            walk.set(s, rate)
            for ref in tab.cols[s] {
                let row = tab.rows[ref.row]
                walk.budget -= 1
                walk.set(row.basic, walk.rate[row.basic.index] + row.cells[Int(ref.cell)].coef * rate)
            }
        }
        // The active rows' basics (after the seeds in `touched`): feasibility and the step.
        var step = 1.0
        for t in walk.touched {
            let r = walk.rate[t.index]
            switch tab.kind[t] {
            case .dummy, .unused:
                if abs(r) > Tolerance.coefEpsilon { return false }
            case .slack, .error:
                if tab.rowOf[t].isValid && r < -Tolerance.coefEpsilon {
                    step = min(step, tab.rows[tab.rowOf[t]].constant / -r)
                }
            case .external: break
            }
            queueDependants(t, &walk)
        }
        guard step > Tolerance.constantEpsilon else { return false }
        // Passive rows by rank: each holds only symbols of lower rank, so its rate is complete when taken.
        while let p = walk.queue.popFirst() {
            let b = byID ? Sym(Int32(p)) : tab.symbol(atRankPlace: p)
            guard b.isValid else { continue }
            let r = tab.rowOf[b]
            guard r.isValid, tab.rows[r].passive else { continue }
            var v = 0.0
            for c in tab.rows[r].cells { v += c.coef * walk.rate[c.sym.index] }
            walk.budget -= 1 + tab.rows[r].cells.count
            guard abs(v) > Tolerance.coefEpsilon else { continue }
            if tab.kind[b] != .external { return false }
            walk.set(b, v)
            queueDependants(b, &walk)
        }
        for t in walk.touched where tab.kind[t] == .external && abs(walk.rate[t.index]) * step > 1e-7 {
            walk.isMoved[t.index] = true
        }
        return true
    }

    /// The variable's value in the current tableau, evaluating only the passive rows it depends on.
    mutating func currentValue(_ slot: Int) -> Double {
        ensureOptimal()
        return tab.valueNow(varSym[slot])
    }

    // MARK: - Engine

    /// Puts a constraint record into the tableau (kiwi's addConstraint, with a rollback on failure).
    ///
    /// A required equality defines its highest-ranked variable (`definitionSubject`) as a passive row when that
    /// variable has no definition yet: free, or basic in an active row, which then goes back in without it
    /// (`swapDefinition`); held by a bound or a preference, it defines instead a variable of its own that
    /// nothing holds yet when it has one (`defineFreeVariable`). Every other constraint goes in as an ordinary
    /// (active, reduced) row. Which constraint
    /// defines which variable depends on the constraints and the variables' ranks, not on the order of the calls.
    mutating func insert(_ slot: Int) throws(SolverError) {
        // The record is changed in place (a copy would retain and release its arrays on every add); what an
        // attempt changes is its tableau fields, put back when the attempt gives up or fails.
        let entry = cons[slot].tableauFields
        if !cons[slot].isRequired { cons[slot].level = tab.level(for: cons[slot].priority) }
        let leveled = cons[slot].tableauFields
        if let v = definitionSubject(cons[slot]) {
            let r = tab.rowOf[v]
            let isEquality = SolverCore.isEquality(cons[slot])
            // A required equality takes the variable over from an active row or a weaker definition; a required
            // inequality (a bound `v >= 0`) from an active row, when few definitions use `v` (taking over walks
            // all of them: a grid column's base width is used by every cell to its right): otherwise `v` keeps its
            // long row and the bound adds another as long. Not a soft constraint: the old row, which may be a
            // required equality's, would then be placed over error terms, and a soft add must not fail (moa-fuzz
            // found one that did, numerically).
            let takesOver = r.isValid && (isEquality
                ? !tab.rows[r].passive || !SolverCore.isEquality(cons[Int(tab.rows[r].constraint)])
                    || (!holdsFreeVariable(cons[slot], besides: v)
                        && definesBefore(cons[slot], cons[Int(tab.rows[r].constraint)], subject: v))
                : cons[slot].isRequired && !tab.rows[r].passive
                    && tab.isDownstreamSmall(v, limit: SolverCore.takeoverDownstreamLimit))
            // A variable that definitions already use is defined late only by a required equality: anything
            // else (a preference, a bound on a column's width that a grid's rows all follow) goes in as an
            // ordinary row, instead of walking everything downstream of the variable to take the definition in.
            if !r.isValid && tab.heldOnlyByExternalRows(v) && (tab.pcols.isEmpty(v) || isEquality) {
                let allocated = makeMarkers(slot)
                if definePassively(slot, subject: v) {
                    cons[slot].active = true
                    return
                }
                // The rows that hold `v` are the definitions of variables `v`'s definition depends on: it goes in
                // as an ordinary row.
                releaseMarkers(allocated)
                cons[slot].tableauFields = leveled
            } else if takesOver && isEquality && tab.rows[r].passive
                        && !SolverCore.isEquality(cons[Int(tab.rows[r].constraint)])
                        && defineFreeVariable(slot, above: v) {
                // `v` is held by a bound or a preference and the equality has a variable nothing holds yet: that
                // one is defined instead. Taking `v` over would put the bound back as an ordinary row written in
                // the expansions of the equality's other variables (a column whose heights were numbered above
                // its tops: each height's bound held the column so far).
                return
            } else if takesOver && !(tab.journal.isOpen && swapLeavesOnlyDummies(cons[slot], subject: v)) {
                if isEquality, try redefineDisplaced(slot, subject: v, row: r) { return }
                let allocated = makeMarkers(slot)
                var swapped = false
                do throws(SolverError) {
                    swapped = try swapDefinition(slot, subject: v)
                } catch {
                    if !tab.journal.isOpen { releaseMarkers(allocated) }
                    cons[slot].tableauFields = entry
                    throw error
                }
                if swapped {
                    cons[slot].active = true
                    try optimizeAfterAdd(slot)
                    return
                }
                releaseMarkers(allocated)
                cons[slot].tableauFields = leveled
            }
            if r.isValid && isEquality && defineFreeVariable(slot, above: v) { return }
        }
        let allocated = makeMarkers(slot)
        do throws(SolverError) {
            try placeActive(slot, blame: slot)
        } catch {
            if !tab.journal.isOpen { releaseMarkers(allocated) }
            cons[slot].tableauFields = entry   // without the released markers and the level: nothing of the failed insert
            throw error
        }
        cons[slot].active = true
        try optimizeAfterAdd(slot)
    }

    /// `insert` for a public call (an add, an activation, an edit variable): in a transaction of its own when the
    /// call's work is limited (`SolverLimits.boundsWork`, a `callDeadline`), so that a call stopped at its
    /// limit leaves the tableau exactly as it was (otherwise the row goes in unjournaled, which is cheaper, and
    /// a stopped optimisation takes it out again: the same system, perhaps another tableau).
    mutating func insertUndoably(_ slot: Int) throws(SolverError) {
        guard !tab.journal.isOpen, workIsBounded else { return try insert(slot) }
        let fields = cons[slot].tableauFields
        tab.begin()
        do throws(SolverError) {
            try insert(slot)
        } catch {
            tab.rollback()
            cons[slot].active = false
            cons[slot].tableauFields = fields
            throw error
        }
        tab.commit()
    }

    /// The variable a constraint defines as a passive row: its highest-ranked variable (the largest symbol id,
    /// unless it was placed above another: `placeRank`), provided its coefficient is the largest in magnitude;
    /// nil otherwise.
    ///
    /// The rank keeps definitions acyclic whatever the order they come in: a passive row holds only variables
    /// ranked below its own, so evaluating passive rows by rank is a topological order, and no later definition
    /// can close a cycle. The coefficient rule keeps expansions stable, as partial pivoting does: solving
    /// `x + 0.5*w == y + 0.5*v` for v gives `v := 2*x + w - 2*y`, and nested centrings chain such factors of 2
    /// (2^45 on a 45-deep nesting; the cancellation then lost whole units of a required equality).
    ///
    /// Any constraint may define a variable no other definition holds; a required equality also takes the
    /// variable over from an active row or from a weaker definition (`swapDefinition`). So the variables of
    /// positions, which required equalities chain, are defined by those equalities in any call order.
    func definitionSubject(_ rec: ConstraintRecord) -> Sym? {
        var best = Sym.none
        var bestCoef = 0.0
        var largest = 0.0
        for i in rec.terms.indices {
            let a = abs(rec.terms[i].coef)
            // The rows keep a coefficient of exactly coefEpsilon (`Tableau.addTerm`): so must this, or such a
            // term of a higher-ranked variable would slip into the passive row (moa-fuzz: `flatten` then looped).
            guard a >= Tolerance.coefEpsilon else { continue }
            largest = max(largest, a)
            let s = varSym[Int(rec.terms[i].v)]
            if !best.isValid || tab.ranksAbove(s, best) { best = s; bestCoef = a }
        }
        guard best.isValid, bestCoef >= largest else { return nil }
        return best
    }

    static func isEquality(_ rec: ConstraintRecord) -> Bool { rec.isRequired && rec.relation == .equal }

    /// Whether the constraint holds a variable other than `v` that is not basic and no active row holds: as an
    /// ordinary row it takes that variable as its basic, a short row that fills nothing in (a form's
    /// `bottom == lastField.bottom + 10` gives the form's height), so it need not take `v`'s definition over.
    func holdsFreeVariable(_ rec: ConstraintRecord, besides v: Sym) -> Bool {
        for i in rec.terms.indices where abs(rec.terms[i].coef) >= Tolerance.coefEpsilon {
            let s = varSym[Int(rec.terms[i].v)]
            if s != v && !tab.rowOf[s].isValid && tab.cols.isEmpty(s) { return true }
        }
        return false
    }

    /// Between two required equalities whose highest-ranked variable is `v`, whether `a` rather than `b` should
    /// define it: the one that reaches back less far, its other variables compared lowest first (the higher
    /// wins; then the one with fewer; ties keep `b`). So which of them defines `v` does not depend on the order
    /// they came in, and a chain is defined along itself, while the rule that reaches back to the container
    /// closes it as an ordinary row: in a stack appended to one view at a time, `v2.leading == v1.trailing`
    /// defines `v2.left`, not `v2.trailing == stack.trailing` that came first (which then held every position
    /// after it in a long row); inserted at the front, `v2.leading == v1.trailing` defines `v1.left`, not
    /// `v1.leading == stack.leading`.
    func definesBefore(_ a: ConstraintRecord, _ b: ConstraintRecord, subject v: Sym) -> Bool {
        /// The lowest-ranked variable of `rec` other than `v` above `bound` (terms the rows keep only), or `.none`.
        func next(_ rec: ConstraintRecord, above bound: Sym) -> Sym {
            var best = Sym.none
            for i in rec.terms.indices where abs(rec.terms[i].coef) >= Tolerance.coefEpsilon {
                let s = varSym[Int(rec.terms[i].v)]
                if s != v && (!bound.isValid || tab.ranksAbove(s, bound)) && (!best.isValid || tab.ranksAbove(best, s)) {
                    best = s
                }
            }
            return best
        }
        var boundA = Sym.none, boundB = Sym.none
        while true {
            let na = next(a, above: boundA), nb = next(b, above: boundB)
            if na != nb { return !na.isValid || (nb.isValid && tab.ranksAbove(na, nb)) }
            guard na.isValid else { return false }
            boundA = na
            boundB = nb
        }
    }

    /// The passive row by which active constraint `slot` defines a variable, or none: the passive row that
    /// holds its marker (only its own does). Read from the tableau, so a rollback cannot leave it stale.
    func passiveRow(_ slot: Int) -> RowID {
        let m = cons[slot].marker
        guard m.isValid, let ref = tab.pcols.first(m), tab.rows[ref.row].constraint == Int32(slot) else { return .none }
        return ref.row
    }

    /// Makes a required equality the definition of `subject`, a variable basic in an active row or defined by
    /// a weaker constraint (whose passive row first becomes an active row): that row goes back in as an
    /// ordinary row over the new definition (it may take another variable, or a slack or an error, as its
    /// basic, or need phase one). In a transaction of its own (unless one is open): when the row cannot be made
    /// feasible the equality conflicts, and nothing has changed.
    ///
    /// This is what keeps definitions independent of the call order: a row that took a variable as its basic
    /// because its definition had not come yet (a container's right edge against the last view of a chain
    /// built back to front) hands it over when the definition comes, instead of the definition going in as a
    /// long ordinary row.
    /// Returns false, having changed nothing, when the row would hold dummies only (`swapLeavesOnlyDummies`,
    /// which the caller checks beforehand when a transaction is open: this one is then not its own).
    mutating func swapDefinition(_ slot: Int, subject v: Sym) throws(SolverError)
        -> Bool {
        tab.stats.swaps += 1
        let began = !tab.journal.isOpen
        if began { tab.begin() }
        var r = tab.rowOf[v]
        let weaker = tab.rows[r].passive ? Int(tab.rows[r].constraint) : -1
        do throws(SolverError) {
            if weaker >= 0 { r = tab.activate(r) }
            // The row becomes the equation `0 = constant + cells - v`, with no basic, held in the tableau so that
            // taking the definition in (and compensating the aggregates it holds) covers it like any other row.
            tab.touch(r)
            tab.rowOf[v] = .none
            tab.rows[r].basic = Row.beingBuilt
            tab.evaluation.invalidate()
            tab.appendCell(r, v, -1)
            guard definePassively(slot, subject: v) else {
                throw .internalError("a definition that replaces a row's basic depends on that row")
            }
            if began && tab.rows[r].cells.allSatisfy({ tab.kind[$0.sym] == .dummy }) {
                tab.rollback()
                return false
            }
            try placeRow(r, own: MarkerPair(first: .none, second: .none), owner: -1, blame: slot)
        } catch {
            if began { tab.rollback() }
            throw error
        }
        if began { tab.commit() }
        return true
    }

    /// Whether `swapDefinition` would leave the row that defines `v` now (active, or a weaker passive
    /// definition) holding dummies only: its right-hand side and the equality solved for `v`, both reduced,
    /// differ by dummies only. The equality is then implied by the required equalities (or contradicts them) and
    /// goes in as an ordinary row, which keeps the dependency as a row of dummies or reports the conflict.
    /// Checked before anything changes (the caller may have a transaction open that must not see half a swap).
    mutating func swapLeavesOnlyDummies(_ rec: ConstraintRecord, subject v: Sym) -> Bool {
        var a = 0.0
        var syms: [Sym] = [], coefs: [Double] = []
        for i in rec.terms.indices {
            let s = varSym[Int(rec.terms[i].v)]
            if s == v { a = rec.terms[i].coef } else { syms.append(s); coefs.append(rec.terms[i].coef) }
        }
        guard a != 0 else { return false }
        let t = tab.allocRow()
        tab.setReduced(t, syms, coefs.map { -$0 / a })
        let old = tab.allocRow()
        tab.setReduced(old, [v], [1])
        var onlyDummies = true
        for c in tab.rows[old].cells where tab.kind[c.sym] != .dummy {
            if abs(tab.coefficient(t, c.sym) - c.coef) > Tolerance.coefEpsilon { onlyDummies = false; break }
        }
        if onlyDummies {
            for c in tab.rows[t].cells where tab.kind[c.sym] != .dummy {
                if tab.coefficient(old, c.sym) == 0 { onlyDummies = false; break }
            }
        }
        tab.freeRow(old)
        tab.freeRow(t)
        return onlyDummies
    }

    /// Creates the constraint's marker symbols (and its error terms in the objective). Returns them, `.none`
    /// where there is no second one (`releaseMarkers` gives them back).
    @discardableResult
    mutating func makeMarkers(_ slot: Int) -> MarkerPair {
        let relation = cons[slot].relation, isRequired = cons[slot].isRequired
        let level = cons[slot].level, weight = cons[slot].weight
        let owner = Int32(slot)
        var made = MarkerPair(first: .none, second: .none)
        switch relation {
        case .lessOrEqual, .greaterOrEqual:
            made.first = tab.newSymbol(.slack, owner: owner)
            if !isRequired {
                made.second = tab.newSymbol(.error, owner: owner)
                tab.objAdd(level, made.second, weight)
            }
            cons[slot].markerCoef = relation == .lessOrEqual ? 1 : -1
        case .equal:
            if isRequired {
                made.first = tab.newSymbol(.dummy, owner: owner)
                cons[slot].markerCoef = 1
            } else {
                made.first = tab.newSymbol(.error, owner: owner)
                made.second = tab.newSymbol(.error, owner: owner)
                tab.objAdd(level, made.first, weight)
                tab.objAdd(level, made.second, weight)
                cons[slot].markerCoef = -1
            }
        }
        cons[slot].marker = made.first
        // `.none` for a required constraint: one whose priority changed while inactive may still name an old one.
        cons[slot].other = made.second
        return made
    }

    /// Releases the symbols `makeMarkers` made, the last made first.
    mutating func releaseMarkers(_ markers: MarkerPair) {
        if markers.second.isValid { tab.releaseSymbol(markers.second) }
        if markers.first.isValid { tab.releaseSymbol(markers.first) }
    }

    /// The marker terms of a constraint's row: `expression + markerCoef * marker (- markerCoef * other) == 0`.
    func markerTerms(_ rec: ConstraintRecord) -> [(Sym, Double)] {
        var out: [(Sym, Double)] = [(rec.marker, rec.markerCoef)]
        if rec.other.isValid { out.append((rec.other, -rec.markerCoef)) }
        return out
    }

    /// Builds constraint `slot`'s row as it is written and makes it the passive definition of `subject`, a
    /// non-basic variable (`definitionSubject`) that only passive rows and active rows with an external basic
    /// hold. Those active rows take the definition in; the flat expansions downstream of `subject` held it as a
    /// free symbol and are dropped; aggregates downstream in use are compensated for what they now stand for.
    ///
    /// Returns false, with nothing changed, when an active row that holds `subject` is the definition of a
    /// variable the new definition depends on (taking it in would make that row hold its own basic).
    @discardableResult
    mutating func definePassively(_ slot: Int, subject: Sym) -> Bool {
        let (downstream, compensate) = tab.prepareDefinition(of: subject)
        let r = tab.allocRow()
        tab.rows[r].constant = cons[slot].constant
        let n = cons[slot].terms.count
        for i in 0..<n { tab.addTerm(r, varSym[Int(cons[slot].terms[i].v)], cons[slot].terms[i].coef) }
        tab.addTerm(r, cons[slot].marker, cons[slot].markerCoef)
        if cons[slot].other.isValid { tab.addTerm(r, cons[slot].other, -cons[slot].markerCoef) }
        // A passive row holds only variables ranked below its own: evaluation by rank and acyclic definitions
        // rest on it (`definitionSubject` ensures it; this keeps a slip from looping in `flatten`).
        if tab.rows[r].cells.contains(where: { tab.kind[$0.sym] == .external && tab.ranksAbove($0.sym, subject) }) {
            tab.freeRow(r)
            return false
        }
        tab.makePassive(r, subject: subject)
        tab.rows[r].constraint = Int32(slot)
        guard tab.substituteDefinition(of: subject) else {
            tab.dropDefinition(r)
            return false
        }
        if compensate { tab.compensateAggregates(downstream, delta: [(tab.aggregateSymbol(r), 1.0)]) }
        return true
    }

    /// Makes required equality `slot`, whose highest-ranked variable `v` is defined already (by an equality
    /// that keeps it, or an active row), the passive definition of a variable of it that nothing holds yet,
    /// placed just above `v` in the rank order (`freeVariable`). Returns false, with nothing changed, when it
    /// holds none.
    ///
    /// As an ordinary row the equality would take that variable as its basic, written out in `v`'s expansion and
    /// every other variable's: views nested by both edges (`v.left == p.left + 8`, `v.right == p.right - 8`)
    /// held a dummy per level above in each width's row (n^2 / 2 cells), and a stack sized by its content held
    /// every view in its size's row, made again on each append. As a definition it holds its own terms.
    mutating func defineFreeVariable(_ slot: Int, above v: Sym) -> Bool {
        guard let free = freeVariable(slot, besides: v, heldOnlyBy: .none) else { return false }
        let place = tab.rankOrder[free]
        guard tab.placeJustAbove(free, v) else { return false }
        let leveled = cons[slot].tableauFields
        let allocated = makeMarkers(slot)
        if definePassively(slot, subject: free) {
            cons[slot].active = true
            return true
        }
        releaseMarkers(allocated)
        cons[slot].tableauFields = leveled
        tab.setRankPlace(free, place)
        return false
    }

    /// The variable of required equality `slot` that `defineFreeVariable` would define above `v`, its
    /// highest-ranked variable: one that no row holds (but `own`, the equality's own passive row, if valid), with
    /// a coefficient as large as any (`definitionSubject`'s rule; among such, the highest-ranked), that can be
    /// placed just above `v` in the rank order. Nil when there is none.
    func freeVariable(_ slot: Int, besides v: Sym, heldOnlyBy own: RowID) -> Sym? {
        var free = Sym.none, largest = 0.0, freeCoef = 0.0
        for i in cons[slot].terms.indices {
            let a = abs(cons[slot].terms[i].coef)
            guard a >= Tolerance.coefEpsilon else { continue }
            largest = max(largest, a)
            let s = varSym[Int(cons[slot].terms[i].v)]
            guard s != v, !tab.rowOf[s].isValid, tab.cols.isEmpty(s),
                  tab.pcols.isEmpty(s) || (own.isValid && tab.pcols.count(s) == 1 && tab.pcols.first(s)?.row == own)
            else { continue }
            if !free.isValid || a > freeCoef || (a == freeCoef && tab.ranksAbove(s, free)) { free = s; freeCoef = a }
        }
        guard free.isValid, freeCoef >= largest, tab.placeJustAbove(for: free, v) != nil else { return nil }
        return free
    }

    /// Takes `v` over from the definition `r` of required equality `old` when that definition is unused and
    /// holds a variable nothing else holds (`freeVariable`): `r` is dropped, constraint `slot` (a required
    /// equality) defines `v`, and `old` defines that variable, placed just above `v`. The result of adding `slot`
    /// first (`defineFreeVariable`): where `swapDefinition` would put `old` back as an ordinary row holding
    /// `v`'s expansion (views nested by both edges, the right edge's equality made before the left's: n^2 / 2
    /// cells). `old`'s record is not changed (its markers stay). Returns false, with nothing changed, when the
    /// conditions do not hold.
    mutating func redefineDisplaced(_ slot: Int, subject v: Sym, row r: RowID) throws(SolverError) -> Bool {
        guard tab.rows[r].passive, tab.rows[r].basic == v else { return false }
        let old = Int(tab.rows[r].constraint)
        guard old >= 0, old != slot, SolverCore.isEquality(cons[old]),
              tab.isUnusedDefinition(r, marker: cons[old].marker),
              let free = freeVariable(old, besides: v, heldOnlyBy: r) else { return false }
        let entry = cons[slot].tableauFields
        let began = !tab.journal.isOpen
        if began { tab.begin() }
        do throws(SolverError) {
            tab.dropDefinition(r)
            try insert(slot)
            guard tab.placeJustAbove(free, v), definePassively(old, subject: free) else {
                throw .internalError("a displaced definition could not define its free variable")
            }
        } catch {
            if began { tab.rollback() }
            cons[slot].tableauFields = entry
            cons[slot].active = false
            throw error
        }
        if began { tab.commit() }
        tab.stats.swaps += 1
        return true
    }

    /// Builds constraint `slot`'s row (its markers exist) reduced over the basic variables and makes it an
    /// active row: with a subject chosen as kiwi does, or by phase one with an artificial variable. A required row
    /// that cannot be made feasible throws `.unsatisfiable` for constraint `blame` (the one being added) and
    /// leaves the tableau as it was (outside a transaction; inside, the caller rolls back).
    mutating func placeActive(_ slot: Int, blame: Int) throws(SolverError) {
        let r = tab.allocRow()
        tab.rows[r].constant = cons[slot].constant
        // Markers are reduced too: a constraint that goes back in after a swap may have its marker basic.
        var k = tab.beginReduced(r)
        let n = cons[slot].terms.count
        for i in 0..<n { tab.addReduced(varSym[Int(cons[slot].terms[i].v)], cons[slot].terms[i].coef, &k) }
        let own = MarkerPair(first: cons[slot].marker, second: cons[slot].other)
        let markerCoef = cons[slot].markerCoef
        tab.addReduced(own.first, markerCoef, &k)
        if own.second.isValid { tab.addReduced(own.second, -markerCoef, &k) }
        tab.finishReduced(r, k)
        try placeRow(r, own: own, owner: slot, blame: blame)
    }

    /// Makes row `r` (built and reduced, basic not yet chosen) an active row: with a subject (`chooseSubject`;
    /// `own` are the markers of the constraint it is the row of, `owner` that constraint or -1), or by phase
    /// one with an artificial variable. A row that cannot be made feasible throws `.unsatisfiable` for
    /// constraint `blame` and leaves the tableau as it was (outside a transaction; inside, the caller rolls
    /// back).
    mutating func placeRow(_ r: RowID, own: MarkerPair, owner: Int, blame: Int) throws(SolverError) {
        let outerJournal = tab.journal.isOpen
        if tab.rows[r].constant < 0 {
            tab.rows[r].constant = -tab.rows[r].constant
            for j in tab.rows[r].cells.indices { tab.rows[r].cells[j].coef = -tab.rows[r].cells[j].coef }
            tab.cellEpoch &+= 1
        }
        tab.rows[r].constant = Tableau.clean(tab.rows[r].constant)

        var subject = chooseSubject(r, own: own)
        var ownCertificate: [Int] { owner >= 0 ? [owner] : [] }
        if !subject.isValid && tab.rows[r].cells.allSatisfy({ tab.kind[$0.sym] == .dummy }) {
            if abs(tab.rows[r].constant) > Tolerance.constantEpsilon {
                // Required and contradicted by required equalities alone; nothing has changed yet but the row.
                let certificate = tab.rows[r].cells.flatMap { tab.certificateOwners($0.sym) } + ownCertificate
                tab.freeRow(r)
                throw conflict(blame, certificate)
            }
            // Redundant. A fresh required equality takes its dummy as basic; a row whose marker is basic in
            // another row (or that has none) is already expressed by the other rows.
            guard own.first.isValid, tab.cellIndex(r, own.first) != nil else { tab.freeRow(r); return }
            subject = own.first
        }
        if subject.isValid {
            tab.pivot(r, entering: subject)
            return
        }
        // Else the dual simplex when it can repair what the row's subject drives negative (`repairableSubject`),
        // or phase one with an artificial variable: either may fail, so journal it.
        if !outerJournal { tab.begin() }
        var failure: SolverError? = nil
        do {
            let repairable = needsOptimize || tab.phaseOne.isActive ? Sym.none : repairableSubject(r)
            if repairable.isValid {
                tab.pivot(r, entering: repairable)
                if let bad = try tab.dualOptimize() {
                    failure = conflict(blame, tab.certificateOwners(ofRow: bad) + ownCertificate)
                }
            } else if let certificate = try addWithArtificialVariable(r) {
                failure = conflict(blame, certificate + ownCertificate)
            }
        } catch {
            failure = error
        }
        if let failure {
            if !outerJournal {
                // The row was made before the transaction began.
                tab.rollback()
                tab.freeRow(r)
            }
            throw failure
        }
        if !outerJournal { tab.commit() }
    }

    /// Re-optimises after an add, or leaves it to the next call that needs the optimum (`ensureOptimal`).
    ///
    /// An add only needs a feasible tableau; optimising after each one is what keeps a layout like a scrolling
    /// document cheap (each paragraph settles as it comes, ~0.4 pivots per add). But in a build where every add
    /// moves the optimum of the whole (kiwi's enaml forms stacked in a window), the intermediate optima are
    /// wasted work: 220k pivots for 10k constraints, against 13k when optimised once at the end. So adds are
    /// optimised at once until, since the last update, they have cost more than one pivot each (plus slack);
    /// after that they are deferred to the next update, suggestion, constant change or value query.
    ///
    /// Outside a transaction a failed optimisation does not fail the add: the add cannot be undone there, and
    /// the constraint is in with every row feasible (see `ensureOptimal`). Except at the call's work limit:
    /// then constraint `slot` is taken out again (without a limit) and the add fails with `.limit`. A solver
    /// whose limits bound the work of a call does not defer (the work would land in an update, which cannot
    /// fail).
    mutating func optimizeAfterAdd(_ slot: Int) throws(SolverError) {
        if tab.journal.isOpen && !batchOpen { try tab.optimize(); return }
        addsSinceUpdate += 1
        if deferring && !workIsBounded { needsOptimize = true; return }
        let before = tab.stats.pivots
        // A numerical failure does not fail the add (the row is in, every row feasible): the optimisation is
        // left to the next update, whose `ensureOptimal` rebuilds the tableau if it fails again.
        do throws(SolverError) { try tab.optimize() } catch {
            guard case .limit = error else { needsOptimize = true; return }
            tab.budget = WorkBudget()
            try? withdraw(slot)
            throw error
        }
        pivotsSinceUpdate += tab.stats.pivots - before
        if pivotsSinceUpdate > addsSinceUpdate + SolverCore.deferAllowance { deferring = true }
    }

    /// How many definitions downstream of a variable a required inequality may walk to take the variable over
    /// from an active row (`insert`).
    static let takeoverDownstreamLimit = 64

    /// Pivots that adds may cost beyond one each before re-optimisation is deferred.
    static let deferAllowance = 64

    /// Runs the deferred optimisation, if any: the dual simplex, values and dumps need the optimum.
    ///
    /// It cannot fail: an optimisation that ends in an internal error (rounding on wild inputs makes the simplex
    /// cycle or see an unbounded direction) leaves every row feasible, only not optimal, and the calls that get
    /// here (update, suggest, value queries, dump) could not undo it anyway. So required constraints still hold,
    /// and the tableau is rebuilt from the constraints (`refactorize`), which finds the optimum after all.
    mutating func ensureOptimal() {
        addsSinceUpdate = 0
        pivotsSinceUpdate = 0
        deferring = false
        guard needsOptimize else { return }
        needsOptimize = false
        // Not limited: this finishes what earlier calls left, and cannot fail.
        let budget = tab.budget
        tab.budget = WorkBudget()
        defer { tab.budget = budget }
        do throws(SolverError) { try tab.optimize() } catch { if !tab.journal.isOpen { _ = refactorize() } }
    }

    /// kiwi's chooseSubject, preferring among variables the one in the fewest other rows (less fill-in).
    mutating func chooseSubject(_ r: RowID, own: MarkerPair) -> Sym {
        var best = Sym.none
        var bestCount = Int.max
        for c in tab.rows[r].cells where tab.kind[c.sym] == .external {
            let n = tab.cols.count(c.sym)
            if n < bestCount || (n == bestCount && c.sym < best) { best = c.sym; bestCount = n }
        }
        if best.isValid { return best }
        // A marker only in this row (a new constraint's) can be basic at once. Any other restricted symbol
        // with a negative coefficient can be too, with the value the row's constant gives it, when no restricted
        // row that holds it goes negative on the way (a ratio test up to that value): a row that goes back in
        // after a definition changed hands often has its own marker basic elsewhere. Else phase one.
        // With the constant at 0 any restricted symbol of the row is basic at 0, whatever its coefficient's sign:
        // the one in the fewest rows is taken (a slack before an error as common). A view appended to a stack
        // (`v.bottom == stack.bottom`, every view as tall as the stack) took the error of its own height (the
        // only negative one in few rows), and the objective then pivoted in the symbol of the view before,
        // which every earlier view's row holds: each append rewrote them all. Its own slack moves nothing.
        let k = tab.rows[r].constant
        for s in [own.first, own.second] where s.isValid && tab.cols.count(s) == 1 {
            let kind = tab.kind[s]
            if (kind == .slack || kind == .error) && tab.coefficient(r, s) < 0 { return s }
        }
        var bestLen = Int.max
        for c in tab.rows[r].cells where c.coef < -Tolerance.pivotEpsilon || (k == 0 && c.coef > Tolerance.pivotEpsilon) {
            let kind = tab.kind[c.sym]
            guard kind == .slack || kind == .error else { continue }
            // Fewest rows first; between as many, a slack (an error made basic brings its row into the objective).
            let n = 2 * tab.cols.count(c.sym) + (kind == .error ? 1 : 0)
            guard n < bestLen || (n == bestLen && c.sym < best) else { continue }
            if k == 0 || tab.canEnter(c.sym, upTo: k / -c.coef, besides: r) { best = c.sym; bestLen = n }
        }
        return best
    }

    /// A restricted symbol of row `r` (being placed, its constant at least 0) that can be basic at the value the
    /// row gives it although other rows then go negative, because the objective stays optimal with it basic
    /// (`Tableau.keepsOptimal`): the dual simplex then repairs those rows, each by a pivot on a symbol of its
    /// own, where phase one pivots on what the new row holds. `.none` when there is none; the one in the fewest
    /// rows first. A weighted chain squeezed below its views' own sizes: the rule at its end set the unit
    /// guide's size, which every view's rows hold, and phase one compressed the views one pivot over all those
    /// rows at a time (5,000 views: 2 s).
    func repairableSubject(_ r: RowID) -> Sym {
        guard tab.rows[r].constant > 0 else { return .none }
        var best = Sym.none, bestCount = Int.max
        for c in tab.rows[r].cells where c.coef < -Tolerance.pivotEpsilon {
            let kind = tab.kind[c.sym]
            guard kind == .slack || kind == .error, tab.cols.count(c.sym) < bestCount else { continue }
            if tab.keepsOptimal(basic: c.sym, in: r) { best = c.sym; bestCount = tab.cols.count(c.sym) }
        }
        return best
    }

    /// Phase one for row `r`. Returns nil on success, or the certificate (constraint slots) on failure.
    mutating func addWithArtificialVariable(_ r: RowID) throws(SolverError) -> [Int]? {
        let art = tab.newSymbol(.slack, owner: -1)
        tab.touch(r)
        tab.rows[r].basic = art
        tab.rowOf[art] = r
        tab.evaluation.invalidate()
        tab.startArtificial(r)
        try tab.optimizeArtificial()
        tab.stopArtificial()
        if abs(tab.phaseOne.constant) > Tolerance.constantEpsilon {
            return tab.phaseOne.syms.flatMap { tab.certificateOwners($0) }
        }
        let ar = tab.rowOf[art]
        if ar.isValid {
            if let entering = tab.rows[ar].cells.first(where: {
                let k = tab.kind[$0.sym]; return k == .slack || k == .error
            })?.sym ?? tab.rows[ar].cells.first(where: { tab.kind[$0.sym] == .external })?.sym {
                tab.pivot(ar, entering: entering)
            } else {
                tab.freeRow(ar)   // only dummies left: art is identically 0
            }
        }
        tab.releaseSymbol(art)
        return nil
    }

    /// Takes an active constraint out of the tableau (kiwi's removeConstraint).
    mutating func withdraw(_ slot: Int) throws(SolverError) {
        // Journaled: the re-optimization can fail numerically (MOA_ERROR), and then the constraint must still be
        // in, as before the call (found by moa-fuzz).
        readyWithdrawal(slot)
        let saved = cons[slot]
        let began = !tab.journal.isOpen
        if began { tab.begin() }
        do throws(SolverError) {
            try withdrawUnjournaled(slot)
        } catch {
            if began {
                tab.rollback()
                cons[slot] = saved
            }
            throw error
        }
        if began { tab.commit() }
    }

    /// Readies adding a constraint over `expression` before anything changes: the definitions of its variables
    /// are expanded into its row (`Tableau.setReduced`), and their flat constants are read here, while the
    /// evaluated values are current (see `readyWithdrawal`). Unknown variables are left to the add to report.
    mutating func readyInsertion(of expression: Expression) {
        guard tab.valuesAreCurrent else { return }
        for t in expression.terms {
            guard let slot = try? checked(t.variable) else { continue }
            tab.readyExpansion(ofSymbol: varSym[slot])
        }
    }

    /// Readies the withdrawal of constraint `slot` before anything changes: a definition that stays in use is
    /// rewritten by expanding the passive rows it holds (`withdrawUnjournaled`), whose flat constants are read
    /// here, while the evaluated values are current, in O(terms) each, rather than in O(upstream) once the
    /// withdrawal changed a row (`Tableau.flatConstant`; a leaf of a 100k-view nested layout after a root
    /// resize: 17 ms).
    mutating func readyWithdrawal(_ slot: Int) {
        let pr = passiveRow(slot)
        guard tab.valuesAreCurrent, cons[slot].active, pr.isValid, !isUnusedRequiredEquality(slot) else { return }
        tab.readyExpansion(of: pr)
    }

    /// Whether constraint `slot` is a required equality whose definition nothing uses (it goes as it is).
    func isUnusedRequiredEquality(_ slot: Int) -> Bool {
        let rec = cons[slot]
        let pr = passiveRow(slot)
        return pr.isValid && rec.isRequired && rec.relation == .equal && tab.isUnusedDefinition(pr, marker: rec.marker)
    }

    mutating func withdrawUnjournaled(_ slot: Int, optimizing: Bool = true) throws(SolverError) {
        var rec = cons[slot]
        let pr = passiveRow(slot)
        // A required equality's definition goes as it is when nothing uses it (the usual case when a layout is
        // taken down latest first), and with its marker pivoted out of what uses it otherwise; other
        // definitions (and those where kiwi's rule picks another row for the marker) become ordinary rows first,
        // which costs their whole expansion (`Tableau.activate`).
        var markerGone = false
        if pr.isValid {
            if isUnusedRequiredEquality(slot) {
                tab.dropDefinition(pr)
                tab.stats.definitionRemovals[0] += 1
            } else if rec.isRequired && rec.relation == .equal && tab.dropUsedDefinition(pr, marker: rec.marker) {
                markerGone = true
                tab.stats.definitionRemovals[1] += 1
            } else {
                _ = tab.activate(pr)
                tab.stats.definitionRemovals[2] += 1
            }
        }
        if !rec.isRequired {
            for e in [rec.marker, rec.other] where e.isValid && tab.kind[e] == .error {
                removeObjectiveTerm(e, level: rec.level, weight: rec.weight)
            }
        }
        let m = rec.marker
        if markerGone {
            // Its cells left are accounted for; `releaseSymbol` clears them.
        } else if tab.rowOf[m].isValid {
            tab.freeRow(tab.rowOf[m])
        } else if let r = markerLeavingRow(m) {
            tab.pivot(r, entering: m)
            tab.freeRow(r)
        }
        tab.releaseSymbol(m)
        if rec.other.isValid { tab.releaseSymbol(rec.other) }
        rec.marker = .none; rec.other = .none; rec.level = .none
        rec.active = false
        cons[slot] = rec
        if optimizing { try tab.optimize() }
    }

    mutating func removeObjectiveTerm(_ e: Sym, level: LevelID, weight: Double) {
        let r = tab.rowOf[e]
        if r.isValid { tab.objAddRow(level, r, -weight) } else { tab.objAdd(level, e, -weight) }
    }

    /// kiwi's getMarkerLeavingRow over the marker's column.
    mutating func markerLeavingRow(_ m: Sym) -> RowID? {
        var first: RowID? = nil, second: RowID? = nil, third: RowID? = nil
        var r1 = Double.infinity, r2 = Double.infinity
        for ref in tab.cols[m] {
            let row = tab.rows[ref.row]
            let c = row.cells[Int(ref.cell)].coef
            // A row of dummies only says that required equalities are dependent; pivoting the marker there hands
            // its role to the others and moves nothing. Any other row would let that dummy row leave zero
            // (kiwi picks by ratio and loses a duplicated required equality this way).
            if tab.kind[row.basic] == .dummy { return ref.row }
            if tab.kind[row.basic] == .external {
                // Ties go to the lowest basic id, not to the first in the column (whose order a rollback changes).
                if third.map({ row.basic < tab.rows[$0].basic }) ?? true { third = ref.row }
            } else if c < 0 {
                let ratio = -row.constant / c
                if ratio < r1 || (ratio == r1 && first.map({ row.basic < tab.rows[$0].basic }) ?? true) {
                    r1 = ratio; first = ref.row
                }
            } else {
                let ratio = row.constant / c
                if ratio < r2 || (ratio == r2 && second.map({ row.basic < tab.rows[$0].basic }) ?? true) {
                    r2 = ratio; second = ref.row
                }
            }
        }
        return first ?? second ?? third
    }

    /// Shifts an active constraint's constant: the marker symbol stands in for the constant, so only the rows
    /// in its column (or its own row) change, then the dual simplex restores feasibility.
    mutating func changeConstant(_ slot: Int, to value: Double) throws(SolverError) {
        // A kept one-item buffer: a suggestion per frame allocates nothing.
        var items: [(slot: Int, value: Double)] = []
        swap(&items, &constantBuffers.single)
        defer { swap(&items, &constantBuffers.single) }
        items.removeAll(keepingCapacity: true)
        items.append((slot, value))
        try changeConstants(items)
    }

    /// Changes the constants of several constraints as one change: every row shifted first, then one dual
    /// simplex (a layout re-measuring its text sets thousands of heights at once). All or nothing; a required
    /// constraint that cannot hold throws `.unsatisfiable` for the last required constraint in the batch.
    mutating func changeConstants(_ items: [(slot: Int, value: Double)]) throws(SolverError) {
        for (_, value) in items {
            guard value.isFinite, abs(value) <= Tolerance.maxMagnitude else {
                throw .invalidArgument("constant \(value) is not a finite number within ±1e12")
            }
        }
        // The old constants and the rows shifted live in buffers kept between calls (an animation frame makes
        // one such call per animated constant; it allocates nothing).
        var saved: [Double] = [], changed: [RowID] = []
        swap(&saved, &constantBuffers.saved)
        swap(&changed, &constantBuffers.changed)
        saved.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
        defer {
            swap(&saved, &constantBuffers.saved)
            swap(&changed, &constantBuffers.changed)
        }
        for (slot, _) in items { saved.append(cons[slot].constant) }
        guard items.contains(where: { cons[$0.slot].active }) else {
            for (slot, value) in items { cons[slot].constant = value }
            return
        }
        ensureOptimal()
        // Nothing listed: no symbol improves the objective, and the dual simplex's pivots keep it so.
        let optimalBefore = tab.candidates.isEmpty
        var mayFail = false, blame = -1
        // Journaled for optional constraints too: the dual simplex can still fail on them numerically (a pivot
        // below the epsilon), and that failure must not leave a half-shifted tableau (found by moa-fuzz).
        let began = !tab.journal.isOpen
        if began { tab.begin() }
        var badRow: RowID? = nil
        // Rows are checked once every shift is in: a row of dummies may pass through non-zero on the way (one
        // aggregate shifted before another that cancels it).
        func check(_ r: RowID) {
            let b = tab.rows[r].basic
            let k = tab.rows[r].constant
            switch tab.kind[b] {
            case .external, .unused: break
            case .dummy: if abs(k) > Tolerance.constantEpsilon { badRow = r }
            case .slack, .error: if k < 0 { tab.infeasible.append(b) }
            }
        }
        // Several definitions shifted: what their aggregates downstream move is found in one walk at the end.
        var deferred: [(row: RowID, amount: Double)]? = items.count > 1 ? [] : nil
        for (slot, value) in items {
            let old = cons[slot].constant
            cons[slot].constant = value
            guard cons[slot].active else { continue }
            if cons[slot].isRequired { mayFail = true; blame = slot }
            shiftConstant(slot, by: value - old, &changed, deferring: &deferred)
        }
        if let deferred, !deferred.isEmpty {
            for (d, g) in tab.aggregatesDownstream(ofAll: deferred) { shiftRows(holding: d, by: g, &changed) }
        }
        for r in changed { check(r) }
        do throws(SolverError) {
            if badRow == nil { badRow = try tab.dualOptimize() }
        } catch {
            // The call's work limit: undone as a conflict is.
            if began { tab.rollback() }
            for i in items.indices.reversed() { cons[items[i].slot].constant = saved[i] }
            throw error
        }
        if let bad = badRow {
            let certificate = tab.certificateOwners(ofRow: bad)
            if began { tab.rollback() }
            // An optional constraint can always hold: failing on one is numerical trouble, not a conflict. The
            // conflict is explained with the new constants, then they are put back.
            let failure: SolverError = mayFail ? conflict(blame, certificate)
                : .internalError("the dual simplex found no pivot after a constant change")
            for i in items.indices.reversed() { cons[items[i].slot].constant = saved[i] }
            throw failure
        }
        if began {
            tab.commit()
            if optimalBefore { tab.dropCandidates() }
        }
    }

    /// Adds `amount` times its coefficient on aggregate `d` to the constant of every active row that holds `d`.
    mutating func shiftRows(holding d: Sym, by amount: Double, _ changed: inout [RowID]) {
        // Each aggregate's column is short and a downstream may hold thousands: read in place (caching each
        // would thrash `column(_:)`'s cache).
        for ref in tab.cols[d] {
            let c = tab.rows[ref.row].cells[Int(ref.cell)].coef
            tab.touchConstant(ref.row)
            tab.rows[ref.row].constant = Tableau.clean(tab.rows[ref.row].constant + c * amount)
            changed.append(ref.row)
        }
    }

    /// Shifts the rows of active constraint `slot` for its constant moving by `delta` (the record already has
    /// the new constant); the rows whose constant changed are appended to `changed`. With `deferred` given, the
    /// shift of a definition's own passive row is listed there (row, how far its variable moves) instead of
    /// being carried to the aggregates downstream, for the caller to carry all such shifts at once
    /// (`Tableau.aggregatesDownstream(ofAll:)`).
    mutating func shiftConstant(_ slot: Int, by delta: Double, _ changed: inout [RowID],
                                deferring deferred: inout [(row: RowID, amount: Double)]?) {
        tab.changes.noteConstantChange(slot)
        let rec = cons[slot]
        let t = delta / rec.markerCoef
        let m = rec.marker
        let pr = passiveRow(slot)
        if pr.isValid {
            // The constraint's own passive row holds the marker as written; active rows hold a dummy marker
            // through the aggregates of this definition and of the ones downstream of it.
            let a = tab.coefficient(pr, m)
            tab.touchConstant(pr)
            tab.rows[pr].constant = Tableau.clean(tab.rows[pr].constant + a * t)
            tab.flatConstantEpoch &+= 1   // cached expansions downstream: their constants are recomputed on use
            if tab.kind[m] == .dummy {
                if deferred != nil {
                    deferred!.append((pr, a * t))
                } else {
                    for (d, g) in tab.aggregatesDownstream(of: pr) { shiftRows(holding: d, by: a * g * t, &changed) }
                }
            }
        }
        let mr = tab.rowOf[m]
        if mr.isValid {
            tab.touchConstant(mr)
            tab.rows[mr].constant = Tableau.clean(tab.rows[mr].constant - t)
            changed.append(mr)
        } else {
            // Rows changed in memory order (a long column's rows lie anywhere in the tableau), then marked and
            // listed in the column's order: the order of the values that change (and of what a caller does with
            // them next) and the order the dual simplex takes the rows in stay what they were.
            for (r, c) in tab.columnInRowOrder(m) {
                tab.recordConstant(r)
                tab.rows[r].constant = Tableau.clean(tab.rows[r].constant + c * t)
            }
            for (r, _) in tab.column(m) {
                if !tab.changes.isRowDirty[r] { tab.markDirty(r) }
                changed.append(r)
            }
            for l in tab.levels.indices { tab.levels[l].constant += tab.levels[l].coef[m] * t }
        }
    }

    /// Changes priority and weight; across required it is a journaled withdraw + insert.
    mutating func changeStrength(_ slot: Int, priority p: Double, weight w: Double) throws(SolverError) {
        collectUnusedLevels()
        let before = cons[slot]
        guard before.active else { cons[slot].priority = p; cons[slot].weight = w; return }
        if !before.isRequired && p < Priority.required {
            // Soft to soft: move the error terms between levels, then re-optimise. Journaled: with wild
            // coefficients the re-optimisation can fail numerically, and then nothing may have changed (found
            // by moa-fuzz: a weight change on a 1e9 coefficient).
            let outer = tab.journal.isOpen
            if !outer { tab.begin() }
            do throws(SolverError) {
                let level = tab.level(for: p)
                for e in [before.marker, before.other] where e.isValid && tab.kind[e] == .error {
                    removeObjectiveTerm(e, level: before.level, weight: before.weight)
                    removeObjectiveTerm(e, level: level, weight: -w)
                }
                cons[slot].priority = p; cons[slot].weight = w; cons[slot].level = level
                try tab.optimize()
            } catch {
                if !outer { tab.rollback() }
                cons[slot] = before
                throw error
            }
            if !outer { tab.commit() }
            return
        }
        if before.isRequired && p >= Priority.required { cons[slot].weight = w; return }
        let outer = tab.journal.isOpen
        if !outer { tab.begin() }
        do {
            try withdraw(slot)
            cons[slot].priority = p
            cons[slot].weight = w
            try insert(slot)
        } catch {
            if !outer { tab.rollback() }
            cons[slot] = before
            throw error
        }
        if !outer { tab.commit() }
    }
}
