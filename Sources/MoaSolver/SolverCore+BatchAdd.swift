// Moa — adding many constraints in one call: ranked first, all or nothing.

/// One constraint of a batch for `Solver.add(_:)`: `expression relation 0` at `priority` (required by default),
/// with a weight and a tag as `Solver.add(_:_:priority:weight:tag:)` takes them. C: `moa_cons_spec`.
public struct ConstraintSpec {
    public var expression: Expression
    public var relation: Relation
    public var priority: Double
    public var weight: Double
    public var tag: String

    public init(_ expression: Expression, _ relation: Relation, priority: Double = Priority.required,
                weight: Double = 1, tag: String = "") {
        self.expression = expression
        self.relation = relation
        self.priority = priority
        self.weight = weight
        self.tag = tag
    }
}

/// Why `Solver.add(_:)` changed nothing: the item of the batch at `index` failed with `error`. For
/// `.unsatisfiable`, the error's conflicts are the constraints that were in the solver before the call, and
/// `batchConflicts` the (ascending) indexes of the batch's other items in the same minimal set: drop any one of
/// either list, or the item at `index`, and the rest can hold.
public struct BatchError: Error, Equatable, Sendable, CustomStringConvertible {
    public let index: Int
    public let error: SolverError
    public let batchConflicts: [Int]

    public var description: String {
        var text = "item \(index) of the batch: \(error)"
        if !batchConflicts.isEmpty {
            text += " and with item\(batchConflicts.count == 1 ? "" : "s") "
            text += batchConflicts.map(String.init).joined(separator: ", ") + " of the batch"
        }
        return text
    }
}

extension SolverCore {
    /// See `Solver.add(_:)`. The adds run in one transaction of the tableau, so a failure puts back exactly
    /// what was there (the rows, the symbols, the levels, the ranks): the dump reads as before the call. Each add
    /// optimises or defers as an add outside a transaction does (`batchOpen`). On failure `failure` holds the
    /// failing item's index and the batch's own items of a conflict; the error thrown names the constraints that
    /// were there before.
    mutating func add(_ batch: [ConstraintSpec], failure: inout (index: Int, batchConflicts: [Int]))
        throws(SolverError) -> [Constraint] {
        guard !tab.journal.isOpen else { throw .misuse("a batch cannot be added inside another call") }
        collectUnusedLevels()   // between calls only: each add inside the transaction skips it
        let ranks = rankFreshVariables(batch.map { ($0.expression, $0.relation, $0.priority) })
        let state = (needsOptimize, addsSinceUpdate, pivotsSinceUpdate, deferring)
        var added: [Constraint] = []
        added.reserveCapacity(batch.count)
        for item in batch { readyInsertion(of: item.expression) }   // the adds change rows: read while current
        tab.begin()
        batchOpen = true
        defer { batchOpen = false }
        do throws(SolverError) {
            for (i, item) in batch.enumerated() {
                failure.index = i
                added.append(try add(item.expression, item.relation, priority: item.priority, weight: item.weight,
                                     tag: item.tag))
            }
        } catch {
            var reported = error
            if case .unsatisfiable(let list) = error, !added.isEmpty {
                var position: [UInt64: Int] = [:]
                for (i, c) in added.enumerated() { position[c.rawValue] = i }
                failure.batchConflicts = list.compactMap { position[$0.rawValue] }.sorted()
                reported = .unsatisfiable(conflicts: list.filter { position[$0.rawValue] == nil })
            }
            tab.rollback()
            // The slots go back on the free list in the order they came off it (the failing add freed its own).
            for c in added.reversed() { forget(c.slot) }
            liveConstraints -= added.count
            (needsOptimize, addsSinceUpdate, pivotsSinceUpdate, deferring) = state
            restoreRanks(ranks)
            throw reported
        }
        tab.commit()
        return added
    }
}
