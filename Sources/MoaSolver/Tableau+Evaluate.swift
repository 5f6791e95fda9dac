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
            changes.isRowDirty[Int(r)] = false
            let b = rows[Int(r)].basic
            if b >= 0 && !changes.isSymDirty[Int(b)] { changes.isSymDirty[Int(b)] = true; changes.syms.append(b) }
        }
        changes.rows.removeAll(keepingCapacity: true)
        // Values of the dirty symbols that active rows give or that are non-basic; passive ones are queued.
        scratch.heap.removeAll(keepingCapacity: true)
        var i = 0
        while i < changes.syms.count {
            let s = changes.syms[i]
            i += 1
            let r = rowOf[Int(s)]
            if r >= 0 && rows[Int(r)].passive {
                scratch.heapPush((UInt64.max - rows[Int(r)].seq, r))
            } else {
                symValue[Int(s)] = r >= 0 ? rows[Int(r)].constant : 0
                if kind[Int(s)] == .external { changes.externals.append(s) }
                for ref in pcols[Int(s)] {
                    let ub = rows[Int(ref.row)].basic
                    if !changes.isSymDirty[Int(ub)] { changes.isSymDirty[Int(ub)] = true; changes.syms.append(ub) }
                }
            }
        }
        // Passive rows in topological order (earliest first); each pushes the passive rows that hold its variable.
        var lastSeq: UInt64 = 0
        while let (key, r) = scratch.heapPop() {
            let seq = UInt64.max - key
            if seq == lastSeq { continue }   // queued twice
            lastSeq = seq
            guard rows[Int(r)].passive, rows[Int(r)].seq == seq else { continue }
            var v = rows[Int(r)].constant
            for c in rows[Int(r)].cells where rowOf[Int(c.sym)] >= 0 { v += c.coef * symValue[Int(c.sym)] }
            let b = rows[Int(r)].basic
            symValue[Int(b)] = v
            if kind[Int(b)] == .external { changes.externals.append(b) }
            for ref in pcols[Int(b)] {
                let u = ref.row
                let ub = rows[Int(u)].basic
                if !changes.isSymDirty[Int(ub)] { changes.isSymDirty[Int(ub)] = true; changes.syms.append(ub) }
                scratch.heapPush((UInt64.max - rows[Int(u)].seq, u))
            }
        }
        for s in changes.syms { changes.isSymDirty[Int(s)] = false }
        changes.syms.removeAll(keepingCapacity: true)
    }

    /// `evaluate` over every row.
    mutating func evaluateAll() {
        changes.evaluatedAll = true
        changes.externals.removeAll(keepingCapacity: true)
        for r in changes.rows { changes.isRowDirty[Int(r)] = false }
        changes.rows.removeAll(keepingCapacity: true)
        for s in changes.syms { changes.isSymDirty[Int(s)] = false }
        changes.syms.removeAll(keepingCapacity: true)
        let compact = !journal.isOpen
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
        scratch.heap.removeAll(keepingCapacity: true)
        var k = 0.0
        scratch.expandCoef[Int(s)] = 1
        scratch.expandQueued[Int(s)] = true
        scratch.heapPush((rows[Int(r)].seq, r))
        while let (_, pr) = scratch.heapPop() {
            let b = rows[Int(pr)].basic
            let c = scratch.expandCoef[Int(b)]
            scratch.expandCoef[Int(b)] = 0
            scratch.expandQueued[Int(b)] = false
            k += c * rows[Int(pr)].constant
            for cell in rows[Int(pr)].cells {
                let br = rowOf[Int(cell.sym)]
                if br < 0 { continue }
                if rows[Int(br)].passive {
                    scratch.expandCoef[Int(cell.sym)] += c * cell.coef
                    if !scratch.expandQueued[Int(cell.sym)] {
                        scratch.expandQueued[Int(cell.sym)] = true
                        scratch.heapPush((rows[Int(br)].seq, br))
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
}
