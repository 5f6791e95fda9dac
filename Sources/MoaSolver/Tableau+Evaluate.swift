// Moa — evaluating the tableau: symbol values from the rows changed since the last evaluation.

extension Tableau {
    // MARK: - Evaluation

    /// The value of every basic symbol into `symValue`: active rows give their constant, passive rows are
    /// evaluated in topological order (each holds only earlier passive variables). Non-basic symbols are 0.
    ///
    /// Only what changed since the last call is evaluated: the rows touched since, the passive rows that hold a
    /// symbol whose value changed, and so on downstream (`changedExternals` lists the externals among them). A
    /// large change takes the full pass, which is cheaper per row.
    mutating func evaluate() {
        // With the program compiled, a full pass costs little more per row than the incremental one costs per
        // changed row: after a pass that met many rows (a splitter drag moves most of a layout), the next ones
        // are full passes while the rows keep their shape, the same constants keep changing and most values keep
        // changing; a full pass in which few values changed (the drag ended) hands back to incremental passes,
        // and other constants changing (another animation: one view moves) start with an incremental one.
        let sources = changes.constantSources
        changes.constantSources = 0
        // An invalid program is compiled again when the shape has not changed since the previous pass: a drag
        // whose suggestions pivot now and then, not a run of adds and removes that change it every time.
        let stable = evaluation.isValid || evaluation.epoch == changes.epochAtLastPass
        changes.epochAtLastPass = evaluation.epoch
        let large = stable && changes.lastIncrementalRows > rows.count / 8 && sources == changes.largeSources
        defer { evaluatedAtEpoch = evaluation.epoch }
        if large || changes.rows.count + changes.syms.count > rows.count / 4 || journal.isOpen {
            evaluateAll()
            if changes.lastIncrementalRows > rows.count / 8 { changes.largeSources = sources }
            return
        }
        defer { if changes.lastIncrementalRows > rows.count / 8 { changes.largeSources = sources } }
        changes.lastIncrementalRows = 0
        changes.evaluatedAll = false
        changes.externals.removeAll(keepingCapacity: true)
        for r in changes.rows {
            changes.isRowDirty[r] = false
            let b = rows[r].basic
            if b.isValid && !changes.isSymDirty[b] { changes.isSymDirty[b] = true; changes.syms.append(b) }
        }
        changes.rows.removeAll(keepingCapacity: true)
        // Values of the dirty symbols that active rows give or that are non-basic; passive ones are queued by
        // rank in a bitset (`RankQueue`), which a forward scan then empties in topological order. With no rank
        // placed (`placeRank`) the rank is the symbol id, read without the table of places.
        let byID = placedRanks.isEmpty
        for s in changes.syms {
            changes.isSymDirty[s] = false
            let r = rowOf[s]
            if r.isValid && rows[r].passive {
                scratch.rankQueue.insert(byID ? s.index : rankPlace(s))
            } else {
                symValue[s] = r.isValid ? rows[r].constant : 0
                if kind[s] == .external { changes.externals.append(s) }
                for ref in pcols[s] { scratch.rankQueue.insert(byID ? rows[ref.row].basic.index : rankPlace(rows[ref.row].basic)) }
            }
        }
        changes.syms.removeAll(keepingCapacity: true)
        // Passive rows by rank: each queues the passive rows that hold its variable, all of higher rank.
        while let i = scratch.rankQueue.popFirst() {
            let b = byID ? Sym(i) : symbol(atRankPlace: i)
            guard b.isValid else { continue }
            let r = rowOf[b]
            guard r.isValid, rows[r].passive else { continue }
            changes.lastIncrementalRows += 1
            var v = rows[r].constant
            for c in rows[r].cells where rowOf[c.sym].isValid { v += c.coef * symValue[c.sym] }
            symValue[b] = v
            if kind[b] == .external { changes.externals.append(b) }
            for ref in pcols[b] { scratch.rankQueue.insert(byID ? rows[ref.row].basic.index : rankPlace(rows[ref.row].basic)) }
        }
    }

    /// `evaluate` over every row, by the compiled program (`EvaluationProgram`), compiling it first when the
    /// rows changed shape since.
    mutating func evaluateAll() {
        changes.evaluatedAll = true
        changes.externals.removeAll(keepingCapacity: true)
        for r in changes.rows { changes.isRowDirty[r] = false }
        changes.rows.removeAll(keepingCapacity: true)
        for s in changes.syms { changes.isSymDirty[s] = false }
        changes.syms.removeAll(keepingCapacity: true)
        // The two arrays it reads, not `self`: passing the tableau copied it (a retain and a release of every array).
        if !evaluation.isValid {
            evaluation.compile(rows: rows, rowOf: rowOf, order: placedRanks.isEmpty ? nil : rankOrderedSymbols())
        }
        changes.lastIncrementalRows = evaluation.run(rows, &symValue)
        evaluatedAtEpoch = evaluation.epoch
    }

    /// Whether `symValue` holds the value of every basic symbol from the rows as they are now: nothing changed
    /// since the last evaluation (every row change marks the row dirty, every change of shape or a rollback moves
    /// `evaluation.epoch` on).
    var valuesAreCurrent: Bool {
        evaluatedAtEpoch != 0 && evaluatedAtEpoch == evaluation.epoch && changes.rows.isEmpty && changes.syms.isEmpty
    }

    /// The value of symbol `s` now: the constant of its full reduction (non-basic symbols are 0), expanding
    /// each passive row it depends on once.
    mutating func valueNow(_ s: Sym) -> Double {
        let r = rowOf[s]
        if !r.isValid { return 0 }
        if !rows[r].passive { return rows[r].constant }
        scratch.heap.removeAll()
        var k = 0.0
        scratch.expandCoef[s] = 1
        scratch.expandQueued[s] = true
        scratch.heap.push(rows[r].seq, r)
        while let (_, pr) = scratch.heap.pop() {
            let b = rows[pr].basic
            let c = scratch.expandCoef[b]
            scratch.expandCoef[b] = 0
            scratch.expandQueued[b] = false
            k += c * rows[pr].constant
            for cell in rows[pr].cells {
                let br = rowOf[cell.sym]
                if !br.isValid { continue }
                if rows[br].passive {
                    scratch.expandCoef[cell.sym] += c * cell.coef
                    if !scratch.expandQueued[cell.sym] {
                        scratch.expandQueued[cell.sym] = true
                        scratch.heap.push(rows[br].seq, br)
                    }
                } else {
                    k += c * cell.coef * rows[br].constant
                }
            }
        }
        return k
    }

    /// The value of symbol `s` after `evaluate()`.
    func value(_ s: Sym) -> Double { rowOf[s].isValid ? symValue[s] : 0 }
}

/// The tableau's evaluation compiled into flat arrays: the active rows (whose basic takes the row's constant) and
/// the passive rows in rank order with only their cells on basic symbols (non-basic ones are 0). One pass over
/// contiguous memory evaluates everything: a frame in which every value moves (a window resized, a splitter
/// dragged) reads the rows' own cell arrays no more. Compiled again after any change of the rows' shape (a
/// pivot, a row made or freed, a passive row's cells); constant changes need no recompiling (constants are read
/// from the rows).
struct EvaluationProgram {
    private(set) var isValid = false
    /// Counts the invalidations: every change of the rows' shape (`Tableau.shapeEpoch`).
    private(set) var epoch: UInt64 = 0
    private var activeBasics: [Int32] = []
    private var activeRows: [Int32] = []
    private var passiveBasics: [Int32] = []
    private var passiveRows: [Int32] = []
    private var starts: [Int32] = [0]
    private var syms: [Int32] = []
    private var coefs: [Double] = []
    /// `run`'s buffer for scattered rows: their constants in the order it reads them (active rows, then passive).
    private var constants: [Double] = []

    /// Whether, in the last compile, more than a quarter of the rows taken in rank order lay far from the row
    /// before them in memory (`Tableau.renumberRowsInRankOrder`).
    private(set) var rowsAreScattered = false
    /// Rows and cells read by the runs over scattered rows since they were last found in order or renumbered.
    private(set) var scatteredWork = 0

    mutating func invalidate() { isValid = false; epoch &+= 1 }

    /// Drops the program after the rows were renumbered (their shape and values unchanged): compiled again on
    /// the next full pass.
    mutating func discard() { isValid = false; scatteredWork = 0 }

    /// Compiles the rows: the passive ones in the order of `order` (every symbol id in rank order, when ranks
    /// were placed: `Tableau.placeRank`), else by symbol id.
    mutating func compile(rows: [Row], rowOf: [RowID], order: [Int]? = nil) {
        activeBasics.removeAll(keepingCapacity: true); activeRows.removeAll(keepingCapacity: true)
        passiveBasics.removeAll(keepingCapacity: true); passiveRows.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true); starts.append(0)
        syms.removeAll(keepingCapacity: true); coefs.removeAll(keepingCapacity: true)
        // Through raw buffers: `let row = rows[r]` retained and released each row's cells (a third of a drag
        // step that pivots went into compiling).
        var farApart = 0, previous = 0, basics = 0
        rows.withUnsafeBufferPointer { rows in
            for r in rows.indices where rows[r].basic.isValid && !rows[r].passive {
                activeBasics.append(rows[r].basic.raw); activeRows.append(Int32(r))
            }
            rowOf.withUnsafeBufferPointer { rowOf in
                for k in 0 ..< (order?.count ?? rowOf.count) {
                    let s = order?[k] ?? k
                    let r = rowOf[s].index
                    guard r >= 0 else { continue }
                    basics += 1
                    if abs(r - previous) > EvaluationProgram.nearRows { farApart += 1 }
                    previous = r
                    guard rows[r].passive else { continue }
                    passiveBasics.append(Int32(s)); passiveRows.append(Int32(r))
                    rows[r].cells.withUnsafeBufferPointer { cells in
                        for c in cells where rowOf[c.sym.index].isValid { syms.append(c.sym.raw); coefs.append(c.coef) }
                    }
                    starts.append(Int32(syms.count))
                }
            }
        }
        isValid = true
        rowsAreScattered = farApart * 4 > basics
        if !rowsAreScattered { scatteredWork = 0 }
    }

    /// Rows whose ids differ by at most this many are near each other in memory (a few pages).
    static let nearRows = 64

    /// Every basic symbol's value into `value` (indexed by symbol). Returns how many values changed.
    mutating func run(_ rows: [Row], _ value: inout [Double]) -> Int {
        rows.withUnsafeBufferPointer { rows in
        activeRows.withUnsafeBufferPointer { activeRows in
        passiveRows.withUnsafeBufferPointer { passiveRows in
            guard rowsAreScattered else {
                return pass(&value, active: { rows[Int(activeRows[$0])].constant },
                            passive: { rows[Int(passiveRows[$0])].constant })
            }
            // Rows far apart in memory: their constants are gathered first, in a loop of loads that depend on
            // nothing, which the processor overlaps. Read inside the pass, where each row waits for the rows
            // before it, each was a cache miss waited for alone (three quarters of a pass on a shuffled
            // 100k-variable build). In order, the extra loop is only extra work.
            scatteredWork += activeRows.count + passiveRows.count + syms.count
            let count = activeRows.count + passiveRows.count, first = activeRows.count
            if constants.count < count { constants.append(contentsOf: repeatElement(0, count: count - constants.count)) }
            var gathered = [Double]()
            swap(&gathered, &constants)
            defer { swap(&gathered, &constants) }
            return gathered.withUnsafeMutableBufferPointer { gathered in
                for i in activeRows.indices { gathered[i] = rows[Int(activeRows[i])].constant }
                for i in passiveRows.indices { gathered[first + i] = rows[Int(passiveRows[i])].constant }
                return pass(&value, active: { gathered[$0] }, passive: { gathered[first + $0] })
            }
        }}}
    }

    /// The pass of `run`, with the constants of the i-th active and passive rows from `active` and `passive`.
    @inline(__always) private func pass(_ value: inout [Double], active: (Int) -> Double,
                                        passive: (Int) -> Double) -> Int {
        var changed = 0
        value.withUnsafeMutableBufferPointer { value in
            @inline(__always) func store(_ s: Int32, _ v: Double) {
                if value[Int(s)] != v { changed += 1 }
                value[Int(s)] = v
            }
            activeBasics.withUnsafeBufferPointer { basics in
                for i in basics.indices { store(basics[i], active(i)) }
            }
            passiveBasics.withUnsafeBufferPointer { basics in
            starts.withUnsafeBufferPointer { starts in
            syms.withUnsafeBufferPointer { syms in
            coefs.withUnsafeBufferPointer { coefs in
                for i in basics.indices {
                    var v = passive(i)
                    for j in Int(starts[i])..<Int(starts[i + 1]) { v += coefs[j] * value[Int(syms[j])] }
                    store(basics[i], v)
                }
            }}}}
        }
        return changed
    }
}
