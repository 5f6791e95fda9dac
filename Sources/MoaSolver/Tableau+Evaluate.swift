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
        if changes.rows.count + changes.syms.count > rows.count / 4 || journal.isOpen {
            evaluateAll()
            return
        }
        changes.evaluatedAll = false
        changes.externals.removeAll(keepingCapacity: true)
        for r in changes.rows {
            changes.isRowDirty[r] = false
            let b = rows[r].basic
            if b.isValid && !changes.isSymDirty[b] { changes.isSymDirty[b] = true; changes.syms.append(b) }
        }
        changes.rows.removeAll(keepingCapacity: true)
        // Values of the dirty symbols that active rows give or that are non-basic; passive ones are queued.
        scratch.heap.removeAll()
        var i = 0
        while i < changes.syms.count {
            let s = changes.syms[i]
            i += 1
            let r = rowOf[s]
            if r.isValid && rows[r].passive {
                scratch.heap.push(UInt64.max - rows[r].seq, r)
            } else {
                symValue[s] = r.isValid ? rows[r].constant : 0
                if kind[s] == .external { changes.externals.append(s) }
                for ref in pcols[s] {
                    let ub = rows[ref.row].basic
                    if !changes.isSymDirty[ub] { changes.isSymDirty[ub] = true; changes.syms.append(ub) }
                }
            }
        }
        // Passive rows in topological order (earliest first); each pushes the passive rows that hold its variable.
        var lastSeq: UInt64 = 0
        while let (key, r) = scratch.heap.pop() {
            let seq = UInt64.max - key
            if seq == lastSeq { continue }   // queued twice
            lastSeq = seq
            guard rows[r].passive, rows[r].seq == seq else { continue }
            var v = rows[r].constant
            for c in rows[r].cells where rowOf[c.sym].isValid { v += c.coef * symValue[c.sym] }
            let b = rows[r].basic
            symValue[b] = v
            if kind[b] == .external { changes.externals.append(b) }
            for ref in pcols[b] {
                let u = ref.row
                let ub = rows[u].basic
                if !changes.isSymDirty[ub] { changes.isSymDirty[ub] = true; changes.syms.append(ub) }
                scratch.heap.push(UInt64.max - rows[u].seq, u)
            }
        }
        for s in changes.syms { changes.isSymDirty[s] = false }
        changes.syms.removeAll(keepingCapacity: true)
    }

    /// `evaluate` over every row.
    mutating func evaluateAll() {
        changes.evaluatedAll = true
        changes.externals.removeAll(keepingCapacity: true)
        for r in changes.rows { changes.isRowDirty[r] = false }
        changes.rows.removeAll(keepingCapacity: true)
        for s in changes.syms { changes.isSymDirty[s] = false }
        changes.syms.removeAll(keepingCapacity: true)
        // Active rows give their constants; passive rows follow by rank, the order of their variables' symbols.
        // Unsafe buffers: this runs once per frame over every row, and array access with its retains and bounds
        // checks was most of its cost.
        rows.withUnsafeBufferPointer { rowBuf in
            rowOf.withUnsafeBufferPointer { rowOf in
                symValue.withUnsafeMutableBufferPointer { value in
                    for r in rowBuf.indices {
                        let row = rowBuf.baseAddress! + r
                        if row.pointee.basic.isValid && !row.pointee.passive {
                            value[row.pointee.basic.index] = row.pointee.constant
                        }
                    }
                    for s in rowOf.indices {
                        let r = rowOf[s]
                        guard r.isValid else { continue }
                        let row = rowBuf.baseAddress! + r.index
                        guard row.pointee.passive else { continue }
                        var v = row.pointee.constant
                        row.pointee.cells.withUnsafeBufferPointer { cells in
                            for c in cells where rowOf[c.sym.index].isValid { v += c.coef * value[c.sym.index] }
                        }
                        value[s] = v
                    }
                }
            }
        }
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
