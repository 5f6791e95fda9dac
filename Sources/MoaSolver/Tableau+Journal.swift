// Moa — transactions on the tableau: every change between `begin()` and `commit()` can be undone exactly.

/// The open transaction's record: what `Tableau.rollback()` needs to undo every change since `begin()`.
struct Journal {
    var isOpen = false
    /// The open transaction's number; a row whose `rowStamp` equals it is already recorded.
    var txId: UInt32 = 0
    /// Rows as they were before their first change (nil: the row was free).
    var rows: [(Int32, Row?)] = []
    /// Objective coefficients as they were: (level, symbol, old value), in the order of the changes.
    var objective: [(Int32, Int32, Double)] = []
    var levelConstants: [Double] = []
    var levelCount = 0
    var symCount = 0
    var rowCount = 0
    // The free lists are stacks: a transaction records how far down each was popped and what it popped, not a
    // copy (a copy per call, then a push onto the shared buffer, made a long run of removals quadratic).
    var freeSymsMark = 0
    var freeRowsMark = 0
    var poppedSyms: [Int32] = []
    var poppedRows: [Int32] = []
    /// Symbols released in the transaction: they become free at commit (a rollback may need them back).
    var pendingFreeSyms: [Int32] = []

    /// Opens a transaction over a tableau of these sizes. Returns true when the transaction number wrapped
    /// around (the caller then clears its row stamps).
    mutating func open(levels: [Level], freeSyms: Int, freeRows: Int, symbols: Int, rows rowCount: Int) -> Bool {
        isOpen = true
        txId &+= 1
        let wrapped = txId == 0
        if wrapped { txId = 1 }
        rows.removeAll(keepingCapacity: true)
        objective.removeAll(keepingCapacity: true)
        levelConstants.removeAll(keepingCapacity: true)   // every suggest and remove begins one
        for l in levels { levelConstants.append(l.constant) }
        levelCount = levels.count
        symCount = symbols
        self.rowCount = rowCount
        freeSymsMark = freeSyms
        freeRowsMark = freeRows
        poppedSyms.removeAll(keepingCapacity: true)
        poppedRows.removeAll(keepingCapacity: true)
        pendingFreeSyms.removeAll(keepingCapacity: true)
        return wrapped
    }

    /// Notes that symbol `s` was popped from the free list, leaving `count` entries.
    mutating func poppedSymbol(_ s: Int32, leaving count: Int) {
        if count < freeSymsMark { freeSymsMark = count; poppedSyms.append(s) }
    }

    /// Notes that row `r` was popped from the free list, leaving `count` entries.
    mutating func poppedRow(_ r: Int32, leaving count: Int) {
        if count < freeRowsMark { freeRowsMark = count; poppedRows.append(r) }
    }

    /// Ends the transaction (after a commit or a rollback has used the record).
    mutating func close() {
        isOpen = false
        pendingFreeSyms.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        objective.removeAll(keepingCapacity: true)
    }
}

extension Tableau {
    // MARK: - Transactions

    /// Opens a transaction: from here every change is recorded until `commit()` or `rollback()`.
    mutating func begin() {
        if journal.open(levels: levels, freeSyms: freeSyms.count, freeRows: freeRows.count, symbols: kind.count,
                        rows: rows.count) {
            for i in rowStamp.indices { rowStamp[i] = 0 }   // the transaction id wrapped around
        }
    }

    /// Keeps every change since `begin()`; symbols released in the transaction become free.
    mutating func commit() {
        for s in journal.pendingFreeSyms where kind[Int(s)] != .unused {
            kind[Int(s)] = .unused
            owner[Int(s)] = -1
            freeSyms.append(s)
        }
        journal.close()
    }

    /// Undoes every change since `begin()`. Symbol kinds of symbols allocated in the transaction are reset by
    /// the caller's own bookkeeping through `journal.symCount`.
    mutating func rollback() {
        journal.isOpen = false
        // Take every touched row out of the columns, then put the saved rows back.
        for (r, _) in journal.rows {
            if Int(r) < rows.count { markDirty(r) }
            while !rows[Int(r)].cells.isEmpty { removeCell(r, rows[Int(r)].cells.count - 1) }
            let b = rows[Int(r)].basic
            if b >= 0 && rowOf[Int(b)] == r { rowOf[Int(b)] = -1 }
            rows[Int(r)].basic = -1
            rows[Int(r)].passive = false
        }
        for (r, saved) in journal.rows {
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
                if !changes.isSymDirty[Int(saved.basic)] {
                    changes.isSymDirty[Int(saved.basic)] = true
                    changes.syms.append(saved.basic)
                }
            }
        }
        for (l, s, old) in journal.objective.reversed() { levels[Int(l)].coef[Int(s)] = old }
        if levels.count > journal.levelCount {
            levels.removeLast(levels.count - journal.levelCount)
            levelOrder.removeAll { Int($0) >= journal.levelCount }
        }
        for l in levels.indices { levels[l].constant = journal.levelConstants[l] }
        if rows.count > journal.rowCount {
            rows.removeLast(rows.count - journal.rowCount)
            rowStamp.removeLast(rowStamp.count - journal.rowCount)
            flats.removeLast(flats.count - journal.rowCount)
            changes.isRowDirty.removeLast(changes.isRowDirty.count - journal.rowCount)
            changes.rows.removeAll { Int($0) >= journal.rowCount }
        }
        freeRows.removeLast(freeRows.count - journal.freeRowsMark)   // pushed in the transaction
        freeRows.append(contentsOf: journal.poppedRows.reversed())
        for s in journal.symCount..<kind.count {
            kind[s] = .unused; owner[s] = -1; rowOf[s] = -1; cols[s].removeAll()
        }
        // Symbols allocated in the transaction from the free list get their old state back.
        for sym in journal.poppedSyms where Int(sym) < kind.count {
            kind[Int(sym)] = .unused; owner[Int(sym)] = -1; rowOf[Int(sym)] = -1
        }
        if kind.count > journal.symCount {
            let n = kind.count - journal.symCount
            kind.removeLast(n); owner.removeLast(n); rowOf.removeLast(n); cols.removeLast(n)
            pcols.removeLast(n); isCandidate.removeLast(n); aggregateOf.removeLast(n); symValue.removeLast(n)
            changes.isSymDirty.removeLast(n)
            changes.syms.removeAll { Int($0) >= kind.count }
            phaseOne.index.removeLast(n)
            scratch.removeLastSymbols(n)
            for l in levels.indices { levels[l].coef.removeLast(n) }
            candidates.removeAll { Int($0) >= journal.symCount }
        }
        freeSyms.removeLast(freeSyms.count - journal.freeSymsMark)
        freeSyms.append(contentsOf: journal.poppedSyms.reversed())
        journal.close()
        infeasible.removeAll()
        stopArtificial()
        flatEpoch &+= 1   // restored definitions: recompute their expansions on use
    }
}
