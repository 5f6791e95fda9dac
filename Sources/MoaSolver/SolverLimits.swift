// Moa — limits a host sets on a solver's size, and what it has in use. A limit is checked before a row goes in:
// an add that finds the tableau at a limit throws `.limit` and changes nothing.

/// How large a solver's tableau may grow. An add (or activation, or edit variable) that finds the tableau at a
/// limit throws `SolverError.limit` and changes nothing; one add may take the tableau past a limit by its own
/// fill-in, the next one fails. The defaults are far above what a layout needs (a 100,000-view layout built in
/// order uses about 100,000 rows and 400,000 cells) and stop a pathological system before it exhausts memory.
public struct SolverLimits: Hashable, Sendable {
    /// Rows of the tableau (about one per active constraint). Default 10,000,000.
    public var maxRows: Int
    /// Cells of the tableau (coefficients of rows: 24 bytes each with their column entry, the bulk of the
    /// memory). Default 100,000,000 (about 2.4 GB).
    public var maxCells: Int

    /// The default rows limit.
    public static let defaultMaxRows = 10_000_000
    /// The default cells limit.
    public static let defaultMaxCells = 100_000_000

    /// Limits with the given values (the defaults when left out).
    public init(maxRows: Int = SolverLimits.defaultMaxRows, maxCells: Int = SolverLimits.defaultMaxCells) {
        self.maxRows = maxRows
        self.maxCells = maxCells
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
