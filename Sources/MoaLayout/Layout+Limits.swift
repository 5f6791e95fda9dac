// Moa — limits a host sets on a layout (the size of its solver, the time one call may take), a progress handler
// that can stop a long call, and what the layout has in use. A call stopped by either fails with `.limit` and
// its transaction undoes everything it did.

import MoaSolver

/// How much one layout may take. Rows and cells bound its solver (`SolverLimits`: checked before every
/// constraint goes in); pivots bound each solver operation a call makes; the time bounds one call while it adds
/// constraints (checked every 64 of them, and every 64 pivots inside the solver). A call that reaches a limit
/// fails with `LayoutError.Kind.limit` and changes nothing.
public struct LayoutLimits: Hashable, Sendable {
    /// Rows of the solver's tableau. Default `SolverLimits.defaultMaxRows` (10,000,000).
    public var maxRows: Int
    /// Cells of the solver's tableau (the bulk of its memory, 24 bytes each). Default
    /// `SolverLimits.defaultMaxCells` (100,000,000).
    public var maxCells: Int
    /// Wall-clock seconds one call may take while it adds constraints; 0 (the default) is no limit.
    public var maxSecondsPerCall: Double
    /// Pivots one solver operation of a call may make (an add, a removal, a constant change). Default
    /// `SolverLimits.defaultMaxPivots` (10,000,000).
    public var maxPivots: Int

    /// Limits with the given values (the defaults when left out).
    public init(maxRows: Int = SolverLimits.defaultMaxRows, maxCells: Int = SolverLimits.defaultMaxCells,
                maxSecondsPerCall: Double = 0, maxPivots: Int = SolverLimits.defaultMaxPivots) {
        self.maxRows = maxRows
        self.maxCells = maxCells
        self.maxSecondsPerCall = maxSecondsPerCall
        self.maxPivots = maxPivots
    }
}

/// What a layout has in use.
public struct LayoutUsage: Hashable, Sendable {
    /// Its solver's rows, cells, variables and constraints.
    public var solver: SolverUsage
    /// Live layout constraints (equations, intrinsic sizes, root and guides, arrangements'), active or not.
    public var constraints: Int
    /// Views and guides, the root included.
    public var views: Int
}

extension Layout {
    /// The layout's limits. Setting them checks the values (rows and cells at least 1, seconds finite and at
    /// least 0); they apply from the next call.
    public var limits: LayoutLimits {
        let s = solver.limits
        return LayoutLimits(maxRows: s.maxRows, maxCells: s.maxCells, maxSecondsPerCall: maxSecondsPerCall,
                            maxPivots: s.maxPivots)
    }

    /// Sets the layout's limits.
    /// - Throws: `.invalid` for rows or cells below 1 or seconds that are negative or not finite; `.misuse`
    ///   from the progress handler.
    public func setLimits(_ limits: LayoutLimits) throws(LayoutError) {
        guard !isReportingProgress else {
            throw LayoutError(.misuse, "the limits cannot be changed from inside the progress handler")
        }
        guard limits.maxRows >= 1, limits.maxCells >= 1, limits.maxPivots >= 1 else {
            throw LayoutError(.invalid, "row, cell and pivot limits must be at least 1")
        }
        guard limits.maxSecondsPerCall.isFinite, limits.maxSecondsPerCall >= 0 else {
            throw LayoutError(.invalid, "the time limit \(formatNumber(limits.maxSecondsPerCall)) s must be finite and >= 0")
        }
        solver.limits = SolverLimits(maxRows: limits.maxRows, maxCells: limits.maxCells, maxPivots: limits.maxPivots)
        maxSecondsPerCall = limits.maxSecondsPerCall
    }

    /// Calls `handler` with the number of constraints the call has added so far, every `interval` of them,
    /// during every call that adds constraints (an `eqs` block, a view's intrinsic sizes, an arrangement's
    /// rebuild), and every `Layout.progressPivots` pivots inside one solver operation of any call (a single add
    /// or removal that pivots for long; `isReportingProgressInsideSolver` is then true). Returning false stops
    /// the call: it fails with `.limit` and the layout is as before it. The handler must not change or solve the
    /// layout (those calls fail with `.misuse`); from inside a solver operation it must not read the solver
    /// either (`ambiguities()` and `violatedConstraints()` return nothing then, `usage` and `solver` must not be
    /// used; the C layer refuses every call then). Frames and constraints' properties can be read. nil removes it.
    /// - Throws: `.invalid` if `interval` is below 1; `.misuse` from the handler itself.
    public func setProgressHandler(every interval: Int = 1000, _ handler: ((Int) -> Bool)?) throws(LayoutError) {
        guard !isReportingProgress else {
            throw LayoutError(.misuse, "the progress handler cannot be changed from inside the progress handler")
        }
        guard interval >= 1 else { throw LayoutError(.invalid, "the progress interval \(interval) must be at least 1") }
        progressHandler = handler
        progressInterval = interval
        solver.setProgressCheck(every: Layout.progressPivots, handler == nil ? nil : { [unowned self] _ in
            self._progressInsideSolver()
        })
    }

    /// Pivots between two calls of the progress handler inside one solver operation.
    public static let progressPivots = 256

    /// The progress handler, called by the solver between pivots (`setProgressHandler`): with the call's
    /// constraint count so far, and the layout closed to everything that reads the solver. Undoing is never
    /// stopped.
    func _progressInsideSolver() -> Bool {
        guard let handler = progressHandler, !isRollingBack, !isReportingProgress else { return true }
        isReportingProgress = true
        isReportingProgressInsideSolver = true
        defer { isReportingProgress = false; isReportingProgressInsideSolver = false }
        return handler(callSteps)
    }

    /// What the layout has in use: its solver's rows, cells, variables and constraints, its constraints and
    /// its views.
    public var usage: LayoutUsage {
        LayoutUsage(solver: solver.usage, constraints: byID.count,
                    views: allViews.all.reduce(0) { $0 + ($1.isValid ? 1 : 0) })
    }
}
