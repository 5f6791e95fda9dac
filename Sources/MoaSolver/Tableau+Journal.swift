// Moa — transactions on the tableau: every change between `begin()` and `commit()` can be undone exactly.

/// The open transaction's record: what `Tableau.rollback()` needs to undo every change since `begin()`.
struct Journal {
    var isOpen = false
    /// The open transaction's number; a row whose `rowStamp` equals it is already recorded.
    var txId: UInt32 = 0
    /// Rows as they were before their first change (nil: the row was free).
    var rows: [(RowID, Row?)] = []
    /// Constants of rows whose only change may be their constant (`Tableau.touchConstant`), as they were, in
    /// the order of the changes; a row may appear more than once (the first entry is its value at `begin()`).
    var constants: [(RowID, Double)] = []
    /// Objective coefficients as they were: (level, symbol, old value), in the order of the changes.
    var objective: [(LevelID, Sym, Double)] = []
    /// The length of `objective` at which it is next compacted (`compactObjective`).
    var objectiveCompactAt = 1 << 22
    var levelConstants: [Double] = []
    var levelCount = 0
    var symCount = 0
    var rowCount = 0
    // The free lists are stacks: a transaction records how far down each was popped and what it popped, not a
    // copy (a copy per call, then a push onto the shared buffer, made a long run of removals quadratic).
    var freeSymsMark = 0
    var freeRowsMark = 0
    var poppedSyms: [Sym] = []
    var poppedRows: [RowID] = []
    /// Symbols released in the transaction: they become free at commit (a rollback may need them back).
    var pendingFreeSyms: [Sym] = []
    /// Rank places as they were (`Tableau.placeRank`): (symbol, old `rankOrder`), in the order of the changes.
    var ranks: [(Sym, Int32)] = []

    /// Opens a transaction over a tableau of these sizes (the caller then lists its level constants in
    /// `levelConstants`). Returns true when the transaction number wrapped around (the caller then clears its
    /// row stamps).
    mutating func open(levels: Int, freeSyms: Int, freeRows: Int, symbols: Int, rows rowCount: Int) -> Bool {
        isOpen = true
        txId &+= 1
        let wrapped = txId == 0
        if wrapped { txId = 1 }
        // (`close()` emptied the lists of changes; the rest are emptied here. Each only when it has entries:
        // every suggestion opens a transaction, and each call was a uniqueness check.)
        Journal.empty(&rows); Journal.empty(&constants); Journal.empty(&objective)
        Journal.empty(&levelConstants)
        levelCount = levels
        symCount = symbols
        self.rowCount = rowCount
        freeSymsMark = freeSyms
        freeRowsMark = freeRows
        Journal.empty(&poppedSyms); Journal.empty(&poppedRows); Journal.empty(&pendingFreeSyms)
        Journal.empty(&ranks)
        return wrapped
    }

    @inline(__always) static func empty<T>(_ list: inout [T]) {
        if !list.isEmpty { list.removeAll(keepingCapacity: true) }
    }

    /// Notes that symbol `s` was popped from the free list, leaving `count` entries.
    mutating func poppedSymbol(_ s: Sym, leaving count: Int) {
        if count < freeSymsMark { freeSymsMark = count; poppedSyms.append(s) }
    }

    /// Notes that row `r` was popped from the free list, leaving `count` entries.
    mutating func poppedRow(_ r: RowID, leaving count: Int) {
        if count < freeRowsMark { freeRowsMark = count; poppedRows.append(r) }
    }

    /// Keeps only the first record of each coefficient (its value at `begin()`, which a rollback restores
    /// last): every pivot records the coefficients it moves, and a call that pivots for long (a dual simplex of
    /// 100,000 pivots in an ambiguity probe) grew the record past 2 GB, where the process was stopped.
    mutating func compactObjective() {
        var seen = Set<Int64>()
        seen.reserveCapacity(objective.count / 4)
        var kept = 0
        for i in objective.indices {
            let (l, s, _) = objective[i]
            guard seen.insert(Int64(l.raw) << 32 | Int64(s.raw)).inserted else { continue }
            objective[kept] = objective[i]
            kept += 1
        }
        objective.removeLast(objective.count - kept)
        objectiveCompactAt = max(1 << 22, 2 * kept)
    }

    /// Ends the transaction (after a commit or a rollback has used the record).
    mutating func close() {
        isOpen = false
        Journal.empty(&pendingFreeSyms); Journal.empty(&rows); Journal.empty(&constants); Journal.empty(&objective)
    }
}

extension Tableau {
    // MARK: - Transactions

    /// Opens a transaction: from here every change is recorded until `commit()` or `rollback()`.
    mutating func begin() {
        if journal.open(levels: levels.count, freeSyms: freeSyms.count, freeRows: freeRows.count, symbols: kind.count,
                        rows: rows.count) {
            for i in rowStamp.indices { rowStamp[i] = 0 }   // the transaction id wrapped around
        }
        // By index: iterating the levels would copy each (a retain and a release of its coefficients).
        for l in levels.indices { journal.levelConstants.append(levels[l].constant) }
    }

    /// Keeps every change since `begin()`; symbols released in the transaction become free.
    mutating func commit() {
        for s in journal.pendingFreeSyms where kind[s] != .unused { markFree(s) }
        journal.close()
    }

    /// Undoes every change since `begin()`. Symbol kinds of symbols allocated in the transaction are reset by
    /// the caller's own bookkeeping through `journal.symCount`.
    mutating func rollback() {
        journal.isOpen = false
        evaluation.invalidate()
        // Take every touched row out of the columns, then put the saved rows back.
        for (r, _) in journal.rows {
            if r.index < rows.count { markDirty(r) }
            while !rows[r].cells.isEmpty { removeCell(r, rows[r].cells.count - 1) }
            let b = rows[r].basic
            if b.isValid && rowOf[b] == r { rowOf[b] = .none }
            rows[r].basic = Row.freeSlot
            rows[r].passive = false
        }
        for (r, saved) in journal.rows {
            guard let saved else { continue }
            rows[r].passive = saved.passive
            rows[r].seq = saved.seq
            rows[r].aggregate = saved.aggregate
            rows[r].constraint = saved.constraint
            rows[r].basic = saved.basic
            rows[r].constant = saved.constant
            for c in saved.cells { appendCell(r, c.sym, c.coef) }
            if saved.basic.isValid {
                rowOf[saved.basic] = r
                if !changes.isSymDirty[saved.basic] {
                    changes.isSymDirty[saved.basic] = true
                    changes.syms.append(saved.basic)
                }
            }
        }
        // After the whole rows: a row recorded whole after its constant moved has the moved constant there.
        for (r, old) in journal.constants.reversed() where r.index < journal.rowCount {
            if rows[r].basic != Row.freeSlot { rows[r].constant = old }
        }
        for (l, s, old) in journal.objective.reversed() { levels[l].coef[s] = old }
        for (s, old) in journal.ranks.reversed() { setRankPlace(s, old) }
        if levels.count > journal.levelCount {
            levels.removeLast(levels.count - journal.levelCount)
            levelOrder.removeAll { $0.index >= journal.levelCount }
        }
        for l in levels.indices { levels[l].constant = journal.levelConstants[l] }
        if rows.count > journal.rowCount {
            rows.removeLast(rows.count - journal.rowCount)
            rowStamp.removeLast(rowStamp.count - journal.rowCount)
            flats.removeLast(flats.count - journal.rowCount)
            changes.isRowDirty.removeLast(changes.isRowDirty.count - journal.rowCount)
            changes.rows.removeAll { $0.index >= journal.rowCount }
        }
        freeRows.removeLast(freeRows.count - journal.freeRowsMark)   // pushed in the transaction
        freeRows.append(contentsOf: journal.poppedRows.reversed())
        for s in journal.symCount..<kind.count {
            kind[s] = .unused; owner[s] = -1; rowOf[s] = RowID.none; cols.clear(Sym(s))
        }
        // Symbols allocated in the transaction from the free list get their old state back.
        for sym in journal.poppedSyms where sym.index < kind.count {
            kind[sym] = .unused; owner[sym] = -1; rowOf[sym] = .none
        }
        if kind.count > journal.symCount {
            let n = kind.count - journal.symCount
            kind.removeLast(n); owner.removeLast(n); rowOf.removeLast(n); cols.removeLastSymbols(n)
            rankOrder.removeLast(n); placesTaken.removeLast(n); roomAfter.removeLast(n); pcols.removeLastSymbols(n); isCandidate.removeLast(n); aggregateOf.removeLast(n); symValue.removeLast(n)
            changes.isSymDirty.removeLast(n)
            changes.syms.removeAll { $0.index >= kind.count }
            phaseOne.index.removeLast(n)
            scratch.removeLastSymbols(n)
            for l in levels.indices { levels[l].coef.removeLast(n) }
            candidates.removeAll { $0.index >= journal.symCount }
        }
        freeSyms.removeLast(freeSyms.count - journal.freeSymsMark)
        freeSyms.append(contentsOf: journal.poppedSyms.reversed())
        journal.close()
        infeasible.removeAll()
        stopArtificial()
        flatEpoch &+= 1   // restored definitions: recompute their expansions on use
    }
}
