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
    var sym: Sym
    var colSlot: Int32   // index of this cell's entry in `cols[sym]`
    var coef: Double
}

@usableFromInline struct ColRef {
    var row: RowID
    var cell: Int32      // index of the cell in `rows[row].cells`
}

@usableFromInline struct Row {
    /// The row's basic symbol; `Row.freeSlot` for a free row, `Row.beingBuilt` while a new row is filled.
    var basic: Sym = Row.freeSlot
    var constant: Double = 0
    var cells: [Cell] = []
    /// A passive row defines an external variable by its constraint's own, unreduced row: its cells may hold
    /// basic symbols, it is not in the column index and never takes part in a pivot. Its variable is evaluated
    /// from passive rows of lower rank (`seq`, the rank of its variable, is a topological order). Keeping these rows out of the
    /// reduced tableau is what stops kiwi's fill-in (a chain's left edges each holding every earlier width).
    var passive = false
    var seq: UInt64 = 0
    /// For a passive row: the dummy symbol that stands, in active rows, for every dummy (required-equality
    /// marker) of this definition's full expansion; -1 until first needed. Chained definitions
    /// (`top_i == top_{i-1}`) would otherwise put i dummies into each row that uses `top_i`.
    var aggregate: Sym = .none
    /// For a passive row: the slot of the constraint it is the row of (-1 otherwise).
    var constraint: Int32 = -1

    /// The `basic` of a free row.
    static let freeSlot = Sym.none
    /// The `basic` of a row being built (not yet given its basic symbol).
    static let beingBuilt = Sym(Int32(-2))
}

/// A passive row's expansion through the passive rows it depends on, dummies left out (its aggregate stands for
/// them): `constant + sum(coef * sym)` over `terms`, whose symbols are not passive basics. Cached while it is
/// short, so that a row using the last of a chain of definitions (`top_i == top_{i-1}`) does not walk the whole
/// chain.
/// Valid while the row's `seq` and the tableau's `flatEpoch` match; definitions upstream changing shape clear it.
/// The constant is recomputed on use after any passive row's constant changed (`flatConstantEpoch`).
@usableFromInline struct FlatExpansion {
    var seq: UInt64 = 0          // the row's seq when computed; 0: not computed
    var epoch: UInt32 = 0
    var long = false             // more than `Tableau.flatLimit` terms: expand the row's own cells instead
    var constant = 0.0           // current while `constantEpoch` is the tableau's `flatConstantEpoch`
    var constantEpoch: UInt32 = 0
    var terms: [(sym: Sym, coef: Double)] = []
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
    /// How far the solution may be off a constraint, relative to its largest term (or 1), before the tableau is
    /// rebuilt from the constraints (`SolverCore.repairDrift`).
    static let drift = 1e-8
}

/// The rows that `Tableau.evaluate()` must look at: rows changed since the last evaluation, and the symbols whose
/// value may have changed (the basic of a changed row, before and after).
struct PendingChanges {
    var isRowDirty: [Bool] = []           // by row
    var rows: [RowID] = []
    var isSymDirty: [Bool] = []           // by symbol
    var syms: [Sym] = []
    /// External symbols whose value `evaluate` changed (or may have), for the caller to copy out.
    var externals: [Sym] = []
    /// Set when `evaluate` did a full pass (every value may have changed).
    var evaluatedAll = true
    /// Passive rows the last incremental pass evaluated, or values the last full pass changed (`evaluate`
    /// chooses the full pass while this is large).
    var lastIncrementalRows = 0
    /// Which constraints' constants changed since the last evaluation (a sum of their hashed slots), and the
    /// same for the last evaluation that met many rows: a full pass is predicted only while the same constants
    /// keep changing (a splitter dragged frame after frame), so the first frame of another animation (one view
    /// moving) is an incremental pass instead of a pass over the whole tableau.
    var constantSources: UInt64 = 0
    var largeSources: UInt64 = 0
    /// `evaluation.epoch` at the previous `evaluate()`.
    var epochAtLastPass: UInt64 = 0

    /// Notes that constraint `slot`'s constant changed.
    mutating func noteConstantChange(_ slot: Int) {
        constantSources &+= (UInt64(truncatingIfNeeded: slot) &+ 1) &* 0x9E37_79B9_7F4A_7C15
    }
}

/// Work buffers of single operations, kept so that no operation allocates once they have grown. Their contents
/// mean nothing between operations (the per-symbol ones are back to their neutral value: -1, 0, false).
struct Scratch {
    var pos: [Int32] = []                 // by symbol: its cell index in the row being merged, else -1
    var symbolMark: [Bool] = []           // by symbol, for `dropUsedDefinition`
    var expandCoef: [Double] = []         // by symbol, for `setReduced`: pending coefficient
    var expandQueued: [Bool] = []         // by symbol, for `setReduced` and `downstream`
    var heap = MaxHeap<RowID>()           // passive rows by key (`seq`, latest first)
    var rankQueue = RankQueue()           // passive basics to evaluate, by rank (`evaluate`)
    var touched: [Sym] = []             // non-basic symbols met by `setReduced`
    var flatStack: [RowID] = []           // for `flatten`
    var constantStack: [RowID] = []       // for `flatConstant` (which `flatten` calls)
    var flatCoef: [Double] = []           // by symbol, for `computeFlat`
    var flatMark: [Bool] = []             // by symbol, for `computeFlat`
    var flatTouched: [Sym] = []
    var pivotSyms: [Sym] = []             // a copy of the pivot row's cells (`loadPivot`)
    var visit: [Sym] = []                 // symbols met by `downstream`
    var reach: [(UInt64, RowID)] = []     // rows found by `downstream`, with their seq
    var pivotCoefs: [Double] = []

    /// Grows the per-symbol buffers by `n` symbols.
    mutating func addSymbols(_ n: Int) {
        pos.append(contentsOf: repeatElement(-1, count: n))
        expandCoef.append(contentsOf: repeatElement(0, count: n))
        expandQueued.append(contentsOf: repeatElement(false, count: n))
        flatCoef.append(contentsOf: repeatElement(0, count: n))
        flatMark.append(contentsOf: repeatElement(false, count: n))
        symbolMark.append(contentsOf: repeatElement(false, count: n))
        // Sized with the symbols, so that the first pass to reach the last ranks does not zero megabytes.
        rankQueue.reserve(places: pos.count * Tableau.rankSpread)
    }

    /// Shrinks the per-symbol buffers by the last `n` symbols.
    mutating func removeLastSymbols(_ n: Int) {
        pos.removeLast(n); expandCoef.removeLast(n); expandQueued.removeLast(n); flatCoef.removeLast(n)
        flatMark.removeLast(n); symbolMark.removeLast(n)
    }
}

/// A set of places in the rank order (`Tableau.rankPlace`) emptied in increasing order, for evaluating passive
/// rows by rank: a bitset scanned forward from the lowest member, with a summary bitset of its non-empty words
/// so that the scan skips 4,096 places a word (places are sparse: 64 a symbol, so a pass over a few rows far
/// apart in a 100k-view layout scanned a million empty words). Places inserted while it is being emptied must
/// be above the last one taken (a passive row's dependants have higher ranks), so one pass takes them all.
struct RankQueue {
    private var words: [UInt64] = []
    private var summary: [UInt64] = []   // bit j: words[j] != 0
    private var first = Int.max          // summary word index of the lowest member (a lower bound)
    private var last = -1                // summary word index of the highest member (an upper bound)

    mutating func insert(_ i: Int) {
        let w = i >> 6
        if w >= words.count { grow(to: w + 1) }
        words[w] |= 1 << UInt64(i & 63)
        let sw = w >> 6
        summary[sw] |= 1 << UInt64(w & 63)
        if sw < first { first = sw }
        if sw > last { last = sw }
    }

    /// Makes room for places below `n` without growing on insert.
    mutating func reserve(places n: Int) {
        let needed = (n + 63) >> 6
        if needed > words.count { grow(to: needed) }
    }

    private mutating func grow(to n: Int) {
        let count = max(n, 2 * words.count)
        words.append(contentsOf: repeatElement(0, count: count - words.count))
        let needed = (count + 63) >> 6
        if needed > summary.count { summary.append(contentsOf: repeatElement(0, count: needed - summary.count)) }
    }

    /// The lowest member, removed; nil when empty.
    mutating func popFirst() -> Int? {
        while first <= last {
            let sbits = summary[first]
            if sbits == 0 { first += 1; continue }
            let w = first << 6 | sbits.trailingZeroBitCount
            let bits = words[w]
            let rest = bits & (bits - 1)
            words[w] = rest
            if rest == 0 { summary[first] = sbits & (sbits - 1) }
            return w << 6 | bits.trailingZeroBitCount
        }
        first = Int.max
        last = -1
        return nil
    }
}

/// A binary max-heap of (key, value) pairs: the buffer keeps its capacity across uses.
struct MaxHeap<Value> {
    private var items: [(key: UInt64, value: Value)] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func push(_ key: UInt64, _ value: Value) {
        items.append((key, value))
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if items[p].key >= items[i].key { break }
            items.swapAt(p, i); i = p
        }
    }

    /// The pair with the largest key, removed; nil when empty.
    mutating func pop() -> (key: UInt64, value: Value)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && items[l].key > items[m].key { m = l }
                if r < items.count && items[r].key > items[m].key { m = r }
                if m == i { break }
                items.swapAt(m, i); i = m
            }
        }
        return top
    }
}

/// The phase-one objective: the artificial variable's row, minimised while adding a constraint that no subject
/// could take (only during that add). `syms` then holds the certificate of a failure.
struct PhaseOne {
    var isActive = false
    var syms: [Sym] = []
    var coefs: [Double] = []
    var constant: Double = 0
    var index: [Int32] = []               // by symbol: its index in `syms`, or -1
}

/// Counters for benchmarks and debugging.
struct TableauStatistics {
    var pivots = 0                        // pivots done
    var pivotKind = 0                     // what the pivots are for: 0 subject, 1 optimize, 2 phase one, 3 dual
    var pivotsByKind = [0, 0, 0, 0]
    var rowsRewrittenByKind = [0, 0, 0, 0]   // rows a pivot substituted into
    var cellsVisitedByKind = [0, 0, 0, 0]    // cells read by those substitutions
    var expansions = 0                    // passive rows expanded by `setReduced`
    var candidateLooks = 0                // candidates `popCandidate` looked at
    var swaps = 0                         // definitions that took their variable from an active row (`swapDefinition`)
    var downstreamVisits = 0              // rows visited by downstream searches (`markDownstream`)
    var refactorizations = 0              // tableaus rebuilt from the constraints (numerical trouble, big removals)
    var rowRenumberings = 0               // rows renumbered in rank order (`renumberRowsInRankOrder`)
    var driftRepairs = 0                  // of which because a required constraint drifted (`repairDrift`)
    /// Definitions removed: dropped unused, dropped while used (`dropUsedDefinition`), activated first.
    var definitionRemovals = [0, 0, 0]
    /// Flat constants recomputed (`Tableau.flatConstant`): from the evaluated values, and rows walked upstream.
    var flatConstantsFromValues = 0
    var flatConstantRowsWalked = 0
}

struct Tableau {
    // Symbols: dense ids into these arrays.
    var kind: [SymbolKind] = []
    var owner: [Int32] = []               // constraint slot (slack/error/dummy) or variable slot (external)
    var rowOf: [RowID] = []               // row index when basic, else -1
    var cols = ColumnIndex()              // the active rows that hold the symbol
    var pcols = ColumnIndex()             // the passive rows that hold the symbol (passive cells' column index)
    var isCandidate: [Bool] = []          // in `candidates`
    var aggregateOf: [RowID] = []         // for an aggregate dummy: its passive row, else -1
    var symValue: [Double] = []           // values after `evaluate` (basic symbols; non-basic ones are 0)
    /// `evaluation.epoch` at the end of the last `evaluate()` (0: none yet); see `valuesAreCurrent`.
    var evaluatedAtEpoch: UInt64 = 0
    var freeSyms: [Sym] = []
    /// A symbol's place in the rank order when it was placed just below another (`placeRank`), else -1; the
    /// symbols so placed, by that place (`RankQueue` and the evaluation program read them back).
    var rankOrder: [Int32] = []
    var placedRanks: [Int: Sym] = [:]
    /// Per symbol id: the places below its own in use, up to the highest taken (0: none), so that the next free
    /// one is a single read (`freePlace`); kept by `recordPlace`.
    var placesTaken: [UInt8] = []
    /// Per symbol id: an id at or after it that may have a free place below its own (later when it is full),
    /// so that `placeJustAbove` hops over runs of full ids.
    var roomAfter: [Int32] = []

    // Rows: dense ids into these arrays.
    var rows: [Row] = []
    var freeRows: [RowID] = []
    /// Rows are renumbered in rank order only in a tableau of at least this many (smaller ones stay in the
    /// caches whatever their order); tests lower it.
    var rowOrderMinimum = 16_384
    /// How many times a renumbering's cost the full evaluations over scattered rows read before the rows are
    /// renumbered (`renumberRowsIfScattered`); tests lower it.
    var renumberingCostFactor = 2
    /// Cells in all rows (kept by `appendCell` and `removeCell`): what `SolverLimits.maxCells` bounds.
    var cellCount = 0
    /// Changes with every cell written (made, removed, its coefficient changed): `column(_:)`'s cache key.
    var cellEpoch: UInt64 = 0
    /// `column(_:)`'s answers, each with its symbol and the `cellEpoch` it was read at, in a slot chosen by the
    /// symbol (direct-mapped: no hashing on the path of every suggestion; two columns in use that share a slot
    /// take turns).
    var columnCache = [(sym: Sym, epoch: UInt64, items: [(row: RowID, coef: Double)])](
        repeating: (Sym.none, 0, []), count: Tableau.columnCacheSlots)
    static let columnCacheSlots = 64
    /// `columnInRowOrder(_:)`'s answers, in the same slots.
    var sortedColumnCache = [(sym: Sym, epoch: UInt64, items: [(row: RowID, coef: Double)])](
        repeating: (Sym.none, 0, []), count: Tableau.columnCacheSlots)
    var rowStamp: [UInt32] = []           // the transaction that last recorded the row (`touch`)
    var flats: [FlatExpansion] = []
    var flatEpoch: UInt32 = 1
    /// Moves on whenever a passive row's constant changes: cached expansions recompute their constants on use
    /// (`flatConstant`), so a constant change costs O(1) instead of a walk of everything downstream of it.
    var flatConstantEpoch: UInt32 = 1
    static let flatLimit = 16

    // Objective: one level per priority in use.
    var levels: [Level] = []
    var levelOrder: [LevelID] = []          // level ids by priority, highest first
    var candidates: [Sym] = []          // non-basic symbols that may improve the objective (unordered)
    var candidatesByID = false          // `candidates` is a min-heap by id (Bland's rule in `optimize`)
    var phaseOne = PhaseOne()
    var infeasible: [Sym] = []          // basics of rows the dual simplex must make feasible

    var journal = Journal()
    /// What the current call may still do (`SolverLimits.maxPivots`, `maxSeconds`); `spend()` checks it.
    var budget = WorkBudget()
    var changes = PendingChanges()
    /// The passive rows compiled for `evaluateAll` (rebuilt after any change of the rows' shape).
    var evaluation = EvaluationProgram()
    /// Aggregates made or retired (they do not change the evaluation, but `aggregatesDownstream(of:)`'s answers).
    var aggregateEpoch: UInt64 = 0
    /// `aggregatesDownstream(of:)`'s answers by passive row, each with the `shapeEpoch` it was found at.
    var downstreamAggregates: [RowID: (epoch: UInt64, items: [(Sym, Double)])] = [:]
    var scratch = Scratch()
    var stats = TableauStatistics()

    var symbolCount: Int { kind.count }

    // MARK: - Symbols

    mutating func newSymbol(_ k: SymbolKind, owner o: Int32) -> Sym {
        if freeSyms.isEmpty { growSymbols() }
        let s = freeSyms.removeLast()
        if journal.isOpen { journal.poppedSymbol(s, leaving: freeSyms.count) }
        kind[s] = k
        owner[s] = o
        rowOf[s] = .none
        aggregateOf[s] = .none
        return s
    }

    /// Symbols made at once by `growSymbols`.
    static let symbolChunk = 64

    /// Makes `symbolChunk` unused symbols and lists them free, the lowest id on top, so that `newSymbol` hands
    /// out ids in the order it did one at a time: a run appended to each of the twenty per-symbol arrays
    /// instead of an append (a call that checks the array is unique) per array and symbol, which was a quarter
    /// of adding a view to a layout. The journal needs nothing: ids past its mark go on rollback, and the free
    /// list above its mark with them.
    mutating func growSymbols() {
        let n = Tableau.symbolChunk, first = kind.count
        kind.append(contentsOf: repeatElement(.unused, count: n))
        owner.append(contentsOf: repeatElement(-1, count: n))
        rowOf.append(contentsOf: repeatElement(.none, count: n))
        cols.appendSymbols(n); pcols.appendSymbols(n)
        isCandidate.append(contentsOf: repeatElement(false, count: n))
        aggregateOf.append(contentsOf: repeatElement(.none, count: n))
        symValue.append(contentsOf: repeatElement(0, count: n))
        rankOrder.append(contentsOf: repeatElement(-1, count: n))
        placesTaken.append(contentsOf: repeatElement(0, count: n))
        roomAfter.append(contentsOf: (first..<first + n).lazy.map { Int32($0) })
        changes.isSymDirty.append(contentsOf: repeatElement(false, count: n))
        phaseOne.index.append(contentsOf: repeatElement(-1, count: n))
        scratch.addSymbols(n)
        for l in levels.indices { levels[l].coef.append(contentsOf: repeatElement(0, count: n)) }
        for i in stride(from: first + n - 1, through: first, by: -1) { freeSyms.append(Sym(Int32(i))) }
    }

    /// Frees a symbol that occurs nowhere (or whose remaining occurrences are numerical residue).
    mutating func releaseSymbol(_ s: Sym) {
        purge(s)
        if journal.isOpen { journal.pendingFreeSyms.append(s); return }
        markFree(s)
    }

    /// Puts a released symbol on the free list, out of the rank order it was placed in.
    mutating func markFree(_ s: Sym) {
        kind[s] = .unused
        owner[s] = -1
        if rankOrder[s] >= 0 {
            recordPlace(Int(rankOrder[s]), nil)
            rankOrder[s] = -1
        }
        freeSyms.append(s)
    }

    // MARK: - Ranks

    /// Places in the rank order per symbol: a symbol's own is `64 * id + 63`, and up to 63 symbols can be
    /// placed just below it (`placeRank`): a chain whose variables were numbered in another order places each
    /// link's new position just above the last (`placeJustAbove`), under one symbol for as long as the links
    /// rank above the other variables (with four places a symbol, three links, and the next went in as an
    /// ordinary row holding the chain's expansion).
    static let rankSpread = 64

    /// Symbol `s`'s place in the rank order: by id, unless it was placed just below another symbol.
    @inline(__always) func rankPlace(_ s: Sym) -> Int {
        let o = rankOrder[s]
        return o >= 0 ? Int(o) : s.index &* Tableau.rankSpread &+ (Tableau.rankSpread - 1)
    }

    /// The symbol at place `p` of the rank order (`rankPlace`).
    @inline(__always) func symbol(atRankPlace p: Int) -> Sym {
        p % Tableau.rankSpread == Tableau.rankSpread - 1 ? Sym(p / Tableau.rankSpread) : placedRanks[p] ?? .none
    }

    /// A passive row's place in the evaluation order: its variable's rank (+ 1, so that 0 stays "none" for
    /// `FlatExpansion.seq`). A passive row holds only variables of lower rank.
    @inline(__always) func rank(_ s: Sym) -> UInt64 { UInt64(rankPlace(s)) + 1 }

    /// Every symbol id in rank order: by id, with those placed below a symbol's place just before it.
    func rankOrderedSymbols() -> [Int] {
        // The placed symbols by place, as `place << 32 | symbol` (a sort of plain integers).
        var early: [Int] = []
        early.reserveCapacity(placedRanks.count)
        for (place, s) in placedRanks { early.append(place << 32 | s.index) }
        early.sort()
        var next = 0
        var order: [Int] = []
        order.reserveCapacity(kind.count)
        for s in kind.indices {
            let place = s &* Tableau.rankSpread &+ (Tableau.rankSpread - 1)
            while next < early.count && early[next] >> 32 < place { order.append(early[next] & 0xFFFF_FFFF); next += 1 }
            if rankOrder[s] < 0 { order.append(s) }
        }
        return order
    }

    /// Whether `a` ranks above `b`.
    @inline(__always) func ranksAbove(_ a: Sym, _ b: Sym) -> Bool { rankPlace(a) > rankPlace(b) }

    /// Places external symbol `s`, which no row holds yet, just below the place of symbol id `target` in the rank
    /// order (above every symbol it ranks above), after any placed there before. Returns false, changing
    /// nothing, when `s` is in a row, `target` was itself placed, or 63 symbols are placed below it already.
    mutating func placeRank(_ s: Sym, below target: Sym) -> Bool {
        guard !rowOf[s].isValid, cols.isEmpty(s), pcols.isEmpty(s), let place = rankPlace(for: s, below: target)
        else { return false }
        setRankPlace(s, place)
        return true
    }

    /// Places external symbol `s`, which no row holds yet, just above symbol `v` in the rank order (above
    /// whatever was placed there before, below the next symbol's own place), `v` placed itself or not. Returns
    /// false, changing nothing, when `s` is in a row or no place is left there.
    mutating func placeJustAbove(_ s: Sym, _ v: Sym) -> Bool {
        guard !rowOf[s].isValid, cols.isEmpty(s), pcols.isEmpty(s), let place = placeJustAbove(for: s, v)
        else { return false }
        // The full ids passed on the way now lead straight to the one with room (path compression).
        var id = firstIDAbove(v)
        let found = Int(place) / Tableau.rankSpread
        while id < found {
            let next = Int(roomAfter[id])
            roomAfter[id] = Int32(found)
            id = max(next, id + 1)
        }
        setRankPlace(s, place)
        return true
    }

    /// The place `placeJustAbove` gives external symbol `s`, or nil when there is none; whether rows hold `s`
    /// aside. Above an unplaced `v` it is one of the places below the next id's own; above a placed `v`, one of
    /// the places after `v`'s below the same symbol. So a variable defined just above a placed one can be placed
    /// too: with the variables of a chain numbered in another order, each link's new position goes just above
    /// the one before it, itself placed. When those places are all taken, the first free place below a later
    /// id's own (hopping over full ids by `roomAfter`): still above `v`, which is all a passive row's rank needs
    /// (the paragraphs of a document, thousands of lefts each placed above the pane's).
    func placeJustAbove(for s: Sym, _ v: Sym) -> Int32? {
        guard s != v, kind[s] == .external else { return nil }
        // (`rankOrderedSymbols` lists the places below existing ids only.)
        var id = firstIDAbove(v)
        while id < kind.count {
            if let p = freePlace(for: s, from: id &* Tableau.rankSpread) { return p }
            id = max(Int(roomAfter[id]), id + 1)
        }
        return nil
    }

    /// The first id whose places rank above `v`: `v`'s own when `v` was placed below it (the places after
    /// `v`'s), else the next.
    @inline(__always) func firstIDAbove(_ v: Sym) -> Int {
        let o = rankOrder[v]
        return o >= 0 ? Int(o) / Tableau.rankSpread : v.index + 1
    }

    /// The place above every place taken among those below the own place of the symbol whose places start at
    /// `base` (`s`'s own when it is the highest taken), or nil when the last is taken.
    func freePlace(for s: Sym, from base: Int) -> Int32? {
        let taken = Int(placesTaken[base / Tableau.rankSpread])
        if taken > 0 && placedRanks[base + taken - 1] == s { return Int32(base + taken - 1) }
        guard taken < Tableau.rankSpread - 1, base + taken <= Int(Int32.max) else { return nil }
        return Int32(base + taken)
    }

    /// Records symbol `s` at place `p` (nil: the place is free again), keeping `placesTaken` and `roomAfter`.
    mutating func recordPlace(_ p: Int, _ s: Sym?) {
        let id = p / Tableau.rankSpread, k = p % Tableau.rankSpread
        placedRanks[p] = s
        if s != nil {
            guard k + 1 > Int(placesTaken[id]) else { return }
            placesTaken[id] = UInt8(k + 1)
            if k + 1 == Tableau.rankSpread - 1 { roomAfter[id] = Int32(id + 1) }
        } else if k + 1 == Int(placesTaken[id]) {
            var taken = k
            while taken > 0 && placedRanks[id &* Tableau.rankSpread &+ taken &- 1] == nil { taken -= 1 }
            placesTaken[id] = UInt8(taken)
            roomAfter[id] = Int32(id)
        }
    }

    /// The place `placeRank` gives external symbol `s` just below `target`, or nil when there is none (`target`
    /// was itself placed, or 63 symbols are placed below it already); whether rows hold `s` aside.
    func rankPlace(for s: Sym, below target: Sym) -> Int32? {
        guard s != target, target.index < kind.count, kind[s] == .external, rankOrder[target] < 0 else { return nil }
        return freePlace(for: s, from: target.index &* Tableau.rankSpread)
    }

    /// Puts symbol `s` at place `place` of the rank order (-1: its own, by id), recorded for a rollback.
    mutating func setRankPlace(_ s: Sym, _ place: Int32) {
        let old = rankOrder[s]
        guard old != place else { return }
        if journal.isOpen { journal.ranks.append((s, old)) }
        if old >= 0 && placedRanks[Int(old)] == s { recordPlace(Int(old), nil) }
        rankOrder[s] = place
        if place >= 0 { recordPlace(Int(place), s) }
        evaluation.invalidate()
    }

    /// Removes every occurrence of `s` (its row if basic, its cells, its objective coefficients): `s` becomes 0.
    mutating func purge(_ s: Sym) {
        let r = rowOf[s]
        if r.isValid { freeRow(r) }
        while let ref = cols.last(s) {
            touch(ref.row)
            removeCell(ref.row, Int(ref.cell))
        }
        for l in levels.indices where levels[l].coef[s] != 0 {
            objAdd(LevelID(l), s, -levels[l].coef[s])
        }
    }

    // MARK: - Rows

    mutating func allocRow() -> RowID {
        let r: RowID
        if let f = freeRows.popLast() {
            r = f
            if journal.isOpen { journal.poppedRow(f, leaving: freeRows.count) }
        } else {
            r = RowID(rows.count)
            rows.append(Row())
            rowStamp.append(0)
            flats.append(FlatExpansion())
            changes.isRowDirty.append(false)
        }
        touch(r)
        // A row a rollback freed keeps its old fields (the journal restores only rows that existed): reset all.
        rows[r].basic = Row.beingBuilt
        rows[r].constant = 0
        rows[r].passive = false
        rows[r].seq = 0
        rows[r].aggregate = .none
        rows[r].constraint = -1
        return r
    }

    mutating func freeRow(_ r: RowID) {
        touch(r)
        while !rows[r].cells.isEmpty { removeCell(r, rows[r].cells.count - 1) }
        let b = rows[r].basic
        if b.isValid && rowOf[b] == r { rowOf[b] = .none }
        rows[r].basic = Row.freeSlot
        evaluation.invalidate()
        rows[r].constant = 0
        rows[r].passive = false
        rows[r].aggregate = .none
        rows[r].constraint = -1
        freeRows.append(r)
    }

    /// Records the row's state before its first change in the open transaction.
    @inline(__always) mutating func touch(_ r: RowID) {
        if !changes.isRowDirty[r] { markDirty(r) }
        guard journal.isOpen, rowStamp[r] != journal.txId else { return }
        rowStamp[r] = journal.txId
        let row = rows[r]
        journal.rows.append((r, row.basic == Row.freeSlot ? nil : row))
    }

    /// `touch` for a change of the row's constant alone: records the constant, not the row (a suggestion
    /// shifts the constants of every row that holds its marker, and copying each row would retain its cells).
    @inline(__always) mutating func touchConstant(_ r: RowID) {
        if !changes.isRowDirty[r] { markDirty(r) }
        recordConstant(r)
    }

    /// The journal's part of `touchConstant`: the row's constant before its first change in the transaction.
    @inline(__always) mutating func recordConstant(_ r: RowID) {
        guard journal.isOpen, rowStamp[r] != journal.txId else { return }
        journal.constants.append((r, rows[r].constant))
    }

    /// Marks row `r` for `evaluate`, and its basic symbol as one whose value may change.
    mutating func markDirty(_ r: RowID) {
        changes.isRowDirty[r] = true
        changes.rows.append(r)
        let b = rows[r].basic
        if b.isValid && !changes.isSymDirty[b] { changes.isSymDirty[b] = true; changes.syms.append(b) }
    }

    /// Appends a cell to row `r` and its entry to the symbol's column (`pcols` for a passive row).
    mutating func appendCell(_ r: RowID, _ s: Sym, _ coef: Double) {
        let cellIndex = Int32(rows[r].cells.count)
        let colSlot: Int32
        if rows[r].passive {
            colSlot = pcols.append(s, ColRef(row: r, cell: cellIndex))
        } else {
            colSlot = cols.append(s, ColRef(row: r, cell: cellIndex))
        }
        rows[r].cells.append(Cell(sym: s, colSlot: colSlot, coef: coef))
        cellCount += 1
        cellEpoch &+= 1
        if rows[r].passive { evaluation.invalidate() }
    }

    /// Swap-removes cell `i` of row `r` and its column entry.
    mutating func removeCell(_ r: RowID, _ i: Int) {
        let passive = rows[r].passive
        let cell = rows[r].cells[i]
        let s = cell.sym, slot = Int(cell.colSlot)
        let lastRef = passive ? pcols.removeLast(s) : cols.removeLast(s)
        if slot < (passive ? pcols.count(s) : cols.count(s)) {
            if passive { pcols.set(s, slot, lastRef) } else { cols.set(s, slot, lastRef) }
            rows[lastRef.row].cells[Int(lastRef.cell)].colSlot = Int32(slot)
        }
        let lastCell = rows[r].cells.removeLast()
        cellCount -= 1
        cellEpoch &+= 1
        if passive { evaluation.invalidate() }
        if i < rows[r].cells.count {
            rows[r].cells[i] = lastCell
            if passive {
                pcols.setCell(lastCell.sym, Int(lastCell.colSlot), Int32(i))
            } else {
                cols.setCell(lastCell.sym, Int(lastCell.colSlot), Int32(i))
            }
        }
    }

    /// The active rows that hold symbol `s` (its column `cols[s]`), each with `s`'s coefficient there, in one
    /// contiguous array. Kept until any cell changes (`cellEpoch`): a constant that animates shifts the rows of
    /// the same column every frame, and reading each coefficient from its row's cells was a cache miss a row.
    mutating func column(_ s: Sym) -> [(row: RowID, coef: Double)] {
        let slot = s.index & (Tableau.columnCacheSlots - 1)
        if columnCache[slot].sym == s && columnCache[slot].epoch == cellEpoch { return columnCache[slot].items }
        var items: [(row: RowID, coef: Double)] = []
        items.reserveCapacity(cols.count(s))
        for ref in cols[s] { items.append((ref.row, rows[ref.row].cells[Int(ref.cell)].coef)) }
        columnCache[slot] = (s, cellEpoch, items)
        return items
    }

    /// `column(s)` by increasing row id, for a walk that changes every row of a long column: it then reads the
    /// rows forward in memory instead of in the column's order (cached as `column` is; a short column is
    /// returned as it is).
    mutating func columnInRowOrder(_ s: Sym) -> [(row: RowID, coef: Double)] {
        let items = column(s)
        guard items.count >= Tableau.sortedColumnMinimum else { return items }
        let slot = s.index & (Tableau.columnCacheSlots - 1)
        if sortedColumnCache[slot].sym == s && sortedColumnCache[slot].epoch == cellEpoch {
            return sortedColumnCache[slot].items
        }
        let sorted = items.sorted { $0.row < $1.row }
        sortedColumnCache[slot] = (s, cellEpoch, sorted)
        return sorted
    }

    /// Columns shorter than this are walked in their own order (`columnInRowOrder`).
    static let sortedColumnMinimum = 256

    /// A description of the first fault in the rank order's bookkeeping (nil when there is none): a place and
    /// its symbol that disagree, a count of places taken that is not the highest taken, a `roomAfter` that
    /// would send `placeJustAbove` back or stop it at a full symbol, a passive row holding a variable that does
    /// not rank below its own. For the consistency checks of tests.
    func rankProblem() -> String? {
        var highest = [Int](repeating: 0, count: kind.count)
        for (place, s) in placedRanks {
            let id = place / Tableau.rankSpread, k = place % Tableau.rankSpread
            guard k != Tableau.rankSpread - 1, id < kind.count else {
                return "place \(place) of \(s.index) is not below a symbol"
            }
            guard rankOrder[s] == Int32(place) else {
                return "place \(place) holds \(s.index), placed at \(rankOrder[s])"
            }
            highest[id] = max(highest[id], k + 1)
        }
        for s in kind.indices {
            if rankOrder[s] >= 0 && placedRanks[Int(rankOrder[s])] != Sym(Int32(s)) {
                return "symbol \(s) is placed at \(rankOrder[s]), which does not list it"
            }
            guard Int(placesTaken[s]) == highest[s] else {
                return "symbol \(s): \(placesTaken[s]) places counted below it, \(highest[s]) taken up to the highest"
            }
            guard Int(roomAfter[s]) >= s, highest[s] < Tableau.rankSpread - 1 || Int(roomAfter[s]) > s else {
                return "symbol \(s): roomAfter \(roomAfter[s]) with \(highest[s]) places taken"
            }
        }
        for r in rows.indices where rows[r].basic.isValid && rows[r].passive {
            for c in rows[r].cells where kind[c.sym] == .external && !ranksAbove(rows[r].basic, c.sym) {
                return "passive row \(r) holds \(c.sym.index), which does not rank below its basic \(rows[r].basic.index)"
            }
        }
        return nil
    }

    /// A description of the first cell whose column entry does not point back at it, or of a column with more
    /// entries than there are cells (nil when the index is whole). For the consistency checks of tests.
    func columnIndexProblem() -> String? {
        var cells = 0
        for r in rows.indices where rows[r].basic.isValid {
            let passive = rows[r].passive
            for (i, c) in rows[r].cells.enumerated() {
                cells += 1
                let slot = Int(c.colSlot)
                let n = passive ? pcols.count(c.sym) : cols.count(c.sym)
                let ref = slot < n ? (passive ? pcols[c.sym][slot] : cols[c.sym][slot]) : ColumnIndex.empty
                if ref.row != RowID(r) || ref.cell != Int32(i) {
                    return "cell \(i) of row \(r) (symbol \(c.sym.index)) is not at entry \(slot) of its column"
                }
            }
        }
        var entries = 0
        for s in 0..<cols.symbolCount { entries += cols.count(Sym(s)) + pcols.count(Sym(s)) }
        return entries == cells ? nil : "the columns hold \(entries) entries for \(cells) cells"
    }

    /// The index of `s` among the cells of row `r`, searching the shorter of the row and the column.
    func cellIndex(_ r: RowID, _ s: Sym) -> Int? {
        let cells = rows[r].cells
        let col = cols[s]
        if cells.count <= col.count || rows[r].passive {
            for i in cells.indices where cells[i].sym == s { return i }
        } else {
            for ref in col where ref.row == r { return Int(ref.cell) }
        }
        return nil
    }

    func coefficient(_ r: RowID, _ s: Sym) -> Double {
        if let i = cellIndex(r, s) { return rows[r].cells[i].coef }
        return 0
    }

    /// row[r] += coef * s
    mutating func addTerm(_ r: RowID, _ s: Sym, _ coef: Double) {
        if let i = cellIndex(r, s) {
            let v = rows[r].cells[i].coef + coef
            if abs(v) < Tolerance.coefEpsilon {
                removeCell(r, i)
            } else {
                rows[r].cells[i].coef = v
                cellEpoch &+= 1
                if rows[r].passive { evaluation.invalidate() }   // a passive row's shape, as in appendCell
            }
        } else if abs(coef) >= Tolerance.coefEpsilon {
            appendCell(r, s, coef)
        }
    }

    /// Copies row `r` into the pivot scratch buffers.
    mutating func loadPivot(_ r: RowID) {
        scratch.pivotSyms.removeAll(keepingCapacity: true)
        scratch.pivotCoefs.removeAll(keepingCapacity: true)
        for c in rows[r].cells {
            scratch.pivotSyms.append(c.sym)
            scratch.pivotCoefs.append(c.coef)
        }
    }

    /// row[r] += factor * (pivot scratch terms); the constant is handled by the caller. Row `r` is active.
    ///
    /// The hot loop of every pivot. The row's cells and the position scratch are moved out into locals for the
    /// duration, so that no access goes through the nested arrays' uniqueness checks (they were a third of the
    /// time of a layout grid's optimisation); the same cell and column bookkeeping as `appendCell`/`removeCell`.
    mutating func mergePivot(into r: RowID, factor: Double) {
        var cells: [Cell] = []
        swap(&cells, &rows[r].cells)
        var pos: [Int32] = []
        swap(&pos, &scratch.pos)
        var columns = ColumnIndex()
        swap(&columns, &cols)
        let n = cells.count
        let pivotCount = scratch.pivotSyms.count
        stats.rowsRewrittenByKind[stats.pivotKind] += 1
        stats.cellsVisitedByKind[stats.pivotKind] += n + pivotCount
        let before = cells.count
        columns.withEditor { cols in
        pos.withUnsafeMutableBufferPointer { pos in
            for i in 0..<n { pos[Int(cells[i].sym.raw)] = Int32(i) }
            for j in 0..<pivotCount {
                let s = scratch.pivotSyms[j]
                let delta = factor * scratch.pivotCoefs[j]
                let p = Int(pos[Int(s.raw)])
                if p >= 0 {
                    let v = cells[p].coef + delta
                    if abs(v) < Tolerance.coefEpsilon {
                        pos[Int(s.raw)] = -1
                        // Swap-remove the cell and its column entry (as `removeCell`).
                        let slot = Int(cells[p].colSlot)
                        let lastRef = cols.removeLast(s)
                        if slot < cols.count(s) {
                            cols.set(s, slot, lastRef)
                            rows[lastRef.row].cells[Int(lastRef.cell)].colSlot = Int32(slot)
                        }
                        let lastCell = cells.removeLast()
                        if p < cells.count {
                            cells[p] = lastCell
                            pos[Int(lastCell.sym.raw)] = Int32(p)
                            cols.setCell(lastCell.sym, Int(lastCell.colSlot), Int32(p))
                        }
                    } else {
                        cells[p].coef = v
                    }
                } else if abs(delta) >= Tolerance.coefEpsilon {
                    // Append the cell and its column entry (as `appendCell`).
                    let index = Int32(cells.count)
                    pos[Int(s.raw)] = index
                    cells.append(Cell(sym: s, colSlot: cols.append(s, ColRef(row: r, cell: index)), coef: delta))
                }
            }
            for c in cells { pos[Int(c.sym.raw)] = -1 }
        }
        }
        cellCount += cells.count - before
        cellEpoch &+= 1
        swap(&columns, &cols)
        swap(&pos, &scratch.pos)
        swap(&cells, &rows[r].cells)
    }

    @inline(__always) static func clean(_ x: Double) -> Double {
        abs(x) < 1e-11 ? 0 : x
    }
}
