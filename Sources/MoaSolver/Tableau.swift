// Moa — the simplex tableau's storage and its primitive edits.
//
// Rows are `basic = constant + sum(coef * symbol)` over non-basic symbols. Each row keeps its cells in a small
// contiguous array; each symbol keeps a column list of (row, cell index) so that substituting a symbol touches
// only the rows that hold it (kiwi scans every row). Cells and column entries point at each other, so both
// removals are O(1) swap-removes. Symbols, rows, levels and columns are dense integer ids into arrays.
//
// The objective is lexicographic: one dense coefficient array per priority level in use. A symbol improves the
// objective when its first non-zero coefficient, from the highest level down, is negative.
//
// While a transaction is open (`journaling`), every row, objective and allocation change is recorded so that a
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

struct Tableau {
    // Symbols
    var kind: [SymbolKind] = []
    var owner: [Int32] = []              // constraint slot (slack/error/dummy) or variable slot (external)
    var rowOf: [Int32] = []              // row index when basic, else -1
    var cols: [[ColRef]] = []
    var isCandidate: [Bool] = []
    var pos: [Int32] = []                // scratch: cell index of a symbol in the row being merged, else -1
    var aggregateRank: [Int32] = []      // scratch of `retireAggregates`: by symbol, the order it is retired in
    var pcols: [[ColRef]] = []           // the passive rows that hold the symbol (passive cells' column index)
    var aggregateOf: [Int32] = []        // for an aggregate dummy: its passive row, else -1
    var expandCoef: [Double] = []        // scratch for `reduce`: pending coefficient of a passive basic symbol
    var expandQueued: [Bool] = []
    var heap: [(UInt64, Int32)] = []     // scratch for `setReduced`: passive rows to expand, latest first
    var touched: [Int32] = []            // scratch for `setReduced`: non-basic symbols met
    var symValue: [Double] = []          // values after `evaluate` (basic symbols; non-basic ones are 0)
    // Dirty tracking for `evaluate`: rows touched since the last evaluation, and symbols whose value may have
    // changed (the basic of a touched row, before and after).
    var rowDirty: [Bool] = []
    var dirtyRows: [Int32] = []
    var symDirty: [Bool] = []
    var dirtySyms: [Int32] = []
    /// External symbols whose value `evaluate` changed (or may have), for the caller to copy out.
    var changedExternals: [Int32] = []
    /// Set when `evaluate` did a full pass (every value may have changed).
    var evaluatedAll = true
    var freeSyms: [Int32] = []

    // Rows
    var rows: [Row] = []
    var freeRows: [Int32] = []
    var rowStamp: [UInt32] = []
    var passiveOrder: [(Int32, UInt64)] = []   // passive rows by creation (stale entries skipped)
    var nextSeq: UInt64 = 1
    var flats: [FlatExpansion] = []      // by row
    var flatEpoch: UInt32 = 1
    var flatStack: [Int32] = []          // scratch for `flatten`
    var flatCoef: [Double] = []          // scratch for `computeFlat`, by symbol
    var flatMark: [Bool] = []
    var flatTouched: [Int32] = []
    static let flatLimit = 16

    // Objective
    var levels: [Level] = []
    var levelOrder: [Int32] = []         // level ids by priority, highest first
    var candidates: [Int32] = []         // non-basic symbols that may improve the objective (unordered)

    // Phase-one objective (only while adding with an artificial variable)
    var artActive = false
    var artSyms: [Int32] = []
    var artCoefs: [Double] = []
    var artConstant: Double = 0
    var artIndex: [Int32] = []           // by symbol: its index in `artSyms`, or -1

    var infeasible: [Int32] = []
    var pivots = 0                       // statistics: pivots done
    var pivotKind = 0                    // debug: 0 subject, 1 optimize, 2 phase one, 3 dual
    var pivotsByKind = [0, 0, 0, 0]
    var expansions = 0                   // statistics: passive rows expanded by `setReduced`

    // Scratch copy of the pivot row (no allocation once grown)
    var pivotSyms: [Int32] = []
    var pivotCoefs: [Double] = []

    // Journal
    var journaling = false
    var txId: UInt32 = 0
    var journalRows: [(Int32, Row?)] = []
    var journalObj: [(Int32, Int32, Double)] = []
    var savedLevelConstants: [Double] = []
    var savedLevelCount = 0
    // The free lists are stacks: a transaction records how far down each was popped and what it popped, not a
    // copy (a copy per call, then a push onto the shared buffer, made a long run of removals quadratic).
    var freeSymsMark = 0
    var freeRowsMark = 0
    var poppedSyms: [Int32] = []
    var poppedRows: [Int32] = []
    var savedSymCount = 0
    var savedRowCount = 0
    var pendingFreeSyms: [Int32] = []

    var symbolCount: Int { kind.count }

    // MARK: - Symbols

    mutating func newSymbol(_ k: SymbolKind, owner o: Int32) -> Int32 {
        let s: Int32
        if let f = freeSyms.popLast() {
            s = f
            if journaling && freeSyms.count < freeSymsMark { freeSymsMark = freeSyms.count; poppedSyms.append(f) }
        } else {
            s = Int32(kind.count)
            kind.append(.unused); owner.append(-1); rowOf.append(-1); cols.append([])
            isCandidate.append(false); pos.append(-1)
            pcols.append([]); expandCoef.append(0); expandQueued.append(false); symValue.append(0); symDirty.append(false)
            aggregateOf.append(-1); flatCoef.append(0); flatMark.append(false)
            artIndex.append(-1)
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
        if journaling { pendingFreeSyms.append(s); return }
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
            if journaling && freeRows.count < freeRowsMark { freeRowsMark = freeRows.count; poppedRows.append(f) }
        } else {
            r = Int32(rows.count)
            rows.append(Row())
            rowStamp.append(0)
            flats.append(FlatExpansion())
            rowDirty.append(false)
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
        if !rowDirty[Int(r)] { markDirty(r) }
        guard journaling, rowStamp[Int(r)] != txId else { return }
        rowStamp[Int(r)] = txId
        let row = rows[Int(r)]
        journalRows.append((r, row.basic == -1 ? nil : row))
    }

    /// Appends a cell to row `r` and its entry to the symbol's column (`pcols` for a passive row).
    /// Marks row `r` for `evaluate`, and its basic symbol as one whose value may change.
    mutating func markDirty(_ r: Int32) {
        rowDirty[Int(r)] = true
        dirtyRows.append(r)
        let b = rows[Int(r)].basic
        if b >= 0 && !symDirty[Int(b)] { symDirty[Int(b)] = true; dirtySyms.append(b) }
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
        pivotSyms.removeAll(keepingCapacity: true)
        pivotCoefs.removeAll(keepingCapacity: true)
        for c in rows[Int(r)].cells {
            pivotSyms.append(c.sym)
            pivotCoefs.append(c.coef)
        }
    }

    /// row[r] += factor * (pivot scratch terms); the constant is handled by the caller.
    mutating func mergePivot(into r: Int32, factor: Double) {
        let n = rows[Int(r)].cells.count
        for i in 0..<n { pos[Int(rows[Int(r)].cells[i].sym)] = Int32(i) }
        for j in pivotSyms.indices {
            let s = pivotSyms[j]
            let delta = factor * pivotCoefs[j]
            let p = Int(pos[Int(s)])
            if p >= 0 {
                let v = rows[Int(r)].cells[p].coef + delta
                if abs(v) < Tolerance.coefEpsilon {
                    pos[Int(s)] = -1
                    let last = rows[Int(r)].cells.count - 1
                    if p < last { pos[Int(rows[Int(r)].cells[last].sym)] = Int32(p) }
                    removeCell(r, p)
                } else {
                    rows[Int(r)].cells[p].coef = v
                }
            } else if abs(delta) >= Tolerance.coefEpsilon {
                pos[Int(s)] = Int32(rows[Int(r)].cells.count)
                appendCell(r, s, delta)
            }
        }
        for c in rows[Int(r)].cells { pos[Int(c.sym)] = -1 }
    }

    @inline(__always) static func clean(_ x: Double) -> Double {
        abs(x) < 1e-11 ? 0 : x
    }

    // MARK: - Objective

    /// The sign of a symbol's lexicographic objective coefficient: -1, 0 or +1.
    func lexSign(_ s: Int32) -> Int {
        for l in levelOrder {
            let c = levels[Int(l)].coef[Int(s)]
            if c < -Tolerance.objectiveEpsilon { return -1 }
            if c > Tolerance.objectiveEpsilon { return 1 }
        }
        return 0
    }

    /// The direction in which increasing a non-basic symbol improves the objective: +1, -1 (externals only) or 0.
    func improvingDirection(_ s: Int32) -> Int {
        switch kind[Int(s)] {
        case .dummy, .unused: return 0
        case .external: return -lexSign(s)
        case .slack, .error: return lexSign(s) < 0 ? 1 : 0
        }
    }

    mutating func objAdd(_ l: Int32, _ s: Int32, _ delta: Double) {
        let old = levels[Int(l)].coef[Int(s)]
        var v = old + delta
        if abs(v) < Tolerance.coefEpsilon { v = 0 }
        if journaling { journalObj.append((l, s, old)) }
        levels[Int(l)].coef[Int(s)] = v
        if !isCandidate[Int(s)] && rowOf[Int(s)] < 0 && improvingDirection(s) != 0 {
            isCandidate[Int(s)] = true
            pushCandidate(s)
        }
    }

    /// objective[l] += factor * row r (constant and terms).
    mutating func objAddRow(_ l: Int32, _ r: Int32, _ factor: Double) {
        levels[Int(l)].constant += factor * rows[Int(r)].constant
        for c in rows[Int(r)].cells { objAdd(l, c.sym, factor * c.coef) }
    }

    mutating func level(for priority: Double) -> Int32 {
        for l in levels.indices where levels[l].priority == priority { return Int32(l) }
        levels.append(Level(priority: priority, coef: [Double](repeating: 0, count: kind.count)))
        let id = Int32(levels.count - 1)
        let at = levelOrder.firstIndex { levels[Int($0)].priority < priority } ?? levelOrder.count
        levelOrder.insert(id, at: at)
        return id
    }

    // MARK: - Pivoting

    /// Makes `entering` basic in row `r` (whose basic symbol leaves) and substitutes it everywhere else.
    mutating func pivot(_ r: Int32, entering: Int32) {
        pivots += 1
        pivotsByKind[pivotKind] += 1
        touch(r)
        let leaving = rows[Int(r)].basic
        guard let i = cellIndex(r, entering) else { return }
        let a = rows[Int(r)].cells[i].coef
        removeCell(r, i)
        let f = -1 / a
        rows[Int(r)].constant = Tableau.clean(rows[Int(r)].constant * f)
        for j in rows[Int(r)].cells.indices { rows[Int(r)].cells[j].coef *= f }
        if leaving >= 0 {
            rowOf[Int(leaving)] = -1
            appendCell(r, leaving, 1 / a)
        }
        rows[Int(r)].basic = entering
        rowOf[Int(entering)] = r
        substitute(entering, r)
        if leaving >= 0, !isCandidate[Int(leaving)], improvingDirection(leaving) != 0 {
            isCandidate[Int(leaving)] = true
            pushCandidate(leaving)
        }
    }

    /// Replaces the non-basic symbol `s` by row `r`'s right-hand side in every other row and the objectives.
    mutating func substitute(_ s: Int32, _ r: Int32) {
        loadPivot(r)
        let k = rows[Int(r)].constant
        while let ref = cols[Int(s)].last {
            let rr = ref.row
            touch(rr)
            let c = rows[Int(rr)].cells[Int(ref.cell)].coef
            removeCell(rr, Int(ref.cell))
            rows[Int(rr)].constant = Tableau.clean(rows[Int(rr)].constant + c * k)
            mergePivot(into: rr, factor: c)
            let b = rows[Int(rr)].basic
            if b >= 0 && kind[Int(b)] != .external && rows[Int(rr)].constant < 0 { infeasible.append(b) }
        }
        for l in levels.indices {
            let d = levels[l].coef[Int(s)]
            if d == 0 { continue }
            objAdd(Int32(l), s, -d)
            levels[l].constant += d * k
            for j in pivotSyms.indices { objAdd(Int32(l), pivotSyms[j], d * pivotCoefs[j]) }
        }
        if artActive, artIndex[Int(s)] >= 0 {
            let i = Int(artIndex[Int(s)])
            let d = artCoefs[i]
            removeArtificialTerm(i)
            artConstant += d * k
            for j in pivotSyms.indices { artAdd(pivotSyms[j], d * pivotCoefs[j]) }
        }
    }

    /// Phase one's objective starts as row `r` (whose basic symbol is the artificial variable).
    mutating func startArtificial(_ r: Int32) {
        artActive = true
        artSyms.removeAll(keepingCapacity: true)
        artCoefs.removeAll(keepingCapacity: true)
        for c in rows[Int(r)].cells {
            artIndex[Int(c.sym)] = Int32(artSyms.count)
            artSyms.append(c.sym); artCoefs.append(c.coef)
        }
        artConstant = rows[Int(r)].constant
    }

    /// Ends phase one; `artSyms` keeps the final objective's symbols (the certificate of a failure).
    mutating func stopArtificial() {
        for s in artSyms where Int(s) < artIndex.count { artIndex[Int(s)] = -1 }
        artActive = false
    }

    /// Swap-removes a term of the artificial objective (its order does not matter: the entering choice takes
    /// the lowest id).
    mutating func removeArtificialTerm(_ i: Int) {
        artIndex[Int(artSyms[i])] = -1
        let last = artSyms.count - 1
        if i < last { artIndex[Int(artSyms[last])] = Int32(i) }
        artSyms.swapAt(i, last); artSyms.removeLast()
        artCoefs.swapAt(i, last); artCoefs.removeLast()
    }

    mutating func artAdd(_ s: Int32, _ delta: Double) {
        let i = Int(artIndex[Int(s)])
        if i >= 0 {
            let v = artCoefs[i] + delta
            if abs(v) < Tolerance.coefEpsilon { removeArtificialTerm(i) } else { artCoefs[i] = v }
        } else if abs(delta) >= Tolerance.coefEpsilon {
            artIndex[Int(s)] = Int32(artSyms.count)
            artSyms.append(s); artCoefs.append(delta)
        }
    }

    /// Whether non-basic `s` can take the value `value` (>= 0) with every restricted row holding it (but `skip`)
    /// staying feasible.
    func canEnter(_ s: Int32, upTo value: Double, besides skip: Int32) -> Bool {
        for ref in cols[Int(s)] where ref.row != skip {
            let row = rows[Int(ref.row)]
            let k = kind[Int(row.basic)]
            guard k == .slack || k == .error else {
                if k == .dummy { return false }
                continue
            }
            if row.constant + row.cells[Int(ref.cell)].coef * value < -Tolerance.constantEpsilon { return false }
        }
        return true
    }

    /// The row to leave when `entering` moves in `direction`: the restricted row that first hits zero.
    ///
    /// Pivot elements below `pivotEpsilon` are ignored (a pivot on rounding noise blows the row up), and among
    /// rows that tie on the ratio the largest pivot element wins, then the lowest basic id.
    func leavingRow(for entering: Int32, direction: Int) -> Int32? {
        leavingRow(for: entering, direction: direction, minimumPivot: Tolerance.pivotEpsilon)
    }

    func leavingRow(for entering: Int32, direction: Int, minimumPivot: Double) -> Int32? {
        var best: Int32? = nil
        var bestRatio = Double.infinity
        var bestBasic = Int32.max
        var bestMagnitude = 0.0
        for ref in cols[Int(entering)] {
            let row = rows[Int(ref.row)]
            let b = row.basic
            if b < 0 || kind[Int(b)] == .external { continue }
            let c = row.cells[Int(ref.cell)].coef
            if abs(c) <= minimumPivot && minimumPivot > 0 { continue }
            let ratio: Double
            if direction > 0 {
                if c >= 0 { continue }
                ratio = -row.constant / c
            } else {
                if c <= 0 { continue }
                ratio = row.constant / c
            }
            let magnitude = abs(c)
            if ratio < bestRatio
                || (ratio == bestRatio && (magnitude > bestMagnitude || (magnitude == bestMagnitude && b < bestBasic))) {
                best = ref.row; bestRatio = ratio; bestBasic = b; bestMagnitude = magnitude
            }
        }
        return best
    }

    mutating func pushCandidate(_ s: Int32) { candidates.append(s) }

    /// Takes the entering symbol out of the candidates: among those that improve the objective, the one in the
    /// fewest rows (the pivot rewrites the fewest rows and fills in least: Markowitz's idea), ties to the lowest
    /// id. With `bland` it is the lowest id (Bland's rule), which cannot cycle. Either way the choice does not
    /// depend on the order in which cells or candidates happen to be stored.
    mutating func popCandidate(bland: Bool) -> Int32? {
        var best = -1
        var bestLen = Int.max
        var i = 0
        while i < candidates.count {
            let s = candidates[i]
            if rowOf[Int(s)] >= 0 || improvingDirection(s) == 0 {
                isCandidate[Int(s)] = false
                candidates[i] = candidates[candidates.count - 1]
                candidates.removeLast()
                continue
            }
            let len = bland ? 0 : cols[Int(s)].count
            if best < 0 || len < bestLen || (len == bestLen && s < candidates[best]) { best = i; bestLen = len }
            i += 1
        }
        guard best >= 0 else { return nil }
        let s = candidates[best]
        candidates[best] = candidates[candidates.count - 1]
        candidates.removeLast()
        isCandidate[Int(s)] = false
        return s
    }

    /// Consecutive degenerate pivots (the objective does not move) after which the entering choice falls back
    /// to Bland's rule for the rest of the call: only degenerate pivots can cycle.
    static let blandAfter = 50

    /// A bound on pivots per call: far above what a layout needs (about one per row), low enough that a cycle
    /// caused by rounding ends in an error rather than a hang of the host.
    var iterationLimit: Int { 100 * (rows.count + kind.count) + 10_000 }

    /// Primal simplex on the lexicographic objective, from the candidate queue.
    mutating func optimize() throws(SolverError) {
        pivotKind = 1; defer { pivotKind = 0 }
        var guardCount = 0
        var degenerate = 0
        while let s = popCandidate(bland: degenerate >= Tableau.blandAfter) {
            let dir = improvingDirection(s)
            guard let r = leavingRow(for: s, direction: dir) else {
                // The objective (a sum of non-negative errors) is bounded, so a symbol that improves it without
                // limit carries rounding noise: drop the noise; a real coefficient is an internal error.
                var noise = false
                for l in levels.indices where abs(levels[l].coef[Int(s)]) < Tolerance.objectiveNoise {
                    if levels[l].coef[Int(s)] != 0 { objAdd(Int32(l), s, -levels[l].coef[Int(s)]); noise = true }
                }
                if noise { continue }
                throw .internalError("the objective is unbounded")
            }
            if degenerate < Tableau.blandAfter {
                degenerate = abs(rows[Int(r)].constant) <= Tolerance.constantEpsilon ? degenerate + 1 : 0
            }
            pivot(r, entering: s)
            guardCount += 1
            if guardCount > iterationLimit { throw .internalError("the simplex did not terminate") }
        }
    }

    /// Phase one: minimises the artificial objective. Returns its final value.
    mutating func optimizeArtificial() throws(SolverError) {
        pivotKind = 2; defer { pivotKind = 0 }
        var guardCount = 0
        while true {
            var entering: Int32 = -1
            var dir = 0
            for i in artSyms.indices {
                let s = artSyms[i], c = artCoefs[i]
                let k = kind[Int(s)]
                if k == .dummy { continue }
                let d: Int
                if c < -Tolerance.coefEpsilon { d = 1 } else if k == .external && c > Tolerance.coefEpsilon { d = -1 } else { continue }
                if entering < 0 || s < entering { entering = s; dir = d }
            }
            if entering < 0 { return }
            guard let r = leavingRow(for: entering, direction: dir) else {
                throw .internalError("the artificial objective is unbounded")
            }
            pivot(r, entering: entering)
            guardCount += 1
            if guardCount > iterationLimit { throw .internalError("phase one did not terminate") }
        }
    }

    /// Lexicographic comparison of objective(s1)/c1 and objective(s2)/c2.
    func lexRatioLess(_ s1: Int32, _ c1: Double, _ s2: Int32, _ c2: Double) -> Bool {
        for l in levelOrder {
            let a = levels[Int(l)].coef[Int(s1)] / c1
            let b = levels[Int(l)].coef[Int(s2)] / c2
            if a < b - Tolerance.objectiveEpsilon { return true }
            if a > b + Tolerance.objectiveEpsilon { return false }
        }
        return s1 < s2
    }

    /// Dual simplex: restores feasibility of the rows in `infeasible`. Returns the row that cannot be made
    /// feasible (a required conflict), or nil.
    mutating func dualOptimize() -> Int32? {
        pivotKind = 3; defer { pivotKind = 0 }
        var guardCount = 0
        while let leaving = infeasible.popLast() {
            guardCount += 1
            if guardCount > iterationLimit {
                // Rounding made the dual simplex cycle: report the row instead of hanging the host.
                infeasible.removeAll()
                return rowOf[Int(leaving)] >= 0 ? rowOf[Int(leaving)] : nil
            }
            let r = rowOf[Int(leaving)]
            if r < 0 || rows[Int(r)].constant >= 0 { continue }
            var entering: Int32 = -1
            var enteringCoef = 0.0
            for c in rows[Int(r)].cells where c.coef > Tolerance.pivotEpsilon && kind[Int(c.sym)] != .dummy {
                if entering < 0 || lexRatioLess(c.sym, c.coef, entering, enteringCoef) {
                    entering = c.sym; enteringCoef = c.coef
                }
            }
            if entering < 0 {
                infeasible.removeAll()
                return r
            }
            pivot(r, entering: entering)
        }
        return nil
    }

    // MARK: - Transactions

    mutating func begin() {
        journaling = true
        txId &+= 1
        if txId == 0 { txId = 1; for i in rowStamp.indices { rowStamp[i] = 0 } }
        journalRows.removeAll(keepingCapacity: true)
        journalObj.removeAll(keepingCapacity: true)
        savedLevelConstants.removeAll(keepingCapacity: true)   // every suggest and remove begins one
        for l in levels { savedLevelConstants.append(l.constant) }
        savedLevelCount = levels.count
        freeSymsMark = freeSyms.count
        freeRowsMark = freeRows.count
        poppedSyms.removeAll(keepingCapacity: true)
        poppedRows.removeAll(keepingCapacity: true)
        savedSymCount = kind.count
        savedRowCount = rows.count
        pendingFreeSyms.removeAll(keepingCapacity: true)
    }

    mutating func commit() {
        journaling = false
        for s in pendingFreeSyms where kind[Int(s)] != .unused {
            kind[Int(s)] = .unused
            owner[Int(s)] = -1
            freeSyms.append(s)
        }
        pendingFreeSyms.removeAll(keepingCapacity: true)
        journalRows.removeAll(keepingCapacity: true)
        journalObj.removeAll(keepingCapacity: true)
    }

    /// Undoes every change since `begin()`. Symbol kinds of symbols allocated in the transaction are reset by
    /// the caller's own bookkeeping through `savedSymCount`.
    mutating func rollback() {
        journaling = false
        // Take every touched row out of the columns, then put the saved rows back.
        for (r, _) in journalRows {
            if Int(r) < rows.count { markDirty(r) }
            while !rows[Int(r)].cells.isEmpty { removeCell(r, rows[Int(r)].cells.count - 1) }
            let b = rows[Int(r)].basic
            if b >= 0 && rowOf[Int(b)] == r { rowOf[Int(b)] = -1 }
            rows[Int(r)].basic = -1
            rows[Int(r)].passive = false
        }
        for (r, saved) in journalRows {
            guard let saved else { continue }
            rows[Int(r)].passive = saved.passive
            rows[Int(r)].seq = saved.seq
            rows[Int(r)].aggregate = saved.aggregate
            rows[Int(r)].constraint = saved.constraint
            rows[Int(r)].basic = saved.basic
            rows[Int(r)].constant = saved.constant
            for c in saved.cells { appendCell(r, c.sym, c.coef) }
            if saved.basic >= 0 {
                rowOf[Int(saved.basic)] = r
                if !symDirty[Int(saved.basic)] { symDirty[Int(saved.basic)] = true; dirtySyms.append(saved.basic) }
            }
        }
        for (l, s, old) in journalObj.reversed() { levels[Int(l)].coef[Int(s)] = old }
        if levels.count > savedLevelCount {
            levels.removeLast(levels.count - savedLevelCount)
            levelOrder.removeAll { Int($0) >= savedLevelCount }
        }
        for l in levels.indices { levels[l].constant = savedLevelConstants[l] }
        if rows.count > savedRowCount {
            rows.removeLast(rows.count - savedRowCount)
            rowStamp.removeLast(rowStamp.count - savedRowCount)
            flats.removeLast(flats.count - savedRowCount)
            rowDirty.removeLast(rowDirty.count - savedRowCount)
            dirtyRows.removeAll { Int($0) >= savedRowCount }
        }
        freeRows.removeLast(freeRows.count - freeRowsMark)   // pushed in the transaction
        freeRows.append(contentsOf: poppedRows.reversed())
        for s in savedSymCount..<kind.count {
            kind[s] = .unused; owner[s] = -1; rowOf[s] = -1; cols[s].removeAll()
        }
        // Symbols allocated in the transaction from the free list get their old state back.
        for sym in poppedSyms where Int(sym) < kind.count {
            kind[Int(sym)] = .unused; owner[Int(sym)] = -1; rowOf[Int(sym)] = -1
        }
        if kind.count > savedSymCount {
            let n = kind.count - savedSymCount
            kind.removeLast(n); owner.removeLast(n); rowOf.removeLast(n); cols.removeLast(n)
            isCandidate.removeLast(n); pos.removeLast(n)
            pcols.removeLast(n); expandCoef.removeLast(n); expandQueued.removeLast(n); symValue.removeLast(n)
            symDirty.removeLast(n)
            dirtySyms.removeAll { Int($0) >= kind.count }
            aggregateOf.removeLast(n); flatCoef.removeLast(n); flatMark.removeLast(n)
            artIndex.removeLast(n)
            for l in levels.indices { levels[l].coef.removeLast(n) }
            candidates.removeAll { Int($0) >= savedSymCount }
        }
        freeSyms.removeLast(freeSyms.count - freeSymsMark)
        freeSyms.append(contentsOf: poppedSyms.reversed())
        pendingFreeSyms.removeAll(keepingCapacity: true)
        journalRows.removeAll(keepingCapacity: true)
        journalObj.removeAll(keepingCapacity: true)
        infeasible.removeAll()
        stopArtificial()
        flatEpoch &+= 1   // restored definitions: recompute their expansions on use
    }

    // MARK: - Passive rows

    /// Whether `s` may become a passive row's basic variable: a non-basic external that no active row and no
    /// objective holds, so that no active row has to be rewritten when it becomes basic. It may occur in passive
    /// rows (definitions of other variables): those are unreduced and take the new definition as it is
    /// (`definable(_:besides:)` checks that no cycle forms).
    func isPassiveCandidate(_ s: Int32) -> Bool {
        guard kind[Int(s)] == .external, rowOf[Int(s)] < 0, cols[Int(s)].isEmpty else { return false }
        return isFreeOfObjective(s)
    }

    /// Whether no objective (nor phase one's) holds symbol `s`.
    func isFreeOfObjective(_ s: Int32) -> Bool {
        if artActive && artIndex[Int(s)] >= 0 { return false }
        for l in levels.indices where levels[l].coef[Int(s)] != 0 { return false }
        return true
    }

    /// The dummy content of passive row `p`'s variable through its own cells: its dummies, and the aggregates of
    /// the passive rows it holds (made if needed).
    mutating func dummyContent(_ p: Int32) -> [(Int32, Double)] {
        var out: [(Int32, Double)] = []
        let n = rows[Int(p)].cells.count
        for i in 0..<n {
            let c = rows[Int(p)].cells[i]
            if kind[Int(c.sym)] == .dummy && aggregateOf[Int(c.sym)] < 0 {
                out.append((c.sym, c.coef))
            } else if rowOf[Int(c.sym)] >= 0 && rows[Int(rowOf[Int(c.sym)])].passive {
                out.append((aggregateSymbol(rowOf[Int(c.sym)]), c.coef))
            }
        }
        return out
    }

    /// Writes the aggregate of passive row `p` out, one level (`dummyContent`), in every active row and objective
    /// that holds it, and frees it: `p` is about to change.
    mutating func writeOutAggregate(_ p: Int32) {
        let a = rows[Int(p)].aggregate
        if a < 0 { return }
        let content = dummyContent(p)
        while let ref = cols[Int(a)].last {
            touch(ref.row)
            let c = rows[Int(ref.row)].cells[Int(ref.cell)].coef
            removeCell(ref.row, Int(ref.cell))
            for (d, k) in content { addTerm(ref.row, d, c * k) }
        }
        for l in levels.indices {
            let e = levels[l].coef[Int(a)]
            if e == 0 { continue }
            objAdd(Int32(l), a, -e)
            for (d, k) in content { objAdd(Int32(l), d, e * k) }
        }
        touch(p)
        rows[Int(p)].aggregate = -1
        releaseSymbol(a)
    }

    /// The passive rows that hold symbol `s`, directly or through other passive rows, in topological order, with
    /// the derivatives of their variables with respect to `s` (`downstream(ofSymbol:)`); nil when defining `s` by
    /// a row holding `rowSyms` would close a cycle (the row holds a variable defined downstream of `s`).
    mutating func definable(_ s: Int32, besides rowSyms: [Int32], ignoring skip: Int32 = -1) -> [(Int32, Double)]? {
        if pcols[Int(s)].isEmpty { return [] }
        let down = downstream(ofSymbol: s, ignoring: skip)
        for (w, _) in down { expandQueued[Int(rows[Int(w)].basic)] = true }
        let cycle = rowSyms.contains { $0 != s && expandQueued[Int($0)] }
        for (w, _) in down { expandQueued[Int(rows[Int(w)].basic)] = false }
        return cycle ? nil : down
    }

    /// Turns row `r` (being built, holding `subject`) into the passive row defining `subject`. `downstream` are
    /// the passive rows that already hold `subject` (`definable`), in topological order: they now depend on the
    /// new row, so they get new, later keys (and their cached expansions go).
    mutating func makePassive(_ r: Int32, subject: Int32, downstream: [(Int32, Double)] = []) {
        // Built as an active row; re-file its cells as passive ones.
        var syms: [Int32] = [], coefs: [Double] = []
        for c in rows[Int(r)].cells { syms.append(c.sym); coefs.append(c.coef) }
        while !rows[Int(r)].cells.isEmpty { removeCell(r, rows[Int(r)].cells.count - 1) }
        rows[Int(r)].passive = true
        rows[Int(r)].seq = nextSeq
        nextSeq += 1
        var a = 0.0
        for i in syms.indices where syms[i] == subject { a = coefs[i] }
        let f = -1 / a
        for i in syms.indices where syms[i] != subject { appendCell(r, syms[i], coefs[i] * f) }
        rows[Int(r)].constant = Tableau.clean(rows[Int(r)].constant * f)
        rows[Int(r)].basic = subject
        rowOf[Int(subject)] = r
        passiveOrder.append((r, rows[Int(r)].seq))
        for (w, _) in downstream {
            touch(w)
            rows[Int(w)].seq = nextSeq
            nextSeq += 1
            passiveOrder.append((w, rows[Int(w)].seq))
        }
    }

    /// Sets the cells of the empty row `r` to `sum(coefs[i] * syms[i])` with basic symbols expanded into
    /// non-basic ones, and adds the constants met on the way: an active row is merged; a passive row is expanded
    /// once (latest first, so a definition shared by several paths is expanded once) into its own symbols.
    mutating func setReduced(_ r: Int32, _ syms: [Int32], _ coefs: [Double]) {
        heap.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
        var k = rows[Int(r)].constant
        for i in syms.indices {
            let br = rowOf[Int(syms[i])]
            // A passive term brings its aggregate dummy (a non-basic symbol, so it is accumulated as is).
            if br >= 0 && rows[Int(br)].passive { accumulate(aggregateSymbol(br), coefs[i], &k) }
            accumulate(syms[i], coefs[i], &k)
        }
        while let (_, pr) = heapPop() {
            expansions += 1
            let b = rows[Int(pr)].basic
            let c = expandCoef[Int(b)]
            expandCoef[Int(b)] = 0
            expandQueued[Int(b)] = false
            if c == 0 { continue }
            if flatten(pr) {
                k += c * flats[Int(pr)].constant
                let n = flats[Int(pr)].syms.count
                for j in 0..<n { accumulate(flats[Int(pr)].syms[j], c * flats[Int(pr)].coefs[j], &k) }
                continue
            }
            k += c * rows[Int(pr)].constant
            let n = rows[Int(pr)].cells.count
            for i in 0..<n {
                let cell = rows[Int(pr)].cells[i]
                if kind[Int(cell.sym)] == .dummy { continue }   // in the aggregate
                accumulate(cell.sym, c * cell.coef, &k)
            }
        }
        for s in touched {
            let c = expandCoef[Int(s)]
            expandCoef[Int(s)] = 0
            expandQueued[Int(s)] = false
            if abs(c) >= Tolerance.coefEpsilon { appendCell(r, s, c) }
        }
        rows[Int(r)].constant = Tableau.clean(k)
    }

    private mutating func accumulate(_ s: Int32, _ factor: Double, _ k: inout Double) {
        let br = rowOf[Int(s)]
        if br < 0 {
            if !expandQueued[Int(s)] { expandQueued[Int(s)] = true; touched.append(s) }
            expandCoef[Int(s)] += factor
        } else if rows[Int(br)].passive {
            expandCoef[Int(s)] += factor
            if !expandQueued[Int(s)] {
                expandQueued[Int(s)] = true
                heapPush((rows[Int(br)].seq, br))
            }
        } else {
            k += factor * rows[Int(br)].constant
            let n = rows[Int(br)].cells.count
            for i in 0..<n {
                let cell = rows[Int(br)].cells[i]
                if !expandQueued[Int(cell.sym)] { expandQueued[Int(cell.sym)] = true; touched.append(cell.sym) }
                expandCoef[Int(cell.sym)] += factor * cell.coef
            }
        }
    }

    private mutating func heapPush(_ e: (UInt64, Int32)) {
        heap.append(e)
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if heap[p].0 >= heap[i].0 { break }
            heap.swapAt(p, i); i = p
        }
    }

    private mutating func heapPop() -> (UInt64, Int32)? {
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

    // MARK: - Flat expansions of passive rows

    @inline(__always) func flatKnown(_ p: Int32) -> Bool {
        flats[Int(p)].seq == rows[Int(p)].seq && flats[Int(p)].epoch == flatEpoch
    }

    /// Makes passive row `p`'s flat expansion current, computing those of the passive rows it holds first.
    /// Returns false when the expansion is long (not cached).
    mutating func flatten(_ p: Int32) -> Bool {
        if !flatKnown(p) {
            flatStack.removeAll(keepingCapacity: true)
            flatStack.append(p)
            while let top = flatStack.last {
                if flatKnown(top) { flatStack.removeLast(); continue }
                var pending = false
                let n = rows[Int(top)].cells.count
                for i in 0..<n {
                    let br = rowOf[Int(rows[Int(top)].cells[i].sym)]
                    if br >= 0 && rows[Int(br)].passive && !flatKnown(br) { flatStack.append(br); pending = true }
                }
                if !pending { computeFlat(top); flatStack.removeLast() }
            }
        }
        return !flats[Int(p)].long
    }

    /// The flat expansion of passive row `p` from its cells and the (current) expansions of the rows it holds.
    private mutating func computeFlat(_ p: Int32) {
        var k = rows[Int(p)].constant
        var long = false
        flatTouched.removeAll(keepingCapacity: true)
        let n = rows[Int(p)].cells.count
        for i in 0..<n where !long {
            let cell = rows[Int(p)].cells[i]
            if kind[Int(cell.sym)] == .dummy { continue }
            let br = rowOf[Int(cell.sym)]
            if br >= 0 && rows[Int(br)].passive {
                if flats[Int(br)].long { long = true; break }
                k += cell.coef * flats[Int(br)].constant
                for j in flats[Int(br)].syms.indices {
                    flatAdd(flats[Int(br)].syms[j], cell.coef * flats[Int(br)].coefs[j])
                }
            } else {
                flatAdd(cell.sym, cell.coef)
            }
            if flatTouched.count > 2 * Tableau.flatLimit { long = true }
        }
        flats[Int(p)].syms.removeAll(keepingCapacity: true)
        flats[Int(p)].coefs.removeAll(keepingCapacity: true)
        for s in flatTouched {
            let c = flatCoef[Int(s)]
            flatCoef[Int(s)] = 0
            flatMark[Int(s)] = false
            if !long && abs(c) >= Tolerance.coefEpsilon { flats[Int(p)].syms.append(s); flats[Int(p)].coefs.append(c) }
        }
        if flats[Int(p)].syms.count > Tableau.flatLimit { long = true }
        if long { flats[Int(p)].syms.removeAll(); flats[Int(p)].coefs.removeAll() }
        flats[Int(p)].long = long
        flats[Int(p)].constant = Tableau.clean(k)
        flats[Int(p)].seq = rows[Int(p)].seq
        flats[Int(p)].epoch = flatEpoch
    }

    @inline(__always) private mutating func flatAdd(_ s: Int32, _ c: Double) {
        if !flatMark[Int(s)] { flatMark[Int(s)] = true; flatTouched.append(s) }
        flatCoef[Int(s)] += c
    }

    /// A definition's constant moved by `delta`: shifts the cached expansions downstream of it (`downstream(of:)`
    /// gives each with its derivative).
    mutating func shiftFlats(_ down: [(Int32, Double)], by delta: Double) {
        for (w, g) in down where flatKnown(w) && !flats[Int(w)].long {
            flats[Int(w)].constant = Tableau.clean(flats[Int(w)].constant + g * delta)
        }
    }

    /// Whether passive row `p`, the definition made by a required equality with dummy `marker`, is used by
    /// nothing: no live passive row holds its variable, and neither its aggregate dummy nor the marker (which
    /// stands in the rows expanded through it once the aggregate is written out) occurs in an active row or an
    /// objective. Then it can be dropped as it is. (Definitions by inequalities or soft constraints are not
    /// dropped this way: the random tests broke when they were, not understood yet; they are activated.)
    func isUnusedDefinition(_ p: Int32, marker: Int32) -> Bool {
        let v = rows[Int(p)].basic
        if !pcols[Int(v)].isEmpty { return false }
        for d in [marker, rows[Int(p)].aggregate] where d >= 0 {
            if !cols[Int(d)].isEmpty || (artActive && artIndex[Int(d)] >= 0) { return false }
            for l in levels.indices where levels[l].coef[Int(d)] != 0 { return false }
        }
        return true
    }

    /// Whether the aggregate dummy of passive row `p`, if any, occurs in no active row and no objective.
    func aggregateUnused(_ p: Int32) -> Bool {
        let d = rows[Int(p)].aggregate
        if d < 0 { return true }
        if !cols[Int(d)].isEmpty || (artActive && artIndex[Int(d)] >= 0) { return false }
        for l in levels.indices where levels[l].coef[Int(d)] != 0 { return false }
        return true
    }

    /// Drops an unused definition (`isUnusedDefinition`): its variable becomes free, its aggregate goes.
    mutating func dropDefinition(_ p: Int32) {
        let d = rows[Int(p)].aggregate
        freeRow(p)
        if d >= 0 { releaseSymbol(d) }
    }

    /// Replaces passive row `r` by an equivalent active (reduced, indexed) row with the same basic variable, so
    /// that the simplex can pivot on the symbols it holds. Returns the new row.
    mutating func activate(_ r: Int32) -> Int32 {
        retireAggregates(downstreamOf: r)
        let v = rows[Int(r)].basic
        let k = rows[Int(r)].constant
        let cells = rows[Int(r)].cells
        freeRow(r)
        let nr = allocRow()
        rows[Int(nr)].constant = k
        setReduced(nr, cells.map(\.sym), cells.map(\.coef))
        rows[Int(nr)].basic = v
        rowOf[Int(v)] = nr
        return nr
    }

    /// The value of every basic symbol into `symValue`: active rows give their constant, passive rows are
    /// evaluated in topological order (each holds only earlier passive variables). Non-basic symbols are 0.
    ///
    /// Only what changed since the last call is evaluated: the rows touched since, the passive rows that hold a
    /// symbol whose value changed, and so on downstream (`changedExternals` lists the externals among them). A
    /// large change takes the full pass, which is cheaper per row.
    mutating func evaluate() {
        if dirtyRows.count + dirtySyms.count > rows.count / 4 || journaling {
            evaluateAll()
            return
        }
        evaluatedAll = false
        changedExternals.removeAll(keepingCapacity: true)
        for r in dirtyRows {
            rowDirty[Int(r)] = false
            let b = rows[Int(r)].basic
            if b >= 0 && !symDirty[Int(b)] { symDirty[Int(b)] = true; dirtySyms.append(b) }
        }
        dirtyRows.removeAll(keepingCapacity: true)
        // Values of the dirty symbols that active rows give or that are non-basic; passive ones are queued.
        heap.removeAll(keepingCapacity: true)
        var i = 0
        while i < dirtySyms.count {
            let s = dirtySyms[i]
            i += 1
            let r = rowOf[Int(s)]
            if r >= 0 && rows[Int(r)].passive {
                heapPush((UInt64.max - rows[Int(r)].seq, r))
            } else {
                symValue[Int(s)] = r >= 0 ? rows[Int(r)].constant : 0
                if kind[Int(s)] == .external { changedExternals.append(s) }
                for ref in pcols[Int(s)] {
                    let ub = rows[Int(ref.row)].basic
                    if !symDirty[Int(ub)] { symDirty[Int(ub)] = true; dirtySyms.append(ub) }
                }
            }
        }
        // Passive rows in topological order (earliest first); each pushes the passive rows that hold its variable.
        var lastSeq: UInt64 = 0
        while let (key, r) = heapPop() {
            let seq = UInt64.max - key
            if seq == lastSeq { continue }   // queued twice
            lastSeq = seq
            guard rows[Int(r)].passive, rows[Int(r)].seq == seq else { continue }
            var v = rows[Int(r)].constant
            for c in rows[Int(r)].cells where rowOf[Int(c.sym)] >= 0 { v += c.coef * symValue[Int(c.sym)] }
            let b = rows[Int(r)].basic
            symValue[Int(b)] = v
            if kind[Int(b)] == .external { changedExternals.append(b) }
            for ref in pcols[Int(b)] {
                let u = ref.row
                let ub = rows[Int(u)].basic
                if !symDirty[Int(ub)] { symDirty[Int(ub)] = true; dirtySyms.append(ub) }
                heapPush((UInt64.max - rows[Int(u)].seq, u))
            }
        }
        for s in dirtySyms { symDirty[Int(s)] = false }
        dirtySyms.removeAll(keepingCapacity: true)
    }

    /// `evaluate` over every row.
    mutating func evaluateAll() {
        evaluatedAll = true
        changedExternals.removeAll(keepingCapacity: true)
        for r in dirtyRows { rowDirty[Int(r)] = false }
        dirtyRows.removeAll(keepingCapacity: true)
        for s in dirtySyms { symDirty[Int(s)] = false }
        dirtySyms.removeAll(keepingCapacity: true)
        let compact = !journaling
        var live = 0
        // Unsafe buffers: this runs once per frame over every row, and array access with its retains and bounds
        // checks was most of its cost.
        rows.withUnsafeBufferPointer { rowBuf in
            rowOf.withUnsafeBufferPointer { rowOf in
                symValue.withUnsafeMutableBufferPointer { value in
                    for r in rowBuf.indices {
                        let row = rowBuf.baseAddress! + r
                        if row.pointee.basic >= 0 && !row.pointee.passive { value[Int(row.pointee.basic)] = row.pointee.constant }
                    }
                    passiveOrder.withUnsafeMutableBufferPointer { order in
                        for i in order.indices {
                            let (r, seq) = order[i]
                            guard Int(r) < rowBuf.count else { continue }
                            let row = rowBuf.baseAddress! + Int(r)
                            guard row.pointee.passive, row.pointee.seq == seq else { continue }
                            if compact { order[live] = order[i]; live += 1 }
                            var v = row.pointee.constant
                            row.pointee.cells.withUnsafeBufferPointer { cells in
                                for c in cells where rowOf[Int(c.sym)] >= 0 { v += c.coef * value[Int(c.sym)] }
                            }
                            value[Int(row.pointee.basic)] = v
                        }
                    }
                }
            }
        }
        if compact { passiveOrder.removeLast(passiveOrder.count - live) }
    }

    /// The value of symbol `s` now: the constant of its full reduction (non-basic symbols are 0), expanding
    /// each passive row it depends on once.
    mutating func valueNow(_ s: Int32) -> Double {
        let r = rowOf[Int(s)]
        if r < 0 { return 0 }
        if !rows[Int(r)].passive { return rows[Int(r)].constant }
        heap.removeAll(keepingCapacity: true)
        var k = 0.0
        expandCoef[Int(s)] = 1
        expandQueued[Int(s)] = true
        heapPush((rows[Int(r)].seq, r))
        while let (_, pr) = heapPop() {
            let b = rows[Int(pr)].basic
            let c = expandCoef[Int(b)]
            expandCoef[Int(b)] = 0
            expandQueued[Int(b)] = false
            k += c * rows[Int(pr)].constant
            for cell in rows[Int(pr)].cells {
                let br = rowOf[Int(cell.sym)]
                if br < 0 { continue }
                if rows[Int(br)].passive {
                    expandCoef[Int(cell.sym)] += c * cell.coef
                    if !expandQueued[Int(cell.sym)] {
                        expandQueued[Int(cell.sym)] = true
                        heapPush((rows[Int(br)].seq, br))
                    }
                } else {
                    k += c * cell.coef * rows[Int(br)].constant
                }
            }
        }
        return k
    }

    /// The value of symbol `s` after `evaluate()`.
    func value(_ s: Int32) -> Double { rowOf[Int(s)] >= 0 ? symValue[Int(s)] : 0 }

    // MARK: - Aggregate dummies of passive rows

    /// The aggregate dummy of passive row `p`, made on first use.
    mutating func aggregateSymbol(_ p: Int32) -> Int32 {
        if rows[Int(p)].aggregate >= 0 { return rows[Int(p)].aggregate }
        touch(p)
        let d = newSymbol(.dummy, owner: -1)
        aggregateOf[Int(d)] = p
        rows[Int(p)].aggregate = d
        return d
    }

    /// Passive rows downstream of passive row `p` (those holding its variable, and so on), `p` first, in
    /// topological order, each with the derivative of its variable with respect to `p`'s variable.
    mutating func downstream(of p: Int32) -> [(Int32, Double)] {
        [(p, 1)] + downstream(ofSymbol: rows[Int(p)].basic)
    }

    /// The passive rows that hold symbol `v`, directly or through other passive rows, in topological order (by
    /// `seq`), each with the derivative of its basic variable with respect to `v`.
    mutating func downstream(ofSymbol v: Int32, ignoring skip: Int32 = -1) -> [(Int32, Double)] {
        var out: [(Int32, Double)] = []
        heap.removeAll(keepingCapacity: true)
        expandCoef[Int(v)] = 1
        expandQueued[Int(v)] = true
        func push(users b: Int32) {
            for ref in pcols[Int(b)] where ref.row != skip {
                let u = ref.row
                let ub = rows[Int(u)].basic
                if !expandQueued[Int(ub)] {
                    expandQueued[Int(ub)] = true
                    heapPush((UInt64.max - rows[Int(u)].seq, u))
                }
            }
        }
        push(users: v)
        while let (_, w) = heapPop() {
            let b = rows[Int(w)].basic
            var g = 0.0
            for c in rows[Int(w)].cells where expandQueued[Int(c.sym)] { g += c.coef * expandCoef[Int(c.sym)] }
            expandCoef[Int(b)] = g
            out.append((w, g))
            push(users: b)
        }
        expandCoef[Int(v)] = 0
        expandQueued[Int(v)] = false
        for (w, _) in out {
            let b = rows[Int(w)].basic
            expandCoef[Int(b)] = 0
            expandQueued[Int(b)] = false
        }
        return out
    }

    /// The definition of `v` changed (it was a free symbol, or it had another definition): what the aggregates
    /// of the passive rows downstream of it stand for changed by `g * delta` each (`down` from
    /// `downstream(ofSymbol:)`, `delta` a combination of dummy and aggregate symbols per unit of `v`). Rows and
    /// objectives that hold them get `-coef * g * delta`, so that what they hold stands for what it did.
    mutating func compensateAggregates(_ down: [(Int32, Double)], delta: [(Int32, Double)]) {
        for (w, g) in down where g != 0 {
            let a = rows[Int(w)].aggregate
            if a < 0 { continue }
            let refs = cols[Int(a)]
            for ref in refs {
                let c = rows[Int(ref.row)].cells[Int(ref.cell)].coef
                touch(ref.row)
                for (d, k) in delta { addTerm(ref.row, d, -c * g * k) }
            }
            for l in levels.indices {
                let e = levels[l].coef[Int(a)]
                if e == 0 { continue }
                for (d, k) in delta { objAdd(Int32(l), d, -e * g * k) }
            }
        }
    }

    /// Writes each aggregate dummy downstream of passive row `p` out into what it stands for (the row's own
    /// dummies plus the aggregates of the passive rows it holds) and frees it, so that every dummy of `p`'s
    /// definition is explicit in the active rows before `p` changes shape.
    ///
    /// Aggregates are written out latest first (an aggregate's content holds aggregates of earlier rows, which
    /// are then written out in turn), one active row at a time: each row that holds any of them is set up for
    /// merging once, so the cost is the rows' lengths plus the contents merged. (One aggregate at a time cost a
    /// pass over the row per aggregate: removing a view from the middle of a 10k-view chain took 1.1 s.)
    mutating func retireAggregates(downstreamOf p: Int32) {
        let down = downstream(of: p)
        for (w, _) in down { flats[Int(w)].seq = 0 }   // their expansions go through `p`
        // The aggregates to retire, latest first, with their contents (made in that order: a content may make
        // the aggregate of an earlier row, which is then retired too). rank: by symbol, index in `retiring` + 1.
        var retiring: [(row: Int32, dummy: Int32, syms: [Int32], coefs: [Double])] = []
        if aggregateRank.count < kind.count {
            aggregateRank += [Int32](repeating: 0, count: kind.count - aggregateRank.count)
        }
        for (w, _) in down.reversed() {
            let d = rows[Int(w)].aggregate
            guard d >= 0 else { continue }
            var defSyms: [Int32] = [], defCoefs: [Double] = []
            for c in rows[Int(w)].cells {
                if kind[Int(c.sym)] == .dummy {
                    defSyms.append(c.sym); defCoefs.append(c.coef)
                } else if rowOf[Int(c.sym)] >= 0 && rows[Int(rowOf[Int(c.sym)])].passive {
                    defSyms.append(aggregateSymbol(rowOf[Int(c.sym)])); defCoefs.append(c.coef)
                }
            }
            if aggregateRank.count < kind.count {
                aggregateRank += [Int32](repeating: 0, count: kind.count - aggregateRank.count)
            }
            retiring.append((w, d, defSyms, defCoefs))
            aggregateRank[Int(d)] = Int32(retiring.count)
        }
        // The active rows that hold any of them (only those can receive one through a content).
        var targets: [Int32] = []
        var seen = Set<Int32>()
        for a in retiring {
            for ref in cols[Int(a.dummy)] where seen.insert(ref.row).inserted { targets.append(ref.row) }
        }
        // `heap` (a max-heap) holds the ranks of the aggregates in the row being rewritten, smallest first.
        heap.removeAll(keepingCapacity: true)
        for r in targets {
            guard rows[Int(r)].cells.contains(where: { aggregateRank[Int($0.sym)] > 0 }) else { continue }
            touch(r)
            let n = rows[Int(r)].cells.count
            for i in 0..<n {
                let sym = rows[Int(r)].cells[i].sym
                pos[Int(sym)] = Int32(i)
                let k = aggregateRank[Int(sym)]
                if k > 0 { heapPush((UInt64.max - UInt64(k), k)) }
            }
            while let (_, k) = heapPop() {
                let a = retiring[Int(k) - 1]
                let p = Int(pos[Int(a.dummy)])
                guard p >= 0 else { continue }
                let factor = rows[Int(r)].cells[p].coef
                removeCellTracked(r, p)
                for j in a.syms.indices {
                    let s = a.syms[j]
                    let delta = factor * a.coefs[j]
                    let q = Int(pos[Int(s)])
                    if q >= 0 {
                        let v = rows[Int(r)].cells[q].coef + delta
                        if abs(v) < Tolerance.coefEpsilon { removeCellTracked(r, q) } else { rows[Int(r)].cells[q].coef = v }
                    } else if abs(delta) >= Tolerance.coefEpsilon {
                        pos[Int(s)] = Int32(rows[Int(r)].cells.count)
                        appendCell(r, s, delta)
                        let k2 = aggregateRank[Int(s)]
                        if k2 > 0 { heapPush((UInt64.max - UInt64(k2), k2)) }
                    }
                }
            }
            for c in rows[Int(r)].cells { pos[Int(c.sym)] = -1 }
        }
        for a in retiring {
            let d = a.dummy
            // The objective's coefficient on a dummy matters once the dummy is pivoted in to remove its
            // constraint, so it is carried over too.
            for l in levels.indices {
                let e = levels[l].coef[Int(d)]
                if e == 0 { continue }
                objAdd(Int32(l), d, -e)
                for j in a.syms.indices { objAdd(Int32(l), a.syms[j], e * a.coefs[j]) }
            }
            aggregateRank[Int(d)] = 0
            touch(a.row)
            rows[Int(a.row)].aggregate = -1
            releaseSymbol(d)
        }
    }

    /// Removes cell `i` of row `r` while `pos` maps the row's symbols to their cells (the last cell moves to `i`).
    private mutating func removeCellTracked(_ r: Int32, _ i: Int) {
        pos[Int(rows[Int(r)].cells[i].sym)] = -1
        let last = rows[Int(r)].cells.count - 1
        if i < last { pos[Int(rows[Int(r)].cells[last].sym)] = Int32(i) }
        removeCell(r, i)
    }

    /// The constraint slots whose dummies an aggregate dummy stands for (for conflict certificates).
    func aggregateOwners(_ d: Int32) -> [Int] {
        var out: [Int] = []
        var stack: [Int32] = [aggregateOf[Int(d)]]
        var seen = Set<Int32>()
        while let p = stack.popLast() {
            guard p >= 0, seen.insert(p).inserted, rows[Int(p)].passive else { continue }
            for c in rows[Int(p)].cells {
                if kind[Int(c.sym)] == .dummy { out.append(Int(owner[Int(c.sym)])) }
                let br = rowOf[Int(c.sym)]
                if br >= 0 && rows[Int(br)].passive { stack.append(br) }
            }
        }
        return out
    }

    /// The constraint slots behind symbol `s` for a certificate: its owner, or an aggregate's constraints.
    func certificateOwners(_ s: Int32) -> [Int] {
        if kind[Int(s)] == .dummy && aggregateOf[Int(s)] >= 0 { return aggregateOwners(s) }
        return [Int(owner[Int(s)])]
    }
}
