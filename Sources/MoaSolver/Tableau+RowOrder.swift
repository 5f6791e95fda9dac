// Moa — the rows' order in memory: renumbered in rank order when the calls that made them left them scattered.

extension Tableau {
    /// Renumbers the rows in rank order once the full evaluations over them scattered have read more than
    /// `renumberingCostFactor` times what a renumbering touches (every row and cell): rent paid up to the price
    /// of buying. A system built once and read once never pays it, one animated frame after frame pays it once,
    /// and one whose rows are dense beside the few a pass reads (enaml's restricted rows: 2.2M cells, 20k read
    /// by a pass) pays it only after many frames. Only in a tableau large enough for the order to matter
    /// (`rowOrderMinimum`); between calls, after an evaluation.
    mutating func renumberRowsIfScattered() {
        guard evaluation.isValid, evaluation.rowsAreScattered, rows.count >= rowOrderMinimum,
              evaluation.scatteredWork > 0,
              evaluation.scatteredWork / (rows.count + cellCount) >= renumberingCostFactor else { return }
        _ = renumberRowsInRankOrder()
    }

    /// Renumbers the rows in the rank order now (see `renumberRowsInRankOrder(_:)`).
    mutating func renumberRowsInRankOrder() -> Bool {
        renumberRowsInRankOrder(placedRanks.isEmpty ? nil : rankOrderedSymbols())
    }

    /// Renumbers the rows in the rank order of their basic symbols (`order`: every symbol id in rank order, nil
    /// for id order), the free rows after them. Row ids are given in the order rows are made, so a system built in
    /// a shuffled order lists neighbours in the rank order (a view's rows, a definition and the ones it holds) far
    /// apart in memory, and each pass over the rows (an evaluation, the rows of a long column) waits for a cache
    /// miss a row: a shuffled 100k-variable build then took 4-6x the time per animation frame that the same
    /// system built in order took. Nothing of the solver's state depends on row ids beyond the tables renumbered
    /// here. Only between transactions. Returns false, changing nothing, when a row's basic does not list it back.
    mutating func renumberRowsInRankOrder(_ order: [Int]?) -> Bool {
        guard !journal.isOpen, changes.rows.isEmpty, changes.syms.isEmpty else { return false }
        let live = rows.count - freeRows.count
        var newID = [Int32](repeating: -1, count: rows.count)
        var next: Int32 = 0
        for k in 0 ..< (order?.count ?? kind.count) {
            let s = Sym(order?[k] ?? k)
            let r = rowOf[s]
            guard r.isValid, rows[r].basic == s, newID[r.index] < 0 else { continue }
            newID[r.index] = next
            next += 1
        }
        guard Int(next) == live else { return false }
        // Free rows last, kept (the row count is what several bounds and choices read: the same as a twin's).
        for r in newID.indices where newID[r] < 0 { newID[r] = next; next += 1 }

        // Every column entry names its row (the two indexes edited as locals: one editor each for the whole loop).
        var active = ColumnIndex(), passive = ColumnIndex()
        swap(&active, &cols)
        swap(&passive, &pcols)
        active.withEditor { active in
            passive.withEditor { passive in
                for r in rows.indices where Int(newID[r]) < live {
                    let id = RowID(newID[r])
                    let isPassive = rows[r].passive
                    rows[r].cells.withUnsafeBufferPointer { cells in
                        for i in cells.indices {
                            let ref = ColRef(row: id, cell: Int32(i))
                            if isPassive { passive.set(cells[i].sym, Int(cells[i].colSlot), ref) }
                            else { active.set(cells[i].sym, Int(cells[i].colSlot), ref) }
                        }
                    }
                }
            }
        }
        swap(&active, &cols)
        swap(&passive, &pcols)
        for s in rowOf.indices where rowOf[s].isValid { rowOf[s] = RowID(newID[rowOf[s].index]) }
        // An aggregate's row, kept while the row still names it (a rolled-back call can leave a symbol reused
        // from the free list pointing at a row it cut off, or at a row given to something else).
        for s in aggregateOf.indices where aggregateOf[s].isValid {
            let p = aggregateOf[s].index
            let holds = p < rows.count && rows[p].aggregate == Sym(s) && Int(newID[p]) < live
            aggregateOf[s] = holds ? RowID(newID[p]) : .none
        }
        let renumbered = newID
        // The per-row tables permuted in place, a swap at a time (each puts one row where it goes; no copy of a
        // row's cells, no new arrays).
        rows.withUnsafeMutableBufferPointer { rows in
        flats.withUnsafeMutableBufferPointer { flats in
        rowStamp.withUnsafeMutableBufferPointer { stamps in
            for i in rows.indices {
                while Int(newID[i]) != i {
                    let j = Int(newID[i])
                    rows.swapAt(i, j)
                    flats.swapAt(i, j)
                    stamps.swapAt(i, j)
                    newID.swapAt(i, j)
                }
            }
        }}}
        freeRows = (live ..< rows.count).reversed().map { RowID($0) }
        // Caches that name rows: the columns' (keyed by `cellEpoch`: dropped) and the aggregates downstream of a
        // passive row (kept under the row's new id: walking an animated constant's downstream again is the cost
        // of a frame's evaluation).
        cellEpoch &+= 1
        var kept: [RowID: (epoch: UInt64, items: [(Sym, Double)])] = [:]
        for (r, answer) in downstreamAggregates where r.index < renumbered.count && Int(renumbered[r.index]) < live {
            kept[RowID(renumbered[r.index])] = answer
        }
        downstreamAggregates = kept
        evaluation.discard()
        stats.rowRenumberings += 1
        return true
    }
}
