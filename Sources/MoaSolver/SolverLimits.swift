// Moa — limits a host sets on a solver's size and on the work of one call, and what it has in use. Rows and
// cells are checked before a row goes in; pivots and time by the simplex loops (`WorkBudget`). A call that
// reaches a limit throws `.limit` and changes nothing.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How large a solver's tableau may grow, and how much work one call may do. An add (or activation, or edit
/// variable) that finds the tableau at a rows or cells limit throws `SolverError.limit` and changes nothing; one
/// add may take the tableau past a limit by its own fill-in, the next one fails. A call (an add, a removal, a
/// constant change, a suggestion, ...) that reaches its pivots or seconds limit stops between two pivots,
/// undoes what it did and throws `.limit`. The defaults are far above what a layout needs (a 100,000-view
/// layout built in order uses about 100,000 rows and 400,000 cells, and a few pivots per call) and stop a
/// pathological system before it exhausts memory.
///
/// A solver with a pivots limit below the default or a seconds limit optimises after every add: it does not
/// leave the optimisation of a run of adds to the next update (as it otherwise does when adds keep moving the
/// optimum), where it could not fail. Updates and value reads are never limited.
public struct SolverLimits: Hashable, Sendable {
    /// Rows of the tableau (about one per active constraint). Default 10,000,000.
    public var maxRows: Int
    /// Cells of the tableau (coefficients of rows: 24 bytes each with their column entry, the bulk of the
    /// memory). Default 100,000,000 (about 2.4 GB).
    public var maxCells: Int

    /// Pivots one call may make. Default 10,000,000 (a layout's calls make a few each; rebuilding a
    /// 100,000-view layout's tableau about 60,000).
    public var maxPivots: Int
    /// Wall-clock seconds one call may take, checked every 64 pivots; 0 (the default) is no limit.
    public var maxSeconds: Double

    /// The default rows limit.
    public static let defaultMaxRows = 10_000_000
    /// The default cells limit.
    public static let defaultMaxCells = 100_000_000
    /// The default pivots limit.
    public static let defaultMaxPivots = 10_000_000

    /// Limits with the given values (the defaults when left out).
    public init(maxRows: Int = SolverLimits.defaultMaxRows, maxCells: Int = SolverLimits.defaultMaxCells,
                maxPivots: Int = SolverLimits.defaultMaxPivots, maxSeconds: Double = 0) {
        self.maxRows = maxRows
        self.maxCells = maxCells
        self.maxPivots = maxPivots
        self.maxSeconds = maxSeconds
    }

    /// No limit at all (undoing a call must not be refused).
    public static let none = SolverLimits(maxRows: .max, maxCells: .max, maxPivots: .max, maxSeconds: 0)

    /// Whether a call's work is bounded more tightly than by default (then adds are optimised at once).
    var boundsWork: Bool { maxPivots < SolverLimits.defaultMaxPivots || maxSeconds > 0 }
}

/// Seconds on the monotonic clock: what the seconds limits of solvers and layouts are measured on.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// A function a solver calls every `every` pivots inside one call (`Solver.setProgressCheck`), with the pivots
/// the call has made: false stops the call, which then fails with `.limit` and changes nothing.
struct ProgressCheck {
    var every: Int
    var check: (Int) -> Bool
}

/// The work the current call may still do, checked by the simplex loops before each pivot (`Tableau.spend`).
/// Outside a call (and while a call is undone) it is unlimited.
struct WorkBudget {
    /// `stats.pivots` at which the call stops, and the limit it came from (for the message).
    var pivotStop = Int.max
    var maxPivots = Int.max
    /// `monotonicSeconds()` at which the call stops; 0: none. `seconds` is the limit it came from.
    var deadline = 0.0
    var seconds = 0.0
    /// The progress check, when it is next due (`stats.pivots`), and the pivots at the call's start.
    var progress: ProgressCheck?
    var nextProgress = Int.max
    var startPivots = 0
    /// `stats.pivots` at which to look again: the pivot stop, the next reading of the clock or the progress check.
    var nextCheck = Int.max

    /// Pivots between readings of the clock.
    static let clockInterval = 64

    /// A budget for a call starting now, at `pivots` pivots done, under `limits`, a deadline from outside
    /// (a layout's call; 0: none) and a progress check.
    init(limits: SolverLimits, pivots: Int, deadline outer: Double, progress: ProgressCheck? = nil) {
        maxPivots = limits.maxPivots
        pivotStop = limits.maxPivots >= Int.max - pivots ? Int.max : pivots + limits.maxPivots
        if limits.maxSeconds > 0 { seconds = limits.maxSeconds; deadline = monotonicSeconds() + limits.maxSeconds }
        if outer > 0 && (deadline == 0 || outer < deadline) { deadline = outer; seconds = 0 }
        self.progress = progress
        startPivots = pivots
        if let progress { nextProgress = pivots + progress.every }
        setNextCheck(pivots)
    }

    /// No limit.
    init() {}

    private mutating func setNextCheck(_ pivots: Int) {
        nextCheck = min(pivotStop, nextProgress, deadline > 0 ? pivots + WorkBudget.clockInterval : Int.max)
    }

    /// Throws `.limit` when the call is past its pivots or its deadline, or its progress check says stop; else
    /// sets the next check.
    mutating func check(pivots: Int) throws(SolverError) {
        if pivots >= pivotStop {
            throw .limit("the call reached its limit of \(maxPivots) pivot\(maxPivots == 1 ? "" : "s")")
        }
        if deadline > 0 && monotonicSeconds() >= deadline {
            throw .limit(seconds > 0 ? "the call reached its limit of \(seconds) s" : "the call reached its deadline")
        }
        if let progress, pivots >= nextProgress {
            nextProgress = pivots + progress.every
            if !progress.check(pivots - startPivots) {
                throw .limit("the progress check stopped the call after \(pivots - startPivots) pivots")
            }
        }
        setNextCheck(pivots)
    }
}

/// What a solver has in use.
public struct SolverUsage: Hashable, Sendable {
    /// Tableau rows.
    public var rows: Int
    /// Tableau cells.
    public var cells: Int
    /// Live variables.
    public var variables: Int
    /// Live constraints, not counting edit variables.
    public var constraints: Int

    /// Creates a usage record.
    public init(rows: Int, cells: Int, variables: Int, constraints: Int) {
        self.rows = rows
        self.cells = cells
        self.variables = variables
        self.constraints = constraints
    }
}
