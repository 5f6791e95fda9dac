// Moa — the public solver: an incremental Cassowary-style simplex with strict priorities.

/// An incremental linear constraint solver (Cassowary's simplex, as in kiwi) with strictly ordered priorities.
///
/// Constraints are `expression REL 0` with a priority in `(0, 1000]`; 1000 is required. A constraint of a higher
/// priority is never given up to better satisfy any number of constraints of lower priorities; within one
/// priority, violations are summed, each times the constraint's weight. Every call that fails throws a
/// `SolverError` and leaves the solver exactly as it was. Results are deterministic: the same calls give
/// bit-identical values.
///
/// A solver is used by one thread at a time; separate solvers share nothing. The C functions are `moa_solver_*`,
/// `moa_var_*` and `moa_cons_*` in `moa.h`.
public final class Solver {
    // Not checked at run time: a `Solver` is used by one thread at a time and never re-entered (it calls no user
    // code), and the dynamic checks were a third of the time of reading values back (callgrind, animate-10k).
    @exclusivity(unchecked) var core = SolverCore()

    /// Creates an empty solver. C: `moa_solver_new`.
    public init() {}

    /// Removes every variable and constraint; handles from before the reset become stale. C: `moa_solver_reset`.
    public func reset() { core.reset() }

    // MARK: - Variables

    /// The number of live variables.
    public var variableCount: Int { core.variableCount }

    /// The number of live constraints (active or not), not counting edit variables.
    public var constraintCount: Int { core.constraintCount }

    /// How large the tableau may grow and how much work one call may do (`SolverLimits`; kept by `reset()`). A
    /// new limit applies from the next call.
    public var limits: SolverLimits {
        get { core.limits }
        set { core.limits = newValue }
    }

    /// A deadline on `monotonicSeconds()` (0: none) for every call made until it is cleared, besides
    /// `limits.maxSeconds`: a call still running at it stops between two pivots, undoes what it did and throws
    /// `.limit`. A layout sets it for the solver calls one of its own calls makes.
    public var callDeadline: Double {
        get { core.callDeadline }
        set { core.callDeadline = newValue }
    }

    /// Calls `check` every `pivots` pivots (at least 1) inside one call that pivots that much (a single add, a
    /// removal, an optimisation), with the pivots the call has made so far: returning false stops the call,
    /// which fails with `.limit` and leaves the solver as it was, as a pivot limit does. It runs with the solver
    /// in the middle of the call: it must not use this solver (check a deadline, a cancel flag, update a
    /// progress bar). nil removes it. While one is set, adds are journaled and never deferred (as under any
    /// work limit). Undoing a call is never checked. C: `moa_solver_set_progress`.
    public func setProgressCheck(every pivots: Int = 256, _ check: ((Int) -> Bool)?) {
        core.progress = check.map { ProgressCheck(every: min(max(1, pivots), 1 << 40), check: $0) }
    }

    /// What the solver has in use: tableau rows and cells, variables and constraints.
    public var usage: SolverUsage { core.usage }

    /// Creates a variable named `name` (used in dumps and descriptions). Its value is 0 until constraints say
    /// otherwise. C: `moa_var_new`.
    public func addVariable(name: String = "") -> Variable { core.addVariable(name: name) }

    /// Ranks `v`, a variable that no constraint holds yet, just above `w` (below every variable made after
    /// `w`): a constraint defines its highest-ranked variable, so constraints then read `v` as made right after
    /// `w`. Variables rank by when they were made otherwise. A layout places the guides it makes between views
    /// that already exist (a chain's spacers) just above the view before them: `spacer.leading == a.trailing`
    /// then defines the spacer's position and `spacer.trailing == b.leading` the next view's, instead of each
    /// view's position going into a row that holds every gap before it. Returns false, and nothing changes,
    /// when a constraint holds `v`, the variable made after `w` was itself placed, or 63 variables are placed
    /// there already. The order shapes the tableau only, never the solution.
    @discardableResult
    public func placeRank(of v: Variable, justAbove w: Variable) throws(SolverError) -> Bool {
        try core.placeRank(of: v, justAbove: w)
    }

    /// Ranks `v`, a variable that no constraint holds yet, just below `w` (above every variable `w` ranks
    /// above): a layout ranks the guide whose size its views' sizes are tied to below all of them, so that each
    /// tie defines its view's size. Returns false, and nothing changes, as `placeRank(of:justAbove:)` does.
    @discardableResult
    public func placeRank(of v: Variable, justBelow w: Variable) throws(SolverError) -> Bool {
        try core.placeRank(of: v, justBelow: w)
    }

    /// Ranks the variables of `batch`, constraints about to be added in one go, that no constraint holds yet (nor
    /// any placed rank: `placeRank`) so that adding the batch in any order defines them as adding it in a growing
    /// order would: each required equality defines a variable of its own, ranked above the other variables it
    /// holds. A program that makes views and writes their equations in arbitrary orders (a Lua `pairs` loop)
    /// otherwise numbers a chain against itself, and links that join two pieces of it go in as rows holding the
    /// chain so far (a column of 10,000 views: 1.9M cells against 33k). The variables only trade the ranks they
    /// hold among them; no other variable's rank moves, and the order shapes the tableau only, never the
    /// solution. Terms of unknown variables are skipped (the adds report them). O(terms of the batch).
    /// - Returns: what to give `restoreRanks(_:)` when the batch is not added after all.
    @discardableResult
    public func rankFreshVariables(for batch: [(expression: Expression, relation: Relation, priority: Double)])
        -> RankSnapshot {
        core.rankFreshVariables(batch)
    }

    /// Gives the variables of `snapshot` back the symbols, so the ranks, they had before
    /// `rankFreshVariables(for:)`, when no constraint holds any of them again (the batch was taken out);
    /// otherwise nothing changes. (A symbol that an add placed beside another keeps its place: the solver's adds
    /// and removals move ranks of variables nothing holds as they always did, never a solution.)
    public func restoreRanks(_ snapshot: RankSnapshot) { core.restoreRanks(snapshot) }

    /// Whether `v` ranks above `w` (see `placeRank(of:justAbove:)`).
    public func ranks(_ v: Variable, above w: Variable) throws(SolverError) -> Bool {
        try core.ranks(v, above: w)
    }

    /// Frees a variable; its handle becomes stale. Throws `.misuse` while a constraint or an edit uses it.
    /// C: `moa_var_free`.
    public func removeVariable(_ v: Variable) throws(SolverError) { try core.removeVariable(v) }

    /// True when `v` is a live variable of this solver.
    public func contains(_ v: Variable) -> Bool { core.contains(v) }

    /// The variable's name. C: `moa_var_name`.
    public func name(of v: Variable) throws(SolverError) -> String { try core.name(of: v) }

    /// Renames a variable. C: `moa_var_set_name`.
    public func setName(_ name: String, of v: Variable) throws(SolverError) { try core.setName(name, of: v) }

    /// The variable's value as of the last `updateVariables()`. C: `moa_var_value`.
    public func value(of v: Variable) throws(SolverError) -> Double { try core.value(of: v) }

    /// The value of the live variable at `index` (`Variable.index`), unchecked: for a caller that keeps its own
    /// table of the variables it made (`Layout.solve()` reads four per view that moved).
    package func _value(atIndex index: Int) -> Double { core.varValue[index] }

    /// The values of `vars` as of the last `updateVariables()` into `out[0 ..< vars.count]`: many reads for the
    /// price of one call (a frame that reads every variable). Throws `.unknownVariable` if any handle is stale,
    /// `.invalidArgument` if `out` is shorter than `vars`; then nothing is written. C: `moa_solver_values`.
    public func values(of vars: UnsafeBufferPointer<Variable>,
                       into out: UnsafeMutableBufferPointer<Double>) throws(SolverError) {
        try core.values(of: vars, into: out)
    }

    // MARK: - Constraints

    /// Adds `expression REL 0` and makes it active.
    ///
    /// - Parameters:
    ///   - priority: in `(0, 1000]`; 1000 (the default) is required.
    ///   - weight: how much a violation counts against others of the same priority (default 1).
    ///   - tag: a name reported in conflicts and dumps.
    /// - Returns: the constraint's handle.
    /// - Throws: `.unsatisfiable` with a minimal set of conflicting required constraints; `.unknownVariable`;
    ///   `.invalidArgument` for NaN, infinite or out-of-range numbers (beyond ±1e12). A failed add changes nothing.
    ///
    /// C: `moa_solver_add`.
    @discardableResult
    public func add(_ expression: Expression, _ relation: Relation, priority: Double = Priority.required,
                    weight: Double = 1, tag: String = "") throws(SolverError) -> Constraint {
        try core.repairing { (c) throws(SolverError) in
            try c.add(expression, relation, priority: priority, weight: weight, tag: tag)
        }
    }

    /// Adds the constraints of `batch` in one call, all or nothing. Their variables that no constraint holds
    /// yet are ranked first (`rankFreshVariables(for:)`), so the tableau, and the time it takes, depend on neither
    /// the order of the batch nor the order the variables were made in (a program that makes its variables and
    /// writes its constraints in arbitrary orders: a column of 10,000 views numbered and listed at random builds
    /// 33k cells instead of 1.9M); then each item is added as `add(_:_:priority:weight:tag:)` adds it. The
    /// work limits (`limits`, the progress check) cover the whole batch.
    ///
    /// - Returns: the constraints' handles, in the batch's order.
    /// - Throws: a `BatchError` naming the item that failed and why (with a conflict's other items). The adds
    ///   run in one transaction, so a failure changes nothing: the solver is exactly as before the call (its
    ///   `dump()` included).
    ///
    /// C: `moa_solver_add_many`.
    @discardableResult
    public func add(_ batch: [ConstraintSpec]) throws(BatchError) -> [Constraint] {
        var failure = (index: 0, batchConflicts: [Int]())
        do {
            return try core.repairing { (c) throws(SolverError) in
                failure = (0, [])
                return try c.add(batch, failure: &failure)
            }
        } catch {
            throw BatchError(index: failure.index, error: error, batchConflicts: failure.batchConflicts)
        }
    }

    /// Names the constraints added without a tag, in `dump()`, `tag(of:)` and `description(of:)`, computed only
    /// when asked for (a layout names its constraints by their current equations this way, instead of formatting
    /// a tag for every add). It must not call the solver.
    public var tagProvider: ((Constraint) -> String)? {
        get { core.tagProvider }
        set { core.tagProvider = newValue }
    }

    /// Removes a constraint for good; its handle becomes stale. C: `moa_cons_remove`.
    public func remove(_ c: Constraint) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.remove(c) }
    }

    /// Removes several constraints for good, as one change (a layout taking down a subtree): the order is the
    /// solver's (each definition goes once nothing uses it, instead of being written out into the rows that
    /// use it), and the optimum is found once at the end. All or nothing: a stale or repeated handle throws
    /// before anything changes, and a failure changes nothing.
    public func remove(_ cs: [Constraint]) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.remove(cs) }
    }

    /// True when `c` is a live constraint of this solver (active or not).
    public func contains(_ c: Constraint) -> Bool { core.contains(c) }

    /// Whether the constraint takes part in solving. C: `moa_cons_is_active`.
    public func isActive(_ c: Constraint) throws(SolverError) -> Bool { try core.isActive(c) }

    /// Puts a deactivated constraint back. Throws `.duplicateConstraint` if it is already active, or
    /// `.unsatisfiable`. C: `moa_cons_set_active(s, c, 1)`.
    public func activate(_ c: Constraint) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.activate(c) }
    }

    /// Takes a constraint out of solving but keeps it (and its handle) for a later `activate`. Throws `.misuse`
    /// if it is not active. C: `moa_cons_set_active(s, c, 0)`.
    public func deactivate(_ c: Constraint) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.deactivate(c) }
    }

    /// The constraint's constant (the `constant` of its expression). C: `moa_cons_constant`.
    public func constant(of c: Constraint) throws(SolverError) -> Double { try core.constant(of: c) }

    /// Changes a constraint's constant in place: one incremental re-solve (dual simplex), no remove + add. For a
    /// required constraint that cannot hold with the new constant, throws `.unsatisfiable` and changes nothing.
    /// C: `moa_cons_set_constant`.
    public func setConstant(_ value: Double, of c: Constraint) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.setConstant(value, of: c) }
    }

    /// Sets several constants as one change: every shift first, then one re-solve (thousands of measured heights
    /// after a rotation). All or nothing: a stale handle or a bad value throws before anything changes, and a
    /// required constraint that cannot hold throws `.unsatisfiable` with the solver as it was.
    public func setConstants(_ changes: [(Constraint, Double)]) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.setConstants(changes) }
    }

    /// The constraint's priority. C: `moa_cons_priority`.
    public func priority(of c: Constraint) throws(SolverError) -> Double { try core.priority(of: c) }

    /// Changes a constraint's priority, also to or from required (1000); atomic. C: `moa_cons_set_priority`.
    public func setPriority(_ p: Double, of c: Constraint) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.setPriority(p, of: c) }
    }

    /// The constraint's weight within its priority. C: `moa_cons_weight`.
    public func weight(of c: Constraint) throws(SolverError) -> Double { try core.weight(of: c) }

    /// Changes the constraint's weight (positive, finite). C: `moa_cons_set_weight`.
    public func setWeight(_ w: Double, of c: Constraint) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.setWeight(w, of: c) }
    }

    /// The tag given when the constraint was added. C: `moa_cons_tag`.
    public func tag(of c: Constraint) throws(SolverError) -> String { try core.tag(of: c) }

    /// The constraint's expression (a variable named twice is merged into one term).
    public func expression(of c: Constraint) throws(SolverError) -> Expression { try core.expression(of: c) }

    /// Whether `expression(of: c).terms == terms`, and the constant of that expression, without making it (a
    /// layout checks this for every constant it animates, every frame).
    package func compare(_ c: Constraint, terms: [Term]) throws(SolverError) -> (sameTerms: Bool, constant: Double) {
        try core.compare(c, terms: terms)
    }

    /// The constraint's relation.
    public func relation(of c: Constraint) throws(SolverError) -> Relation { try core.relation(of: c) }

    /// The constraint as text, e.g. `x + -1*y + 10 >= 0 @750 [tag]`. C: `moa_cons_describe`.
    public func description(of c: Constraint) throws(SolverError) -> String { try core.description(of: c) }

    // MARK: - Edit variables

    /// Makes `v` an edit variable: a constraint `v == suggestion` at `priority` (below 1000). The suggestion
    /// starts at the variable's current value, so adding an edit moves nothing. C: `moa_solver_add_edit`.
    public func addEditVariable(_ v: Variable, priority: Double) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.addEditVariable(v, priority: priority) }
    }

    /// Stops editing `v`. C: `moa_solver_remove_edit`.
    public func removeEditVariable(_ v: Variable) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.removeEditVariable(v) }
    }

    /// True when `v` is an edit variable. C: `moa_solver_has_edit`.
    public func hasEditVariable(_ v: Variable) -> Bool { core.hasEditVariable(v) }

    /// Suggests a value for an edit variable: one incremental re-solve. C: `moa_solver_suggest`.
    public func suggestValue(_ value: Double, for v: Variable) throws(SolverError) {
        try core.repairing { (s) throws(SolverError) in try s.suggestValue(value, for: v) }
    }

    // MARK: - Values

    /// Computes the value of every variable; read them with `value(of:)`. C: `moa_solver_update`.
    public func updateVariables() { core.updateVariables() }

    /// The variables whose value changed in `updateVariables()` calls since the last call of this method, each
    /// once, in no particular order; the list then starts again empty. It costs what the updates cost: only rows
    /// touched since the previous update are evaluated, so after a small change (one suggestion, one constant) the
    /// list is short however large the system is. (`Layout.solve()` uses it to recompute only frames that moved.)
    public func takeChangedVariables() -> [Variable] { core.takeChangedVariables() }

    /// `takeChangedVariables()` without the array: calls `body` with each variable, then empties the list
    /// (after a frame that moved every view of a large layout, the array was megabytes made and freed). `body`
    /// may read the solver, not change it.
    public func takeChangedVariables(_ body: (Variable) -> Void) {
        do {
            let slots = core.changedSlots   // (shared, not copied; released before the list is emptied)
            for s in slots {
                let slot = Int(s)
                if core.varLive[slot] { body(Variable(slot: slot, generation: core.varGeneration[slot])) }
            }
        }
        core.forgetChangedVariables()
    }

    /// The variables `takeChangedVariables()` would return now, without taking them (the list goes on growing).
    public func changedVariablesSoFar() -> [Variable] { core.changedVariablesSoFar() }

    /// The live variables that may be able to move without breaking a constraint or worsening any priority
    /// level: those that depend on a non-basic symbol with no objective cost. Every ambiguous variable is among
    /// them (the others are fixed by the optimum). `moved`: those that one such symbol, moved alone within the
    /// constraints, was seen to change (more than 1e-7 for a step of at most 1): ambiguous for certain. `maybe`:
    /// the rest, which `Layout.ambiguities()` probes. Solves first if an optimisation is pending.
    public func freeDirections() -> (moved: [Variable], maybe: [Variable]) { core.freeDirections() }

    /// The whole solver as text: variables with values, constraints with tags, edits, the tableau rows with
    /// their constants, and the objective per priority level. Symbols: variable names, `s` slack, `e` error,
    /// `d` dummy. C: `moa_solver_dump`.
    public func dump() -> String { core.dump() }

    /// Runs `body` on this solver, then puts the solver back exactly as it was: constraints, edits, values and
    /// the list of changed variables (a what-if, as `Layout.ambiguities()` probes the layout). Handles made inside
    /// must not be kept: after the trial they may name later objects. The cost beyond `body` is one copy of each
    /// of the solver's arrays that `body` changes.
    public func trial<T>(_ body: (Solver) throws -> T) rethrows -> T {
        let saved = core
        defer { core = saved }
        return try body(self)
    }

    /// Debugging aid (not API): the first inconsistency of the tableau with the constraints, or nil.
    public func _consistencyProblem() -> String? { core.consistencyProblem() }

    /// Debugging aid (not API): `_consistencyProblem()` after a trial shift of each active constraint's constant
    /// (each undone), which also finds wrong dummy content (constant changes and removals would go wrong).
    public func _deepConsistencyProblem() -> String? { core.deepConsistencyProblem() }

    /// Tableaus rebuilt from the constraints after numerical trouble (not API; see `SolverCore.repairing`).
    public var _refactorizations: Int { core.tab.stats.refactorizations }

    /// Times the rows were renumbered in rank order (not API; see `Tableau.renumberRowsInRankOrder`).
    public var _rowRenumberings: Int { core.tab.stats.rowRenumberings }

    /// When rows are renumbered in rank order (not API; tests lower both): the fewest rows a tableau must have,
    /// and how many times its cost the full evaluations over scattered rows must have read first.
    public func _renumberRows(minimumRows: Int, costFactor: Int) {
        core.tab.rowOrderMinimum = max(0, minimumRows)
        core.tab.renumberingCostFactor = max(0, costFactor)
    }

    /// Debugging aid (not API): renumbers the rows in rank order now, as an update that found them scattered
    /// does. Returns false when it cannot (pending changes: call `updateVariables()` first).
    public func _renumberRowsNow() -> Bool { core.tab.renumberRowsInRankOrder() }

    /// Debugging aid (not API): rebuilds the tableau from the constraints, as a call that meets numerical
    /// trouble does (`SolverCore.repairing`). Returns false, changing nothing, when the rebuild fails.
    public func _rebuild() -> Bool { core.refactorize() }

    /// Debugging aid (not API): moves constraint `c`'s constant by `delta` in its record only, so that the
    /// tableau lags the constraint as a row worn by rounding does (tests of the repair paths).
    public func _wear(_ c: Constraint, constantBy delta: Double) throws(SolverError) {
        core.cons[try core.checked(c)].constant += delta
    }
    public var _driftRepairs: Int { core.tab.stats.driftRepairs }

    /// Priority levels the objective holds (not API): levels no constraint uses are collected.
    public var _levelCount: Int { core.tab.levels.count }

    /// Statistics (not API): pivots by kind (subject of a new row, optimisation, phase one, dual simplex).
    public var _pivotsByKind: [Int] { core.tab.stats.pivotsByKind }
    public var _rowsRewrittenByKind: [Int] { core.tab.stats.rowsRewrittenByKind }
    public var _cellsVisitedByKind: [Int] { core.tab.stats.cellsVisitedByKind }
    /// Candidates looked at when choosing entering symbols (not API).
    public var _candidateLooks: Int { core.tab.stats.candidateLooks }
    /// Definitions that took their variable from an active row, and rows visited by downstream searches (not API).
    public var _swaps: (definitions: Int, downstreamVisits: Int) {
        (core.tab.stats.swaps, core.tab.stats.downstreamVisits)
    }

    /// Definitions removed so far (not API): dropped while unused, dropped while used (their marker pivoted out
    /// of what uses them), made ordinary rows first.
    public var _definitionRemovals: (unused: Int, used: Int, activated: Int) {
        let d = core.tab.stats.definitionRemovals
        return (d[0], d[1], d[2])
    }

    /// Flat constants of definitions recomputed after a constant changed (not API): read from the evaluated
    /// values, and definitions walked to recompute the rest (`Tableau.flatConstant`).
    public var _flatConstants: (fromValues: Int, rowsWalked: Int) {
        (core.tab.stats.flatConstantsFromValues, core.tab.stats.flatConstantRowsWalked)
    }

    /// Statistics for benchmarks and profiling (not API): pivots done so far, and tableau rows and cells in use
    /// (passive definitions, active rows with an external basic, active rows with a restricted basic).
    public var _statistics: (pivots: Int, expansions: Int, rows: Int, cells: Int, longestColumn: Int,
                             passive: (rows: Int, cells: Int), external: (rows: Int, cells: Int),
                             restricted: (rows: Int, cells: Int)) {
        var rows = 0, cells = 0
        var passive = (rows: 0, cells: 0), external = (rows: 0, cells: 0), restricted = (rows: 0, cells: 0)
        for r in core.tab.rows where r.basic.isValid {
            rows += 1; cells += r.cells.count
            if r.passive { passive.rows += 1; passive.cells += r.cells.count }
            else if core.tab.kind[r.basic] == .external { external.rows += 1; external.cells += r.cells.count }
            else { restricted.rows += 1; restricted.cells += r.cells.count }
        }
        return (core.tab.stats.pivots, core.tab.stats.expansions, rows, cells, core.tab.cols.longest,
                passive, external, restricted)
    }
}
