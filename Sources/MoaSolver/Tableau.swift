// Moa — the simplex tableau's storage and its primitive edits. The rest of the tableau is in
// Tableau+Simplex.swift (objective, pivoting, primal/dual simplex), Tableau+Journal.swift (transactions),
// Tableau+Passive.swift (passive definitions, their expansions and aggregate dummies) and Tableau+Evaluate.swift.
//
// Rows are `basic = constant + sum(coef * symbol)` over non-basic symbols. Each row keeps its cells in a small
// contiguous array; each symbol keeps a column list of (row, cell index) so that substituting a symbol touches
// only the rows that hold it (kiwi scans every row). Cells and column entries point at each other, so both
// removals are O(1) swap-removes. Symbols, rows, levels and columns are dense integer ids into arrays.
//
// The objective is lexicographic: one dense coefficient array per priority level in use. A symbol improves the
// objective when its first non-zero coefficient, from the highest level down, is negative.
//
// While a transaction is open (`journal.isOpen`), every row, objective and allocation change is recorded so that a
// call that fails part-way can be undone exactly.

/// The kind of a tableau symbol.
@usableFromInline enum SymbolKind: UInt8 {
    case external   // a user variable: unrestricted in sign
    case slack      // inequality slack or the artificial variable: >= 0
    case error      // soft-constraint error: >= 0, carries an objective cost
    case dummy      // marker of a required equality: always 0, never enters the basis
    case unused     // free slot
}

@usableFromInline struct Cell {
    var sym: Int32
    var colSlot: Int32   // index of this cell's entry in `cols[sym]`
    var coef: Double
}

@usableFromInline struct ColRef {
    var row: Int32
    var cell: Int32      // index of the cell in `rows[row].cells`
}

@usableFromInline struct Row {
    var basic: Int32 = -1        // -1: free slot, -2: being built
    var constant: Double = 0
    var cells: [Cell] = []
    /// A passive row defines an external variable by its constraint's own, unreduced row: its cells may hold
    /// basic symbols, it is not in the column index and never takes part in a pivot. Its variable is evaluated
    /// from earlier passive rows (creation order `seq` is a topological order). Keeping these rows out of the
    /// reduced tableau is what stops kiwi's fill-in (a chain's left edges each holding every earlier width).
    var passive = false
    var seq: UInt64 = 0
    /// For a passive row: the dummy symbol that stands, in active rows, for every dummy (required-equality
    /// marker) of this definition's full expansion; -1 until first needed. Chained definitions
    /// (`top_i == top_{i-1}`) would otherwise put i dummies into each row that uses `top_i`.
    var aggregate: Int32 = -1
    /// For a passive row: the slot of the constraint it is the row of (-1 otherwise).
    var constraint: Int32 = -1
}

/// A passive row's expansion through the passive rows it depends on, dummies left out (its aggregate stands for
/// them): `constant + sum(coefs * syms)` over symbols that are not passive basics. Cached while it is short, so
/// that a row using the last of a chain of definitions (`top_i == top_{i-1}`) does not walk the whole chain.
/// Valid while the row's `seq` and the tableau's `flatEpoch` match; definitions upstream changing shape clear it.
@usableFromInline struct FlatExpansion {
    var seq: UInt64 = 0          // the row's seq when computed; 0: not computed
    var epoch: UInt32 = 0
    var long = false             // more than `Tableau.flatLimit` terms: expand the row's own cells instead
    var constant = 0.0
    var syms: [Int32] = []
    var coefs: [Double] = []
}

@usableFromInline struct Level {
    var priority: Double
    var coef: [Double]           // by symbol
    var constant: Double = 0
}

/// Tolerances. Coefficients smaller than `coefEpsilon` are dropped; constants within `constantEpsilon` of zero
/// count as zero. Inputs are limited to `maxMagnitude`, so that products stay far from overflow and coordinates
/// up to 1e6 keep about 10 exact decimal digits.
@usableFromInline enum Tolerance {
    static let coefEpsilon = 1e-9
    static let constantEpsilon = 1e-8
    static let maxMagnitude = 1e12
    /// Objective coefficients below this, with no row to bound them, are rounding noise (weights are >= 1e-6).
    static let objectiveNoise = 1e-6
    /// Pivot elements smaller than this are not pivoted on.
    static let pivotEpsilon = 1e-7
    /// Objective coefficients within this of zero count as zero when choosing pivots: rounding noise at a higher
    /// priority level must not hide a real improvement at a lower one.
    static let objectiveEpsilon = 1e-7
    /// A weight's allowed range: wide enough for any use, narrow enough to keep noise apart from real costs.
    static let minWeight = 1e-6
    static let maxWeight = 1e6
}

/// The rows that `Tableau.evaluate()` must look at: rows changed since the last evaluation, and the symbols whose
/// value may have changed (the basic of a changed row, before and after).
struct PendingChanges {
    var isRowDirty: [Bool] = []           // by row
    var rows: [Int32] = []
    var isSymDirty: [Bool] = []           // by symbol
    var syms: [Int32] = []
    /// External symbols whose value `evaluate` changed (or may have), for the caller to copy out.
    var externals: [Int32] = []
    /// Set when `evaluate` did a full pass (every value may have changed).
    var evaluatedAll = true
}

/// Work buffers of single operations, kept so that no operation allocates once they have grown. Their contents
/// mean nothing between operations (the per-symbol ones are back to their neutral value: -1, 0, false).
struct Scratch {
    var pos: [Int32] = []                 // by symbol: its cell index in the row being merged, else -1
    var aggregateRank: [Int32] = []       // by symbol, for `retireAggregates`: retirement order (grown lazily)
    var expandCoef: [Double] = []         // by symbol, for `setReduced`: pending coefficient
    var expandQueued: [Bool] = []         // by symbol, for `setReduced` and `definable`
    var heap: [(UInt64, Int32)] = []      // passive rows to expand, latest first (`setReduced`, `evaluate`, ...)
    var touched: [Int32] = []             // non-basic symbols met by `setReduced`
    var flatStack: [Int32] = []           // for `flatten`
    var flatCoef: [Double] = []           // by symbol, for `computeFlat`
    var flatMark: [Bool] = []             // by symbol, for `computeFlat`
    var flatTouched: [Int32] = []
    var pivotSyms: [Int32] = []           // a copy of the pivot row's cells (`loadPivot`)
    var pivotCoefs: [Double] = []

    /// Grows the per-symbol buffers by one symbol.
    mutating func addSymbol() {
        pos.append(-1); expandCoef.append(0); expandQueued.append(false); flatCoef.append(0); flatMark.append(false)
    }

    /// Pushes onto `heap`, a max-heap on the key (a passive row's `seq`: latest first).
    mutating func heapPush(_ e: (UInt64, Int32)) {
        heap.append(e)
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if heap[p].0 >= heap[i].0 { break }
            heap.swapAt(p, i); i = p
        }
    }

    /// Pops the entry with the largest key from `heap`.
    mutating func heapPop() -> (UInt64, Int32)? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && heap[l].0 > heap[m].0 { m = l }
                if r < heap.count && heap[r].0 > heap[m].0 { m = r }
                if m == i { break }
                heap.swapAt(m, i); i = m
            }
        }
        return top
    }

    /// Shrinks the per-symbol buffers by the last `n` symbols.
    mutating func removeLastSymbols(_ n: Int) {
        pos.removeLast(n); expandCoef.removeLast(n); expandQueued.removeLast(n); flatCoef.removeLast(n)
        flatMark.removeLast(n)
        if aggregateRank.count > pos.count { aggregateRank.removeLast(aggregateRank.count - pos.count) }
    }
}

/// The phase-one objective: the artificial variable's row, minimised while adding a constraint that no subject
/// could take (only during that add). `syms` then holds the certificate of a failure.
struct PhaseOne {
    var isActive = false
    var syms: [Int32] = []
    var coefs: [Double] = []
    var constant: Double = 0
    var index: [Int32] = []               // by symbol: its index in `syms`, or -1
}

/// Counters for benchmarks and debugging.
struct TableauStatistics {
    var pivots = 0                        // pivots done
    var pivotKind = 0                     // what the pivots are for: 0 subject, 1 optimize, 2 phase one, 3 dual
    var pivotsByKind = [0, 0, 0, 0]
    var expansions = 0                    // passive rows expanded by `setReduced`
}

struct Tableau {
    // Symbols: dense ids into these arrays.
    var kind: [SymbolKind] = []
    var owner: [Int32] = []               // constraint slot (slack/error/dummy) or variable slot (external)
    var rowOf: [Int32] = []               // row index when basic, else -1
    var cols: [[ColRef]] = []             // the active rows that hold the symbol
    var pcols: [[ColRef]] = []            // the passive rows that hold the symbol (passive cells' column index)
    var isCandidate: [Bool] = []          // in `candidates`
    var aggregateOf: [Int32] = []         // for an aggregate dummy: its passive row, else -1
    var symValue: [Double] = []           // values after `evaluate` (basic symbols; non-basic ones are 0)
    var freeSyms: [Int32] = []

    // Rows: dense ids into these arrays.
    var rows: [Row] = []
    var freeRows: [Int32] = []
    var rowStamp: [UInt32] = []           // the transaction that last recorded the row (`touch`)
    var passiveOrder: [(Int32, UInt64)] = []   // passive rows by creation (stale entries skipped)
    var nextSeq: UInt64 = 1
    var flats: [FlatExpansion] = []
    var flatEpoch: UInt32 = 1
    static let flatLimit = 16

    // Objective: one level per priority in use.
    var levels: [Level] = []
    var levelOrder: [Int32] = []          // level ids by priority, highest first
    var candidates: [Int32] = []          // non-basic symbols that may improve the objective (unordered)
    var phaseOne = PhaseOne()
    var infeasible: [Int32] = []          // basics of rows the dual simplex must make feasible

    var journal = Journal()
    var changes = PendingChanges()
    var scratch = Scratch()
    var stats = TableauStatistics()

    var symbolCount: Int { kind.count }

    // MARK: - Symbols

    mutating func newSymbol(_ k: SymbolKind, owner o: Int32) -> Int32 {
        let s: Int32
        if let f = freeSyms.popLast() {
            s = f
            if journal.isOpen { journal.poppedSymbol(f, leaving: freeSyms.count) }
        } else {
            s = Int32(kind.count)
            kind.append(.unused); owner.append(-1); rowOf.append(-1); cols.append([]); pcols.append([])
            isCandidate.append(false); aggregateOf.append(-1); symValue.append(0)
            changes.isSymDirty.append(false)
            phaseOne.index.append(-1)
            scratch.addSymbol()
            for l in levels.indices { levels[l].coef.append(0) }
        }
        kind[Int(s)] = k
        owner[Int(s)] = o
        rowOf[Int(s)] = -1
        aggregateOf[Int(s)] = -1
        return s
    }

    /// Frees a symbol that occurs nowhere (or whose remaining occurrences are numerical residue).
    mutating func releaseSymbol(_ s: Int32) {
        purge(s)
        if journal.isOpen { journal.pendingFreeSyms.append(s); return }
        kind[Int(s)] = .unused
        owner[Int(s)] = -1
        freeSyms.append(s)
    }

    /// Removes every occurrence of `s` (its row if basic, its cells, its objective coefficients): `s` becomes 0.
    mutating func purge(_ s: Int32) {
        let r = rowOf[Int(s)]
        if r >= 0 { freeRow(r) }
        while let ref = cols[Int(s)].last {
            touch(ref.row)
            removeCell(ref.row, Int(ref.cell))
        }
        for l in levels.indices where levels[l].coef[Int(s)] != 0 {
            objAdd(Int32(l), s, -levels[l].coef[Int(s)])
        }
    }

    // MARK: - Rows

    mutating func allocRow() -> Int32 {
        let r: Int32
        if let f = freeRows.popLast() {
            r = f
            if journal.isOpen { journal.poppedRow(f, leaving: freeRows.count) }
        } else {
            r = Int32(rows.count)
            rows.append(Row())
            rowStamp.append(0)
            flats.append(FlatExpansion())
            changes.isRowDirty.append(false)
        }
        touch(r)
        rows[Int(r)].basic = -2
        rows[Int(r)].constant = 0
        return r
    }

    mutating func freeRow(_ r: Int32) {
        touch(r)
        while !rows[Int(r)].cells.isEmpty { removeCell(r, rows[Int(r)].cells.count - 1) }
        let b = rows[Int(r)].basic
        if b >= 0 && rowOf[Int(b)] == r { rowOf[Int(b)] = -1 }
        rows[Int(r)].basic = -1
        rows[Int(r)].constant = 0
        rows[Int(r)].passive = false
        rows[Int(r)].aggregate = -1
        rows[Int(r)].constraint = -1
        freeRows.append(r)
    }

    /// Records the row's state before its first change in the open transaction.
    @inline(__always) mutating func touch(_ r: Int32) {
        if !changes.isRowDirty[Int(r)] { markDirty(r) }
        guard journal.isOpen, rowStamp[Int(r)] != journal.txId else { return }
        rowStamp[Int(r)] = journal.txId
        let row = rows[Int(r)]
        journal.rows.append((r, row.basic == -1 ? nil : row))
    }

    /// Appends a cell to row `r` and its entry to the symbol's column (`pcols` for a passive row).
    /// Marks row `r` for `evaluate`, and its basic symbol as one whose value may change.
    mutating func markDirty(_ r: Int32) {
        changes.isRowDirty[Int(r)] = true
        changes.rows.append(r)
        let b = rows[Int(r)].basic
        if b >= 0 && !changes.isSymDirty[Int(b)] { changes.isSymDirty[Int(b)] = true; changes.syms.append(b) }
    }

    mutating func appendCell(_ r: Int32, _ s: Int32, _ coef: Double) {
        let cellIndex = Int32(rows[Int(r)].cells.count)
        let colSlot: Int32
        if rows[Int(r)].passive {
            colSlot = Int32(pcols[Int(s)].count)
            pcols[Int(s)].append(ColRef(row: r, cell: cellIndex))
        } else {
            colSlot = Int32(cols[Int(s)].count)
            cols[Int(s)].append(ColRef(row: r, cell: cellIndex))
        }
        rows[Int(r)].cells.append(Cell(sym: s, colSlot: colSlot, coef: coef))
    }

    /// Swap-removes cell `i` of row `r` and its column entry.
    mutating func removeCell(_ r: Int32, _ i: Int) {
        let passive = rows[Int(r)].passive
        let cell = rows[Int(r)].cells[i]
        let s = Int(cell.sym), slot = Int(cell.colSlot)
        let lastRef = passive ? pcols[s].removeLast() : cols[s].removeLast()
        if slot < (passive ? pcols[s].count : cols[s].count) {
            if passive { pcols[s][slot] = lastRef } else { cols[s][slot] = lastRef }
            rows[Int(lastRef.row)].cells[Int(lastRef.cell)].colSlot = Int32(slot)
        }
        let lastCell = rows[Int(r)].cells.removeLast()
        if i < rows[Int(r)].cells.count {
            rows[Int(r)].cells[i] = lastCell
            if passive {
                pcols[Int(lastCell.sym)][Int(lastCell.colSlot)].cell = Int32(i)
            } else {
                cols[Int(lastCell.sym)][Int(lastCell.colSlot)].cell = Int32(i)
            }
        }
    }

    /// The index of `s` among the cells of row `r`, searching the shorter of the row and the column.
    func cellIndex(_ r: Int32, _ s: Int32) -> Int? {
        let cells = rows[Int(r)].cells
        let col = cols[Int(s)]
        if cells.count <= col.count || rows[Int(r)].passive {
            for i in cells.indices where cells[i].sym == s { return i }
        } else {
            for ref in col where ref.row == r { return Int(ref.cell) }
        }
        return nil
    }

    func coefficient(_ r: Int32, _ s: Int32) -> Double {
        if let i = cellIndex(r, s) { return rows[Int(r)].cells[i].coef }
        return 0
    }

    /// row[r] += coef * s
    mutating func addTerm(_ r: Int32, _ s: Int32, _ coef: Double) {
        if let i = cellIndex(r, s) {
            let v = rows[Int(r)].cells[i].coef + coef
            if abs(v) < Tolerance.coefEpsilon { removeCell(r, i) } else { rows[Int(r)].cells[i].coef = v }
        } else if abs(coef) >= Tolerance.coefEpsilon {
            appendCell(r, s, coef)
        }
    }

    /// Copies row `r` into the pivot scratch buffers.
    mutating func loadPivot(_ r: Int32) {
        scratch.pivotSyms.removeAll(keepingCapacity: true)
        scratch.pivotCoefs.removeAll(keepingCapacity: true)
        for c in rows[Int(r)].cells {
            scratch.pivotSyms.append(c.sym)
            scratch.pivotCoefs.append(c.coef)
        }
    }

    /// row[r] += factor * (pivot scratch terms); the constant is handled by the caller.
    mutating func mergePivot(into r: Int32, factor: Double) {
        let n = rows[Int(r)].cells.count
        for i in 0..<n { scratch.pos[Int(rows[Int(r)].cells[i].sym)] = Int32(i) }
        for j in scratch.pivotSyms.indices {
            let s = scratch.pivotSyms[j]
            let delta = factor * scratch.pivotCoefs[j]
            let p = Int(scratch.pos[Int(s)])
            if p >= 0 {
                let v = rows[Int(r)].cells[p].coef + delta
                if abs(v) < Tolerance.coefEpsilon {
                    scratch.pos[Int(s)] = -1
                    let last = rows[Int(r)].cells.count - 1
                    if p < last { scratch.pos[Int(rows[Int(r)].cells[last].sym)] = Int32(p) }
                    removeCell(r, p)
                } else {
                    rows[Int(r)].cells[p].coef = v
                }
            } else if abs(delta) >= Tolerance.coefEpsilon {
                scratch.pos[Int(s)] = Int32(rows[Int(r)].cells.count)
                appendCell(r, s, delta)
            }
        }
        for c in rows[Int(r)].cells { scratch.pos[Int(c.sym)] = -1 }
    }

    @inline(__always) static func clean(_ x: Double) -> Double {
        abs(x) < 1e-11 ? 0 : x
    }
}
